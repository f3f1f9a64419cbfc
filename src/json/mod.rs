//! JSON, the ground floor every layer stands on: the value tree ([`Value`]), the writer of request bodies
//! ([`JsonWriter`]), and here a small pull scanner over JSON bytes, for the few places the library reads JSON
//! itself (the order book, the service's error bodies). Results for callers are parsed by the JavaScript
//! engine's `JSON.parse`; the scanner exists so the book can be read from the response bytes straight into
//! fixed-point arrays.
//!
//! It never panics and never recurses deeper than [`MAX_DEPTH`], whatever the input.

mod value;
mod writer;

#[cfg(test)]
pub(crate) use value::from_json;
pub use value::Value;
pub(crate) use writer::write_str;
pub use writer::JsonWriter;

use std::borrow::Cow;

use crate::error::Error;

/// Nesting beyond this is rejected rather than risking the stack.
pub const MAX_DEPTH: u32 = 64;

/// What [`Scanner::object`] calls for each field: the scanner at the value, and the key.
type FieldFn<'f, 'a> = dyn FnMut(&mut Scanner<'a>, &'a [u8]) -> Result<(), Error> + 'f;

pub struct Scanner<'a> {
    bytes: &'a [u8],
    pos: usize,
    depth: u32,
}

impl<'a> Scanner<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, pos: 0, depth: 0 }
    }

    /// The byte offset of the next unread byte.
    pub fn pos(&self) -> usize {
        self.pos
    }

    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    #[inline(always)]
    pub fn skip_ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.peek() {
            self.pos += 1;
        }
    }

    /// Skips white space and, if the next byte is `b`, consumes it.
    #[inline(always)]
    pub fn eat(&mut self, b: u8) -> bool {
        self.skip_ws();
        if self.peek() == Some(b) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    pub fn expect(&mut self, b: u8, what: &'static str) -> Result<(), Error> {
        if self.eat(b) {
            Ok(())
        } else {
            Err(Error::decode(what))
        }
    }

    /// What the next value is, without consuming it.
    pub fn peek_kind(&mut self) -> Option<u8> {
        self.skip_ws();
        self.peek()
    }

    /// A string's raw content between the quotes (escapes left as they are), and whether it has escapes.
    pub fn string_raw(&mut self) -> Result<(&'a [u8], bool), Error> {
        self.expect(b'"', "expected a string")?;
        let start = self.pos;
        let mut escaped = false;
        loop {
            // Plain bytes eight at a time, then one by one: most strings have no escape.
            let rest = self.bytes.get(self.pos..).unwrap_or_default();
            let mut plain = 0;
            while let Some(&chunk) = rest.get(plain..plain + 8).and_then(|c| <&[u8; 8]>::try_from(c).ok()) {
                if special(u64::from_le_bytes(chunk)) {
                    break;
                }
                plain += 8;
            }
            let rest = rest.get(plain..).unwrap_or_default();
            self.pos += plain + rest.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20).unwrap_or(rest.len());
            match self.peek() {
                None => return Err(Error::decode("unterminated string")),
                Some(b'"') => break,
                Some(b'\\') => {
                    escaped = true;
                    let len = match self.bytes.get(self.pos + 1) {
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => 2,
                        Some(b'u') if hex4(self.bytes.get(self.pos + 2..self.pos + 6)).is_some() => 6,
                        _ => return Err(Error::decode("invalid escape in string")),
                    };
                    self.pos += len;
                }
                Some(0..=0x1f) => return Err(Error::decode("control character in string")),
                Some(_) => self.pos += 1,
            }
        }
        let raw = self.bytes.get(start..self.pos).ok_or_else(|| Error::decode("unterminated string"))?;
        self.pos += 1;
        Ok((raw, escaped))
    }

    /// A string, with its escapes decoded.
    pub fn string(&mut self) -> Result<Cow<'a, str>, Error> {
        let (raw, escaped) = self.string_raw()?;
        if escaped {
            unescape(raw).map(Cow::Owned)
        } else {
            std::str::from_utf8(raw).map(Cow::Borrowed).map_err(|_| Error::decode("invalid UTF-8 in string"))
        }
    }

    /// A number's text, checked against the JSON grammar.
    pub fn number_raw(&mut self) -> Result<&'a [u8], Error> {
        self.skip_ws();
        let start = self.pos;
        self.eat_byte(b'-');
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(Error::decode("expected a number")),
        }
        if self.eat_byte(b'.') {
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(Error::decode("expected a digit after the decimal point"));
            }
            self.digits();
        }
        if self.eat_byte(b'e') || self.eat_byte(b'E') {
            if !self.eat_byte(b'+') {
                self.eat_byte(b'-');
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(Error::decode("expected a digit in the exponent"));
            }
            self.digits();
        }
        self.bytes.get(start..self.pos).ok_or_else(|| Error::decode("expected a number"))
    }

    pub fn bool(&mut self) -> Result<bool, Error> {
        self.skip_ws();
        if self.literal(b"true") {
            Ok(true)
        } else if self.literal(b"false") {
            Ok(false)
        } else {
            Err(Error::decode("expected a boolean"))
        }
    }

    /// Consumes `null` if it is next.
    pub fn null(&mut self) -> bool {
        self.skip_ws();
        self.literal(b"null")
    }

    /// Skips one value of any kind.
    pub fn skip_value(&mut self) -> Result<(), Error> {
        match self.peek_kind() {
            Some(b'"') => self.string_raw().map(drop),
            Some(b'{') => self.object(|s, _| s.skip_value()),
            Some(b'[') => self.array(|s| s.skip_value()),
            Some(b't' | b'f') => self.bool().map(drop),
            Some(b'n') if self.null() => Ok(()),
            Some(b'-' | b'0'..=b'9') => self.number_raw().map(drop),
            _ => Err(Error::decode("expected a JSON value")),
        }
    }

    /// Reads an object, calling `field` with the scanner positioned at each value and the key's raw bytes.
    /// `field` must consume the value.
    pub fn object(&mut self, mut field: impl FnMut(&mut Self, &'a [u8]) -> Result<(), Error>) -> Result<(), Error> {
        self.object_dyn(&mut field)
    }

    // One copy of the loop for every caller's closure: the wasm pays for it once.
    fn object_dyn(&mut self, field: &mut FieldFn<'_, 'a>) -> Result<(), Error> {
        self.expect(b'{', "expected an object")?;
        self.enter()?;
        if !self.eat(b'}') {
            loop {
                let (key, _) = self.string_raw()?;
                self.expect(b':', "expected ':' after a key")?;
                field(self, key)?;
                if self.eat(b',') {
                    continue;
                }
                self.expect(b'}', "expected ',' or '}' in an object")?;
                break;
            }
        }
        self.depth -= 1;
        Ok(())
    }

    /// Reads an array, calling `element` with the scanner positioned at each element, which it must consume.
    pub fn array(&mut self, mut element: impl FnMut(&mut Self) -> Result<(), Error>) -> Result<(), Error> {
        self.array_dyn(&mut element)
    }

    fn array_dyn(&mut self, element: &mut dyn FnMut(&mut Self) -> Result<(), Error>) -> Result<(), Error> {
        self.expect(b'[', "expected an array")?;
        self.enter()?;
        if !self.eat(b']') {
            loop {
                element(self)?;
                if self.eat(b',') {
                    continue;
                }
                self.expect(b']', "expected ',' or ']' in an array")?;
                break;
            }
        }
        self.depth -= 1;
        Ok(())
    }

    /// Succeeds when nothing but white space is left.
    pub fn finish(&mut self) -> Result<(), Error> {
        self.skip_ws();
        if self.pos >= self.bytes.len() {
            Ok(())
        } else {
            Err(Error::decode("unexpected bytes after the JSON value"))
        }
    }

    fn enter(&mut self) -> Result<(), Error> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            Err(Error::decode("JSON nested too deeply"))
        } else {
            Ok(())
        }
    }

    fn eat_byte(&mut self, b: u8) -> bool {
        if self.peek() == Some(b) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
    }

    fn literal(&mut self, word: &[u8]) -> bool {
        if self.bytes.get(self.pos..self.pos + word.len()) == Some(word) {
            self.pos += word.len();
            true
        } else {
            false
        }
    }
}

/// Decodes the escapes of a string's raw content.
pub fn unescape(raw: &[u8]) -> Result<String, Error> {
    let bad = || Error::decode("invalid escape in string");
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while let Some(&b) = raw.get(i) {
        if b != b'\\' {
            out.push(b);
            i += 1;
            continue;
        }
        let esc = *raw.get(i + 1).ok_or_else(bad)?;
        i += 2;
        let simple = match esc {
            b'"' => b'"',
            b'\\' => b'\\',
            b'/' => b'/',
            b'b' => 0x08,
            b'f' => 0x0c,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'u' => {
                let hi = hex4(raw.get(i..i + 4)).ok_or_else(bad)?;
                i += 4;
                let code = if (0xd800..0xdc00).contains(&hi) {
                    // A high surrogate must be followed by an escaped low one.
                    if raw.get(i..i + 2) != Some(b"\\u") {
                        return Err(bad());
                    }
                    let lo = hex4(raw.get(i + 2..i + 6)).ok_or_else(bad)?;
                    if !(0xdc00..0xe000).contains(&lo) {
                        return Err(bad());
                    }
                    i += 6;
                    0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00)
                } else {
                    hi
                };
                let ch = char::from_u32(code).ok_or_else(bad)?;
                let mut buf = [0u8; 4];
                out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                continue;
            }
            _ => return Err(bad()),
        };
        out.push(simple);
    }
    String::from_utf8(out).map_err(|_| Error::decode("invalid UTF-8 in string"))
}

fn hex4(digits: Option<&[u8]>) -> Option<u32> {
    let digits = digits?;
    let mut value = 0u32;
    for &d in digits {
        value = value * 16 + (d as char).to_digit(16)?;
    }
    Some(value)
}

/// The `error` message of a `{"error": "..."}` body, and its `retry_after_seconds` in milliseconds (a
/// non-negative number written in plain decimals) where it has one; nothing of a body that is not a JSON object.
pub fn error_fields(body: &[u8]) -> (Option<String>, Option<f64>) {
    let mut s = Scanner::new(body);
    let (mut message, mut retry_after) = (None, None);
    let read = s.object(|s, key| {
        if key == b"error" && s.peek_kind() == Some(b'"') {
            message = Some(s.string()?.into_owned());
            Ok(())
        } else if key == b"retry_after_seconds" && matches!(s.peek_kind(), Some(b'0'..=b'9')) {
            retry_after = seconds_as_ms(s.number_raw()?);
            Ok(())
        } else {
            s.skip_value()
        }
    });
    if read.and_then(|()| s.finish()).is_err() {
        return (None, None);
    }
    (message, retry_after)
}

/// Plain decimal seconds (`30`, `1.5`) as whole milliseconds; an exponent or more than 12 whole digits is
/// not a wait (`core`'s float parsing would add kilobytes to the wasm for this one field).
fn seconds_as_ms(raw: &[u8]) -> Option<f64> {
    let mut parts = raw.splitn(2, |&b| b == b'.');
    let (whole, fraction) = (parts.next().unwrap_or_default(), parts.next().unwrap_or_default());
    if whole.is_empty() || whole.len() > 12 || !whole.iter().chain(fraction).all(u8::is_ascii_digit) {
        return None;
    }
    let digits = |d: &[u8]| d.iter().fold(0u64, |n, b| n * 10 + u64::from(b - b'0'));
    let mut ms = digits(whole) * 1000;
    for (i, scale) in [100, 10, 1].into_iter().enumerate() {
        ms += fraction.get(i).map_or(0, |b| u64::from(b - b'0') * scale);
    }
    Some(ms as f64)
}

/// Whether any of eight bytes is `"`, `\\` or a control character (below 0x20): the classic bit trick
/// for "has a byte below n" (`(v - n·0x01…) & !v & 0x80…`), on `v` and on `v` xor each quote byte.
#[inline(always)]
fn special(v: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let below = |x: u64, n: u64| x.wrapping_sub(ONES.wrapping_mul(n)) & !x & HIGH;
    (below(v, 0x20)
        | below(v ^ ONES.wrapping_mul(u64::from(b'"')), 1)
        | below(v ^ ONES.wrapping_mul(u64::from(b'\\')), 1))
        != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skip_all(input: &str) -> Result<(), Error> {
        let mut s = Scanner::new(input.as_bytes());
        s.skip_value()?;
        s.finish()
    }

    #[test]
    fn accepts_valid_json() {
        for ok in [
            r#"{}"#,
            r#"[]"#,
            r#" {"a": [1, -2.5e+3, 0.0, true, false, null, "x\"y"], "b": {"c": {}}} "#,
            r#""\u00e9\ud83d\ude00""#,
            r#"-0"#,
        ] {
            assert_eq!(skip_all(ok), Ok(()), "{ok}");
        }
    }

    #[test]
    fn rejects_invalid_json() {
        for bad in [
            "",
            "{",
            "[1,]",
            "{\"a\"}",
            "{\"a\":1,}",
            "01",
            "1.",
            "1e",
            "-",
            "tru",
            "nul",
            "\"abc",
            "\"a\u{1}b\"",
            "[1] x",
            "{\"a\":1 \"b\":2}",
            "\"\\x\"",
        ] {
            assert!(skip_all(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn depth_is_bounded() {
        let deep = "[".repeat(10_000);
        assert!(skip_all(&deep).is_err());
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH as usize), "]".repeat(MAX_DEPTH as usize));
        assert_eq!(skip_all(&ok), Ok(()));
    }

    #[test]
    fn unescapes() {
        assert_eq!(unescape(br#"a\"b\\c\/d\n\u00e9\ud83d\ude00"#).unwrap(), "a\"b\\c/d\né😀");
        assert!(unescape(br"\ud83d").is_err());
        assert!(unescape(br"\u12").is_err());
        assert!(unescape(b"\\").is_err());
    }

    #[test]
    fn reads_error_bodies() {
        let message = |body: &[u8]| error_fields(body).0;
        assert_eq!(message(br#"{"error":"bad token_id"}"#).as_deref(), Some("bad token_id"));
        assert_eq!(message(br#"{"status":400, "error": "x\ny"}"#).as_deref(), Some("x\ny"));
        assert_eq!(message(b"<html>"), None);
        assert_eq!(message(br#"{"error":42}"#), None);
        // The wait a body asks for, in seconds: a non-negative number only.
        let table: [(&[u8], Option<f64>); 8] = [
            (br#"{"error":"restarting","retry_after_seconds":30}"#, Some(30_000.0)),
            (br#"{"retry_after_seconds":1.5,"error":"x"}"#, Some(1500.0)),
            (br#"{"retry_after_seconds":0.0125}"#, Some(12.0)),
            (br#"{"retry_after_seconds":0}"#, Some(0.0)),
            (br#"{"retry_after_seconds":-1}"#, None),
            (br#"{"retry_after_seconds":"30"}"#, None),
            (br#"{"retry_after_seconds":1e999}"#, None),
            (br#"{"retry_after_seconds":30"#, None),
        ];
        for (body, want) in table {
            assert_eq!(error_fields(body).1, want, "{}", String::from_utf8_lossy(body));
        }
    }

    #[test]
    fn strings_stop_at_the_first_quote_escape_or_control_byte_wherever_it_is() {
        for len in 0..40 {
            for special in [b'"', b'\\', 0x1f, 0x00] {
                for at in 0..=len {
                    let mut text: Vec<u8> = (0..len).map(|i| b"a~ !#[]\x7f\xc3\xa9"[i % 10]).collect();
                    let complete = at == len || special == b'"';
                    if at < len {
                        text[at] = special;
                    }
                    let mut json = vec![b'"'];
                    json.extend_from_slice(&text);
                    json.push(b'"');
                    let got = Scanner::new(&json).string_raw();
                    match (special, at < len) {
                        (_, false) | (b'"', true) => {
                            assert!(complete);
                            assert_eq!(got.unwrap().0, &text[..at.min(len)], "{len} {at}");
                        }
                        (b'\\', true) => assert!(got.is_err() || got.unwrap().1, "{len} {at}"),
                        _ => assert!(got.is_err(), "{len} {at} {special}"),
                    }
                }
            }
        }
    }
}
