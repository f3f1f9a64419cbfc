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
    if text.get(i) == Some(&b'.') {
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
    fn converts_to_numbers() {
        assert_eq!(to_f64(430_000), 0.43);
        assert_eq!(to_f64(1), 0.000001);
    }
}
