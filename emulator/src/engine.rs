//! The matching engine's modes, switched through `POST /__admin/engine`: restarting (HTTP 425 on every order
//! route, as the upstream service answers during its weekly restart of about 90 seconds), cancel-only (HTTP 503
//! on new orders, cancellations accepted: the upstream service's maintenance state, with its own text) and
//! post-only (the two minutes after a restart: only post-only orders and cancellations accepted).

use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

/// The upstream service's text for cancel-only mode (HTTP 503), as its clients have recorded it.
pub const CANCEL_ONLY: &str = "Trading is currently cancel-only. New orders are not accepted, but cancels are allowed.";
/// The emulator's text for post-only mode (the upstream documentation names the mode, not its error text).
pub const POST_ONLY: &str = "Trading is currently post-only. Only post-only orders and cancels are accepted.";
/// The emulator's text for a restart (HTTP 425 Too Early).
pub const RESTARTING: &str = "The matching engine is restarting. Try again shortly.";

#[derive(Clone, Debug, Default, PartialEq)]
pub enum Mode {
    #[default]
    Normal,
    /// `retry_after`: seconds told in the `Retry-After` header (`in_body`: in the body's
    /// `retry_after_seconds` instead); `left`: how many order requests are answered 425 before the engine is
    /// back (None: until switched).
    Restarting {
        retry_after: Option<u64>,
        in_body: bool,
        left: Option<u64>,
    },
    CancelOnly,
    PostOnly,
}

#[derive(Default)]
pub struct Engine {
    pub mode: Mode,
    /// The `Poly-RateLimit-*` headers order and cancellation answers carry, when set (`POST
    /// /__admin/rate-limit-headers`; the upstream unified SDKs read Remaining, Reset in Unix seconds, Tier and
    /// Warning).
    pub rate_headers: Vec<(&'static str, String)>,
}

/// Whether a request places or cancels orders: the routes the engine's modes and rate-limit headers concern.
fn order_route(method: &Method, path: &str) -> (bool, bool) {
    let placing = *method == Method::POST && matches!(path, "/order" | "/orders");
    let canceling =
        *method == Method::DELETE && matches!(path, "/order" | "/orders" | "/cancel-all" | "/cancel-market-orders");
    (placing, canceling)
}

impl Engine {
    /// The mode from the admin body `{"mode": "normal" | "restarting" | "cancel-only" | "post-only",
    /// "retryAfterSeconds"?, "retryAfterIn"?: "header" | "body", "count"?}`.
    pub fn set(&mut self, body: &Value) -> Result<(), String> {
        let number = |name: &str| match body.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v.as_u64().map(Some).ok_or_else(|| format!("{name} must be a whole number")),
        };
        self.mode = match body.get("mode").and_then(Value::as_str) {
            Some("normal") => Mode::Normal,
            Some("restarting") => Mode::Restarting {
                retry_after: number("retryAfterSeconds")?,
                in_body: match body.get("retryAfterIn").and_then(Value::as_str) {
                    None | Some("header") => false,
                    Some("body") => true,
                    Some(_) => return Err("retryAfterIn must be \"header\" or \"body\"".into()),
                },
                left: number("count")?,
            },
            Some("cancel-only") => Mode::CancelOnly,
            Some("post-only") => Mode::PostOnly,
            _ => return Err("mode must be normal, restarting, cancel-only or post-only".into()),
        };
        Ok(())
    }

    /// `{"remaining"?, "resetInSeconds"?, "tier"?, "warning"?}`, or `{}` for none: the rate-limit headers of
    /// order and cancellation answers from now on (the reset as Unix seconds, that many seconds ahead).
    pub fn set_rate_headers(&mut self, body: &Value, now_secs: u64) -> Result<(), String> {
        let mut headers = Vec::new();
        if let Some(v) = body.get("remaining").filter(|v| !v.is_null()) {
            let n = v.as_i64().ok_or("remaining must be a whole number")?;
            headers.push(("Poly-RateLimit-Remaining", n.to_string()));
        }
        if let Some(v) = body.get("resetInSeconds").filter(|v| !v.is_null()) {
            let n = v.as_u64().ok_or("resetInSeconds must be a whole number")?;
            headers.push(("Poly-RateLimit-Reset", (now_secs + n).to_string()));
        }
        if let Some(v) = body.get("tier").filter(|v| !v.is_null()) {
            headers.push(("Poly-RateLimit-Tier", v.as_str().ok_or("tier must be a string")?.to_owned()));
        }
        if let Some(v) = body.get("warning").filter(|v| !v.is_null()) {
            headers.push(("Poly-RateLimit-Warning", v.as_bool().ok_or("warning must be true or false")?.to_string()));
        }
        self.rate_headers = headers;
        Ok(())
    }

    /// Adds the rate-limit headers to an order or cancellation answer.
    pub fn decorate(&self, method: &Method, path: &str, response: &mut Response) {
        let (placing, canceling) = order_route(method, path);
        if !(placing || canceling) {
            return;
        }
        for (name, value) in &self.rate_headers {
            if let Ok(value) = HeaderValue::from_str(value) {
                response.headers_mut().insert(*name, value);
            }
        }
    }

    /// The answer the engine gives instead of the route's, if its mode refuses this request.
    pub fn gate(&mut self, method: &Method, path: &str, body: &[u8]) -> Option<Response> {
        let (placing, canceling) = order_route(method, path);
        match &mut self.mode {
            Mode::Normal => None,
            Mode::Restarting { retry_after, in_body, left } => {
                if !(placing || canceling) {
                    return None;
                }
                let mut answer = json!({ "error": RESTARTING });
                if let (Some(secs), true) = (*retry_after, *in_body) {
                    answer["retry_after_seconds"] = secs.into();
                }
                let mut response = (StatusCode::from_u16(425).ok()?, axum::Json(answer)).into_response();
                if let (Some(secs), false) = (*retry_after, *in_body) {
                    response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(secs));
                }
                if let Some(n) = left {
                    *n = n.saturating_sub(1);
                    if *n == 0 {
                        self.mode = Mode::Normal;
                    }
                }
                Some(response)
            }
            Mode::CancelOnly if placing => Some(unavailable(CANCEL_ONLY)),
            Mode::PostOnly if placing && !all_post_only(body) => Some(unavailable(POST_ONLY)),
            Mode::CancelOnly | Mode::PostOnly => None,
        }
    }
}

fn unavailable(text: &str) -> Response {
    (StatusCode::SERVICE_UNAVAILABLE, axum::Json(json!({ "error": text }))).into_response()
}

/// Whether every order of a POST /order or POST /orders body is marked `postOnly`.
fn all_post_only(body: &[u8]) -> bool {
    let post_only = |v: &Value| v.get("postOnly").and_then(Value::as_bool) == Some(true);
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Array(items)) => !items.is_empty() && items.iter().all(post_only),
        Ok(v) => post_only(&v),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine(body: Value) -> Engine {
        let mut e = Engine::default();
        e.set(&body).unwrap();
        e
    }

    #[test]
    fn modes_refuse_what_the_service_refuses() {
        let post =
            |e: &mut Engine, body: &str| e.gate(&Method::POST, "/order", body.as_bytes()).map(|r| r.status().as_u16());
        let cancel = |e: &mut Engine| e.gate(&Method::DELETE, "/cancel-all", b"").map(|r| r.status().as_u16());
        let read = |e: &mut Engine| e.gate(&Method::GET, "/book", b"").map(|r| r.status().as_u16());
        let mut e = engine(json!({ "mode": "cancel-only" }));
        assert_eq!((post(&mut e, "{}"), cancel(&mut e), read(&mut e)), (Some(503), None, None));
        let mut e = engine(json!({ "mode": "post-only" }));
        assert_eq!(post(&mut e, r#"{"order":{},"postOnly":false}"#), Some(503));
        assert_eq!(post(&mut e, r#"{"order":{},"postOnly":true}"#), None);
        assert_eq!(
            e.gate(&Method::POST, "/orders", br#"[{"postOnly":true},{"postOnly":false}]"#).map(|r| r.status().as_u16()),
            Some(503)
        );
        assert_eq!(cancel(&mut e), None);
        let mut e = engine(json!({ "mode": "restarting", "count": 2 }));
        assert_eq!((post(&mut e, "{}"), cancel(&mut e), read(&mut e)), (Some(425), Some(425), None));
        assert_eq!((e.mode.clone(), post(&mut e, "{}")), (Mode::Normal, None), "back after two");
    }

    #[test]
    fn a_restart_tells_its_wait_in_the_header_or_the_body() {
        let mut e = engine(json!({ "mode": "restarting", "retryAfterSeconds": 3 }));
        let r = e.gate(&Method::DELETE, "/order", b"").unwrap();
        assert_eq!(r.headers().get(header::RETRY_AFTER).unwrap(), "3");
        let mut e = engine(json!({ "mode": "restarting", "retryAfterSeconds": 3, "retryAfterIn": "body" }));
        assert!(e.gate(&Method::DELETE, "/order", b"").unwrap().headers().get(header::RETRY_AFTER).is_none());
        assert!(Engine::default().set(&json!({ "mode": "paused" })).is_err());
        assert!(Engine::default().set(&json!({ "mode": "restarting", "count": -1 })).is_err());
    }
}
