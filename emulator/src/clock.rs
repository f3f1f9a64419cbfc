//! The emulator's one clock: the real time, moved ahead by `POST /__admin/clock` (until `POST /__admin/reset`),
//! so that tests need not wait for time to pass. Every part reads it: orders' creation and GTD expiry, the
//! heartbeats' deadline, trades' times and settlement, the event timestamps of both streaming channels, price
//! histories' windows, rate-limit reset times, the request log.
//!
//! What a caller's own clock is held against is the one reading that does not move ([`Clock::caller_ms`]): the
//! freshness windows of SERVICE_TIMESTAMP and of the API-key (L1) signature. A test cannot move its client's
//! clock, so moving the emulator's stands for time passing on both sides; a client that sets its clock by the
//! service's reads the `Date` header, which hyper writes from the real time too. Elapsed real time (rate-limit
//! windows, socket stalls) is measured with `Instant` where it is used: that is no one's clock.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

#[derive(Default)]
pub struct Clock {
    /// How far ahead of the real time it runs, in seconds.
    ahead_secs: AtomicU64,
}

fn real_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}

impl Clock {
    /// Unix milliseconds.
    pub fn now_ms(&self) -> u64 {
        real_ms().saturating_add(self.ahead_secs.load(Ordering::Relaxed).saturating_mul(1000))
    }

    /// Unix seconds.
    pub fn now_secs(&self) -> u64 {
        self.now_ms() / 1000
    }

    /// The time a caller's clock shows (Unix milliseconds): the real time, however far the clock was moved.
    pub fn caller_ms(&self) -> u64 {
        real_ms()
    }

    /// Moves the clock ahead by `secs`; answers how far ahead it now is.
    pub fn advance(&self, secs: u64) -> u64 {
        self.ahead_secs.fetch_add(secs, Ordering::Relaxed).saturating_add(secs)
    }

    /// Back to the real time.
    pub fn reset(&self) {
        self.ahead_secs.store(0, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_moves_ahead_until_reset_and_the_callers_reading_stays() {
        let clock = Clock::default();
        let real = clock.caller_ms();
        assert!(clock.now_ms().abs_diff(real) < 1_000);
        assert_eq!(clock.advance(90), 90);
        assert_eq!(clock.advance(10), 100);
        assert!(clock.now_ms().abs_diff(real + 100_000) < 1_000);
        assert!(clock.now_secs().abs_diff(real / 1000 + 100) <= 1);
        assert!(clock.caller_ms().abs_diff(real) < 1_000, "a caller's clock does not move");
        clock.reset();
        assert!(clock.now_ms().abs_diff(real) < 1_000);
    }
}
