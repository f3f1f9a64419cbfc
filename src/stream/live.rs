//! Live order books kept from the market channel: every `book`, `price_change`, `tick_size_change` and
//! `last_trade_price` event is applied to the asset's book as it comes, and the book is checked against
//! the service's hash (every entry, the last entry of each asset in a frame, or never). A book that does
//! not match, a change for an asset with no book, or a `book` that does not match its own hash is
//! resynchronised: the binding fetches a fresh snapshot (GET /book) and hands it to [`LiveBooks::snapshot`];
//! changes that come meanwhile wait, and those newer than the snapshot are applied on it.

use std::borrow::Cow;

use super::burst::{Burst, Outcome};
use crate::book::{OrderBook, Side};
use crate::error::Error;
use crate::json::Scanner;

/// When a live book is checked against the service's hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashCheck {
    /// After every price-change entry.
    EveryEntry,
    /// After the last entry of each asset in a frame (the default: a frame's entries come together).
    LastPerFrame,
    /// Never: books are applied but never verified.
    Off,
}

impl HashCheck {
    pub fn parse(text: &str) -> Result<Self, Error> {
        match text {
            "entry" => Ok(Self::EveryEntry),
            "frame" => Ok(Self::LastPerFrame),
            "off" => Ok(Self::Off),
            _ => Err(Error::invalid("verify", "must be \"entry\", \"frame\" or \"off\"")),
        }
    }
}

/// Why a book is being resynchronised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resync {
    /// A price change left the book with another hash than the service's.
    HashMismatch,
    /// A `book` event (or snapshot) whose levels do not give its own hash.
    BookMismatch,
    /// A change for an asset whose book is missing, or that could not be applied.
    Gap,
    /// More changes came during a resynchronisation than are kept.
    Overflow,
}

impl Resync {
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::HashMismatch => "hash_mismatch",
            Self::BookMismatch => "book_mismatch",
            Self::Gap => "gap",
            Self::Overflow => "overflow",
        }
    }
}

/// Changes kept per asset while its snapshot is on the way; beyond this the snapshot is fetched again.
pub const MAX_PENDING: usize = 10_000;

/// Hash checks waiting for the platform's digest at most; beyond this, books are hashed here.
pub const MAX_AWAITING: usize = 1_024;

/// Books whose hash input is shorter are hashed here even when the platform can: a platform digest costs
/// the main thread ~10 µs whatever its length (measured in Chromium by `cargo xtask bench`), the SHA-1
/// here ~1.5 µs per KiB; from 16 KiB (about 250 levels a side) the platform's is the cheaper.
pub const PLATFORM_FROM: usize = 16 * 1024;

/// Where the books' hashes are computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hasher {
    /// Here, by SHA-1 in this crate, as the change is applied.
    Here,
    /// By the platform (the browser's or Node's native SHA-1, off the main thread) for books whose levels'
    /// text is at least `from` bytes ([`PLATFORM_FROM`]), here for smaller ones: a check hands the book's
    /// hash input out as [`Due`] and its answer comes back through [`LiveBooks::digested`].
    Platform { from: usize },
}

/// A check whose digest the binding is to compute: `input[start..end]` of [`LiveBooks::take_due`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Due {
    pub id: u32,
    pub start: usize,
    pub end: usize,
}

/// A check handed to the platform, waiting for its digest.
#[derive(Clone, Debug)]
struct Awaiting {
    id: u32,
    asset: String,
    /// The book's epoch when checked: an answer for a book since replaced is moot.
    epoch: u32,
    /// The book's timestamp when checked: a mismatch that comes back after a later change has ended its
    /// burst can wait for nothing more.
    timestamp: u64,
    expected: [u8; 20],
    /// What a mismatch means: a price change's hash, or a whole book's own.
    reason: Resync,
}

/// The checks of the books of one stream: how they are hashed and those under way.
#[derive(Debug)]
struct Checks {
    hasher: Hasher,
    next_id: u32,
    awaiting: Vec<Awaiting>,
    due: Vec<Due>,
    /// The hash inputs of the due checks, one after another.
    input: Vec<u8>,
}

/// What a check of a book against an expected hash came to, when it came to something now.
enum Checked {
    Matched,
    Mismatched,
    /// Handed to the platform: the answer comes later.
    Deferred,
}

impl Checks {
    /// Before a frame or snapshot: the bytes of the last one's checks are no longer needed (the binding
    /// hands them to the platform at once); checks it never handed over will not be answered.
    fn begin(&mut self) {
        for due in self.due.drain(..) {
            self.awaiting.retain(|a| a.id != due.id);
        }
        self.input.clear();
    }

    /// Checks `book` against `want`, the service's hash: here, or by handing its input to the platform.
    fn check(&mut self, book: &mut OrderBook, want: [u8; 20], at: (&str, u32, u64), reason: Resync) -> Checked {
        let (asset, epoch, timestamp) = at;
        book.keep_summary();
        let platform = matches!(self.hasher, Hasher::Platform { from } if book.summary_len() >= from);
        if platform && self.awaiting.len() < MAX_AWAITING {
            let start = self.input.len();
            book.write_hash_input(&mut self.input);
            let id = self.next_id;
            self.next_id = self.next_id.wrapping_add(1);
            self.due.push(Due { id, start, end: self.input.len() });
            self.awaiting.push(Awaiting { id, asset: asset.to_owned(), epoch, timestamp, expected: want, reason });
            return Checked::Deferred;
        }
        if book.digest() == want {
            Checked::Matched
        } else {
            Checked::Mismatched
        }
    }
}

/// 40 hex digits (either case) as 20 bytes.
fn hex20(text: &str) -> Option<[u8; 20]> {
    let digits = text.as_bytes();
    if digits.len() != 40 {
        return None;
    }
    let mut out = [0u8; 20];
    for (byte, pair) in out.iter_mut().zip(digits.chunks(2)) {
        let nibble = |c: u8| (c as char).to_digit(16);
        *byte = match pair {
            [hi, lo] => (nibble(*hi)? * 16 + nibble(*lo)?) as u8,
            _ => return None,
        };
    }
    Some(out)
}

/// One change of a book, as a frame carries it (borrowed from the frame's bytes).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Change<'a> {
    Level { timestamp: u64, side: Side, price: &'a str, size: &'a str, hash: Option<&'a str>, check: bool },
    TickSize { timestamp: u64, tick_size: &'a str },
    LastTrade { timestamp: u64, price: &'a str },
}

impl Change<'_> {
    fn timestamp(&self) -> u64 {
        match self {
            Self::Level { timestamp, .. } | Self::TickSize { timestamp, .. } | Self::LastTrade { timestamp, .. } => {
                *timestamp
            }
        }
    }
}

/// A change that could not be applied yet (its book is on the way), kept with its text.
#[derive(Clone, Debug, PartialEq)]
struct Pending {
    change: Change<'static>,
    /// The text the change's fields point into: price, size, hash (or the tick size, or the price).
    text: [String; 3],
}

impl Pending {
    fn keep(change: Change<'_>) -> Self {
        let own = |s: &str| s.to_owned();
        let (text, change) = match change {
            Change::Level { timestamp, side, price, size, hash, check } => (
                [own(price), own(size), own(hash.unwrap_or_default())],
                Change::Level { timestamp, side, price: "", size: "", hash: hash.map(|_| ""), check },
            ),
            Change::TickSize { timestamp, tick_size } => {
                ([own(tick_size), String::new(), String::new()], Change::TickSize { timestamp, tick_size: "" })
            }
            Change::LastTrade { timestamp, price } => {
                ([own(price), String::new(), String::new()], Change::LastTrade { timestamp, price: "" })
            }
        };
        Self { change, text }
    }

    /// The change again, pointing into the kept text.
    fn change(&self) -> Change<'_> {
        let [a, b, c] = &self.text;
        match self.change {
            Change::Level { timestamp, side, hash, check, .. } => {
                Change::Level { timestamp, side, price: a, size: b, hash: hash.map(|_| c.as_str()), check }
            }
            Change::TickSize { timestamp, .. } => Change::TickSize { timestamp, tick_size: a },
            Change::LastTrade { timestamp, .. } => Change::LastTrade { timestamp, price: a },
        }
    }

    fn timestamp(&self) -> u64 {
        self.change.timestamp()
    }
}

/// Where an asset's book stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// Subscribed; no book yet.
    Waiting,
    /// Changes are applied as they come.
    Live,
    /// A snapshot is on the way; changes wait.
    Resyncing,
}

/// One asset's live book.
#[derive(Debug)]
pub struct LiveBook {
    pub asset_id: String,
    pub book: Option<OrderBook>,
    /// The latest snapshot's market fields (`min_order_size`, `neg_risk`), which stream events leave out.
    market: Option<OrderBook>,
    pub state: State,
    /// Whether the last check matched the service's hash.
    pub verified: bool,
    /// When (local milliseconds) the book was last checked and matched; NaN before that.
    pub verified_at_ms: f64,
    /// Checks that matched and that did not.
    pub checks: u64,
    pub mismatches: u64,
    pending: Vec<Pending>,
    /// A snapshot is being fetched for it.
    fetching: bool,
    /// Bumped whenever the book is replaced or left, so that a late check of an older book is ignored.
    epoch: u32,
    /// The check (handed to the platform) of the book as it is now; none when changed unchecked since.
    current: Option<u32>,
    /// The book's timestamp as a number (0 when absent or not digits), kept so that no change reads it.
    stamp: u64,
    /// Whether the book's timestamp text is the one a change set (`stamp`'s digits): a frame's later
    /// entries then leave it as it is.
    stamped: bool,
    /// The changes with the latest timestamp, and the service's hashes they left unexplained.
    burst: Burst,
    /// Whether the book is as its `book` event or snapshot came (no change applied since).
    pristine: bool,
    /// Mismatches held while their burst lasted, and hashes explained by a trade price no event had told.
    pub deferred: u64,
    pub inferred: u64,
    /// The newest timestamp of any event seen for the asset, and the oldest a snapshot may be to become the
    /// live book (the newest seen when changes were last dropped): an older one is stale.
    newest: u64,
    floor: u64,
    /// Snapshots refused as stale, in all and in a row, and when (local ms) the next may be fetched.
    pub stale: u64,
    stale_streak: u32,
    not_before: f64,
    /// When (local ms) the last stale snapshot was refused.
    refused_at: f64,
}

impl LiveBook {
    fn new(asset_id: &str) -> Self {
        Self {
            asset_id: asset_id.to_owned(),
            book: None,
            market: None,
            state: State::Waiting,
            verified: false,
            verified_at_ms: f64::NAN,
            checks: 0,
            mismatches: 0,
            pending: Vec::new(),
            fetching: false,
            epoch: 0,
            current: None,
            stamp: 0,
            stamped: false,
            burst: Burst::default(),
            pristine: false,
            deferred: 0,
            inferred: 0,
            newest: 0,
            floor: 0,
            stale: 0,
            stale_streak: 0,
            not_before: f64::NEG_INFINITY,
            refused_at: f64::NEG_INFINITY,
        }
    }

    /// The book's timestamp as a number (0 when absent or not digits).
    fn timestamp(&self) -> u64 {
        self.stamp
    }

    fn record(&mut self, matched: bool, now: f64) {
        self.verified = matched;
        if matched {
            self.checks += 1;
            self.verified_at_ms = now;
        } else {
            self.mismatches += 1;
        }
    }

    /// Applies one change to the live book; `Err` when the book cannot take it.
    fn apply(&mut self, change: Change<'_>, policy: HashCheck, checks: &mut Checks, now: f64) -> Result<(), Resync> {
        let book = self.book.as_mut().ok_or(Resync::Gap)?;
        self.pristine = false;
        let timestamp = change.timestamp();
        match change {
            Change::Level { side, price, size, hash, check, .. } => {
                // A change with a new timestamp ends the burst before it: what that left unexplained resyncs.
                if let Err(reason) = self.burst.enter(timestamp) {
                    self.mismatches += 1;
                    return Err(reason);
                }
                self.burst.took(price);
                book.apply_price_change(side, price, size).map_err(|_| Resync::Gap)?;
                if !(self.stamped && self.stamp == timestamp) {
                    book.set_timestamp(&crate::text::decimal(timestamp)).map_err(|_| Resync::Gap)?;
                    (self.stamp, self.stamped) = (timestamp, true);
                }
                let check = policy == HashCheck::EveryEntry || (policy == HashCheck::LastPerFrame && check);
                // Until a snapshot has told the market fields the hash covers, no check can match.
                let check = check && self.market.is_some();
                self.current = None;
                // A change left unchecked (by policy, or without a hash) leaves the book unverified.
                match hash.filter(|h| check && !h.is_empty()) {
                    Some(expected) => return self.check(expected, Resync::HashMismatch, checks, now),
                    None => {
                        self.verified = false;
                        self.recheck(now);
                    }
                }
            }
            Change::TickSize { tick_size, .. } => {
                book.set_tick_size(tick_size).map_err(|_| Resync::Gap)?;
                self.settle(timestamp, now)?;
            }
            Change::LastTrade { price, .. } => {
                self.burst.remember(book.last_trade_price_raw());
                book.set_last_trade_price(price).map_err(|_| Resync::Gap)?;
                self.settle(timestamp, now)?;
            }
        }
        self.current = None;
        Ok(())
    }

    /// After a change that carried no hash to check: the hashes the burst left waiting that the book now
    /// gives are explained, and when none is left the book is the service's again.
    fn recheck(&mut self, now: f64) {
        let Some(book) = self.book.as_mut() else { return };
        if self.burst.pending() && self.burst.recheck(book) > 0 && !self.burst.pending() {
            self.record(true, now);
        }
    }

    /// After a tick size or trade event (which may come late, with a later timestamp): it may explain what
    /// the burst left waiting; if not, a later timestamp ends the burst.
    fn settle(&mut self, timestamp: u64, now: f64) -> Result<(), Resync> {
        self.recheck(now);
        if timestamp != self.burst.timestamp() {
            self.burst.end().inspect_err(|_| self.mismatches += 1)?;
        }
        Ok(())
    }

    /// A change with `timestamp` comes: a new timestamp ends the burst before it, `Err` when that left a
    /// hash nothing explained.
    fn enter_burst(&mut self, timestamp: u64) -> Result<(), Resync> {
        self.burst.enter(timestamp).inspect_err(|_| self.mismatches += 1)
    }

    /// Checks the book as it is now against `expected`; `reason` is what a mismatch means.
    fn check(&mut self, expected: &str, reason: Resync, checks: &mut Checks, now: f64) -> Result<(), Resync> {
        let Some(want) = hex20(expected) else {
            self.record(false, now);
            return Err(reason);
        };
        let Some(book) = self.book.as_mut() else { return Err(Resync::Gap) };
        match checks.check(book, want, (&self.asset_id, self.epoch, self.stamp), reason) {
            Checked::Matched => {
                self.burst.matched();
                self.record(true, now);
                Ok(())
            }
            Checked::Mismatched => self.mismatch(want, reason, false, true, now),
            Checked::Deferred => {
                // `verified` tells the last check that came back until this one does.
                self.current = checks.awaiting.last().map(|a| a.id);
                Ok(())
            }
        }
    }

    /// The book as it is now does not give `want`, the service's hash: explained by the burst (the book is
    /// verified), provisional while the burst lasts (unverified), or `Err` to resynchronise. A hash whose burst
    /// has `ended` (a check's answer that came back after later changes) cannot wait.
    fn mismatch(&mut self, want: [u8; 20], reason: Resync, ended: bool, hashed: bool, now: f64) -> Result<(), Resync> {
        let Some(book) = self.book.as_mut() else { return Err(Resync::Gap) };
        let outcome = match self.burst.mismatch(book, want, reason, hashed, now) {
            Outcome::Provisional if ended => {
                let _ = self.burst.end();
                Outcome::Unexplained(reason)
            }
            outcome => outcome,
        };
        match outcome {
            Outcome::Now => {
                self.record(true, now);
                Ok(())
            }
            Outcome::Inferred => {
                self.inferred += 1;
                self.record(true, now);
                Ok(())
            }
            Outcome::Provisional => {
                self.deferred += 1;
                self.verified = false;
                Ok(())
            }
            Outcome::Unexplained(reason) => {
                self.record(false, now);
                Err(reason)
            }
        }
    }

    /// Leaves the book for a snapshot (`reason`): what waited is dropped, checks under way are moot.
    fn resync(&mut self) {
        self.state = State::Resyncing;
        self.verified = false;
        self.pending.clear();
        self.burst.clear();
        self.floor = self.newest;
        self.epoch = self.epoch.wrapping_add(1);
    }

    /// Installs `book` as the live book and checks it against its own hash, when the market fields are known.
    /// A `book` event of the stream (`event`) may leave out any field the hash covers beside the levels: each
    /// keeps its last known value (the live book's, kept current by the stream's events, else the snapshot's).
    fn install(
        &mut self,
        mut book: OrderBook,
        event: bool,
        policy: HashCheck,
        checks: &mut Checks,
        now: f64,
    ) -> Result<(), Resync> {
        if let (true, Some(earlier)) = (event, &self.book) {
            let _ = book.adopt_hashed_fields(earlier);
        }
        if let Some(earlier) = &self.book {
            self.burst.remember(earlier.last_trade_price_raw());
        }
        if let Some(market) = &self.market {
            let _ = if event { book.adopt_hashed_fields(market) } else { book.adopt_market_fields(market) };
        }
        // The book replaces what the burst's hashes were about; its prices may still name its trade.
        let stamp = timestamp_of(&book);
        if stamp != self.burst.timestamp() {
            self.burst.clear();
        }
        let _ = self.burst.end();
        self.newest = self.newest.max(stamp);
        let received = book.received_hash().filter(|h| !h.is_empty());
        let checkable = policy != HashCheck::Off && self.market.is_some();
        self.stamp = stamp;
        self.stamped = false;
        self.pristine = true;
        self.book = Some(book);
        self.epoch = self.epoch.wrapping_add(1);
        self.verified = false;
        self.current = None;
        match (checkable, received) {
            (true, Some(expected)) => self.check(&expected, Resync::BookMismatch, checks, now),
            _ => Ok(()),
        }
    }
}

/// What one frame did to the books, for the binding to tell the page and to act on.
#[derive(Debug, Default, PartialEq)]
pub struct FrameReport {
    /// Assets whose book changed (each once, in the order first changed).
    pub changed: Vec<String>,
    /// Assets to resynchronise now (fetch a snapshot and call [`LiveBooks::snapshot`]), with the reason.
    pub resync: Vec<(String, Resync)>,
    /// A snapshot was refused as stale (older than events already seen): ask for snapshots again after
    /// this many milliseconds.
    pub retry_ms: Option<f64>,
}

impl FrameReport {
    fn changed(&mut self, asset: &str) {
        if !self.changed.iter().any(|a| a == asset) {
            self.changed.push(asset.to_owned());
        }
    }
}

/// The live books of one stream.
#[derive(Debug)]
pub struct LiveBooks {
    pub policy: HashCheck,
    books: Books,
    checks: Checks,
    /// The earliest end of a burst's window among the books (`INFINITY`: no hash waits; see
    /// [`LiveBooks::expire`]), and whether it moved earlier since the binding last asked.
    expiry: f64,
    expiry_moved: bool,
}

impl LiveBooks {
    pub fn new(policy: HashCheck) -> Self {
        let checks =
            Checks { hasher: Hasher::Here, next_id: 0, awaiting: Vec::new(), due: Vec::new(), input: Vec::new() };
        Self { policy, books: Books::default(), checks, expiry: f64::INFINITY, expiry_moved: false }
    }

    /// Where hashes are computed from now on; leaving the platform drops the checks under way.
    pub fn set_hasher(&mut self, hasher: Hasher) {
        if hasher == Hasher::Here {
            self.checks.awaiting.clear();
        }
        self.checks.hasher = hasher;
    }

    pub fn hasher(&self) -> Hasher {
        self.checks.hasher
    }

    /// The checks handed to the platform since the last call, and the bytes they hash; the bytes stay
    /// until the next frame or snapshot.
    pub fn take_due(&mut self) -> (Vec<Due>, &[u8]) {
        (std::mem::take(&mut self.checks.due), &self.checks.input)
    }

    /// Whether checks are due for the platform (see [`LiveBooks::take_due`]).
    pub fn due(&self) -> bool {
        !self.checks.due.is_empty()
    }

    /// Checks handed to the platform whose digest has not come back.
    pub fn awaiting(&self) -> usize {
        self.checks.awaiting.len()
    }

    /// The platform's digest for check `id`, or `None` when it could not compute one (then books are
    /// hashed here from now on). A match verifies the book if it has not changed unchecked since; a
    /// mismatch resynchronises it; an answer about a book since replaced changes nothing.
    pub fn digested(&mut self, id: u32, digest: Option<&[u8]>, now: f64) -> FrameReport {
        let mut report = FrameReport::default();
        let Some(at) = self.checks.awaiting.iter().position(|a| a.id == id) else { return report };
        let check = self.checks.awaiting.remove(at);
        let Some(digest) = digest else {
            self.set_hasher(Hasher::Here);
            return report;
        };
        let Some(live) = find(&mut self.books, &check.asset) else { return report };
        if live.epoch != check.epoch || live.state != State::Live {
            return report;
        }
        let was = live.verified;
        if digest == check.expected {
            live.checks += 1;
            if live.current == Some(id) {
                live.burst.matched();
                live.verified = true;
                live.verified_at_ms = now;
            }
        } else if let Err(reason) =
            live.mismatch(check.expected, check.reason, check.timestamp < live.stamp, false, now)
        {
            live.resync();
            report.resync.push((check.asset, reason));
            return report;
        }
        Self::waits(&mut self.expiry, &mut self.expiry_moved, &live.burst);
        if live.verified != was {
            report.changed(&check.asset);
        }
        report
    }

    /// Starts keeping a book for `asset_id` (its first `book` event or snapshot fills it).
    pub fn subscribe(&mut self, asset_id: &str) {
        if self.get(asset_id).is_none() {
            self.books.push(LiveBook::new(asset_id));
        }
    }

    /// Stops keeping `asset_id`'s book.
    pub fn unsubscribe(&mut self, asset_ids: &[String]) {
        self.books.remove(asset_ids);
    }

    pub fn get(&self, asset_id: &str) -> Option<&LiveBook> {
        self.books.position(asset_id).and_then(|at| self.books.list.get(at))
    }

    fn get_mut(&mut self, asset_id: &str) -> Option<&mut LiveBook> {
        find(&mut self.books, asset_id)
    }

    pub fn assets(&self) -> impl Iterator<Item = &str> {
        self.books.iter().map(|b| b.asset_id.as_str())
    }

    /// After a reconnection every book comes again from the new socket's dump: what was live waits.
    pub fn reconnected(&mut self) {
        for live in &mut self.books {
            live.state = State::Waiting;
            live.verified = false;
            live.pending.clear();
            live.burst.clear();
            live.floor = live.newest;
            live.epoch = live.epoch.wrapping_add(1);
        }
    }

    /// Ends the bursts whose unexplained hashes have waited their window out by `now`: those books are
    /// resynchronised. Called before each frame and at the stream's health checks.
    pub fn expire(&mut self, now: f64) -> FrameReport {
        let mut report = FrameReport::default();
        if !(now >= self.expiry || now.is_nan()) {
            return report;
        }
        self.expiry = f64::INFINITY;
        for live in &mut self.books {
            if live.burst.expired(now) {
                if let Err(reason) = live.burst.end() {
                    live.mismatches += 1;
                    live.resync();
                    report.resync.push((live.asset_id.clone(), reason));
                }
            }
            self.expiry = self.expiry.min(live.burst.deadline());
        }
        report
    }

    /// A book's burst may hold a hash that waits: the stream's earliest deadline is its window's end, if sooner.
    fn waits(expiry: &mut f64, moved: &mut bool, burst: &Burst) {
        let deadline = burst.deadline();
        if deadline < *expiry {
            *expiry = deadline;
            *moved = true;
        }
    }

    /// When [`LiveBooks::expire`] has something to do (`INFINITY`: nothing waits).
    pub fn deadline(&self) -> f64 {
        self.expiry
    }

    /// The deadline, when it moved earlier since the last call: the binding's timer must wake for it.
    pub fn take_new_deadline(&mut self) -> Option<f64> {
        std::mem::take(&mut self.expiry_moved).then_some(self.expiry).filter(|d| d.is_finite())
    }

    /// The assets whose snapshot should be fetched now: those whose market fields are not known yet (the
    /// stream's events leave them out, and the hash covers them) and those being resynchronised; each is
    /// marked as being fetched until [`LiveBooks::snapshot`] or [`LiveBooks::snapshot_failed`].
    /// A book whose last snapshot was stale is not due again before its backoff has passed (`now`, local ms).
    pub fn snapshots_due(&mut self, now: f64) -> Vec<String> {
        let mut due = Vec::new();
        for live in &mut self.books {
            let wanted = live.market.is_none() || live.state == State::Resyncing;
            // The driver's timer and the wall clock it reads may disagree by a few milliseconds: a retry whose
            // timer fired is due, rather than left waiting for a call that would never come.
            // (A clock that went back since the refusal cannot be trusted to reach `not_before`.)
            let went_back = now < live.refused_at;
            let backed_off = now + TIMER_SLACK_MS >= live.not_before || went_back || now.is_nan();
            if !live.fetching && wanted && backed_off {
                live.fetching = true;
                due.push(live.asset_id.clone());
            }
        }
        due
    }

    /// A snapshot could not be had: it is due again (after the next frame or subscription).
    pub fn snapshot_failed(&mut self, asset_id: &str) {
        if let Some(live) = self.get_mut(asset_id) {
            live.fetching = false;
        }
    }

    /// A fresh snapshot of `asset_id` (GET /book): it gives the market fields, and it becomes the live book
    /// unless the live book is newer; changes that waited for it and are newer are applied on it.
    pub fn snapshot(&mut self, asset_id: &str, snapshot: OrderBook, now: f64) -> FrameReport {
        let policy = self.policy;
        let mut report = FrameReport::default();
        self.checks.begin();
        let checks = &mut self.checks;
        let Some(live) = find(&mut self.books, asset_id) else { return report };
        live.fetching = false;
        let taken = timestamp_of(&snapshot);
        let newer = live.book.is_none() || live.state != State::Live || taken > live.timestamp();
        if live.state != State::Live && taken < live.floor {
            // Older than events whose changes were dropped: installed, it would be a book the service no
            // longer has. Its market fields are good; the book is asked for again, after a backoff.
            live.market = Some(snapshot);
            live.stale += 1;
            live.stale_streak = live.stale_streak.saturating_add(1);
            let delay = stale_backoff_ms(live.stale_streak);
            live.not_before = now + delay;
            live.refused_at = now;
            report.retry_ms = Some(delay);
            return report;
        }
        live.stale_streak = 0;
        live.market = Some(snapshot.clone());
        if !newer {
            // The live book is as new or ahead: only the fields it lacks are new (a `book` event leaves out
            // the market fields, and may leave out `tick_size` and `last_trade_price`). A book unchanged since
            // its `book` event can now be checked against that event's hash, and one as new as the snapshot
            // against the snapshot's (a quiet market sends no entry to check at).
            let same = taken == live.timestamp();
            let Some(book) = live.book.as_mut() else { return report };
            let _ = book.adopt_hashed_fields(&snapshot);
            let expected = match (live.pristine, same) {
                (true, _) => book.received_hash(),
                (false, true) => snapshot.received_hash(),
                (false, false) => None,
            };
            if let Some(expected) = expected.filter(|h| !h.is_empty() && policy != HashCheck::Off) {
                report.changed(asset_id);
                let reason = if live.pristine { Resync::BookMismatch } else { Resync::HashMismatch };
                if let Err(reason) = live.check(&expected, reason, checks, now) {
                    live.resync();
                    report.resync.push((asset_id.to_owned(), reason));
                }
                Self::waits(&mut self.expiry, &mut self.expiry_moved, &live.burst);
            }
            return report;
        }
        report.changed(asset_id);
        if let Err(reason) = live.install(snapshot, false, policy, checks, now) {
            live.resync();
            report.resync.push((asset_id.to_owned(), reason));
            return report;
        }
        live.state = State::Live;
        let pending = std::mem::take(&mut live.pending);
        for change in pending.iter().filter(|c| c.timestamp() > taken) {
            if let Err(reason) = live.apply(change.change(), policy, checks, now) {
                live.resync();
                report.resync.push((asset_id.to_owned(), reason));
                break;
            }
        }
        Self::waits(&mut self.expiry, &mut self.expiry_moved, &live.burst);
        report
    }

    /// Applies one frame of the market channel (an event object or an array of them) to the books. A
    /// frame that is not JSON, or whose events are not of the service's shape, is `DECODE` and changes
    /// nothing it had not applied before the bad part.
    pub fn apply_frame(&mut self, frame: &[u8], now: f64) -> Result<FrameReport, Error> {
        let mut report = self.expire(now);
        self.checks.begin();
        let mut s = Scanner::new(frame);
        if s.peek_kind() == Some(b'[') {
            s.array(|s| self.event(s, frame, now, &mut report))?;
        } else {
            self.event(&mut s, frame, now, &mut report)?;
        }
        s.finish()?;
        Ok(report)
    }

    fn event(&mut self, s: &mut Scanner<'_>, frame: &[u8], now: f64, report: &mut FrameReport) -> Result<(), Error> {
        s.skip_ws();
        let start = s.pos();
        let mut event = Event::default();
        s.object(|s, key| event.field(s, key))?;
        let end = s.pos();
        match event.event_type.as_deref() {
            Some("book") => {
                let bytes = frame.get(start..end).ok_or_else(|| Error::decode("a book event was cut off"))?;
                self.book_event(bytes, event.asset_id.as_deref(), now, report)
            }
            Some("price_change") => self.price_change(&event, now, report),
            Some("tick_size_change") => {
                let (Some(asset), Some(tick_size)) = (event.asset_id.as_deref(), event.new_tick_size.as_deref()) else {
                    return Err(Error::decode("a tick_size_change event needs asset_id and new_tick_size"));
                };
                let change = Change::TickSize { timestamp: event.timestamp()?, tick_size };
                self.change(asset, change, now, report);
                Ok(())
            }
            Some("last_trade_price") => {
                let (Some(asset), Some(price)) = (event.asset_id.as_deref(), event.price.as_deref()) else {
                    return Err(Error::decode("a last_trade_price event needs asset_id and price"));
                };
                let change = Change::LastTrade { timestamp: event.timestamp()?, price };
                self.change(asset, change, now, report);
                Ok(())
            }
            // Events that do not move a book (best_bid_ask, new_market, market_resolved, the user
            // channel's) are for the page only.
            Some(_) => Ok(()),
            None => Err(Error::decode("an event without event_type")),
        }
    }

    fn book_event(
        &mut self,
        bytes: &[u8],
        asset: Option<&str>,
        now: f64,
        report: &mut FrameReport,
    ) -> Result<(), Error> {
        let asset = asset.ok_or_else(|| Error::decode("a book event without asset_id"))?;
        let book = OrderBook::from_bytes(bytes)?;
        let policy = self.policy;
        let Some(live) = find(&mut self.books, asset) else { return Ok(()) };
        report.changed(asset);
        match live.install(book, true, policy, &mut self.checks, now) {
            Ok(()) => {
                live.state = State::Live;
                live.pending.clear();
                Self::waits(&mut self.expiry, &mut self.expiry_moved, &live.burst);
            }
            Err(reason) => {
                live.resync();
                report.resync.push((asset.to_owned(), reason));
            }
        }
        Ok(())
    }

    fn price_change(&mut self, event: &Event<'_>, now: f64, report: &mut FrameReport) -> Result<(), Error> {
        let timestamp = event.timestamp()?;
        let entries = &event.entries;
        // Each price of the event may be the price of a trade for any of its assets (both tokens of a market
        // hash the same last trade price): the assets' bursts take them all.
        if entries.len() > 1 {
            for (i, entry) in entries.iter().enumerate() {
                if entries.iter().take(i).any(|e| e.asset_id == entry.asset_id) {
                    continue;
                }
                let Some(live) = find(&mut self.books, &entry.asset_id) else { continue };
                if live.state != State::Live || timestamp < live.timestamp() {
                    continue;
                }
                if let Err(reason) = live.enter_burst(timestamp) {
                    live.resync();
                    report.resync.push((entry.asset_id.to_string(), reason));
                    continue;
                }
                for other in entries {
                    live.burst.took(&other.price);
                }
            }
        }
        for (i, entry) in entries.iter().enumerate() {
            // The hash is checked after an asset's last entry of the frame (or every entry, by policy).
            let last = !entries.iter().skip(i + 1).any(|e| e.asset_id == entry.asset_id);
            let change = Change::Level {
                timestamp,
                side: entry.side,
                price: &entry.price,
                size: &entry.size,
                hash: entry.hash.as_deref(),
                check: last,
            };
            self.change(&entry.asset_id, change, now, report);
        }
        Ok(())
    }

    /// One change for one asset: applied when its book is live, kept while a snapshot is on the way.
    fn change(&mut self, asset: &str, change: Change<'_>, now: f64, report: &mut FrameReport) {
        let policy = self.policy;
        let checks = &mut self.checks;
        let Some(live) = find(&mut self.books, asset) else { return };
        live.newest = live.newest.max(change.timestamp());
        match live.state {
            State::Live => {
                if change.timestamp() < live.timestamp() {
                    // Older than the book (a snapshot already holds it).
                    return;
                }
                report.changed(asset);
                if let Err(reason) = live.apply(change, policy, checks, now) {
                    live.resync();
                    report.resync.push((asset.to_owned(), reason));
                }
                Self::waits(&mut self.expiry, &mut self.expiry_moved, &live.burst);
            }
            State::Waiting | State::Resyncing => {
                if live.pending.len() >= MAX_PENDING {
                    live.resync();
                    report.resync.push((asset.to_owned(), Resync::Overflow));
                }
                live.pending.push(Pending::keep(change));
                if live.state == State::Waiting {
                    // A change for an asset without a book: its `book` event was lost (a dump cut short) or is
                    // not coming. A snapshot is asked for now, and the changes wait for it.
                    live.state = State::Resyncing;
                    report.resync.push((asset.to_owned(), Resync::Gap));
                }
            }
        }
    }
}

/// The fields of one event that the books use.
#[derive(Default)]
struct Event<'a> {
    event_type: Option<Cow<'a, str>>,
    asset_id: Option<Cow<'a, str>>,
    timestamp: Option<Cow<'a, str>>,
    new_tick_size: Option<Cow<'a, str>>,
    price: Option<Cow<'a, str>>,
    entries: Vec<Entry<'a>>,
}

struct Entry<'a> {
    asset_id: Cow<'a, str>,
    side: Side,
    price: Cow<'a, str>,
    size: Cow<'a, str>,
    hash: Option<Cow<'a, str>>,
}

impl<'a> Event<'a> {
    fn field(&mut self, s: &mut Scanner<'a>, key: &[u8]) -> Result<(), Error> {
        let slot = match key {
            b"event_type" => &mut self.event_type,
            b"asset_id" => &mut self.asset_id,
            b"timestamp" => &mut self.timestamp,
            b"new_tick_size" => &mut self.new_tick_size,
            b"price" => &mut self.price,
            b"price_changes" => return s.array(|s| self.entry(s)),
            _ => return s.skip_value(),
        };
        *slot = Some(text(s)?);
        Ok(())
    }

    fn entry(&mut self, s: &mut Scanner<'a>) -> Result<(), Error> {
        let (mut asset_id, mut side, mut price, mut size, mut hash) = (None, None, None, None, None);
        s.object(|s, key| {
            match key {
                b"asset_id" => asset_id = Some(text(s)?),
                b"side" => {
                    side = Some(
                        Side::parse(&text(s)?)
                            .map_err(|_| Error::decode("a price change's side must be BUY or SELL"))?,
                    )
                }
                b"price" => price = Some(text(s)?),
                b"size" => size = Some(text(s)?),
                b"hash" => hash = Some(text(s)?),
                _ => s.skip_value()?,
            }
            Ok(())
        })?;
        let (Some(asset_id), Some(side), Some(price), Some(size)) = (asset_id, side, price, size) else {
            return Err(Error::decode("a price change needs asset_id, side, price and size"));
        };
        self.entries.push(Entry { asset_id, side, price, size, hash });
        Ok(())
    }

    fn timestamp(&self) -> Result<u64, Error> {
        self.timestamp
            .as_deref()
            .filter(|t| !t.is_empty() && t.len() <= 19 && t.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|t| t.parse().ok())
            .ok_or_else(|| Error::decode("an event's timestamp must be milliseconds as digits"))
    }
}

/// A string value, or a number's text (the service writes some values either way).
fn text<'a>(s: &mut Scanner<'a>) -> Result<Cow<'a, str>, Error> {
    match s.peek_kind() {
        Some(b'"') => s.string(),
        _ => {
            let raw = s.number_raw()?;
            std::str::from_utf8(raw).map(Cow::Borrowed).map_err(|_| Error::decode("invalid number"))
        }
    }
}

fn find<'a>(books: &'a mut Books, asset_id: &str) -> Option<&'a mut LiveBook> {
    books.position(asset_id).and_then(|at| books.list.get_mut(at))
}

/// The books of one stream, with an index by asset (`stream::index`): finding or adding one costs O(1) on
/// average, so that following `n` assets costs O(n) in all (a stream follows up to `protocol::MAX_FOLLOWED`).
/// Iterated as a slice, in no particular order.
#[derive(Debug, Default)]
struct Books {
    list: Vec<LiveBook>,
    index: super::index::Index,
}

impl Books {
    fn position(&self, asset_id: &str) -> Option<usize> {
        self.index.find(asset_id, &|at| self.list.get(at).map(|b| b.asset_id.as_str()))
    }

    fn push(&mut self, book: LiveBook) {
        self.list.push(book);
        let list = &self.list;
        let key = |at: usize| list.get(at).map(|b| b.asset_id.as_str());
        if let Some(id) = key(list.len() - 1) {
            self.index.insert(id, list.len() - 1, list.len(), &key);
        }
    }

    /// Removes the books of `asset_ids`, indexing the rest once: O(n) whatever how many go.
    fn remove(&mut self, asset_ids: &[String]) {
        let mut gone = vec![false; self.list.len()];
        for id in asset_ids {
            if let Some(slot) = self.position(id).and_then(|at| gone.get_mut(at)) {
                *slot = true;
            }
        }
        self.index.remove_marked(&mut self.list, &gone, |b| b.asset_id.as_str());
    }
}

impl std::ops::Deref for Books {
    type Target = [LiveBook];
    fn deref(&self) -> &[LiveBook] {
        &self.list
    }
}

impl std::ops::DerefMut for Books {
    fn deref_mut(&mut self) -> &mut [LiveBook] {
        &mut self.list
    }
}

impl<'a> IntoIterator for &'a mut Books {
    type Item = &'a mut LiveBook;
    type IntoIter = std::slice::IterMut<'a, LiveBook>;
    fn into_iter(self) -> Self::IntoIter {
        self.list.iter_mut()
    }
}

/// How much earlier than its backoff a stale snapshot's retry is due (see [`LiveBooks::snapshots_due`]).
const TIMER_SLACK_MS: f64 = 50.0;

/// How long to wait before asking again for a snapshot after `streak` stale ones in a row: 250 ms, doubling,
/// at most 8 s.
pub fn stale_backoff_ms(streak: u32) -> f64 {
    250.0 * f64::from(1u32 << streak.saturating_sub(1).min(5))
}

/// A book's timestamp as a number (0 when absent or not digits).
fn timestamp_of(book: &OrderBook) -> u64 {
    book.timestamp().and_then(|t| t.parse().ok()).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::super::burst::WINDOW_MS;
    use sha1::{Digest, Sha1};
    use std::cell::Cell;

    thread_local! {
        /// Where the tests' books are hashed: every test runs with both (see `every_test_with_platform_digests`).
        static HASHER: Cell<Hasher> = const { Cell::new(Hasher::Here) };
    }

    fn books_new(policy: HashCheck) -> LiveBooks {
        let mut books = LiveBooks::new(policy);
        books.set_hasher(HASHER.with(Cell::get));
        books
    }

    /// What the binding does with due checks: the platform's SHA-1 of each, handed back at once.
    fn answer(books: &mut LiveBooks, mut report: FrameReport, now: f64) -> FrameReport {
        for (id, digest) in due(books) {
            let more = books.digested(id, Some(&digest), now);
            for asset in more.changed {
                report.changed(&asset);
            }
            report.resync.extend(more.resync);
        }
        assert_eq!(books.awaiting(), 0);
        report
    }

    fn apply(books: &mut LiveBooks, frame: &[u8], now: f64) -> Result<FrameReport, Error> {
        let report = books.apply_frame(frame, now)?;
        Ok(answer(books, report, now))
    }

    fn snap(books: &mut LiveBooks, asset: &str, snapshot: OrderBook, now: f64) -> FrameReport {
        let report = books.snapshot(asset, snapshot, now);
        answer(books, report, now)
    }

    const A: &str = "111";
    const B: &str = "222";

    /// The service's side of the test: its own books, the frames it sends, and the hash of each change.
    struct Service {
        books: Vec<(String, OrderBook)>,
        now: u64,
    }

    impl Service {
        fn new() -> Self {
            let book = |asset: &str| {
                let json = format!(
                    r#"{{"market":"0xm","asset_id":"{asset}","timestamp":"1000","hash":"","bids":[{{"price":"0.4","size":"10"}},{{"price":"0.45","size":"5"}}],"asks":[{{"price":"0.6","size":"8"}},{{"price":"0.55","size":"3"}}],"min_order_size":"5","tick_size":"0.01","neg_risk":false,"last_trade_price":"0.5"}}"#
                );
                let mut b = OrderBook::from_bytes(json.as_bytes()).unwrap();
                b.set_timestamp("1000").unwrap();
                (asset.to_owned(), b)
            };
            Self { books: vec![book(A), book(B)], now: 1000 }
        }

        fn book(&mut self, asset: &str) -> &mut OrderBook {
            &mut self.books.iter_mut().find(|(a, _)| a == asset).unwrap().1
        }

        /// GET /book now: the full summary with its hash.
        fn snapshot(&mut self, asset: &str) -> OrderBook {
            let b = self.book(asset);
            let hash = b.hash();
            let json =
                String::from_utf8(b.hash_input()).unwrap().replacen(r#""hash":"""#, &format!(r#""hash":"{hash}""#), 1);
            OrderBook::from_bytes(json.as_bytes()).unwrap()
        }

        /// The stream's `book` event: the snapshot without the market fields.
        fn book_event(&mut self, asset: &str) -> String {
            let b = self.book(asset);
            let hash = b.hash();
            let json = String::from_utf8(b.hash_input()).unwrap();
            let json = json.replacen(r#""hash":"""#, &format!(r#""hash":"{hash}""#), 1);
            let json = json.replace(r#","min_order_size":"5""#, "").replace(r#","neg_risk":false"#, "");
            json.replacen('{', r#"{"event_type":"book","#, 1)
        }

        /// A `price_change` frame of `(asset, side, price, size)` entries, each hashed after it is applied.
        fn changes(&mut self, entries: &[(&str, &str, &str, &str)]) -> String {
            self.now += 1;
            let ts = self.now.to_string();
            let mut parts = Vec::new();
            for (asset, side, price, size) in entries {
                let b = self.book(asset);
                let s = if *side == "BUY" { Side::Buy } else { Side::Sell };
                b.apply_price_change(s, price, size).unwrap();
                b.set_timestamp(&ts).unwrap();
                let hash = b.hash();
                parts.push(format!(
                    r#"{{"asset_id":"{asset}","price":"{price}","size":"{size}","side":"{side}","hash":"{hash}","best_bid":"","best_ask":""}}"#
                ));
            }
            format!(
                r#"{{"event_type":"price_change","market":"0xm","timestamp":"{ts}","price_changes":[{}]}}"#,
                parts.join(",")
            )
        }
    }

    fn live(policy: HashCheck, svc: &mut Service) -> LiveBooks {
        let mut books = books_new(policy);
        for asset in [A, B] {
            books.subscribe(asset);
            assert!(snap(&mut books, asset, svc.snapshot(asset), 1.0).resync.is_empty());
        }
        books
    }

    fn equal(books: &LiveBooks, svc: &mut Service, asset: &str) {
        let mine = books.get(asset).unwrap().book.as_ref().unwrap().hash_input();
        assert_eq!(String::from_utf8(mine).unwrap(), String::from_utf8(svc.book(asset).hash_input()).unwrap());
    }

    #[test]
    fn changes_keep_books_equal_to_the_service_and_verified() {
        let mut svc = Service::new();
        let mut books = live(HashCheck::EveryEntry, &mut svc);
        let frame = svc.book_event(A);
        let report = apply(&mut books, frame.as_bytes(), 2.0).unwrap();
        assert_eq!(report, FrameReport { changed: vec![A.into()], resync: vec![], retry_ms: None });
        for i in 0..200u32 {
            let price = format!("0.{}", 10 + i % 30);
            let size = (i % 7).to_string();
            let frame = svc.changes(&[
                (A, "BUY", &price, &size),
                (B, "SELL", "0.7", &(i % 3).to_string()),
                (A, "SELL", "0.65", "4"),
            ]);
            let report = apply(&mut books, frame.as_bytes(), 3.0).unwrap();
            assert!(report.resync.is_empty(), "{i}: {report:?}");
            assert_eq!(report.changed, vec![A.to_owned(), B.to_owned()]);
        }
        for asset in [A, B] {
            equal(&books, &mut svc, asset);
            let live = books.get(asset).unwrap();
            assert!(live.verified && live.mismatches == 0 && live.verified_at_ms == 3.0);
        }
        assert_eq!(books.get(A).unwrap().checks, 1 + 1 + 400);
    }

    #[test]
    fn a_wrong_hash_resyncs_and_the_snapshot_catches_up() {
        let mut svc = Service::new();
        let mut books = live(HashCheck::LastPerFrame, &mut svc);
        // The service changes a level without telling: the next entry's hash cannot match.
        svc.changes(&[(A, "BUY", "0.41", "9")]);
        let frame = svc.changes(&[(A, "SELL", "0.58", "2")]);
        let report = apply(&mut books, frame.as_bytes(), 5.0).unwrap();
        // Provisional while its burst lasts: a later frame with the same timestamp could explain it.
        assert_eq!(report.resync, vec![]);
        let live = books.get(A).unwrap();
        assert_eq!((live.state, live.verified, live.mismatches, live.deferred), (State::Live, false, 0, 1));
        assert_eq!(books.expire(5.0 + WINDOW_MS - 1.0), FrameReport::default());
        // Nothing explained it within the window: the burst ends, the book resyncs.
        let report = books.expire(5.0 + WINDOW_MS);
        assert_eq!(report.resync, vec![(A.to_owned(), Resync::HashMismatch)]);
        let live = books.get(A).unwrap();
        assert_eq!((live.state, live.verified, live.mismatches), (State::Resyncing, false, 1));
        // While the snapshot is on the way, changes wait; those newer than it are applied on it.
        let waiting = svc.changes(&[(A, "BUY", "0.42", "1")]);
        assert_eq!(apply(&mut books, waiting.as_bytes(), 6.0).unwrap(), FrameReport::default());
        let snapshot = svc.snapshot(A);
        let newer = svc.changes(&[(A, "BUY", "0.43", "2"), (B, "BUY", "0.3", "1")]);
        let report = apply(&mut books, newer.as_bytes(), 7.0).unwrap();
        assert_eq!(report.changed, vec![B.to_owned()]);
        let report = snap(&mut books, A, snapshot, 8.0);
        assert_eq!(report, FrameReport { changed: vec![A.into()], resync: vec![], retry_ms: None });
        equal(&books, &mut svc, A);
        let live = books.get(A).unwrap();
        assert_eq!((live.state, live.verified, live.verified_at_ms), (State::Live, true, 8.0));
    }

    #[test]
    fn last_per_frame_checks_once_per_asset_and_every_entry_each() {
        for (policy, detected) in
            [(HashCheck::LastPerFrame, false), (HashCheck::EveryEntry, true), (HashCheck::Off, false)]
        {
            let mut svc = Service::new();
            let mut books = live(policy, &mut svc);
            let frame = svc.changes(&[(A, "BUY", "0.41", "9"), (A, "BUY", "0.42", "1")]);
            // A wrong hash on the first entry only: a per-frame check does not look at it.
            let (first, rest) = frame.split_once(r#""hash":""#).unwrap();
            let frame = format!(r#"{first}"hash":"0{}"#, &rest[1..]);
            let report = apply(&mut books, frame.as_bytes(), 2.0).unwrap();
            // Checked at every entry, the wrong hash waits for the rest of the burst; the next entry matches
            // its own hash, so the book equals the service's and nothing is resynchronised.
            assert!(report.resync.is_empty(), "{policy:?}");
            let live = books.get(A).unwrap();
            assert_eq!(live.deferred == 1, detected, "{policy:?}");
            assert_eq!(live.verified, policy != HashCheck::Off, "{policy:?}");
            assert!(books.expire(2.0 + WINDOW_MS).resync.is_empty());
        }
    }

    #[test]
    fn tick_size_and_last_trade_events_move_the_hash() {
        let mut svc = Service::new();
        let mut books = live(HashCheck::EveryEntry, &mut svc);
        svc.now += 1;
        svc.book(A).set_tick_size("0.001").unwrap();
        svc.book(A).set_last_trade_price("0.45").unwrap();
        let frames = [
            format!(
                r#"{{"event_type":"tick_size_change","asset_id":"{A}","market":"0xm","old_tick_size":"0.01","new_tick_size":"0.001","timestamp":"{}"}}"#,
                svc.now
            ),
            format!(
                r#"[{{"event_type":"last_trade_price","asset_id":"{A}","market":"0xm","price":"0.45","side":"BUY","size":"5","fee_rate_bps":"0","timestamp":"{}","transaction_hash":"0x1"}}]"#,
                svc.now
            ),
        ];
        for frame in &frames {
            assert!(apply(&mut books, frame.as_bytes(), 2.0).unwrap().resync.is_empty());
        }
        let frame = svc.changes(&[(A, "BUY", "0.455", "3")]);
        assert!(apply(&mut books, frame.as_bytes(), 3.0).unwrap().resync.is_empty());
        equal(&books, &mut svc, A);
    }

    #[test]
    fn book_events_are_checked_against_their_own_hash() {
        let mut svc = Service::new();
        let mut books = live(HashCheck::LastPerFrame, &mut svc);
        let good = svc.book_event(B);
        let bad = good.replacen(r#""size":"10""#, r#""size":"11""#, 1);
        assert_eq!(apply(&mut books, bad.as_bytes(), 2.0).unwrap().resync, vec![]);
        assert_eq!(books.get(B).unwrap().deferred, 1);
        assert_eq!(books.expire(2.0 + WINDOW_MS).resync, vec![(B.to_owned(), Resync::BookMismatch)]);
        assert_eq!(books.get(B).unwrap().state, State::Resyncing);
        let report = apply(&mut books, format!("[{good}]").as_bytes(), 3.0).unwrap();
        assert_eq!(report, FrameReport { changed: vec![B.into()], resync: vec![], retry_ms: None });
        assert!(books.get(B).unwrap().verified);
    }

    #[test]
    fn changes_before_the_first_book_wait_for_it() {
        let mut svc = Service::new();
        let mut books = books_new(HashCheck::LastPerFrame);
        books.subscribe(A);
        let early = svc.changes(&[(A, "BUY", "0.41", "9")]);
        // The first change for an asset without a book asks for a snapshot (here already due: the market
        // fields are not known yet).
        let report = apply(&mut books, early.as_bytes(), 1.0).unwrap();
        assert_eq!(report.resync, vec![(A.to_owned(), Resync::Gap)]);
        assert_eq!(books.get(A).unwrap().state, State::Resyncing);
        let later = svc.changes(&[(A, "BUY", "0.42", "1")]);
        assert_eq!(apply(&mut books, later.as_bytes(), 1.0).unwrap(), FrameReport::default());
        assert!(snap(&mut books, A, svc.snapshot(A), 2.0).resync.is_empty());
        equal(&books, &mut svc, A);
        // Unknown assets are not kept.
        let other = svc.changes(&[(B, "BUY", "0.3", "1")]);
        assert_eq!(apply(&mut books, other.as_bytes(), 3.0).unwrap(), FrameReport::default());
        assert!(books.get(B).is_none());
    }

    #[test]
    fn snapshots_are_due_once_until_they_come() {
        let mut svc = Service::new();
        let mut books = books_new(HashCheck::LastPerFrame);
        books.subscribe(A);
        books.subscribe(B);
        assert_eq!(books.snapshots_due(0.0), vec![A.to_owned(), B.to_owned()]);
        assert!(books.snapshots_due(0.0).is_empty());
        snap(&mut books, A, svc.snapshot(A), 1.0);
        books.snapshot_failed(B);
        assert_eq!(books.snapshots_due(0.0), vec![B.to_owned()]);
        snap(&mut books, B, svc.snapshot(B), 1.0);
        assert!(books.snapshots_due(0.0).is_empty());
        // A mismatch makes the asset due again.
        svc.changes(&[(A, "BUY", "0.41", "9")]);
        let frame = svc.changes(&[(A, "BUY", "0.42", "9")]);
        assert_eq!(apply(&mut books, frame.as_bytes(), 2.0).unwrap().resync.len(), 0);
        // Its burst ends with the next change of another timestamp.
        let frame = svc.changes(&[(A, "BUY", "0.43", "9")]);
        assert_eq!(apply(&mut books, frame.as_bytes(), 3.0).unwrap().resync.len(), 1);
        assert_eq!(books.snapshots_due(0.0), vec![A.to_owned()]);
    }

    #[test]
    fn a_book_event_before_the_snapshot_is_applied_and_checked_once_the_market_fields_come() {
        let mut svc = Service::new();
        let mut books = books_new(HashCheck::EveryEntry);
        books.subscribe(A);
        // The stream's dump comes first; the snapshot with min_order_size and neg_risk is still on the way.
        let dump = svc.book_event(A);
        assert_eq!(apply(&mut books, dump.as_bytes(), 1.0).unwrap().resync, vec![]);
        let frame = svc.changes(&[(A, "BUY", "0.41", "9")]);
        assert_eq!(apply(&mut books, frame.as_bytes(), 2.0).unwrap().resync, vec![]);
        let live = books.get(A).unwrap();
        assert_eq!((live.state, live.verified, live.mismatches), (State::Live, false, 0));
        // A quiet market: a snapshot as new as the live book verifies it at once.
        let mut quiet = books_new(HashCheck::LastPerFrame);
        quiet.subscribe(B);
        quiet.apply_frame(svc.book_event(B).as_bytes(), 1.0).unwrap();
        assert_eq!(
            snap(&mut quiet, B, svc.snapshot(B), 2.0),
            FrameReport { changed: vec![B.into()], resync: vec![], retry_ms: None }
        );
        let live = quiet.get(B).unwrap();
        assert_eq!((live.verified, live.checks, live.verified_at_ms), (true, 1, 2.0));
        // An older snapshot only brings the fields; the next entry is checked and matches.
        let old = {
            let mut old = Service::new();
            old.snapshot(A)
        };
        assert_eq!(snap(&mut books, A, old, 3.0), FrameReport::default());
        let frame = svc.changes(&[(A, "SELL", "0.62", "1")]);
        assert_eq!(apply(&mut books, frame.as_bytes(), 4.0).unwrap().resync, vec![]);
        let live = books.get(A).unwrap();
        assert_eq!((live.verified, live.mismatches, live.verified_at_ms), (true, 0, 4.0));
        equal(&books, &mut svc, A);
    }

    #[test]
    fn bad_frames_are_decode_errors() {
        let mut svc = Service::new();
        let mut books = live(HashCheck::LastPerFrame, &mut svc);
        for frame in [
            "",
            "{",
            "[1]",
            r#"{"asset_id":"1"}"#,
            r#"{"event_type":"price_change","timestamp":"x","price_changes":[]}"#,
            r#"{"event_type":"price_change","timestamp":"5","price_changes":[{"asset_id":"111","side":"HOLD","price":"1","size":"1"}]}"#,
            r#"{"event_type":"price_change","timestamp":"5","price_changes":[{"asset_id":"111"}]}"#,
            r#"{"event_type":"book","asset_id":"111","bids":[{"price":"x"}]}"#,
            r#"{"event_type":"tick_size_change","asset_id":"111","timestamp":"5"}"#,
            r#"{"event_type":"best_bid_ask"} trailing"#,
        ] {
            let e = apply(&mut books, frame.as_bytes(), 1.0).unwrap_err();
            assert_eq!(e.code, crate::error::ErrorCode::Decode, "{frame}");
        }
        // The books are untouched.
        equal(&books, &mut svc, A);
        // Events for the page only are fine.
        assert_eq!(apply(&mut books, br#"{"event_type":"new_market","id":"1"}"#, 1.0).unwrap(), FrameReport::default());
    }

    #[test]
    fn a_book_whose_dump_was_lost_asks_for_a_snapshot_at_its_first_change() {
        let mut svc = Service::new();
        let mut books = live(HashCheck::LastPerFrame, &mut svc);
        // A reconnection whose dump is cut before A's book: B's comes, A's changes come without one.
        books.reconnected();
        assert!(books.snapshots_due(0.0).is_empty(), "the market fields are known: the dump brings the books");
        apply(&mut books, svc.book_event(B).as_bytes(), 2.0).unwrap();
        let frame = svc.changes(&[(A, "BUY", "0.41", "9"), (B, "SELL", "0.7", "1")]);
        let report = apply(&mut books, frame.as_bytes(), 3.0).unwrap();
        assert_eq!(report.resync, vec![(A.to_owned(), Resync::Gap)]);
        assert_eq!(books.snapshots_due(3.0), vec![A.to_owned()]);
        // The snapshot comes with changes newer than it waiting: applied on it, verified.
        let snapshot = svc.snapshot(A);
        let newer = svc.changes(&[(A, "BUY", "0.42", "1")]);
        assert_eq!(apply(&mut books, newer.as_bytes(), 4.0).unwrap().resync, vec![]);
        assert!(snap(&mut books, A, snapshot, 5.0).resync.is_empty());
        let live = books.get(A).unwrap();
        assert_eq!((live.state, live.verified), (State::Live, true));
        equal(&books, &mut svc, A);
        assert!(books.get(B).unwrap().verified);
    }

    #[test]
    fn too_many_waiting_changes_ask_for_a_snapshot_again() {
        let mut svc = Service::new();
        let mut books = books_new(HashCheck::LastPerFrame);
        books.subscribe(A);
        let mut resyncs = Vec::new();
        for i in 0..=MAX_PENDING {
            let frame = svc.changes(&[(A, "BUY", "0.41", &(i % 5 + 1).to_string())]);
            resyncs.extend(apply(&mut books, frame.as_bytes(), 1.0).unwrap().resync.into_iter().map(|(_, r)| r));
        }
        assert_eq!(resyncs, vec![Resync::Gap, Resync::Overflow]);
        assert!(snap(&mut books, A, svc.snapshot(A), 2.0).resync.is_empty());
        equal(&books, &mut svc, A);
    }

    #[test]
    fn every_test_with_platform_digests() {
        let tests: [fn(); 10] = [
            changes_keep_books_equal_to_the_service_and_verified,
            a_wrong_hash_resyncs_and_the_snapshot_catches_up,
            last_per_frame_checks_once_per_asset_and_every_entry_each,
            tick_size_and_last_trade_events_move_the_hash,
            book_events_are_checked_against_their_own_hash,
            changes_before_the_first_book_wait_for_it,
            snapshots_are_due_once_until_they_come,
            a_book_event_before_the_snapshot_is_applied_and_checked_once_the_market_fields_come,
            bad_frames_are_decode_errors,
            too_many_waiting_changes_ask_for_a_snapshot_again,
        ];
        HASHER.with(|h| h.set(Hasher::Platform { from: 0 }));
        for test in tests {
            test();
        }
        HASHER.with(|h| h.set(Hasher::Here));
    }

    /// The platform's answers, one by one, as `(id, digest of its bytes)`.
    fn due(books: &mut LiveBooks) -> Vec<(u32, [u8; 20])> {
        let (due, input) = books.take_due();
        due.iter().map(|d| (d.id, Sha1::digest(&input[d.start..d.end]).into())).collect()
    }

    #[test]
    fn a_platform_answer_verifies_only_the_book_as_it_still_is() {
        let mut svc = Service::new();
        let mut books = live(HashCheck::LastPerFrame, &mut svc);
        books.set_hasher(Hasher::Platform { from: 0 });
        let first = svc.changes(&[(A, "BUY", "0.41", "9")]);
        assert_eq!(books.apply_frame(first.as_bytes(), 2.0).unwrap().changed, vec![A.to_owned()]);
        let answers = due(&mut books);
        assert_eq!((answers.len(), books.awaiting()), (1, 1));
        // Until the answer, `verified` tells the last answer (the snapshot's).
        assert!(books.get(A).unwrap().verified);
        assert_eq!(books.digested(answers[0].0, Some(&answers[0].1), 3.0), FrameReport::default());
        let live = books.get(A).unwrap();
        assert_eq!((live.verified, live.verified_at_ms, live.checks), (true, 3.0, 2));

        // A change without a hash after a checked one: the late answer counts, but does not verify.
        let second = svc.changes(&[(A, "BUY", "0.42", "1")]);
        books.apply_frame(second.as_bytes(), 4.0).unwrap();
        let answers = due(&mut books);
        let unchecked = svc.changes(&[(A, "BUY", "0.43", "1")]).replace(r#""hash":""#, r#""hash":"x"#);
        let unchecked = unchecked.replace(r#""hash":"x"#, r#""_":""#);
        books.apply_frame(unchecked.as_bytes(), 5.0).unwrap();
        assert!(!books.get(A).unwrap().verified);
        assert_eq!(books.digested(answers[0].0, Some(&answers[0].1), 6.0), FrameReport::default());
        let live = books.get(A).unwrap();
        assert_eq!((live.verified, live.checks, live.mismatches), (false, 3, 0));
        // The same answer twice, or an answer nobody asked for, does nothing.
        assert_eq!(books.digested(answers[0].0, Some(&answers[0].1), 6.0), FrameReport::default());
        assert_eq!(books.digested(9_999, Some(&[0; 20]), 6.0), FrameReport::default());
        assert_eq!(books.get(A).unwrap().checks, 3);
    }

    #[test]
    fn a_wrong_platform_answer_resyncs_and_a_late_one_for_a_replaced_book_is_ignored() {
        let mut svc = Service::new();
        let mut books = live(HashCheck::LastPerFrame, &mut svc);
        books.set_hasher(Hasher::Platform { from: 0 });
        svc.changes(&[(A, "BUY", "0.41", "9")]);
        let wrong = svc.changes(&[(A, "SELL", "0.58", "2")]);
        assert!(books.apply_frame(wrong.as_bytes(), 2.0).unwrap().resync.is_empty());
        let wrong_answers = due(&mut books);
        let report = books.digested(wrong_answers[0].0, Some(&wrong_answers[0].1), 3.0);
        assert_eq!(report.resync, vec![]);
        assert_eq!(books.get(A).unwrap().deferred, 1);
        let report = books.expire(3.0 + WINDOW_MS);
        assert_eq!(report.resync, vec![(A.to_owned(), Resync::HashMismatch)]);
        let live = books.get(A).unwrap();
        assert_eq!((live.state, live.verified, live.mismatches), (State::Resyncing, false, 1));
        // A check of the old book still under way when the snapshot comes: its answer is moot.
        let report = books.snapshot(A, svc.snapshot(A), 4.0);
        assert!(report.resync.is_empty());
        let fresh = due(&mut books);
        assert_eq!(books.digested(wrong_answers[0].0, Some(&wrong_answers[0].1), 4.6), FrameReport::default());
        assert_eq!(
            books.digested(fresh[0].0, Some(&fresh[0].1), 5.0),
            FrameReport { changed: vec![A.into()], resync: vec![], retry_ms: None }
        );
        assert!(books.get(A).unwrap().verified);
        // A check under way when a `book` event replaces the book: its (right) answer counts for nothing.
        let checks = books.get(B).unwrap().checks;
        let frame = svc.changes(&[(B, "BUY", "0.3", "4")]);
        books.apply_frame(frame.as_bytes(), 6.0).unwrap();
        let old = due(&mut books);
        books.apply_frame(svc.book_event(B).as_bytes(), 7.0).unwrap();
        let new = due(&mut books);
        assert_eq!(books.digested(old[0].0, Some(&old[0].1), 8.0), FrameReport::default());
        assert_eq!((books.get(B).unwrap().checks, books.awaiting()), (checks, 1));
        assert_eq!(
            books.digested(new[0].0, Some(&new[0].1), 9.0),
            FrameReport { changed: vec![B.into()], resync: vec![], retry_ms: None }
        );
        let live = books.get(B).unwrap();
        assert_eq!((live.checks, live.verified, live.verified_at_ms), (checks + 1, true, 9.0));
    }

    #[test]
    fn platform_failures_and_floods_fall_back_to_hashing_here() {
        let mut svc = Service::new();
        let mut books = live(HashCheck::EveryEntry, &mut svc);
        books.set_hasher(Hasher::Platform { from: 0 });
        // Checks never handed over (the binding did not take them) are dropped at the next frame.
        let frame = svc.changes(&[(A, "BUY", "0.41", "9")]);
        books.apply_frame(frame.as_bytes(), 2.0).unwrap();
        assert_eq!(books.awaiting(), 1);
        let frame = svc.changes(&[(A, "BUY", "0.42", "9")]);
        books.apply_frame(frame.as_bytes(), 3.0).unwrap();
        assert_eq!(books.awaiting(), 1);
        // More checks under way than MAX_AWAITING: the rest are hashed here, at once.
        let mut handed = Vec::new();
        for i in 0..MAX_AWAITING + 5 {
            let frame = svc.changes(&[(B, "SELL", "0.7", &(1 + i % 5).to_string())]);
            assert!(books.apply_frame(frame.as_bytes(), 4.0).unwrap().resync.is_empty());
            handed.extend(due(&mut books));
        }
        assert_eq!(books.awaiting(), MAX_AWAITING);
        assert_eq!(books.get(B).unwrap().checks, 1 + 5);
        // The platform cannot digest: from then on books are hashed here, and checks under way are dropped.
        assert_eq!(books.digested(handed[0].0, None, 5.0), FrameReport::default());
        assert_eq!((books.hasher(), books.awaiting()), (Hasher::Here, 0));
        let frame = svc.changes(&[(B, "SELL", "0.7", "9")]);
        books.apply_frame(frame.as_bytes(), 6.0).unwrap();
        let live = books.get(B).unwrap();
        assert_eq!((live.verified, live.verified_at_ms, books.take_due().0.len()), (true, 6.0, 0));
        // An expected hash that is not 40 hex digits never matches, wherever books are hashed.
        let frame = svc.changes(&[(B, "SELL", "0.7", "8")]);
        let (head, tail) = frame.split_once(r#""hash":""#).unwrap();
        let frame = format!(r#"{head}"hash":"zz{}"#, &tail[2..]);
        assert_eq!(
            books.apply_frame(frame.as_bytes(), 7.0).unwrap().resync,
            vec![(B.to_owned(), Resync::HashMismatch)]
        );
    }

    #[test]
    fn hex_digests_are_read_in_either_case_and_nothing_else() {
        let d: [u8; 20] = Sha1::digest(b"abc").into();
        assert_eq!(hex20("a9993e364706816aba3e25717850c26c9cd0d89d"), Some(d));
        assert_eq!(hex20("A9993E364706816ABA3E25717850C26C9CD0D89D"), Some(d));
        for bad in [
            "",
            "a9993e",
            "a9993e364706816aba3e25717850c26c9cd0d89",
            "g9993e364706816aba3e25717850c26c9cd0d89d",
            "a9993e364706816aba3e25717850c26c9cd0d89d0",
            "+9993e364706816aba3e25717850c26c9cd0d89d",
        ] {
            assert_eq!(hex20(bad), None, "{bad}");
        }
    }

    #[test]
    fn small_books_are_hashed_here_and_large_ones_by_the_platform() {
        // (levels' text of the test books: about 110 bytes.)
        for (from, handed) in [(0, 1), (100, 1), (PLATFORM_FROM, 0), (usize::MAX, 0)] {
            let mut svc = Service::new();
            let mut books = live(HashCheck::LastPerFrame, &mut svc);
            books.set_hasher(Hasher::Platform { from });
            let frame = svc.changes(&[(A, "BUY", "0.41", "9")]);
            books.apply_frame(frame.as_bytes(), 2.0).unwrap();
            let handed_over = books.take_due().0.len();
            let live = books.get(A).unwrap();
            assert_eq!((handed_over, live.verified_at_ms == 2.0), (handed, handed == 0), "from {from}");
        }
    }
}

#[cfg(test)]
mod books_index_tests {
    use super::*;

    #[test]
    fn the_index_follows_subscriptions() {
        let mut books = LiveBooks::new(HashCheck::LastPerFrame);
        let ids: Vec<String> = (0..50).map(|i| format!("{}", 1000 + i)).collect();
        for id in &ids {
            books.subscribe(id);
            books.subscribe(id);
        }
        assert_eq!(books.assets().count(), 50);
        // (unsubscribed, then every other asset is still found where the index says)
        let mut removed: Vec<String> = Vec::new();
        for gone in [&["1000"][..], &["1049", "1025"], &["1025", "9999"]] {
            let gone: Vec<String> = gone.iter().map(|g| g.to_string()).collect();
            books.unsubscribe(&gone);
            removed.extend(gone);
            // Every asset still followed is found where the index says, and none of those gone.
            for id in &ids {
                assert_eq!(books.get(id).map(|b| b.asset_id.as_str()), (!removed.contains(id)).then_some(id.as_str()));
            }
        }
        assert_eq!(books.assets().count(), 47);
        assert!(books.get("1001").is_some() && books.get("1048").is_some());
        books.subscribe("1025");
        assert_eq!(books.get("1025").map(|b| b.asset_id.as_str()), Some("1025"));
        assert_eq!(books.assets().count(), 48);
    }
}
