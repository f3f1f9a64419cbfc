//! Property tests of an order's amounts: every order the builders accept meets the service's precision
//! rule for its order type and tick size, stated here from the service's own error texts rather than from
//! the library's table; a FOK or FAK limit order refused for its size names the nearest exact sizes; a
//! market order's taker amount is its exact amount cut, never rounded up, to 4 decimals, and never implies a
//! price beyond the user's limit.

#![cfg(not(target_arch = "wasm32"))]

use predictkit::book::{OrderType, Side};
use predictkit::trade::amounts::{limit, market, Amounts, MarketRules};
use proptest::prelude::*;

const ONE: u64 = 1_000_000;

/// The tick sizes the service uses, in units, and the decimals of a resting order's cash at each
/// ("tick 0.1 → 3, 0.01 → 4, 0.001 → 5, 0.0001 → 6"; 0.005 and 0.0025 as their price decimals say).
const TICKS: [(u64, u32); 6] = [(100_000, 3), (10_000, 4), (1_000, 5), (100, 6), (5_000, 5), (2_500, 6)];
const TYPES: [OrderType; 4] = [OrderType::Gtc, OrderType::Gtd, OrderType::Fok, OrderType::Fak];

fn places_ok(units: u64, places: u32) -> bool {
    units % 10u64.pow(6 - places) == 0
}

/// The service's rule. FOK and FAK: "maker amount supports a max accuracy of 2 decimals, taker amount a
/// max of 4 decimals", whatever the tick. GTC and GTD: shares at most 2 decimals, cash at most the tick's.
fn service_accepts(order_type: OrderType, side: Side, cash_places: u32, a: Amounts) -> bool {
    match order_type {
        OrderType::Fok | OrderType::Fak => places_ok(a.maker, 2) && places_ok(a.taker, 4),
        OrderType::Gtc | OrderType::Gtd => {
            let (shares, cash) = match side {
                Side::Buy => (a.taker, a.maker),
                Side::Sell => (a.maker, a.taker),
            };
            places_ok(shares, 2) && places_ok(cash, cash_places)
        }
    }
}

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::Buy), Just(Side::Sell)]
}

/// A tick (with its cash decimals), a price on it in [tick, 1 − tick], and an order type.
fn market_and_price() -> impl Strategy<Value = ((u64, u32), u64, OrderType)> {
    (0..TICKS.len(), 0..TYPES.len())
        .prop_flat_map(|(i, t)| {
            let (tick, places) = TICKS.get(i).copied().unwrap_or((10_000, 4));
            (Just((tick, places)), 1..ONE / tick, Just(TYPES.get(t).copied().unwrap_or(OrderType::Gtc)))
        })
        .prop_map(|(tick, n, t)| (tick, n * tick.0, t))
}

/// The sizes named in a refusal ("...; nearest exact sizes: 1.5 and 2", or "...: 2"), in units.
fn named_sizes(message: &str) -> Vec<u64> {
    let tail = message.rsplit(": ").next().unwrap_or("");
    tail.split(" and ").map(|t| predictkit::book::fixed::parse(t.as_bytes()).expect(t)).collect()
}

fn config() -> ProptestConfig {
    ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() }
}

proptest! {
    #![proptest_config(config())]

    /// A limit order is built exactly or refused; what is built meets the service's rule for its type.
    /// GTC and GTD always are (a size on 0.01 and a price on the tick make cash within the tick's
    /// decimals); a FOK or FAK is refused exactly when its exact cash breaks the rule, and then names the
    /// nearest sizes that meet it, with no such size between them.
    #[test]
    fn limit_orders_meet_their_type_rule_or_name_the_nearest_sizes_that_do(
        ((tick, cash_places), price, order_type) in market_and_price(),
        side in side(),
        hundredths in 1u64..2_000_000,
        min_hundredths in prop_oneof![Just(0u64), 1u64..2_000],
    ) {
        let rules = MarketRules { tick, min_size: min_hundredths * 10_000, neg_risk: false };
        let size = hundredths * 10_000;
        let cash = size / 10_000 * price / 100;
        let exact = match side {
            Side::Buy => Amounts { maker: cash, taker: size },
            Side::Sell => Amounts { maker: size, taker: cash },
        };
        match limit(&rules, order_type, side, price, size) {
            Ok(got) => {
                prop_assert_eq!(got, exact);
                prop_assert!(service_accepts(order_type, side, cash_places, got), "{:?}", got);
            }
            Err(e) if e.message.contains("minimum") => prop_assert!(size < rules.min_size),
            Err(e) => {
                prop_assert!(matches!(order_type, OrderType::Fok | OrderType::Fak), "{}", e);
                prop_assert!(!service_accepts(order_type, side, cash_places, exact), "{}", e);
                prop_assert_eq!(e.param.as_deref(), Some("size"));
                let named = named_sizes(&e.message);
                prop_assert!(!named.is_empty() && named.len() <= 2, "{}", e.message);
                let (low, high) = match named.as_slice() {
                    [above] => (0, *above),
                    [below, above] => (*below, *above),
                    _ => unreachable!(),
                };
                prop_assert!(low < size && size < high, "{}", e.message);
                for s in named.iter().copied() {
                    let built = limit(&rules, order_type, side, price, s);
                    prop_assert!(built.is_ok(), "{} named but refused: {:?}", s, built);
                }
                // No exact size lies between the two named (at most a few thousand hundredths apart).
                if low >= rules.min_size {
                    for k in (low / 10_000 + 1)..(high / 10_000) {
                        prop_assert!(limit(&rules, order_type, side, price, k * 10_000).is_err(), "{} is exact", k);
                    }
                }
            }
        }
    }

    /// A market order's maker is its amount; its taker is the exact amount it gets at the worst price
    /// cut to 4 decimals: never more than the exact amount, less by under 0.0001. It meets the rule of its
    /// type; GTC and GTD are refused.
    #[test]
    fn market_orders_cut_their_taker_to_4_decimals(
        ((tick, cash_places), price, order_type) in market_and_price(),
        side in side(),
        hundredths in 1u64..20_000_000,
    ) {
        let rules = MarketRules { tick, min_size: 0, neg_risk: false };
        let amount = hundredths * 10_000;
        let got = market(&rules, order_type, side, price, amount);
        if matches!(order_type, OrderType::Gtc | OrderType::Gtd) {
            prop_assert_eq!(got.map_err(|e| e.param), Err(Some("orderType".into())));
            return Ok(());
        }
        // The exact taker amount, as a fraction num / den of units.
        let (num, den) = match side {
            Side::Buy => (u128::from(amount) * u128::from(ONE), u128::from(price)),
            Side::Sell => (u128::from(amount) * u128::from(price), u128::from(ONE)),
        };
        match got {
            Ok(a) => {
                prop_assert_eq!(a.maker, amount);
                prop_assert!(service_accepts(order_type, side, cash_places, a), "{:?}", a);
                let taker = u128::from(a.taker);
                prop_assert!(taker > 0);
                prop_assert!(taker * den <= num, "asks more than the amount gets: {:?}", a);
                prop_assert!((taker + 100) * den > num, "cut by 0.0001 or more: {:?}", a);
            }
            Err(e) => {
                prop_assert_eq!(e.param.as_deref(), Some("amount"));
                // Refused only when the cut taker amount is 0 or lets a level beyond the price fill it.
                let taker = u64::try_from(num / den / 100 * 100).unwrap_or(u64::MAX);
                prop_assert!(taker == 0 || !keeps_price(side, price, tick, amount, taker), "refused: {}", e);
            }
        }
    }

    /// Never a worse price than the user asked (issue 33): for every market order built, the price its
    /// amounts imply is on the user's side of the limit, short of the next level beyond it (a buy's
    /// `amount / taker` under `price + tick`, a sell's `taker / amount` over `price − tick`). When no order
    /// of that amount does, the refusal names the nearest amounts that do, and no amount between them would.
    /// Amounts near the edges of the price range and tiny amounts are where the cut bites.
    #[test]
    fn market_orders_never_imply_a_price_beyond_the_limit(
        (tick, _) in prop::sample::select(TICKS.to_vec()),
        ticks_from_edge in 1u64..40,
        high in any::<bool>(),
        side in side(),
        hundredths in 1u64..300,
        order_type in prop_oneof![Just(OrderType::Fok), Just(OrderType::Fak)],
    ) {
        let price = if high { ONE.saturating_sub(tick * ticks_from_edge) } else { tick * ticks_from_edge };
        prop_assume!(price >= tick && price <= ONE - tick);
        let rules = MarketRules { tick, min_size: 0, neg_risk: false };
        let amount = hundredths * 10_000;
        match market(&rules, order_type, side, price, amount) {
            Ok(a) => prop_assert!(keeps_price(side, price, tick, a.maker, a.taker), "{:?} at {}", a, price),
            Err(e) => {
                prop_assert_eq!(e.param.as_deref(), Some("amount"), "{}", e);
                let named = named_sizes(&e.message);
                prop_assert!(!named.is_empty(), "names no amount: {}", e);
                for &n in &named {
                    let built = market(&rules, order_type, side, price, n);
                    prop_assert!(built.is_ok(), "{} named but refused: {:?}", n, built);
                }
                let (low, high) = match named[..] {
                    [low, high] => (low, high),
                    [one] if one > amount => (0, one),
                    [one] => (one, u64::MAX),
                    _ => (0, 0),
                };
                prop_assert!(low < amount && amount < high, "{}", e.message);
                for k in (low / 10_000 + 1)..(high.min(amount + 2_000 * 10_000) / 10_000) {
                    prop_assert!(market(&rules, order_type, side, price, k * 10_000).is_err(), "{} keeps the price", k);
                }
            }
        }
    }
}

/// The service-side reading of "within the user's limit": the levels that fill an order lie on the tick, so a
/// buy whose implied price `amount / taker` reaches `price + tick`, or a sell whose `taker / amount` reaches
/// `price − tick`, can be filled beyond the limit.
fn keeps_price(side: Side, price: u64, tick: u64, amount: u64, taker: u64) -> bool {
    let (a, t) = (u128::from(amount), u128::from(taker));
    match side {
        Side::Buy => a * u128::from(ONE) < (u128::from(price) + u128::from(tick)) * t,
        Side::Sell => t * u128::from(ONE) > u128::from(price - tick) * a,
    }
}
