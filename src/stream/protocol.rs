//! The messages a client sends on the streaming channels, and where the channels are.

use super::index::Index;
use crate::api::{JsonWriter, Value};
use crate::error::Error;

/// The most assets (market channel) or markets (user channel) one call names.
pub const MAX_SUBSCRIBED: usize = 500;

/// The most assets (market channel) or markets (user channel) one stream follows in all. The service states no
/// limit; this keeps a stream's memory, its subscription message and the snapshots of a reconnection bounded.
pub const MAX_FOLLOWED: usize = 5_000;

/// The two channels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    Market,
    User,
}

impl Channel {
    pub const fn path(self) -> &'static str {
        match self {
            Self::Market => "/ws/market",
            Self::User => "/ws/user",
        }
    }
}

/// The channel's WebSocket URL under `base`: a `ws:`/`wss:` base as given, an `http:`/`https:` one (the
/// client's CLOB base URL) with its scheme changed. No credential ever goes in it.
pub fn socket_url(base: &str, channel: Channel) -> Result<String, Error> {
    let rest = if let Some(rest) = base.strip_prefix("https://") {
        ("wss://", rest)
    } else if let Some(rest) = base.strip_prefix("http://") {
        ("ws://", rest)
    } else if let Some(rest) = base.strip_prefix("wss://") {
        ("wss://", rest)
    } else if let Some(rest) = base.strip_prefix("ws://") {
        ("ws://", rest)
    } else {
        return Err(Error::invalid("wsBaseUrl", "must be an http(s) or ws(s) URL"));
    };
    let host = rest.1.trim_end_matches('/');
    if host.is_empty() || host.contains(['?', '#', ' ']) {
        return Err(Error::invalid("wsBaseUrl", "must be an http(s) or ws(s) URL without query or fragment"));
    }
    let mut url = String::with_capacity(rest.0.len() + host.len() + 10);
    url.push_str(rest.0);
    url.push_str(host);
    url.push_str(channel.path());
    Ok(url)
}

/// Asset ids (token ids) or market ids (condition ids) for a subscription, checked: an array of strings
/// of the channel's shape, at most [`MAX_SUBSCRIBED`].
pub fn ids(channel: Channel, value: &Value) -> Result<Vec<String>, Error> {
    let (param, rule) = match channel {
        Channel::Market => ("assetIds", "must be an array of token ids (decimal strings)"),
        Channel::User => ("markets", "must be an array of condition ids (0x and 64 hex digits)"),
    };
    let Value::Array(items) = value else { return Err(Error::invalid(param, rule)) };
    if items.len() > MAX_SUBSCRIBED {
        return Err(Error::invalid(param, "must list at most 500 ids"));
    }
    let mut out: Vec<String> = Vec::with_capacity(items.len());
    for item in items {
        let Value::Str(id) = item else { return Err(Error::invalid(param, rule)) };
        let ok = match channel {
            Channel::Market => !id.is_empty() && id.len() <= 100 && id.bytes().all(|b| b.is_ascii_digit()),
            Channel::User => crate::api::is_condition_id(id),
        };
        if !ok {
            return Err(Error::invalid(param, rule));
        }
        // (At most 500 ids: searching those kept is cheap.)
        if !out.contains(id) {
            out.push(id.clone());
        }
    }
    Ok(out)
}

/// The ids one stream follows, in the order they were first followed (the order of its subscription
/// message), with an index: adding `k` ids costs O(k) whatever the stream follows already, removing them O(n + k).
#[derive(Debug, Default)]
pub struct Followed {
    list: Vec<String>,
    index: Index,
}

impl Followed {
    /// Following `ids` (checked by [`ids`]: distinct, at most [`MAX_SUBSCRIBED`]).
    pub fn new(ids: Vec<String>) -> Self {
        let mut followed = Self::default();
        followed.apply(true, &ids);
        followed
    }

    pub fn list(&self) -> &[String] {
        &self.list
    }

    fn position(&self, id: &str) -> Option<usize> {
        self.index.find(id, &|at| self.list.get(at).map(String::as_str))
    }

    /// Which of `ids` (distinct) a subscription (`subscribe`) or an unsubscription changes: those not followed
    /// yet, or those followed, in the order given. A subscription that would make the stream follow more than
    /// [`MAX_FOLLOWED`] is refused whole (`INVALID_PARAMS`, nothing changes, nothing is sent).
    pub fn changes(&self, channel: Channel, subscribe: bool, ids: Vec<String>) -> Result<Vec<String>, Error> {
        let changed: Vec<String> = ids.into_iter().filter(|id| self.position(id).is_some() != subscribe).collect();
        if subscribe && self.list.len().saturating_add(changed.len()) > MAX_FOLLOWED {
            let param = match channel {
                Channel::Market => "assetIds",
                Channel::User => "markets",
            };
            return Err(Error::invalid(param, "a stream follows at most 5,000 ids in all (unsubscribe some first)"));
        }
        Ok(changed)
    }

    /// Follows (`subscribe`) or stops following `changed`, as [`Followed::changes`] decided.
    pub fn apply(&mut self, subscribe: bool, changed: &[String]) {
        if subscribe {
            for id in changed {
                if self.position(id).is_none() {
                    self.list.push(id.clone());
                    let list = &self.list;
                    self.index.insert(id, list.len() - 1, list.len(), &|at| list.get(at).map(String::as_str));
                }
            }
            return;
        }
        let mut gone = vec![false; self.list.len()];
        for id in changed {
            if let Some(slot) = self.position(id).and_then(|at| gone.get_mut(at)) {
                *slot = true;
            }
        }
        self.index.remove_marked(&mut self.list, &gone, String::as_str);
    }
}

/// The market channel's subscription: `{"type":"market","assets_ids":[…],"initial_dump":true,
/// "custom_feature_enabled":true}`.
pub fn market_subscription(assets: &[String]) -> String {
    let mut w = JsonWriter::object();
    w.field_str("type", "market");
    w.key("assets_ids");
    string_array(&mut w, assets);
    w.field_raw("initial_dump", "true");
    w.field_raw("custom_feature_enabled", "true");
    w.finish()
}

/// A change of a live market subscription: `{"operation":"subscribe"|"unsubscribe","assets_ids":[…]}`.
pub fn operation(subscribe: bool, assets: &[String]) -> String {
    let mut w = JsonWriter::object();
    w.field_str("operation", if subscribe { "subscribe" } else { "unsubscribe" });
    w.key("assets_ids");
    string_array(&mut w, assets);
    w.finish()
}

/// A change of a live user subscription: `{"operation":"subscribe"|"unsubscribe","markets":[…]}`.
pub fn user_operation(subscribe: bool, markets: &[String]) -> String {
    let mut w = JsonWriter::object();
    w.field_str("operation", if subscribe { "subscribe" } else { "unsubscribe" });
    w.key("markets");
    string_array(&mut w, markets);
    w.finish()
}

fn string_array(w: &mut JsonWriter, items: &[String]) {
    w.array_start();
    for item in items {
        w.str(item);
    }
    w.array_end();
}

#[cfg(test)]
mod tests {
    use super::*;

    const CID: &str = "0xdd22472e552920b8438158ea7238bfadfa4f736aa4cee91a6b86c39ead110917";

    fn strings(list: &[&str]) -> Value {
        Value::Array(list.iter().map(|s| Value::Str((*s).to_owned())).collect())
    }

    #[test]
    fn urls_of_the_channels() {
        let table = [
            ("http://127.0.0.1:8787", Channel::Market, "ws://127.0.0.1:8787/ws/market"),
            ("https://clob.example/", Channel::User, "wss://clob.example/ws/user"),
            ("wss://ws.example", Channel::Market, "wss://ws.example/ws/market"),
            ("ws://h:1/base", Channel::User, "ws://h:1/base/ws/user"),
        ];
        for (base, channel, url) in table {
            assert_eq!(socket_url(base, channel).unwrap(), url);
        }
        for bad in ["ftp://x", "", "http://", "http://h/?q", "h:1"] {
            assert_eq!(socket_url(bad, Channel::Market).unwrap_err().param.as_deref(), Some("wsBaseUrl"), "{bad}");
        }
    }

    #[test]
    fn subscriptions_in_the_services_shape() {
        let assets = ids(Channel::Market, &strings(&["1", "22", "1"])).unwrap();
        assert_eq!(assets, vec!["1", "22"]);
        assert_eq!(
            market_subscription(&assets),
            r#"{"type":"market","assets_ids":["1","22"],"initial_dump":true,"custom_feature_enabled":true}"#
        );
        assert_eq!(operation(true, &assets), r#"{"operation":"subscribe","assets_ids":["1","22"]}"#);
        assert_eq!(operation(false, &assets[..1]), r#"{"operation":"unsubscribe","assets_ids":["1"]}"#);
        assert_eq!(
            user_operation(true, &[CID.to_owned()]),
            format!(r#"{{"operation":"subscribe","markets":["{CID}"]}}"#)
        );
        let markets = ids(Channel::User, &strings(&[CID])).unwrap();
        let message = crate::auth::user_subscription(&markets, "key", "c2VjcmV0", "pass");
        assert_eq!(
            message.as_str(),
            format!(
                r#"{{"type":"user","markets":["{CID}"],"auth":{{"apiKey":"key","secret":"c2VjcmV0","passphrase":"pass"}}}}"#
            )
        );
    }

    #[test]
    fn ids_are_checked() {
        for (channel, bad) in [
            (Channel::Market, Value::Str("1".into())),
            (Channel::Market, strings(&["1", "x"])),
            (Channel::Market, strings(&[""])),
            (Channel::Market, Value::Array(vec![Value::Number(1.0)])),
            (Channel::User, strings(&["0x12"])),
            (Channel::User, strings(&["1"])),
        ] {
            assert!(ids(channel, &bad).is_err(), "{bad:?}");
        }
        let many = Value::Array((0..501).map(|i| Value::Str(i.to_string())).collect());
        assert!(ids(Channel::Market, &Value::Array(many_strings(0..500))).is_ok());
        assert!(ids(Channel::Market, &many).is_err());
        assert!(ids(Channel::Market, &Value::Array(vec![])).unwrap().is_empty());
    }

    fn many_strings(range: std::ops::Range<usize>) -> Vec<Value> {
        range.map(|i| Value::Str(i.to_string())).collect()
    }

    fn owned(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn what_a_subscription_changes() {
        let followed = Followed::new(owned(&["1", "2", "3"]));
        // (subscribe, ids, what changes)
        let table: [(bool, &[&str], &[&str]); 6] = [
            (true, &["4", "1", "5"], &["4", "5"]),
            (true, &["1", "2"], &[]),
            (true, &[], &[]),
            (false, &["2", "9", "3"], &["2", "3"]),
            (false, &["9"], &[]),
            (false, &["3", "2", "1"], &["3", "2", "1"]),
        ];
        for (subscribe, ids, changed) in table {
            assert_eq!(
                followed.changes(Channel::Market, subscribe, owned(ids)).unwrap(),
                owned(changed),
                "{subscribe} {ids:?}"
            );
        }
        let mut f = Followed::new(owned(&["1", "2", "3"]));
        f.apply(true, &owned(&["4", "5"]));
        f.apply(false, &owned(&["2", "4"]));
        f.apply(true, &owned(&["2"]));
        // The order of first following is kept: the subscription message lists the ids so.
        assert_eq!(f.list(), &owned(&["1", "3", "5", "2"])[..]);
    }

    #[test]
    fn a_stream_follows_at_most_max_followed() {
        let all: Vec<String> = (0..MAX_FOLLOWED + 600).map(|i| i.to_string()).collect();
        let mut f = Followed::new(all.get(..500).unwrap().to_vec());
        let mut at = 500;
        while at < MAX_FOLLOWED {
            let chunk = all.get(at..at + 500).unwrap().to_vec();
            let changed = f.changes(Channel::Market, true, chunk).unwrap();
            assert_eq!(changed.len(), 500);
            f.apply(true, &changed);
            at += 500;
        }
        assert_eq!(f.list().len(), MAX_FOLLOWED);
        // One more is refused whole, for either channel's name; ids already followed change nothing and pass.
        let one_more = all.get(MAX_FOLLOWED..MAX_FOLLOWED + 1).unwrap().to_vec();
        let e = f.changes(Channel::Market, true, one_more.clone()).unwrap_err();
        assert_eq!((e.code, e.param.as_deref()), (crate::error::ErrorCode::InvalidParams, Some("assetIds")));
        assert_eq!(f.changes(Channel::User, true, one_more.clone()).unwrap_err().param.as_deref(), Some("markets"));
        let mixed = [all.get(..499).unwrap(), &one_more[..]].concat();
        assert!(f.changes(Channel::Market, true, mixed).is_err(), "one new id beyond the bound refuses the call");
        assert!(f.changes(Channel::Market, true, all.get(..500).unwrap().to_vec()).unwrap().is_empty());
        // Unsubscribing is never bounded, and makes room.
        let out = f.changes(Channel::Market, false, all.get(..2).unwrap().to_vec()).unwrap();
        f.apply(false, &out);
        assert_eq!(
            f.changes(Channel::Market, true, all.get(MAX_FOLLOWED..MAX_FOLLOWED + 3).unwrap().to_vec())
                .unwrap_err()
                .code,
            crate::error::ErrorCode::InvalidParams
        );
        assert_eq!(
            f.changes(Channel::Market, true, all.get(MAX_FOLLOWED..MAX_FOLLOWED + 2).unwrap().to_vec()).unwrap().len(),
            2
        );
    }
}
