//! The market channel's side of a live book (`crate::market::LiveBook`): the changes the market simulator draws
//! for it, and the stream entries and events that describe each change.

use std::fmt::Write;

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::shapes::Shapes;
use crate::market::{Change, LiveBook, Side, ONE};
use crate::text::{decimal, push_decimal};

/// The smallest tick a `tick_size_change` goes down to (0.0001).
pub const MIN_TICK: u64 = 100;

/// The best prices of a book as the events write them ("" for an empty side).
pub fn price_text(price: Option<u64>) -> String {
    price.map(|p| decimal(p, 6)).unwrap_or_default()
}
impl LiveBook {
    /// The `book` event of the book as it is now (after [`LiveBook::refresh`]). With `shapes` [`Shapes::Real`]
    /// it holds the levels only, as the service's dumps and post-trade books often do: no `tick_size`,
    /// `last_trade_price`, `min_order_size` or `neg_risk`, while its `hash` is still that of the whole summary,
    /// those fields included.
    pub fn book_event(&self, shapes: Shapes) -> String {
        let mut s = String::with_capacity(self.json.len() + 64);
        let _ = write!(
            s,
            r#"{{"event_type":"book","market":"{}","asset_id":"{}","timestamp":"{}","hash":"{}","bids":["#,
            self.market, self.asset_id, self.timestamp, self.hash
        );
        crate::books::levels(&mut s, &self.bids);
        s.push_str(r#"],"asks":["#);
        crate::books::levels(&mut s, &self.asks);
        match shapes {
            Shapes::Real => s.push_str("]}"),
            Shapes::Exact => {
                let _ = write!(
                    s,
                    r#"],"tick_size":"{}","last_trade_price":"{}"}}"#,
                    decimal(self.tick, 6),
                    self.last_trade_price
                );
            }
        }
        s
    }

    /// Draws one change for this book from `rng` (it is not applied).
    pub fn draw(&self, rng: &mut ChaCha8Rng) -> Change {
        let roll = rng.random_range(0..1000u32);
        let attempt = if roll < 8 {
            self.draw_tick()
        } else if roll < 560 {
            self.draw_resize(rng)
        } else if roll < 720 {
            self.draw_new_level(rng)
        } else if roll < 840 {
            self.draw_removal(rng)
        } else {
            self.draw_take(rng)
        };
        let change = attempt
            .and_then(|c| self.protect(c))
            .or_else(|| self.draw_new_level(rng))
            .or_else(|| self.draw_resize(rng).and_then(|c| self.protect(c)))
            .unwrap_or(Change::Level {
                side: Side::Bid,
                price: self.tick.max(ONE / 2 / self.tick * self.tick),
                size: 100,
            });
        // The last resort may land on a level that holds user orders: it never shrinks below them.
        match change {
            Change::Level { side, price, size } => {
                Change::Level { side, price, size: size.max(self.reserved_at(side, price)) }
            }
            other => other,
        }
    }

    /// A drawn change that leaves the user orders' sizes on the book (`reserved`), or None when nothing would
    /// be left to change. With no user orders every change is kept as drawn (and the draws stay as seeded).
    fn protect(&self, change: Change) -> Option<Change> {
        if self.reserved.is_empty() {
            return Some(change);
        }
        let reserved = |side: Side, price: u64| self.reserved_at(side, price);
        match change {
            Change::Level { side, price, size } => {
                let size = size.max(reserved(side, price));
                (self.size_at(side, price) != Some(size)).then_some(Change::Level { side, price, size })
            }
            Change::Take { side, price, taken, remaining } => {
                let keep = remaining.max(reserved(side, price));
                let taken = taken.saturating_add(remaining).saturating_sub(keep);
                (taken > 0).then_some(Change::Take { side, price, taken, remaining: keep })
            }
            Change::Tick { .. } => Some(change),
        }
    }

    fn draw_tick(&self) -> Option<Change> {
        (self.tick > MIN_TICK && self.tick.is_multiple_of(10))
            .then_some(Change::Tick { old: self.tick, new: self.tick / 10 })
    }

    fn random_side(&self, rng: &mut ChaCha8Rng, min_levels: usize) -> Option<Side> {
        let ok = |s: Side| self.side(s).len() >= min_levels;
        match (ok(Side::Bid), ok(Side::Ask)) {
            (true, true) => Some(if rng.random_bool(0.5) { Side::Bid } else { Side::Ask }),
            (true, false) => Some(Side::Bid),
            (false, true) => Some(Side::Ask),
            (false, false) => None,
        }
    }

    fn new_size(rng: &mut ChaCha8Rng) -> u64 {
        if rng.random_bool(0.5) {
            rng.random_range(1..5_000) * 100
        } else {
            rng.random_range(100..500_000)
        }
    }

    /// A size change of an existing level; the best level only grows (taking from it is a trade).
    fn draw_resize(&self, rng: &mut ChaCha8Rng) -> Option<Change> {
        let side = self.random_side(rng, 1)?;
        let levels = self.side(side);
        // Mostly near the top of the book.
        let depth = levels.len().min(if rng.random_bool(0.7) { 8 } else { levels.len() });
        let i = levels.len() - 1 - rng.random_range(0..depth);
        let (price, old) = levels[i];
        let best = i == levels.len() - 1;
        let size = if best || rng.random_bool(0.5) {
            old + rng.random_range(1..=old / 2 + 500)
        } else {
            let floor = (old / 2).max(1);
            let size = rng.random_range(floor..=old + old / 2 + 1);
            if size == old {
                old + 1
            } else {
                size
            }
        };
        Some(Change::Level { side, price, size })
    }

    /// A new level on the tick grid, inside (0, 1), never crossing (or touching) the other side.
    fn draw_new_level(&self, rng: &mut ChaCha8Rng) -> Option<Change> {
        let tick = self.tick;
        let side = if rng.random_bool(0.5) { Side::Bid } else { Side::Ask };
        for side in [side, if side == Side::Bid { Side::Ask } else { Side::Bid }] {
            // The allowed range, in ticks.
            let (lo, hi) = match side {
                Side::Bid => (1, self.best_ask().map_or(ONE / tick - 1, |a| (a / tick).saturating_sub(1))),
                Side::Ask => (self.best_bid().map_or(1, |b| b / tick + 1), ONE / tick - 1),
            };
            if lo > hi {
                continue;
            }
            let levels = self.side(side);
            let anchor = match (side, levels.last(), levels.first()) {
                (_, Some(best), _) => best.0 / tick,
                (Side::Bid, None, _) => self.best_ask().map_or(ONE / 2 / tick, |a| (a / tick).saturating_sub(2)),
                (Side::Ask, None, _) => self.best_bid().map_or(ONE / 2 / tick + 1, |b| b / tick + 2),
            };
            let worst = levels.first().map(|l| l.0 / tick);
            for attempt in 0..12 {
                let candidate = match attempt % 3 {
                    // Near the top: up to 3 ticks better or 10 worse than the best.
                    0 | 1 => {
                        let offset = rng.random_range(0..14u64);
                        match side {
                            Side::Bid => (anchor + 3).saturating_sub(offset),
                            Side::Ask => (anchor + offset).saturating_sub(3),
                        }
                    }
                    // Just past the worst level (contiguous books have no gap near the top).
                    _ => match (side, worst) {
                        (Side::Bid, Some(w)) => w.saturating_sub(rng.random_range(1..4)),
                        (Side::Ask, Some(w)) => w + rng.random_range(1..4),
                        _ => rng.random_range(lo..=hi),
                    },
                };
                if candidate < lo || candidate > hi {
                    continue;
                }
                let price = candidate * tick;
                if self.size_at(side, price).is_none() {
                    return Some(Change::Level { side, price, size: Self::new_size(rng) });
                }
            }
        }
        None
    }

    /// The removal of a level that is not the best.
    fn draw_removal(&self, rng: &mut ChaCha8Rng) -> Option<Change> {
        let side = self.random_side(rng, 2)?;
        let levels = self.side(side);
        let depth = (levels.len() - 1).min(if rng.random_bool(0.7) { 8 } else { levels.len() - 1 });
        let i = levels.len() - 2 - rng.random_range(0..depth);
        Some(Change::Level { side, price: levels[i].0, size: 0 })
    }

    /// Liquidity taken at the best level: a trade.
    fn draw_take(&self, rng: &mut ChaCha8Rng) -> Option<Change> {
        let side = self.random_side(rng, 1)?;
        let (price, size) = *self.side(side).last()?;
        let taken = if size <= 1 || rng.random_bool(0.35) { size } else { rng.random_range(1..size) };
        Some(Change::Take { side, price, taken, remaining: size - taken })
    }
}

/// What a trade sends (see [`LiveBook::burst`]).
#[derive(Clone, Debug, Default)]
pub struct Burst {
    /// The `price_change` frames, in order, all at one timestamp and with the hash of the book after the last.
    pub frames: Vec<Vec<Entry>>,
    /// The trades' `last_trade_price` events ([`Item::Event`]s).
    pub trades: Vec<Item>,
}

/// A price-change entry, kept in parts so that a fault can give it a wrong hash.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The timestamp of the `price_change` event it goes in (the book's after it).
    pub timestamp: u64,
    pub asset_id: String,
    pub price: String,
    pub size: String,
    pub side: &'static str,
    pub hash: String,
    pub best_bid: String,
    pub best_ask: String,
}

impl Entry {
    pub fn json(&self, hash: &str) -> String {
        format!(
            r#"{{"asset_id":"{}","price":"{}","size":"{}","side":"{}","hash":"{hash}","best_bid":"{}","best_ask":"{}"}}"#,
            self.asset_id, self.price, self.size, self.side, self.best_bid, self.best_ask
        )
    }
}

/// What a change sends, in order.
#[derive(Clone, Debug)]
pub enum Item {
    /// An entry of a `price_change` event.
    Entry(Entry),
    /// A whole event (`last_trade_price`, `tick_size_change`, `book`) of `asset`.
    Event { asset: String, json: String },
    /// A `best_bid_ask` event: only for subscriptions with `custom_feature_enabled`.
    BestBidAsk { asset: String, json: String },
    /// The end of a message: what follows goes in the next one.
    Break,
}

impl Item {
    /// The token the item is about (none for a [`Item::Break`]).
    pub fn asset(&self) -> Option<&str> {
        match self {
            Item::Entry(e) => Some(&e.asset_id),
            Item::Event { asset, .. } | Item::BestBidAsk { asset, .. } => Some(asset),
            Item::Break => None,
        }
    }
}

impl LiveBook {
    /// Applies `change` at `timestamp` (ms, the frame's) and returns what describes it. A price change sets the
    /// book's timestamp (so its hash is the entry's); a tick size or last trade alone does not.
    pub fn apply(&mut self, change: Change, timestamp: u64, rng: &mut ChaCha8Rng) -> Vec<Item> {
        let mut items = Vec::with_capacity(2);
        match change {
            Change::Level { side, price, size } => {
                self.set_level(side, price, size);
                items.push(Item::Entry(self.entry(side, price, size, timestamp)));
            }
            Change::Take { side, price, taken, remaining } => {
                items.push(self.trade(side, price, taken, timestamp, rng));
                self.set_level(side, price, remaining);
                items.push(Item::Entry(self.entry(side, price, remaining, timestamp)));
            }
            Change::Tick { old, new } => {
                self.tick = new;
                items.push(Item::Event {
                    asset: self.asset_id.clone(),
                    json: format!(
                        r#"{{"event_type":"tick_size_change","asset_id":"{}","market":"{}","old_tick_size":"{}","new_tick_size":"{}","timestamp":"{timestamp}"}}"#,
                        self.asset_id,
                        self.market,
                        decimal(old, 6),
                        decimal(new, 6)
                    ),
                });
            }
        }
        items
    }

    /// Records a trade at the best level of `side` (the book's last trade price becomes `price`) and answers its
    /// `last_trade_price` event. Draws the trade's transaction hash from `rng`: one draw per trade, in order.
    fn trade(&mut self, side: Side, price: u64, taken: u64, timestamp: u64, rng: &mut ChaCha8Rng) -> Item {
        self.last_trade_price = decimal(price, 6);
        // The taker's side: buying takes an ask, selling takes a bid.
        let taker = if side == Side::Ask { "BUY" } else { "SELL" };
        let tx = format!("0x{}", hex::encode(rng.random::<[u8; 32]>()));
        Item::Event {
            asset: self.asset_id.clone(),
            json: format!(
                r#"{{"event_type":"last_trade_price","asset_id":"{}","market":"{}","price":"{}","side":"{taker}","size":"{}","fee_rate_bps":"{}","timestamp":"{timestamp}","transaction_hash":"{tx}"}}"#,
                self.asset_id,
                self.market,
                self.last_trade_price,
                decimal(taken, 2),
                self.fee_bps
            ),
        }
    }

    /// Applies trades (the [`Change::Take`]s of one incoming order, all on the same side; other changes are
    /// skipped) as the service sends them, at `timestamp`:
    ///
    /// 1. the crossing order's change: the taker's side gets a level at the last (worst) price taken, of the
    ///    size taken in all;
    /// 2. one frame per level taken, with that level's new size; the last one also takes the crossing order's
    ///    level off again.
    ///
    /// Every entry carries the hash, best bid and best ask of the book after the whole burst (as the service's
    /// same-timestamp bursts do), whose last trade price is the last trade's; the book is refreshed. The trades' `last_trade_price` events are answered for the caller to send
    /// after the burst (or not at all). The transaction hashes are drawn from `rng` as [`LiveBook::apply`] draws
    /// them.
    pub fn burst(&mut self, takes: &[Change], timestamp: u64, rng: &mut ChaCha8Rng) -> Burst {
        let takes: Vec<(Side, u64, u64, u64)> = takes
            .iter()
            .filter_map(|c| match *c {
                Change::Take { side, price, taken, remaining } => Some((side, price, taken, remaining)),
                _ => None,
            })
            .collect();
        let mut burst = Burst::default();
        let Some(&(side, cross, _, _)) = takes.last() else { return burst };
        let own = side.other();
        let before = self.size_at(own, cross).unwrap_or(0);
        let total: u64 = takes.iter().map(|t| t.2).sum();
        self.set_level(own, cross, before.saturating_add(total));
        burst.frames.push(vec![self.unhashed(own, cross, before.saturating_add(total), timestamp)]);
        for (k, &(side, price, taken, remaining)) in takes.iter().enumerate() {
            burst.trades.push(self.trade(side, price, taken, timestamp, rng));
            self.set_level(side, price, remaining);
            let mut frame = vec![self.unhashed(side, price, remaining, timestamp)];
            if k + 1 == takes.len() {
                self.set_level(own, cross, before);
                frame.push(self.unhashed(own, cross, before, timestamp));
            }
            burst.frames.push(frame);
        }
        self.refresh();
        let (bid, ask) = (price_text(self.best_bid()), price_text(self.best_ask()));
        for entry in burst.frames.iter_mut().flatten() {
            entry.hash.clone_from(&self.hash);
            entry.best_bid.clone_from(&bid);
            entry.best_ask.clone_from(&ask);
        }
        burst
    }

    fn entry(&mut self, side: Side, price: u64, size: u64, timestamp: u64) -> Entry {
        let mut entry = self.unhashed(side, price, size, timestamp);
        entry.hash = self.compute_hash();
        entry
    }

    /// A price-change entry of the book now (at `timestamp`), its hash left for the caller.
    fn unhashed(&mut self, side: Side, price: u64, size: u64, timestamp: u64) -> Entry {
        self.timestamp = timestamp;
        let mut price_string = String::new();
        push_decimal(&mut price_string, price, 6);
        let mut size_text = String::new();
        push_decimal(&mut size_text, size, 2);
        Entry {
            timestamp,
            asset_id: self.asset_id.clone(),
            price: price_string,
            size: size_text,
            side: side.entry_side(),
            hash: String::new(),
            best_bid: price_text(self.best_bid()),
            best_ask: price_text(self.best_ask()),
        }
    }

    /// The `best_bid_ask` event of the book now.
    pub fn best_bid_ask(&self, timestamp: u64) -> String {
        let (bid, ask) = (self.best_bid(), self.best_ask());
        let spread = match (bid, ask) {
            (Some(b), Some(a)) if a >= b => decimal(a - b, 6),
            _ => String::new(),
        };
        format!(
            r#"{{"event_type":"best_bid_ask","asset_id":"{}","market":"{}","best_bid":"{}","best_ask":"{}","spread":"{spread}","timestamp":"{timestamp}"}}"#,
            self.asset_id,
            self.market,
            price_text(bid),
            price_text(ask)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    const BOOK: &str = r#"{"market":"0xm","asset_id":"7","timestamp":"1000","hash":"x","bids":[{"price":"0.4","size":"10"},{"price":"0.45","size":"5.5"}],"asks":[{"price":"0.6","size":"8"},{"price":"0.55","size":"3"}],"min_order_size":"5","tick_size":"0.01","neg_risk":false,"last_trade_price":"0.5"}"#;

    #[test]
    fn drawn_changes_keep_the_book_sound() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut b = LiveBook::from_json(BOOK, 0).unwrap();
        let mut kinds = [0usize; 4];
        for i in 0..5_000u64 {
            let change = b.draw(&mut rng);
            match change {
                Change::Level { size: 0, .. } => kinds[0] += 1,
                Change::Level { .. } => kinds[1] += 1,
                Change::Take { .. } => kinds[2] += 1,
                Change::Tick { .. } => kinds[3] += 1,
            }
            b.apply(change, 2_000 + i, &mut rng);
            assert!(b.bids.windows(2).all(|w| w[0].0 < w[1].0), "bids ascending");
            assert!(b.asks.windows(2).all(|w| w[0].0 > w[1].0), "asks descending");
            if let (Some(bid), Some(ask)) = (b.best_bid(), b.best_ask()) {
                assert!(bid < ask, "crossed at {i}: {bid} {ask}");
            }
            assert!(b.bids.iter().chain(&b.asks).all(|l| l.0 % b.tick == 0 && l.0 > 0 && l.0 < ONE && l.1 > 0));
        }
        assert!(kinds.iter().all(|k| *k > 0), "{kinds:?}");
        assert_eq!(b.tick, MIN_TICK);
    }

    #[test]
    fn the_simulator_leaves_user_orders_on_the_book() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut b = LiveBook::from_json(BOOK, 0).unwrap();
        // User orders: 3 of the best bid's 5.5 and all of the 0.6 ask level.
        b.reserve(Side::Bid, 450_000, 300);
        b.reserve(Side::Ask, 600_000, 800);
        for i in 0..5_000u64 {
            let change = b.draw(&mut rng);
            if let Change::Take { taken, .. } = change {
                assert!(taken > 0);
            }
            b.apply(change, 2_000 + i, &mut rng);
            assert!(b.size_at(Side::Bid, 450_000).is_some_and(|s| s >= 300), "at {i}: {change:?}");
            assert!(b.size_at(Side::Ask, 600_000).is_some_and(|s| s >= 800), "at {i}: {change:?}");
        }
        b.reserve(Side::Ask, 600_000, -800);
        assert_eq!(b.reserved_at(Side::Ask, 600_000), 0);
        assert!(!b.reserved.contains_key(&(Side::Ask, 600_000)));
    }
}
