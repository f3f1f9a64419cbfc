//! The dead-man switch through a `Client`: `client.heartbeats(options)` reads its options and hands the core's
//! switch (`crate::trade::heartbeat::Switch`, a task like every REST call) to the driver (`runHeartbeats` in
//! src/js/driver.js, over its one `run`). This file converts values; every decision is the core's.

use wasm_bindgen::prelude::*;

use super::call::{Task, Work};
use super::client::Client;
use super::interop::{field, is_absent, to_value};
use crate::error::Error;
use crate::product::{heartbeat_answer, HEARTBEAT};
use crate::trade::heartbeat::{self, Heartbeats, Switch};

#[wasm_bindgen(module = "/src/js/driver.js")]
extern "C" {
    /// Runs a switch's task with the client's I/O, holding `client` while it runs; returns its handle.
    #[wasm_bindgen(js_name = runHeartbeats)]
    fn run_heartbeats(task: Task, io: &JsValue, on_status: &JsValue, signal: &JsValue, client: &JsValue) -> JsValue;
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
        let beats = Heartbeats::new(interval, super::call::date_now());
        let work = Work::Switch(crate::task::Task::new(Switch::new(beats, HEARTBEAT, heartbeat_answer)));
        // The switch holds its client's state weakly: the client's free stops it.
        let task = Task::new(&self.inner, work, false);
        Ok(run_heartbeats(task, &self.inner.io, &on_status, &call.signal, &client))
    }
}
