//! Cancellation, one path for every order of the store (`super::ledger`): by ids (`DELETE /order`, `DELETE
//! /orders`), by market or asset (`DELETE /cancel-market-orders`), all of an account's (`DELETE /cancel-all`, the
//! dead-man switch of `super::heartbeats`), and GTD expiry. An order resting on a live book leaves it in the same
//! step as its `CANCELLATION` event goes out; the catalog's orders rest on no book.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value};

use super::ledger::{self, Ledger};
use crate::app::App;
use crate::dataset::Market;
use crate::market::{Change, Effects, Side};
use crate::stream::OrderEventType;
use crate::sync::lock;

/// Cancels each of `ids` that is the account's and open; the others are told why, as DELETE /order does.
pub(crate) fn by_ids(app: &App, account: usize, ids: &[String]) -> (Vec<String>, Map<String, Value>) {
    expire(app);
    let mut not_canceled = Map::new();
    let mut mine = Vec::new();
    let mut ledger = lock(&app.trading.ledger);
    for id in ids {
        let Some(i) = ledger.find(id) else {
            not_canceled.insert(id.clone(), "order not found".into());
            continue;
        };
        let o = &ledger.orders[i];
        if o.account != account {
            not_canceled.insert(id.clone(), "not your order".into());
        } else if o.canceled {
            not_canceled.insert(id.clone(), "order already canceled".into());
        } else if !o.live {
            not_canceled.insert(id.clone(), "order is fully matched: nothing rests to cancel".into());
        } else {
            mine.push(i);
        }
    }
    // The account's user sockets hear of it before the answer goes out.
    (cancel_open(app, &mut ledger, &mine), not_canceled)
}

/// Cancels every open order of the account whose market and outcome `wanted` accepts; the ids canceled.
pub(crate) fn matching(app: &App, account: usize, wanted: impl Fn(&Market, usize) -> bool) -> Vec<String> {
    let c = &app.catalog;
    expire(app);
    let mut ledger = lock(&app.trading.ledger);
    let mine: Vec<usize> = (0..ledger.orders.len())
        .filter(|&i| {
            let o = &ledger.orders[i];
            o.account == account && o.live && wanted(&c.markets[o.market], o.outcome)
        })
        .collect();
    cancel_open(app, &mut ledger, &mine)
}

/// Cancels every open order of the account (`DELETE /cancel-all`, the dead-man switch); the ids canceled.
pub(crate) fn all(app: &App, account: usize) -> Vec<String> {
    matching(app, account, |_, _| true)
}

/// Cancels the open orders among `indices` and tells their accounts (`CANCELLATION`): first those resting on a
/// book, which leave it (one step per token, their events sent with the book's changes), then the catalog's, which
/// rest on no book (their events in one frame per account). Orders that are not open are left alone. Answers the
/// ids cancelled, in that order.
fn cancel_open(app: &App, ledger: &mut Ledger, indices: &[usize]) -> Vec<String> {
    let now = app.clock.now_ms();
    let mut by_token: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let mut seeds = Vec::new();
    for &i in indices {
        let o = &ledger.orders[i];
        if o.live && o.seed {
            seeds.push(i);
        } else if o.live {
            by_token.entry(app.catalog.markets[o.market].tokens[o.outcome].clone()).or_default().push(i);
        }
    }
    let mut canceled = Vec::new();
    for (token, list) in by_token {
        let done = app.stream.trade(&token, [0; 32], |book| {
            let mut effects = Effects::default();
            let mut sizes: HashMap<(Side, u64), u64> = HashMap::new();
            let mut ids = Vec::new();
            for &i in &list {
                let o = &mut ledger.orders[i];
                let side = if o.buy { Side::Bid } else { Side::Ask };
                let rest = o.remaining();
                let size = sizes.entry((side, o.price)).or_insert_with(|| book.size_at(side, o.price).unwrap_or(0));
                *size = size.saturating_sub(rest);
                effects.changes.push(Change::Level { side, price: o.price, size: *size });
                effects.reserve.push((side, o.price, -(rest as i64)));
                o.live = false;
                o.canceled = true;
                ids.push(o.id.clone());
                effects.user.push((o.account, ledger::order_event(&app.catalog, o, OrderEventType::Cancellation, now)));
            }
            (ids, effects)
        });
        if let Ok(ids) = done {
            canceled.extend(ids);
        }
    }
    let mut told: Vec<(usize, Vec<(String, Value)>)> = Vec::new();
    for i in seeds {
        let o = &mut ledger.orders[i];
        o.live = false;
        o.canceled = true;
        canceled.push(o.id.clone());
        let event = ledger::order_event(&app.catalog, o, OrderEventType::Cancellation, now);
        match told.iter_mut().find(|(account, _)| *account == o.account) {
            Some((_, events)) => events.push(event),
            None => told.push((o.account, vec![event])),
        }
    }
    for (account, events) in told {
        app.stream.send_user(account, &events);
    }
    canceled
}

/// Cancels the placed GTD orders whose expiration has come (called before the routes that read or change orders).
pub(crate) fn expire(app: &App) {
    let now = app.clock.now_secs();
    let mut ledger = lock(&app.trading.ledger);
    let due: Vec<usize> = (0..ledger.orders.len())
        .filter(|&i| {
            let o = &ledger.orders[i];
            o.live && !o.seed && o.order_type == "GTD" && o.expiration <= now
        })
        .collect();
    if !due.is_empty() {
        cancel_open(app, &mut ledger, &due);
    }
}
