//! A frame of the market channel applied to the books: its events read (`book`, `price_change`,
//! `tick_size_change` and `last_trade_price`; the others are for the page only), and each change applied to
//! its asset's live book, or kept while the book's snapshot is on the way.

use std::borrow::Cow;

use super::pending::{Change, Pending, MAX_PENDING};
use super::{find, FrameReport, LiveBooks, Resync, State};
use crate::book::{OrderBook, Side};
use crate::error::Error;
use crate::json::Scanner;

impl LiveBooks {
    /// Applies one frame of the market channel (an event object or an array of them) to the books. A
    /// frame that is not JSON, or whose events are not of the service's shape, is `DECODE` and changes
    /// nothing it had not applied before the bad part.
    pub fn apply_frame(&mut self, frame: &[u8], now: f64) -> Result<FrameReport, Error> {
        let mut report = self.expire(now);
        self.checks.begin();
        let mut s = Scanner::new(frame);
        let mut index = 0u32;
        if s.peek_kind() == Some(b'[') {
            s.array(|s| {
                let result = self.event(s, frame, now, index, &mut report);
                index = index.saturating_add(1);
                result
            })?;
        } else {
            self.event(&mut s, frame, now, 0, &mut report)?;
        }
        s.finish()?;
        Ok(report)
    }

    fn event(
        &mut self,
        s: &mut Scanner<'_>,
        frame: &[u8],
        now: f64,
        index: u32,
        report: &mut FrameReport,
    ) -> Result<(), Error> {
        s.skip_ws();
        let start = s.pos();
        let mut event = Event::default();
        s.object(|s, key| event.field(s, key))?;
        let end = s.pos();
        match event.event_type.as_deref() {
            // The service sends a market's lifecycle events on every connection, more than once: each is told
            // once per market, and a resolved market's books are closed.
            Some(kind @ ("new_market" | "market_resolved")) => {
                let market = event.market.as_deref().or(event.id.as_deref()).unwrap_or_default();
                let resolved = kind == "market_resolved";
                if !self.lifecycle.first(resolved, market) {
                    report.repeats.push(index);
                } else if resolved {
                    for live in &mut self.books {
                        let of_market = live.market_id().is_some_and(|m| m.eq_ignore_ascii_case(market))
                            || event.assets.iter().any(|a| *a == live.asset_id);
                        if of_market && !live.resolved {
                            live.resolved = true;
                            report.resolved.push(live.asset_id.clone());
                        }
                    }
                }
                Ok(())
            }
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
                if let Some(tick) = crate::book::fixed::parse(tick_size.as_bytes()).filter(|&t| t > 0) {
                    report.ticks.push((asset.to_owned(), tick));
                }
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
                live.missing_streak = 0;
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
    /// A lifecycle event's market (condition id), its id, and its assets (`assets_ids`).
    market: Option<Cow<'a, str>>,
    id: Option<Cow<'a, str>>,
    assets: Vec<Cow<'a, str>>,
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
            b"market" => &mut self.market,
            b"id" => &mut self.id,
            b"assets_ids" if s.peek_kind() == Some(b'[') => {
                return s.array(|s| {
                    if self.assets.len() < super::MAX_LIFECYCLE_ASSETS && s.peek_kind() == Some(b'"') {
                        self.assets.push(s.string()?);
                        Ok(())
                    } else {
                        s.skip_value()
                    }
                })
            }
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
