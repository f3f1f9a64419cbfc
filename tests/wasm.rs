//! The binding under wasm: run in headless Chromium (WASM_BINDGEN_USE_BROWSER=1) and in Node by
//! `cargo xtask test`, with real fetches to the emulator at PREDICTKIT_EMULATOR_URL.
#![cfg(target_arch = "wasm32")]

use js_sys::{Array, Function, Object, Reflect, JSON};
use predictkit::wasm::{create_l2_headers, sign_request, Client, OrderBook};
use wasm_bindgen::convert::TryFromJsValue;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

#[allow(dead_code)]
mod wasm_support;
use wasm_support::{is_predictkit_error, RestMethods};

const EMULATOR: &str = match option_env!("PREDICTKIT_EMULATOR_URL") {
    Some(url) => url,
    None => "http://127.0.0.1:8787",
};
const SIGNING: &str = include_str!("fixtures/vectors/signing.json");
const BOOK_1: &str = include_str!("fixtures/real/clob-book-1.json");
const BOOK_2_TOKEN: &str = "72610532355343625199299853218161700546393390326785971247545541945337255643692";

fn get(obj: &JsValue, key: &str) -> JsValue {
    Reflect::get(obj, &key.into()).unwrap()
}

fn options(pairs: &[(&str, JsValue)]) -> JsValue {
    let obj = Object::new();
    for (k, v) in pairs {
        Reflect::set(&obj, &(*k).into(), v).unwrap();
    }
    obj.into()
}

fn client() -> Client {
    Client::new(options(&[("baseUrl", EMULATOR.into())])).unwrap()
}

async fn settle(promise: js_sys::Promise) -> Result<JsValue, JsValue> {
    JsFuture::from(promise).await
}

fn assert_code(err: &JsValue, code: &str) {
    assert!(is_predictkit_error(err), "not a PredictKitError: {err:?}");
    assert!(err.is_instance_of::<js_sys::Error>());
    assert_eq!(get(err, "name").as_string().as_deref(), Some("PredictKitError"));
    assert_eq!(get(err, "code").as_string().as_deref(), Some(code), "{err:?}");
}

#[wasm_bindgen_test]
fn signing_matches_every_vector() {
    let vectors = JSON::parse(SIGNING).unwrap();
    let cases: Array = get(&vectors, "cases").into();
    assert!(cases.length() >= 9);
    for case in cases.iter() {
        let s = |k| get(&case, k).as_string();
        let got = sign_request(
            get(&case, "secret"),
            get(&case, "timestamp"),
            get(&case, "method"),
            get(&case, "requestPath"),
            get(&case, "body"),
        )
        .unwrap();
        assert_eq!(Some(got), s("signature"));
    }
    let invalid: Array = get(&vectors, "invalid_secrets").into();
    assert!(invalid.length() > 0, "the invalid-secret vectors are there");
    for secret in invalid.iter() {
        let err = sign_request(secret, 1.into(), "GET".into(), "/".into(), JsValue::UNDEFINED).unwrap_err();
        assert_code(&err, "INVALID_PARAMS");
        assert_eq!(get(&err, "param").as_string().as_deref(), Some("secret"));
    }
}

#[wasm_bindgen_test]
fn numeric_and_text_timestamps_sign_alike() {
    let secret = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
    let sign = |timestamp: JsValue| {
        sign_request(secret.into(), timestamp, "test-sign".into(), "/orders".into(), JsValue::UNDEFINED)
    };
    let a = sign(JsValue::from_f64(1_000_000.0)).unwrap();
    let b = sign("1000000".into()).unwrap();
    assert_eq!(a, b);
    for bad in [JsValue::from_f64(1.5), JsValue::from_f64(-1.0), "12a".into(), JsValue::NULL] {
        assert_code(&sign(bad).unwrap_err(), "INVALID_PARAMS");
    }
}

#[wasm_bindgen_test]
fn l2_headers_are_the_five_service_headers() {
    let creds = options(&[
        ("address", "0x9fB0aE0C6E3B0a1C2d3E4f5A6b7C8d9E0F1a2B3c".into()),
        ("apiKey", "0f5c2a1e-7b3d-4c8e-9a6f-1d2e3f4a5b6c".into()),
        ("secret", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=".into()),
        ("passphrase", "a3f1c2d4e5b60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90".into()),
    ]);
    let args = options(&[
        ("method", "DELETE".into()),
        ("requestPath", "/order".into()),
        ("body", r#"{"orderId":"0xabc"}"#.into()),
    ]);
    let headers: JsValue = create_l2_headers(creds.clone(), args.clone(), "1700000000000".into()).unwrap().into();
    assert_eq!(Reflect::own_keys(&headers).unwrap().length(), 5);
    assert_eq!(get(&headers, "SERVICE_TIMESTAMP").as_string().as_deref(), Some("1700000000000"));
    assert_eq!(
        get(&headers, "SERVICE_SIGNATURE").as_string().as_deref(),
        Some("Vvcf1hhOxX0xMZm9j2vMVYxsjXBPuPa5W7yZclFBcPc=")
    );
    // Without a timestamp it signs with the current time in milliseconds.
    let now: JsValue = create_l2_headers(creds.clone(), args, JsValue::UNDEFINED).unwrap().into();
    let ts: f64 = get(&now, "SERVICE_TIMESTAMP").as_string().unwrap().parse().unwrap();
    assert!((ts - js_sys::Date::now()).abs() < 60_000.0);

    // A bad secret is reported by field, never by value.
    Reflect::set(&creds, &"secret".into(), &"!!!not-base64-secret!!!".into()).unwrap();
    let args = options(&[("method", "GET".into()), ("requestPath", "/".into())]);
    let err = create_l2_headers(creds, args, JsValue::UNDEFINED).unwrap_err();
    assert_code(&err, "INVALID_PARAMS");
    assert!(!get(&err, "message").as_string().unwrap().contains("not-base64-secret"));
}

#[wasm_bindgen_test]
fn order_book_from_json_finds_the_best_prices() {
    let book = OrderBook::from_json(BOOK_1.into()).unwrap();
    let bid = book.best_bid();
    let ask = book.best_ask();
    assert_eq!(get(&bid, "price").as_f64(), Some(0.1));
    assert_eq!(get(&bid, "size").as_f64(), Some(125.0));
    assert_eq!(get(&ask, "price").as_f64(), Some(0.14));
    assert_eq!(get(&ask, "size").as_f64(), Some(705.0));
    assert_eq!((book.bid_count(), book.ask_count()), (5, 7));
    assert_code(&OrderBook::from_json("{\"bids\": [}".into()).err().unwrap(), "DECODE");
}

#[wasm_bindgen_test]
fn bad_options_are_invalid_params() {
    for bad in [
        JsValue::UNDEFINED,
        options(&[]),
        options(&[("baseUrl", "localhost:8787".into())]),
        options(&[("baseUrl", EMULATOR.into()), ("fetch", 42.into())]),
        options(&[("baseUrl", EMULATOR.into()), ("timestampUnit", "us".into())]),
        options(&[("baseUrl", EMULATOR.into()), ("credentials", options(&[("address", "0x1".into())]))]),
    ] {
        assert_code(&Client::new(bad).err().unwrap(), "INVALID_PARAMS");
    }
}

#[wasm_bindgen_test]
async fn get_ok_answers_ok() {
    let ok = settle(client().get_ok(None)).await.unwrap();
    assert_eq!(ok.as_string().as_deref(), Some("OK"));
}

#[wasm_bindgen_test]
async fn get_order_book_returns_the_recorded_book() {
    let book = settle(client().get_order_book(BOOK_2_TOKEN.into(), None)).await.unwrap();
    assert_eq!(get(&book, "asset_id").as_string().as_deref(), Some(BOOK_2_TOKEN));
    let bids: Array = get(&book, "bids").into();
    assert_eq!(bids.length(), 2);
    assert_eq!(get(&bids.get(1), "price").as_string().as_deref(), Some("0.002"));
    assert_eq!(get(&book, "neg_risk").as_bool(), Some(true));
}

#[wasm_bindgen_test]
async fn get_book_parses_the_response_bytes() {
    let value = settle(client().get_book(BOOK_2_TOKEN.into(), None)).await.unwrap();
    let book = OrderBook::try_from_js_value(value).unwrap();
    assert_eq!(book.asset_id().as_deref(), Some(BOOK_2_TOKEN));
    assert_eq!(get(&book.best_bid(), "price").as_f64(), Some(0.002));
    assert!(book.best_ask().is_undefined());
}

#[wasm_bindgen_test]
async fn unknown_token_is_not_found_with_the_service_text() {
    let err = settle(client().get_order_book("123456789".into(), None)).await.unwrap_err();
    assert_code(&err, "NOT_FOUND");
    assert_eq!(get(&err, "status").as_f64(), Some(404.0));
    assert_eq!(get(&err, "method").as_string().as_deref(), Some("GET"));
    assert_eq!(get(&err, "path").as_string().as_deref(), Some("/book"));
    assert!(get(&err, "body").as_string().unwrap().contains("No orderbook"));
}

#[wasm_bindgen_test]
async fn invalid_params_send_nothing() {
    let calls = Array::new();
    let counting = Function::new_with_args("url", "this.push(url); return fetch(url);").bind0(&calls);
    let client = Client::new(options(&[("baseUrl", EMULATOR.into()), ("fetch", counting.into())])).unwrap();
    for bad in ["", "abc", "0x12"] {
        let err = settle(client.get_order_book(bad.into(), None)).await.unwrap_err();
        assert_code(&err, "INVALID_PARAMS");
        assert_eq!(get(&err, "param").as_string().as_deref(), Some("token_id"));
    }
    assert_eq!(calls.length(), 0);
    // The injected fetch is the one used.
    settle(client.get_ok(None)).await.unwrap();
    assert_eq!(calls.length(), 1);
}

#[wasm_bindgen_test]
async fn unreachable_service_is_a_network_error_with_a_cause() {
    let client = Client::new(options(&[("baseUrl", "http://127.0.0.1:9".into())])).unwrap();
    let err = settle(client.get_ok(None)).await.unwrap_err();
    assert_code(&err, "NETWORK");
    assert!(!get(&err, "cause").is_undefined());
}
