//! The order book: parsed from the response bytes into exact fixed-point arrays, with the original text
//! kept for hashing.

pub mod fixed;

use crate::error::Error;
use crate::json::{unescape, Scanner};

/// Where a piece of text sits in the book's source bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Span {
    start: u32,
    len: u32,
}

/// One side of the book, as received: struct of arrays, prices and sizes in 10^-6 units.
#[derive(Clone, Debug, Default)]
pub struct Side {
    pub prices: Vec<u64>,
    pub sizes: Vec<u64>,
    /// The price and size text of each level, as received.
    text: Vec<(Span, Span)>,
}

impl Side {
    pub fn len(&self) -> usize {
        self.prices.len()
    }

    pub fn is_empty(&self) -> bool {
        self.prices.is_empty()
    }

    fn clear(&mut self) {
        self.prices.clear();
        self.sizes.clear();
        self.text.clear();
    }

    /// The best level: the highest price for bids, the lowest for asks, whatever order the levels came
    /// in. Levels repeated at the same price are added together.
    fn best(&self, highest: bool) -> Option<Level> {
        let first = *self.prices.first()?;
        let price = self.prices.iter().copied().fold(first, |best, p| if (p > best) == highest { p } else { best });
        let size = self
            .prices
            .iter()
            .zip(&self.sizes)
            .filter(|(p, _)| **p == price)
            .fold(0u64, |sum, (_, s)| sum.saturating_add(*s));
        Some(Level { price, size })
    }
}

/// A price level in 10^-6 units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub price: u64,
    pub size: u64,
}

/// An order book as the service sends it (GET /book, each element of POST /books).
#[derive(Clone, Debug)]
pub struct OrderBook {
    src: Box<[u8]>,
    market: Option<Span>,
    asset_id: Option<Span>,
    timestamp: Option<Span>,
    hash: Option<Span>,
    min_order_size: Option<Span>,
    tick_size: Option<Span>,
    last_trade_price: Option<Span>,
    neg_risk: Option<bool>,
    pub bids: Side,
    pub asks: Side,
}

impl OrderBook {
    /// Parses the bytes of one order-book JSON object. Prices and sizes may be strings or numbers; each
    /// must be an exact non-negative decimal with at most six significant fraction digits.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        if u32::try_from(bytes.len()).is_err() {
            return Err(Error::decode("order book larger than 4 GiB"));
        }
        let mut book = OrderBook {
            src: Box::default(),
            market: None,
            asset_id: None,
            timestamp: None,
            hash: None,
            min_order_size: None,
            tick_size: None,
            last_trade_price: None,
            neg_risk: None,
            bids: Side::default(),
            asks: Side::default(),
        };
        let mut s = Scanner::new(bytes);
        s.object(|s, key| match key {
            b"market" => text_field(s, &mut book.market),
            b"asset_id" => text_field(s, &mut book.asset_id),
            b"timestamp" => text_field(s, &mut book.timestamp),
            b"hash" => text_field(s, &mut book.hash),
            b"min_order_size" => text_field(s, &mut book.min_order_size),
            b"tick_size" => text_field(s, &mut book.tick_size),
            b"last_trade_price" => text_field(s, &mut book.last_trade_price),
            b"neg_risk" => {
                book.neg_risk = if s.null() { None } else { Some(s.bool()?) };
                Ok(())
            }
            b"bids" => levels(s, &mut book.bids),
            b"asks" => levels(s, &mut book.asks),
            _ => s.skip_value(),
        })?;
        s.finish()?;
        book.src = bytes.into();
        Ok(book)
    }

    pub fn best_bid(&self) -> Option<Level> {
        self.bids.best(true)
    }

    pub fn best_ask(&self) -> Option<Level> {
        self.asks.best(false)
    }

    pub fn market(&self) -> Option<String> {
        self.text(self.market)
    }

    pub fn asset_id(&self) -> Option<String> {
        self.text(self.asset_id)
    }

    pub fn timestamp(&self) -> Option<String> {
        self.text(self.timestamp)
    }

    /// The hash the service sent with the book.
    pub fn received_hash(&self) -> Option<String> {
        self.text(self.hash)
    }

    pub fn neg_risk(&self) -> Option<bool> {
        self.neg_risk
    }

    fn raw(&self, span: Span) -> &[u8] {
        let start = span.start as usize;
        self.src.get(start..start + span.len as usize).unwrap_or_default()
    }

    fn text(&self, span: Option<Span>) -> Option<String> {
        unescape(self.raw(span?)).ok()
    }
}

/// Reads a string (or a number, kept as its text) into a span of the source; `null` leaves it absent.
fn text_field(s: &mut Scanner<'_>, slot: &mut Option<Span>) -> Result<(), Error> {
    *slot = match s.peek_kind() {
        Some(b'"') => {
            let (raw, _) = s.string_raw()?;
            Some(span_before(s.pos() - 1, raw.len()))
        }
        Some(b'n') if s.null() => None,
        _ => {
            let raw = s.number_raw()?;
            Some(span_before(s.pos(), raw.len()))
        }
    };
    Ok(())
}

/// The span of `len` bytes that end at `end`. Offsets fit in u32: the input length was checked.
fn span_before(end: usize, len: usize) -> Span {
    Span { start: (end - len) as u32, len: len as u32 }
}

/// A decimal that is either a JSON string or a JSON number: its exact value and its text's span.
fn decimal(s: &mut Scanner<'_>, what: &'static str) -> Result<(u64, Span), Error> {
    let (raw, end) = if s.peek_kind() == Some(b'"') {
        let (raw, _) = s.string_raw()?;
        (raw, s.pos() - 1)
    } else {
        let raw = s.number_raw()?;
        (raw, s.pos())
    };
    let value = fixed::parse(raw).ok_or(Error::decode(what))?;
    Ok((value, span_before(end, raw.len())))
}

fn levels(s: &mut Scanner<'_>, side: &mut Side) -> Result<(), Error> {
    side.clear();
    s.array(|s| {
        let mut price = None;
        let mut size = None;
        s.object(|s, key| match key {
            b"price" => {
                price = Some(decimal(s, "price is not an exact non-negative decimal with at most 6 decimals")?);
                Ok(())
            }
            b"size" => {
                size = Some(decimal(s, "size is not an exact non-negative decimal with at most 6 decimals")?);
                Ok(())
            }
            _ => s.skip_value(),
        })?;
        let (price, price_text) = price.ok_or(Error::decode("a level has no price"))?;
        let (size, size_text) = size.ok_or(Error::decode("a level has no size"))?;
        side.prices.push(price);
        side.sizes.push(size);
        side.text.push((price_text, size_text));
        Ok(())
    })
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
    }

    #[test]
    fn parses_the_new_shape_with_an_empty_side() {
        let book = OrderBook::from_bytes(BOOK_2.as_bytes()).unwrap();
        assert_eq!(book.best_bid(), Some(Level { price: 2_000, size: 6_990_000 }));
        assert_eq!(book.best_ask(), None);
        assert_eq!(book.neg_risk(), Some(true));
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
    }

    #[test]
    fn repeated_prices_add_up_and_numbers_are_accepted() {
        let book = OrderBook::from_bytes(
            br#"{"bids":[{"price":0.5,"size":"1"},{"price":"0.50","size":2.5},{"price":"0.4","size":"9"}],"asks":[]}"#,
        )
        .unwrap();
        assert_eq!(book.best_bid(), Some(Level { price: 500_000, size: 3_500_000 }));
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
            r#"{"bids":{}}"#,
            r#"[]"#,
            r#"{"bids":[]} trailing"#,
            "",
        ] {
            let err = OrderBook::from_bytes(bad.as_bytes()).unwrap_err();
            assert_eq!(err.code, crate::error::ErrorCode::Decode, "{bad}");
        }
    }
}
