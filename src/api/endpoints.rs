//! One function per endpoint: params in, a validated [`HttpRequest`] out (interface §4). Nothing here does
//! I/O, so every rule is tested natively.

use super::params::{
    check, opt, path_text, query, req, token_id, Kind, Param, Params, Value, MAX_SAFE_INT, NON_NEGATIVE, TEXT,
};
use super::request::{segment, HttpRequest, Method, Scope, Surface};
use crate::error::Error;
use crate::json::JsonWriter;
use crate::text::concat;

/// The most items POST /books and POST /prices take (DESIGN §3).
pub const MAX_BATCH: usize = 500;
/// The most markets POST /batch-prices-history takes (DESIGN §3).
pub const MAX_HISTORY_MARKETS: usize = 20;

const SIDES: &[&str] = &["BUY", "SELL"];
const INTERVALS: &[&str] = &["max", "1w", "1d", "6h", "1h"];
const LIST_LIMIT: Kind = Kind::Int { min: 1, max: 100 };

pub const TRADES: &[Param] = &[
    opt("limit", Kind::Int { min: 0, max: 10_000 }),
    opt("offset", Kind::Int { min: 0, max: 10_000 }),
    opt("takerOnly", Kind::Bool),
    opt("filterType", Kind::Enum(&["CASH", "TOKENS"])),
    opt("filterAmount", Kind::Number { min: 0.0 }),
    opt("market", Kind::ConditionIds),
    opt("user", Kind::Address),
    opt("side", Kind::Enum(SIDES)),
];

pub const CLOSED_POSITIONS: &[Param] = &[
    req("user", Kind::Address),
    opt("market", Kind::ConditionIds),
    opt("title", Kind::Str { max: 100 }),
    opt("limit", Kind::Int { min: 0, max: 50 }),
    opt("offset", Kind::Int { min: 0, max: 100_000 }),
    opt("sortBy", Kind::Enum(&["REALIZEDPNL", "TITLE", "PRICE", "AVGPRICE", "TIMESTAMP"])),
    opt("sortDirection", Kind::Enum(&["DESC", "ASC"])),
];

pub const COMMENTS: &[Param] = &[
    opt("limit", LIST_LIMIT),
    opt("offset", NON_NEGATIVE),
    opt("order", TEXT),
    opt("parent_entity_type", Kind::Enum(&["Event", "Series", "market"])),
    opt("parent_entity_id", TEXT),
    opt("event_slug", TEXT),
    opt("holders_only", Kind::Bool),
];

pub const REPLIES: &[Param] = &[opt("limit", LIST_LIMIT), opt("offset", NON_NEGATIVE)];

pub const CREATOR_ONLY: &[Param] = &[opt("creator", TEXT)];

pub const SERIES: &[Param] = &[opt("limit", LIST_LIMIT), opt("offset", NON_NEGATIVE), opt("creator", TEXT)];

pub const EVENTS: &[Param] = &[
    opt("limit", LIST_LIMIT),
    opt("offset", NON_NEGATIVE),
    opt("active", Kind::Bool),
    opt("closed", Kind::Bool),
    opt("archived", Kind::Bool),
    opt("tag", TEXT),
    opt("tag_id", NON_NEGATIVE),
    opt("tag_slug", TEXT),
    opt("series_slug", TEXT),
    opt("slug", TEXT),
    opt("order", TEXT),
    opt("ascending", Kind::Bool),
    opt("creator", TEXT),
];

pub const EVENT_CREATORS: &[Param] = &[
    opt("limit", LIST_LIMIT),
    opt("offset", NON_NEGATIVE),
    opt("order", TEXT),
    opt("ascending", Kind::Bool),
    opt("creator_name", TEXT),
    opt("creator_handle", TEXT),
];

pub const PUBLIC_SEARCH: &[Param] = &[
    req("q", TEXT),
    opt("limit_per_type", Kind::Int { min: 1, max: 500 }),
    opt("page", Kind::Int { min: 1, max: MAX_SAFE_INT }),
    opt("search_tags", Kind::Bool),
    opt("search_profiles", Kind::Bool),
    opt("creator", TEXT),
];

pub const TAGS: &[Param] = &[opt("limit", LIST_LIMIT), opt("offset", NON_NEGATIVE)];

pub const PRICES_HISTORY: &[Param] = &[
    req("market", Kind::TokenId),
    opt("startTs", NON_NEGATIVE),
    opt("endTs", NON_NEGATIVE),
    opt("interval", Kind::Enum(INTERVALS)),
    opt("fidelity", Kind::Int { min: 1, max: MAX_SAFE_INT }),
];

const BATCH_HISTORY_OPTIONS: &[Param] = &[
    opt("start_ts", NON_NEGATIVE),
    opt("end_ts", NON_NEGATIVE),
    opt("interval", Kind::Enum(INTERVALS)),
    opt("fidelity", Kind::Int { min: 1, max: MAX_SAFE_INT }),
];

fn catalog(path: impl Into<String>, table: &'static [Param], params: &Params) -> Result<HttpRequest, Error> {
    Ok(HttpRequest::get(Surface::Catalog, path).queries(query(table, params)?).takes(table))
}

/// GET /trades (§4.1).
pub fn trades(params: &Params) -> Result<HttpRequest, Error> {
    let q = query(TRADES, params)?;
    let has = |name| q.iter().any(|(k, _)| *k == name);
    if has("filterType") != has("filterAmount") {
        return Err(Error::invalid("filterType", "and filterAmount must be given together"));
    }
    Ok(HttpRequest::get(Surface::Activity, "/trades").queries(q).takes(TRADES))
}

/// GET /closed-positions (§4.2).
pub fn closed_positions(params: &Params) -> Result<HttpRequest, Error> {
    let q = query(CLOSED_POSITIONS, params)?;
    Ok(HttpRequest::get(Surface::Activity, "/closed-positions").queries(q).takes(CLOSED_POSITIONS))
}

/// GET /comments (§4.3).
pub fn comments(params: &Params) -> Result<HttpRequest, Error> {
    catalog("/comments", COMMENTS, params)
}

/// GET /comments/{id} (§4.4).
pub fn comment_replies(id: &str, params: &Params) -> Result<HttpRequest, Error> {
    let id = path_text("id", id)?;
    catalog(concat(&["/comments/", &segment(id)]), REPLIES, params)
}

/// GET /markets/slug/{slug} (§4.5).
pub fn market_by_slug(slug: &str, params: &Params) -> Result<HttpRequest, Error> {
    let slug = path_text("slug", slug)?;
    catalog(concat(&["/markets/slug/", &segment(slug)]), CREATOR_ONLY, params)
}

/// GET /markets/{id} (§4.6): a numeric market id or a condition id.
pub fn market(id: &str, params: &Params) -> Result<HttpRequest, Error> {
    let numeric = !id.is_empty() && id.len() <= 20 && id.bytes().all(|b| b.is_ascii_digit());
    if !numeric && !super::params::is_condition_id(id) {
        return Err(Error::invalid("id", "must be a numeric market id or a condition id (0x and 64 hex digits)"));
    }
    catalog(concat(&["/markets/", id]), CREATOR_ONLY, params)
}

/// GET /series (§4.7).
pub fn series(params: &Params) -> Result<HttpRequest, Error> {
    catalog("/series", SERIES, params)
}

/// GET /events (§4.8).
pub fn events(params: &Params) -> Result<HttpRequest, Error> {
    Ok(catalog("/events", EVENTS, params)?.scope(Scope::Events))
}

/// GET /events/creators (§4.9).
pub fn event_creators(params: &Params) -> Result<HttpRequest, Error> {
    catalog("/events/creators", EVENT_CREATORS, params)
}

/// GET /public-search (§4.10).
pub fn public_search(params: &Params) -> Result<HttpRequest, Error> {
    Ok(catalog("/public-search", PUBLIC_SEARCH, params)?.scope(Scope::PublicSearch))
}

/// GET /tags (§4.23).
pub fn tags(params: &Params) -> Result<HttpRequest, Error> {
    Ok(catalog("/tags", TAGS, params)?.scope(Scope::Tags))
}

/// A cursor as the service gives it: Base64 text, `MA==` for the first page.
fn cursor(next_cursor: Option<&str>) -> Result<Option<&str>, Error> {
    match next_cursor {
        None => Ok(None),
        Some(c) if c.len() <= 200 && c.bytes().all(|b| b.is_ascii_alphanumeric() || b"+/=-_".contains(&b)) => {
            Ok(Some(c))
        }
        Some(_) => Err(Error::invalid("next_cursor", "must be a cursor the service returned (Base64 text)")),
    }
}

fn clob_list(path: &'static str, next_cursor: Option<&str>, scope: Scope) -> Result<HttpRequest, Error> {
    let mut req = HttpRequest::get(Surface::Clob, path).scope(scope);
    if let Some(c) = cursor(next_cursor)? {
        req = req.query("next_cursor", c);
    }
    Ok(req)
}

/// GET /markets, the CLOB list (§4.11).
pub fn clob_markets(next_cursor: Option<&str>) -> Result<HttpRequest, Error> {
    clob_list("/markets", next_cursor, Scope::ClobMarkets)
}

/// GET /sampling-markets (§4.12).
pub fn sampling_markets(next_cursor: Option<&str>) -> Result<HttpRequest, Error> {
    clob_list("/sampling-markets", next_cursor, Scope::Surface)
}

/// GET /clob-markets/{condition_id} (§4.13).
pub fn clob_market_info(condition_id: &str) -> Result<HttpRequest, Error> {
    if !super::params::is_condition_id(condition_id) {
        return Err(Error::invalid("condition_id", "must be 0x and 64 hex digits"));
    }
    Ok(HttpRequest::get(Surface::Clob, concat(&["/clob-markets/", condition_id])))
}

/// GET / — the CLOB surface's health check.
pub fn ok() -> HttpRequest {
    HttpRequest::get(Surface::Clob, "/").scope(Scope::ClobRoot)
}

/// GET /book (§4.14).
pub fn order_book(token: &str) -> Result<HttpRequest, Error> {
    let token = token_id("token_id", token)?;
    Ok(HttpRequest::get(Surface::Clob, "/book").query("token_id", token).scope(Scope::Book))
}

const BATCH_ITEM: &[Param] = &[req("token_id", Kind::TokenId)];

/// The `[{"token_id": ...}]` body of POST /books and POST /prices, from `[{ token_id }]`.
fn token_batch(items: &Value) -> Result<String, Error> {
    let Value::Array(items) = items else {
        return Err(Error::invalid("params", "must be an array of { token_id }"));
    };
    if items.is_empty() || items.len() > MAX_BATCH {
        return Err(Error::invalid("params", "must list from 1 to 500 tokens"));
    }
    let mut body = JsonWriter::array();
    for item in items {
        let Value::Object(fields) = item else {
            return Err(Error::invalid("token_id", "each item must be an object { token_id }"));
        };
        let q = query(BATCH_ITEM, &Params(fields.clone()))?;
        body.object_start();
        for (name, token) in &q {
            body.field_str(name, token);
        }
        body.object_end();
    }
    Ok(body.finish())
}

/// POST /books (§4.15).
pub fn order_books(items: &Value) -> Result<HttpRequest, Error> {
    let body = token_batch(items)?;
    Ok(HttpRequest::new(Method::Post, Surface::Clob, "/books").body(body).scope(Scope::Books))
}

/// POST /books of tokens already checked (a stream's snapshots: the ids it follows).
pub fn order_books_of(tokens: &[String]) -> HttpRequest {
    let mut body = JsonWriter::array();
    for token in tokens {
        body.object_start();
        body.field_str("token_id", token);
        body.object_end();
    }
    HttpRequest::new(Method::Post, Surface::Clob, "/books").body(body.finish()).scope(Scope::Books)
}

/// POST /prices (§4.16).
pub fn prices(items: &Value) -> Result<HttpRequest, Error> {
    let body = token_batch(items)?;
    Ok(HttpRequest::new(Method::Post, Surface::Clob, "/prices").body(body).scope(Scope::Prices))
}

/// GET /price (§4.23): the best price on one side.
pub fn price(token: &str, side: &str) -> Result<HttpRequest, Error> {
    let token = token_id("token_id", token)?;
    let side = check("side", Kind::Enum(SIDES), &Value::Str(side.to_owned()))?;
    Ok(HttpRequest::get(Surface::Clob, "/price").query("token_id", token).query("side", side).scope(Scope::Price))
}

/// GET /midpoint (§4.23).
pub fn midpoint(token: &str) -> Result<HttpRequest, Error> {
    let token = token_id("token_id", token)?;
    Ok(HttpRequest::get(Surface::Clob, "/midpoint").query("token_id", token).scope(Scope::Midpoint))
}

/// GET /fee-rate/{token_id} (§4.17).
pub fn fee_rate(token: &str) -> Result<HttpRequest, Error> {
    let token = token_id("token_id", token)?;
    Ok(HttpRequest::get(Surface::Clob, concat(&["/fee-rate/", token])))
}

/// GET /prices-history (§4.23).
pub fn prices_history(params: &Params) -> Result<HttpRequest, Error> {
    let q = query(PRICES_HISTORY, params)?;
    Ok(HttpRequest::get(Surface::Clob, "/prices-history").queries(q).takes(PRICES_HISTORY).scope(Scope::PricesHistory))
}

/// POST /batch-prices-history (§4.18): `{ markets, start_ts?, end_ts?, interval?, fidelity? }`.
pub fn batch_prices_history(params: &Params) -> Result<HttpRequest, Error> {
    let markets = match params.get("markets") {
        Value::Array(items) => items,
        Value::Undefined | Value::Null => return Err(Error::invalid("markets", "is required")),
        _ => return Err(Error::invalid("markets", "must be an array of token ids")),
    };
    if markets.is_empty() || markets.len() > MAX_HISTORY_MARKETS {
        return Err(Error::invalid("markets", "must list from 1 to 20 token ids"));
    }
    let mut rest = params.clone();
    rest.0.retain(|(k, _)| k != "markets");
    let options = query(BATCH_HISTORY_OPTIONS, &rest)?;
    let mut body = JsonWriter::object();
    body.key("markets");
    body.array_start();
    for m in markets {
        let Value::Str(m) = m else {
            return Err(Error::invalid("markets", "must be an array of token id strings"));
        };
        body.str(token_id("markets", m)?);
    }
    body.array_end();
    for (name, text) in &options {
        if *name == "interval" {
            body.field_str(name, text);
        } else {
            body.field_raw(name, text);
        }
    }
    Ok(HttpRequest::new(Method::Post, Surface::Clob, "/batch-prices-history")
        .body(body.finish())
        .scope(Scope::BatchPricesHistory))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;

    const TOKEN: &str = "72610532355343625199299853218161700546393390326785971247545541945337255643692";
    const CID: &str = "0xdd22472e552920b8438158ea7238bfadfa4f736aa4cee91a6b86c39ead110917";
    const USER: &str = "0x56687bf447db6ffa42ffe2204a05edaa20f55839";

    fn p(pairs: &[(&str, Value)]) -> Params {
        Params(pairs.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect())
    }
    fn n(x: f64) -> Value {
        Value::Number(x)
    }
    fn s(x: &str) -> Value {
        Value::Str(x.to_owned())
    }
    fn url(r: Result<HttpRequest, Error>) -> String {
        r.unwrap().url("")
    }
    fn param_of(r: Result<HttpRequest, Error>) -> String {
        let e = r.unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidParams);
        e.param.unwrap().into_owned()
    }
    fn tokens(list: &[&str]) -> Value {
        Value::Array(list.iter().map(|t| Value::Object(vec![("token_id".into(), s(t))])).collect())
    }

    #[test]
    fn every_get_route_and_its_query() {
        assert_eq!(url(trades(&p(&[]))), "/trades");
        assert_eq!(
            url(trades(&p(&[
                ("limit", n(10_000.0)),
                ("market", Value::Array(vec![s(CID), s(CID)])),
                ("side", s("SELL"))
            ]))),
            format!("/trades?limit=10000&market={CID}%2C{CID}&side=SELL")
        );
        assert_eq!(
            url(closed_positions(&p(&[("user", s(USER)), ("limit", n(50.0))]))),
            format!("/closed-positions?user={USER}&limit=50")
        );
        assert_eq!(
            url(comments(&p(&[("parent_entity_type", s("Event")), ("parent_entity_id", s("45915"))]))),
            "/comments?parent_entity_type=Event&parent_entity_id=45915"
        );
        assert_eq!(url(comment_replies("12/3", &p(&[("limit", n(5.0))]))), "/comments/12%2F3?limit=5");
        assert_eq!(url(market_by_slug("will it rain?", &p(&[]))), "/markets/slug/will%20it%20rain%3F");
        assert_eq!(url(market("12", &p(&[("creator", s("site-a"))]))), "/markets/12?creator=site-a");
        assert_eq!(url(market(CID, &p(&[]))), format!("/markets/{CID}"));
        assert_eq!(url(series(&p(&[("offset", n(40.0))]))), "/series?offset=40");
        assert_eq!(
            url(events(&p(&[("closed", Value::Bool(false)), ("tag_id", n(7.0))]))),
            "/events?closed=false&tag_id=7"
        );
        assert_eq!(url(event_creators(&p(&[("ascending", Value::Bool(true))]))), "/events/creators?ascending=true");
        assert_eq!(url(public_search(&p(&[("q", s("a&b")), ("page", n(2.0))]))), "/public-search?q=a%26b&page=2");
        assert_eq!(url(tags(&p(&[]))), "/tags");
        assert_eq!(url(clob_markets(None)), "/markets");
        assert_eq!(url(clob_markets(Some("MTAw"))), "/markets?next_cursor=MTAw");
        assert_eq!(url(sampling_markets(Some("MA=="))), "/sampling-markets?next_cursor=MA%3D%3D");
        assert_eq!(url(clob_market_info(CID)), format!("/clob-markets/{CID}"));
        assert_eq!(url(order_book(TOKEN)), format!("/book?token_id={TOKEN}"));
        assert_eq!(url(price(TOKEN, "BUY")), format!("/price?token_id={TOKEN}&side=BUY"));
        assert_eq!(url(midpoint(TOKEN)), format!("/midpoint?token_id={TOKEN}"));
        assert_eq!(url(fee_rate(TOKEN)), format!("/fee-rate/{TOKEN}"));
        assert_eq!(
            url(prices_history(&p(&[("market", s(TOKEN)), ("interval", s("1d"))]))),
            format!("/prices-history?market={TOKEN}&interval=1d")
        );
        assert_eq!(ok().url(""), "/");
    }

    #[test]
    fn path_parameters_cannot_name_another_route() {
        type Build = fn(&str) -> Result<HttpRequest, Error>;
        let routes: [(Build, &str); 6] = [
            (|id| comment_replies(id, &Params::default()), "id"),
            (|slug| market_by_slug(slug, &Params::default()), "slug"),
            (|id| market(id, &Params::default()), "id"),
            (order, "id"),
            (cancel_order, "orderId"),
            (fee_rate, "token_id"),
        ];
        for (build, name) in routes {
            for bad in [".", "..", "", "a\u{0}b", "line\nbreak"] {
                assert_eq!(param_of(build(bad)), name, "{bad:?}");
            }
        }
        // Dots inside a segment are fine, and slashes are encoded, so `a/../b` stays one segment.
        assert_eq!(url(comment_replies("a/../b", &Params::default())), "/comments/a%2F..%2Fb");
        assert_eq!(url(market_by_slug("v1.2", &Params::default())), "/markets/slug/v1.2");
        assert_eq!(url(order("...")), "/data/order/...");
    }

    #[test]
    #[allow(clippy::type_complexity)]
    fn bounds_at_and_past_their_edges() {
        let edges: Vec<(fn(&Params) -> Result<HttpRequest, Error>, &str, f64, f64, Vec<(&str, Value)>)> = vec![
            (trades, "limit", 0.0, 10_000.0, vec![]),
            (trades, "offset", 0.0, 10_000.0, vec![]),
            (closed_positions, "limit", 0.0, 50.0, vec![("user", s(USER))]),
            (closed_positions, "offset", 0.0, 100_000.0, vec![("user", s(USER))]),
            (comments, "limit", 1.0, 100.0, vec![]),
            (series, "limit", 1.0, 100.0, vec![]),
            (events, "limit", 1.0, 100.0, vec![]),
            (event_creators, "limit", 1.0, 100.0, vec![]),
            (tags, "limit", 1.0, 100.0, vec![]),
            (public_search, "limit_per_type", 1.0, 500.0, vec![("q", s("x"))]),
        ];
        for (build, name, min, max, base) in edges {
            for (value, ok) in [(min, true), (max, true), (min - 1.0, false), (max + 1.0, false)] {
                let mut params = p(&base);
                params.set(name, n(value));
                let result = build(&params);
                assert_eq!(result.is_ok(), ok, "{name}={value}");
                if !ok {
                    assert_eq!(param_of(result), name);
                }
            }
        }
        for build in [comments, series, events, event_creators, tags] {
            assert_eq!(param_of(build(&p(&[("offset", n(-1.0))]))), "offset");
            assert!(build(&p(&[("offset", n(MAX_SAFE_INT as f64))])).is_ok());
        }
        assert_eq!(param_of(public_search(&p(&[("q", s("x")), ("page", n(0.0))]))), "page");
        let title = |len: usize| closed_positions(&p(&[("user", s(USER)), ("title", s(&"t".repeat(len)))]));
        assert!(title(100).is_ok());
        assert_eq!(param_of(title(101)), "title");
    }

    #[test]
    fn required_enums_and_cross_rules() {
        assert_eq!(param_of(closed_positions(&p(&[]))), "user");
        assert_eq!(param_of(public_search(&p(&[]))), "q");
        assert_eq!(param_of(public_search(&p(&[("q", s(""))]))), "q");
        assert_eq!(param_of(prices_history(&p(&[]))), "market");
        assert_eq!(param_of(trades(&p(&[("filterType", s("CASH"))]))), "filterType");
        assert_eq!(param_of(trades(&p(&[("filterAmount", n(5.0))]))), "filterType");
        assert!(trades(&p(&[("filterType", s("TOKENS")), ("filterAmount", n(0.0))])).is_ok());
        assert_eq!(param_of(trades(&p(&[("filterType", s("USD")), ("filterAmount", n(1.0))]))), "filterType");
        assert_eq!(param_of(closed_positions(&p(&[("user", s(USER)), ("sortBy", s("SIZE"))]))), "sortBy");
        assert_eq!(param_of(comments(&p(&[("parent_entity_type", s("event"))]))), "parent_entity_type");
        assert_eq!(param_of(price(TOKEN, "buy")), "side");
        assert_eq!(param_of(prices_history(&p(&[("market", s(TOKEN)), ("interval", s("5m"))]))), "interval");
        assert_eq!(param_of(market("abc", &p(&[]))), "id");
        assert_eq!(param_of(market("", &p(&[]))), "id");
        assert_eq!(param_of(market_by_slug("", &p(&[]))), "slug");
        assert_eq!(param_of(comment_replies("", &p(&[]))), "id");
        assert_eq!(param_of(clob_market_info("0x12")), "condition_id");
        assert_eq!(param_of(clob_markets(Some("a b"))), "next_cursor");
        assert_eq!(param_of(fee_rate("x")), "token_id");
        assert_eq!(param_of(midpoint("")), "token_id");
        assert_eq!(param_of(events(&p(&[("unknown", n(1.0))]))), "unknown");
    }

    #[test]
    fn batch_bodies() {
        let r = order_books(&tokens(&[TOKEN, "1"])).unwrap();
        assert_eq!((r.method, r.path.as_str()), (Method::Post, "/books"));
        assert_eq!(r.body.as_deref(), Some(format!(r#"[{{"token_id":"{TOKEN}"}},{{"token_id":"1"}}]"#).as_str()));
        assert!(r.idempotent());
        let r = prices(&tokens(&[TOKEN])).unwrap();
        assert_eq!(r.body.as_deref(), Some(format!(r#"[{{"token_id":"{TOKEN}"}}]"#).as_str()));
        let many: Vec<&str> = vec![TOKEN; MAX_BATCH];
        assert!(order_books(&tokens(&many)).is_ok());
        let too_many: Vec<&str> = vec![TOKEN; MAX_BATCH + 1];
        assert_eq!(param_of(order_books(&tokens(&too_many))), "params");
        assert_eq!(param_of(order_books(&tokens(&[]))), "params");
        assert_eq!(param_of(prices(&tokens(&["x"]))), "token_id");
        assert_eq!(param_of(prices(&Value::Array(vec![Value::Object(vec![])]))), "token_id");
        assert_eq!(param_of(prices(&Value::Array(vec![s(TOKEN)]))), "token_id");
        let extra = Value::Object(vec![("token_id".into(), s(TOKEN)), ("side".into(), s("BUY"))]);
        assert_eq!(param_of(prices(&Value::Array(vec![extra]))), "side");
        assert_eq!(param_of(prices(&s(TOKEN))), "params");
    }

    #[test]
    fn batch_prices_history_body() {
        let r = batch_prices_history(&p(&[
            ("markets", Value::Array(vec![s(TOKEN), s("1")])),
            ("interval", s("1w")),
            ("start_ts", n(1700000000.0)),
            ("fidelity", n(60.0)),
        ]))
        .unwrap();
        assert_eq!(
            r.body.as_deref(),
            Some(
                format!(r#"{{"markets":["{TOKEN}","1"],"start_ts":1700000000,"interval":"1w","fidelity":60}}"#)
                    .as_str()
            )
        );
        assert_eq!(param_of(batch_prices_history(&p(&[]))), "markets");
        assert_eq!(param_of(batch_prices_history(&p(&[("markets", Value::Array(vec![]))]))), "markets");
        let twenty = Value::Array(vec![s(TOKEN); 20]);
        assert!(batch_prices_history(&p(&[("markets", twenty)])).is_ok());
        let too_many = Value::Array(vec![s(TOKEN); 21]);
        assert_eq!(param_of(batch_prices_history(&p(&[("markets", too_many)]))), "markets");
        let bad_interval = p(&[("markets", Value::Array(vec![s(TOKEN)])), ("interval", s("2d"))]);
        assert_eq!(param_of(batch_prices_history(&bad_interval)), "interval");
        let extra = p(&[("markets", Value::Array(vec![s(TOKEN)])), ("foo", n(1.0))]);
        assert_eq!(param_of(batch_prices_history(&extra)), "foo");
    }
}

// The account's own routes (§4.19–4.22 and GET /data/trades): signed with the SERVICE_* headers.

pub const OPEN_ORDERS: &[Param] =
    &[opt("id", TEXT), opt("market", TEXT), opt("asset_id", Kind::TokenId), opt("next_cursor", TEXT)];

pub const USER_TRADES: &[Param] = &[
    opt("id", TEXT),
    opt("market", TEXT),
    opt("asset_id", Kind::TokenId),
    opt("maker_address", Kind::Address),
    opt("before", NON_NEGATIVE),
    opt("after", NON_NEGATIVE),
    opt("next_cursor", TEXT),
];

const CANCEL_MARKET: &[Param] = &[opt("market", TEXT), opt("asset_id", Kind::TokenId)];

fn signed(mut request: HttpRequest) -> HttpRequest {
    request.auth = true;
    request
}

/// Checks a cursor param, whatever table it sits in, against the cursor rules.
fn checked_cursor(params: &Params) -> Result<(), Error> {
    match params.get("next_cursor") {
        Value::Str(c) => cursor(Some(c)).map(drop),
        _ => Ok(()),
    }
}

/// GET /data/orders (§4.19): the account's live orders, one page.
pub fn open_orders(params: &Params) -> Result<HttpRequest, Error> {
    checked_cursor(params)?;
    let q = query(OPEN_ORDERS, params)?;
    Ok(signed(HttpRequest::get(Surface::Clob, "/data/orders").queries(q).takes(OPEN_ORDERS)))
}

/// GET /data/order/{id} (§4.20).
pub fn order(id: &str) -> Result<HttpRequest, Error> {
    let id = path_text("id", id)?;
    Ok(signed(HttpRequest::get(Surface::Clob, format!("/data/order/{}", segment(id)))))
}

/// DELETE /order (§4.21): body `{"orderId": id}`.
pub fn cancel_order(order_id: &str) -> Result<HttpRequest, Error> {
    let order_id = path_text("orderId", order_id)?;
    let mut body = JsonWriter::object();
    body.field_str("orderId", order_id);
    Ok(signed(HttpRequest::new(Method::Delete, Surface::Clob, "/order").body(body.finish()).scope(Scope::CancelOrder)))
}

/// DELETE /cancel-market-orders (§4.22): body `{"market"?, "asset_id"?}`, at least one.
pub fn cancel_market_orders(params: &Params) -> Result<HttpRequest, Error> {
    let q = query(CANCEL_MARKET, params)?;
    if q.is_empty() {
        return Err(Error::invalid("market", "or asset_id is required"));
    }
    let mut body = JsonWriter::object();
    for (name, value) in &q {
        body.field_str(name, value);
    }
    Ok(signed(
        HttpRequest::new(Method::Delete, Surface::Clob, "/cancel-market-orders")
            .body(body.finish())
            .scope(Scope::CancelOrder),
    ))
}

/// The most order ids one `cancelOrders` or `areOrdersScoring` call sends (the service documents 3,000 for
/// DELETE /orders; the client keeps one request's body and answer small, and a caller with more sends more).
pub const MAX_ORDER_IDS: usize = 1000;

/// A JSON array of order ids, from 1 to `MAX_ORDER_IDS`, each as DELETE /order takes it.
fn order_ids(items: &Value) -> Result<String, Error> {
    let Value::Array(items) = items else {
        return Err(Error::invalid("orderIds", "must be an array of order id strings"));
    };
    if items.is_empty() || items.len() > MAX_ORDER_IDS {
        return Err(Error::invalid("orderIds", "must list from 1 to 1000 order ids"));
    }
    let mut body = JsonWriter::array();
    for item in items {
        let Value::Str(id) = item else {
            return Err(Error::invalid("orderIds", "must be an array of order id strings"));
        };
        body.str(path_text("orderIds", id)?);
    }
    Ok(body.finish())
}

/// DELETE /orders: the body a JSON array of order ids; the answer as DELETE /order's (§4.21).
pub fn cancel_orders(items: &Value) -> Result<HttpRequest, Error> {
    let body = order_ids(items)?;
    Ok(signed(HttpRequest::new(Method::Delete, Surface::Clob, "/orders").body(body).scope(Scope::CancelOrder)))
}

/// DELETE /cancel-all: every open order of the account; the answer as DELETE /order's (§4.21).
pub fn cancel_all() -> HttpRequest {
    signed(HttpRequest::new(Method::Delete, Surface::Clob, "/cancel-all").scope(Scope::CancelOrder))
}

/// GET /order-scoring: whether one order earns liquidity rewards (`{"scoring": bool}`).
pub fn order_scoring(id: &str) -> Result<HttpRequest, Error> {
    let id = path_text("orderId", id)?;
    Ok(signed(HttpRequest::get(Surface::Clob, "/order-scoring").query("order_id", id)))
}

/// POST /orders-scoring: the body a JSON array of order ids; the answer maps each to a bool.
pub fn orders_scoring(items: &Value) -> Result<HttpRequest, Error> {
    let body = order_ids(items)?;
    Ok(signed(HttpRequest::new(Method::Post, Surface::Clob, "/orders-scoring").body(body)))
}

/// What `asset_type` names: the collateral, or an outcome token (`CONDITIONAL-V2`: of the newer position
/// system's markets).
const ASSET_TYPES: &[&str] = &["COLLATERAL", "CONDITIONAL", "CONDITIONAL-V2"];

pub const BALANCE_ALLOWANCE: &[Param] = &[
    req("asset_type", Kind::Enum(ASSET_TYPES)),
    opt("token_id", Kind::TokenId),
    opt("signature_type", Kind::Int { min: 0, max: 3 }),
];

/// The query of GET /balance-allowance and its update: an outcome token's needs its `token_id`, the
/// collateral's has none.
fn balance_query(params: &Params) -> Result<Vec<(&'static str, String)>, Error> {
    let q = query(BALANCE_ALLOWANCE, params)?;
    let conditional = q.iter().any(|(n, v)| *n == "asset_type" && v != "COLLATERAL");
    let token = q.iter().any(|(n, _)| *n == "token_id");
    match (conditional, token) {
        (true, false) => Err(Error::invalid("token_id", "is required for a CONDITIONAL asset_type")),
        (false, true) => Err(Error::invalid("token_id", "is only for a CONDITIONAL asset_type")),
        _ => Ok(q),
    }
}

/// GET /balance-allowance: the balance and allowances the service sees for the account.
pub fn balance_allowance(params: &Params) -> Result<HttpRequest, Error> {
    let q = balance_query(params)?;
    Ok(signed(HttpRequest::get(Surface::Clob, "/balance-allowance").queries(q).takes(BALANCE_ALLOWANCE)))
}

/// GET /balance-allowance/update: has the service read them from the chain again.
pub fn update_balance_allowance(params: &Params) -> Result<HttpRequest, Error> {
    let q = balance_query(params)?;
    Ok(signed(HttpRequest::get(Surface::Clob, "/balance-allowance/update").queries(q).takes(BALANCE_ALLOWANCE)))
}

/// Gives a request that takes a `signature_type` and was given none the client's (`signatureType`), as
/// the upstream clients do: a Safe's or proxy's balance is the wallet's, not the owner's.
pub fn default_signature_type(request: &mut HttpRequest, signature_type: u8) {
    let takes = request.takes.iter().any(|p| p.name == "signature_type");
    if takes && !request.query.iter().any(|(n, _)| *n == "signature_type") {
        request.query.push(("signature_type", signature_type.to_string()));
    }
}

/// GET /data/trades: the account's own trades, one page (cursor paged, as /data/orders).
pub fn user_trades(params: &Params) -> Result<HttpRequest, Error> {
    checked_cursor(params)?;
    let q = query(USER_TRADES, params)?;
    Ok(signed(HttpRequest::get(Surface::Clob, "/data/trades").queries(q).takes(USER_TRADES).scope(Scope::DataTrades)))
}

/// GET /version: the exchange's order version (`{"version": 2}`).
pub fn version() -> HttpRequest {
    HttpRequest::get(Surface::Clob, "/version")
}

/// POST /order with a body from `trade::order::order_body`: it places an order, so it is never sent twice.
pub fn post_order(body: String) -> HttpRequest {
    signed(HttpRequest::new(Method::Post, Surface::Clob, "/order").body(body).scope(Scope::PostOrder).writes())
}

/// POST /orders with a body from `trade::order::orders_body` (1 to 15 orders): the service admits the batch
/// only if its order buckets can pay for every entry, so it takes `orders` places there, all or none.
pub fn post_orders(body: String, orders: u32) -> HttpRequest {
    let mut request =
        signed(HttpRequest::new(Method::Post, Surface::Clob, "/orders").body(body).scope(Scope::PostOrder).writes());
    request.entries = orders.max(1);
    request
}

/// POST /v1/heartbeats `{"heartbeat_id": id}` (the dead-man switch, `trade::heartbeat`): a write, never retried
/// by the call (the next beat is the retry).
pub fn heartbeat(id: &str) -> HttpRequest {
    let mut w = JsonWriter::object();
    w.field_str("heartbeat_id", id);
    let body = w.finish();
    signed(HttpRequest::new(Method::Post, Surface::Clob, "/v1/heartbeats").body(body).writes())
}

/// GET /time: the service's clock, where it has one (used by `syncClock`).
pub fn server_time() -> HttpRequest {
    HttpRequest::get(Surface::Clob, "/time")
}

#[cfg(test)]
mod auth_tests {
    use super::*;
    use crate::error::ErrorCode;

    const TOKEN: &str = "72610532355343625199299853218161700546393390326785971247545541945337255643692";
    const CID: &str = "0xdd22472e552920b8438158ea7238bfadfa4f736aa4cee91a6b86c39ead110917";

    fn p(pairs: &[(&str, Value)]) -> Params {
        Params(pairs.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect())
    }
    const USER: &str = "0x56687bf447db6ffa42ffe2204a05edaa20f55839";

    fn n(x: f64) -> Value {
        Value::Number(x)
    }
    fn url(r: Result<HttpRequest, Error>) -> String {
        r.unwrap().url("")
    }
    fn s(x: &str) -> Value {
        Value::Str(x.to_owned())
    }
    fn param_of(r: Result<HttpRequest, Error>) -> String {
        let e = r.unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidParams);
        e.param.unwrap().into_owned()
    }

    #[test]
    fn account_routes_are_signed_and_shaped() {
        let r = open_orders(&p(&[("market", s(CID)), ("asset_id", s(TOKEN)), ("next_cursor", s("MA=="))])).unwrap();
        assert!(r.auth && r.idempotent());
        assert_eq!(r.url(""), format!("/data/orders?market={CID}&asset_id={TOKEN}&next_cursor=MA%3D%3D"));
        let r = order("0xabc/../x").unwrap();
        assert!(r.auth);
        assert_eq!(r.path, "/data/order/0xabc%2F..%2Fx");
        let r = cancel_order("0xabc").unwrap();
        assert_eq!(
            (r.method, r.path.as_str(), r.body.as_deref()),
            (Method::Delete, "/order", Some(r#"{"orderId":"0xabc"}"#))
        );
        assert!(r.auth && !r.idempotent());
        assert_eq!(r.scope, Scope::CancelOrder);
        let r = cancel_market_orders(&p(&[("asset_id", s(TOKEN)), ("market", s(CID))])).unwrap();
        assert_eq!(r.body.as_deref(), Some(format!(r#"{{"market":"{CID}","asset_id":"{TOKEN}"}}"#).as_str()));
        let r = cancel_market_orders(&p(&[("market", s(CID))])).unwrap();
        assert_eq!(r.body.as_deref(), Some(format!(r#"{{"market":"{CID}"}}"#).as_str()));
        let r = user_trades(&p(&[("before", Value::Number(1700000000.0))])).unwrap();
        assert!(r.auth);
        assert_eq!(r.url(""), "/data/trades?before=1700000000");
        assert!(!server_time().auth);
    }

    #[test]
    fn account_params_are_checked() {
        assert_eq!(param_of(cancel_market_orders(&p(&[]))), "market");
        assert_eq!(param_of(cancel_market_orders(&p(&[("market", s(""))]))), "market");
        assert_eq!(param_of(cancel_market_orders(&p(&[("asset_id", s("x"))]))), "asset_id");
        assert_eq!(param_of(cancel_market_orders(&p(&[("title", s("x"))]))), "title");
        assert_eq!(param_of(cancel_order("")), "orderId");
        assert_eq!(param_of(order("")), "id");
        assert_eq!(param_of(open_orders(&p(&[("asset_id", s("0x1"))]))), "asset_id");
        assert_eq!(param_of(open_orders(&p(&[("next_cursor", s("not a cursor"))]))), "next_cursor");
        assert_eq!(param_of(user_trades(&p(&[("maker_address", s("0x1"))]))), "maker_address");
        assert_eq!(param_of(user_trades(&p(&[("after", Value::Number(-1.0))]))), "after");
    }

    #[test]
    fn cancel_many_and_all() {
        let ids = |list: &[&str]| Value::Array(list.iter().map(|i| s(i)).collect());
        let r = cancel_orders(&ids(&["0xa", "0xb\"c"])).unwrap();
        assert_eq!((r.method, r.path.as_str(), r.auth, r.scope), (Method::Delete, "/orders", true, Scope::CancelOrder));
        assert_eq!(r.body.as_deref(), Some(r#"["0xa","0xb\"c"]"#));
        let r = cancel_all();
        assert_eq!(
            (r.method, r.path.as_str(), r.auth, r.scope),
            (Method::Delete, "/cancel-all", true, Scope::CancelOrder)
        );
        assert_eq!(r.body, None);
        let thousand: Vec<String> = (0..MAX_ORDER_IDS).map(|i| format!("0x{i:x}")).collect();
        let list = |v: &[String]| Value::Array(v.iter().map(|i| s(i)).collect());
        assert!(cancel_orders(&list(&thousand)).is_ok());
        let more: Vec<String> = (0..=MAX_ORDER_IDS).map(|i| format!("0x{i:x}")).collect();
        for bad in [ids(&[]), list(&more), s("0xa"), Value::Array(vec![n(1.0)]), ids(&[""]), ids(&["a\u{1}"])] {
            assert_eq!(param_of(cancel_orders(&bad)), "orderIds");
            assert_eq!(param_of(orders_scoring(&bad)), "orderIds");
        }
    }

    #[test]
    fn order_scoring_reads() {
        assert_eq!(url(order_scoring("0xab&c")), "/order-scoring?order_id=0xab%26c");
        assert!(order_scoring("0xa").unwrap().auth);
        assert_eq!(param_of(order_scoring("")), "orderId");
        let r = orders_scoring(&Value::Array(vec![s("0xa")])).unwrap();
        assert_eq!((r.method, r.path.as_str(), r.auth), (Method::Post, "/orders-scoring", true));
        assert_eq!(r.body.as_deref(), Some(r#"["0xa"]"#));
    }

    #[test]
    fn balance_allowance_queries() {
        let collateral = p(&[("asset_type", s("COLLATERAL"))]);
        assert_eq!(url(balance_allowance(&collateral)), "/balance-allowance?asset_type=COLLATERAL");
        let token = p(&[("asset_type", s("CONDITIONAL")), ("token_id", s(TOKEN)), ("signature_type", n(2.0))]);
        assert_eq!(
            url(update_balance_allowance(&token)),
            format!("/balance-allowance/update?asset_type=CONDITIONAL&token_id={TOKEN}&signature_type=2")
        );
        assert!(balance_allowance(&p(&[("asset_type", s("CONDITIONAL-V2")), ("token_id", s(TOKEN))])).is_ok());
        let cases: &[(&[(&str, Value)], &str)] = &[
            (&[], "asset_type"),
            (&[("asset_type", s("USDC"))], "asset_type"),
            (&[("asset_type", s("CONDITIONAL"))], "token_id"),
            (&[("asset_type", s("COLLATERAL")), ("token_id", s(TOKEN))], "token_id"),
            (&[("asset_type", s("CONDITIONAL")), ("token_id", s("0x1"))], "token_id"),
            (&[("asset_type", s("COLLATERAL")), ("signature_type", n(4.0))], "signature_type"),
            (&[("asset_type", s("COLLATERAL")), ("funder", s(USER))], "funder"),
        ];
        for (params, param) in cases {
            assert_eq!(param_of(balance_allowance(&p(params))), *param, "{params:?}");
        }
    }

    #[test]
    fn the_clients_signature_type_where_a_call_takes_one_and_was_given_none() {
        let mut r = balance_allowance(&p(&[("asset_type", s("COLLATERAL"))])).unwrap();
        default_signature_type(&mut r, 2);
        assert_eq!(r.url(""), "/balance-allowance?asset_type=COLLATERAL&signature_type=2");
        // Given: kept.
        let mut r = balance_allowance(&p(&[("asset_type", s("COLLATERAL")), ("signature_type", n(0.0))])).unwrap();
        default_signature_type(&mut r, 2);
        assert_eq!(r.url(""), "/balance-allowance?asset_type=COLLATERAL&signature_type=0");
        // Not taken: untouched.
        let mut r = open_orders(&p(&[])).unwrap();
        default_signature_type(&mut r, 1);
        assert_eq!(r.url(""), "/data/orders");
    }
}
