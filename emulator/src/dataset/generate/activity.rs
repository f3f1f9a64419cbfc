//! Public activity (wallets, their fills and closed positions) and the accounts' orders and fills.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::words::{MONTHS, SUBJECTS, WORDS};
use super::{address, hash32, uuid};
use crate::dataset::records::{Account, AccountTrade, ClosedPosition, Fill, Market, SeedOrder, Wallet};
use crate::dataset::{ACTIVITY_TRADES, BASE, WALLETS};
use crate::text::round6;

/// The public wallets: the accounts' first.
pub fn wallets(rng: &mut ChaCha8Rng, accounts: &[Account]) -> Vec<Wallet> {
    (0..WALLETS)
        .map(|i| Wallet {
            address: accounts.get(i).map_or_else(|| address(rng), |a| a.address.clone()),
            name: format!(
                "{}Trader{}",
                SUBJECTS[(i * 3) % SUBJECTS.len()].trim_start_matches("the ").replace(' ', ""),
                i + 1
            ),
            pseudonym: if i % 4 == 3 {
                String::new()
            } else {
                format!("{}-{}", MONTHS[i % 12], WORDS[i % WORDS.len()])
            },
            bio: String::new(),
        })
        .collect()
}

pub fn fills(rng: &mut ChaCha8Rng, wallets: &[Wallet], markets: &[Market]) -> Vec<Fill> {
    let mut time = BASE;
    (0..ACTIVITY_TRADES)
        .map(|_| {
            time -= rng.random_range(1..600);
            Fill {
                wallet: rng.random_range(0..wallets.len()),
                market: rng.random_range(0..3_000.min(markets.len())),
                outcome: rng.random_range(0..2),
                buy: rng.random_bool(0.6),
                taker: rng.random_bool(0.7),
                size: rng.random_range(100..5_000_000),
                price: rng.random_range(1..1000),
                timestamp: time,
                tx: hash32(rng),
            }
        })
        .collect()
}

pub fn closed_positions(rng: &mut ChaCha8Rng, wallets: &[Wallet], markets: &[Market]) -> Vec<ClosedPosition> {
    let mut out = Vec::new();
    for w in 0..wallets.len() {
        let n = rng.random_range(60..=150);
        for _ in 0..n {
            let avg = f64::from(rng.random_range(1..1000u32)) / 1000.0;
            let bought = f64::from(rng.random_range(10..2_000_000u32)) / 100.0;
            let won = rng.random_bool(0.5);
            let cur = if won { 1.0 } else { 0.0 };
            out.push(ClosedPosition {
                wallet: w,
                market: rng.random_range(0..markets.len()),
                outcome: rng.random_range(0..2),
                size: 0.0,
                avg_price: avg,
                total_bought: bought,
                realized_pnl: round6(bought * (cur - avg)),
                cur_price: cur,
                timestamp: BASE - rng.random_range(0..300 * 86_400),
            });
        }
    }
    out
}

/// The accounts' open orders.
pub fn orders(rng: &mut ChaCha8Rng, accounts: &[Account], markets: &[Market]) -> Vec<SeedOrder> {
    let counts = [300, 240, 120];
    let open: Vec<usize> =
        (0..markets.len()).filter(|&i| markets[i].accepting_orders && markets[i].tick >= 1_000).collect();
    let mut orders = Vec::new();
    for (a, &n) in counts.iter().enumerate().take(accounts.len()) {
        let mut time = BASE - 5 * 86_400;
        // A few markets hold several orders each, so cancelling a market cancels more than one.
        let clustered: Vec<usize> = (0..5).map(|_| open[rng.random_range(0..open.len())]).collect();
        for k in 0..n {
            let market = if k < 20 { clustered[k % 5] } else { open[rng.random_range(0..open.len())] };
            let m = &markets[market];
            let buy = rng.random_bool(0.5);
            let ticks = 1_000_000 / m.tick;
            let price = rng.random_range(1..ticks) * m.tick;
            time += rng.random_range(10..900);
            let gtd = rng.random_bool(0.2);
            orders.push(SeedOrder {
                id: hash32(rng),
                account: a,
                market,
                outcome: rng.random_range(0..2),
                buy,
                price,
                original_size: rng.random_range(1..200) * 5,
                size_matched: 0,
                order_type: if gtd { "GTD" } else { "GTC" },
                expiration: if gtd { BASE + rng.random_range(1..90) * 86_400 } else { 0 },
                created: time,
            });
        }
    }
    for o in orders.iter_mut() {
        if o.id.ends_with('0') {
            o.size_matched = o.original_size / 5;
        }
    }
    orders
}

/// The accounts' fills.
pub fn account_trades(rng: &mut ChaCha8Rng, accounts: &[Account], markets: &[Market]) -> Vec<AccountTrade> {
    let mut out = Vec::new();
    for a in 0..accounts.len() {
        let mut time = BASE;
        for _ in 0..250 {
            time -= rng.random_range(60..7_200);
            let market = rng.random_range(0..markets.len());
            let outcome = rng.random_range(0..2);
            let taker = rng.random_bool(0.6);
            let price = rng.random_range(1..100u64) * 10_000;
            let size = rng.random_range(1..500u64) * 1_000_000 / 10;
            let makers = (0..rng.random_range(1..=3))
                .map(|_| (hash32(rng), address(rng), size / 2, price, outcome, rng.random_bool(0.5)))
                .collect();
            out.push(AccountTrade {
                id: uuid(rng),
                account: a,
                taker_order_id: hash32(rng),
                market,
                outcome,
                buy: rng.random_bool(0.5),
                size,
                price,
                fee_bps: markets[market].fee_bps,
                time,
                taker,
                tx: hash32(rng),
                maker_orders: makers,
            });
        }
    }
    out
}
