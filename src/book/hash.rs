//! The service's book hash: SHA-1, lowercase hex, of the compact JSON of the book with `hash` set to `""`,
//! keys in the interface's field order, every value exactly as received.

use sha1::{Digest, Sha1};

use super::{BookSide, Field, OrderBook, Span};

/// Field names with their JSON punctuation, in the interface's order around `bids` and `asks`.
const HEAD: [(Field, &[u8]); 3] =
    [(Field::Market, b"\"market\":"), (Field::AssetId, b"\"asset_id\":"), (Field::Timestamp, b"\"timestamp\":")];
const TAIL: [(Field, &[u8]); 4] = [
    (Field::MinOrderSize, b"\"min_order_size\":"),
    (Field::TickSize, b"\"tick_size\":"),
    (Field::NegRisk, b"\"neg_risk\":"),
    (Field::LastTradePrice, b"\"last_trade_price\":"),
];

impl OrderBook {
    /// The book's hash as the service computes it: fields absent from the received book are left out,
    /// except `hash` (always `""`), `bids` and `asks`; levels in the order held (as received, with price
    /// changes placed where the service places them).
    pub fn hash(&self) -> String {
        hex(&self.digest())
    }

    /// The hash's 20 bytes.
    pub fn digest(&self) -> [u8; 20] {
        self.digest_with(None)
    }

    /// The hash's 20 bytes were `last_trade_price` the JSON value `raw` (its quotes included): what the
    /// service's hash is when it covers a trade that no event has announced yet.
    pub fn digest_with_last_trade(&self, raw: &[u8]) -> [u8; 20] {
        self.digest_with(Some(raw))
    }

    // One copy of the summary writer fed to SHA-1 (it inlines its level loop): not one per caller.
    #[inline(never)]
    fn digest_with(&self, last_trade: Option<&[u8]>) -> [u8; 20] {
        let mut out = Buffered::new();
        self.write_json(&mut out, last_trade);
        out.finish()
    }

    /// The compact JSON the hash covers.
    pub fn hash_input(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write_hash_input(&mut out);
        out
    }

    /// Appends the compact JSON the hash covers to `out`.
    pub fn write_hash_input(&self, out: &mut Vec<u8>) {
        self.write_json(out, None);
    }

    /// The summary; `last_trade` replaces the book's `last_trade_price` (as a raw JSON value).
    fn write_json(&self, out: &mut impl Sink, last_trade: Option<&[u8]>) {
        out.put(b"{");
        for (field, key) in HEAD {
            self.put_field(out, field, key);
        }
        out.put(b"\"hash\":\"\",\"bids\":[");
        self.put_levels(out, &self.bids);
        out.put(b"],\"asks\":[");
        self.put_levels(out, &self.asks);
        out.put(b"]");
        for (field, key) in TAIL {
            let value = match (field, last_trade) {
                (Field::LastTradePrice, Some(raw)) => Some(raw),
                _ => self.field(field).map(|span| self.raw(span)),
            };
            if let Some(value) = value {
                out.put(b",");
                out.put(key);
                out.put(value);
            }
        }
        out.put(b"}");
    }

    /// `"key":value,` for a field that came with the book.
    fn put_field(&self, out: &mut impl Sink, field: Field, key: &[u8]) {
        if let Some(span) = self.field(field) {
            out.put(key);
            out.put(self.raw(span));
            out.put(b",");
        }
    }

    fn put_levels(&self, out: &mut impl Sink, side: &BookSide) {
        if let Some(summary) = &side.summary {
            out.put(summary.levels());
            return;
        }
        // Source bytes `[start, end)` not yet written: consecutive received levels, commas included.
        let mut run: Option<(usize, usize)> = None;
        for (i, &(price, size)) in side.text.iter().enumerate() {
            let in_source = side.compact && (price.start | size.start) & Span::EXTRA == 0;
            if in_source {
                // The level's text: `{"price":` before the price, `}` after the size.
                let start = (price.start as usize).saturating_sub(LEVEL_HEAD.len());
                let end = size.start as usize + size.len as usize + 1;
                match run {
                    // The byte between two adjacent compact levels is their comma.
                    Some((from, to)) if to + 1 == start => {
                        run = Some((from, end));
                        continue;
                    }
                    Some((from, to)) => out.put(self.src.get(from..to).unwrap_or_default()),
                    None => {}
                }
                if i > 0 {
                    out.put(b",");
                }
                run = Some((start, end));
            } else {
                if let Some((from, to)) = run.take() {
                    out.put(self.src.get(from..to).unwrap_or_default());
                }
                if i > 0 {
                    out.put(b",");
                }
                out.put(LEVEL_HEAD);
                out.put(self.raw(price));
                out.put(b",\"size\":");
                out.put(self.raw(size));
                out.put(b"}");
            }
        }
        if let Some((from, to)) = run {
            out.put(self.src.get(from..to).unwrap_or_default());
        }
    }
}

impl OrderBook {
    /// Keeps each side's levels as the hash writes them from now on, so that a hash is one SHA-1 over
    /// ready bytes: for live books, whose hash is checked after every change. Cheap when already kept.
    pub fn keep_summary(&mut self) {
        for is_bid in [true, false] {
            let side = if is_bid { &self.bids } else { &self.asks };
            if side.summary.is_some() {
                continue;
            }
            let mut summary = Summary::default();
            let mut level = Vec::new();
            for &(price, size) in &side.text {
                level.clear();
                if side.compact && (price.start | size.start) & Span::EXTRA == 0 {
                    let start = (price.start as usize).saturating_sub(LEVEL_HEAD.len());
                    let end = size.start as usize + size.len as usize + 1;
                    level.extend_from_slice(self.src.get(start..end).unwrap_or_default());
                } else {
                    level_text(&mut level, self.raw(price), self.raw(size));
                }
                summary.push(&level);
            }
            let side = if is_bid { &mut self.bids } else { &mut self.asks };
            side.summary = Some(summary);
        }
    }
}

impl OrderBook {
    /// The length of the kept levels' text (see [`OrderBook::keep_summary`]): most of the hash input.
    pub fn summary_len(&self) -> usize {
        [&self.bids, &self.asks].iter().filter_map(|side| side.summary.as_ref()).map(|s| s.text.len()).sum()
    }
}

/// `{"price":P,"size":S}` with `price` and `size` as JSON values (quotes included).
pub(super) fn level_text(out: &mut Vec<u8>, price: &[u8], size: &[u8]) {
    out.extend_from_slice(LEVEL_HEAD);
    out.extend_from_slice(price);
    out.extend_from_slice(b",\"size\":");
    out.extend_from_slice(size);
    out.push(b'}');
}

/// A side's levels as the hash writes them, each followed by a comma (the last one is not hashed), and
/// each level's length with its comma: kept current by every change once a live book asks for it.
#[derive(Clone, Debug, Default)]
pub(super) struct Summary {
    text: Vec<u8>,
    lens: Vec<u32>,
}

impl Summary {
    fn push(&mut self, level: &[u8]) {
        self.text.extend_from_slice(level);
        self.text.push(b',');
        self.lens.push(level.len() as u32 + 1);
    }

    /// The levels joined by commas.
    fn levels(&self) -> &[u8] {
        self.text.get(..self.text.len().saturating_sub(1)).unwrap_or_default()
    }

    /// Replaces levels `from..to` with `level` (its text, no comma), or with nothing.
    pub(super) fn splice(&mut self, from: usize, to: usize, level: Option<&[u8]>) {
        let to = to.min(self.lens.len());
        let from = from.min(to);
        let mut start = 0;
        let mut end = 0;
        for (i, &len) in self.lens.iter().enumerate().take(to) {
            if i < from {
                start += len as usize;
            }
            end += len as usize;
        }
        let old = self.text.len();
        let (start, end) = (start.min(old), end.min(old));
        let new = level.map_or(0, |l| l.len() + 1);
        // Move what follows into place, then write the level with its comma.
        let len = old - (end - start) + new;
        if len > old {
            self.text.resize(len, 0);
        }
        self.text.copy_within(end..old, start + new);
        self.text.truncate(len);
        if let (Some(level), Some(room)) = (level, self.text.get_mut(start..start + new)) {
            let (text, comma) = room.split_at_mut(level.len());
            text.copy_from_slice(level);
            comma.fill(b',');
        }
        // Levels `from..to` become one (the first) or none.
        match (level, self.lens.get_mut(from)) {
            (Some(_), Some(len)) if from < to => {
                *len = new as u32;
                self.lens.drain(from + 1..to);
            }
            (Some(_), _) => self.lens.insert(from, new as u32),
            (None, _) => drop(self.lens.drain(from..to)),
        }
    }
}

/// What comes before a level's price.
const LEVEL_HEAD: &[u8] = b"{\"price\":";

trait Sink {
    fn put(&mut self, bytes: &[u8]);
}

impl Sink for Vec<u8> {
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// Feeds SHA-1 in large blocks: many tiny updates would cost more than the copying. Long pieces (runs of
/// levels taken from the source) go to SHA-1 as they are, without a copy.
struct Buffered {
    sha: Sha1,
    buf: Vec<u8>,
}

const BLOCK: usize = 16 * 1024;
/// Pieces at least this long skip the buffer.
const DIRECT: usize = 256;

impl Buffered {
    fn new() -> Self {
        Self { sha: Sha1::new(), buf: Vec::with_capacity(BLOCK) }
    }

    fn finish(mut self) -> [u8; 20] {
        self.sha.update(&self.buf);
        self.sha.finalize().into()
    }
}

impl Sink for Buffered {
    // Inlined into the level loop: a call per piece costs more than the copy under opt-level "z".
    #[inline(always)]
    fn put(&mut self, bytes: &[u8]) {
        if bytes.len() >= DIRECT {
            self.sha.update(&self.buf);
            self.buf.clear();
            self.sha.update(bytes);
        } else {
            if self.buf.len() + bytes.len() > BLOCK {
                self.sha.update(&self.buf);
                self.buf.clear();
            }
            self.buf.extend_from_slice(bytes);
        }
    }
}

fn hex(digest: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(digest.len() * 2);
    for &b in digest {
        for nibble in [b >> 4, b & 15] {
            out.push(DIGITS.get(usize::from(nibble)).map_or('0', |&d| char::from(d)));
        }
    }
    out
}

/// SHA-1 of bytes as lowercase hex (for the upstream-compatible `orderBookHash` of a JS object).
pub fn sha1_hex(bytes: &[u8]) -> String {
    hex(&Sha1::digest(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_service_order_vectors() {
        let vectors: serde_json::Value =
            serde_json::from_str(include_str!("../../tests/fixtures/vectors/book-hash.json")).unwrap();
        let mut checked = 0;
        for case in vectors["cases"].as_array().unwrap() {
            let json = case["json"].as_str().unwrap();
            let want = case["sha1"].as_str().unwrap();
            assert_eq!(sha1_hex(json.as_bytes()), want);
            if case["order"] == "service" {
                let book = OrderBook::from_bytes(json.as_bytes()).unwrap();
                assert_eq!(book.hash_input(), json.as_bytes());
                assert_eq!(book.hash(), want);
                checked += 1;
            }
        }
        assert!(checked >= 2);
    }

    #[test]
    fn matches_the_hashes_the_service_sent() {
        for text in [
            include_str!("../../tests/fixtures/real/clob-book-2.json"),
            include_str!("../../tests/fixtures/real/clob-book-3.json"),
        ] {
            let book = OrderBook::from_bytes(text.as_bytes()).unwrap();
            assert_eq!(Some(book.hash()), book.received_hash());
        }
    }

    #[test]
    fn hashes_runs_from_the_source_around_changed_and_general_levels() {
        let levels =
            |n: u32| (0..n).map(|i| format!(r#"{{"price":"0.{:02}","size":"{i}"}}"#, i + 10)).collect::<Vec<_>>();
        let bids = levels(40).join(",");
        let mut book = OrderBook::from_bytes(format!(r#"{{"bids":[{bids}],"asks":[]}}"#).as_bytes()).unwrap();
        // A changed level in the middle and one at each end split the run from the source.
        book.apply_price_change(super::super::Side::Buy, "0.3", "7").unwrap();
        book.apply_price_change(super::super::Side::Buy, "0.10", "8").unwrap();
        book.apply_price_change(super::super::Side::Buy, "0.49", "0").unwrap();
        book.apply_price_change(super::super::Side::Buy, "0.5", "1").unwrap();
        let mut want = levels(39);
        want[0] = r#"{"price":"0.10","size":"8"}"#.into();
        want[20] = r#"{"price":"0.3","size":"7"}"#.into();
        want.push(r#"{"price":"0.5","size":"1"}"#.into());
        let want = format!(r#"{{"hash":"","bids":[{}],"asks":[]}}"#, want.join(","));
        assert_eq!(String::from_utf8(book.hash_input()).unwrap(), want);
        assert_eq!(book.hash(), sha1_hex(want.as_bytes()));
        // A side with a level off the fast path is written level by level.
        let spaced = format!(r#"{{"asks":[{bids}, {{ "price":"0.9","size":"1"}},{bids}]}}"#);
        let book = OrderBook::from_bytes(spaced.as_bytes()).unwrap();
        let want = format!(r#"{{"hash":"","bids":[],"asks":[{bids},{{"price":"0.9","size":"1"}},{bids}]}}"#);
        assert_eq!(String::from_utf8(book.hash_input()).unwrap(), want);
        assert_eq!(book.hash(), sha1_hex(want.as_bytes()));
    }

    #[test]
    fn keeps_text_as_received_and_reorders_keys() {
        let book = OrderBook::from_bytes(
            br#"{ "asks": [ {"size": 10, "price": "0.50"} ], "hash": "abc", "neg_risk": false, "market": "m\u0041",
                "bids": [], "extra": [1, 2] }"#,
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(book.hash_input()).unwrap(),
            r#"{"market":"m\u0041","hash":"","bids":[],"asks":[{"price":"0.50","size":10}],"neg_risk":false}"#
        );
        // The hash streams through a buffer: a book far larger than one block hashes the same as its input.
        let mut big = String::from(r#"{"bids":["#);
        for i in 0..5_000 {
            if i > 0 {
                big.push(',');
            }
            big.push_str(&format!(r#"{{"price":"0.{:06}","size":"{i}.5"}}"#, i + 1));
        }
        big.push_str("]}");
        let book = OrderBook::from_bytes(big.as_bytes()).unwrap();
        assert_eq!(book.hash(), sha1_hex(&book.hash_input()));
    }
}
