//! The options of `marketStream` and `userStream`, checked: a pure function over what the binding read.

use super::health::HealthPolicy;
use super::live::HashCheck;
use super::protocol::{self, Channel};
use crate::api::{Params, Value};
use crate::error::Error;

/// Options the binding reads itself, as JS objects (a constructor, a function, a signal).
pub const OBJECT_OPTIONS: [&str; 3] = ["WebSocket", "onEvent", "signal"];

/// A stream's settings, from its options and the client's CLOB base URL.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamSettings {
    /// The channel's WebSocket URL.
    pub url: String,
    pub verify: HashCheck,
    pub health: HealthPolicy,
}

/// Checks a stream's options (`wsBaseUrl`, `verify`, `stallAfterMs`, `pingEveryMs`, `pongWithinMs`, and the
/// names of the object options); an unknown name is refused, as a misspelt option would be ignored.
pub fn settings(channel: Channel, options: &Params, clob_base: &str) -> Result<StreamSettings, Error> {
    let mut base = clob_base;
    let mut verify = HashCheck::LastPerFrame;
    let mut health = HealthPolicy::default();
    for (name, value) in &options.0 {
        if value.is_absent() {
            continue;
        }
        match (name.as_str(), value) {
            ("wsBaseUrl", Value::Str(url)) => base = url,
            ("wsBaseUrl", _) => return Err(Error::invalid("wsBaseUrl", "must be a URL string")),
            ("verify", Value::Str(v)) if channel == Channel::Market => verify = HashCheck::parse(v)?,
            ("verify", _) if channel == Channel::Market => return Err(Error::invalid("verify", "must be \"entry\", \"frame\" or \"off\"")),
            ("stallAfterMs", v) => health.stall_after_ms = duration("stallAfterMs", v)?,
            ("pingEveryMs", v) => health.ping_every_ms = duration("pingEveryMs", v)?,
            ("pongWithinMs", v) => health.pong_within_ms = duration("pongWithinMs", v)?,
            (name, _) if OBJECT_OPTIONS.contains(&name) => {}
            (name, _) => {
                return Err(Error::invalid_owned(
                    name,
                    "is not an option of a stream (wsBaseUrl, WebSocket, onEvent, signal, verify, stallAfterMs, pingEveryMs, pongWithinMs)",
                ))
            }
        }
    }
    Ok(StreamSettings { url: protocol::socket_url(base, channel)?, verify, health })
}

/// A duration option: at least 100 ms, or `Infinity`.
fn duration(param: &'static str, value: &Value) -> Result<f64, Error> {
    match value {
        Value::Number(ms) if *ms >= 100.0 => Ok(*ms),
        _ => Err(Error::invalid(param, "must be at least 100 milliseconds (or Infinity)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(pairs: &[(&str, Value)]) -> Params {
        Params(pairs.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect())
    }

    #[test]
    fn defaults_and_each_option() {
        let s = settings(Channel::Market, &Params::default(), "http://127.0.0.1:8787").unwrap();
        assert_eq!(
            s,
            StreamSettings {
                url: "ws://127.0.0.1:8787/ws/market".into(),
                verify: HashCheck::LastPerFrame,
                health: HealthPolicy::default()
            }
        );
        let s = settings(
            Channel::Market,
            &params(&[
                ("wsBaseUrl", Value::Str("wss://stream.example".into())),
                ("verify", Value::Str("entry".into())),
                ("stallAfterMs", Value::Number(f64::INFINITY)),
                ("pingEveryMs", Value::Number(200.0)),
                ("pongWithinMs", Value::Number(1_000.0)),
                ("WebSocket", Value::Other),
                ("onEvent", Value::Other),
                ("signal", Value::Object(vec![])),
                ("skipped", Value::Undefined),
            ]),
            "http://h",
        )
        .unwrap();
        assert_eq!(s.url, "wss://stream.example/ws/market");
        assert_eq!(s.verify, HashCheck::EveryEntry);
        assert_eq!(
            (s.health.stall_after_ms, s.health.ping_every_ms, s.health.pong_within_ms),
            (f64::INFINITY, 200.0, 1_000.0)
        );
        assert_eq!(settings(Channel::User, &Params::default(), "https://h/").unwrap().url, "wss://h/ws/user");
    }

    #[test]
    fn refusals_name_the_option() {
        let table: &[(Channel, &str, Value)] = &[
            (Channel::Market, "wsBaseUrl", Value::Number(1.0)),
            (Channel::Market, "wsBaseUrl", Value::Str("ftp://x".into())),
            (Channel::Market, "verify", Value::Str("always".into())),
            (Channel::Market, "verify", Value::Bool(true)),
            (Channel::Market, "stallAfterMs", Value::Number(99.0)),
            (Channel::Market, "pingEveryMs", Value::Number(f64::NAN)),
            (Channel::Market, "pongWithinMs", Value::Str("1000".into())),
            (Channel::Market, "stalAfterMs", Value::Number(1_000.0)),
            // The user channel has no books to verify.
            (Channel::User, "verify", Value::Str("entry".into())),
        ];
        for (channel, name, value) in table {
            let e = settings(*channel, &params(&[(name, value.clone())]), "http://h").unwrap_err();
            assert_eq!(e.param.as_deref(), Some(*name), "{name} {value:?}");
        }
    }
}
