//! The JS `Client`: reads its options, then for each method builds the request in the core and sends it.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Array, Promise};
use wasm_bindgen::prelude::*;

use super::call::{run, Inner, Shape};
use super::interop::{
    field, is_absent, opt_string, option, read_opt_str, read_params, read_str, rejected, req_string, to_value,
};
use super::signing::read_credentials;
use crate::api::call::{BaseUrls, Calls, CallsSettings, Expect};
use crate::api::methods::{endpoint, Answer, Args, Endpoint, ENDPOINTS};
use crate::api::options::ClientSettings;
use crate::api::retry::RetryPolicy;
use crate::api::{self, base_url, HttpRequest, TimestampUnit};
use crate::error::Error;

/// A client of the service. Create one per service and share it: it holds the rate budgets.
///
/// @example
/// const client = new Client({ baseUrl: "http://127.0.0.1:8787" });
/// const events = await client.getEvents({ active: true, limit: 10 });
#[wasm_bindgen]
pub struct Client {
    pub(super) inner: Rc<Inner>,
}

#[wasm_bindgen]
impl Client {
    /// Checks every option; a bad one throws `INVALID_PARAMS` naming it.
    #[wasm_bindgen(constructor)]
    pub fn new(#[wasm_bindgen(unchecked_param_type = "ClientOptions")] options: JsValue) -> Result<Client, JsValue> {
        Ok(Client { inner: Rc::new(read_options(&options)?) })
    }

    /// The REST methods (`src/js/package/client.mjs` defines one JS method per row): `[name, argument count, list]`.
    #[wasm_bindgen(js_name = restMethods, skip_typescript)]
    pub fn rest_methods() -> Array {
        ENDPOINTS
            .iter()
            .map(|e| -> JsValue {
                let row = Array::new();
                row.push(&JsValue::from_str(e.name));
                row.push(&JsValue::from_f64(e.args.count() as f64));
                row.push(&JsValue::from_bool(e.listing.is_some()));
                // Whether its rows are trades, which get the account's fills.
                row.push(&JsValue::from_bool(e.answer == Answer::Trades));
                row.into()
            })
            .collect()
    }

    /// One call of the REST method `name` with its arguments (`a`, `b`, `c`: the method's arguments, then
    /// the call's options). Resolves to the answer; bad arguments reject with nothing sent.
    #[wasm_bindgen(js_name = callRest, skip_typescript)]
    pub fn call_rest(&self, name: JsValue, a: JsValue, b: JsValue, c: JsValue) -> Promise {
        let args = [a, b, c];
        let built = find(&name).and_then(|e| Ok((e, self.request(e, &args)?)));
        #[cfg(feature = "trade")]
        let built = built.map(|(e, mut request)| {
            api::default_signature_type(&mut request, self.inner.trading.signature_type as u8);
            (e, request)
        });
        let (endpoint, request) = match built {
            Ok(found) => found,
            Err(e) => return rejected(e),
        };
        let options = args.get(endpoint.args.count());
        match endpoint.answer {
            Answer::Json | Answer::Trades => self.send(options, Ok(request), Expect::Json, Shape::Body),
            Answer::Book => self.send(options, Ok(request), crate::product::BOOK, Shape::Book),
        }
    }

    /// Estimates how far the local clock is from the service's and signs with the difference from then on.
    /// Reads GET /time where the service has it, else the `Date` header of that answer (whole seconds;
    /// cross-origin it must be exposed). Resolves to the offset in milliseconds.
    ///
    /// The client's `timeoutMs` and per-call `{ signal, timeoutMs }` apply.
    ///
    /// @example
    /// const offsetMs = await client.syncClock();
    #[wasm_bindgen(js_name = syncClock, unchecked_return_type = "Promise<number>")]
    pub fn sync_clock(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        // Any status is an answer here (a 404 has a `Date` header); no answer at all is retried.
        self.send(options.as_ref(), Ok(api::server_time()), Expect::Clock, Shape::Result)
    }

    /// The offset added to the local clock when signing, in milliseconds.
    #[wasm_bindgen(getter, js_name = clockOffsetMs)]
    pub fn clock_offset_ms(&self) -> f64 {
        self.inner.calls.borrow().clock_offset_ms
    }

    /// The account's side of a trade (a `trade` event of the user channel, a row of `getUserTrades`): its own
    /// fills, which for a maker are its `maker_orders` entries (on the complementary token, at their own price),
    /// not the top level, which describes the taker's order. Empty when none is the account's, or without
    /// credentials. The user channel's trade events and `getUserTrades` rows carry it as `fills` already.
    ///
    /// @example
    /// for (const fill of client.fills(trade)) console.log(fill.side, fill.size, "at", fill.price, fill.outcome);
    #[wasm_bindgen(unchecked_return_type = "Fill[]")]
    pub fn fills(&self, #[wasm_bindgen(unchecked_param_type = "UserTrade | object")] trade: JsValue) -> JsValue {
        account_fills(&self.inner, &trade, false)
    }

    /// Whether the client holds credentials (they cannot be read back).
    #[wasm_bindgen(getter, js_name = hasCredentials)]
    pub fn has_credentials(&self) -> bool {
        self.inner.credentials.borrow().is_some()
    }
}

/// The account's side of `trade` (`api::fills`), for the client's API key: an array; with `events_only`,
/// undefined for anything but a `trade` event.
pub(super) fn account_fills(inner: &Inner, trade: &JsValue, events_only: bool) -> JsValue {
    let trade = super::interop::to_value(trade, "trade").unwrap_or(crate::json::Value::Null);
    if events_only && !matches!(trade.field("event_type"), Some(crate::json::Value::Str(t)) if t == "trade") {
        return JsValue::UNDEFINED;
    }
    let key = inner.credentials.try_borrow().ok().and_then(|c| c.as_ref().map(|c| c.api_key().to_owned()));
    js_sys::JSON::parse(&crate::api::fills::fills(&trade, key.as_deref())).unwrap_or(JsValue::UNDEFINED)
}

/// The REST method a JS method named.
pub(super) fn find(name: &JsValue) -> Result<&'static Endpoint, Error> {
    let not_one = || Error::invalid("method", "is not a REST method");
    read_str(name, "method", 64).map_err(|_| not_one()).and_then(|name| endpoint(&name).ok_or_else(not_one))
}

impl Client {
    /// The request of one call of `endpoint` from its JS arguments.
    fn request(&self, endpoint: &Endpoint, args: &[JsValue; 3]) -> Result<HttpRequest, Error> {
        let [a, b, _] = args;
        match endpoint.args {
            Args::None(build) => Ok(build()),
            Args::Params(build) => build(&read_params(Some(a))?),
            Args::Id(param, build) => build(&text(a, param)?),
            Args::IdParams(param, build) => build(&text(a, param)?, &read_params(Some(b))?),
            Args::Cursor(build) => build(opt_text(Some(a), "next_cursor")?.as_deref()),
            Args::Items(build) => build(&to_value(a, "params")?),
            Args::TokenSide(build) => build(&text(a, "token_id")?, &text(b, "side")?),
        }
    }

    /// Sends a built request (with the call's options) and resolves to its answer as `shape` says.
    pub(super) fn send(
        &self,
        options: Option<&JsValue>,
        request: Result<HttpRequest, Error>,
        expect: Expect<crate::product::Product>,
        shape: Shape,
    ) -> Promise {
        let call = self.inner.call_options(options);
        let request = request.and_then(|r| call.as_ref().map_err(Clone::clone).and_then(|c| c.prepare(r)));
        let (request, call) = match (request, call) {
            (Ok(request), Ok(call)) => (request, call),
            (Err(e), _) | (_, Err(e)) => return rejected(e),
        };
        // A request that needs credentials the client lacks is refused before it waits for budget.
        if let Err(e) = self.inner.check_credentials(&request) {
            return rejected(e);
        }
        run(&self.inner, request, &call, expect, shape)
    }
}

/// A string argument (ids, slugs, token ids, sides), bounded before it is copied; the core checks its shape.
fn text(value: &JsValue, param: &'static str) -> Result<String, Error> {
    read_str(value, param, 4096)
}

pub(super) fn opt_text(value: Option<&JsValue>, param: &'static str) -> Result<Option<String>, Error> {
    value.map_or(Ok(None), |v| read_opt_str(v, param, 4096))
}

fn read_options(options: &JsValue) -> Result<Inner, Error> {
    if !options.is_object() {
        return Err(Error::invalid("options", "must be an object with at least baseUrl"));
    }
    let base = field(options, "baseUrl", "baseUrl")?;
    let bases = if base.is_string() {
        let url = base_url("baseUrl", &read_str(&base, "baseUrl", 4096)?)?;
        BaseUrls::one(url)
    } else if base.is_object() {
        BaseUrls {
            catalog: base_url("baseUrl.catalog", &req_string(&base, "catalog")?)?,
            clob: base_url("baseUrl.clob", &req_string(&base, "clob")?)?,
            activity: base_url("baseUrl.activity", &req_string(&base, "activity")?)?,
        }
    } else {
        return Err(Error::invalid("baseUrl", "is required: a URL, or { catalog, clob, activity }"));
    };

    let fetch = field(options, "fetch", "fetch")?;
    if !is_absent(&fetch) && !fetch.is_function() {
        return Err(Error::invalid("fetch", "must be a function"));
    }

    #[cfg(feature = "trade")]
    let trading = crate::trade::settings::TradingSettings::read(&mut |name| option(options, name))?;
    let creds = field(options, "credentials", "credentials")?;
    let credentials = if is_absent(&creds) { None } else { Some(read_credentials(&creds)?) };

    let timestamp_unit = match opt_string(options, "timestampUnit")? {
        Some(unit) => TimestampUnit::parse(&unit)?,
        None => TimestampUnit::default(),
    };

    let settings = ClientSettings::read(&mut |name| option(options, name))?;
    let budgets = api::options::rate_limits(&option(options, "rateLimits")?)?;
    let on_event = field(options, "onEvent", "onEvent")?;
    if !is_absent(&on_event) && !on_event.is_function() {
        return Err(Error::invalid("onEvent", "must be a function"));
    }

    Ok(Inner {
        calls: RefCell::new(Calls::new(CallsSettings {
            bases,
            budgets,
            policy: RetryPolicy { max_retries: settings.max_retries, ..RetryPolicy::default() },
            max_in_flight: settings.max_concurrency,
            max_queue_ms: settings.max_queue_ms,
            clock_offset_ms: settings.clock_offset_ms,
            timestamp_unit,
            // (Math.random: a page without crypto still makes clients; the jitter needs no secrecy.)
            seed: (js_sys::Math::random() * 9_007_199_254_740_992.0) as u64,
        })),
        #[cfg(feature = "trade")]
        learnt: Rc::default(),
        credentials: RefCell::new(credentials),
        #[cfg(feature = "trade")]
        trading,
        timeout_ms: settings.timeout_ms,
        attempt_timeout_ms: settings.attempt_timeout_ms,
        io: super::call::client_io(&fetch, &on_event),
    })
}
