//! The service's book hash: SHA-1, lowercase hex, of the compact JSON of the book with `hash` set to `""`,
//! keys in the interface's field order, every value exactly as received.

use sha1::{Digest, Sha1};

use super::{BookSide, Field, OrderBook};

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
        let mut out = Buffered::new();
        self.write_json(&mut out);
        hex(&out.finish())
    }

    /// The compact JSON the hash covers.
    pub fn hash_input(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write_json(&mut out);
        out
    }

    fn write_json(&self, out: &mut impl Sink) {
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
            if let Some(span) = self.field(field) {
                out.put(b",");
                out.put(key);
                out.put(self.raw(span));
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
        for (i, (price, size)) in side.text.iter().enumerate() {
            out.put(if i == 0 { b"{\"price\":" } else { b",{\"price\":" });
            out.put(self.raw(*price));
            out.put(b",\"size\":");
            out.put(self.raw(*size));
            out.put(b"}");
        }
    }
}

trait Sink {
    fn put(&mut self, bytes: &[u8]);
}

impl Sink for Vec<u8> {
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// Feeds SHA-1 in large blocks: many tiny updates would cost more than the copying.
struct Buffered {
    sha: Sha1,
    buf: Vec<u8>,
}

const BLOCK: usize = 16 * 1024;

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
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        if self.buf.len() + bytes.len() > BLOCK {
            self.sha.update(&self.buf);
            self.buf.clear();
            if bytes.len() > BLOCK {
                self.sha.update(bytes);
                return;
            }
        }
        self.buf.extend_from_slice(bytes);
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
        for text in
            [include_str!("../../tests/fixtures/real/clob-book-2.json"), include_str!("../../tests/fixtures/real/clob-book-3.json")]
        {
            let book = OrderBook::from_bytes(text.as_bytes()).unwrap();
            assert_eq!(Some(book.hash()), book.received_hash());
        }
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
