//! The rules of the client's and each call's options: which exist, their bounds and defaults. The binding
//! reads each option's value from JS (through its catching readers) and hands it here as a [`Value`];
//! everything decided about it is decided here. Functions, signals and callbacks are JS objects and are
//! checked by the binding (it only tests that they are what they must be).

use super::budget::{Bucket, Budgets, Limit};
use super::params::{Params, Value};
use crate::error::Error;

/// Default `timeoutMs` of a call: its budget wait, attempts and backoffs together.
pub const DEFAULT_TIMEOUT_MS: f64 = 15_000.0;
/// Default `maxRetries` of a failed idempotent request.
pub const DEFAULT_MAX_RETRIES: u32 = 2;
/// Requests of one client in flight at once. Browsers open a handful of connections per origin and fail
/// requests outright when thousands are pending; more than this gains nothing.
pub const DEFAULT_MAX_CONCURRENCY: u32 = 64;
/// `clockOffsetMs` is at most a day either way.
const MAX_CLOCK_OFFSET_MS: f64 = 86_400_000.0;

/// The client-wide settings of `new Client(options)` that calls share or override.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClientSettings {
    pub timeout_ms: f64,
    pub max_retries: u32,
    /// How long a request may wait for rate budget (`maxQueueMs`).
    pub max_queue_ms: f64,
    /// Requests in flight at once (`maxConcurrency`).
    pub max_concurrency: u32,
    /// Added to the local clock when signing (`clockOffsetMs`).
    pub clock_offset_ms: f64,
    /// How long one attempt of an idempotent request may take before it is abandoned and retried
    /// (`attemptTimeoutMs`; none: a third of the call's remaining time, at least 1 s: [`super::retry::attempt_timeout`]).
    pub attempt_timeout_ms: Option<f64>,
}

impl ClientSettings {
    /// Reads the settings through `option`, which gives the value of an option by name.
    pub fn read(option: &mut dyn FnMut(&'static str) -> Result<Value, Error>) -> Result<Self, Error> {
        Ok(ClientSettings {
            timeout_ms: milliseconds("timeoutMs", &option("timeoutMs")?)?.unwrap_or(DEFAULT_TIMEOUT_MS),
            max_retries: retries("maxRetries", &option("maxRetries")?)?.unwrap_or(DEFAULT_MAX_RETRIES),
            max_queue_ms: milliseconds("maxQueueMs", &option("maxQueueMs")?)?.unwrap_or(f64::INFINITY),
            max_concurrency: concurrency(&option("maxConcurrency")?)?,
            clock_offset_ms: clock_offset(&option("clockOffsetMs")?)?,
            attempt_timeout_ms: milliseconds("attemptTimeoutMs", &option("attemptTimeoutMs")?)?,
        })
    }
}

/// What a call's options (`{ signal, timeoutMs, maxRetries, extraQuery }`) change of the client's settings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CallSettings {
    pub timeout_ms: Option<f64>,
    pub max_retries: Option<u32>,
    pub attempt_timeout_ms: Option<f64>,
    /// Query parameters the interface does not list, added to every request of the call.
    pub extra_query: Params,
}

impl CallSettings {
    /// Reads a call's settings through `option` (the signal is the binding's to read).
    pub fn read(option: &mut dyn FnMut(&'static str) -> Result<Value, Error>) -> Result<Self, Error> {
        let extra_query = match option("extraQuery")? {
            Value::Undefined | Value::Null => Params::default(),
            Value::Object(fields) => Params(fields),
            _ => return Err(Error::invalid("extraQuery", "must be an object of query parameters")),
        };
        Ok(CallSettings {
            timeout_ms: milliseconds("timeoutMs", &option("timeoutMs")?)?,
            max_retries: retries("maxRetries", &option("maxRetries")?)?,
            attempt_timeout_ms: milliseconds("attemptTimeoutMs", &option("attemptTimeoutMs")?)?,
            extra_query,
        })
    }
}

/// A duration option: a positive number of milliseconds, or `Infinity`; absent is `None`.
pub fn milliseconds(name: &'static str, value: &Value) -> Result<Option<f64>, Error> {
    match value {
        Value::Undefined | Value::Null => Ok(None),
        Value::Number(ms) if *ms > 0.0 && (ms.is_finite() || *ms == f64::INFINITY) => Ok(Some(*ms)),
        _ => Err(Error::invalid(name, "must be a positive number of milliseconds (or Infinity)")),
    }
}

/// `maxRetries`: a whole number from 0 to 100; absent is `None`.
pub fn retries(name: &'static str, value: &Value) -> Result<Option<u32>, Error> {
    match value {
        Value::Undefined | Value::Null => Ok(None),
        Value::Number(n) if n.fract() == 0.0 && (0.0..=100.0).contains(n) => Ok(Some(*n as u32)),
        _ => Err(Error::invalid(name, "must be a whole number from 0 to 100")),
    }
}

/// `maxConcurrency`: a whole number from 1 to 10,000; absent is the default.
pub fn concurrency(value: &Value) -> Result<u32, Error> {
    match value {
        Value::Undefined | Value::Null => Ok(DEFAULT_MAX_CONCURRENCY),
        Value::Number(n) if n.fract() == 0.0 && (1.0..=10_000.0).contains(n) => Ok(*n as u32),
        _ => Err(Error::invalid("maxConcurrency", "must be a whole number from 1 to 10000")),
    }
}

/// `clockOffsetMs`: a number of milliseconds within a day either way; absent is 0.
pub fn clock_offset(value: &Value) -> Result<f64, Error> {
    match value {
        Value::Undefined | Value::Null => Ok(0.0),
        Value::Number(ms) if ms.is_finite() && ms.abs() <= MAX_CLOCK_OFFSET_MS => Ok(*ms),
        _ => Err(Error::invalid("clockOffsetMs", "must be a number of milliseconds within a day")),
    }
}

/// `rateLimits`: absent for the interface's §8 table, `false` for none, or per scope `{ requests,
/// windowMs }` or `false` over the defaults.
pub fn rate_limits(value: &Value) -> Result<Budgets, Error> {
    let scopes = match value {
        Value::Undefined | Value::Null => return Ok(Budgets::default()),
        Value::Bool(false) => return Ok(Budgets::unlimited()),
        Value::Object(scopes) => scopes,
        _ => return Err(Error::invalid("rateLimits", "must be false or an object of scopes")),
    };
    let mut budgets = Budgets::default();
    for (name, limit) in scopes {
        let Some(bucket) = Bucket::from_name(name) else {
            return Err(Error::invalid_owned(
                &crate::text::concat(&["rateLimits.", name]),
                "is not a rate-limit scope",
            ));
        };
        let limit = match limit {
            Value::Bool(false) => None,
            Value::Object(fields) => {
                let fields = Params(fields.clone());
                let number = |key| match fields.get(key) {
                    Value::Number(n) => *n,
                    _ => f64::NAN,
                };
                Some(Limit::new(number("requests"), number("windowMs"), "rateLimits")?)
            }
            _ => Some(Limit::new(f64::NAN, f64::NAN, "rateLimits")?),
        };
        budgets.set(bucket, limit);
    }
    Ok(budgets)
}

#[cfg(test)]
mod tests {
    use super::*;

    const N: fn(f64) -> Value = Value::Number;

    #[test]
    fn durations() {
        let table: [(Value, Result<Option<f64>, ()>); 9] = [
            (Value::Undefined, Ok(None)),
            (Value::Null, Ok(None)),
            (N(1.0), Ok(Some(1.0))),
            (N(2f64.powi(40)), Ok(Some(2f64.powi(40)))),
            (N(f64::INFINITY), Ok(Some(f64::INFINITY))),
            (N(0.0), Err(())),
            (N(-5.0), Err(())),
            (N(f64::NAN), Err(())),
            (Value::Str("100".into()), Err(())),
        ];
        for (value, want) in table {
            let got = milliseconds("timeoutMs", &value).map_err(|e| assert_eq!(e.param.as_deref(), Some("timeoutMs")));
            assert_eq!(got, want, "{value:?}");
        }
    }

    #[test]
    fn counts_concurrency_and_clock_offset() {
        assert_eq!(retries("maxRetries", &N(0.0)), Ok(Some(0)));
        assert_eq!(retries("maxRetries", &N(100.0)), Ok(Some(100)));
        for bad in [N(101.0), N(1.5), N(-1.0), Value::Bool(true)] {
            assert_eq!(retries("maxRetries", &bad).unwrap_err().param.as_deref(), Some("maxRetries"));
        }
        assert_eq!(concurrency(&Value::Undefined), Ok(DEFAULT_MAX_CONCURRENCY));
        assert_eq!(concurrency(&N(1.0)), Ok(1));
        assert_eq!(concurrency(&N(10_000.0)), Ok(10_000));
        for bad in [N(0.0), N(10_001.0), N(2.5), Value::Str("8".into())] {
            assert!(concurrency(&bad).is_err(), "{bad:?}");
        }
        assert_eq!(clock_offset(&Value::Undefined), Ok(0.0));
        assert_eq!(clock_offset(&N(-86_400_000.0)), Ok(-86_400_000.0));
        for bad in [N(86_400_001.0), N(f64::INFINITY), N(f64::NAN)] {
            assert!(clock_offset(&bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn client_settings_read_every_option_and_default_the_rest() {
        let mut none = |_: &'static str| Ok(Value::Undefined);
        let defaults = ClientSettings::read(&mut none).unwrap();
        assert_eq!(
            defaults,
            ClientSettings {
                timeout_ms: DEFAULT_TIMEOUT_MS,
                max_retries: DEFAULT_MAX_RETRIES,
                max_queue_ms: f64::INFINITY,
                max_concurrency: DEFAULT_MAX_CONCURRENCY,
                clock_offset_ms: 0.0,
                attempt_timeout_ms: None,
            }
        );
        let mut asked = Vec::new();
        let mut given = |name: &'static str| {
            asked.push(name);
            Ok(match name {
                "timeoutMs" => N(500.0),
                "maxRetries" => N(0.0),
                "maxQueueMs" => N(1_000.0),
                "maxConcurrency" => N(4.0),
                "clockOffsetMs" => N(-250.0),
                "attemptTimeoutMs" => N(2_000.0),
                _ => Value::Undefined,
            })
        };
        let set = ClientSettings::read(&mut given).unwrap();
        assert_eq!((set.timeout_ms, set.max_retries, set.max_queue_ms, set.max_concurrency), (500.0, 0, 1_000.0, 4));
        assert_eq!((set.clock_offset_ms, set.attempt_timeout_ms), (-250.0, Some(2_000.0)));
        assert_eq!(
            asked,
            ["timeoutMs", "maxRetries", "maxQueueMs", "maxConcurrency", "clockOffsetMs", "attemptTimeoutMs"]
        );
        let mut bad = |name: &'static str| Ok(if name == "maxQueueMs" { N(-1.0) } else { Value::Undefined });
        assert_eq!(ClientSettings::read(&mut bad).unwrap_err().param.as_deref(), Some("maxQueueMs"));
    }

    #[test]
    fn call_settings_override_only_what_they_name() {
        let mut none = |_: &'static str| Ok(Value::Undefined);
        assert_eq!(CallSettings::read(&mut none).unwrap(), CallSettings::default());
        let mut given = |name: &'static str| {
            Ok(match name {
                "timeoutMs" => N(f64::INFINITY),
                "extraQuery" => Value::Object(vec![("featured".into(), Value::Bool(true))]),
                _ => Value::Undefined,
            })
        };
        let call = CallSettings::read(&mut given).unwrap();
        assert_eq!(call.timeout_ms, Some(f64::INFINITY));
        assert_eq!(call.max_retries, None);
        assert_eq!(call.extra_query.get("featured"), &Value::Bool(true));
        let mut bad = |name: &'static str| Ok(if name == "extraQuery" { N(5.0) } else { Value::Undefined });
        assert_eq!(CallSettings::read(&mut bad).unwrap_err().param.as_deref(), Some("extraQuery"));
    }

    #[test]
    fn rate_limits_default_none_or_per_scope() {
        let object =
            |pairs: Vec<(&str, Value)>| Value::Object(pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect());
        assert!(rate_limits(&Value::Undefined).is_ok());
        assert!(rate_limits(&Value::Bool(false)).is_ok());
        let one = object(vec![("book", object(vec![("requests", N(5.0)), ("windowMs", N(1_000.0))]))]);
        assert!(rate_limits(&one).is_ok());
        assert!(rate_limits(&object(vec![("book", Value::Bool(false))])).is_ok());
        let unknown = rate_limits(&object(vec![("bok", Value::Bool(false))])).unwrap_err();
        assert_eq!(unknown.param.as_deref(), Some("rateLimits.bok"));
        for bad in [
            Value::Bool(true),
            N(5.0),
            object(vec![("book", N(5.0))]),
            object(vec![("book", object(vec![("requests", N(0.0)), ("windowMs", N(1_000.0))]))]),
            object(vec![("book", object(vec![("requests", N(5.0)), ("windowMs", N(86_400_001.0))]))]),
        ] {
            assert!(rate_limits(&bad).is_err(), "{bad:?}");
        }
    }
}
