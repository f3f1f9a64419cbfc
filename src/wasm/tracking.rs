//! Following an order through a `Client` (`trackOrder`, `waitForSettlement`): the core's tracker
//! (`crate::trade::tracking`) as a handle the package's driver (`trade.mjs`) runs, handing it what the service and
//! the user channel say. This file converts values; every decision is the core's.

use std::cell::RefCell;

use wasm_bindgen::prelude::*;

use super::client::Client;
use super::interop::{field, is_absent, to_value};
use crate::error::Error;
use crate::json::Value;
use crate::trade::tracking::{self, Need, Source, Tracker};

#[wasm_bindgen]
impl Client {
    /// The tracker of an order (`order`: its id or the answer to placing it; `settleOnly`: only its trades to
    /// settlement), its `pollMs` read from `options` (default `defaultPollMs`). Needs credentials.
    #[wasm_bindgen(js_name = tradeTracker, skip_typescript)]
    pub fn trade_tracker(
        &self,
        order: JsValue,
        settle_only: JsValue,
        options: JsValue,
        default_poll_ms: JsValue,
    ) -> Result<TrackWork, JsValue> {
        // (Every argument a JsValue, read here: a typed one would be converted, and could throw, in the glue.)
        let settle_only = settle_only.is_truthy();
        let default_poll_ms = default_poll_ms.as_f64().unwrap_or(tracking::DEFAULT_POLL_MS);
        self.inner.call_options(Some(&options))?;
        let poll = if is_absent(&options) {
            Value::Undefined
        } else {
            to_value(&field(&options, "pollMs", "pollMs")?, "pollMs")?
        };
        let poll_ms = tracking::poll_interval(&poll, default_poll_ms)?;
        let given = to_value(&order, "order")?;
        let id = tracking::order_of(&given, settle_only)?;
        if self.inner.credentials.borrow().is_none() {
            return Err(crate::auth::missing_credentials().into());
        }
        let mut tracker = Tracker::new(&id, settle_only, poll_ms, super::call::date_now());
        if matches!(given, Value::Object(_)) {
            tracker.observe(Source::Posted(&given));
        }
        Ok(TrackWork { tracker: RefCell::new(tracker) })
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

    pub fn observe(&self, kind: JsValue, value: JsValue) {
        let kind = kind.as_f64().map_or(u32::MAX, |k| k as u32);
        let value = if value.is_undefined() { None } else { Some(to_value(&value, "value").unwrap_or(Value::Other)) };
        let Ok(mut tracker) = self.tracker.try_borrow_mut() else { return };
        let source = match (kind, value.as_ref()) {
            (0, v) => Source::Order(v),
            (1, v) => Source::Trades(v),
            (2, Some(v)) => Source::Event(v),
            (3, Some(Value::Bool(open))) => Source::Channel(*open),
            _ => return,
        };
        tracker.observe(source);
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
