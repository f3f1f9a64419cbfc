//! The stream's admin knobs: the market channel's shapes (`POST /__admin/stream`), ticks that move a book now
//! (`POST /__admin/stream/tick`, routed with the other admin routes), and the list of the open sockets and the
//! live books (`GET /__admin/stream`).

use std::sync::atomic::Ordering;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State as Extract;
use serde::Deserialize;
use serde_json::{json, Value};

use super::live::TickError;
use super::registry::Channel;
use super::shapes::Shapes;
use super::Hub;
use crate::app::App;
use crate::params::{ok_json, ApiError, ApiResult};
use crate::sync::lock;
use crate::text::iso;

/// Most changes one admin tick applies.
pub const TICK_MAX: u64 = 100_000;

/// `POST /__admin/stream {"shapes": "real"|"exact"}`: the shapes the market channel sends from now on, until the
/// next reset (which restores `real`).
pub(super) async fn set_shapes(Extract(app): Extract<Arc<App>>, body: Bytes) -> ApiResult {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Body {
        shapes: Shapes,
    }
    let Body { shapes } = serde_json::from_slice(&body)
        .map_err(|e| ApiError::bad(format!("body must be {{\"shapes\": \"real\"|\"exact\"}}: {e}")))?;
    app.stream.set_shapes(shapes);
    ok_json(&json!({ "shapes": shapes }))
}

impl Hub {
    /// `POST /__admin/stream/tick`: `count` changes of `token` now, sent to its subscribers.
    pub fn tick(&self, token: &str, count: u64) -> Result<Value, TickError> {
        if !self.known(token) {
            return Err(TickError::UnknownAsset);
        }
        let mut state = lock(&self.state);
        let changes = vec![token.to_owned(); count as usize];
        let frames = self.frames(&mut state, &changes)?;
        let book = self.live(&mut state, token)?;
        Ok(json!({
            "asset_id": token, "hash": book.hash, "timestamp": book.timestamp.to_string(),
            "changes": count, "frames": frames,
        }))
    }

    /// `POST /__admin/stream/lifecycle`: a lifecycle event (`new_market` or `market_resolved`) of market `m` sent
    /// `times` times to every market socket that follows one of its tokens with `custom_feature_enabled`, as the
    /// service sends them (on every connection, more than once). Answers how many messages went out.
    pub fn lifecycle(&self, resolved: bool, m: usize, times: u32) -> usize {
        let Some(market) = self.catalog.markets.get(m) else { return 0 };
        let mut event = json!({
            "event_type": if resolved { "market_resolved" } else { "new_market" },
            "id": m.to_string(), "market": market.condition_id, "assets_ids": market.tokens,
            "outcomes": market.outcomes, "timestamp": self.clock.now_ms().to_string(),
        });
        if resolved {
            event["winning_asset_id"] = json!(market.tokens[0]);
            event["winning_outcome"] = json!(market.outcomes[0]);
        }
        let text = event.to_string();
        let mut state = lock(&self.state);
        let super::State { sockets, faults, .. } = &mut *state;
        let mut sent = 0;
        for socket in sockets.values_mut() {
            let follows = socket.channel == Channel::Market
                && socket.custom
                && market.tokens.iter().any(|t| socket.assets.contains(t));
            if !follows {
                continue;
            }
            for _ in 0..times {
                super::faults::deliver(faults, socket, super::faults::Message { dump: false, entries: false }, |_| {
                    text.clone()
                });
                sent += 1;
            }
        }
        sent
    }

    /// `POST /__admin/stream`: the shapes the market channel sends from now on (until the next reset).
    pub fn set_shapes(&self, shapes: Shapes) {
        lock(&self.state).shapes = shapes;
    }

    /// `GET /__admin/stream`: the open sockets and the live books.
    pub fn list(&self) -> Value {
        let state = lock(&self.state);
        let sockets: Vec<Value> = state
            .sockets
            .iter()
            .map(|(id, s)| {
                let mut v = json!({
                    "id": id, "channel": match s.channel { Channel::Market => "market", Channel::User => "user" },
                    "path": s.channel.path(), "opened_at": iso((s.opened_at / 1000) as i64),
                    "sent": s.stats.sent.load(Ordering::Relaxed), "received": s.stats.received.load(Ordering::Relaxed),
                    "faults": s.faults,
                });
                match s.channel {
                    Channel::Market => {
                        v["assets_ids"] = json!(s.assets);
                        v["custom_feature_enabled"] = json!(s.custom);
                    }
                    Channel::User => {
                        v["authenticated"] = json!(s.account.is_some());
                        v["account"] = json!(s.account.and_then(|a| self.accounts.get(a)).map(|a| a.address));
                        v["markets"] = match &s.markets {
                            Some(set) => json!(set),
                            None => json!("all"),
                        };
                    }
                }
                v
            })
            .collect();
        let mut live: Vec<&String> = state.live.keys().collect();
        live.sort();
        json!({ "stream_rate": self.rate, "shapes": state.shapes, "sockets": sockets, "live_books": live })
    }
}
