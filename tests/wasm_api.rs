//! Every public endpoint through the binding, in headless Chromium and in Node, against the emulator.
//! Ids are discovered through the API itself, so the tests hold for any seed.
#![cfg(target_arch = "wasm32")]

mod wasm_support;

use std::collections::HashSet;

use js_sys::{Array, Function};
use predictkit::wasm::OrderBook;
use wasm_bindgen::convert::TryFromJsValue;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;
use wasm_support::*;

#[wasm_bindgen_test]
async fn catalog_methods() {
    let c = client();
    let events = ok(c.get_events(Some(object(&[("limit", 3.into()), ("active", true.into())])), None)).await;
    assert_eq!(arr(&events).length(), 3);
    let event = at(&events, 0);
    assert_eq!(get(&event, "active").as_bool(), Some(true));
    let summary = at(&get(&event, "markets"), 0);
    let id = text(&summary, "id");
    let condition_id = text(&summary, "conditionId");

    let market = ok(c.get_market(JsValue::from(&id), None, None)).await;
    assert_eq!(text(&market, "id"), id);
    assert_eq!(text(&market, "conditionId"), condition_id);
    let tokens: Array = json(&text(&market, "clobTokenIds")).unchecked_into();
    assert!(tokens.length() >= 2, "clobTokenIds is JSON text of the outcome tokens");
    let by_condition = ok(c.get_market(JsValue::from(&condition_id), None, None)).await;
    assert_eq!(text(&by_condition, "id"), id);
    let by_slug = ok(c.get_market_by_slug(JsValue::from(&text(&market, "slug")), None, None)).await;
    assert_eq!(text(&by_slug, "id"), id);

    let series = ok(c.get_series(Some(object(&[("limit", 2.into())])), None)).await;
    assert_eq!(arr(&series).length(), 2);
    let creators = ok(c.get_event_creators(Some(object(&[("limit", 2.into())])), None)).await;
    assert_eq!(arr(&creators).length(), 2);
    assert!(!text(&at(&creators, 0), "creatorName").is_empty());
    let tags = ok(c.get_tags(Some(object(&[("limit", 3.into())])), None)).await;
    assert_eq!(arr(&tags).length(), 3);

    let word = text(&event, "title").split_whitespace().max_by_key(|w| w.len()).unwrap().to_owned();
    let found =
        ok(c.public_search(Some(object(&[("q", word.as_str().into()), ("limit_per_type", 5.into())])), None)).await;
    assert!(arr(&get(&found, "events")).length() >= 1, "searching {word:?} finds its event");
    assert!(get(&get(&found, "pagination"), "totalResults").as_f64().unwrap() >= 1.0);

    let comments = ok(c.get_comments(Some(object(&[("limit", 5.into())])), None)).await;
    assert_eq!(arr(&comments).length(), 5);
    let with_replies = arr(&comments).iter().find(|c| get(c, "replyCount").as_f64().unwrap_or(0.0) > 0.0);
    let comment = with_replies.unwrap_or_else(|| at(&comments, 0));
    let replies = ok(c.get_comment_replies(JsValue::from(&text(&comment, "id")), None, None)).await;
    assert!(Array::is_array(&replies));
}

#[wasm_bindgen_test]
async fn clob_methods() {
    let c = client();
    let page = ok(c.get_markets(None, None)).await;
    let data = arr(&get(&page, "data"));
    assert!(data.length() > 0);
    let cursor = text(&page, "next_cursor");
    let page2 = ok(c.get_markets(Some(cursor.into()), None)).await;
    assert_ne!(text(&at(&get(&page2, "data"), 0), "condition_id"), text(&data.get(0), "condition_id"));
    let sampling = ok(c.get_sampling_markets(None, None)).await;
    assert!(arr(&get(&sampling, "data")).length() > 0);

    let market = data.get(0);
    let condition_id = text(&market, "condition_id");
    let info = ok(c.get_clob_market_info(JsValue::from(&condition_id), None)).await;
    assert!(Array::is_array(&get(&info, "t")), "compact token list: {}", show(&info));
    let token = text(&at(&get(&market, "tokens"), 0), "token_id");
    let other = text(&at(&get(&market, "tokens"), 1), "token_id");

    let book = ok(c.get_order_book(JsValue::from(&token), None)).await;
    assert_eq!(text(&book, "asset_id"), token);
    let parsed = OrderBook::try_from_js_value(ok(c.get_book(JsValue::from(&token), None)).await).unwrap();
    assert_eq!(parsed.asset_id().as_deref(), Some(token.as_str()));

    let pair = JsValue::from(Array::of2(
        &object(&[("token_id", token.as_str().into())]),
        &object(&[("token_id", other.as_str().into())]),
    ));
    let books = ok(c.get_order_books(pair.clone(), None)).await;
    assert_eq!(arr(&books).length(), 2);
    let prices = ok(c.get_prices(pair, None)).await;
    let buy = text(&get(&prices, &token), "BUY");
    let price = ok(c.get_price(JsValue::from(&token), "BUY".into(), None)).await;
    assert_eq!(text(&price, "price"), buy, "GET /price agrees with POST /prices");
    let mid = ok(c.get_midpoint(JsValue::from(&token), None)).await;
    assert!(text(&mid, "mid").parse::<f64>().unwrap() > 0.0);
    let fee = ok(c.get_fee_rate(JsValue::from(&token), None)).await;
    assert!(get(&fee, "base_fee").as_f64().is_some());

    let history =
        ok(c.get_prices_history(Some(object(&[("market", token.as_str().into()), ("interval", "1d".into())])), None))
            .await;
    let points = arr(&get(&history, "history"));
    assert!(points.length() > 0);
    assert!(num(&points.get(0), "p") >= 0.0 && num(&points.get(0), "t") > 0.0);
    let markets = JsValue::from(Array::of2(&token.as_str().into(), &other.as_str().into()));
    let batch =
        ok(c.get_batch_prices_history(Some(object(&[("markets", markets), ("interval", "1w".into())])), None)).await;
    assert!(Array::is_array(&get(&get(&batch, "history"), &token)));
    assert!(Array::is_array(&get(&get(&batch, "history"), &other)));
}

#[wasm_bindgen_test]
async fn activity_methods() {
    let c = client();
    let trades = ok(c.get_trades(Some(object(&[("limit", 5.into()), ("side", "BUY".into())])), None)).await;
    assert_eq!(arr(&trades).length(), 5);
    assert!(arr(&trades).iter().all(|t| text(&t, "side") == "BUY"));
    let user = text(&at(&trades, 0), "proxyWallet");
    let closed =
        ok(c.get_closed_positions(Some(object(&[("user", user.as_str().into()), ("limit", 50.into())])), None)).await;
    assert!(arr(&closed).length() > 0, "the trader has closed positions");
    assert!(arr(&closed).iter().all(|p| text(&p, "proxyWallet").eq_ignore_ascii_case(&user)));
}

#[wasm_bindgen_test]
async fn invalid_params_never_leave() {
    let (calls, fetch) = counting_fetch();
    let c = client_with(&[("fetch", fetch.into())]);
    let token = "123";
    let cases: Vec<(js_sys::Promise, &str)> = vec![
        (c.get_events(Some(object(&[("limit", 101.into())])), None), "limit"),
        (c.get_events(Some(object(&[("limt", 5.into())])), None), "limt"),
        (c.get_events(Some(JsValue::from(5)), None), "params"),
        (c.get_trades(Some(object(&[("filterType", "CASH".into())])), None), "filterType"),
        (c.get_trades(Some(object(&[("limit", 10_001.into())])), None), "limit"),
        (c.get_closed_positions(Some(object(&[])), None), "user"),
        (c.get_closed_positions(Some(object(&[("user", "0x1".into())])), None), "user"),
        (c.get_comments(Some(object(&[("parent_entity_type", "event".into())])), None), "parent_entity_type"),
        (c.get_comment_replies(JsValue::from(""), None, None), "id"),
        (c.get_market(JsValue::from("not-an-id"), None, None), "id"),
        (c.get_market_by_slug(JsValue::from(""), None, None), "slug"),
        (c.get_series(Some(object(&[("offset", (-1).into())])), None), "offset"),
        (c.get_event_creators(Some(object(&[("ascending", "yes".into())])), None), "ascending"),
        (c.public_search(Some(object(&[("q", "x".into()), ("limit_per_type", 501.into())])), None), "limit_per_type"),
        (c.get_tags(Some(object(&[("limit", 0.into())])), None), "limit"),
        (c.get_markets(Some("not a cursor".into()), None), "next_cursor"),
        (c.get_clob_market_info(JsValue::from("0x1"), None), "condition_id"),
        (c.get_order_book(JsValue::from("abc"), None), "token_id"),
        (c.get_order_books(Array::new().into(), None), "params"),
        (c.get_prices(object(&[("token_id", token.into())]), None), "params"),
        (c.get_price(JsValue::from(token), "HOLD".into(), None), "side"),
        (c.get_midpoint(JsValue::from(""), None), "token_id"),
        (c.get_fee_rate(JsValue::from("1e5"), None), "token_id"),
        (c.get_prices_history(Some(object(&[("market", token.into()), ("interval", "2h".into())])), None), "interval"),
        (c.get_batch_prices_history(Some(object(&[("markets", Array::new().into())])), None), "markets"),
    ];
    for (promise, param) in cases {
        let err = fails(promise, "INVALID_PARAMS").await;
        assert_eq!(text(&err, "param"), param);
    }
    assert_eq!(calls.length(), 0, "nothing was sent: {}", show(&calls));
}

#[wasm_bindgen_test]
async fn iterate_follows_cursors_with_progress_and_a_bound() {
    let c = client();
    let pages = Array::new();
    let on_page = Function::new_with_args("info", "this.push(info)").bind0(&pages);
    let iterable = c.iterate_markets(Some(object(&[("maxItems", 1000.into()), ("onPage", on_page.into())]))).unwrap();
    let items = collect(&iterable).await;
    assert_eq!(items.len(), 1000);
    let unique: HashSet<String> = items.iter().map(|m| text(m, "condition_id")).collect();
    assert_eq!(unique.len(), 1000, "no market is seen twice");
    assert!(pages.length() >= 2);
    let last = pages.get(pages.length() - 1);
    assert_eq!(num(&last, "total"), 1000.0);
    assert_eq!(get(&last, "done").as_bool(), Some(true));
}

#[wasm_bindgen_test]
async fn iterate_follows_offsets() {
    let c = client();
    let iterable =
        c.iterate_events(Some(object(&[("limit", 40.into())])), Some(object(&[("maxItems", 100.into())]))).unwrap();
    let items = collect(&iterable).await;
    assert_eq!(items.len(), 100);
    let ids: HashSet<String> = items.iter().map(|e| text(e, "id")).collect();
    assert_eq!(ids.len(), 100);
    let first = ok(c.get_events(Some(object(&[("limit", 40.into()), ("offset", 40.into())])), None)).await;
    assert_eq!(text(&items[40], "id"), text(&at(&first, 0), "id"), "the second page starts at offset 40");
}

#[wasm_bindgen_test]
fn iterate_checks_params_and_options_at_the_call() {
    let c = client();
    for (result, param) in [
        (c.iterate_events(Some(object(&[("limit", 500.into())])), None), "limit"),
        (c.iterate_trades(Some(object(&[("limit", 0.into())])), None), "limit"),
        (c.iterate_events(None, Some(object(&[("maxItems", (-1).into())]))), "maxItems"),
        (c.iterate_events(None, Some(object(&[("onPage", 1.into())]))), "onPage"),
        (c.iterate_markets(Some(object(&[("max", 1.into())]))), "max"),
    ] {
        let err = result.err().unwrap();
        assert_code(&err, "INVALID_PARAMS");
        assert_eq!(text(&err, "param"), param);
    }
}
