use super::*;

/// A JSON text as the binding hands values in.
fn v(json: &str) -> Value {
    fn conv(j: &serde_json::Value) -> Value {
        match j {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => Value::Number(n.as_f64().unwrap()),
            serde_json::Value::String(s) => Value::Str(s.clone()),
            serde_json::Value::Array(a) => Value::Array(a.iter().map(conv).collect()),
            serde_json::Value::Object(o) => Value::Object(o.iter().map(|(k, v)| (k.clone(), conv(v))).collect()),
        }
    }
    conv(&serde_json::from_str(json).unwrap())
}

const ID: &str = "0xabc";

/// What the tracker tells at `now`, until it needs something else; the updates' `type` (and a trade's status).
fn told(t: &mut Tracker, now: f64) -> (Vec<String>, Need) {
    let mut out = Vec::new();
    loop {
        match t.need(now) {
            Need::Tell(json) => {
                let u: serde_json::Value = serde_json::from_str(&json).unwrap();
                out.push(match u["type"].as_str().unwrap() {
                    "trade" => format!("trade {} {}", u["tradeId"].as_str().unwrap(), u["status"].as_str().unwrap()),
                    "matched" => format!(
                        "matched {}/{}",
                        u["sizeMatched"].as_str().unwrap(),
                        u["originalSize"].as_str().unwrap()
                    ),
                    other => other.to_owned(),
                });
            }
            need => return (out, need),
        }
    }
}

fn trade_event(id: &str, status: &str, tx: Option<&str>) -> Value {
    let tx = tx.map_or("null".to_owned(), |t| format!("\"{t}\""));
    v(&format!(
        r#"{{"event_type":"trade","id":"{id}","taker_order_id":"{ID}","status":"{status}","transaction_hash":{tx},"maker_orders":[]}}"#
    ))
}

#[test]
fn a_taken_order_is_told_from_its_post_answer_to_each_trade_settled_once_each() {
    let mut t = Tracker::new(ID, false, 1_000.0, 0.0);
    t.observe(Source::Posted(&v(
        r#"{"success":true,"orderID":"0xabc","status":"matched","tradeIDs":["t1"],"transactionsHashes":[]}"#,
    )));
    t.observe(Source::Channel(true));
    let (updates, need) = told(&mut t, 0.0);
    assert_eq!(updates, ["placed"]);
    // Opening the channel catches up by reading the order first.
    assert_eq!(need, Need::ReadOrder);
    t.observe(Source::Order(Some(&v(r#"{"order":{"id":"0xabc","status":"MATCHED","originalSize":"10","sizeMatched":"10","order_type":"FAK","associateTrades":["t1"]}}"#))));
    assert_eq!(told(&mut t, 10.0), (vec!["matched 10/10".to_owned()], Need::ReadTrade("t1".into())));
    t.observe(Source::Trades(Some(&v(
        r#"{"data":[{"id":"t1","taker_order_id":"0xabc","status":"TRADE_STATUS_MATCHED","transaction_hash":""}]}"#,
    ))));
    assert_eq!(told(&mut t, 20.0).0, ["trade t1 MATCHED"]);
    // The channel says it again, then the next statuses (one twice): each told once.
    let mut all = Vec::new();
    for (status, tx) in
        [("MATCHED", None), ("MINED", Some("0x11")), ("MINED", Some("0x11")), ("CONFIRMED", Some("0x11"))]
    {
        t.observe(Source::Event(&trade_event("t1", status, tx)));
        let (updates, need) = told(&mut t, 30.0);
        all.extend(updates);
        if need == Need::Done {
            break;
        }
    }
    assert_eq!(all, ["trade t1 MINED", "trade t1 CONFIRMED", "settled"]);
    assert_eq!(t.need(40.0), Need::Done);
}

#[test]
fn through_a_dropped_channel_the_polls_catch_up_and_nothing_is_told_twice() {
    let mut t = Tracker::new(ID, false, 500.0, 0.0);
    t.observe(Source::Posted(&v(r#"{"orderID":"0xabc","status":"live"}"#)));
    t.observe(Source::Channel(true));
    assert_eq!(told(&mut t, 0.0), (vec!["placed".to_owned()], Need::ReadOrder));
    t.observe(Source::Order(Some(&v(
        r#"{"order":{"status":"LIVE","originalSize":"10","sizeMatched":"0","expiration":"0"}}"#,
    ))));
    assert_eq!(told(&mut t, 0.0).1, Need::Wait(OPEN_POLL_MS));
    // A fill on the channel.
    t.observe(Source::Event(&v(r#"{"event_type":"order","id":"0xabc","type":"UPDATE","original_size":"10","size_matched":"4","associate_trades":["t1"]}"#)));
    t.observe(Source::Event(&trade_event("t1", "MATCHED", None)));
    assert_eq!(told(&mut t, 100.0).0, ["matched 4/10", "trade t1 MATCHED"]);
    // The channel drops: the order is read every poll, and what happened meanwhile is told from the reads.
    t.observe(Source::Channel(false));
    assert_eq!(t.need(200.0), Need::Wait(500.0), "a poll away, not the open channel's long round");
    let mut t2 = t.clone();
    assert_eq!(t2.need(700.0), Need::ReadOrder);
    t2.observe(Source::Order(Some(&v(
        r#"{"order":{"status":"LIVE","originalSize":"10","sizeMatched":"7","associateTrades":["t1","t2"]}}"#,
    ))));
    assert_eq!(told(&mut t2, 700.0), (vec!["matched 7/10".to_owned()], Need::ReadTrade("t1".into())));
    t2.observe(Source::Trades(Some(&v(r#"{"data":[{"id":"t1","taker_order_id":"0xother","maker_orders":[{"order_id":"0xabc"}],"status":"MINED","transaction_hash":"0xaa"}]}"#))));
    assert_eq!(told(&mut t2, 700.0), (vec!["trade t1 MINED".to_owned()], Need::ReadTrade("t2".into())));
    t2.observe(Source::Trades(None));
    // Nothing new: the next round is a poll away.
    assert_eq!(told(&mut t2, 701.0), (vec![], Need::Wait(499.0)));
    // It reopens: one catch-up read at once; the events it missed come from the reads, the ones it sees again are
    // not told twice.
    t2.observe(Source::Channel(true));
    assert_eq!(told(&mut t2, 702.0).1, Need::ReadOrder);
    t2.observe(Source::Event(&v(r#"{"event_type":"trade","id":"t1","maker_orders":[{"order_id":"0xabc"}],"status":"MINED","transaction_hash":"0xaa"}"#)));
    t2.observe(Source::Event(&v(
        r#"{"event_type":"order","id":"0xabc","type":"CANCELLATION","original_size":"10","size_matched":"7"}"#,
    )));
    assert_eq!(told(&mut t2, 703.0).0, ["cancelled"]);
}

#[test]
fn never_opened_the_channel_it_polls_and_finishes_with_the_order() {
    let mut t = Tracker::new(ID, false, 250.0, 0.0);
    assert_eq!(told(&mut t, 0.0), (vec![], Need::ReadOrder), "an id alone: the order is read");
    t.observe(Source::Order(Some(&v(
        r#"{"order":{"status":"LIVE","originalSize":"5","sizeMatched":"0","expiration":"0"}}"#,
    ))));
    assert_eq!(told(&mut t, 1.0), (vec!["placed".to_owned()], Need::Wait(249.0)));
    assert_eq!(t.need(250.0), Need::ReadOrder);
    t.observe(Source::Order(Some(&v(
        r#"{"order":{"status":"ORDER_STATUS_MATCHED","originalSize":"5","sizeMatched":"5","associateTrades":["t9"]}}"#,
    ))));
    assert_eq!(told(&mut t, 251.0), (vec!["matched 5/5".to_owned()], Need::ReadTrade("t9".into())));
    t.observe(Source::Trades(Some(&v(
        r#"{"data":[{"id":"t9","taker_order_id":"0xabc","status":"FAILED","transaction_hash":"0x99"}]}"#,
    ))));
    assert_eq!(told(&mut t, 252.0), (vec!["trade t9 FAILED".to_owned(), "settled".to_owned()], Need::Done));
}

#[test]
fn a_gtd_order_cancelled_at_its_expiry_is_told_expired() {
    let mut t = Tracker::new(ID, false, 1_000.0, 0.0);
    let now_ms = 1_000_000_000.0;
    let expiration = (now_ms / 1000.0) as u64 + 30;
    t.observe(Source::Order(Some(&v(&format!(
        r#"{{"order":{{"status":"CANCELED","originalSize":"5","sizeMatched":"0","expiration":"{expiration}"}}}}"#
    )))));
    assert_eq!(told(&mut t, now_ms).0, ["placed", "expired", "settled"]);
    let mut t = Tracker::new(ID, false, 1_000.0, 0.0);
    t.observe(Source::Order(Some(&v(
        r#"{"order":{"status":"CANCELED_MARKET_RESOLVED","originalSize":"5","sizeMatched":"0","expiration":"0"}}"#,
    ))));
    assert_eq!(told(&mut t, now_ms).0, ["placed", "cancelled", "settled"]);
}

#[test]
fn a_mined_trade_retried_is_told_and_an_unmatched_post_rests() {
    let mut t = Tracker::new(ID, false, 1_000.0, 0.0);
    let mut all = Vec::new();
    for (status, tx) in
        [("MINED", Some("0x11")), ("RETRYING", Some("0x11")), ("MINED", Some("0x22")), ("CONFIRMED", Some("0x22"))]
    {
        t.observe(Source::Event(&trade_event("t1", status, tx)));
        all.extend(told(&mut t, 0.0).0);
    }
    assert_eq!(all, ["trade t1 MINED", "trade t1 RETRYING", "trade t1 MINED", "trade t1 CONFIRMED"]);
    // A read of a retried trade with its new transaction moves it too; one with the old state does not.
    let mut r = Tracker::new(ID, false, 1_000.0, 0.0);
    r.observe(Source::Trades(Some(&v(
        r#"{"data":[{"id":"t1","taker_order_id":"0xabc","status":"MINED","transaction_hash":"0x11"}]}"#,
    ))));
    r.observe(Source::Trades(Some(&v(
        r#"{"data":[{"id":"t1","taker_order_id":"0xabc","status":"RETRYING","transaction_hash":"0x11"}]}"#,
    ))));
    assert_eq!(told(&mut r, 0.0).0, ["trade t1 MINED"]);
    r.observe(Source::Trades(Some(&v(
        r#"{"data":[{"id":"t1","taker_order_id":"0xabc","status":"RETRYING","transaction_hash":"0x33"}]}"#,
    ))));
    assert_eq!(told(&mut r, 0.0).0, ["trade t1 RETRYING"]);
    // `unmatched`: placed all the same (marketable, not delayed); reads decide what follows.
    let mut u = Tracker::new(ID, false, 1_000.0, 0.0);
    u.observe(Source::Posted(&v(r#"{"orderID":"0xabc","status":"unmatched"}"#)));
    assert_eq!(told(&mut u, 0.0), (vec!["placed".to_owned()], Need::ReadOrder));
    // An order read with whole sizes and no status, and no trade: nothing to settle, not a wait for ever.
    let mut w = Tracker::new(ID, true, 250.0, 0.0);
    w.observe(Source::Order(Some(&v(r#"{"order":{"originalSize":"5","sizeMatched":"5"}}"#))));
    assert_eq!(told(&mut w, 0.0), (vec!["settled".to_owned()], Need::Done));
}

#[test]
fn older_answers_never_move_it_back() {
    let mut t = Tracker::new(ID, false, 1_000.0, 0.0);
    t.observe(Source::Event(&trade_event("t1", "CONFIRMED", Some("0x1"))));
    t.observe(Source::Trades(Some(&v(
        r#"{"data":[{"id":"t1","taker_order_id":"0xabc","status":"MINED","transaction_hash":"0x0"}]}"#,
    ))));
    t.observe(Source::Event(&v(
        r#"{"event_type":"order","id":"0xabc","type":"CANCELLATION","original_size":"5","size_matched":"2"}"#,
    )));
    t.observe(Source::Order(Some(&v(r#"{"order":{"status":"LIVE","originalSize":"5","sizeMatched":"1"}}"#))));
    assert_eq!(told(&mut t, 0.0).0, ["placed", "matched 2/5", "trade t1 CONFIRMED", "cancelled", "settled"]);
}

#[test]
fn waiting_for_settlement_follows_only_the_trades_and_a_delayed_orders() {
    // Two trades: one confirmed, one failed; the settled answer names both and the failure.
    let mut t = Tracker::new(ID, true, 250.0, 0.0);
    t.observe(Source::Posted(&v(r#"{"orderID":"0xabc","status":"matched","tradeIDs":["a","b","a"]}"#)));
    assert_eq!(told(&mut t, 0.0), (vec![], Need::ReadTrade("a".into())));
    t.observe(Source::Trades(Some(&v(r#"{"data":[{"id":"a","status":"CONFIRMED","transaction_hash":"0xa"}]}"#))));
    assert_eq!(told(&mut t, 0.0), (vec!["trade a CONFIRMED".to_owned()], Need::ReadTrade("b".into())));
    t.observe(Source::Trades(Some(&v(r#"{"data":[{"id":"b","status":"RETRYING","transaction_hash":"0xb"}]}"#))));
    assert_eq!(told(&mut t, 1.0), (vec!["trade b RETRYING".to_owned()], Need::Wait(249.0)));
    assert_eq!(t.need(250.0), Need::ReadTrade("b".into()), "only the pending one is read again");
    t.observe(Source::Trades(Some(&v(r#"{"data":[{"id":"b","status":"FAILED"}]}"#))));
    let mut last = String::new();
    while let Need::Tell(json) = t.need(251.0) {
        last = json;
    }
    let settled: serde_json::Value = serde_json::from_str(&last).unwrap();
    assert_eq!(settled["type"], "settled");
    assert_eq!(settled["failed"], 1);
    assert_eq!(
        settled["trades"],
        serde_json::json!([{"tradeId":"a","status":"CONFIRMED","transactionHash":"0xa"},{"tradeId":"b","status":"FAILED","transactionHash":"0xb"}])
    );
    // Delayed: the order is read until it lists its trades.
    let mut d = Tracker::new(ID, true, 250.0, 0.0);
    d.observe(Source::Posted(&v(r#"{"orderID":"0xabc","status":"delayed"}"#)));
    assert_eq!(told(&mut d, 0.0), (vec![], Need::ReadOrder));
    d.observe(Source::Order(Some(&v(r#"{"order":{"status":"DELAYED","originalSize":"5","sizeMatched":"0"}}"#))));
    assert_eq!(told(&mut d, 1.0), (vec![], Need::Wait(249.0)));
    assert_eq!(d.need(250.0), Need::ReadOrder);
    d.observe(Source::Order(Some(&v(
        r#"{"order":{"status":"MATCHED","originalSize":"5","sizeMatched":"5","associateTrades":["c"]}}"#,
    ))));
    assert_eq!(d.need(251.0), Need::ReadTrade("c".into()));
    // A resting order with no fill settles at once: nothing to wait for.
    let mut r = Tracker::new(ID, true, 250.0, 0.0);
    r.observe(Source::Posted(&v(r#"{"orderID":"0xabc","status":"live","tradeIDs":[]}"#)));
    assert_eq!(told(&mut r, 0.0), (vec!["settled".to_owned()], Need::Done));
}

#[test]
fn hostile_or_foreign_answers_change_nothing() {
    let mut t = Tracker::new(ID, false, 1_000.0, 0.0);
    for junk in [
        "null",
        "5",
        "\"x\"",
        "[]",
        "{}",
        r#"{"order":7}"#,
        r#"{"data":{"id":"t1"}}"#,
        r#"{"event_type":"trade","id":"t1","taker_order_id":"0xother","status":"CONFIRMED"}"#,
        r#"{"event_type":"order","id":"0xother","type":"CANCELLATION"}"#,
        r#"{"event_type":"trade","id":"","taker_order_id":"0xabc","status":"MINED"}"#,
        r#"{"order":{"status":"WHATEVER","originalSize":"-1","sizeMatched":"1e9"}}"#,
    ] {
        let value = v(junk);
        t.observe(Source::Event(&value));
        t.observe(Source::Order(Some(&value)));
        t.observe(Source::Trades(Some(&value)));
        t.observe(Source::Posted(&value));
    }
    assert_eq!(told(&mut t, 0.0), (vec![], Need::ReadOrder));
    // A flood of trade ids is bounded.
    let ids: Vec<String> = (0..5_000).map(|i| format!("\"t{i}\"")).collect();
    t.observe(Source::Posted(&v(&format!(r#"{{"tradeIDs":[{}]}}"#, ids.join(",")))));
    assert!(t.trades.len() <= MAX_TRADES);
}

#[test]
fn what_is_followed_and_how_often_is_checked() {
    assert_eq!(order_of(&Value::Str("0xAbC1".into()), false).unwrap(), "0xAbC1");
    assert_eq!(order_of(&v(r#"{"orderID":"0xabc","status":"live"}"#), true).unwrap(), "0xabc");
    for (bad, settle) in [
        ("\"abc\"", false),
        ("\"0x\"", false),
        ("\"0xzz\"", false),
        ("\"0xabc\"", true),
        ("{}", true),
        ("{\"orderID\":\"\"}", false),
        ("5", false),
    ] {
        assert_eq!(order_of(&v(bad), settle).unwrap_err().param.as_deref(), Some("order"), "{bad}");
    }
    assert_eq!(poll_interval(&Value::Undefined, 250.0), Ok(250.0));
    assert_eq!(poll_interval(&Value::Number(100.0), 250.0), Ok(100.0));
    for bad in [Value::Number(99.0), Value::Number(60_001.0), Value::Str("1000".into())] {
        assert!(poll_interval(&bad, 250.0).is_err());
    }
}

#[test]
fn a_trade_tells_the_match_when_it_arrives_as_taker_or_as_maker() {
    // Issue 33: `matched` waited for an order UPDATE or the next read (30 s away with the channel open).
    let mut t = Tracker::new(ID, false, 1_000.0, 0.0);
    t.observe(Source::Channel(true));
    t.observe(Source::Order(Some(&v(
        r#"{"order":{"id":"0xabc","status":"LIVE","original_size":"10","size_matched":"0","associate_trades":null}}"#,
    ))));
    assert_eq!(told(&mut t, 0.0).0, ["placed"]);
    // As taker: the trade's size.
    t.observe(Source::Event(&v(
        r#"{"event_type":"trade","id":"t1","taker_order_id":"0xabc","size":"4","status":"MATCHED","maker_orders":[],"bucket_index":0}"#,
    )));
    assert_eq!(told(&mut t, 1.0).0, ["matched 4/10", "trade t1 MATCHED"]);
    // As maker (another trade of the same order, taken by someone): its entries' matched_amount, summed.
    t.observe(Source::Event(&v(
        r#"{"event_type":"trade","id":"t2","taker_order_id":"0xother","size":"20","status":"MATCHED","bucket_index":"1",
            "maker_orders":[{"order_id":"0xabc","matched_amount":"5","price":"0.870000260000099"},{"order_id":"0xzzz","matched_amount":"15"}]}"#,
    )));
    assert_eq!(told(&mut t, 2.0).0, ["matched 9/10", "trade t2 MATCHED"]);
    // The order's own update that says less is older news; one that says more wins.
    t.observe(Source::Event(&v(
        r#"{"event_type":"order","id":"0xabc","type":"UPDATE","size_matched":"4","original_size":"10"}"#,
    )));
    assert!(told(&mut t, 3.0).0.is_empty());
    t.observe(Source::Event(&v(
        r#"{"event_type":"order","id":"0xabc","type":"UPDATE","size_matched":"10","original_size":"10"}"#,
    )));
    assert_eq!(told(&mut t, 4.0).0, ["matched 10/10"]);
    // A trade of nobody's here changes nothing.
    t.observe(Source::Event(&v(r#"{"event_type":"trade","id":"t3","taker_order_id":"0xnone","size":"1","maker_orders":[{"order_id":"0xq","matched_amount":"1"}]}"#)));
    assert!(told(&mut t, 5.0).0.is_empty());
}

#[test]
fn a_killed_fill_or_kill_is_cancelled_with_the_services_reason() {
    // The service's CANCELLATION of a FOK it could not fill: the reason after the status, empty strings for
    // the numbers and dates it has none of.
    let mut t = Tracker::new(ID, false, 1_000.0, 0.0);
    t.observe(Source::Posted(&v(r#"{"success":true,"orderID":"0xabc","status":"live"}"#)));
    t.observe(Source::Event(&v(
        r#"{"event_type":"order","id":"0xabc","type":"CANCELLATION","status":"CANCELED_order couldn't be fully filled. FOK orders are fully filled or killed.",
            "size_matched":"","original_size":"10","created_at":"","expiration":"","associate_trades":[]}"#,
    )));
    let mut updates = Vec::new();
    while let Need::Tell(json) = t.need(0.0) {
        updates.push(serde_json::from_str::<serde_json::Value>(&json).unwrap());
    }
    let cancelled = updates.iter().find(|u| u["type"] == "cancelled").expect("told cancelled");
    assert_eq!(cancelled["reason"], "killed");
    assert_eq!(cancelled["detail"], "order couldn't be fully filled. FOK orders are fully filled or killed.");
    assert_eq!(cancelled["sizeMatched"], "0");
    // A plain cancellation has no detail; the market's resolution stays its own state.
    for (status, reason) in [
        ("CANCELED", "canceled"),
        ("ORDER_STATUS_CANCELED", "canceled"),
        ("CANCELED_MARKET_RESOLVED", "marketResolved"),
    ] {
        let mut t = Tracker::new(ID, false, 1_000.0, 0.0);
        t.observe(Source::Order(Some(&v(&format!(r#"{{"order":{{"id":"0xabc","status":"{status}"}}}}"#)))));
        let mut last = serde_json::Value::Null;
        while let Need::Tell(json) = t.need(0.0) {
            let u: serde_json::Value = serde_json::from_str(&json).unwrap();
            if u["type"] == "cancelled" {
                last = u;
            }
        }
        assert_eq!((last["reason"].as_str(), last.get("detail")), (Some(reason), None), "{status}");
    }
}

#[test]
fn a_makers_entries_that_overflow_tell_nothing() {
    // Two entries of one order whose amounts together pass u64: the sum is unknown, never wrapped (review).
    let mut t = Tracker::new(ID, false, 1_000.0, 0.0);
    t.observe(Source::Order(Some(&v(r#"{"order":{"id":"0xabc","status":"LIVE","original_size":"10"}}"#))));
    let huge = "18000000000000";
    t.observe(Source::Event(&v(&format!(
        r#"{{"event_type":"trade","id":"t1","taker_order_id":"0xo","maker_orders":[{{"order_id":"0xabc","matched_amount":"{huge}"}},{{"order_id":"0xabc","matched_amount":"{huge}"}}]}}"#
    ))));
    assert_eq!(told(&mut t, 0.0).0, ["placed"]);
    // Two fills of one order in one trade are summed.
    let mut t = Tracker::new(ID, false, 1_000.0, 0.0);
    t.observe(Source::Order(Some(&v(r#"{"order":{"id":"0xabc","status":"LIVE","original_size":"10"}}"#))));
    t.observe(Source::Event(&v(
        r#"{"event_type":"trade","id":"t1","taker_order_id":"0xo","status":"MATCHED","maker_orders":[{"order_id":"0xabc","matched_amount":"2"},{"order_id":"0xabc","matched_amount":"3.5"}]}"#,
    )));
    assert_eq!(told(&mut t, 0.0).0, ["placed", "matched 5.5/10", "trade t1 MATCHED"]);
}

#[test]
fn following_reads_its_options_once_with_each_kinds_defaults() {
    let read = |settle: bool, pairs: &[(&'static str, Value)]| {
        let get = |name: &str| pairs.iter().find(|(k, _)| *k == name).map_or(Value::Undefined, |(_, v)| v.clone());
        let timeout = crate::api::options::milliseconds("timeoutMs", &get("timeoutMs"))?;
        FollowSettings::read(settle, &get("pollMs"), timeout, &get("stream"))
    };
    let n = Value::Number;
    // (settle only, options, poll, timeout, stream)
    #[allow(clippy::type_complexity)]
    let table: Vec<(bool, Vec<(&'static str, Value)>, f64, Option<f64>, bool)> = vec![
        (false, vec![], DEFAULT_POLL_MS, None, true),
        (true, vec![], SETTLE_POLL_MS, Some(SETTLE_TIMEOUT_MS), false),
        (
            false,
            vec![("pollMs", n(500.0)), ("timeoutMs", n(5_000.0)), ("stream", Value::Bool(false))],
            500.0,
            Some(5_000.0),
            false,
        ),
        (true, vec![("timeoutMs", n(1_000.0)), ("stream", Value::Bool(true))], SETTLE_POLL_MS, Some(1_000.0), false),
        (false, vec![("timeoutMs", n(f64::INFINITY))], DEFAULT_POLL_MS, None, true),
        (true, vec![("timeoutMs", n(f64::INFINITY))], SETTLE_POLL_MS, None, false),
    ];
    for (settle, options, poll, timeout, stream) in table {
        let got = read(settle, &options).unwrap();
        assert_eq!(got, FollowSettings { poll_ms: poll, timeout_ms: timeout, stream }, "{settle} {options:?}");
    }
    for (name, bad) in
        [("pollMs", n(50.0)), ("timeoutMs", n(-1.0)), ("timeoutMs", Value::Str("5".into())), ("stream", n(1.0))]
    {
        assert_eq!(read(false, &[(name, bad.clone())]).unwrap_err().param.as_deref(), Some(name), "{bad:?}");
    }
}

#[test]
fn only_a_read_that_cannot_succeed_ends_the_following() {
    for code in ["UNAUTHORIZED", "NOT_FOUND", "INVALID_PARAMS", "FREED"] {
        assert!(read_ends(code), "{code}");
    }
    for code in ["NETWORK", "TIMEOUT", "SERVER", "RATE_LIMITED", "DECODE", "API", "ABORTED", ""] {
        assert!(!read_ends(code), "{code}");
    }
}

mod as_a_task {
    use super::*;
    use crate::api::call::Reply;
    use crate::task::tests::{answer, calls, creds};
    use crate::task::{Need as TaskNeed, Outcome, Task, Why};

    const LIMITS: CallLimits = CallLimits { max_retries: 0, timeout_ms: 10_000.0, attempt_timeout_ms: None };
    const READ: Expect<Value> = Expect::Read(|_, body| Value::parse(&body), 0);
    const T: f64 = 1_700_000_000_000.0;

    fn following(settle_only: bool, timeout_ms: Option<f64>) -> Task<Following<Value>> {
        Task::new(Following::new(Tracker::new(ID, settle_only, 1_000.0, T), READ, Some, LIMITS, timeout_ms))
    }

    fn bytes(body: &str) -> Reply<'_> {
        Reply { bytes: Some(body.as_bytes().to_vec()), parsed: false, ..answer(200, None) }
    }

    /// The updates told until the task needs something else (each `tell` goes on).
    fn tells(
        t: &mut Task<Following<Value>>,
        c: &mut crate::api::call::Calls<Value>,
        first: TaskNeed,
    ) -> (Vec<String>, TaskNeed) {
        let creds = creds();
        let mut out = Vec::new();
        let mut need = first;
        while let TaskNeed::Tell { client: false, event } = need {
            let u: serde_json::Value = serde_json::from_str(&event).unwrap();
            out.push(u["type"].as_str().unwrap().to_owned());
            need = t.next(Some(c), Outcome::Go, T, Some(&creds));
        }
        (out, need)
    }

    #[test]
    fn its_reads_are_calls_read_in_rust_and_its_updates_its_own_tells_until_settled() {
        let (mut c, creds) = (calls::<Value>(), creds());
        let mut t = following(false, None);
        let TaskNeed::Http(read) = t.next(Some(&mut c), Outcome::Go, T, Some(&creds)) else {
            panic!("the order's read")
        };
        assert!(read.url.ends_with("/data/order/0xabc"), "{}", read.url);
        assert!(read.bytes);
        let order = r#"{"order":{"id":"0xabc","status":"MATCHED","original_size":"10","size_matched":"10","associate_trades":["t1"]}}"#;
        let need = t.next(Some(&mut c), Outcome::Reply(bytes(order)), T, Some(&creds));
        let (told, need) = tells(&mut t, &mut c, need);
        assert_eq!(told, ["placed", "matched"]);
        let TaskNeed::Http(read) = need else { panic!("the trade's read: {need:?}") };
        assert!(read.url.contains("/data/trades?id=t1"), "{}", read.url);
        // A number where the service writes text reads as its text.
        let trade = r#"{"data":[{"id":"t1","taker_order_id":"0xabc","status":"CONFIRMED","transaction_hash":"0x11","size":5}]}"#;
        let need = t.next(Some(&mut c), Outcome::Reply(bytes(trade)), T, Some(&creds));
        let (told, need) = tells(&mut t, &mut c, need);
        assert_eq!(told, ["trade", "settled"]);
        let TaskNeed::Done(settled) = need else { panic!("done: {need:?}") };
        assert!(settled.starts_with(r#"{"type":"settled","orderId":"0xabc""#), "{settled}");
    }

    #[test]
    fn the_channel_is_heard_between_needs_and_its_events_tell_at_once() {
        let (mut c, creds) = (calls::<Value>(), creds());
        let mut t = following(false, None);
        t.next(Some(&mut c), Outcome::Go, T, Some(&creds));
        let live = r#"{"order":{"id":"0xabc","status":"LIVE","original_size":"10","size_matched":"0"}}"#;
        let need = t.next(Some(&mut c), Outcome::Reply(bytes(live)), T, Some(&creds));
        let (told, need) = tells(&mut t, &mut c, need);
        assert_eq!(told, ["placed"]);
        assert!(matches!(need, TaskNeed::Wait { ms: Some(_), call: None }), "{need:?}");
        // Heard while it waits (the driver ends the wait): the trade is told at once, not at the next read.
        let event = v(
            r#"{"event_type":"trade","id":"t1","taker_order_id":"0xabc","size":"4","status":"MATCHED","maker_orders":[]}"#,
        );
        let need = t.next(Some(&mut c), Outcome::Heard(event), T + 10.0, Some(&creds));
        let (told, need) = tells(&mut t, &mut c, need);
        assert_eq!(told, ["matched", "trade"]);
        assert!(matches!(need, TaskNeed::Wait { .. }), "{need:?}");
        // The channel open: the order is read again once to catch up.
        let open = v(r#"{"event_type":"status","status":"open"}"#);
        let need = t.next(Some(&mut c), Outcome::Heard(open), T + 20.0, Some(&creds));
        assert!(matches!(need, TaskNeed::Http(_)), "{need:?}");
        // Stopped by its owner: done, with no settled update.
        let TaskNeed::Done(value) = t.next(Some(&mut c), Outcome::Abort(Why::Stop), T, Some(&creds)) else { panic!() };
        assert_eq!(value, "null");
    }

    #[test]
    fn its_end_is_the_signal_the_timeout_or_a_read_that_cannot_go_on() {
        let (mut c, creds) = (calls::<Value>(), creds());
        let mut t = following(false, None);
        t.next(Some(&mut c), Outcome::Go, T, Some(&creds));
        let TaskNeed::Fail(e) = t.next(Some(&mut c), Outcome::Abort(Why::Signal), T, Some(&creds)) else { panic!() };
        assert_eq!(e.code, ErrorCode::Aborted);
        assert_eq!(t.call(), None, "the read in flight is given back");
        // A read the service refuses for good ends it; one that failed on the way is tried at the next round.
        let mut t = following(false, None);
        t.next(Some(&mut c), Outcome::Go, T, Some(&creds));
        let need = t.next(Some(&mut c), Outcome::Reply(answer(500, Some("{}"))), T, Some(&creds));
        assert!(matches!(need, TaskNeed::Wait { .. }), "{need:?}");
        let need = t.next(Some(&mut c), Outcome::Go, T + 1_000.0, Some(&creds));
        assert!(matches!(need, TaskNeed::Http(_)), "read again: {need:?}");
        let TaskNeed::Fail(e) = t.next(Some(&mut c), Outcome::Reply(answer(404, Some("{}"))), T, Some(&creds)) else {
            panic!()
        };
        assert_eq!(e.code, ErrorCode::NotFound);
        // waitForSettlement's 30 s: a wait never outlasts it, and then it is TIMEOUT.
        let mut t = following(true, Some(30_000.0));
        let posted = v(r#"{"orderID":"0xabc","status":"matched","tradeIDs":["t1"]}"#);
        t.machine.tracker.observe(Source::Posted(&posted));
        t.next(Some(&mut c), Outcome::Go, T, Some(&creds));
        let trade = r#"{"data":[{"id":"t1","status":"MATCHED"}]}"#;
        let mut need = t.next(Some(&mut c), Outcome::Reply(bytes(trade)), T, Some(&creds));
        while let TaskNeed::Tell { .. } = need {
            need = t.next(Some(&mut c), Outcome::Go, T, Some(&creds));
        }
        let TaskNeed::Wait { ms: Some(ms), .. } = need else { panic!("{need:?}") };
        assert!(ms <= 30_000.0);
        let TaskNeed::Fail(e) = t.next(Some(&mut c), Outcome::Go, T + 30_000.0, Some(&creds)) else { panic!() };
        assert_eq!((e.code, e.message.as_ref()), (ErrorCode::Timeout, "the order was not settled within timeoutMs"));
    }
}
