//! A stream's health: the heartbeat, the silent stall and reconnection, as a pure state machine. The
//! binding feeds it what happens (the socket opened, a message or a `PONG` came, the socket closed, time
//! passed) with the time, and does what it answers (send `PING`, resubscribe, reconnect after a delay,
//! tell the page the status). Nothing here reads a clock or a random source: both are passed in.

/// What a stream's owner sees of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// A socket is being opened.
    Connecting,
    /// Subscribed; messages flow (or the market is quiet and PONGs come).
    Open,
    /// PONGs come but no market message has for `stall_after_ms`: resubscribed to get a fresh dump.
    Stalled,
    /// The socket closed or went silent; a new one opens after a backoff.
    Reconnecting,
    /// Closed by its owner (`close()` or the signal): nothing more happens.
    Closed,
}

impl Status {
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Connecting => "connecting",
            Self::Open => "open",
            Self::Stalled => "stalled",
            Self::Reconnecting => "reconnecting",
            Self::Closed => "closed",
        }
    }
}

/// The timings of a stream's health.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HealthPolicy {
    /// How often `PING` is sent (the service expects one every 10 s).
    pub ping_every_ms: f64,
    /// How long after a `PING` its `PONG` may come before the socket counts as dead.
    pub pong_within_ms: f64,
    /// How long without a market message (PONGs still coming) before the subscription counts as stalled;
    /// `f64::INFINITY` turns stall detection off.
    pub stall_after_ms: f64,
    /// The first reconnection delay, doubled after each failed attempt up to `backoff_max_ms`.
    pub backoff_first_ms: f64,
    pub backoff_max_ms: f64,
}

impl Default for HealthPolicy {
    fn default() -> Self {
        Self {
            ping_every_ms: 10_000.0,
            pong_within_ms: 10_000.0,
            stall_after_ms: 60_000.0,
            backoff_first_ms: 1_000.0,
            backoff_max_ms: 60_000.0,
        }
    }
}

/// What the binding must do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Action {
    /// Send the text `PING`.
    Ping,
    /// Send the subscription again on the open socket (the service answers with fresh `book` dumps).
    Resubscribe,
    /// Close the socket (if open) and open a new one after `delay_ms`.
    Reconnect { delay_ms: f64 },
    /// Tell the owner the stream's status changed.
    Status(Status),
}

/// The health of one stream: its status and the times that decide what comes next.
#[derive(Clone, Debug)]
pub struct Health {
    policy: HealthPolicy,
    status: Status,
    /// When the last message of the subscribed channel came (or the socket opened).
    last_message_ms: f64,
    /// When the last `PING` went, and whether its `PONG` is still awaited.
    last_ping_ms: f64,
    awaiting_pong: bool,
    /// Failed connections in a row, for the backoff.
    failures: u32,
    /// When the last resubscription for a stall went (a second stall reconnects instead).
    resubscribed_ms: Option<f64>,
    /// When the socket being opened was started (a socket that never opens counts as closed).
    connecting_since: f64,
}

impl Health {
    pub fn new(policy: HealthPolicy) -> Self {
        Self {
            policy,
            status: Status::Connecting,
            last_message_ms: 0.0,
            last_ping_ms: 0.0,
            awaiting_pong: false,
            failures: 0,
            resubscribed_ms: None,
            connecting_since: 0.0,
        }
    }

    pub fn status(&self) -> Status {
        self.status
    }

    pub fn policy(&self) -> &HealthPolicy {
        &self.policy
    }

    fn set(&mut self, status: Status, actions: &mut Vec<Action>) {
        if self.status != status {
            self.status = status;
            actions.push(Action::Status(status));
        }
    }

    /// A new socket is being opened (the first one too: its status is told like every other). One that
    /// has not opened `pong_within_ms` later counts as closed.
    pub fn connecting(&mut self, now: f64) -> Vec<Action> {
        if self.status == Status::Closed {
            return Vec::new();
        }
        self.status = Status::Connecting;
        self.connecting_since = now;
        vec![Action::Status(Status::Connecting)]
    }

    /// The socket opened and the subscription was sent.
    pub fn opened(&mut self, now: f64) -> Vec<Action> {
        let mut actions = Vec::new();
        if self.status == Status::Closed {
            return actions;
        }
        self.last_message_ms = now;
        self.last_ping_ms = now;
        self.awaiting_pong = false;
        self.resubscribed_ms = None;
        self.set(Status::Open, &mut actions);
        actions
    }

    /// A message of the channel came (an event, or a frame that did not decode: the socket is alive).
    pub fn message(&mut self, now: f64) -> Vec<Action> {
        let mut actions = Vec::new();
        if self.status == Status::Closed {
            return actions;
        }
        self.last_message_ms = now;
        // A socket that delivers is a working connection: the backoff starts over.
        self.failures = 0;
        self.resubscribed_ms = None;
        if self.status == Status::Stalled {
            self.set(Status::Open, &mut actions);
        }
        actions
    }

    /// A `PONG` came.
    pub fn pong(&mut self, _now: f64) {
        self.awaiting_pong = false;
    }

    /// The socket closed (or failed to open) without its owner asking: reconnect after a backoff with
    /// jitter (`random` in `[0, 1)`): `first × 2^failures`, capped, the upper half of it random.
    pub fn closed(&mut self, random: f64) -> Vec<Action> {
        let mut actions = Vec::new();
        if self.status == Status::Closed {
            return actions;
        }
        let delay_ms = self.backoff(random);
        self.failures = self.failures.saturating_add(1);
        self.awaiting_pong = false;
        self.set(Status::Reconnecting, &mut actions);
        actions.push(Action::Reconnect { delay_ms });
        actions
    }

    fn backoff(&self, random: f64) -> f64 {
        let p = &self.policy;
        let full = (p.backoff_first_ms * 2f64.powi(self.failures.min(30) as i32)).min(p.backoff_max_ms);
        let random = if (0.0..1.0).contains(&random) { random } else { 0.5 };
        full / 2.0 + full / 2.0 * random
    }

    /// The owner closed the stream: nothing more happens.
    pub fn close(&mut self) -> Vec<Action> {
        let mut actions = Vec::new();
        self.set(Status::Closed, &mut actions);
        actions
    }

    /// Time passed: what is due at `now`. Call it at [`Health::next_check`] (or earlier: it does only
    /// what is due).
    pub fn tick(&mut self, now: f64, random: f64) -> Vec<Action> {
        let mut actions = Vec::new();
        if self.status == Status::Connecting && now - self.connecting_since >= self.policy.pong_within_ms {
            // A socket that never opens (a black hole, a socket that never answers) is a failed one.
            return self.closed(random);
        }
        if !matches!(self.status, Status::Open | Status::Stalled) {
            return actions;
        }
        let p = self.policy;
        if self.awaiting_pong && now - self.last_ping_ms >= p.pong_within_ms {
            // No PONG in time: the connection is dead even if the socket says open.
            return self.closed(random);
        }
        if now - self.last_message_ms >= p.stall_after_ms {
            match self.resubscribed_ms {
                // Still silent a whole stall period after resubscribing: a new connection.
                Some(at) if now - at >= p.stall_after_ms => return self.closed(random),
                Some(_) => {}
                None => {
                    self.resubscribed_ms = Some(now);
                    self.set(Status::Stalled, &mut actions);
                    actions.push(Action::Resubscribe);
                }
            }
        }
        if !self.awaiting_pong && now - self.last_ping_ms >= p.ping_every_ms {
            self.last_ping_ms = now;
            self.awaiting_pong = true;
            actions.push(Action::Ping);
        }
        actions
    }

    /// When [`Health::tick`] next has something to do (`INFINITY` when nothing is scheduled).
    pub fn next_check(&self) -> f64 {
        if self.status == Status::Connecting {
            return self.connecting_since + self.policy.pong_within_ms;
        }
        if !matches!(self.status, Status::Open | Status::Stalled) {
            return f64::INFINITY;
        }
        let p = &self.policy;
        let ping =
            if self.awaiting_pong { self.last_ping_ms + p.pong_within_ms } else { self.last_ping_ms + p.ping_every_ms };
        let stall = match self.resubscribed_ms {
            Some(at) => at + p.stall_after_ms,
            None => self.last_message_ms + p.stall_after_ms,
        };
        ping.min(stall)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open_at(now: f64) -> Health {
        let mut h = Health::new(HealthPolicy { stall_after_ms: 30_000.0, ..HealthPolicy::default() });
        assert_eq!(h.connecting(now - 5.0), vec![Action::Status(Status::Connecting)]);
        assert_eq!(h.opened(now), vec![Action::Status(Status::Open)]);
        h
    }

    #[test]
    fn pings_every_ten_seconds_while_pongs_come() {
        let mut h = open_at(0.0);
        assert_eq!(h.next_check(), 10_000.0);
        assert_eq!(h.tick(9_999.0, 0.5), vec![]);
        assert_eq!(h.tick(10_000.0, 0.5), vec![Action::Ping]);
        h.pong(10_050.0);
        h.message(15_000.0);
        assert_eq!(h.next_check(), 20_000.0);
        assert_eq!(h.tick(20_000.0, 0.5), vec![Action::Ping]);
        assert_eq!(h.status(), Status::Open);
    }

    #[test]
    fn a_missing_pong_reconnects() {
        let mut h = open_at(0.0);
        assert_eq!(h.tick(10_000.0, 0.5), vec![Action::Ping]);
        h.message(12_000.0);
        assert_eq!(h.next_check(), 20_000.0);
        assert_eq!(h.tick(19_999.0, 0.5), vec![]);
        let actions = h.tick(20_000.0, 0.0);
        assert_eq!(actions, vec![Action::Status(Status::Reconnecting), Action::Reconnect { delay_ms: 500.0 }]);
        assert_eq!(h.next_check(), f64::INFINITY);
    }

    #[test]
    fn a_silent_subscription_with_pongs_is_a_stall_then_a_reconnect() {
        let mut h = open_at(0.0);
        for t in [10_000.0, 20_000.0] {
            assert_eq!(h.tick(t, 0.5), vec![Action::Ping]);
            h.pong(t + 10.0);
        }
        // No market message for 30 s while PONGs come: resubscribe once.
        assert_eq!(h.tick(30_000.0, 0.5), vec![Action::Status(Status::Stalled), Action::Resubscribe, Action::Ping]);
        h.pong(30_010.0);
        assert_eq!(h.tick(40_000.0, 0.5), vec![Action::Ping]);
        h.pong(40_010.0);
        // A message after the resubscription: open again.
        let mut recovered = h.clone();
        assert_eq!(recovered.message(45_000.0), vec![Action::Status(Status::Open)]);
        assert_eq!(h.tick(50_000.0, 0.5), vec![Action::Ping]);
        h.pong(50_010.0);
        // Still nothing a stall period after resubscribing: a new connection.
        assert_eq!(h.tick(59_999.0, 0.5), vec![]);
        let actions = h.tick(60_000.0, 0.99);
        assert!(matches!(actions.as_slice(), [Action::Status(Status::Reconnecting), Action::Reconnect { .. }]));
    }

    #[test]
    fn backoff_doubles_from_one_second_to_a_minute_with_jitter() {
        let mut h = open_at(0.0);
        let mut delays = Vec::new();
        for _ in 0..9 {
            h.connecting(0.0);
            let actions = h.closed(0.0);
            let Some(Action::Reconnect { delay_ms }) = actions.last().copied() else { panic!("{actions:?}") };
            delays.push(delay_ms);
        }
        // random 0: the lower half of the full delay.
        assert_eq!(delays, vec![500.0, 1_000.0, 2_000.0, 4_000.0, 8_000.0, 16_000.0, 30_000.0, 30_000.0, 30_000.0]);
        let mut fresh = open_at(0.0);
        assert_eq!(fresh.closed(0.999_999).last(), Some(&Action::Reconnect { delay_ms: 999.9995 }));
        // A working connection resets the backoff.
        h.opened(100.0);
        h.message(200.0);
        assert_eq!(h.closed(0.0).last(), Some(&Action::Reconnect { delay_ms: 500.0 }));
        // A random value out of range counts as the middle.
        assert_eq!(open_at(0.0).closed(f64::NAN).last(), Some(&Action::Reconnect { delay_ms: 750.0 }));
    }

    #[test]
    fn closed_by_its_owner_nothing_more_happens() {
        let mut h = open_at(0.0);
        assert_eq!(h.close(), vec![Action::Status(Status::Closed)]);
        assert_eq!(h.tick(100_000.0, 0.5), vec![]);
        assert_eq!(h.closed(0.5), vec![]);
        assert_eq!(h.opened(1.0), vec![]);
        assert_eq!(h.message(2.0), vec![]);
        assert_eq!(h.connecting(3.0), vec![]);
        assert_eq!(h.status(), Status::Closed);
        assert_eq!(h.next_check(), f64::INFINITY);
    }

    #[test]
    fn a_socket_that_never_opens_is_a_failed_one() {
        let mut h = Health::new(HealthPolicy::default());
        h.connecting(1_000.0);
        assert_eq!(h.next_check(), 11_000.0);
        assert_eq!(h.tick(10_999.0, 0.0), vec![]);
        assert_eq!(
            h.tick(11_000.0, 0.0),
            vec![Action::Status(Status::Reconnecting), Action::Reconnect { delay_ms: 500.0 }]
        );
        // The next attempt waits longer, and opening in time is fine.
        h.connecting(12_000.0);
        assert_eq!(h.opened(12_500.0), vec![Action::Status(Status::Open)]);
        assert_eq!(h.next_check(), 22_500.0);
    }

    #[test]
    fn stall_detection_can_be_off() {
        let mut h = Health::new(HealthPolicy { stall_after_ms: f64::INFINITY, ..HealthPolicy::default() });
        h.opened(0.0);
        for i in 1..=100 {
            let t = f64::from(i) * 10_000.0;
            assert_eq!(h.tick(t, 0.5), vec![Action::Ping]);
            h.pong(t + 1.0);
        }
        assert_eq!(h.status(), Status::Open);
    }
}
