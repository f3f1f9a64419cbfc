//! One call of the client from start to end: wait for budget (in order), sign afresh, send, and retry
//! as the core decides, all under the call's deadline and the caller's `AbortSignal`.

use std::cell::{Cell, RefCell};

use js_sys::{Function, Object, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use super::interop::{error_to_js, field, get, is_absent, option, read_signal, set};
use super::transport::{with_request, Failure, Payload, Transport, Want};
use crate::api::budget::{admission, buckets, Admission, Budgets, Ticket, Wait};
use crate::api::options::CallSettings;
use crate::api::retry::{retry_delay, Outcome, RetryPolicy};
use crate::api::{with_extra_query, HttpRequest, Params, TimestampUnit};
use crate::auth::{missing_credentials, Credentials, HEADER_NAMES};
use crate::error::{Error, ErrorCode};

#[wasm_bindgen(module = "/src/js/runtime.js")]
extern "C" {
    fn sleep(ms: f64, signal: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = raceAbort)]
    fn race_abort(promise: &JsValue, signal: &JsValue) -> Promise;
    fn random() -> f64;
    /// 53 random bits from `crypto.getRandomValues` (an order's salt).
    #[wasm_bindgen(js_name = randomSalt)]
    pub(super) fn random_salt() -> f64;

    type CallScope;
    #[wasm_bindgen(constructor)]
    fn new(signal: &JsValue, timeout_ms: f64) -> CallScope;
    #[wasm_bindgen(method, getter)]
    fn signal(this: &CallScope) -> JsValue;
    #[wasm_bindgen(method, getter, js_name = timedOut)]
    fn timed_out(this: &CallScope) -> bool;
    #[wasm_bindgen(method, getter)]
    fn aborted(this: &CallScope) -> bool;
    #[wasm_bindgen(method)]
    fn finish(this: &CallScope);

    pub type Gate;
    #[wasm_bindgen(constructor)]
    pub fn new() -> Gate;
    #[wasm_bindgen(method)]
    fn enter(this: &Gate, key: u32) -> JsValue;

    pub type Notifier;
    #[wasm_bindgen(constructor)]
    pub fn new() -> Notifier;
    #[wasm_bindgen(method)]
    fn wait(this: &Notifier, ms: f64, signal: &JsValue) -> Promise;
    #[wasm_bindgen(method)]
    fn notify(this: &Notifier);
}

/// The settings of one call: the client's, overridden by the call's options.
#[derive(Clone)]
pub struct CallOptions {
    pub signal: JsValue,
    pub timeout_ms: f64,
    pub max_retries: u32,
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

/// Turns a 2xx answer's body into the call's result; an error counts as a garbled body (retried).
pub type Decode<'a> = &'a dyn Fn(Payload) -> Result<JsValue, Error>;

/// What every call of one client shares.
pub struct Inner {
    pub transport: Transport,
    /// Held only in Rust memory; zeroed when the client is freed.
    pub credentials: RefCell<Option<Credentials>>,
    /// Trading settings (`chainId`, `signatureType`, `funder`, `exchanges`, `signTimeoutMs`).
    #[cfg(feature = "trade")]
    pub trading: crate::trade::settings::TradingSettings,
    pub timestamp_unit: TimestampUnit,
    /// Added to the local clock when signing (`clockOffsetMs`, `syncClock()`).
    pub clock_offset_ms: Cell<f64>,
    pub budgets: RefCell<Budgets>,
    pub gate: Gate,
    /// Wakes requests waiting for an answer to free a place.
    pub answered: Notifier,
    /// Requests sent and not yet answered, and how many may be (`maxConcurrency`).
    pub in_flight: Cell<u32>,
    pub max_in_flight: u32,
    /// Requests queued for budget, per route scope, so that a free route skips the queue.
    pub queued: RefCell<Vec<u32>>,
    pub policy: RetryPolicy,
    pub timeout_ms: f64,
    pub max_queue_ms: f64,
    pub on_event: Option<Function>,
}

impl Inner {
    /// The client's settings for a call, overridden by its `options`
    /// (`{ signal, timeoutMs, maxRetries, extraQuery }`: the core's `CallSettings`, and the signal).
    pub fn call_options(&self, options: Option<&JsValue>) -> Result<CallOptions, Error> {
        let mut call = CallOptions {
            signal: JsValue::UNDEFINED,
            timeout_ms: self.timeout_ms,
            max_retries: self.policy.max_retries,
            extra_query: Params::default(),
        };
        let Some(options) = options.filter(|o| !is_absent(o)) else { return Ok(call) };
        if !options.is_object() {
            return Err(Error::invalid(
                "options",
                "must be an object { signal?, timeoutMs?, maxRetries?, extraQuery? }",
            ));
        }
        if let Some(signal) = read_signal(&field(options, "signal", "signal")?)? {
            call.signal = signal;
        }
        let settings = CallSettings::read(&mut |name| option(options, name))?;
        call.timeout_ms = settings.timeout_ms.unwrap_or(call.timeout_ms);
        call.max_retries = settings.max_retries.unwrap_or(call.max_retries);
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

    /// Runs a call to its end and returns its result: the 2xx answer's body through `decode`.
    pub async fn execute(
        &self,
        request: &HttpRequest,
        options: &CallOptions,
        want: Want,
        decode: Decode<'_>,
    ) -> Result<JsValue, JsValue> {
        let scope = CallScope::new(&options.signal, options.timeout_ms);
        let result = self.attempts(request, options, &scope, want, decode).await;
        scope.finish();
        result
    }

    async fn attempts(
        &self,
        request: &HttpRequest,
        options: &CallOptions,
        scope: &CallScope,
        want: Want,
        decode: Decode<'_>,
    ) -> Result<JsValue, JsValue> {
        let policy = RetryPolicy { max_retries: options.max_retries, ..self.policy };
        let mut retry = 0;
        loop {
            // An aborted call (or one whose deadline has passed) sends nothing.
            if scope.aborted() {
                return Err(stopped(scope, request));
            }
            let ticket = self.acquire(request, scope).await?;
            // A fresh timestamp and signature for every attempt, over exactly the path and body sent.
            let headers = match self.sign(request) {
                Ok(h) => h,
                Err(e) => {
                    self.release(ticket);
                    return Err(e.into());
                }
            };
            let result = self.transport.attempt(request, headers.as_ref(), &scope.signal(), want).await;
            self.release(ticket);
            // A body that arrived whole but does not decode was most likely garbled on the way: it is
            // retried like a cut one.
            let result = result.and_then(|payload| {
                decode(payload).map_err(|mut e| {
                    with_request(&mut e, request);
                    Failure { outcome: Outcome::BodyCut, retry_after_ms: None, error: e.into() }
                })
            });
            let failure = match result {
                Ok(value) => return Ok(value),
                Err(failure) => failure,
            };
            if scope.aborted() {
                return Err(stopped(scope, request));
            }
            let delay =
                retry_delay(&policy, retry, failure.outcome, request.idempotent(), failure.retry_after_ms, random());
            let Some(delay) = delay else { return Err(failure.error) };
            self.emit("retry", request, delay, Some(&failure.error), retry + 1);
            if JsFuture::from(sleep(delay, &scope.signal())).await.is_err() {
                return Err(stopped(scope, request));
            }
            retry += 1;
        }
    }

    /// An attempt is over: its budget places start to free and its in-flight place is free now.
    fn release(&self, ticket: Ticket) {
        self.budgets.borrow_mut().release(ticket, js_sys::Date::now());
        self.in_flight.set(self.in_flight.get().saturating_sub(1));
        self.answered.notify();
    }

    /// Takes a place in every budget of the request and in the in-flight limit, or says why not.
    fn try_take(&self, buckets: &[crate::api::budget::Bucket], now: f64) -> Result<Ticket, Wait> {
        if self.in_flight.get() >= self.max_in_flight {
            return Err(Wait::InFlight);
        }
        let ticket = self.budgets.borrow_mut().try_acquire(buckets, now)?;
        self.in_flight.set(self.in_flight.get() + 1);
        Ok(ticket)
    }

    /// Waits, in order, until every budget of the request has room, and takes a place in each.
    async fn acquire(&self, request: &HttpRequest, scope: &CallScope) -> Result<Ticket, JsValue> {
        let buckets = buckets(request);
        let key = request.scope as u32;
        let queued = self.queued.borrow().get(key as usize).copied().unwrap_or(0);
        if queued == 0 {
            if let Ok(ticket) = self.try_take(buckets, js_sys::Date::now()) {
                return Ok(ticket);
            }
        }
        let _place = Queued::enter(self, key);
        let turn = self.gate.enter(key);
        let leave: Function = get(&turn, "leave").unchecked_into();
        let _leave = CallOnDrop(leave);
        if JsFuture::from(race_abort(&get(&turn, "ready"), &scope.signal())).await.is_err() {
            return Err(stopped(scope, request));
        }
        let started = js_sys::Date::now();
        loop {
            let now = js_sys::Date::now();
            let wait = match self.try_take(buckets, now) {
                Ok(ticket) => return Ok(ticket),
                Err(wait) => wait,
            };
            let waited = match admission(wait, now, started, self.max_queue_ms) {
                Admission::TooLong(wait_ms) => return Err(queue_too_long(request, wait_ms)),
                Admission::AwaitAnswer(ms) => self.answered.wait(ms, &scope.signal()),
                Admission::Sleep(ms) => {
                    self.emit("wait", request, ms, None, 0);
                    sleep(ms, &scope.signal())
                }
            };
            if JsFuture::from(waited).await.is_err() {
                return Err(stopped(scope, request));
            }
        }
    }

    /// The SERVICE_* headers of one attempt, when the route needs them.
    fn sign(&self, request: &HttpRequest) -> Result<Option<Object>, Error> {
        if !request.headers.is_empty() {
            let headers = Object::new();
            for (name, value) in &request.headers {
                set(&headers, name, &JsValue::from_str(value));
            }
            return Ok(Some(headers));
        }
        if !request.auth {
            return Ok(None);
        }
        let creds = self.credentials.borrow();
        let creds = creds.as_ref().ok_or_else(missing_credentials)?;
        let now = js_sys::Date::now() + self.clock_offset_ms.get();
        let timestamp = self.timestamp_unit.format(now);
        let values = creds.headers(&timestamp, request.method.as_str(), &request.path, request.body.as_deref());
        let headers = Object::new();
        for (name, value) in HEADER_NAMES.iter().zip(values.iter()) {
            set(&headers, name, &JsValue::from_str(value));
        }
        Ok(Some(headers))
    }

    /// Tells `onEvent` that a request is waiting for budget or about to be retried.
    fn emit(&self, kind: &str, request: &HttpRequest, delay_ms: f64, error: Option<&JsValue>, attempt: u32) {
        let Some(on_event) = &self.on_event else { return };
        let event = Object::new();
        set(&event, "type", &JsValue::from_str(kind));
        set(&event, "method", &JsValue::from_str(request.method.as_str()));
        set(&event, "path", &JsValue::from_str(&request.path));
        set(&event, "delayMs", &JsValue::from_f64(delay_ms.round()));
        if let Some(error) = error {
            set(&event, "attempt", &JsValue::from(attempt));
            set(&event, "error", error);
        }
        // A listener that throws must not break the call.
        let _ = on_event.call1(&JsValue::UNDEFINED, &event);
    }
}

/// `RATE_LIMITED`: the local budget would keep the request waiting longer than `maxQueueMs`.
fn queue_too_long(request: &HttpRequest, wait_ms: Option<f64>) -> JsValue {
    let mut e = Error::new(ErrorCode::RateLimited, "the local rate budget would not free within maxQueueMs");
    e.retry_after_ms = wait_ms.map(|ms| ms as u64);
    with_request(&mut e, request);
    error_to_js(&e)
}

/// `TIMEOUT` or `ABORTED`, whichever stopped the call.
fn stopped(scope: &CallScope, request: &HttpRequest) -> JsValue {
    let mut e = if scope.timed_out() {
        Error::new(ErrorCode::Timeout, "the request did not finish within timeoutMs")
    } else {
        Error::new(ErrorCode::Aborted, "the request was aborted by its AbortSignal")
    };
    with_request(&mut e, request);
    error_to_js(&e)
}

/// Counts a request as queued for its scope while it lives.
struct Queued<'a> {
    inner: &'a Inner,
    key: usize,
}

impl<'a> Queued<'a> {
    fn enter(inner: &'a Inner, key: u32) -> Self {
        let key = key as usize;
        let mut queued = inner.queued.borrow_mut();
        if queued.len() <= key {
            queued.resize(key + 1, 0);
        }
        if let Some(n) = queued.get_mut(key) {
            *n += 1;
        }
        Queued { inner, key }
    }
}

impl Drop for Queued<'_> {
    fn drop(&mut self) {
        if let Some(n) = self.inner.queued.borrow_mut().get_mut(self.key) {
            *n = n.saturating_sub(1);
        }
    }
}

/// Lets the next queued request go however this one ends (success, error, abort or drop).
struct CallOnDrop(Function);

impl Drop for CallOnDrop {
    fn drop(&mut self) {
        let _ = self.0.call0(&JsValue::UNDEFINED);
    }
}
