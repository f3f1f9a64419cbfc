//! Reading a book from JSON bytes. The structure (the book object, the level arrays and objects) is read
//! here without recursion; values are checked by the shared scanner in `crate::json`. Levels in the
//! service's compact form (`{"price":"0.43","size":"100"}`) take a fast path that reads them in one pass;
//! anything else (white space, numbers, extra keys, other key order) takes the general path, which accepts
//! exactly the same values.

use super::{fixed, BookSide, Field, OrderBook, Span, FIELD_COUNT};
use crate::error::Error;
use crate::json::Scanner;

/// Books larger than this are refused: offsets must fit in 31 bits (the top bit marks [`Span::EXTRA`]).
const MAX_LEN: usize = (Span::EXTRA - 1) as usize;

pub(super) fn book(src: Vec<u8>) -> Result<OrderBook, Error> {
    if src.len() > MAX_LEN {
        return Err(Error::decode("order book larger than 2 GiB"));
    }
    let mut book = OrderBook {
        src: Vec::new(),
        extra: Vec::new(),
        fields: [None; FIELD_COUNT],
        bids: BookSide::new(true),
        asks: BookSide::new(false),
    };
    let mut c = Cursor { b: &src, pos: 0 };
    c.expect(b'{', "an order book must be a JSON object")?;
    if !c.eat(b'}') {
        loop {
            let key = c.key()?;
            match key {
                b"bids" => levels(&mut c, &mut book.bids, book.asks.is_empty())?,
                b"asks" => levels(&mut c, &mut book.asks, book.bids.is_empty())?,
                b"neg_risk" => book.set_field(Field::NegRisk, c.boolean("neg_risk must be a boolean")?),
                _ => match TEXT_FIELDS.iter().find(|(name, ..)| *name == key) {
                    Some(&(_, field, what)) => book.set_field(field, c.text(what)?),
                    None => c.skip_value()?,
                },
            }
            if c.eat(b',') {
                continue;
            }
            c.expect(b'}', "expected ',' or '}' in the order book")?;
            break;
        }
    }
    c.ws();
    if c.pos != src.len() {
        return Err(Error::decode("unexpected bytes after the order book"));
    }
    book.src = src;
    Ok(book)
}

/// The top-level text fields: name, slot, and the error when the value is not a string.
const TEXT_FIELDS: [(&[u8], Field, &str); 7] = [
    (b"market", Field::Market, "market must be a string"),
    (b"asset_id", Field::AssetId, "asset_id must be a string"),
    (b"timestamp", Field::Timestamp, "timestamp must be a string"),
    (b"hash", Field::Hash, "hash must be a string"),
    (b"min_order_size", Field::MinOrderSize, "min_order_size must be a string"),
    (b"tick_size", Field::TickSize, "tick_size must be a string"),
    (b"last_trade_price", Field::LastTradePrice, "last_trade_price must be a string"),
];

/// A POST /books response: each element is copied out and parsed on its own.
pub(super) fn books(bytes: &[u8]) -> Result<Vec<OrderBook>, Error> {
    let mut c = Cursor { b: bytes, pos: 0 };
    let mut out = Vec::new();
    c.expect(b'[', "a list of order books must be a JSON array")?;
    if !c.eat(b']') {
        loop {
            c.ws();
            let start = c.pos;
            c.skip_value()?;
            out.push(book(bytes.get(start..c.pos).unwrap_or_default().to_vec())?);
            if c.eat(b',') {
                continue;
            }
            c.expect(b']', "expected ',' or ']' in the list of order books")?;
            break;
        }
    }
    c.ws();
    if c.pos != bytes.len() {
        return Err(Error::decode("unexpected bytes after the list of order books"));
    }
    Ok(out)
}

const NO_PRICE: &str = "a level has no price";
const NO_SIZE: &str = "a level has no size";
const BAD_PRICE: &str = "price is not an exact non-negative decimal with at most 6 decimals";
const BAD_SIZE: &str = "size is not an exact non-negative decimal with at most 6 decimals";

/// Levels read by the fast path before they are appended to the side in one go.
const BATCH: usize = 64;

/// Reads one side's array of levels, replacing what the side held. `first` says whether the other side
/// is still to come, which halves the estimate of how many levels to make room for.
fn levels(c: &mut Cursor<'_>, side: &mut BookSide, first: bool) -> Result<(), Error> {
    side.prices.clear();
    side.sizes.clear();
    side.text.clear();
    side.summary = None;
    side.compact = true;
    c.expect(b'[', "bids and asks must be arrays")?;
    let mut order = Monotony::default();
    if c.eat(b']') {
        side.settle(true, true);
        return Ok(());
    }
    let array_start = c.pos;
    let mut prices = [0u64; BATCH];
    let mut sizes = [0u64; BATCH];
    let mut texts = [(Span::default(), Span::default()); BATCH];
    loop {
        // At the start of a level. The compact form takes the fast path, a batch at a time.
        let mut n = 0;
        let mut next = Next::Level;
        while let (Some(price), Some(size), Some(text)) = (prices.get_mut(n), sizes.get_mut(n), texts.get_mut(n)) {
            let Some((p, s, t, end)) = fast_level(c.b, c.pos) else { break };
            (*price, *size, *text) = (p, s, t);
            n += 1;
            c.pos = end;
            match c.b.get(c.pos) {
                Some(b',') => c.pos += 1,
                Some(b']') => {
                    c.pos += 1;
                    next = Next::Done;
                    break;
                }
                _ => {
                    next = Next::Separator;
                    break;
                }
            }
        }
        let (Some(prices), Some(sizes), Some(texts)) = (prices.get(..n), sizes.get(..n), texts.get(..n)) else {
            return Err(Error::decode("order book too large"));
        };
        if side.prices.is_empty() && n == BATCH {
            // Room for the rest, estimated from the first batch.
            let per_level = (c.pos - array_start) / BATCH;
            let rest = c.b.len().saturating_sub(c.pos) / per_level.max(1);
            let estimate = if first { rest / 2 } else { rest };
            // Only a hint: when memory is short the vectors grow as they go.
            let _ = side.prices.try_reserve(estimate + BATCH);
            let _ = side.sizes.try_reserve(estimate + BATCH);
            let _ = side.text.try_reserve(estimate + BATCH);
        }
        order.add(prices);
        side.prices.extend_from_slice(prices);
        side.sizes.extend_from_slice(sizes);
        side.text.extend_from_slice(texts);
        match next {
            Next::Done => break,
            Next::Level if n == BATCH => continue,
            Next::Level => {
                // The fast path declined this level.
                c.ws();
                let (price, size, text) = general_level(c)?;
                side.compact = false;
                order.add(&[price]);
                side.prices.push(price);
                side.sizes.push(size);
                side.text.push(text);
            }
            Next::Separator => {}
        }
        if c.eat(b',') {
            continue;
        }
        c.expect(b']', "expected ',' or ']' in a list of levels")?;
        break;
    }
    side.settle(order.ascending, order.descending);
    Ok(())
}

/// What follows the levels read so far.
enum Next {
    /// Another level starts here.
    Level,
    /// A separator after white space.
    Separator,
    /// The array is closed.
    Done,
}

/// Whether the prices seen so far never fall (ascending) or never rise (descending).
struct Monotony {
    ascending: bool,
    descending: bool,
    prev: Option<u64>,
}

impl Default for Monotony {
    fn default() -> Self {
        Self { ascending: true, descending: true, prev: None }
    }
}

impl Monotony {
    #[inline(always)]
    fn add(&mut self, prices: &[u64]) {
        let Some(&first) = prices.first() else { return };
        let mut prev = self.prev.unwrap_or(first);
        let (mut ascending, mut descending) = (self.ascending, self.descending);
        for &price in prices {
            ascending &= price >= prev;
            descending &= price <= prev;
            prev = price;
        }
        (self.ascending, self.descending, self.prev) = (ascending, descending, Some(prev));
    }
}

/// `{"price":"` and `","size":"` as an 8-byte and a 2-byte word each, compared without a call to memcmp.
const PRICE_KEY: (u64, u16) = key(b"{\"price\":\"");
const SIZE_KEY: (u64, u16) = key(b"\",\"size\":\"");
const KEY_LEN: usize = 10;

const fn key(bytes: &[u8; KEY_LEN]) -> (u64, u16) {
    (
        u64::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7]]),
        u16::from_le_bytes([bytes[8], bytes[9]]),
    )
}

#[inline(always)]
fn has_key(b: &[u8], at: usize, key: (u64, u16)) -> bool {
    match (load8(b, at), b.get(at.wrapping_add(8)..at.wrapping_add(KEY_LEN))) {
        (Some(head), Some(&[t0, t1])) => head == key.0 && u16::from_le_bytes([t0, t1]) == key.1,
        _ => false,
    }
}

/// A level in the exact compact form `{"price":"D","size":"D"}` at `pos`, where each D is plain digits
/// with at most 13 before and 6 after the point: its values, the spans of its two strings (quotes
/// included) and the offset after it. `None` sends the level to the general path.
#[inline(always)]
fn fast_level(b: &[u8], pos: usize) -> Option<(u64, u64, (Span, Span), usize)> {
    if !has_key(b, pos, PRICE_KEY) {
        return None;
    }
    let price_at = pos + KEY_LEN;
    let (price, price_len) = quoted_decimal(b, price_at)?;
    let after_price = price_at + price_len;
    if !has_key(b, after_price, SIZE_KEY) {
        return None;
    }
    let size_at = after_price + KEY_LEN;
    let (size, size_len) = quoted_decimal(b, size_at)?;
    let close = size_at + size_len + 1;
    if !matches!(b.get(close), Some(b'}')) {
        return None;
    }
    // Spans include the quotes; the offsets fit in u32 because the book's length was checked.
    let text = (
        Span { start: price_at as u32 - 1, len: price_len as u32 + 2 },
        Span { start: size_at as u32 - 1, len: size_len as u32 + 2 },
    );
    Some((price, size, text, close + 1))
}

/// Powers of ten that pad a fraction with fewer than six digits to 10^-6 units.
const PAD: [u64; 7] = [1_000_000, 100_000, 10_000, 1_000, 100, 10, 1];

/// A decimal at `at`, right after an opening quote, up to the closing quote: its value and the length
/// of its text. Only the common shapes; `None` leaves the rest (more digits, trailing zeros past six
/// decimals, anything odd) to [`fixed::parse`].
#[inline(always)]
fn quoted_decimal(b: &[u8], at: usize) -> Option<(u64, usize)> {
    // A match, not `or_else`: size optimization leaves combinators as calls in the hot loop.
    match swar_decimal(b, at) {
        Some(found) => Some(found),
        None => scalar_decimal(b, at),
    }
}

/// Eight bytes at `at` as a little-endian word (the first byte lowest).
#[inline(always)]
fn load8(b: &[u8], at: usize) -> Option<u64> {
    match b.get(at..at.wrapping_add(8)) {
        Some(&[b0, b1, b2, b3, b4, b5, b6, b7]) => Some(u64::from_le_bytes([b0, b1, b2, b3, b4, b5, b6, b7])),
        _ => None,
    }
}

const ONES: u64 = 0x0101_0101_0101_0101;

/// The high bit of each byte of `w` that is not an ASCII digit. Exact for every byte: no carries cross
/// bytes.
#[inline(always)]
fn non_digits(w: u64) -> u64 {
    let x = w ^ (ONES * 0x30);
    (((x & (ONES * 0x7f)) + ONES * 0x76) | x) & (ONES * 0x80)
}

/// The value of the first `n` (1..=8) bytes of `w`, all ASCII digits, the first most significant: the
/// digits move to the top of the word behind leading zeros, then pairs, quads and octets combine.
#[inline(always)]
fn digits_value(w: u64, n: usize) -> u64 {
    let d = (w & (ONES * 0x0f)) << (8 * (8 - n.clamp(1, 8)));
    let d = ((d & 0x0f00_0f00_0f00_0f00) >> 8) + (d & 0x000f_000f_000f_000f) * 10;
    let d = ((d & 0x00ff_0000_00ff_0000) >> 16) + (d & 0x0000_00ff_0000_00ff) * 100;
    ((d & 0x0000_ffff_0000_0000) >> 32) + (d & 0x0000_0000_0000_ffff) * 10_000
}

/// The common decimal (1 to 7 digits, optionally a point and 1 to 6 digits) read a word at a time, with
/// no loop over the digits: the branches of a byte loop mispredict at every length change.
#[inline(always)]
fn swar_decimal(b: &[u8], at: usize) -> Option<(u64, usize)> {
    let w = load8(b, at)?;
    let stops = non_digits(w);
    let int_digits = (stops.trailing_zeros() / 8) as usize;
    if int_digits == 0 || int_digits == 8 {
        return None;
    }
    match (w >> (8 * int_digits)) as u8 {
        b'"' => Some((digits_value(w, int_digits) * fixed::SCALE, int_digits)),
        b'.' => match one_word_fraction(b, at, w, stops, int_digits) {
            Some(found) => Some(found),
            None => two_word_fraction(b, at, digits_value(w, int_digits), int_digits),
        },
        _ => None,
    }
}

/// A decimal with a point whose digits all sit in the word `w` read at `at` (at most eight bytes, the
/// closing quote in the word or right after it, as in "0.48" and "0.489996"): the point is taken out and
/// the digits read as one number, int × 10^f + fraction, then scaled. `None` when the shape is another.
#[inline(always)]
fn one_word_fraction(b: &[u8], at: usize, w: u64, stops: u64, int_digits: usize) -> Option<(u64, usize)> {
    if int_digits >= 7 {
        return None;
    }
    // The first byte after the point's digits: a stop in the word, or the byte after the word.
    let after = stops >> (8 * (int_digits + 1));
    let frac_digits = if after == 0 { 7 - int_digits } else { (after.trailing_zeros() / 8) as usize };
    let len = int_digits + 1 + frac_digits;
    if frac_digits == 0 || !matches!(b.get(at + len), Some(b'"')) {
        return None;
    }
    let int_bytes = (1u64 << (8 * int_digits)) - 1;
    let digits = (w & int_bytes) | ((w >> 8) & !int_bytes);
    let pad = PAD.get(frac_digits).copied()?;
    Some((digits_value(digits, int_digits + frac_digits) * pad, len))
}

/// The fraction of a longer decimal from a second word read after the point (`int` is the value of the
/// digits before it).
#[inline(always)]
fn two_word_fraction(b: &[u8], at: usize, int: u64, int_digits: usize) -> Option<(u64, usize)> {
    let f = load8(b, at + int_digits + 1)?;
    let frac_digits = (non_digits(f).trailing_zeros() / 8) as usize;
    if frac_digits == 0 || frac_digits > 6 || (f >> (8 * frac_digits)) as u8 != b'"' {
        return None;
    }
    let pad = match PAD.get(frac_digits) {
        Some(&pad) => pad,
        None => return None,
    };
    let frac = digits_value(f, frac_digits) * pad;
    Some((int * fixed::SCALE + frac, int_digits + 1 + frac_digits))
}

/// The same shapes a byte at a time (near the end of the input, and for up to 13 integer digits).
fn scalar_decimal(b: &[u8], at: usize) -> Option<(u64, usize)> {
    let mut i = at;
    let mut int: u64 = 0;
    while let Some(&c) = b.get(i) {
        let digit = c.wrapping_sub(b'0');
        if digit > 9 {
            break;
        }
        int = int.wrapping_mul(10).wrapping_add(u64::from(digit));
        i += 1;
    }
    // 13 digits keep int × 10^6 + fraction below 2^64.
    let int_digits = i - at;
    if int_digits == 0 || int_digits > 13 {
        return None;
    }
    let mut frac: u64 = 0;
    let mut frac_digits = 0;
    if matches!(b.get(i), Some(b'.')) {
        i += 1;
        let start = i;
        while let Some(&c) = b.get(i) {
            let digit = c.wrapping_sub(b'0');
            if digit > 9 {
                break;
            }
            frac = frac.wrapping_mul(10).wrapping_add(u64::from(digit));
            i += 1;
        }
        frac_digits = i - start;
        if frac_digits == 0 || frac_digits > 6 {
            return None;
        }
    }
    if !matches!(b.get(i), Some(b'"')) {
        return None;
    }
    Some((int * fixed::SCALE + frac * PAD.get(frac_digits).copied()?, i - at))
}

/// Any level object: keys in any order, white space, numbers, extra keys.
fn general_level(c: &mut Cursor<'_>) -> Result<(u64, u64, (Span, Span)), Error> {
    let mut price = None;
    let mut size = None;
    c.expect(b'{', "a level must be an object { price, size }")?;
    if !c.eat(b'}') {
        loop {
            match c.key()? {
                b"price" => price = Some(c.decimal(BAD_PRICE)?),
                b"size" => size = Some(c.decimal(BAD_SIZE)?),
                _ => c.skip_value()?,
            }
            if c.eat(b',') {
                continue;
            }
            c.expect(b'}', "expected ',' or '}' in a level")?;
            break;
        }
    }
    let (price, price_text) = price.ok_or_else(|| Error::decode(NO_PRICE))?;
    let (size, size_text) = size.ok_or_else(|| Error::decode(NO_SIZE))?;
    Ok((price, size, (price_text, size_text)))
}

/// A position in the bytes; values are checked by a [`Scanner`] over the rest.
struct Cursor<'a> {
    b: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.b.get(self.pos) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> bool {
        self.ws();
        if matches!(self.b.get(self.pos), Some(&b) if b == byte) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, byte: u8, what: &'static str) -> Result<(), Error> {
        if self.eat(byte) {
            Ok(())
        } else {
            Err(Error::decode(what))
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.b.get(self.pos).copied()
    }

    /// Runs the shared scanner on the rest of the bytes and moves past what it read.
    fn scan<T>(&mut self, read: impl FnOnce(&mut Scanner<'a>) -> Result<T, Error>) -> Result<T, Error> {
        let mut s = Scanner::new(self.b.get(self.pos..).unwrap_or_default());
        let value = read(&mut s)?;
        self.pos += s.pos();
        Ok(value)
    }

    /// An object key (raw, escapes not decoded: the keys we read never need them) and its colon.
    fn key(&mut self) -> Result<&'a [u8], Error> {
        let (key, _) = self.scan(|s| s.string_raw())?;
        self.expect(b':', "expected ':' after a key")?;
        Ok(key)
    }

    fn skip_value(&mut self) -> Result<(), Error> {
        self.scan(|s| s.skip_value())
    }

    /// The span of the value read by `read`, starting after white space.
    fn span(&mut self, read: impl FnOnce(&mut Self) -> Result<(), Error>) -> Result<Span, Error> {
        self.ws();
        let start = self.pos;
        read(self)?;
        // Offsets fit in u32: the book's length was checked.
        Ok(Span { start: start as u32, len: (self.pos - start) as u32 })
    }

    /// A string, number or null, kept as its raw JSON text.
    fn text(&mut self, what: &'static str) -> Result<Option<Span>, Error> {
        let span = self.span(|c| match c.peek() {
            Some(b'"') => c.scan(|s| s.string_raw()).map(drop),
            Some(b'-' | b'0'..=b'9') => c.scan(|s| s.number_raw()).map(drop),
            Some(b'n') if c.scan(|s| Ok(s.null()))? => Ok(()),
            _ => Err(Error::decode(what)),
        })?;
        Ok(Some(span))
    }

    /// `true`, `false` or `null`, kept as its raw JSON text.
    fn boolean(&mut self, what: &'static str) -> Result<Option<Span>, Error> {
        let span = self.span(|c| {
            if c.scan(|s| Ok(s.null()))? {
                Ok(())
            } else {
                c.scan(|s| s.bool()).map(drop).map_err(|_| Error::decode(what))
            }
        })?;
        Ok(Some(span))
    }

    /// A decimal given as a string or a number: its exact value and the span of its raw text.
    fn decimal(&mut self, what: &'static str) -> Result<(u64, Span), Error> {
        let mut value = None;
        let span = self.span(|c| {
            let text = if c.peek() == Some(b'"') { c.scan(|s| s.string_raw())?.0 } else { c.scan(|s| s.number_raw())? };
            value = fixed::parse(text);
            Ok(())
        })?;
        Ok((value.ok_or_else(|| Error::decode(what))?, span))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_and_general_paths_agree() {
        let compact = br#"{"bids":[{"price":"0.43","size":"100"},{"price":"0.5","size":"2.25"}]}"#;
        let spaced =
            br#"{ "bids" : [ { "size" : "100", "price" : "0.430000" } , {"price": 0.5, "size": 2.25, "x": [1]} ] }"#;
        let a = book(compact.to_vec()).unwrap();
        let b = book(spaced.to_vec()).unwrap();
        assert_eq!(a.bids.prices, b.bids.prices);
        assert_eq!(a.bids.sizes, b.bids.sizes);
        assert_eq!(a.bids.prices, [430_000, 500_000]);
        assert_eq!(a.bids.sizes, [100_000_000, 2_250_000]);
        // The spans cover the raw values, quotes included.
        assert_eq!(a.raw(a.bids.text[0].0), br#""0.43""#);
        assert_eq!(b.raw(b.bids.text[0].0), br#""0.430000""#);
        assert_eq!(b.raw(b.bids.text[1].1), b"2.25");
    }

    #[test]
    fn fast_path_declines_what_it_does_not_handle() {
        for text in ["12345678901234\"", "0.1234567\"", "0.\"", "1.0000000\"", "\"", "1e3\"", "1"] {
            assert_eq!(quoted_decimal(text.as_bytes(), 0), None, "{text}");
        }
        assert_eq!(quoted_decimal(b"1234567890123.999999\"", 0), Some((1_234_567_890_123_999_999, 20)));
        assert_eq!(quoted_decimal(b"x0.000001\"", 1), Some((1, 8)));
    }

    #[test]
    fn word_at_a_time_digits_agree_with_bytes() {
        for text in ["0", "7", "12", "0.5", "0.43", "1234567.123456", "99.000001", "5000", "0.000001", "1234567"] {
            let quoted = format!("{text}\"}}], \"padding\": 0");
            let want = fixed::parse(text.as_bytes()).unwrap();
            assert_eq!(swar_decimal(quoted.as_bytes(), 0), Some((want, text.len())), "{text}");
            assert_eq!(scalar_decimal(quoted.as_bytes(), 0), Some((want, text.len())), "{text}");
        }
        for bad in ["12345678\"", "1.\"", ".5\"", "1.1234567\"", "1x\"", "1.5x\"", "\u{e9}\"", "1.5"] {
            let padded = format!("{bad}          ");
            assert_eq!(swar_decimal(padded.as_bytes(), 0), None, "{bad}");
        }
        assert_eq!(non_digits(u64::from_le_bytes(*b"09/:\x80\xb0\xff0")), 0x0080_8080_8080_0000);
    }

    #[test]
    fn every_shape_of_decimal_reads_as_the_exact_parser_reads_it() {
        // 1 to 8 digits before the point and 0 to 7 after it, each length with a few digit patterns, then
        // the quote, and the input ending there or going on: the fast readers agree with `fixed::parse`
        // or decline.
        let mut seed = 7u32;
        let mut digit = move || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            b'0' + (seed >> 16) as u8 % 10
        };
        for int_len in 1..=8 {
            for frac_len in 0..=7 {
                for pattern in 0..6 {
                    let mut text: Vec<u8> = (0..int_len).map(|_| digit()).collect();
                    if frac_len > 0 {
                        text.push(b'.');
                        text.extend(
                            (0..frac_len).map(|i| if pattern == 0 && i + 1 < frac_len { b'0' } else { digit() }),
                        );
                    }
                    let want = fixed::parse(&text);
                    for tail in ["\"", "\"}", "\",\"size\":\"1\"}]"] {
                        let mut input = text.clone();
                        input.extend_from_slice(tail.as_bytes());
                        let shown = String::from_utf8_lossy(&input).into_owned();
                        if let Some((value, len)) = quoted_decimal(&input, 0) {
                            assert_eq!((Some(value), len), (want, text.len()), "{shown}");
                        } else {
                            assert!(int_len > 7 || frac_len > 6, "{shown} declined");
                        }
                        if let Some((value, len)) = swar_decimal(&input, 0) {
                            assert_eq!((Some(value), len), (want, text.len()), "{shown}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_general_path_takes_what_the_fast_path_declines() {
        let book = book(br#"{"asks":[{"price":"0.4300000","size":"18446744073709"}]}"#.to_vec()).unwrap();
        assert_eq!(book.asks.prices, [430_000]);
        assert_eq!(book.asks.sizes, [18_446_744_073_709_000_000]);
    }
}
