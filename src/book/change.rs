//! Keeping a book live: price changes (a price level's new total size, 0 removing it) and timestamps.

use super::{fixed, BookSide, Field, Order, OrderBook, Side, Span};
use crate::error::Error;

/// Arena text beyond this (and beyond a few times what is still referenced) is compacted.
const COMPACT_AT: usize = 64 * 1024;

impl OrderBook {
    /// Sets the total size at one price on one side (`Side::Buy` is the bids, `Side::Sell` the asks, as
    /// the service labels price changes); size 0 removes the level. Repeated levels at that price become
    /// one. A new price goes where the service lists it (bids ascending, asks descending, best last) when
    /// the side is sorted, at the end otherwise. `price` and `size` are decimal text (`"0.43"`), kept
    /// for the hash.
    pub fn apply_price_change(&mut self, side: Side, price: &str, size: &str) -> Result<(), Error> {
        let price_units = fixed::parse(price.as_bytes())
            .ok_or_else(|| Error::invalid("price", "must be a non-negative decimal with at most 6 decimals"))?;
        let size_units = fixed::parse(size.as_bytes())
            .ok_or_else(|| Error::invalid("size", "must be a non-negative decimal with at most 6 decimals"))?;
        let text = if size_units == 0 { None } else { Some((self.store(price)?, self.store(size)?)) };
        let levels = match side {
            Side::Buy => &mut self.bids,
            Side::Sell => &mut self.asks,
        };
        // A kept summary takes the level's text as the hash writes it.
        let mut level = Vec::new();
        if let (Some(_), Some((p, s))) = (&levels.summary, text) {
            let raw = |span: Span| {
                let start = (span.start & !Span::EXTRA) as usize;
                self.extra.get(start..start.saturating_add(span.len as usize)).unwrap_or_default()
            };
            super::hash::level_text(&mut level, raw(p), raw(s));
        }
        levels.set(price_units, size_units, text, &level);
        self.compact();
        Ok(())
    }

    /// Replaces the book's timestamp (a price change's), so the hash matches the service's for it.
    pub fn set_timestamp(&mut self, timestamp: &str) -> Result<(), Error> {
        if timestamp.is_empty() || !timestamp.bytes().all(|b| b.is_ascii_digit()) {
            return Err(Error::invalid("timestamp", "must be a string of digits"));
        }
        let span = self.store(timestamp)?;
        self.set_field(Field::Timestamp, Some(span));
        Ok(())
    }

    /// Sets the tick size (a `tick_size_change` of the market channel), kept as text for the hash.
    pub fn set_tick_size(&mut self, tick_size: &str) -> Result<(), Error> {
        if fixed::parse(tick_size.as_bytes()).unwrap_or(0) == 0 {
            return Err(Error::invalid("tick_size", "must be a positive decimal with at most 6 decimals"));
        }
        let span = self.store(tick_size)?;
        self.set_field(Field::TickSize, Some(span));
        Ok(())
    }

    /// Sets the last trade's price (a `last_trade_price` event); `""` means none, as the service sends it.
    pub fn set_last_trade_price(&mut self, price: &str) -> Result<(), Error> {
        if !price.is_empty() && fixed::parse(price.as_bytes()).is_none() {
            return Err(Error::invalid("last_trade_price", "must be a decimal with at most 6 decimals, or empty"));
        }
        let span = self.store(price)?;
        self.set_field(Field::LastTradePrice, Some(span));
        Ok(())
    }

    /// Takes the market's fields that a stream's `book` event leaves out (`min_order_size`, `neg_risk`)
    /// from `snapshot` (a GET /book of the same token), where this book has none: the service's hash
    /// covers them.
    pub fn adopt_market_fields(&mut self, snapshot: &OrderBook) -> Result<(), Error> {
        self.adopt(snapshot, &[Field::MinOrderSize, Field::NegRisk])
    }

    /// Takes every field the hash covers beside the levels (`min_order_size`, `tick_size`, `neg_risk`,
    /// `last_trade_price`) from `earlier`, where this book has none: a `book` event of the market channel
    /// may leave any of them out while its hash covers their last known values.
    pub fn adopt_hashed_fields(&mut self, earlier: &OrderBook) -> Result<(), Error> {
        self.adopt(earlier, &[Field::MinOrderSize, Field::TickSize, Field::NegRisk, Field::LastTradePrice])
    }

    fn adopt(&mut self, from: &OrderBook, fields: &[Field]) -> Result<(), Error> {
        for &field in fields {
            if self.field(field).is_some() {
                continue;
            }
            if let Some(span) = from.field(field) {
                let raw = from.raw(span).to_vec();
                let span = self.store_raw(&raw)?;
                self.set_field(field, Some(span));
            }
        }
        Ok(())
    }

    /// Keeps `"text"` in the arena; `text` is digits and points only, so it needs no escaping.
    fn store(&mut self, text: &str) -> Result<Span, Error> {
        let start = self.extra.len();
        let len = text.len().saturating_add(2);
        if start.saturating_add(len) >= Span::EXTRA as usize {
            return Err(Error::invalid("price", "too much changed text"));
        }
        self.extra.push(b'"');
        self.extra.extend_from_slice(text.as_bytes());
        self.extra.push(b'"');
        Ok(Span { start: Span::EXTRA | start as u32, len: len as u32 })
    }

    /// Keeps a raw JSON value (already valid: it comes from another parsed book) in the arena.
    fn store_raw(&mut self, raw: &[u8]) -> Result<Span, Error> {
        let start = self.extra.len();
        if start.saturating_add(raw.len()) >= Span::EXTRA as usize {
            return Err(Error::invalid("book", "too much changed text"));
        }
        self.extra.extend_from_slice(raw);
        Ok(Span { start: Span::EXTRA | start as u32, len: raw.len() as u32 })
    }

    /// Drops arena text no level refers to any more, once there is a lot of it.
    fn compact(&mut self) {
        let live = (self.bids.len() + self.asks.len() + 1).saturating_mul(64);
        if self.extra.len() < COMPACT_AT || self.extra.len() < live {
            return;
        }
        let old = std::mem::take(&mut self.extra);
        let mut moved = |span: &mut Span| {
            if span.start & Span::EXTRA == 0 {
                return;
            }
            let start = (span.start & !Span::EXTRA) as usize;
            let bytes = old.get(start..start.saturating_add(span.len as usize)).unwrap_or_default();
            // The new arena is no larger than the old one, so offsets still fit.
            span.start = Span::EXTRA | self.extra.len() as u32;
            self.extra.extend_from_slice(bytes);
        };
        for (price, size) in self.bids.text.iter_mut().chain(self.asks.text.iter_mut()) {
            moved(price);
            moved(size);
        }
        for span in self.fields.iter_mut().flatten() {
            moved(span);
        }
    }
}

impl BookSide {
    /// Whether prices ascend through the vectors (true) or descend, for a sorted side.
    fn ascending(&self) -> Option<bool> {
        match self.order {
            Order::BestLast => Some(self.is_bid),
            Order::BestFirst => Some(!self.is_bid),
            Order::Ranked(_) => None,
        }
    }

    /// `level` is the level's text for a kept summary (see `OrderBook::keep_summary`).
    fn set(&mut self, price: u64, size: u64, text: Option<(Span, Span)>, level: &[u8]) {
        let Some(ascending) = self.ascending() else {
            // Kept again when next asked for.
            self.summary = None;
            // Unsorted: find the price anywhere, add at the end, and rank again.
            let mut found = false;
            let mut i = 0;
            while i < self.prices.len() {
                if matches!(self.prices.get(i), Some(&p) if p == price) {
                    match (found, text) {
                        (false, Some(text)) => {
                            if let (Some(s), Some(t)) = (self.sizes.get_mut(i), self.text.get_mut(i)) {
                                *s = size;
                                *t = text;
                            }
                            found = true;
                            i += 1;
                        }
                        _ => self.remove(i),
                    }
                } else {
                    i += 1;
                }
            }
            if let (false, Some(text)) = (found, text) {
                self.push_at(self.prices.len(), price, size, text);
            }
            self.resettle();
            return;
        };
        let (start, end) = if ascending {
            (self.prices.partition_point(|&p| p < price), self.prices.partition_point(|&p| p <= price))
        } else {
            (self.prices.partition_point(|&p| p > price), self.prices.partition_point(|&p| p >= price))
        };
        let (remove_from, insert) = match text {
            None => (start, None),
            Some(text) if start < end => {
                if let (Some(s), Some(t)) = (self.sizes.get_mut(start), self.text.get_mut(start)) {
                    *s = size;
                    *t = text;
                }
                (start + 1, None)
            }
            Some(text) => (start, Some(text)),
        };
        if let Some(summary) = &mut self.summary {
            summary.splice(start, end, text.map(|_| level));
        }
        if remove_from < end {
            self.prices.drain(remove_from..end);
            self.sizes.drain(remove_from..end);
            self.text.drain(remove_from..end);
        }
        if let Some(text) = insert {
            self.push_at(start, price, size, text);
        }
        // Still sorted the same way: the best level only needs finding again.
        self.settle(ascending, !ascending);
    }

    fn remove(&mut self, i: usize) {
        if i < self.prices.len() {
            self.prices.remove(i);
            self.sizes.remove(i);
            self.text.remove(i);
        }
    }

    fn push_at(&mut self, i: usize, price: u64, size: u64, text: (Span, Span)) {
        let i = i.min(self.prices.len());
        self.prices.insert(i, price);
        self.sizes.insert(i, size);
        self.text.insert(i, text);
    }
}

#[cfg(test)]
mod tests {
    use super::super::Level;
    use super::*;

    fn book() -> OrderBook {
        OrderBook::from_bytes(
            br#"{"market":"m","asset_id":"1","timestamp":"5","hash":"h","bids":[{"price":"0.3","size":"10"},{"price":"0.4","size":"20"}],"asks":[{"price":"0.7","size":"10"},{"price":"0.6","size":"20"}]}"#,
        )
        .unwrap()
    }

    #[test]
    fn inserts_where_the_service_lists_and_hashes_the_result() {
        let mut b = book();
        b.apply_price_change(Side::Buy, "0.45", "5").unwrap();
        b.apply_price_change(Side::Buy, "0.35", "7").unwrap();
        b.apply_price_change(Side::Sell, "0.65", "1").unwrap();
        b.set_timestamp("6").unwrap();
        assert_eq!(b.best_bid(), Some(Level { price: 450_000, size: 5_000_000 }));
        let expected = br#"{"market":"m","asset_id":"1","timestamp":"6","hash":"","bids":[{"price":"0.3","size":"10"},{"price":"0.35","size":"7"},{"price":"0.4","size":"20"},{"price":"0.45","size":"5"}],"asks":[{"price":"0.7","size":"10"},{"price":"0.65","size":"1"},{"price":"0.6","size":"20"}]}"#;
        assert_eq!(String::from_utf8(b.hash_input()).unwrap(), String::from_utf8(expected.to_vec()).unwrap());
        let fresh = OrderBook::from_bytes(expected).unwrap();
        assert_eq!(b.hash(), fresh.hash());
    }

    #[test]
    fn stream_fields_change_the_hash_as_the_service_writes_them() {
        let snapshot = OrderBook::from_bytes(
            br#"{"market":"m","asset_id":"1","timestamp":"5","hash":"h","bids":[],"asks":[],"min_order_size":"5","tick_size":"0.01","neg_risk":false,"last_trade_price":""}"#,
        )
        .unwrap();
        let mut b = OrderBook::from_bytes(
            br#"{"event_type":"book","market":"m","asset_id":"1","timestamp":"7","hash":"x","bids":[{"price":"0.3","size":"10"}],"asks":[],"tick_size":"0.01","last_trade_price":"0.3"}"#,
        )
        .unwrap();
        b.adopt_market_fields(&snapshot).unwrap();
        b.set_tick_size("0.001").unwrap();
        b.set_last_trade_price("0.31").unwrap();
        let expected = br#"{"market":"m","asset_id":"1","timestamp":"7","hash":"","bids":[{"price":"0.3","size":"10"}],"asks":[],"min_order_size":"5","tick_size":"0.001","neg_risk":false,"last_trade_price":"0.31"}"#;
        assert_eq!(String::from_utf8(b.hash_input()).unwrap(), String::from_utf8(expected.to_vec()).unwrap());
        assert!(b.set_tick_size("0").is_err());
        assert!(b.set_tick_size("x").is_err());
        assert!(b.set_last_trade_price("0.1234567").is_err());
        b.set_last_trade_price("").unwrap();
        assert!(String::from_utf8(b.hash_input()).unwrap().ends_with(r#""last_trade_price":""}"#));
    }

    #[test]
    fn updates_and_removes() {
        let mut b = book();
        b.apply_price_change(Side::Sell, "0.6", "3").unwrap();
        assert_eq!(b.best_ask(), Some(Level { price: 600_000, size: 3_000_000 }));
        b.apply_price_change(Side::Sell, "0.6", "0").unwrap();
        assert_eq!(b.best_ask(), Some(Level { price: 700_000, size: 10_000_000 }));
        b.apply_price_change(Side::Sell, "0.55", "0").unwrap();
        assert_eq!(b.asks.len(), 1);
        b.apply_price_change(Side::Sell, "0.7", "0").unwrap();
        assert_eq!(b.best_ask(), None);
        b.apply_price_change(Side::Sell, "0.8", "1").unwrap();
        assert_eq!(b.best_ask(), Some(Level { price: 800_000, size: 1_000_000 }));
        assert!(b.apply_price_change(Side::Sell, "abc", "1").is_err());
        assert!(b.apply_price_change(Side::Sell, "0.1", "-1").is_err());
        assert!(b.set_timestamp("12a").is_err());
    }

    #[test]
    fn repeated_levels_become_one_and_unsorted_sides_rank_again() {
        let mut b = OrderBook::from_bytes(
            br#"{"bids":[{"price":"0.4","size":"1"},{"price":"0.2","size":"1"},{"price":"0.4","size":"2"},{"price":"0.3","size":"1"}]}"#,
        )
        .unwrap();
        assert_eq!(b.best_bid(), Some(Level { price: 400_000, size: 3_000_000 }));
        b.apply_price_change(Side::Buy, "0.4", "9").unwrap();
        assert_eq!(b.bids.len(), 3);
        assert_eq!(b.best_bid(), Some(Level { price: 400_000, size: 9_000_000 }));
        b.apply_price_change(Side::Buy, "0.5", "1").unwrap();
        assert_eq!(b.best_bid(), Some(Level { price: 500_000, size: 1_000_000 }));
        b.apply_price_change(Side::Buy, "0.5", "0").unwrap();
        b.apply_price_change(Side::Buy, "0.4", "0").unwrap();
        assert_eq!(b.best_bid(), Some(Level { price: 300_000, size: 1_000_000 }));
    }

    #[test]
    fn the_arena_stays_bounded() {
        let mut b = book();
        for i in 0..50_000u32 {
            b.apply_price_change(Side::Buy, "0.45", &(i + 1).to_string()).unwrap();
        }
        assert!(b.extra.len() < COMPACT_AT * 2, "{}", b.extra.len());
        assert_eq!(b.best_bid(), Some(Level { price: 450_000, size: 50_000_000_000 }));
        assert!(String::from_utf8(b.hash_input()).unwrap().contains(r#"{"price":"0.45","size":"50000"}"#));
    }

    proptest::proptest! {
        /// A kept summary (live books) hashes exactly what the book written from scratch hashes, through
        /// any mix of new levels, new sizes, removals and repeated prices, on sorted and unsorted sides.
        #[test]
        fn a_kept_summary_always_equals_the_book_written_afresh(
            unsorted in proptest::bool::ANY,
            keep_at in 0usize..40,
            changes in proptest::collection::vec((proptest::bool::ANY, 1u32..30, 0u32..4), 0..80),
        ) {
            let first = if unsorted { r#"{"price":"0.4","size":"1"},{"price":"0.2","size":"1"},{"price":"0.4","size":"2"}"# }
                else { r#"{"price":"0.2","size":"1"},{"price":"0.4","size":"1"},{"price":"0.4","size":"2"}"# };
            let json = format!(r#"{{"market":"m","asset_id":"1","timestamp":"5","hash":"h","bids":[{first}],"asks":[{{"price":"0.9", "size":"3"}},{{"price":"0.8","size":"1"}}],"tick_size":"0.01"}}"#);
            let mut kept = OrderBook::from_bytes(json.as_bytes()).unwrap();
            let mut fresh = kept.clone();
            for (n, (buy, tick, size)) in changes.into_iter().enumerate() {
                let side = if buy { Side::Buy } else { Side::Sell };
                let price = format!("0.{tick:02}");
                let size = if size == 0 { "0".to_owned() } else { format!("{size}.5") };
                kept.apply_price_change(side, &price, &size).unwrap();
                fresh.apply_price_change(side, &price, &size).unwrap();
                if n >= keep_at {
                    kept.keep_summary();
                }
                proptest::prop_assert_eq!(String::from_utf8(kept.hash_input()).unwrap(), String::from_utf8(fresh.hash_input()).unwrap());
                proptest::prop_assert_eq!(kept.hash(), fresh.hash());
            }
        }
    }
}
