//! The catalog surface: events, markets, series, comments, tags, creators and search (interface §4.3–4.10, /tags).

use std::sync::Arc;

use axum::extract::{Path, RawQuery, State};
use axum::routing::get;
use axum::Router;
use serde_json::{json, Value};

use crate::dataset::{Catalog, Comment, Creator, Event, Market, Series, Tag};
use crate::text::{decimal, iso, micro_f64};
use axum::http::StatusCode;

use crate::app::App;
use crate::params::{join, json_text, offset_page, ok_json, ApiError, ApiResult, Params};

pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/events", get(events))
        .route("/events/creators", get(creators))
        .route("/series", get(series))
        .route("/tags", get(tags))
        .route("/comments", get(comments))
        .route("/comments/{id}", get(comment_replies))
        .route("/markets/slug/{slug}", get(market_by_slug))
        .route("/markets/{id}", get(market_by_id))
        .route("/public-search", get(search))
}

fn image(kind: &str, slug: &str) -> String {
    format!("https://images.predictkit.test/{kind}/{slug}.png")
}

pub fn tag_json(t: &Tag) -> Value {
    json!({
        "id": t.id.to_string(), "label": t.label, "slug": t.slug, "createdAt": t.created, "updatedAt": t.updated,
        "requiresTranslation": false,
    })
}

pub fn event_summary(e: &Event) -> Value {
    json!({
        "id": e.id.to_string(), "ticker": e.ticker, "slug": e.slug, "title": e.title, "description": e.description,
        "resolutionSource": "", "startDate": iso(e.start), "creationDate": iso(e.created), "endDate": iso(e.end),
        "image": image("events", &e.slug), "icon": image("events", &e.slug),
        "active": e.active, "closed": e.closed, "archived": e.archived,
        "createdAt": iso(e.created), "updatedAt": iso(e.updated),
    })
}

fn token_list(tokens: &[String; 2]) -> String {
    serde_json::to_string(tokens).unwrap_or_default()
}

fn outcome_prices(m: &Market) -> String {
    serde_json::to_string(&[decimal(m.prices[0], 6), decimal(m.prices[1], 6)]).unwrap_or_default()
}

/// A market of the newer position system says so (docs.polymarket.com, "Polymarket V2" migration: Gamma's
/// `version` "v2" and the positions as `positionIds`).
fn mark_position_system(m: &Market, mut v: Value) -> Value {
    if m.position_system {
        v["version"] = json!("v2");
        v["positionIds"] = json!(m.tokens);
    }
    v
}

fn event_market(m: &Market) -> Value {
    mark_position_system(
        m,
        json!({
            "id": m.id.to_string(), "question": m.question, "conditionId": m.condition_id,
            "mirrorConditionId": m.mirror_condition_id, "clobTokenIds": token_list(&m.tokens),
            "mirrorClobTokenIds": token_list(&m.mirror_tokens), "slug": m.slug,
            "outcomes": serde_json::to_string(&m.outcomes).unwrap_or_default(), "outcomePrices": outcome_prices(m),
            "active": m.active, "closed": m.closed, "archived": m.archived, "questionID": m.question_id,
        }),
    )
}

fn series_summary(s: &Series) -> Value {
    json!({
        "id": s.id.to_string(), "ticker": s.ticker, "slug": s.slug, "title": s.title, "seriesType": s.series_type,
        "recurrence": s.recurrence, "image": image("series", &s.slug), "icon": image("series", &s.slug),
        "active": s.active, "closed": s.closed, "archived": s.archived,
        "createdAt": iso(s.created), "updatedAt": iso(s.updated),
    })
}

pub fn event_json(c: &Catalog, e: &Event) -> Value {
    let mut v = event_summary(e);
    v["tags"] = e.tags.iter().map(|&t| tag_json(&c.tags[t])).collect();
    v["markets"] = e.markets.iter().map(|&m| event_market(&c.markets[m])).collect();
    v["series"] = e.series.iter().map(|&s| series_summary(&c.series[s])).collect();
    v["volume"] = json!(e.volume);
    v["negRisk"] = json!(e.markets.iter().any(|&m| c.markets[m].neg_risk));
    v
}

pub fn market_json(c: &Catalog, m: &Market) -> Value {
    mark_position_system(
        m,
        json!({
            "id": m.id.to_string(), "question": m.question, "conditionId": m.condition_id,
            "mirrorConditionId": m.mirror_condition_id, "slug": m.slug, "resolutionSource": "",
            "startDate": iso(m.start), "endDate": iso(m.end), "image": image("markets", &m.slug),
            "icon": image("markets", &m.slug), "description": m.description,
            "outcomes": serde_json::to_string(&m.outcomes).unwrap_or_default(), "outcomePrices": outcome_prices(m),
            "clobTokenIds": token_list(&m.tokens), "mirrorClobTokenIds": token_list(&m.mirror_tokens),
            "active": m.active, "closed": m.closed, "archived": m.archived,
            "createdAt": iso(m.created), "updatedAt": iso(m.updated), "questionID": m.question_id,
            "enableOrderBook": true, "acceptingOrders": m.accepting_orders, "negRisk": m.neg_risk,
            "orderPriceMinTickSize": micro_f64(m.tick), "orderMinSize": m.min_order_size,
            "events": [event_summary(&c.events[m.event])],
        }),
    )
}

fn creator_json(c: &Creator) -> Value {
    json!({
        "id": c.id, "creatorName": c.name, "creatorHandle": c.handle, "creatorUrl": format!("https://{}", c.site),
        "creatorImage": image("creators", &c.handle), "createdAt": iso(c.created), "updatedAt": iso(c.updated),
    })
}

fn comment_json(c: &Catalog, idx: usize, with_replies: bool) -> Value {
    let cm: &Comment = &c.comments[idx];
    let p = &c.profiles[cm.profile];
    let reactions: Vec<Value> = cm
        .reactions
        .iter()
        .enumerate()
        .map(|(k, &r)| {
            json!({
                "id": (4_000_000 + cm.id * 4 + k as u64).to_string(), "commentID": cm.id, "reactionType": "HEART",
                "userAddress": c.profiles[r].base_address, "profile": { "proxyWallet": c.profiles[r].proxy_wallet },
            })
        })
        .collect();
    let replies: Vec<Value> =
        if with_replies { cm.replies.iter().map(|&r| comment_json(c, r, false)).collect() } else { Vec::new() };
    json!({
        "id": cm.id.to_string(), "body": cm.body, "parentEntityType": cm.parent_type, "parentEntityID": cm.parent_id,
        "parentCommentID": cm.parent_comment.map(|p| c.comments[p].id.to_string()).unwrap_or_default(),
        "userAddress": p.base_address, "replyAddress": c.profiles[cm.reply_profile].base_address,
        "createdAt": iso(cm.created), "updatedAt": iso(cm.updated),
        "profile": {
            "name": p.name, "pseudonym": p.pseudonym, "displayUsernamePublic": true, "bio": p.bio, "isMod": p.is_mod,
            "isCreator": p.is_creator, "proxyWallet": p.proxy_wallet, "baseAddress": p.base_address,
            "profileImage": image("profiles", &p.name), "profileImageOptimized": {},
            "positions": p.positions.iter().map(|(t, s)| json!({"tokenId": t, "positionSize": s})).collect::<Vec<_>>(),
        },
        "reactions": reactions, "reportCount": cm.report_count, "reactionCount": cm.reactions.len(),
        "replyCount": if cm.parent_comment.is_none() { cm.replies.len() } else { 0 }, "replies": replies,
    })
}

fn limit_offset(p: &Params) -> Result<(i64, i64), ApiError> {
    Ok((p.int("limit", 1, Some(100), 20)?, p.int("offset", 0, None, 0)?))
}

fn sort_by<T, K: Ord>(items: &mut [T], ascending: bool, key: impl Fn(&T) -> K) {
    items.sort_by(|a, b| if ascending { key(a).cmp(&key(b)) } else { key(b).cmp(&key(a)) });
}

async fn events(State(app): State<Arc<App>>, RawQuery(q): RawQuery) -> ApiResult {
    let p = Params::parse(q.as_deref());
    let (limit, offset) = limit_offset(&p)?;
    let (active, closed, archived) = (p.bool("active")?, p.bool("closed")?, p.bool("archived")?);
    let tag_id = p.opt_int("tag_id", i64::MIN, None)?;
    let tag_slug = p.get("tag_slug").or(p.get("tag"));
    let order =
        p.one_of("order", &["id", "title", "slug", "startDate", "endDate", "createdAt", "updatedAt", "volume"])?;
    let ascending = p.bool("ascending")?.unwrap_or(false);
    let c = &app.catalog;
    let series_events = p
        .get("series_slug")
        .map(|slug| c.series.iter().find(|s| s.slug == slug).map(|s| s.events.clone()).unwrap_or_default());
    let slug = p.get("slug");
    let creator = p.get("creator");
    let mut hits: Vec<usize> = (0..c.events.len())
        .filter(|&i| {
            let e = &c.events[i];
            active.is_none_or(|a| e.active == a)
                && closed.is_none_or(|a| e.closed == a)
                && archived.is_none_or(|a| e.archived == a)
                && tag_id.is_none_or(|id| e.tags.iter().any(|&t| c.tags[t].id as i64 == id))
                && tag_slug.is_none_or(|s| e.tags.iter().any(|&t| c.tags[t].slug == s))
                && slug.is_none_or(|s| e.slug == s)
                && series_events.as_ref().is_none_or(|list| list.contains(&i))
                && creator.is_none_or(|cr| c.creator_matches(i, cr))
        })
        .collect();
    if let Some(order) = order {
        let ev = |i: &usize| &c.events[*i];
        match order {
            "title" => sort_by(&mut hits, ascending, |i| ev(i).title.clone()),
            "slug" => sort_by(&mut hits, ascending, |i| ev(i).slug.clone()),
            "startDate" => sort_by(&mut hits, ascending, |i| ev(i).start),
            "endDate" => sort_by(&mut hits, ascending, |i| ev(i).end),
            "createdAt" => sort_by(&mut hits, ascending, |i| ev(i).created),
            "updatedAt" => sort_by(&mut hits, ascending, |i| ev(i).updated),
            "volume" => sort_by(&mut hits, ascending, |i| (ev(i).volume * 10.0) as i64),
            _ => sort_by(&mut hits, ascending, |i| ev(i).id),
        }
    }
    let page = offset_page(&hits, offset, limit)
        .iter()
        .map(|&i| c.event_json[i].get_or_init(|| event_json(c, &c.events[i]).to_string()).as_str());
    Ok(json_text(StatusCode::OK, join(page)))
}

async fn creators(State(app): State<Arc<App>>, RawQuery(q): RawQuery) -> ApiResult {
    let p = Params::parse(q.as_deref());
    let (limit, offset) = limit_offset(&p)?;
    let order = p.one_of("order", &["id", "creatorName", "creatorHandle", "createdAt", "updatedAt"])?;
    let ascending = p.bool("ascending")?.unwrap_or(false);
    let name = p.get("creator_name").map(str::to_lowercase);
    let handle = p.get("creator_handle").map(str::to_lowercase);
    let c = &app.catalog;
    let mut hits: Vec<usize> = (0..c.creators.len())
        .filter(|&i| {
            let cr = &c.creators[i];
            name.as_ref().is_none_or(|n| cr.name.to_lowercase().contains(n.as_str()))
                && handle.as_ref().is_none_or(|h| cr.handle.to_lowercase().contains(h.as_str()))
        })
        .collect();
    if let Some(order) = order {
        let cr = |i: &usize| &c.creators[*i];
        match order {
            "creatorName" => sort_by(&mut hits, ascending, |i| cr(i).name.clone()),
            "creatorHandle" => sort_by(&mut hits, ascending, |i| cr(i).handle.clone()),
            "createdAt" => sort_by(&mut hits, ascending, |i| cr(i).created),
            "updatedAt" => sort_by(&mut hits, ascending, |i| cr(i).updated),
            _ => sort_by(&mut hits, ascending, |i| cr(i).id.clone()),
        }
    }
    let page: Vec<Value> = offset_page(&hits, offset, limit).iter().map(|&i| creator_json(&c.creators[i])).collect();
    ok_json(&Value::Array(page))
}

async fn series(State(app): State<Arc<App>>, RawQuery(q): RawQuery) -> ApiResult {
    let p = Params::parse(q.as_deref());
    let (limit, offset) = limit_offset(&p)?;
    let creator = p.get("creator");
    let c = &app.catalog;
    let hits: Vec<usize> = (0..c.series.len())
        .filter(|&i| creator.is_none_or(|cr| c.series[i].events.iter().any(|&e| c.creator_matches(e, cr))))
        .collect();
    let page: Vec<Value> = offset_page(&hits, offset, limit)
        .iter()
        .map(|&i| {
            let s = &c.series[i];
            let mut v = series_summary(s);
            v["events"] = s
                .events
                .iter()
                .filter(|&&e| creator.is_none_or(|cr| c.creator_matches(e, cr)))
                .map(|&e| event_summary(&c.events[e]))
                .collect();
            v
        })
        .collect();
    ok_json(&Value::Array(page))
}

async fn tags(State(app): State<Arc<App>>, RawQuery(q): RawQuery) -> ApiResult {
    let p = Params::parse(q.as_deref());
    let (limit, offset) = limit_offset(&p)?;
    let c = &app.catalog;
    let hits: Vec<usize> = match p.get("creator") {
        Some(cr) => {
            let mut used = vec![false; c.tags.len()];
            for (i, e) in c.events.iter().enumerate() {
                if c.creator_matches(i, cr) {
                    e.tags.iter().for_each(|&t| used[t] = true);
                }
            }
            (0..c.tags.len()).filter(|&t| used[t]).collect()
        }
        None => (0..c.tags.len()).collect(),
    };
    let page: Vec<Value> = offset_page(&hits, offset, limit).iter().map(|&t| tag_json(&c.tags[t])).collect();
    ok_json(&Value::Array(page))
}

async fn comments(State(app): State<Arc<App>>, RawQuery(q): RawQuery) -> ApiResult {
    let p = Params::parse(q.as_deref());
    let (limit, offset) = limit_offset(&p)?;
    let kind = p.one_of("parent_entity_type", &["Event", "Series", "market"])?;
    let parent_id = p.get("parent_entity_id");
    let holders_only = p.bool("holders_only")?.unwrap_or(false);
    let order = p.one_of("order", &["id", "createdAt", "updatedAt", "reactionCount"])?;
    let ascending = p.bool("ascending")?.unwrap_or(false);
    let c = &app.catalog;
    let scope: Option<(&str, u64)> = match (kind, parent_id, p.get("event_slug")) {
        (_, _, Some(slug)) => match c.events.iter().find(|e| e.slug == slug) {
            Some(e) => Some(("Event", e.id)),
            None => return ok_json(&json!([])),
        },
        (Some(kind), Some(id), None) => {
            let id = id.parse::<u64>().map_err(|_| ApiError::bad("parent_entity_id must be a numeric id"))?;
            Some((kind, id))
        }
        (Some(_), None, None) => return Err(ApiError::bad("parent_entity_id is required with parent_entity_type")),
        (None, Some(_), None) => return Err(ApiError::bad("parent_entity_type is required with parent_entity_id")),
        (None, None, None) => None,
    };
    let mut hits: Vec<usize> = c
        .top_comments
        .iter()
        .copied()
        .filter(|&i| {
            let cm = &c.comments[i];
            scope.is_none_or(|(k, id)| cm.parent_type == k && cm.parent_id == id)
                && (!holders_only || !c.profiles[cm.profile].positions.is_empty())
        })
        .collect();
    let cm = |i: &usize| &c.comments[*i];
    match order {
        Some("id") => sort_by(&mut hits, ascending, |i| cm(i).id),
        Some("updatedAt") => sort_by(&mut hits, ascending, |i| cm(i).updated),
        Some("reactionCount") => sort_by(&mut hits, ascending, |i| (cm(i).reactions.len(), cm(i).id)),
        _ => sort_by(&mut hits, ascending, |i| (cm(i).created, cm(i).id)),
    }
    let page: Vec<Value> = offset_page(&hits, offset, limit).iter().map(|&i| comment_json(c, i, true)).collect();
    ok_json(&Value::Array(page))
}

async fn comment_replies(State(app): State<Arc<App>>, Path(id): Path<String>, RawQuery(q): RawQuery) -> ApiResult {
    let p = Params::parse(q.as_deref());
    let (limit, offset) = limit_offset(&p)?;
    let c = &app.catalog;
    let id = id.parse::<u64>().map_err(|_| ApiError::bad("id must be a numeric comment id"))?;
    let idx = c.comment(id).ok_or_else(|| ApiError::not_found("comment not found"))?;
    let page: Vec<Value> =
        offset_page(&c.comments[idx].replies, offset, limit).iter().map(|&r| comment_json(c, r, false)).collect();
    ok_json(&Value::Array(page))
}

fn creator_allows(c: &Catalog, m: usize, p: &Params) -> bool {
    p.get("creator").is_none_or(|cr| c.creator_matches(c.markets[m].event, cr))
}

async fn market_by_slug(State(app): State<Arc<App>>, Path(slug): Path<String>, RawQuery(q): RawQuery) -> ApiResult {
    let p = Params::parse(q.as_deref());
    let c = &app.catalog;
    match c.market_by_slug(&slug) {
        Some(m) if creator_allows(c, m, &p) => ok_json(&market_json(c, &c.markets[m])),
        _ => Err(ApiError::not_found("market not found")),
    }
}

async fn market_by_id(State(app): State<Arc<App>>, Path(id): Path<String>, RawQuery(q): RawQuery) -> ApiResult {
    let p = Params::parse(q.as_deref());
    let c = &app.catalog;
    let found = if crate::params::is_condition_id(&id) {
        c.market_by_condition(&id)
    } else if !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()) {
        id.parse().ok().and_then(|n| c.market_by_id(n))
    } else {
        return Err(ApiError::bad("id must be a numeric market id or a condition id (0x and 64 hex digits)"));
    };
    match found {
        Some(m) if creator_allows(c, m, &p) => ok_json(&market_json(c, &c.markets[m])),
        _ => Err(ApiError::not_found("market not found")),
    }
}

async fn search(State(app): State<Arc<App>>, RawQuery(q): RawQuery) -> ApiResult {
    let p = Params::parse(q.as_deref());
    let query = p.required("q")?.trim().to_lowercase();
    if query.is_empty() {
        return Err(ApiError::bad("q is required"));
    }
    let limit = p.int("limit_per_type", 1, Some(500), 25)? as usize;
    let page = p.int("page", 1, None, 1)? as usize;
    let search_tags = p.bool("search_tags")?.unwrap_or(true);
    let _profiles = p.bool("search_profiles")?;
    let creator = p.get("creator");
    let c = &app.catalog;
    let hits: Vec<usize> = (0..c.events.len())
        .filter(|&i| {
            let e = &c.events[i];
            creator.is_none_or(|cr| c.creator_matches(i, cr))
                && (e.title.to_lowercase().contains(&query)
                    || e.slug.contains(&query)
                    || e.markets.iter().any(|&m| c.markets[m].question.to_lowercase().contains(&query)))
        })
        .collect();
    let start = (page - 1).saturating_mul(limit);
    let events: Vec<Value> = hits
        .iter()
        .skip(start)
        .take(limit)
        .map(|&i| {
            let e = &c.events[i];
            json!({
                "id": e.id.to_string(), "ticker": e.ticker, "slug": e.slug, "title": e.title,
                "description": e.description, "active": e.active, "closed": e.closed, "archived": e.archived,
            })
        })
        .collect();
    let tags: Vec<Value> = if search_tags {
        let mut counts = vec![0u64; c.tags.len()];
        for e in &c.events {
            e.tags.iter().for_each(|&t| counts[t] += 1);
        }
        c.tags
            .iter()
            .enumerate()
            .filter(|(_, t)| t.label.to_lowercase().contains(&query) || t.slug.contains(&query))
            .skip(start)
            .take(limit)
            .map(|(i, t)| json!({ "id": t.id.to_string(), "label": t.label, "slug": t.slug, "event_count": counts[i] }))
            .collect()
    } else {
        Vec::new()
    };
    ok_json(&json!({
        "events": events,
        "tags": tags,
        "pagination": { "hasMore": start.saturating_add(limit) < hits.len(), "totalResults": hits.len() },
    }))
}
