//! The value tree: a value as JavaScript passed it (decoded by the binding), or a JSON answer the core reads
//! (REST answers a machine needs, the wallet provider's). The ground floor: every layer reads it.

use super::Scanner;
use crate::error::Error;

/// A value as JavaScript passed it, decoded by the binding.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Undefined,
    Null,
    Bool(bool),
    Number(f64),
    Str(String),
    Array(Vec<Value>),
    /// A plain object's own enumerable properties, in order.
    Object(Vec<(String, Value)>),
    /// A function, symbol or bigint: never a valid parameter value here.
    Other,
}

/// A JSON text as the binding hands values in (for tests).
#[cfg(test)]
pub(crate) fn from_json(json: &str) -> Value {
    fn conv(v: serde_json::Value) -> Value {
        match v {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(b),
            serde_json::Value::Number(n) => Value::Number(n.as_f64().unwrap_or(f64::NAN)),
            serde_json::Value::String(s) => Value::Str(s),
            serde_json::Value::Array(a) => Value::Array(a.into_iter().map(conv).collect()),
            serde_json::Value::Object(o) => Value::Object(o.into_iter().map(|(k, v)| (k, conv(v))).collect()),
        }
    }
    conv(serde_json::from_str(json).unwrap_or(serde_json::Value::Null))
}

impl Value {
    /// An object's own field (the last of that name, as `Params::get` reads one); None for anything else.
    pub fn field(&self, name: &str) -> Option<&Value> {
        let Value::Object(fields) = self else { return None };
        fields.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v)
    }

    pub fn is_absent(&self) -> bool {
        matches!(self, Value::Undefined | Value::Null)
    }

    /// A JSON answer as a value tree (at most `crate::bounds::MAX_VALUES` values, nested at most
    /// `super::MAX_DEPTH` deep). Numbers are kept as their text, exact (and the wasm needs no float parser): the
    /// readers of answers take a number's text where they take a number.
    pub fn parse(bytes: &[u8]) -> Result<Value, Error> {
        let mut scanner = Scanner::new(bytes);
        let mut budget = crate::bounds::MAX_VALUES;
        let value = read(&mut scanner, &mut budget)?;
        scanner.finish()?;
        Ok(value)
    }
}

fn read(s: &mut Scanner<'_>, budget: &mut u32) -> Result<Value, Error> {
    *budget = budget.checked_sub(1).ok_or_else(|| Error::decode("the answer holds too many values"))?;
    Ok(match s.peek_kind() {
        Some(b'{') => {
            let mut fields = Vec::new();
            s.object(|s, key| {
                let key = super::unescape(key)?;
                fields.push((key, read(s, budget)?));
                Ok(())
            })?;
            Value::Object(fields)
        }
        Some(b'[') => {
            let mut items = Vec::new();
            s.array(|s| {
                items.push(read(s, budget)?);
                Ok(())
            })?;
            Value::Array(items)
        }
        Some(b'"') => Value::Str(s.string()?.into_owned()),
        Some(b't' | b'f') => Value::Bool(s.bool()?),
        Some(b'n') if s.null() => Value::Null,
        _ => Value::Str(String::from_utf8_lossy(s.number_raw()?).into_owned()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_reads_into_its_tree_numbers_as_their_text() {
        let v = Value::parse(br#" {"a":[1,-2.5e3,"x\u0041"],"b":{"c":true,"d":null},"e\n":false} "#).unwrap();
        let s = |t: &str| Value::Str(t.into());
        assert_eq!(
            v,
            Value::Object(vec![
                ("a".into(), Value::Array(vec![s("1"), s("-2.5e3"), s("xA")])),
                ("b".into(), Value::Object(vec![("c".into(), Value::Bool(true)), ("d".into(), Value::Null)])),
                ("e\n".into(), Value::Bool(false)),
            ])
        );
        for bad in ["", "{", "[1,]", "{\"a\"}", "nul", "1 2", "\"x", "[-]"] {
            assert!(Value::parse(bad.as_bytes()).is_err(), "{bad}");
        }
        let deep = "[".repeat(100) + &"]".repeat(100);
        assert!(Value::parse(deep.as_bytes()).is_err(), "too deep");
    }
}
