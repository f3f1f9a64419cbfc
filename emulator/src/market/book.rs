//! A live order book: the generated or recorded starting book once it has moved, its levels as numbers, its
//! hash and served JSON, and the user orders' sizes resting on it. The streaming channels describe its changes
//! and the market simulator draws them (`crate::stream`); trading matches orders on it (`crate::trading`); it
//! knows neither.

use std::collections::HashMap;

use serde_json::Value;
use sha1::{Digest, Sha1};

use crate::books::BookFields;
use crate::text::{decimal, parse_micro};

/// Prices are in millionths, sizes in hundredths (as the generated books and as served).
pub const ONE: u64 = 1_000_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Bid,
    Ask,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::Bid => Side::Ask,
            Side::Ask => Side::Bid,
        }
    }

    /// The side of a price-change entry: BUY changes a bid level, SELL an ask level.
    pub fn entry_side(self) -> &'static str {
        match self {
            Side::Bid => "BUY",
            Side::Ask => "SELL",
        }
    }
}

/// One live book: the ten fields of the summary, levels as numbers (best last on both sides).
#[derive(Clone, Debug)]
pub struct LiveBook {
    pub market: String,
    pub asset_id: String,
    pub timestamp: u64,
    /// Ascending prices (best last).
    pub bids: Vec<(u64, u64)>,
    /// Descending prices (best last).
    pub asks: Vec<(u64, u64)>,
    pub min_order_size: String,
    pub tick: u64,
    pub neg_risk: bool,
    pub last_trade_price: String,
    pub fee_bps: u64,
    /// The served JSON (with its hash), as of the end of the last change.
    pub json: String,
    pub hash: String,
    /// The size of the user orders (placed through POST /order) resting at each level: the simulator's changes
    /// leave it alone, so only matching or cancelling takes it off the book.
    pub reserved: HashMap<(Side, u64), u64>,
}

/// Parses a decimal with at most `scale` decimals into units of 10^-scale.
pub fn parse_fixed(text: &str, scale: u32) -> Option<u64> {
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    if int.is_empty() || frac.len() > scale as usize || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut value: u64 = int.parse().ok()?;
    for i in 0..scale as usize {
        value = value.checked_mul(10)?.checked_add(frac.as_bytes().get(i).map_or(0, |b| u64::from(b - b'0')))?;
    }
    Some(value)
}

impl LiveBook {
    /// A live copy of a served book (generated or recorded). A recorded book that lacks some of the ten
    /// fields gets them here: its market's tick (the widest of 0.01…0.000001 that holds every level), minimum
    /// order size 5, `neg_risk` false and no last trade.
    pub fn from_json(json: &str, fee_bps: u64) -> Result<Self, String> {
        let v: Value = serde_json::from_str(json).map_err(|e| format!("book is not JSON: {e}"))?;
        let text = |key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
        let levels = |key: &str| -> Result<Vec<(u64, u64)>, String> {
            let mut out = Vec::new();
            for level in v.get(key).and_then(Value::as_array).into_iter().flatten() {
                let price = level["price"].as_str().and_then(parse_micro).ok_or("a level price is not a decimal")?;
                let size = level["size"]
                    .as_str()
                    .and_then(|s| parse_fixed(s, 2))
                    .ok_or("a level size has more than 2 decimals")?;
                out.push((price, size));
            }
            Ok(out)
        };
        let mut bids = levels("bids")?;
        let mut asks = levels("asks")?;
        bids.sort_by_key(|l| l.0);
        asks.sort_by_key(|l| std::cmp::Reverse(l.0));
        let tick = match text("tick_size").and_then(|t| parse_micro(&t)).filter(|t| *t > 0) {
            Some(t) => t,
            None => [10_000, 1_000, 100, 10, 1]
                .into_iter()
                .find(|t| bids.iter().chain(&asks).all(|l| l.0 % t == 0))
                .unwrap_or(1),
        };
        let neg_risk = v.get("neg_risk").and_then(Value::as_bool).unwrap_or(false);
        let mut book = Self {
            market: text("market").unwrap_or_default(),
            asset_id: text("asset_id").ok_or("book without asset_id")?,
            timestamp: text("timestamp").and_then(|t| t.parse().ok()).unwrap_or(0),
            bids,
            asks,
            min_order_size: text("min_order_size").unwrap_or_else(|| "5".to_owned()),
            tick,
            neg_risk,
            last_trade_price: text("last_trade_price").unwrap_or_default(),
            fee_bps,
            json: String::new(),
            hash: String::new(),
            reserved: HashMap::new(),
        };
        book.refresh();
        Ok(book)
    }

    /// The compact summary with `hash`, in the order GET /book serves (and hashes) it.
    fn render(&self, hash: &str) -> String {
        BookFields {
            market: &self.market,
            asset_id: &self.asset_id,
            timestamp: &self.timestamp.to_string(),
            bids: &self.bids,
            asks: &self.asks,
            min_order_size: &self.min_order_size,
            tick_size: &decimal(self.tick, 6),
            neg_risk: self.neg_risk,
            last_trade_price: &self.last_trade_price,
        }
        .json(hash)
    }

    /// The book's hash now: SHA-1 hex of the compact summary with an empty hash, as GET /book computes it.
    pub fn compute_hash(&self) -> String {
        hex::encode(Sha1::digest(self.render("").as_bytes()))
    }

    /// Renders the served JSON and hash again (after changes).
    pub fn refresh(&mut self) {
        self.hash = self.compute_hash();
        self.json = self.render(&self.hash);
    }

    pub fn best_bid(&self) -> Option<u64> {
        self.bids.last().map(|l| l.0)
    }

    pub fn best_ask(&self) -> Option<u64> {
        self.asks.last().map(|l| l.0)
    }

    pub fn side(&self, side: Side) -> &Vec<(u64, u64)> {
        match side {
            Side::Bid => &self.bids,
            Side::Ask => &self.asks,
        }
    }

    /// Where `price` is (Ok) or would go (Err) on a side, in its served order.
    pub fn position(&self, side: Side, price: u64) -> Result<usize, usize> {
        match side {
            Side::Bid => self.bids.binary_search_by(|l| l.0.cmp(&price)),
            Side::Ask => self.asks.binary_search_by(|l| price.cmp(&l.0)),
        }
    }

    pub fn size_at(&self, side: Side, price: u64) -> Option<u64> {
        self.position(side, price).ok().map(|i| self.side(side)[i].1)
    }

    /// Sets a level's total size (0 removes it).
    pub fn set_level(&mut self, side: Side, price: u64, size: u64) {
        let at = self.position(side, price);
        let levels = match side {
            Side::Bid => &mut self.bids,
            Side::Ask => &mut self.asks,
        };
        match (at, size) {
            (Ok(i), 0) => {
                levels.remove(i);
            }
            (Ok(i), _) => levels[i].1 = size,
            (Err(_), 0) => {}
            (Err(i), _) => levels.insert(i, (price, size)),
        }
    }

    /// The size of the user orders resting at a level.
    pub fn reserved_at(&self, side: Side, price: u64) -> u64 {
        self.reserved.get(&(side, price)).copied().unwrap_or(0)
    }

    /// Adds `delta` (negative: removes) to the user orders' size at a level.
    pub fn reserve(&mut self, side: Side, price: u64, delta: i64) {
        let entry = self.reserved.entry((side, price)).or_insert(0);
        *entry = entry.saturating_add_signed(delta);
        if *entry == 0 {
            self.reserved.remove(&(side, price));
        }
    }
}

/// One change of a live book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// A level's new total size (0 removes it; a price not in the book adds it).
    Level { side: Side, price: u64, size: u64 },
    /// A trade at the best level of `side`: `taken` leaves, `remaining` stays.
    Take { side: Side, price: u64, taken: u64, remaining: u64 },
    /// A smaller tick.
    Tick { old: u64, new: u64 },
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOOK: &str = r#"{"market":"0xm","asset_id":"7","timestamp":"1000","hash":"x","bids":[{"price":"0.4","size":"10"},{"price":"0.45","size":"5.5"}],"asks":[{"price":"0.6","size":"8"},{"price":"0.55","size":"3"}],"min_order_size":"5","tick_size":"0.01","neg_risk":false,"last_trade_price":"0.5"}"#;

    #[test]
    fn fixed_decimals_parse() {
        assert_eq!(parse_fixed("192.3", 2), Some(19_230));
        assert_eq!(parse_fixed("1089676.99", 2), Some(108_967_699));
        assert_eq!(parse_fixed("5", 2), Some(500));
        assert_eq!(parse_fixed("0.001", 2), None);
        assert_eq!(parse_fixed(".5", 2), None);
        assert_eq!(parse_fixed("1e3", 2), None);
    }

    #[test]
    fn a_parsed_book_renders_as_served_and_levels_change_in_place() {
        let mut b = LiveBook::from_json(BOOK, 0).unwrap();
        assert_eq!(b.json, BOOK.replace(r#""hash":"x""#, &format!(r#""hash":"{}""#, b.hash)));
        b.set_level(Side::Bid, 420_000, 700);
        b.set_level(Side::Ask, 570_000, 100);
        b.set_level(Side::Bid, 450_000, 0);
        b.set_level(Side::Ask, 600_000, 900);
        assert_eq!(b.bids, vec![(400_000, 1000), (420_000, 700)]);
        assert_eq!(b.asks, vec![(600_000, 900), (570_000, 100), (550_000, 300)]);
        assert_eq!((b.best_bid(), b.best_ask()), (Some(420_000), Some(550_000)));
    }
}
