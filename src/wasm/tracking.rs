//! Following an order through a `Client` (`trackOrder`, `waitForSettlement`): the core's tracker
//! (`crate::trade::tracking`) as a handle the package's driver (`trade.mjs`) runs, handing it what the service and
//! the user channel say. This file converts values; every decision is the core's.

use std::cell::RefCell;

use wasm_bindgen::prelude::*;

use super::client::Client;
use super::interop::{field, is_absent, option, to_value};
use crate::error::Error;
use crate::json::Value;
use crate::trade::tracking::{self, Need, Source, Tracker};

#[wasm_bindgen]
impl Client {
    /// The tracker of an order (`order`: its id or the answer to placing it; `settleOnly`: only its trades to
    /// settlement), its options (`pollMs`, `timeoutMs`, `stream`, `onUpdate`) read once from `options`, with
    /// the core's defaults for each kind: `[work, onUpdate, stream, timeoutMs]` (the caller's `onUpdate` or
    /// undefined; whether the user channel is followed too; how long it may take in all, or undefined).
    /// Needs credentials.
    #[wasm_bindgen(js_name = tradeTracker, skip_typescript)]
    pub fn trade_tracker(
        &self,
        order: JsValue,
        settle_only: JsValue,
        options: JsValue,
    ) -> Result<js_sys::Array, JsValue> {
        // (Every argument a JsValue, read here: a typed one would be converted, and could throw, in the glue.)
        let settle_only = settle_only.is_truthy();
        let timeout = self.inner.call_options(Some(&options))?.timeout_given;
        let absent = is_absent(&options);
        let read = |name| if absent { Ok(Value::Undefined) } else { option(&options, name) };
        let settings = tracking::FollowSettings::read(settle_only, &read("pollMs")?, timeout, &read("stream")?)?;
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
        let on_update = if settle_only || !on_update.is_function() { JsValue::UNDEFINED } else { on_update };
        let timeout = settings.timeout_ms.map_or(JsValue::UNDEFINED, JsValue::from_f64);
        let work = JsValue::from(TrackWork { tracker: RefCell::new(tracker) });
        Ok([work, on_update, JsValue::from_bool(settings.stream), timeout].iter().collect())
    }
}

/// One order followed. Internal: `observe(kind, value)` hands in what a source said (0 an order's read, or
/// undefined when it failed; 1 a trade's read, likewise; 2 a user channel event; 3 whether the channel is open),
/// `next(now)` says what to do (`["tell", update]`, `["order"]`, `["trade", id]`, `["wait", ms]`, `["done"]`).
#[wasm_bindgen(skip_typescript)]
pub struct TrackWork {
    tracker: RefCell<Tracker>,
}

#[wasm_bindgen]
impl TrackWork {
    #[wasm_bindgen(getter, js_name = orderId)]
    pub fn order_id(&self) -> String {
        self.tracker.try_borrow().map(|t| t.order_id().to_owned()).unwrap_or_default()
    }

    /// What a source said; for a read that failed (`value` undefined), `code` is its failure's, and the answer
    /// is whether it ends the following (the core's `read_ends`).
    pub fn observe(&self, kind: JsValue, value: JsValue, code: JsValue) -> bool {
        if value.is_undefined() && super::interop::read_str(&code, "code", 64).is_ok_and(|c| tracking::read_ends(&c)) {
            return true;
        }
        let kind = kind.as_f64().map_or(u32::MAX, |k| k as u32);
        let value = if value.is_undefined() { None } else { Some(to_value(&value, "value").unwrap_or(Value::Other)) };
        let Ok(mut tracker) = self.tracker.try_borrow_mut() else { return false };
        let source = match (kind, value.as_ref()) {
            (0, v) => Source::Order(v),
            (1, v) => Source::Trades(v),
            (2, Some(v)) => Source::Event(v),
            (3, Some(Value::Bool(open))) => Source::Channel(*open),
            _ => return false,
        };
        tracker.observe(source);
        false
    }

    pub fn next(&self, now: JsValue) -> Result<String, JsValue> {
        let now = now.as_f64().filter(|n| n.is_finite()).unwrap_or(0.0);
        let Ok(mut tracker) = self.tracker.try_borrow_mut() else {
            return Err(Error::decode("the tracker is busy").into());
        };
        Ok(match tracker.need(now) {
            Need::Tell(update) => crate::text::concat(&["[\"tell\",", &update, "]"]),
            Need::ReadOrder => "[\"order\"]".into(),
            Need::ReadTrade(id) => {
                let mut w = crate::json::JsonWriter::array();
                w.str("trade");
                w.str(&id);
                w.finish()
            }
            Need::Wait(ms) => crate::text::concat(&["[\"wait\",", &crate::trade::decimal(ms.ceil() as u64), "]"]),
            Need::Done => "[\"done\"]".into(),
        })
    }
}
