//! The activity surface: cached fills and closed positions per wallet (interface §4.1–4.2), and the public side of
//! the trades of orders placed through POST /order (newest, so first).

use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::routing::get;
use axum::Router;
use serde_json::{json, Value};

use crate::app::App;
use crate::dataset::Catalog;
use crate::params::{is_address, is_condition_id, offset_page, ok_json, ApiError, ApiResult, Params};
use crate::sync::lock;
use crate::text::{iso, round6};

/// A row of GET /trades: a trade of a placed order (rendered at once: there are few) or a catalog fill.
#[derive(Clone)]
enum Row {
    Placed(Value),
    Fill(usize),
}

pub fn routes() -> Router<Arc<App>> {
    Router::new().route("/trades", get(trades)).route("/closed-positions", get(closed_positions))
}

/// The `market` list: comma-separated condition ids.
fn markets(p: &Params) -> Result<Option<Vec<String>>, ApiError> {
    let Some(list) = p.get("market") else { return Ok(None) };
    let ids: Vec<String> = list.split(',').map(|s| s.trim().to_ascii_lowercase()).filter(|s| !s.is_empty()).collect();
    if ids.is_empty() || !ids.iter().all(|id| is_condition_id(id)) {
        return Err(ApiError::bad("market must be a comma-separated list of condition ids (0x and 64 hex digits)"));
    }
    Ok(Some(ids))
}

fn user(p: &Params, required: bool) -> Result<Option<String>, ApiError> {
    match p.get("user") {
        None if required => Err(ApiError::bad("user is required")),
        None => Ok(None),
        Some(u) if is_address(u) => Ok(Some(u.to_ascii_lowercase())),
        Some(_) => Err(ApiError::bad("user must be a wallet address (0x and 40 hex digits)")),
    }
}

fn image(slug: &str) -> String {
    format!("https://images.predictkit.test/markets/{slug}.png")
}

async fn trades(State(app): State<Arc<App>>, RawQuery(q): RawQuery) -> ApiResult {
    let p = Params::parse(q.as_deref());
    let limit = p.int("limit", 0, Some(10_000), 100)?;
    let offset = p.int("offset", 0, Some(10_000), 0)?;
    let taker_only = p.bool("takerOnly")?.unwrap_or(true);
    let filter_type = p.one_of("filterType", &["CASH", "TOKENS"])?;
    let filter_amount = p.number("filterAmount", 0.0)?;
    if filter_type.is_some() != filter_amount.is_some() {
        return Err(ApiError::bad("filterType and filterAmount must be given together"));
    }
    let markets = markets(&p)?;
    let user = user(&p, false)?;
    let side = p.one_of("side", &["BUY", "SELL"])?;
    let c: &Catalog = &app.catalog;
    let mut rows: Vec<Row> = Vec::new();
    {
        let ledger = lock(&app.trading.ledger);
        for t in ledger.trades.iter().rev() {
            let taker = &ledger.orders[t.taker];
            let m = &c.markets[taker.market];
            let size = t.size as f64 / 100.0;
            // The taker's row, then a row per user maker (the emulator's own liquidity has no wallet), each on its
            // own token at its own price (a maker on the complementary token: one minus the taker's).
            let mut sides = vec![(taker.maker_address.as_str(), taker.buy, true, taker.outcome)];
            sides.extend(t.makers.iter().filter_map(|f| f.order).map(|i| {
                let o = &ledger.orders[i];
                (o.maker_address.as_str(), o.buy, false, o.outcome)
            }));
            for (wallet, buy, is_taker, outcome) in sides {
                let price = t.price_of(is_taker) as f64 / 1e6;
                let keep = (!taker_only || is_taker)
                    && markets.as_ref().is_none_or(|list| list.contains(&m.condition_id))
                    && user.as_ref().is_none_or(|u| wallet.eq_ignore_ascii_case(u))
                    && side.is_none_or(|s| (s == "BUY") == buy)
                    && match (filter_type, filter_amount) {
                        (Some("CASH"), Some(a)) => size * price >= a,
                        (Some(_), Some(a)) => size >= a,
                        _ => true,
                    };
                if keep {
                    rows.push(Row::Placed(json!({
                        "proxyWallet": wallet, "side": if buy { "BUY" } else { "SELL" },
                        "asset": format!("{}:{}", m.condition_id, outcome), "conditionId": m.condition_id,
                        "size": size, "price": price, "timestamp": t.time_ms / 1000, "usdcSize": round6(size * price),
                        "title": m.question, "slug": m.slug, "icon": image(&m.slug), "eventSlug": c.events[m.event].slug,
                        "outcome": m.outcomes[outcome], "outcomeIndex": outcome, "name": "", "pseudonym": "",
                        "bio": "", "profileImage": "", "profileImageOptimized": "", "transactionHash": t.tx,
                    })));
                }
            }
        }
    }
    let hits: Vec<usize> = (0..c.fills.len())
        .filter(|&i| {
            let f = &c.fills[i];
            let m = &c.markets[f.market];
            let size = f.size as f64 / 100.0;
            (!taker_only || f.taker)
                && markets.as_ref().is_none_or(|list| list.contains(&m.condition_id))
                && user.as_ref().is_none_or(|u| c.wallets[f.wallet].address == *u)
                && side.is_none_or(|s| (s == "BUY") == f.buy)
                && match (filter_type, filter_amount) {
                    (Some("CASH"), Some(a)) => size * f.price as f64 / 1000.0 >= a,
                    (Some(_), Some(a)) => size >= a,
                    _ => true,
                }
        })
        .collect();
    rows.extend(hits.into_iter().map(Row::Fill));
    let page: Vec<Value> = offset_page(&rows, offset, limit)
        .iter()
        .map(|row| {
            let i = match row {
                Row::Placed(v) => return v.clone(),
                Row::Fill(i) => *i,
            };
            let f = &c.fills[i];
            let m = &c.markets[f.market];
            let e = &c.events[m.event];
            let w = &c.wallets[f.wallet];
            let (size, price) = (f.size as f64 / 100.0, f.price as f64 / 1000.0);
            json!({
                "proxyWallet": w.address, "side": if f.buy { "BUY" } else { "SELL" },
                "asset": format!("{}:{}", m.condition_id, f.outcome), "conditionId": m.condition_id,
                "size": size, "price": price, "timestamp": f.timestamp, "usdcSize": round6(size * price),
                "title": m.question, "slug": m.slug, "icon": image(&m.slug), "eventSlug": e.slug,
                "outcome": m.outcomes[f.outcome], "outcomeIndex": f.outcome, "name": w.name, "pseudonym": w.pseudonym,
                "bio": w.bio, "profileImage": "", "profileImageOptimized": "", "transactionHash": f.tx,
            })
        })
        .collect();
    ok_json(&Value::Array(page))
}

async fn closed_positions(State(app): State<Arc<App>>, RawQuery(q): RawQuery) -> ApiResult {
    let p = Params::parse(q.as_deref());
    let user = user(&p, true)?.unwrap_or_default();
    let markets = markets(&p)?;
    let title = p.max_len("title", 100)?.map(str::to_lowercase);
    let limit = p.int("limit", 0, Some(50), 10)?;
    let offset = p.int("offset", 0, Some(100_000), 0)?;
    let sort_by =
        p.one_of("sortBy", &["REALIZEDPNL", "TITLE", "PRICE", "AVGPRICE", "TIMESTAMP"])?.unwrap_or("REALIZEDPNL");
    let ascending = p.one_of("sortDirection", &["DESC", "ASC"])?.unwrap_or("DESC") == "ASC";
    let c: &Catalog = &app.catalog;
    let mut hits: Vec<usize> = (0..c.closed_positions.len())
        .filter(|&i| {
            let cp = &c.closed_positions[i];
            let m = &c.markets[cp.market];
            c.wallets[cp.wallet].address == user
                && markets.as_ref().is_none_or(|list| list.contains(&m.condition_id))
                && title.as_ref().is_none_or(|t| m.question.to_lowercase().contains(t.as_str()))
        })
        .collect();
    let key = |i: usize| -> (i64, String) {
        let cp = &c.closed_positions[i];
        let micro = |x: f64| (x * 1e6).round() as i64;
        match sort_by {
            "TITLE" => (0, c.markets[cp.market].question.clone()),
            "PRICE" => (micro(cp.cur_price), String::new()),
            "AVGPRICE" => (micro(cp.avg_price), String::new()),
            "TIMESTAMP" => (cp.timestamp, String::new()),
            _ => (micro(cp.realized_pnl), String::new()),
        }
    };
    hits.sort_by(|&a, &b| {
        let order = key(a).cmp(&key(b)).then(a.cmp(&b));
        if ascending {
            order
        } else {
            order.reverse()
        }
    });
    let page: Vec<Value> = offset_page(&hits, offset, limit)
        .iter()
        .map(|&i| {
            let cp = &c.closed_positions[i];
            let m = &c.markets[cp.market];
            let e = &c.events[m.event];
            let o = cp.outcome;
            let initial = round6(cp.total_bought * cp.avg_price);
            json!({
                "proxyWallet": c.wallets[cp.wallet].address, "asset": format!("{}:{}", m.condition_id, o),
                "conditionId": m.condition_id, "size": cp.size, "avgPrice": cp.avg_price, "initialValue": initial,
                "currentValue": 0.0, "cashPnl": cp.realized_pnl, "totalBought": cp.total_bought,
                "realizedPnl": cp.realized_pnl, "percentPnl": if initial > 0.0 { round6(cp.realized_pnl / initial * 100.0) } else { 0.0 },
                "percentRealizedPnl": if initial > 0.0 { round6(cp.realized_pnl / initial * 100.0) } else { 0.0 },
                "curPrice": cp.cur_price, "redeemable": false, "mergeable": false, "title": m.question, "slug": m.slug,
                "icon": image(&m.slug), "eventSlug": e.slug, "outcome": m.outcomes[o], "outcomeIndex": o,
                "oppositeOutcome": m.outcomes[1 - o], "oppositeAsset": format!("{}:{}", m.condition_id, 1 - o),
                "timestamp": cp.timestamp, "endDate": iso(m.end),
            })
        })
        .collect();
    ok_json(&Value::Array(page))
}
