//! Standalone signing for callers who bring their own HTTP.

use js_sys::Object;
use wasm_bindgen::prelude::*;

use zeroize::Zeroizing;

use super::interop::{is_absent, opt_string, read_opt_str, read_str, req_string, set, timestamp_text};
use crate::auth::{self, Credentials, HEADER_NAMES};
use crate::bounds::MAX_STRING;
use crate::error::Error;

/// The SERVICE_SIGNATURE of one request: HMAC-SHA256 of timestamp + method + requestPath + body, keyed by
/// the base64-decoded secret, in url-safe base64. Sign exactly the body you send, and the path without
/// its query string.
///
/// @example
/// signRequest(secret, Date.now(), "DELETE", "/order", JSON.stringify({ orderId }));
#[wasm_bindgen(js_name = signRequest)]
pub fn sign_request(
    #[wasm_bindgen(unchecked_param_type = "string")] secret: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number | string")] timestamp: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] method: JsValue,
    #[wasm_bindgen(js_name = requestPath, unchecked_param_type = "string")] request_path: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "string | null")] body: JsValue,
) -> Result<String, JsValue> {
    let secret = Zeroizing::new(read_str(&secret, "secret", 4096)?);
    let timestamp = timestamp_text(&timestamp, "timestamp")?;
    let method = read_str(&method, "method", 16)?;
    let request_path = read_str(&request_path, "requestPath", MAX_STRING)?;
    let body = read_opt_str(&body, "body", MAX_STRING)?;
    // Nothing here calls back into JS while the cache is held (the arguments were read above), and a wasm panic
    // aborts, so the lock is never held twice nor poisoned.
    let mut last = LAST_KEY.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    Ok(last.sign_request(secret, &timestamp, &method, &request_path, body.as_deref())?)
}

/// The secret `signRequest` signed with last, keyed (`auth::LastKey`).
static LAST_KEY: std::sync::Mutex<auth::LastKey> = std::sync::Mutex::new(auth::LastKey::new());

/// The five SERVICE_* headers of one request. `timestamp` defaults to now, in milliseconds.
///
/// @example
/// const headers = createL2Headers(credentials, { method: "GET", requestPath: "/data/orders" });
/// await fetch(url, { headers });
#[wasm_bindgen(js_name = createL2Headers, unchecked_return_type = "L2Headers")]
pub fn create_l2_headers(
    #[wasm_bindgen(unchecked_param_type = "Credentials")] credentials: JsValue,
    #[wasm_bindgen(unchecked_param_type = "L2HeaderArgs")] args: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "number | string")] timestamp: JsValue,
) -> Result<Object, JsValue> {
    let creds = read_credentials(&credentials)?;
    if is_absent(&args) || !args.is_object() {
        return Err(Error::invalid("args", "must be an object { method, requestPath, body? }").into());
    }
    let method = req_string(&args, "method")?;
    let request_path = req_string(&args, "requestPath")?;
    let body = opt_string(&args, "body")?;
    let timestamp = if is_absent(&timestamp) {
        crate::text::decimal(super::call::date_now() as u64)
    } else {
        timestamp_text(&timestamp, "timestamp")?
    };
    let values = creds.headers(&timestamp, &method, &request_path, body.as_deref());
    let headers = Object::new();
    for (name, value) in HEADER_NAMES.iter().zip(values.iter()) {
        set(&headers, name, &JsValue::from_str(value));
    }
    Ok(headers)
}

pub(super) fn read_credentials(value: &JsValue) -> Result<Credentials, Error> {
    if !value.is_object() {
        return Err(Error::invalid("credentials", "must be an object { address, apiKey, secret, passphrase }"));
    }
    Credentials::new(
        &req_string(value, "address")?,
        &req_string(value, "apiKey")?,
        &req_string(value, "secret")?,
        &req_string(value, "passphrase")?,
    )
}
