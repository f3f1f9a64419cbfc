//! The service's streaming channels (`/ws/market`, `/ws/user`): the live books that the market simulator and
//! the admin ticks move, the open sockets and their subscriptions, the events each change sends, and the
//! stream faults. Everything that changes a live book and sends it happens under one lock, so every socket
//! gets its frames in the order the books changed, and a subscription's `book` dump is exactly the state
//! that its later changes start from.
//!
//! The market channel speaks the shapes real captures of the service show ([`Shapes::Real`], the default):
//! `book` events without their market fields, trades as same-timestamp bursts whose entries all carry the hash
//! of the state after the burst, announced afterwards or never. `POST /__admin/stream {"shapes": "exact"}`
//! brings back one hash per entry for tests that check each entry. Every hash sent is the true hash of the
//! state it claims, computed by [`LiveBook`]'s own summary.

pub mod book;
mod socket;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::body::Bytes;
use axum::extract::State as Extract;
use axum::routing::{get, post};
use axum::Router;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use sha1::{Digest, Sha1};
use tokio::sync::{mpsc, watch};

use crate::accounts::Accounts;
use crate::dataset::Catalog;
use crate::faults::{FaultKind, Faults, RuleSpec};
use crate::params::{ok_json, ApiError, ApiResult};
use crate::text::{decimal, iso};
use crate::{lock, App};
pub use book::{Change, LiveBook, Side};
use book::{Entry, Item};

pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/ws/market", get(socket::market))
        .route("/ws/user", get(socket::user))
        // GET /__admin/stream (the sockets) is served with the other admin routes.
        .route("/__admin/stream", post(set_shapes))
}

/// `POST /__admin/stream {"shapes": "real"|"exact"}`: the shapes the market channel sends from now on, until the
/// next reset (which restores `real`).
async fn set_shapes(Extract(app): Extract<Arc<App>>, body: Bytes) -> ApiResult {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Body {
        shapes: Shapes,
    }
    let Body { shapes } = serde_json::from_slice(&body)
        .map_err(|e| ApiError::bad(format!("body must be {{\"shapes\": \"real\"|\"exact\"}}: {e}")))?;
    app.stream.set_shapes(shapes);
    ok_json(&json!({ "shapes": shapes }))
}

/// Most changes in one frame of the simulator or of an admin tick.
const FRAME_CHANGES: usize = 5;
/// How often the simulator moves the subscribed books.
const SIMULATOR_STEP: Duration = Duration::from_millis(100);
/// Most changes one admin tick applies.
pub const TICK_MAX: u64 = 100_000;
/// With the real shapes, a trade's `last_trade_price` events are left out once in this many trades.
const TRADE_UNANNOUNCED: u32 = 4;
/// With the real shapes, a `book` event (without its market fields) follows a trade once in this many trades.
const BOOK_AFTER_TRADE: u32 = 4;

/// The shapes of the market channel's messages.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Shapes {
    /// As real captures of the service show them (the default): `book` events (the subscription's dump, and
    /// after some trades) without `tick_size`, `last_trade_price`, `min_order_size` or `neg_risk`, while their
    /// hash covers those fields; a trade as a burst of two or more `price_change` messages at one timestamp,
    /// every entry with the hash of the book after the burst (its last trade price included), then its
    /// `last_trade_price` event in a message of its own, or, once in [`TRADE_UNANNOUNCED`], none.
    #[default]
    Real,
    /// One message per frame, each entry with the hash of the book right after it, a trade's
    /// `last_trade_price` before its entry, and `book` events with `tick_size` and `last_trade_price`: for
    /// tests that check every entry's hash.
    Exact,
}

/// One injected misbehaviour of a streaming channel.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum StreamFault {
    /// Close the TCP connection without a close frame.
    Drop,
    /// Hold this and every later message (PING is still answered) for `ms`, or until the faults are cleared.
    Stall {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ms: Option<u64>,
    },
    /// The next price-change entry carries a wrong hash (the book changes correctly).
    WrongHash,
    /// Send the next message cut in half (not JSON).
    Malformed,
    /// Do not send the next change (it is applied to the book all the same).
    Lose,
}

impl FaultKind for StreamFault {
    fn name(&self) -> &'static str {
        match self {
            StreamFault::Drop => "drop",
            StreamFault::Stall { .. } => "stall",
            StreamFault::WrongHash => "wrong_hash",
            StreamFault::Malformed => "malformed",
            StreamFault::Lose => "lose",
        }
    }

    fn by_name(name: &str) -> Option<Self> {
        Some(match name {
            "drop" => StreamFault::Drop,
            "stall" => StreamFault::Stall { ms: None },
            "wrong_hash" => StreamFault::WrongHash,
            "malformed" => StreamFault::Malformed,
            "lose" => StreamFault::Lose,
            _ => return None,
        })
    }

    fn validate(&self) -> Result<(), String> {
        match self {
            StreamFault::Stall { ms: Some(ms) } if *ms > 600_000 => Err("ms must be at most 600000".into()),
            _ => Ok(()),
        }
    }
}

/// What a message about to be sent is, for the faults that apply to some messages only.
#[derive(Clone, Copy)]
struct Message {
    /// A subscription's `book` dump (not a change: `lose` leaves it alone).
    dump: bool,
    /// Holds a price-change entry (`wrong_hash` waits for one).
    entries: bool,
}

impl StreamFault {
    fn applies(&self, message: Message) -> bool {
        match self {
            StreamFault::WrongHash => message.entries,
            StreamFault::Lose => !message.dump,
            _ => true,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    Market,
    User,
}

impl Channel {
    pub fn path(self) -> &'static str {
        match self {
            Channel::Market => "/ws/market",
            Channel::User => "/ws/user",
        }
    }
}

/// What a socket's task does with one queued item, in order.
#[derive(Debug)]
pub enum Out {
    /// Send this text frame.
    Text(String),
    /// Send nothing more (PONG aside) for `ms`, or until the stream faults are cleared.
    Stall(Option<u64>),
    /// Close the TCP connection without a close frame.
    Drop,
}

/// Counters of one socket, kept by its task.
#[derive(Default)]
pub struct SocketStats {
    pub sent: AtomicU64,
    pub received: AtomicU64,
}

struct Socket {
    channel: Channel,
    tx: mpsc::UnboundedSender<Out>,
    stats: Arc<SocketStats>,
    opened_at: u64,
    /// Market channel: the subscribed token ids.
    assets: BTreeSet<String>,
    custom: bool,
    /// User channel: the authenticated account and its markets (lowercase condition ids; `None` = all).
    account: Option<usize>,
    markets: Option<BTreeSet<String>>,
    /// Faults given to this socket's messages.
    faults: u64,
}

struct State {
    /// The books that have moved (token id → live book); the others are as generated or recorded.
    live: HashMap<String, LiveBook>,
    /// The last event timestamp of each token (kept across resets, so timestamps never go back).
    last_ts: HashMap<String, u64>,
    sockets: BTreeMap<u64, Socket>,
    next_id: u64,
    rng: ChaCha8Rng,
    faults: Faults<StreamFault>,
    /// The simulator's fractional changes owed per subscribed token.
    budget: HashMap<String, f64>,
    shapes: Shapes,
    /// The real shapes' draws (which trades are announced, which are followed by a book), apart from the
    /// changes' draws so that both shapes move the books alike.
    shape_rng: ChaCha8Rng,
}

/// The streaming channels' state (one per emulator).
pub struct Hub {
    catalog: Arc<Catalog>,
    accounts: Arc<Accounts>,
    seed: u64,
    /// Price-change entries per second per subscribed asset (0: books move on admin ticks only).
    pub rate: f64,
    state: Mutex<State>,
    /// Bumped when the stream faults are cleared: stalled sockets resume.
    cleared: watch::Sender<u64>,
    /// Set when the emulator stops: sockets close (1001).
    shutdown: watch::Sender<bool>,
}

pub fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}

fn rng_of(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed ^ 0x5354_5245_414d)
}

fn shape_rng_of(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed ^ 0x5348_4150_4553)
}

/// An error of an admin stream route.
pub enum TickError {
    UnknownAsset,
    Book(String),
}

/// What one trading operation does to a live book (see [`Hub::trade`]) and who hears of it.
#[derive(Default)]
pub struct Effects {
    /// Level changes and trades, applied and sent in this order.
    pub changes: Vec<Change>,
    /// Changes of the user orders' size resting at (side, price), which the simulator leaves alone.
    pub reserve: Vec<(Side, u64, i64)>,
    /// User-channel events: (account, (condition id, event)).
    pub user: Vec<(usize, (String, Value))>,
}

/// The order events' `type`.
#[derive(Clone, Copy, Debug)]
pub enum OrderEventType {
    Placement,
    Update,
    Cancellation,
}

impl OrderEventType {
    pub fn as_str(self) -> &'static str {
        match self {
            OrderEventType::Placement => "PLACEMENT",
            OrderEventType::Update => "UPDATE",
            OrderEventType::Cancellation => "CANCELLATION",
        }
    }
}

/// The user channel's `order` event of catalog order `index`, with its market's condition id.
pub fn order_event(c: &Catalog, index: usize, kind: OrderEventType, canceled: bool) -> (String, Value) {
    let o = &c.orders[index];
    let m = &c.markets[o.market];
    let status = crate::account::order_status(o, canceled);
    let trades: Vec<String> = if o.size_matched > 0 { vec![format!("{}-trade", &o.id[2..18])] } else { Vec::new() };
    let event = json!({
        "event_type": "order", "id": o.id, "owner": c.accounts[o.account].api_key, "market": m.condition_id,
        "asset_id": m.tokens[o.outcome], "side": if o.buy { "BUY" } else { "SELL" }, "price": decimal(o.price, 6),
        "original_size": o.original_size.to_string(), "size_matched": o.size_matched.to_string(),
        "outcome": m.outcomes[o.outcome], "type": kind.as_str(), "status": status,
        "timestamp": now_ms().to_string(), "associate_trades": trades,
    });
    (m.condition_id.clone(), event)
}

/// A trade of the user channel.
pub struct TradeEvent<'a> {
    pub id: &'a str,
    pub taker_order_id: &'a str,
    pub market: &'a str,
    pub asset_id: &'a str,
    pub side: &'a str,
    /// Size and price as the service writes them ("10", "0.52").
    pub size: &'a str,
    pub price: &'a str,
    /// MATCHED, MINED, CONFIRMED, RETRYING or FAILED.
    pub status: &'a str,
    pub maker_orders: Vec<Value>,
    /// The API key of the account the event goes to.
    pub owner: &'a str,
}

impl TradeEvent<'_> {
    pub fn json(&self) -> Value {
        json!({
            "event_type": "trade", "id": self.id, "taker_order_id": self.taker_order_id, "market": self.market,
            "asset_id": self.asset_id, "side": self.side, "size": self.size, "price": self.price,
            "status": self.status, "maker_orders": self.maker_orders, "owner": self.owner,
            "timestamp": now_ms().to_string(), "type": "TRADE",
        })
    }
}

/// A frame of several events is an array; one event alone is an object unless `wrap`.
fn frame_text(events: &[String], wrap: bool) -> String {
    if events.len() == 1 && !wrap {
        return events[0].clone();
    }
    let mut s = String::with_capacity(events.iter().map(|e| e.len() + 1).sum::<usize>() + 2);
    s.push('[');
    for (i, e) in events.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str(e);
    }
    s.push(']');
    s
}

fn wrong(hash: &str) -> String {
    hex::encode(Sha1::digest(format!("wrong:{hash}").as_bytes()))
}

/// Queues one message on a socket through the stream faults. `render(wrong_hash)` builds the text.
fn deliver(
    faults: &mut Faults<StreamFault>,
    socket: &mut Socket,
    message: Message,
    render: impl FnOnce(bool) -> String,
) {
    let fault = faults.take_if("GET", socket.channel.path(), |f| f.applies(message));
    if fault.is_some() {
        socket.faults += 1;
    }
    let out = match fault {
        None => Out::Text(render(false)),
        Some(StreamFault::WrongHash) => Out::Text(render(true)),
        Some(StreamFault::Lose) => return,
        Some(StreamFault::Malformed) => {
            let text = render(false);
            let mut cut = text.len() / 2;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            Out::Text(text[..cut].to_owned())
        }
        Some(StreamFault::Drop) => Out::Drop,
        Some(StreamFault::Stall { ms }) => {
            let _ = socket.tx.send(Out::Stall(ms));
            Out::Text(render(false))
        }
    };
    let _ = socket.tx.send(out);
}

/// Applies one step of a frame to `book` at `*ts` and adds what describes it to `items`: one change, or the
/// trades of one incoming order ([`Change::Take`]s, which the real shapes send as one burst). A trade or a
/// tick size change gets a later timestamp than the frame's entries before it; with the real shapes, whatever
/// follows a trade does too, in messages of its own.
fn step(
    book: &mut LiveBook,
    changes: &[Change],
    ts: &mut u64,
    rng: &mut ChaCha8Rng,
    shapes: Shapes,
    shape_rng: &mut ChaCha8Rng,
    items: &mut Vec<Item>,
) {
    if shapes == Shapes::Real && matches!(changes.first(), Some(Change::Take { .. })) {
        if !items.is_empty() {
            *ts += 1;
            items.push(Item::Break);
        }
        let burst = book.burst(changes, *ts, rng);
        for frame in burst.frames {
            items.extend(frame.into_iter().map(Item::Entry));
            items.push(Item::Break);
        }
        // Both draws every time, so that later trades' draws do not depend on these.
        let announced = !shape_rng.random_ratio(1, TRADE_UNANNOUNCED);
        let book_after = shape_rng.random_ratio(1, BOOK_AFTER_TRADE);
        if announced {
            items.extend(burst.trades);
            items.push(Item::Break);
        }
        if book_after {
            items.push(Item::Event { asset: book.asset_id.clone(), json: book.book_event(Shapes::Real) });
            items.push(Item::Break);
        }
        *ts += 1;
        return;
    }
    for change in changes {
        // Every price_change of an asset is later than the one before: a trade or a tick size splits the
        // frame's entries into another price_change event, with a later timestamp.
        if !matches!(change, Change::Level { .. }) && !items.is_empty() {
            *ts += 1;
        }
        items.extend(book.apply(*change, *ts, rng));
    }
}

/// The text of one message: consecutive entries of one timestamp make one `price_change` event, other events
/// go in order between them. `wrong_hash` spoils the last entry's hash (no later entry of the message can then
/// show the book right again).
fn render(market: &str, items: &[&Item], wrong_hash: bool, wrap: bool) -> String {
    let mut events = Vec::new();
    let mut run: Vec<&Entry> = Vec::new();
    let entries = items.iter().filter(|i| matches!(i, Item::Entry(_))).count();
    let spoiled = if wrong_hash { entries } else { 0 };
    let mut written = 0;
    let mut flush = |run: &mut Vec<&Entry>, events: &mut Vec<String>| {
        if run.is_empty() {
            return;
        }
        let parts: Vec<String> = run
            .iter()
            .map(|e| {
                written += 1;
                if written == spoiled {
                    e.json(&wrong(&e.hash))
                } else {
                    e.json(&e.hash)
                }
            })
            .collect();
        events.push(format!(
            r#"{{"event_type":"price_change","market":"{market}","timestamp":"{}","price_changes":[{}]}}"#,
            run[0].timestamp,
            parts.join(",")
        ));
        run.clear();
    };
    for item in items {
        match item {
            Item::Entry(e) => {
                if run.last().is_some_and(|r| r.timestamp != e.timestamp) {
                    flush(&mut run, &mut events);
                }
                run.push(e)
            }
            Item::Event { json, .. } | Item::BestBidAsk { json, .. } => {
                flush(&mut run, &mut events);
                events.push(json.clone());
            }
            Item::Break => flush(&mut run, &mut events),
        }
    }
    flush(&mut run, &mut events);
    frame_text(&events, wrap)
}

impl Hub {
    pub fn new(catalog: Arc<Catalog>, accounts: Arc<Accounts>, seed: u64, rate: f64) -> Self {
        Self {
            catalog,
            accounts,
            seed,
            rate,
            state: Mutex::new(State {
                live: HashMap::new(),
                last_ts: HashMap::new(),
                sockets: BTreeMap::new(),
                next_id: 0,
                rng: rng_of(seed),
                faults: Faults::default(),
                budget: HashMap::new(),
                shapes: Shapes::default(),
                shape_rng: shape_rng_of(seed),
            }),
            cleared: watch::channel(0).0,
            shutdown: watch::channel(false).0,
        }
    }

    pub fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.shutdown.subscribe()
    }

    pub fn cleared_signal(&self) -> watch::Receiver<u64> {
        self.cleared.subscribe()
    }

    /// Closes every socket (1001) and stops the simulator.
    pub fn shutdown(&self) {
        self.shutdown.send_replace(true);
    }

    fn known(&self, token: &str) -> bool {
        self.catalog.token(token).is_some() || self.catalog.real_book(token).is_some()
    }

    /// The starting (generated or recorded) JSON of a token's book.
    fn base_json(&self, token: &str) -> Option<String> {
        if let Some(real) = self.catalog.real_book(token) {
            return Some(real.json.clone());
        }
        let (m, o) = self.catalog.token(token)?;
        Some(self.catalog.book(m, o).json.clone())
    }

    fn fee_bps(&self, token: &str) -> u64 {
        self.catalog.token(token).map_or(0, |(m, _)| self.catalog.markets[m].fee_bps)
    }

    /// The book a REST read serves now: (JSON, best bid, best ask), live when it has moved.
    pub fn current(&self, token: &str) -> Option<(String, Option<u64>, Option<u64>)> {
        {
            let state = lock(&self.state);
            if let Some(b) = state.live.get(token) {
                return Some((b.json.clone(), b.best_bid(), b.best_ask()));
            }
        }
        if let Some(real) = self.catalog.real_book(token) {
            return Some((real.json.clone(), real.best_bid, real.best_ask));
        }
        let (m, o) = self.catalog.token(token)?;
        let book = self.catalog.book(m, o);
        Some((book.json.clone(), book.best_bid(), book.best_ask()))
    }

    /// Best bid and ask now.
    pub fn best(&self, token: &str) -> Option<(Option<u64>, Option<u64>)> {
        {
            let state = lock(&self.state);
            if let Some(b) = state.live.get(token) {
                return Some((b.best_bid(), b.best_ask()));
            }
        }
        if let Some(real) = self.catalog.real_book(token) {
            return Some((real.best_bid, real.best_ask));
        }
        let (m, o) = self.catalog.token(token)?;
        let book = self.catalog.book(m, o);
        Some((book.best_bid(), book.best_ask()))
    }

    /// The live book of `token`, made from its starting book on first use.
    fn live<'s>(&self, state: &'s mut State, token: &str) -> Result<&'s mut LiveBook, TickError> {
        if !state.live.contains_key(token) {
            let json = self.base_json(token).ok_or(TickError::UnknownAsset)?;
            let book = LiveBook::from_json(&json, self.fee_bps(token)).map_err(TickError::Book)?;
            state.live.insert(token.to_owned(), book);
        }
        state.live.get_mut(token).ok_or(TickError::UnknownAsset)
    }

    /// The `book` event of a token now, in the current shapes (a starting book keeps its own hash and timestamp).
    fn book_event(&self, state: &State, token: &str) -> Option<String> {
        if let Some(b) = state.live.get(token) {
            return Some(b.book_event(state.shapes));
        }
        let json = self.base_json(token)?;
        let mut book = LiveBook::from_json(&json, 0).ok()?;
        // A recorded book keeps the hash it was served with (the first recorded book predates the ten fields,
        // so its hash is not the one the ten fields give).
        if self.catalog.real_book(token).is_some() {
            if let Some(hash) =
                serde_json::from_str::<Value>(&json).ok().and_then(|v| v["hash"].as_str().map(str::to_owned))
            {
                book.hash = hash;
            }
        }
        Some(book.book_event(state.shapes))
    }

    pub fn register(&self, channel: Channel) -> (u64, mpsc::UnboundedReceiver<Out>, Arc<SocketStats>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let stats = Arc::new(SocketStats::default());
        let mut state = lock(&self.state);
        state.next_id += 1;
        let id = state.next_id;
        state.sockets.insert(
            id,
            Socket {
                channel,
                tx,
                stats: stats.clone(),
                opened_at: now_ms(),
                assets: BTreeSet::new(),
                custom: false,
                account: None,
                markets: None,
                faults: 0,
            },
        );
        (id, rx, stats)
    }

    pub fn unregister(&self, id: u64) {
        lock(&self.state).sockets.remove(&id);
    }

    /// Adds known tokens to a market socket's subscription; with `dump`, the new ones' books are sent at once
    /// (several as one array frame).
    pub fn subscribe(&self, id: u64, assets: &[String], dump: bool, custom: Option<bool>) {
        let mut state = lock(&self.state);
        let Some(socket) = state.sockets.get_mut(&id) else { return };
        if let Some(custom) = custom {
            socket.custom = custom;
        }
        let mut added = Vec::new();
        for asset in assets {
            if self.known(asset) && socket.assets.insert(asset.clone()) {
                added.push(asset.clone());
            }
        }
        if !dump || added.is_empty() {
            return;
        }
        let events: Vec<String> = added.iter().filter_map(|a| self.book_event(&state, a)).collect();
        let State { sockets, faults, .. } = &mut *state;
        if let Some(socket) = sockets.get_mut(&id) {
            deliver(faults, socket, Message { dump: true, entries: false }, |_| frame_text(&events, false));
        }
    }

    pub fn unsubscribe(&self, id: u64, assets: &[String]) {
        let mut state = lock(&self.state);
        if let Some(socket) = state.sockets.get_mut(&id) {
            for asset in assets {
                socket.assets.remove(asset);
            }
        }
    }

    /// Checks a user subscription's credentials against the accounts (and the created keys); on success the socket follows `markets`
    /// (all markets when empty).
    pub fn authenticate(&self, id: u64, api_key: &str, secret: &str, passphrase: &str, markets: &[String]) -> bool {
        let Some(account) = self.accounts.by_credentials(api_key, secret, passphrase) else { return false };
        let mut state = lock(&self.state);
        if let Some(socket) = state.sockets.get_mut(&id) {
            socket.account = Some(account);
            socket.markets = (!markets.is_empty()).then(|| markets.iter().map(|m| m.to_ascii_lowercase()).collect());
        }
        true
    }

    /// A user socket's `subscribe`/`unsubscribe` operation on markets (a socket that follows all markets
    /// keeps doing so).
    pub fn user_markets(&self, id: u64, subscribe: bool, markets: &[String]) {
        let mut state = lock(&self.state);
        let Some(socket) = state.sockets.get_mut(&id) else { return };
        if let Some(set) = socket.markets.as_mut() {
            for m in markets {
                if subscribe {
                    set.insert(m.to_ascii_lowercase());
                } else {
                    set.remove(&m.to_ascii_lowercase());
                }
            }
        }
    }

    /// Sends user-channel events (`(condition id, event)`) to the open user sockets of `account` that follow
    /// their markets: one frame per socket (an array when it holds several). Order placement and matching send
    /// theirs from [`Hub::trade`], in the same lock as the book changes.
    pub fn send_user(&self, account: usize, events: &[(String, Value)]) {
        if events.is_empty() {
            return;
        }
        let mut state = lock(&self.state);
        Self::send_user_in(&mut state, account, events);
    }

    fn send_user_in(state: &mut State, account: usize, events: &[(String, Value)]) {
        let State { sockets, faults, .. } = state;
        for socket in sockets.values_mut() {
            if socket.channel != Channel::User || socket.account != Some(account) {
                continue;
            }
            let mine: Vec<String> = events
                .iter()
                .filter(|(market, _)| {
                    socket.markets.as_ref().is_none_or(|set| set.contains(&market.to_ascii_lowercase()))
                })
                .map(|(_, e)| e.to_string())
                .collect();
            if !mine.is_empty() {
                deliver(faults, socket, Message { dump: false, entries: false }, |_| frame_text(&mine, false));
            }
        }
    }

    /// The next frame timestamp for `tokens`: the clock in ms, after every earlier event of each token.
    fn next_ts(state: &mut State, books: &[String]) -> u64 {
        let mut ts = now_ms();
        for token in books {
            let live = state.live.get(token).map_or(0, |b| b.timestamp);
            ts = ts.max(state.last_ts.get(token).copied().unwrap_or(0).max(live) + 1);
        }
        for token in books {
            state.last_ts.insert(token.clone(), ts);
        }
        ts
    }

    /// Draws, applies and sends one frame of changes (`tokens`: one token per change, all of one market), as one
    /// message or, with the real shapes around a trade, several. Answers how many messages it made.
    fn frame(&self, state: &mut State, tokens: &[String]) -> Result<usize, TickError> {
        let mut distinct: Vec<String> = Vec::new();
        for t in tokens {
            if !distinct.contains(t) {
                self.live(state, t)?;
                distinct.push(t.clone());
            }
        }
        let before: Vec<(Option<u64>, Option<u64>)> =
            distinct.iter().map(|t| state.live.get(t).map_or((None, None), |b| (b.best_bid(), b.best_ask()))).collect();
        let mut ts = Self::next_ts(state, &distinct);
        let mut items = Vec::with_capacity(tokens.len() + 2);
        let State { live, rng, last_ts, shapes, shape_rng, .. } = &mut *state;
        let mut market = String::new();
        for t in tokens {
            let Some(book) = live.get_mut(t) else { continue };
            let change: Change = book.draw(rng);
            step(book, &[change], &mut ts, rng, *shapes, shape_rng, &mut items);
            market.clone_from(&book.market);
        }
        for t in &distinct {
            last_ts.insert(t.clone(), ts);
        }
        for (t, before) in distinct.iter().zip(before) {
            if let Some(book) = live.get_mut(t) {
                book.refresh();
                if (book.best_bid(), book.best_ask()) != before {
                    items.push(Item::BestBidAsk { asset: t.clone(), json: book.best_bid_ask(ts) });
                }
            }
        }
        let wrap = state.rng.random_bool(0.2);
        Ok(Self::emit(state, &market, &items, wrap))
    }

    /// Sends the items of one frame to each market socket, filtered to its subscription: a message per run of
    /// items between [`Item::Break`]s, in which consecutive entries of one timestamp make one `price_change`
    /// event and other events go in order between them. Answers the number of messages (as a subscriber of
    /// every asset with `custom_feature_enabled` gets them).
    fn emit(state: &mut State, market: &str, items: &[Item], wrap: bool) -> usize {
        let messages: Vec<&[Item]> = items.split(|i| matches!(i, Item::Break)).filter(|m| !m.is_empty()).collect();
        let State { sockets, faults, .. } = state;
        for socket in sockets.values_mut() {
            if socket.channel != Channel::Market {
                continue;
            }
            for message in &messages {
                let mine: Vec<&Item> = message
                    .iter()
                    .filter(|i| {
                        i.asset().is_some_and(|a| socket.assets.contains(a))
                            && (socket.custom || !matches!(i, Item::BestBidAsk { .. }))
                    })
                    .collect();
                if mine.is_empty() {
                    continue;
                }
                let entries = mine.iter().any(|i| matches!(i, Item::Entry(_)));
                deliver(faults, socket, Message { dump: false, entries }, |wrong_hash| {
                    render(market, &mine, wrong_hash, wrap)
                });
            }
        }
        messages.len()
    }

    /// Splits `changes` (one token per change) into frames of 1–5 changes and sends them; answers the number of
    /// messages sent.
    fn frames(&self, state: &mut State, changes: &[String]) -> Result<usize, TickError> {
        let mut done = 0;
        let mut messages = 0;
        while done < changes.len() {
            let n = state.rng.random_range(1..=FRAME_CHANGES).min(changes.len() - done);
            messages += self.frame(state, &changes[done..done + n])?;
            done += n;
        }
        Ok(messages)
    }

    /// Runs one trading operation on the live book of `token` (made live on first use) under the streams' lock:
    /// `f` sees the book and answers with its result and its [`Effects`], which are applied and sent at once, so
    /// that every socket hears of the change in order and the simulator never moves the book in between. `seed`
    /// seeds the transaction hashes of its trades' `last_trade_price` events (the simulator's draws stay as seeded).
    pub fn trade<R>(
        &self,
        token: &str,
        seed: [u8; 32],
        f: impl FnOnce(&LiveBook) -> (R, Effects),
    ) -> Result<R, TickError> {
        let mut state = lock(&self.state);
        let (result, effects) = f(self.live(&mut state, token)?);
        if let Some(book) = state.live.get_mut(token) {
            for (side, price, delta) in &effects.reserve {
                book.reserve(*side, *price, *delta);
            }
        }
        if !effects.changes.is_empty() {
            self.apply(&mut state, token, &effects.changes, &mut ChaCha8Rng::from_seed(seed));
        }
        let mut by_account: BTreeMap<usize, Vec<(String, Value)>> = BTreeMap::new();
        for (account, event) in effects.user {
            by_account.entry(account).or_default().push(event);
        }
        for (account, events) in by_account {
            Self::send_user_in(&mut state, account, &events);
        }
        Ok(result)
    }

    /// Applies given changes to a live book now and sends them as one frame, as [`Hub::frame`] does drawn ones
    /// (consecutive trades are one incoming order's: with the real shapes, one burst).
    fn apply(&self, state: &mut State, token: &str, changes: &[Change], rng: &mut ChaCha8Rng) {
        let tokens = [token.to_owned()];
        let Some(before) = state.live.get(token).map(|b| (b.best_bid(), b.best_ask())) else { return };
        let mut ts = Self::next_ts(state, &tokens);
        let State { live, last_ts, shapes, shape_rng, .. } = &mut *state;
        let Some(book) = live.get_mut(token) else { return };
        let mut items = Vec::with_capacity(changes.len() * 2 + 1);
        let mut rest = changes;
        while let Some(first) = rest.first() {
            let n = if matches!(first, Change::Take { .. }) {
                rest.iter().take_while(|c| matches!(c, Change::Take { .. })).count()
            } else {
                1
            };
            let (now, later) = rest.split_at(n);
            step(book, now, &mut ts, rng, *shapes, shape_rng, &mut items);
            rest = later;
        }
        last_ts.insert(token.to_owned(), ts);
        book.refresh();
        if (book.best_bid(), book.best_ask()) != before {
            items.push(Item::BestBidAsk { asset: token.to_owned(), json: book.best_bid_ask(ts) });
        }
        let market = book.market.clone();
        Self::emit(state, &market, &items, false);
    }

    /// `POST /__admin/stream/tick`: `count` changes of `token` now, sent to its subscribers.
    pub fn tick(&self, token: &str, count: u64) -> Result<Value, TickError> {
        if !self.known(token) {
            return Err(TickError::UnknownAsset);
        }
        let mut state = lock(&self.state);
        let changes = vec![token.to_owned(); count as usize];
        let frames = self.frames(&mut state, &changes)?;
        let book = self.live(&mut state, token)?;
        Ok(json!({
            "asset_id": token, "hash": book.hash, "timestamp": book.timestamp.to_string(),
            "changes": count, "frames": frames,
        }))
    }

    /// One step of the market simulator: every subscribed token owes `rate × dt` changes.
    pub fn step(&self, dt: f64) {
        if self.rate <= 0.0 {
            return;
        }
        let mut state = lock(&self.state);
        let subscribed: BTreeSet<String> = state
            .sockets
            .values()
            .filter(|s| s.channel == Channel::Market)
            .flat_map(|s| s.assets.iter().cloned())
            .collect();
        state.budget.retain(|t, _| subscribed.contains(t));
        // Tokens of one market change in the same frames.
        let mut owed: BTreeMap<String, Vec<(String, usize)>> = BTreeMap::new();
        for token in subscribed {
            let budget = state.budget.entry(token.clone()).or_insert(0.0);
            *budget += self.rate * dt;
            let n = budget.floor();
            *budget -= n;
            if n >= 1.0 {
                let Ok(book) = self.live(&mut state, &token) else { continue };
                owed.entry(book.market.clone()).or_default().push((token, n as usize));
            }
        }
        for (_, mut tokens) in owed {
            let mut changes = Vec::new();
            while tokens.iter().any(|(_, n)| *n > 0) {
                for (t, n) in tokens.iter_mut().filter(|(_, n)| *n > 0) {
                    changes.push(t.clone());
                    *n -= 1;
                }
            }
            let _ = self.frames(&mut state, &changes);
        }
    }

    /// `POST /__admin/stream`: the shapes the market channel sends from now on (until the next reset).
    pub fn set_shapes(&self, shapes: Shapes) {
        lock(&self.state).shapes = shapes;
    }

    /// Restores the starting books, the seed's draws and the real shapes, clears the stream faults (stalled sockets resume),
    /// and sends a fresh `book` to every socket subscribed to a book that had moved.
    pub fn reset(&self) {
        let mut state = lock(&self.state);
        let moved: BTreeSet<String> = state.live.drain().map(|(t, _)| t).collect();
        state.rng = rng_of(self.seed);
        state.shapes = Shapes::default();
        state.shape_rng = shape_rng_of(self.seed);
        state.budget.clear();
        state.faults.clear();
        self.cleared.send_modify(|g| *g += 1);
        let ids: Vec<u64> = state.sockets.keys().copied().collect();
        for id in ids {
            let Some(socket) = state.sockets.get(&id) else { continue };
            let tokens: Vec<String> = socket.assets.iter().filter(|a| moved.contains(*a)).cloned().collect();
            let events: Vec<String> = tokens.iter().filter_map(|t| self.book_event(&state, t)).collect();
            if let (false, Some(socket)) = (events.is_empty(), state.sockets.get(&id)) {
                let _ = socket.tx.send(Out::Text(frame_text(&events, false)));
            }
        }
    }

    pub fn add_fault(&self, spec: RuleSpec<StreamFault>) -> Result<u64, String> {
        lock(&self.state).faults.add(spec)
    }

    pub fn list_faults(&self) -> Value {
        lock(&self.state).faults.list()
    }

    pub fn clear_faults(&self) {
        lock(&self.state).faults.clear();
        self.cleared.send_modify(|g| *g += 1);
    }

    /// `GET /__admin/stream`: the open sockets and the live books.
    pub fn list(&self) -> Value {
        let state = lock(&self.state);
        let sockets: Vec<Value> = state
            .sockets
            .iter()
            .map(|(id, s)| {
                let mut v = json!({
                    "id": id, "channel": match s.channel { Channel::Market => "market", Channel::User => "user" },
                    "path": s.channel.path(), "opened_at": iso((s.opened_at / 1000) as i64),
                    "sent": s.stats.sent.load(Ordering::Relaxed), "received": s.stats.received.load(Ordering::Relaxed),
                    "faults": s.faults,
                });
                match s.channel {
                    Channel::Market => {
                        v["assets_ids"] = json!(s.assets);
                        v["custom_feature_enabled"] = json!(s.custom);
                    }
                    Channel::User => {
                        v["authenticated"] = json!(s.account.is_some());
                        v["account"] = json!(s.account.and_then(|a| self.accounts.get(a)).map(|a| a.address));
                        v["markets"] = match &s.markets {
                            Some(set) => json!(set),
                            None => json!("all"),
                        };
                    }
                }
                v
            })
            .collect();
        let mut live: Vec<&String> = state.live.keys().collect();
        live.sort();
        json!({ "stream_rate": self.rate, "shapes": state.shapes, "sockets": sockets, "live_books": live })
    }
}

/// Moves the subscribed books until the emulator stops.
pub async fn simulate(app: Arc<App>) {
    let hub = &app.stream;
    if hub.rate <= 0.0 {
        return;
    }
    let mut shutdown = hub.shutdown_signal();
    let mut interval = tokio::time::interval(SIMULATOR_STEP);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = interval.tick() => hub.step(SIMULATOR_STEP.as_secs_f64()),
            _ = shutdown.changed() => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_fault_rules_wait_for_a_message_they_apply_to() {
        let mut f: Faults<StreamFault> = Faults::default();
        let spec =
            serde_json::from_value(json!({"path": "/ws/market", "faults": ["wrong_hash", {"kind": "stall", "ms": 5}]}))
                .unwrap();
        f.add(spec).unwrap();
        let plain = Message { dump: false, entries: false };
        let entry = Message { dump: false, entries: true };
        assert_eq!(f.take_if("GET", "/ws/user", |x| x.applies(entry)), None);
        assert_eq!(f.take_if("GET", "/ws/market", |x| x.applies(plain)), None);
        assert_eq!(f.take_if("GET", "/ws/market", |x| x.applies(entry)), Some(StreamFault::WrongHash));
        assert_eq!(f.take_if("GET", "/ws/market", |x| x.applies(plain)), Some(StreamFault::Stall { ms: Some(5) }));
        assert_eq!(f.take_if("GET", "/ws/market", |x| x.applies(plain)), None);
        let bad = serde_json::from_value::<RuleSpec<StreamFault>>(json!({"path": "/ws", "faults": ["status"]}));
        assert!(bad.is_err() || f.add(bad.unwrap()).is_err());
        assert!(!StreamFault::Lose.applies(Message { dump: true, entries: false }));
    }

    #[test]
    fn books_made_live_serve_the_same_json_until_they_move() {
        let catalog = Catalog::shared(1);
        let hub = Hub::new(catalog.clone(), Arc::new(Accounts::new(catalog.clone())), 1, 0.0);
        let n = catalog.markets.len();
        // Random books of the first markets, and the shaped books at the end (all but the 7 MB one).
        let mut tokens: Vec<String> = (0..40).map(|i| catalog.markets[i].tokens[i % 2].clone()).collect();
        tokens.extend((n - 8..n).flat_map(|i| catalog.markets[i].tokens.clone()));
        tokens.retain(|t| {
            catalog
                .token(t)
                .is_some_and(|(m, _)| !matches!(catalog.markets[m].book, crate::books::BookKind::Levels(100_000, _)))
        });
        for t in catalog.real_books.iter().skip(1).map(|b| b.asset_id.clone()) {
            tokens.push(t);
        }
        for t in &tokens {
            let base = hub.base_json(t).unwrap();
            let live = LiveBook::from_json(&base, 0).unwrap();
            assert_eq!(live.json, base, "{t}");
            let served: Value = serde_json::from_str(&base).unwrap();
            for shapes in [Shapes::Real, Shapes::Exact] {
                hub.set_shapes(shapes);
                let state = lock(&hub.state);
                let event: Value = serde_json::from_str(&hub.book_event(&state, t).unwrap()).unwrap();
                for k in ["market", "asset_id", "timestamp", "hash", "bids", "asks"] {
                    assert_eq!(event[k], served[k], "{k} of {t}");
                }
                for k in ["tick_size", "last_trade_price"] {
                    let expected = if shapes == Shapes::Exact { &served[k] } else { &Value::Null };
                    assert_eq!(&event[k], expected, "{k} of {t} in {shapes:?}");
                }
                assert!(event.get("min_order_size").is_none() && event.get("neg_risk").is_none());
            }
        }
        // The first recorded book lacks the later fields: its dump keeps its recorded hash, and once it moves it
        // is served with all ten (tick 0.01, the widest grid of its levels).
        let first = &catalog.real_books[0];
        hub.set_shapes(Shapes::Exact);
        let state = lock(&hub.state);
        let event: Value = serde_json::from_str(&hub.book_event(&state, &first.asset_id).unwrap()).unwrap();
        assert_eq!(event["hash"], "2fc4a3d6a98bc164e057589bcb74981852b87412");
        assert_eq!(event["tick_size"], "0.01");
        drop(state);
        hub.tick(&first.asset_id, 3).ok().unwrap();
        let (json, ..) = hub.current(&first.asset_id).unwrap();
        let v: Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v.as_object().unwrap().len(), 10);
        assert_eq!((v["min_order_size"].as_str(), v["neg_risk"].as_bool()), (Some("5"), Some(false)));
    }

    /// A hub with one market socket subscribed (with its dump) to the first token of the ten-level market.
    fn ten_levels() -> (Hub, String, mpsc::UnboundedReceiver<Out>) {
        let catalog = Catalog::shared(1);
        let hub = Hub::new(catalog.clone(), Arc::new(Accounts::new(catalog.clone())), 1, 0.0);
        let m = catalog.markets.iter().find(|m| m.book == crate::books::BookKind::Levels(10, 10)).unwrap();
        let token = m.tokens[0].clone();
        let (id, rx, _) = hub.register(Channel::Market);
        hub.subscribe(id, std::slice::from_ref(&token), true, Some(false));
        (hub, token, rx)
    }

    /// The messages queued so far, as JSON.
    fn drain(rx: &mut mpsc::UnboundedReceiver<Out>) -> Vec<Value> {
        let mut out = Vec::new();
        while let Ok(Out::Text(t)) = rx.try_recv() {
            out.push(serde_json::from_str(&t).unwrap());
        }
        out
    }

    fn summary(hub: &Hub, token: &str) -> Value {
        serde_json::from_str(&hub.current(token).unwrap().0).unwrap()
    }

    #[test]
    fn an_orders_trades_go_out_as_one_burst_with_the_hash_after_it() {
        let (hub, token, mut rx) = ten_levels();
        let dump = drain(&mut rx);
        assert_eq!(dump.len(), 1);
        assert_eq!(dump[0]["event_type"], "book");
        assert!(dump[0].get("tick_size").is_none() && dump[0].get("last_trade_price").is_none(), "{}", dump[0]);
        assert_eq!(dump[0]["hash"], summary(&hub, &token)["hash"]);
        // A buy that takes the best ask and part of the next one.
        let seed = [7u8; 32];
        let (asks, bids) = hub
            .trade(&token, seed, |book| {
                let asks: Vec<(u64, u64)> = book.asks.iter().rev().take(2).copied().collect();
                let changes = vec![
                    Change::Take { side: Side::Ask, price: asks[0].0, taken: asks[0].1, remaining: 0 },
                    Change::Take { side: Side::Ask, price: asks[1].0, taken: 1, remaining: asks[1].1 - 1 },
                ];
                ((asks, book.bids.clone()), Effects { changes, ..Effects::default() })
            })
            .ok()
            .unwrap();
        let after = summary(&hub, &token);
        let messages = drain(&mut rx);
        assert!(messages.len() >= 3, "{messages:?}");
        let text = |p: u64| decimal(p, 6);
        let frames: Vec<Vec<(String, String, String)>> = messages[..3]
            .iter()
            .map(|m| {
                assert_eq!(m["event_type"], "price_change", "{m}");
                assert_eq!(m["timestamp"], after["timestamp"], "one timestamp, the book's after the burst");
                m["price_changes"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|e| {
                        assert_eq!(e["hash"], after["hash"], "every entry has the hash after the burst");
                        assert_eq!(e["best_ask"].as_str().unwrap(), text(asks[1].0));
                        assert_eq!(e["best_bid"].as_str().unwrap(), text(bids.last().unwrap().0));
                        let s = |k: &str| e[k].as_str().unwrap().to_owned();
                        (s("side"), s("price"), s("size"))
                    })
                    .collect()
            })
            .collect();
        let size = |u: u64| decimal(u, 2);
        let crossing = ("BUY".to_owned(), text(asks[1].0), size(asks[0].1 + 1));
        assert_eq!(frames[0], vec![crossing]);
        assert_eq!(frames[1], vec![("SELL".to_owned(), text(asks[0].0), "0".to_owned())]);
        assert_eq!(
            frames[2],
            vec![
                ("SELL".to_owned(), text(asks[1].0), size(asks[1].1 - 1)),
                ("BUY".to_owned(), text(asks[1].0), "0".to_owned())
            ]
        );
        // The book after: the trade's price is its last trade price, and no bid is left at the crossing price.
        assert_eq!(after["last_trade_price"].as_str().unwrap(), text(asks[1].0));
        assert_eq!(after["bids"].as_array().unwrap().len(), bids.len());
        // Then the trades' events, if announced, with the transaction hashes the trading code draws from the seed.
        for m in &messages[3..] {
            let events: Vec<&Value> = match m {
                Value::Array(list) => list.iter().collect(),
                one => vec![one],
            };
            match events[0]["event_type"].as_str().unwrap() {
                "last_trade_price" => {
                    let mut rng = ChaCha8Rng::from_seed(seed);
                    assert_eq!(events.len(), 2);
                    for (e, (price, taken)) in events.iter().zip([(asks[0].0, asks[0].1), (asks[1].0, 1)]) {
                        let tx = format!("0x{}", hex::encode(rng.random::<[u8; 32]>()));
                        assert_eq!(e["transaction_hash"].as_str().unwrap(), tx);
                        assert_eq!(
                            (e["price"].as_str().unwrap(), e["size"].as_str().unwrap()),
                            (text(price).as_str(), size(taken).as_str())
                        );
                        assert_eq!(e["side"], "BUY");
                    }
                }
                "book" => {
                    assert_eq!(events[0]["hash"], after["hash"]);
                    assert!(events[0].get("tick_size").is_none() && events[0].get("last_trade_price").is_none());
                }
                other => panic!("{other} after a burst"),
            }
        }
    }

    #[test]
    fn trades_are_sometimes_unannounced_and_sometimes_followed_by_a_book() {
        let (hub, token, mut rx) = ten_levels();
        drain(&mut rx);
        let (mut announced, mut silent, mut books) = (0, 0, 0);
        for k in 0..40u8 {
            hub.trade(&token, [k; 32], |book| {
                let side = if k % 2 == 0 { Side::Ask } else { Side::Bid };
                let (price, size) = *if side == Side::Ask { &book.asks } else { &book.bids }.last().unwrap();
                (
                    (),
                    Effects {
                        changes: vec![Change::Take { side, price, taken: 1, remaining: size - 1 }],
                        ..Effects::default()
                    },
                )
            })
            .ok()
            .unwrap();
            let after = summary(&hub, &token);
            let messages = drain(&mut rx);
            let kinds: Vec<&str> = messages.iter().map(|m| m["event_type"].as_str().unwrap()).collect();
            assert_eq!(kinds[..2], ["price_change", "price_change"], "{messages:?}");
            let ltp = kinds.iter().position(|k| *k == "last_trade_price");
            if let Some(i) = ltp {
                assert_eq!(i, 2, "the trade is announced after the burst");
                assert_eq!(messages[i]["price"], after["last_trade_price"]);
                announced += 1;
            } else {
                silent += 1;
            }
            if let Some(i) = kinds.iter().position(|k| *k == "book") {
                assert_eq!(i, kinds.len() - 1);
                assert_eq!(messages[i]["hash"], after["hash"]);
                books += 1;
            }
            assert!(kinds.len() <= 4, "{kinds:?}");
        }
        assert!(announced > 20 && silent > 3 && books > 3, "{announced} {silent} {books}");
        // The exact shapes: one message, the trade first, then its entry with the hash right after it.
        hub.set_shapes(Shapes::Exact);
        hub.trade(&token, [99; 32], |book| {
            let (price, size) = *book.asks.last().unwrap();
            (
                (),
                Effects {
                    changes: vec![Change::Take { side: Side::Ask, price, taken: 1, remaining: size - 1 }],
                    ..Effects::default()
                },
            )
        })
        .ok()
        .unwrap();
        let messages = drain(&mut rx);
        assert_eq!(messages.len(), 1);
        let events = messages[0].as_array().unwrap();
        assert_eq!(
            (events[0]["event_type"].as_str(), events[1]["event_type"].as_str()),
            (Some("last_trade_price"), Some("price_change"))
        );
        assert_eq!(events[1]["price_changes"][0]["hash"], summary(&hub, &token)["hash"]);
        // A reset restores the real shapes.
        hub.reset();
        assert_eq!(lock(&hub.state).shapes, Shapes::Real);
    }

    #[test]
    fn trade_events_have_the_services_shape() {
        let t = TradeEvent {
            id: "t1",
            taker_order_id: "0x1",
            market: "0xm",
            asset_id: "7",
            side: "BUY",
            size: "10",
            price: "0.5",
            status: "MATCHED",
            maker_orders: vec![],
            owner: "key",
        };
        let v = t.json();
        assert_eq!(v["event_type"], "trade");
        assert_eq!(v["type"], "TRADE");
        assert!(v["timestamp"].as_str().unwrap().parse::<u64>().is_ok());
        let _ = OrderEventType::Placement.as_str();
        let _ = OrderEventType::Update.as_str();
    }
}
