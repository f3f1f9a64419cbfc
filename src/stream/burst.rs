//! Same-timestamp bursts of the market channel, and what explains a hash that a live book does not give.
//!
//! Around a trade the service sends several `price_change` frames with one timestamp (the crossing order,
//! then the trade), and each of their entries may carry the hash of the state after the whole burst, whose
//! `last_trade_price` may be one that no `last_trade_price` event has announced yet (or ever will). So a
//! mismatch inside a burst is provisional until the burst ends:
//!
//! - a later state of the burst that gives the hash explains it (and every other hash the burst left
//!   unexplained, when the later state matches its own entry's hash: the book then equals the service's);
//! - so does a trade at one of the prices the burst took, written as the service writes prices: the book
//!   adopts that `last_trade_price`. SHA-1 makes a false explanation impossible in practice;
//! - a hash that nothing explains by the end of the burst (a change with another timestamp, or
//!   [`WINDOW_MS`] after the first unexplained hash) resynchronises the book.

use super::live::Resync;
use crate::book::{fixed, OrderBook};

/// Distinct prices kept per burst to try as its trade's price; more are not tried.
const MAX_PRICES: usize = 32;

/// Hashes left unexplained in one burst at most; one more ends it at once.
const MAX_UNEXPLAINED: usize = 16;

/// Earlier `last_trade_price` values kept per book, to try when a hash covers one of them again.
const MAX_KNOWN: usize = 4;

/// How long (local milliseconds) a burst's first unexplained hash may wait for an explanation: past it, the
/// next frame or health check of the stream ends the burst.
pub const WINDOW_MS: f64 = 1_000.0;

/// What explained a hash the book did not give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Outcome {
    /// The book as it is now gives it (a later state of the burst).
    Now,
    /// A trade at one of the burst's prices, which the book adopted as its `last_trade_price`.
    Inferred,
    /// Nothing yet: the hash waits for the rest of the burst.
    Provisional,
    /// Nothing, and the burst cannot hold more: resynchronise.
    Unexplained(Resync),
}

/// The burst one live book is in: the changes it got with one timestamp.
#[derive(Debug, Default)]
pub(super) struct Burst {
    timestamp: u64,
    /// Prices (units) the burst's changes took, distinct.
    prices: Vec<u64>,
    /// Hashes of the service that no state has explained yet, with what a resync for them means.
    unexplained: Vec<([u8; 20], Resync)>,
    /// When (local milliseconds) the first of them came.
    since: f64,
    /// The book's earlier `last_trade_price` values (JSON strings, quotes included), newest last: a `book`
    /// event that leaves the field out may hash one of them rather than the latest the stream told.
    known: Vec<Vec<u8>>,
}

impl Burst {
    /// A change with `timestamp` comes: a new timestamp ends the burst, `Err` when it ended with a hash that
    /// nothing explained.
    pub fn enter(&mut self, timestamp: u64) -> Result<(), Resync> {
        if timestamp == self.timestamp {
            return Ok(());
        }
        let ended = self.end();
        self.timestamp = timestamp;
        self.prices.clear();
        ended
    }

    /// Ends the burst: `Err` when a hash is left unexplained.
    pub fn end(&mut self) -> Result<(), Resync> {
        let left = self.unexplained.first().map(|&(_, reason)| reason);
        self.unexplained.clear();
        left.map_or(Ok(()), Err)
    }

    /// The book's `last_trade_price` is about to change from `raw` (its JSON value).
    pub fn remember(&mut self, raw: Option<&[u8]>) {
        let Some(raw) = raw.filter(|r| r.len() <= 32 && r.first() == Some(&b'"')) else { return };
        if self.known.iter().any(|k| k == raw) {
            return;
        }
        if self.known.len() >= MAX_KNOWN {
            self.known.remove(0);
        }
        self.known.push(raw.to_vec());
    }

    /// Forgets the burst (the book was replaced).
    pub fn clear(&mut self) {
        self.timestamp = 0;
        self.prices.clear();
        self.unexplained.clear();
    }

    /// The burst's timestamp.
    pub fn timestamp(&self) -> u64 {
        self.timestamp
    }

    /// A change of the burst took a level at `price` (its text).
    pub fn took(&mut self, price: &str) {
        if self.prices.len() >= MAX_PRICES {
            return;
        }
        let Some(units) = fixed::parse(price.as_bytes()) else { return };
        if !self.prices.contains(&units) {
            self.prices.push(units);
        }
    }

    /// Whether hashes wait for an explanation.
    pub fn pending(&self) -> bool {
        !self.unexplained.is_empty()
    }

    /// When the window of the burst's first unexplained hash ends (`INFINITY`: none waits).
    pub fn deadline(&self) -> f64 {
        if self.pending() {
            self.since + WINDOW_MS
        } else {
            f64::INFINITY
        }
    }

    /// Whether the burst's first unexplained hash has waited its window out by `now`.
    pub fn expired(&self, now: f64) -> bool {
        // A clock that reads NaN ends the burst rather than keep it forever.
        self.pending() && (now - self.since >= WINDOW_MS || now.is_nan())
    }

    /// The book matched the service's hash of its latest change: it equals the service's state, so what
    /// the burst left unexplained is moot. The number of hashes that waited.
    pub fn matched(&mut self) -> usize {
        let waited = self.unexplained.len();
        self.unexplained.clear();
        waited
    }

    /// The book as it is now does not give `want`, the service's hash: is anything in the burst an
    /// explanation?
    /// `hashed`: the caller has just found that the book as it is does not give `want` (no need to hash it again).
    pub fn mismatch(
        &mut self,
        book: &mut OrderBook,
        want: [u8; 20],
        reason: Resync,
        hashed: bool,
        now: f64,
    ) -> Outcome {
        if !hashed && book.digest() == want {
            return Outcome::Now;
        }
        if self.infer(book, want) {
            // The trade's price may explain what waited too.
            self.recheck(book);
            return Outcome::Inferred;
        }
        if self.unexplained.len() >= MAX_UNEXPLAINED {
            return Outcome::Unexplained(reason);
        }
        if self.unexplained.is_empty() {
            self.since = now;
        }
        if !self.unexplained.iter().any(|(w, _)| *w == want) {
            self.unexplained.push((want, reason));
        }
        Outcome::Provisional
    }

    /// The book changed while hashes wait: those that its state now gives (or gives with a trade at one of
    /// the burst's prices, which the book adopts) are explained. The number explained.
    pub fn recheck(&mut self, book: &mut OrderBook) -> usize {
        if self.unexplained.is_empty() {
            return 0;
        }
        let before = self.unexplained.len();
        let now = book.digest();
        self.unexplained.retain(|(want, _)| *want != now);
        let waiting: Vec<[u8; 20]> = self.unexplained.iter().map(|(w, _)| *w).collect();
        for want in waiting {
            if self.infer(book, want) {
                let now = book.digest();
                self.unexplained.retain(|(w, _)| *w != now);
            }
        }
        before - self.unexplained.len()
    }

    /// Whether a trade at one of the burst's prices (or a `last_trade_price` the book had before) gives
    /// `want`; if so the book takes that price as its `last_trade_price`.
    fn infer(&mut self, book: &mut OrderBook, want: [u8; 20]) -> bool {
        let tick_places = book.tick_size().map_or(0, places);
        let forms = [Form::Shortest, Form::Places(2), Form::Places(3), Form::Places(4), Form::Places(tick_places)];
        let mut raw = Vec::with_capacity(16);
        let mut found = false;
        let mut tried: Vec<Vec<u8>> = Vec::with_capacity(forms.len());
        'search: for &price in &self.prices {
            tried.clear();
            for form in forms {
                raw.clear();
                raw.push(b'"');
                form.write(price, &mut raw);
                raw.push(b'"');
                // (Forms that write the same text for this price are hashed once.)
                if tried.contains(&raw) {
                    continue;
                }
                tried.push(raw.clone());
                if book.digest_with_last_trade(&raw) == want {
                    found = true;
                    break 'search;
                }
            }
        }
        if !found {
            let known = self.known.iter().rev().find(|k| book.digest_with_last_trade(k) == want);
            match known {
                Some(k) => raw.clone_from(k),
                None => return false,
            }
        }
        let text = raw.get(1..raw.len().saturating_sub(1)).and_then(|t| std::str::from_utf8(t).ok()).unwrap_or("");
        let text = text.to_owned();
        self.remember(book.last_trade_price_raw());
        book.set_last_trade_price(&text).is_ok()
    }
}

/// The ways the service writes a price: `0.5`, or with at least so many decimals (`0.50`, `0.500`: a
/// `last_trade_price` comes with three whatever the tick, real captures show).
#[derive(Clone, Copy)]
enum Form {
    Shortest,
    Places(u32),
}

impl Form {
    fn write(self, units: u64, out: &mut Vec<u8>) {
        let start = out.len();
        fixed::format(units, out);
        let want = match self {
            Self::Shortest => return,
            Self::Places(places) => places,
        };
        let text = out.get(start..).unwrap_or_default();
        let have = text.iter().position(|&b| b == b'.').map_or(0, |dot| (text.len() - dot - 1) as u32);
        if have >= want {
            return;
        }
        if have == 0 {
            out.push(b'.');
        }
        for _ in have..want {
            out.push(b'0');
        }
    }
}

/// The decimals of a tick size in units (`1_000` is 3).
fn places(tick: u64) -> u32 {
    let mut places = 6;
    let mut t = tick;
    while places > 0 && t % 10 == 0 && t > 0 {
        t /= 10;
        places -= 1;
    }
    places
}

#[cfg(test)]
mod tests {
    use super::*;

    fn book(text: &str) -> OrderBook {
        OrderBook::from_bytes(text.as_bytes()).unwrap()
    }

    const BASE: &str = r#"{"market":"m","asset_id":"1","timestamp":"5","hash":"","bids":[{"price":"0.4","size":"10"}],"asks":[{"price":"0.6","size":"10"}],"min_order_size":"5","tick_size":"0.01","neg_risk":false,"last_trade_price":"0.45"}"#;

    #[test]
    fn prices_are_written_as_the_service_writes_them() {
        let cases = [
            (500_000, Form::Shortest, "0.5"),
            (500_000, Form::Places(3), "0.500"),
            (500_000, Form::Places(2), "0.50"),
            (1_000_000, Form::Places(2), "1.00"),
            (123_000, Form::Places(2), "0.123"),
            (120_000, Form::Places(4), "0.1200"),
            (7, Form::Places(0), "0.000007"),
        ];
        for (units, form, text) in cases {
            let mut out = Vec::new();
            form.write(units, &mut out);
            assert_eq!(String::from_utf8(out).unwrap(), text);
        }
        assert_eq!([places(10_000), places(1_000), places(100), places(100_000), places(1)], [2, 3, 4, 1, 6]);
    }

    #[test]
    fn a_hash_of_a_later_state_is_provisional_then_explained() {
        let mut b = book(BASE);
        let mut later = b.clone();
        later.apply_price_change(crate::book::Side::Sell, "0.6", "4").unwrap();
        let want = later.digest();
        let mut burst = Burst::default();
        assert_eq!(burst.enter(7), Ok(()));
        burst.took("0.6");
        assert_eq!(burst.mismatch(&mut b, want, Resync::HashMismatch, false, 100.0), Outcome::Provisional);
        assert!(burst.pending() && !burst.expired(100.0 + WINDOW_MS - 1.0) && burst.expired(100.0 + WINDOW_MS));
        b.apply_price_change(crate::book::Side::Sell, "0.6", "4").unwrap();
        assert_eq!(burst.recheck(&mut b), 1);
        assert!(!burst.pending());
        assert_eq!(burst.enter(8), Ok(()));
    }

    #[test]
    fn a_trade_at_a_price_the_burst_took_is_inferred_and_adopted() {
        for (taken, written) in [("0.6", "0.6"), ("0.6", "0.60"), ("0.60", "0.6"), ("0.6", "0.600")] {
            let mut b = book(BASE);
            let mut service = b.clone();
            service.set_last_trade_price(written).unwrap();
            let want = service.digest();
            let mut burst = Burst::default();
            burst.enter(7).unwrap();
            burst.took("0.4");
            burst.took(taken);
            assert_eq!(burst.mismatch(&mut b, want, Resync::HashMismatch, false, 0.0), Outcome::Inferred, "{written}");
            assert_eq!(b.digest(), want);
            assert_eq!(b.last_trade_price(), Some(600_000));
        }
        // A book that had no last trade price gets one.
        let mut b = book(&BASE.replace(r#","last_trade_price":"0.45""#, ""));
        let mut service = b.clone();
        service.set_last_trade_price("0.4").unwrap();
        let mut burst = Burst::default();
        burst.enter(7).unwrap();
        burst.took("0.4");
        assert_eq!(burst.mismatch(&mut b, service.digest(), Resync::BookMismatch, false, 0.0), Outcome::Inferred);
        // A value the book had before, which the service's hash covers again.
        let mut b = book(BASE);
        let mut burst = Burst::default();
        burst.remember(b.last_trade_price_raw());
        b.set_last_trade_price("0.490").unwrap();
        let service = book(BASE);
        assert_eq!(burst.mismatch(&mut b, service.digest(), Resync::BookMismatch, false, 0.0), Outcome::Inferred);
        assert_eq!(b.last_trade_price_raw(), Some(&br#""0.45""#[..]));
    }

    #[test]
    fn what_nothing_explains_resyncs_when_the_burst_ends() {
        let mut b = book(BASE);
        let mut burst = Burst::default();
        burst.enter(7).unwrap();
        burst.took("0.6");
        assert_eq!(burst.mismatch(&mut b, [7; 20], Resync::HashMismatch, false, 0.0), Outcome::Provisional);
        // The same hash again waits once.
        assert_eq!(burst.mismatch(&mut b, [7; 20], Resync::HashMismatch, false, 0.0), Outcome::Provisional);
        assert_eq!(burst.recheck(&mut b), 0);
        assert_eq!(burst.enter(7), Ok(()));
        assert_eq!(burst.enter(9), Err(Resync::HashMismatch));
        assert!(!burst.pending());
        // A price outside the burst does not explain a hash.
        let mut service = b.clone();
        service.set_last_trade_price("0.55").unwrap();
        assert_eq!(burst.mismatch(&mut b, service.digest(), Resync::HashMismatch, false, 0.0), Outcome::Provisional);
        // A match of the book's latest hash settles the burst.
        assert_eq!(burst.matched(), 1);
        assert_eq!(burst.end(), Ok(()));
        // A burst cannot hold more than its bound.
        for i in 0..MAX_UNEXPLAINED {
            assert_eq!(
                burst.mismatch(&mut b, [i as u8 + 10; 20], Resync::HashMismatch, false, 0.0),
                Outcome::Provisional
            );
        }
        assert_eq!(burst.mismatch(&mut b, [1; 20], Resync::Gap, false, 0.0), Outcome::Unexplained(Resync::Gap));
        // The book's own state explains at once.
        let want = b.digest();
        assert_eq!(burst.mismatch(&mut b, want, Resync::HashMismatch, false, 0.0), Outcome::Now);
    }
}
