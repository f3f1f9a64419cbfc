//! One attempt of an [`HttpRequest`] with `fetch` (the global one, or one the caller injected): send,
//! check the status, read the whole body, all under the call's abort signal.

use js_sys::{Function, Object, Promise, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::Response;

use super::interop::{error_with_cause, set};
use crate::api::retry::{retry_after_ms, Outcome};
use crate::api::{check_response, excerpt, HttpRequest, Surface};
use crate::error::{Error, ErrorCode};

#[wasm_bindgen]
extern "C" {
    /// The environment's own `fetch`: browsers, workers, extensions' service workers and Node 18+.
    #[wasm_bindgen(js_name = fetch, catch)]
    fn global_fetch(url: &str, init: &Object) -> Result<Promise, JsValue>;

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
    Bytes,
}

/// A successful answer's body.
pub enum Payload {
    Json(JsValue),
    Bytes(Vec<u8>),
}

/// A failed attempt: what happened (for the retry decision), `Retry-After` if given, and the error.
pub struct Failure {
    pub outcome: Outcome,
    pub retry_after_ms: Option<f64>,
    pub error: JsValue,
}

impl Transport {
    /// Sends the request and returns the response whatever its status.
    pub async fn fetch(&self, request: &HttpRequest, headers: Option<&Object>, signal: &JsValue) -> Result<Response, JsValue> {
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
        if !signal.is_undefined() {
            set(&init, "signal", signal);
        }
        let started = match &self.fetch {
            Some(fetch) => fetch.call2(&JsValue::UNDEFINED, &JsValue::from_str(&url), &init).map(Promise::from),
            None => global_fetch(&url, &init),
        };
        let result = match started {
            Ok(promise) => JsFuture::from(promise).await,
            Err(e) => Err(e),
        };
        result.and_then(|r| r.dyn_into::<Response>()).map_err(|cause| network_error(request, &cause))
    }

    /// One attempt: a 2xx answer with its whole body, or the failure.
    pub async fn attempt(
        &self,
        request: &HttpRequest,
        headers: Option<&Object>,
        signal: &JsValue,
        want: Want,
    ) -> Result<Payload, Failure> {
        let response = self
            .fetch(request, headers, signal)
            .await
            .map_err(|error| Failure { outcome: Outcome::Network, retry_after_ms: None, error })?;
        let status = response.status();
        if !(200..300).contains(&status) {
            let retry_after = response
                .headers()
                .get("retry-after")
                .ok()
                .flatten()
                .and_then(|v| retry_after_ms(&v, js_sys::Date::now()));
            // The error text is best effort: a body that cannot be read leaves it empty.
            let body = read_bytes(&response).await.unwrap_or_default();
            let error = match check_response(request, status, &body, retry_after) {
                Err(e) => e.into(),
                Ok(()) => JsValue::UNDEFINED,
            };
            return Err(Failure { outcome: Outcome::Status(status), retry_after_ms: retry_after, error });
        }
        let cut = |cause: JsValue| {
            let mut e = Error::decode("the response body was cut off");
            e.status = Some(status);
            with_request(&mut e, request);
            Failure { outcome: Outcome::BodyCut, retry_after_ms: None, error: error_with_cause(&e, Some(&cause)) }
        };
        match want {
            Want::Bytes => read_bytes(&response).await.map(Payload::Bytes).map_err(cut),
            Want::Json => {
                let text = read_text(&response).await.map_err(cut)?;
                // A body that does not parse was most likely cut short or garbled on the way: for the
                // retry decision it counts as a cut body.
                parse_json(&text, status, request)
                    .map(Payload::Json)
                    .map_err(|error| Failure { outcome: Outcome::BodyCut, retry_after_ms: None, error })
            }
        }
    }
}

/// Parses a body with the engine's own `JSON.parse`; anything else is `DECODE` with an excerpt.
pub fn parse_json(text: &JsValue, status: u16, request: &HttpRequest) -> Result<JsValue, JsValue> {
    json_parse(text).map_err(|cause| {
        let mut e = Error::decode("the response is not valid JSON");
        e.status = Some(status);
        // Only an unreadable body is copied into wasm, for the excerpt the error carries.
        e.body = Some(excerpt(text.as_string().unwrap_or_default().as_bytes()));
        with_request(&mut e, request);
        error_with_cause(&e, Some(&cause))
    })
}

async fn read_bytes(response: &Response) -> Result<Vec<u8>, JsValue> {
    let buffer = JsFuture::from(response.array_buffer()?).await?;
    Ok(Uint8Array::new(&buffer).to_vec())
}

async fn read_text(response: &Response) -> Result<JsValue, JsValue> {
    JsFuture::from(response.text()?).await
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
