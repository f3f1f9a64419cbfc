//! The streaming channels over real WebSockets: book dumps, live changes checked by the test's own model of a
//! book (parse, apply, re-serialize with serde_json, SHA-1), subscriptions, PING/PONG, the user channel, stream
//! faults, reset; the real shapes (dumps without the market fields, same-timestamp bursts around trades, trades
//! announced late or never, both tokens in one frame) and the exact ones that the admin switch brings back.

mod common;

use std::collections::HashSet;
use std::time::{Duration, Instant};

use common::*;
use futures_util::{SinkExt, StreamExt};
use serde::Serialize;
use serde_json::{json, Value};
use sha1::{Digest, Sha1};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// An emulator whose books move only on admin ticks.
async fn still() -> Running {
    start_with(Config { limits: false, stream_rate: 0.0, ..Config::for_tests() }).await
}

async fn connect(base: &str, path: &str) -> Ws {
    let mut request = format!("{}{path}", base.replace("http://", "ws://")).into_client_request().unwrap();
    // As a browser would.
    request.headers_mut().insert("Origin", "http://localhost:5173".parse().unwrap());
    let (ws, response) = tokio_tungstenite::connect_async(request).await.expect("WebSocket handshake");
    assert_eq!(response.status(), 101);
    ws
}

async fn say(ws: &mut Ws, text: &str) {
    ws.send(Message::Text(text.into())).await.expect("send");
}

#[derive(Debug)]
enum Got {
    Text(String),
    Closed(Option<CloseFrame>),
    /// The connection ended without a close frame.
    Ended(String),
    Timeout,
}

async fn recv(ws: &mut Ws, ms: u64) -> Got {
    loop {
        match tokio::time::timeout(Duration::from_millis(ms), ws.next()).await {
            Err(_) => return Got::Timeout,
            Ok(None) => return Got::Ended("end of stream".into()),
            Ok(Some(Err(e))) => return Got::Ended(e.to_string()),
            Ok(Some(Ok(Message::Text(t)))) => return Got::Text(t.as_str().to_owned()),
            Ok(Some(Ok(Message::Close(frame)))) => return Got::Closed(frame),
            Ok(Some(Ok(_))) => continue,
        }
    }
}

async fn text(ws: &mut Ws) -> String {
    match recv(ws, 5_000).await {
        Got::Text(t) => t,
        other => panic!("expected a text frame, got {other:?}"),
    }
}

/// The next frame's events (an object alone or an array of them).
async fn events(ws: &mut Ws) -> (Vec<Value>, bool) {
    let t = text(ws).await;
    match serde_json::from_str::<Value>(&t).unwrap_or_else(|e| panic!("frame is not JSON ({e}): {t}")) {
        Value::Array(items) => (items, true),
        v => (vec![v], false),
    }
}

/// PING is answered PONG, and nothing was queued before it.
async fn pong_next(ws: &mut Ws) {
    say(ws, "PING").await;
    assert_eq!(text(ws).await, "PONG");
}

async fn tick(base: &str, token: &str, count: u64) -> Value {
    post(base, "/__admin/stream/tick", &json!({ "asset_id": token, "count": count })).await.assert_ok()
}

/// The old shapes: one hash per entry, a trade's event before its entry, `book` events with their market fields.
async fn exact(base: &str) {
    let r = post(base, "/__admin/stream", &json!({ "shapes": "exact" })).await.assert_ok();
    assert_eq!(r["shapes"], "exact");
}

async fn stream_fault(base: &str, rule: Value) {
    post(base, "/__admin/stream/faults", &rule).await.assert_ok();
}

fn subscription(assets: &[&str], dump: bool) -> String {
    json!({ "type": "market", "assets_ids": assets, "initial_dump": dump, "custom_feature_enabled": true }).to_string()
}

async fn book_text(base: &str, token: &str) -> String {
    let r = get(base, &format!("/book?token_id={token}")).await;
    r.assert_ok();
    r.text
}

/// A generated token with a randomly shaped book (the fourth CLOB market's first outcome).
async fn generated_token(base: &str) -> String {
    clob_markets(base).await[3]["tokens"][0]["token_id"].as_str().unwrap().to_owned()
}

// ---- the test's own model of a book ----

fn micros(text: &str) -> u64 {
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    assert!(frac.len() <= 6, "{text}");
    int.parse::<u64>().unwrap() * 1_000_000 + format!("{frac:0<6}").parse::<u64>().unwrap()
}

#[derive(Clone, Debug)]
struct Model {
    market: String,
    asset_id: String,
    timestamp: String,
    bids: Vec<(String, String)>,
    asks: Vec<(String, String)>,
    min_order_size: String,
    tick_size: String,
    neg_risk: bool,
    last_trade_price: String,
}

fn levels(v: &Value) -> Vec<(String, String)> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|l| (l["price"].as_str().unwrap().to_owned(), l["size"].as_str().unwrap().to_owned()))
        .collect()
}

impl Model {
    /// From GET /book's answer.
    fn parse(text: &str) -> Self {
        let v: Value = serde_json::from_str(text).unwrap();
        let s = |k: &str| v[k].as_str().unwrap().to_owned();
        Self {
            market: s("market"),
            asset_id: s("asset_id"),
            timestamp: s("timestamp"),
            bids: levels(&v["bids"]),
            asks: levels(&v["asks"]),
            min_order_size: s("min_order_size"),
            tick_size: s("tick_size"),
            neg_risk: v["neg_risk"].as_bool().unwrap(),
            last_trade_price: s("last_trade_price"),
        }
    }

    /// The compact summary, serialized by serde_json in the service's field order.
    fn json(&self, hash: &str) -> String {
        #[derive(Serialize)]
        struct Level<'a> {
            price: &'a str,
            size: &'a str,
        }
        #[derive(Serialize)]
        struct Summary<'a> {
            market: &'a str,
            asset_id: &'a str,
            timestamp: &'a str,
            hash: &'a str,
            bids: Vec<Level<'a>>,
            asks: Vec<Level<'a>>,
            min_order_size: &'a str,
            tick_size: &'a str,
            neg_risk: bool,
            last_trade_price: &'a str,
        }
        fn side(levels: &[(String, String)]) -> Vec<Level<'_>> {
            levels.iter().map(|(price, size)| Level { price, size }).collect()
        }
        serde_json::to_string(&Summary {
            market: &self.market,
            asset_id: &self.asset_id,
            timestamp: &self.timestamp,
            hash,
            bids: side(&self.bids),
            asks: side(&self.asks),
            min_order_size: &self.min_order_size,
            tick_size: &self.tick_size,
            neg_risk: self.neg_risk,
            last_trade_price: &self.last_trade_price,
        })
        .unwrap()
    }

    fn hash(&self) -> String {
        Sha1::digest(self.json("").as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
    }

    /// What GET /book should answer.
    fn served(&self) -> String {
        self.json(&self.hash())
    }

    fn best(&self) -> (String, String) {
        let last = |l: &[(String, String)]| l.last().map(|x| x.0.clone()).unwrap_or_default();
        (last(&self.bids), last(&self.asks))
    }

    /// One price-change entry: the level's new total size ("0" removes it).
    fn apply(&mut self, side: &str, price: &str, size: &str) -> &'static str {
        let bids = side == "BUY";
        let levels = if bids { &mut self.bids } else { &mut self.asks };
        let p = micros(price);
        let at = levels.iter().position(|l| micros(&l.0) == p);
        let removed = micros(size) == 0;
        match (at, removed) {
            (Some(i), true) => {
                levels.remove(i);
                "removed"
            }
            (Some(i), false) => {
                levels[i].1 = size.to_owned();
                "resized"
            }
            (None, true) => panic!("removal of a level that is not there: {side} {price}"),
            (None, false) => {
                // Bids ascending, asks descending: best last.
                let i = levels
                    .iter()
                    .position(|l| if bids { micros(&l.0) > p } else { micros(&l.0) < p })
                    .unwrap_or(levels.len());
                levels.insert(i, (price.to_owned(), size.to_owned()));
                "added"
            }
        }
    }

    /// A `book` event's state: the fields it leaves out keep their last known values.
    fn take_book(&mut self, e: &Value) {
        self.timestamp = e["timestamp"].as_str().unwrap().to_owned();
        self.bids = levels(&e["bids"]);
        self.asks = levels(&e["asks"]);
        for (k, field) in [
            ("tick_size", &mut self.tick_size),
            ("last_trade_price", &mut self.last_trade_price),
            ("min_order_size", &mut self.min_order_size),
        ] {
            if let Some(v) = e.get(k) {
                *field = v.as_str().unwrap().to_owned();
            }
        }
        if let Some(v) = e.get("neg_risk") {
            self.neg_risk = v.as_bool().unwrap();
        }
    }

    /// The book is sound: sorted, on the tick grid, inside (0, 1), not crossed.
    fn check(&self) {
        let tick = micros(&self.tick_size);
        let bids: Vec<u64> = self.bids.iter().map(|l| micros(&l.0)).collect();
        let asks: Vec<u64> = self.asks.iter().map(|l| micros(&l.0)).collect();
        assert!(bids.windows(2).all(|w| w[0] < w[1]), "bids ascending");
        assert!(asks.windows(2).all(|w| w[0] > w[1]), "asks descending");
        assert!(bids.iter().chain(&asks).all(|p| p % tick == 0 && *p > 0 && *p < 1_000_000), "levels on the grid");
        if let (Some(b), Some(a)) = (bids.last(), asks.last()) {
            assert!(b < a, "crossed book {b} {a}");
        }
        assert!(self.bids.iter().chain(&self.asks).all(|l| micros(&l.1) > 0));
    }
}

/// What the client saw.
#[derive(Default, Debug)]
struct Seen {
    frames: usize,
    arrays: usize,
    entries: usize,
    mismatches: usize,
    added: usize,
    removed: usize,
    resized: usize,
    trades: usize,
    ticks: usize,
    best_bid_ask: usize,
    books: usize,
}

/// Applies every event of a frame to the model; each entry's hash is checked after it is applied.
fn apply_frame(model: &mut Model, events: &[Value], array: bool, seen: &mut Seen, last_ts: &mut u64) {
    seen.frames += 1;
    seen.arrays += usize::from(array);
    for e in events {
        let ts = e["timestamp"].as_str().unwrap_or_else(|| panic!("timestamp as a string: {e}"));
        assert!(ts.bytes().all(|b| b.is_ascii_digit()) && ts.len() >= 13, "{ts}");
        match e["event_type"].as_str().unwrap() {
            "price_change" => {
                let t: u64 = ts.parse().unwrap();
                assert!(t > *last_ts, "timestamps increase: {t} after {last_ts}");
                *last_ts = t;
                assert_eq!(e["market"], model.market.as_str());
                for c in e["price_changes"].as_array().unwrap() {
                    assert_eq!(c["asset_id"], model.asset_id.as_str());
                    let kind = model.apply(
                        c["side"].as_str().unwrap(),
                        c["price"].as_str().unwrap(),
                        c["size"].as_str().unwrap(),
                    );
                    match kind {
                        "added" => seen.added += 1,
                        "removed" => seen.removed += 1,
                        _ => seen.resized += 1,
                    }
                    model.timestamp = ts.to_owned();
                    seen.entries += 1;
                    if c["hash"].as_str().unwrap() != model.hash() {
                        seen.mismatches += 1;
                    }
                    let (bid, ask) = model.best();
                    assert_eq!(
                        (c["best_bid"].as_str().unwrap(), c["best_ask"].as_str().unwrap()),
                        (bid.as_str(), ask.as_str())
                    );
                }
            }
            "last_trade_price" => {
                assert_eq!(e["asset_id"], model.asset_id.as_str());
                let price = e["price"].as_str().unwrap();
                // Taken at the best level of the other side.
                let (bid, ask) = model.best();
                match e["side"].as_str().unwrap() {
                    "BUY" => assert_eq!(price, ask),
                    "SELL" => assert_eq!(price, bid),
                    other => panic!("side {other}"),
                }
                for k in ["size", "fee_rate_bps", "transaction_hash", "market"] {
                    assert!(e[k].is_string(), "{k} in {e}");
                }
                model.last_trade_price = price.to_owned();
                seen.trades += 1;
            }
            "tick_size_change" => {
                assert_eq!(e["old_tick_size"], model.tick_size.as_str());
                let new = e["new_tick_size"].as_str().unwrap();
                assert!(micros(new) < micros(&model.tick_size));
                model.tick_size = new.to_owned();
                seen.ticks += 1;
            }
            "best_bid_ask" => {
                let (bid, ask) = model.best();
                assert_eq!(
                    (e["best_bid"].as_str().unwrap(), e["best_ask"].as_str().unwrap()),
                    (bid.as_str(), ask.as_str())
                );
                assert!(e["spread"].is_string());
                seen.best_bid_ask += 1;
            }
            "book" => {
                model.take_book(e);
                assert_eq!(e["hash"].as_str().unwrap(), model.hash());
                seen.books += 1;
            }
            other => panic!("unexpected event {other}: {e}"),
        }
    }
}

// ---- tests ----

/// The keys of an event, sorted.
fn keys(event: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = event.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    keys
}

#[tokio::test]
async fn the_initial_dump_is_the_book_of_get_book() {
    let emu = still().await;
    let b = &emu.url;
    let ten = special_token(b, "ten_levels").await;
    let generated = generated_token(b).await;
    let tokens = [REAL_BOOK_2, ten.as_str(), generated.as_str()];
    // The real shapes (the default): the levels only, and the hash of the whole summary.
    let mut ws = connect(b, "/ws/market").await;
    say(&mut ws, &subscription(&[REAL_BOOK_2, &ten, "123", &generated], true)).await;
    let (dump, array) = events(&mut ws).await;
    assert!(array, "several books come as one array frame");
    assert_eq!(dump.len(), 3, "the unknown token is ignored");
    for (event, token) in dump.iter().zip(tokens) {
        let book: Value = serde_json::from_str(&book_text(b, token).await).unwrap();
        assert_eq!(keys(event), ["asks", "asset_id", "bids", "event_type", "hash", "market", "timestamp"], "{event}");
        assert_eq!(event["event_type"], "book");
        for k in ["market", "asset_id", "timestamp", "hash", "bids", "asks"] {
            assert_eq!(event[k], book[k], "{k} of {token}");
        }
        // The dump's levels with the fields it leaves out at their last known values (GET /book's), serialized
        // here, give the dump's hash.
        let mut model = Model::parse(&book_text(b, token).await);
        model.bids.clear();
        model.asks.clear();
        model.take_book(event);
        assert_eq!(model.hash(), event["hash"].as_str().unwrap(), "{token}");
        assert_eq!(model.served(), book_text(b, token).await);
    }
    pong_next(&mut ws).await;
    // The exact shapes: with tick_size and last_trade_price.
    exact(b).await;
    let mut ws = connect(b, "/ws/market").await;
    say(&mut ws, &subscription(&[REAL_BOOK_2, &ten, "123", &generated], true)).await;
    let (dump, _) = events(&mut ws).await;
    assert_eq!(dump.len(), 3);
    for (event, token) in dump.iter().zip(tokens) {
        let book: Value = serde_json::from_str(&book_text(b, token).await).unwrap();
        let expected =
            ["asks", "asset_id", "bids", "event_type", "hash", "last_trade_price", "market", "tick_size", "timestamp"];
        assert_eq!(keys(event), expected);
        for k in ["market", "asset_id", "timestamp", "hash", "bids", "asks", "tick_size", "last_trade_price"] {
            assert_eq!(event[k], book[k], "{k} of {token}");
        }
        let model = Model::parse(&book_text(b, token).await);
        assert_eq!(model.hash(), event["hash"].as_str().unwrap());
    }
    pong_next(&mut ws).await;
    // One asset: an object; initial_dump false: nothing.
    let mut one = connect(b, "/ws/market").await;
    say(&mut one, &subscription(&[&ten], true)).await;
    let (dump, array) = events(&mut one).await;
    assert!(!array && dump[0]["asset_id"] == ten.as_str());
    let mut quiet = connect(b, "/ws/market").await;
    say(&mut quiet, &subscription(&[&ten], false)).await;
    pong_next(&mut quiet).await;
}

#[tokio::test]
async fn a_thousand_ticks_keep_a_client_model_equal_to_the_service() {
    let emu = still().await;
    let b = &emu.url;
    exact(b).await;
    let generated = generated_token(b).await;
    for (token, count) in [(generated.as_str(), 1000u64), (REAL_BOOK_2, 300)] {
        let mut ws = connect(b, "/ws/market").await;
        let mut model = Model::parse(&book_text(b, token).await);
        say(&mut ws, &subscription(&[token], true)).await;
        let (dump, _) = events(&mut ws).await;
        assert_eq!(dump[0]["hash"].as_str().unwrap(), model.hash());
        let answer = tick(b, token, count).await;
        assert_eq!(answer["changes"], count);
        let mut seen = Seen::default();
        let mut last_ts = model.timestamp.parse().unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        while model.hash() != answer["hash"].as_str().unwrap()
            || model.timestamp != answer["timestamp"].as_str().unwrap()
        {
            assert!(Instant::now() < deadline, "the stream did not reach the tick's hash: {seen:?}");
            let (events, array) = events(&mut ws).await;
            apply_frame(&mut model, &events, array, &mut seen, &mut last_ts);
        }
        model.check();
        assert_eq!(seen.mismatches, 0, "{seen:?}");
        assert_eq!(seen.frames as u64, answer["frames"].as_u64().unwrap(), "one message per frame");
        assert!(seen.frames as u64 >= count / 5 && seen.frames as u64 <= count, "{seen:?}");
        assert!(seen.entries as u64 >= count * 8 / 10, "{seen:?}");
        assert!(
            seen.added > 0 && seen.removed > 0 && seen.resized > 0 && seen.trades > 0 && seen.best_bid_ask > 0,
            "{seen:?}"
        );
        assert!(seen.arrays > 0 && seen.arrays < seen.frames, "{seen:?}");
        if token != REAL_BOOK_2 {
            assert!(seen.ticks > 0, "{seen:?}");
        }
        // The client's copy is byte for byte the emulator's book, and the other reads agree with it.
        assert_eq!(book_text(b, token).await, model.served());
        let books = post(b, "/books", &json!([{ "token_id": token }])).await.assert_ok();
        assert_eq!(books[0].to_string().len(), model.served().len());
        let (bid, ask) = model.best();
        if !ask.is_empty() {
            assert_eq!(get(b, &format!("/price?token_id={token}&side=BUY")).await.assert_ok()["price"], ask.as_str());
        }
        if !bid.is_empty() {
            assert_eq!(get(b, &format!("/price?token_id={token}&side=SELL")).await.assert_ok()["price"], bid.as_str());
        }
        pong_next(&mut ws).await;
    }
}

#[tokio::test]
async fn subscribe_and_unsubscribe_start_and_stop_events() {
    let emu = still().await;
    let b = &emu.url;
    // One message per tick.
    exact(b).await;
    let a = generated_token(b).await;
    let other = special_token(b, "ten_levels").await;
    let mut ws = connect(b, "/ws/market").await;
    say(&mut ws, &subscription(&[&a], false)).await;
    say(&mut ws, &json!({ "operation": "subscribe", "assets_ids": [other] }).to_string()).await;
    let (dump, _) = events(&mut ws).await;
    assert_eq!(
        (dump.len(), dump[0]["event_type"].as_str(), dump[0]["asset_id"].as_str()),
        (1, Some("book"), Some(other.as_str()))
    );
    tick(b, &a, 1).await;
    let (got, _) = events(&mut ws).await;
    assert!(!got.is_empty(), "the tick's frame has events");
    assert!(
        got.iter().all(|e| e["asset_id"] == a.as_str() || e["price_changes"][0]["asset_id"] == a.as_str()),
        "{got:?}"
    );
    let listed = get(b, "/__admin/stream").await.assert_ok();
    let socket = &listed["sockets"].as_array().unwrap()[0];
    assert_eq!(socket["channel"], "market");
    assert_eq!(socket["assets_ids"].as_array().unwrap().len(), 2);
    assert!(socket["sent"].as_u64().unwrap() >= 2);
    assert_eq!(listed["live_books"], json!([a]));
    say(&mut ws, &json!({ "operation": "unsubscribe", "assets_ids": [a] }).to_string()).await;
    pong_next(&mut ws).await;
    // Frames are in order: had a change of `a` been sent, it would come before the change of `other`.
    tick(b, &a, 3).await;
    tick(b, &other, 1).await;
    let (got, _) = events(&mut ws).await;
    let text = serde_json::to_string(&got).unwrap();
    assert!(text.contains(&other) && !text.contains(&a), "{text}");
    pong_next(&mut ws).await;
    // Unknown ids are answered with a bare `[]`, as the service answers a subscription of closed tokens;
    // unknown operations are ignored; the socket stays open.
    say(&mut ws, &json!({ "operation": "subscribe", "assets_ids": ["999"] }).to_string()).await;
    assert_eq!(self::text(&mut ws).await, "[]");
    say(&mut ws, &json!({ "operation": "shuffle", "assets_ids": [a] }).to_string()).await;
    pong_next(&mut ws).await;
}

#[tokio::test]
async fn the_simulator_moves_subscribed_books_consistently() {
    let emu = start_with(Config { limits: false, stream_rate: 100.0, ..Config::for_tests() }).await;
    let b = &emu.url;
    exact(b).await;
    let token = generated_token(b).await;
    let mut ws = connect(b, "/ws/market").await;
    say(&mut ws, &subscription(&[&token], true)).await;
    let (dump, _) = events(&mut ws).await;
    let mut model = Model::parse(&book_text(b, &token).await);
    // The snapshot may be newer than the dump: start from the dump's state and the snapshot's market fields.
    let mut seen = Seen::default();
    let mut last_ts = 0;
    apply_frame(&mut model, &dump, false, &mut seen, &mut last_ts);
    last_ts = model.timestamp.parse().unwrap();
    let until = Instant::now() + Duration::from_millis(700);
    while Instant::now() < until {
        let (events, array) = events(&mut ws).await;
        apply_frame(&mut model, &events, array, &mut seen, &mut last_ts);
    }
    assert!(seen.entries >= 20, "{seen:?}");
    assert_eq!(seen.mismatches, 0, "{seen:?}");
    // Nobody else is subscribed: once unsubscribed, the book stops, and the stream ends at GET /book's state.
    say(&mut ws, &json!({ "operation": "unsubscribe", "assets_ids": [token] }).to_string()).await;
    tokio::time::sleep(Duration::from_millis(250)).await;
    let served = book_text(b, &token).await;
    let deadline = Instant::now() + Duration::from_secs(5);
    while model.served() != served {
        assert!(Instant::now() < deadline, "the client's copy never reached GET /book");
        let (events, array) = events(&mut ws).await;
        apply_frame(&mut model, &events, array, &mut seen, &mut last_ts);
    }
    assert_eq!(seen.mismatches, 0);
    model.check();
    let listed = get(b, "/__admin/stream").await.assert_ok();
    assert_eq!(listed["stream_rate"], 100.0);
    assert_eq!(listed["live_books"], json!([token]));
}

#[tokio::test]
async fn ping_is_answered_pong_and_garbage_is_ignored() {
    let emu = still().await;
    let b = &emu.url;
    let mut ws = connect(b, "/ws/market").await;
    pong_next(&mut ws).await;
    for garbage in ["hello", "{\"type\":", "[1,2]", "{}", "ping"] {
        say(&mut ws, garbage).await;
    }
    pong_next(&mut ws).await;
    let mut user = connect(b, "/ws/user").await;
    pong_next(&mut user).await;
    say(&mut user, "not json").await;
    pong_next(&mut user).await;
    // Not an upgrade: a JSON error.
    let r = get(b, "/ws/market").await;
    assert_eq!(r.status, 400);
    assert!(r.json()["error"].as_str().unwrap().contains("WebSocket"));
}

#[tokio::test]
async fn stopping_the_emulator_closes_the_sockets() {
    let emu = still().await;
    let mut ws = connect(&emu.url, "/ws/market").await;
    pong_next(&mut ws).await;
    let started = Instant::now();
    emu.stop().await;
    assert!(started.elapsed() < Duration::from_secs(3), "{:?}", started.elapsed());
    match recv(&mut ws, 2_000).await {
        Got::Closed(Some(frame)) => assert_eq!(u16::from(frame.code), 1001),
        other => panic!("expected close 1001, got {other:?}"),
    }
}

fn user_subscription(account: &Account, markets: &[&str]) -> String {
    json!({ "type": "user", "markets": markets,
            "auth": { "apiKey": account.api_key, "secret": account.secret, "passphrase": account.passphrase } })
    .to_string()
}

async fn expect_unauthorized(ws: &mut Ws) {
    match recv(ws, 5_000).await {
        Got::Closed(Some(frame)) => assert_eq!(u16::from(frame.code), 4001),
        other => panic!("expected close 4001, got {other:?}"),
    }
}

#[tokio::test]
async fn the_user_channel_checks_auth_and_reports_cancellations() {
    let emu = still().await;
    let (b, demo) = (&emu.url, &emu.demo);
    // Wrong secret, another account's passphrase, no auth at all: closed with 4001.
    let mut wrong = demo.clone();
    wrong.secret = emu.accounts[1].secret.clone();
    let mut ws = connect(b, "/ws/user").await;
    say(&mut ws, &user_subscription(&wrong, &[])).await;
    expect_unauthorized(&mut ws).await;
    let mut ws = connect(b, "/ws/user").await;
    say(&mut ws, &json!({ "type": "user", "markets": [] }).to_string()).await;
    expect_unauthorized(&mut ws).await;

    let orders = auth_get(b, "/data/orders", demo).await.assert_ok();
    let first = &orders["data"][0];
    let market = first["market"].as_str().unwrap().to_owned();
    let order_id = first["id"].as_str().unwrap().to_owned();
    let mut one = connect(b, "/ws/user").await;
    say(&mut one, &user_subscription(demo, &[&market])).await;
    let mut all = connect(b, "/ws/user").await;
    say(&mut all, &user_subscription(demo, &[])).await;
    let mut elsewhere = connect(b, "/ws/user").await;
    say(
        &mut elsewhere,
        &user_subscription(demo, &["0x0000000000000000000000000000000000000000000000000000000000000001"]),
    )
    .await;
    let mut other = connect(b, "/ws/user").await;
    say(&mut other, &user_subscription(&emu.accounts[1], &[])).await;
    for ws in [&mut one, &mut all, &mut elsewhere, &mut other] {
        pong_next(ws).await;
    }
    let listed = get(b, "/__admin/stream").await.assert_ok();
    let sockets = listed["sockets"].as_array().unwrap();
    assert_eq!(sockets.iter().filter(|s| s["channel"] == "user" && s["authenticated"] == true).count(), 4);

    let r = auth_delete(b, "/order", &json!({ "orderId": order_id }), demo).await.assert_ok();
    assert_eq!(r["canceled"], json!([order_id]));
    for ws in [&mut one, &mut all] {
        let (events, _) = events(ws).await;
        assert_eq!(events.len(), 1);
        let e = &events[0];
        assert_eq!(e["event_type"], "order");
        assert_eq!(e["type"], "CANCELLATION");
        assert_eq!(e["status"], "CANCELED");
        assert_eq!(e["id"], order_id.as_str());
        assert_eq!(e["owner"], demo.api_key.as_str());
        assert_eq!(e["market"], market.as_str());
        assert_eq!(e["asset_id"], first["assetId"]);
        assert_eq!(e["side"], first["side"]);
        assert_eq!(e["price"], first["price"]);
        assert_eq!(e["original_size"], first["originalSize"]);
        assert_eq!(e["size_matched"], first["sizeMatched"]);
        assert_eq!(e["outcome"], first["outcome"]);
        assert!(e["associate_trades"].is_array() && e["timestamp"].is_string());
    }
    pong_next(&mut elsewhere).await;
    pong_next(&mut other).await;

    // Cancelling the rest of the market: one event per cancelled order.
    let r = auth_delete(b, "/cancel-market-orders", &json!({ "market": market }), demo).await.assert_ok();
    let canceled: HashSet<String> =
        r["canceled"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_owned()).collect();
    assert!(!canceled.is_empty(), "the first orders are clustered on a few markets");
    for ws in [&mut one, &mut all] {
        let (events, array) = events(ws).await;
        assert_eq!(array, canceled.len() > 1);
        let ids: HashSet<String> = events.iter().map(|e| e["id"].as_str().unwrap().to_owned()).collect();
        assert_eq!(ids, canceled);
        assert!(events.iter().all(|e| e["type"] == "CANCELLATION" && e["market"] == market.as_str()));
    }
    pong_next(&mut elsewhere).await;
    pong_next(&mut other).await;
}

#[tokio::test]
async fn stream_faults_behave_as_documented() {
    let emu = still().await;
    let b = &emu.url;
    exact(b).await;
    let token = generated_token(b).await;
    let open = |b: String, token: String| async move {
        let mut ws = connect(&b, "/ws/market").await;
        say(&mut ws, &subscription(&[&token], true)).await;
        let (_, _) = events(&mut ws).await;
        let model = Model::parse(&book_text(&b, &token).await);
        (ws, model)
    };
    let mut seen = Seen::default();

    // wrong_hash: the next entry's hash is wrong, the book itself is right, later entries match again.
    let (mut ws, mut model) = open(b.clone(), token.clone()).await;
    let mut ts = 0;
    stream_fault(b, json!({ "path": "/ws/market", "faults": ["wrong_hash"] })).await;
    while seen.entries == 0 {
        tick(b, &token, 1).await;
        let (events, array) = events(&mut ws).await;
        apply_frame(&mut model, &events, array, &mut seen, &mut ts);
    }
    assert_eq!(seen.mismatches, 1);
    assert_eq!(book_text(b, &token).await, model.served());
    tick(b, &token, 5).await;
    while model.served() != book_text(b, &token).await {
        let (events, array) = events(&mut ws).await;
        apply_frame(&mut model, &events, array, &mut seen, &mut ts);
    }
    assert_eq!(seen.mismatches, 1);

    // lose: the change is applied but not sent, so the next entry's hash does not match the client's copy.
    stream_fault(b, json!({ "path": "/ws/market", "faults": ["lose"] })).await;
    tick(b, &token, 1).await;
    pong_next(&mut ws).await;
    let entries = seen.entries;
    while seen.entries == entries {
        tick(b, &token, 1).await;
        let (events, array) = events(&mut ws).await;
        apply_frame(&mut model, &events, array, &mut seen, &mut ts);
    }
    assert_eq!(seen.mismatches, 2, "{seen:?}");
    assert_ne!(book_text(b, &token).await, model.served());

    // malformed: one frame that is not JSON; the socket goes on.
    stream_fault(b, json!({ "path": "/ws/market", "faults": [{ "kind": "malformed" }] })).await;
    tick(b, &token, 1).await;
    let bad = text(&mut ws).await;
    assert!(serde_json::from_str::<Value>(&bad).is_err(), "{bad}");
    pong_next(&mut ws).await;

    // Counted: two lost frames, then the third arrives.
    stream_fault(b, json!({ "path": "/ws/market", "faults": ["lose", "lose"] })).await;
    tick(b, &token, 1).await;
    tick(b, &token, 1).await;
    pong_next(&mut ws).await;
    tick(b, &token, 1).await;
    let _ = events(&mut ws).await;
    let rules = get(b, "/__admin/stream/faults").await.assert_ok();
    let last = rules["rules"].as_array().unwrap().last().unwrap().clone();
    assert_eq!((last["injected"].as_u64(), last["remaining"].as_u64()), (Some(2), Some(0)));

    // stall: PING is still answered, nothing else until the faults are cleared; then the held frame comes.
    stream_fault(b, json!({ "path": "/ws/market", "faults": ["stall"] })).await;
    tick(b, &token, 1).await;
    pong_next(&mut ws).await;
    assert!(matches!(recv(&mut ws, 200).await, Got::Timeout));
    pong_next(&mut ws).await;
    send(client().delete(format!("{b}/__admin/stream/faults"))).await.assert_ok();
    let _ = events(&mut ws).await;
    // stall for ms: the frame comes after that long.
    stream_fault(b, json!({ "path": "/ws/market", "faults": [{ "kind": "stall", "ms": 300 }] })).await;
    let started = Instant::now();
    tick(b, &token, 1).await;
    pong_next(&mut ws).await;
    let _ = events(&mut ws).await;
    assert!(started.elapsed() >= Duration::from_millis(250), "{:?}", started.elapsed());

    // drop: the connection ends without a close frame.
    stream_fault(b, json!({ "path": "/ws/market", "faults": ["drop"] })).await;
    tick(b, &token, 1).await;
    match recv(&mut ws, 5_000).await {
        Got::Ended(reason) => assert!(!reason.is_empty()),
        other => panic!("expected the connection to end without a close frame, got {other:?}"),
    }
    let listed = get(b, "/__admin/stream").await.assert_ok();
    assert!(listed["sockets"].as_array().unwrap().is_empty(), "{listed}");

    // Faults of the user channel: a cancellation's event is lost.
    stream_fault(b, json!({ "path": "/ws/user", "faults": ["lose"] })).await;
    let mut user = connect(b, "/ws/user").await;
    say(&mut user, &user_subscription(&emu.demo, &[])).await;
    let order = auth_get(b, "/data/orders", &emu.demo).await.assert_ok()["data"][0]["id"].as_str().unwrap().to_owned();
    auth_delete(b, "/order", &json!({ "orderId": order }), &emu.demo).await.assert_ok();
    pong_next(&mut user).await;

    // REST faults apply to the upgrade request itself.
    post(b, "/__admin/faults", &json!({ "path": "/ws/market", "faults": [{ "kind": "status", "status": 503 }] }))
        .await
        .assert_ok();
    let url = format!("{}/ws/market", b.replace("http://", "ws://"));
    match tokio_tungstenite::connect_async(url.as_str()).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => assert_eq!(response.status(), 503),
        other => panic!("expected a 503 handshake, got {:?}", other.map(|r| r.1.status())),
    }
    // Bad rules are refused.
    let r = post(b, "/__admin/stream/faults", &json!({ "path": "/ws/market", "faults": ["explode"] })).await;
    assert_eq!(r.status, 400);
}

#[tokio::test]
async fn reset_restores_the_starting_books_and_tells_subscribers() {
    let emu = still().await;
    let b = &emu.url;
    exact(b).await;
    let token = generated_token(b).await;
    let original = book_text(b, &token).await;
    let start: Value = serde_json::from_str(&original).unwrap();
    let mut ws = connect(b, "/ws/market").await;
    say(&mut ws, &subscription(&[&token], false)).await;
    let moved = tick(b, &token, 50).await;
    assert_ne!(book_text(b, &token).await, original);
    assert_ne!(moved["hash"], start["hash"]);
    // A stall holds the next frame; the reset clears it.
    stream_fault(b, json!({ "path": "/ws/market", "faults": ["stall"] })).await;
    tick(b, &token, 1).await;
    post(b, "/__admin/reset", &json!({})).await.assert_ok();
    assert_eq!(book_text(b, &token).await, original);
    assert!(get(b, "/__admin/stream/faults").await.assert_ok()["rules"].as_array().unwrap().is_empty());
    // The socket gets the changes, the held frame, and then the starting book again.
    let mut frames = 0;
    let book = loop {
        let (events, _) = events(&mut ws).await;
        frames += 1;
        if let Some(book) = events.into_iter().find(|e| e["event_type"] == "book") {
            break book;
        }
        assert!(frames < 100);
    };
    assert_eq!(frames as u64, moved["frames"].as_u64().unwrap() + 2);
    // The reset also restores the real shapes: the book comes without its market fields.
    for k in ["hash", "timestamp", "bids", "asks"] {
        assert_eq!(book[k], start[k], "{k}");
    }
    assert!(book.get("tick_size").is_none() && book.get("last_trade_price").is_none(), "{book}");
    assert_eq!(get(b, "/__admin/stream").await.assert_ok()["shapes"], "real");
    exact(b).await;
    // The same seed draws the same changes again after a reset.
    let again = tick(b, &token, 50).await;
    assert_eq!(again["frames"], moved["frames"]);
}

// ---- the real shapes ----

/// What the emulator queued for the socket before a PING sent now: each message's events (and whether it was an
/// array), up to the PONG.
async fn until_pong(ws: &mut Ws) -> Vec<(Vec<Value>, bool)> {
    say(ws, "PING").await;
    let mut out = Vec::new();
    loop {
        let t = text(ws).await;
        if t == "PONG" {
            return out;
        }
        match serde_json::from_str::<Value>(&t).unwrap_or_else(|e| panic!("frame is not JSON ({e}): {t}")) {
            Value::Array(items) => out.push((items, true)),
            v => out.push((vec![v], false)),
        }
    }
}

#[tokio::test]
async fn a_trade_is_a_same_timestamp_burst_with_the_hash_after_it_and_is_announced_later_or_never() {
    let emu = still().await;
    let b = &emu.url;
    let token = generated_token(b).await;
    let mut ws = connect(b, "/ws/market").await;
    say(&mut ws, &subscription(&[&token], true)).await;
    let (dump, _) = events(&mut ws).await;
    let mut model = Model::parse(&book_text(b, &token).await);
    model.take_book(&dump[0]);
    assert_eq!(model.hash(), dump[0]["hash"].as_str().unwrap());
    let mut seen = Seen::default();
    let mut last_ts: u64 = model.timestamp.parse().unwrap();
    let (mut bursts, mut announced, mut silent, mut books, mut longest) = (0, 0, 0, 0, 0);
    for _ in 0..1_000 {
        if announced >= 2 && silent >= 1 && books >= 1 {
            break;
        }
        let answer = tick(b, &token, 1).await;
        let messages = until_pong(&mut ws).await;
        assert_eq!(messages.len() as u64, answer["frames"].as_u64().unwrap(), "{messages:?}");
        let served_text = book_text(b, &token).await;
        let served = Model::parse(&served_text);
        assert_eq!(served.served(), served_text, "GET /book's hash is the hash of its summary");
        let first_ts = &messages[0].0[0]["timestamp"];
        let lead = messages
            .iter()
            .take_while(|(events, _)| {
                events.len() == 1 && events[0]["event_type"] == "price_change" && &events[0]["timestamp"] == first_ts
            })
            .count();
        if lead < 2 {
            // Not a trade: one hash per entry, the book's right after it.
            for (events, array) in &messages {
                apply_frame(&mut model, events, *array, &mut seen, &mut last_ts);
            }
            assert_eq!(seen.mismatches, 0, "{messages:?}");
            assert_eq!(model.served(), served_text);
            continue;
        }
        // A trade: two or more price_change messages with one timestamp, every entry with the hash of the book
        // after the last of them (GET /book's now, whose last trade price is the trade's).
        bursts += 1;
        longest = longest.max(lead);
        assert_eq!(first_ts.as_str().unwrap(), served.timestamp);
        assert!(first_ts.as_str().unwrap().parse::<u64>().unwrap() > last_ts);
        for (events, _) in &messages[..lead] {
            for c in events[0]["price_changes"].as_array().unwrap() {
                assert_eq!(c["asset_id"], token.as_str());
                assert_eq!(c["hash"].as_str().unwrap(), served.hash(), "{messages:?}");
                model.apply(c["side"].as_str().unwrap(), c["price"].as_str().unwrap(), c["size"].as_str().unwrap());
            }
        }
        model.timestamp.clone_from(&served.timestamp);
        last_ts = served.timestamp.parse().unwrap();
        // The burst's levels are the service's; only the trade's price is not in it (unless the last trade had
        // the same).
        assert_eq!(model.hash() == served.hash(), model.last_trade_price == served.last_trade_price);
        model.last_trade_price.clone_from(&served.last_trade_price);
        assert_eq!(model.served(), served_text);
        model.check();
        // Then, in messages of their own: the trade's announcement (or none), a book without its market fields
        // (sometimes), the best prices.
        let rest: Vec<&Value> = messages[lead..].iter().flat_map(|(events, _)| events).collect();
        let kinds: Vec<&str> = rest.iter().map(|e| e["event_type"].as_str().unwrap()).collect();
        assert!(kinds.iter().all(|k| ["last_trade_price", "book", "best_bid_ask"].contains(k)), "{kinds:?}");
        match rest.iter().position(|e| e["event_type"] == "last_trade_price") {
            Some(i) => {
                assert_eq!(rest[i]["price"].as_str().unwrap(), served.last_trade_price);
                assert_eq!(rest[i]["timestamp"].as_str().unwrap(), served.timestamp);
                announced += 1;
            }
            None => silent += 1,
        }
        if let Some(book) = rest.iter().find(|e| e["event_type"] == "book") {
            assert_eq!(keys(book), ["asks", "asset_id", "bids", "event_type", "hash", "market", "timestamp"]);
            assert_eq!(book["hash"].as_str().unwrap(), served.hash());
            let mut copy = model.clone();
            copy.take_book(book);
            assert_eq!(copy.served(), served_text);
            books += 1;
        }
    }
    assert!(announced >= 2 && silent >= 1 && books >= 1, "{bursts} bursts: {announced} {silent} {books}");
    assert!(longest >= 2 && seen.entries > 0, "{seen:?}");
    pong_next(&mut ws).await;
}

#[tokio::test]
async fn both_tokens_of_a_market_come_in_one_frame() {
    let emu = start_with(Config { limits: false, stream_rate: 100.0, ..Config::for_tests() }).await;
    let b = &emu.url;
    let market = &clob_markets(b).await[3];
    let condition = market["condition_id"].as_str().unwrap();
    let tokens: Vec<&str> =
        market["tokens"].as_array().unwrap().iter().map(|t| t["token_id"].as_str().unwrap()).collect();
    assert_eq!(tokens.len(), 2);
    let mut ws = connect(b, "/ws/market").await;
    say(&mut ws, &subscription(&tokens, true)).await;
    let (dump, array) = events(&mut ws).await;
    assert!(array && dump.len() == 2);
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut changes = 0;
    loop {
        assert!(Instant::now() < deadline, "no frame held both tokens in {changes} price_change events");
        let (events, _) = events(&mut ws).await;
        let both = events.iter().filter(|e| e["event_type"] == "price_change").any(|e| {
            changes += 1;
            assert_eq!(e["market"], condition);
            let assets: HashSet<&str> =
                e["price_changes"].as_array().unwrap().iter().map(|c| c["asset_id"].as_str().unwrap()).collect();
            assert!(assets.iter().all(|a| tokens.contains(a)), "{e}");
            assets.len() == 2
        });
        if both {
            break;
        }
    }
}

#[tokio::test]
async fn the_admin_switch_chooses_the_shapes_until_a_reset() {
    let emu = still().await;
    let b = &emu.url;
    assert_eq!(get(b, "/__admin/stream").await.assert_ok()["shapes"], "real");
    exact(b).await;
    assert_eq!(get(b, "/__admin/stream").await.assert_ok()["shapes"], "exact");
    for bad in [json!({ "shapes": "round" }), json!({}), json!({ "shapes": "real", "more": 1 }), json!([])] {
        post(b, "/__admin/stream", &bad).await.assert_bad("shapes");
    }
    assert_eq!(get(b, "/__admin/stream").await.assert_ok()["shapes"], "exact");
    let r = post(b, "/__admin/stream", &json!({ "shapes": "real" })).await.assert_ok();
    assert_eq!(r["shapes"], "real");
    exact(b).await;
    post(b, "/__admin/reset", &json!({})).await.assert_ok();
    assert_eq!(get(b, "/__admin/stream").await.assert_ok()["shapes"], "real");
}
