//! The order-book surface's public reads (interface §4.11–4.18, /, /price, /midpoint, /prices-history).

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::Router;
use serde_json::{json, Map, Value};

use crate::app::App;
use crate::books::{history, midpoint};
use crate::dataset::{Catalog, Market, USDC};
use crate::params::{is_condition_id, json_text, ok_json, ApiError, ApiResult, Params, MARKETS_PAGE, SAMPLING_PAGE};
use crate::text::{decimal, iso, micro_f64};

pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/", get(root))
        .route("/markets", get(markets))
        .route("/sampling-markets", get(sampling_markets))
        .route("/clob-markets/{condition_id}", get(clob_market_info))
        .route("/book", get(book))
        .route("/books", post(books))
        .route("/price", get(price))
        .route("/prices", post(prices))
        .route("/midpoint", get(midpoint_route))
        .route("/fee-rate/{token_id}", get(fee_rate))
        .route("/prices-history", get(prices_history))
        .route("/batch-prices-history", post(batch_prices_history))
}

/// At most this many items in the bodies of POST /books and POST /prices.
pub const BATCH_MAX: usize = 500;
/// At most this many markets in POST /batch-prices-history.
pub const HISTORY_MARKETS_MAX: usize = 20;
/// At most this many points per price history (the step grows to fit).
pub const HISTORY_POINTS_MAX: i64 = 5_000;

async fn root() -> ApiResult {
    ok_json(&json!("OK"))
}

fn rewards(m: &Market) -> Value {
    let rates: Vec<Value> = if m.sampling {
        vec![json!({ "asset_address": USDC, "rewards_daily_rate": m.rewards_rate })]
    } else {
        Vec::new()
    };
    json!({ "rates": rates, "min_size": m.rewards_min_size, "max_spread": m.rewards_max_spread })
}

fn status(m: &Market) -> &'static str {
    if m.archived {
        "archived"
    } else if m.closed {
        "closed"
    } else {
        "active"
    }
}

/// A CLOB market (§2.9); `sampling` leaves out the fields a sampling market does not have.
fn clob_market(c: &Catalog, idx: usize, sampling: bool) -> Value {
    let m = &c.markets[idx];
    let e = &c.events[m.event];
    let tokens: Vec<Value> = (0..2)
        .map(|k| {
            json!({
                "token_id": m.tokens[k], "mirror_token_id": m.mirror_tokens[k], "outcome": m.outcomes[k],
                "price": micro_f64(m.prices[k]), "winner": m.winner == Some(k),
            })
        })
        .collect();
    let mut v = json!({
        "enable_order_book": true, "active": m.active, "closed": m.closed, "archived": m.archived,
        "accepting_orders": m.accepting_orders, "accepting_order_timestamp": iso(m.created),
        "minimum_order_size": m.min_order_size, "minimum_tick_size": micro_f64(m.tick),
        "condition_id": m.condition_id, "creator": c.creators[e.creator].id, "mirror_condition_id": m.mirror_condition_id,
        "question_id": m.question_id, "question": m.question, "description": m.description, "market_slug": m.slug,
        "neg_risk": m.neg_risk, "end_date_iso": iso(m.end), "game_start_time": m.game_start.map(iso).unwrap_or_default(),
        "seconds_delay": m.seconds_delay, "fpmm": "", "maker_base_fee": m.fee_bps, "taker_base_fee": m.fee_bps,
        "notifications_enabled": true, "neg_risk_market_id": m.neg_risk_market_id,
        "neg_risk_request_id": m.neg_risk_request_id, "icon": format!("https://images.predictkit.test/markets/{}.png", m.slug),
        "image": format!("https://images.predictkit.test/markets/{}.png", m.slug), "rewards": rewards(m),
        "is_50_50_outcome": false, "tokens": tokens,
        "tags": e.tags.iter().map(|&t| c.tags[t].label.clone()).collect::<Vec<_>>(),
    });
    if !sampling {
        let extra = json!({
            "status": status(m), "market_id": m.id, "slug": m.slug, "assets_ids": m.tokens, "outcomes": m.outcomes,
            "event": { "id": e.id.to_string(), "slug": e.slug, "title": e.title, "ticker": e.ticker, "description": e.description },
            "raw_metadata": { "source": "predictkit-emulator", "event_id": e.id, "market_index": idx },
        });
        if let (Some(v), Value::Object(extra)) = (v.as_object_mut(), extra) {
            v.extend(extra);
        }
    }
    v
}

async fn markets(State(app): State<Arc<App>>, RawQuery(q): RawQuery) -> ApiResult {
    let p = Params::parse(q.as_deref());
    let c = &app.catalog;
    let all: Vec<usize> = (0..c.markets.len()).collect();
    let text = app.cursors.page_text(&p, &all, MARKETS_PAGE, |&i| {
        c.clob_json[i].get_or_init(|| clob_market(c, i, false).to_string()).as_str()
    })?;
    Ok(json_text(StatusCode::OK, text))
}

async fn sampling_markets(State(app): State<Arc<App>>, RawQuery(q): RawQuery) -> ApiResult {
    let p = Params::parse(q.as_deref());
    let c = &app.catalog;
    let text = app.cursors.page_text(&p, &c.sampling, SAMPLING_PAGE, |&i| {
        c.sampling_json[i].get_or_init(|| clob_market(c, i, true).to_string()).as_str()
    })?;
    Ok(json_text(StatusCode::OK, text))
}

fn fee_descriptor(m: &Market) -> Value {
    json!({ "r": if m.fee_bps > 0 { 0.04 } else { 0.0 }, "e": 1, "to": true })
}

async fn clob_market_info(State(app): State<Arc<App>>, Path(condition_id): Path<String>) -> ApiResult {
    if !is_condition_id(&condition_id) {
        return Err(ApiError::bad("condition_id must be 0x and 64 hex digits"));
    }
    let c = &app.catalog;
    let idx = c.market_by_condition(&condition_id).ok_or_else(|| ApiError::not_found("market not found"))?;
    let m = &c.markets[idx];
    let t: Vec<Value> = (0..2)
        .map(|k| json!({ "t": m.tokens[k], "mirror_token_id": m.mirror_tokens[k], "o": m.outcomes[k] }))
        .collect();
    ok_json(&json!({
        "gst": iso(m.game_start.unwrap_or(m.start)), "r": rewards(m), "c": m.condition_id,
        "creator": c.creators[c.events[m.event].creator].id, "mirror_condition_id": m.mirror_condition_id,
        // The tick the market trades at now: a `tick_size_change` (near resolution) makes it finer.
        "nr": m.neg_risk, "t": t, "mts": micro_f64(app.stream.live_tick(&m.tokens[0]).unwrap_or(m.tick)),
        "mos": m.min_order_size, "fd": fee_descriptor(m),
        "mbf": m.fee_bps, "tbf": m.fee_bps, "rfqe": false, "itode": false, "ibce": true, "oas": 0,
        "ao": m.accepting_orders,
    }))
}

/// The book JSON and best bid/ask (millionths) of a token, when the token exists: the live book when the
/// market simulator or an admin tick has moved it, else the generated or recorded one.
fn lookup(app: &App, token: &str) -> Option<(String, Option<u64>, Option<u64>)> {
    app.stream.current(token)
}

fn best(app: &App, token: &str) -> Option<(Option<u64>, Option<u64>)> {
    app.stream.best(token)
}

const NO_BOOK: &str = "No orderbook exists for the requested token id";

async fn book(State(app): State<Arc<App>>, RawQuery(q): RawQuery) -> ApiResult {
    let p = Params::parse(q.as_deref());
    let token = p.required("token_id")?;
    match lookup(&app, token) {
        Some((json, ..)) => Ok(json_text(StatusCode::OK, json)),
        None => Err(ApiError::not_found(NO_BOOK)),
    }
}

/// Parses a body of [{token_id, side?}] with 1..=500 items.
fn token_list(body: &[u8]) -> Result<Vec<(String, Option<String>)>, ApiError> {
    let shape = || ApiError::bad("body must be a JSON array of objects with a token_id string");
    let value: Value = serde_json::from_slice(body).map_err(|_| shape())?;
    let items = value.as_array().ok_or_else(shape)?;
    if items.is_empty() || items.len() > BATCH_MAX {
        return Err(ApiError::bad(format!("body must have 1 to {BATCH_MAX} items")));
    }
    items
        .iter()
        .map(|item| {
            let token = item.get("token_id").and_then(Value::as_str).filter(|t| !t.is_empty());
            let token = token.ok_or_else(|| ApiError::bad("every item needs a non-empty token_id string"))?;
            let side = match item.get("side") {
                None | Some(Value::Null) => None,
                Some(Value::String(s)) if s == "BUY" || s == "SELL" => Some(s.clone()),
                Some(_) => return Err(ApiError::bad("side must be BUY or SELL")),
            };
            Ok((token.to_owned(), side))
        })
        .collect()
}

async fn books(State(app): State<Arc<App>>, body: Bytes) -> ApiResult {
    let tokens = token_list(&body)?;
    let mut out = String::from("[");
    for (token, _) in &tokens {
        if let Some((json, ..)) = lookup(&app, token) {
            if out.len() > 1 {
                out.push(',');
            }
            out.push_str(&json);
        }
    }
    out.push(']');
    Ok(json_text(StatusCode::OK, out))
}

async fn prices(State(app): State<Arc<App>>, body: Bytes) -> ApiResult {
    let tokens = token_list(&body)?;
    let mut out = Map::new();
    for (token, side) in tokens {
        let Some((bid, ask)) = best(&app, &token) else { continue };
        let mut entry = Map::new();
        // BUY is what a buyer pays (the best ask); SELL what a seller gets (the best bid).
        if let (Some(ask), true) = (ask, side.as_deref() != Some("SELL")) {
            entry.insert("BUY".into(), decimal(ask, 6).into());
        }
        if let (Some(bid), true) = (bid, side.as_deref() != Some("BUY")) {
            entry.insert("SELL".into(), decimal(bid, 6).into());
        }
        let slot = out.entry(token).or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(slot) = slot {
            slot.extend(entry);
        }
    }
    ok_json(&Value::Object(out))
}

async fn price(State(app): State<Arc<App>>, RawQuery(q): RawQuery) -> ApiResult {
    let p = Params::parse(q.as_deref());
    let token = p.required("token_id")?;
    let side = p.required("side")?;
    let side = p.one_of("side", &["BUY", "SELL"])?.unwrap_or(side);
    let (bid, ask) = best(&app, token).ok_or_else(|| ApiError::not_found(NO_BOOK))?;
    let price = if side == "BUY" { ask } else { bid };
    match price {
        Some(price) => ok_json(&json!({ "price": decimal(price, 6) })),
        None => Err(ApiError::not_found(format!(
            "no price: the book has no {}",
            if side == "BUY" { "asks" } else { "bids" }
        ))),
    }
}

async fn midpoint_route(State(app): State<Arc<App>>, RawQuery(q): RawQuery) -> ApiResult {
    let p = Params::parse(q.as_deref());
    let token = p.required("token_id")?;
    match best(&app, token).ok_or_else(|| ApiError::not_found(NO_BOOK))? {
        (Some(bid), Some(ask)) => ok_json(&json!({ "mid": midpoint(bid, ask) })),
        _ => Err(ApiError::not_found("no midpoint: one side of the book is empty")),
    }
}

async fn fee_rate(State(app): State<Arc<App>>, Path(token): Path<String>) -> ApiResult {
    let c = &app.catalog;
    let (idx, _) = c.token(&token).ok_or_else(|| ApiError::not_found("token not found"))?;
    let m = &c.markets[idx];
    let fd = fee_descriptor(m);
    let categories = ["crypto", "sports", "politics", "economics", "culture"];
    ok_json(&json!({
        "base_fee": if m.fee_bps > 0 { 400 } else { 0 },
        "fd": fd,
        "fee_schedule": {
            "rate": fd["r"], "exponent": 1, "takerOnly": true, "rebateRate": if m.fee_bps > 0 { 0.25 } else { 0.0 },
            "category": categories[idx % categories.len()], "version": 1, "source": "local",
        },
    }))
}

/// (window seconds, default step minutes) of each interval; "1m" is one month, as upstream.
fn interval(name: &str) -> Option<(i64, i64)> {
    Some(match name {
        "1h" => (3_600, 1),
        "6h" => (6 * 3_600, 1),
        "1d" => (86_400, 5),
        "1w" => (7 * 86_400, 30),
        "1m" => (30 * 86_400, 180),
        "max" | "all" => (i64::MAX, 720),
        _ => return None,
    })
}

struct HistoryRange {
    start: Option<i64>,
    end: Option<i64>,
    interval: Option<String>,
    fidelity: Option<i64>,
}

/// The points of one token's history for a validated range.
fn token_history(c: &Catalog, token: &str, r: &HistoryRange, now: i64) -> Vec<Value> {
    let Some((m, o)) = c.token(token) else { return Vec::new() };
    let market = &c.markets[m];
    let (start, end, default_step) = match &r.interval {
        Some(name) => {
            let (window, step) = interval(name).unwrap_or((i64::MAX, 720));
            let start = if window == i64::MAX { market.created } else { now - window };
            (start.max(market.created), now, step)
        }
        None => {
            let start = r.start.unwrap_or(market.created);
            let end = r.end.unwrap_or(now);
            let span_minutes = (end - start).max(0) / 60;
            (
                start,
                end,
                if span_minutes > 30 * 1440 {
                    180
                } else if span_minutes > 1440 {
                    30
                } else {
                    1
                },
            )
        }
    };
    let mut step = r.fidelity.unwrap_or(default_step).max(1) * 60;
    let span = (end - start).max(0);
    if span / step > HISTORY_POINTS_MAX {
        step = (span / HISTORY_POINTS_MAX / 60 + 1) * 60;
    }
    let center = market.prices[o].clamp(10_000, 990_000);
    history(c.seed, token, center, start, end, step).into_iter().map(|(t, p)| json!({ "t": t, "p": p })).collect()
}

async fn prices_history(State(app): State<Arc<App>>, RawQuery(q): RawQuery) -> ApiResult {
    let p = Params::parse(q.as_deref());
    let market = p.required("market")?.to_owned();
    let start = p.opt_int("startTs", 0, None)?;
    let end = p.opt_int("endTs", 0, None)?;
    let interval_name = p.one_of("interval", &["max", "1m", "1w", "1d", "6h", "1h"])?.map(str::to_owned);
    let fidelity = p.opt_int("fidelity", 1, None)?;
    let range = validate_range(start, end, interval_name, fidelity, ("startTs", "endTs"))?;
    ok_json(&json!({ "history": token_history(&app.catalog, &market, &range, app.clock.now_secs() as i64) }))
}

fn validate_range(
    start: Option<i64>,
    end: Option<i64>,
    interval: Option<String>,
    fidelity: Option<i64>,
    names: (&str, &str),
) -> Result<HistoryRange, ApiError> {
    if interval.is_some() && (start.is_some() || end.is_some()) {
        return Err(ApiError::bad(format!("interval cannot be used with {} or {}", names.0, names.1)));
    }
    if interval.is_none() && start.is_none() && end.is_some() {
        return Err(ApiError::bad(format!("{} is required with {}", names.0, names.1)));
    }
    if let (Some(s), Some(e)) = (start, end) {
        if s > e {
            return Err(ApiError::bad(format!("{} must not be after {}", names.0, names.1)));
        }
    }
    // Neither a range nor an interval: the whole history.
    let interval = if start.is_none() && interval.is_none() { Some("max".to_owned()) } else { interval };
    Ok(HistoryRange { start, end, interval, fidelity })
}

async fn batch_prices_history(State(app): State<Arc<App>>, body: Bytes) -> ApiResult {
    let value: Value = serde_json::from_slice(&body).map_err(|_| ApiError::bad("body must be a JSON object"))?;
    let obj = value.as_object().ok_or_else(|| ApiError::bad("body must be a JSON object"))?;
    let markets = obj
        .get("markets")
        .and_then(Value::as_array)
        .ok_or_else(|| ApiError::bad("markets is required: an array of 1 to 20 token ids"))?;
    if markets.is_empty() || markets.len() > HISTORY_MARKETS_MAX {
        return Err(ApiError::bad(format!("markets must have 1 to {HISTORY_MARKETS_MAX} items")));
    }
    let markets: Vec<String> = markets
        .iter()
        .map(|m| m.as_str().filter(|s| !s.is_empty()).map(str::to_owned))
        .collect::<Option<_>>()
        .ok_or_else(|| ApiError::bad("markets must hold non-empty token id strings"))?;
    let ts =
        |name: &str| -> Result<Option<i64>, ApiError> {
            match obj.get(name) {
                None | Some(Value::Null) => Ok(None),
                Some(v) => v.as_f64().filter(|x| *x >= 0.0 && x.is_finite()).map(|x| Some(x as i64)).ok_or_else(|| {
                    ApiError::bad(format!("{name} must be a unix timestamp in seconds (a number >= 0)"))
                }),
            }
        };
    let (start, end) = (ts("start_ts")?, ts("end_ts")?);
    let interval = match obj.get("interval") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if ["max", "1w", "1d", "6h", "1h"].contains(&s.as_str()) => Some(s.clone()),
        Some(_) => return Err(ApiError::bad("interval must be one of max, 1w, 1d, 6h, 1h")),
    };
    let fidelity = match obj.get("fidelity") {
        None | Some(Value::Null) => None,
        Some(v) => {
            Some(v.as_i64().filter(|f| *f >= 1).ok_or_else(|| ApiError::bad("fidelity must be an integer >= 1"))?)
        }
    };
    let range = validate_range(start, end, interval, fidelity, ("start_ts", "end_ts"))?;
    let mut history = Map::new();
    for m in markets {
        let points = token_history(&app.catalog, &m, &range, app.clock.now_secs() as i64);
        history.insert(m, Value::Array(points));
    }
    ok_json(&json!({ "history": history }))
}
