//! One call of the client: the core's call machine (`crate::api::call`) started for a request, and its
//! handle given to the JS driver (`drive` in `src/js/driver.js`), which runs it to its end and settles the
//! promise the caller gets. The handle converts what crosses: one JSON text out per step, plain values in.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Function, Promise};
use wasm_bindgen::prelude::*;

use super::book::OrderBook;
use super::interop::{field, is_absent, option, read_signal};
use crate::api::call::{CallLimits, Calls, Ended, Expect, Need, Reply};
use crate::api::options::CallSettings;
use crate::api::RateLimitNotice;
use crate::api::{with_extra_query, HttpRequest, Params};
use crate::auth::{missing_credentials, Credentials};
use crate::error::{Error, ErrorCode};
use crate::product::Product;

#[wasm_bindgen(module = "/src/js/driver.js")]
extern "C" {
    /// Never throws: runs the call and settles the promise it returns (src/js/driver.js).
    fn drive(
        call: CallHandle,
        fetch: &JsValue,
        signal: &JsValue,
        timeout_ms: f64,
        on_event: &JsValue,
        waiters: &JsValue,
        shape: u32,
    ) -> Promise;

    /// The page's clock (`Date.now`), read so that it never throws: a page's replaced `Date.now` that throws or
    /// answers no number leaves the last good reading (src/js/driver.js: dateNow). An exception out of a
    /// plain import would unwind through the export that called it and leave its object borrowed.
    #[wasm_bindgen(js_name = dateNow)]
    pub(super) fn date_now() -> f64;

    /// 53 random bits from `crypto.getRandomValues` (an order's salt, the backoff's seed).
    #[wasm_bindgen(js_name = randomSalt)]
    pub(super) fn random_salt() -> f64;
}

/// What a call's promise resolves to (the driver's `shape`).
#[derive(Clone, Copy)]
#[cfg_attr(not(feature = "trade"), allow(dead_code))]
pub enum Shape {
    /// The JSON body, parsed by the engine.
    Json = 0,
    /// The `OrderBook` the machine read.
    Book = 1,
    /// The machine's result (a number or a string).
    Result = 2,
    /// The body's bytes (a `Uint8Array`).
    Bytes = 3,
    /// The `OrderBook`s the machine read (an array).
    Books = 4,
    /// Nothing: what the answer was parsed into goes to the call's owner (`run_into`).
    #[cfg(feature = "trade")]
    Kept = 5,
}

/// The settings of one call: the client's, overridden by the call's options.
#[derive(Clone)]
pub struct CallOptions {
    pub signal: JsValue,
    pub timeout_ms: f64,
    /// The call's own `timeoutMs`, when given (else the client's is `timeout_ms`).
    pub timeout_given: Option<f64>,
    pub max_retries: u32,
    /// `attemptTimeoutMs`, when given.
    pub attempt_timeout_ms: Option<f64>,
    /// `extraQuery`: query parameters the interface does not list, added to every request of the call.
    pub extra_query: Params,
}

impl CallOptions {
    /// The request with the call's extra query parameters (refused if they name a parameter it takes).
    pub fn prepare(&self, request: HttpRequest) -> Result<HttpRequest, Error> {
        if self.extra_query.0.is_empty() {
            Ok(request)
        } else {
            with_extra_query(request, &self.extra_query)
        }
    }
}

/// What every call of one client shares.
pub struct Inner {
    pub calls: RefCell<Calls<Product>>,
    /// What the client has learnt of the service for its orders.
    #[cfg(feature = "trade")]
    pub learnt: RefCell<crate::trade::placing::Learnt>,
    /// The caller's `fetch` (else the global one, read at each attempt).
    pub fetch: Option<Function>,
    /// Held only in Rust memory; zeroed when the client is freed.
    pub credentials: RefCell<Option<Credentials>>,
    /// Trading settings (`chainId`, `signatureType`, `funder`, `exchanges`, `signTimeoutMs`).
    #[cfg(feature = "trade")]
    pub trading: crate::trade::settings::TradingSettings,
    pub timeout_ms: f64,
    /// The client's `attemptTimeoutMs`, when given.
    pub attempt_timeout_ms: Option<f64>,
    pub on_event: Option<Function>,
    /// The driver's wake-up function of each waiting call, by id (a JS `Map`).
    pub waiters: JsValue,
}

impl Inner {
    /// The client's settings for a call, overridden by its `options`
    /// (`{ signal, timeoutMs, maxRetries, extraQuery }`: the core's `CallSettings`, and the signal).
    pub fn call_options(&self, options: Option<&JsValue>) -> Result<CallOptions, Error> {
        let mut call = CallOptions {
            signal: JsValue::UNDEFINED,
            timeout_ms: self.timeout_ms,
            timeout_given: None,
            max_retries: self.calls.borrow().max_retries(),
            attempt_timeout_ms: self.attempt_timeout_ms,
            extra_query: Params::default(),
        };
        let Some(options) = options.filter(|o| !is_absent(o)) else { return Ok(call) };
        if !options.is_object() {
            return Err(Error::invalid(
                "options",
                "must be an object { signal?, timeoutMs?, maxRetries?, attemptTimeoutMs?, extraQuery? }",
            ));
        }
        if let Some(signal) = read_signal(&field(options, "signal", "signal")?)? {
            call.signal = signal;
        }
        let settings = CallSettings::read(&mut |name| option(options, name))?;
        call.timeout_ms = settings.timeout_ms.unwrap_or(call.timeout_ms);
        call.timeout_given = settings.timeout_ms;
        call.max_retries = settings.max_retries.unwrap_or(call.max_retries);
        call.attempt_timeout_ms = settings.attempt_timeout_ms.or(call.attempt_timeout_ms);
        call.extra_query = settings.extra_query;
        Ok(call)
    }

    /// `UNAUTHORIZED` when the request needs credentials and the client has none: checked when a request
    /// is built, before it takes any budget.
    pub fn check_credentials(&self, request: &HttpRequest) -> Result<(), Error> {
        if request.auth && self.credentials.borrow().is_none() {
            return Err(missing_credentials());
        }
        Ok(())
    }

    /// The local clock plus the offset the client signs with.
    #[cfg(feature = "trade")]
    pub fn now_ms(&self) -> f64 {
        let now = date_now();
        now + self.calls.try_borrow().map_or(0.0, |c| c.clock_offset_ms)
    }
}

/// Starts a call of `request` under `options` and returns the promise the driver settles.
pub fn run(
    inner: &Rc<Inner>,
    request: HttpRequest,
    options: &CallOptions,
    expect: Expect<Product>,
    shape: Shape,
) -> Promise {
    start(inner, begin(inner, request, options, expect), options, shape)
}

/// A call started in the core's machine, and its handle (its product going nowhere).
fn begin(inner: &Rc<Inner>, request: HttpRequest, options: &CallOptions, expect: Expect<Product>) -> CallHandle {
    let limits = CallLimits {
        max_retries: options.max_retries,
        timeout_ms: options.timeout_ms,
        attempt_timeout_ms: options.attempt_timeout_ms,
    };
    let id = inner.calls.borrow_mut().start(request, expect, limits);
    CallHandle {
        inner: inner.clone(),
        id,
        last_now: Cell::new(0.0),
        #[cfg(feature = "trade")]
        sink: None,
    }
}

/// Gives a started call's handle to the driver.
fn start(inner: &Rc<Inner>, handle: CallHandle, options: &CallOptions, shape: Shape) -> Promise {
    let fetch = inner.fetch.as_ref().map_or(JsValue::UNDEFINED, JsValue::from);
    let on_event = inner.on_event.as_ref().map_or(JsValue::UNDEFINED, JsValue::from);
    drive(handle, &fetch, &options.signal, options.timeout_ms, &on_event, &inner.waiters, shape as u32)
}

/// Where a call's product goes when it is done.
#[cfg(feature = "trade")]
pub type Sink = Rc<RefCell<Option<Product>>>;

/// As [`run`], the answer's product (`Expect::Read`, `Expect::Any`) going to `sink` when the call is done.
#[cfg(feature = "trade")]
pub fn run_into(
    inner: &Rc<Inner>,
    request: HttpRequest,
    options: &CallOptions,
    expect: Expect<Product>,
    sink: Sink,
) -> Promise {
    let mut handle = begin(inner, request, options, expect);
    handle.sink = Some(sink);
    start(inner, handle, options, Shape::Kept)
}

/// One call as its driver sees it. Internal: only `drive` holds one, and frees it when the call ends.
#[wasm_bindgen(skip_typescript)]
pub struct CallHandle {
    inner: Rc<Inner>,
    id: u32,
    /// The driver's clock at its last step.
    last_now: Cell<f64>,
    #[cfg(feature = "trade")]
    sink: Option<Sink>,
}

/// The machine was busy (a call re-entered it): the call ends rather than wait for ever.
fn busy() -> Need {
    Need::Fail(Error::new(ErrorCode::Decode, "the client's calls were busy"))
}

#[wasm_bindgen]
impl CallHandle {
    #[wasm_bindgen(getter)]
    pub fn id(&self) -> u32 {
        self.id
    }

    /// What the call needs now, at `now` (the driver's clock, taken at load: a page's `Date.now` may throw
    /// or call back into the client), as `Need::to_json`.
    pub fn next(&self, now: f64) -> String {
        self.last_now.set(now);
        let creds = self.inner.credentials.try_borrow();
        let Ok(mut calls) = self.inner.calls.try_borrow_mut() else { return busy().to_json(&[], None) };
        let need = calls.next(self.id, now, creds.as_ref().ok().and_then(|c| c.as_ref()));
        calls.encode(self.id, &need)
    }

    /// How the attempt ended (`kind`: 0 an answer, 1 none, 2 a cut body, 3 a body too large; `flags`: 1 an
    /// opaque redirect, 2 redirected, 4 the JSON body parsed); what the call needs next.
    #[allow(clippy::too_many_arguments)]
    pub fn supply(
        &self,
        kind: u32,
        status: u32,
        flags: u32,
        retry_after: Option<String>,
        headers: Option<String>,
        text: Option<String>,
        bytes: Option<js_sys::Uint8Array>,
        sent: f64,
        now: f64,
    ) -> String {
        self.last_now.set(now);
        let reply = Reply {
            ended: Some(match kind {
                0 => Ended::Answer,
                2 => Ended::Cut,
                3 => Ended::Large,
                4 => Ended::Stalled,
                _ => Ended::Network,
            }),
            status: u16::try_from(status).unwrap_or(0),
            opaque_redirect: flags & 1 != 0,
            redirected: flags & 2 != 0,
            parsed: flags & 4 != 0,
            retry_after: retry_after.as_deref(),
            // `Date`, then the Poly-RateLimit Remaining, Reset, Tier and Warning values, a line each.
            date: headers.as_deref().and_then(|h| h.lines().next()).filter(|d| !d.is_empty()),
            rate_limit: headers.as_deref().and_then(|h| {
                let mut lines = h.lines().skip(1);
                let mut next = || lines.next().unwrap_or_default();
                RateLimitNotice::parse(next(), next(), next(), next())
            }),
            text: text.as_deref(),
            bytes: bytes.map(|b| b.to_vec()),
            sent,
        };
        let Ok(mut calls) = self.inner.calls.try_borrow_mut() else { return busy().to_json(&[], None) };
        let need = calls.supply(self.id, now, reply);
        calls.encode(self.id, &need)
    }

    /// The call's signal aborted (`timed_out`: its deadline passed); its error.
    pub fn stop(&self, timed_out: bool, now: f64) -> String {
        self.last_now.set(now);
        let Ok(mut calls) = self.inner.calls.try_borrow_mut() else { return busy().to_json(&[], None) };
        let need = calls.stop(self.id, timed_out, now);
        calls.encode(self.id, &need)
    }

    /// The call is over for its driver, however it ended: it gives back what it still holds (a call ended
    /// midway), and answers a done need whose woken ids the driver wakes.
    pub fn done(&self, now: f64) -> String {
        let over = Need::Done("null".into());
        let Ok(mut calls) = self.inner.calls.try_borrow_mut() else { return over.to_json(&[], None) };
        calls.finish(self.id, now);
        over.to_json(&calls.take_woken(), None)
    }

    /// The book a finished GET /book read.
    pub fn book(&self) -> Option<OrderBook> {
        self.take_book().map(OrderBook::from)
    }

    /// The books a finished POST /books read.
    pub fn books(&self) -> js_sys::Array {
        let books = match self.take_product() {
            Some(Product::Books(books)) => books,
            _ => Vec::new(),
        };
        books.into_iter().map(|b| JsValue::from(OrderBook::from(b))).collect()
    }

    /// Hands what a finished call's answer was parsed into to the call's owner.
    #[cfg(feature = "trade")]
    pub fn keep(&self) {
        let Some(sink) = &self.sink else { return };
        let product = self.take_product();
        if let Ok(mut slot) = sink.try_borrow_mut() {
            *slot = product;
        }
    }
}

impl CallHandle {
    pub(super) fn take_book(&self) -> Option<crate::book::OrderBook> {
        match self.take_product()? {
            Product::Book(book) => Some(book),
            _ => None,
        }
    }

    fn take_product(&self) -> Option<Product> {
        self.inner.calls.try_borrow_mut().ok()?.take_product(self.id)
    }
}

impl Drop for CallHandle {
    fn drop(&mut self) {
        // (Normally `done` has finished it already; no JS is called here, not even the clock.)
        if let Ok(mut calls) = self.inner.calls.try_borrow_mut() {
            calls.finish(self.id, self.last_now.get());
        }
    }
}
