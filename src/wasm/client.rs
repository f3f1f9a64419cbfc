//! The JS `Client`: reads its options, then for each method builds the request in the core and sends it.

use std::rc::Rc;

use js_sys::{Function, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::future_to_promise;

use super::book::OrderBook;
use super::interop::{get, is_absent, opt_string, req_string};
use super::signing::read_credentials;
use super::transport::{BaseUrls, Transport};
use crate::api::{self, base_url, HttpRequest, TimestampUnit};
use crate::auth::Credentials;
use crate::error::Error;

struct Inner {
    transport: Transport,
    #[allow(dead_code)] // used by the authenticated routes
    credentials: Option<Credentials>,
    #[allow(dead_code)]
    timestamp_unit: TimestampUnit,
}

/// A client of the service. Create one per base URL and share it: it holds the rate budgets.
///
/// @example
/// const client = new Client({ baseUrl: "http://127.0.0.1:8787" });
/// const book = await client.getOrderBook(tokenId);
#[wasm_bindgen]
pub struct Client {
    inner: Rc<Inner>,
}

#[wasm_bindgen]
impl Client {
    /// Checks every option; a bad one throws `INVALID_PARAMS` naming it.
    #[wasm_bindgen(constructor)]
    pub fn new(#[wasm_bindgen(unchecked_param_type = "ClientOptions")] options: JsValue) -> Result<Client, JsValue> {
        Ok(Client { inner: Rc::new(read_options(&options)?) })
    }

    /// GET / — the CLOB surface's health check; resolves to `"OK"`.
    ///
    /// @example
    /// await client.getOk(); // "OK"
    #[wasm_bindgen(js_name = getOk, unchecked_return_type = "Promise<string>")]
    pub fn get_ok(&self) -> Promise {
        self.json(Ok(api::ok()))
    }

    /// GET /book — one token's order book as the service sends it (a plain object). Use `getBook` for an
    /// `OrderBook` with prices parsed exactly.
    ///
    /// @example
    /// const { bids, asks, tick_size } = await client.getOrderBook("7261...3692");
    #[wasm_bindgen(js_name = getOrderBook, unchecked_return_type = "Promise<OrderBookSummary>")]
    pub fn get_order_book(&self, #[wasm_bindgen(js_name = tokenId)] token_id: &str) -> Promise {
        self.json(api::order_book(token_id))
    }

    /// GET /book — one token's order book, parsed from the response bytes into an `OrderBook`.
    ///
    /// @example
    /// const book = await client.getBook(tokenId);
    /// book.bestAsk(); // { price: 0.52, size: 120 }
    #[wasm_bindgen(js_name = getBook, unchecked_return_type = "Promise<OrderBook>")]
    pub fn get_book(&self, #[wasm_bindgen(js_name = tokenId)] token_id: &str) -> Promise {
        let inner = self.inner.clone();
        let request = api::order_book(token_id);
        future_to_promise(async move {
            let request = request?;
            let bytes = inner.transport.send(&request, None).await?.bytes(&request).await?;
            let book = crate::book::OrderBook::from_bytes(&bytes).map_err(|mut e| {
                e.path = Some(request.path.clone());
                e
            })?;
            Ok(OrderBook::from(book).into())
        })
    }
}

impl Client {
    /// Sends a built request and resolves to its JSON body; a request that failed validation rejects
    /// without anything being sent.
    fn json(&self, request: Result<HttpRequest, Error>) -> Promise {
        let inner = self.inner.clone();
        future_to_promise(async move {
            let request = request?;
            inner.transport.send(&request, None).await?.json(&request).await
        })
    }
}

fn read_options(options: &JsValue) -> Result<Inner, Error> {
    if !options.is_object() {
        return Err(Error::invalid("options", "must be an object with at least baseUrl"));
    }
    let base = get(options, "baseUrl");
    let bases = if let Some(url) = base.as_string() {
        let url = base_url("baseUrl", &url)?;
        BaseUrls { catalog: url.clone(), clob: url.clone(), activity: url }
    } else if base.is_object() {
        BaseUrls {
            catalog: base_url("baseUrl.catalog", &req_string(&base, "catalog")?)?,
            clob: base_url("baseUrl.clob", &req_string(&base, "clob")?)?,
            activity: base_url("baseUrl.activity", &req_string(&base, "activity")?)?,
        }
    } else {
        return Err(Error::invalid("baseUrl", "is required: a URL, or { catalog, clob, activity }"));
    };

    let fetch = get(options, "fetch");
    let fetch = if is_absent(&fetch) {
        None
    } else {
        Some(fetch.dyn_into::<Function>().map_err(|_| Error::invalid("fetch", "must be a function"))?)
    };

    let creds = get(options, "credentials");
    let credentials = if is_absent(&creds) {
        None
    } else {
        Some(read_credentials(&creds)?)
    };

    let timestamp_unit = match opt_string(options, "timestampUnit")? {
        Some(unit) => TimestampUnit::parse(&unit)?,
        None => TimestampUnit::default(),
    };

    Ok(Inner { transport: Transport { bases, fetch }, credentials, timestamp_unit })
}
