//! Admin routes for tests and the demo (exempt from rate limits, faults and the request log).

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::routing::{get, post};
use axum::Router;
use serde_json::{json, Value};

use axum::http::StatusCode;

use crate::app::App;
use crate::books::BookKind;
use crate::params::{ok_json, ApiError, ApiResult, Params};
use crate::stream::{TickError, TICK_MAX};
use crate::sync::lock;
use crate::trading::version_number;
use crate::trading::Version;

pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/__admin/reset", post(reset))
        .route("/__admin/faults", get(list_faults).post(add_fault).delete(clear_faults))
        .route("/__admin/requests", get(requests).delete(clear_requests))
        .route("/__admin/accounts", get(accounts))
        .route("/__admin/info", get(info))
        .route("/__admin/version", post(set_version))
        .route("/__admin/clock", post(advance_clock))
        .route("/__admin/engine", post(set_engine))
        .route("/__admin/rate-limit-headers", post(set_rate_headers))
        .route("/__admin/deposit-wallet", get(deposit_wallet))
        .route("/__admin/wallets", get(wallets).post(set_wallets))
        .route("/__admin/settlement", post(set_settlement))
        .route("/__admin/stream", get(stream_sockets))
        .route("/__admin/stream/tick", post(stream_tick))
        .route("/__admin/tick-size", post(set_tick_size))
        .route("/__admin/stream/lifecycle", post(stream_lifecycle))
        .route("/__admin/stream/faults", get(list_stream_faults).post(add_stream_fault).delete(clear_stream_faults))
}

/// The open sockets (channel, subscription, messages sent and received) and the live books.
async fn stream_sockets(State(app): State<Arc<App>>) -> ApiResult {
    ok_json(&app.stream.list())
}

/// `{"asset_id": token, "count": N}`: N changes of that book now, sent to its subscribers in frames of 1–5.
async fn stream_tick(State(app): State<Arc<App>>, body: Bytes) -> ApiResult {
    let value: Value = serde_json::from_slice(&body).map_err(|_| ApiError::bad("body must be a JSON object"))?;
    let token = value
        .get("asset_id")
        .and_then(Value::as_str)
        .filter(|t| !t.is_empty())
        .ok_or_else(|| ApiError::bad("asset_id is required (a token id)"))?;
    let count = match value.get("count") {
        None | Some(Value::Null) => 1,
        Some(v) => v
            .as_u64()
            .filter(|n| (1..=TICK_MAX).contains(n))
            .ok_or_else(|| ApiError::bad(format!("count must be an integer 1..{TICK_MAX}")))?,
    };
    match app.stream.tick(token, count) {
        Ok(answer) => ok_json(&answer),
        Err(TickError::UnknownAsset) => Err(ApiError::not_found("No orderbook exists for the requested token id")),
        Err(TickError::Book(e)) => Err(ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e)),
    }
}

/// `POST /__admin/stream/lifecycle {"market": condition id, "event": "new_market"|"market_resolved", "times": n}`:
/// the market's lifecycle event sent `times` times (1..10, default 2) to each market socket following one of its
/// tokens with `custom_feature_enabled`. Answers `{"sent"}`.
async fn stream_lifecycle(State(app): State<Arc<App>>, body: Bytes) -> ApiResult {
    let value: Value = serde_json::from_slice(&body).map_err(|_| ApiError::bad("body must be a JSON object"))?;
    let condition = value.get("market").and_then(Value::as_str).unwrap_or_default();
    let m = app
        .catalog
        .market_by_condition(condition)
        .ok_or_else(|| ApiError::bad("market must be a market's condition id"))?;
    let resolved = match value.get("event").and_then(Value::as_str) {
        Some("new_market") => false,
        Some("market_resolved") => true,
        _ => return Err(ApiError::bad("event must be \"new_market\" or \"market_resolved\"")),
    };
    let times = match value.get("times") {
        None | Some(Value::Null) => 2,
        Some(v) => {
            v.as_u64().filter(|n| (1..=10).contains(n)).ok_or_else(|| ApiError::bad("times must be 1..10"))? as u32
        }
    };
    ok_json(&json!({ "sent": app.stream.lifecycle(resolved, m, times) }))
}

/// `POST /__admin/tick-size {"asset_id", "tick_size"}`: the market of `asset_id` trades at `tick_size` from now on
/// (the service makes a market's tick finer near resolution): both its books take it, with a `tick_size_change`
/// to their subscribers, and GET /clob-markets answers it. Answers `{"market", "old_tick_size", "tick_size"}`.
async fn set_tick_size(State(app): State<Arc<App>>, body: Bytes) -> ApiResult {
    let value: Value = serde_json::from_slice(&body).map_err(|_| ApiError::bad("body must be a JSON object"))?;
    let token = value.get("asset_id").and_then(Value::as_str).unwrap_or_default();
    let (market, _) = app.catalog.token(token).ok_or_else(|| ApiError::bad("asset_id must be a market's token id"))?;
    let tick = value
        .get("tick_size")
        .and_then(Value::as_str)
        .and_then(crate::text::parse_micro)
        .filter(|&t| crate::trading::precision::amount_decimals(t).is_some())
        .ok_or_else(|| ApiError::bad("tick_size must be a tick size the service uses, as text (\"0.001\")"))?;
    let m = &app.catalog.markets[market];
    let mut old = m.tick;
    for token in &m.tokens {
        old = app
            .stream
            .trade(token, [7; 32], |book| {
                let old = book.tick;
                let changes = vec![crate::market::Change::Tick { old, new: tick }];
                (old, crate::market::Effects { changes, ..Default::default() })
            })
            .map_err(|_| ApiError::bad("the market's book could not be moved"))?;
    }
    ok_json(
        &json!({ "market": m.condition_id, "old_tick_size": crate::text::decimal(old, 6), "tick_size": crate::text::decimal(tick, 6) }),
    )
}

async fn list_stream_faults(State(app): State<Arc<App>>) -> ApiResult {
    ok_json(&app.stream.list_faults())
}

async fn add_stream_fault(State(app): State<Arc<App>>, body: Bytes) -> ApiResult {
    let spec = serde_json::from_slice(&body).map_err(|e| ApiError::bad(format!("invalid stream fault rule: {e}")))?;
    let id = app.stream.add_fault(spec).map_err(ApiError::bad)?;
    ok_json(&json!({ "id": id }))
}

async fn clear_stream_faults(State(app): State<Arc<App>>) -> ApiResult {
    app.stream.clear_faults();
    ok_json(&json!({ "cleared": true }))
}

/// `?owner=0x…`: the deposit wallet that owner has (`crate::trading::deposit`), for tests and the demo.
/// `?owner=`: the owner's account (its kind, whether deployed) and its wallets of each kind on this chain.
async fn wallets(State(app): State<Arc<App>>, RawQuery(q): RawQuery) -> ApiResult {
    use crate::trading::wallets::Kind;
    let p = Params::parse(q.as_deref());
    let owner = crate::trading::order::parse_address(p.required("owner")?)
        .ok_or_else(|| ApiError::bad("owner must be an address"))?;
    let w = &app.trading.wallets;
    let setup = w.setup(owner);
    let of = |kind| w.wallet_of(owner, kind).map(|a| a.to_checksum(None));
    ok_json(&json!({
        "owner": owner.to_checksum(None),
        "kind": setup.kind.name(),
        "deployed": setup.deployed,
        "approved": setup.approved,
        "signature": if setup.plain { "PLAIN" } else { "ERC7739" },
        "proxy": of(Kind::Proxy),
        "safe": of(Kind::Safe),
        "depositWallet": of(Kind::Deposit),
    }))
}

/// `{"owner": address, "kind": "EOA" | "POLY_PROXY" | "POLY_GNOSIS_SAFE" | "POLY_1271", "deployed": bool,
/// "approved": bool, "signature": "ERC7739" | "PLAIN"}` (the last: the form a deposit wallet takes): sets
/// what the owner's account trades through (until `POST /__admin/reset`).
async fn set_wallets(State(app): State<Arc<App>>, body: Bytes) -> ApiResult {
    use crate::trading::wallets::{Kind, Setup};
    let value: Value = serde_json::from_slice(&body).map_err(|_| ApiError::bad("body must be a JSON object"))?;
    let owner = value
        .get("owner")
        .and_then(Value::as_str)
        .and_then(crate::trading::order::parse_address)
        .ok_or_else(|| ApiError::bad("owner must be an address"))?;
    let kind = value
        .get("kind")
        .and_then(Value::as_str)
        .and_then(Kind::parse)
        .ok_or_else(|| ApiError::bad("kind must be EOA, POLY_PROXY, POLY_GNOSIS_SAFE or POLY_1271"))?;
    let deployed = match value.get("deployed") {
        None | Some(Value::Null) => true,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(ApiError::bad("deployed must be true or false")),
    };
    let approved = match value.get("approved") {
        None | Some(Value::Null) => true,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(ApiError::bad("approved must be true or false")),
    };
    let plain = match value.get("signature") {
        None | Some(Value::Null) => false,
        Some(Value::String(s)) if s == "ERC7739" => false,
        Some(Value::String(s)) if s == "PLAIN" => true,
        Some(_) => return Err(ApiError::bad("signature must be ERC7739 or PLAIN (the form a deposit wallet takes)")),
    };
    app.trading.wallets.set(owner, Setup { kind, deployed, approved, plain }).map_err(ApiError::bad)?;
    let signature = if plain { "PLAIN" } else { "ERC7739" };
    ok_json(&json!({
        "owner": owner.to_checksum(None), "kind": kind.name(), "deployed": deployed, "approved": approved,
        "signature": signature,
    }))
}

/// `{"minedAfterMs"?, "confirmedAfterMs"?, "failNext"?}`: how long trades take to be mined and confirmed, and how
/// many of the next ones fail (RETRYING, then FAILED); until a reset.
async fn set_settlement(State(app): State<Arc<App>>, body: Bytes) -> ApiResult {
    let value: Value = serde_json::from_slice(&body).map_err(|_| ApiError::bad("body must be a JSON object"))?;
    let mut rules = app.trading.settlement.rules();
    let number = |name: &str, max: u64| -> Result<Option<u64>, ApiError> {
        match value.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_u64()
                .filter(|n| *n <= max)
                .map(Some)
                .ok_or_else(|| ApiError::bad(format!("{name} must be a whole number up to {max}"))),
        }
    };
    if let Some(ms) = number("minedAfterMs", 600_000)? {
        rules.mined_after_ms = ms;
    }
    if let Some(ms) = number("confirmedAfterMs", 600_000)? {
        rules.confirmed_after_ms = ms;
    }
    if let Some(n) = number("failNext", 1_000)? {
        rules.fail_next = n as u32;
    }
    app.trading.settlement.set(rules);
    ok_json(&json!({
        "minedAfterMs": rules.mined_after_ms, "confirmedAfterMs": rules.confirmed_after_ms, "failNext": rules.fail_next,
    }))
}

async fn deposit_wallet(RawQuery(q): RawQuery) -> ApiResult {
    let p = Params::parse(q.as_deref());
    let owner = crate::trading::order::parse_address(p.required("owner")?)
        .ok_or_else(|| ApiError::bad("owner must be an address"))?;
    let wallet = crate::trading::deposit::wallet_of(owner);
    ok_json(&json!({ "owner": owner.to_checksum(None), "wallet": wallet.to_checksum(None) }))
}

/// The matching engine's mode (see `crate::engine`): `{"mode", "retryAfterSeconds"?, "retryAfterIn"?, "count"?}`.
async fn set_engine(State(app): State<Arc<App>>, body: Bytes) -> ApiResult {
    let value: Value = serde_json::from_slice(&body).map_err(|_| ApiError::bad("body must be a JSON object"))?;
    lock(&app.engine).set(&value).map_err(ApiError::bad)?;
    ok_json(&json!({ "mode": value["mode"] }))
}

/// The `Poly-RateLimit-*` headers of order and cancellation answers (see `crate::engine`).
async fn set_rate_headers(State(app): State<Arc<App>>, body: Bytes) -> ApiResult {
    let value: Value = serde_json::from_slice(&body).map_err(|_| ApiError::bad("body must be a JSON object"))?;
    let now = app.clock.now_secs();
    lock(&app.engine).set_rate_headers(&value, now).map_err(ApiError::bad)?;
    ok_json(&json!({ "headers": lock(&app.engine).rate_headers.len() }))
}

async fn reset(State(app): State<Arc<App>>) -> ApiResult {
    app.reset();
    ok_json(&json!({ "reset": true }))
}

async fn list_faults(State(app): State<Arc<App>>) -> ApiResult {
    ok_json(&lock(&app.faults).list())
}

async fn add_fault(State(app): State<Arc<App>>, body: Bytes) -> ApiResult {
    let spec = serde_json::from_slice(&body).map_err(|e| {
        let hint = if String::from_utf8_lossy(&body).contains("\"/ws") {
            " (faults of an open socket's messages are programmed with POST /__admin/stream/faults)"
        } else {
            ""
        };
        ApiError::bad(format!("invalid fault rule: {e}{hint}"))
    })?;
    let id = lock(&app.faults).add(spec).map_err(ApiError::bad)?;
    ok_json(&json!({ "id": id }))
}

async fn clear_faults(State(app): State<Arc<App>>) -> ApiResult {
    lock(&app.faults).clear();
    ok_json(&json!({ "cleared": true }))
}

/// The request log, oldest first; `?path=` keeps entries whose path starts with it, `?method=` one method.
async fn requests(State(app): State<Arc<App>>, RawQuery(q): RawQuery) -> ApiResult {
    let p = Params::parse(q.as_deref());
    let (path, method) = (p.get("path"), p.get("method"));
    let log = lock(&app.log);
    let entries: Vec<Value> = log
        .iter()
        .filter(|e| path.is_none_or(|p| e["path"].as_str().is_some_and(|x| x.starts_with(p))))
        .filter(|e| method.is_none_or(|m| e["method"].as_str().is_some_and(|x| x.eq_ignore_ascii_case(m))))
        .cloned()
        .collect();
    ok_json(&json!({ "requests": entries, "count": entries.len() }))
}

async fn clear_requests(State(app): State<Arc<App>>) -> ApiResult {
    lock(&app.log).clear();
    ok_json(&json!({ "cleared": true }))
}

/// `{"version": 1|2|3}`: the order version `GET /version` serves and `POST /order` takes from now on (a reset
/// restores 2). At 3 every order is the third exchange's, as the upstream clients sign them for such a service.
async fn set_version(State(app): State<Arc<App>>, body: Bytes) -> ApiResult {
    let value: Value =
        serde_json::from_slice(&body).map_err(|_| ApiError::bad("body must be a JSON object {\"version\": 1|2|3}"))?;
    let version =
        match value.get("version").and_then(|v| v.as_u64().or_else(|| v.as_str().and_then(|s| s.parse().ok()))) {
            Some(1) => Version::V1,
            Some(2) => Version::V2,
            Some(3) => Version::V3,
            _ => return Err(ApiError::bad("version must be 1, 2 or 3")),
        };
    app.trading.set_version(version);
    ok_json(&json!({ "version": version_number(version) }))
}

/// `POST /__admin/clock {"advanceSecs": n}`: moves the emulator's clock (`crate::clock`) ahead until the next
/// reset; answers how far ahead it is.
async fn advance_clock(State(app): State<Arc<App>>, body: Bytes) -> ApiResult {
    let value: Value = serde_json::from_slice(&body)
        .map_err(|_| ApiError::bad("body must be a JSON object {\"advanceSecs\": whole seconds}"))?;
    let Some(secs) = value.get("advanceSecs").and_then(Value::as_u64) else {
        return Err(ApiError::bad("advanceSecs must be a whole number of seconds"));
    };
    ok_json(&json!({ "aheadSecs": app.clock.advance(secs) }))
}

async fn accounts(State(app): State<Arc<App>>) -> ApiResult {
    let ledger = lock(&app.trading.ledger);
    let mut list: Vec<Value> = app
        .catalog
        .accounts
        .iter()
        .enumerate()
        .map(|(i, a)| {
            json!({
                "name": if i == 0 { "demo".to_owned() } else { format!("account{}", i + 1) },
                "address": a.address, "apiKey": a.api_key, "secret": a.secret, "passphrase": a.passphrase,
                "openOrders": ledger.open_count(i),
            })
        })
        .collect();
    // Then the keys created from wallet signatures (until the next reset), with their resting orders.
    for key in app.accounts.list_created() {
        let a = &key.account;
        list.push(json!({
            "name": format!("key {} nonce {}", a.address, key.nonce), "address": a.address, "apiKey": a.api_key,
            "secret": a.secret, "passphrase": a.passphrase, "nonce": key.nonce,
            "openOrders": ledger.open_count(key.index),
        }));
    }
    ok_json(&Value::Array(list))
}

/// Counts and handy ids of the catalog: the specially shaped books, wallets with activity, a commented event.
async fn info(State(app): State<Arc<App>>) -> ApiResult {
    let c = &app.catalog;
    let special = |kind: &str, i: usize| {
        let m = &c.markets[i];
        json!({ "kind": kind, "token_id": m.tokens[0], "condition_id": m.condition_id, "book": format!("{:?}", m.book) })
    };
    let books: Vec<Value> = (0..c.markets.len())
        .rev()
        .take(crate::dataset::SPECIAL_BOOKS.len() + 1)
        .rev()
        .filter_map(|i| match c.markets[i].book {
            BookKind::Levels(100_000, _) => Some(special("huge", i)),
            BookKind::Levels(10_000, _) => Some(special("deep", i)),
            BookKind::Levels(1_000, _) => Some(special("large", i)),
            BookKind::Levels(10, 10) => Some(special("ten_levels", i)),
            BookKind::Levels(_, 0) => Some(special("bids_only", i)),
            BookKind::Levels(0, _) => Some(special("asks_only", i)),
            BookKind::Empty if c.markets[i].accepting_orders => Some(special("empty", i)),
            _ => None,
        })
        .collect();
    let real: Vec<&str> = c.real_books.iter().map(|b| b.asset_id.as_str()).collect();
    let e = &c.events[0];
    let version = app.trading.version();
    let exchanges = app.trading.exchanges(version);
    let ledger = lock(&app.trading.ledger);
    ok_json(&json!({
        "seed": c.seed,
        "counts": {
            "events": c.events.len(), "markets": c.markets.len(), "sampling_markets": c.sampling.len(),
            "series": c.series.len(), "tags": c.tags.len(), "creators": c.creators.len(), "comments": c.comments.len(),
            "trades": c.fills.len(), "closed_positions": c.closed_positions.len(), "orders": c.orders.len(),
        },
        "page_sizes": { "markets": crate::params::MARKETS_PAGE, "sampling_markets": crate::params::SAMPLING_PAGE,
                        "data_orders": crate::params::ORDERS_PAGE, "data_trades": crate::params::TRADES_PAGE },
        "special_books": books,
        "real_books": real,
        "wallets": c.wallets.iter().map(|w| w.address.clone()).collect::<Vec<_>>(),
        "commented_event": { "id": e.id.to_string(), "slug": e.slug, "first_comment_id": c.comments[0].id.to_string() },
        "creators": c.creators.iter().take(3).map(|cr| json!({ "id": cr.id, "site": cr.site })).collect::<Vec<_>>(),
        "chain_id": app.trading.chain_id,
        "order_version": version_number(version),
        "exchanges": { "exchange": exchanges.exchange.to_checksum(None), "neg_risk": exchanges.neg_risk.to_checksum(None) },
        "wallet": crate::trading::wallet::addresses(),
        "placed_orders": ledger.placed_count(),
        "placed_trades": ledger.trades.len(),
    }))
}
