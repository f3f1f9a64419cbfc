//! Property tests of the order-book core against a simple model, and a bounded never-panics run over
//! arbitrary and mangled bytes. Bounded so the whole file takes a few seconds in a debug build; the
//! open-ended search is the cargo-fuzz crate in fuzz/.

use std::collections::BTreeMap;

use predictkit::book::{fixed, math, sha1_hex, Level, OrderBook, OrderType, Side, Target};
use predictkit::ErrorCode;
use proptest::prelude::*;

/// How a generated level is written.
#[derive(Clone, Debug)]
enum Style {
    /// `{"price":"0.43","size":"100"}`: the service's compact form.
    Compact,
    /// Numbers instead of strings, white space, size first, an extra key.
    Loose,
    /// Trailing zeros beyond six decimals (still exact).
    Padded,
}

#[derive(Clone, Debug)]
struct GenLevel {
    price: u64,
    size: u64,
    style: Style,
}

impl GenLevel {
    fn price_text(&self) -> String {
        text(self.price, &self.style)
    }

    fn size_text(&self) -> String {
        text(self.size, &self.style)
    }

    fn json(&self) -> String {
        match self.style {
            Style::Loose => format!(
                r#" {{ "size" : {} , "x": [1, {{"y": null}}], "price": {} }} "#,
                self.size_text(),
                self.price_text()
            ),
            _ => format!(r#"{{"price":{},"size":{}}}"#, self.price_text(), self.size_text()),
        }
    }
}

fn plain(units: u64) -> String {
    let mut out = Vec::new();
    fixed::format(units, &mut out);
    String::from_utf8(out).unwrap()
}

/// The raw JSON value of a decimal in a style.
fn text(units: u64, style: &Style) -> String {
    match style {
        Style::Compact => format!("\"{}\"", plain(units)),
        Style::Loose => plain(units),
        Style::Padded if units % fixed::SCALE == 0 => format!("\"{}.0000000\"", units / fixed::SCALE),
        Style::Padded => format!("\"{}0000\"", plain(units)),
    }
}

fn style() -> impl Strategy<Value = Style> {
    prop_oneof![6 => Just(Style::Compact), 1 => Just(Style::Loose), 1 => Just(Style::Padded)]
}

/// Prices mostly on a coarse grid so that repeated prices happen; sizes up to a few million shares, and
/// now and then a huge one to exercise the 128-bit paths.
fn level() -> impl Strategy<Value = GenLevel> {
    let price = prop_oneof![8 => (1u64..100).prop_map(|t| t * 10_000), 1 => 0u64..2_000_000, 1 => 0u64..u64::MAX / 2];
    let size = prop_oneof![8 => 0u64..5_000_000_000_000, 1 => 0u64..u64::MAX / 4];
    (price, size, style()).prop_map(|(price, size, style)| GenLevel { price, size, style })
}

/// How a side's levels are ordered before writing.
#[derive(Clone, Copy, Debug)]
enum Arrange {
    /// As the service lists them (best last).
    Service,
    /// Best first.
    Reversed,
    /// As generated.
    Shuffled,
}

fn arrange() -> impl Strategy<Value = Arrange> {
    prop_oneof![Just(Arrange::Service), Just(Arrange::Reversed), Just(Arrange::Shuffled)]
}

fn arranged(mut levels: Vec<GenLevel>, arrange: Arrange, bids: bool) -> Vec<GenLevel> {
    match arrange {
        Arrange::Service => levels.sort_by_key(|l| if bids { l.price } else { u64::MAX - l.price }),
        Arrange::Reversed => levels.sort_by_key(|l| if bids { u64::MAX - l.price } else { l.price }),
        Arrange::Shuffled => {}
    }
    levels
}

#[derive(Clone, Debug)]
struct GenBook {
    bids: Vec<GenLevel>,
    asks: Vec<GenLevel>,
    json: String,
}

fn book() -> impl Strategy<Value = GenBook> {
    (prop::collection::vec(level(), 0..40), prop::collection::vec(level(), 0..40), arrange(), arrange(), any::<bool>())
        .prop_map(|(bids, asks, bid_order, ask_order, full)| {
            let bids = arranged(bids, bid_order, true);
            let asks = arranged(asks, ask_order, false);
            let list = |levels: &[GenLevel]| levels.iter().map(GenLevel::json).collect::<Vec<_>>().join(",");
            let tail = if full { r#","min_order_size":"5","tick_size":"0.01","neg_risk":true,"last_trade_price":"0.5""# } else { "" };
            let json = format!(
                r#"{{"market":"0xabc","asset_id":"42","timestamp":"1700000000000","hash":"old","bids":[{}],"asks":[{}]{tail}}}"#,
                list(&bids),
                list(&asks)
            );
            GenBook { bids, asks, json }
        })
}

/// Distinct prices best first with summed sizes: the model of a side.
fn model(levels: &[GenLevel], bids: bool) -> Vec<(u64, u64)> {
    let mut merged = BTreeMap::<u64, u64>::new();
    for l in levels {
        let size = merged.entry(l.price).or_default();
        *size = size.saturating_add(l.size);
    }
    let mut out: Vec<_> = merged.into_iter().collect();
    if bids {
        out.reverse();
    }
    out
}

/// The upstream walk over best-first levels with exact sums.
fn model_market_price(levels: &[(u64, u64)], side: Side, amount: u64, order_type: OrderType) -> Result<u64, ErrorCode> {
    let target = if side == Side::Buy { amount as u128 * 1_000_000 } else { amount as u128 };
    let mut sum = 0u128;
    for &(price, size) in levels {
        sum = sum.saturating_add(if side == Side::Buy { price as u128 * size as u128 } else { size as u128 });
        if sum >= target {
            return Ok(price);
        }
    }
    match (levels.last(), order_type) {
        (Some(&(worst, _)), OrderType::Fak) => Ok(worst),
        _ => Err(ErrorCode::NoMatch),
    }
}

fn config() -> ProptestConfig {
    ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn parses_every_level_exactly_in_received_order(g in book()) {
        let book = OrderBook::from_bytes(g.json.as_bytes()).unwrap();
        let prices: Vec<u64> = g.bids.iter().map(|l| l.price).collect();
        let sizes: Vec<u64> = g.bids.iter().map(|l| l.size).collect();
        prop_assert_eq!(book.bids.prices(), &prices[..]);
        prop_assert_eq!(book.bids.sizes(), &sizes[..]);
        prop_assert_eq!(book.asks.len(), g.asks.len());
        let bids = model(&g.bids, true);
        let asks = model(&g.asks, false);
        prop_assert_eq!(book.best_bid(), bids.first().map(|&(price, size)| Level { price, size }));
        prop_assert_eq!(book.best_ask(), asks.first().map(|&(price, size)| Level { price, size }));
        let ladder = book.ladder(usize::MAX);
        prop_assert_eq!(ladder.bid_prices.len(), bids.len());
        prop_assert_eq!(ladder.ask_prices.len(), asks.len());
        for (i, &(price, _)) in asks.iter().enumerate() {
            prop_assert_eq!(ladder.ask_prices[i], fixed::to_f64(price));
        }
        prop_assert!(ladder.ask_depth.windows(2).all(|w| w[0] <= w[1]));
        match (bids.first(), asks.first()) {
            (Some(b), Some(a)) => prop_assert_eq!(book.midpoint(), Some((b.0 as f64 + a.0 as f64) / 2e6)),
            _ => prop_assert_eq!(book.midpoint(), None),
        }
    }

    #[test]
    fn the_hash_covers_the_text_as_received(g in book()) {
        let book = OrderBook::from_bytes(g.json.as_bytes()).unwrap();
        let level = |l: &GenLevel| format!(r#"{{"price":{},"size":{}}}"#, l.price_text(), l.size_text());
        let list = |levels: &[GenLevel]| levels.iter().map(level).collect::<Vec<_>>().join(",");
        let tail = if g.json.contains("tick_size") { r#","min_order_size":"5","tick_size":"0.01","neg_risk":true,"last_trade_price":"0.5""# } else { "" };
        let want = format!(
            r#"{{"market":"0xabc","asset_id":"42","timestamp":"1700000000000","hash":"","bids":[{}],"asks":[{}]{tail}}}"#,
            list(&g.bids),
            list(&g.asks)
        );
        prop_assert_eq!(String::from_utf8(book.hash_input()).unwrap(), want.clone());
        prop_assert_eq!(book.hash(), sha1_hex(want.as_bytes()));
    }

    #[test]
    fn market_price_matches_the_model(g in book(), amount in 0u64..20_000_000_000_000, fok in any::<bool>()) {
        let book = OrderBook::from_bytes(g.json.as_bytes()).unwrap();
        let order_type = if fok { OrderType::Fok } else { OrderType::Fak };
        for (side, levels) in [(Side::Buy, model(&g.asks, false)), (Side::Sell, model(&g.bids, true))] {
            let got = book.market_price(side, amount, order_type).map_err(|e| e.code);
            prop_assert_eq!(got, model_market_price(&levels, side, amount, order_type));
            // The level-array function walks from the last element: the same on service-ordered levels.
            let mut service: Vec<Level> = levels.iter().map(|&(price, size)| Level { price, size }).collect();
            service.reverse();
            prop_assert_eq!(math::market_price(&service, side, amount, order_type).map_err(|e| e.code), got);
        }
    }

    #[test]
    fn simulate_is_consistent_with_the_model(g in book(), amount in 0u64..20_000_000_000_000, by_size in any::<bool>()) {
        let book = OrderBook::from_bytes(g.json.as_bytes()).unwrap();
        for (side, levels) in [(Side::Buy, model(&g.asks, false)), (Side::Sell, model(&g.bids, true))] {
            let target = if by_size { Target::Size(amount) } else { Target::Notional(amount) };
            let fill = book.simulate(side, target);
            // The model: take levels best first, whole while they fit, then a part in whole 10^-6 shares.
            let (mut filled, mut notional, mut used, mut worst) = (0u128, 0u128, 0u32, None::<u64>);
            let want = if by_size { amount as u128 } else { amount as u128 * 1_000_000 };
            for &(price, size) in &levels {
                let got = if by_size { filled } else { notional };
                if got >= want { break; }
                let per_share = if by_size { 1_000_000 } else { price as u128 };
                let room = want - got;
                let partial = !by_size && price as u128 * size as u128 > room;
                let take = if by_size { room.min(size as u128) } else if partial { room / per_share } else { size as u128 };
                // A level reached before the order is complete is used, except when the cash left
                // cannot buy a single 10^-6 share of it.
                if partial && take == 0 { break; }
                filled += take;
                notional += price as u128 * take;
                if worst != Some(price) { used += 1; }
                worst = Some(price);
                if partial { break; }
            }
            prop_assert_eq!(fill.filled as u128, filled.min(u64::MAX as u128));
            prop_assert_eq!(fill.notional, notional);
            prop_assert_eq!(fill.levels_used, used);
            prop_assert_eq!(fill.worst_price, worst);
            if let (Some(avg), Some(best), Some(worst)) = (fill.avg_price(), levels.first(), worst) {
                let (lo, hi) = if side == Side::Buy { (best.0, worst) } else { (worst, best.0) };
                prop_assert!(avg >= fixed::to_f64(lo) * (1.0 - 1e-12) && avg <= fixed::to_f64(hi) * (1.0 + 1e-12));
            }
        }
    }

    #[test]
    fn depth_matches_the_model(g in book(), within in 0u64..300_000) {
        let book = OrderBook::from_bytes(g.json.as_bytes()).unwrap();
        let asks = model(&g.asks, false);
        let depth = book.depth(Side::Buy, within);
        let inside: Vec<_> = asks.iter().filter(|l| l.0 <= asks[0].0.saturating_add(within)).collect();
        prop_assert_eq!(depth.levels as usize, inside.len());
        prop_assert_eq!(depth.size, inside.iter().fold(0u64, |s, l| s.saturating_add(l.1)));
    }

    #[test]
    fn price_changes_keep_the_book_equal_to_the_model(
        g in book(),
        changes in prop::collection::vec((any::<bool>(), (1u64..100).prop_map(|t| t * 10_000), prop_oneof![1 => Just(0u64), 3 => 1u64..1_000_000_000]), 0..30),
    ) {
        let mut book = OrderBook::from_bytes(g.json.as_bytes()).unwrap();
        let mut bids: BTreeMap<u64, u64> = model(&g.bids, true).into_iter().collect();
        let mut asks: BTreeMap<u64, u64> = model(&g.asks, false).into_iter().collect();
        for &(buy, price, size) in &changes {
            let side = if buy { Side::Buy } else { Side::Sell };
            book.apply_price_change(side, &plain(price), &plain(size)).unwrap();
            let map = if buy { &mut bids } else { &mut asks };
            if size == 0 { map.remove(&price); } else { map.insert(price, size); }
        }
        prop_assert_eq!(book.best_bid(), bids.iter().next_back().map(|(&price, &size)| Level { price, size }));
        prop_assert_eq!(book.best_ask(), asks.iter().next().map(|(&price, &size)| Level { price, size }));
        let ladder = book.ladder(usize::MAX);
        let want: Vec<f64> = asks.keys().map(|&p| fixed::to_f64(p)).collect();
        prop_assert_eq!(ladder.ask_prices, want);
        // The hash input is itself a book that reads back the same.
        let again = OrderBook::from_bytes(&book.hash_input()).unwrap();
        prop_assert_eq!(again.hash(), book.hash());
        prop_assert_eq!(again.best_bid(), book.best_bid());
    }

    #[test]
    fn never_panics_on_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        exercise(&bytes);
    }

    #[test]
    fn never_panics_on_mangled_books(g in book(), cuts in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6), truncate in any::<prop::sample::Index>()) {
        let mut bytes = g.json.into_bytes();
        for (at, byte) in cuts {
            let i = at.index(bytes.len());
            bytes[i] = byte;
        }
        exercise(&bytes);
        let end = truncate.index(bytes.len() + 1);
        exercise(&bytes[..end]);
    }
}

/// Parses and, when that works, runs every query with extreme arguments.
fn exercise(bytes: &[u8]) {
    let _ = OrderBook::list_from_bytes(bytes);
    let Ok(mut book) = OrderBook::from_bytes(bytes) else { return };
    for side in [Side::Buy, Side::Sell] {
        for amount in [0, 1, u64::MAX / 3, u64::MAX] {
            for order_type in [OrderType::Fok, OrderType::Fak] {
                let _ = book.market_price(side, amount, order_type);
            }
            let fill = book.simulate(side, Target::Size(amount));
            let _ = (fill.avg_price(), fill.remaining_f64(), book.slippage(side, &fill));
            let _ = book.simulate(side, Target::Notional(amount));
            let _ = book.depth(side, amount);
        }
    }
    let _ = (book.ladder(0), book.ladder(3), book.ladder(usize::MAX), book.midpoint(), book.spread());
    let _ = (book.hash(), book.market(), book.asset_id(), book.timestamp(), book.received_hash());
    let _ = (book.tick_size(), book.min_order_size(), book.last_trade_price(), book.neg_risk());
    let _ = book.apply_price_change(Side::Buy, "0.5", "1");
    let _ = book.apply_price_change(Side::Sell, "18446744073709.551615", "0");
    let _ = book.set_timestamp("1");
    let _ = book.hash();
}
