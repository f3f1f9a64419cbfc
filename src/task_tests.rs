//! Table tests of the task protocol: what a task needs after each outcome, and the JSON the driver reads.

use super::*;
use crate::api::budget::Budgets;
use crate::api::call::{BaseUrls, CallsSettings, Ended};
use crate::api::retry::RetryPolicy;
use crate::api::TimestampUnit;
use crate::api::{cancel_order, events, Params, RateLimitNotice};
use crate::auth::tests::{ADDRESS, API_KEY, PASSPHRASE, SECRET};

pub(crate) const T0: f64 = 1_700_000_000_000.0;
const BASE: &str = "http://127.0.0.1:8787";

pub(crate) fn calls<P>() -> Calls<P> {
    Calls::new(CallsSettings {
        bases: BaseUrls::one(BASE.into()),
        budgets: Budgets::unlimited(),
        policy: RetryPolicy::default(),
        max_in_flight: 64,
        max_queue_ms: 60_000.0,
        clock_offset_ms: 0.0,
        timestamp_unit: TimestampUnit::Millis,
        seed: 7,
    })
}

pub(crate) fn creds() -> Credentials {
    Credentials::new(ADDRESS, API_KEY, SECRET, PASSPHRASE).unwrap()
}

pub(crate) fn answer(status: u16, text: Option<&str>) -> Reply<'_> {
    Reply { ended: Some(Ended::Answer), status, parsed: (200..300).contains(&status), text, ..Reply::default() }
}

const RETRIES: CallLimits = CallLimits { max_retries: 2, timeout_ms: f64::INFINITY, attempt_timeout_ms: None };

fn json(need: &Need, wake: &[u32]) -> serde_json::Value {
    serde_json::from_str(&need.to_json(wake)).unwrap()
}

fn one(c: &mut Calls<()>, request: HttpRequest) -> Task<OneCall<()>> {
    Task::call_of(c, request, Expect::Json, RETRIES)
}

#[test]
fn a_call_is_a_task_an_attempt_then_done() {
    let mut c = calls::<()>();
    let creds = creds();
    let mut t = one(&mut c, cancel_order("0xabc").unwrap());
    let need = t.next(Some(&mut c), Outcome::Go, T0, Some(&creds));
    let v = json(&need, &[4, 9]);
    assert_eq!(v["kind"], "http");
    assert_eq!(v["wake"], serde_json::json!([4, 9]));
    assert_eq!(v["url"], format!("{BASE}/order"));
    assert_eq!(v["method"], "DELETE");
    assert_eq!(v["headers"]["Content-Type"], "application/json");
    assert_eq!(v["headers"]["SERVICE_API_KEY"], API_KEY);
    assert_eq!(v["body"], r#"{"orderId":"0xabc"}"#);
    assert_eq!(
        (&v["manual"], &v["bytes"], &v["parse"], &v["attemptMs"]),
        (&true.into(), &false.into(), &true.into(), &serde_json::Value::Null)
    );
    assert!(t.call().is_some());
    let done = t.next(Some(&mut c), Outcome::Reply(answer(200, None)), T0 + 5.0, Some(&creds));
    assert_eq!(json(&done, &[]), serde_json::json!({"kind": "done", "wake": [], "value": null}));
    // The call is over in the machine.
    assert_eq!(t.call(), None);
    // An answer nobody asked for is refused, typed.
    let Need::Fail(e) = t.next(Some(&mut c), Outcome::Reply(answer(200, None)), T0, None) else { panic!("a failure") };
    assert_eq!(e.code, ErrorCode::Decode);
}

#[test]
fn a_retry_tells_its_event_then_waits_on_the_call() {
    let mut c = calls::<()>();
    let creds = creds();
    let mut t = one(&mut c, cancel_order("0xabc").unwrap());
    t.next(Some(&mut c), Outcome::Go, T0, Some(&creds));
    let id = t.call().unwrap();
    let reply = Reply { retry_after: Some("2"), ..answer(429, Some(r#"{"error":"slow \"down\""}"#)) };
    let tell = t.next(Some(&mut c), Outcome::Reply(reply), T0, Some(&creds));
    assert_eq!(
        json(&tell, &[]),
        serde_json::json!({"kind": "tell", "wake": [], "client": true, "event": {
            "type": "retry", "method": "DELETE", "path": "/order", "delayMs": 2000, "attempt": 1, "error": {
                "code": "RATE_LIMITED", "message": "DELETE /order failed with status 429: slow \"down\"",
                "status": 429, "method": "DELETE", "path": "/order", "retryAfterMs": 2000, "body": "slow \"down\""}}})
    );
    let wait = t.next(Some(&mut c), Outcome::Go, T0, Some(&creds));
    assert_eq!(wait, Need::Wait { ms: Some(2000.0), call: Some(id) });
    assert_eq!(json(&wait, &[]), serde_json::json!({"kind": "wait", "wake": [], "ms": 2000, "call": id}));
    assert!(matches!(t.next(Some(&mut c), Outcome::Go, T0 + 2000.0, Some(&creds)), Need::Http(_)));
}

#[test]
fn the_services_rate_limit_notice_is_told_before_what_follows_the_answer() {
    let mut c = calls::<()>();
    let mut t = one(&mut c, events(&Params::default()).unwrap());
    t.next(Some(&mut c), Outcome::Go, T0, None);
    let told = RateLimitNotice::parse("3", "", "", "");
    let need = t.next(Some(&mut c), Outcome::Reply(Reply { rate_limit: told, ..answer(200, None) }), T0, None);
    let v = json(&need, &[]);
    assert_eq!(
        (&v["kind"], &v["client"], &v["event"]["type"], &v["event"]["remaining"]),
        (&"tell".into(), &true.into(), &"rateLimit".into(), &3.into())
    );
    assert_eq!(t.next(Some(&mut c), Outcome::Go, T0, None), Need::Done("null".into()));
}

#[test]
fn an_aborted_task_stops_its_call_and_gives_back_its_places() {
    let mut c = calls::<()>();
    let mut t = one(&mut c, events(&Params::default()).unwrap());
    t.next(Some(&mut c), Outcome::Go, T0, None);
    let Need::Fail(e) = t.next(Some(&mut c), Outcome::Abort(Why::Signal), T0, None) else { panic!("a failure") };
    assert_eq!((e.code, e.method, e.path.as_deref()), (ErrorCode::Aborted, Some("GET"), Some("/events")));
    assert_eq!(t.call(), None);
    // Aborted before its first step: nothing is sent.
    let mut t = one(&mut c, events(&Params::default()).unwrap());
    let Need::Fail(e) = t.next(Some(&mut c), Outcome::Abort(Why::Signal), T0, None) else { panic!("a failure") };
    assert_eq!(e.code, ErrorCode::Aborted);
    // A failure and an error, as the driver reads them.
    let v = json(&Need::Fail(Error::invalid("limit", "must be a whole number")), &[]);
    assert_eq!(
        (&v["kind"], &v["error"]["param"], &v["error"]["code"]),
        (&"fail".into(), &"limit".into(), &"INVALID_PARAMS".into())
    );
    // A task ended midway gives its call back: the machine forgets it.
    let mut t = one(&mut c, events(&Params::default()).unwrap());
    t.next(Some(&mut c), Outcome::Go, T0, None);
    let id = t.call().unwrap();
    t.end(&mut c, T0);
    assert_eq!(t.call(), None);
    assert!(matches!(c.next(id, T0, None), crate::api::call::Need::Fail(_)));
}

/// A machine that asks for a call its client cannot sign, for ever.
struct Stubborn;

impl Machine<()> for Stubborn {
    fn step(&mut self, _got: Got<()>, _now: f64) -> Step<()> {
        Step::Call { request: cancel_order("0xa").unwrap(), expect: Expect::Json, limits: RETRIES }
    }
}

#[test]
fn a_machine_whose_calls_end_at_once_cannot_hold_the_page() {
    let mut c = calls::<()>();
    let mut t = Task::new(Stubborn);
    let Need::Fail(e) = t.next(Some(&mut c), Outcome::Go, T0, None) else { panic!("a failure") };
    assert_eq!(e.code, ErrorCode::Decode);
    // Freed: the machine is told, and a call it asks for then fails.
    assert!(matches!(t.next::<()>(None, Outcome::Go, T0, None), Need::Fail(_)));
}
