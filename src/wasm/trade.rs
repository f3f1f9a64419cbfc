//! Trading through a `Client`, its one place: each method a task of the core (`crate::trade`'s machines: keys,
//! orders, their signatures, the account doctor, an order's tracking, the dead-man switch) that the one driver
//! runs (`run` in src/js/driver.js) with the wallet `src/js/package/trade.mjs` hands over, and one entry that sends
//! a caller's own request (`tradeSend`). An order's tracking (`trackOrder`, `waitForSettlement`) is held weakly,
//! as the switch is (`runHeartbeats`, over the same `run`), and gets the user channel's events through its inbox
//! from trade.mjs. This file converts values; every rule is in `crate::trade`.

use js_sys::Promise;
use wasm_bindgen::prelude::*;

use super::call::{run_handled, run_task, Shape, Task, Work};
use super::client::Client;
use super::interop::{field, is_absent, items, option, read_str, rejected, to_value};
use crate::api::call::Expect;
use crate::api::{self, HttpRequest, Params, Value};
use crate::error::Error;
use crate::product::{
    heartbeat_answer, holding, key_answer, order_answer, order_read, value, Product, HEARTBEAT, HOLDING, KEY, VALUE,
};
use crate::trade::doctor::{Doctor, Examination};
use crate::trade::draft::{signed_from_params, Draft, OrderRequest};
use crate::trade::eip712::{Address, U256};
use crate::trade::flow::answers;
use crate::trade::heartbeat::{self, Heartbeats, Switch};
use crate::trade::keys::{ClobAuth, KeyRoute, Keying};
use crate::trade::order::{self, order_body, orders_body, Order, Placement, MAX_BATCH};
use crate::trade::placing::{OrderContext, Ordering, Placing, Signing};
use crate::trade::tracking::{self, Following, Source, Tracker};

#[wasm_bindgen(module = "/src/js/driver.js")]
extern "C" {
    /// The driver's functions the package's trading methods use: the wallet's wait, the error maker.
    fn tools() -> JsValue;
    /// Runs a switch's task with the client's I/O, holding `client` while it runs; returns its handle.
    #[wasm_bindgen(js_name = runHeartbeats)]
    fn run_heartbeats(task: Task, io: &JsValue, on_status: &JsValue, signal: &JsValue, client: &JsValue) -> JsValue;
}

/// The one JS driver's tools for `trade.mjs` (a package file, which cannot import a snippet itself), so
/// that the wallet is asked with the same timers, signal handling and errors as every request.
#[wasm_bindgen(js_name = driverTools, skip_typescript)]
pub fn driver_tools() -> JsValue {
    tools()
}

fn params(value: &JsValue, param: &'static str) -> Result<Params, Error> {
    match to_value(value, param)? {
        Value::Object(fields) => Ok(Params(fields)),
        _ => Err(Error::invalid(param, "must be an object")),
    }
}

fn signer_address(value: &JsValue) -> Result<Address, Error> {
    let text = read_str(value, "signer.address", 64)
        .map_err(|_| Error::invalid("signer.address", "must be an address string"))?;
    Address::parse("signer.address", &text)
}

fn now_ms(client: &Client) -> f64 {
    client.inner.now_ms()
}

fn now_s(client: &Client) -> u64 {
    (now_ms(client) / 1000.0) as u64
}

/// A caller's signed order, with `orderType` and `postOnly` overridable at posting; its terms are checked at
/// `now_s` (the client's clock): a signed order may be old.
fn read_signed(
    value: &JsValue,
    order_type: Option<&JsValue>,
    post_only: Option<bool>,
    now_s: Option<u64>,
) -> Result<(Order, String, crate::book::OrderType, bool), Error> {
    let mut p = params(value, "order")?;
    if let Some(t) = order_type.filter(|t| !is_absent(t)) {
        p.set("orderType", to_value(t, "orderType")?);
    }
    let (order, signature, t, post) = signed_from_params(&p)?;
    let post = post_only.unwrap_or(post);
    if let Some(now_s) = now_s {
        crate::trade::amounts::check_terms(t, post, order.expiration, now_s)?;
    }
    Ok((order, signature, t, post))
}

fn post_only_of(options: &JsValue) -> Result<Option<bool>, Error> {
    if is_absent(options) {
        return Ok(None);
    }
    let v = field(options, "postOnly", "postOnly")?;
    if is_absent(&v) {
        Ok(None)
    } else {
        v.as_bool().map(Some).ok_or_else(|| Error::invalid("postOnly", "must be true or false"))
    }
}

fn nonce(value: &JsValue) -> Result<U256, Error> {
    const RULE: &str = "must be a whole number (or its decimal text)";
    match to_value(value, "nonce")? {
        Value::Undefined | Value::Null => Ok(U256::default()),
        Value::Number(n) if n.fract() == 0.0 && n >= 0.0 && n <= api::MAX_SAFE_INT as f64 => {
            Ok(U256::from_u64(n as u64))
        }
        Value::Str(s) => U256::parse_decimal(&s).ok_or_else(|| Error::invalid("nonce", RULE)),
        _ => Err(Error::invalid("nonce", RULE)),
    }
}

/// The trading tasks' entries: none is part of the typed API (the methods are, in trade.d.ts).
#[wasm_bindgen]
impl Client {
    /// The caller's signal of a call's `options` (checked as every call's), before anything starts: an order's
    /// tracking links it to its own.
    #[wasm_bindgen(js_name = tradeSignal, skip_typescript)]
    pub fn trade_signal(&self, options: JsValue) -> Result<JsValue, JsValue> {
        Ok(self.inner.call_options(Some(&options))?.signal)
    }

    /// An order from its params (read once; `market` for a market order) to its draft, or, given the signer's
    /// `address`, signed by its wallet (`{ sign }`) and posted under the call's `options`: a task. Resolves to the
    /// draft, or to the service's answer.
    #[wasm_bindgen(js_name = tradeOrder, skip_typescript)]
    pub fn trade_order(
        &self,
        order: JsValue,
        market: JsValue,
        address: JsValue,
        options: JsValue,
        wallet: JsValue,
    ) -> Promise {
        let (market, place) = (market.is_truthy(), !address.is_undefined());
        let started = (|| {
            let req = OrderRequest::parse(&params(&order, "params")?, market)?;
            // Everything is checked before the first request: the signer's address, the options, the credentials.
            let signer = if place { Some(signer_address(&address)?) } else { None };
            let call = self.inner.call_options(Some(&options))?;
            let owner = if place { Some(self.owner()?) } else { None };
            let cx = OrderContext {
                learnt: self.inner.learnt.clone(),
                settings: self.inner.trading.clone(),
                signer,
                owner,
                salt: super::call::random_salt() as u64,
                clock_offset_ms: self.inner.calls.try_borrow().map_or(0.0, |c| c.clock_offset_ms),
                limits: call.limits(),
            };
            let machine = Ordering::new(Placing::new(req, place), cx, order_read, order_answer);
            let task = crate::task::Task::new(machine).with_extra_query(call.extra_query);
            Ok::<_, Error>((Work::Order { task, place }, call.signal))
        })();
        self.start(started, &wallet)
    }

    /// A caller's draft signed by the wallet (`{ sign }`) of the signer at `address`, under the call's `options` (its
    /// signal): a task that resolves to the signed order. The maker is the signer, or the client's `funder` for
    /// POLY_PROXY and POLY_GNOSIS_SAFE.
    #[wasm_bindgen(js_name = tradeSign, skip_typescript)]
    pub fn trade_sign(&self, draft: JsValue, address: JsValue, options: JsValue, wallet: JsValue) -> Promise {
        let started = (|| {
            let draft = Draft::from_params(&params(&draft, "order")?)?;
            let signer = signer_address(&address)?;
            let call = self.inner.call_options(Some(&options))?;
            let settings = &self.inner.trading;
            if draft.chain_id != settings.chain_id {
                return Err(Error::invalid("order.chainId", "is not this client's chainId"));
            }
            let maker = settings.signature_type.maker(signer, settings.funder)?;
            let salt = super::call::random_salt() as u64;
            let mut order = draft.order_for(signer, maker, settings.signature_type, salt, now_ms(self) as u64)?;
            order.wrapped = self.inner.learnt.try_borrow().map_or(order.wrapped, |l| l.wraps(&order));
            let signing = Signing {
                domain: order::domain(order.version, draft.chain_id, draft.exchange),
                order,
                order_type: draft.order_type,
                post_only: draft.post_only,
                sign_ms: settings.sign_timeout_ms,
            };
            Ok::<_, Error>((Work::Sign(crate::task::Task::new(signing)), call.signal))
        })();
        self.start(started, &wallet)
    }

    /// The API key of the wallet (`{ sign }`) of the signer at `address` for `nonce` (default 0), by `route` (0
    /// create, 1 derive, else derive or, when the wallet has none, create), under the call's `options`: a task that keeps the key as this
    /// client's credentials and resolves to `{ address, apiKey }` (the secret and passphrase never leave Rust).
    #[wasm_bindgen(js_name = tradeApiKey, skip_typescript)]
    pub fn trade_api_key(
        &self,
        address: JsValue,
        nonce_value: JsValue,
        route: JsValue,
        options: JsValue,
        wallet: JsValue,
    ) -> Promise {
        let started = (|| {
            let auth = ClobAuth {
                chain_id: self.inner.trading.chain_id,
                address: signer_address(&address)?,
                timestamp: crate::trade::decimal((now_ms(self) / 1000.0).floor() as u64),
                nonce: nonce(&nonce_value)?,
            };
            let call = self.inner.call_options(Some(&options))?;
            let route = match route.as_f64() {
                Some(0.0) => KeyRoute::Create,
                Some(1.0) => KeyRoute::Derive,
                _ => KeyRoute::DeriveOrCreate,
            };
            let limits = call.limits();
            let keying = Keying::new(auth, route, KEY, key_answer, limits, self.inner.trading.sign_timeout_ms);
            Ok::<_, Error>((Work::Key(crate::task::Task::new(keying).with_extra_query(call.extra_query)), call.signal))
        })();
        self.start(started, &wallet)
    }

    /// Sends one trading step's request under the call's `options` (budgets, retries, signal, timeout):
    /// "version" (resolves to 1, 2 or 3), "post" (`a`: a signed order, `b`: its order type; the answer) and
    /// "postBatch" (`a`: 1 to 15 signed orders; the answers).
    #[wasm_bindgen(js_name = tradeSend, skip_typescript)]
    pub fn trade_send(&self, step: JsValue, a: JsValue, b: JsValue, options: JsValue) -> Promise {
        let built = (|| -> Result<(HttpRequest, Expect<Product>, Shape), Error> {
            let step = read_str(&step, "step", 16)?;
            Ok(match step.as_str() {
                "version" => (api::version(), Expect::Bytes(answers::version), Shape::Result),
                // A caller's signed order (`postOrder`).
                "post" => {
                    let (order, signature, order_type, post_only) =
                        read_signed(&a, Some(&b), post_only_of(&options)?, Some(now_s(self)))?;
                    let placement = Placement { order: &order, signature: &signature, order_type, post_only };
                    (api::post_order(order_body(&placement, &self.owner()?)), Expect::Json, Shape::Body)
                }
                "postBatch" => {
                    let items = items(&a, "orders")?
                        .ok_or_else(|| Error::invalid("orders", "must be an array of signed orders"))?;
                    if items.length() == 0 || items.length() as usize > MAX_BATCH {
                        return Err(Error::invalid("orders", "must hold 1 to 15 orders"));
                    }
                    let now = now_s(self);
                    let signed =
                        items.iter().map(|o| read_signed(&o, None, None, Some(now))).collect::<Result<Vec<_>, _>>()?;
                    let placements: Vec<_> = signed
                        .iter()
                        .map(|(o, s, t, p)| Placement { order: o, signature: s, order_type: *t, post_only: *p })
                        .collect();
                    (
                        api::post_orders(orders_body(&placements, &self.owner()?)?, placements.len() as u32),
                        Expect::Json,
                        Shape::Body,
                    )
                }
                _ => return Err(Error::invalid("step", "is not a trading step")),
            })
        })();
        match built {
            Ok((request, expect, shape)) => self.send(Some(&options), Ok(request), expect, shape),
            Err(e) => rejected(e),
        }
    }

    /// The account doctor (`diagnoseAccount`): examines the account of the signer at `address` under the call's `options`, asking `wallet` (`{ sign, rpc }`:
    /// the signer's `signTypedData`, and the provider's `request` when `provider`); resolves to the diagnosis.
    #[wasm_bindgen(js_name = tradeDoctor, skip_typescript)]
    pub fn trade_doctor(&self, address: JsValue, options: JsValue, provider: JsValue, wallet: JsValue) -> Promise {
        // (Every argument a JsValue, read here: a typed one would be converted, and could throw, in the glue.)
        let provider = provider.is_truthy();
        let started = (|| {
            let owner = signer_address(&address)?;
            let call = self.inner.call_options(Some(&options))?;
            let key = self.inner.credentials.borrow().as_ref().and_then(|c| Address::parse("key", c.address()).ok());
            let doctor = Doctor::new(&self.inner.trading, owner, key, provider);
            let limits = call.limits();
            let machine = Examination::new(doctor, HOLDING, holding, limits, self.inner.trading.sign_timeout_ms);
            let task = crate::task::Task::new(machine).with_extra_query(call.extra_query);
            Ok::<_, Error>((Work::Doctor(task), call.signal))
        })();
        self.start(started, &wallet)
    }

    /// Follows an order (`order`: its id or the answer to placing it; `settleOnly`: only its trades to
    /// settlement) under its options (`pollMs`, `timeoutMs`, `stream`, `onUpdate`, read once here, with the core's
    /// defaults for each kind), run under `signal` with the task's own I/O `own` (`{ tell, inbox }`): throws at
    /// once for options it refuses (and without credentials), else `[done, onUpdate, stream]`: the promise of its
    /// end (the `settled` update, or null), the caller's `onUpdate` or undefined, and whether the user channel
    /// is to be followed too.
    #[wasm_bindgen(js_name = tradeTracker, skip_typescript)]
    pub fn trade_tracker(
        &self,
        order: JsValue,
        settle_only: JsValue,
        options: JsValue,
        own: JsValue,
        signal: JsValue,
    ) -> Result<js_sys::Array, JsValue> {
        // (Every argument a JsValue, read here: a typed one would be converted, and could throw, in the glue.)
        let settle_only = settle_only.is_truthy();
        let call = self.inner.call_options(Some(&options))?;
        let absent = is_absent(&options);
        let read = |name| if absent { Ok(Value::Undefined) } else { option(&options, name) };
        let settings =
            tracking::FollowSettings::read(settle_only, &read("pollMs")?, call.timeout_given, &read("stream")?)?;
        let on_update = if absent { JsValue::UNDEFINED } else { field(&options, "onUpdate", "onUpdate")? };
        if !is_absent(&on_update) && !on_update.is_function() {
            return Err(Error::invalid("onUpdate", "must be a function").into());
        }
        let given = to_value(&order, "order")?;
        let id = tracking::order_of(&given, settle_only)?;
        if self.inner.credentials.borrow().is_none() {
            return Err(crate::auth::missing_credentials().into());
        }
        let mut tracker = Tracker::new(&id, settle_only, settings.poll_ms, super::call::date_now());
        if matches!(given, Value::Object(_)) {
            tracker.observe(Source::Posted(&given));
        }
        // Each read with the client's own timeout and retries (the call's options are the following's).
        let client = self.inner.call_options(None)?;
        let limits = client.limits();
        let machine = Following::new(tracker, VALUE, value, limits, settings.timeout_ms);
        // Held weakly, as the dead-man switch is: a tracking has no end of its own, and a freed client's ends (FREED)
        // rather than go on reading with its credentials. (`own` holds the client's JS object while it runs.)
        let task = Task::new(&self.inner, Work::Track(crate::task::Task::new(machine)), false);
        let done: Promise = run_handled(task, &self.inner.io, &signal, &own);
        let on_update = if settle_only || !on_update.is_function() { JsValue::UNDEFINED } else { on_update };
        Ok([done.into(), on_update, JsValue::from_bool(settings.stream)].iter().collect())
    }

    /// The dead-man switch (`heartbeats` in trade.d.ts, which trade.mjs installs): `{ intervalMs?, signal?,
    /// onStatus? }`. `client` is this client's JS object, which the running switch holds: a switch nobody keeps
    /// a reference to (nor to its client) must not stop when the garbage collector frees the client.
    #[wasm_bindgen(js_name = tradeHeartbeats, skip_typescript)]
    pub fn trade_heartbeats(&self, options: JsValue, client: JsValue) -> Result<JsValue, JsValue> {
        let call = self.inner.call_options(Some(&options))?;
        let (interval, on_status) = if is_absent(&options) {
            (heartbeat::DEFAULT_INTERVAL_MS, JsValue::UNDEFINED)
        } else {
            let interval =
                heartbeat::interval(&to_value(&field(&options, "intervalMs", "intervalMs")?, "intervalMs")?)?;
            let on_status = field(&options, "onStatus", "onStatus")?;
            if !is_absent(&on_status) && !on_status.is_function() {
                return Err(Error::invalid("onStatus", "must be a function").into());
            }
            (interval, on_status)
        };
        if self.inner.credentials.borrow().is_none() {
            return Err(crate::auth::missing_credentials().into());
        }
        let beats = Heartbeats::new(interval, super::call::date_now());
        let work = Work::Switch(crate::task::Task::new(Switch::new(beats, HEARTBEAT, heartbeat_answer)));
        // The switch holds its client's state weakly: the client's free stops it.
        let task = Task::new(&self.inner, work, false);
        Ok(run_heartbeats(task, &self.inner.io, &on_status, &call.signal, &client))
    }
}

impl Client {
    /// Runs a trading task with the wallet `wallet`, under its call's signal; or the refusal of its start.
    fn start(&self, started: Result<(Work, JsValue), Error>, wallet: &JsValue) -> Promise {
        match started {
            // A task keeps its client's state until it ends.
            Ok((work, signal)) => run_task(Task::new(&self.inner, work, true), &self.inner.io, &signal, wallet),
            Err(e) => rejected(e),
        }
    }

    /// The API key orders are placed for (`UNAUTHORIZED` without credentials).
    fn owner(&self) -> Result<String, Error> {
        self.inner
            .credentials
            .borrow()
            .as_ref()
            .map(|c| c.api_key().to_owned())
            .ok_or_else(crate::auth::missing_credentials)
    }
}
