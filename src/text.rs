//! Numbers and pieces as text without `core::fmt`: its formatting machinery and the panic paths it
//! brings (escaping tables included) cost the wasm kilobytes (measured: removing the last `str` searcher
//! took 5 KB gzip off the build).

/// A whole number's decimal text.
pub fn decimal(n: u64) -> String {
    let mut out = Vec::with_capacity(20);
    push_digits(n, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// The decimal digits of `n`, without the formatting machinery (which would cost the wasm its size).
pub(crate) fn push_digits(mut n: u64, out: &mut Vec<u8>) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        if let Some(slot) = buf.get_mut(i) {
            *slot = b'0' + (n % 10) as u8;
        }
        n /= 10;
        if n == 0 || i == 0 {
            break;
        }
    }
    out.extend_from_slice(buf.get(i..).unwrap_or_default());
}

/// A signed whole number's decimal text.
pub fn signed(n: i64) -> String {
    let digits = decimal(n.unsigned_abs());
    if n < 0 {
        concat(&["-", &digits])
    } else {
        digits
    }
}

/// The pieces one after another.
pub fn concat(pieces: &[&str]) -> String {
    let mut out = String::with_capacity(pieces.iter().map(|p| p.len()).sum());
    for piece in pieces {
        out.push_str(piece);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_rust_writes_them() {
        for n in [0, 1, 9, 10, 99, 100, 4_294_967_295, 9_007_199_254_740_991, u64::MAX] {
            assert_eq!(decimal(n), n.to_string());
        }
        for n in [0, -1, 1, -10, i64::MIN, i64::MAX, -9_007_199_254_740_991] {
            assert_eq!(signed(n), n.to_string());
        }
        assert_eq!(concat(&["/markets/", "12", ""]), "/markets/12");
        assert_eq!(concat(&[]), "");
    }
}
