//! The service's rules for an order's amounts, written from the service's own refusals as its users report them
//! (the texts below are verbatim, each with where it was reported), never from the client's builders.
//!
//! Amounts are in 10^-6 units of shares or cash. What decides the rule is the order type posted (`orderType`), not
//! how the amounts were made:
//! - a resting order (GTC, GTD) names shares with at most 2 decimals and cash with at most the tick's amount
//!   decimals (tick 0.1 → 3, 0.01 → 4, 0.001 → 5, 0.0001 → 6), at a price (cash / shares) exactly on the tick,
//!   between the tick and 1 − tick, for at least the market's minimum size;
//! - a fill-or-kill or fill-and-kill order (FOK, FAK) names its maker amount with at most 2 decimals and its taker
//!   amount with at most 4, whatever the tick; its price is where the client cut its taker amount, so only a price
//!   that no cut explains (out of [tick, 1 − tick] by more than one step of the taker amount) is refused.

use crate::text::decimal;

use super::order::{OrderType, Side};

/// Units in one share or one unit of cash.
const ONE: u64 = 1_000_000;
/// The decimals of shares (a resting order's shares, a FOK/FAK order's maker amount).
const SHARE_DECIMALS: u32 = 2;
/// The decimals of a FOK/FAK order's taker amount, at every tick.
const MARKET_TAKER_DECIMALS: u32 = 4;

/// The cash decimals of a resting order at a tick size (in units), or None for a tick the service does not use.
/// The service's texts give 4 at 0.01 (py-clob-client issue 305) and 5 at 0.001 (clob-client issue 124): price
/// decimals + 2, as the upstream `ROUNDING_CONFIG` tables say for every tick (clob-client-v2
/// `src/order-builder/helpers/roundingConfig.ts`: 0.1, 0.01, 0.005, 0.0025, 0.001, 0.0001).
pub fn amount_decimals(tick: u64) -> Option<u32> {
    match tick {
        100_000 => Some(3),
        10_000 => Some(4),
        1_000 | 5_000 => Some(5),
        100 | 2_500 => Some(6),
        _ => None,
    }
}

/// Whether `units` has at most `places` decimals.
fn within(units: u64, places: u32) -> bool {
    places >= 6 || units.is_multiple_of(10u64.pow(6 - places))
}

/// What the market asks of an order: its current tick size and minimum order size (both in units).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub tick: u64,
    pub min_size: u64,
}

/// Why the service refuses an order's amounts; [`Refusal::text`] is what it answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The market's tick is not one the service uses (the emulator's own text: no upstream one is known).
    UnknownTick { tick: u64 },
    /// A zero amount (the emulator's own text).
    Zero,
    /// Too many decimals in the maker or the taker amount: the most each takes.
    Accuracy { order_type: OrderType, side: Side, maker: u32, taker: u32 },
    /// A resting order's price (cash / shares) is not a multiple of the tick.
    Tick { cash: u64, shares: u64, tick: u64 },
    /// The price is outside [tick, 1 − tick].
    Price { cash: u64, shares: u64, tick: u64 },
    /// A resting order of fewer shares than the market's minimum.
    Size { shares: u64, min: u64 },
}

/// `num / den` as the service prints a price: the shortest decimal of the binary float (as JavaScript and Go print
/// it), e.g. "0.9803921568627451".
fn float_ratio(num: u64, den: u64) -> String {
    format!("{}", num as f64 / den.max(1) as f64)
}

impl Refusal {
    /// The service's text for this refusal of the order whose hash is `order_id` (`0x` and 64 hex digits).
    pub fn text(&self, order_id: &str) -> String {
        match *self {
            Self::UnknownTick { tick } => format!(
                "invalid amounts, the market's tick size ({}) is not one of 0.1, 0.01, 0.001, 0.0001, 0.005, 0.0025",
                decimal(tick, 6)
            ),
            Self::Zero => "invalid amounts, the maker and taker amounts must be greater than 0".into(),
            // Resting buy: "invalid amounts, the buy orders maker amount supports a max accuracy of 4 decimals, taker
            // amount a max of 2 decimals" (https://github.com/Polymarket/py-clob-client/issues/305, tick 0.01;
            // https://github.com/Polymarket/py-clob-client/issues/253) and "... of 5 decimals, taker amount a max of 2
            // decimals" (https://github.com/Polymarket/clob-client/issues/124, tick 0.001).
            // Resting sell: "invalid amounts, the sell orders maker amount supports a max accuracy of 2 decimals, taker
            // amount a max of 4 decimals" (https://github.com/Polymarket/py-clob-client/issues/121).
            // FOK/FAK buy: "invalid amounts, the market buy orders maker amount supports a max accuracy of 2 decimals,
            // taker amount a max of 4 decimals" (https://github.com/Polymarket/rs-clob-client/issues/114 and /261,
            // https://github.com/Polymarket/py-clob-client-v2/issues/99,
            // https://github.com/Polymarket/rs-clob-client-v2/issues/59). FOK/FAK sell: the same with "market sell"
            // (no report quotes it; the buy text's form with the side the service names).
            Self::Accuracy { order_type, side, maker, taker } => {
                let kind = match (order_type.is_market(), side) {
                    (false, Side::Buy) => "buy",
                    (false, Side::Sell) => "sell",
                    (true, Side::Buy) => "market buy",
                    (true, Side::Sell) => "market sell",
                };
                format!(
                    "invalid amounts, the {kind} orders maker amount supports a max accuracy of {maker} decimals, \
                     taker amount a max of {taker} decimals"
                )
            }
            // "order {id} is invalid. Price ({price}) breaks minimum tick size rule: {tick}"
            // (https://docs.polymarket.com/resources/error-codes; reported as "Price (0.9803921568627451) breaks
            // minimum tick size rule: 0.001" in https://github.com/okx/plugin-store/pull/129).
            Self::Tick { cash, shares, tick } => format!(
                "order {order_id} is invalid. Price ({}) breaks minimum tick size rule: {}",
                float_ratio(cash, shares),
                decimal(tick, 6)
            ),
            // The service's own text for a price out of range is not reported; this is the upstream clients' text
            // for it (clob-client-v2 `src/client.ts`, `createOrder`: "invalid price (…), min: … - max: …";
            // https://github.com/Polymarket/clob-client/issues/191).
            Self::Price { cash, shares, tick } => format!(
                "invalid price ({}), min: {} - max: {}",
                float_ratio(cash, shares),
                decimal(tick, 6),
                decimal(ONE - tick, 6)
            ),
            // "order {id} is invalid. Size ({size}) lower than the minimum: {min}"
            // (https://docs.polymarket.com/resources/error-codes; reported as "Size (1.08) lower than the minimum: 5"
            // in https://github.com/Polymarket/py-clob-client/issues/301).
            Self::Size { shares, min } => format!(
                "order {order_id} is invalid. Size ({}) lower than the minimum: {}",
                decimal(shares, 6),
                decimal(min, 6)
            ),
        }
    }
}

/// Checks an order's amounts against the market's rules for the order type it is posted as.
pub fn check(rules: Rules, side: Side, order_type: OrderType, maker: u64, taker: u64) -> Result<(), Refusal> {
    let Rules { tick, min_size } = rules;
    let cash_places = amount_decimals(tick).ok_or(Refusal::UnknownTick { tick })?;
    if maker == 0 || taker == 0 {
        return Err(Refusal::Zero);
    }
    let (shares, cash) = match side {
        Side::Buy => (taker, maker),
        Side::Sell => (maker, taker),
    };
    let market = order_type.is_market();
    let (maker_places, taker_places) = match (market, side) {
        (false, Side::Buy) => (cash_places, SHARE_DECIMALS),
        (false, Side::Sell) => (SHARE_DECIMALS, cash_places),
        (true, _) => (SHARE_DECIMALS, MARKET_TAKER_DECIMALS),
    };
    if !within(maker, maker_places) || !within(taker, taker_places) {
        return Err(Refusal::Accuracy { order_type, side, maker: maker_places, taker: taker_places });
    }
    let (lo, hi) = (u128::from(tick), u128::from(ONE - tick));
    let (cash_w, shares_w) = (u128::from(cash) * u128::from(ONE), u128::from(shares));
    if !market {
        // price = cash / shares, exactly a multiple of the tick, within [tick, 1 − tick], for enough shares.
        if !cash_w.is_multiple_of(shares_w) || !(cash_w / shares_w).is_multiple_of(lo) {
            return Err(Refusal::Tick { cash, shares, tick });
        }
        let price = cash_w / shares_w;
        if price < lo || price > hi {
            return Err(Refusal::Price { cash, shares, tick });
        }
        if shares < min_size {
            return Err(Refusal::Size { shares, min: min_size });
        }
        return Ok(());
    }
    // The taker amount was cut (or rounded) to 4 decimals from an exact price in [lo, hi]: the amounts must be one
    // taker step or less from such a price.
    let step = u128::from(10u64.pow(6 - MARKET_TAKER_DECIMALS));
    let out_of_range = match side {
        // taker = shares: shares × price = cash with shares off by less than a step.
        Side::Buy => shares_w.saturating_sub(step) * lo >= cash_w || (shares_w + step) * hi <= cash_w,
        // taker = cash (×10^6 here): cash off by less than a step from shares × price.
        Side::Sell => {
            let step_w = step * u128::from(ONE);
            cash_w + step_w <= lo * shares_w || cash_w >= hi * shares_w + step_w
        }
    };
    if out_of_range {
        return Err(Refusal::Price { cash, shares, tick });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    fn u(text: &str) -> u64 {
        crate::market::parse_fixed(text, 6).unwrap()
    }

    fn rules(tick: &str) -> Rules {
        Rules { tick: u(tick), min_size: u("5") }
    }

    #[test]
    fn the_tick_table() {
        let table = [("0.1", 3), ("0.01", 4), ("0.001", 5), ("0.0001", 6), ("0.005", 5), ("0.0025", 6)];
        for (tick, places) in table {
            assert_eq!(amount_decimals(u(tick)), Some(places), "{tick}");
        }
        for tick in ["0.02", "0.00001", "0.000001", "1", "0"] {
            assert_eq!(amount_decimals(u(tick)), None, "{tick}");
        }
    }

    #[test]
    fn extreme_amounts_are_refused_not_overflowed() {
        for side in [Side::Buy, Side::Sell] {
            for order_type in [OrderType::Gtc, OrderType::Fok] {
                for (maker, taker) in
                    [(u64::MAX, 1), (1, u64::MAX), (u64::MAX, u64::MAX), (u64::MAX / 10_000 * 10_000, 10_000)]
                {
                    let _ = check(rules("0.01"), side, order_type, maker, taker);
                }
            }
        }
        assert!(matches!(
            check(rules("0.01"), Side::Buy, OrderType::Gtc, u64::MAX / 10_000 * 10_000, 10_000),
            Err(Refusal::Price { .. })
        ));
    }

    /// (tick, side, order type, maker, taker, Ok or the service's whole text).
    type Case = (&'static str, Side, OrderType, &'static str, &'static str, Result<(), &'static str>);

    #[test]
    fn amounts_are_accepted_or_refused_with_the_services_text() {
        use OrderType::{Fak, Fok, Gtc, Gtd};
        use Side::{Buy, Sell};
        let table: &[Case] = &[
            // Resting orders: shares 2 decimals, cash the tick's, price on the tick within [tick, 1 − tick], size at
            // least the minimum.
            ("0.01", Buy, Gtc, "11.1944", "19.99", Ok(())),
            ("0.01", Sell, Gtd, "19.99", "11.1944", Ok(())),
            ("0.1", Buy, Gtc, "10.52", "21.04", Ok(())),
            ("0.001", Buy, Gtc, "5.70057", "100.01", Ok(())),
            ("0.0001", Sell, Gtc, "9999.99", "6.999993", Ok(())),
            ("0.005", Buy, Gtc, "6.965", "7", Ok(())),
            ("0.0025", Sell, Gtc, "5", "0.0125", Ok(())),
            // Each accuracy text names both limits, whichever amount breaks its own.
            (
                "0.01",
                Buy,
                Gtc,
                "5",
                "10.001",
                Err("invalid amounts, the buy orders maker amount supports a max accuracy of 4 decimals, taker amount a max of 2 decimals"),
            ),
            (
                "0.01",
                Buy,
                Gtd,
                "5.00001",
                "10",
                Err("invalid amounts, the buy orders maker amount supports a max accuracy of 4 decimals, taker amount a max of 2 decimals"),
            ),
            (
                "0.001",
                Buy,
                Gtc,
                "5.000001",
                "10",
                Err("invalid amounts, the buy orders maker amount supports a max accuracy of 5 decimals, taker amount a max of 2 decimals"),
            ),
            (
                "0.01",
                Sell,
                Gtc,
                "10.001",
                "5",
                Err("invalid amounts, the sell orders maker amount supports a max accuracy of 2 decimals, taker amount a max of 4 decimals"),
            ),
            (
                "0.1",
                Sell,
                Gtc,
                "10",
                "5.0001",
                Err("invalid amounts, the sell orders maker amount supports a max accuracy of 2 decimals, taker amount a max of 3 decimals"),
            ),
            // 1.74 shares at 0.58 is cash 1.0092: a GTC buy, refused as a FOK (py-clob-client issue 121).
            ("0.01", Buy, Gtc, "1.0092", "1.74", Err("order 0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef is invalid. Size (1.74) lower than the minimum: 5")),
            (
                "0.01",
                Buy,
                Fok,
                "1.0092",
                "1.74",
                Err("invalid amounts, the market buy orders maker amount supports a max accuracy of 2 decimals, taker amount a max of 4 decimals"),
            ),
            // Off the tick: 10 for 10.2 shares on 0.001 (the okx/plugin-store report), 5.05 for 10 on 0.01.
            ("0.001", Buy, Gtc, "10", "10.2", Err("order 0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef is invalid. Price (0.9803921568627451) breaks minimum tick size rule: 0.001")),
            ("0.01", Buy, Gtc, "5.05", "10", Err("order 0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef is invalid. Price (0.505) breaks minimum tick size rule: 0.01")),
            ("0.01", Buy, Gtc, "1", "3", Err("order 0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef is invalid. Price (0.3333333333333333) breaks minimum tick size rule: 0.01")),
            ("0.005", Buy, Gtc, "0.07", "10", Err("order 0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef is invalid. Price (0.007) breaks minimum tick size rule: 0.005")),
            ("0.01", Buy, Gtc, "10", "10", Err("invalid price (1), min: 0.01 - max: 0.99")),
            ("0.01", Sell, Gtc, "10", "10", Err("invalid price (1), min: 0.01 - max: 0.99")),
            ("0.01", Buy, Gtc, "2.495", "4.99", Err("order 0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef is invalid. Size (4.99) lower than the minimum: 5")),
            ("0.01", Buy, Gtc, "0", "10", Err("invalid amounts, the maker and taker amounts must be greater than 0")),
            ("0.02", Buy, Gtc, "5", "10", Err("invalid amounts, the market's tick size (0.02) is not one of 0.1, 0.01, 0.001, 0.0001, 0.005, 0.0025")),
            // FOK/FAK: maker 2 decimals, taker 4, at every tick; no tick rule and no minimum size.
            ("0.01", Buy, Fok, "10", "30.303", Ok(())),
            ("0.001", Buy, Fak, "10", "30.03", Ok(())),
            ("0.001", Buy, Fak, "9.98", "10.1319", Ok(())),
            ("0.0001", Buy, Fok, "1", "3333.3333", Ok(())),
            ("0.01", Buy, Fok, "0.01", "0.0101", Ok(())),
            ("0.01", Buy, Fak, "1", "1.0101", Ok(())),
            (
                "0.001",
                Buy,
                Fak,
                "9.98",
                "10.13197",
                Err("invalid amounts, the market buy orders maker amount supports a max accuracy of 2 decimals, taker amount a max of 4 decimals"),
            ),
            (
                "0.01",
                Buy,
                Fok,
                "10.001",
                "20",
                Err("invalid amounts, the market buy orders maker amount supports a max accuracy of 2 decimals, taker amount a max of 4 decimals"),
            ),
            ("0.01", Buy, Fok, "10", "10.01", Err("invalid price (0.999000999000999), min: 0.01 - max: 0.99")),
            ("0.01", Buy, Fok, "1", "101", Err("invalid price (0.009900990099009901), min: 0.01 - max: 0.99")),
            ("0.01", Sell, Fok, "10.01", "3.3033", Ok(())),
            ("0.001", Sell, Fak, "10.01", "0.01", Ok(())),
            ("0.01", Sell, Fok, "4", "2", Ok(())),
            (
                "0.01",
                Sell,
                Fak,
                "10.001",
                "3",
                Err("invalid amounts, the market sell orders maker amount supports a max accuracy of 2 decimals, taker amount a max of 4 decimals"),
            ),
            (
                "0.0001",
                Sell,
                Fok,
                "10",
                "3.00001",
                Err("invalid amounts, the market sell orders maker amount supports a max accuracy of 2 decimals, taker amount a max of 4 decimals"),
            ),
            ("0.01", Sell, Fok, "10", "9.95", Err("invalid price (0.995), min: 0.01 - max: 0.99")),
            ("0.01", Sell, Fok, "10", "0.09", Err("invalid price (0.009), min: 0.01 - max: 0.99")),
        ];
        assert!(!table.is_empty());
        for (tick, side, order_type, maker, taker, expected) in table {
            let got = check(rules(tick), *side, *order_type, u(maker), u(taker)).map_err(|r| r.text(ID));
            let expected = expected.map_err(str::to_owned);
            assert_eq!(got, expected, "{tick} {side:?} {order_type:?} {maker}/{taker}");
        }
    }
}
