//! Sending an [`HttpRequest`] with `fetch` (the global one, or one the caller injected).

use js_sys::{Function, Object, Promise, Uint8Array, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::Response;

use super::interop::{error_with_cause, set};
use crate::api::{check_response, HttpRequest, Surface};
use crate::error::{Error, ErrorCode};

#[wasm_bindgen]
extern "C" {
    /// The environment's own `fetch`: browsers, workers, extensions' service workers and Node 18+.
    #[wasm_bindgen(js_name = fetch, catch)]
    fn global_fetch(url: &str, init: &Object) -> Result<Promise, JsValue>;
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

/// A response that passed the status check, with its body not yet read.
pub struct Answer {
    response: Response,
}

impl Transport {
    /// Sends the request and checks the status; a non-2xx answer becomes its typed error.
    pub async fn send(&self, request: &HttpRequest, headers: Option<&Object>) -> Result<Answer, JsValue> {
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

        let started = match &self.fetch {
            Some(fetch) => fetch.call2(&JsValue::UNDEFINED, &JsValue::from_str(&url), &init).map(Promise::from),
            None => global_fetch(&url, &init),
        };
        let result = match started {
            Ok(promise) => JsFuture::from(promise).await,
            Err(e) => Err(e),
        };
        let response: Response = match result.and_then(|r| r.dyn_into::<Response>()) {
            Ok(response) => response,
            Err(cause) => return Err(network_error(request, &cause)),
        };
        let status = response.status();
        if !(200..300).contains(&status) {
            let retry_after = response.headers().get("retry-after").ok().flatten();
            let body = read_bytes(&response, request).await.unwrap_or_default();
            if let Err(e) = check_response(request, status, &body, retry_after.as_deref()) {
                return Err(e.into());
            }
        }
        Ok(Answer { response })
    }
}

impl Answer {
    /// The body parsed by the engine's own `JSON.parse`.
    pub async fn json(self, request: &HttpRequest) -> Result<JsValue, JsValue> {
        let text = await_promise(self.response.text(), request).await?;
        let text = text.as_string().unwrap_or_default();
        JSON::parse(&text).map_err(|cause| {
            let mut e = Error::decode("the response is not valid JSON");
            e.status = Some(self.response.status());
            e.body = Some(crate::api::excerpt(text.as_bytes()));
            with_request(&mut e, request);
            error_with_cause(&e, Some(&cause))
        })
    }

    /// The body's bytes.
    pub async fn bytes(self, request: &HttpRequest) -> Result<Vec<u8>, JsValue> {
        read_bytes(&self.response, request).await
    }
}

async fn read_bytes(response: &Response, request: &HttpRequest) -> Result<Vec<u8>, JsValue> {
    let buffer = await_promise(response.array_buffer(), request).await?;
    Ok(Uint8Array::new(&buffer).to_vec())
}

async fn await_promise(promise: Result<Promise, JsValue>, request: &HttpRequest) -> Result<JsValue, JsValue> {
    match promise {
        Ok(p) => JsFuture::from(p).await.map_err(|cause| network_error(request, &cause)),
        Err(cause) => Err(network_error(request, &cause)),
    }
}

fn with_request(e: &mut Error, request: &HttpRequest) {
    e.method = Some(request.method.as_str());
    e.path = Some(request.path.clone());
}

fn network_error(request: &HttpRequest, cause: &JsValue) -> JsValue {
    let mut e = Error::new(ErrorCode::Network, "the request got no answer (network error, CORS or connection reset)");
    with_request(&mut e, request);
    error_with_cause(&e, Some(cause))
}
