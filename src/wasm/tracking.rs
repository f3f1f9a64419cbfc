//! Following an order through a `Client` (`trackOrder`, `waitForSettlement`): the core's tracker as a task
//! (`crate::trade::tracking::Following`) that the one driver runs (`run` in src/js/driver.js), with the task's own
//! listener and inbox from the package's `trade.mjs`, which feeds it the user channel's events. This file converts
//! values; every decision is the core's.

use js_sys::Promise;
use wasm_bindgen::prelude::*;

use super::call::{run_handled, Task, Work};
use super::client::Client;
use super::interop::{field, is_absent, option, to_value};
use crate::error::Error;
use crate::json::Value;
use crate::product::{value, VALUE};
use crate::trade::tracking::{self, Following, Source, Tracker};

#[wasm_bindgen]
impl Client {
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
}
