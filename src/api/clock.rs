//! Estimating the offset between the local clock and the service's, for signing fresh timestamps on a
//! skewed machine.

/// The service's time in milliseconds from a reading of `value` in `unit_ms` units (1000 for seconds).
/// A reading in whole units stands for the middle of its unit.
pub fn server_ms(value: f64, unit_ms: f64) -> Option<f64> {
    if !value.is_finite() || value <= 0.0 || unit_ms.is_nan() || unit_ms < 1.0 {
        return None;
    }
    Some(value * unit_ms + if unit_ms > 1.0 { unit_ms / 2.0 } else { 0.0 })
}

/// 2020-01-01 and 2100-01-01 in milliseconds since the epoch: a service's clock reads between them.
const EARLIEST_MS: f64 = 1_577_836_800_000.0;
const LATEST_MS: f64 = 4_102_444_800_000.0;

/// A reading a service's clock could show, else none: a body cut on the way still parses as a (shorter)
/// number, read as seconds or milliseconds of another century, and would make an offset of decades.
fn plausible(ms: f64) -> Option<f64> {
    (EARLIEST_MS..LATEST_MS).contains(&ms).then_some(ms)
}

/// The service's time from a `GET /time` answer: its body when the status is 2xx and the body reads, else
/// its `Date` header (a 404 has one too); none when neither gives a plausible time.
pub fn reading_ms(status: u16, body: Option<&str>, date: Option<&str>) -> Option<f64> {
    let from_body = body.filter(|_| (200..300).contains(&status)).and_then(time_body_ms);
    from_body
        .or_else(|| date.and_then(crate::api::retry::http_date_ms).and_then(|ms| server_ms(ms / 1000.0, 1000.0)))
        .and_then(plausible)
}

/// A `GET /time` body: a number (or its text) of seconds or milliseconds since the epoch, told apart by
/// size (seconds since the epoch stay below 10^11 until the year 5138). A reading outside 2020–2100 is none
/// (see [`plausible`]).
pub fn time_body_ms(body: &str) -> Option<f64> {
    // Whole numbers only: parsing floats would cost the wasm the tables of a full float parser.
    let n = body.trim().trim_matches('"').parse::<u64>().ok()? as f64;
    let ms = if n >= 1e11 { server_ms(n, 1.0) } else { server_ms(n, 1000.0) };
    ms.and_then(plausible)
}

/// The offset to add to the local clock: the server's reading minus the local time halfway through the
/// round trip in which it was taken.
pub fn offset_ms(server_ms: f64, sent_ms: f64, received_ms: f64) -> f64 {
    (server_ms - (sent_ms + received_ms) / 2.0).round()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readings_and_offsets() {
        assert_eq!(time_body_ms("1700000000"), Some(1_700_000_000_500.0));
        assert_eq!(time_body_ms("\"1700000000\"\n"), Some(1_700_000_000_500.0));
        assert_eq!(time_body_ms("1700000000123"), Some(1_700_000_000_123.0));
        assert_eq!(time_body_ms("soon"), None);
        assert_eq!(time_body_ms("-5"), None);
        // Half of a body cut on the way: a number all the same, but decades before any service's clock.
        assert_eq!(time_body_ms("17000"), None);
        assert_eq!(time_body_ms("170000000012"), None);
        assert_eq!(time_body_ms("1577836800"), Some(1_577_836_800_500.0));
        // 1700000000123 cut to 11 digits: read as seconds, the 26th century.
        assert_eq!(time_body_ms("17000000001"), None);
        // (status, body, Date header) -> the reading.
        let date = "Tue, 14 Nov 2023 22:13:20 GMT";
        let table = [
            (200, Some("1700000000123"), Some(date), Some(1_700_000_000_123.0)),
            (404, Some("1700000000123"), Some(date), Some(1_700_000_000_500.0)),
            (200, Some("17000"), Some(date), Some(1_700_000_000_500.0)),
            (200, Some("17000"), None, None),
            (404, None, Some("Thu, 01 Jan 1970 00:00:00 GMT"), None),
            (500, None, Some("not a date"), None),
            (200, None, None, None),
        ];
        for (status, body, date, want) in table {
            assert_eq!(reading_ms(status, body, date), want, "{status} {body:?} {date:?}");
        }
        assert_eq!(server_ms(f64::NAN, 1000.0), None);
        // The local clock is 10 s behind: sent at 1000, received at 1200, server says 11_100.
        assert_eq!(offset_ms(11_100.0, 1000.0, 1200.0), 10_000.0);
        assert_eq!(offset_ms(1000.0, 6000.0, 6000.0), -5000.0);
    }
}
