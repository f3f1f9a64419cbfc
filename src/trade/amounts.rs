//! An order's maker and taker amounts, in exact fixed point (10^-6 units, as the exchange counts them),
//! and every rule the service enforces on them, checked before anything is signed or sent.
//!
//! The upstream clients compute `size × price` in binary floating point and then round, so an order can
//! carry more decimals than the service takes ("invalid amounts"); here the products are integers. For a
//! tick size the upstream `ROUNDING_CONFIG` gives price decimals `p`, size decimals 2 and amount decimals
//! `a = p + 2`: shares carry at most 2 decimals, cash at most `a`, so a limit order's `size × price` is
//! always exact. A market buy divides cash by the price: its shares are cut (never rounded up) to `a`
//! decimals, so the order never asks for more than the cash pays for.

use crate::book::math::ROUNDING_CONFIG;
use crate::book::{fixed, OrderType, Side};
use crate::error::Error;

/// Units of one share or one unit of cash.
const ONE: u64 = fixed::SCALE;

/// The decimals a market with this tick size takes: `(price, size, amount)`. `None` for a tick size
/// the service does not use.
pub fn decimals(tick: u64) -> Option<(u32, u32, u32)> {
    ROUNDING_CONFIG.iter().find(|(text, ..)| fixed::parse(text.as_bytes()) == Some(tick)).map(|&(_, p, s, a)| (p, s, a))
}

/// Whether `units` has at most `places` decimals.
pub fn has_decimals(units: u64, places: u32) -> bool {
    places >= 6 || units % 10u64.pow(6 - places) == 0
}

/// What the service knows of a market that shapes an order: from GET /clob-markets (`mts`, `mos`, `nr`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MarketRules {
    /// Minimum tick size, in units.
    pub tick: u64,
    /// Minimum order size in shares, in units (0 when the market gives none).
    pub min_size: u64,
    pub neg_risk: bool,
}

impl MarketRules {
    fn decimals(&self) -> Result<(u32, u32, u32), Error> {
        decimals(self.tick).ok_or_else(|| {
            Error::invalid(
                "tickSize",
                "is not a tick size the service uses (0.1, 0.01, 0.001, 0.0001, 0.005 or 0.0025)",
            )
        })
    }

    /// `tick ≤ price ≤ 1 − tick`, on the tick.
    pub fn check_price(&self, price: u64) -> Result<(), Error> {
        self.decimals()?;
        if price < self.tick || price > ONE.saturating_sub(self.tick) {
            return Err(Error::invalid("price", "must be between the tick size and 1 − tick size"));
        }
        if price % self.tick != 0 {
            return Err(Error::invalid("price", "must be a multiple of the market's tick size"));
        }
        Ok(())
    }
}

/// An order's amounts in units: what the maker gives and what it gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Amounts {
    pub maker: u64,
    pub taker: u64,
}

impl Amounts {
    /// Shares and cash of the order, whichever side gives which.
    pub fn shares_and_cash(&self, side: Side) -> (u64, u64) {
        match side {
            Side::Buy => (self.taker, self.maker),
            Side::Sell => (self.maker, self.taker),
        }
    }
}

/// `a × b` for two decimals in units, when the product is whole units.
fn product(a: u64, b: u64) -> Result<u64, Error> {
    let p = u128::from(a) * u128::from(b);
    if p % u128::from(ONE) != 0 {
        return Err(Error::invalid("size", "gives an amount with more than six decimals"));
    }
    u64::try_from(p / u128::from(ONE)).map_err(|_| Error::invalid("size", "is too large"))
}

/// The time-in-force rules every order follows: `postOnly` only for orders that rest (GTC, GTD), an
/// expiration only for GTD, and a GTD's at least a minute ahead (the service's own margin).
pub fn check_terms(order_type: OrderType, post_only: bool, expiration: u64, now_s: u64) -> Result<(), Error> {
    if post_only && matches!(order_type, OrderType::Fok | OrderType::Fak) {
        return Err(Error::invalid("postOnly", "is only for GTC and GTD orders (a FOK or FAK order never rests)"));
    }
    match order_type {
        OrderType::Gtd if expiration < now_s.saturating_add(60) => {
            Err(Error::invalid("expiration", "of a GTD order must be a time in seconds at least a minute ahead"))
        }
        OrderType::Gtd => Ok(()),
        _ if expiration != 0 => Err(Error::invalid("expiration", "is only for GTD orders")),
        _ => Ok(()),
    }
}

/// A limit order: `size` shares at `price`. Sizes carry at most 2 decimals and are refused, not rounded,
/// when they carry more: an order is placed for exactly what was asked.
pub fn limit(rules: &MarketRules, side: Side, price: u64, size: u64) -> Result<Amounts, Error> {
    let (_, size_places, amount_places) = rules.decimals()?;
    rules.check_price(price)?;
    if !has_decimals(size, size_places) {
        return Err(Error::invalid("size", "takes at most 2 decimals"));
    }
    if size == 0 || size < rules.min_size {
        return Err(Error::invalid("size", "is under the market's minimum order size"));
    }
    let cash = product(size, price)?;
    // Always true: price has `p` decimals, size 2, and `a = p + 2`. Checked so a change to the table
    // cannot send an order the service refuses.
    if !has_decimals(cash, amount_places) || cash == 0 {
        return Err(Error::invalid("size", "gives a cash amount the service does not take at this tick size"));
    }
    Ok(match side {
        Side::Buy => Amounts { maker: cash, taker: size },
        Side::Sell => Amounts { maker: size, taker: cash },
    })
}

/// A market order at the (worst) `price`: a buy spends `amount` cash, a sell gives `amount` shares. Both
/// carry at most 2 decimals. A buy's shares are `amount / price` cut to the tick size's amount decimals.
pub fn market(rules: &MarketRules, side: Side, price: u64, amount: u64) -> Result<Amounts, Error> {
    let (_, size_places, amount_places) = rules.decimals()?;
    rules.check_price(price)?;
    if amount == 0 {
        return Err(Error::invalid("amount", "must be greater than 0"));
    }
    if !has_decimals(amount, size_places) {
        return Err(Error::invalid("amount", "takes at most 2 decimals"));
    }
    match side {
        Side::Buy => {
            let step = 10u64.pow(6u32.saturating_sub(amount_places));
            let shares = u128::from(amount) * u128::from(ONE) / u128::from(price);
            let shares = u64::try_from(shares - shares % u128::from(step))
                .map_err(|_| Error::invalid("amount", "is too large"))?;
            if shares == 0 {
                return Err(Error::invalid("amount", "buys less than the smallest amount of shares"));
            }
            Ok(Amounts { maker: amount, taker: shares })
        }
        Side::Sell => {
            if amount < rules.min_size {
                return Err(Error::invalid("amount", "is under the market's minimum order size"));
            }
            let cash = product(amount, price)?;
            if cash == 0 || !has_decimals(cash, amount_places) {
                return Err(Error::invalid(
                    "amount",
                    "gives a cash amount the service does not take at this tick size",
                ));
            }
            Ok(Amounts { maker: amount, taker: cash })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn rules(tick: u64) -> MarketRules {
        MarketRules { tick, min_size: 5 * ONE, neg_risk: false }
    }

    fn u(text: &str) -> u64 {
        fixed::parse(text.as_bytes()).unwrap()
    }

    #[test]
    fn limit_orders_are_exact_where_floats_are_not() {
        // (tick, side, price, size, maker, taker). 0.56 × 19.99 = 11.1944; in floating point
        // 11.194399999999998, which the upstream rounding has to repair.
        let table = [
            ("0.01", Side::Buy, "0.56", "19.99", "11.1944", "19.99"),
            ("0.01", Side::Sell, "0.56", "19.99", "19.99", "11.1944"),
            ("0.1", Side::Buy, "0.5", "21.04", "10.52", "21.04"),
            ("0.001", Side::Buy, "0.057", "100.01", "5.70057", "100.01"),
            ("0.0001", Side::Sell, "0.0007", "9999.99", "9999.99", "6.999993"),
            ("0.005", Side::Buy, "0.995", "7", "6.965", "7"),
            ("0.0025", Side::Sell, "0.0025", "5", "5", "0.0125"),
        ];
        for (tick, side, price, size, maker, taker) in table {
            let got = limit(&rules(u(tick)), side, u(price), u(size)).unwrap();
            assert_eq!(got, Amounts { maker: u(maker), taker: u(taker) }, "{tick} {side:?} {price} {size}");
        }
    }

    #[test]
    fn limit_orders_the_service_would_refuse_are_refused() {
        let r = rules(u("0.01"));
        let table = [
            ("0.005", "10", "price"), // off the tick
            ("0.001", "10", "price"), // under the tick
            ("0", "10", "price"),
            ("0.995", "10", "price"),  // off the tick
            ("1", "10", "price"),      // over 1 − tick
            ("0.5", "10.001", "size"), // three decimals
            ("0.5", "4.99", "size"),   // under the minimum
            ("0.5", "0", "size"),
        ];
        for (price, size, param) in table {
            let e = limit(&r, Side::Buy, u(price), u(size)).unwrap_err();
            assert_eq!(e.param.as_deref(), Some(param), "{price} {size}: {e}");
        }
        assert!(limit(&r, Side::Buy, u("0.99"), u("5")).is_ok());
        assert!(limit(&r, Side::Buy, u("0.01"), u("5")).is_ok());
        let e = limit(&rules(u("0.02")), Side::Buy, u("0.5"), u("10")).unwrap_err();
        assert_eq!(e.param.as_deref(), Some("tickSize"));
    }

    #[test]
    fn market_buys_cut_shares_to_the_amount_decimals() {
        // 10 / 0.33 = 30.303030…: 4 decimals at tick 0.01, cut.
        let got = market(&rules(u("0.01")), Side::Buy, u("0.33"), u("10")).unwrap();
        assert_eq!(got, Amounts { maker: u("10"), taker: u("30.303") });
        let got = market(&rules(u("0.001")), Side::Buy, u("0.333"), u("10")).unwrap();
        assert_eq!(got, Amounts { maker: u("10"), taker: u("30.03003") });
        let got = market(&rules(u("0.0001")), Side::Buy, u("0.0003"), u("1")).unwrap();
        assert_eq!(got, Amounts { maker: u("1"), taker: u("3333.333333") });
        // A sell is shares × price, exact.
        let got = market(&rules(u("0.01")), Side::Sell, u("0.33"), u("10.01")).unwrap();
        assert_eq!(got, Amounts { maker: u("10.01"), taker: u("3.3033") });
        for (side, amount, param) in
            [(Side::Buy, "10.001", "amount"), (Side::Buy, "0", "amount"), (Side::Sell, "4", "amount")]
        {
            let e = market(&rules(u("0.01")), side, u("0.5"), u(amount)).unwrap_err();
            assert_eq!(e.param.as_deref(), Some(param), "{amount}");
        }
    }

    #[test]
    fn terms_follow_the_order_type() {
        let now = 1_700_000_000;
        assert!(check_terms(OrderType::Gtc, true, 0, now).is_ok());
        assert!(check_terms(OrderType::Gtd, true, now + 60, now).is_ok());
        assert!(check_terms(OrderType::Fok, false, 0, now).is_ok());
        let table = [
            (OrderType::Fok, true, 0, "postOnly"),
            (OrderType::Fak, true, 0, "postOnly"),
            (OrderType::Gtc, false, now + 3600, "expiration"),
            (OrderType::Fak, false, now + 3600, "expiration"),
            (OrderType::Gtd, false, 0, "expiration"),
            (OrderType::Gtd, false, now + 59, "expiration"),
        ];
        for (t, post_only, expiration, param) in table {
            assert_eq!(check_terms(t, post_only, expiration, now).unwrap_err().param.as_deref(), Some(param), "{t:?}");
        }
    }
}
