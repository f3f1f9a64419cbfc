//! `POST /v1/heartbeats`: the service's dead-man switch. An API key that has sent a heartbeat must send the next
//! within 10 s, naming the id the last answer gave, or all its orders are cancelled (with CANCELLATION events on its
//! user channel) and its chain ends.
//!
//! Sources (the upstream clients, never the library): Polymarket/clob-client-v2 `postHeartbeat` (L2 headers, the
//! body `{"heartbeat_id": id}`, the answer `{"heartbeat_id", "error_msg"?}`); the unified SDKs' `order-heartbeats`
//! docs ("Start with an empty ID, serialize sends, and retain each returned ID. Send every five seconds; missing the
//! ten-second deadline triggers cancellation of this API key's orders"); their mismatch test: a 400
//! `{"error_msg": "Invalid Heartbeat ID", "heartbeat_id": "<currently expected id>"}`; rs-clob-client-v2 sends
//! `null` for the first id. The public CLOB OpenAPI document (kuest) has `heartbeat_id` nullable.
//!
//! The deadline runs on the emulator's clock (`crate::clock`: `POST /__admin/clock` moves it), checked at every
//! heartbeat and by a watcher four times a second.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use serde_json::{json, Value};

use crate::app::App;
use crate::params::{json_text, ok_json, ApiError, ApiResult};
use crate::signed::Signed;
use crate::sync::lock;

/// No heartbeat for this long, and the key's orders are cancelled.
pub const DEADLINE_MS: u64 = 10_000;
/// The service's text for an id that is not the one expected.
pub const INVALID_ID: &str = "Invalid Heartbeat ID";

/// Each API key's chain: the id it must send next and when it last sent one (the emulator's clock, ms).
#[derive(Default)]
pub struct Chains(Mutex<HashMap<usize, Chain>>);

struct Chain {
    expected: String,
    last_ms: u64,
    /// Heartbeats accepted in this chain, to make its ids.
    count: u64,
}

impl Chains {
    pub fn reset(&self) {
        lock(&self.0).clear();
    }

    /// Takes `id` from `account` at `now_ms`: the next id, or the one the chain expects.
    fn beat(&self, account: usize, id: &str, now_ms: u64) -> Result<String, String> {
        let mut chains = lock(&self.0);
        let expected = chains.get(&account).map(|c| c.expected.clone()).unwrap_or_default();
        if id != expected {
            return Err(expected);
        }
        let count = chains.get(&account).map_or(0, |c| c.count) + 1;
        let next = next_id(account, now_ms, count);
        chains.insert(account, Chain { expected: next.clone(), last_ms: now_ms, count });
        Ok(next)
    }

    /// The accounts whose deadline passed at `now_ms`; their chains end.
    fn lapsed(&self, now_ms: u64) -> Vec<usize> {
        let mut chains = lock(&self.0);
        let lapsed: Vec<usize> =
            chains.iter().filter(|(_, c)| now_ms.saturating_sub(c.last_ms) >= DEADLINE_MS).map(|(a, _)| *a).collect();
        for account in &lapsed {
            chains.remove(account);
        }
        lapsed
    }
}

/// A chain's next id: UUID-shaped, from the account, the time and the count (unguessable enough for an emulator).
fn next_id(account: usize, now_ms: u64, count: u64) -> String {
    let mut data = Vec::with_capacity(24);
    data.extend_from_slice(&(account as u64).to_be_bytes());
    data.extend_from_slice(&now_ms.to_be_bytes());
    data.extend_from_slice(&count.to_be_bytes());
    let hash = alloy_primitives::keccak256(&data);
    let mut bytes = [0; 16];
    bytes.copy_from_slice(&hash[..16]);
    uuid::Uuid::from_bytes(bytes).to_string()
}

/// Cancels the orders of every key whose heartbeats stopped.
pub(crate) fn lapse(app: &App) {
    for account in app.trading.heartbeats.lapsed(app.clock.now_ms()) {
        super::cancel::all(app, account);
    }
}

/// Checks the deadlines four times a second, so that orders go when the heartbeats stop, asked or not.
pub(crate) async fn watch(app: Arc<App>) {
    let mut tick = tokio::time::interval(Duration::from_millis(250));
    loop {
        tick.tick().await;
        lapse(&app);
    }
}

/// `POST /v1/heartbeats` `{"heartbeat_id": id}` (`""`, `null` or absent to start a chain).
pub(crate) async fn post(State(app): State<Arc<App>>, Signed { account, body }: Signed) -> ApiResult {
    lapse(&app);
    let value: Value = serde_json::from_slice(&body).map_err(|_| ApiError::bad("the body must be a JSON object"))?;
    let id = match value.get("heartbeat_id") {
        _ if !value.is_object() => return Err(ApiError::bad("the body must be a JSON object")),
        None | Some(Value::Null) => "",
        Some(Value::String(id)) => id.as_str(),
        Some(_) => return Err(ApiError::bad("heartbeat_id must be a string")),
    };
    match app.trading.heartbeats.beat(account, id, app.clock.now_ms()) {
        Ok(next) => ok_json(&json!({ "heartbeat_id": next })),
        Err(expected) => Ok(json_text(
            StatusCode::BAD_REQUEST,
            json!({ "error_msg": INVALID_ID, "heartbeat_id": expected }).to_string(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chain_takes_the_id_it_gave_and_lapses_after_the_deadline() {
        let chains = Chains::default();
        let first = chains.beat(7, "", 1_000).unwrap();
        assert_eq!(chains.beat(7, "", 2_000), Err(first.clone()), "a chain is running: its id, not a new start");
        assert_eq!(chains.beat(7, "wrong", 2_000), Err(first.clone()));
        let second = chains.beat(7, &first, 2_000).unwrap();
        assert_ne!(second, first);
        assert_eq!(chains.beat(8, "", 2_000).map(|_| ()), Ok(()), "each key has its own chain");
        assert!(chains.lapsed(11_999).is_empty(), "9,999 ms after the last: alive");
        let mut lapsed = chains.lapsed(12_000);
        lapsed.sort_unstable();
        assert_eq!(lapsed, vec![7, 8]);
        // Lapsed: a new chain starts from "".
        assert_eq!(chains.beat(7, &second, 12_500), Err(String::new()));
        assert!(chains.beat(7, "", 12_500).is_ok());
    }
}
