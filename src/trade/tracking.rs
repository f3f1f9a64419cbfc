//! Following one order (`trackOrder`) and its trades to settlement (`waitForSettlement`): every source the
//! driver has (the post answer, the user channel's events, `GET /data/order/{id}` and `GET /data/trades?id=`
//! reads) is merged into one view, and each change of it is told exactly once, whatever source told it first
//! and however often. When the channel is not open the order is polled; when it opens again, it is read once to
//! catch up (the channel does not replay what it missed).
//!
//! The service's shapes (the upstream clients and docs): the post answer's `status` (`live`, `matched`,
//! `delayed`, `unmatched`) and `tradeIDs`; an order's `status` (`LIVE`, `MATCHED`, `CANCELED`, `INVALID`,
//! `CANCELED_MARKET_RESOLVED`, with or without an `ORDER_STATUS_` prefix), `original_size`, `size_matched`,
//! `associate_trades`, `expiration`, `order_type` (camelCase in the interface's order); a trade's `status`
//! (`MATCHED`, `MINED`, `CONFIRMED`, `RETRYING`, `FAILED`, `MATCHED_NOT_BROADCASTED`, with or without a
//! `TRADE_STATUS_` prefix: the REST routes write it, the channel does not) and `transaction_hash` (null or empty
//! until one was broadcast; it can change while the trade is retried). CONFIRMED and FAILED are final. The user
//! channel's `order` events are PLACEMENT, UPDATE and CANCELLATION; its `trade` events come again at each change
//! of status. A GTD order expires one minute before its `expiration`: no status says so, so a cancelled order
//! whose expiration had come is told as expired.

use crate::api::call::{CallLimits, Expect};
use crate::error::{Error, ErrorCode};
use crate::json::JsonWriter;
use crate::json::Value;
use crate::task::{Got, Machine, Need as TaskNeed, Step, Why};

/// How often the order is read while the channel is not open, unless the options say otherwise.
pub const DEFAULT_POLL_MS: f64 = 1_000.0;
/// `waitForSettlement`: its trades are read this often, and waited for this long (the upstream clients' 30 s),
/// unless the options say otherwise.
pub const SETTLE_POLL_MS: f64 = 250.0;
pub const SETTLE_TIMEOUT_MS: f64 = 30_000.0;
pub const MIN_POLL_MS: f64 = 100.0;
pub const MAX_POLL_MS: f64 = 60_000.0;
/// With the channel open, the order is still read this often (the channel may miss a change unseen).
const OPEN_POLL_MS: f64 = 30_000.0;
/// A GTD order leaves the book this long before its `expiration` (the service's security margin).
const EXPIRY_MARGIN_S: u64 = 60;
/// The most trades one order's view keeps.
const MAX_TRADES: usize = 1_000;

/// The options of following an order, read once (`trackOrder`; `waitForSettlement` when `settle_only`):
/// `pollMs`, `timeoutMs` (how long it may take in all; none for `trackOrder` unless given), `stream` (whether
/// the user channel is followed too: `trackOrder` only, true unless false).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FollowSettings {
    pub poll_ms: f64,
    pub timeout_ms: Option<f64>,
    pub stream: bool,
}

impl FollowSettings {
    /// From the options' `pollMs`, `timeoutMs` (as the call's options read it: positive milliseconds or
    /// Infinity, absent None) and `stream`.
    pub fn read(
        settle_only: bool,
        poll: &Value,
        timeout_ms: Option<f64>,
        stream: &Value,
    ) -> Result<Self, crate::error::Error> {
        let poll_ms = poll_interval(poll, if settle_only { SETTLE_POLL_MS } else { DEFAULT_POLL_MS })?;
        let timeout_ms = timeout_ms.or(settle_only.then_some(SETTLE_TIMEOUT_MS)).filter(|ms| ms.is_finite());
        let stream = match stream {
            Value::Undefined | Value::Null => true,
            Value::Bool(b) => *b,
            _ => return Err(crate::error::Error::invalid("stream", "must be true or false")),
        };
        Ok(Self { poll_ms, timeout_ms, stream: stream && !settle_only })
    }
}

/// Whether a read that failed with `code` ends the following: an order the service does not know or does not
/// let this key see, a client without credentials or freed. Any other failure (the network, the service's
/// errors, a timeout) is a read to try again at the next round.
pub fn read_ends(code: &str) -> bool {
    matches!(code, "UNAUTHORIZED" | "NOT_FOUND" | "INVALID_PARAMS" | "FREED")
}

/// The `pollMs` option: absent for `default`, else milliseconds from 100 to 60,000.
pub fn poll_interval(value: &Value, default: f64) -> Result<f64, crate::error::Error> {
    match value {
        Value::Undefined | Value::Null => Ok(default),
        Value::Number(ms) if (MIN_POLL_MS..=MAX_POLL_MS).contains(ms) => Ok(*ms),
        _ => Err(crate::error::Error::invalid("pollMs", "must be a number of milliseconds from 100 to 60000")),
    }
}

/// What `trackOrder` and `waitForSettlement` follow: an order id (`0x` and hex), or the answer to placing it
/// (its `orderID`, and all it says). `settle_only` needs the answer (its trades).
pub fn order_of(value: &Value, settle_only: bool) -> Result<String, crate::error::Error> {
    let id = match value {
        Value::Str(id) if !settle_only => id.as_str(),
        Value::Object(_) => text(value, &["orderID", "orderId"]).unwrap_or_default(),
        _ => "",
    };
    let hex = id.strip_prefix("0x").unwrap_or_default();
    if hex.is_empty() || hex.len() > 128 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(crate::error::Error::invalid(
            "order",
            if settle_only {
                "must be the answer to placing the order ({ orderID, status, tradeIDs })"
            } else {
                "must be an order id (0x and hex) or the answer to placing it"
            },
        ));
    }
    Ok(id.to_owned())
}

/// An order's state as the service says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OrderState {
    Live,
    Delayed,
    Matched,
    Canceled,
    Invalid,
    MarketResolved,
}

impl OrderState {
    fn parse(text: &str) -> Option<Self> {
        const NAMES: [(&str, OrderState); 9] = [
            ("LIVE", OrderState::Live),
            ("DELAYED", OrderState::Delayed),
            ("MATCHED", OrderState::Matched),
            ("CANCELED", OrderState::Canceled),
            ("CANCELLED", OrderState::Canceled),
            // "Marketable, but failed to delay; placement successful" (the upstream docs): it rests.
            ("UNMATCHED", OrderState::Live),
            ("INVALID", OrderState::Invalid),
            ("CANCELED_MARKET_RESOLVED", OrderState::MarketResolved),
            ("CANCELLED_MARKET_RESOLVED", OrderState::MarketResolved),
        ];
        let text = text.strip_prefix("ORDER_STATUS_").unwrap_or(text);
        NAMES.iter().find(|(name, _)| name.eq_ignore_ascii_case(text)).map(|(_, state)| *state)
    }

    /// A status that carries a reason after the state (`CANCELED_<reason>`): the state's text and the reason.
    fn reason(text: &str) -> Option<(&str, &str)> {
        let plain = text.strip_prefix("ORDER_STATUS_").unwrap_or(text);
        ["CANCELED_", "CANCELLED_"].iter().find_map(|prefix| {
            let rest =
                plain.get(..prefix.len()).filter(|p| p.eq_ignore_ascii_case(prefix)).and(plain.get(prefix.len()..))?;
            // CANCELED_MARKET_RESOLVED is a state of its own.
            (Self::parse(plain).is_none() && !rest.is_empty())
                .then(|| (plain.get(..prefix.len() - 1).unwrap_or(plain), rest))
        })
    }

    fn ended(self) -> bool {
        matches!(self, Self::Canceled | Self::Invalid | Self::MarketResolved)
    }
}

/// A trade's settlement status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TradeStatus {
    Matched,
    MatchedNotBroadcasted,
    Mined,
    Confirmed,
    Retrying,
    Failed,
}

impl TradeStatus {
    pub fn parse(text: &str) -> Option<Self> {
        let text = text.strip_prefix("TRADE_STATUS_").unwrap_or(text);
        [Self::Matched, Self::MatchedNotBroadcasted, Self::Mined, Self::Confirmed, Self::Retrying, Self::Failed]
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(text))
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Matched => "MATCHED",
            Self::MatchedNotBroadcasted => "MATCHED_NOT_BROADCASTED",
            Self::Mined => "MINED",
            Self::Confirmed => "CONFIRMED",
            Self::Retrying => "RETRYING",
            Self::Failed => "FAILED",
        }
    }

    /// CONFIRMED and FAILED are final.
    pub fn is_final(self) -> bool {
        matches!(self, Self::Confirmed | Self::Failed)
    }

    /// How far along it is, so that an older answer read after a newer one does not move it back.
    fn rank(self) -> u8 {
        match self {
            Self::Matched | Self::MatchedNotBroadcasted => 0,
            Self::Retrying => 1,
            Self::Mined => 2,
            Self::Confirmed | Self::Failed => 3,
        }
    }
}

#[derive(Clone, Debug)]
struct TradeSeen {
    id: String,
    /// Read (or asked to be) at least once.
    asked: bool,
    status: Option<TradeStatus>,
    tx: Option<String>,
    told: Option<(TradeStatus, Option<String>)>,
    /// The shares of the followed order it matched (as taker: the trade's size; as maker: its entries'
    /// `matched_amount`), in 10^-6 units, when a source said.
    shares: Option<u64>,
}

/// What the driver does next.
#[derive(Clone, Debug, PartialEq)]
pub enum Need {
    /// Tell this update (JSON), then ask again.
    Tell(String),
    /// Read the order (`GET /data/order/{id}`) and hand the answer back.
    ReadOrder,
    /// Read one trade (`GET /data/trades?id=`) and hand the answer back.
    ReadTrade(String),
    /// Wait this long (or until an event comes), then ask again.
    Wait(f64),
    /// Settled: nothing more will change.
    Done,
}

/// What the driver hands in.
#[derive(Clone, Copy, Debug)]
pub enum Source<'a> {
    /// The answer to placing the order (`POST /order`).
    Posted(&'a Value),
    /// The answer to a `ReadOrder` (`{ order }`), or None when it failed.
    Order(Option<&'a Value>),
    /// The answer to a `ReadTrade` (a page `{ data }`), or None when it failed.
    Trades(Option<&'a Value>),
    /// An event of the user channel.
    Event(&'a Value),
    /// The user channel opened (true) or is not open (false).
    Channel(bool),
}

/// One order followed.
#[derive(Clone, Debug)]
pub struct Tracker {
    order_id: String,
    /// Only the trades to settlement (`waitForSettlement`): the order is read only to learn a delayed order's trades.
    settle_only: bool,
    poll_ms: f64,
    state: Option<OrderState>,
    /// Sizes in 10^-6 units, and as the service wrote them.
    original: Option<(u64, String)>,
    matched: Option<u64>,
    matched_text: Option<String>,
    expiration_s: u64,
    taker_only: bool,
    trades: Vec<TradeSeen>,
    /// The service's reason for a cancellation, when its status carried one.
    detail: Option<String>,
    told_placed: bool,
    told_matched: u64,
    told_end: bool,
    told_done: bool,
    channel_open: bool,
    catch_up: bool,
    /// The channel just closed: the next round is a poll away, not an open channel's long one.
    dropped: bool,
    /// The reads of the current round, and when the next round is due.
    round: Vec<Need>,
    next_round_ms: f64,
    /// The clock (seconds) for expiry.
    now_s: u64,
}

fn field<'a>(value: &'a Value, names: &[&str]) -> Option<&'a Value> {
    names.iter().find_map(|name| value.field(name))
}

fn text<'a>(value: &'a Value, names: &[&str]) -> Option<&'a str> {
    match field(value, names)? {
        Value::Str(s) if s.len() <= 256 => Some(s.as_str()),
        _ => None,
    }
}

/// A size the service writes as text or a number: 10^-6 units, and its text.
fn amount(value: &Value, names: &[&str]) -> Option<(u64, String)> {
    match field(value, names)? {
        Value::Str(s) if s.len() <= 40 => Some((crate::book::fixed::parse(s.as_bytes())?, s.clone())),
        Value::Number(n) => {
            let units = crate::book::fixed::from_f64(*n)?;
            let mut out = Vec::new();
            crate::book::fixed::format(units, &mut out);
            Some((units, String::from_utf8(out).unwrap_or_default()))
        }
        _ => None,
    }
}

fn strings<'a>(value: &'a Value, names: &[&str]) -> impl Iterator<Item = &'a str> {
    let list = match field(value, names) {
        Some(Value::Array(items)) => items.as_slice(),
        _ => &[],
    };
    list.iter().take(MAX_TRADES).filter_map(|v| match v {
        Value::Str(s) if !s.is_empty() && s.len() <= 128 => Some(s.as_str()),
        _ => None,
    })
}

impl Tracker {
    /// Follows the order `order_id` (`settle_only`: its trades to settlement only), reading it every `poll_ms`
    /// while the channel is not open.
    pub fn new(order_id: &str, settle_only: bool, poll_ms: f64, now_ms: f64) -> Self {
        Self {
            order_id: order_id.to_owned(),
            settle_only,
            poll_ms,
            state: None,
            original: None,
            matched: None,
            matched_text: None,
            expiration_s: 0,
            taker_only: false,
            trades: Vec::new(),
            detail: None,
            told_placed: false,
            told_matched: 0,
            told_end: false,
            told_done: false,
            channel_open: false,
            catch_up: false,
            dropped: false,
            round: Vec::new(),
            next_round_ms: now_ms,
            now_s: (now_ms / 1000.0) as u64,
        }
    }

    pub fn order_id(&self) -> &str {
        &self.order_id
    }

    /// Takes in what a source said.
    pub fn observe(&mut self, source: Source<'_>) {
        match source {
            Source::Posted(answer) => self.posted(answer),
            Source::Order(Some(answer)) => self.order(field(answer, &["order"]).unwrap_or(answer)),
            Source::Trades(Some(answer)) => {
                let items = match field(answer, &["data"]).unwrap_or(answer) {
                    Value::Array(items) => items.as_slice(),
                    _ => &[],
                };
                for trade in items.iter().take(MAX_TRADES) {
                    self.trade(trade, false);
                }
            }
            Source::Order(None) | Source::Trades(None) => {}
            Source::Event(event) => match text(event, &["event_type"]) {
                Some("order") if text(event, &["id"]).is_some_and(|id| id.eq_ignore_ascii_case(&self.order_id)) => {
                    let kind = text(event, &["type"]).unwrap_or_default();
                    if kind.eq_ignore_ascii_case("CANCELLATION") && !self.state.is_some_and(OrderState::ended) {
                        self.state = Some(OrderState::Canceled);
                    }
                    self.order(event);
                    if kind.eq_ignore_ascii_case("PLACEMENT") && self.state.is_none() {
                        self.state = Some(OrderState::Live);
                    }
                }
                Some("trade") => self.trade(event, true),
                _ => {}
            },
            Source::Channel(open) => {
                if open && !self.channel_open {
                    self.catch_up = true;
                }
                if !open && self.channel_open {
                    self.dropped = true;
                }
                self.channel_open = open;
            }
        }
    }

    fn posted(&mut self, answer: &Value) {
        if let Some(id) = text(answer, &["orderID", "orderId"]).filter(|id| !id.is_empty()) {
            if self.order_id.is_empty() {
                self.order_id = id.to_owned();
            }
        }
        let state = text(answer, &["status"]).and_then(OrderState::parse);
        if self.state.is_none() {
            self.state = state;
        }
        for id in strings(answer, &["tradeIDs", "tradeIds"]) {
            self.know_trade(id);
        }
    }

    fn order(&mut self, o: &Value) {
        // A cancellation's status may carry its reason after the status ("CANCELED_order couldn't be fully
        // filled. FOK orders are fully filled or killed."): the state, and the reason apart.
        let status = text(o, &["status"]).map(|s| match OrderState::reason(s) {
            Some((state, reason)) => {
                self.detail = Some(reason.to_owned());
                state
            }
            None => s,
        });
        if let Some(state) = status.and_then(OrderState::parse) {
            // An order that ended stays ended (an older answer read later does not bring it back).
            if !self.state.is_some_and(OrderState::ended) {
                self.state = Some(state);
            }
        }
        if let Some(original) = amount(o, &["originalSize", "original_size"]) {
            self.original = Some(original);
        }
        if let Some((n, text)) = amount(o, &["sizeMatched", "size_matched"]) {
            if self.matched.map_or(true, |m| n > m) {
                self.matched = Some(n);
                self.matched_text = Some(text);
            }
        }
        if let Some(e) = text(o, &["expiration"]).and_then(|e| e.parse::<u64>().ok()) {
            self.expiration_s = e;
        }
        if let Some(t) = text(o, &["order_type", "orderType"]) {
            self.taker_only = t.eq_ignore_ascii_case("FOK") || t.eq_ignore_ascii_case("FAK");
        }
        for id in strings(o, &["associateTrades", "associate_trades"]) {
            self.know_trade(id);
        }
    }

    fn know_trade(&mut self, id: &str) -> Option<usize> {
        if let Some(i) = self.trades.iter().position(|t| t.id == id) {
            return Some(i);
        }
        if self.trades.len() >= MAX_TRADES {
            return None;
        }
        self.trades.push(TradeSeen {
            id: id.to_owned(),
            asked: false,
            status: None,
            tx: None,
            told: None,
            shares: None,
        });
        Some(self.trades.len() - 1)
    }

    /// A trade (from the channel, whose events come in order, or a read), if it is one of this order's.
    fn trade(&mut self, t: &Value, ordered: bool) {
        let Some(id) = text(t, &["id"]).filter(|id| !id.is_empty() && id.len() <= 128) else { return };
        let mine = |s: &str| s.eq_ignore_ascii_case(&self.order_id);
        let known = self.trades.iter().any(|x| x.id == id);
        let taker = text(t, &["taker_order_id"]).is_some_and(mine);
        let makers = match field(t, &["maker_orders"]) {
            Some(Value::Array(makers)) => makers.as_slice(),
            _ => &[],
        };
        let maker = makers.iter().any(|m| text(m, &["order_id"]).is_some_and(mine));
        if !(known || taker || maker) {
            return;
        }
        // What it matched of this order: a taker's size is the trade's, a maker's its entries' (issue 33: told
        // when the trade arrives, not at the order's next update).
        let shares = if taker {
            amount(t, &["size"]).map(|(n, _)| n)
        } else if maker {
            let entries = makers.iter().take(MAX_TRADES).filter(|m| text(m, &["order_id"]).is_some_and(mine));
            entries.map(|m| amount(m, &["matched_amount"]).map(|(n, _)| n)).try_fold(0u64, |sum, n| sum.checked_add(n?))
        } else {
            None
        };
        let Some(i) = self.know_trade(id) else { return };
        let status = text(t, &["status"]).and_then(TradeStatus::parse);
        let tx = text(t, &["transaction_hash"]).filter(|h| h.len() > 2 && h.bytes().all(|b| b.is_ascii_alphanumeric()));
        let Some(seen) = self.trades.get_mut(i) else { return };
        if seen.shares.is_none() {
            seen.shares = shares;
        }
        if let Some(status) = status {
            // A final status stays. Before it, the channel's next event is the news (a mined trade may be retried);
            // a read that seems to go back is an older answer, unless it names another transaction.
            let new_tx = tx.is_some_and(|tx| seen.tx.as_deref() != Some(tx));
            let moves = match seen.status {
                None => true,
                Some(s) if s.is_final() => false,
                Some(s) => ordered || new_tx || status.rank() >= s.rank(),
            };
            if moves {
                seen.status = Some(status);
                if let Some(tx) = tx {
                    seen.tx = Some(tx.to_owned());
                }
            }
        }
    }

    /// How much of the order matched: what the order says, or its trades when they say more (a trade tells its
    /// match before the order's update does). A failed trade matched nothing.
    fn matched_now(&self) -> Option<(u64, String)> {
        let from_trades: u64 = self
            .trades
            .iter()
            .filter(|t| t.status != Some(TradeStatus::Failed))
            .filter_map(|t| t.shares)
            .fold(0u64, u64::saturating_add);
        match self.matched {
            Some(m) if m >= from_trades => Some((m, self.matched_text.clone().unwrap_or_default())),
            _ if from_trades > 0 => Some((from_trades, crate::trade::amounts::units_text(from_trades))),
            _ => None,
        }
    }

    fn closed(&self) -> bool {
        let matched = self.matched_now().map(|(m, _)| m);
        let whole = matches!((matched, &self.original), (Some(m), Some((o, _))) if *o > 0 && m >= *o);
        match self.state {
            Some(s) if s.ended() => true,
            Some(OrderState::Matched) => whole || self.taker_only,
            _ => whole,
        }
    }

    fn expired(&self) -> bool {
        self.expiration_s > 0 && self.now_s + EXPIRY_MARGIN_S >= self.expiration_s
    }

    fn settled(&self) -> bool {
        let trades_final = self.trades.iter().all(|t| t.status.is_some_and(TradeStatus::is_final));
        if self.settle_only {
            // A delayed order's trades are not known yet; an order that ended without a fill has none to settle.
            let waiting = self.trades.is_empty() && !self.closed() && self.state != Some(OrderState::Live);
            return trades_final && !waiting && (self.state.is_some() || !self.trades.is_empty() || self.closed());
        }
        trades_final && self.closed()
    }

    /// The next change to tell, if any (each once).
    fn update(&mut self) -> Option<String> {
        if !self.settle_only {
            if !self.told_placed && self.state.is_some() && self.state != Some(OrderState::Delayed) {
                self.told_placed = true;
                return Some(self.event("placed", &[]));
            }
            if let Some((matched, size)) = self.matched_now().filter(|(m, _)| *m > self.told_matched) {
                self.told_matched = matched;
                let whole = self.original.as_ref().is_some_and(|(o, _)| matched >= *o);
                let original = self.original.as_ref().map(|(_, t)| t.clone()).unwrap_or_default();
                return Some(self.event(
                    "matched",
                    &[
                        ("sizeMatched", &size),
                        ("originalSize", &original),
                        ("whole", if whole { "true" } else { "false" }),
                    ],
                ));
            }
        }
        let order_id = &self.order_id;
        for t in self.trades.iter_mut() {
            let Some(status) = t.status else { continue };
            let now = (status, t.tx.clone());
            if t.told.as_ref() == Some(&now) {
                continue;
            }
            t.told = Some(now);
            let mut w = JsonWriter::object();
            w.field_str("type", "trade");
            w.field_str("orderId", order_id);
            w.field_str("tradeId", &t.id);
            w.field_str("status", status.name());
            if let Some(tx) = &t.tx {
                w.field_str("transactionHash", tx);
            }
            w.field_raw("final", if status.is_final() { "true" } else { "false" });
            return Some(w.finish());
        }
        if !self.settle_only && !self.told_end && self.state.is_some_and(OrderState::ended) {
            self.told_end = true;
            let kind = if self.expired() { "expired" } else { "cancelled" };
            let killed = self.taker_only || self.detail.as_deref().is_some_and(|d| d.contains("killed"));
            let reason = match self.state {
                Some(OrderState::Invalid) => "invalid",
                Some(OrderState::MarketResolved) => "marketResolved",
                _ if killed => "killed",
                _ => "canceled",
            };
            let size = self.matched_now().map_or_else(|| "0".into(), |(_, text)| text);
            let detail = self.detail.clone().unwrap_or_default();
            return Some(self.event(kind, &[("sizeMatched", &size), ("reason", reason), ("detail", &detail)]));
        }
        if !self.told_done && self.settled() {
            self.told_done = true;
            return Some(self.settled_json());
        }
        None
    }

    fn event(&self, kind: &str, fields: &[(&str, &str)]) -> String {
        let mut w = JsonWriter::object();
        w.field_str("type", kind);
        w.field_str("orderId", &self.order_id);
        for (name, value) in fields.iter().filter(|(_, value)| !value.is_empty()) {
            if *value == "true" || *value == "false" {
                w.field_raw(name, value);
            } else {
                w.field_str(name, value);
            }
        }
        w.finish()
    }

    /// `{"type":"settled", orderId, trades: [{tradeId, status, transactionHash?}], failed}`.
    fn settled_json(&self) -> String {
        let mut w = JsonWriter::object();
        w.field_str("type", "settled");
        w.field_str("orderId", &self.order_id);
        w.key("trades");
        w.array_start();
        for t in &self.trades {
            w.object_start();
            w.field_str("tradeId", &t.id);
            w.field_str("status", t.status.map_or("MATCHED", TradeStatus::name));
            if let Some(tx) = &t.tx {
                w.field_str("transactionHash", tx);
            }
            w.object_end();
        }
        w.array_end();
        let failed = self.trades.iter().filter(|t| t.status == Some(TradeStatus::Failed)).count();
        w.field_raw("failed", &crate::trade::decimal(failed as u64));
        w.finish()
    }

    /// What to do at `now_ms`.
    pub fn need(&mut self, now_ms: f64) -> Need {
        self.now_s = (now_ms.max(0.0) / 1000.0) as u64;
        if let Some(update) = self.update() {
            return Need::Tell(update);
        }
        if self.told_done {
            return Need::Done;
        }
        if let Some(read) = self.round.pop() {
            return read;
        }
        if std::mem::take(&mut self.dropped) {
            self.next_round_ms = self.next_round_ms.min(now_ms + self.poll_ms);
        }
        let every = if self.channel_open { OPEN_POLL_MS } else { self.poll_ms };
        if self.catch_up || now_ms >= self.next_round_ms {
            self.catch_up = false;
            self.next_round_ms = now_ms + every;
            // Popped from the end: the order first, then its pending trades in order.
            let mut round: Vec<Need> = Vec::new();
            for t in self.trades.iter_mut().rev().filter(|t| !t.status.is_some_and(TradeStatus::is_final)) {
                t.asked = true;
                round.push(Need::ReadTrade(t.id.clone()));
            }
            let order_needed = !self.settle_only || (self.trades.is_empty() && !self.closed());
            if order_needed && !self.order_id.is_empty() {
                round.push(Need::ReadOrder);
            }
            if let Some(read) = round.pop() {
                self.round = round;
                return read;
            }
        }
        // A trade learnt of and never seen (a read of the order named it): read at once.
        if let Some(t) = self.trades.iter_mut().find(|t| !t.asked && t.status.is_none()) {
            t.asked = true;
            return Need::ReadTrade(t.id.clone());
        }
        Need::Wait((self.next_round_ms - now_ms).max(1.0))
    }
}

/// An order followed as a task (`crate::task`): its reads are calls (with the client's own timeout and retries),
/// each answer read by `read` into the owner's product, from which `value` takes it as a value tree; the user
/// channel's events are what the task hears; each update is told to the task's own listener. Done with the
/// `settled` update (JSON, `null` when stopped before), or failed: the caller's signal, `timeoutMs`, or a read that
/// cannot go on ([`read_ends`]).
pub struct Following<P> {
    pub tracker: Tracker,
    read: Expect<P>,
    value: fn(P) -> Option<Value>,
    limits: CallLimits,
    /// How long it may take in all, and from when (its first step).
    timeout_ms: Option<f64>,
    deadline: Option<f64>,
    /// The read on its way is the order's (else a trade's).
    reading_order: bool,
    settled: Option<String>,
}

impl<P> Following<P> {
    pub fn new(
        tracker: Tracker,
        read: Expect<P>,
        value: fn(P) -> Option<Value>,
        limits: CallLimits,
        timeout_ms: Option<f64>,
    ) -> Self {
        Following { tracker, read, value, limits, timeout_ms, deadline: None, reading_order: false, settled: None }
    }

    fn done(&mut self) -> Step<P> {
        Step::Do(TaskNeed::Done(self.settled.take().unwrap_or_else(|| "null".into())))
    }

    fn advance(&mut self, got: Got<P>, now: f64) -> Result<Step<P>, Error> {
        let deadline = *self.deadline.get_or_insert_with(|| self.timeout_ms.map_or(f64::INFINITY, |ms| now + ms));
        match got {
            Got::Go => {}
            Got::Heard(event) => match text(&event, &["event_type"]) {
                Some("status") => self.tracker.observe(Source::Channel(text(&event, &["status"]) == Some("open"))),
                Some("order" | "trade") => self.tracker.observe(Source::Event(&event)),
                _ => {}
            },
            Got::Answer { product, .. } => {
                let answer = product.and_then(self.value);
                let answer = answer.as_ref();
                self.tracker.observe(if self.reading_order { Source::Order(answer) } else { Source::Trades(answer) });
            }
            // A read that cannot succeed ends the following; any other failure is a read tried again next round.
            Got::Failed(e) if read_ends(e.code.as_str()) => return Err(e),
            Got::Failed(_) => {
                self.tracker.observe(if self.reading_order { Source::Order(None) } else { Source::Trades(None) })
            }
            Got::Abort { why: Why::Stop, .. } => return Ok(self.done()),
            Got::Abort { why: Why::Signal, .. } => {
                return Err(Error::new(ErrorCode::Aborted, "the order's tracking was aborted by its AbortSignal"))
            }
            Got::Abort { why: Why::Freed, .. } => {
                return Err(Error::new(ErrorCode::Freed, "the order's client was freed while it was followed"))
            }
            Got::Said(_) => return Err(Error::decode("the tracking asked no wallet")),
        }
        if now >= deadline {
            return Err(Error::new(ErrorCode::Timeout, "the order was not settled within timeoutMs"));
        }
        Ok(match self.tracker.need(now) {
            Need::Tell(update) => {
                if update.starts_with("{\"type\":\"settled\"") {
                    self.settled = Some(update.clone());
                }
                Step::Do(TaskNeed::Tell { client: false, event: update })
            }
            Need::ReadOrder => {
                self.reading_order = true;
                Step::Call {
                    request: crate::api::order(self.tracker.order_id())?,
                    expect: self.read,
                    limits: self.limits,
                }
            }
            Need::ReadTrade(id) => {
                self.reading_order = false;
                let params = crate::api::Params(vec![("id".into(), Value::Str(id))]);
                Step::Call { request: crate::api::user_trades(&params)?, expect: self.read, limits: self.limits }
            }
            Need::Wait(ms) => Step::Do(TaskNeed::Wait { ms: Some(ms.min(deadline - now).max(0.0)), call: None }),
            Need::Done => self.done(),
        })
    }
}

impl<P> Machine<P> for Following<P> {
    fn step(&mut self, got: Got<P>, now: f64) -> Step<P> {
        self.advance(got, now).unwrap_or_else(|e| Step::Do(TaskNeed::Fail(e)))
    }
}

#[cfg(test)]
#[path = "tracking_tests.rs"]
mod tests;
