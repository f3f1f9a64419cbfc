//! Helpers shared by the wasm test files: calling the binding, reading JS values, iterating.
#![allow(dead_code)]

use js_sys::{Array, Function, Object, Promise, Reflect, JSON};
use predictkit::wasm::Client;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

pub const EMULATOR: &str = match option_env!("PREDICTKIT_EMULATOR_URL") {
    Some(url) => url,
    None => "http://127.0.0.1:8787",
};

/// What the package's `isPredictKitError` checks (src/js/package/client.mjs): an `Error` named
/// "PredictKitError" with a string `code`.
pub fn is_predictkit_error(value: &JsValue) -> bool {
    value.is_instance_of::<js_sys::Error>()
        && get(value, "name").as_string().as_deref() == Some("PredictKitError")
        && get(value, "code").is_string()
}

pub fn get(obj: &JsValue, key: &str) -> JsValue {
    Reflect::get(obj, &key.into()).unwrap_or(JsValue::UNDEFINED)
}

pub fn text(obj: &JsValue, key: &str) -> String {
    get(obj, key).as_string().unwrap_or_else(|| panic!("{key} is not a string in {}", show(obj)))
}

pub fn num(obj: &JsValue, key: &str) -> f64 {
    get(obj, key).as_f64().unwrap_or_else(|| panic!("{key} is not a number in {}", show(obj)))
}

pub fn arr(value: &JsValue) -> Array {
    assert!(Array::is_array(value), "not an array: {}", show(value));
    value.clone().unchecked_into()
}

pub fn at(value: &JsValue, index: u32) -> JsValue {
    arr(value).get(index)
}

pub fn show(value: &JsValue) -> String {
    JSON::stringify(value).map(String::from).unwrap_or_else(|_| format!("{value:?}"))
}

pub fn object(pairs: &[(&str, JsValue)]) -> JsValue {
    let obj = Object::new();
    for (k, v) in pairs {
        Reflect::set(&obj, &(*k).into(), v).unwrap();
    }
    obj.into()
}

pub fn json(text: &str) -> JsValue {
    JSON::parse(text).unwrap()
}

pub fn client_with(extra: &[(&str, JsValue)]) -> Client {
    let mut pairs = vec![("baseUrl", JsValue::from_str(EMULATOR))];
    pairs.extend(extra.iter().cloned());
    Client::new(object(&pairs)).unwrap()
}

pub fn client() -> Client {
    client_with(&[])
}

/// Resolves a promise the test expects to succeed.
pub async fn ok(promise: Promise) -> JsValue {
    match JsFuture::from(promise).await {
        Ok(v) => v,
        Err(e) => panic!("expected success, got {}: {}", show(&get(&e, "code")), show(&get(&e, "message"))),
    }
}

/// Awaits a promise the test expects to reject with a PredictKitError of `code`, and returns the error.
pub async fn fails(promise: Promise, code: &str) -> JsValue {
    let err = JsFuture::from(promise).await.err().unwrap_or_else(|| panic!("expected {code}, got success"));
    assert_code(&err, code);
    err
}

pub fn assert_code(err: &JsValue, code: &str) {
    assert!(is_predictkit_error(err), "not a PredictKitError: {err:?}");
    assert_eq!(get(err, "code").as_string().as_deref(), Some(code), "{}", show(&get(err, "message")));
}

/// A fetch that records every URL it is asked for, then fetches it.
pub fn counting_fetch() -> (Array, Function) {
    let calls = Array::new();
    let fetch = Function::new_with_args("url, init", "this.push(url); return fetch(url, init);").bind0(&calls);
    (calls, fetch)
}

/// An iteration of a list method: the binding's `pageStart` and the client whose `callRest` fetches its
/// pages (the package's `for await` is `src/js/package/pages.mjs`; this is the same loop, from Rust).
pub struct Pages<'a> {
    client: &'a Client,
    name: &'static str,
    /// `[argument, callOptions, maxItems, onPage, signal, abortError]`.
    start: Array,
}

/// Every item of an iteration, page after page, calling its `onPage`.
pub async fn collect(pages: &Pages<'_>) -> Vec<JsValue> {
    let mut items = Vec::new();
    let mut argument = pages.start.get(0);
    let call = pages.start.get(1);
    let mut left = pages.start.get(2).as_f64().unwrap_or(f64::INFINITY);
    let on_page = pages.start.get(3);
    let (mut page_no, mut total) = (0.0, 0.0);
    while left > 0.0 && !argument.is_undefined() {
        let asked = argument;
        let page = ok(pages.client.call_rest(pages.name.into(), asked.clone(), call.clone(), JsValue::UNDEFINED)).await;
        argument = pages.client.next_page_argument(pages.name.into(), asked, page.clone(), 2.into()).unwrap();
        let list = if Array::is_array(&page) { arr(&page) } else { arr(&get(&page, "data")) };
        let take = left.min(list.length() as f64);
        left -= take;
        if left == 0.0 {
            argument = JsValue::UNDEFINED;
        }
        page_no += 1.0;
        total += take;
        items.extend(list.iter().take(take as usize));
        if let Some(on_page) = on_page.dyn_ref::<Function>() {
            let info = object(&[
                ("page", page_no.into()),
                ("items", take.into()),
                ("total", total.into()),
                ("done", argument.is_undefined().into()),
            ]);
            on_page.call1(&JsValue::UNDEFINED, &info).unwrap();
        }
    }
    items
}

/// An emulator admin call (not part of the library: the tests' own fetch).
pub async fn admin(method: &str, path: &str, body: Option<&str>) -> JsValue {
    let init = object(&[("method", method.into())]);
    if let Some(body) = body {
        Reflect::set(&init, &"body".into(), &body.into()).unwrap();
    }
    let global = js_sys::global();
    let fetch: Function = get(&global, "fetch").unchecked_into();
    let response = ok(fetch.call2(&global, &format!("{EMULATOR}{path}").into(), &init).unwrap().unchecked_into()).await;
    let text_fn: Function = get(&response, "text").unchecked_into();
    let body = ok(text_fn.call0(&response).unwrap().unchecked_into()).await.as_string().unwrap_or_default();
    JSON::parse(&body).unwrap_or(JsValue::from_str(&body))
}

/// The client's REST methods by their Rust names, over the binding's single entry (`Client::call_rest`),
/// as the package's JS defines them (`src/js/package/client.mjs`): the tests call the binding without the package.
pub trait Rest {
    fn rest(&self, name: &str, args: [JsValue; 3]) -> Promise;
}

impl Rest for Client {
    fn rest(&self, name: &str, [a, b, c]: [JsValue; 3]) -> Promise {
        self.call_rest(JsValue::from_str(name), a, b, c)
    }
}

fn or_undefined(value: Option<JsValue>) -> JsValue {
    value.unwrap_or(JsValue::UNDEFINED)
}

macro_rules! rest_methods {
    ($($rust:ident => $js:literal ($($arg:ident: $kind:ident),*);)*) => {
        pub trait RestMethods: Rest {
            $(
                #[allow(dead_code)]
                fn $rust(&self, $($arg: rest_methods!(@type $kind)),*) -> Promise {
                    let mut args = [JsValue::UNDEFINED, JsValue::UNDEFINED, JsValue::UNDEFINED];
                    let given = [$(rest_methods!(@value $kind, $arg)),*];
                    for (slot, value) in args.iter_mut().zip(given) {
                        *slot = value;
                    }
                    self.rest($js, args)
                }
            )*
        }
        impl RestMethods for Client {}

        /// A list method iterated: the binding's `pageStart`, its pages read by `collect`.
        pub trait Iterate {
            fn iterate(&self, name: &'static str, first: Option<JsValue>, options: Option<JsValue>) -> Result<Pages<'_>, JsValue>;
            fn iterate_open_orders(&self, params: Option<JsValue>, options: Option<JsValue>) -> Result<Pages<'_>, JsValue> {
                self.iterate("getOpenOrders", params, options)
            }
            fn iterate_events(&self, params: Option<JsValue>, options: Option<JsValue>) -> Result<Pages<'_>, JsValue> {
                self.iterate("getEvents", params, options)
            }
            fn iterate_trades(&self, params: Option<JsValue>, options: Option<JsValue>) -> Result<Pages<'_>, JsValue> {
                self.iterate("getTrades", params, options)
            }
            fn iterate_markets(&self, options: Option<JsValue>) -> Result<Pages<'_>, JsValue> {
                self.iterate("getMarkets", None, options)
            }
        }

        impl Iterate for Client {
            fn iterate(&self, name: &'static str, first: Option<JsValue>, options: Option<JsValue>) -> Result<Pages<'_>, JsValue> {
                let start = self.page_start(name.into(), or_undefined(first), or_undefined(options))?;
                Ok(Pages { client: self, name, start })
            }
        }
    };
    (@type req) => { JsValue };
    (@type opt) => { Option<JsValue> };
    (@value req, $arg:ident) => { $arg };
    (@value opt, $arg:ident) => { or_undefined($arg) };
}

rest_methods! {
    get_ok => "getOk"(options: opt);
    get_trades => "getTrades"(params: opt, options: opt);
    get_closed_positions => "getClosedPositions"(params: opt, options: opt);
    get_comments => "getComments"(params: opt, options: opt);
    get_comment_replies => "getCommentReplies"(id: req, params: opt, options: opt);
    get_market_by_slug => "getMarketBySlug"(slug: req, params: opt, options: opt);
    get_market => "getMarket"(id: req, params: opt, options: opt);
    get_series => "getSeries"(params: opt, options: opt);
    get_events => "getEvents"(params: opt, options: opt);
    get_event_creators => "getEventCreators"(params: opt, options: opt);
    public_search => "publicSearch"(params: opt, options: opt);
    get_tags => "getTags"(params: opt, options: opt);
    get_markets => "getMarkets"(cursor: opt, options: opt);
    get_sampling_markets => "getSamplingMarkets"(cursor: opt, options: opt);
    get_clob_market_info => "getClobMarketInfo"(condition_id: req, options: opt);
    get_order_book => "getOrderBook"(token_id: req, options: opt);
    get_book => "getBook"(token_id: req, options: opt);
    get_order_books => "getOrderBooks"(items: req, options: opt);
    get_prices => "getPrices"(items: req, options: opt);
    get_price => "getPrice"(token_id: req, side: req, options: opt);
    get_midpoint => "getMidpoint"(token_id: req, options: opt);
    get_fee_rate => "getFeeRate"(token_id: req, options: opt);
    get_prices_history => "getPricesHistory"(params: opt, options: opt);
    get_batch_prices_history => "getBatchPricesHistory"(params: opt, options: opt);
    get_open_orders => "getOpenOrders"(params: opt, options: opt);
    get_order => "getOrder"(id: req, options: opt);
    cancel_order => "cancelOrder"(order_id: req, options: opt);
    cancel_market_orders => "cancelMarketOrders"(params: opt, options: opt);
    cancel_orders => "cancelOrders"(order_ids: req, options: opt);
    cancel_all => "cancelAll"(options: opt);
    is_order_scoring => "isOrderScoring"(order_id: req, options: opt);
    are_orders_scoring => "areOrdersScoring"(order_ids: req, options: opt);
    get_balance_allowance => "getBalanceAllowance"(params: req, options: opt);
    update_balance_allowance => "updateBalanceAllowance"(params: req, options: opt);
    get_user_trades => "getUserTrades"(params: opt, options: opt);
}
