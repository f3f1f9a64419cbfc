//! The authenticated account routes: orders (§4.19–4.22) and the account's fills (GET /data/trades). Orders are
//! the order store's (`trading::ledger`: the catalog's made-up ones and those placed through POST /order); the
//! catalog's made-up fills come with the placed orders' trades, newest first. The routes read their parameters
//! and write their answers; cancelling is `trading::cancel`'s.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::Uri;
use axum::routing::{delete, get};
use axum::Router;
use serde_json::{json, Map, Value};

use crate::app::App;
use crate::params::{ok_json, ApiError, ApiResult, Params, ORDERS_PAGE, TRADES_PAGE};
use crate::signed::Signed;
use crate::sync::lock;
use crate::text::decimal;
use crate::trading::cancel::{self, expire};
use crate::trading::ledger;

pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/data/orders", get(orders))
        .route("/data/order/{id}", get(order))
        .route("/data/trades", get(trades))
        .route("/order", delete(cancel_order).post(crate::trading::place_order))
        .route("/cancel-market-orders", delete(cancel_market_orders))
        .route("/cancel-all", delete(cancel_all))
}

/// A row of a list that holds placed trades (rendered at once: there are few) and catalog ones.
enum Row {
    Placed(Value),
    Catalog(usize),
}

async fn orders(State(app): State<Arc<App>>, uri: Uri, Signed { account, .. }: Signed) -> ApiResult {
    expire(&app);
    let p = Params::parse(uri.query());
    let c = &app.catalog;
    let (id, market, asset) = (p.get("id"), p.get("market"), p.get("asset_id"));
    let ledger = lock(&app.trading.ledger);
    // The placed orders that rest, newest first, then the catalog's.
    let open: Vec<usize> = ledger
        .listing()
        .filter(|&i| {
            let o = &ledger.orders[i];
            let m = &c.markets[o.market];
            o.account == account
                && o.live
                && id.is_none_or(|id| o.id.eq_ignore_ascii_case(id))
                && market.is_none_or(|mk| m.condition_id.eq_ignore_ascii_case(mk))
                && asset.is_none_or(|a| m.tokens[o.outcome] == a)
        })
        .collect();
    ok_json(&app.cursors.page(&p, &open, ORDERS_PAGE, |&i| ledger::order_json(c, &ledger.orders[i]))?)
}

async fn order(State(app): State<Arc<App>>, Path(id): Path<String>, Signed { account, .. }: Signed) -> ApiResult {
    expire(&app);
    let ledger = lock(&app.trading.ledger);
    match ledger.find(&id).map(|i| &ledger.orders[i]) {
        // Another account's order is as unknown as a missing one.
        Some(o) if o.account == account => ok_json(&json!({ "order": ledger::order_json(&app.catalog, o) })),
        _ => Err(ApiError::not_found("order not found")),
    }
}

fn body_object(body: &[u8]) -> Result<Map<String, Value>, ApiError> {
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(map)) => Ok(map),
        _ => Err(ApiError::bad("body must be a JSON object")),
    }
}

fn optional_string(map: &Map<String, Value>, names: &[&str]) -> Result<Option<String>, ApiError> {
    for name in names {
        match map.get(*name) {
            None | Some(Value::Null) => continue,
            Some(Value::String(s)) if s.is_empty() => continue,
            Some(Value::String(s)) => return Ok(Some(s.clone())),
            Some(_) => return Err(ApiError::bad(format!("{name} must be a string"))),
        }
    }
    Ok(None)
}

async fn cancel_order(State(app): State<Arc<App>>, Signed { account, body }: Signed) -> ApiResult {
    let map = body_object(&body)?;
    let id = optional_string(&map, &["orderId"])?.ok_or_else(|| ApiError::bad("orderId is required"))?;
    let (canceled, not_canceled) = cancel::by_ids(&app, account, &[id]);
    ok_json(&json!({ "canceled": canceled, "not_canceled": not_canceled }))
}

/// The most ids one DELETE /orders takes (the upstream documentation's "Maximum 3000 orders per request").
const MAX_ORDER_IDS: usize = 3000;

/// The body of DELETE /orders and POST /orders-scoring: a JSON array of at most `MAX_ORDER_IDS` order id strings,
/// each once (duplicates are ignored), in their order.
pub(crate) fn order_id_list(body: &[u8]) -> Result<Vec<String>, ApiError> {
    let ids = match serde_json::from_slice::<Value>(body) {
        Ok(Value::Array(items)) => items,
        _ => return Err(ApiError::bad("body must be a JSON array of order ids")),
    };
    if ids.len() > MAX_ORDER_IDS {
        return Err(ApiError::bad(format!("at most {MAX_ORDER_IDS} order ids in one request")));
    }
    let mut seen = std::collections::HashSet::with_capacity(ids.len());
    let mut unique = Vec::with_capacity(ids.len());
    for id in ids {
        let Value::String(id) = id else { return Err(ApiError::bad("each order id must be a string")) };
        if seen.insert(id.clone()) {
            unique.push(id);
        }
    }
    Ok(unique)
}

/// DELETE /orders: a JSON array of order ids; duplicates are ignored, each id is canceled or told why not (the
/// upstream documentation of "Cancel multiple orders").
pub(crate) async fn cancel_orders(State(app): State<Arc<App>>, Signed { account, body }: Signed) -> ApiResult {
    let unique = order_id_list(&body)?;
    let (canceled, not_canceled) = cancel::by_ids(&app, account, &unique);
    ok_json(&json!({ "canceled": canceled, "not_canceled": not_canceled }))
}

/// DELETE /cancel-all: every open order of the account, placed or from the catalog.
async fn cancel_all(State(app): State<Arc<App>>, Signed { account, .. }: Signed) -> ApiResult {
    let canceled = cancel::all(&app, account);
    ok_json(&json!({ "canceled": canceled, "not_canceled": {} }))
}

async fn cancel_market_orders(State(app): State<Arc<App>>, Signed { account, body }: Signed) -> ApiResult {
    let map = body_object(&body)?;
    let market = optional_string(&map, &["market"])?;
    let asset = optional_string(&map, &["asset_id", "assetId"])?;
    if market.is_none() && asset.is_none() {
        return Err(ApiError::bad("market or asset_id is required"));
    }
    let canceled = cancel::matching(&app, account, |m, outcome| {
        market.as_deref().is_none_or(|mk| m.condition_id.eq_ignore_ascii_case(mk))
            && asset.as_deref().is_none_or(|a| m.tokens[outcome] == a)
    });
    ok_json(&json!({ "canceled": canceled, "not_canceled": {} }))
}

async fn trades(State(app): State<Arc<App>>, uri: Uri, Signed { account, .. }: Signed) -> ApiResult {
    let p = Params::parse(uri.query());
    let before = p.opt_int("before", 0, None)?;
    let after = p.opt_int("after", 0, None)?;
    let (id, market, asset, maker) = (p.get("id"), p.get("market"), p.get("asset_id"), p.get("maker_address"));
    let c = &app.catalog;
    let Some(me) = app.accounts.get(account) else { return Err(ApiError::unauthorized("invalid SERVICE_API_KEY")) };
    // The trades of placed orders, newest first, then the catalog's.
    let mut rows: Vec<Row> = {
        let ledger = lock(&app.trading.ledger);
        ledger
            .trades
            .iter()
            .rev()
            .filter(|t| {
                let taker = &ledger.orders[t.taker];
                let m = &c.markets[taker.market];
                let secs = (t.time_ms / 1000) as i64;
                ledger::involves(&ledger, t, account).is_some()
                    && id.is_none_or(|id| t.id == id)
                    && market.is_none_or(|mk| m.condition_id.eq_ignore_ascii_case(mk))
                    && asset.is_none_or(|a| m.tokens[taker.outcome] == a)
                    && maker.is_none_or(|a| {
                        me.address.eq_ignore_ascii_case(a)
                            || taker.maker_address.eq_ignore_ascii_case(a)
                            || t.makers.iter().any(|f| {
                                f.order.is_some_and(|i| ledger.orders[i].maker_address.eq_ignore_ascii_case(a))
                            })
                    })
                    && before.is_none_or(|b| secs < b)
                    && after.is_none_or(|a| secs > a)
            })
            .map(|t| Row::Placed(ledger::trade_json(c, &ledger, t, account)))
            .collect()
    };
    let hits: Vec<usize> = (0..c.account_trades.len())
        .filter(|&i| {
            let t = &c.account_trades[i];
            let m = &c.markets[t.market];
            t.account == account
                && id.is_none_or(|id| t.id == id)
                && market.is_none_or(|mk| m.condition_id.eq_ignore_ascii_case(mk))
                && asset.is_none_or(|a| m.tokens[t.outcome] == a)
                && maker.is_none_or(|a| {
                    me.address.eq_ignore_ascii_case(a) || t.maker_orders.iter().any(|mo| mo.1.eq_ignore_ascii_case(a))
                })
                && before.is_none_or(|b| t.time < b)
                && after.is_none_or(|a| t.time > a)
        })
        .collect();
    rows.extend(hits.into_iter().map(Row::Catalog));
    ok_json(&app.cursors.page(&p, &rows, TRADES_PAGE, |row| {
        let i = match row {
            Row::Placed(v) => return v.clone(),
            Row::Catalog(i) => *i,
        };
        let t = &c.account_trades[i];
        let m = &c.markets[t.market];
        let a = &c.accounts[t.account];
        let side = if t.buy { "BUY" } else { "SELL" };
        let makers: Vec<Value> = t
            .maker_orders
            .iter()
            .map(|(order_id, address, amount, price, outcome, buy)| {
                json!({
                    "order_id": order_id, "maker_address": address, "owner": format!("{}-maker", &order_id[2..14]),
                    "matched_amount": decimal(*amount, 6), "fee_rate_bps": t.fee_bps.to_string(), "price": decimal(*price, 6),
                    "asset_id": m.tokens[*outcome], "outcome": m.outcomes[*outcome], "side": if *buy { "BUY" } else { "SELL" },
                })
            })
            .collect();
        let trader_side = if t.taker { "TAKER" } else { "MAKER" };
        json!({
            "id": t.id, "taker_order_id": t.taker_order_id, "market": m.condition_id, "asset_id": m.tokens[t.outcome],
            "side": side, "size": decimal(t.size, 6), "fee_rate_bps": t.fee_bps.to_string(), "price": decimal(t.price, 6),
            "status": "CONFIRMED", "match_time": t.time.to_string(), "last_update": (t.time + 30).to_string(),
            "outcome": m.outcomes[t.outcome], "bucket_index": 0, "owner": a.api_key, "maker_address": a.address,
            "transaction_hash": t.tx, "trader_side": trader_side, "type": trader_side, "maker_orders": makers,
        })
    })?)
}
