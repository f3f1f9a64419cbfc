//! Parameters as the caller passed them (JS-like values), checked against each endpoint's table of rules
//! (interface §4) before anything is sent.

use std::borrow::Cow;

use crate::error::Error;
use crate::text::{concat, decimal, signed};

/// Largest integer a JavaScript number holds exactly.
pub const MAX_SAFE_INT: i64 = 9_007_199_254_740_991;
/// Nesting of arrays and objects accepted in a parameter value.
const MAX_VALUE_DEPTH: u32 = 4;

#[cfg(test)]
pub(crate) use crate::json::from_json;
pub use crate::json::Value;

impl Value {
    /// Bounds the nesting of arrays and objects so that no input can make validation recurse deeply.
    pub fn depth_ok(&self, depth: u32) -> bool {
        match self {
            Value::Array(items) => depth < MAX_VALUE_DEPTH && items.iter().all(|v| v.depth_ok(depth + 1)),
            Value::Object(fields) => depth < MAX_VALUE_DEPTH && fields.iter().all(|(_, v)| v.depth_ok(depth + 1)),
            _ => true,
        }
    }
}

/// A params object: its own enumerable keys, in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Params(pub Vec<(String, Value)>);

impl Params {
    pub fn get(&self, name: &str) -> &Value {
        self.0.iter().rev().find(|(k, _)| k == name).map_or(&Value::Undefined, |(_, v)| v)
    }

    /// Sets (or replaces) one parameter, as the pager does with `offset` and `next_cursor`.
    pub fn set(&mut self, name: &str, value: Value) {
        self.0.retain(|(k, _)| k != name);
        self.0.push((name.to_owned(), value));
    }
}

/// What a parameter's value must be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// A whole number in `min..=max`.
    Int {
        min: i64,
        max: i64,
    },
    /// A finite number `>= min`.
    Number {
        min: f64,
    },
    Bool,
    /// A non-empty string of at most `max` characters.
    Str {
        max: usize,
    },
    /// One of the listed strings.
    Enum(&'static [&'static str]),
    /// A wallet address: `0x` and 40 hex digits.
    Address,
    /// Condition ids (`0x` and 64 hex digits), as an array or one string; sent comma-joined.
    ConditionIds,
    /// A decimal token id.
    TokenId,
}

/// One parameter of an endpoint.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Param {
    pub name: &'static str,
    pub kind: Kind,
    pub required: bool,
}

pub const fn opt(name: &'static str, kind: Kind) -> Param {
    Param { name, kind, required: false }
}

pub const fn req(name: &'static str, kind: Kind) -> Param {
    Param { name, kind, required: true }
}

/// Strings the interface leaves unbounded are still bounded, so that no call builds an absurd URL.
pub const TEXT: Kind = Kind::Str { max: 1000 };
pub const NON_NEGATIVE: Kind = Kind::Int { min: 0, max: MAX_SAFE_INT };

/// Checks `params` against `table` and returns the query pairs in the table's order.
/// Unknown names are refused too: a misspelt filter would otherwise be silently ignored.
pub fn query(table: &[Param], params: &Params) -> Result<Vec<(&'static str, String)>, Error> {
    for (name, value) in &params.0 {
        if !value.is_absent() && !table.iter().any(|p| p.name == name) {
            return Err(Error::invalid_owned(name, "is not a parameter of this call"));
        }
    }
    let mut out = Vec::with_capacity(table.len());
    for param in table {
        let value = params.get(param.name);
        if value.is_absent() {
            if param.required {
                return Err(Error::invalid(param.name, "is required"));
            }
            continue;
        }
        out.push((param.name, check(param.name, param.kind, value)?));
    }
    Ok(out)
}

/// One value checked against its kind, as its query-string text.
pub fn check(name: &'static str, kind: Kind, value: &Value) -> Result<String, Error> {
    match (kind, value) {
        (Kind::Int { min, max }, Value::Number(n)) => {
            if n.fract() != 0.0 || !n.is_finite() {
                return Err(Error::invalid(name, "must be a whole number"));
            }
            if *n < min as f64 || *n > max as f64 {
                return Err(Error::invalid_range(name, min, max));
            }
            Ok(signed(*n as i64))
        }
        (Kind::Int { .. }, _) => Err(Error::invalid(name, "must be a whole number")),
        (Kind::Number { min }, Value::Number(n)) if n.is_finite() => {
            if *n < min {
                return Err(Error::invalid(name, "must be at least 0"));
            }
            decimal_text(*n).ok_or_else(|| Error::invalid(name, "must be below 10^15"))
        }
        (Kind::Number { .. }, _) => Err(Error::invalid(name, "must be a finite number")),
        (Kind::Bool, Value::Bool(b)) => Ok(if *b { "true" } else { "false" }.to_owned()),
        (Kind::Bool, _) => Err(Error::invalid(name, "must be true or false")),
        (Kind::Str { max }, Value::Str(s)) => {
            if s.is_empty() {
                return Err(Error::invalid(name, "must not be empty"));
            }
            if s.chars().count() > max {
                return Err(Error::invalid_owned(
                    name,
                    &concat(&["must be at most ", &decimal(max as u64), " characters"]),
                ));
            }
            Ok(s.clone())
        }
        (Kind::Str { .. }, _) => Err(Error::invalid(name, "must be a string")),
        (Kind::Enum(allowed), Value::Str(s)) if allowed.contains(&s.as_str()) => Ok(s.clone()),
        (Kind::Enum(allowed), _) => Err(Error::invalid_owned(name, &one_of(allowed))),
        (Kind::Address, Value::Str(s)) if is_address(s) => Ok(s.clone()),
        (Kind::Address, _) => Err(Error::invalid(name, "must be a wallet address: 0x and 40 hex digits")),
        (Kind::TokenId, Value::Str(s)) => token_id(name, s).map(str::to_owned),
        (Kind::TokenId, _) => Err(Error::invalid(name, "must be a decimal token id string")),
        (Kind::ConditionIds, Value::Str(s)) => condition_ids(name, s.split(',')),
        (Kind::ConditionIds, Value::Array(items)) => {
            let mut ids = Vec::with_capacity(items.len());
            for item in items {
                match item {
                    Value::Str(s) => ids.push(s.as_str()),
                    _ => return Err(Error::invalid(name, "must be an array of condition id strings")),
                }
            }
            condition_ids(name, ids.into_iter())
        }
        (Kind::ConditionIds, _) => Err(Error::invalid(name, "must be an array of condition ids")),
    }
}

/// A non-negative amount as decimal text with at most six decimals (the service's amounts have six).
/// Written by hand because the formatting of arbitrary floats would cost the wasm several kilobytes.
pub fn decimal_text(n: f64) -> Option<String> {
    if !(0.0..1e15).contains(&n) {
        return None;
    }
    let mut whole = n.trunc() as u64;
    let mut frac = ((n - n.trunc()) * 1e6).round() as u64;
    if frac >= 1_000_000 {
        whole += 1;
        frac -= 1_000_000;
    }
    let mut text = decimal(whole);
    if frac != 0 {
        let mut digits = 6;
        while frac % 10 == 0 {
            frac /= 10;
            digits -= 1;
        }
        text.push('.');
        let frac = decimal(frac);
        for _ in frac.len()..digits {
            text.push('0');
        }
        text.push_str(&frac);
    }
    Some(text)
}

fn one_of(allowed: &[&str]) -> String {
    let mut text = String::from("must be one of ");
    for (i, a) in allowed.iter().enumerate() {
        if i > 0 {
            text.push_str(", ");
        }
        text.push('"');
        text.push_str(a);
        text.push('"');
    }
    text
}

fn condition_ids<'a>(name: &'static str, ids: impl Iterator<Item = &'a str>) -> Result<String, Error> {
    let mut joined = String::new();
    for id in ids {
        if !is_condition_id(id) {
            return Err(Error::invalid(name, "must list condition ids: 0x and 64 hex digits each"));
        }
        if !joined.is_empty() {
            joined.push(',');
        }
        joined.push_str(id);
    }
    if joined.is_empty() {
        return Err(Error::invalid(name, "must list at least one condition id"));
    }
    Ok(joined)
}

fn hex_after_0x(s: &str, digits: usize) -> bool {
    s.strip_prefix("0x").is_some_and(|h| h.len() == digits && h.bytes().all(|b| b.is_ascii_hexdigit()))
}

pub fn is_address(s: &str) -> bool {
    hex_after_0x(s, 40)
}

pub fn is_condition_id(s: &str) -> bool {
    hex_after_0x(s, 64)
}

/// Token ids are decimal strings (70 to 78 digits in practice); anything else cannot name a token.
pub fn token_id<'a>(name: &'static str, value: &'a str) -> Result<&'a str, Error> {
    if value.is_empty() {
        return Err(Error::invalid(name, "must not be empty"));
    }
    if value.len() > 100 || !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Error::invalid(name, "must be a decimal token id of at most 100 digits"));
    }
    Ok(value)
}

/// A required string path parameter, non-empty and bounded. `.` and `..` are refused: percent-encoding
/// leaves dots as they are, so either would make the URL name another route (`/comments/..` is `/`), and
/// so are control characters, which no id or slug holds.
pub fn path_text<'a>(name: &'static str, value: &'a str) -> Result<&'a str, Error> {
    if value.is_empty() {
        return Err(Error::invalid(name, "must not be empty"));
    }
    if value.chars().count() > 1000 {
        return Err(Error::invalid(name, "must be at most 1000 characters"));
    }
    if value == "." || value == ".." {
        return Err(Error::invalid(name, "must not be \".\" or \"..\" (it would name another route)"));
    }
    if value.chars().any(char::is_control) {
        return Err(Error::invalid(name, "must not contain control characters"));
    }
    Ok(value)
}

impl Error {
    /// `INVALID_PARAMS` for a parameter whose name or rule is only known at run time.
    pub fn invalid_owned(param: &str, rule: &str) -> Self {
        let mut e = Error::invalid("", "");
        e.message = Cow::Owned(concat(&[param, ": ", rule]));
        e.param = Some(Cow::Owned(param.to_owned()));
        e
    }

    fn invalid_range(param: &'static str, min: i64, max: i64) -> Self {
        let rule = if max == MAX_SAFE_INT {
            concat(&["must be at least ", &signed(min)])
        } else {
            concat(&["must be from ", &signed(min), " to ", &signed(max)])
        };
        Self::invalid_owned(param, &rule)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &[Param] = &[
        opt("limit", Kind::Int { min: 1, max: 100 }),
        opt("active", Kind::Bool),
        req("user", Kind::Address),
        opt("side", Kind::Enum(&["BUY", "SELL"])),
        opt("market", Kind::ConditionIds),
        opt("title", Kind::Str { max: 3 }),
        opt("amount", Kind::Number { min: 0.0 }),
    ];
    const USER: &str = "0x56687bf447db6ffa42ffe2204a05edaa20f55839";
    const CID: &str = "0xdd22472e552920b8438158ea7238bfadfa4f736aa4cee91a6b86c39ead110917";

    fn params(pairs: &[(&str, Value)]) -> Params {
        Params(pairs.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect())
    }

    fn user() -> (&'static str, Value) {
        ("user", Value::Str(USER.into()))
    }

    #[test]
    fn builds_the_query_in_table_order() {
        let p = params(&[
            ("side", Value::Str("BUY".into())),
            user(),
            ("limit", Value::Number(100.0)),
            ("active", Value::Bool(false)),
            ("market", Value::Array(vec![Value::Str(CID.into()), Value::Str(CID.into())])),
            ("amount", Value::Number(2.5)),
            ("title", Value::Undefined),
        ]);
        let q = query(TABLE, &p).unwrap();
        let names: Vec<_> = q.iter().map(|(k, _)| *k).collect();
        assert_eq!(names, ["limit", "active", "user", "side", "market", "amount"]);
        assert_eq!(q[0].1, "100");
        assert_eq!(q[1].1, "false");
        assert_eq!(q[4].1, format!("{CID},{CID}"));
        assert_eq!(q[5].1, "2.5");
    }

    #[test]
    #[allow(clippy::type_complexity)]
    fn every_rule_is_enforced_and_named() {
        let cases: Vec<(Vec<(&str, Value)>, &str, &str)> = vec![
            (vec![], "user", "user: is required"),
            (vec![user(), ("limit", Value::Number(0.0))], "limit", "limit: must be from 1 to 100"),
            (vec![user(), ("limit", Value::Number(101.0))], "limit", "limit: must be from 1 to 100"),
            (vec![user(), ("limit", Value::Number(1.5))], "limit", "limit: must be a whole number"),
            (vec![user(), ("limit", Value::Str("5".into()))], "limit", "limit: must be a whole number"),
            (vec![user(), ("limit", Value::Number(f64::NAN))], "limit", "limit: must be a whole number"),
            (vec![user(), ("active", Value::Str("true".into()))], "active", "active: must be true or false"),
            (vec![("user", Value::Str("0x12".into()))], "user", "user: must be a wallet address: 0x and 40 hex digits"),
            (vec![user(), ("side", Value::Str("buy".into()))], "side", "side: must be one of \"BUY\", \"SELL\""),
            (vec![user(), ("market", Value::Array(vec![]))], "market", "market: must list at least one condition id"),
            (
                vec![user(), ("market", Value::Str("0xabc".into()))],
                "market",
                "market: must list condition ids: 0x and 64 hex digits each",
            ),
            (
                vec![user(), ("market", Value::Array(vec![Value::Number(1.0)]))],
                "market",
                "market: must be an array of condition id strings",
            ),
            (vec![user(), ("title", Value::Str("abcd".into()))], "title", "title: must be at most 3 characters"),
            (vec![user(), ("title", Value::Str("".into()))], "title", "title: must not be empty"),
            (vec![user(), ("amount", Value::Number(-0.5))], "amount", "amount: must be at least 0"),
            (vec![user(), ("amount", Value::Number(f64::INFINITY))], "amount", "amount: must be a finite number"),
            (vec![user(), ("limt", Value::Number(5.0))], "limt", "limt: is not a parameter of this call"),
            (vec![user(), ("side", Value::Other)], "side", "side: must be one of \"BUY\", \"SELL\""),
        ];
        for (pairs, param, message) in cases {
            let err = query(TABLE, &params(&pairs)).unwrap_err();
            assert_eq!(err.param.as_deref(), Some(param), "{pairs:?}");
            assert_eq!(err.message, message);
        }
    }

    #[test]
    fn edges_are_inclusive_and_null_means_absent() {
        for limit in [1.0, 100.0] {
            assert!(query(TABLE, &params(&[user(), ("limit", Value::Number(limit))])).is_ok());
        }
        assert!(query(TABLE, &params(&[user(), ("title", Value::Str("abc".into()))])).is_ok());
        assert!(query(TABLE, &params(&[user(), ("title", Value::Str("éèê".into()))])).is_ok());
        let q = query(TABLE, &params(&[user(), ("limit", Value::Null), ("nope", Value::Undefined)])).unwrap();
        assert_eq!(q.len(), 1);
    }

    #[test]
    fn amounts_are_written_with_six_decimals_at_most() {
        let table = [
            (0.0, "0"),
            (2.5, "2.5"),
            (10_000.0, "10000"),
            (0.000001, "0.000001"),
            (0.1, "0.1"),
            (1.05, "1.05"),
            (123.4567891, "123.456789"),
            (0.0000004, "0"),
            (0.9999999, "1"),
            (999_999_999_999_999.0, "999999999999999"),
        ];
        for (n, want) in table {
            assert_eq!(decimal_text(n).as_deref(), Some(want), "{n}");
        }
        assert_eq!(decimal_text(1e15), None);
        assert_eq!(decimal_text(-1.0), None);
    }

    #[test]
    fn array_depth_is_bounded() {
        let mut v = Value::Str("x".into());
        for _ in 0..10 {
            v = Value::Array(vec![v]);
        }
        assert!(!v.depth_ok(0));
        assert!(Value::Array(vec![Value::Array(vec![])]).depth_ok(0));
    }
}
