//! One attempt of an [`HttpRequest`] with `fetch` (the global one, or one the caller injected): send,
//! check the status, read the whole body, all under the call's abort signal. The exchange itself is
//! `exchange` in `src/js/runtime.js`, which never throws and hands back plain data, so that nothing a
//! caller's fetch, its Response or its body does can unwind through wasm or outlive the call's deadline.

use js_sys::{Function, Object, Promise, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use super::interop::{error_with_cause, get, set};
use crate::api::retry::{retry_after_ms, Outcome};
use crate::api::{check_response, excerpt, refuses_redirects, unfollowed_redirect, HttpRequest, Surface};
use crate::bounds::{MAX_BOOK_BYTES, MAX_ERROR_BODY};
use crate::error::{Error, ErrorCode};

#[wasm_bindgen(module = "/src/js/runtime.js")]
extern "C" {
    /// Never rejects: the outcome is in the resolved object's `kind`.
    fn exchange(
        fetch: &JsValue,
        url: &str,
        init: &Object,
        bytes: bool,
        max_bytes: u32,
        max_error_chars: u32,
        signal: &JsValue,
    ) -> Promise;
}

#[wasm_bindgen]
extern "C" {
    /// `JSON.parse` of a JS string, which never has to be copied into wasm memory and back.
    #[wasm_bindgen(js_namespace = JSON, js_name = parse, catch)]
    fn json_parse(text: &JsValue) -> Result<JsValue, JsValue>;
}

/// Base URLs per surface, without a trailing slash.
pub struct BaseUrls {
    pub catalog: String,
    pub clob: String,
    pub activity: String,
}

impl BaseUrls {
    pub fn for_surface(&self, surface: Surface) -> &str {
        match surface {
            Surface::Catalog => &self.catalog,
            Surface::Clob => &self.clob,
            Surface::Activity => &self.activity,
        }
    }
}

pub struct Transport {
    pub bases: BaseUrls,
    pub fetch: Option<Function>,
}

/// How the body of a successful answer is wanted.
#[derive(Clone, Copy)]
pub enum Want {
    /// Parsed by the engine's own `JSON.parse`.
    Json,
    /// Copied into wasm memory (at most [`MAX_BOOK_BYTES`]).
    Bytes,
    /// The answer whatever its status, as `exchange` in `src/js/runtime.js` read it (`status`, `date`,
    /// `body` as text, `sent`: when the attempt was sent), for `syncClock`, which reads the `Date` header
    /// of a 404. Only no answer at all (a network error, a cut body) is a failure.
    Answer,
}

/// A successful answer's body.
pub enum Payload {
    Json(JsValue),
    Bytes(Vec<u8>),
}

/// An answer, whatever its status: what `exchange` read of it.
pub struct Answer {
    pub status: u16,
    /// Sent with `redirect: "manual"` (it carries credentials: the core's `refuses_redirects`).
    pub manual: bool,
    /// A redirect the browser did not follow (`redirect: "manual"` shows it as opaque, status 0).
    pub opaque_redirect: bool,
    /// The answer says it came through a redirect (a fetch that followed one although asked not to).
    pub redirected: bool,
    pub retry_after: Option<String>,
    /// The body: a JS string for text and JSON (and any non-2xx status), a `Uint8Array` for bytes.
    pub body: JsValue,
    /// What `exchange` read, as it read it (for [`Want::Answer`]).
    pub raw: JsValue,
}

/// A failed attempt: what happened (for the retry decision), `Retry-After` if given, and the error.
pub struct Failure {
    pub outcome: Outcome,
    pub retry_after_ms: Option<f64>,
    pub error: JsValue,
}

impl Failure {
    fn new(outcome: Outcome, error: JsValue) -> Self {
        Failure { outcome, retry_after_ms: None, error }
    }
}

impl Transport {
    /// Sends the request and reads its answer, whatever its status (a 2xx body as `want` says, as text
    /// otherwise). A request carrying any SERVICE_* header (signed, or a key route's challenge) never
    /// follows a redirect: the core decides it from the names of the headers sent (`refuses_redirects`),
    /// so that credentials never reach another origin, a key is never taken from one, and a cancellation
    /// is never sent twice. Public reads follow redirects as any fetch does.
    pub async fn exchange(
        &self,
        request: &HttpRequest,
        headers: Option<&Object>,
        signal: &JsValue,
        want: Want,
    ) -> Result<Answer, Failure> {
        let url = request.url(self.bases.for_surface(request.surface));
        let init = Object::new();
        set(&init, "method", &JsValue::from_str(request.method.as_str()));
        if let Some(body) = &request.body {
            set(&init, "body", &JsValue::from_str(body));
        }
        let headers = headers.cloned().unwrap_or_default();
        if request.body.is_some() {
            set(&headers, "Content-Type", &JsValue::from_str("application/json"));
        }
        set(&init, "headers", &headers);
        // (The headers object is built from these names: `Inner::sign`.)
        let manual = refuses_redirects(request.header_names());
        if manual {
            set(&init, "redirect", &JsValue::from_str("manual"));
        }
        set(&init, "signal", signal);
        let fetch = self.fetch.as_ref().map_or(JsValue::UNDEFINED, |f| f.into());
        let bytes = matches!(want, Want::Bytes);
        let promise = exchange(&fetch, &url, &init, bytes, MAX_BOOK_BYTES, MAX_ERROR_BODY, signal);
        // `exchange` resolves in every case; a rejection could only come from a broken runtime.
        let result = JsFuture::from(promise).await.unwrap_or(JsValue::UNDEFINED);
        let kind = get(&result, "kind").as_string().unwrap_or_default();
        let cause = get(&result, "cause");
        let status = get(&result, "status").as_f64().map_or(0, |s| s as u16);
        match kind.as_str() {
            "answer" => Ok(Answer {
                status,
                manual,
                opaque_redirect: get(&result, "opaqueRedirect").is_truthy(),
                redirected: get(&result, "redirected").is_truthy(),
                retry_after: get(&result, "retryAfter").as_string(),
                body: get(&result, "body"),
                raw: result,
            }),
            "cut" => {
                let mut e = Error::decode("the response body was cut off");
                e.status = Some(status);
                with_request(&mut e, request);
                Err(Failure::new(Outcome::BodyCut, error_with_cause(&e, Some(&cause))))
            }
            "large" => {
                let mut e = Error::decode("the response body is larger than the largest book read (64 MiB)");
                e.status = Some(status);
                with_request(&mut e, request);
                Err(Failure::new(Outcome::Status(status), e.into()))
            }
            _ => Err(Failure::new(Outcome::Network, network_error(request, &cause))),
        }
    }

    /// One attempt: a 2xx answer with its whole body (any answer for [`Want::Answer`]), or the failure.
    pub async fn attempt(
        &self,
        request: &HttpRequest,
        headers: Option<&Object>,
        signal: &JsValue,
        want: Want,
    ) -> Result<Payload, Failure> {
        let answer = self.exchange(request, headers, signal, want).await?;
        let status = answer.status;
        if let Some(e) = unfollowed_redirect(request, answer.manual, status, answer.opaque_redirect, answer.redirected)
        {
            return Err(Failure::new(Outcome::Status(status), e.into()));
        }
        if let Want::Answer = want {
            return Ok(Payload::Json(answer.raw));
        }
        if !(200..300).contains(&status) {
            let retry_after = answer.retry_after.as_deref().and_then(|v| retry_after_ms(v, js_sys::Date::now()));
            // The error text is best effort, and `exchange` kept only the start of it.
            let body = answer.body.as_string().unwrap_or_default();
            let error = match check_response(request, status, body.as_bytes(), retry_after) {
                Err(e) => e.into(),
                Ok(()) => JsValue::UNDEFINED,
            };
            return Err(Failure { outcome: Outcome::Status(status), retry_after_ms: retry_after, error });
        }
        match want {
            Want::Bytes => match answer.body.dyn_into::<Uint8Array>() {
                Ok(view) => Ok(Payload::Bytes(view.to_vec())),
                Err(_) => Err(Failure::new(Outcome::BodyCut, Error::decode("expected a byte body").into())),
            },
            // A body that does not parse was most likely cut short or garbled on the way: for the retry
            // decision it counts as a cut body.
            Want::Json | Want::Answer => parse_json(&answer.body, status, request)
                .map(Payload::Json)
                .map_err(|error| Failure::new(Outcome::BodyCut, error)),
        }
    }
}

/// Parses a body with the engine's own `JSON.parse`; anything else is `DECODE` with an excerpt.
pub fn parse_json(text: &JsValue, status: u16, request: &HttpRequest) -> Result<JsValue, JsValue> {
    json_parse(text).map_err(|cause| {
        let mut e = Error::decode("the response is not valid JSON");
        e.status = Some(status);
        // Only the start of an unreadable body is copied into wasm, for the excerpt the error carries.
        let start = text.dyn_ref::<js_sys::JsString>().map(|t| t.slice(0, 400)).and_then(|t| t.as_string());
        e.body = Some(excerpt(start.unwrap_or_default().as_bytes()));
        with_request(&mut e, request);
        error_with_cause(&e, Some(&cause))
    })
}

pub fn with_request(e: &mut Error, request: &HttpRequest) {
    e.method = Some(request.method.as_str());
    e.path = Some(request.path.clone());
}

fn network_error(request: &HttpRequest, cause: &JsValue) -> JsValue {
    let mut e = Error::new(ErrorCode::Network, "the request got no answer (network error, CORS or connection reset)");
    with_request(&mut e, request);
    error_with_cause(&e, Some(cause))
}
