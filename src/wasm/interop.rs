//! Every conversion between JavaScript values and the core's types, in one place.

use std::future::Future;
use std::pin::Pin;

use js_sys::{Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::api::{Params, Value};
use crate::error::Error;

/// Nesting read from a params value; deeper values are left as `Value::Other`, which every rule refuses.
const MAX_DEPTH: u32 = 4;

/// A JS value as the core's [`Value`].
pub fn to_value(value: &JsValue) -> Value {
    to_value_at(value, 0)
}

fn to_value_at(value: &JsValue, depth: u32) -> Value {
    if value.is_undefined() {
        Value::Undefined
    } else if value.is_null() {
        Value::Null
    } else if let Some(b) = value.as_bool() {
        Value::Bool(b)
    } else if let Some(n) = value.as_f64() {
        Value::Number(n)
    } else if let Some(s) = value.as_string() {
        Value::Str(s)
    } else if depth >= MAX_DEPTH {
        Value::Other
    } else if js_sys::Array::is_array(value) {
        let array: &js_sys::Array = value.unchecked_ref();
        Value::Array(array.iter().map(|v| to_value_at(&v, depth + 1)).collect())
    } else if value.is_object() && !value.is_function() {
        Value::Object(fields(value, depth))
    } else {
        Value::Other
    }
}

fn fields(value: &JsValue, depth: u32) -> Vec<(String, Value)> {
    let keys = Object::keys(value.unchecked_ref::<Object>());
    keys.iter()
        .filter_map(|k| k.as_string())
        .map(|k| {
            let v = to_value_at(&get(value, &k), depth + 1);
            (k, v)
        })
        .collect()
}

/// A params object (`undefined` and `null` mean none).
pub fn read_params(value: Option<&JsValue>) -> Result<Params, Error> {
    let Some(value) = value else { return Ok(Params::default()) };
    match to_value(value) {
        Value::Undefined | Value::Null => Ok(Params::default()),
        Value::Object(fields) => Ok(Params(fields)),
        _ => Err(Error::invalid("params", "must be an object")),
    }
}

/// The name every error thrown by the library carries.
pub const ERROR_NAME: &str = "PredictKitError";

/// A core error as a real JS `Error`: `name`, `code`, and the facts that apply.
pub fn error_to_js(e: &Error) -> JsValue {
    error_with_cause(e, None)
}

/// As [`error_to_js`], keeping the original JS error as `cause`.
pub fn error_with_cause(e: &Error, cause: Option<&JsValue>) -> JsValue {
    let err = js_sys::Error::new(&e.message);
    err.set_name(ERROR_NAME);
    let obj: &Object = err.as_ref();
    set(obj, "code", &JsValue::from_str(e.code.as_str()));
    if let Some(param) = &e.param {
        set(obj, "param", &JsValue::from_str(param));
    }
    if let Some(status) = e.status {
        set(obj, "status", &JsValue::from(status));
    }
    if let Some(method) = e.method {
        set(obj, "method", &JsValue::from_str(method));
    }
    if let Some(path) = &e.path {
        set(obj, "path", &JsValue::from_str(path));
    }
    if let Some(ms) = e.retry_after_ms {
        set(obj, "retryAfterMs", &JsValue::from_f64(ms as f64));
    }
    if let Some(body) = &e.body {
        set(obj, "body", &JsValue::from_str(body));
    }
    if let Some(cause) = cause {
        set(obj, "cause", cause);
    }
    err.into()
}

impl From<Error> for JsValue {
    fn from(e: Error) -> Self {
        error_to_js(&e)
    }
}

/// True for errors thrown by PredictKit.
#[wasm_bindgen(js_name = isPredictKitError, skip_typescript)]
pub fn is_predictkit_error(value: &JsValue) -> bool {
    value.is_instance_of::<js_sys::Error>()
        && get(value, "name").as_string().as_deref() == Some(ERROR_NAME)
        && get(value, "code").is_string()
}

pub fn get(obj: &JsValue, key: &str) -> JsValue {
    Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

pub fn set(obj: &Object, key: &str, value: &JsValue) {
    // Setting a plain data property on an object we own cannot fail.
    let _ = Reflect::set(obj, &JsValue::from_str(key), value);
}

pub fn is_absent(value: &JsValue) -> bool {
    value.is_undefined() || value.is_null()
}

/// An optional string property; anything but a string, `undefined` or `null` is `INVALID_PARAMS`.
pub fn opt_string(obj: &JsValue, key: &'static str) -> Result<Option<String>, Error> {
    let value = get(obj, key);
    if is_absent(&value) {
        return Ok(None);
    }
    value.as_string().map(Some).ok_or(Error::invalid(key, "must be a string"))
}

/// A required string property.
pub fn req_string(obj: &JsValue, key: &'static str) -> Result<String, Error> {
    opt_string(obj, key)?.ok_or(Error::invalid(key, "is required"))
}

/// A whole-number timestamp given as a string of digits or as a number, as its decimal text.
pub fn timestamp_text(value: &JsValue, param: &'static str) -> Result<String, Error> {
    // Numbers first: signing takes `Date.now()` in hot paths.
    if let Some(n) = value.as_f64() {
        if n.is_finite() && n >= 0.0 && n.fract() == 0.0 && n <= 9_007_199_254_740_991.0 {
            return Ok(digits(n as u64));
        }
    } else if let Some(text) = value.as_string() {
        if !text.is_empty() && text.len() <= 20 && text.bytes().all(|b| b.is_ascii_digit()) {
            return Ok(text);
        }
    }
    Err(Error::invalid(param, "must be a non-negative whole number (or its decimal text)"))
}

/// The decimal digits of `n`.
fn digits(n: u64) -> String {
    let mut out = Vec::with_capacity(20);
    crate::book::fixed::push_digits(n, &mut out);
    out.into_iter().map(char::from).collect()
}

/// A future settling a promise, boxed so that every async method shares one instance of the machinery
/// that drives it (measured: about 0.5 KB of wasm per future type, after wasm-opt).
pub type Task = Pin<Box<dyn Future<Output = Result<JsValue, JsValue>>>>;

/// Starts `task` and returns the promise it settles.
pub fn promise(task: Task) -> Promise {
    wasm_bindgen_futures::future_to_promise(task)
}
