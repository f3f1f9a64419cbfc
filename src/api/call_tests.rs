//! Table tests of the call machine: what each call needs after each thing that happens to it.

use super::*;
use crate::api::budget::{Bucket, Limit};
use crate::api::{cancel_order, events, open_orders, order_book, server_time, Params, RateLimitNotice};
use crate::auth::tests::{ADDRESS, API_KEY, PASSPHRASE, SECRET};

const T0: f64 = 1_700_000_000_000.0;
const BASE: &str = "http://127.0.0.1:8787";

/// The product the tests' reads make: the body's length plus the read's kind.
type Product = usize;

fn calls_with(budgets: Budgets, max_in_flight: u32, max_queue_ms: f64) -> Calls<Product> {
    Calls::new(CallsSettings {
        bases: BaseUrls::one(BASE.into()),
        budgets,
        policy: RetryPolicy::default(),
        max_in_flight,
        max_queue_ms,
        clock_offset_ms: 0.0,
        timestamp_unit: TimestampUnit::Millis,
        seed: 7,
    })
}

fn calls() -> Calls<Product> {
    calls_with(Budgets::unlimited(), 64, 60_000.0)
}

fn creds() -> Credentials {
    Credentials::new(ADDRESS, API_KEY, SECRET, PASSPHRASE).unwrap()
}

fn get_events() -> HttpRequest {
    events(&Params::default()).unwrap()
}

const RETRIES: CallLimits = CallLimits { max_retries: 2, timeout_ms: f64::INFINITY, attempt_timeout_ms: None };

fn answer(status: u16) -> Reply<'static> {
    Reply { ended: Some(Ended::Answer), status, parsed: (200..300).contains(&status), ..Reply::default() }
}

fn sent(need: &Need) -> &Send {
    match need {
        Need::Send(s) => s,
        other => panic!("expected a send, got {other:?}"),
    }
}

fn failed(need: Need) -> Error {
    match need {
        Need::Fail(e) => e,
        other => panic!("expected a failure, got {other:?}"),
    }
}

#[test]
fn a_read_is_sent_unsigned_and_done_when_its_json_parses() {
    let mut c = calls();
    let id = c.start(get_events(), Expect::Json, RETRIES);
    let need = c.next(id, T0, None);
    let s = sent(&need);
    assert_eq!(s.url, format!("{BASE}/events"));
    assert_eq!((s.method, s.manual, s.bytes, s.body.as_deref()), ("GET", false, false, None));
    assert!(s.headers.is_empty());
    // A driver out of step (asking while the attempt is on its way) is refused, not left waiting.
    assert_eq!(failed(c.next(id, T0, None)).code, ErrorCode::Decode);
    assert_eq!(c.supply(id, T0 + 5.0, answer(200)), Need::Done("null".into()));
    // A finished call needs nothing more, and a stale id is refused.
    assert_eq!(failed(c.next(id, T0, None)).code, ErrorCode::Decode);
    c.finish(id, T0);
    assert_eq!(failed(c.supply(id, T0, answer(200))).code, ErrorCode::Decode);
}

#[test]
fn a_signed_request_carries_the_five_headers_refuses_redirects_and_is_signed_at_the_offset_clock() {
    let mut c = calls();
    c.clock_offset_ms = 1_000.0;
    let request = open_orders(&Params::default()).unwrap();
    let id = c.start(request, Expect::Json, RETRIES);
    let need = c.next(id, T0, Some(&creds()));
    let s = sent(&need);
    assert!(s.manual, "a signed request never follows a redirect");
    let names: Vec<_> = s.headers.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, HEADER_NAMES);
    let stamp = &s.headers.iter().find(|(n, _)| *n == "SERVICE_TIMESTAMP").unwrap().1;
    assert_eq!(stamp, "1700000001000");
    // Without credentials nothing is sent.
    let id = c.start(open_orders(&Params::default()).unwrap(), Expect::Json, RETRIES);
    assert_eq!(failed(c.next(id, T0, None)).code, ErrorCode::Unauthorized);
}

#[test]
fn what_each_failure_leads_to() {
    // (request, reply status or how it ended, retries allowed, what follows)
    enum Then {
        Retry,
        Fail(ErrorCode),
    }
    let delete = || cancel_order("0xabc").unwrap();
    let table: Vec<(HttpRequest, Reply<'static>, Then)> = vec![
        (get_events(), answer(503), Then::Retry),
        (get_events(), answer(500), Then::Retry),
        (get_events(), answer(429), Then::Retry),
        (get_events(), answer(408), Then::Retry),
        (get_events(), answer(404), Then::Fail(ErrorCode::NotFound)),
        (get_events(), answer(401), Then::Fail(ErrorCode::Unauthorized)),
        (get_events(), Reply { ended: Some(Ended::Network), ..Reply::default() }, Then::Retry),
        (get_events(), Reply { ended: Some(Ended::Cut), status: 200, ..Reply::default() }, Then::Retry),
        (
            get_events(),
            Reply { ended: Some(Ended::Large), status: 200, ..Reply::default() },
            Then::Fail(ErrorCode::Decode),
        ),
        // A 2xx body that JSON.parse refused was most likely garbled on the way.
        (get_events(), Reply { parsed: false, text: Some("{\"a\":"), ..answer(200) }, Then::Retry),
        // A cancellation may have been applied: only a throttled one is sent again.
        (delete(), answer(500), Then::Fail(ErrorCode::Server)),
        (delete(), Reply { ended: Some(Ended::Network), ..Reply::default() }, Then::Fail(ErrorCode::Network)),
        (delete(), answer(429), Then::Retry),
        // A redirect left unfollowed by the browser is refused.
        (get_events(), Reply { opaque_redirect: true, ..answer(0) }, Then::Fail(ErrorCode::Api)),
    ];
    for (i, (request, reply, then)) in table.into_iter().enumerate() {
        let mut c = calls();
        let id = c.start(request, Expect::Json, RETRIES);
        sent(&c.next(id, T0, Some(&creds())));
        match (c.supply(id, T0, reply), then) {
            (Need::Wait { ms: Some(ms), event: Some(Event::Retry { attempt: 1, delay_ms, error }) }, Then::Retry) => {
                assert!((250.0..=500.0).contains(&ms), "row {i}: first backoff {ms}");
                assert_eq!(delay_ms, ms, "row {i}");
                assert!(error.path.is_some(), "row {i}: the retried error names the request");
            }
            (Need::Fail(e), Then::Fail(code)) => {
                assert_eq!(e.code, code, "row {i}: {e:?}");
                assert!(e.method.is_some() && e.path.is_some(), "row {i}");
            }
            (other, _) => panic!("row {i}: unexpected {other:?}"),
        }
    }
}

#[test]
fn retries_back_off_honour_retry_after_and_stop_at_max_retries() {
    let mut c = calls();
    let id = c.start(get_events(), Expect::Json, RETRIES);
    let mut delays = Vec::new();
    for _ in 0..2 {
        sent(&c.next(id, T0, None));
        let reply = Reply { retry_after: Some("3"), ..answer(429) };
        match c.supply(id, T0, reply) {
            Need::Wait { ms: Some(ms), event: Some(Event::Retry { .. }) } => delays.push(ms),
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(delays, [3000.0, 3000.0]);
    sent(&c.next(id, T0, None));
    let e = failed(c.supply(id, T0, answer(503)));
    assert_eq!((e.code, e.status), (ErrorCode::Server, Some(503)));

    // A Retry-After longer than a minute ends the call with the service's error.
    let id = c.start(get_events(), Expect::Json, RETRIES);
    sent(&c.next(id, T0, None));
    let e = failed(c.supply(id, T0, Reply { retry_after: Some("120"), ..answer(429) }));
    assert_eq!((e.code, e.retry_after_ms), (ErrorCode::RateLimited, Some(120_000)));

    // maxRetries 0: the first failure is the answer.
    let id = c.start(
        get_events(),
        Expect::Json,
        CallLimits { max_retries: 0, timeout_ms: f64::INFINITY, attempt_timeout_ms: None },
    );
    sent(&c.next(id, T0, None));
    assert_eq!(failed(c.supply(id, T0, answer(503))).code, ErrorCode::Server);

    // A wait that would pass the call's deadline (counted from its first step) is not begun: the call ends
    // with the attempt's error at once, a 429's RATE_LIMITED with the wait the service asked for.
    let limits = |timeout_ms| CallLimits { max_retries: 2, timeout_ms, attempt_timeout_ms: None };
    let table =
        [(10_000.0, Some("3"), 1_000.0, true), (10_000.0, Some("3"), 7_500.0, false), (2_000.0, None, 0.0, true)];
    for (timeout_ms, retry_after, elapsed, waits) in table {
        let id = c.start(get_events(), Expect::Json, limits(timeout_ms));
        sent(&c.next(id, T0, None));
        let need = c.supply(id, T0 + elapsed, Reply { retry_after, ..answer(429) });
        match need {
            Need::Wait { .. } => assert!(waits, "{timeout_ms} {retry_after:?} {elapsed}"),
            need => {
                assert!(!waits, "{timeout_ms} {retry_after:?} {elapsed}: {need:?}");
                let e = failed(need);
                assert_eq!((e.code, e.retry_after_ms), (ErrorCode::RateLimited, Some(3000)));
            }
        }
        c.finish(id, T0);
    }
}

#[test]
fn a_full_budget_queues_calls_in_order_and_wakes_the_next_one() {
    let mut budgets = Budgets::unlimited();
    budgets.set(Bucket::Catalog, Some(Limit { requests: 1, window_ms: 1000.0 }));
    let mut c = calls_with(budgets, 64, 60_000.0);
    let a = c.start(get_events(), Expect::Json, RETRIES);
    let b = c.start(get_events(), Expect::Json, RETRIES);
    let d = c.start(get_events(), Expect::Json, RETRIES);
    sent(&c.next(a, T0, None));
    // B is first in line and waits while the place is held by A, then for its window.
    assert_eq!(c.next(b, T0, None), Need::Wait { ms: Some(1000.0), event: None });
    assert_eq!(c.next(d, T0, None), Need::Wait { ms: None, event: None });
    assert_eq!(c.supply(a, T0 + 100.0, answer(200)), Need::Done("null".into()));
    assert_eq!(c.take_woken(), [b]);
    assert_eq!(
        c.next(b, T0 + 100.0, None),
        Need::Wait { ms: Some(1000.0), event: Some(Event::Wait { delay_ms: 1000.0 }) }
    );
    // D is not first: its turn comes when B leaves the queue.
    assert_eq!(c.next(d, T0 + 100.0, None), Need::Wait { ms: None, event: None });
    sent(&c.next(b, T0 + 1100.0, None));
    assert_eq!(c.take_woken(), [d]);
    // B's place is held until its answer: D waits for it.
    assert_eq!(c.next(d, T0 + 1100.0, None), Need::Wait { ms: Some(1000.0), event: None });
    c.supply(b, T0 + 1200.0, answer(200));
    assert_eq!(c.take_woken(), [d]);
    assert_eq!(
        c.next(d, T0 + 1200.0, None),
        Need::Wait { ms: Some(1000.0), event: Some(Event::Wait { delay_ms: 1000.0 }) }
    );
}

#[test]
fn the_in_flight_limit_waits_for_an_answer_and_a_queue_past_max_queue_ms_is_refused() {
    let mut c = calls_with(Budgets::unlimited(), 1, 500.0);
    let a = c.start(get_events(), Expect::Json, RETRIES);
    let b = c.start(get_events(), Expect::Json, RETRIES);
    sent(&c.next(a, T0, None));
    assert_eq!(c.next(b, T0, None), Need::Wait { ms: Some(1000.0), event: None });
    c.supply(a, T0 + 10.0, answer(200));
    assert_eq!(c.take_woken(), [b]);
    sent(&c.next(b, T0 + 10.0, None));

    // Still no place after maxQueueMs: RATE_LIMITED, and the next in line gets its turn.
    let d = c.start(get_events(), Expect::Json, RETRIES);
    let e = c.start(get_events(), Expect::Json, RETRIES);
    c.next(d, T0 + 20.0, None);
    c.next(e, T0 + 20.0, None);
    let error = failed(c.next(d, T0 + 600.0, None));
    assert_eq!((error.code, error.retry_after_ms), (ErrorCode::RateLimited, None));
    assert_eq!(error.path.as_deref(), Some("/events"));
    assert_eq!(c.take_woken(), [e]);
}

#[test]
fn a_stopped_call_gives_back_its_place_in_the_queue_and_in_flight() {
    let mut c = calls_with(Budgets::unlimited(), 1, 60_000.0);
    let a = c.start(get_events(), Expect::Json, RETRIES);
    let b = c.start(get_events(), Expect::Json, RETRIES);
    let d = c.start(get_events(), Expect::Json, RETRIES);
    sent(&c.next(a, T0, None));
    c.next(b, T0, None);
    c.next(d, T0, None);
    let e = failed(c.stop(b, false, T0));
    assert_eq!((e.code, e.path.as_deref()), (ErrorCode::Aborted, Some("/events")));
    assert_eq!(c.take_woken(), [d]);
    // A's deadline passes while it is on its way: its in-flight place frees, and D, waiting for one, wakes.
    assert!(matches!(c.next(d, T0, None), Need::Wait { ms: Some(_), event: None }));
    assert_eq!(failed(c.stop(a, true, T0 + 5.0)).code, ErrorCode::Timeout);
    assert_eq!(c.take_woken(), [d]);
    sent(&c.next(d, T0 + 5.0, None));
    // finish() of a call midway gives back what it holds, as stop() does.
    c.finish(d, T0 + 6.0);
    let f = c.start(get_events(), Expect::Json, RETRIES);
    sent(&c.next(f, T0 + 6.0, None));
}

#[test]
fn products_and_checked_bytes_are_read_and_a_body_that_does_not_read_is_retried() {
    // What a read makes of the bytes: whole objects only.
    let read: fn(u8, Vec<u8>) -> Result<Product, Error> =
        |kind, b| if b.ends_with(b"}") { Ok(b.len() + kind as usize) } else { Err(Error::decode("not whole")) };
    let mut c = calls();
    let id = c.start(order_book("123").unwrap(), Expect::Read(read, 3), RETRIES);
    assert!(sent(&c.next(id, T0, None)).bytes);
    assert!(matches!(
        c.supply(id, T0, Reply { bytes: Some(b"{\"bids\":".to_vec()), ..answer(200) }),
        Need::Wait { event: Some(Event::Retry { .. }), .. }
    ));
    sent(&c.next(id, T0, None));
    assert_eq!(c.supply(id, T0, Reply { bytes: Some(b"{}".to_vec()), ..answer(200) }), Need::Done("null".into()));
    assert_eq!(c.take_product(id), Some(5));
    assert_eq!(c.take_product(id), None, "a product is taken once");

    let id = c.start(order_book("123").unwrap(), Expect::Bytes(|b| Ok(json_string(&b.len().to_string()))), RETRIES);
    sent(&c.next(id, T0, None));
    assert_eq!(c.supply(id, T0, Reply { bytes: Some(vec![1, 2, 3]), ..answer(200) }), Need::Done("\"3\"".into()));
}

#[test]
fn an_answer_read_whatever_its_status_keeps_its_product_and_any_other_is_an_error_as_usual() {
    // Takes a 200 or a 400 that says "id".
    let any: fn(u16, Option<&str>) -> Option<Product> =
        |status, text| matches!((status, text), (200 | 400, Some("id"))).then_some(usize::from(status));
    let mut c = calls();
    let id = c.start(get_events(), Expect::Any(any, "no id"), CallLimits { max_retries: 0, ..RETRIES });
    assert!(!sent(&c.next(id, T0, None)).bytes, "read as text");
    assert_eq!(c.supply(id, T0, Reply { text: Some("id"), ..answer(400) }), Need::Done("null".into()));
    assert_eq!(c.take_product(id), Some(400));

    let id = c.start(get_events(), Expect::Any(any, "no id"), CallLimits { max_retries: 0, ..RETRIES });
    sent(&c.next(id, T0, None));
    let Need::Fail(e) = c.supply(id, T0, Reply { text: Some("{}"), ..answer(403) }) else { panic!("a 403 fails") };
    assert_eq!(e.code, ErrorCode::Forbidden);
    assert_eq!(c.take_product(id), None);

    let id = c.start(get_events(), Expect::Any(any, "no id"), CallLimits { max_retries: 0, ..RETRIES });
    sent(&c.next(id, T0, None));
    let Need::Fail(e) = c.supply(id, T0, Reply { text: Some("{}"), ..answer(200) }) else { panic!("fails") };
    assert_eq!((e.code, &*e.message), (ErrorCode::Decode, "no id"));
}

#[test]
fn the_clock_reads_any_answer_and_sets_the_signing_offset() {
    let mut c = calls();
    // A 404 with a Date header: whole seconds, read as the middle of the second.
    let id = c.start(server_time(), Expect::Clock, RETRIES);
    sent(&c.next(id, T0, None));
    let reply = Reply { date: Some("Tue, 14 Nov 2023 22:13:30 GMT"), sent: T0 - 10.0, ..answer(404) };
    let need = c.supply(id, T0 + 10.0, reply);
    // 2023-11-14T22:13:30.5Z is 1,700,000,010,500 ms; the local clock read 1,700,000,000,000 halfway.
    assert_eq!(need, Need::Done("10500".into()));
    assert_eq!(c.clock_offset_ms, 10_500.0);
    // GET /time's body in seconds, and an answer that tells no time (not retried: the service has none).
    let id = c.start(server_time(), Expect::Clock, RETRIES);
    sent(&c.next(id, T0, None));
    assert_eq!(
        c.supply(id, T0, Reply { text: Some("1699999990"), sent: T0, ..answer(200) }),
        Need::Done("-9500".into())
    );
    let id = c.start(server_time(), Expect::Clock, RETRIES);
    sent(&c.next(id, T0, None));
    assert_eq!(failed(c.supply(id, T0, Reply { text: Some("soon"), ..answer(200) })).code, ErrorCode::Decode);
}

#[test]
fn a_refusal_that_names_a_finding_carries_it_to_the_driver() {
    let mut c = calls();
    let id = c.start(cancel_order("0xa").unwrap(), Expect::Json, RETRIES);
    sent(&c.next(id, T0, Some(&creds())));
    let body = r#"{"error":"maker address not allowed, please use the deposit wallet flow"}"#;
    let e = failed(c.supply(id, T0, Reply { text: Some(body), ..answer(400) }));
    let v: serde_json::Value = serde_json::from_str(&error_json(&e)).unwrap();
    assert_eq!(v["code"], "API");
    assert_eq!(v["finding"]["code"], "DEPOSIT_WALLET_REQUIRED");
    assert!(v["finding"]["fix"].as_str().unwrap().contains("POLY_1271"));
}

#[test]
fn the_services_rate_limit_headers_are_told_and_a_spent_bucket_is_waited_for() {
    let mut budgets = Budgets::unlimited();
    budgets.set(Bucket::CancelBurst, Some(Limit { requests: 100, window_ms: 10_000.0 }));
    let mut c = calls_with(budgets, 64, 60_000.0);
    let reset_s = (T0 / 1000.0) as u64 + 5;
    let creds = creds();
    let a = c.start(cancel_order("0xa").unwrap(), Expect::Json, RETRIES);
    sent(&c.next(a, T0, Some(&creds)));
    let told = RateLimitNotice::parse("0", &reset_s.to_string(), "standard", "");
    assert_eq!(c.supply(a, T0 + 10.0, Reply { rate_limit: told, ..answer(200) }), Need::Done("null".into()));
    let v: serde_json::Value = serde_json::from_str(&c.take_notice().unwrap()).unwrap();
    assert_eq!(
        v,
        serde_json::json!({"type": "rateLimit", "method": "DELETE", "path": "/order", "remaining": 0,
            "resetMs": reset_s * 1000, "tier": "standard", "warning": false})
    );
    // Told once.
    assert_eq!(c.take_notice(), None);
    // The spent bucket holds the next cancellation until the reset, whatever its local room.
    let b = c.start(cancel_order("0xb").unwrap(), Expect::Json, RETRIES);
    assert_eq!(
        c.next(b, T0 + 20.0, Some(&creds)),
        Need::Wait { ms: Some(4980.0), event: Some(Event::Wait { delay_ms: 4980.0 }) }
    );
    // A read in another bucket is not held.
    let r = c.start(get_events(), Expect::Json, RETRIES);
    sent(&c.next(r, T0 + 20.0, None));
    // At the reset the cancellation goes.
    sent(&c.next(b, reset_s as f64 * 1000.0, Some(&creds)));
}

#[test]
fn a_stalled_attempt_of_a_read_is_abandoned_and_retried_within_the_deadline() {
    // Issue 33: with one answer in fifty stalled for 20 s and a 5 s timeoutMs, an attempt may not use the
    // call's whole deadline. A read's attempt gets a third of the remaining time (at least 1 s).
    let mut c = calls();
    let limits = CallLimits { max_retries: 2, timeout_ms: 5_000.0, attempt_timeout_ms: None };
    let id = c.start(get_events(), Expect::Json, limits);
    let first = c.next(id, T0, None);
    assert_eq!(sent(&first).attempt_ms, Some(5_000.0 / 3.0));
    // The driver abandons it at its timeout: retried, with what is left of the deadline.
    let need = c.supply(id, T0 + 1_667.0, Reply { ended: Some(Ended::Stalled), ..Reply::default() });
    let Need::Wait { ms: Some(delay), event: Some(Event::Retry { error, .. }) } = need else { panic!("{need:?}") };
    assert_eq!(error.code, ErrorCode::Timeout);
    let second = c.next(id, T0 + 1_667.0 + delay, None);
    let left = 5_000.0 - 1_667.0 - delay;
    assert_eq!(sent(&second).attempt_ms, Some((left / 3.0).max(1_000.0)).filter(|ms| *ms < left));
    assert!(matches!(c.supply(id, T0 + 3_000.0, answer(200)), Need::Done(_)));

    // The last attempt keeps the rest of the deadline; a configured attemptTimeoutMs applies as given.
    let last = c.start(get_events(), Expect::Json, CallLimits { max_retries: 0, ..limits });
    assert_eq!(sent(&c.next(last, T0, None)).attempt_ms, Some(5_000.0));
    c.finish(last, T0);
    let given = c.start(get_events(), Expect::Json, CallLimits { attempt_timeout_ms: Some(400.0), ..limits });
    assert_eq!(sent(&c.next(given, T0, None)).attempt_ms, Some(400.0));
    c.finish(given, T0);
    // An order is never abandoned to be tried again: it may have arrived, and it is never sent twice. It has
    // the call's whole time, and a stall at the deadline ends the call.
    let body = "{}".to_owned();
    let order =
        c.start(crate::api::post_order(body), Expect::Json, CallLimits { attempt_timeout_ms: Some(400.0), ..limits });
    assert_eq!(sent(&c.next(order, T0, Some(&creds()))).attempt_ms, Some(5_000.0));
    let stalled = Reply { ended: Some(Ended::Stalled), ..Reply::default() };
    let e = failed(c.supply(order, T0 + 5_000.0, stalled));
    assert_eq!((e.code, &*e.message), (ErrorCode::Timeout, "the request did not finish within timeoutMs"));
    c.finish(order, T0);
    // No deadline, no time limit on an attempt.
    let open = c.start(get_events(), Expect::Json, CallLimits { max_retries: 0, ..RETRIES });
    assert_eq!(sent(&c.next(open, T0, None)).attempt_ms, None);
}

#[test]
fn the_machine_keeps_the_calls_deadline() {
    // Every wait and attempt ends by the deadline, and a call still waiting then ends with TIMEOUT (the driver
    // keeps no deadline of its own).
    let mut budgets = Budgets::unlimited();
    budgets.set(Bucket::CancelBurst, Some(Limit { requests: 1, window_ms: 10_000.0 }));
    let mut c = calls_with(budgets, 64, 60_000.0);
    let limits = CallLimits { max_retries: 2, timeout_ms: 3_000.0, attempt_timeout_ms: None };
    let creds = creds();
    let a = c.start(cancel_order("0xa").unwrap(), Expect::Json, limits);
    sent(&c.next(a, T0, Some(&creds)));
    assert_eq!(c.supply(a, T0 + 10.0, answer(200)), Need::Done("null".into()));
    // The second waits for the budget (10 s) but only until its deadline.
    let b = c.start(cancel_order("0xb").unwrap(), Expect::Json, limits);
    let Need::Wait { ms: Some(ms), .. } = c.next(b, T0 + 500.0, Some(&creds)) else { panic!("a wait") };
    assert_eq!(ms, 3_000.0);
    // Queued behind it, a third waits at most until its own deadline too.
    let q = c.start(cancel_order("0xc").unwrap(), Expect::Json, limits);
    assert_eq!(c.next(q, T0 + 1_000.0, Some(&creds)), Need::Wait { ms: Some(3_000.0), event: None });
    // At the deadline (within the clock's millisecond), TIMEOUT, and its place in the queue goes to the next.
    let e = failed(c.next(b, T0 + 500.0 + 2_999.5, Some(&creds)));
    assert_eq!(e.code, ErrorCode::Timeout);
    assert_eq!(e.path.as_deref(), Some("/order"));
    assert_eq!(c.take_woken(), [q]);
    // Woken before its deadline, a call goes on waiting.
    assert!(matches!(c.next(q, T0 + 2_000.0, Some(&creds)), Need::Wait { ms: Some(ms), .. } if ms <= 2_000.0));
    // A stall before the deadline is retried; at it, the call ends.
    let r = c.start(get_events(), Expect::Json, limits);
    assert_eq!(sent(&c.next(r, T0, None)).attempt_ms, Some(1_000.0));
    let stalled = || Reply { ended: Some(Ended::Stalled), ..Reply::default() };
    assert!(matches!(c.supply(r, T0 + 1_000.0, stalled()), Need::Wait { event: Some(Event::Retry { .. }), .. }));
    c.finish(r, T0);
    let r = c.start(get_events(), Expect::Json, CallLimits { max_retries: 0, ..limits });
    assert_eq!(sent(&c.next(r, T0, None)).attempt_ms, Some(3_000.0));
    assert_eq!(failed(c.supply(r, T0 + 3_000.0, stalled())).code, ErrorCode::Timeout);
}
