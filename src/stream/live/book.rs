//! One asset's live book: where it stands, the changes applied to it, the checks of its hash and what a
//! mismatch does, and a new book (a `book` event or a snapshot) installed in its place.

use super::check::{hex20, Checked, Checks, HashCheck};
use super::pending::{Change, Pending};
use crate::book::OrderBook;
use crate::stream::burst::{Burst, Outcome};

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
    pub(super) market: Option<OrderBook>,
    pub state: State,
    /// Whether the last check matched the service's hash.
    pub verified: bool,
    /// When (local milliseconds) the book was last checked and matched; NaN before that.
    pub verified_at_ms: f64,
    /// Checks that matched and that did not.
    pub checks: u64,
    pub mismatches: u64,
    pub(super) pending: Vec<Pending>,
    /// A snapshot is being fetched for it.
    pub(super) fetching: bool,
    /// Bumped whenever the book is replaced or left, so that a late check of an older book is ignored.
    pub(super) epoch: u32,
    /// The check (handed to the platform) of the book as it is now; none when changed unchecked since.
    pub(super) current: Option<u32>,
    /// The book's timestamp as a number (0 when absent or not digits), kept so that no change reads it.
    pub(super) stamp: u64,
    /// Whether the book's timestamp text is the one a change set (`stamp`'s digits): a frame's later
    /// entries then leave it as it is.
    pub(super) stamped: bool,
    /// The changes with the latest timestamp, and the service's hashes they left unexplained.
    pub(super) burst: Burst,
    /// Whether the book is as its `book` event or snapshot came (no change applied since).
    pub(super) pristine: bool,
    /// Mismatches held while their burst lasted, and hashes explained by a trade price no event had told.
    pub deferred: u64,
    pub inferred: u64,
    /// The newest timestamp of any event seen for the asset, and the oldest a snapshot may be to become the
    /// live book (the newest seen when changes were last dropped): an older one is stale.
    pub(super) newest: u64,
    pub(super) floor: u64,
    /// Snapshots refused as stale, in all and in a row, and when (local ms) the next may be fetched.
    pub stale: u64,
    pub(super) stale_streak: u32,
    pub(super) not_before: f64,
    /// When (local ms) the last stale snapshot was refused.
    pub(super) refused_at: f64,
    /// Snapshots the service answered 404 to (it has no book for the asset), in all and in a row: while the
    /// last one did, the asset has no book, and it is asked for again only after a backoff.
    pub missing: u64,
    pub(super) missing_streak: u32,
    /// Its market resolved (`market_resolved`): the book is closed, and nothing more is asked of it.
    pub resolved: bool,
}

impl LiveBook {
    pub(super) fn new(asset_id: &str) -> Self {
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
            missing: 0,
            missing_streak: 0,
            resolved: false,
        }
    }

    /// The book's market (condition id), from its snapshot or its `book` event.
    pub fn market_id(&self) -> Option<String> {
        self.market.as_ref().or(self.book.as_ref()).and_then(OrderBook::market)
    }

    /// Whether the service has no book for the asset: its last snapshot was answered 404.
    pub fn has_no_book(&self) -> bool {
        self.missing_streak > 0
    }

    /// The book's timestamp as a number (0 when absent or not digits).
    pub(super) fn timestamp(&self) -> u64 {
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
    pub(super) fn apply(
        &mut self,
        change: Change<'_>,
        policy: HashCheck,
        checks: &mut Checks,
        now: f64,
    ) -> Result<(), Resync> {
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
    pub(super) fn enter_burst(&mut self, timestamp: u64) -> Result<(), Resync> {
        self.burst.enter(timestamp).inspect_err(|_| self.mismatches += 1)
    }

    /// Checks the book as it is now against `expected`; `reason` is what a mismatch means.
    pub(super) fn check(
        &mut self,
        expected: &str,
        reason: Resync,
        checks: &mut Checks,
        now: f64,
    ) -> Result<(), Resync> {
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
    pub(super) fn mismatch(
        &mut self,
        want: [u8; 20],
        reason: Resync,
        ended: bool,
        hashed: bool,
        now: f64,
    ) -> Result<(), Resync> {
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
    pub(super) fn resync(&mut self) {
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
    pub(super) fn install(
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

/// A book's timestamp as a number (0 when absent or not digits).
pub(super) fn timestamp_of(book: &OrderBook) -> u64 {
    book.timestamp().and_then(|t| t.parse().ok()).unwrap_or(0)
}
