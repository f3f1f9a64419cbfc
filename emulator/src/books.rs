//! Order books of the generated tokens (built lazily, cached) and price histories.
//!
//! A leaf: a book is built from a [`BookSpec`] that the dataset fills in from its market.

use std::fmt::Write;
use std::sync::{Arc, OnceLock};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sha1::{Digest, Sha1};

use crate::text::{decimal, push_decimal};

/// How a market's books are shaped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookKind {
    /// Up to this many bid and ask levels, spaced at random.
    Random(usize, usize),
    /// Exactly this many bid and ask levels, one tick apart.
    Levels(usize, usize),
    /// No levels on either side.
    Empty,
}

/// What one token's book is generated from.
pub struct BookSpec<'a> {
    /// Seeds the book's own random draws.
    pub seed: u64,
    pub kind: BookKind,
    /// Tick size and the outcome's reference price, in millionths.
    pub tick: u64,
    pub price: u64,
    /// The market's condition id and the token id.
    pub market: &'a str,
    pub asset_id: &'a str,
    /// The summary's `timestamp`, in milliseconds.
    pub timestamp_ms: i64,
    pub min_order_size: u64,
    pub neg_risk: bool,
}

/// One generated book: levels (price in millionths, size in hundredths), best last on both sides, as served.
pub struct Book {
    pub bids: Vec<(u64, u64)>,
    pub asks: Vec<(u64, u64)>,
    pub json: String,
}

impl Book {
    pub fn best_bid(&self) -> Option<u64> {
        self.bids.last().map(|l| l.0)
    }
    pub fn best_ask(&self) -> Option<u64> {
        self.asks.last().map(|l| l.0)
    }
}

/// Lazily built books, one slot per token.
pub struct BookStore {
    slots: Vec<OnceLock<Arc<Book>>>,
}

impl BookStore {
    pub fn new(tokens: usize) -> Self {
        Self { slots: (0..tokens).map(|_| OnceLock::new()).collect() }
    }

    /// The book in `slot`, built from `spec` on first use.
    pub fn get_or_build<'a>(&self, slot: usize, spec: impl FnOnce() -> BookSpec<'a>) -> Arc<Book> {
        self.slots[slot].get_or_init(|| Arc::new(build(&spec()))).clone()
    }
}

fn build(spec: &BookSpec<'_>) -> Book {
    let mut rng = ChaCha8Rng::seed_from_u64(spec.seed);
    let tick = spec.tick;
    let center = (spec.price / tick * tick).clamp(tick * 2, 1_000_000 - tick * 2);
    let (spread_down, spread_up) = match spec.kind {
        BookKind::Levels(..) => (1, 1),
        _ => (rng.random_range(1..=2), rng.random_range(1..=2)),
    };
    let best_bid = center - tick * spread_down.min(center / tick - 1);
    let best_ask = center + tick * spread_up.min((1_000_000 - center) / tick - 1);
    let (nb, na, random) = match spec.kind {
        BookKind::Random(b, a) => (b, a, true),
        BookKind::Levels(b, a) => (b, a, false),
        BookKind::Empty => (0, 0, false),
    };
    let size = |rng: &mut ChaCha8Rng| -> u64 {
        if rng.random_bool(0.5) {
            rng.random_range(1..5_000) * 100
        } else {
            rng.random_range(100..500_000)
        }
    };
    // Best first while generating; reversed below so that the best level is last, as the service lists them.
    let mut bids = Vec::with_capacity(nb);
    let mut price = best_bid;
    while bids.len() < nb && price >= tick {
        bids.push((price, size(&mut rng)));
        let step = if random { rng.random_range(1..=3) } else { 1 };
        price = price.saturating_sub(tick * step);
    }
    let mut asks = Vec::with_capacity(na);
    let mut price = best_ask;
    while asks.len() < na && price <= 1_000_000 - tick {
        asks.push((price, size(&mut rng)));
        let step = if random { rng.random_range(1..=3) } else { 1 };
        price += tick * step;
    }
    bids.reverse();
    asks.reverse();
    let last_trade = if bids.is_empty() && asks.is_empty() { String::new() } else { decimal(center, 6) };
    let fields = BookFields {
        market: spec.market,
        asset_id: spec.asset_id,
        timestamp: &spec.timestamp_ms.to_string(),
        bids: &bids,
        asks: &asks,
        min_order_size: &spec.min_order_size.to_string(),
        tick_size: &decimal(tick, 6),
        neg_risk: spec.neg_risk,
        last_trade_price: &last_trade,
    };
    let unhashed = fields.json("");
    let json = fields.json(&hex::encode(Sha1::digest(unhashed.as_bytes())));
    Book { bids, asks, json }
}

/// The ten fields of a book summary (also the live books' of the streaming channels).
pub(crate) struct BookFields<'a> {
    pub market: &'a str,
    pub asset_id: &'a str,
    pub timestamp: &'a str,
    pub bids: &'a [(u64, u64)],
    pub asks: &'a [(u64, u64)],
    pub min_order_size: &'a str,
    pub tick_size: &'a str,
    pub neg_risk: bool,
    pub last_trade_price: &'a str,
}

impl BookFields<'_> {
    /// Compact JSON in the interface's field order (the order the book hash is computed over).
    pub fn json(&self, hash: &str) -> String {
        let mut s = String::with_capacity(256 + (self.bids.len() + self.asks.len()) * 36);
        let _ = write!(
            s,
            r#"{{"market":"{}","asset_id":"{}","timestamp":"{}","hash":"{hash}","bids":["#,
            self.market, self.asset_id, self.timestamp
        );
        levels(&mut s, self.bids);
        s.push_str(r#"],"asks":["#);
        levels(&mut s, self.asks);
        let _ = write!(
            s,
            r#"],"min_order_size":"{}","tick_size":"{}","neg_risk":{},"last_trade_price":"{}"}}"#,
            self.min_order_size, self.tick_size, self.neg_risk, self.last_trade_price
        );
        s
    }
}

/// Levels as the service writes them: `{"price":"0.45","size":"12.5"}`, comma-separated.
pub(crate) fn levels(s: &mut String, levels: &[(u64, u64)]) {
    for (i, (p, q)) in levels.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str(r#"{"price":""#);
        push_decimal(s, *p, 6);
        s.push_str(r#"","size":""#);
        push_decimal(s, *q, 2);
        s.push_str(r#""}"#);
    }
}

/// Midpoint of best bid and ask (millionths) as a minimal decimal string: (b + a) / 2 = (b + a) × 5 / 10^7, exact.
pub fn midpoint(bid: u64, ask: u64) -> String {
    decimal((bid + ask) * 5, 7)
}

/// Price history points {t, p} of a token with reference price `center` (millionths), between `start` and `end`
/// (epoch seconds) every `step` seconds, deterministic in (seed, token, t).
pub fn history(seed: u64, token: &str, center: u64, start: i64, end: i64, step: i64) -> Vec<(i64, f64)> {
    let key = token.bytes().fold(seed ^ 0x9e37_79b9_7f4a_7c15, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
    let phase = (key % 6283) as f64 / 1000.0;
    let period = 86_400.0 * (3.0 + (key >> 16) as f64 % 20.0);
    let c = center as f64 / 1e6;
    let first = start.div_euclid(step) * step + if start.rem_euclid(step) == 0 { 0 } else { step };
    let mut out = Vec::new();
    let mut t = first;
    while t <= end {
        let noise = {
            let mut x = key ^ (t as u64 / 60).wrapping_mul(0x2545_f491_4f6c_dd1d);
            x ^= x >> 33;
            x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
            x ^= x >> 33;
            (x % 2001) as f64 / 1000.0 - 1.0
        };
        let p =
            (c + 0.08 * ((t as f64) / period * std::f64::consts::TAU + phase).sin() + 0.01 * noise).clamp(0.001, 0.999);
        out.push((t, (p * 1000.0).round() / 1000.0));
        t += step;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn midpoints_are_exact() {
        assert_eq!(midpoint(510_000, 520_000), "0.515");
        assert_eq!(midpoint(1_000, 2_000), "0.0015");
        assert_eq!(midpoint(500_000, 500_000), "0.5");
    }

    #[test]
    fn history_is_deterministic_and_bounded() {
        let a = history(1, "123", 500_000, 1_000_020, 1_003_620, 60);
        let b = history(1, "123", 500_000, 1_000_020, 1_003_620, 60);
        assert_eq!(a, b);
        assert_eq!(a.len(), 61);
        assert!(a.iter().all(|(_, p)| (0.001..=0.999).contains(p)));
        assert_ne!(a, history(2, "123", 500_000, 1_000_020, 1_003_620, 60));
    }
}
