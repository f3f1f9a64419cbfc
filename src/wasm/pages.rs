//! `iterate*`: a [`Pager`] from the core, a page reader that fetches one page per call, and a small JS
//! snippet that turns the reader into an `AsyncIterable` of items.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Array, Function, Object, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::call::{CallOptions, Inner};
use super::client::decode_json;
use super::interop::{entries, get, is_absent, promise, set, to_value};
use super::transport::Want;
use crate::api::methods::{Endpoint, Listing};
use crate::api::{max_items, Pager, Paging, Params};
use crate::error::Error;

#[wasm_bindgen(module = "/src/js/iterate.js")]
extern "C" {
    #[wasm_bindgen(js_name = pagesToItems)]
    fn pages_to_items(reader: PageReader, signal: &JsValue) -> JsValue;
}

struct State {
    call: CallOptions,
    pager: Pager,
    endpoint: &'static Endpoint,
    cursor: bool,
    on_page: Option<Function>,
}

/// Reads one page per `nextPage()` call. Internal: `iterate*` methods return an `AsyncIterable` built on
/// it, so it is left out of the published types.
#[wasm_bindgen(skip_typescript)]
pub struct PageReader {
    inner: Rc<Inner>,
    state: Rc<RefCell<State>>,
}

/// Builds the `AsyncIterable` of an `iterate*` method. Params and options are checked now, so a bad one
/// throws at the call rather than at the first `next()`.
pub(super) fn iterate(
    inner: &Rc<Inner>,
    endpoint: &'static Endpoint,
    listing: Listing,
    params: Params,
    options: Option<&JsValue>,
) -> Result<JsValue, JsValue> {
    let options = read_options(options)?;
    // The signal, timeoutMs, maxRetries and extraQuery of the options apply to each page's request.
    let call = inner.call_options(Some(&options.call))?;
    let (pager, cursor) = match listing.paging {
        Paging::Offset { max_offset } => (Pager::offset(params, listing.page_size, max_offset, options.limit)?, false),
        Paging::Cursor => (Pager::cursor(params, options.limit), true),
    };
    // Build the first request once to refuse bad params (and missing credentials) before anything is sent.
    if let Some(first) = pager.next_params() {
        inner.check_credentials(&call.prepare(endpoint.page_request(&first)?)?)?;
    }
    let signal = call.signal.clone();
    let state = State { call, pager, endpoint, cursor, on_page: options.on_page };
    Ok(pages_to_items(PageReader { inner: inner.clone(), state: Rc::new(RefCell::new(state)) }, &signal))
}

/// The options of an `iterate*` method: its own, and those of each page's request.
struct IterateOptions {
    limit: Option<u64>,
    on_page: Option<Function>,
    /// `{ signal, timeoutMs, maxRetries, extraQuery }`, as read once.
    call: JsValue,
}

const CALL_OPTIONS: [&str; 4] = ["signal", "timeoutMs", "maxRetries", "extraQuery"];

fn read_options(options: Option<&JsValue>) -> Result<IterateOptions, Error> {
    let mut read = IterateOptions { limit: None, on_page: None, call: JsValue::UNDEFINED };
    let Some(options) = options.filter(|o| !is_absent(o)) else { return Ok(read) };
    if !options.is_object() {
        return Err(Error::invalid(
            "options",
            "must be an object { onPage?, maxItems?, signal?, timeoutMs?, maxRetries?, extraQuery? }",
        ));
    }
    let entries = entries(options, "options")?;
    let call = Object::new();
    for (key, value) in entries {
        if is_absent(&value) {
            continue;
        }
        match key.as_str() {
            "maxItems" => read.limit = max_items(&to_value(&value, "maxItems")?)?,
            "onPage" => {
                read.on_page =
                    Some(value.dyn_into::<Function>().map_err(|_| Error::invalid("onPage", "must be a function"))?)
            }
            name if CALL_OPTIONS.contains(&name) => set(&call, name, &value),
            _ => {
                return Err(Error::invalid_owned(
                    &key,
                    "is not an option of iteration (onPage, maxItems, signal, timeoutMs, maxRetries, extraQuery)",
                ))
            }
        }
    }
    read.call = call.into();
    Ok(read)
}

#[wasm_bindgen]
impl PageReader {
    /// The error an aborted iteration ends with.
    #[wasm_bindgen(js_name = abortError, unchecked_return_type = "PredictKitError")]
    pub fn abort_error(&self) -> JsValue {
        Error::new(crate::error::ErrorCode::Aborted, "the iteration was aborted by its AbortSignal").into()
    }

    /// The next page: `{ items, done }`.
    #[wasm_bindgen(js_name = nextPage, unchecked_return_type = "Promise<{ items: unknown[]; done: boolean }>")]
    pub fn next_page(&self) -> Promise {
        let inner = self.inner.clone();
        let state = self.state.clone();
        promise(Box::pin(async move {
            let (request, cursor, call) = {
                let s = state.borrow();
                match s.pager.next_params() {
                    Some(params) => (s.call.prepare(s.endpoint.page_request(&params)?)?, s.cursor, s.call.clone()),
                    None => return Ok(page(&Array::new(), true)),
                }
            };
            let body = inner.execute(&request, &call, Want::Json, &decode_json).await?;
            let (items, next_cursor) =
                if cursor { (get(&body, "data"), get(&body, "next_cursor").as_string()) } else { (body, None) };
            let items: Array = items.dyn_into().map_err(|_| {
                let mut e = Error::decode("a page of this list is not an array");
                e.path = Some(request.path.clone());
                e
            })?;
            let len = items.length() as usize;
            let (step, on_page, next) = {
                let mut s = state.borrow_mut();
                let step = s.pager.record(len, next_cursor.as_deref());
                (step, s.on_page.clone(), s.pager.next_cursor().to_owned())
            };
            let items = if step.take < len { items.slice(0, step.take as u32) } else { items };
            if let Some(on_page) = on_page {
                let info = Object::new();
                set(&info, "page", &JsValue::from_f64(step.pages as f64));
                set(&info, "items", &JsValue::from_f64(step.take as f64));
                set(&info, "total", &JsValue::from_f64(step.items as f64));
                set(&info, "done", &JsValue::from_bool(step.done));
                if cursor && !next.is_empty() {
                    set(&info, "nextCursor", &JsValue::from_str(&next));
                }
                on_page.call1(&JsValue::UNDEFINED, &info)?;
            }
            Ok(page(&items, step.done))
        }))
    }
}

fn page(items: &Array, done: bool) -> JsValue {
    let obj = Object::new();
    set(&obj, "items", items);
    set(&obj, "done", &JsValue::from_bool(done));
    obj.into()
}
