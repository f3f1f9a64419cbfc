//! Exact decimals as integers scaled by 10^6: `"0.43"` is `430_000`.

/// One unit is 10^-6.
pub const SCALE: u64 = 1_000_000;
/// Digits after the decimal point that fit exactly.
pub const DECIMALS: usize = 6;

/// Parses a plain non-negative decimal (`"12"`, `"0.430"`, `".5"` is rejected) into 10^-6 units.
/// Extra fraction digits are accepted only when they are zeros, so nothing is silently rounded.
/// Returns `None` for anything else (sign, exponent, empty, overflow).
pub fn parse(text: &[u8]) -> Option<u64> {
    let mut int: u64 = 0;
    let mut i = 0;
    let mut int_digits = 0;
    while let Some(&d) = text.get(i) {
        if !d.is_ascii_digit() {
            break;
        }
        int = int.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
        i += 1;
        int_digits += 1;
    }
    if int_digits == 0 {
        return None;
    }
    let mut frac: u64 = 0;
    let mut frac_digits = 0;
    if matches!(text.get(i), Some(b'.')) {
        i += 1;
        let start = i;
        while let Some(&d) = text.get(i) {
            if !d.is_ascii_digit() {
                return None;
            }
            if frac_digits < DECIMALS {
                frac = frac * 10 + u64::from(d - b'0');
                frac_digits += 1;
            } else if d != b'0' {
                return None;
            }
            i += 1;
        }
        if i == start {
            return None;
        }
    }
    if i != text.len() {
        return None;
    }
    for _ in frac_digits..DECIMALS {
        frac *= 10;
    }
    int.checked_mul(SCALE)?.checked_add(frac)
}

/// The value as a JavaScript number. Exact for every value below 2^53 units.
pub fn to_f64(units: u64) -> f64 {
    units as f64 / SCALE as f64
}

/// A product of two decimals (price × size) in 10^-12 units, as a JavaScript number.
pub fn notional_to_f64(units: u128) -> f64 {
    units as f64 / (SCALE as f64 * SCALE as f64)
}

/// Largest whole number a JavaScript number holds exactly.
const MAX_SAFE: f64 = 9_007_199_254_740_991.0;

/// A JavaScript number that denotes a decimal with at most six decimals (`0.43`, `100`), exactly: the
/// number must be the double nearest to that decimal, as a literal or `parseFloat` gives it. `None` for
/// anything else (negative, not finite, more decimals, beyond 2^53 units).
pub fn from_f64(value: f64) -> Option<u64> {
    let units = nearest_units(value).filter(|&u| u as f64 <= MAX_SAFE)?;
    (to_f64(units) == value).then_some(units)
}

/// A non-negative JavaScript number rounded to the nearest 10^-6 unit, for amounts where a caller's
/// `0.1 + 0.2` should not be an error. Beyond 2^53 units (and `Infinity`) it saturates at `u64::MAX`
/// units: an amount no book reaches. `None` when negative or NaN.
pub fn nearest_units(value: f64) -> Option<u64> {
    let scaled = value * SCALE as f64;
    if scaled.is_nan() || scaled < 0.0 {
        return None;
    }
    if scaled > MAX_SAFE {
        // `as` saturates.
        return Some(scaled as u64);
    }
    // JavaScript's Math.round for non-negative numbers: half rounds up. `scaled - floor` is exact.
    let floor = scaled.floor();
    let units = if scaled - floor >= 0.5 { floor + 1.0 } else { floor };
    Some(units as u64)
}

/// The text of a decimal in 10^-6 units with no trailing zeros: `430_000` is `"0.43"`, `5_000_000` is `"5"`.
pub fn format(units: u64, out: &mut Vec<u8>) {
    let int = units / SCALE;
    let mut frac = units % SCALE;
    crate::text::push_digits(int, out);
    if frac != 0 {
        out.push(b'.');
        let mut digits = DECIMALS;
        while frac % 10 == 0 {
            frac /= 10;
            digits -= 1;
        }
        let mut buf = [b'0'; DECIMALS];
        let mut i = digits;
        while i > 0 {
            i -= 1;
            if let Some(slot) = buf.get_mut(i) {
                *slot = b'0' + (frac % 10) as u8;
            }
            frac /= 10;
        }
        out.extend_from_slice(buf.get(..digits).unwrap_or_default());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_exact_decimals() {
        let table: &[(&str, Option<u64>)] = &[
            ("0", Some(0)),
            ("1", Some(1_000_000)),
            ("0.43", Some(430_000)),
            ("0.430", Some(430_000)),
            ("0.001", Some(1_000)),
            ("192.3", Some(192_300_000)),
            ("202535.45", Some(202_535_450_000)),
            ("0.000001", Some(1)),
            ("0.0000010", Some(1)),
            ("0.0000001", None),
            ("", None),
            (".5", None),
            ("5.", None),
            ("-1", None),
            ("1e3", None),
            ("1.2.3", None),
            (" 1", None),
            ("18446744073709", Some(18_446_744_073_709_000_000)),
            ("18446744073710", None),
        ];
        for &(text, want) in table {
            assert_eq!(parse(text.as_bytes()), want, "{text:?}");
        }
    }

    #[test]
    fn reads_numbers_exactly_or_not_at_all() {
        assert_eq!(from_f64(0.43), Some(430_000));
        assert_eq!(from_f64(0.000001), Some(1));
        assert_eq!(from_f64(100.0), Some(100_000_000));
        assert_eq!(from_f64(0.1 + 0.2), None);
        assert_eq!(from_f64(1e-7), None);
        assert_eq!(from_f64(-1.0), None);
        assert_eq!(from_f64(f64::NAN), None);
        assert_eq!(from_f64(f64::INFINITY), None);
        assert_eq!(from_f64(1e10), None);
        assert_eq!(nearest_units(0.1 + 0.2), Some(300_000));
        assert_eq!(nearest_units(0.0000005), Some(1));
        assert_eq!(nearest_units(-0.0), Some(0));
        assert_eq!(nearest_units(-0.1), None);
        assert_eq!(nearest_units(f64::NAN), None);
        assert_eq!(nearest_units(f64::INFINITY), Some(u64::MAX));
        assert_eq!(nearest_units(1e15), Some(1_000_000_000_000_000_000_000u128.min(u64::MAX as u128) as u64));
    }

    #[test]
    fn formats_without_trailing_zeros() {
        for (units, text) in [(0, "0"), (430_000, "0.43"), (1, "0.000001"), (5_000_000, "5"), (12_345_678, "12.345678")]
        {
            let mut out = Vec::new();
            format(units, &mut out);
            assert_eq!(out, text.as_bytes());
            assert_eq!(parse(&out), Some(units));
        }
    }

    #[test]
    fn converts_to_numbers() {
        assert_eq!(to_f64(430_000), 0.43);
        assert_eq!(to_f64(1), 0.000001);
    }
}
