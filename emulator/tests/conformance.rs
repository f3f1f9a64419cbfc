//! Every route's answers checked against the service family's OpenAPI documents (tests/fixtures/openapi, provenance
//! in its PROVENANCE.md), with a structural validator: $ref, allOf/anyOf/oneOf, type (and nullable), required,
//! properties, additionalProperties, items, enum, minItems/maxItems and the 0x-hex patterns. Formats are not checked.
//! Where this service's interface deliberately differs from a document, the difference is listed in DIFFERENCES and
//! asserted, so that it stays deliberate.

mod common;

use common::*;
use reqwest::Method;
use serde_json::{json, Value};

const GAMMA: &str = include_str!("../../tests/fixtures/openapi/kuest-openapi-gamma.json");
const CLOB: &str = include_str!("../../tests/fixtures/openapi/kuest-openapi-clob.json");
const DATA: &str = include_str!("../../tests/fixtures/openapi/kuest-openapi-data-api.json");

struct Doc {
    root: Value,
}

impl Doc {
    fn new(text: &str) -> Self {
        Self { root: serde_json::from_str(text).unwrap() }
    }

    fn resolve<'a>(&'a self, schema: &'a Value) -> &'a Value {
        match schema.get("$ref").and_then(Value::as_str) {
            Some(r) => {
                let mut node = &self.root;
                for part in r.trim_start_matches("#/").split('/') {
                    node = &node[part];
                }
                assert!(!node.is_null(), "unresolved {r}");
                self.resolve(node)
            }
            None => schema,
        }
    }

    /// The schema of a path's successful JSON answer.
    fn response(&self, path: &str, method: &str) -> &Value {
        let op = &self.root["paths"][path][method];
        let ok = op["responses"].as_object().unwrap().iter().find(|(k, _)| k.starts_with('2')).unwrap().1;
        let schema = &self.resolve(ok)["content"]["application/json"]["schema"];
        assert!(!schema.is_null(), "{method} {path} has no JSON schema");
        schema
    }

    fn schema(&self, name: &str) -> &Value {
        &self.root["components"]["schemas"][name]
    }

    /// Every violation of `schema` by `value`, as "where: what".
    fn validate(&self, schema: &Value, value: &Value, at: &str, out: &mut Vec<String>) {
        let schema = self.resolve(schema);
        if let Some(all) = schema.get("allOf").and_then(Value::as_array) {
            for s in all {
                self.validate(s, value, at, out);
            }
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(any) = schema.get(key).and_then(Value::as_array) {
                let ok = any.iter().any(|s| {
                    let mut errs = Vec::new();
                    self.validate(s, value, at, &mut errs);
                    errs.is_empty()
                });
                if !ok {
                    out.push(format!("{at}: matches none of {key}"));
                }
            }
        }
        if value.is_null() && schema.get("nullable") == Some(&json!(true)) {
            return;
        }
        if let Some(types) = schema.get("type") {
            let types: Vec<&str> = match types {
                Value::String(t) => vec![t.as_str()],
                Value::Array(list) => list.iter().filter_map(Value::as_str).collect(),
                _ => vec![],
            };
            let fits = types.iter().any(|t| match *t {
                "object" => value.is_object(),
                "array" => value.is_array(),
                "string" => value.is_string(),
                "integer" => value.is_i64() || value.is_u64(),
                "number" => value.is_number(),
                "boolean" => value.is_boolean(),
                "null" => value.is_null(),
                _ => true,
            });
            if !fits {
                out.push(format!("{at}: expected {types:?}, got {value}"));
                return;
            }
        }
        if let Some(list) = schema.get("enum").and_then(Value::as_array) {
            if !list.contains(value) {
                out.push(format!("{at}: {value} not in {list:?}"));
            }
        }
        if let (Some(pattern), Some(text)) = (schema.get("pattern").and_then(Value::as_str), value.as_str()) {
            // Only the 0x-hex patterns of these documents: ^0x[a-fA-F0-9]{N}$.
            if let Some(n) = pattern.strip_prefix("^0x[a-fA-F0-9]{").and_then(|r| r.strip_suffix("}$")) {
                let n: usize = n.parse().unwrap();
                let ok =
                    text.len() == n + 2 && text.starts_with("0x") && text[2..].bytes().all(|b| b.is_ascii_hexdigit());
                if !ok {
                    out.push(format!("{at}: {text} does not match {pattern}"));
                }
            }
        }
        if let Some(obj) = value.as_object() {
            for name in schema.get("required").and_then(Value::as_array).into_iter().flatten() {
                if !obj.contains_key(name.as_str().unwrap()) {
                    out.push(format!("{at}: missing required {name}"));
                }
            }
            let props = schema.get("properties").and_then(Value::as_object);
            for (k, v) in obj {
                match props.and_then(|p| p.get(k)) {
                    Some(s) => self.validate(s, v, &format!("{at}.{k}"), out),
                    None => match schema.get("additionalProperties") {
                        Some(Value::Bool(false)) => out.push(format!("{at}: unexpected property {k}")),
                        Some(s @ Value::Object(_)) => self.validate(s, v, &format!("{at}.{k}"), out),
                        _ => {}
                    },
                }
            }
        }
        if let Some(list) = value.as_array() {
            if let Some(min) = schema.get("minItems").and_then(Value::as_u64) {
                if (list.len() as u64) < min {
                    out.push(format!("{at}: fewer than {min} items"));
                }
            }
            if let Some(max) = schema.get("maxItems").and_then(Value::as_u64) {
                if list.len() as u64 > max {
                    out.push(format!("{at}: more than {max} items"));
                }
            }
            if let Some(items) = schema.get("items") {
                for (i, v) in list.iter().enumerate() {
                    self.validate(items, v, &format!("{at}[{i}]"), out);
                }
            }
        }
    }

    fn check(&self, what: &str, schema: &Value, value: &Value) {
        let mut errors = Vec::new();
        self.validate(schema, value, "$", &mut errors);
        assert!(errors.is_empty(), "{what}: {} violations, first: {:#?}", errors.len(), &errors[..errors.len().min(8)]);
    }
}

/// Deliberate differences between this service's interface (which wins) and the OpenAPI documents.
const DIFFERENCES: &[(&str, &str)] = &[
    ("GET /", "the documents answer text/plain OK; the interface's service answers the JSON string \"OK\""),
    ("GET /data/trades", "match_time and last_update are epoch seconds as strings (the upstream service), not date-time; trader_side is added beside type"),
    ("DELETE /cancel-market-orders", "the body names the token asset_id (the interface and the upstream); assetId of the document is accepted too"),
    ("GET /comments", "parentCommentID of a top-level comment is \"\" (the interface types it as a string), not null"),
    ("GET /trades, GET /closed-positions", "asset is <condition_id>:<outcome_index> (the interface), not a token id"),
    ("GET /public-search", "events carry the interface's {id, ticker, slug, title} and a few summary fields, not whole events"),
];

#[tokio::test]
async fn catalog_routes_conform() {
    let emu = start().await;
    let b = &emu.url;
    let doc = Doc::new(GAMMA);
    let info = info(b).await;
    let event = &info["commented_event"];
    let market = get(b, "/markets/500020").await.assert_ok();
    let cases: Vec<(&str, String)> = vec![
        ("/events", "/events?limit=100".into()),
        ("/events", "/events?limit=100&closed=true&order=volume".into()),
        ("/events/creators", "/events/creators?limit=100".into()),
        ("/series", "/series?limit=100".into()),
        ("/tags", "/tags?limit=100".into()),
        (
            "/comments",
            format!("/comments?parent_entity_type=Event&parent_entity_id={}&limit=100", event["id"].as_str().unwrap()),
        ),
        ("/comments", "/comments?limit=100&offset=300".into()),
        ("/comments/{id}", format!("/comments/{}?limit=100", event["first_comment_id"].as_str().unwrap())),
        ("/markets/{id}", "/markets/500020".into()),
        ("/markets/{id}", format!("/markets/{}", market["conditionId"].as_str().unwrap())),
        ("/markets/slug/{slug}", format!("/markets/slug/{}", market["slug"].as_str().unwrap())),
        ("/public-search", "/public-search?q=bitcoin&limit_per_type=50".into()),
    ];
    for (path, url) in cases {
        let value = get(b, &url).await.assert_ok();
        assert!(!value.as_array().is_some_and(Vec::is_empty), "{url}: an empty list checks no item");
        doc.check(&url, doc.response(path, "get"), &value);
    }
    // Errors: {"error": ...} fits the document's ErrorResponse (which allows no other keys).
    let error = get(b, "/events?limit=0").await;
    assert_eq!(error.status, 400);
    doc.check("error", doc.schema("ErrorResponse"), &error.json());
}

#[tokio::test]
async fn clob_routes_conform() {
    let emu = start().await;
    let b = &emu.url;
    let doc = Doc::new(CLOB);
    let markets = get(b, "/markets").await.assert_ok();
    doc.check("/markets", doc.response("/markets", "get"), &markets);
    let last = get(b, "/markets?next_cursor=OTkwMA==").await.assert_ok();
    doc.check("/markets (last page)", doc.response("/markets", "get"), &last);
    let sampling = get(b, "/sampling-markets").await.assert_ok();
    assert!(!sampling["data"].as_array().unwrap().is_empty());
    doc.check("/sampling-markets", doc.response("/sampling-markets", "get"), &sampling);
    let m = &markets["data"][10];
    let cond = m["condition_id"].as_str().unwrap();
    let token = m["tokens"][0]["token_id"].as_str().unwrap();
    let info = get(b, &format!("/clob-markets/{cond}")).await.assert_ok();
    doc.check("/clob-markets", doc.response("/clob-markets/{condition_id}", "get"), &info);
    for t in [token, REAL_BOOK_2] {
        let book = get(b, &format!("/book?token_id={t}")).await.assert_ok();
        doc.check("/book", doc.response("/book", "get"), &book);
    }
    let body = json!([{ "token_id": token }, { "token_id": REAL_BOOK_2 }, { "token_id": m["tokens"][1]["token_id"] }]);
    doc.check("/books", doc.response("/books", "post"), &post(b, "/books", &body).await.assert_ok());
    doc.check("/prices", doc.response("/prices", "post"), &post(b, "/prices", &body).await.assert_ok());
    doc.check(
        "/price",
        doc.response("/price", "get"),
        &get(b, &format!("/price?token_id={token}&side=BUY")).await.assert_ok(),
    );
    doc.check(
        "/midpoint",
        doc.response("/midpoint", "get"),
        &get(b, &format!("/midpoint?token_id={token}")).await.assert_ok(),
    );
    doc.check(
        "/fee-rate",
        doc.response("/fee-rate/{token_id}", "get"),
        &get(b, &format!("/fee-rate/{token}")).await.assert_ok(),
    );
    let history = get(b, &format!("/prices-history?market={token}&interval=1w")).await.assert_ok();
    assert!(!history["history"].as_array().unwrap().is_empty());
    doc.check("/prices-history", doc.response("/prices-history", "get"), &history);
    let request = json!({ "markets": [token, m["tokens"][1]["token_id"]], "interval": "1d" });
    doc.check("batch request", doc.schema("BatchPriceHistoryRequest"), &request);
    let batch = post(b, "/batch-prices-history", &request).await.assert_ok();
    doc.check("/batch-prices-history", doc.response("/batch-prices-history", "post"), &batch);
    // Authenticated routes.
    let demo = &emu.demo;
    let orders = auth_get(b, "/data/orders", demo).await.assert_ok();
    doc.check("/data/orders", doc.response("/data/orders", "get"), &orders);
    let id = orders["data"][0]["id"].as_str().unwrap();
    doc.check(
        "/data/order",
        doc.response("/data/order/{id}", "get"),
        &auth_get(b, &format!("/data/order/{id}"), demo).await.assert_ok(),
    );
    let trades = auth_get(b, "/data/trades", demo).await.assert_ok();
    assert!(!trades["data"].as_array().unwrap().is_empty());
    doc.check("/data/trades", doc.response("/data/trades", "get"), &trades);
    let cancel_body = json!({ "orderId": id });
    doc.check("cancel request", doc.schema("CancelOrderRequest"), &cancel_body);
    let canceled = auth_delete(b, "/order", &cancel_body, demo).await.assert_ok();
    doc.check("DELETE /order", doc.response("/order", "delete"), &canceled);
    let again = auth_delete(b, "/order", &cancel_body, demo).await.assert_ok();
    doc.check("DELETE /order (not canceled)", doc.response("/order", "delete"), &again);
    let by_market = auth_delete(b, "/cancel-market-orders", &json!({ "market": orders["data"][1]["market"] }), demo)
        .await
        .assert_ok();
    doc.check("DELETE /cancel-market-orders", doc.response("/cancel-market-orders", "delete"), &by_market);
    // The document's own body field name is accepted too.
    let doc_body = json!({ "assetId": orders["data"][2]["assetId"] });
    doc.check("cancel-market request", doc.schema("CancelMarketOrdersRequest"), &doc_body);
    let r = send(signed(
        Method::DELETE,
        b,
        "/cancel-market-orders",
        Some(&doc_body.to_string()),
        demo,
        &now_ms().to_string(),
    ))
    .await;
    let canceled = r.assert_ok()["canceled"].as_array().unwrap().clone();
    assert!(canceled.iter().any(|c| *c == orders["data"][2]["id"]), "{canceled:?}");
    // Errors fit the document's Error.
    for bad in [
        get(b, "/book").await,
        get(b, "/book?token_id=1").await,
        get(b, "/data/orders").await,
        get(b, "/nowhere").await,
    ] {
        doc.check("error", doc.schema("Error"), &bad.json());
    }
}

#[tokio::test]
async fn activity_routes_conform() {
    let emu = start().await;
    let b = &emu.url;
    let doc = Doc::new(DATA);
    let trades = get(b, "/trades?limit=500&takerOnly=false").await.assert_ok();
    assert!(!trades.as_array().unwrap().is_empty());
    doc.check("/trades", doc.response("/trades", "get"), &trades);
    let closed = get(b, &format!("/closed-positions?user={}&limit=50", emu.demo.address)).await.assert_ok();
    assert!(!closed.as_array().unwrap().is_empty());
    doc.check("/closed-positions", doc.response("/closed-positions", "get"), &closed);
    doc.check("error", doc.schema("ErrorResponse"), &get(b, "/closed-positions").await.json());
}

#[tokio::test]
async fn deliberate_differences_stay_deliberate() {
    let emu = start().await;
    let b = &emu.url;
    assert!(DIFFERENCES.len() >= 6);
    assert_eq!(get(b, "/").await.text, "\"OK\"");
    let trade = &auth_get(b, "/data/trades", &emu.demo).await.assert_ok()["data"][0];
    assert!(trade["match_time"].as_str().unwrap().bytes().all(|c| c.is_ascii_digit()));
    assert_eq!(trade["trader_side"], trade["type"]);
    let comment = &get(b, "/comments?limit=1").await.assert_ok()[0];
    assert_eq!(comment["parentCommentID"], "");
    let t = &get(b, "/trades?limit=1").await.assert_ok()[0];
    assert!(t["asset"].as_str().unwrap().starts_with(t["conditionId"].as_str().unwrap()));
}

/// The interface's own field tables (§2), for the fields the OpenAPI documents leave optional.
#[tokio::test]
async fn interface_fields_all_appear() {
    let emu = start().await;
    let b = &emu.url;
    let has = |what: &str, v: &Value, keys: &[&str]| {
        for k in keys {
            assert!(v.get(*k).is_some(), "{what} lacks {k}: {v}");
        }
    };
    let e = &get(b, "/events?limit=1").await.assert_ok()[0];
    has(
        "event",
        e,
        &[
            "id",
            "ticker",
            "slug",
            "title",
            "description",
            "resolutionSource",
            "startDate",
            "endDate",
            "createdAt",
            "updatedAt",
            "image",
            "icon",
            "active",
            "closed",
            "archived",
            "tags",
            "markets",
        ],
    );
    has(
        "event market",
        &e["markets"][0],
        &["id", "question", "conditionId", "mirrorConditionId", "clobTokenIds", "mirrorClobTokenIds"],
    );
    has("tag", &e["tags"][0], &["id", "label", "slug", "createdAt", "updatedAt", "requiresTranslation"]);
    let m = get(b, "/markets/500001").await.assert_ok();
    has(
        "catalog market",
        &m,
        &[
            "id",
            "question",
            "conditionId",
            "mirrorConditionId",
            "slug",
            "resolutionSource",
            "startDate",
            "endDate",
            "image",
            "icon",
            "description",
            "outcomes",
            "clobTokenIds",
            "mirrorClobTokenIds",
            "active",
            "closed",
            "archived",
            "createdAt",
            "updatedAt",
            "questionID",
            "events",
        ],
    );
    has(
        "event summary",
        &m["events"][0],
        &[
            "id",
            "ticker",
            "slug",
            "title",
            "description",
            "resolutionSource",
            "startDate",
            "creationDate",
            "endDate",
            "createdAt",
            "updatedAt",
            "image",
            "icon",
            "active",
            "closed",
            "archived",
        ],
    );
    let s = &get(b, "/series?limit=1").await.assert_ok()[0];
    has(
        "series",
        s,
        &[
            "id",
            "ticker",
            "slug",
            "title",
            "seriesType",
            "recurrence",
            "image",
            "icon",
            "active",
            "closed",
            "archived",
            "createdAt",
            "updatedAt",
            "events",
        ],
    );
    let c = &get(b, "/events/creators?limit=1").await.assert_ok()[0];
    has("creator", c, &["id", "creatorName", "creatorHandle", "creatorUrl", "creatorImage", "createdAt", "updatedAt"]);
    let cm = &get(b, "/comments?limit=1").await.assert_ok()[0];
    has(
        "comment",
        cm,
        &[
            "id",
            "body",
            "parentEntityType",
            "parentEntityID",
            "parentCommentID",
            "userAddress",
            "replyAddress",
            "createdAt",
            "updatedAt",
            "profile",
            "reactions",
            "reportCount",
            "reactionCount",
            "replyCount",
            "replies",
        ],
    );
    has(
        "profile",
        &cm["profile"],
        &[
            "name",
            "pseudonym",
            "displayUsernamePublic",
            "bio",
            "isMod",
            "isCreator",
            "proxyWallet",
            "baseAddress",
            "profileImage",
            "profileImageOptimized",
            "positions",
        ],
    );
    let clob = &get(b, "/markets").await.assert_ok()["data"][0];
    has(
        "clob market",
        clob,
        &[
            "enable_order_book",
            "active",
            "closed",
            "archived",
            "accepting_orders",
            "accepting_order_timestamp",
            "minimum_order_size",
            "minimum_tick_size",
            "condition_id",
            "creator",
            "mirror_condition_id",
            "status",
            "question_id",
            "question",
            "slug",
            "description",
            "market_slug",
            "neg_risk",
            "market_id",
            "end_date_iso",
            "game_start_time",
            "seconds_delay",
            "fpmm",
            "maker_base_fee",
            "taker_base_fee",
            "notifications_enabled",
            "neg_risk_market_id",
            "neg_risk_request_id",
            "icon",
            "image",
            "rewards",
            "is_50_50_outcome",
            "tokens",
            "tags",
            "assets_ids",
            "outcomes",
            "event",
            "raw_metadata",
        ],
    );
    has("token", &clob["tokens"][0], &["token_id", "mirror_token_id", "outcome", "price", "winner"]);
    let info = get(b, &format!("/clob-markets/{}", clob["condition_id"].as_str().unwrap())).await.assert_ok();
    has(
        "clob market info",
        &info,
        &[
            "gst",
            "r",
            "c",
            "creator",
            "mirror_condition_id",
            "nr",
            "t",
            "mts",
            "mos",
            "fd",
            "mbf",
            "tbf",
            "rfqe",
            "itode",
            "ibce",
            "oas",
        ],
    );
    let order = &auth_get(b, "/data/orders", &emu.demo).await.assert_ok()["data"][0];
    has(
        "order",
        order,
        &[
            "associateTrades",
            "id",
            "status",
            "market",
            "originalSize",
            "outcome",
            "makerAddress",
            "owner",
            "price",
            "side",
            "sizeMatched",
            "assetId",
            "expiration",
            "order_type",
            "createdAt",
        ],
    );
    let t = &get(b, "/trades?limit=1").await.assert_ok()[0];
    has(
        "trade",
        t,
        &[
            "proxyWallet",
            "side",
            "asset",
            "conditionId",
            "size",
            "price",
            "timestamp",
            "usdcSize",
            "title",
            "slug",
            "icon",
            "eventSlug",
            "outcome",
            "outcomeIndex",
            "name",
            "pseudonym",
            "bio",
            "profileImage",
            "profileImageOptimized",
            "transactionHash",
        ],
    );
    let p = &get(b, &format!("/closed-positions?user={}", emu.demo.address)).await.assert_ok()[0];
    has(
        "closed position",
        p,
        &[
            "proxyWallet",
            "asset",
            "conditionId",
            "size",
            "avgPrice",
            "initialValue",
            "currentValue",
            "cashPnl",
            "totalBought",
            "realizedPnl",
            "percentPnl",
            "percentRealizedPnl",
            "curPrice",
            "redeemable",
            "mergeable",
            "title",
            "slug",
            "icon",
            "eventSlug",
            "outcome",
            "outcomeIndex",
            "oppositeOutcome",
            "oppositeAsset",
            "timestamp",
            "endDate",
        ],
    );
    let search = get(b, "/public-search?q=markets").await.assert_ok();
    has("search", &search, &["events", "tags", "pagination"]);
}
