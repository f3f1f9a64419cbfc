//! The dead-man switch through a `Client`: `client.heartbeats(options)` reads its options and hands the core's
//! switch (`crate::trade::heartbeat`) to the driver (`runHeartbeats` in src/js/driver.js), whose timers and
//! requests run it. This file converts values and sends the requests; every decision is the core's.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use js_sys::Promise;
use wasm_bindgen::prelude::*;

use super::call::{run_into, Inner, Sink};
use super::client::Client;
use super::interop::{field, get, is_absent, rejected, to_value};
use crate::error::Error;
use crate::product::{Product, HEARTBEAT};
use crate::trade::heartbeat::{self, Answer, Heartbeats, Reason, Status, Step};

#[wasm_bindgen(module = "/src/js/driver.js")]
extern "C" {
    /// Runs a switch with the driver's timers, holding `client` while it runs; returns its handle.
    #[wasm_bindgen(js_name = runHeartbeats)]
    fn run_heartbeats(work: HeartbeatWork, on_status: &JsValue, signal: &JsValue, client: &JsValue) -> JsValue;
}

#[wasm_bindgen]
impl Client {
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
        let work = HeartbeatWork {
            inner: Rc::downgrade(&self.inner),
            beats: RefCell::new(Heartbeats::new(interval, super::call::date_now())),
            pending: RefCell::new((String::new(), interval)),
            answer: Sink::default(),
        };
        Ok(run_heartbeats(work, &on_status, &call.signal, &client))
    }
}

/// One switch as the driver runs it. Internal: `next` says what to do (`["tell", event]`, `["send"]`,
/// `["wait", ms]` or `["stop"]`), `send` sends the heartbeat, `answered` hands its outcome back, `stop` ends it.
#[wasm_bindgen(skip_typescript)]
pub struct HeartbeatWork {
    /// The client's state; gone once the client is freed (and its calls ended), which stops the switch.
    inner: Weak<Inner>,
    beats: RefCell<Heartbeats>,
    /// The id of the heartbeat to send, and how long it may take.
    pending: RefCell<(String, f64)>,
    /// Where the service's answer to it arrives (read by the call machine).
    answer: Sink,
}

#[wasm_bindgen]
impl HeartbeatWork {
    /// What to do at `now` (the driver's clock), as JSON.
    pub fn next(&self, now: JsValue) -> String {
        let now = now.as_f64().filter(|n| n.is_finite()).unwrap_or(0.0);
        let Ok(mut beats) = self.beats.try_borrow_mut() else { return "[\"wait\",1]".into() };
        if self.inner.upgrade().is_none() {
            beats.stop(Reason::Freed);
        }
        match beats.step(now) {
            Step::Tell(status) => crate::text::concat(&["[\"tell\",", &beats.event_json(status), "]"]),
            Step::Send(id) => {
                let timeout = beats.beat_timeout_ms(now);
                if let Ok(mut pending) = self.pending.try_borrow_mut() {
                    *pending = (id, timeout);
                }
                "[\"send\"]".into()
            }
            Step::Wait(ms) => crate::text::concat(&["[\"wait\",", &crate::trade::decimal(ms.ceil() as u64), "]"]),
            Step::Stop => "[\"stop\"]".into(),
        }
    }

    /// Sends the heartbeat `next` asked for, under `options`' signal (the driver's, aborted by `stop()`), with the
    /// time the core gives it and no retry (the next beat is the retry); the service's answer (accepted, or the
    /// id it expects) stays in wasm for `answered`.
    pub fn send(&self, options: JsValue) -> Promise {
        let Some(inner) = self.inner.upgrade() else { return rejected(Error::decode("the client was freed")) };
        let mut call = match inner.call_options(Some(&options)) {
            Ok(call) => call,
            Err(e) => return rejected(e),
        };
        let (id, timeout) = self.pending.try_borrow().map(|p| p.clone()).unwrap_or_default();
        call.timeout_ms = timeout;
        call.max_retries = 0;
        run_into(&inner, crate::api::heartbeat(&id), &call, HEARTBEAT, self.answer.clone())
    }

    /// How the heartbeat ended, at `now`: when `failed`, `error` is how `send` failed.
    pub fn answered(&self, error: JsValue, failed: JsValue, now: JsValue) {
        let (failed, now) = (failed.is_truthy(), now.as_f64().filter(|n| n.is_finite()).unwrap_or(0.0));
        let answer = self.answer.try_borrow_mut().ok().and_then(|mut a| a.take());
        let outcome = if failed {
            let status = get(&error, "status").as_f64();
            // A key the service does not take, or a service without the route: no switch can run.
            if matches!(status, Some(s) if s == 401.0 || s == 403.0 || s == 404.0) {
                Answer::Refused
            } else {
                Answer::Failed(get(&error, "retryAfterMs").as_f64())
            }
        } else if let Some(Product::Heartbeat(answer)) = answer {
            answer
        } else {
            Answer::Failed(None)
        };
        if let Ok(mut beats) = self.beats.try_borrow_mut() {
            beats.answered(outcome, now);
        }
    }

    /// Stops the switch: `reason` "aborted" (its signal) or anything else for `stop()`.
    pub fn stop(&self, reason: JsValue) {
        let reason = if reason.as_string().as_deref() == Some("aborted") { Reason::Aborted } else { Reason::Stopped };
        if let Ok(mut beats) = self.beats.try_borrow_mut() {
            beats.stop(reason);
        }
    }

    /// `starting`, `ok`, `late`, `lost` or `stopped`.
    #[wasm_bindgen(getter)]
    pub fn status(&self) -> String {
        self.beats.try_borrow().map_or(Status::Stopped, |b| b.status()).name().into()
    }
}
