//! `marketStream` and `userStream`: the service's streaming channels. The socket, its timers and the event
//! queue are `src/js/stream.js`; every decision is the core's (`crate::stream`). `StreamCore` converts
//! between the two: the JS driver calls it on every socket event and does what it answers.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Array, Function, Object, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::book::OrderBook;
use super::call::Inner;
use super::interop::{error_with_cause, field, is_absent, promise, read_signal, read_str, set, to_value};
use super::transport::{Payload, Want};
use crate::api;
use crate::bounds::MAX_BOOK_BYTES;
use crate::error::{Error, ErrorCode};
use crate::stream::health::{Action, Health, HealthPolicy};
use crate::stream::live::{HashCheck, LiveBooks, State};
use crate::stream::protocol::{self, Channel};

#[wasm_bindgen(module = "/src/js/stream.js")]
extern "C" {
    /// Starts the driver; it reads the caller's signal, hence `catch`.
    #[wasm_bindgen(js_name = openStream, catch)]
    fn open_stream(core: StreamCore, url: &str, socket: &JsValue, on_event: &JsValue, signal: &JsValue) -> Result<JsValue, JsValue>;
}

#[wasm_bindgen(typescript_custom_section)]
const STREAM_TYPES: &str = r#"
/** The status of a stream, for a UI: `stalled` means PONGs come but market messages do not. */
export type StreamStatus = "connecting" | "open" | "stalled" | "reconnecting" | "closed";

/** Why a live book is being resynchronised from a fresh snapshot. */
export type ResyncReason = "hash_mismatch" | "book_mismatch" | "gap" | "overflow";

/** Options of `marketStream` and `userStream`. */
export interface StreamOptions {
  /** The streaming base URL (`wss://…`); default: the client's CLOB base URL with `ws:`/`wss:`. */
  wsBaseUrl?: string;
  /** A WebSocket constructor (default: the global one; Node 20 needs one passed, or `--experimental-websocket`). */
  WebSocket?: unknown;
  /** Called with every event, as `for await` gets them. A listener that throws does not stop the stream. */
  onEvent?: (event: StreamEvent) => void;
  /** Aborting closes the stream. */
  signal?: AbortSignal;
  /** Milliseconds without a channel message (PONGs still coming) before the subscription is renewed; default 60,000; `Infinity` turns it off. */
  stallAfterMs?: number;
  /** Milliseconds between PINGs (default 10,000, as the service expects). */
  pingEveryMs?: number;
  /** Milliseconds a PONG may take before the connection counts as dead (default 10,000). */
  pongWithinMs?: number;
}

/** Options of `marketStream`. */
export interface MarketStreamOptions extends StreamOptions {
  /** When live books are checked against the service's hash: after every entry, after each asset's last entry in a frame (default), or never. */
  verify?: "entry" | "frame" | "off";
}

/** A level of a `book` event. */
export interface StreamLevel { price: string; size: string; }

/** The market channel's events, as the service sends them. */
export interface BookEvent { event_type: "book"; market: string; asset_id: string; timestamp: string; hash: string; bids: StreamLevel[]; asks: StreamLevel[]; tick_size?: string; last_trade_price?: string; }
export interface PriceChangeEntry { asset_id: string; price: string; size: string; side: OrderSide; hash: string; best_bid: string; best_ask: string; }
export interface PriceChangeEvent { event_type: "price_change"; market: string; timestamp: string; price_changes: PriceChangeEntry[]; }
export interface TickSizeChangeEvent { event_type: "tick_size_change"; asset_id: string; market: string; old_tick_size: string; new_tick_size: string; timestamp?: string; }
export interface LastTradePriceEvent { event_type: "last_trade_price"; asset_id: string; market: string; price: string; side: OrderSide; size: string; fee_rate_bps?: string; timestamp: string; transaction_hash?: string; }
export interface BestBidAskEvent { event_type: "best_bid_ask"; asset_id: string; market: string; best_bid: string; best_ask: string; spread?: string; timestamp: string; }
export interface NewMarketEvent { event_type: "new_market"; [field: string]: unknown; }
export interface MarketResolvedEvent { event_type: "market_resolved"; [field: string]: unknown; }

/** The user channel's events. */
export interface OrderEvent { event_type: "order"; id: string; owner?: string; market: string; asset_id: string; side: OrderSide; price: string; original_size?: string; size_matched?: string; outcome?: string; type: "PLACEMENT" | "UPDATE" | "CANCELLATION"; status?: string; timestamp?: string; associate_trades?: string[] | null; }
export interface TradeEvent { event_type: "trade"; id: string; taker_order_id?: string; market: string; asset_id: string; side: OrderSide; size: string; price: string; status: "MATCHED" | "MINED" | "CONFIRMED" | "RETRYING" | "FAILED"; maker_orders?: unknown[]; owner?: string; timestamp?: string; type?: string; }

/** Events of the library itself. */
export interface StatusEvent { event_type: "status"; status: StreamStatus; }
export interface BookUpdateEvent { event_type: "book_update"; asset_id: string; verified: boolean; }
export interface ResyncEvent { event_type: "resync"; asset_id: string; reason: ResyncReason; }
export interface StreamErrorEvent { event_type: "error"; error: PredictKitError; }

export type MarketStreamEvent = BookEvent | PriceChangeEvent | TickSizeChangeEvent | LastTradePriceEvent | BestBidAskEvent | NewMarketEvent | MarketResolvedEvent | StatusEvent | BookUpdateEvent | ResyncEvent | StreamErrorEvent;
export type UserStreamEvent = OrderEvent | TradeEvent | StatusEvent | StreamErrorEvent;
export type StreamEvent = MarketStreamEvent | UserStreamEvent;

/** Whether a live book is current. */
export interface LiveBookStatus {
  state: "waiting" | "live" | "resyncing";
  /** The last check against the service's hash matched. */
  verified: boolean;
  /** When (`Date.now()`) it last matched; undefined before that. */
  verifiedAt?: number;
  checks: number;
  mismatches: number;
}

/** A live stream of one channel: iterate it (`for await`; `break` closes it) or pass `onEvent`. */
export interface Stream<E> extends AsyncIterable<E> {
  readonly status: StreamStatus;
  /** Events dropped because a `for await` fell more than 10,000 events behind. */
  readonly dropped: number;
  /** Follows more assets (market) or markets (user) on the live socket. */
  subscribe(ids: string[]): void;
  unsubscribe(ids: string[]): void;
  /** Closes the socket and ends iteration. */
  close(): void;
}

export interface MarketStream extends Stream<MarketStreamEvent> {
  /** A copy of the live book of an asset (free it when done), or undefined before it has one. */
  book(assetId: string): OrderBook | undefined;
  bookStatus(assetId: string): LiveBookStatus | undefined;
}

export interface UserStream extends Stream<UserStreamEvent> {}
"#;

/// The decisions of one stream, for its JS driver. Internal: `marketStream` and `userStream` return the
/// driver, which holds it.
#[wasm_bindgen(skip_typescript)]
pub struct StreamCore {
    inner: Rc<Inner>,
    channel: Channel,
    state: Rc<RefCell<CoreState>>,
}

struct CoreState {
    ids: Vec<String>,
    books: LiveBooks,
    health: Health,
}

/// Opens a stream of `channel` for `ids` with `options`; the JS object the caller gets.
pub(super) fn open(inner: &Rc<Inner>, channel: Channel, ids: &JsValue, options: Option<&JsValue>) -> Result<JsValue, JsValue> {
    let ids = protocol::ids(channel, &to_value(ids, "ids")?)?;
    let options = options.filter(|o| !is_absent(o)).cloned().unwrap_or_else(|| Object::new().into());
    if !options.is_object() {
        return Err(Error::invalid("options", "must be an object").into());
    }
    let base = match read_opt(&options, "wsBaseUrl")? {
        Some(url) => read_str(&url, "wsBaseUrl", 4096)?,
        None => inner.transport.bases.clob.clone(),
    };
    let url = protocol::socket_url(&base, channel)?;
    let socket = match read_opt(&options, "WebSocket")? {
        Some(ctor) => ctor,
        None => js_sys::global().into(),
    };
    let socket = if socket.is_function() { socket } else { field(&socket, "WebSocket", "WebSocket")? };
    if !socket.is_function() {
        return Err(Error::invalid("WebSocket", "no WebSocket here: pass options.WebSocket (a constructor)").into());
    }
    let on_event = match read_opt(&options, "onEvent")? {
        Some(f) => f.dyn_into::<Function>().map_err(|_| Error::invalid("onEvent", "must be a function"))?.into(),
        None => JsValue::UNDEFINED,
    };
    let signal = read_signal(&field(&options, "signal", "signal")?)?.unwrap_or(JsValue::UNDEFINED);
    let defaults = HealthPolicy::default();
    let policy = HealthPolicy {
        stall_after_ms: ms(&options, "stallAfterMs", defaults.stall_after_ms)?,
        ping_every_ms: ms(&options, "pingEveryMs", defaults.ping_every_ms)?,
        pong_within_ms: ms(&options, "pongWithinMs", defaults.pong_within_ms)?,
        ..defaults
    };
    let verify = match read_opt(&options, "verify")? {
        Some(v) => HashCheck::parse(&read_str(&v, "verify", 8)?)?,
        None => HashCheck::LastPerFrame,
    };
    if channel == Channel::User && inner.credentials.is_none() {
        return Err(crate::auth::missing_credentials().into());
    }
    let mut books = LiveBooks::new(verify);
    if channel == Channel::Market {
        for id in &ids {
            books.subscribe(id);
        }
    }
    let core = StreamCore {
        inner: inner.clone(),
        channel,
        state: Rc::new(RefCell::new(CoreState { ids, books, health: Health::new(policy) })),
    };
    open_stream(core, &url, &socket, &on_event, &signal)
}

fn read_opt(options: &JsValue, key: &'static str) -> Result<Option<JsValue>, Error> {
    let value = field(options, key, key)?;
    Ok((!is_absent(&value)).then_some(value))
}

/// A duration option: at least 100 ms, or `Infinity`.
fn ms(options: &JsValue, key: &'static str, default: f64) -> Result<f64, Error> {
    match read_opt(options, key)? {
        None => Ok(default),
        Some(v) => match v.as_f64() {
            Some(n) if n >= 100.0 => Ok(n),
            _ => Err(Error::invalid(key, "must be at least 100 milliseconds (or Infinity)")),
        },
    }
}

/// Actions as the driver takes them: `[["ping"], ["resubscribe"], ["reconnect", ms], ["status", s]]` (for a
/// resubscription the driver sends `hello()` again).
fn actions(list: Vec<Action>) -> Array {
    let out = Array::new();
    for action in list {
        let item = Array::new();
        match action {
            Action::Ping => item.push(&"ping".into()),
            Action::Resubscribe => item.push(&"resubscribe".into()),
            Action::Reconnect { delay_ms } => {
                item.push(&"reconnect".into());
                item.push(&delay_ms.into())
            }
            Action::Status(status) => {
                item.push(&"status".into());
                item.push(&status.as_str().into())
            }
        };
        out.push(&item);
    }
    out
}

#[wasm_bindgen]
impl StreamCore {
    fn with<R>(&self, otherwise: R, f: impl FnOnce(&mut CoreState) -> R) -> R {
        self.state.try_borrow_mut().map_or(otherwise, |mut s| f(&mut s))
    }

    /// The subscription to send on a new socket (the user channel's carries the credentials, as the
    /// protocol wants; it goes nowhere but the socket).
    pub fn hello(&self) -> String {
        self.with(String::new(), |s| self.subscription(&s.ids))
    }

    fn subscription(&self, ids: &[String]) -> String {
        match (self.channel, &self.inner.credentials) {
            (Channel::Market, _) => protocol::market_subscription(ids),
            (Channel::User, Some(creds)) => creds.user_subscription(ids).as_str().to_owned(),
            (Channel::User, None) => String::new(),
        }
    }

    pub fn connecting(&self) -> Array {
        let list = self.with(Vec::new(), |s| s.health.connecting());
        actions(list)
    }

    pub fn opened(&self, now: f64) -> Array {
        let list = self.with(Vec::new(), |s| s.health.opened(now));
        actions(list)
    }

    /// The socket closed or failed: every book waits for the new socket's dump.
    pub fn closed(&self, random: f64) -> Array {
        let list = self.with(Vec::new(), |s| {
            s.books.reconnected();
            s.health.closed(random)
        });
        actions(list)
    }

    pub fn tick(&self, now: f64, random: f64) -> Array {
        let list = self.with(Vec::new(), |s| s.health.tick(now, random));
        actions(list)
    }

    #[wasm_bindgen(js_name = nextCheck)]
    pub fn next_check(&self) -> f64 {
        self.with(f64::INFINITY, |s| s.health.next_check())
    }

    pub fn close(&self) -> Array {
        let list = self.with(Vec::new(), |s| s.health.close());
        actions(list)
    }

    /// The error of a socket that could not be created.
    #[wasm_bindgen(js_name = socketError)]
    pub fn socket_error(&self, cause: &JsValue) -> JsValue {
        let e = Error::new(ErrorCode::Network, "the WebSocket could not be opened");
        error_with_cause(&e, Some(cause))
    }

    /// One message of the socket: `PONG`, or a frame of events applied to the live books. Answers
    /// `{ pong }`, or `{ changed: [[asset, verified]], resync: [[asset, reason]], error? }`.
    pub fn frame(&self, data: &JsValue, now: f64) -> JsValue {
        let out = Object::new();
        let text = match read_str(data, "frame", MAX_BOOK_BYTES) {
            Ok(text) => text,
            Err(_) => {
                self.with((), |s| drop(s.health.message(now)));
                return report(&out, &[], &[], Some(Error::decode("a stream frame that is not text")));
            }
        };
        if text == "PONG" {
            self.with((), |s| s.health.pong(now));
            set(&out, "pong", &JsValue::TRUE);
            return out.into();
        }
        let result = self.with(Err(Error::decode("the stream is busy")), |s| {
            s.health.message(now);
            match self.channel {
                Channel::Market => {
                    s.books.apply_frame(text.as_bytes(), now).map(|r| (verified(&s.books, r.changed), r.resync))
                }
                Channel::User => {
                    let mut scan = crate::json::Scanner::new(text.as_bytes());
                    scan.skip_value().and_then(|()| scan.finish()).map(|()| (Vec::new(), Vec::new()))
                }
            }
        });
        match result {
            Ok((changed, resync)) => report(&out, &changed, &resync_pairs(&resync), None),
            Err(mut e) => {
                e.message = "a stream frame could not be read".into();
                report(&out, &[], &[], Some(e))
            }
        }
    }

    /// Follows more ids on the live socket: the message to send, or undefined when nothing is new.
    pub fn subscribe(&self, ids: &JsValue) -> Result<Option<String>, JsValue> {
        let ids = protocol::ids(self.channel, &to_value(ids, "ids")?)?;
        let fresh = self.with(Vec::new(), |s| {
            let fresh: Vec<String> = ids.into_iter().filter(|id| !s.ids.contains(id)).collect();
            for id in &fresh {
                s.ids.push(id.clone());
                if self.channel == Channel::Market {
                    s.books.subscribe(id);
                }
            }
            fresh
        });
        Ok((!fresh.is_empty()).then(|| self.operation(true, &fresh)))
    }

    pub fn unsubscribe(&self, ids: &JsValue) -> Result<Option<String>, JsValue> {
        let ids = protocol::ids(self.channel, &to_value(ids, "ids")?)?;
        let gone = self.with(Vec::new(), |s| {
            let gone: Vec<String> = ids.into_iter().filter(|id| s.ids.contains(id)).collect();
            s.ids.retain(|id| !gone.contains(id));
            for id in &gone {
                s.books.unsubscribe(id);
            }
            gone
        });
        Ok((!gone.is_empty()).then(|| self.operation(false, &gone)))
    }

    fn operation(&self, subscribe: bool, ids: &[String]) -> String {
        match self.channel {
            Channel::Market => protocol::operation(subscribe, ids),
            Channel::User => protocol::user_operation(subscribe, ids),
        }
    }

    /// The assets whose snapshot (GET /book) should be fetched now.
    #[wasm_bindgen(js_name = snapshotsDue)]
    pub fn snapshots_due(&self) -> Array {
        let due = self.with(Vec::new(), |s| s.books.snapshots_due());
        due.iter().map(|a| JsValue::from_str(a)).collect()
    }

    /// Fetches the snapshot of `asset` (with the client's budgets and retries) and applies it. Resolves
    /// to a report like `frame`'s; never rejects.
    pub fn snapshot(&self, asset: &JsValue) -> Promise {
        let asset = read_str(asset, "assetId", 100).unwrap_or_default();
        let inner = self.inner.clone();
        // The stream may be closed (and its core freed) while the snapshot is on the way.
        let state = Rc::downgrade(&self.state);
        promise(Box::pin(async move {
            let out = Object::new();
            let fetched = Cell::new(None);
            let decode = |payload: Payload| match payload {
                Payload::Bytes(bytes) => {
                    fetched.set(Some(crate::book::OrderBook::from_vec(bytes)?));
                    Ok(JsValue::UNDEFINED)
                }
                _ => Err(Error::decode("expected a byte body")),
            };
            let sent = match (api::order_book(&asset), inner.call_options(None)) {
                (Ok(request), Ok(call)) => inner.execute(&request, &call, Want::Bytes, &decode).await.is_ok(),
                _ => false,
            };
            let now = js_sys::Date::now();
            let Some(state) = state.upgrade() else { return Ok(out.into()) };
            let Ok(mut s) = state.try_borrow_mut() else { return Ok(out.into()) };
            match fetched.take().filter(|_| sent) {
                Some(book) => {
                    let r = s.books.snapshot(&asset, book, now);
                    Ok(report(&out, &verified(&s.books, r.changed), &resync_pairs(&r.resync), None))
                }
                None => {
                    s.books.snapshot_failed(&asset);
                    Ok(out.into())
                }
            }
        }))
    }

    /// A copy of an asset's live book, or undefined.
    pub fn book(&self, asset: &JsValue) -> Option<OrderBook> {
        let asset = read_str(asset, "assetId", 100).ok()?;
        self.with(None, |s| s.books.get(&asset).and_then(|b| b.book.clone()).map(OrderBook::from))
    }

    #[wasm_bindgen(js_name = bookStatus)]
    pub fn book_status(&self, asset: &JsValue) -> JsValue {
        let Ok(asset) = read_str(asset, "assetId", 100) else { return JsValue::UNDEFINED };
        self.with(JsValue::UNDEFINED, |s| {
            let Some(live) = s.books.get(&asset) else { return JsValue::UNDEFINED };
            let out = Object::new();
            let state = match live.state {
                State::Waiting => "waiting",
                State::Live => "live",
                State::Resyncing => "resyncing",
            };
            set(&out, "state", &state.into());
            set(&out, "verified", &live.verified.into());
            if live.verified_at_ms.is_finite() {
                set(&out, "verifiedAt", &live.verified_at_ms.into());
            }
            set(&out, "checks", &(live.checks as f64).into());
            set(&out, "mismatches", &(live.mismatches as f64).into());
            out.into()
        })
    }
}

/// Changed assets with whether their book is verified now.
fn verified(books: &LiveBooks, changed: Vec<String>) -> Vec<(String, bool)> {
    changed.into_iter().map(|a| { let v = books.get(&a).is_some_and(|b| b.verified); (a, v) }).collect()
}

fn resync_pairs(list: &[(String, crate::stream::live::Resync)]) -> Vec<(String, &'static str)> {
    list.iter().map(|(a, r)| (a.clone(), r.as_str())).collect()
}

fn report(out: &Object, changed: &[(String, bool)], resync: &[(String, &'static str)], error: Option<Error>) -> JsValue {
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

