//! Iterating a list method. The package's `for await` (`src/js/package/pages.mjs`) asks `pageStart` once
//! for the first page's argument and the iteration's options, checked, then walks the list as a page's
//! `getNextPage()` does: each page by `callRest`, the next one's argument by `nextPageArgument` (the core's
//! `following`).

use js_sys::{Array, Object};
use wasm_bindgen::prelude::*;

use super::client::{find, opt_text, Client};
use super::interop::{entries, get, is_absent, items, set, to_value};
use super::interop::{params_to_js, read_params};
use crate::api::methods::{Args, Endpoint};
use crate::api::{self, max_items, Paging, Params, Value};
use crate::error::{Error, ErrorCode};

const CALL_OPTIONS: [&str; 5] = ["signal", "timeoutMs", "maxRetries", "attemptTimeoutMs", "extraQuery"];

/// The params of the page `first` asks for, the first argument of a call of the list method `endpoint`.
fn asked(endpoint: &Endpoint, first: &JsValue) -> Result<Params, Error> {
    Ok(match endpoint.args {
        Args::Cursor(_) => endpoint.iteration_params(Params::default(), opt_text(Some(first), "next_cursor")?),
        _ => read_params(Some(first))?,
    })
}

/// The first argument of a call of `endpoint` that asks for the page of `params`.
fn argument(endpoint: &Endpoint, params: &Params) -> JsValue {
    match (endpoint.args, params.get("next_cursor")) {
        (Args::Cursor(_), Value::Str(c)) => JsValue::from_str(c),
        (Args::Cursor(_), _) => JsValue::UNDEFINED,
        _ => params_to_js(params),
    }
}

#[wasm_bindgen]
impl Client {
    /// The start of an iteration of the list method `name` called with `first` and the iteration's
    /// `options`: `[argument, callOptions, maxItems, onPage, signal, abortError]`, the first page's
    /// argument, the options of each page's call as read once, and the rest undefined when not given.
    /// Params and options are checked now and the first request built: a bad param, a bad option or
    /// missing credentials throw before anything is sent. Internal: the package's `for await`.
    #[wasm_bindgen(js_name = pageStart, skip_typescript)]
    pub fn page_start(&self, name: JsValue, first: JsValue, options: JsValue) -> Result<Array, JsValue> {
        let endpoint = find(&name)?;
        let listing = endpoint.listing.ok_or_else(|| Error::invalid("method", "is not a list"))?;
        let mut limit = JsValue::UNDEFINED;
        let mut on_page = JsValue::UNDEFINED;
        let call = Object::new();
        if !is_absent(&options) {
            if !options.is_object() {
                return Err(Error::invalid(
                    "options",
                    "must be an object { onPage?, maxItems?, signal?, timeoutMs?, maxRetries?, attemptTimeoutMs?, extraQuery? }",
                )
                .into());
            }
            for (key, value) in entries(&options, "options")? {
                if is_absent(&value) {
                    continue;
                }
                match key.as_str() {
                    "maxItems" => {
                        if let Some(n) = max_items(&to_value(&value, "maxItems")?)? {
                            limit = JsValue::from_f64(n as f64);
                        }
                    }
                    "onPage" if value.is_function() => on_page = value,
                    "onPage" => return Err(Error::invalid("onPage", "must be a function").into()),
                    name if CALL_OPTIONS.contains(&name) => set(&call, name, &value),
                    _ => return Err(Error::invalid_owned(
                        &key,
                        "is not an option of iteration (onPage, maxItems, signal, timeoutMs, maxRetries, attemptTimeoutMs, extraQuery)",
                    )
                    .into()),
                }
            }
        }
        let call: JsValue = call.into();
        // The signal, timeoutMs, maxRetries and extraQuery apply to each page's request.
        let checked = self.inner.call_options(Some(&call))?;
        let params = api::first_page(asked(endpoint, &first)?, listing.paging, listing.page_size)?;
        self.inner.check_credentials(&checked.prepare(endpoint.page_request(&params)?)?)?;
        let abort = if is_absent(&checked.signal) {
            JsValue::UNDEFINED
        } else {
            Error::new(ErrorCode::Aborted, "the iteration was aborted by its AbortSignal").into()
        };
        Ok([argument(endpoint, &params), call, limit, on_page, checked.signal, abort].iter().collect())
    }

    /// The first argument of the call for the page after `page` (an answer of the list method `name`
    /// called with `first`), or undefined when no page follows: the core's `following`. `mode` 1 throws
    /// `INVALID_PARAMS` when no page follows (`getNextPage()`); mode 2 throws `DECODE` when `page` is not
    /// a page of this list (an iteration's pages).
    #[wasm_bindgen(js_name = nextPageArgument, skip_typescript)]
    pub fn next_page_argument(
        &self,
        name: JsValue,
        first: JsValue,
        page: JsValue,
        mode: JsValue,
    ) -> Result<JsValue, JsValue> {
        // Anything but 1 or 2 is 0; read without coercion (the value is any a caller passes).
        let mode = mode.as_f64().unwrap_or(0.0);
        let endpoint = find(&name)?;
        let listing = endpoint.listing.ok_or_else(|| Error::invalid("method", "is not a list"))?;
        let params = asked(endpoint, &first)?;
        // Through the bounded, catching readers: the page is any value a caller passes.
        let (list, next_cursor) = match listing.paging {
            Paging::Cursor => (get(&page, "data"), opt_text(Some(&get(&page, "next_cursor")), "next_cursor")?),
            Paging::Offset { .. } => (page, None),
        };
        let list = items(&list, "page")?;
        if mode == 2.0 && list.is_none() {
            let mut e = Error::decode("a page of this list is not an array");
            e.path = endpoint.page_request(&params).ok().map(|r| r.path);
            return Err(e.into());
        }
        let len = list.map_or(0, |a| a.length() as usize);
        match api::following(&params, listing.paging, len, next_cursor.as_deref()) {
            Some(next) => Ok(argument(endpoint, &next)),
            None if mode == 1.0 => {
                Err(Error::invalid("getNextPage", "no page follows this one (see hasNextPage())").into())
            }
            None => Ok(JsValue::UNDEFINED),
        }
    }
}
