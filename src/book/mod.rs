//! The order book: parsed from the response bytes into exact fixed-point arrays (struct of arrays, prices
//! and sizes as integers scaled by 10^6), with the original text kept for the hash.
//!
//! - Levels may arrive in any order. The parser notes whether a side is sorted (the service lists bids
//!   ascending and asks descending, best last); only an unsorted side pays for a ranking.
//! - Levels repeated at one price are kept as received (the hash covers them as sent) and added together
//!   by every query: they are one price level with the sum of the sizes.
//! - Nothing here panics, whatever the input: arithmetic is checked or saturating and indexing uses `get`.

mod change;
pub mod fixed;
mod hash;
pub mod math;
mod parse;
mod walk;

pub use hash::sha1_hex;
pub use walk::{Depth, Fill, Ladder, Target};

use crate::error::Error;
use crate::json::unescape;

/// Where a piece of text sits: in the book's source bytes, or (with [`Span::EXTRA`] set in `start`) in
/// the text of the price changes applied since.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Span {
    start: u32,
    len: u32,
}

impl Span {
    const EXTRA: u32 = 1 << 31;
}

/// A price level in 10^-6 units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub price: u64,
    pub size: u64,
}

/// The side of an order: a buy takes the asks, a sell takes the bids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Buy,
    Sell,
}

impl Side {
    pub fn parse(text: &str) -> Result<Self, Error> {
        match text {
            "BUY" => Ok(Self::Buy),
            "SELL" => Ok(Self::Sell),
            _ => Err(Error::invalid("side", "must be \"BUY\" or \"SELL\"")),
        }
    }
}

/// How a market order treats a book too thin to fill it: FOK fails with `NO_MATCH`; the others (FAK, and
/// GTC and GTD as the upstream clients treat them) take what there is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrderType {
    Fok,
    Fak,
    Gtc,
    Gtd,
}

impl OrderType {
    pub fn parse(text: &str) -> Result<Self, Error> {
        match text {
            "FOK" => Ok(Self::Fok),
            "FAK" => Ok(Self::Fak),
            "GTC" => Ok(Self::Gtc),
            "GTD" => Ok(Self::Gtd),
            _ => Err(Error::invalid("orderType", "must be \"FOK\", \"FAK\", \"GTC\" or \"GTD\"")),
        }
    }
}

/// In what order a side's levels sit, as received, seen from the best price.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Order {
    /// The best level is last (how the service lists both sides); also empty and one-price sides.
    BestLast,
    /// The best level is first.
    BestFirst,
    /// Neither: the indexes of the levels best first (ties in received order).
    Ranked(Vec<u32>),
}

/// One side of the book, as received: struct of arrays, prices and sizes in 10^-6 units.
#[derive(Clone, Debug)]
pub struct BookSide {
    prices: Vec<u64>,
    sizes: Vec<u64>,
    /// The price and size text of each level: the JSON values as received, quotes included.
    text: Vec<(Span, Span)>,
    order: Order,
    /// The best price with the total size at it, kept current so best, midpoint and spread are O(1).
    best: Option<Level>,
    /// Bids rank the highest price first, asks the lowest.
    is_bid: bool,
    /// Every level whose text is in the source came through the parser's fast path, so its text there is
    /// exactly `{"price":P,"size":S}` from the byte before `price`'s key to the `}`: the hash takes such
    /// levels, and runs of them, straight from the source. Price changes keep this true: they only
    /// remove levels or give them text in the arena.
    compact: bool,
    /// The levels' text as the hash writes it, once a live book keeps it (see `OrderBook::keep_summary`).
    summary: Option<hash::Summary>,
}

impl BookSide {
    fn new(is_bid: bool) -> Self {
        Self {
            prices: Vec::new(),
            sizes: Vec::new(),
            text: Vec::new(),
            order: Order::BestLast,
            best: None,
            is_bid,
            compact: true,
            summary: None,
        }
    }

    /// Levels as received (repeated prices counted separately).
    pub fn len(&self) -> usize {
        self.prices.len()
    }

    pub fn is_empty(&self) -> bool {
        self.prices.is_empty()
    }

    /// Prices as received, in 10^-6 units.
    pub fn prices(&self) -> &[u64] {
        &self.prices
    }

    /// Sizes as received, in 10^-6 units.
    pub fn sizes(&self) -> &[u64] {
        &self.sizes
    }

    /// The best price and the total size at it.
    pub fn best(&self) -> Option<Level> {
        self.best
    }

    /// Works out the order and the best level after the levels changed.
    fn settle(&mut self, ascending: bool, descending: bool) {
        self.order = match (self.is_bid, ascending, descending) {
            (true, true, _) | (false, _, true) => Order::BestLast,
            (true, _, true) | (false, true, _) => Order::BestFirst,
            _ => {
                let mut ranks: Vec<u32> = (0..self.prices.len() as u32).collect();
                let prices = &self.prices;
                let is_bid = self.is_bid;
                // Best price first; ties by received position, so the order is the same on every run.
                heap_sort(&mut ranks, |a, b| {
                    let (pa, pb) = (prices.get(a as usize), prices.get(b as usize));
                    let better = if is_bid { pa > pb } else { pa < pb };
                    better || (pa == pb && a < b)
                });
                Order::Ranked(ranks)
            }
        };
        let mut best: Option<Level> = None;
        self.each_best_first(|price, size| match best.as_mut() {
            None => {
                best = Some(Level { price, size });
                true
            }
            Some(level) if level.price == price => {
                level.size = level.size.saturating_add(size);
                true
            }
            Some(_) => false,
        });
        self.best = best;
    }

    /// Looks at the order of the levels from scratch (after a change to an unsorted side).
    fn resettle(&mut self) {
        let ascending = self.prices.windows(2).all(|w| matches!(w, [a, b] if a <= b));
        let descending = self.prices.windows(2).all(|w| matches!(w, [a, b] if a >= b));
        self.settle(ascending, descending);
    }

    /// Calls `visit(price, size)` for each level, best first, until it returns false. Repeated prices come
    /// one after another.
    #[inline(always)]
    fn each_best_first(&self, mut visit: impl FnMut(u64, u64) -> bool) {
        match &self.order {
            Order::BestLast => {
                for (&price, &size) in self.prices.iter().zip(&self.sizes).rev() {
                    if !visit(price, size) {
                        return;
                    }
                }
            }
            Order::BestFirst => {
                for (&price, &size) in self.prices.iter().zip(&self.sizes) {
                    if !visit(price, size) {
                        return;
                    }
                }
            }
            Order::Ranked(ranks) => {
                for &i in ranks {
                    let i = i as usize;
                    let (Some(&price), Some(&size)) = (self.prices.get(i), self.sizes.get(i)) else { return };
                    if !visit(price, size) {
                        return;
                    }
                }
            }
        }
    }

    /// Calls `visit(prices, sizes, reversed)` for consecutive runs of up to [`CHUNK`] levels, best first;
    /// with `reversed` a run's best level is its last. Hot walks take whole runs at a time.
    #[inline(always)]
    fn each_chunk_best_first(&self, mut visit: impl FnMut(&[u64], &[u64], bool) -> bool) {
        match &self.order {
            // Offsets rather than `rchunks` and `zip`, which size optimization leaves as calls.
            Order::BestLast => {
                let mut end = self.prices.len().min(self.sizes.len());
                while end > 0 {
                    let start = end.saturating_sub(CHUNK);
                    let (Some(prices), Some(sizes)) = (self.prices.get(start..end), self.sizes.get(start..end)) else {
                        return;
                    };
                    if !visit(prices, sizes, true) {
                        return;
                    }
                    end = start;
                }
            }
            Order::BestFirst => {
                let (len, mut start) = (self.prices.len().min(self.sizes.len()), 0);
                while start < len {
                    let end = len.min(start + CHUNK);
                    let (Some(prices), Some(sizes)) = (self.prices.get(start..end), self.sizes.get(start..end)) else {
                        return;
                    };
                    if !visit(prices, sizes, false) {
                        return;
                    }
                    start = end;
                }
            }
            Order::Ranked(ranks) => {
                for run in ranks.chunks(CHUNK) {
                    let (mut prices, mut sizes) = ([0u64; CHUNK], [0u64; CHUNK]);
                    for ((&i, price), size) in run.iter().zip(prices.iter_mut()).zip(sizes.iter_mut()) {
                        *price = self.prices.get(i as usize).copied().unwrap_or_default();
                        *size = self.sizes.get(i as usize).copied().unwrap_or_default();
                    }
                    let n = run.len();
                    let (Some(prices), Some(sizes)) = (prices.get(..n), sizes.get(..n)) else { return };
                    if !visit(prices, sizes, false) {
                        return;
                    }
                }
            }
        }
    }

    /// Calls `visit(price, total size)` for each distinct price, best first, until it returns false.
    fn each_price_best_first(&self, mut visit: impl FnMut(u64, u64) -> bool) {
        let mut current: Option<Level> = None;
        let mut stopped = false;
        self.each_best_first(|price, size| match current.as_mut() {
            Some(level) if level.price == price => {
                level.size = level.size.saturating_add(size);
                true
            }
            Some(level) => {
                let go = visit(level.price, level.size);
                current = Some(Level { price, size });
                stopped = !go;
                go
            }
            None => {
                current = Some(Level { price, size });
                true
            }
        });
        if let (false, Some(level)) = (stopped, current) {
            visit(level.price, level.size);
        }
    }
}

/// Sorts so that `before(a, b)` holds for every `a` ahead of `b` (`before` must be a strict total order).
/// Heapsort: O(n log n) with no extra memory and a fraction of the code size of the standard library's
/// sorts; only unsorted sides (never the service's own books) need it.
fn heap_sort(v: &mut [u32], before: impl Fn(u32, u32) -> bool) {
    // A max-heap under `before` keeps the item that goes last at the root.
    let sift = |v: &mut [u32], mut root: usize, end: usize| loop {
        let mut child = 2 * root + 1;
        if child >= end {
            return;
        }
        if child + 1 < end && matches!((v.get(child), v.get(child + 1)), (Some(&a), Some(&b)) if before(a, b)) {
            child += 1;
        }
        match (v.get(root), v.get(child)) {
            (Some(&r), Some(&c)) if before(r, c) => v.swap(root, child),
            _ => return,
        }
        root = child;
    };
    let n = v.len();
    for root in (0..n / 2).rev() {
        sift(v, root, n);
    }
    for end in (1..n).rev() {
        v.swap(0, end);
        sift(v, 0, end);
    }
}

/// The top-level fields the hash covers, in the interface's order; `bids` and `asks` sit between `hash`
/// and `min_order_size`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    Market = 0,
    AssetId,
    Timestamp,
    Hash,
    MinOrderSize,
    TickSize,
    NegRisk,
    LastTradePrice,
}

const FIELD_COUNT: usize = 8;

/// Levels per run of the hot walks: few enough that the sums of a run's products fit in 64 bits (see
/// `walk::run_sums`), many enough that the work per run is small beside the work per level.
const CHUNK: usize = 32;

/// An order book as the service sends it (GET /book, each element of POST /books).
#[derive(Clone, Debug)]
pub struct OrderBook {
    /// The bytes the book was parsed from; spans point into them.
    src: Vec<u8>,
    /// Text added by price changes and timestamp updates; spans with [`Span::EXTRA`] point here.
    extra: Vec<u8>,
    /// The raw JSON value of each top-level field, as received.
    fields: [Option<Span>; FIELD_COUNT],
    pub bids: BookSide,
    pub asks: BookSide,
}

impl OrderBook {
    /// Parses the bytes of one order-book JSON object. Prices and sizes may be strings or numbers; each
    /// must be an exact non-negative decimal with at most six significant fraction digits.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_vec(bytes.to_vec())
    }

    /// As [`OrderBook::from_bytes`], keeping the buffer (no copy).
    pub fn from_vec(bytes: Vec<u8>) -> Result<Self, Error> {
        parse::book(bytes)
    }

    /// Parses the bytes of a POST /books response: a JSON array of order books.
    pub fn list_from_bytes(bytes: &[u8]) -> Result<Vec<Self>, Error> {
        parse::books(bytes)
    }

    pub fn best_bid(&self) -> Option<Level> {
        self.bids.best
    }

    pub fn best_ask(&self) -> Option<Level> {
        self.asks.best
    }

    /// Halfway between the best bid and the best ask; `None` when a side is empty.
    pub fn midpoint(&self) -> Option<f64> {
        let (bid, ask) = (self.bids.best?.price, self.asks.best?.price);
        Some((bid as f64 + ask as f64) / (2 * fixed::SCALE) as f64)
    }

    /// The best ask minus the best bid (negative when the book is crossed); `None` when a side is empty.
    pub fn spread(&self) -> Option<f64> {
        let (bid, ask) = (self.bids.best?.price, self.asks.best?.price);
        Some((ask as f64 - bid as f64) / fixed::SCALE as f64)
    }

    /// The side a market order of `side` takes from.
    pub fn opposite(&self, side: Side) -> &BookSide {
        match side {
            Side::Buy => &self.asks,
            Side::Sell => &self.bids,
        }
    }

    pub fn market(&self) -> Option<String> {
        self.text(Field::Market)
    }

    pub fn asset_id(&self) -> Option<String> {
        self.text(Field::AssetId)
    }

    pub fn timestamp(&self) -> Option<String> {
        self.text(Field::Timestamp)
    }

    /// The hash the service sent with the book.
    pub fn received_hash(&self) -> Option<String> {
        self.text(Field::Hash)
    }

    pub fn tick_size(&self) -> Option<u64> {
        self.decimal(Field::TickSize)
    }

    pub fn min_order_size(&self) -> Option<u64> {
        self.decimal(Field::MinOrderSize)
    }

    /// The last trade's price; `None` when absent or empty (the service sends `""` before any trade).
    pub fn last_trade_price(&self) -> Option<u64> {
        self.decimal(Field::LastTradePrice)
    }

    /// The `last_trade_price` as the hash writes it (its JSON value, quotes included), when the book has one.
    pub fn last_trade_price_raw(&self) -> Option<&[u8]> {
        self.field(Field::LastTradePrice).map(|span| self.raw(span))
    }

    pub fn neg_risk(&self) -> Option<bool> {
        match self.raw(self.field(Field::NegRisk)?) {
            b"true" => Some(true),
            b"false" => Some(false),
            _ => None,
        }
    }

    fn field(&self, field: Field) -> Option<Span> {
        self.fields.get(field as usize).copied().flatten()
    }

    fn set_field(&mut self, field: Field, span: Option<Span>) {
        if let Some(slot) = self.fields.get_mut(field as usize) {
            *slot = span;
        }
    }

    /// The bytes of a span, wherever it points.
    #[inline(always)]
    fn raw(&self, span: Span) -> &[u8] {
        let (buf, start) = if span.start & Span::EXTRA != 0 {
            (&self.extra, span.start & !Span::EXTRA)
        } else {
            (&self.src, span.start)
        };
        let start = start as usize;
        buf.get(start..start.saturating_add(span.len as usize)).unwrap_or_default()
    }

    /// A field's value as text: a string unescaped, a number as written; `None` when absent or null.
    fn text(&self, field: Field) -> Option<String> {
        let raw = self.raw(self.field(field)?);
        match raw {
            [b'"', inner @ .., b'"'] => unescape(inner).ok(),
            b"null" => None,
            _ => String::from_utf8(raw.to_vec()).ok(),
        }
    }

    fn decimal(&self, field: Field) -> Option<u64> {
        let raw = self.raw(self.field(field)?);
        fixed::parse(unquote(raw))
    }
}

/// A JSON string's content without its quotes; anything else unchanged.
fn unquote(raw: &[u8]) -> &[u8] {
    match raw {
        [b'"', inner @ .., b'"'] => inner,
        _ => raw,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOOK_1: &str = include_str!("../../tests/fixtures/real/clob-book-1.json");
    const BOOK_2: &str = include_str!("../../tests/fixtures/real/clob-book-2.json");
    const BOOK_3: &str = include_str!("../../tests/fixtures/real/clob-book-3.json");

    #[test]
    fn parses_the_old_shape_unsorted() {
        let book = OrderBook::from_bytes(BOOK_1.as_bytes()).unwrap();
        assert_eq!(book.bids.len(), 5);
        assert_eq!(book.asks.len(), 7);
        assert_eq!(book.best_bid(), Some(Level { price: 100_000, size: 125_000_000 }));
        assert_eq!(book.best_ask(), Some(Level { price: 140_000, size: 705_000_000 }));
        assert_eq!(book.timestamp().as_deref(), Some("1728799418260"));
        assert_eq!(book.received_hash().as_deref(), Some("2fc4a3d6a98bc164e057589bcb74981852b87412"));
        assert_eq!(book.neg_risk(), None);
        assert_eq!(book.tick_size(), None);
    }

    #[test]
    fn parses_the_new_shape_with_an_empty_side() {
        let book = OrderBook::from_bytes(BOOK_2.as_bytes()).unwrap();
        assert_eq!(book.best_bid(), Some(Level { price: 2_000, size: 6_990_000 }));
        assert_eq!(book.best_ask(), None);
        assert_eq!(book.midpoint(), None);
        assert_eq!(book.spread(), None);
        assert_eq!(book.neg_risk(), Some(true));
        assert_eq!(book.tick_size(), Some(1_000));
        assert_eq!(book.min_order_size(), Some(5_000_000));
        assert_eq!(book.last_trade_price(), None);
        assert_eq!(
            book.asset_id().as_deref(),
            Some("72610532355343625199299853218161700546393390326785971247545541945337255643692")
        );
    }

    #[test]
    fn parses_a_deep_one_sided_book() {
        let book = OrderBook::from_bytes(BOOK_3.as_bytes()).unwrap();
        assert_eq!(book.bids.len(), 0);
        assert_eq!(book.asks.len(), 104);
        assert_eq!(book.best_bid(), None);
        let best = book.best_ask().unwrap();
        assert!(book.asks.prices.iter().all(|&p| p >= best.price));
        assert_eq!(book.asks.order, Order::BestLast);
    }

    #[test]
    fn midpoint_and_spread() {
        let book = OrderBook::from_bytes(
            br#"{"bids":[{"price":"0.41","size":"1"},{"price":"0.42","size":"1"}],"asks":[{"price":"0.45","size":"1"}]}"#,
        )
        .unwrap();
        assert_eq!(book.midpoint(), Some(0.435));
        assert!((book.spread().unwrap() - 0.03).abs() < 1e-15);
    }

    #[test]
    fn repeated_prices_add_up_and_numbers_are_accepted() {
        let book = OrderBook::from_bytes(
            br#"{"bids":[{"price":0.5,"size":"1"},{"price":"0.50","size":2.5},{"price":"0.4","size":"9"}],"asks":[]}"#,
        )
        .unwrap();
        assert_eq!(book.best_bid(), Some(Level { price: 500_000, size: 3_500_000 }));
        // Descending bids: the best is first.
        assert_eq!(book.bids.order, Order::BestFirst);
    }

    #[test]
    fn ranks_an_unsorted_side() {
        let book = OrderBook::from_bytes(
            br#"{"asks":[{"price":"0.5","size":"1"},{"price":"0.3","size":"2"},{"price":"0.6","size":"3"},{"price":"0.3","size":"4"}]}"#,
        )
        .unwrap();
        assert_eq!(book.best_ask(), Some(Level { price: 300_000, size: 6_000_000 }));
        let mut seen = Vec::new();
        book.asks.each_price_best_first(|p, s| {
            seen.push((p, s));
            true
        });
        assert_eq!(seen, [(300_000, 6_000_000), (500_000, 1_000_000), (600_000, 3_000_000)]);
    }

    #[test]
    fn heap_sort_sorts() {
        let mut v: Vec<u32> = (0..200u32).map(|i| (i * 7919) % 200).collect();
        heap_sort(&mut v, |a, b| a < b);
        assert_eq!(v, (0..200).collect::<Vec<_>>());
        let mut one = [5u32];
        heap_sort(&mut one, |a, b| a < b);
        assert_eq!(one, [5]);
    }

    #[test]
    fn rejects_what_it_cannot_represent() {
        for bad in [
            r#"{"bids":[{"price":"0.1234567","size":"1"}]}"#,
            r#"{"bids":[{"price":"-0.1","size":"1"}]}"#,
            r#"{"bids":[{"price":"abc","size":"1"}]}"#,
            r#"{"bids":[{"size":"1"}]}"#,
            r#"{"bids":[{"price":"0.1"}]}"#,
            r#"{"bids":[{"price":1e-3,"size":"1"}]}"#,
            r#"{"bids":[{"price":"0.1","size":"1"},]}"#,
            r#"{"bids":[{"price":"0.1","size":"1"}"#,
            r#"{"bids":[{"price":"0.1","size":"99999999999999"}]}"#,
            r#"{"bids":{}}"#,
            r#"{"neg_risk":"yes"}"#,
            r#"{"market":{}}"#,
            r#"[]"#,
            r#"{"bids":[]} trailing"#,
            "",
        ] {
            let err = OrderBook::from_bytes(bad.as_bytes()).unwrap_err();
            assert_eq!(err.code, crate::error::ErrorCode::Decode, "{bad}");
        }
    }

    #[test]
    fn reads_books_lists() {
        let list = format!("[{BOOK_2}, {BOOK_3}]");
        let books = OrderBook::list_from_bytes(list.as_bytes()).unwrap();
        assert_eq!(books.len(), 2);
        assert_eq!(books[1].asks.len(), 104);
        assert_eq!(books[0].hash(), "d7df883ae546b09533a4f485bfae0810da1af04e");
        assert!(OrderBook::list_from_bytes(b"[{\"bids\":[}]").is_err());
        assert!(OrderBook::list_from_bytes(b"{}").is_err());
    }
}
