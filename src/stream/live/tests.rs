//! The live books against the service: frames applied and checked, resyncs and the snapshots that end them,
//! changes that wait for a book, each of these again with the platform's digests, and the books' index.

use super::harness::{apply, books_new, equal, live, snap, Service, A, B, HASHER};
use super::{FrameReport, HashCheck, Hasher, LiveBooks, Resync, State, MAX_PENDING};
use crate::stream::burst::WINDOW_MS;

#[test]
fn changes_keep_books_equal_to_the_service_and_verified() {
    let mut svc = Service::new();
    let mut books = live(HashCheck::EveryEntry, &mut svc);
    let frame = svc.book_event(A);
    let report = apply(&mut books, frame.as_bytes(), 2.0).unwrap();
    assert_eq!(report, FrameReport { changed: vec![A.into()], resync: vec![], retry_ms: None, ..Default::default() });
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
    assert_eq!(report, FrameReport { changed: vec![A.into()], resync: vec![], retry_ms: None, ..Default::default() });
    equal(&books, &mut svc, A);
    let live = books.get(A).unwrap();
    assert_eq!((live.state, live.verified, live.verified_at_ms), (State::Live, true, 8.0));
}

#[test]
fn last_per_frame_checks_once_per_asset_and_every_entry_each() {
    for (policy, detected) in [(HashCheck::LastPerFrame, false), (HashCheck::EveryEntry, true), (HashCheck::Off, false)]
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
    let reports: Vec<FrameReport> = frames.iter().map(|f| apply(&mut books, f.as_bytes(), 2.0).unwrap()).collect();
    assert!(reports.iter().all(|r| r.resync.is_empty()));
    // The new tick is told, for the client's orders (issue 33).
    assert_eq!(reports[0].ticks, [(A.to_owned(), 1_000)]);
    assert!(reports[1].ticks.is_empty());
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
    assert_eq!(report, FrameReport { changed: vec![B.into()], resync: vec![], retry_ms: None, ..Default::default() });
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
        FrameReport { changed: vec![B.into()], resync: vec![], retry_ms: None, ..Default::default() }
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

#[test]
fn an_asset_the_service_has_no_book_for_is_asked_again_only_with_backoff() {
    // Issue 33: one closed token among 2,000 assets was fetched about 1,300 times in 75 s.
    let mut books = LiveBooks::new(HashCheck::LastPerFrame);
    books.subscribe("closed");
    // A bare `[]` (the service's answer to a subscription of a closed or unknown token) is read as nothing.
    assert_eq!(books.apply_frame(b"[]", 0.0).unwrap(), FrameReport::default());
    assert_eq!(books.snapshots_due(0.0), ["closed"]);
    // (asked at, 404's delay): 5 s, doubling, at most 5 minutes.
    let mut now = 0.0;
    let mut asked = 1;
    for want in [5_000.0, 10_000.0, 20_000.0, 40_000.0, 80_000.0, 160_000.0, 300_000.0, 300_000.0] {
        assert_eq!(books.snapshot_missing("closed", now), want);
        assert!(books.snapshots_due(now + want - 100.0).is_empty(), "not before its backoff");
        // Frames meanwhile do not make it due.
        books.apply_frame(br#"{"event_type":"best_bid_ask","asset_id":"closed"}"#, now + 1.0).unwrap();
        assert!(books.snapshots_due(now + 1.0).is_empty());
        now += want;
        assert_eq!(books.snapshots_due(now), ["closed"]);
        asked += 1;
    }
    assert_eq!(books.get("closed").unwrap().missing, 8);
    // Fetched 9 times over about 15 minutes, where a 1 s retry would have fetched it about 900 times.
    assert_eq!(asked, 9);
    assert!(now > 900_000.0);
    assert_eq!(super::missing_backoff_ms(1), 5_000.0);
}

#[test]
fn lifecycle_events_are_told_once_per_market_and_a_resolution_closes_its_books() {
    // Issue 33: new_market and market_resolved arrive on every connection, more than once.
    let mut books = LiveBooks::new(HashCheck::LastPerFrame);
    books.subscribe("111");
    books.subscribe("222");
    books.subscribe("333");
    let new = r#"{"event_type":"new_market","id":"9","market":"0xM","assets_ids":["111","222"],"timestamp":"1"}"#;
    let resolved = r#"{"event_type":"market_resolved","id":"9","market":"0xm","assets_ids":["111","222"],"winning_asset_id":"111","timestamp":"2"}"#;
    let frame = format!("[{new},{new},{resolved}]");
    let report = books.apply_frame(frame.as_bytes(), 1.0).unwrap();
    assert_eq!(report.repeats, [1], "the second new_market of the frame");
    assert_eq!(report.resolved, ["111", "222"]);
    // Again, on another connection: all repeats (the market id's case aside).
    let report = books.apply_frame(format!("[{resolved},{new}]").as_bytes(), 2.0).unwrap();
    assert_eq!((report.repeats, report.resolved), (vec![0, 1], vec![]));
    let one = books.apply_frame(resolved.as_bytes(), 3.0).unwrap();
    assert_eq!(one.repeats, [0]);
    // The resolved books are closed: no snapshot is asked of them; the other asset's still is.
    assert!(books.get("111").unwrap().resolved && !books.get("333").unwrap().resolved);
    assert_eq!(books.snapshots_due(4.0), ["333"]);
    // Another market's events are its own.
    let other = r#"{"event_type":"new_market","market":"0xN","timestamp":"5"}"#;
    assert!(books.apply_frame(other.as_bytes(), 5.0).unwrap().repeats.is_empty());
}

#[test]
fn many_snapshots_go_in_batches_and_an_unanswered_asset_has_no_book() {
    // Issue 33: 2,000 assets that each need a snapshot: 20 requests of POST /books, not 2,000 of GET /book.
    let ids = |n: usize| (0..n).map(|i| i.to_string()).collect::<Vec<String>>();
    let sizes = |n: usize| super::snapshot_batches(ids(n)).iter().map(Vec::len).collect::<Vec<_>>();
    assert_eq!(sizes(2_000), vec![100; 20]);
    assert_eq!(sizes(1), [1]);
    assert_eq!(sizes(4), [1, 1, 1, 1], "a few go one by one");
    assert_eq!(sizes(5), [5]);
    assert_eq!(sizes(250), [100, 100, 50]);
    assert!(sizes(0).is_empty());
    let batches = super::snapshot_batches(ids(250));
    assert_eq!(batches.concat(), ids(250), "every asset once, in order");
    // A batch's answer leaves out a closed token: it has no book, and waits its backoff.
    let mut books = LiveBooks::new(HashCheck::LastPerFrame);
    for a in ["1", "2", "3"] {
        books.subscribe(a);
    }
    assert_eq!(books.snapshots_due(0.0), ["1", "2", "3"]);
    books.snapshot_failed("1"); // (as though "1" and "2" were answered)
    books.snapshot_failed("2");
    assert_eq!(books.unanswered(&ids(4), 0.0), Some(5_000.0));
    assert!(books.get("3").unwrap().has_no_book() && !books.get("1").unwrap().has_no_book());
    assert_eq!(books.snapshots_due(1.0), ["1", "2"]);
    assert_eq!(books.unanswered(&["1".to_owned()], 1.0).map(|d| d > 0.0), Some(true));
    assert_eq!(books.unanswered(&["1".to_owned()], 2.0), None, "nothing asked is waiting");
}

#[test]
fn a_snapshots_error_decides_when_it_is_asked_again() {
    // (code, the delay answered: a 404's backoff, or none for the usual pause)
    let table = [(Some("NOT_FOUND"), Some(5_000.0)), (Some("SERVER"), None), (Some("NETWORK"), None), (None, None)];
    for (code, want) in table {
        let mut books = LiveBooks::new(HashCheck::LastPerFrame);
        books.subscribe("1");
        assert_eq!(books.snapshots_due(0.0), ["1"]);
        assert_eq!(books.snapshot_error("1", code, 0.0), want, "{code:?}");
        assert_eq!(books.get("1").unwrap().has_no_book(), want.is_some());
        // Any other error: due again at once (the driver pauses first).
        assert_eq!(books.snapshots_due(1.0).len(), usize::from(want.is_none()), "{code:?}");
    }
}
