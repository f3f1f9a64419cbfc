//! Matching, as a plan: which levels of the other side an incoming order takes, how much of each, and from whom,
//! by price-time priority. Nothing changes here; the caller applies a plan (or refuses the order) in one step.
//!
//! A level's size is the emulator's own liquidity plus the user orders resting there. The emulator's part counts
//! as the oldest (it was there first), then the user orders in the order they came. Sizes are in book units
//! (hundredths of a share), prices in millionths, cash in 10^-6 units.

/// Units in one share or one unit of cash.
pub(crate) const ONE: u64 = 1_000_000;
/// Units of shares in one book unit.
const HUNDREDTH: u64 = 10_000;

/// The incoming order's terms, from its signed amounts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Taker {
    pub buy: bool,
    pub maker: u64,
    pub taker: u64,
    /// A market buy (FOK, FAK) spends its cash (`maker`); every other order trades its shares.
    pub by_cash: bool,
}

impl Taker {
    /// Whether a level at `price` is within the order's limit: a buy pays at most maker/taker a share, a sell
    /// takes at least taker/maker.
    pub fn crosses(&self, price: u64) -> bool {
        let wide = |a: u64, b: u64| u128::from(a) * u128::from(b);
        if self.buy {
            wide(price, self.taker) <= wide(self.maker, ONE)
        } else {
            wide(price, self.maker) >= wide(self.taker, ONE)
        }
    }

    /// The shares the order trades, in book units (not for a market buy).
    pub fn shares(&self) -> u64 {
        (if self.buy { self.taker } else { self.maker }) / HUNDREDTH
    }
}

/// One level of the other side, best first: its total size and the user orders resting in it, oldest first
/// (their ledger index and what remains of each).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    pub price: u64,
    pub size: u64,
    pub makers: Vec<(usize, u64)>,
}

/// What the order takes from one level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fill {
    pub price: u64,
    pub taken: u64,
    /// The level's size after.
    pub remaining: u64,
    /// Taken from the emulator's liquidity.
    pub liquidity: u64,
    /// Taken from user orders: (ledger index, size).
    pub makers: Vec<(usize, u64)>,
    /// The cash that changes hands (the buyer pays rounded up, a seller gets rounded down; exact on the tick).
    pub cash: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    pub fills: Vec<Fill>,
    /// Shares traded (book units) and cash exchanged (units).
    pub shares: u64,
    pub cash: u64,
    /// The best level of the other side is within the limit (a post-only order would take liquidity).
    pub crosses: bool,
    /// The order is filled as far as it can be: all its shares; or, for a market buy, less cash left than one
    /// book unit costs at its limit price.
    pub complete: bool,
}

/// Cash for `size` book units at `price`: `size × price / 100`, rounded up for the buyer.
fn cash(size: u64, price: u64, buyer: bool) -> u64 {
    let v = u128::from(size) * u128::from(price);
    let q = v / 100 + u128::from(buyer && v % 100 != 0);
    u64::try_from(q).unwrap_or(u64::MAX)
}

/// Plans an order against the levels of the other side, best first.
pub fn plan(order: &Taker, levels: &[Level]) -> Plan {
    let mut out = Plan { crosses: levels.first().is_some_and(|l| order.crosses(l.price)), ..Plan::default() };
    let mut shares_left = if order.by_cash { 0 } else { order.shares() };
    let mut cash_left = if order.by_cash { order.maker } else { 0 };
    for level in levels {
        if !order.crosses(level.price) || level.price == 0 {
            break;
        }
        let want = if order.by_cash {
            u64::try_from(u128::from(cash_left) * 100 / u128::from(level.price)).unwrap_or(u64::MAX)
        } else {
            shares_left
        };
        let taken = want.min(level.size);
        if taken == 0 {
            break;
        }
        let users: u64 = level.makers.iter().map(|m| m.1).sum();
        let liquidity = taken.min(level.size.saturating_sub(users));
        let mut rest = taken - liquidity;
        let mut makers = Vec::new();
        for &(index, size) in &level.makers {
            if rest == 0 {
                break;
            }
            let part = size.min(rest);
            makers.push((index, part));
            rest -= part;
        }
        let paid = cash(taken, level.price, order.buy);
        if order.by_cash {
            cash_left = cash_left.saturating_sub(paid);
        } else {
            shares_left -= taken;
        }
        out.shares += taken;
        out.cash += paid;
        out.fills.push(Fill {
            price: level.price,
            taken,
            remaining: level.size - taken,
            liquidity,
            makers,
            cash: paid,
        });
        if !order.by_cash && shares_left == 0 {
            break;
        }
    }
    out.complete = if order.by_cash {
        // Less left than 0.01 share costs at the limit price maker/taker: (maker / taker) × 10^4 units.
        u128::from(cash_left) * u128::from(order.taker) < u128::from(order.maker) * u128::from(HUNDREDTH)
    } else {
        shares_left == 0
    };
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(price: u64, size: u64, makers: &[(usize, u64)]) -> Level {
        Level { price, size, makers: makers.to_vec() }
    }

    #[test]
    fn a_limit_buy_takes_the_asks_it_crosses_liquidity_first_then_users_by_time() {
        // Buy 30 shares at 0.52 (15.6 cash): asks 0.50 (10, of which user order 7 has 4), 0.52 (25), 0.53 (100).
        let order = Taker { buy: true, maker: 15_600_000, taker: 30_000_000, by_cash: false };
        let asks = [
            level(500_000, 1_000, &[(7, 400)]),
            level(520_000, 2_500, &[(3, 500), (9, 500)]),
            level(530_000, 10_000, &[]),
        ];
        let p = plan(&order, &asks);
        assert!(p.crosses && p.complete);
        assert_eq!(p.shares, 3_000);
        assert_eq!(p.fills.len(), 2);
        assert_eq!(
            p.fills[0],
            Fill {
                price: 500_000,
                taken: 1_000,
                remaining: 0,
                liquidity: 600,
                makers: vec![(7, 400)],
                cash: 5_000_000
            }
        );
        // 20 shares at 0.52: the level's liquidity is 15, then user order 3 (older) gives 5.
        assert_eq!(
            p.fills[1],
            Fill {
                price: 520_000,
                taken: 2_000,
                remaining: 500,
                liquidity: 1_500,
                makers: vec![(3, 500)],
                cash: 10_400_000
            }
        );
        assert_eq!(p.cash, 15_400_000);
    }

    #[test]
    fn a_sell_stops_at_its_limit_and_reports_what_is_missing() {
        let order = Taker { buy: false, maker: 50_000_000, taker: 25_000_000, by_cash: false };
        let bids = [level(510_000, 1_000, &[]), level(500_000, 1_000, &[]), level(490_000, 9_000, &[])];
        let p = plan(&order, &bids);
        assert!(p.crosses && !p.complete);
        assert_eq!((p.shares, p.cash), (2_000, 10_100_000));
        let none = plan(&order, &[level(490_000, 9_000, &[])]);
        assert!(!none.crosses && none.fills.is_empty());
    }

    #[test]
    fn a_market_buy_spends_its_cash_in_whole_book_units() {
        // 10 cash at worst 0.34 (taker 29.4117 shares at a = 4): asks 0.33 × 20, 0.34 × 100.
        let order = Taker { buy: true, maker: 10_000_000, taker: 29_411_700, by_cash: true };
        let p = plan(&order, &[level(330_000, 2_000, &[]), level(340_000, 10_000, &[])]);
        // 20 shares for 6.6, then 3.4 / 0.34 = 10 shares.
        assert_eq!((p.shares, p.cash), (3_000, 10_000_000));
        assert!(p.complete);
        // 1 cash at 0.33: 3.03 shares cost 0.9999; 0.0001 is left, less than 0.01 share costs.
        let small = Taker { buy: true, maker: 1_000_000, taker: 3_030_300, by_cash: true };
        let p = plan(&small, &[level(330_000, 2_000, &[])]);
        assert_eq!((p.shares, p.cash), (303, 999_900));
        assert!(p.complete);
        // Too little on the book.
        let p = plan(&order, &[level(330_000, 500, &[])]);
        assert_eq!(p.shares, 500);
        assert!(!p.complete);
        // Nothing within the limit.
        let p = plan(&order, &[level(350_000, 500, &[])]);
        assert!(!p.crosses && p.fills.is_empty() && !p.complete);
    }
}
