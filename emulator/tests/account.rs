//! Authentication, the account's orders and fills, and cancellation.

mod common;

use std::collections::HashSet;

use common::*;
use predictkit_emulator::TimestampUnit;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

async fn all_open_orders(base: &str, account: &Account, filter: &str) -> Vec<Value> {
    let mut cursor = "MA==".to_owned();
    let mut out = Vec::new();
    for _ in 0..100 {
        let page = auth_get(base, &format!("/data/orders?next_cursor={cursor}{filter}"), account).await.assert_ok();
        assert_eq!(page["limit"], 100);
        assert_eq!(page["count"].as_u64().unwrap() as usize, page["data"].as_array().unwrap().len());
        out.extend(page["data"].as_array().unwrap().iter().cloned());
        cursor = page["next_cursor"].as_str().unwrap().to_owned();
        if cursor.is_empty() {
            return out;
        }
    }
    panic!("no end cursor");
}

#[tokio::test]
async fn open_orders_page_and_filter() {
    let emu = start().await;
    let (b, demo) = (&emu.url, &emu.demo);
    let orders = all_open_orders(b, demo, "").await;
    assert_eq!(orders.len(), 300);
    let ids: HashSet<&str> = orders.iter().map(|o| o["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), 300);
    let markets: HashSet<&str> = orders.iter().map(|o| o["market"].as_str().unwrap()).collect();
    assert!(markets.len() > 150, "spread over many markets: {}", markets.len());
    for o in &orders {
        assert_eq!(o["makerAddress"], demo.address.as_str());
        assert_eq!(o["owner"], demo.api_key.as_str());
        assert!(o["side"] == "BUY" || o["side"] == "SELL");
        assert!(o["createdAt"].as_str().unwrap().ends_with('Z'));
        assert!(o["associateTrades"].is_array());
    }
    let other = all_open_orders(b, &emu.accounts[1], "").await;
    assert_eq!(other.len(), 240);
    assert!(other.iter().all(|o| !ids.contains(o["id"].as_str().unwrap())));
    // Filters.
    let first = &orders[0];
    let market = first["market"].as_str().unwrap();
    let by_market = all_open_orders(b, demo, &format!("&market={market}")).await;
    assert!(by_market.len() >= 2, "clustered markets hold several orders");
    assert!(by_market.iter().all(|o| o["market"] == market));
    let asset = first["assetId"].as_str().unwrap();
    let by_asset = all_open_orders(b, demo, &format!("&asset_id={asset}")).await;
    assert!(!by_asset.is_empty() && by_asset.iter().all(|o| o["assetId"] == asset));
    let by_id = all_open_orders(b, demo, &format!("&id={}", first["id"].as_str().unwrap())).await;
    assert_eq!(by_id, vec![first.clone()]);
    auth_get(b, "/data/orders?next_cursor=%%%", demo).await.assert_bad("next_cursor");
    // Without the query, the signature (over the path only) still matches.
    let plain = auth_get(b, "/data/orders", demo).await.assert_ok();
    assert_eq!(plain["data"].as_array().unwrap().len(), 100);
}

#[tokio::test]
async fn get_order_by_id_is_scoped_to_the_account() {
    let emu = start().await;
    let (b, demo) = (&emu.url, &emu.demo);
    let mine = auth_get(b, "/data/orders", demo).await.assert_ok()["data"][0].clone();
    let id = mine["id"].as_str().unwrap();
    let got = auth_get(b, &format!("/data/order/{id}"), demo).await.assert_ok();
    assert_eq!(got["order"], mine);
    let r = auth_get(b, &format!("/data/order/{id}"), &emu.accounts[1]).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "another account's order");
    let r = auth_get(b, "/data/order/0xdeadbeef", demo).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert!(r.json()["error"].is_string());
}

#[tokio::test]
async fn authentication_is_checked() {
    let emu = start().await;
    let (b, demo) = (&emu.url, emu.demo.clone());
    let ts = now_ms().to_string();
    // Missing headers, one at a time.
    for name in ["SERVICE_ADDRESS", "SERVICE_API_KEY", "SERVICE_PASSPHRASE", "SERVICE_TIMESTAMP", "SERVICE_SIGNATURE"] {
        let good = signed(Method::GET, b, "/data/orders", None, &demo, &ts).build().unwrap();
        let mut request = client().get(format!("{b}/data/orders"));
        for (k, v) in good.headers() {
            if !k.as_str().eq_ignore_ascii_case(name) {
                request = request.header(k, v);
            }
        }
        let r = send(request).await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{name}");
        assert!(r.json()["error"].as_str().unwrap().contains(name), "{}", r.text);
    }
    assert_eq!(send(client().get(format!("{b}/data/orders"))).await.status, StatusCode::UNAUTHORIZED);
    // Wrong values.
    let mut wrong = demo.clone();
    wrong.passphrase = "0".repeat(64);
    assert_eq!(auth_get(b, "/data/orders", &wrong).await.status, StatusCode::UNAUTHORIZED);
    let mut wrong = demo.clone();
    wrong.api_key = "00000000-0000-0000-0000-000000000000".into();
    assert_eq!(auth_get(b, "/data/orders", &wrong).await.status, StatusCode::UNAUTHORIZED);
    let mut wrong = demo.clone();
    wrong.address = emu.accounts[1].address.clone();
    assert_eq!(auth_get(b, "/data/orders", &wrong).await.status, StatusCode::UNAUTHORIZED);
    let mut wrong = demo.clone();
    wrong.secret = emu.accounts[1].secret.clone();
    let r = auth_get(b, "/data/orders", &wrong).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert!(r.json()["error"].as_str().unwrap().contains("SERVICE_SIGNATURE"));
    // The address is compared without regard to case (clients may send it checksummed).
    let mut upper = demo.clone();
    upper.address = format!("0x{}", demo.address[2..].to_uppercase());
    auth_get(b, "/data/orders", &upper).await.assert_ok();
    // A signature over the path with its query string is not the service's signature.
    let ts = now_ms().to_string();
    let sig = predictkit_emulator::auth::sign(&demo.secret, &ts, "GET", "/data/orders?next_cursor=MA==", None).unwrap();
    let r = send(signed_as(Method::GET, b, "/data/orders?next_cursor=MA==", None, &demo, &ts, &sig)).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    // Stale, future and badly formed timestamps.
    let stale = (now_ms() - 31_000).to_string();
    assert_eq!(
        send(signed(Method::GET, b, "/data/orders", None, &demo, &stale)).await.status,
        StatusCode::UNAUTHORIZED
    );
    let fresh = (now_ms() - 20_000).to_string();
    assert_eq!(send(signed(Method::GET, b, "/data/orders", None, &demo, &fresh)).await.status, StatusCode::OK);
    let future = (now_ms() + 60_000).to_string();
    assert_eq!(
        send(signed(Method::GET, b, "/data/orders", None, &demo, &future)).await.status,
        StatusCode::UNAUTHORIZED
    );
    let r = send(signed(Method::GET, b, "/data/orders", None, &demo, "12ab")).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    // Seconds where milliseconds are expected.
    let seconds = (now_ms() / 1000).to_string();
    let r = send(signed(Method::GET, b, "/data/orders", None, &demo, &seconds)).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert!(r.json()["error"].as_str().unwrap().contains("milliseconds"));
    // Every authenticated route checks.
    for path in ["/data/orders", "/data/order/0x1", "/data/trades"] {
        assert_eq!(get(b, path).await.status, StatusCode::UNAUTHORIZED, "{path}");
    }
    for path in ["/order", "/orders", "/cancel-market-orders", "/cancel-all"] {
        let r = send(client().delete(format!("{b}{path}")).body(r#"{"orderId":"x","market":"y"}"#)).await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{path}");
    }
}

#[tokio::test]
async fn timestamp_unit_and_freshness_are_configurable() {
    let emu = start_with(Config {
        timestamp_unit: TimestampUnit::Seconds,
        freshness_secs: 5,
        limits: false,
        ..Config::for_tests()
    })
    .await;
    let (b, demo) = (&emu.url, &emu.demo);
    let seconds = (now_ms() / 1000).to_string();
    send(signed(Method::GET, b, "/data/orders", None, demo, &seconds)).await.assert_ok();
    let ms = now_ms().to_string();
    assert_eq!(send(signed(Method::GET, b, "/data/orders", None, demo, &ms)).await.status, StatusCode::UNAUTHORIZED);
    let old = (now_ms() / 1000 - 10).to_string();
    assert_eq!(send(signed(Method::GET, b, "/data/orders", None, demo, &old)).await.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn cancel_one_order_with_reasons() {
    let emu = start().await;
    let (b, demo, other) = (&emu.url, &emu.demo, &emu.accounts[1]);
    let mine = auth_get(b, "/data/orders", demo).await.assert_ok()["data"][3]["id"].as_str().unwrap().to_owned();
    let theirs = auth_get(b, "/data/orders", other).await.assert_ok()["data"][0]["id"].as_str().unwrap().to_owned();
    let r = auth_delete(b, "/order", &json!({ "orderId": mine }), demo).await.assert_ok();
    assert_eq!(r, json!({ "canceled": [mine], "not_canceled": {} }));
    let r = auth_delete(b, "/order", &json!({ "orderId": mine }), demo).await.assert_ok();
    assert_eq!(r, json!({ "canceled": [], "not_canceled": { mine.clone(): "order already canceled" } }));
    let r = auth_delete(b, "/order", &json!({ "orderId": theirs }), demo).await.assert_ok();
    assert_eq!(r, json!({ "canceled": [], "not_canceled": { theirs.clone(): "not your order" } }));
    let r = auth_delete(b, "/order", &json!({ "orderId": "0xnope" }), demo).await.assert_ok();
    assert_eq!(r["not_canceled"]["0xnope"], "order not found");
    // The other account's order is still open; mine is gone from the open list but readable by id.
    let theirs_still = auth_get(b, &format!("/data/order/{theirs}"), other).await.assert_ok();
    assert_eq!(theirs_still["order"]["status"], "LIVE");
    let open = all_open_orders(b, demo, "").await;
    assert_eq!(open.len(), 299);
    assert!(open.iter().all(|o| o["id"] != mine.as_str()));
    let by_id = auth_get(b, &format!("/data/order/{mine}"), demo).await.assert_ok();
    assert_eq!(by_id["order"]["status"], "CANCELED");
    // Body validation (after authentication).
    auth_delete(b, "/order", &json!({}), demo).await.assert_bad("orderId");
    auth_delete(b, "/order", &json!({ "orderId": "" }), demo).await.assert_bad("orderId");
    auth_delete(b, "/order", &json!({ "orderId": 5 }), demo).await.assert_bad("orderId");
    auth_delete(b, "/order", &json!(["x"]), demo).await.assert_bad("object");
    let r = send(signed(Method::DELETE, b, "/order", Some("not json"), demo, &now_ms().to_string())).await;
    r.assert_bad("object");
    // The body is part of the signature.
    let ts = now_ms().to_string();
    let sig =
        predictkit_emulator::auth::sign(&demo.secret, &ts, "DELETE", "/order", Some(r#"{"orderId":"a"}"#)).unwrap();
    let r = send(signed_as(Method::DELETE, b, "/order", Some(r#"{"orderId":"b"}"#), demo, &ts, &sig)).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    // Reset restores the seed's orders.
    post(b, "/__admin/reset", &json!({})).await.assert_ok();
    assert_eq!(all_open_orders(b, demo, "").await.len(), 300);
}

#[tokio::test]
async fn cancel_many_orders_and_all_of_them() {
    let emu = start().await;
    let (b, demo, other) = (&emu.url, &emu.demo, &emu.accounts[1]);
    let open = all_open_orders(b, demo, "").await;
    let ids: Vec<String> = open.iter().take(3).map(|o| o["id"].as_str().unwrap().to_owned()).collect();
    let theirs = all_open_orders(b, other, "").await[0]["id"].as_str().unwrap().to_owned();
    // Duplicates are ignored; each id is canceled or told why not.
    let body = json!([ids[0], ids[1], ids[0], theirs, "0xnope"]);
    let r = auth_delete(b, "/orders", &body, demo).await.assert_ok();
    assert_eq!(r["canceled"], json!([ids[0], ids[1]]));
    assert_eq!(r["not_canceled"], json!({ theirs.clone(): "not your order", "0xnope": "order not found" }));
    let r = auth_delete(b, "/orders", &json!([ids[0], ids[2]]), demo).await.assert_ok();
    assert_eq!(r, json!({ "canceled": [ids[2]], "not_canceled": { ids[0].clone(): "order already canceled" } }));
    // The body is an array of strings, of at most 3000 (the upstream documentation's bound).
    auth_delete(b, "/orders", &json!({ "orderIds": ids }), demo).await.assert_bad("array");
    auth_delete(b, "/orders", &json!([1]), demo).await.assert_bad("string");
    let many: Vec<String> = (0..3001).map(|i| format!("0x{i:x}")).collect();
    auth_delete(b, "/orders", &json!(many), demo).await.assert_bad("3000");
    // Cancel all: every open order of the account, and no one else's.
    let r = auth_delete(b, "/cancel-all", &json!({}), demo).await.assert_ok();
    assert_eq!(r["canceled"].as_array().unwrap().len(), open.len() - 3);
    assert_eq!(r["not_canceled"], json!({}));
    assert!(all_open_orders(b, demo, "").await.is_empty());
    assert_eq!(all_open_orders(b, other, "").await.len(), 240);
    let again = auth_delete(b, "/cancel-all", &json!({}), demo).await.assert_ok();
    assert_eq!(again["canceled"], json!([]));
}

#[tokio::test]
async fn cancel_market_orders_by_market_and_asset() {
    let emu = start().await;
    let (b, demo) = (&emu.url, &emu.demo);
    let open = all_open_orders(b, demo, "").await;
    let market = open[0]["market"].as_str().unwrap().to_owned();
    let in_market: HashSet<String> =
        open.iter().filter(|o| o["market"] == market.as_str()).map(|o| o["id"].as_str().unwrap().to_owned()).collect();
    assert!(in_market.len() >= 2);
    auth_delete(b, "/cancel-market-orders", &json!({}), demo).await.assert_bad("market");
    auth_delete(b, "/cancel-market-orders", &json!({ "market": "", "asset_id": "" }), demo)
        .await
        .assert_bad("asset_id");
    auth_delete(b, "/cancel-market-orders", &json!({ "market": 1 }), demo).await.assert_bad("market");
    let r = auth_delete(b, "/cancel-market-orders", &json!({ "market": market }), demo).await.assert_ok();
    let canceled: HashSet<String> =
        r["canceled"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_owned()).collect();
    assert_eq!(canceled, in_market);
    assert_eq!(r["not_canceled"], json!({}));
    let again = auth_delete(b, "/cancel-market-orders", &json!({ "market": market }), demo).await.assert_ok();
    assert_eq!(again["canceled"], json!([]));
    assert_eq!(all_open_orders(b, demo, "").await.len(), 300 - in_market.len());
    // By asset: only that token's orders.
    let rest = all_open_orders(b, demo, "").await;
    let asset = rest[0]["assetId"].as_str().unwrap().to_owned();
    let expected = rest.iter().filter(|o| o["assetId"] == asset.as_str()).count();
    let r = auth_delete(b, "/cancel-market-orders", &json!({ "asset_id": asset }), demo).await.assert_ok();
    assert_eq!(r["canceled"].as_array().unwrap().len(), expected);
    // Another account's orders in the same market are untouched.
    let other = &emu.accounts[1];
    let theirs = all_open_orders(b, other, "").await;
    let their_market = theirs[0]["market"].as_str().unwrap().to_owned();
    let r = auth_delete(b, "/cancel-market-orders", &json!({ "market": their_market }), demo).await.assert_ok();
    assert!(r["canceled"].as_array().unwrap().iter().all(|id| !theirs.iter().any(|o| o["id"] == *id)));
    assert_eq!(all_open_orders(b, other, "").await.len(), 240);
}

#[tokio::test]
async fn account_trades_page_and_filter() {
    let emu = start().await;
    let (b, demo) = (&emu.url, &emu.demo);
    let mut cursor = "MA==".to_owned();
    let mut all = Vec::new();
    while !cursor.is_empty() {
        let page = auth_get(b, &format!("/data/trades?next_cursor={cursor}"), demo).await.assert_ok();
        all.extend(page["data"].as_array().unwrap().iter().cloned());
        cursor = page["next_cursor"].as_str().unwrap().to_owned();
    }
    assert_eq!(all.len(), 250);
    let t = &all[0];
    for key in [
        "id",
        "taker_order_id",
        "market",
        "asset_id",
        "side",
        "size",
        "fee_rate_bps",
        "price",
        "status",
        "match_time",
        "last_update",
        "outcome",
        "owner",
        "maker_address",
        "transaction_hash",
        "trader_side",
    ] {
        assert!(t[key].is_string(), "{key}: {t}");
    }
    assert!(t["bucket_index"].is_i64());
    assert!(t["maker_orders"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["order_id"].is_string() && m["matched_amount"].is_string()));
    assert_eq!(t["owner"], demo.api_key.as_str());
    let time: i64 = t["match_time"].as_str().unwrap().parse().unwrap();
    let before = auth_get(b, &format!("/data/trades?before={time}"), demo).await.assert_ok();
    assert!(!before["data"].as_array().unwrap().is_empty(), "trades before the first one listed");
    assert!(before["data"].as_array().unwrap().iter().all(|x| x["match_time"]
        .as_str()
        .unwrap()
        .parse::<i64>()
        .unwrap()
        < time));
    let after = auth_get(b, &format!("/data/trades?after={}", time - 7200), demo).await.assert_ok();
    assert!(!after["data"].as_array().unwrap().is_empty(), "the trade itself is after");
    assert!(after["data"].as_array().unwrap().iter().all(|x| x["match_time"]
        .as_str()
        .unwrap()
        .parse::<i64>()
        .unwrap()
        > time - 7200));
    auth_get(b, "/data/trades?before=yesterday", demo).await.assert_bad("before");
    auth_get(b, "/data/trades?after=-5", demo).await.assert_bad("after");
    let by_market =
        auth_get(b, &format!("/data/trades?market={}", t["market"].as_str().unwrap()), demo).await.assert_ok();
    assert!(!by_market["data"].as_array().unwrap().is_empty(), "the trade's market lists it");
    assert!(by_market["data"].as_array().unwrap().iter().all(|x| x["market"] == t["market"]));
    let by_id = auth_get(b, &format!("/data/trades?id={}", t["id"].as_str().unwrap()), demo).await.assert_ok();
    assert_eq!(by_id["count"], 1);
    let by_asset =
        auth_get(b, &format!("/data/trades?asset_id={}", t["asset_id"].as_str().unwrap()), demo).await.assert_ok();
    assert!(!by_asset["data"].as_array().unwrap().is_empty(), "the trade's asset lists it");
    assert!(by_asset["data"].as_array().unwrap().iter().all(|x| x["asset_id"] == t["asset_id"]));
    let maker = t["maker_orders"][0]["maker_address"].as_str().unwrap();
    let by_maker = auth_get(b, &format!("/data/trades?maker_address={maker}"), demo).await.assert_ok();
    assert_eq!(by_maker["count"], 1);
    let theirs = auth_get(b, "/data/trades", &emu.accounts[2]).await.assert_ok();
    assert!(!theirs["data"].as_array().unwrap().is_empty(), "the other account has trades");
    assert!(theirs["data"].as_array().unwrap().iter().all(|x| x["owner"] == emu.accounts[2].api_key.as_str()));
}

#[tokio::test]
async fn admin_accounts_lists_every_account() {
    let emu = start().await;
    let accounts = get(&emu.url, "/__admin/accounts").await.assert_ok();
    let list = accounts.as_array().unwrap();
    assert_eq!(list.len(), 3);
    assert_eq!(list[0]["address"], emu.demo.address.as_str());
    assert_eq!(list[0]["apiKey"], emu.demo.api_key.as_str());
    assert_eq!(list[0]["secret"], emu.demo.secret.as_str());
    assert_eq!(list[0]["passphrase"], emu.demo.passphrase.as_str());
    for a in list {
        let address = a["address"].as_str().unwrap();
        assert!(address.len() == 42 && address.starts_with("0x"));
        assert_eq!(a["passphrase"].as_str().unwrap().len(), 64);
        assert_eq!(a["apiKey"].as_str().unwrap().len(), 36);
        let secret = a["secret"].as_str().unwrap();
        assert_eq!(secret.len(), 44, "url-safe Base64 of 32 bytes");
        assert!(!secret.contains('+') && !secret.contains('/'));
    }
}

#[tokio::test]
async fn balances_allowances_and_scoring() {
    let emu = start().await;
    let (b, demo) = (&emu.url, &emu.demo);
    let r = auth_get(b, "/balance-allowance?asset_type=COLLATERAL&signature_type=0", demo).await.assert_ok();
    assert_eq!(r["balance"], "10000000000");
    let allowances = r["allowances"].as_object().unwrap();
    assert_eq!(allowances.len(), 2);
    assert!(allowances.values().all(|v| v.as_str().unwrap().len() == 78));
    let token = clob_markets(b).await[0]["tokens"][0]["token_id"].as_str().unwrap().to_owned();
    let r = auth_get(b, &format!("/balance-allowance/update?asset_type=CONDITIONAL&token_id={token}"), demo).await;
    assert_eq!(r.assert_ok()["balance"], "0");
    auth_get(b, "/balance-allowance?asset_type=CONDITIONAL", demo).await.assert_bad("token_id");
    auth_get(b, "/balance-allowance?asset_type=USDC", demo).await.assert_bad("asset_type");
    auth_get(b, "/balance-allowance", demo).await.assert_bad("asset_type");
    auth_get(b, "/balance-allowance?asset_type=COLLATERAL&signature_type=4", demo).await.assert_bad("signature_type");
    // Scoring: an unknown order, or another account's, does not score; the batch answers each id.
    let r = auth_get(b, "/order-scoring?order_id=0xnope", demo).await.assert_ok();
    assert_eq!(r, json!({ "scoring": false }));
    auth_get(b, "/order-scoring", demo).await.assert_bad("order_id");
    let mine = all_open_orders(b, demo, "").await;
    let ids: Vec<&str> = mine.iter().map(|o| o["id"].as_str().unwrap()).collect();
    let ts = now_ms().to_string();
    let body = serde_json::to_string(&ids).unwrap();
    let r = send(signed(Method::POST, b, "/orders-scoring", Some(&body), demo, &ts)).await.assert_ok();
    let scoring = r.as_object().unwrap();
    assert_eq!(scoring.len(), ids.len());
    // The seed's orders include some that earn and some that do not; one order's answer is the batch's.
    let earning: Vec<&String> = scoring.iter().filter(|(_, v)| **v == json!(true)).map(|(k, _)| k).collect();
    assert!(!earning.is_empty() && earning.len() < ids.len(), "{} of {} score", earning.len(), ids.len());
    let one = auth_get(b, &format!("/order-scoring?order_id={}", earning[0]), demo).await.assert_ok();
    assert_eq!(one, json!({ "scoring": true }));
    // Canceled, it no longer scores.
    auth_delete(b, "/order", &json!({ "orderId": earning[0] }), demo).await.assert_ok();
    let one = auth_get(b, &format!("/order-scoring?order_id={}", earning[0]), demo).await.assert_ok();
    assert_eq!(one, json!({ "scoring": false }));
    let r = send(signed(Method::POST, b, "/orders-scoring", Some("{}"), demo, &ts)).await;
    r.assert_bad("array");
}

/// The `openOrders` of every account in GET /__admin/accounts, in its order.
async fn open_order_counts(base: &str) -> Vec<u64> {
    let list = get(base, "/__admin/accounts").await.assert_ok();
    list.as_array().unwrap().iter().map(|a| a["openOrders"].as_u64().unwrap()).collect()
}

#[tokio::test]
async fn the_dead_man_switch_cancels_the_catalogs_orders_everywhere_they_are_read() {
    let emu = start().await;
    let (b, demo) = (&emu.url, &emu.demo);
    assert_eq!(open_order_counts(b).await[..3], [300, 240, 120]);
    // A canceled order leaves the count at once.
    let first = auth_get(b, "/data/orders", demo).await.assert_ok()["data"][0]["id"].as_str().unwrap().to_owned();
    let r = auth_delete(b, "/order", &json!({ "orderId": first }), &emu.accounts[1]).await.assert_ok();
    assert_eq!(r["canceled"], json!([]), "another account's order stays: {r}");
    auth_delete(b, "/order", &json!({ "orderId": first }), demo).await.assert_ok();
    assert_eq!(open_order_counts(b).await[..3], [299, 240, 120]);
    // The demo account starts a heartbeat chain and stops; ten seconds of the orders' clock later its orders go.
    let body = json!({ "heartbeat_id": "" }).to_string();
    send(signed(Method::POST, b, "/v1/heartbeats", Some(&body), demo, &now_ms().to_string())).await.assert_ok();
    post(b, "/__admin/clock", &json!({ "advanceSecs": 11 })).await.assert_ok();
    let mut counts = open_order_counts(b).await;
    for _ in 0..40 {
        if counts[0] == 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        counts = open_order_counts(b).await;
    }
    assert_eq!(counts[..3], [0, 240, 120], "the switch cancelled the demo account's orders, and only those");
    assert!(all_open_orders(b, demo, "").await.is_empty());
    let order = auth_get(b, &format!("/data/order/{first}"), demo).await.assert_ok();
    assert_eq!(order["order"]["status"], "CANCELED");
    let r = auth_delete(b, "/cancel-all", &json!({}), demo).await.assert_ok();
    assert_eq!(r["canceled"], json!([]), "nothing left to cancel: {r}");
    // A reset reopens them all.
    post(b, "/__admin/reset", &json!({})).await.assert_ok();
    assert_eq!(open_order_counts(b).await[..3], [300, 240, 120]);
    assert_eq!(all_open_orders(b, demo, "").await.len(), 300);
}

#[tokio::test]
async fn the_admin_clock_moves_the_services_time_for_every_part_but_not_the_callers() {
    let emu = start().await;
    let (b, demo) = (&emu.url, &emu.demo);
    let moved = post(b, "/__admin/clock", &json!({ "advanceSecs": 3600 })).await.assert_ok();
    assert_eq!(moved["aheadSecs"], 3600);
    // A caller's SERVICE_TIMESTAMP is still held against its own clock, which no test can move.
    let before = now_ms() as u64;
    auth_get(b, "/data/orders", demo).await.assert_ok();
    // The service's time moved: the request log's, as the orders' and the streams'.
    let at = |log: &Value| log["requests"].as_array().unwrap().last().unwrap()["at"].as_u64().unwrap();
    let log = get(b, "/__admin/requests?path=/data/orders").await.assert_ok();
    assert!(at(&log) >= before + 3_600_000 && at(&log) < now_ms() as u64 + 3_601_000, "{log}");
    // A reset puts it back.
    post(b, "/__admin/reset", &json!({})).await.assert_ok();
    let before = now_ms() as u64;
    auth_get(b, "/data/orders", demo).await.assert_ok();
    let log = get(b, "/__admin/requests?path=/data/orders").await.assert_ok();
    assert!(at(&log) >= before && at(&log) <= now_ms() as u64, "{log}");
}
