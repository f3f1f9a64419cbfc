//! Live books on the shapes the service really sends (issue: agree with the real service): `book` events that
//! leave out fields their hash covers, same-timestamp bursts whose entries all carry the final hash, hashes
//! that cover a trade no event has announced, snapshots older than frames already seen; and replays of real
//! captures of the upstream market channel (`tests/fixtures/real/stream/`, with their provenance), whose hashes
//! an independent script reproduces.

use super::live::{FrameReport, HashCheck, Hasher, LiveBooks, Resync, State};
use crate::book::{OrderBook, Side};

const A: &str = "111";
const B: &str = "222";

/// Both hashers: here, and the platform's (answered at once, as the binding would, with SHA-1 here).
const HASHERS: [Hasher; 2] = [Hasher::Here, Hasher::Platform { from: 0 }];

fn books(policy: HashCheck, hasher: Hasher) -> LiveBooks {
    let mut books = LiveBooks::new(policy);
    books.set_hasher(hasher);
    books
}

fn answer(books: &mut LiveBooks, mut report: FrameReport, now: f64) -> FrameReport {
    use sha1::{Digest, Sha1};
    let (due, input) = books.take_due();
    let answers: Vec<(u32, [u8; 20])> =
        due.iter().map(|d| (d.id, Sha1::digest(&input[d.start..d.end]).into())).collect();
    for (id, digest) in answers {
        let more = books.digested(id, Some(&digest), now);
        report.changed.extend(more.changed.into_iter().filter(|a| !report.changed.contains(a)).collect::<Vec<_>>());
        report.resync.extend(more.resync);
    }
    report
}

fn apply(books: &mut LiveBooks, frame: &str, now: f64) -> FrameReport {
    let report = books.apply_frame(frame.as_bytes(), now).unwrap();
    answer(books, report, now)
}

fn snap(books: &mut LiveBooks, asset: &str, snapshot: OrderBook, now: f64) -> FrameReport {
    let report = books.snapshot(asset, snapshot, now);
    answer(books, report, now)
}

/// The service's side: both tokens' books, moved as the service moves them.
struct Service {
    books: Vec<(String, OrderBook)>,
    now: u64,
}

impl Service {
    fn new() -> Self {
        let book = |asset: &str| {
            let json = format!(
                r#"{{"market":"0xm","asset_id":"{asset}","timestamp":"1000","hash":"","bids":[{{"price":"0.4","size":"10"}},{{"price":"0.45","size":"5"}}],"asks":[{{"price":"0.6","size":"8"}},{{"price":"0.55","size":"3"}}],"min_order_size":"5","tick_size":"0.01","neg_risk":false,"last_trade_price":"0.500"}}"#
            );
            (asset.to_owned(), OrderBook::from_bytes(json.as_bytes()).unwrap())
        };
        Self { books: vec![book(A), book(B)], now: 1000 }
    }

    fn book(&mut self, asset: &str) -> &mut OrderBook {
        &mut self.books.iter_mut().find(|(a, _)| a == asset).unwrap().1
    }

    /// GET /book: the whole summary with its hash.
    fn snapshot(&mut self, asset: &str) -> OrderBook {
        let b = self.book(asset);
        let hash = b.hash();
        let json =
            String::from_utf8(b.hash_input()).unwrap().replacen(r#""hash":"""#, &format!(r#""hash":"{hash}""#), 1);
        OrderBook::from_bytes(json.as_bytes()).unwrap()
    }

    /// A `book` event as the service sends it after a trade or in a dump: without the market fields, and
    /// without `tick_size` and `last_trade_price` either; its hash covers them all.
    fn bare_book(&mut self, asset: &str) -> String {
        let b = self.book(asset);
        let hash = b.hash();
        let mut json = String::from_utf8(b.hash_input()).unwrap();
        json = json.replacen(r#""hash":"""#, &format!(r#""hash":"{hash}""#), 1);
        for field in ["min_order_size", "tick_size", "neg_risk", "last_trade_price"] {
            let at = json.find(&format!(r#","{field}":"#)).unwrap();
            let end = json[at + 1..].find([',', '}']).unwrap() + at + 1;
            json.replace_range(at..end, "");
        }
        json.replacen('{', r#"{"event_type":"book","#, 1)
    }

    /// A burst: frames of `(asset, side, price, size)` entries with one timestamp; every entry carries the
    /// hash of its asset's state after the whole burst, with `trade` (if any) as both tokens' last trade price.
    fn burst(&mut self, frames: &[&[(&str, Side, &str, &str)]], trade: Option<&str>) -> Vec<String> {
        self.now += 1;
        let ts = self.now.to_string();
        for entries in frames {
            for &(asset, side, price, size) in entries.iter() {
                let b = self.book(asset);
                b.apply_price_change(side, price, size).unwrap();
                b.set_timestamp(&ts).unwrap();
            }
        }
        if let Some(price) = trade {
            for asset in [A, B] {
                self.book(asset).set_last_trade_price(price).unwrap();
            }
        }
        let finals: Vec<(String, String)> = self.books.iter().map(|(a, b)| (a.clone(), b.hash())).collect();
        let hash = |asset: &str| finals.iter().find(|(a, _)| a == asset).unwrap().1.clone();
        frames
            .iter()
            .map(|entries| {
                let parts: Vec<String> = entries
                    .iter()
                    .map(|&(asset, side, price, size)| {
                        let side = if side == Side::Buy { "BUY" } else { "SELL" };
                        format!(
                            r#"{{"asset_id":"{asset}","price":"{price}","size":"{size}","side":"{side}","hash":"{}","best_bid":"","best_ask":""}}"#,
                            hash(asset)
                        )
                    })
                    .collect();
                format!(
                    r#"{{"market":"0xm","price_changes":[{}],"timestamp":"{ts}","event_type":"price_change"}}"#,
                    parts.join(", ")
                )
            })
            .collect()
    }

    fn last_trade(&mut self, asset: &str, price: &str) -> String {
        format!(
            r#"[{{"event_type":"last_trade_price","asset_id":"{asset}","market":"0xm","price":"{price}","side":"BUY","size":"5","fee_rate_bps":"0","timestamp":"{}"}}]"#,
            self.now
        )
    }
}

/// Books for A and B made live from GET /book.
fn live(policy: HashCheck, hasher: Hasher, svc: &mut Service) -> LiveBooks {
    let mut books = books(policy, hasher);
    for asset in [A, B] {
        books.subscribe(asset);
        assert_eq!(books.snapshots_due(0.0).len(), 1);
        assert!(snap(&mut books, asset, svc.snapshot(asset), 1.0).resync.is_empty());
    }
    books
}

fn equal(books: &LiveBooks, svc: &mut Service, asset: &str) {
    let mine = books.get(asset).unwrap().book.as_ref().unwrap().hash_input();
    assert_eq!(String::from_utf8(mine).unwrap(), String::from_utf8(svc.book(asset).hash_input()).unwrap());
}

/// `(state, verified, mismatches, deferred, inferred)` of an asset's book.
fn status(books: &LiveBooks, asset: &str) -> (State, bool, u64, u64, u64) {
    let l = books.get(asset).unwrap();
    (l.state, l.verified, l.mismatches, l.deferred, l.inferred)
}

#[test]
fn book_events_without_tick_size_or_last_trade_price_keep_their_last_known_values() {
    for hasher in HASHERS {
        let mut svc = Service::new();
        let mut books = live(HashCheck::LastPerFrame, hasher, &mut svc);
        // The tick size changes and a trade is told; the next dump and a post-trade book leave both out.
        svc.now += 1;
        for asset in [A, B] {
            svc.book(asset).set_tick_size("0.001").unwrap();
            svc.book(asset).set_last_trade_price("0.450").unwrap();
            let now = svc.now.to_string();
            svc.book(asset).set_timestamp(&now).unwrap();
        }
        let tick = format!(
            r#"{{"event_type":"tick_size_change","asset_id":"{A}","market":"0xm","old_tick_size":"0.01","new_tick_size":"0.001","timestamp":"{}"}}"#,
            svc.now
        );
        assert!(apply(&mut books, &tick, 2.0).resync.is_empty());
        assert!(apply(&mut books, &svc.last_trade(A, "0.450"), 2.0).resync.is_empty());
        let dump = format!("[{}]", svc.bare_book(A));
        assert!(!dump.contains("tick_size") && !dump.contains("last_trade_price"));
        let report = apply(&mut books, &dump, 3.0);
        assert_eq!(report.resync, vec![], "{hasher:?}");
        assert_eq!(status(&books, A), (State::Live, true, 0, 0, 0), "{hasher:?}");
        equal(&books, &mut svc, A);
        // B's tick size was never told: only its GET /book gave one, and the hash covers the new one. The
        // book says so (the service's hash is the authority): B's dump cannot be explained and resyncs.
        let report = apply(&mut books, &svc.bare_book(B), 4.0);
        assert_eq!(report.resync, vec![]);
        assert_eq!(books.expire(4.0 + super::burst::WINDOW_MS).resync, vec![(B.to_owned(), Resync::BookMismatch)]);
        assert_eq!(status(&books, B).0, State::Resyncing);
        assert!(snap(&mut books, B, svc.snapshot(B), 2000.0).resync.is_empty());
        assert_eq!(status(&books, B), (State::Live, true, 1, 1, 0));
        equal(&books, &mut svc, B);
    }
}

#[test]
fn a_burst_whose_entries_all_carry_the_final_hash_is_verified_without_a_resync() {
    for policy in [HashCheck::LastPerFrame, HashCheck::EveryEntry] {
        for hasher in HASHERS {
            let mut svc = Service::new();
            let mut books = live(policy, hasher, &mut svc);
            // A crossing buy rests at 0.55 on A (and its mirror on B), then the trade takes both levels.
            let frames = svc.burst(
                &[
                    &[(A, Side::Buy, "0.55", "3"), (B, Side::Sell, "0.45", "3")],
                    &[(A, Side::Sell, "0.55", "0"), (B, Side::Buy, "0.45", "0")],
                    &[(A, Side::Buy, "0.55", "0"), (B, Side::Sell, "0.45", "0")],
                ],
                None,
            );
            for (i, frame) in frames.iter().enumerate() {
                let report = apply(&mut books, frame, 10.0 + i as f64);
                assert_eq!(report.resync, vec![], "{policy:?} {hasher:?} frame {i}");
                // Provisional until the last frame brings the state the hashes are of.
                assert_eq!(status(&books, A).1, i == frames.len() - 1, "{policy:?} {hasher:?} frame {i}");
            }
            for asset in [A, B] {
                let (state, verified, mismatches, deferred, inferred) = status(&books, asset);
                assert_eq!((state, verified, mismatches, inferred), (State::Live, true, 0, 0));
                let per_frame = 1;
                assert!(deferred >= 2 * per_frame, "{policy:?} {hasher:?} {asset}: {deferred}");
                equal(&books, &mut svc, asset);
            }
            // Nothing waits: the window passing changes nothing.
            assert_eq!(books.expire(1e9), FrameReport::default());
        }
    }
}

#[test]
fn a_hash_covering_a_trade_not_yet_announced_is_inferred_from_the_bursts_prices() {
    for hasher in HASHERS {
        let mut svc = Service::new();
        let mut books = live(HashCheck::LastPerFrame, hasher, &mut svc);
        // The trade takes A's 0.55 ask (B's 0.45 bid): both tokens' hashes cover "0.550", announced later.
        let frames = svc.burst(&[&[(A, Side::Sell, "0.55", "0"), (B, Side::Buy, "0.45", "0")]], Some("0.550"));
        assert_eq!(apply(&mut books, &frames[0], 5.0).resync, vec![], "{hasher:?}");
        for asset in [A, B] {
            assert_eq!(status(&books, asset), (State::Live, true, 0, 0, 1), "{hasher:?} {asset}");
            equal(&books, &mut svc, asset);
        }
        // The announcement, when it comes, changes nothing; later changes verify as usual.
        assert_eq!(apply(&mut books, &svc.last_trade(A, "0.550"), 6.0).resync, vec![]);
        let frames = svc.burst(&[&[(A, Side::Buy, "0.41", "2")]], None);
        assert_eq!(apply(&mut books, &frames[0], 7.0).resync, vec![]);
        assert_eq!(status(&books, A), (State::Live, true, 0, 0, 1));
        // A post-trade book without last_trade_price, whose hash covers a trade not told yet, at a price the
        // burst took.
        let frames = svc.burst(&[&[(A, Side::Sell, "0.6", "0"), (B, Side::Buy, "0.4", "0")]], Some("0.60"));
        let book = svc.bare_book(B);
        assert_eq!(apply(&mut books, &format!("[{}, {book}]", &frames[0]), 8.0).resync, vec![]);
        assert_eq!(status(&books, B), (State::Live, true, 0, 0, 2), "{hasher:?}");
        equal(&books, &mut svc, B);
    }
}

#[test]
fn a_trade_announced_after_its_burst_explains_the_hashes_that_waited() {
    let mut svc = Service::new();
    let mut books = live(HashCheck::LastPerFrame, Hasher::Here, &mut svc);
    // A trade at a price no entry of the burst took (a level in between): only its announcement explains.
    let frames = svc.burst(&[&[(A, Side::Buy, "0.41", "1")]], Some("0.520"));
    assert_eq!(apply(&mut books, &frames[0], 5.0).resync, vec![]);
    assert_eq!(status(&books, A), (State::Live, false, 0, 1, 0));
    assert_eq!(apply(&mut books, &svc.last_trade(A, "0.520"), 5.5).resync, vec![]);
    assert_eq!(status(&books, A), (State::Live, true, 0, 1, 0));
    equal(&books, &mut svc, A);
}

#[test]
fn a_hash_nothing_explains_resyncs_when_its_burst_ends() {
    // Ended by the next change with another timestamp.
    let mut svc = Service::new();
    let mut books = live(HashCheck::LastPerFrame, Hasher::Here, &mut svc);
    let frames = svc.burst(&[&[(A, Side::Buy, "0.41", "1")]], None);
    let wrong = frames[0].replace(&svc.book(A).hash(), &"0".repeat(40));
    assert_eq!(apply(&mut books, &wrong, 5.0).resync, vec![]);
    assert_eq!(status(&books, A), (State::Live, false, 0, 1, 0));
    let next = svc.burst(&[&[(A, Side::Buy, "0.42", "1")]], None);
    assert_eq!(apply(&mut books, &next[0], 5.1).resync, vec![(A.to_owned(), Resync::HashMismatch)]);
    assert_eq!(status(&books, A), (State::Resyncing, false, 1, 1, 0));
    // Ended by the window, in a market that says nothing more.
    let mut svc = Service::new();
    let mut books = live(HashCheck::LastPerFrame, Hasher::Here, &mut svc);
    let frames = svc.burst(&[&[(A, Side::Buy, "0.41", "1")]], Some("0.77"));
    assert_eq!(apply(&mut books, &frames[0], 5.0).resync, vec![]);
    assert_eq!(books.expire(5.0 + super::burst::WINDOW_MS - 1.0).resync, vec![]);
    // Any frame after the window ends it.
    let other = r#"{"event_type":"best_bid_ask","asset_id":"222","timestamp":"1"}"#;
    assert_eq!(
        apply(&mut books, other, 5.0 + super::burst::WINDOW_MS).resync,
        vec![(A.to_owned(), Resync::HashMismatch)]
    );
}

#[test]
fn a_snapshot_older_than_frames_already_seen_is_never_installed_as_verified() {
    for hasher in HASHERS {
        let mut svc = Service::new();
        let mut books = live(HashCheck::LastPerFrame, hasher, &mut svc);
        // A GET /book is answered now, and arrives only after newer frames (and another one like it).
        let old = svc.snapshot(A);
        let older = svc.snapshot(A);
        svc.burst(&[&[(A, Side::Buy, "0.41", "9")]], None); // A change the stream lost.
        let frames = svc.burst(&[&[(A, Side::Buy, "0.42", "1")]], None);
        assert_eq!(apply(&mut books, &frames[0], 5.0).resync, vec![]);
        let next = svc.burst(&[&[(A, Side::Buy, "0.43", "1")]], None);
        assert_eq!(apply(&mut books, &next[0], 6.0).resync, vec![(A.to_owned(), Resync::HashMismatch)]);
        assert_eq!(books.snapshots_due(6.0), vec![A.to_owned()]);
        // The old answer comes: stale, refused; asked for again after a backoff, the book still resyncing.
        let report = snap(&mut books, A, old, 7.0);
        assert_eq!(report.retry_ms, Some(250.0));
        assert!(report.changed.is_empty() && report.resync.is_empty());
        let l = books.get(A).unwrap();
        assert_eq!((l.state, l.verified, l.stale), (State::Resyncing, false, 1), "{hasher:?}");
        assert!(books.snapshots_due(7.0 + 150.0).is_empty());
        // Due once the driver's timer fires, even if the wall clock it reads is a little behind.
        assert_eq!(books.snapshots_due(7.0 + 249.0), vec![A.to_owned()]);
        books.snapshot_failed(A);
        // A wall clock that went back since the refusal cannot hold the retry back.
        assert_eq!(books.snapshots_due(3.0), vec![A.to_owned()]);
        // Stale again: the backoff doubles.
        assert_eq!(snap(&mut books, A, older, 300.0).retry_ms, Some(500.0));
        assert_eq!(books.get(A).unwrap().stale, 2);
        // A fresh answer is installed and verified at the newest timestamp seen.
        let report = snap(&mut books, A, svc.snapshot(A), 400.0);
        assert_eq!(report.resync, vec![]);
        assert_eq!(report.retry_ms, None);
        let l = books.get(A).unwrap();
        assert_eq!((l.state, l.verified), (State::Live, true), "{hasher:?}");
        equal(&books, &mut svc, A);
    }
    for streak in 1..=8 {
        assert_eq!(super::live::stale_backoff_ms(streak), (250.0 * 2f64.powi(streak as i32 - 1)).min(8000.0));
    }
}

// ---- Real captures of the upstream market channel (tests/fixtures/real/stream/PROVENANCE.md).

/// GET /book's market fields for a capture: what the service's hash covers and its book events leave out.
fn market_fields(asset: &str, tick: &str, last_trade: Option<&str>) -> OrderBook {
    let last = last_trade.map(|p| format!(r#","last_trade_price":"{p}""#)).unwrap_or_default();
    let json = format!(
        r#"{{"market":"m","asset_id":"{asset}","timestamp":"0","hash":"","bids":[],"asks":[],"min_order_size":"5","tick_size":"{tick}","neg_risk":false{last}}}"#
    );
    OrderBook::from_bytes(json.as_bytes()).unwrap()
}

/// The assets of a capture that have a `book` event (those of which the capture tells the whole state), in order.
fn assets_of(frames: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for frame in frames {
        let value: serde_json::Value = serde_json::from_str(frame).unwrap();
        let events = value.as_array().cloned().unwrap_or_else(|| vec![value.clone()]);
        for e in events.iter().filter(|e| e["event_type"] == "book") {
            if let Some(id) = e["asset_id"].as_str().filter(|id| !out.iter().any(|o| o == id)) {
                out.push(id.to_owned());
            }
        }
    }
    out
}

/// Replays `frames` on books that know the market fields as GET /book gave them (`tick`, `last_trade`): the
/// number of resyncs, and each book's `(checks, deferred, inferred)`.
fn replay(frames: &[&str], tick: &str, last_trade: Option<&str>) -> (usize, Vec<(u64, u64, u64)>) {
    let mut books = books(HashCheck::EveryEntry, Hasher::Here);
    let assets = assets_of(frames);
    assert!(!assets.is_empty());
    let mut resyncs = 0;
    for asset in &assets {
        books.subscribe(asset);
        resyncs += books.snapshot(asset, market_fields(asset, tick, last_trade), 0.0).resync.len();
    }
    for (i, frame) in frames.iter().enumerate() {
        resyncs += books.apply_frame(frame.as_bytes(), 1.0 + i as f64).unwrap().resync.len();
    }
    resyncs += books.expire(1e9).resync.len();
    for asset in &assets {
        let l = books.get(asset).unwrap();
        assert_eq!(l.state, State::Live, "{asset}");
    }
    let checks = assets.iter().map(|a| books.get(a).unwrap()).map(|l| (l.checks, l.deferred, l.inferred)).collect();
    (resyncs, checks)
}

fn lines(text: &str) -> Vec<&str> {
    text.lines().filter(|l| !l.trim().is_empty()).collect()
}

#[test]
fn real_capture_with_books_that_leave_out_tick_size_and_a_trade_never_announced() {
    // Two books without tick_size (the hash covers GET /book's "0.01"), a price_change of both tokens whose
    // hashes cover a last_trade_price "0.490" that no frame announces, and a later book without tick_size and
    // last_trade_price whose hash covers the earlier "0.500".
    let frames = lines(include_str!("../../tests/fixtures/real/stream/polybotv2-2025-12-23.jsonl"));
    assert_eq!(frames.len(), 3);
    let (resyncs, checks) = replay(&frames, "0.01", None);
    assert_eq!(resyncs, 0, "{checks:?}");
    // Each token: its book, its entry (inferred), and the second token its later book.
    assert_eq!(checks, vec![(2, 0, 1), (3, 0, 2)]);
}

#[test]
fn real_capture_of_a_burst_whose_frames_all_carry_the_final_hash() {
    // Four price_change frames with one timestamp, each with an entry per token; every entry carries the hash
    // of the state after the fourth frame. The books before the burst are the recording project's checkpoint
    // of the service's book event (its hash reproduced with last_trade_price "0.441").
    let frames = lines(include_str!("../../tests/fixtures/real/stream/polyfifa-burst-2026-09-11.jsonl"));
    let seed: serde_json::Value =
        serde_json::from_str(include_str!("../../tests/fixtures/real/stream/polyfifa-burst-2026-09-11.seed.json"))
            .unwrap();
    let market = frames
        .iter()
        .find_map(|f| serde_json::from_str::<serde_json::Value>(f).ok()?["market"].as_str().map(str::to_owned))
        .unwrap();
    let mut replayed = seed_books(&seed, &market);
    assert_eq!(replayed.len(), 2);
    replayed.extend(frames.iter().map(|f| f.to_string()));
    let replayed: Vec<&str> = replayed.iter().map(String::as_str).collect();
    let (resyncs, checks) = replay(&replayed, "0.001", Some("0.441"));
    assert_eq!(resyncs, 0, "{checks:?}");
    for (checks, deferred, inferred) in checks {
        // The seed book, then four entries: three provisional, the last one verifies them all.
        assert_eq!((checks, deferred, inferred), (2, 3, 0));
    }
}

/// The checkpoint's books as the service's `book` events (bids ascending, asks descending), with their hash.
fn seed_books(seed: &serde_json::Value, market: &str) -> Vec<String> {
    let list = seed["books"].as_array().or_else(|| seed.as_array()).cloned().unwrap_or_default();
    list.iter()
        .map(|b| {
            let levels = |key: &str, ascending: bool| {
                let mut l: Vec<serde_json::Value> = b[key].as_array().cloned().unwrap_or_default();
                let p = |v: &serde_json::Value| v["price"].as_str().unwrap().parse::<f64>().unwrap();
                l.sort_by(|x, y| if ascending { p(x).total_cmp(&p(y)) } else { p(y).total_cmp(&p(x)) });
                serde_json::to_string(&l).unwrap()
            };
            format!(
                r#"{{"event_type":"book","market":"{market}","asset_id":"{}","timestamp":"{}","hash":"{}","bids":{},"asks":{}}}"#,
                b["asset_id"].as_str().unwrap(),
                b["timestamp"].as_str().map(str::to_owned).unwrap_or_else(|| b["timestamp"].to_string()),
                b["hash"].as_str().unwrap(),
                levels("bids", true),
                levels("asks", false),
            )
        })
        .collect()
}

#[test]
fn real_capture_from_before_the_hash_covered_the_last_trade_price() {
    // A book without tick_size and without last_trade_price (the hash then left it out), two price changes.
    // The recording project stored the frames re-serialised, the timestamps as numbers: they are strings again.
    let text_timestamp = |f: &&str| {
        let mut v: serde_json::Value = serde_json::from_str(f).unwrap();
        v["timestamp"] = serde_json::Value::String(v["timestamp"].to_string().trim_matches('"').to_owned());
        serde_json::to_string(&v).unwrap()
    };
    let frames: Vec<String> = lines(include_str!("../../tests/fixtures/real/stream/polypy-2025-10-23.jsonl"))
        .iter()
        .map(text_timestamp)
        .collect();
    let frames: Vec<&str> = frames.iter().map(String::as_str).collect();
    let (resyncs, checks) = replay(&frames, "0.01", None);
    assert_eq!(resyncs, 0, "{checks:?}");
    assert!(checks.iter().any(|&(c, d, i)| c == 3 && d == 0 && i == 0), "{checks:?}");
    // The GET /book answers recorded after each change carry the hash of the change before them.
    let bodies = lines(include_str!("../../tests/fixtures/real/stream/polypy-2025-10-23.rest.jsonl"));
    assert_eq!(bodies.len(), 2);
    for body in bodies.iter().map(text_timestamp) {
        let book = OrderBook::from_bytes(body.as_bytes()).unwrap();
        assert_eq!(Some(book.hash()), book.received_hash());
    }
}

#[test]
fn a_dump_before_its_snapshot_is_checked_once_the_snapshot_tells_the_fields_it_left_out() {
    for hasher in HASHERS {
        for older in [false, true] {
            let mut svc = Service::new();
            let mut books = books(HashCheck::LastPerFrame, hasher);
            books.subscribe(A);
            assert_eq!(books.snapshots_due(0.0), vec![A.to_owned()]);
            // The GET /book is answered (now, or before the market moved) and comes after the dump.
            let early = svc.snapshot(A);
            if older {
                svc.burst(&[&[(A, Side::Buy, "0.41", "2")]], None);
            }
            let dump = svc.bare_book(A);
            assert_eq!(apply(&mut books, &dump, 1.0), FrameReport { changed: vec![A.into()], ..Default::default() });
            assert_eq!(status(&books, A), (State::Live, false, 0, 0, 0));
            let snapshot = if older { early } else { svc.snapshot(A) };
            let report = snap(&mut books, A, snapshot, 2.0);
            assert_eq!(report.resync, vec![], "{hasher:?} {older}");
            assert_eq!(status(&books, A), (State::Live, true, 0, 0, 0), "{hasher:?} {older}");
            equal(&books, &mut svc, A);
        }
    }
}

#[test]
fn a_dump_that_hashes_a_trade_not_yet_told_waits_for_its_announcement() {
    let mut svc = Service::new();
    let mut books = books(HashCheck::LastPerFrame, Hasher::Here);
    books.subscribe(A);
    let early = svc.snapshot(A);
    svc.burst(&[&[(A, Side::Buy, "0.41", "2")]], Some("0.410"));
    apply(&mut books, &svc.bare_book(A), 1.0);
    // The snapshot's last trade price is older than the dump's hash: provisional, not a resync.
    assert_eq!(snap(&mut books, A, early, 2.0).resync, vec![]);
    assert_eq!(status(&books, A), (State::Live, false, 0, 1, 0));
    // The announcement explains it.
    assert_eq!(apply(&mut books, &svc.last_trade(A, "0.410"), 3.0).resync, vec![]);
    assert_eq!(status(&books, A), (State::Live, true, 0, 1, 0));
    equal(&books, &mut svc, A);
}

#[test]
fn a_platform_mismatch_answered_after_its_burst_ended_resyncs_at_once() {
    use sha1::{Digest, Sha1};
    let mut svc = Service::new();
    let mut books = live(HashCheck::LastPerFrame, Hasher::Platform { from: 0 }, &mut svc);
    let frames = svc.burst(&[&[(A, Side::Buy, "0.41", "1")]], None);
    let wrong = frames[0].replace(&svc.book(A).hash(), &"0".repeat(40));
    assert_eq!(books.apply_frame(wrong.as_bytes(), 5.0).unwrap().resync, vec![]);
    let (due, input) = books.take_due();
    let first: Vec<(u32, [u8; 20])> = due.iter().map(|d| (d.id, Sha1::digest(&input[d.start..d.end]).into())).collect();
    assert_eq!(first.len(), 1);
    // The next timestamp's change comes before the platform's answer.
    let next = svc.burst(&[&[(A, Side::Buy, "0.42", "1")]], None);
    assert_eq!(books.apply_frame(next[0].as_bytes(), 5.1).unwrap().resync, vec![]);
    let report = books.digested(first[0].0, Some(&first[0].1), 5.2);
    assert_eq!(report.resync, vec![(A.to_owned(), Resync::HashMismatch)]);
    assert_eq!(status(&books, A).0, State::Resyncing);
}
