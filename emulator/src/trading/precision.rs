//! The service's precision rules for an order's amounts, written here independently of the client's builders
//! (`predictkit::trade::amounts`), so that a test can hold the two against each other.
//!
//! Amounts are in 10^-6 units of shares or cash. For a tick size, the upstream table gives the decimals of prices
//! `p`, of shares 2 and of cash `a = p + 2`. A limit order (GTC, GTD) names shares with at most 2 decimals and cash
//! with at most `a`, at a price on the tick. A market order (FOK, FAK) names what it gives with at most 2 decimals
//! (a buy's cash, a sell's shares) and what it gets with at most `a`; a market buy's shares are its cash divided by
//! its worst price and cut to `a` decimals, so its implied price may sit off the tick and a little above it.

use predictkit::book::Side;

use crate::text::decimal;

/// Units in one share or one unit of cash.
const ONE: u64 = 1_000_000;

/// `(price, shares, cash)` decimals of the tick sizes the service uses (tick in units).
pub fn decimals(tick: u64) -> Option<(u32, u32, u32)> {
    match tick {
        100_000 => Some((1, 2, 3)),
        10_000 => Some((2, 2, 4)),
        1_000 => Some((3, 2, 5)),
        100 => Some((4, 2, 6)),
        5_000 => Some((3, 2, 5)),
        2_500 => Some((4, 2, 6)),
        _ => None,
    }
}

/// Whether `units` has at most `places` decimals.
fn within(units: u64, places: u32) -> bool {
    places >= 6 || units.is_multiple_of(10u64.pow(6 - places))
}

/// `num / den` (both in units) as a decimal for messages: exact up to 6 decimals, else to 6 decimals and marked.
fn ratio(num: u64, den: u64) -> String {
    let scaled = u128::from(num) * u128::from(ONE);
    let den = u128::from(den.max(1));
    let text = match u64::try_from(scaled / den) {
        Ok(value) => decimal(value, 6),
        Err(_) => "more than 10^13".to_owned(),
    };
    if scaled % den == 0 {
        text
    } else {
        format!("~{text}")
    }
}

/// What the market asks of an order: its current tick size and minimum order size (both in units).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub tick: u64,
    pub min_size: u64,
}

/// Checks an order's amounts against the market's rules; the reason the service gives when they break one.
/// `market` is true for FOK and FAK orders.
pub fn check(rules: Rules, side: Side, market: bool, maker: u64, taker: u64) -> Result<(), String> {
    let Rules { tick, min_size } = rules;
    let Some((_, share_places, cash_places)) = decimals(tick) else {
        return Err(format!(
            "invalid amounts, the market's tick size ({}) is not one of 0.1, 0.01, 0.001, 0.0001, 0.005, 0.0025",
            decimal(tick, 6)
        ));
    };
    if maker == 0 || taker == 0 {
        return Err("invalid amounts, the maker and taker amounts must be greater than 0".into());
    }
    let (shares, cash) = match side {
        Side::Buy => (taker, maker),
        Side::Sell => (maker, taker),
    };
    let (shares_name, cash_name) = match side {
        Side::Buy => ("taker amount (shares)", "maker amount (cash)"),
        Side::Sell => ("maker amount (shares)", "taker amount (cash)"),
    };
    let kind = match (market, side) {
        (false, Side::Buy) => "buy order's",
        (false, Side::Sell) => "sell order's",
        (true, Side::Buy) => "market buy order's",
        (true, Side::Sell) => "market sell order's",
    };
    let accuracy = |name: &str, places: u32| {
        format!("invalid amounts, the {kind} {name} supports a max accuracy of {places} decimals")
    };
    let min_size_rule = || {
        (shares < min_size).then(|| {
            format!(
                "invalid amounts, the size ({}) is lower than the minimum: {}",
                decimal(shares, 6),
                decimal(min_size, 6)
            )
        })
    };
    let (lo, hi) = (tick, ONE - tick);
    let out_of_range = |price: String| {
        format!("invalid amounts, the price ({price}) must be between {} and {}", decimal(lo, 6), decimal(hi, 6))
    };
    let wide = |a: u64, b: u64| u128::from(a) * u128::from(b);

    if !market || side == Side::Sell {
        // Shares are what a limit order names, and what a market sell gives: at most 2 decimals.
        if !within(shares, share_places) {
            return Err(accuracy(shares_name, share_places));
        }
        if !within(cash, cash_places) {
            return Err(accuracy(cash_name, cash_places));
        }
    } else {
        // A market buy gives cash (2 decimals) and gets shares (`a` decimals).
        if !within(cash, share_places) {
            return Err(accuracy(cash_name, share_places));
        }
        if !within(shares, cash_places) {
            return Err(accuracy(shares_name, cash_places));
        }
    }
    if !market {
        // price = cash / shares, exactly on the tick.
        if wide(cash, ONE) % u128::from(shares) != 0 {
            return Err(format!(
                "invalid amounts, the price ({}) breaks the minimum tick size rule: {}",
                ratio(cash, shares),
                decimal(tick, 6)
            ));
        }
        let price = wide(cash, ONE) / u128::from(shares);
        if !price.is_multiple_of(u128::from(tick)) {
            return Err(format!(
                "invalid amounts, the price ({}) breaks the minimum tick size rule: {}",
                ratio(cash, shares),
                decimal(tick, 6)
            ));
        }
        if price < u128::from(lo) || price > u128::from(hi) {
            return Err(out_of_range(ratio(cash, shares)));
        }
        return min_size_rule().map_or(Ok(()), Err);
    }
    match side {
        Side::Sell => {
            if let Some(e) = min_size_rule() {
                return Err(e);
            }
            // lo ≤ cash / shares ≤ hi.
            if wide(cash, ONE) < wide(lo, shares) || wide(cash, ONE) > wide(hi, shares) {
                return Err(out_of_range(ratio(cash, shares)));
            }
        }
        Side::Buy => {
            // cash / shares ≥ lo; and the shares are at least what the highest price buys, cut to `a` decimals:
            // (shares + one step) × hi > cash.
            let step = 10u64.pow(6u32.saturating_sub(cash_places));
            if wide(cash, ONE) < wide(lo, shares)
                || (u128::from(shares) + u128::from(step)) * u128::from(hi) <= wide(cash, ONE)
            {
                return Err(out_of_range(ratio(cash, shares)));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(text: &str) -> u64 {
        crate::stream::book::parse_fixed(text, 6).unwrap()
    }

    fn rules(tick: &str) -> Rules {
        Rules { tick: u(tick), min_size: u("5") }
    }

    #[test]
    fn the_tick_table() {
        let table = [
            ("0.1", (1, 2, 3)),
            ("0.01", (2, 2, 4)),
            ("0.001", (3, 2, 5)),
            ("0.0001", (4, 2, 6)),
            ("0.005", (3, 2, 5)),
            ("0.0025", (4, 2, 6)),
        ];
        for (tick, d) in table {
            assert_eq!(decimals(u(tick)), Some(d), "{tick}");
        }
        for tick in ["0.02", "0.00001", "0.000001", "1"] {
            assert_eq!(decimals(u(tick)), None, "{tick}");
        }
    }

    #[test]
    fn extreme_amounts_are_refused_not_overflowed() {
        for side in [Side::Buy, Side::Sell] {
            for market in [false, true] {
                for (maker, taker) in
                    [(u64::MAX, 1), (1, u64::MAX), (u64::MAX, u64::MAX), (u64::MAX / 10_000 * 10_000, 10_000)]
                {
                    let _ = check(rules("0.01"), side, market, maker, taker);
                }
            }
        }
        assert!(check(rules("0.01"), Side::Buy, false, u64::MAX / 10_000 * 10_000, 10_000)
            .unwrap_err()
            .contains("must be between"));
    }

    /// (tick, side, market, maker, taker, Ok or a piece of the reason).
    type Case = (&'static str, Side, bool, &'static str, &'static str, Result<(), &'static str>);

    #[test]
    fn amounts_are_accepted_or_refused_with_a_reason() {
        use Side::{Buy, Sell};
        let table: &[Case] = &[
            // Limit orders: shares 2 decimals, cash `a`, price on the tick within [tick, 1 − tick], size ≥ minimum.
            ("0.01", Buy, false, "11.1944", "19.99", Ok(())),
            ("0.01", Sell, false, "19.99", "11.1944", Ok(())),
            ("0.1", Buy, false, "10.52", "21.04", Ok(())),
            ("0.001", Buy, false, "5.70057", "100.01", Ok(())),
            ("0.0001", Sell, false, "9999.99", "6.999993", Ok(())),
            ("0.005", Buy, false, "6.965", "7", Ok(())),
            ("0.0025", Sell, false, "5", "0.0125", Ok(())),
            ("0.01", Buy, false, "5", "10.001", Err("taker amount (shares) supports a max accuracy of 2")),
            ("0.01", Sell, false, "10.001", "5", Err("maker amount (shares) supports a max accuracy of 2")),
            ("0.01", Buy, false, "5.00001", "10", Err("maker amount (cash) supports a max accuracy of 4")),
            ("0.1", Sell, false, "10", "5.0001", Err("taker amount (cash) supports a max accuracy of 3")),
            ("0.01", Buy, false, "5.05", "10", Err("breaks the minimum tick size rule")),
            ("0.01", Buy, false, "1", "3", Err("breaks the minimum tick size rule")),
            ("0.01", Buy, false, "9.95", "10", Err("breaks the minimum tick size rule")),
            ("0.01", Buy, false, "10", "10", Err("must be between 0.01 and 0.99")),
            ("0.01", Sell, false, "10", "10", Err("must be between 0.01 and 0.99")),
            ("0.01", Buy, false, "2.495", "4.99", Err("lower than the minimum: 5")),
            ("0.01", Buy, false, "0", "10", Err("greater than 0")),
            ("0.02", Buy, false, "5", "10", Err("tick size (0.02)")),
            // Market buys: cash 2 decimals, shares `a` (cut), the price at least the tick and at most 1 − tick but
            // for the cut.
            ("0.01", Buy, true, "10", "30.303", Ok(())),
            ("0.001", Buy, true, "10", "30.03003", Ok(())),
            ("0.0001", Buy, true, "1", "3333.333333", Ok(())),
            ("0.01", Buy, true, "0.01", "0.0101", Ok(())),
            ("0.01", Buy, true, "10.001", "20", Err("maker amount (cash) supports a max accuracy of 2")),
            ("0.01", Buy, true, "10", "30.30303", Err("taker amount (shares) supports a max accuracy of 4")),
            ("0.01", Buy, true, "10", "10.01", Err("must be between")),
            ("0.01", Buy, true, "1", "101", Err("must be between")),
            // Market sells: shares 2 decimals and at least the minimum, cash `a`.
            ("0.01", Sell, true, "10.01", "3.3033", Ok(())),
            ("0.01", Sell, true, "10.001", "3", Err("maker amount (shares) supports a max accuracy of 2")),
            ("0.01", Sell, true, "10", "3.00001", Err("taker amount (cash) supports a max accuracy of 4")),
            ("0.01", Sell, true, "4", "2", Err("lower than the minimum")),
            ("0.01", Sell, true, "10", "9.95", Err("must be between")),
        ];
        for (tick, side, market, maker, taker, expected) in table {
            let got = check(rules(tick), *side, *market, u(maker), u(taker));
            match (expected, &got) {
                (Ok(()), Ok(())) => {}
                (Err(piece), Err(reason)) => {
                    assert!(reason.contains(piece), "{tick} {side:?} {maker}/{taker}: {reason:?} lacks {piece:?}");
                    assert!(reason.starts_with("invalid amounts, "), "{reason}");
                }
                _ => panic!("{tick} {side:?} market={market} {maker}/{taker}: expected {expected:?}, got {got:?}"),
            }
        }
    }
}
