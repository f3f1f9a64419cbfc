//! Numbers and dates as the service writes them: minimal decimals of fixed-point amounts and RFC 3339 times.

use std::fmt::Write;

use chrono::{DateTime, SecondsFormat};

/// Formats `value / 10^scale` as a minimal decimal string ("0.52", "5", "0.0015").
pub fn decimal(value: u64, scale: u32) -> String {
    let mut s = String::new();
    push_decimal(&mut s, value, scale);
    s
}

/// Appends `value / 10^scale` as a minimal decimal (the text of [`decimal`], without allocating).
pub fn push_decimal(s: &mut String, value: u64, scale: u32) {
    let div = 10u64.pow(scale);
    let (int, mut frac) = (value / div, value % div);
    let _ = write!(s, "{int}");
    if frac == 0 {
        return;
    }
    s.push('.');
    let mut digits = scale;
    while frac % 10 == 0 {
        frac /= 10;
        digits -= 1;
    }
    let _ = write!(s, "{frac:0width$}", width = digits as usize);
}

/// Parses a decimal price such as "0.52" into millionths.
pub fn parse_micro(text: &str) -> Option<u64> {
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    if int.is_empty() && frac.is_empty()
        || frac.len() > 6
        || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let int: u64 = if int.is_empty() { 0 } else { int.parse().ok()? };
    let mut f: u64 = 0;
    for i in 0..6 {
        f = f * 10 + frac.as_bytes().get(i).map_or(0, |b| u64::from(b - b'0'));
    }
    int.checked_mul(1_000_000)?.checked_add(f)
}

/// Millionths as a JSON number (0.52).
pub fn micro_f64(value: u64) -> f64 {
    decimal(value, 6).parse().unwrap_or(0.0)
}

/// `x` rounded to six decimals.
pub fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// RFC 3339 date-time in UTC of epoch seconds, to the second: `2026-01-01T00:00:00Z`.
pub fn iso(ts: i64) -> String {
    rfc3339(ts, 0, SecondsFormat::Secs)
}

/// RFC 3339 with microseconds, as the catalog's recorded `createdAt` fields are: `2026-01-01T00:00:00.000123Z`.
pub fn iso_micros(ts: i64, micros: u32) -> String {
    rfc3339(ts, micros % 1_000_000 * 1_000, SecondsFormat::Micros)
}

fn rfc3339(ts: i64, nanos: u32, format: SecondsFormat) -> String {
    DateTime::from_timestamp(ts, nanos).unwrap_or_default().to_rfc3339_opts(format, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals() {
        assert_eq!(decimal(520_000, 6), "0.52");
        assert_eq!(decimal(5_000_000, 6), "5");
        assert_eq!(decimal(15, 4), "0.0015");
        assert_eq!(decimal(0, 6), "0");
        assert_eq!(decimal(123_456_789, 6), "123.456789");
        assert_eq!(decimal(1234, 2), "12.34");
        assert_eq!(decimal(7, 2), "0.07");
        assert_eq!(decimal(u64::MAX, 0), u64::MAX.to_string());
        assert_eq!(parse_micro("0.52"), Some(520_000));
        assert_eq!(parse_micro("192.3"), Some(192_300_000));
        assert_eq!(parse_micro("1"), Some(1_000_000));
        assert_eq!(parse_micro(".5"), Some(500_000));
        assert_eq!(parse_micro("x"), None);
        assert_eq!(parse_micro("0.1234567"), None);
        assert_eq!(micro_f64(520_000), 0.52);
        assert_eq!(round6(0.123_456_7), 0.123_457);
    }

    #[test]
    fn dates() {
        assert_eq!(iso(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso(1_767_225_600), "2026-01-01T00:00:00Z");
        assert_eq!(iso(1_709_251_199), "2024-02-29T23:59:59Z");
        assert_eq!(iso(-1), "1969-12-31T23:59:59Z");
        assert_eq!(iso_micros(1_767_225_600, 5), "2026-01-01T00:00:00.000005Z");
        assert_eq!(iso_micros(1_709_251_199, 123_450), "2024-02-29T23:59:59.123450Z");
        assert_eq!(iso_micros(0, 0), "1970-01-01T00:00:00.000000Z");
    }
}
