//! The authenticated account routes: orders (§4.19–4.22) and the account's fills (GET /data/trades).

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, Method, Uri};
use axum::routing::{delete, get};
use axum::Router;
use serde_json::{json, Map, Value};

use crate::auth::authenticate;
use crate::data::{decimal, iso, Catalog, Order};
use crate::params::{ok_json, ApiError, ApiResult, Params};
use crate::stream::{order_event, OrderEventType};
use crate::{lock, App, ORDERS_PAGE, TRADES_PAGE};

pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/data/orders", get(orders))
        .route("/data/order/{id}", get(order))
        .route("/data/trades", get(trades))
        .route("/order", delete(cancel_order))
        .route("/cancel-market-orders", delete(cancel_market_orders))
}

fn auth(app: &App, method: &Method, uri: &Uri, headers: &HeaderMap, body: &[u8]) -> Result<usize, ApiError> {
    authenticate(&app.catalog, &app.auth, headers, method.as_str(), uri.path(), body)
}

/// An order's status as the service reports it.
pub fn order_status(o: &Order, canceled: bool) -> &'static str {
    if canceled {
        "CANCELED"
    } else if o.size_matched > 0 {
        "MATCHED"
    } else {
        "LIVE"
    }
}

pub fn order_json(c: &Catalog, o: &Order, canceled: bool) -> Value {
    let m = &c.markets[o.market];
    let status = order_status(o, canceled);
    json!({
        "associateTrades": if o.size_matched > 0 { vec![format!("{}-trade", &o.id[2..18])] } else { Vec::new() },
        "id": o.id, "status": status, "market": m.condition_id, "originalSize": o.original_size.to_string(),
        "outcome": m.outcomes[o.outcome], "makerAddress": c.accounts[o.account].address,
        "owner": c.accounts[o.account].api_key, "price": decimal(o.price, 6),
        "side": if o.buy { "BUY" } else { "SELL" }, "sizeMatched": o.size_matched.to_string(),
        "assetId": m.tokens[o.outcome], "expiration": o.expiration.to_string(), "order_type": o.order_type,
        "createdAt": iso(o.created),
    })
}

async fn orders(State(app): State<Arc<App>>, method: Method, uri: Uri, headers: HeaderMap) -> ApiResult {
    let account = auth(&app, &method, &uri, &headers, b"")?;
    let p = Params::parse(uri.query());
    let c = &app.catalog;
    let (id, market, asset) = (p.get("id"), p.get("market"), p.get("asset_id"));
    let open: Vec<usize> = {
        let canceled = lock(&app.canceled);
        (0..c.orders.len())
            .filter(|&i| {
                let o = &c.orders[i];
                let m = &c.markets[o.market];
                o.account == account
                    && !canceled[i]
                    && id.is_none_or(|id| o.id == id)
                    && market.is_none_or(|mk| m.condition_id.eq_ignore_ascii_case(mk))
                    && asset.is_none_or(|a| m.tokens[o.outcome] == a)
            })
            .collect()
    };
    ok_json(&app.cursors.page(&p, &open, ORDERS_PAGE, |&i| order_json(c, &c.orders[i], false))?)
}

async fn order(State(app): State<Arc<App>>, Path(id): Path<String>, method: Method, uri: Uri, headers: HeaderMap) -> ApiResult {
    let account = auth(&app, &method, &uri, &headers, b"")?;
    let c = &app.catalog;
    match c.order(&id) {
        // Another account's order is as unknown as a missing one.
        Some(i) if c.orders[i].account == account => {
            let canceled = lock(&app.canceled)[i];
            ok_json(&json!({ "order": order_json(c, &c.orders[i], canceled) }))
        }
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

async fn cancel_order(State(app): State<Arc<App>>, method: Method, uri: Uri, headers: HeaderMap, body: Bytes) -> ApiResult {
    let account = auth(&app, &method, &uri, &headers, &body)?;
    let map = body_object(&body)?;
    let id = optional_string(&map, &["orderId"])?.ok_or_else(|| ApiError::bad("orderId is required"))?;
    let c = &app.catalog;
    let mut canceled = Vec::new();
    let mut not_canceled = Map::new();
    let mut state = lock(&app.canceled);
    match c.order(&id) {
        None => {
            not_canceled.insert(id, "order not found".into());
        }
        Some(i) if c.orders[i].account != account => {
            not_canceled.insert(id, "not your order".into());
        }
        Some(i) if state[i] => {
            not_canceled.insert(id, "order already canceled".into());
        }
        Some(i) => {
            state[i] = true;
            canceled.push(id);
            // The account's user sockets hear of it before the answer goes out.
            app.stream.send_user(account, &[order_event(c, i, OrderEventType::Cancellation, true)]);
        }
    }
    ok_json(&json!({ "canceled": canceled, "not_canceled": not_canceled }))
}

async fn cancel_market_orders(
    State(app): State<Arc<App>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult {
    let account = auth(&app, &method, &uri, &headers, &body)?;
    let map = body_object(&body)?;
    let market = optional_string(&map, &["market"])?;
    let asset = optional_string(&map, &["asset_id", "assetId"])?;
    if market.is_none() && asset.is_none() {
        return Err(ApiError::bad("market or asset_id is required"));
    }
    let c = &app.catalog;
    let mut state = lock(&app.canceled);
    let mut canceled = Vec::new();
    let mut events = Vec::new();
    for (i, o) in c.orders.iter().enumerate() {
        let m = &c.markets[o.market];
        if o.account == account
            && !state[i]
            && market.as_deref().is_none_or(|mk| m.condition_id.eq_ignore_ascii_case(mk))
            && asset.as_deref().is_none_or(|a| m.tokens[o.outcome] == a)
        {
            state[i] = true;
            canceled.push(o.id.clone());
            events.push(order_event(c, i, OrderEventType::Cancellation, true));
        }
    }
    app.stream.send_user(account, &events);
    ok_json(&json!({ "canceled": canceled, "not_canceled": {} }))
}

async fn trades(State(app): State<Arc<App>>, method: Method, uri: Uri, headers: HeaderMap) -> ApiResult {
    let account = auth(&app, &method, &uri, &headers, b"")?;
    let p = Params::parse(uri.query());
    let before = p.opt_int("before", 0, None)?;
    let after = p.opt_int("after", 0, None)?;
    let (id, market, asset, maker) = (p.get("id"), p.get("market"), p.get("asset_id"), p.get("maker_address"));
    let c = &app.catalog;
    let hits: Vec<usize> = (0..c.account_trades.len())
        .filter(|&i| {
            let t = &c.account_trades[i];
            let m = &c.markets[t.market];
            t.account == account
                && id.is_none_or(|id| t.id == id)
                && market.is_none_or(|mk| m.condition_id.eq_ignore_ascii_case(mk))
                && asset.is_none_or(|a| m.tokens[t.outcome] == a)
                && maker.is_none_or(|a| {
                    c.accounts[account].address.eq_ignore_ascii_case(a) || t.maker_orders.iter().any(|mo| mo.1.eq_ignore_ascii_case(a))
                })
                && before.is_none_or(|b| t.time < b)
                && after.is_none_or(|a| t.time > a)
        })
        .collect();
    ok_json(&app.cursors.page(&p, &hits, TRADES_PAGE, |&i| {
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
