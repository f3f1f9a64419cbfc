//! A trade's settlement: MATCHED when the orders match, then MINED (its transaction broadcast and mined) and
//! CONFIRMED, or RETRYING (its transaction reverted) and FAILED, each change sent as a `trade` event on the user
//! channel of every account in the trade and shown by `GET /data/trades`.
//!
//! Sources: docs.polymarket.com "User channel" (the statuses, their diagram MATCHED → MINED → CONFIRMED and
//! MATCHED → RETRYING → FAILED, CONFIRMED and FAILED terminal; "Subsequent status changes for the trade" emitted as
//! `trade` messages; `transaction_hash` null while MATCHED) and "Place orders" (the POST answer's `tradeIDs`, and its
//! `transactionsHashes`, empty until a transaction is known). The delays and which trades fail are the emulator's
//! own, set with `POST /__admin/settlement`.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;

use crate::app::App;
use crate::sync::lock;

/// Whether a trade's transaction fails (decided when it matches); when it moves on follows the rules of the moment,
/// counted from its match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    pub fails: bool,
}

/// The settlement delays, and how many of the next trades fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub mined_after_ms: u64,
    pub confirmed_after_ms: u64,
    pub fail_next: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Self { mined_after_ms: 500, confirmed_after_ms: 1_500, fail_next: 0 }
    }
}

#[derive(Default)]
pub struct Settlement(Mutex<Rules>);

impl Settlement {
    pub fn rules(&self) -> Rules {
        *lock(&self.0)
    }

    pub fn set(&self, rules: Rules) {
        *lock(&self.0) = rules;
    }

    /// The plan of the next trade (the next of the trades told to fail fails).
    pub fn plan(&self) -> Plan {
        let mut rules = lock(&self.0);
        let fails = rules.fail_next > 0;
        rules.fail_next = rules.fail_next.saturating_sub(1);
        Plan { fails }
    }
}

/// The status at `now_ms` of a trade matched at `matched_ms`, by the rules.
pub fn status_at(rules: &Rules, plan: &Plan, matched_ms: u64, now_ms: u64) -> &'static str {
    let age = now_ms.saturating_sub(matched_ms);
    let mined = age >= rules.mined_after_ms;
    let done = age >= rules.mined_after_ms.max(rules.confirmed_after_ms);
    match (done, mined, plan.fails) {
        (true, _, false) => "CONFIRMED",
        (true, _, true) => "FAILED",
        (false, true, false) => "MINED",
        (false, true, true) => "RETRYING",
        (false, false, _) => "MATCHED",
    }
}

/// Moves every trade whose time came, and tells the accounts in it.
pub(crate) fn advance(app: &App) {
    let now = app.clock.now_ms();
    let rules = app.trading.settlement.rules();
    let mut told: Vec<(usize, (String, Value))> = Vec::new();
    {
        let mut ledger = lock(&app.trading.ledger);
        let moved: Vec<usize> = (0..ledger.trades.len())
            .filter(|&i| {
                let t = &ledger.trades[i];
                !matches!(t.status, "CONFIRMED" | "FAILED") && status_at(&rules, &t.plan, t.time_ms, now) != t.status
            })
            .collect();
        for i in moved {
            let t = &ledger.trades[i];
            let status = status_at(&rules, &t.plan, t.time_ms, now);
            ledger.trades[i].status = status;
            let l = &*ledger;
            let t = &l.trades[i];
            let taker = &l.orders[t.taker];
            let mut accounts = vec![(taker.account, taker.owner.clone())];
            for order in t.makers.iter().filter_map(|f| f.order) {
                let o = &l.orders[order];
                if !accounts.iter().any(|(a, _)| *a == o.account) {
                    accounts.push((o.account, o.owner.clone()));
                }
            }
            for (account, owner) in accounts {
                told.push((account, super::ledger::trade_event(&app.catalog, l, t, &owner, now)));
            }
        }
    }
    for (account, event) in told {
        app.stream.send_user(account, &[event]);
    }
}

/// Moves the trades ten times a second.
pub(crate) async fn watch(app: Arc<App>) {
    let mut tick = tokio::time::interval(Duration::from_millis(100));
    loop {
        tick.tick().await;
        advance(&app);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trade_is_mined_then_confirmed_or_retried_then_failed() {
        let s = Settlement::default();
        s.set(Rules { mined_after_ms: 100, confirmed_after_ms: 300, fail_next: 1 });
        let (failing, passing) = (s.plan(), s.plan());
        let rules = s.rules();
        assert_eq!(rules.fail_next, 0, "one trade was told to fail");
        let table = [
            (1_050, "MATCHED", "MATCHED"),
            (1_100, "RETRYING", "MINED"),
            (1_299, "RETRYING", "MINED"),
            (1_300, "FAILED", "CONFIRMED"),
        ];
        for (now, f, p) in table {
            assert_eq!(
                (status_at(&rules, &failing, 1_000, now), status_at(&rules, &passing, 1_000, now)),
                (f, p),
                "at {now}"
            );
        }
        // New rules apply to trades not yet final.
        let at_once = Rules { mined_after_ms: 0, confirmed_after_ms: 0, fail_next: 0 };
        assert_eq!(status_at(&at_once, &passing, 1_000, 1_000), "CONFIRMED");
    }
}
