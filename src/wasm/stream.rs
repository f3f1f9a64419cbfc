//! `marketStream` and `userStream`: the service's streaming channels. The socket, its timers and the event
//! queue are `src/js/stream.js`; every decision is the core's (`crate::stream`). `StreamCore` converts
//! between the two: the JS driver calls it on every socket event and does what it answers.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Array, Object, Promise, Uint8Array};
use wasm_bindgen::prelude::*;

use super::book::OrderBook;
use super::call::{run, Inner, Shape};
use super::client::Client;
use super::interop::{error_with_cause, field, is_absent, read_bytes, read_signal, read_str, set, to_value};
use crate::api;
use crate::api::{Params, Value};
use crate::bounds::MAX_BOOK_BYTES;
use crate::error::{Error, ErrorCode};
use crate::stream::health::{Action, Status};
use crate::stream::live::{FrameReport, Hasher, LiveBooks, State, PLATFORM_FROM};
use crate::stream::options;
use crate::stream::protocol::{self, Channel};
use crate::stream::{Session, MAX_QUEUED_EVENTS, SNAPSHOT_RETRY_MS};

#[wasm_bindgen(module = "/src/js/stream.js")]
extern "C" {
    /// Starts the driver; it reads the caller's signal, hence `catch`.
    #[wasm_bindgen(js_name = openStream, catch)]
    fn open_stream(
        core: StreamCore,
        url: &str,
        socket: &JsValue,
        on_event: &JsValue,
        signal: &JsValue,
        max_queued: u32,
    ) -> Result<JsValue, JsValue>;

    /// Whether the platform has a SHA-1 (crypto.subtle) the driver can hand checks to.
    #[wasm_bindgen(js_name = platformDigest)]
    fn platform_digest() -> bool;
}

#[wasm_bindgen(typescript_custom_section)]
const STREAM_TYPES: &str = include_str!("stream.d.ts");

/// The decisions of one stream, for its JS driver. Internal: `marketStream` and `userStream` return the
/// driver, which holds it.
#[wasm_bindgen(skip_typescript)]
pub struct StreamCore {
    inner: Rc<Inner>,
    channel: Channel,
    state: Rc<RefCell<Session>>,
    /// Where the driver writes a text frame's UTF-8 (`frameBuffer`), so that it is encoded once, natively,
    /// straight into wasm memory.
    inbox: RefCell<Vec<u8>>,
}

#[cfg(feature = "stream")]
#[wasm_bindgen]
impl Client {
    /// Opens the market channel for `assetIds`: the service's events (`book`, `price_change`,
    /// `tick_size_change`, `last_trade_price`, ...) for `for await` or `onEvent`, and a live `OrderBook` per
    /// asset, checked against the service's hash and resynchronised from a fresh snapshot when it drifts.
    /// PING every 10 s; a missing PONG reconnects, a silent subscription is renewed (`stallAfterMs`), and
    /// reconnects back off from 1 s to 60 s.
    ///
    /// @example
    /// const stream = client.marketStream([tokenId], { onEvent: (e) => e.event_type === "book_update" && render(stream.book(tokenId)) });
    /// for await (const event of stream) if (event.event_type === "status") showStatus(event.status);
    #[wasm_bindgen(js_name = marketStream, unchecked_return_type = "MarketStream")]
    pub fn market_stream(
        &self,
        #[wasm_bindgen(js_name = assetIds, unchecked_param_type = "string[]")] asset_ids: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "MarketStreamOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        open(&self.inner, crate::stream::protocol::Channel::Market, &asset_ids, options.as_ref())
    }

    /// Opens the user channel for the account's orders and trades in `markets` (condition ids; empty for
    /// all). Needs credentials; they go only in the socket's subscription message, never in a URL, an event
    /// or an error.
    ///
    /// @example
    /// for await (const event of client.userStream([])) if (event.event_type === "order") refresh(event.id);
    #[wasm_bindgen(js_name = userStream, unchecked_return_type = "UserStream")]
    pub fn user_stream(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string[]")] markets: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "StreamOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        open(&self.inner, crate::stream::protocol::Channel::User, &markets, options.as_ref())
    }
}

/// Opens a stream of `channel` for `ids` with `options`; the JS object the caller gets.
fn open(inner: &Rc<Inner>, channel: Channel, ids: &JsValue, options: Option<&JsValue>) -> Result<JsValue, JsValue> {
    let ids = protocol::ids(channel, &to_value(ids, "ids")?)?;
    let options = options.filter(|o| !is_absent(o)).cloned().unwrap_or_else(|| Object::new().into());
    let Value::Object(fields) = to_value(&options, "options")? else {
        return Err(Error::invalid("options", "must be an object").into());
    };
    let settings = options::settings(channel, &Params(fields), &inner.calls.borrow().bases().clob)?;
    // The options that are JS objects, read as such.
    let socket = field(&options, "WebSocket", "WebSocket")?;
    let socket = if is_absent(&socket) { field(&js_sys::global(), "WebSocket", "WebSocket")? } else { socket };
    if !socket.is_function() {
        return Err(Error::invalid("WebSocket", "no WebSocket here: pass options.WebSocket (a constructor)").into());
    }
    let on_event = field(&options, "onEvent", "onEvent")?;
    if !is_absent(&on_event) && !on_event.is_function() {
        return Err(Error::invalid("onEvent", "must be a function").into());
    }
    let signal = read_signal(&field(&options, "signal", "signal")?)?.unwrap_or(JsValue::UNDEFINED);
    if channel == Channel::User && inner.credentials.borrow().is_none() {
        return Err(crate::auth::missing_credentials().into());
    }
    let mut session = Session::new(channel, ids, settings.verify, settings.health);
    if platform_digest() {
        session.books.set_hasher(Hasher::Platform { from: PLATFORM_FROM });
    }
    let core = StreamCore {
        inner: inner.clone(),
        channel,
        state: Rc::new(RefCell::new(session)),
        inbox: RefCell::new(Vec::new()),
    };
    open_stream(core, &settings.url, &socket, &on_event, &signal, MAX_QUEUED_EVENTS)
}

/// Room in the inbox that is kept between frames whatever they need (larger room is given back once frames
/// need less than a quarter of it).
const INBOX_KEPT: usize = 1 << 20;

/// What happened to the connection, for [`StreamCore::health`].
const CONNECTING: u32 = 0;
const OPENED: u32 = 1;
const CLOSED: u32 = 2;
const TICK: u32 = 3;
const CLOSE: u32 = 4;

// Few exports, each doing one kind of thing: every export costs the wasm its own shim.
#[wasm_bindgen]
impl StreamCore {
    fn with<R>(&self, otherwise: R, f: impl FnOnce(&mut Session) -> R) -> R {
        self.state.try_borrow_mut().map_or(otherwise, |mut s| f(&mut s))
    }

    /// The subscription to send on a new socket, or to renew one (the user channel's carries the
    /// credentials, as the protocol wants; it goes nowhere but the socket).
    pub fn hello(&self) -> String {
        self.with(String::new(), |s| match (self.channel, self.inner.credentials.try_borrow().ok()) {
            (Channel::Market, _) => protocol::market_subscription(s.ids.list()),
            (Channel::User, Some(creds)) => {
                creds.as_ref().map(|c| c.user_subscription(s.ids.list()).as_str().to_owned()).unwrap_or_default()
            }
            (Channel::User, None) => String::new(),
        })
    }

    /// The connection's news (`kind`: 0 connecting, 1 opened, 2 closed or failed, 3 a timer, 4 closed by
    /// its owner) and what to do: `[["ping"], ["resubscribe"], ["reconnect", ms], ["status", s],
    /// ["error", e]]`, ending with `["next", at]`, when to call again with 3 (`Infinity`: never). A socket
    /// that could not be created gives its `cause`.
    pub fn health(&self, kind: u32, now: f64, random: f64, cause: &JsValue) -> Array {
        let mut expired = Vec::new();
        let (list, next) = self.with((Vec::new(), f64::INFINITY), |s| {
            if kind == TICK {
                // A burst whose hashes nothing explained in its window ends even when no frame comes.
                expired = s.books.expire(now).resync;
            }
            let list = match kind {
                CONNECTING => s.health.connecting(now),
                OPENED => s.health.opened(now),
                CLOSED => {
                    // Every book waits for the new socket's dump.
                    s.books.reconnected();
                    s.health.closed(random)
                }
                TICK => s.health.tick(now, random),
                CLOSE => s.health.close(),
                _ => Vec::new(),
            };
            // A hash that waits for the rest of its burst is settled at its window's end, even if nothing else
            // would wake the stream by then.
            (list, s.health.next_check().min(s.books.deadline()))
        });
        let out = Array::new();
        for action in list {
            let item = match action {
                Action::Ping => Array::of1(&"ping".into()),
                Action::Resubscribe => Array::of1(&"resubscribe".into()),
                Action::Reconnect { delay_ms } => Array::of2(&"reconnect".into(), &delay_ms.into()),
                Action::Status(status) => Array::of2(&"status".into(), &status.as_str().into()),
            };
            out.push(&item);
        }
        for (asset, reason) in resync_pairs(&expired) {
            out.push(&Array::of2(&"resync".into(), &Array::of2(&asset.into(), &reason.into())));
        }
        if !is_absent(cause) {
            let e = Error::new(ErrorCode::Network, "the WebSocket could not be opened");
            out.push(&Array::of2(&"error".into(), &error_with_cause(&e, Some(cause))));
        }
        out.push(&Array::of2(&"next".into(), &next.into()));
        out
    }

    /// Room in wasm memory for `bytes` bytes of a text frame's UTF-8, for the driver to `encodeInto` at once:
    /// a view valid until wasm runs again. At most one byte more than the longest frame read (64 MiB), and
    /// empty when wasm cannot make room: a frame that does not fit is too long to read.
    #[wasm_bindgen(js_name = frameBuffer)]
    pub fn frame_buffer(&self, bytes: u32) -> Uint8Array {
        // The room is made under the inbox's borrow, and the view (a call into JS, which may throw) after it
        // is let go: nothing JS does can leave the inbox borrowed.
        let room = {
            let Ok(mut inbox) = self.inbox.try_borrow_mut() else { return Uint8Array::new_with_length(0) };
            let want = (bytes as usize).min(MAX_BOOK_BYTES as usize + 1);
            // Room far larger than wanted is given back; room too small is replaced, not grown, so that the
            // old bytes are neither copied nor kept beside the new.
            let wasteful = inbox.len() > INBOX_KEPT && inbox.len() / 4 > want;
            if want > inbox.len() || wasteful {
                *inbox = Vec::new();
                if inbox.try_reserve_exact(want).is_err() {
                    return Uint8Array::new_with_length(0);
                }
                inbox.resize(want, 0);
            }
            let room = inbox.get(..want).unwrap_or_default();
            (room.as_ptr(), room.len())
        };
        // SAFETY: `room` is the inbox's first bytes, which nothing frees or moves before the next call of
        // `frameBuffer`. The driver writes into the view (TextEncoder.encodeInto) and calls `frame` before
        // anything else runs in wasm: the memory under it neither moves nor is read meanwhile.
        unsafe { Uint8Array::view(std::slice::from_raw_parts(room.0, room.1)) }
    }

    /// One message of the socket, its UTF-8 in the inbox (`bytes` long; anything else is not a frame of this
    /// protocol): `PONG`, or a frame of events applied to the live books. Answers `{ pong }`, or
    /// `{ changed: [[asset, verified]], resync: [[asset, reason]], error?, status?, wake? }`; `changed` only
    /// when someone listens (`listening`): it is what `book_update` events are made of. `status` is the
    /// stream's after a silent stall ended; `wake`, when a hash that waits for the rest of its burst is settled.
    pub fn frame(&self, bytes: &JsValue, now: f64, listening: bool) -> JsValue {
        let out = || Object::new();
        // A message after a silent stall is the stream open again: the transition the health machine decides
        // goes out with the frame's report (`status`), whatever the frame holds.
        let mut status = None;
        // A hash that began to wait for the rest of its burst: when the driver's timer must wake (`wake`).
        let mut wake = None;
        // The frame's events that repeat a lifecycle event already told (`repeats`: their indexes).
        let mut repeats: Vec<u32> = Vec::new();
        let mut heard = |actions: Vec<Action>| {
            for action in actions {
                if let Action::Status(s) = action {
                    status = Some(s);
                }
            }
        };
        // The inbox is read, and let go, before any JS object is made.
        let result = {
            let inbox = self.inbox.try_borrow().ok();
            let text = match (bytes.as_f64(), &inbox) {
                (Some(n), Some(inbox)) if n >= 0.0 && n <= inbox.len().min(MAX_BOOK_BYTES as usize) as f64 => {
                    inbox.get(..n as usize)
                }
                _ => None,
            };
            match text {
                None => None,
                Some(b"PONG") => Some(Ok(None)),
                Some(text) => Some(self.with(Err(Error::decode("the stream is busy")), |s| {
                    heard(s.health.message(now));
                    match self.channel {
                        Channel::Market => s.books.apply_frame(text, now).map(|r| {
                            wake = s.books.take_new_deadline();
                            // A market's new tick reaches the client's orders too.
                            #[cfg(feature = "trade")]
                            if let Ok(mut learnt) = self.inner.learnt.try_borrow_mut() {
                                for (asset, tick) in &r.ticks {
                                    learnt.tick_changed(asset, *tick);
                                }
                            }
                            let changed = if listening { verified(&s.books, r.changed) } else { Vec::new() };
                            repeats = r.repeats;
                            Some((changed, resync_pairs(&r.resync), s.books.due()))
                        }),
                        Channel::User => {
                            let mut scan = crate::json::Scanner::new(text);
                            scan.skip_value()
                                .and_then(|()| scan.finish())
                                .map(|()| Some((Vec::new(), Vec::new(), false)))
                        }
                    }
                })),
            }
        };
        let answer = match result {
            None => {
                self.with((), |s| heard(s.health.message(now)));
                report(&out(), &[], &[], Some(Error::decode("a stream frame that is not text, or longer than 64 MiB")))
            }
            Some(Ok(None)) => {
                self.with((), |s| s.health.pong(now));
                let out = out();
                set(&out, "pong", &JsValue::TRUE);
                out.into()
            }
            // Most frames: nothing for the driver to do or tell.
            Some(Ok(Some((changed, resync, false))))
                if changed.is_empty()
                    && resync.is_empty()
                    && status.is_none()
                    && wake.is_none()
                    && repeats.is_empty() =>
            {
                JsValue::UNDEFINED
            }
            Some(Ok(Some((changed, resync, due)))) => {
                let out = report(&out(), &changed, &resync, None);
                tell(&out, status.take(), wake);
                if !repeats.is_empty() {
                    let list: Array = repeats.iter().map(|&i| JsValue::from_f64(f64::from(i))).collect();
                    set(&Object::from(out.clone()), "repeats", &list);
                }
                // Last, after every allocation: views into wasm memory, which the driver hands to the
                // platform before anything else runs in wasm.
                if due {
                    attach_due(&out, self.with(Vec::new(), |s| take_due(&mut s.books, false)));
                }
                out
            }
            Some(Err(mut e)) => {
                e.message = "a stream frame could not be read".into();
                report(&out(), &[], &[], Some(e))
            }
        };
        // (The reports above that hold views into wasm memory were told theirs before the views were made.)
        if status.is_some() {
            tell(&answer, status, None);
        }
        answer
    }

    /// The platform's SHA-1 (a `Uint8Array`) of due check `id`, or undefined when it could not compute one:
    /// undefined, or a report like `frame`'s.
    pub fn digested(&self, id: u32, digest: &JsValue, now: f64) -> JsValue {
        let digest = read_bytes(digest, "digest", 20).ok();
        let r = self.with(FrameReport::default(), |s| s.books.digested(id, digest.as_deref(), now));
        if r.changed.is_empty() && r.resync.is_empty() {
            return JsValue::UNDEFINED;
        }
        let changed = self.with(Vec::new(), |s| verified(&s.books, r.changed));
        report(&Object::new(), &changed, &resync_pairs(&r.resync), None)
    }

    /// Follows more ids (`subscribe`) or fewer on the live socket: the message to send, or undefined when
    /// nothing changes.
    pub fn follow(&self, subscribe: bool, ids: &JsValue) -> Result<Option<String>, JsValue> {
        let ids = protocol::ids(self.channel, &to_value(ids, "ids")?)?;
        // Refused whole beyond the bound (`INVALID_PARAMS`): nothing changes and nothing is sent.
        Ok(self.with(Ok(None), |s| s.follow(subscribe, ids))?)
    }

    /// The error event's error for the frames refused because they came while a frame was being applied
    /// (the driver takes a bounded number of those per delivery, and applies them after it).
    pub fn refused(&self) -> JsValue {
        Error::decode(
            "stream frames delivered while a frame was being applied were refused (one delivery takes at most 1,000)",
        )
        .into()
    }

    /// Starts fetching the snapshots (with the client's budgets and retries) that the books need now, as the
    /// core batches them (`live::snapshot_batches`): `[assetId, promise]` for one (GET /book, resolving to the
    /// book), `[assetIds, promise]` for a batch (POST /books, resolving to its books), for `snapshot` (and, for
    /// a batch, `unanswered`) to apply.
    pub fn snapshots(&self) -> Array {
        // (The clock is read before the state is borrowed: a page's Date.now may call back into the stream.)
        let now = super::call::date_now();
        let due = self.with(Vec::new(), |s| s.books.snapshots_due(now));
        crate::stream::live::snapshot_batches(due)
            .into_iter()
            .map(|assets| {
                let call = self.inner.call_options(None);
                let (id, fetched) = match assets.as_slice() {
                    [asset] => (
                        JsValue::from_str(asset),
                        match (api::order_book(asset), call) {
                            (Ok(request), Ok(call)) => {
                                run(&self.inner, request, &call, crate::product::BOOK, Shape::Book)
                            }
                            (Err(e), _) | (_, Err(e)) => Promise::reject(&e.into()),
                        },
                    ),
                    _ => (
                        assets.iter().map(|a| JsValue::from_str(a)).collect::<Array>().into(),
                        match call {
                            Ok(call) => run(
                                &self.inner,
                                api::order_books_of(&assets),
                                &call,
                                crate::product::BOOKS,
                                Shape::Books,
                            ),
                            Err(e) => Promise::reject(&e.into()),
                        },
                    ),
                };
                JsValue::from(Array::of2(&id, &fetched))
            })
            .collect()
    }

    /// A batch's answer is in (each of its books given to `snapshot`): the assets asked for that it left out have
    /// no book on the service; a report like `snapshot`'s, with `retry` when one is to be asked again.
    pub fn unanswered(&self, assets: JsValue) -> JsValue {
        let out = Object::new();
        let assets: Vec<String> = match to_value(&assets, "assets") {
            Ok(Value::Array(items)) => items
                .into_iter()
                .filter_map(|v| match v {
                    Value::Str(s) => Some(s),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        let now = super::call::date_now();
        if let Some(ms) = self.with(None, |s| s.books.unanswered(&assets, now)) {
            set(&out, "retry", &ms.into());
        }
        report(&out, &[], &[], None)
    }

    /// The account's side of a user channel `trade` event (`api::fills`): an array, or undefined for any other
    /// event or channel.
    pub fn fills(&self, event: JsValue) -> JsValue {
        if self.channel != Channel::User {
            return JsValue::UNDEFINED;
        }
        super::client::account_fills(&self.inner, &event, true)
    }

    /// Applies a fetched snapshot of `asset` (none: it could not be had); a report like `frame`'s, with
    /// `retry` when the snapshot is to be fetched again (`true`: after a pause; a number: after that long).
    pub fn snapshot(&self, asset: JsValue, book: Option<OrderBook>, error: JsValue) -> JsValue {
        let out = Object::new();
        let Ok(asset) = read_str(&asset, "assetId", 100) else { return report(&out, &[], &[], None) };
        let now = super::call::date_now();
        // Applied under the state's borrow, which is let go before any JS value is made.
        let applied = match self.state.try_borrow_mut() {
            // A busy stream gets the snapshot again later.
            Err(_) => None,
            Ok(mut s) => match book {
                Some(book) => {
                    let r = s.books.snapshot(&asset, book.into_inner(), now);
                    let changed = verified(&s.books, r.changed);
                    // Copies: the driver gets them a turn later, when wasm memory may have moved.
                    Some((r.retry_ms, changed, resync_pairs(&r.resync), take_due(&mut s.books, true)))
                }
                // Why it could not be had decides when it is asked again (the core's `snapshot_error`).
                None => {
                    let code = super::interop::get(&error, "code").as_string();
                    s.books
                        .snapshot_error(&asset, code.as_deref(), now)
                        .map(|d| (Some(d), Vec::new(), Vec::new(), Vec::new()))
                }
            },
        };
        let Some((retry_ms, changed, resync, due)) = applied else {
            set(&out, "retry", &SNAPSHOT_RETRY_MS.into());
            return report(&out, &[], &[], None);
        };
        if let Some(ms) = retry_ms {
            // Stale: asked for again once the core's backoff has passed.
            set(&out, "retry", &ms.into());
        }
        let out = report(&out, &changed, &resync, None);
        attach_due(&out, due);
        out
    }

    /// A copy of an asset's live book (`status` false), or its status (`status` true); undefined for an
    /// asset the stream does not follow.
    pub fn book(&self, asset: &JsValue, status: bool) -> JsValue {
        let Ok(asset) = read_str(asset, "assetId", 100) else { return JsValue::UNDEFINED };
        // Read under the state's borrow; the JS values are made after it is let go.
        let read = self.with(None, |s| {
            let live = s.books.get(&asset)?;
            if !status {
                return Some(Err(live.book.clone()));
            }
            let state = match live.state {
                _ if live.resolved => "resolved",
                _ if live.has_no_book() => "none",
                State::Waiting => "waiting",
                State::Live => "live",
                State::Resyncing => "resyncing",
            };
            let counts = [live.checks, live.mismatches, live.deferred, live.inferred, live.stale, live.missing]
                .map(|n| n as f64);
            Some(Ok((state, live.verified, live.verified_at_ms, counts)))
        });
        match read {
            None | Some(Err(None)) => JsValue::UNDEFINED,
            Some(Err(Some(book))) => OrderBook::from(book).into(),
            Some(Ok((state, verified, verified_at, counts))) => {
                let out = Object::new();
                set(&out, "state", &state.into());
                set(&out, "verified", &verified.into());
                if verified_at.is_finite() {
                    set(&out, "verifiedAt", &verified_at.into());
                }
                for (key, n) in ["checks", "mismatches", "deferred", "inferred", "staleSnapshots", "missing"]
                    .into_iter()
                    .zip(counts)
                {
                    set(&out, key, &n.into());
                }
                out.into()
            }
        }
    }
}

/// Adds to a report the health machine's new status and when the driver's timer must wake.
fn tell(out: &JsValue, status: Option<Status>, wake: Option<f64>) {
    if let Some(status) = status {
        set(&Object::from(out.clone()), "status", &status.as_str().into());
    }
    if let Some(at) = wake {
        set(&Object::from(out.clone()), "wake", &at.into());
    }
}

/// Changed assets with whether their book is verified now.
fn verified(books: &LiveBooks, changed: Vec<String>) -> Vec<(String, bool)> {
    changed
        .into_iter()
        .map(|a| {
            let v = books.get(&a).is_some_and(|b| b.verified);
            (a, v)
        })
        .collect()
}

/// The bytes of a check due for the platform: where they are in wasm memory (for a view), or a copy.
enum DueBytes {
    At(*const u8, usize),
    Copy(Vec<u8>),
}

/// The checks due for the platform, taken from the books under the state's borrow; [`attach_due`] makes
/// them JS values once it is let go.
fn take_due(books: &mut LiveBooks, copy: bool) -> Vec<(u32, DueBytes)> {
    let (due, input) = books.take_due();
    due.iter()
        .map(|d| {
            let bytes = input.get(d.start..d.end).unwrap_or_default();
            (d.id, if copy { DueBytes::Copy(bytes.to_vec()) } else { DueBytes::At(bytes.as_ptr(), bytes.len()) })
        })
        .collect()
}

/// Adds the checks due for the platform to a report, as `due: [[id, bytes]]`: views into wasm memory
/// (valid until wasm next allocates), or copies.
fn attach_due(out: &JsValue, due: Vec<(u32, DueBytes)>) {
    if due.is_empty() {
        return;
    }
    let list = Array::new();
    for (id, bytes) in due {
        let view = match bytes {
            DueBytes::Copy(bytes) => Uint8Array::from(&bytes[..]),
            // SAFETY: the bytes are the books' check input, which stays until the next frame or snapshot is
            // applied. A view is only made for `frame`, whose driver passes it to crypto.subtle.digest (which
            // copies it) before anything else runs in wasm: the memory under it neither moves nor changes.
            DueBytes::At(at, len) => unsafe { Uint8Array::view(std::slice::from_raw_parts(at, len)) },
        };
        list.push(&Array::of2(&JsValue::from(id), &view));
    }
    set(&Object::from(out.clone()), "due", &list);
}

fn resync_pairs(list: &[(String, crate::stream::live::Resync)]) -> Vec<(String, &'static str)> {
    list.iter().map(|(a, r)| (a.clone(), r.as_str())).collect()
}

fn report(
    out: &Object,
    changed: &[(String, bool)],
    resync: &[(String, &'static str)],
    error: Option<Error>,
) -> JsValue {
    let list = Array::new();
    for (asset, verified) in changed {
        let pair = Array::of2(&JsValue::from_str(asset), &JsValue::from_bool(*verified));
        list.push(&pair);
    }
    set(out, "changed", &list);
    let list = Array::new();
    for (asset, reason) in resync {
        list.push(&Array::of2(&JsValue::from_str(asset), &JsValue::from_str(reason)));
    }
    set(out, "resync", &list);
    if let Some(e) = error {
        set(out, "error", &e.into());
    }
    out.clone().into()
}
