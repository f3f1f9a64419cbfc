//! Arbitrary books (levels in any order, any values) and arbitrary operations on them: price changes,
//! timestamps and every query, checking the best prices against the levels after each step.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use predictkit::book::{fixed, OrderBook, Side};
use predictkit_fuzz::exercise;

#[derive(Arbitrary, Debug)]
struct Input {
    bids: Vec<(u64, u64)>,
    asks: Vec<(u64, u64)>,
    numbers: bool,
    ops: Vec<Op>,
}

#[derive(Arbitrary, Debug)]
enum Op {
    Change { buy: bool, price: u64, size: u64 },
    Timestamp(u64),
    Query(u64),
}

fn text(units: u64) -> String {
    let mut out = Vec::new();
    fixed::format(units, &mut out);
    String::from_utf8(out).expect("digits")
}

fn levels(levels: &[(u64, u64)], numbers: bool) -> String {
    let q = if numbers { "" } else { "\"" };
    let list: Vec<String> =
        levels.iter().map(|&(p, s)| format!(r#"{{"price":{q}{}{q},"size":{q}{}{q}}}"#, text(p), text(s))).collect();
    list.join(",")
}

fuzz_target!(|input: Input| {
    let json = format!(
        r#"{{"market":"m","asset_id":"1","timestamp":"1","hash":"","bids":[{}],"asks":[{}]}}"#,
        levels(&input.bids, input.numbers),
        levels(&input.asks, input.numbers)
    );
    // Every value fixed::format writes is one the parser reads back.
    let mut book = OrderBook::from_bytes(json.as_bytes()).expect("a generated book parses");
    for op in input.ops.iter().take(64) {
        match *op {
            Op::Change { buy, price, size } => {
                let side = if buy { Side::Buy } else { Side::Sell };
                book.apply_price_change(side, &text(price), &text(size)).expect("decimal text");
            }
            Op::Timestamp(t) => book.set_timestamp(&t.to_string()).expect("digits"),
            Op::Query(amount) => exercise(&mut book, &[amount]),
        }
        let max_bid = book.bids.prices().iter().max().copied();
        let min_ask = book.asks.prices().iter().min().copied();
        assert_eq!(book.best_bid().map(|l| l.price), max_bid);
        assert_eq!(book.best_ask().map(|l| l.price), min_ask);
    }
    exercise(&mut book, &[]);
});
