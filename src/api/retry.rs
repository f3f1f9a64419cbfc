//! Whether and when to try a request again: a pure function of what happened, the attempt number and a
//! random draw, so that a table covers it.

/// What an attempt ended with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// No HTTP answer at all (refused, reset, DNS, CORS).
    Network,
    /// The answer's body was cut off while it was read.
    BodyCut,
    /// A non-2xx status.
    Status(u16),
    /// The attempt took longer than its own timeout and was abandoned (idempotent requests only).
    Stalled,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RetryPolicy {
    /// Retries after the first attempt.
    pub max_retries: u32,
    /// The first backoff; doubled for each retry.
    pub base_ms: f64,
    /// The longest backoff.
    pub cap_ms: f64,
    /// The longest `Retry-After` that is waited for; a longer one ends the request with its error.
    pub max_retry_after_ms: f64,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_retries: super::options::DEFAULT_MAX_RETRIES,
            base_ms: 500.0,
            cap_ms: 8_000.0,
            max_retry_after_ms: 60_000.0,
        }
    }
}

/// Whether the outcome may be retried. Idempotent requests are retried on network errors, cut bodies,
/// 408, 429 and 5xx. The others (the DELETE cancellations) only on 429: a throttled request was refused
/// before it was applied, while after a network error or a 5xx it may have been applied, and a second
/// cancellation would report the order as "already canceled" instead of cancelled.
///
/// A 425 (the matching engine restarting) is retried whatever the request: the service refused it before
/// applying it, so an order it answers 425 to cannot have been taken.
pub fn retryable(outcome: Outcome, idempotent: bool) -> bool {
    match outcome {
        Outcome::Status(425 | 429) => true,
        Outcome::Network | Outcome::BodyCut | Outcome::Stalled | Outcome::Status(408) | Outcome::Status(500..=599) => {
            idempotent
        }
        Outcome::Status(_) => false,
    }
}

/// The delay before retry number `retry` (0 for the first retry), or `None` to give up.
/// `Retry-After` is honoured exactly; otherwise the backoff is `base × 2^retry`, capped, with half of it
/// jittered by `random` in `[0, 1)` so that many clients do not retry in step.
pub fn retry_delay(
    policy: &RetryPolicy,
    retry: u32,
    outcome: Outcome,
    idempotent: bool,
    retry_after_ms: Option<f64>,
    random: f64,
) -> Option<f64> {
    if retry >= policy.max_retries || !retryable(outcome, idempotent) {
        return None;
    }
    if let Some(after) = retry_after_ms {
        return (after <= policy.max_retry_after_ms).then_some(after.max(0.0));
    }
    let backoff = (policy.base_ms * 2f64.powi(retry.min(30) as i32)).min(policy.cap_ms);
    let random = if (0.0..1.0).contains(&random) { random } else { 0.5 };
    let delay = backoff / 2.0 + backoff / 2.0 * random;
    // A restart takes about 90 seconds: the service asks clients to start backing off at 1 to 2 s.
    Some(if outcome == Outcome::Status(425) { delay.max(ENGINE_RESTART_MIN_MS) } else { delay })
}

/// The shortest attempt timeout by default.
pub const MIN_ATTEMPT_MS: f64 = 1_000.0;

/// How long one attempt may take before it is abandoned and the request tried again, when `remaining_ms` of
/// the call's deadline are left and `retries_left` retries: a stalled answer must not spend the whole deadline.
/// Only an idempotent request is abandoned (an order or a key creation may have arrived: it is never sent
/// twice, so it waits for its answer), and never its last attempt. `configured` is `attemptTimeoutMs`; by
/// default a third of the remaining time, at least [`MIN_ATTEMPT_MS`]. None when it would not end before the
/// deadline.
pub fn attempt_timeout(idempotent: bool, retries_left: u32, remaining_ms: f64, configured: Option<f64>) -> Option<f64> {
    if !idempotent || retries_left == 0 {
        return None;
    }
    let ms = match configured {
        Some(ms) => ms,
        None if remaining_ms.is_finite() => (remaining_ms / 3.0).max(MIN_ATTEMPT_MS),
        None => return None,
    };
    (ms.is_finite() && ms < remaining_ms).then_some(ms)
}

/// The shortest wait before retrying a 425 that names no wait.
pub const ENGINE_RESTART_MIN_MS: f64 = 1000.0;

/// A `Retry-After` value in milliseconds from `now_ms`: whole seconds, or an HTTP date.
pub fn retry_after_ms(value: &str, now_ms: f64) -> Option<f64> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(seconds as f64 * 1000.0);
    }
    http_date_ms(value).map(|at| (at - now_ms).max(0.0))
}

/// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`, the form HTTP requires) as milliseconds since the epoch.
pub fn http_date_ms(text: &str) -> Option<f64> {
    let mut parts = text.split_ascii_whitespace();
    let _weekday = parts.next()?.strip_suffix(',')?;
    let day: i64 = parts.next()?.parse().ok()?;
    const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let month = MONTHS.iter().position(|m| Some(*m) == parts.clone().next())? as i64 + 1;
    parts.next();
    let year: i64 = parts.next()?.parse().ok()?;
    let mut hms = parts.next()?.split(':').map(|p| p.parse::<i64>().ok());
    let (h, m, s) = (hms.next()??, hms.next()??, hms.next()??);
    if parts.next()? != "GMT" || parts.next().is_some() || hms.next().is_some() {
        return None;
    }
    if !(1..=31).contains(&day) || !(0..24).contains(&h) || !(0..60).contains(&m) || !(0..61).contains(&s) {
        return None;
    }
    let days = days_from_civil(year, month, day);
    Some(((days * 86_400 + h * 3600 + m * 60 + s) * 1000) as f64)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_attempt_of_a_read_is_abandoned_in_time_for_a_retry() {
        let inf = f64::INFINITY;
        // (idempotent, retries left, remaining ms, attemptTimeoutMs, the attempt's timeout)
        let table = [
            // A third of what remains, at least a second (issue 33: a 20 s stall with a 5 s timeoutMs).
            (true, 2, 5_000.0, None, Some(5_000.0 / 3.0)),
            (true, 2, 15_000.0, None, Some(5_000.0)),
            (true, 2, 2_400.0, None, Some(1_000.0)),
            // A second would reach the deadline: the attempt keeps the rest.
            (true, 2, 900.0, None, None),
            // No deadline, no default; a configured one still applies.
            (true, 2, inf, None, None),
            (true, 2, inf, Some(3_000.0), Some(3_000.0)),
            (true, 2, 5_000.0, Some(500.0), Some(500.0)),
            (true, 2, 5_000.0, Some(6_000.0), None),
            // The last attempt, and anything that may have been applied (orders, keys, cancellations), wait.
            (true, 0, 5_000.0, None, None),
            (false, 2, 5_000.0, None, None),
            (false, 2, inf, Some(1_000.0), None),
        ];
        for (idempotent, left, remaining, configured, want) in table {
            assert_eq!(
                attempt_timeout(idempotent, left, remaining, configured),
                want,
                "{idempotent} {left} {remaining} {configured:?}"
            );
        }
        assert!(retryable(Outcome::Stalled, true));
        assert!(!retryable(Outcome::Stalled, false));
    }

    #[test]
    fn what_is_retried() {
        let table = [
            (Outcome::Network, true, true),
            (Outcome::Network, false, false),
            (Outcome::BodyCut, true, true),
            (Outcome::Status(408), true, true),
            (Outcome::Status(429), true, true),
            (Outcome::Status(429), false, true),
            (Outcome::Status(500), true, true),
            (Outcome::Status(503), false, false),
            (Outcome::Status(400), true, false),
            (Outcome::Status(401), true, false),
            (Outcome::Status(404), true, false),
            // A restarting engine refused the request before applying it: retried, a placement too.
            (Outcome::Status(425), false, true),
            (Outcome::Status(425), true, true),
        ];
        for (outcome, idempotent, want) in table {
            assert_eq!(retryable(outcome, idempotent), want, "{outcome:?} idempotent={idempotent}");
        }
    }

    #[test]
    fn backoff_doubles_with_jitter_and_a_cap() {
        let policy = RetryPolicy { max_retries: 10, ..RetryPolicy::default() };
        let d = |retry, random| retry_delay(&policy, retry, Outcome::Status(503), true, None, random).unwrap();
        assert_eq!((d(0, 0.0), d(0, 0.999_999).round()), (250.0, 500.0));
        assert_eq!((d(1, 0.0), d(2, 0.0), d(3, 0.0)), (500.0, 1000.0, 2000.0));
        assert_eq!((d(4, 0.0), d(5, 0.0), d(9, 0.0)), (4000.0, 4000.0, 4000.0));
        assert!(d(9, 0.999) <= 8000.0);
        assert_eq!(d(0, f64::NAN), 375.0);
    }

    #[test]
    fn a_restarting_engine_is_given_a_second_at_least() {
        let policy = RetryPolicy::default();
        let d = |retry, after| retry_delay(&policy, retry, Outcome::Status(425), false, after, 0.0);
        assert_eq!((d(0, None), d(1, None)), (Some(1000.0), Some(1000.0)));
        let long = RetryPolicy { max_retries: 10, ..policy };
        assert_eq!(retry_delay(&long, 4, Outcome::Status(425), false, None, 0.0), Some(4000.0));
        // Its own wait, when it names one, is honoured exactly.
        assert_eq!((d(0, Some(250.0)), d(0, Some(90_000.0))), (Some(250.0), None));
        assert_eq!(d(2, None), None, "retries exhausted");
    }

    #[test]
    fn retry_after_is_honoured_and_bounded() {
        let policy = RetryPolicy::default();
        assert_eq!(retry_delay(&policy, 0, Outcome::Status(429), false, Some(3000.0), 0.3), Some(3000.0));
        assert_eq!(retry_delay(&policy, 0, Outcome::Status(503), true, Some(0.0), 0.3), Some(0.0));
        assert_eq!(retry_delay(&policy, 0, Outcome::Status(429), true, Some(120_000.0), 0.3), None);
        assert_eq!(retry_delay(&policy, 2, Outcome::Status(429), true, Some(1.0), 0.3), None, "retries exhausted");
        assert_eq!(retry_delay(&policy, 0, Outcome::Status(400), true, Some(1.0), 0.3), None);
    }

    #[test]
    fn retry_after_values() {
        let now = http_date_ms("Sun, 06 Nov 1994 08:49:37 GMT").unwrap();
        assert_eq!(now, 784_111_777_000.0);
        assert_eq!(retry_after_ms("120", now), Some(120_000.0));
        assert_eq!(retry_after_ms("Sun, 06 Nov 1994 08:49:40 GMT", now), Some(3000.0));
        assert_eq!(retry_after_ms("Sun, 06 Nov 1994 08:49:30 GMT", now), Some(0.0));
        assert_eq!(http_date_ms("Sat, 21 Nov 2026 06:12:59 GMT"), Some(1_795_241_579_000.0));
        assert_eq!(http_date_ms("Thu, 29 Feb 2024 00:00:00 GMT"), Some(1_709_164_800_000.0));
        for bad in [
            "soon",
            "-1",
            "Sun, 06 Nov 1994 08:49:37",
            "Sun, 06 Foo 1994 08:49:37 GMT",
            "Sun, 32 Nov 1994 08:49:37 GMT",
            "Sun 06 Nov 1994 08:49:37 GMT",
            "",
        ] {
            assert_eq!(retry_after_ms(bad, now), None, "{bad:?}");
        }
    }
}
