//! The account's own orders through the binding, signed, in headless Chromium and in Node, against the
//! emulator's accounts. Each test starts from the emulator's initial state (POST /__admin/reset).
#![cfg(target_arch = "wasm32")]

mod wasm_support;

use std::collections::HashSet;

use js_sys::{Array, Function, Promise, Reflect};
use predictkit::wasm::{create_l2_headers, Client};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;
use wasm_support::*;

#[derive(Clone)]
struct Account {
    address: String,
    api_key: String,
    secret: String,
    passphrase: String,
    open_orders: f64,
}

impl Account {
    fn credentials(&self) -> JsValue {
        object(&[
            ("address", self.address.as_str().into()),
            ("apiKey", self.api_key.as_str().into()),
            ("secret", self.secret.as_str().into()),
            ("passphrase", self.passphrase.as_str().into()),
        ])
    }

    fn client(&self, extra: &[(&str, JsValue)]) -> Client {
        let mut pairs = vec![("credentials", self.credentials())];
        pairs.extend(extra.iter().cloned());
        client_with(&pairs)
    }
}

/// Resets the emulator and returns its first two accounts.
async fn accounts() -> (Account, Account) {
    admin("POST", "/__admin/reset", None).await;
    let list = admin("GET", "/__admin/accounts", None).await;
    let read = |i| {
        let a = at(&list, i);
        Account {
            address: text(&a, "address"),
            api_key: text(&a, "apiKey"),
            secret: text(&a, "secret"),
            passphrase: text(&a, "passphrase"),
            open_orders: num(&a, "openOrders"),
        }
    };
    (read(0), read(1))
}

fn ids(page: &JsValue) -> Vec<String> {
    arr(&get(page, "data")).iter().map(|o| text(&o, "id")).collect()
}

#[wasm_bindgen_test]
async fn lists_and_iterates_the_accounts_orders() {
    let (me, _) = accounts().await;
    let c = me.client(&[]);
    assert!(c.has_credentials());
    let page = ok(c.get_open_orders(None, None)).await;
    let first = arr(&get(&page, "data"));
    assert!(first.length() > 0);
    let order = first.get(0);
    for field in ["id", "status", "market", "assetId", "side", "price", "originalSize", "sizeMatched"] {
        assert!(get(&order, field).is_string(), "{field} in {}", show(&order));
    }
    let all = collect(&c.iterate_open_orders(None, None).unwrap()).await;
    assert_eq!(all.len() as f64, me.open_orders, "iteration reaches every open order");
    let unique: HashSet<String> = all.iter().map(|o| text(o, "id")).collect();
    assert_eq!(unique.len(), all.len());

    // Filters: by market, by asset, by id.
    let market = text(&order, "market");
    let by_market = ok(c.get_open_orders(Some(object(&[("market", market.as_str().into())])), None)).await;
    assert!(arr(&get(&by_market, "data")).length() > 0, "the order's market lists it");
    assert!(arr(&get(&by_market, "data")).iter().all(|o| text(&o, "market") == market));
    let asset = text(&order, "assetId");
    let by_asset =
        collect(&c.iterate_open_orders(Some(object(&[("asset_id", asset.as_str().into())])), None).unwrap()).await;
    assert!(!by_asset.is_empty() && by_asset.iter().all(|o| text(o, "assetId") == asset));
    let id = text(&order, "id");
    assert_eq!(ids(&ok(c.get_open_orders(Some(object(&[("id", id.as_str().into())])), None)).await), vec![id.clone()]);
    let got = ok(c.get_order(JsValue::from(&id), None)).await;
    assert_eq!(text(&get(&got, "order"), "id"), id);
}

#[wasm_bindgen_test]
async fn cancels_one_then_reports_it_not_cancelable() {
    let (me, _) = accounts().await;
    let c = me.client(&[]);
    let id = ids(&ok(c.get_open_orders(None, None)).await).remove(0);
    let result = ok(c.cancel_order(JsValue::from(&id), None)).await;
    assert_eq!(
        arr(&get(&result, "canceled")).iter().map(|v| v.as_string().unwrap()).collect::<Vec<_>>(),
        vec![id.clone()]
    );
    assert!(
        ids(&ok(c.get_open_orders(Some(object(&[("id", id.as_str().into())])), None)).await).is_empty(),
        "gone from the open list"
    );
    let again = ok(c.cancel_order(JsValue::from(&id), None)).await;
    assert_eq!(arr(&get(&again, "canceled")).length(), 0);
    assert!(get(&get(&again, "not_canceled"), &id).is_string(), "reason given: {}", show(&again));
}

#[wasm_bindgen_test]
async fn cancels_by_market_and_by_asset() {
    let (me, _) = accounts().await;
    let c = me.client(&[]);
    let order = at(&get(&ok(c.get_open_orders(None, None)).await, "data"), 0);
    let market = text(&order, "market");
    let before =
        collect(&c.iterate_open_orders(Some(object(&[("market", market.as_str().into())])), None).unwrap()).await;
    let result = ok(c.cancel_market_orders(Some(object(&[("market", market.as_str().into())])), None)).await;
    assert_eq!(arr(&get(&result, "canceled")).length() as usize, before.len());
    assert!(ids(&ok(c.get_open_orders(Some(object(&[("market", market.as_str().into())])), None)).await).is_empty());

    let all = collect(&c.iterate_open_orders(None, None).unwrap()).await;
    let asset = text(&all[0], "assetId");
    let of_asset = all.iter().filter(|o| text(o, "assetId") == asset).count();
    let result = ok(c.cancel_market_orders(Some(object(&[("asset_id", asset.as_str().into())])), None)).await;
    assert_eq!(arr(&get(&result, "canceled")).length() as usize, of_asset);
    let rest = collect(&c.iterate_open_orders(None, None).unwrap()).await;
    assert_eq!(rest.len(), all.len() - of_asset);
}

#[wasm_bindgen_test]
async fn another_accounts_order_is_not_found_and_not_canceled() {
    let (me, other) = accounts().await;
    let theirs = ids(&ok(other.client(&[]).get_open_orders(None, None)).await).remove(0);
    let c = me.client(&[]);
    fails(c.get_order(JsValue::from(&theirs), None), "NOT_FOUND").await;
    let result = ok(c.cancel_order(JsValue::from(&theirs), None)).await;
    assert_eq!(arr(&get(&result, "canceled")).length(), 0);
    assert!(get(&get(&result, "not_canceled"), &theirs).is_string());
    // Still open for its owner.
    let still = ok(other.client(&[]).get_open_orders(Some(object(&[("id", theirs.as_str().into())])), None)).await;
    assert_eq!(ids(&still), vec![theirs]);
}

#[wasm_bindgen_test]
async fn wrong_secret_stale_time_and_wrong_unit_are_unauthorized() {
    let (me, _) = accounts().await;
    let wrong = Account { secret: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=".into(), ..me };
    fails(wrong.client(&[]).get_open_orders(None, None), "UNAUTHORIZED").await;
    let (me, _) = accounts().await;
    fails(me.client(&[("clockOffsetMs", (-120_000).into())]).get_open_orders(None, None), "UNAUTHORIZED").await;
    fails(me.client(&[("timestampUnit", "s".into())]).get_open_orders(None, None), "UNAUTHORIZED").await;
    ok(me.client(&[("clockOffsetMs", 5_000.into())]).get_open_orders(None, None)).await;
}

#[wasm_bindgen_test]
async fn sync_clock_corrects_a_skewed_clock() {
    let (me, _) = accounts().await;
    // Make this machine's clock run two minutes slow, as a skewed machine's would.
    let skew = Function::new_no_args("const real = Date.now; Date.now = () => real() - 120000; return real;");
    let real_now = skew.call0(&JsValue::UNDEFINED).unwrap();
    let c = me.client(&[]);
    let stale = JsFuture::from(c.get_open_orders(None, None)).await;
    let offset = JsFuture::from(c.sync_clock(None)).await;
    let fresh = JsFuture::from(c.get_open_orders(None, None)).await;
    Reflect::set(&js_sys::Date::new_0().constructor(), &"now".into(), &real_now).unwrap();
    assert_code(&stale.unwrap_err(), "UNAUTHORIZED");
    let offset = offset.unwrap().as_f64().unwrap();
    assert!((offset - 120_000.0).abs() < 2_000.0, "offset {offset}");
    assert_eq!(c.clock_offset_ms(), offset);
    assert!(fresh.is_ok(), "signed with the corrected clock");
}

#[wasm_bindgen_test]
async fn without_credentials_nothing_is_sent() {
    let (calls, fetch) = counting_fetch();
    let c = client_with(&[("fetch", fetch.into())]);
    assert!(!c.has_credentials());
    let calls_made: Vec<Promise> = vec![
        c.get_open_orders(None, None),
        c.get_order(JsValue::from("0xabc"), None),
        c.cancel_order(JsValue::from("0xabc"), None),
        c.cancel_market_orders(Some(object(&[("market", "0xabc".into())])), None),
        c.get_user_trades(None, None),
    ];
    for promise in calls_made {
        fails(promise, "UNAUTHORIZED").await;
    }
    assert_code(&c.iterate_open_orders(None, None).err().unwrap(), "UNAUTHORIZED");
    assert_eq!(calls.length(), 0);
}

#[wasm_bindgen_test]
async fn user_trades_are_signed_and_paged() {
    let (me, _) = accounts().await;
    let c = me.client(&[]);
    let page = ok(c.get_user_trades(None, None)).await;
    assert!(Array::is_array(&get(&page, "data")));
    assert!(get(&page, "next_cursor").is_string());
}

/// Every error of the authenticated surface, inspected in every form a page could show or log.
#[wasm_bindgen_test]
async fn secrets_never_appear_in_errors() {
    let (me, _) = accounts().await;
    let secret = me.secret.clone();
    let passphrase = me.passphrase.clone();
    let mut errors: Vec<JsValue> = Vec::new();

    // Construction with each field broken, the secret and passphrase among them.
    for (field, value) in [("secret", "%%%"), ("passphrase", "zz"), ("address", "0x1"), ("apiKey", "k")] {
        let creds = me.credentials();
        Reflect::set(&creds, &field.into(), &value.into()).unwrap();
        errors.push(Client::new(object(&[("baseUrl", EMULATOR.into()), ("credentials", creds)])).err().unwrap());
    }
    let bad_secret = me.credentials();
    Reflect::set(&bad_secret, &"secret".into(), &format!("{secret}!").into()).unwrap();
    errors.push(create_l2_headers(bad_secret, object(&[("method", "GET".into())]), JsValue::UNDEFINED).err().unwrap());

    // The service refusing: a wrong secret with the real passphrase, a stale clock, unknown ids.
    let wrong = Account { secret: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=".into(), ..me.clone() };
    errors.push(JsFuture::from(wrong.client(&[]).get_open_orders(None, None)).await.unwrap_err());
    let stale = me.client(&[("clockOffsetMs", (-3_600_000).into())]);
    errors.push(JsFuture::from(stale.cancel_order(JsValue::from("0xabc"), None)).await.unwrap_err());
    let c = me.client(&[]);
    errors.push(JsFuture::from(c.get_order(JsValue::from("no-such-order"), None)).await.unwrap_err());
    errors.push(JsFuture::from(c.cancel_market_orders(Some(object(&[])), None)).await.unwrap_err());
    errors.push(JsFuture::from(c.get_open_orders(Some(object(&[("asset_id", "x".into())])), None)).await.unwrap_err());
    // The network failing and the answer being unreadable.
    let offline = me.client(&[("baseUrl", "http://127.0.0.1:9".into())]);
    errors.push(JsFuture::from(offline.get_open_orders(None, None)).await.unwrap_err());
    let garbage = Function::new_no_args("return Promise.resolve(new Response('<oops', { status: 200 }))");
    let decoding = me.client(&[("fetch", garbage.into())]);
    errors.push(JsFuture::from(decoding.get_open_orders(None, None)).await.unwrap_err());
    let echo = Function::new_with_args(
        "url, init",
        "return Promise.resolve(new Response(JSON.stringify({ error: 'bad' }), { status: 400 }))",
    );
    errors.push(
        JsFuture::from(me.client(&[("fetch", echo.into())]).cancel_order(JsValue::from("0xabc"), None))
            .await
            .unwrap_err(),
    );

    assert!(errors.len() >= 13);
    let describe = Function::new_with_args(
        "e",
        "return [String(e), e.message, e.stack, JSON.stringify(e), JSON.stringify(Object.assign({}, e)), \
         String(e.body), String(e.path), String(e.cause), e.cause && e.cause.message].join('\\n')",
    );
    for err in &errors {
        assert!(wasm_support::is_predictkit_error(err), "{}", show(err));
        let all = describe.call1(&JsValue::UNDEFINED, err).unwrap().as_string().unwrap();
        assert!(!all.contains(&secret), "secret leaked in {all}");
        assert!(!all.contains(&passphrase), "passphrase leaked in {all}");
        assert!(!all.contains(&format!("{secret}!")));
    }
    // Nor in the client's own string forms.
    let shown = describe.call1(&JsValue::UNDEFINED, &JsValue::from(me.client(&[]))).unwrap().as_string().unwrap();
    assert!(!shown.contains(&secret) && !shown.contains(&passphrase));
}
