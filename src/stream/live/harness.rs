//! The tests' two sides of a stream: the service (its own books, the frames it sends with the hash of each
//! change, its snapshots) and the binding (the platform's digests, handed back at once).

use super::{FrameReport, HashCheck, Hasher, LiveBooks};
use crate::book::{OrderBook, Side};
use crate::error::Error;
use sha1::{Digest, Sha1};
use std::cell::Cell;

thread_local! {
    /// Where the tests' books are hashed: every test runs with both (see `every_test_with_platform_digests`).
    pub(super) static HASHER: Cell<Hasher> = const { Cell::new(Hasher::Here) };
}

pub(super) fn books_new(policy: HashCheck) -> LiveBooks {
    let mut books = LiveBooks::new(policy);
    books.set_hasher(HASHER.with(Cell::get));
    books
}

/// What the binding does with due checks: the platform's SHA-1 of each, handed back at once.
pub(super) fn answer(books: &mut LiveBooks, mut report: FrameReport, now: f64) -> FrameReport {
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

pub(super) fn apply(books: &mut LiveBooks, frame: &[u8], now: f64) -> Result<FrameReport, Error> {
    let report = books.apply_frame(frame, now)?;
    Ok(answer(books, report, now))
}

pub(super) fn snap(books: &mut LiveBooks, asset: &str, snapshot: OrderBook, now: f64) -> FrameReport {
    let report = books.snapshot(asset, snapshot, now);
    answer(books, report, now)
}

pub(super) const A: &str = "111";
pub(super) const B: &str = "222";

/// The service's side of the test: its own books, the frames it sends, and the hash of each change.
pub(super) struct Service {
    books: Vec<(String, OrderBook)>,
    pub(super) now: u64,
}

impl Service {
    pub(super) fn new() -> Self {
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

    pub(super) fn book(&mut self, asset: &str) -> &mut OrderBook {
        &mut self.books.iter_mut().find(|(a, _)| a == asset).unwrap().1
    }

    /// GET /book now: the full summary with its hash.
    pub(super) fn snapshot(&mut self, asset: &str) -> OrderBook {
        let b = self.book(asset);
        let hash = b.hash();
        let json =
            String::from_utf8(b.hash_input()).unwrap().replacen(r#""hash":"""#, &format!(r#""hash":"{hash}""#), 1);
        OrderBook::from_bytes(json.as_bytes()).unwrap()
    }

    /// The stream's `book` event: the snapshot without the market fields.
    pub(super) fn book_event(&mut self, asset: &str) -> String {
        let b = self.book(asset);
        let hash = b.hash();
        let json = String::from_utf8(b.hash_input()).unwrap();
        let json = json.replacen(r#""hash":"""#, &format!(r#""hash":"{hash}""#), 1);
        let json = json.replace(r#","min_order_size":"5""#, "").replace(r#","neg_risk":false"#, "");
        json.replacen('{', r#"{"event_type":"book","#, 1)
    }

    /// A `price_change` frame of `(asset, side, price, size)` entries, each hashed after it is applied.
    pub(super) fn changes(&mut self, entries: &[(&str, &str, &str, &str)]) -> String {
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

pub(super) fn live(policy: HashCheck, svc: &mut Service) -> LiveBooks {
    let mut books = books_new(policy);
    for asset in [A, B] {
        books.subscribe(asset);
        assert!(snap(&mut books, asset, svc.snapshot(asset), 1.0).resync.is_empty());
    }
    books
}

pub(super) fn equal(books: &LiveBooks, svc: &mut Service, asset: &str) {
    let mine = books.get(asset).unwrap().book.as_ref().unwrap().hash_input();
    assert_eq!(String::from_utf8(mine).unwrap(), String::from_utf8(svc.book(asset).hash_input()).unwrap());
}

/// The platform's answers, one by one, as `(id, digest of its bytes)`.
pub(super) fn due(books: &mut LiveBooks) -> Vec<(u32, [u8; 20])> {
    let (due, input) = books.take_due();
    due.iter().map(|d| (d.id, Sha1::digest(&input[d.start..d.end]).into())).collect()
}
