//! The value tree: a value as JavaScript passed it (decoded by the binding), or a JSON answer the core reads
//! (REST answers a machine needs, the wallet provider's). The ground floor: every layer reads it.

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
}
