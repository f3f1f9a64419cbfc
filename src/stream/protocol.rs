//! The messages a client sends on the streaming channels, and where the channels are.

use zeroize::Zeroizing;

use crate::api::{JsonWriter, Value};
use crate::error::Error;

/// The most assets (market channel) or markets (user channel) one stream follows.
pub const MAX_SUBSCRIBED: usize = 500;

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
        if !out.contains(id) {
            out.push(id.clone());
        }
    }
    Ok(out)
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

/// The user channel's subscription, which carries the credentials (the protocol's way): it is built
/// in memory that is zeroed when dropped, and sent only on the socket.
pub fn user_subscription(markets: &[String], api_key: &str, secret: &str, passphrase: &str) -> Zeroizing<String> {
    let mut w = JsonWriter::object();
    w.field_str("type", "user");
    w.key("markets");
    string_array(&mut w, markets);
    w.key("auth");
    w.object_start();
    w.field_str("apiKey", api_key);
    w.field_str("secret", secret);
    w.field_str("passphrase", passphrase);
    w.object_end();
    Zeroizing::new(w.finish())
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
        let message = user_subscription(&markets, "key", "c2VjcmV0", "pass");
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
        assert!(ids(Channel::Market, &many).is_err());
        assert!(ids(Channel::Market, &Value::Array(vec![])).unwrap().is_empty());
    }
}
