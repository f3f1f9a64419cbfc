//! The user channel (`/ws/user`): its subscriptions (the credentials' check, the markets followed), the shapes of
//! its `order` and `trade` events, and their sending to the account's sockets.

use serde_json::{json, Value};

use super::faults::{deliver, Message};
use super::registry::Channel;
use super::{frame_text, Hub, State};
use crate::sync::lock;

/// The order events' `type`.
#[derive(Clone, Copy, Debug)]
pub enum OrderEventType {
    Placement,
    Update,
    Cancellation,
}

impl OrderEventType {
    pub fn as_str(self) -> &'static str {
        match self {
            OrderEventType::Placement => "PLACEMENT",
            OrderEventType::Update => "UPDATE",
            OrderEventType::Cancellation => "CANCELLATION",
        }
    }
}

/// A trade of the user channel.
pub struct TradeEvent<'a> {
    pub id: &'a str,
    pub taker_order_id: &'a str,
    pub market: &'a str,
    pub asset_id: &'a str,
    pub side: &'a str,
    /// Size and price as the service writes them ("10", "0.52").
    pub size: &'a str,
    pub price: &'a str,
    /// MATCHED, MINED, CONFIRMED, RETRYING or FAILED.
    pub status: &'a str,
    pub maker_orders: Vec<Value>,
    /// The API key of the account the event goes to.
    pub owner: &'a str,
    /// The API key of the trade's taker (`trade_owner`).
    pub trade_owner: &'a str,
    /// The trade's outcome label (the taker's token's).
    pub outcome: &'a str,
    /// Which of the trade's settlement buckets: the service writes it as a number or as its text, and so does
    /// this (odd trades as text).
    pub bucket_index: u32,
    /// The settlement transaction's hash (null while MATCHED: none was broadcast yet).
    pub transaction_hash: Option<&'a str>,
    /// When it is sent (the emulator's clock, ms).
    pub now_ms: u64,
}

impl TradeEvent<'_> {
    pub fn json(&self) -> Value {
        json!({
            "event_type": "trade", "id": self.id, "taker_order_id": self.taker_order_id, "market": self.market,
            "asset_id": self.asset_id, "side": self.side, "size": self.size, "price": self.price,
            "status": self.status, "maker_orders": self.maker_orders, "owner": self.owner,
            "trade_owner": self.trade_owner, "outcome": self.outcome, "transaction_hash": self.transaction_hash,
            "bucket_index": if self.id.bytes().map(u32::from).sum::<u32>() % 2 == 1 { json!(self.bucket_index.to_string()) } else { json!(self.bucket_index) },
            "matchtime": (self.now_ms / 1000).to_string(), "last_update": (self.now_ms / 1000).to_string(),
            "timestamp": self.now_ms.to_string(), "type": "TRADE",
        })
    }
}

impl Hub {
    /// Checks a user subscription's credentials against the accounts (and the created keys); on success the socket follows `markets`
    /// (all markets when empty).
    pub fn authenticate(&self, id: u64, api_key: &str, secret: &str, passphrase: &str, markets: &[String]) -> bool {
        let Some(account) = self.accounts.by_credentials(api_key, secret, passphrase) else { return false };
        let mut state = lock(&self.state);
        if let Some(socket) = state.sockets.get_mut(&id) {
            socket.account = Some(account);
            socket.markets = (!markets.is_empty()).then(|| markets.iter().map(|m| m.to_ascii_lowercase()).collect());
        }
        true
    }

    /// A user socket's `subscribe`/`unsubscribe` operation on markets (a socket that follows all markets
    /// keeps doing so).
    pub fn user_markets(&self, id: u64, subscribe: bool, markets: &[String]) {
        let mut state = lock(&self.state);
        let Some(socket) = state.sockets.get_mut(&id) else { return };
        if let Some(set) = socket.markets.as_mut() {
            for m in markets {
                if subscribe {
                    set.insert(m.to_ascii_lowercase());
                } else {
                    set.remove(&m.to_ascii_lowercase());
                }
            }
        }
    }

    /// Sends user-channel events (`(condition id, event)`) to the open user sockets of `account` that follow
    /// their markets: one frame per socket (an array when it holds several). Order placement and matching send
    /// theirs from [`Hub::trade`], in the same lock as the book changes.
    pub fn send_user(&self, account: usize, events: &[(String, Value)]) {
        if events.is_empty() {
            return;
        }
        let mut state = lock(&self.state);
        Self::send_user_in(&mut state, account, events);
    }

    pub(super) fn send_user_in(state: &mut State, account: usize, events: &[(String, Value)]) {
        let State { sockets, faults, .. } = state;
        for socket in sockets.values_mut() {
            if socket.channel != Channel::User || socket.account != Some(account) {
                continue;
            }
            let mine: Vec<String> = events
                .iter()
                .filter(|(market, _)| {
                    socket.markets.as_ref().is_none_or(|set| set.contains(&market.to_ascii_lowercase()))
                })
                .map(|(_, e)| e.to_string())
                .collect();
            if !mine.is_empty() {
                deliver(faults, socket, Message { dump: false, entries: false }, |_| frame_text(&mine, false));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trade_events_have_the_services_shape() {
        let t = TradeEvent {
            id: "t1",
            taker_order_id: "0x1",
            market: "0xm",
            asset_id: "7",
            side: "BUY",
            size: "10",
            price: "0.5",
            status: "MATCHED",
            maker_orders: vec![],
            owner: "key",
            trade_owner: "key",
            outcome: "Yes",
            bucket_index: 0,
            transaction_hash: None,
            now_ms: 1_700_000_000_000,
        };
        let v = t.json();
        assert_eq!(v["event_type"], "trade");
        assert_eq!(v["type"], "TRADE");
        assert!(v["timestamp"].as_str().unwrap().parse::<u64>().is_ok());
        assert!(v["transaction_hash"].is_null(), "no transaction while MATCHED");
        let _ = OrderEventType::Placement.as_str();
        let _ = OrderEventType::Update.as_str();
    }
}
