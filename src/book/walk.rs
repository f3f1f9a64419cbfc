//! Walking a side of the book from the best price: market price, fill simulation, depth and ladders.
//! All sums are exact: sizes in 10^-6 units, notionals (price × size) in 10^-12 units.

use super::{fixed, BookSide, OrderBook, OrderType, Side};
use crate::error::{Error, ErrorCode};

/// price × size in 10^-12 units. Prices below 2^21 units (2.09) and sizes below 2^43 units (8.7 million)
/// multiply in 64 bits, which wasm does natively; the rest takes the 128-bit path.
#[inline(always)]
pub(super) fn mul(price: u64, size: u64) -> u128 {
    if (price >> 21) | (size >> 43) == 0 {
        u128::from(price * size)
    } else {
        u128::from(price) * u128::from(size)
    }
}

// A run's notional sum cannot overflow: checked when compiling.
const _: () = assert!(super::CHUNK as u128 * ((1 << 21) - 1) * ((1 << 38) - 1) <= u64::MAX as u128);

/// The total size and notional of a run of up to [`super::CHUNK`] levels when every level is small enough
/// (price below 2^21 units, 2.09; size below 2^38 units, 274,877) for both sums to be exact in 64 bits:
/// 32 products below 2^59 each; `None` otherwise. Branch-free and four levels a step (size optimization
/// does not unroll), so the loop stays a few instructions per level.
#[inline(always)]
fn run_sums(prices: &[u64], sizes: &[u64]) -> Option<(u64, u64)> {
    // `p | s >> 17` stays below 2^21 exactly when p < 2^21 and s < 2^38: one test for both bounds.
    let (mut wide, mut size, mut notional) = (0u64, 0u64, 0u64);
    // Indexes rather than iterator adapters, which size optimization leaves as calls.
    let mut i = 0;
    while let (Some(&[p0, p1, p2, p3]), Some(&[s0, s1, s2, s3])) = (prices.get(i..i + 4), sizes.get(i..i + 4)) {
        wide |= p0 | p1 | p2 | p3 | ((s0 | s1 | s2 | s3) >> 17);
        size = size.wrapping_add(s0.wrapping_add(s1).wrapping_add(s2.wrapping_add(s3)));
        let pair = p0.wrapping_mul(s0).wrapping_add(p1.wrapping_mul(s1));
        notional = notional.wrapping_add(pair.wrapping_add(p2.wrapping_mul(s2).wrapping_add(p3.wrapping_mul(s3))));
        i += 4;
    }
    while let (Some(&p), Some(&s)) = (prices.get(i), sizes.get(i)) {
        wide |= p | (s >> 17);
        size = size.wrapping_add(s);
        notional = notional.wrapping_add(p.wrapping_mul(s));
        i += 1;
    }
    (wide >> 21 == 0).then_some((size, notional))
}

/// Calls `visit(price, size)` for the levels of a run in walk order, until it returns false.
#[inline(always)]
fn each_in(prices: &[u64], sizes: &[u64], reversed: bool, mut visit: impl FnMut(u64, u64) -> bool) -> bool {
    let levels = prices.iter().copied().zip(sizes.iter().copied());
    if reversed {
        for (price, size) in levels.rev() {
            if !visit(price, size) {
                return false;
            }
        }
    } else {
        for (price, size) in levels {
            if !visit(price, size) {
                return false;
            }
        }
    }
    true
}

/// Distinct prices in a run in walk order, not counting its first price when it equals `prev`, and the
/// run's last price in walk order.
#[inline(always)]
fn run_prices(prices: &[u64], reversed: bool, prev: Option<u64>) -> (u32, Option<u64>) {
    // An index loop: size optimization leaves `windows` as calls.
    let (mut changes, mut i) = (0u32, 1);
    while let (Some(&a), Some(&b)) = (prices.get(i - 1), prices.get(i)) {
        changes += u32::from(a != b);
        i += 1;
    }
    let (first, last) = if reversed { (prices.last(), prices.first()) } else { (prices.first(), prices.last()) };
    let new_first = match (first, prev) {
        (Some(first), Some(prev)) => *first != prev,
        (first, _) => first.is_some(),
    };
    (changes + u32::from(new_first), last.copied())
}

/// Whether `price` starts a new price level after `last` (a pattern, not `Option`'s `!=`, which size
/// optimization leaves as a call in the hot loop).
#[inline(always)]
fn differs(last: Option<u64>, price: u64) -> bool {
    !matches!(last, Some(last) if last == price)
}

/// `n / d` for a quotient known to fit in 64 bits (here it is below a level's size), saturating
/// otherwise and for `d == 0`. Long division by hand: the 128-bit division routine costs a kilobyte.
fn quotient(n: u128, d: u64) -> u64 {
    if d == 0 {
        return u64::MAX;
    }
    if let Ok(n) = u64::try_from(n) {
        return n / d;
    }
    let d = u128::from(d);
    if n >> 64 >= d {
        return u64::MAX;
    }
    let (mut q, mut r) = (0u64, n >> 64);
    for bit in (0..64).rev() {
        // r < d ≤ 2^64 before the shift, so it stays below 2^65.
        r = (r << 1) | ((n >> bit) & 1);
        q <<= 1;
        if r >= d {
            r -= d;
            q |= 1;
        }
    }
    q
}

pub(super) fn no_match() -> Error {
    Error::new(ErrorCode::NoMatch, "no match: the book cannot fill the amount")
}

/// The upstream market-price walk, one level at a time: a buy's amount is cash (the running total adds
/// price × size), a sell's is shares (it adds size); the answer is the price of the level where the
/// running total first reaches the amount.
pub(super) struct PriceWalk {
    buy: bool,
    /// The amount in the running total's units: 10^-12 for a buy, 10^-6 for a sell.
    target: u128,
    sum: u128,
    last: Option<u64>,
    hit: Option<u64>,
}

impl PriceWalk {
    pub(super) fn new(side: Side, amount: u64) -> Self {
        let buy = side == Side::Buy;
        let target = if buy { u128::from(amount) * u128::from(fixed::SCALE) } else { u128::from(amount) };
        Self { buy, target, sum: 0, last: None, hit: None }
    }

    /// Takes one level; false once the amount is reached.
    #[inline(always)]
    pub(super) fn step(&mut self, price: u64, size: u64) -> bool {
        self.sum = self.sum.saturating_add(if self.buy { mul(price, size) } else { u128::from(size) });
        self.last = Some(price);
        if self.sum >= self.target {
            self.hit = Some(price);
            false
        } else {
            true
        }
    }

    /// Takes a run of levels (best first from its end when `reversed`); false once the amount is reached.
    /// A run that cannot reach the amount is added in one go.
    #[inline(always)]
    pub(super) fn run(&mut self, prices: &[u64], sizes: &[u64], reversed: bool) -> bool {
        if let Some((size, notional)) = run_sums(prices, sizes) {
            let next = self.sum + u128::from(if self.buy { notional } else { size });
            if next < self.target {
                self.sum = next;
                self.last = if reversed { prices.first() } else { prices.last() }.copied().or(self.last);
                return true;
            }
        }
        each_in(prices, sizes, reversed, |price, size| self.step(price, size))
    }

    /// The price, or `NO_MATCH` for an empty side and for a FOK order the levels cannot fill; other
    /// orders take the last (worst) level's price.
    pub(super) fn finish(self, order_type: OrderType) -> Result<u64, Error> {
        match (self.hit, self.last, order_type) {
            (Some(price), _, _) => Ok(price),
            (None, Some(worst), OrderType::Fak | OrderType::Gtc | OrderType::Gtd) => Ok(worst),
            _ => Err(no_match()),
        }
    }
}

/// How much a simulated market order wants: shares, or cash to spend (buy) or receive (sell).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Shares in 10^-6 units.
    Size(u64),
    /// Cash in 10^-6 units.
    Notional(u64),
}

/// What a market order would get from the book, best level first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fill {
    pub target: Target,
    /// Shares filled, 10^-6 units.
    pub filled: u64,
    /// Cash exchanged, 10^-12 units.
    pub notional: u128,
    /// The price of the last level taken from.
    pub worst_price: Option<u64>,
    /// Distinct price levels taken from.
    pub levels_used: u32,
    /// What the book could not fill, in the target's unit: shares in 10^-6 units, or cash in 10^-12
    /// units. Zero when the book had enough: cash left over because shares come in 10^-6 steps does not
    /// count.
    pub remaining: u128,
}

impl Fill {
    /// Cash per share, `None` when nothing was filled.
    pub fn avg_price(&self) -> Option<f64> {
        // Cash (10^-12) per share (10^-6) is a price in 10^-6 units: its whole part divided exactly, so a
        // fill at one price reports that price exactly (0.484, not 0.48400000000000004).
        let filled = u128::from(self.filled);
        let whole = self.notional.checked_div(filled)?;
        let rest = self.notional.checked_rem(filled)?;
        Some((whole as f64 + rest as f64 / filled as f64) / fixed::SCALE as f64)
    }

    pub fn remaining_f64(&self) -> f64 {
        match self.target {
            Target::Size(_) => self.remaining as f64 / fixed::SCALE as f64,
            Target::Notional(_) => fixed::notional_to_f64(self.remaining),
        }
    }
}

/// Size, cash and distinct levels within a price band from the best price.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Depth {
    pub size: u64,
    pub notional: u128,
    pub levels: u32,
}

/// Cumulative depth by distinct price, best first, for charts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ladder {
    pub bid_prices: Vec<f64>,
    pub bid_depth: Vec<f64>,
    pub ask_prices: Vec<f64>,
    pub ask_depth: Vec<f64>,
}

impl OrderBook {
    /// The price a market order of `side` for `amount` (cash for a buy, shares for a sell, in 10^-6
    /// units) would reach, as the upstream clients compute it, walking from the best price whatever order
    /// the levels came in.
    pub fn market_price(&self, side: Side, amount: u64, order_type: OrderType) -> Result<u64, Error> {
        let mut walk = PriceWalk::new(side, amount);
        self.opposite(side).each_chunk_best_first(|prices, sizes, reversed| walk.run(prices, sizes, reversed));
        walk.finish(order_type)
    }

    /// What a market order of `side` for `target` would fill, level by level from the best price.
    pub fn simulate(&self, side: Side, target: Target) -> Fill {
        simulate(self.opposite(side), target)
    }

    /// Slippage of a fill against the midpoint, in price: positive when the order pays more (buy) or
    /// receives less (sell) than the midpoint. `None` without a midpoint or a fill.
    pub fn slippage(&self, side: Side, fill: &Fill) -> Option<f64> {
        let (mid, avg) = (self.midpoint()?, fill.avg_price()?);
        Some(match side {
            Side::Buy => avg - mid,
            Side::Sell => mid - avg,
        })
    }

    /// What a market order of `side` could take within `within` (10^-6 units) of the best price it meets.
    pub fn depth(&self, side: Side, within: u64) -> Depth {
        let levels = self.opposite(side);
        let mut depth = Depth::default();
        let Some(best) = levels.best else { return depth };
        let in_band = |price: u64| match side {
            Side::Buy => price <= best.price.saturating_add(within),
            Side::Sell => price >= best.price.saturating_sub(within),
        };
        levels.each_price_best_first(|price, size| {
            if !in_band(price) {
                return false;
            }
            depth.size = depth.size.saturating_add(size);
            depth.notional = depth.notional.saturating_add(mul(price, size));
            depth.levels = depth.levels.saturating_add(1);
            true
        });
        depth
    }

    /// Up to `levels` distinct prices per side, best first, with the cumulative size up to each.
    pub fn ladder(&self, levels: usize) -> Ladder {
        let mut ladder = Ladder::default();
        let (prices, depth) = (&mut ladder.bid_prices, &mut ladder.bid_depth);
        side_ladder(&self.bids, levels, prices, depth);
        let (prices, depth) = (&mut ladder.ask_prices, &mut ladder.ask_depth);
        side_ladder(&self.asks, levels, prices, depth);
        ladder
    }
}

fn side_ladder(side: &BookSide, levels: usize, prices: &mut Vec<f64>, depth: &mut Vec<f64>) {
    let n = levels.min(side.len());
    prices.reserve(n);
    depth.reserve(n);
    let mut total = 0u64;
    if n == 0 {
        return;
    }
    side.each_price_best_first(|price, size| {
        total = total.saturating_add(size);
        prices.push(fixed::to_f64(price));
        depth.push(fixed::to_f64(total));
        prices.len() < n
    });
}

fn simulate(side: &BookSide, target: Target) -> Fill {
    let mut fill = Fill { target, filled: 0, notional: 0, worst_price: None, levels_used: 0, remaining: 0 };
    let mut last_price = None;
    match target {
        Target::Size(want) => {
            // A level counts as used when the walk reaches it before the order is complete.
            let take_level = |fill: &mut Fill, last_price: &mut Option<u64>, price: u64, size: u64| {
                if fill.filled >= want {
                    return false;
                }
                let take = size.min(want - fill.filled);
                fill.filled += take;
                fill.notional = fill.notional.saturating_add(mul(price, take));
                if differs(*last_price, price) {
                    fill.levels_used = fill.levels_used.saturating_add(1);
                    *last_price = Some(price);
                }
                fill.filled < want
            };
            side.each_chunk_best_first(|prices, sizes, reversed| {
                // A run that does not complete the order is taken whole.
                if let Some((size, notional)) = run_sums(prices, sizes) {
                    if size < want - fill.filled {
                        let (distinct, last) = run_prices(prices, reversed, last_price);
                        fill.filled += size;
                        fill.notional = fill.notional.saturating_add(u128::from(notional));
                        fill.levels_used = fill.levels_used.saturating_add(distinct);
                        last_price = last.or(last_price);
                        return true;
                    }
                }
                each_in(prices, sizes, reversed, |price, size| take_level(&mut fill, &mut last_price, price, size))
            });
            fill.worst_price = last_price;
            fill.remaining = u128::from(want - fill.filled);
        }
        Target::Notional(cash) => {
            let want = u128::from(cash) * u128::from(fixed::SCALE);
            let mut done = want == 0;
            let take_level = |fill: &mut Fill, last_price: &mut Option<u64>, done: &mut bool, price: u64, size: u64| {
                let left = want - fill.notional;
                let whole = mul(price, size);
                let take = if whole <= left {
                    size
                } else {
                    // Whole shares (10^-6) only: the cash left after them is dust, not an unfilled part.
                    *done = true;
                    let take = quotient(left, price).min(size);
                    if take == 0 {
                        return false;
                    }
                    take
                };
                fill.filled = fill.filled.saturating_add(take);
                fill.notional += mul(price, take);
                if differs(*last_price, price) {
                    fill.levels_used = fill.levels_used.saturating_add(1);
                    *last_price = Some(price);
                }
                *done |= fill.notional == want;
                !*done
            };
            if !done {
                side.each_chunk_best_first(|prices, sizes, reversed| {
                    if let Some((size, notional)) = run_sums(prices, sizes) {
                        if u128::from(notional) < want - fill.notional {
                            let (distinct, last) = run_prices(prices, reversed, last_price);
                            fill.filled = fill.filled.saturating_add(size);
                            fill.notional += u128::from(notional);
                            fill.levels_used = fill.levels_used.saturating_add(distinct);
                            last_price = last.or(last_price);
                            return true;
                        }
                    }
                    each_in(prices, sizes, reversed, |price, size| {
                        take_level(&mut fill, &mut last_price, &mut done, price, size)
                    })
                });
            }
            fill.worst_price = last_price;
            fill.remaining = if done { 0 } else { want - fill.notional };
        }
    }
    fill
}

#[cfg(test)]
mod tests {
    use super::*;

    fn book(json: &str) -> OrderBook {
        OrderBook::from_bytes(json.as_bytes()).unwrap()
    }

    const BOOK: &str = r#"{"bids":[{"price":"0.3","size":"100"},{"price":"0.4","size":"50"},{"price":"0.4","size":"50"}],
        "asks":[{"price":"0.7","size":"100"},{"price":"0.6","size":"200"},{"price":"0.5","size":"100"}]}"#;

    #[test]
    fn market_price_walks_from_the_best_price() {
        let b = book(BOOK);
        // Buy $50 takes exactly the 0.5 level; $51 reaches 0.6.
        assert_eq!(b.market_price(Side::Buy, 50_000_000, OrderType::Fok), Ok(500_000));
        assert_eq!(b.market_price(Side::Buy, 51_000_000, OrderType::Fok), Ok(600_000));
        assert_eq!(b.market_price(Side::Buy, 1_000_000_000, OrderType::Fok).unwrap_err().code, ErrorCode::NoMatch);
        assert_eq!(b.market_price(Side::Buy, 1_000_000_000, OrderType::Fak), Ok(700_000));
        assert_eq!(b.market_price(Side::Sell, 100_000_000, OrderType::Fok), Ok(400_000));
        assert_eq!(b.market_price(Side::Sell, 150_000_000, OrderType::Fok), Ok(300_000));
        let empty = book(r#"{"bids":[],"asks":[]}"#);
        assert_eq!(empty.market_price(Side::Sell, 0, OrderType::Fak).unwrap_err().code, ErrorCode::NoMatch);
    }

    #[test]
    fn simulates_by_size() {
        let b = book(BOOK);
        let fill = b.simulate(Side::Buy, Target::Size(250_000_000));
        assert_eq!(fill.filled, 250_000_000);
        // 100 × 0.5 + 150 × 0.6 = 140
        assert_eq!(fill.notional, 140 * 10u128.pow(12));
        assert_eq!(fill.worst_price, Some(600_000));
        assert_eq!(fill.levels_used, 2);
        assert_eq!(fill.remaining, 0);
        assert_eq!(fill.avg_price(), Some(0.56));
        // One level of 0.484: the average is that price exactly.
        let one = OrderBook::from_bytes(br#"{"bids":[{"price":"0.484","size":"300"}],"asks":[]}"#).unwrap();
        assert_eq!(one.simulate(Side::Sell, Target::Size(100_000_000)).avg_price(), Some(0.484));
        // Midpoint 0.45: a buy at 0.56 on average pays 0.11 over it.
        assert!((b.slippage(Side::Buy, &fill).unwrap() - 0.11).abs() < 1e-12);

        let sell = b.simulate(Side::Sell, Target::Size(120_000_000));
        assert_eq!(sell.levels_used, 2, "the repeated 0.4 level counts once");
        assert_eq!(sell.worst_price, Some(300_000));
        let all = b.simulate(Side::Sell, Target::Size(1_000_000_000));
        assert_eq!(all.filled, 200_000_000);
        assert_eq!(all.remaining, 800_000_000);
        assert_eq!(all.remaining_f64(), 800.0);
    }

    #[test]
    fn simulates_by_notional() {
        let b = book(BOOK);
        let fill = b.simulate(Side::Buy, Target::Notional(80_000_000));
        // $50 buys 100 at 0.5, the other $30 buys 50 at 0.6.
        assert_eq!(fill.filled, 150_000_000);
        assert_eq!(fill.notional, 80 * 10u128.pow(12));
        assert_eq!(fill.remaining, 0);
        // $10 at 0.7 is 14.285714 shares (whole 10^-6 steps); the dust is not "remaining".
        let odd = b.simulate(Side::Buy, Target::Notional(180_000_000));
        assert_eq!(odd.filled, 300_000_000 + 14_285_714);
        assert_eq!(odd.remaining, 0);
        assert_eq!(odd.levels_used, 3);
        assert!(odd.notional < 180 * 10u128.pow(12));
        let too_much = b.simulate(Side::Buy, Target::Notional(1_000_000_000));
        assert_eq!(too_much.notional, 240 * 10u128.pow(12));
        assert_eq!(too_much.remaining_f64(), 760.0);
        let nothing = b.simulate(Side::Buy, Target::Notional(0));
        assert_eq!((nothing.filled, nothing.levels_used, nothing.avg_price()), (0, 0, None));
    }

    #[test]
    fn depth_within_a_band() {
        let b = book(BOOK);
        assert_eq!(b.depth(Side::Buy, 100_000), Depth { size: 300_000_000, notional: 170 * 10u128.pow(12), levels: 2 });
        assert_eq!(b.depth(Side::Sell, 0), Depth { size: 100_000_000, notional: 40 * 10u128.pow(12), levels: 1 });
        assert_eq!(b.depth(Side::Sell, u64::MAX).levels, 2);
    }

    #[test]
    fn ladder_is_cumulative_best_first() {
        let b = book(BOOK);
        let l = b.ladder(2);
        assert_eq!(l.bid_prices, [0.4, 0.3]);
        assert_eq!(l.bid_depth, [100.0, 200.0]);
        assert_eq!(l.ask_prices, [0.5, 0.6]);
        assert_eq!(l.ask_depth, [100.0, 300.0]);
        assert_eq!(b.ladder(0), Ladder::default());
        assert_eq!(b.ladder(usize::MAX).ask_prices.len(), 3);
    }

    #[test]
    fn long_division() {
        for (n, d) in [
            (0u128, 1u64),
            (10, 3),
            (u64::MAX as u128 * 5 + 4, 7),
            (1 << 100, 1 << 40),
            (u128::from(u64::MAX) << 63, u64::MAX),
        ] {
            assert_eq!(quotient(n, d) as u128, n / d as u128, "{n} / {d}");
        }
        assert_eq!(quotient(1 << 70, 2), u64::MAX);
        assert_eq!(quotient(5, 0), u64::MAX);
    }

    #[test]
    fn products_agree_on_both_paths() {
        for (p, s) in [(1, 1), ((1 << 21) - 1, (1 << 43) - 1), (1 << 21, 3), (u64::MAX, u64::MAX), (0, u64::MAX)] {
            assert_eq!(mul(p, s), u128::from(p) * u128::from(s));
        }
    }
}
