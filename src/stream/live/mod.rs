//! Live order books kept from the market channel: every `book`, `price_change`, `tick_size_change` and
//! `last_trade_price` event is applied to the asset's book as it comes, and the book is checked against
//! the service's hash (every entry, the last entry of each asset in a frame, or never). A book that does
//! not match, a change for an asset with no book, or a `book` that does not match its own hash is
//! resynchronised: the binding fetches a fresh snapshot (GET /book) and hands it to [`LiveBooks::snapshot`];
//! changes that come meanwhile wait, and those newer than the snapshot are applied on it.
//!
//! This module keeps the set of a stream's books (their snapshots, the platform's answers, the bursts'
//! deadlines); `check` is when and where hashes are checked, `pending` the changes that wait for a snapshot,
//! `book` one asset's live book, and `frame` a frame's events applied to the books.

mod book;
mod check;
mod frame;
mod pending;

#[cfg(test)]
mod check_tests;
#[cfg(test)]
mod harness;
#[cfg(test)]
mod tests;

pub use book::{LiveBook, Resync, State};
pub use check::{Due, HashCheck, Hasher, MAX_AWAITING, PLATFORM_FROM};
pub use pending::MAX_PENDING;

use super::burst::Burst;
use crate::book::OrderBook;
use book::timestamp_of;
use check::Checks;

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
    /// The tick sizes the service announced (`tick_size_change`): each asset's new tick, in units, for the
    /// client's orders.
    pub ticks: Vec<(String, u64)>,
    /// The frame's events (by their index in it) that repeat a lifecycle event already told: not told again.
    pub repeats: Vec<u32>,
    /// Books closed by their market's resolution (`market_resolved`).
    pub resolved: Vec<String>,
}

/// The lifecycle events (`new_market`, `market_resolved`) told, by market: the service sends them on every
/// connection and more than once. Bounded: the oldest are forgotten past [`MAX_LIFECYCLE`].
#[derive(Debug, Default)]
pub struct Lifecycle {
    seen: std::collections::VecDeque<(bool, String)>,
}

/// The lifecycle events remembered.
pub const MAX_LIFECYCLE: usize = 2_000;
/// The assets read of one lifecycle event.
pub const MAX_LIFECYCLE_ASSETS: usize = 100;

impl Lifecycle {
    /// Whether this is the first `resolved` (else `new_market`) event of `market`; it is remembered.
    pub fn first(&mut self, resolved: bool, market: &str) -> bool {
        if market.is_empty() || market.len() > 130 {
            return true;
        }
        if self.seen.iter().any(|(r, m)| *r == resolved && m.eq_ignore_ascii_case(market)) {
            return false;
        }
        if self.seen.len() >= MAX_LIFECYCLE {
            self.seen.pop_front();
        }
        self.seen.push_back((resolved, market.to_owned()));
        true
    }
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
    /// The lifecycle events told.
    pub(super) lifecycle: Lifecycle,
}

impl LiveBooks {
    pub fn new(policy: HashCheck) -> Self {
        let checks =
            Checks { hasher: Hasher::Here, next_id: 0, awaiting: Vec::new(), due: Vec::new(), input: Vec::new() };
        Self {
            policy,
            books: Books::default(),
            checks,
            expiry: f64::INFINITY,
            expiry_moved: false,
            lifecycle: Lifecycle::default(),
        }
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
            // (A resolved market's book is closed: nothing more is asked of it.)
            let wanted = (live.market.is_none() || live.state == State::Resyncing) && !live.resolved;
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

    /// A snapshot that could not be had, with the code of its error: a `NOT_FOUND` (GET /book's 404) means the
    /// service has no book for the asset ([`LiveBooks::snapshot_missing`]: answers its backoff); any other is
    /// due again after [`SNAPSHOT_RETRY_MS`](super::SNAPSHOT_RETRY_MS) (answers none: the caller's pause).
    pub fn snapshot_error(&mut self, asset_id: &str, code: Option<&str>, now: f64) -> Option<f64> {
        if code == Some("NOT_FOUND") {
            Some(self.snapshot_missing(asset_id, now))
        } else {
            self.snapshot_failed(asset_id);
            None
        }
    }

    /// Assets asked for in a batch (POST /books) whose books the answer did not hold: the service has none for
    /// them (it leaves closed and unknown tokens out), as a 404 says of one ([`LiveBooks::snapshot_missing`]).
    /// Answers the shortest delay before one is asked again, if any was.
    pub fn unanswered(&mut self, assets: &[String], now: f64) -> Option<f64> {
        let waiting: Vec<String> = assets.iter().filter(|a| self.get(a).is_some_and(|l| l.fetching)).cloned().collect();
        waiting.iter().map(|a| self.snapshot_missing(a, now)).reduce(f64::min)
    }

    /// The service has no book for `asset_id` (its GET /book answered 404: a closed or unknown token): the
    /// asset is marked as having none, and asked for again only after [`missing_backoff_ms`] (not at every
    /// frame). Answers the delay.
    pub fn snapshot_missing(&mut self, asset_id: &str, now: f64) -> f64 {
        let Some(live) = self.get_mut(asset_id) else { return 0.0 };
        live.fetching = false;
        live.missing += 1;
        live.missing_streak = live.missing_streak.saturating_add(1);
        let delay = missing_backoff_ms(live.missing_streak);
        live.not_before = now + delay;
        live.refused_at = now;
        delay
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
        live.missing_streak = 0;
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

/// The most books one snapshot request asks for (POST /books; its array bound is "not shown" in the interface:
/// the REST method takes up to 500, as this library caps it; a stream asks for fewer in each, so that 2,000
/// books are 20 requests, well within the 80 per 10 s of POST /books, and one slow answer holds back few).
pub const SNAPSHOT_BATCH: usize = 100;

/// At most this many snapshots due at once go one by one (GET /book, whose 404 names the asset it has no
/// book for); more go in batches.
pub const SINGLE_SNAPSHOTS: usize = 4;

/// How the snapshots due are fetched: a few one by one by GET /book, more in batches of at most
/// [`SNAPSHOT_BATCH`] by POST /books (GET /book's 200 per 10 s would leave most of 2,000 books unverified for a
/// minute).
pub fn snapshot_batches(due: Vec<String>) -> Vec<Vec<String>> {
    if due.len() <= SINGLE_SNAPSHOTS {
        return due.into_iter().map(|a| vec![a]).collect();
    }
    let mut batches = Vec::new();
    let mut rest = due.into_iter().peekable();
    while rest.peek().is_some() {
        batches.push(rest.by_ref().take(SNAPSHOT_BATCH).collect());
    }
    batches
}

/// How long to wait before asking again for the book of an asset the service has none for, after `streak`
/// 404s in a row: 5 s, doubling, at most 5 minutes.
pub fn missing_backoff_ms(streak: u32) -> f64 {
    (5_000.0 * f64::from(1u32 << streak.saturating_sub(1).min(6))).min(300_000.0)
}

/// How much earlier than its backoff a stale snapshot's retry is due (see [`LiveBooks::snapshots_due`]).
const TIMER_SLACK_MS: f64 = 50.0;

/// How long to wait before asking again for a snapshot after `streak` stale ones in a row: 250 ms, doubling,
/// at most 8 s.
pub fn stale_backoff_ms(streak: u32) -> f64 {
    250.0 * f64::from(1u32 << streak.saturating_sub(1).min(5))
}
