//! An order's maker and taker amounts, in exact fixed point (10^-6 units, as the exchange counts them),
//! and every rule the service enforces on them, checked before anything is signed or sent.
//!
//! The upstream clients compute `size × price` in binary floating point and then round, so an order can
//! carry more decimals than the service takes ("invalid amounts"); here the products are integers.
//!
//! The service's precision depends on the order type:
//! - **Resting orders (GTC, GTD)**: shares with at most 2 decimals, cash with at most the tick size's
//!   amount decimals `a` (the upstream `ROUNDING_CONFIG`: prices `p` decimals, `a = p + 2`: tick 0.1 → 3,
//!   0.01 → 4, 0.001 → 5, 0.0001 → 6). A limit order's `size × price` always meets it.
//! - **Orders that take at once (FOK, FAK)**: a maker amount of at most 2 decimals and a taker amount of
//!   at most 4, whatever the tick size. A limit-priced FOK/FAK order is built exactly or not at all: when
//!   `size × price` has too many decimals (a buy's cash over 2, a sell's over 4) it is refused, and the
//!   refusal names the nearest sizes that are exact. A market order's taker amount (a buy's shares,
//!   `cash / price`; a sell's cash, `shares × price`) is cut, never rounded up, to 4 decimals: the order
//!   never asks for more than its amount gets at its worst price. That cut is the only rounding.
//!
//! Every order built here meets the rule of its order type and tick size (`tests/trade_props.rs`).

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
        let top = ONE.saturating_sub(self.tick);
        if price < self.tick || price > top {
            return Err(values(
                Error::invalid("price", "must be between the tick size and 1 − tick size"),
                &[self.tick, top],
            ));
        }
        if price % self.tick != 0 {
            let below = price - price % self.tick;
            let e = values(Error::invalid("price", "must be a multiple of the market's tick size"), &[self.tick]);
            return Err(naming(
                e,
                "price",
                Some(below).filter(|&b| b >= self.tick),
                Some(below + self.tick).filter(|&a| a <= top),
            ));
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
            let mut e =
                Error::invalid("expiration", "of a GTD order must be a time in seconds at least a minute ahead, from ");
            e.message = crate::text::concat(&[&e.message, &crate::text::decimal(now_s.saturating_add(60))]).into();
            Err(e)
        }
        OrderType::Gtd => Ok(()),
        _ if expiration != 0 => Err(Error::invalid("expiration", "is only for GTD orders")),
        _ => Ok(()),
    }
}

/// The decimals of a FOK or FAK order's maker amount, whatever the tick size.
pub const TAKING_MAKER_PLACES: u32 = 2;
/// The decimals of a FOK or FAK order's taker amount, whatever the tick size.
pub const TAKING_TAKER_PLACES: u32 = 4;
/// Shares carry at most 2 decimals in a size or a market sell's amount.
const SIZE_PLACES: u32 = 2;

/// Whether an order of this type takes at once (FOK, FAK) rather than rests (GTC, GTD).
fn takes(order_type: OrderType) -> bool {
    matches!(order_type, OrderType::Fok | OrderType::Fak)
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The sizes whose cash at `price` has at most 2 decimals (`whole` 10^6) or 4 (`whole` 10^4) are the
/// multiples of this step (units). A size is `k` hundredths (`k × 10^4` units) and its cash `k × price / 100`
/// units, a multiple of `q = 10^(6 − places)` exactly when `k × price` is a multiple of `whole = 100 q`:
/// when `k` is a multiple of `whole / gcd(price, whole)`.
fn size_step(price: u64, whole: u64) -> u64 {
    whole / gcd(price, whole).max(1) * 10_000
}

/// The nearest sizes to `size` (units) on `step`: the one at or below (`None` when that is 0 or under
/// `min_size`) and the one above.
fn nearest_sizes(size: u64, step: u64, min_size: u64) -> (Option<u64>, u64) {
    let below = size - size % step.max(1);
    (Some(below).filter(|&b| b > 0 && b >= min_size), below.saturating_add(step))
}

/// A decimal's text from its units: `1500000` is "1.5".
pub(crate) fn units_text(units: u64) -> String {
    let mut out = Vec::new();
    fixed::format(units, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// The refusal of a FOK or FAK limit order whose `size × price` cannot be exact, naming the nearest
/// sizes that are.
#[inline(never)]
fn inexact_size(side: Side, size: u64, price: u64, min_size: u64) -> Error {
    let whole = if side == Side::Buy { 1_000_000 } else { 10_000 };
    let (below, above) = nearest_sizes(size, size_step(price, whole), min_size);
    naming(
        Error::invalid("size", "of a FOK/FAK order needs cash (size × price) of 2 decimals to buy, 4 to sell"),
        "exact size",
        below,
        Some(above),
    )
}

/// `e` with the values of its rule for this market appended to its message: " (0.01 to 0.99)", " (5)".
fn values(mut e: Error, values: &[u64]) -> Error {
    let mut text = e.message.into_owned().into_bytes();
    text.extend_from_slice(b" (");
    for (i, &v) in values.iter().enumerate() {
        if i > 0 {
            text.extend_from_slice(b" to ");
        }
        fixed::format(v, &mut text);
    }
    text.push(b')');
    e.message = String::from_utf8(text).unwrap_or_default().into();
    e
}

/// `e` with the nearest valid values appended to its message: "; nearest exact sizes: 1.5 and 2",
/// "; nearest amount: 2", or "; nearest price: none".
fn naming(mut e: Error, noun: &str, below: Option<u64>, above: Option<u64>) -> Error {
    let mut text = e.message.into_owned().into_bytes();
    text.extend_from_slice(b"; nearest ");
    text.extend_from_slice(noun.as_bytes());
    match (below, above) {
        (Some(below), Some(above)) => {
            text.extend_from_slice(b"s: ");
            fixed::format(below, &mut text);
            text.extend_from_slice(b" and ");
            fixed::format(above, &mut text);
        }
        (Some(one), None) | (None, Some(one)) => {
            text.extend_from_slice(b": ");
            fixed::format(one, &mut text);
        }
        (None, None) => text.extend_from_slice(b": none"),
    }
    e.message = String::from_utf8(text).unwrap_or_default().into();
    e
}

/// The refusal of a size or amount of 0 or with more than 2 decimals. A resting order's size also names the
/// nearest sizes it takes (on 0.01, at least the market's `min`): "size: must be at least 0.01, with at most 2
/// decimals; nearest sizes: 12.34 and 12.35". An order that takes at once names none here: which of its values
/// are exact depends on its price (its refusal of a 2-decimal value names those).
#[inline(never)]
fn hundredths(param: &'static str, value: u64, min: Option<u64>) -> Error {
    const STEP: u64 = ONE / 100;
    let e = Error::invalid(param, "must be at least 0.01, with at most 2 decimals");
    let Some(min) = min else { return e };
    let base = value - value % STEP;
    let least = min.div_ceil(STEP).max(1) * STEP;
    let below = Some(base).filter(|&b| b != value && b >= least);
    naming(e, param, below, Some((base + STEP).max(least)))
}

/// A limit order: `size` shares at `price`. Sizes carry at most 2 decimals and are refused, not rounded,
/// when they carry more: an order is placed for exactly what was asked. A FOK or FAK order is also refused
/// when its cash cannot meet the service's rule for those types (see the module's docs).
pub fn limit(rules: &MarketRules, order_type: OrderType, side: Side, price: u64, size: u64) -> Result<Amounts, Error> {
    let (_, _, amount_places) = rules.decimals()?;
    rules.check_price(price)?;
    let min = minimum(rules, order_type);
    let rests = (!takes(order_type)).then_some(min);
    if !has_decimals(size, SIZE_PLACES) {
        return Err(hundredths("size", size, rests));
    }
    if size == 0 || size < min {
        return Err(if min == 0 {
            hundredths("size", 0, rests)
        } else {
            values(Error::invalid("size", "is under the market's minimum order size"), &[min])
        });
    }
    let cash = product(size, price)?;
    // Shares have 2 decimals, which every rule takes: only the cash can break one. It is a FOK or FAK buy's
    // maker amount (2 decimals), a sell's taker amount (4), and a resting order's cash (the tick's
    // decimals, which `size × price` always meets; checked so a change to the table cannot send an order
    // the service refuses).
    let cash_places = match (takes(order_type), side) {
        (true, Side::Buy) => TAKING_MAKER_PLACES,
        (true, Side::Sell) => TAKING_TAKER_PLACES,
        (false, _) => amount_places,
    };
    if !has_decimals(cash, cash_places) || cash == 0 {
        return Err(if takes(order_type) && cash != 0 {
            inexact_size(side, size, price, min)
        } else {
            Error::invalid("size", "gives a cash amount the service does not take at this tick size")
        });
    }
    Ok(match side {
        Side::Buy => Amounts { maker: cash, taker: size },
        Side::Sell => Amounts { maker: size, taker: cash },
    })
}

/// The market's minimum order size (shares) for an order of `order_type`: only orders that may rest (GTC, GTD)
/// take it. The service refuses a resting order under it ("order … is invalid. Size (1.08) lower than the
/// minimum: 5", docs.polymarket.com's error codes; py-clob-client issue 301, whose reporter had placed more
/// than 140 fill-and-kill orders of 1.2 shares on the same markets), and its users report no share minimum for
/// the orders that take at once (the same thread: "minimum 5 shares for limited order types like GTC GTD";
/// nautilus_trader issue 3874: a market order's minimum is its amount, not the shares').
fn minimum(rules: &MarketRules, order_type: OrderType) -> u64 {
    if takes(order_type) {
        0
    } else {
        rules.min_size
    }
}

/// A market order's type: FOK or FAK. A resting market order is not one: `buildOrder` makes a GTC or GTD
/// order at a price, with exact amounts.
pub fn check_market_type(order_type: OrderType) -> Result<(), Error> {
    if takes(order_type) {
        Ok(())
    } else {
        Err(Error::invalid("orderType", "of a market order must be \"FOK\" or \"FAK\""))
    }
}

/// `units` cut (never rounded up) to `places` decimals.
fn cut(units: u128, places: u32) -> u128 {
    let step = u128::from(10u64.pow(6u32.saturating_sub(places)));
    units - units % step
}

/// A market order's taker amount for `amount` at `price`, cut to 4 decimals: a buy's shares `amount / price`,
/// a sell's cash `amount × price`.
fn market_taker(side: Side, price: u64, amount: u64) -> u128 {
    let (a, p, one) = (u128::from(amount), u128::from(price), u128::from(ONE));
    cut(
        match side {
            Side::Buy => a * one / p.max(1),
            Side::Sell => a * p / one,
        },
        TAKING_TAKER_PLACES,
    )
}

/// Whether a market order of `amount` getting `taker` keeps within the user's worst `price`: no price level a
/// tick or more beyond it can fill the order. The cut taker amount makes the implied price (a buy's
/// `amount / taker`, a sell's `taker / amount`) a little worse than `price`; the levels that can fill an order
/// are on the tick, so only a level at `price ± tick` would be worse, and the implied price must stay short of
/// it.
pub fn within_limit(side: Side, price: u64, tick: u64, amount: u64, taker: u64) -> bool {
    let (a, t, one) = (u128::from(amount), u128::from(taker), u128::from(ONE));
    taker > 0
        && match side {
            // amount / taker < price + tick
            Side::Buy => a * one < (u128::from(price) + u128::from(tick)) * t,
            // taker / amount > price − tick
            Side::Sell => t * one > u128::from(price.saturating_sub(tick)) * a,
        }
}

/// How far the nearest amounts that keep a market order within its limit are looked for, in hundredths. At
/// every tick size an amount of 1 or more keeps it (the cut is under 0.0001 of the taker amount).
const NEAREST_SEARCH: u64 = 1_000;

/// The nearest amounts (2 decimals) to `amount` whose order keeps within the limit: the one below (none under
/// `min`) and the one above.
fn nearest_within_limit(side: Side, price: u64, tick: u64, amount: u64, min: u64) -> (Option<u64>, Option<u64>) {
    const STEP: u64 = 10_000;
    let fits = |a: u64| within_limit(side, price, tick, a, u64::try_from(market_taker(side, price, a)).unwrap_or(0));
    let below = (1..=NEAREST_SEARCH)
        .map_while(|k| amount.checked_sub(k * STEP).filter(|&a| a > 0 && a >= min))
        .find(|&a| fits(a));
    let above = (1..=NEAREST_SEARCH).filter_map(|k| amount.checked_add(k * STEP)).find(|&a| fits(a));
    (below, above)
}

/// A market order (FOK or FAK) at the (worst) `price`: a buy spends `amount` cash, a sell gives `amount`
/// shares, both at most 2 decimals (refused, not rounded, when they carry more). The taker amount, a
/// buy's shares `amount / price` or a sell's cash `amount × price`, is cut to 4 decimals; one that cuts to
/// 0 is refused, and so is one whose cut would let a level beyond the user's price fill the order
/// ([`within_limit`]): the refusal names the nearest amounts that keep within it.
pub fn market(
    rules: &MarketRules,
    order_type: OrderType,
    side: Side,
    price: u64,
    amount: u64,
) -> Result<Amounts, Error> {
    check_market_type(order_type)?;
    // (check_price refuses a tick size the service does not use first.)
    rules.check_price(price)?;
    if amount == 0 || !has_decimals(amount, TAKING_MAKER_PLACES) {
        return Err(hundredths("amount", amount, None));
    }
    // A market order takes at once: no share minimum applies to it (see `minimum`).
    let min = 0;
    let taker =
        u64::try_from(market_taker(side, price, amount)).map_err(|_| Error::invalid("amount", "is too large"))?;
    if !within_limit(side, price, rules.tick, amount, taker) {
        let (below, above) = nearest_within_limit(side, price, rules.tick, amount, min);
        return Err(naming(
            Error::invalid("amount", "would fill beyond the price once its taker amount is cut to 4 decimals"),
            "amount",
            below,
            above,
        ));
    }
    Ok(Amounts { maker: amount, taker })
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
            let got = limit(&rules(u(tick)), OrderType::Gtc, side, u(price), u(size)).unwrap();
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
            let e = limit(&r, OrderType::Gtc, Side::Buy, u(price), u(size)).unwrap_err();
            assert_eq!(e.param.as_deref(), Some(param), "{price} {size}: {e}");
        }
        assert!(limit(&r, OrderType::Gtc, Side::Buy, u("0.99"), u("5")).is_ok());
        assert!(limit(&r, OrderType::Gtc, Side::Buy, u("0.01"), u("5")).is_ok());
        let e = limit(&rules(u("0.02")), OrderType::Gtc, Side::Buy, u("0.5"), u("10")).unwrap_err();
        assert_eq!(e.param.as_deref(), Some("tickSize"));
    }

    /// The refusal of a FOK or FAK limit order: `size`, and the nearest sizes it names.
    fn named_sizes(e: &Error) -> String {
        assert_eq!(e.param.as_deref(), Some("size"), "{e}");
        e.message.split("; ").nth(1).unwrap_or("").to_owned()
    }

    #[test]
    fn fok_and_fak_limit_orders_are_exact_or_refused_naming_the_nearest_exact_sizes() {
        use OrderType::*;
        use Side::*;
        // Issue 24: a FOK buy of 1.74 at 0.58 pays 1.0092 (4 decimals; a FOK maker takes 2). Sizes whose cash
        // at 0.58 has 2 decimals are the multiples of 0.5.
        let r = MarketRules { tick: u("0.01"), min_size: u("1"), neg_risk: false };
        let e = limit(&r, Fok, Buy, u("0.58"), u("1.74")).unwrap_err();
        assert_eq!(named_sizes(&e), "nearest exact sizes: 1.5 and 2");
        assert_eq!(limit(&r, Gtc, Buy, u("0.58"), u("1.74")).unwrap(), Amounts { maker: 1_009_200, taker: 1_740_000 });
        assert_eq!(limit(&r, Fok, Buy, u("0.58"), u("1.5")).unwrap(), Amounts { maker: u("0.87"), taker: u("1.5") });
        // The share minimum is a resting order's: a FAK under it is built (its inexact size still names both
        // exact sizes), a GTC under it is refused.
        let small = MarketRules { min_size: u("5"), ..r };
        let e = limit(&small, Fak, Buy, u("0.58"), u("1.74")).unwrap_err();
        assert_eq!(named_sizes(&e), "nearest exact sizes: 1.5 and 2");
        assert_eq!(
            limit(&small, Fak, Buy, u("0.58"), u("1.5")).unwrap(),
            Amounts { maker: u("0.87"), taker: u("1.5") }
        );
        assert!(limit(&small, Fok, Sell, u("0.58"), u("3")).is_ok());
        let e = limit(&small, Gtc, Buy, u("0.58"), u("3")).unwrap_err();
        assert_eq!(
            (e.param.as_deref(), &*e.message),
            (Some("size"), "size: is under the market's minimum order size (5)")
        );
        assert!(limit(&small, Gtd, Sell, u("0.58"), u("3")).is_err());

        // Every tick size × side × order type at a price with all the tick's decimals, 12.34 shares:
        // (tick, side, type, price, Ok((maker, taker)) or Err(the nearest sizes named)).
        let table = [
            ("0.1", Buy, Gtc, "0.3", Ok(("3.702", "12.34"))),
            ("0.1", Buy, Gtd, "0.3", Ok(("3.702", "12.34"))),
            ("0.1", Buy, Fok, "0.3", Err("nearest exact sizes: 12.3 and 12.4")), // 3.702
            ("0.1", Buy, Fak, "0.3", Err("nearest exact sizes: 12.3 and 12.4")),
            ("0.1", Sell, Gtc, "0.3", Ok(("12.34", "3.702"))),
            ("0.1", Sell, Gtd, "0.3", Ok(("12.34", "3.702"))),
            ("0.1", Sell, Fok, "0.3", Ok(("12.34", "3.702"))),
            ("0.1", Sell, Fak, "0.3", Ok(("12.34", "3.702"))),
            ("0.01", Buy, Gtc, "0.57", Ok(("7.0338", "12.34"))),
            ("0.01", Buy, Gtd, "0.57", Ok(("7.0338", "12.34"))),
            ("0.01", Buy, Fok, "0.57", Err("nearest exact sizes: 12 and 13")), // 7.0338
            ("0.01", Buy, Fak, "0.57", Err("nearest exact sizes: 12 and 13")),
            ("0.01", Sell, Gtc, "0.57", Ok(("12.34", "7.0338"))),
            ("0.01", Sell, Gtd, "0.57", Ok(("12.34", "7.0338"))),
            ("0.01", Sell, Fok, "0.57", Ok(("12.34", "7.0338"))),
            ("0.01", Sell, Fak, "0.57", Ok(("12.34", "7.0338"))),
            ("0.001", Buy, Gtc, "0.487", Ok(("6.00958", "12.34"))),
            ("0.001", Buy, Gtd, "0.487", Ok(("6.00958", "12.34"))),
            ("0.001", Buy, Fok, "0.487", Err("nearest exact sizes: 10 and 20")), // 6.00958
            ("0.001", Buy, Fak, "0.487", Err("nearest exact sizes: 10 and 20")),
            ("0.001", Sell, Gtc, "0.487", Ok(("12.34", "6.00958"))),
            ("0.001", Sell, Gtd, "0.487", Ok(("12.34", "6.00958"))),
            ("0.001", Sell, Fok, "0.487", Err("nearest exact sizes: 12.3 and 12.4")), // 6.00958: 5 decimals
            ("0.001", Sell, Fak, "0.487", Err("nearest exact sizes: 12.3 and 12.4")),
            ("0.0001", Buy, Gtc, "0.4871", Ok(("6.010814", "12.34"))),
            ("0.0001", Buy, Gtd, "0.4871", Ok(("6.010814", "12.34"))),
            ("0.0001", Buy, Fok, "0.4871", Err("nearest exact size: 100")), // only multiples of 100
            ("0.0001", Buy, Fak, "0.4871", Err("nearest exact size: 100")),
            ("0.0001", Sell, Gtc, "0.4871", Ok(("12.34", "6.010814"))),
            ("0.0001", Sell, Gtd, "0.4871", Ok(("12.34", "6.010814"))),
            ("0.0001", Sell, Fok, "0.4871", Err("nearest exact sizes: 12 and 13")),
            ("0.0001", Sell, Fak, "0.4871", Err("nearest exact sizes: 12 and 13")),
            ("0.005", Buy, Gtc, "0.485", Ok(("5.9849", "12.34"))),
            ("0.005", Buy, Gtd, "0.485", Ok(("5.9849", "12.34"))),
            ("0.005", Buy, Fok, "0.485", Err("nearest exact sizes: 12 and 14")),
            ("0.005", Buy, Fak, "0.485", Err("nearest exact sizes: 12 and 14")),
            ("0.005", Sell, Gtc, "0.485", Ok(("12.34", "5.9849"))),
            ("0.005", Sell, Gtd, "0.485", Ok(("12.34", "5.9849"))),
            ("0.005", Sell, Fok, "0.485", Ok(("12.34", "5.9849"))),
            ("0.005", Sell, Fak, "0.485", Ok(("12.34", "5.9849"))),
            ("0.0025", Buy, Gtc, "0.4875", Ok(("6.01575", "12.34"))),
            ("0.0025", Buy, Gtd, "0.4875", Ok(("6.01575", "12.34"))),
            ("0.0025", Buy, Fok, "0.4875", Err("nearest exact sizes: 12 and 12.8")),
            ("0.0025", Buy, Fak, "0.4875", Err("nearest exact sizes: 12 and 12.8")),
            ("0.0025", Sell, Gtc, "0.4875", Ok(("12.34", "6.01575"))),
            ("0.0025", Sell, Gtd, "0.4875", Ok(("12.34", "6.01575"))),
            ("0.0025", Sell, Fok, "0.4875", Err("nearest exact sizes: 12.32 and 12.36")),
            ("0.0025", Sell, Fak, "0.4875", Err("nearest exact sizes: 12.32 and 12.36")),
        ];
        assert_eq!(table.len(), 6 * 2 * 4);
        for (tick, side, t, price, want) in table {
            let got = limit(&rules(u(tick)), t, side, u(price), u("12.34"));
            match (got, want) {
                (Ok(got), Ok((maker, taker))) => {
                    assert_eq!(got, Amounts { maker: u(maker), taker: u(taker) }, "{tick} {side:?} {t:?}");
                }
                (Err(e), Err(named)) => assert_eq!(named_sizes(&e), named, "{tick} {side:?} {t:?}"),
                (got, _) => panic!("{tick} {side:?} {t:?}: {got:?}"),
            }
        }
    }

    #[test]
    fn size_steps_come_from_the_gcd() {
        // (price, whole, step): cash of 2 decimals is whole 10^6, of 4 is 10^4. At 0.58 and 2 decimals: 0.5;
        // 0.57: 1; 0.4871: 100.
        let table = [
            ("0.58", 1_000_000, "0.5"),
            ("0.57", 1_000_000, "1"),
            ("0.4871", 1_000_000, "100"),
            ("0.5", 1_000_000, "0.02"),
            ("0.25", 1_000_000, "0.04"),
            ("0.4875", 10_000, "0.04"),
            ("0.487", 10_000, "0.1"),
            ("0.3", 10_000, "0.01"),
            ("0.0001", 10_000, "1"),
        ];
        for (price, whole, step) in table {
            assert_eq!(size_step(u(price), whole), u(step), "{price} {whole}");
        }
        assert_eq!(nearest_sizes(u("1.74"), u("0.5"), 0), (Some(u("1.5")), u("2")));
        assert_eq!(nearest_sizes(u("0.3"), u("0.5"), 0), (None, u("0.5")));
        assert_eq!(nearest_sizes(u("1.74"), u("0.5"), u("1.6")), (None, u("2")));
    }

    #[test]
    fn refusals_name_the_parameter_the_rule_and_the_values_for_the_market() {
        use OrderType::*;
        use Side::*;
        // Issue 35 §3: what every app shows its users, the parameter passed, its rule and the values of the
        // rule for this market.
        let r = MarketRules { tick: u("0.01"), min_size: u("5"), neg_risk: false };
        let fine = MarketRules { tick: u("0.0001"), ..r };
        let table = [
            (
                limit(&r, Gtc, Buy, u("1.5"), u("10")),
                "price: must be between the tick size and 1 − tick size (0.01 to 0.99)",
            ),
            (
                limit(&fine, Gtc, Buy, u("0"), u("10")),
                "price: must be between the tick size and 1 − tick size (0.0001 to 0.9999)",
            ),
            (
                limit(&fine, Gtc, Buy, u("0.99995"), u("10")),
                "price: must be between the tick size and 1 − tick size (0.0001 to 0.9999)",
            ),
            (
                limit(&r, Gtc, Sell, u("0.555"), u("10")),
                "price: must be a multiple of the market's tick size (0.01); nearest prices: 0.55 and 0.56",
            ),
            (
                limit(&r, Gtc, Sell, u("0.985"), u("10")),
                "price: must be a multiple of the market's tick size (0.01); nearest prices: 0.98 and 0.99",
            ),
            (
                limit(&r, Gtc, Sell, u("0.015"), u("10")),
                "price: must be a multiple of the market's tick size (0.01); nearest prices: 0.01 and 0.02",
            ),
            (limit(&r, Gtd, Buy, u("0.5"), u("3")), "size: is under the market's minimum order size (5)"),
            (limit(&r, Gtc, Buy, u("0.5"), 0), "size: is under the market's minimum order size (5)"),
            // The nearest values named are ones the order's other rules take too: a FOK buy at 0.5 needs cash of
            // 2 decimals (0.01 × 0.5 has 3), a FOK at 0.58 sizes on 0.5, a resting order the minimum of 5.
            (limit(&r, Fok, Buy, u("0.5"), 0), "size: must be at least 0.01, with at most 2 decimals"),
            (limit(&r, Fok, Buy, u("0.58"), u("1.745")), "size: must be at least 0.01, with at most 2 decimals"),
            (
                limit(&r, Gtc, Buy, u("0.5"), u("3.455")),
                "size: must be at least 0.01, with at most 2 decimals; nearest size: 5",
            ),
            (
                limit(&r, Gtc, Buy, u("0.5"), u("5.001")),
                "size: must be at least 0.01, with at most 2 decimals; nearest sizes: 5 and 5.01",
            ),
            (
                market(&fine, Fak, Sell, u("0.9998"), u("0.005")),
                "amount: must be at least 0.01, with at most 2 decimals",
            ),
            (
                limit(&r, Gtc, Buy, u("0.5"), u("12.345")),
                "size: must be at least 0.01, with at most 2 decimals; nearest sizes: 12.34 and 12.35",
            ),
            (
                limit(&r, Fok, Buy, u("0.58"), u("1.74")),
                "size: of a FOK/FAK order needs cash (size × price) of 2 decimals to buy, 4 to sell; nearest exact \
                 sizes: 1.5 and 2",
            ),
            // A market order's spend of 0 or of 5.555 names the amount, not the price.
            (market(&r, Fok, Buy, u("0.5"), 0), "amount: must be at least 0.01, with at most 2 decimals"),
            (market(&r, Fok, Buy, u("0.5"), u("5.555")), "amount: must be at least 0.01, with at most 2 decimals"),
            (
                market(&fine, Fak, Sell, u("0.9998"), u("0.01")),
                "amount: would fill beyond the price once its taker amount is cut to 4 decimals; nearest amount: 0.34",
            ),
            (
                market(&r, Fok, Buy, u("0.995"), u("10")),
                "price: must be between the tick size and 1 − tick size (0.01 to 0.99)",
            ),
            (
                check_terms(Gtd, false, 0, 1_700_000_000).map(|()| Amounts { maker: 0, taker: 0 }),
                "expiration: of a GTD order must be a time in seconds at least a minute ahead, from 1700000060",
            ),
        ];
        for (got, message) in table {
            let e = got.unwrap_err();
            assert_eq!((e.code, &*e.message), (crate::error::ErrorCode::InvalidParams, message));
            assert_eq!(e.param.as_deref(), message.split(':').next(), "{message}");
        }
    }

    #[test]
    fn market_orders_cut_the_taker_amount_to_4_decimals() {
        use OrderType::*;
        use Side::*;
        // Issue 24: a FAK buy of 9.98 at 0.985 on a 0.001 tick asked 10.13197 shares (5 decimals); a sell of
        // 0.67 at 0.002 asked 0.00134 cash.
        let r = MarketRules { tick: u("0.001"), min_size: 0, neg_risk: false };
        assert_eq!(
            market(&r, Fak, Buy, u("0.985"), u("9.98")).unwrap(),
            Amounts { maker: 9_980_000, taker: 10_131_900 }
        );
        assert_eq!(market(&r, Fak, Sell, u("0.002"), u("0.67")).unwrap(), Amounts { maker: 670_000, taker: 1_300 });
        // The demo's buy: $9.98 at 0.487 is 20.492813… shares, 20.4928 asked.
        assert_eq!(market(&r, Fok, Buy, u("0.487"), u("9.98")).unwrap().taker, u("20.4928"));

        // Every tick size × side × FOK/FAK: (tick, side, worst price, amount, taker).
        let table = [
            ("0.1", Buy, "0.3", "9.98", "33.2666"), // 33.266666…
            ("0.1", Sell, "0.3", "12.34", "3.702"),
            ("0.01", Buy, "0.57", "9.98", "17.5087"), // 17.508771…
            ("0.01", Sell, "0.57", "12.34", "7.0338"),
            ("0.001", Buy, "0.487", "9.98", "20.4928"),    // 20.492813…
            ("0.001", Sell, "0.487", "12.34", "6.0095"),   // 6.00958
            ("0.0001", Buy, "0.4871", "9.98", "20.4886"),  // 20.488606…
            ("0.0001", Sell, "0.4871", "12.34", "6.0108"), // 6.010814
            ("0.005", Buy, "0.485", "9.98", "20.5773"),    // 20.577319…
            ("0.005", Sell, "0.485", "12.34", "5.9849"),
            ("0.0025", Buy, "0.4875", "9.98", "20.4717"),  // 20.471794…
            ("0.0025", Sell, "0.4875", "12.34", "6.0157"), // 6.01575
        ];
        assert_eq!(table.len(), 6 * 2);
        for (tick, side, price, amount, taker) in table {
            for t in [Fok, Fak] {
                let got = market(&rules(u(tick)), t, side, u(price), u(amount)).unwrap();
                assert_eq!(got, Amounts { maker: u(amount), taker: u(taker) }, "{tick} {side:?} {t:?}");
            }
            // A market order never rests: GTC and GTD are refused (buildOrder makes those, at a price).
            for t in [Gtc, Gtd] {
                let e = market(&rules(u(tick)), t, side, u(price), u(amount)).unwrap_err();
                assert_eq!(e.param.as_deref(), Some("orderType"), "{tick} {side:?} {t:?}");
            }
        }

        // Refusals: (side, price, amount, param).
        let refused = [
            (Buy, "0.5", "10.001", "amount"), // more than 2 decimals: refused, not rounded
            (Buy, "0.5", "0", "amount"),
            (Sell, "0.005", "5", "price"),
        ];
        for (side, price, amount, param) in refused {
            let e = market(&rules(u("0.01")), Fok, side, u(price), u(amount)).unwrap_err();
            assert_eq!(e.param.as_deref(), Some(param), "{amount}");
        }
        // A market sell under the market's share minimum (5) is built: the minimum is a resting order's.
        assert_eq!(
            market(&rules(u("0.01")), Fok, Sell, u("0.5"), u("4")).unwrap(),
            Amounts { maker: u("4"), taker: u("2") }
        );
        // A taker amount that cuts to 0 is refused.
        let tiny = MarketRules { tick: u("0.0001"), min_size: 0, neg_risk: false };
        assert_eq!(market(&tiny, Fok, Sell, u("0.0001"), u("0.99")).unwrap_err().param.as_deref(), Some("amount"));
        assert_eq!(market(&tiny, Fok, Sell, u("0.0002"), u("0.5")).unwrap().taker, u("0.0001"));
    }

    #[test]
    fn market_orders_never_imply_a_price_beyond_the_limit() {
        use OrderType::*;
        use Side::*;
        let r = MarketRules { tick: u("0.0001"), min_size: 0, neg_risk: false };
        // Issue 33: a sell of 0.01 at 0.9998 would get 0.0099 (0.009998 cut), an implied 0.99, 98 ticks under
        // the limit; a buy of $0.01 at 0.9999 would get 0.01 shares, an implied 1.0. Refused, naming the nearest
        // amounts that keep within the limit: (side, price, amount, the amounts named).
        let table = [
            (Sell, "0.9998", "0.01", "nearest amount: 0.34"),
            (Buy, "0.9999", "0.01", "nearest amount: 1"),
            (Buy, "0.9999", "1.5", ""),
            (Sell, "0.0001", "0.5", "nearest amount: 1"),
        ];
        for (side, price, amount, named) in table {
            for t in [Fok, Fak] {
                match market(&r, t, side, u(price), u(amount)) {
                    Ok(a) => {
                        assert_eq!(named, "", "{side:?} {amount} at {price}: {a:?}");
                        assert!(within_limit(side, u(price), r.tick, a.maker, a.taker));
                    }
                    Err(e) => {
                        assert_eq!(e.param.as_deref(), Some("amount"));
                        assert_eq!(e.message.split("; ").nth(1), Some(named), "{side:?} {amount} at {price}");
                    }
                }
            }
        }
        for (side, price, amount) in [(Sell, "0.9998", "0.34"), (Buy, "0.9999", "1")] {
            let a = market(&r, Fok, side, u(price), u(amount)).unwrap();
            assert!(within_limit(side, u(price), r.tick, a.maker, a.taker), "{a:?}");
        }
        // Both nearest amounts, when one below exists: a sell of 0.03 at 0.6667 (tick 0.0001) gets 0.02 (0.020001
        // cut), an implied 0.6666…: within a tick. At 0.9998, 0.35 gets 0.3499 (0.34993), within; 0.36 too.
        let e = market(&r, Fok, Sell, u("0.9998"), u("0.33")).unwrap_err();
        assert_eq!(e.message.split("; ").nth(1), Some("nearest amount: 0.34"));
        // The boundary itself: an implied price of exactly price + tick is a level beyond.
        assert!(!within_limit(Buy, u("0.5"), u("0.01"), u("0.51"), u("1")));
        assert!(within_limit(Buy, u("0.5"), u("0.01"), u("0.5"), u("1")));
        assert!(!within_limit(Sell, u("0.5"), u("0.01"), u("1"), u("0.49")));
        assert!(!within_limit(Sell, u("0.5"), u("0.01"), u("1"), 0));
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
