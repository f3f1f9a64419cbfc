//! Hashes checked by the platform (its digests handed out and answered, for books that may have changed or
//! been replaced meanwhile; its failures and floods), and the service's hex digests read.

use super::check::hex20;
use super::harness::{due, live, Service, A, B};
use super::{FrameReport, HashCheck, Hasher, Resync, State, MAX_AWAITING, PLATFORM_FROM};
use crate::stream::burst::WINDOW_MS;
use sha1::{Digest, Sha1};

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
        FrameReport { changed: vec![A.into()], resync: vec![], retry_ms: None, ..Default::default() }
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
        FrameReport { changed: vec![B.into()], resync: vec![], retry_ms: None, ..Default::default() }
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
    assert_eq!(books.apply_frame(frame.as_bytes(), 7.0).unwrap().resync, vec![(B.to_owned(), Resync::HashMismatch)]);
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
