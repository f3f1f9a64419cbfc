//! The tasks of a client: a REST call, or a machine that makes calls (the dead-man switch), as one handle
//! (`Task`) the JS driver runs (`run` in src/js/driver.js) until it ends. The core's task protocol
//! (`crate::task`) decides everything; this file converts what crosses: one JSON need out per step (the
//! `TaskNeed` the driver declares), plain values in.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use js_sys::Promise;
use wasm_bindgen::prelude::*;

use super::book::OrderBook;
use super::interop::{field, is_absent, option, read_signal};
use crate::api::call::{CallLimits, Calls, Ended, Expect, Reply};
use crate::api::options::CallSettings;
use crate::api::RateLimitNotice;
use crate::api::{with_extra_query, HttpRequest, Params};
use crate::auth::{missing_credentials, Credentials};
use crate::error::{Error, ErrorCode};
use crate::product::Product;
use crate::task::{self, Need, OneCall, Outcome, Why};

#[wasm_bindgen(module = "/src/js/driver.js")]
extern "C" {
    /// Never throws: runs the task to its end, under `signal`, and settles the promise it returns
    /// (src/js/driver.js). `own`: the task's own I/O (`{ sign, rpc, tell, inbox }`, any of them), or undefined.
    #[wasm_bindgen(js_name = run)]
    pub(super) fn run_task(task: Task, io: &JsValue, signal: &JsValue, own: &JsValue) -> Promise;

    /// As `run_task`, its promise handled (never an unhandled rejection): for a promise handed out inside a value.
    #[cfg(feature = "trade")]
    #[wasm_bindgen(js_name = runHandled)]
    pub(super) fn run_handled(task: Task, io: &JsValue, signal: &JsValue, own: &JsValue) -> Promise;

    /// What a client's tasks do their I/O with: its `fetch`, its `onEvent` and the wake-up of its waiting calls.
    #[wasm_bindgen(js_name = clientIo)]
    pub(super) fn client_io(fetch: &JsValue, on_event: &JsValue) -> JsValue;

    /// The page's clock (`Date.now`), read so that it never throws: a page's replaced `Date.now` that throws or
    /// answers no number leaves the last good reading (src/js/driver.js: dateNow). An exception out of a
    /// plain import would unwind through the export that called it and leave its object borrowed.
    #[wasm_bindgen(js_name = dateNow)]
    pub(super) fn date_now() -> f64;

    /// 53 random bits from `crypto.getRandomValues` (an order's salt, the backoff's seed).
    #[wasm_bindgen(js_name = randomSalt)]
    pub(super) fn random_salt() -> f64;
}

/// What a call's promise resolves to.
#[derive(Clone, Copy)]
#[cfg_attr(not(feature = "stream"), allow(dead_code))]
pub enum Shape {
    /// The JSON body, parsed by the engine (or the body's bytes, as read).
    Body,
    /// The `OrderBook` the machine read.
    Book,
    /// The machine's result (a number or a string).
    Result,
    /// The `OrderBook`s the machine read (an array).
    Books,
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
    /// The limits of each REST call of it.
    pub fn limits(&self) -> CallLimits {
        CallLimits {
            max_retries: self.max_retries,
            timeout_ms: self.timeout_ms,
            attempt_timeout_ms: self.attempt_timeout_ms,
        }
    }

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
    pub learnt: Rc<RefCell<crate::trade::placing::Learnt>>,
    /// Held only in Rust memory; zeroed when the client is freed.
    pub credentials: RefCell<Option<Credentials>>,
    /// Trading settings (`chainId`, `signatureType`, `funder`, `exchanges`, `signTimeoutMs`).
    #[cfg(feature = "trade")]
    pub trading: crate::trade::settings::TradingSettings,
    pub timeout_ms: f64,
    /// The client's `attemptTimeoutMs`, when given.
    pub attempt_timeout_ms: Option<f64>,
    /// What its tasks do their I/O with (`clientIo`).
    pub io: JsValue,
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
    start(inner, request, options, expect, shape)
}

fn start(
    inner: &Rc<Inner>,
    request: HttpRequest,
    options: &CallOptions,
    expect: Expect<Product>,
    shape: Shape,
) -> Promise {
    let limits = options.limits();
    let Ok(mut calls) = inner.calls.try_borrow_mut() else { return super::interop::rejected(busy_error()) };
    let work = Work::Call { task: task::Task::call_of(&mut calls, request, expect, limits), shape };
    drop(calls);
    // A call keeps its client's state until it ends.
    run_task(Task::new(inner, work, true), &inner.io, &options.signal, &JsValue::UNDEFINED)
}

/// What a task runs. (One per task, moved once: not worth a box.)
#[allow(clippy::large_enum_variant)]
pub(super) enum Work {
    /// One REST call, and what it resolves to.
    Call { task: task::Task<OneCall<Product>>, shape: Shape },
    /// A dead-man switch.
    #[cfg(feature = "trade")]
    Switch(task::Task<crate::trade::heartbeat::Switch<Product>>),
    /// An account's examination (`diagnoseAccount`).
    #[cfg(feature = "trade")]
    Doctor(task::Task<crate::trade::doctor::Examination<Product>>),
    /// An order, to its draft or (`place`) to the service's answer.
    #[cfg(feature = "trade")]
    Order { task: task::Task<crate::trade::placing::Ordering<Product>>, place: bool },
    /// A caller's draft signed (`signOrder`).
    #[cfg(feature = "trade")]
    Sign(task::Task<crate::trade::placing::Signing>),
    /// An API key from the wallet.
    #[cfg(feature = "trade")]
    Key(task::Task<crate::trade::keys::Keying<Product>>),
    /// An order followed (`trackOrder`, `waitForSettlement`).
    #[cfg(feature = "trade")]
    Track(task::Task<crate::trade::tracking::Following<Product>>),
}

impl Work {
    fn next(
        &mut self,
        calls: Option<&mut Calls<Product>>,
        outcome: Outcome<'_>,
        now: f64,
        creds: Option<&Credentials>,
    ) -> Need {
        match self {
            Work::Call { task, .. } => task.next(calls, outcome, now, creds),
            #[cfg(feature = "trade")]
            Work::Switch(task) => task.next(calls, outcome, now, creds),
            #[cfg(feature = "trade")]
            Work::Doctor(task) => task.next(calls, outcome, now, creds),
            #[cfg(feature = "trade")]
            Work::Order { task, .. } => task.next(calls, outcome, now, creds),
            #[cfg(feature = "trade")]
            Work::Sign(task) => task.next(calls, outcome, now, creds),
            #[cfg(feature = "trade")]
            Work::Key(task) => task.next(calls, outcome, now, creds),
            #[cfg(feature = "trade")]
            Work::Track(task) => task.next(calls, outcome, now, creds),
        }
    }

    fn end(&mut self, calls: &mut Calls<Product>, now: f64) {
        match self {
            Work::Call { task, .. } => task.end(calls, now),
            #[cfg(feature = "trade")]
            Work::Switch(task) => task.end(calls, now),
            #[cfg(feature = "trade")]
            Work::Doctor(task) => task.end(calls, now),
            #[cfg(feature = "trade")]
            Work::Order { task, .. } => task.end(calls, now),
            #[cfg(feature = "trade")]
            Work::Sign(task) => task.end(calls, now),
            #[cfg(feature = "trade")]
            Work::Key(task) => task.end(calls, now),
            #[cfg(feature = "trade")]
            Work::Track(task) => task.end(calls, now),
        }
    }
}

/// One task as its driver sees it. Internal: only `run` holds one, and frees it when the task ends.
#[wasm_bindgen(skip_typescript)]
pub struct Task {
    /// The client's state; a switch ends once it is gone (its client freed).
    inner: Weak<Inner>,
    /// Held by a call until it ends.
    _hold: Option<Rc<Inner>>,
    work: RefCell<Work>,
    /// The driver's clock at its last step.
    last_now: Cell<f64>,
}

/// The client's calls were busy (a step re-entered them): the task ends rather than wait for ever.
fn busy_error() -> Error {
    Error::new(ErrorCode::Decode, "the client's calls were busy")
}

fn busy() -> String {
    Need::Fail(busy_error()).to_json(&[])
}

impl Task {
    pub(super) fn new(inner: &Rc<Inner>, work: Work, hold: bool) -> Self {
        Task {
            inner: Rc::downgrade(inner),
            _hold: hold.then(|| inner.clone()),
            work: RefCell::new(work),
            last_now: Cell::new(0.0),
        }
    }

    /// What the task needs after `outcome`, as the JSON the driver reads, with the calls to wake.
    fn step(&self, outcome: Outcome<'_>, now: f64) -> String {
        self.last_now.set(now);
        let Ok(mut work) = self.work.try_borrow_mut() else { return busy() };
        let Some(inner) = self.inner.upgrade() else { return work.next(None, outcome, now, None).to_json(&[]) };
        let creds = inner.credentials.try_borrow();
        let Ok(mut calls) = inner.calls.try_borrow_mut() else { return busy() };
        let need = work.next(Some(&mut calls), outcome, now, creds.as_ref().ok().and_then(|c| c.as_ref()));
        need.to_json(&calls.take_woken())
    }
}

#[wasm_bindgen]
impl Task {
    /// What the task needs now, at `now` (the driver's clock, taken at load: a page's `Date.now` may throw or call
    /// back into the client): its first step, and after a wait or a tell.
    pub fn next(&self, now: f64) -> String {
        self.step(Outcome::Go, now)
    }

    /// How the attempt ended (`kind`: 0 an answer, 1 none, 2 a cut body, 3 a body too large, 4 abandoned at its
    /// `attemptMs`; `flags`: 1 an opaque redirect, 2 redirected, 4 the JSON body parsed); what the task needs next.
    #[allow(clippy::too_many_arguments)]
    pub fn reply(
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
            bytes: bytes.map(|b| {
                let read = b.to_vec();
                // A key route's answer holds the key's secret: the driver's copy is zeroed once read.
                #[cfg(feature = "trade")]
                if matches!(self.work.try_borrow().as_deref(), Ok(Work::Key(_))) {
                    b.fill(0, 0, b.length());
                }
                read
            }),
            sent,
        };
        self.step(Outcome::Reply(reply), now)
    }

    /// What a source of the task said (`kind`: the signer or the wallet provider 0 answered `value`, 1 not in time,
    /// 2 threw or refused; 3 a source it follows said `value`, a user channel's event); what the task needs next.
    #[cfg(feature = "trade")]
    pub fn said(&self, kind: u32, value: JsValue, now: f64) -> String {
        let value = || super::interop::to_value(&value, "value").unwrap_or(crate::json::Value::Other);
        let outcome = match kind {
            0 => Outcome::Said(task::Said::Answer(value())),
            1 => Outcome::Said(task::Said::Late),
            3 => Outcome::Heard(value()),
            _ => Outcome::Said(task::Said::Threw),
        };
        self.step(outcome, now)
    }

    /// The task's signal aborted (`stopped`: its owner stopped it); what the task needs next.
    pub fn abort(&self, stopped: bool, now: f64) -> String {
        self.step(Outcome::Abort(if stopped { Why::Stop } else { Why::Signal }), now)
    }

    /// The task is over for its driver, however it ended: the call on its way gives back what it holds. Answers
    /// the calls this wakes.
    pub fn end(&self, now: f64) -> Vec<u32> {
        self.last_now.set(now);
        let Some(inner) = self.inner.upgrade() else { return Vec::new() };
        let Ok(mut calls) = inner.calls.try_borrow_mut() else { return Vec::new() };
        if let Ok(mut work) = self.work.try_borrow_mut() {
            work.end(&mut calls, now);
        }
        calls.take_woken()
    }

    /// What a task that is done resolves to: `body` (the JSON body the driver parsed, or the bytes it read), the
    /// machine's result `value`, or what the answer was read into.
    pub fn result(&self, body: JsValue, value: JsValue) -> JsValue {
        let Ok(mut work) = self.work.try_borrow_mut() else { return JsValue::UNDEFINED };
        let (product, shape) = match &mut *work {
            Work::Call { task, shape } => (task.machine.product.take(), *shape),
            #[cfg(feature = "trade")]
            Work::Switch(_) => return JsValue::UNDEFINED,
            #[cfg(feature = "trade")]
            Work::Doctor(task) => {
                // The form the account's deposit wallet takes is the one its orders are signed in from now on.
                let inner = self.inner.upgrade();
                let learnt = inner.as_ref().and_then(|i| i.learnt.try_borrow_mut().ok());
                if let (Some(plain), Some(mut learnt)) = (task.machine.doctor.deposit_form(), learnt) {
                    learnt.plain_wallet = plain;
                }
                return value;
            }
            // A placed order resolves to the service's answer, a draft to itself.
            #[cfg(feature = "trade")]
            Work::Order { place, .. } => return if *place { body } else { value },
            #[cfg(feature = "trade")]
            Work::Sign(_) | Work::Track(_) => return value,
            // The key becomes the client's credentials.
            #[cfg(feature = "trade")]
            Work::Key(task) => {
                let inner = self.inner.upgrade();
                let slot = inner.as_ref().and_then(|i| i.credentials.try_borrow_mut().ok());
                if let (Some(credentials), Some(mut slot)) = (task.machine.credentials.take(), slot) {
                    *slot = Some(credentials);
                }
                return value;
            }
        };
        match (shape, product) {
            (Shape::Body, _) => body,
            (Shape::Result, _) => value,
            (Shape::Book, Some(Product::Book(book))) => OrderBook::from(book).into(),
            (Shape::Books, Some(Product::Books(books))) => {
                books.into_iter().map(|b| JsValue::from(OrderBook::from(b))).collect::<js_sys::Array>().into()
            }
            // (A book's call whose answer was not a book: the call machine failed it already.)
            _ => JsValue::UNDEFINED,
        }
    }
}

impl Drop for Task {
    fn drop(&mut self) {
        // (Normally `end` has ended it already; no JS is called here, not even the clock.)
        let Some(inner) = self.inner.upgrade() else { return };
        let Ok(mut calls) = inner.calls.try_borrow_mut() else { return };
        if let Ok(mut work) = self.work.try_borrow_mut() {
            work.end(&mut calls, self.last_now.get());
        }
    }
}
