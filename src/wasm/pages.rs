//! Iterating a list method: a [`PageReader`] holds the core's [`Pager`] and answers, synchronously, the
//! argument of the next page's call and what a page read means (its items, whether it was the last, the
//! progress for `onPage`). The package's driver (`src/js/package/pages.mjs`) makes the calls and yields
//! the items to `for await`.

use std::cell::RefCell;

use js_sys::Object;
use wasm_bindgen::prelude::*;

use super::client::{find, opt_text, Client};
use super::interop::{entries, get, is_absent, items, read_str, set, to_value};
use super::interop::{params_to_js, read_params};
use crate::api::methods::{Args, Endpoint};
use crate::api::{self, max_items, Pager, Paging, Params, Value};
use crate::error::{Error, ErrorCode};

/// One iteration of a list method. Internal: the list methods' page promises iterate through it, so it is
/// left out of the published types.
#[wasm_bindgen(skip_typescript)]
pub struct PageReader {
    endpoint: &'static Endpoint,
    cursor: bool,
    pager: RefCell<Pager>,
    /// The path of the page asked for last (for a `DECODE` error).
    path: RefCell<String>,
    /// `{ signal, timeoutMs, maxRetries, extraQuery }` for each page's call, as read once.
    options: JsValue,
    on_page: JsValue,
    signal: JsValue,
}

const CALL_OPTIONS: [&str; 5] = ["signal", "timeoutMs", "maxRetries", "attemptTimeoutMs", "extraQuery"];

impl Client {
    /// A reader for the list method `endpoint` from its first argument and the iteration's options. Params
    /// and options are checked now, and the first request built (a bad param or missing credentials throw
    /// before anything is sent).
    pub(super) fn reader(
        &self,
        endpoint: &'static Endpoint,
        params: Params,
        options: &JsValue,
    ) -> Result<PageReader, Error> {
        let listing = endpoint.listing.ok_or_else(|| Error::invalid("method", "is not a list"))?;
        let mut limit = None;
        let mut on_page = JsValue::UNDEFINED;
        let call = Object::new();
        if !is_absent(options) {
            if !options.is_object() {
                return Err(Error::invalid(
                    "options",
                    "must be an object { onPage?, maxItems?, signal?, timeoutMs?, maxRetries?, attemptTimeoutMs?, extraQuery? }",
                ));
            }
            for (key, value) in entries(options, "options")? {
                if is_absent(&value) {
                    continue;
                }
                match key.as_str() {
                    "maxItems" => limit = max_items(&to_value(&value, "maxItems")?)?,
                    "onPage" if value.is_function() => on_page = value,
                    "onPage" => return Err(Error::invalid("onPage", "must be a function")),
                    name if CALL_OPTIONS.contains(&name) => set(&call, name, &value),
                    _ => return Err(Error::invalid_owned(
                        &key,
                        "is not an option of iteration (onPage, maxItems, signal, timeoutMs, maxRetries, attemptTimeoutMs, extraQuery)",
                    )),
                }
            }
        }
        let options: JsValue = call.into();
        // The signal, timeoutMs, maxRetries and extraQuery apply to each page's request.
        let checked = self.inner.call_options(Some(&options))?;
        let (pager, cursor) = match listing.paging {
            Paging::Offset { max_offset } => (Pager::offset(params, listing.page_size, max_offset, limit)?, false),
            Paging::Cursor => (Pager::cursor(params, limit), true),
        };
        if let Some(first) = pager.next_params() {
            self.inner.check_credentials(&checked.prepare(endpoint.page_request(&first)?)?)?;
        }
        Ok(PageReader {
            endpoint,
            cursor,
            pager: RefCell::new(pager),
            path: RefCell::new(String::new()),
            options,
            on_page,
            signal: checked.signal,
        })
    }
}

#[wasm_bindgen]
impl PageReader {
    /// The options of each page's call.
    #[wasm_bindgen(getter)]
    pub fn options(&self) -> JsValue {
        self.options.clone()
    }

    /// The caller's `onPage`, or undefined.
    #[wasm_bindgen(getter, js_name = onPage)]
    pub fn on_page(&self) -> JsValue {
        self.on_page.clone()
    }

    /// The caller's signal, or undefined.
    #[wasm_bindgen(getter)]
    pub fn signal(&self) -> JsValue {
        self.signal.clone()
    }

    /// The error an aborted iteration ends with.
    #[wasm_bindgen(js_name = abortError)]
    pub fn abort_error(&self) -> JsValue {
        Error::new(ErrorCode::Aborted, "the iteration was aborted by its AbortSignal").into()
    }

    /// The first argument of the next page's call (its params, or its cursor), or undefined when the
    /// iteration is over.
    pub fn next(&self) -> JsValue {
        let Some(params) = self.pager.borrow().next_params() else { return JsValue::UNDEFINED };
        if let Ok(request) = self.endpoint.page_request(&params) {
            *self.path.borrow_mut() = request.path;
        }
        match (self.endpoint.args, params.get("next_cursor")) {
            (Args::Cursor(_), Value::Str(c)) => JsValue::from_str(c),
            (Args::Cursor(_), _) => JsValue::UNDEFINED,
            _ => params_to_js(&params),
        }
    }

    /// What the page answered to the last `next()` means: `{ items, done, info }`, `items` cut to
    /// `maxItems`, `info` the progress for `onPage` (when there is one).
    pub fn record(&self, page: JsValue) -> Result<JsValue, JsValue> {
        // Everything is read from JS before the pager is borrowed.
        let decode = |message| {
            let mut e = Error::decode(message);
            e.path = Some(self.path.borrow().clone());
            e
        };
        let (list, next_cursor) = if self.cursor {
            let cursor = get(&page, "next_cursor");
            let cursor = if cursor.is_string() {
                Some(read_str(&cursor, "next_cursor", 4096).map_err(|_| decode("a page's next_cursor is too long"))?)
            } else {
                None
            };
            (get(&page, "data"), cursor)
        } else {
            (page, None)
        };
        let not_a_page = || decode("a page of this list is not an array");
        let items = items(&list, "page").map_err(|_| not_a_page())?.ok_or_else(not_a_page)?;
        let len = items.length() as usize;
        let (step, next) = {
            let mut pager = self.pager.borrow_mut();
            let step = pager.record(len, next_cursor.as_deref());
            (step, pager.next_cursor().to_owned())
        };
        let items = if step.take < len { items.slice(0, step.take as u32) } else { items };
        let out = Object::new();
        set(&out, "items", &items);
        set(&out, "done", &JsValue::from_bool(step.done));
        if self.on_page.is_function() {
            let info = Object::new();
            set(&info, "page", &JsValue::from_f64(step.pages as f64));
            set(&info, "items", &JsValue::from_f64(step.take as f64));
            set(&info, "total", &JsValue::from_f64(step.items as f64));
            set(&info, "done", &JsValue::from_bool(step.done));
            if self.cursor && !next.is_empty() {
                set(&info, "nextCursor", &JsValue::from_str(&next));
            }
            set(&out, "info", &info);
        }
        Ok(out.into())
    }
}

#[wasm_bindgen]
impl Client {
    /// A reader of every page of the list method `name` called with `first` (`options`: the iteration's),
    /// for the package's `for await` (`src/js/package/pages.mjs`).
    #[wasm_bindgen(js_name = pageReader, skip_typescript)]
    pub fn page_reader(&self, name: JsValue, first: JsValue, options: JsValue) -> Result<PageReader, JsValue> {
        let endpoint = find(&name)?;
        let params = match endpoint.args {
            Args::Cursor(_) => endpoint.iteration_params(Params::default(), opt_text(Some(&first), "next_cursor")?),
            _ => read_params(Some(&first))?,
        };
        Ok(self.reader(endpoint, params, &options)?)
    }

    /// The first argument of the call for the page after `page` (an answer of the list method `name`
    /// called with `first`), or undefined when no page follows (`INVALID_PARAMS` when `strict`): the
    /// core's `following`.
    #[wasm_bindgen(js_name = nextPageArgument, skip_typescript)]
    pub fn next_page_argument(
        &self,
        name: JsValue,
        first: JsValue,
        page: JsValue,
        strict: JsValue,
    ) -> Result<JsValue, JsValue> {
        let endpoint = find(&name)?;
        let listing = endpoint.listing.ok_or_else(|| Error::invalid("method", "is not a list"))?;
        let cursor_args = matches!(endpoint.args, Args::Cursor(_));
        let params = if cursor_args {
            endpoint.iteration_params(Params::default(), opt_text(Some(&first), "next_cursor")?)
        } else {
            read_params(Some(&first))?
        };
        // Through the bounded, catching readers: the page is any value a caller passes.
        let (list, next_cursor) = match listing.paging {
            Paging::Cursor => (get(&page, "data"), opt_text(Some(&get(&page, "next_cursor")), "next_cursor")?),
            Paging::Offset { .. } => (page, None),
        };
        let len = items(&list, "page")?.map_or(0, |a| a.length() as usize);
        let Some(next) = api::following(&params, listing.paging, len, next_cursor.as_deref()) else {
            if strict.is_truthy() {
                return Err(Error::invalid("getNextPage", "no page follows this one (see hasNextPage())").into());
            }
            return Ok(JsValue::UNDEFINED);
        };
        if cursor_args {
            return Ok(match next.get("next_cursor") {
                Value::Str(c) => JsValue::from_str(c),
                _ => JsValue::UNDEFINED,
            });
        }
        Ok(params_to_js(&next))
    }
}
