//! Arbitrary bytes into the book parser (one book and a POST /books list); every query on what parses.
#![no_main]

use libfuzzer_sys::fuzz_target;
use predictkit::book::OrderBook;
use predictkit_fuzz::exercise;

fuzz_target!(|data: &[u8]| {
    let _ = OrderBook::list_from_bytes(data);
    if let Ok(mut book) = OrderBook::from_bytes(data) {
        exercise(&mut book, &[1_000_000, u64::MAX / 2]);
        // What the book hashes is itself a book that reads back.
        let again = OrderBook::from_bytes(&book.hash_input()).expect("the hash input parses");
        assert_eq!(again.hash(), book.hash());
    }
});
