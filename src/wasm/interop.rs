//! Every conversion between JavaScript values and the core's types, in one place.
//!
//! A caller's value is hostile until read: it may be of any type, a Proxy whose traps throw, an object
//! whose getters throw, or absurdly large. So every read goes through a catching import (`Reflect.get`,
//! the `*Of` helpers of `src/js/readers.js`) and is bounded (`crate::bounds`) before anything is copied
//! into wasm memory; whatever cannot be read is `INVALID_PARAMS` naming the parameter. No JS exception
//! may unwind through wasm frames, and no length may reach an allocation unchecked.

use js_sys::{Array, JsString, Object, Promise, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::api::{Params, Value};
use crate::bounds::{MAX_ITEMS, MAX_KEYS, MAX_STRING, MAX_VALUES};
use crate::error::{Error, ErrorCode};

#[wasm_bindgen(module = "/src/js/readers.js")]
extern "C" {
    #[wasm_bindgen(catch, js_name = entriesOf)]
    fn entries_of(value: &JsValue, max: u32) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch, js_name = itemsOf)]
    fn items_of(value: &JsValue, max: u32) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch, js_name = bytesOf)]
    fn bytes_of(value: &JsValue, max: u32) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch, js_name = checkSignal)]
    fn check_signal(value: &JsValue) -> Result<(), JsValue>;
    #[wasm_bindgen(catch, js_name = bookText)]
    fn book_text(book: &JsValue, blank_hash: bool) -> Result<JsValue, JsValue>;
}

#[wasm_bindgen(module = "/src/js/driver.js")]
extern "C" {
    /// Never throws: the `PredictKitError` the JSON describes (src/js/driver.js: errorFrom).
    #[wasm_bindgen(js_name = errorFrom)]
    fn error_from(json: &str, cause: &JsValue) -> JsValue;
}

/// Nesting read from a params value; deeper values are left as `Value::Other`, which every rule refuses.
const MAX_DEPTH: u32 = 4;

/// The value of an options object's field `name` as the core's [`Value`] (what the core's option rules read).
pub fn option(obj: &JsValue, name: &'static str) -> Result<Value, Error> {
    to_value(&field(obj, name, name)?, name)
}

/// A caller's value as the core's [`Value`], read with at most [`MAX_VALUES`] values in all.
pub fn to_value(value: &JsValue, param: &'static str) -> Result<Value, Error> {
    let mut budget = MAX_VALUES;
    to_value_at(value, param, 0, &mut budget)
}

fn to_value_at(value: &JsValue, param: &'static str, depth: u32, budget: &mut u32) -> Result<Value, Error> {
    *budget = budget.checked_sub(1).ok_or_else(|| Error::invalid(param, "holds too many values"))?;
    if value.is_undefined() {
        Ok(Value::Undefined)
    } else if value.is_null() {
        Ok(Value::Null)
    } else if let Some(b) = value.as_bool() {
        Ok(Value::Bool(b))
    } else if let Some(n) = value.as_f64() {
        Ok(Value::Number(n))
    } else if value.is_string() {
        Ok(Value::Str(read_str(value, param, MAX_STRING)?))
    } else if depth >= MAX_DEPTH || !value.is_object() {
        // Deeper nesting, functions, symbols and bigints: no rule accepts them.
        Ok(Value::Other)
    } else if let Some(items) = items(value, param)? {
        let mut out = Vec::with_capacity(items.length() as usize);
        for item in items.iter() {
            out.push(to_value_at(&item, param, depth + 1, budget)?);
        }
        Ok(Value::Array(out))
    } else {
        Ok(Value::Object(fields(value, param, depth, budget)?))
    }
}

fn fields(value: &JsValue, param: &'static str, depth: u32, budget: &mut u32) -> Result<Vec<(String, Value)>, Error> {
    let mut out = Vec::new();
    for (key, v) in entries(value, param)? {
        out.push((key, to_value_at(&v, param, depth + 1, budget)?));
    }
    Ok(out)
}

/// A caller's object's own enumerable string keys and their values (at most [`MAX_KEYS`]), read once.
pub fn entries(value: &JsValue, param: &'static str) -> Result<Vec<(String, JsValue)>, Error> {
    let entries = entries_of(value, MAX_KEYS).map_err(|_| unreadable(param))?;
    if entries.as_f64().is_some() {
        return Err(Error::invalid(param, "has too many keys"));
    }
    let entries: Array = entries.unchecked_into();
    let mut out = Vec::with_capacity(entries.length() as usize / 2);
    let mut it = entries.iter();
    while let (Some(key), Some(v)) = (it.next(), it.next()) {
        out.push((read_str(&key, param, MAX_STRING)?, v));
    }
    Ok(out)
}

/// `INVALID_PARAMS`: reading the value threw (a Proxy's trap or a getter).
fn unreadable(param: &'static str) -> Error {
    Error::invalid(param, "could not be read (reading it threw)")
}

/// The items of a genuine array, copied so that the caller's array is not read again; `None` for
/// anything that is not an array.
pub fn items(value: &JsValue, param: &'static str) -> Result<Option<Array>, Error> {
    let items = items_of(value, MAX_ITEMS).map_err(|_| unreadable(param))?;
    if items.is_undefined() {
        Ok(None)
    } else if items.as_f64().is_some() {
        Err(Error::invalid(param, "has too many items (at most 1,048,576)"))
    } else {
        Ok(Some(items.unchecked_into()))
    }
}

/// A string argument of at most `max` UTF-16 units.
pub fn read_str(value: &JsValue, param: &'static str, max: u32) -> Result<String, Error> {
    let text = value.dyn_ref::<JsString>().ok_or_else(|| Error::invalid(param, "must be a string"))?;
    if text.length() > max {
        return Err(Error::invalid(param, "is too long"));
    }
    text.as_string().ok_or_else(|| Error::invalid(param, "must be a string"))
}

/// An optional string argument: `undefined` and `null` are none.
pub fn read_opt_str(value: &JsValue, param: &'static str, max: u32) -> Result<Option<String>, Error> {
    if is_absent(value) {
        Ok(None)
    } else {
        read_str(value, param, max).map(Some)
    }
}

/// A number argument (no coercion: `"1"` and `1n` are not numbers).
pub fn read_f64(value: &JsValue, param: &'static str) -> Result<f64, Error> {
    value.as_f64().ok_or_else(|| Error::invalid(param, "must be a number"))
}

/// The bytes of a genuine `Uint8Array` of at most `max` bytes, copied into wasm memory.
pub fn read_bytes(value: &JsValue, param: &'static str, max: u32) -> Result<Vec<u8>, Error> {
    let view = bytes_of(value, max).map_err(|_| unreadable(param))?;
    if view.as_f64().is_some() {
        return Err(Error::invalid(param, "is larger than the largest book read (64 MiB)"));
    }
    let view = view.dyn_into::<Uint8Array>().map_err(|_| Error::invalid(param, "must be a Uint8Array"))?;
    Ok(view.to_vec())
}

/// A caller's order-book object as JSON text (with `hash` set to "" when `blank_hash`, as the upstream hash
/// input has it), at most `MAX_BOOK_BYTES`; anything else is `INVALID_PARAMS`.
pub fn book_json(book: &JsValue, param: &'static str, blank_hash: bool) -> Result<String, Error> {
    let text = book_text(book, blank_hash)
        .map_err(|_| Error::invalid(param, "must be an order book object (and reading it may not throw)"))?;
    read_str(&text, param, crate::bounds::MAX_BOOK_BYTES)
        .map_err(|_| Error::invalid(param, "must be an order book object of at most 64 MiB"))
}

/// A property of a caller's object; a getter or Proxy trap that throws is `INVALID_PARAMS`.
pub fn field(obj: &JsValue, key: &str, param: &'static str) -> Result<JsValue, Error> {
    Reflect::get(obj, &JsValue::from_str(key)).map_err(|_| unreadable(param))
}

/// An optional `AbortSignal`: a genuine one (brand-checked), or `INVALID_PARAMS`.
pub fn read_signal(value: &JsValue) -> Result<Option<JsValue>, Error> {
    if is_absent(value) {
        return Ok(None);
    }
    check_signal(value).map_err(|_| Error::invalid("signal", "must be an AbortSignal"))?;
    Ok(Some(value.clone()))
}

/// A params object (`undefined` and `null` mean none).
pub fn read_params(value: Option<&JsValue>) -> Result<Params, Error> {
    let Some(value) = value else { return Ok(Params::default()) };
    match to_value(value, "params")? {
        Value::Undefined | Value::Null => Ok(Params::default()),
        Value::Object(fields) => Ok(Params(fields)),
        _ => Err(Error::invalid("params", "must be an object")),
    }
}

/// A core error as a real JS `Error`: `name`, `code`, and the facts that apply.
pub fn error_to_js(e: &Error) -> JsValue {
    error_with_cause(e, None)
}

/// As [`error_to_js`], keeping the original JS error as `cause`. The error is written once, as the JSON the
/// driver makes every `PredictKitError` of (`crate::api::call::error_json`), so a thrown error and a task's
/// error carry the same facts.
pub fn error_with_cause(e: &Error, cause: Option<&JsValue>) -> JsValue {
    error_from(&crate::api::call::error_json(e), cause.unwrap_or(&JsValue::UNDEFINED))
}

impl From<Error> for JsValue {
    fn from(e: Error) -> Self {
        error_to_js(&e)
    }
}

/// A property of an object of the library's own (a result it built, an answer's fields).
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

/// An optional string property of a caller's object; anything but a string, `undefined` or `null` is
/// `INVALID_PARAMS`.
pub fn opt_string(obj: &JsValue, key: &'static str) -> Result<Option<String>, Error> {
    read_opt_str(&field(obj, key, key)?, key, MAX_STRING)
}

/// A required string property of a caller's object.
pub fn req_string(obj: &JsValue, key: &'static str) -> Result<String, Error> {
    opt_string(obj, key)?.ok_or_else(|| Error::invalid(key, "is required"))
}

/// A whole-number timestamp given as a string of digits or as a number, as its decimal text.
pub fn timestamp_text(value: &JsValue, param: &'static str) -> Result<String, Error> {
    // Numbers first: signing takes `Date.now()` in hot paths.
    if let Some(n) = value.as_f64() {
        if n.is_finite() && n >= 0.0 && n.fract() == 0.0 && n <= 9_007_199_254_740_991.0 {
            return Ok(digits(n as u64));
        }
    } else if value.is_string() {
        let text = read_str(value, param, 20)?;
        if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
            return Ok(text);
        }
    }
    Err(Error::invalid(param, "must be a non-negative whole number (or its decimal text)"))
}

/// The decimal digits of `n`.
fn digits(n: u64) -> String {
    let mut out = Vec::with_capacity(20);
    crate::text::push_digits(n, &mut out);
    out.into_iter().map(char::from).collect()
}

/// A promise that rejects with `error` (for an async method whose arguments were refused).
pub fn rejected(error: Error) -> Promise {
    Promise::reject(&error.into())
}

/// The error of a method called on a `Client` or `OrderBook` after `free()`. The package's entry files
/// check every method for a freed object (`src/js/package/guard.mjs`) and throw this, so that no call ever reaches
/// wasm with a freed handle.
#[wasm_bindgen(js_name = freedError, skip_typescript)]
pub fn freed_error() -> JsValue {
    Error::new(ErrorCode::Freed, "this object was freed: free() was called on it, so it can no longer be used").into()
}

/// A params object of the core as a plain JS object (a page's next params).
pub(super) fn params_to_js(params: &Params) -> JsValue {
    let obj = Object::new();
    for (key, value) in &params.0 {
        set(&obj, key, &value_to_js(value));
    }
    obj.into()
}

fn value_to_js(value: &Value) -> JsValue {
    match value {
        Value::Null => JsValue::NULL,
        Value::Bool(b) => JsValue::from_bool(*b),
        Value::Number(n) => JsValue::from_f64(*n),
        Value::Str(s) => JsValue::from_str(s),
        Value::Array(items) => items.iter().map(value_to_js).collect::<Array>().into(),
        Value::Object(fields) => params_to_js(&Params(fields.clone())),
        Value::Undefined | Value::Other => JsValue::UNDEFINED,
    }
}
