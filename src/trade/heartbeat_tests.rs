use super::*;

/// Drives a switch against a scripted service: `answers` are given to the beats in order (then every beat is
/// accepted), each answered `latency` ms after it is sent; `wakes` moves the clock when the switch waits (a page's
/// timers held back: the wait asked for, or longer). Returns what was told and sent, as text, until `until`.
fn run(answers: &[Answer], latency: f64, until: f64, wakes: &dyn Fn(f64, f64) -> f64) -> Vec<String> {
    let mut hb = Heartbeats::new(DEFAULT_INTERVAL_MS, 0.0);
    let mut now = 0.0;
    let mut log = Vec::new();
    let mut answers = answers.iter().cloned();
    let mut n = 0;
    while now < until {
        match hb.step(now) {
            Step::Tell(status) => log.push(format!("{}@{now}", status.name())),
            Step::Send(id) => {
                log.push(format!("send {id:?}@{now}"));
                now += latency;
                n += 1;
                hb.answered(answers.next().unwrap_or(Answer::Accepted(format!("id{n}"))), now);
            }
            Step::Wait(ms) => {
                assert!(ms > 0.0 && ms <= DEFAULT_INTERVAL_MS, "wait {ms}");
                now = wakes(now, ms);
            }
            Step::Stop => {
                log.push(format!("stop@{now}"));
                break;
            }
        }
    }
    log
}

fn on_time(now: f64, ms: f64) -> f64 {
    now + ms
}

#[test]
fn a_chain_of_beats_every_interval_each_sending_the_id_the_last_answer_gave() {
    let log = run(&[], 50.0, 16_000.0, &on_time);
    assert_eq!(
        log,
        ["starting@0", "send \"\"@0", "ok@50", "send \"id1\"@5050", "send \"id2\"@10100", "send \"id3\"@15150",]
    );
}

#[test]
fn a_failed_beat_is_late_and_tried_again_within_the_deadline() {
    let log = run(
        &[Answer::Accepted("a".into()), Answer::Failed(None), Answer::Failed(Some(30_000.0))],
        10.0,
        10_000.0,
        &on_time,
    );
    assert_eq!(
        log,
        [
            "starting@0",
            "send \"\"@0",
            "ok@10",
            "send \"a\"@5010",
            "late@5020",
            // A second later (not the interval: the deadline runs).
            "send \"a\"@6020",
            // The service's long wait gives way to the deadline (10,010): half a second before it.
            "send \"a\"@9510",
            "ok@9520",
        ]
    );
}

#[test]
fn a_mismatch_sends_the_id_the_service_expects_at_once_and_a_run_of_them_is_late() {
    let log = run(&[Answer::Mismatch("want".into())], 10.0, 100.0, &on_time);
    assert_eq!(log, ["starting@0", "send \"\"@0", "send \"want\"@10", "ok@20"]);
    let m = || Answer::Mismatch("m".into());
    let log = run(&[m(), m(), m()], 10.0, 2_000.0, &on_time);
    assert_eq!(
        log,
        ["starting@0", "send \"\"@0", "send \"m\"@10", "send \"m\"@20", "late@30", "send \"m\"@1030", "ok@1040"]
    );
}

#[test]
fn a_page_whose_timers_were_held_back_tells_lost_before_it_beats_again() {
    // Every wait lasts 30 s (a throttled background tab): the deadline passes between beats.
    let log = run(&[], 10.0, 65_000.0, &|now, _| now + 30_000.0);
    assert_eq!(
        log,
        [
            "starting@0",
            "send \"\"@0",
            "ok@10",
            "lost@30010",
            "send \"id1\"@30010",
            "ok@30020",
            "lost@60020",
            "send \"id2\"@60020",
            "ok@60030"
        ]
    );
    // Held back 7 s: late, not lost.
    let log = run(&[], 10.0, 9_000.0, &|now, ms| if now > 0.0 { now + ms + 2_000.0 } else { now + ms });
    assert_eq!(log[..4], ["starting@0", "send \"\"@0", "ok@10", "late@7010"]);
}

#[test]
fn a_lapsed_chain_starts_again_from_an_empty_id() {
    // Held back 30 s: the service let the chain lapse and expects "" now.
    let log = run(&[Answer::Accepted("a".into()), Answer::Mismatch(String::new())], 10.0, 30_100.0, &|now, ms| {
        if now > 0.0 {
            now + 30_000.0
        } else {
            now + ms
        }
    });
    assert_eq!(
        log,
        ["starting@0", "send \"\"@0", "ok@10", "lost@30010", "send \"a\"@30010", "send \"\"@30020", "ok@30030"]
    );
}

#[test]
fn a_stalled_beat_is_given_up_in_time_for_another_before_the_deadline() {
    let mut hb = Heartbeats::new(DEFAULT_INTERVAL_MS, 0.0);
    hb.step(0.0);
    assert_eq!(hb.step(0.0), Step::Send(String::new()));
    assert_eq!(hb.beat_timeout_ms(0.0), DEFAULT_INTERVAL_MS, "before a chain: the interval");
    hb.answered(Answer::Accepted("a".into()), 50.0);
    hb.step(50.0);
    assert_eq!(hb.step(5_050.0), Step::Send("a".into()));
    // A second before the deadline (10,050), not the interval.
    assert_eq!(hb.beat_timeout_ms(5_050.0), 4_000.0);
    hb.answered(Answer::Failed(None), 9_050.0);
    assert_eq!(hb.step(9_050.0), Step::Tell(Status::Late));
    assert_eq!(hb.step(9_050.0), Step::Wait(500.0));
    assert_eq!(hb.step(9_550.0), Step::Send("a".into()));
    assert_eq!(hb.beat_timeout_ms(9_550.0), 500.0, "half a second at least");
    hb.answered(Answer::Accepted("b".into()), 9_600.0);
    assert_eq!(hb.step(9_600.0), Step::Tell(Status::Ok));
    // An 8 s interval leaves the same margin.
    let mut long = Heartbeats::new(MAX_INTERVAL_MS, 0.0);
    long.step(0.0);
    long.step(0.0);
    long.answered(Answer::Accepted("a".into()), 0.0);
    long.step(0.0);
    assert_eq!(long.step(8_000.0), Step::Send("a".into()));
    assert_eq!(long.beat_timeout_ms(8_000.0), 1_000.0);
}

#[test]
fn an_answer_after_the_deadline_tells_the_loss_first() {
    // The second beat is answered 6 s after it was sent: 11 s after the first was accepted.
    let mut hb = Heartbeats::new(DEFAULT_INTERVAL_MS, 0.0);
    assert_eq!(hb.step(0.0), Step::Tell(Status::Starting));
    assert_eq!(hb.step(0.0), Step::Send(String::new()));
    hb.answered(Answer::Accepted("a".into()), 0.0);
    assert_eq!(hb.step(0.0), Step::Tell(Status::Ok));
    assert_eq!(hb.step(5_000.0), Step::Send("a".into()));
    hb.answered(Answer::Accepted("b".into()), 11_000.0);
    assert_eq!(hb.step(11_000.0), Step::Tell(Status::Lost));
    assert_eq!(hb.event_json(Status::Lost), r#"{"status":"lost","beats":2,"lastOkAt":0}"#, "the beat before the loss");
    assert_eq!(hb.step(11_000.0), Step::Tell(Status::Ok));
    assert_eq!(hb.event_json(Status::Ok), r#"{"status":"ok","beats":2,"lastOkAt":11000}"#);
}

#[test]
fn it_stops_when_refused_aborted_stopped_or_freed_and_says_why_once() {
    let log = run(&[Answer::Refused], 10.0, 1_000.0, &on_time);
    assert_eq!(log, ["starting@0", "send \"\"@0", "stopped@10", "stop@10"]);
    for reason in [Reason::Stopped, Reason::Aborted, Reason::Freed] {
        let mut hb = Heartbeats::new(DEFAULT_INTERVAL_MS, 0.0);
        hb.step(0.0);
        assert_eq!(hb.step(0.0), Step::Send(String::new()));
        hb.stop(reason);
        hb.stop(Reason::Refused);
        // An answer in flight when it stopped changes nothing.
        hb.answered(Answer::Accepted("late".into()), 5.0);
        assert_eq!(hb.step(5.0), Step::Tell(Status::Stopped));
        assert_eq!(hb.step(5.0), Step::Stop);
        assert_eq!(hb.step(1e9), Step::Stop);
        assert_eq!(hb.reason(), Some(reason));
        assert_eq!(
            hb.event_json(Status::Stopped),
            format!(r#"{{"status":"stopped","beats":0,"reason":"{}"}}"#, reason.name())
        );
    }
}

#[test]
fn answers_are_read_whatever_their_status() {
    let table: [(u16, Option<&str>, Option<Answer>); 10] = [
        (200, Some(r#"{"heartbeat_id":"7f3c"}"#), Some(Answer::Accepted("7f3c".into()))),
        (400, Some(r#"{"error_msg":"Invalid Heartbeat ID","heartbeat_id":"e1"}"#), Some(Answer::Mismatch("e1".into()))),
        (400, Some(r#"{"error":"invalid body"}"#), None),
        (500, Some(r#"{"heartbeat_id":"x"}"#), None),
        (200, Some("{}"), None),
        (200, Some(r#"{"heartbeat_id":""}"#), None),
        (400, Some(r#"{"error_msg":"Invalid Heartbeat ID","heartbeat_id":""}"#), Some(Answer::Mismatch(String::new()))),
        (200, Some("not json"), None),
        (200, None, None),
        (200, Some(&*Box::leak(format!(r#"{{"heartbeat_id":"{}"}}"#, "a".repeat(129)).into_boxed_str())), None),
    ];
    for (status, text, want) in table {
        assert_eq!(read_answer(status, text), want, "{status} {text:?}");
    }
    let body = |id: &str| crate::api::heartbeat(id).body.unwrap();
    assert_eq!(body(""), r#"{"heartbeat_id":""}"#);
    assert_eq!(body("a\"b"), r#"{"heartbeat_id":"a\"b"}"#);
}

#[test]
fn the_interval_option_is_bounded_by_the_deadline() {
    assert_eq!(interval(&Value::Undefined), Ok(DEFAULT_INTERVAL_MS));
    assert_eq!(interval(&Value::Number(50.0)), Ok(50.0));
    assert_eq!(interval(&Value::Number(8_000.0)), Ok(8_000.0));
    for bad in [
        Value::Number(49.0),
        Value::Number(8_001.0),
        Value::Number(f64::NAN),
        Value::Str("5000".into()),
        Value::Bool(true),
    ] {
        assert_eq!(interval(&bad).unwrap_err().param.as_deref(), Some("intervalMs"), "{bad:?}");
    }
}

#[test]
fn a_switch_is_a_task_whose_beats_are_calls() {
    use crate::task::tests::{answer, calls, creds, T0};
    use crate::task::{Need, Outcome, Task, Why};
    let read = Expect::Any(read_answer, "the heartbeat's answer names no heartbeat_id");
    let mut c = calls::<Answer>();
    let creds = creds();
    let mut t = Task::new(Switch::new(Heartbeats::new(DEFAULT_INTERVAL_MS, T0), read, Some));
    let mut next =
        |t: &mut Task<Switch<Answer>>, outcome: Outcome<'_>, now: f64| t.next(Some(&mut c), outcome, now, Some(&creds));
    let event = |need: Need| match need {
        Need::Tell { client: false, event } => serde_json::from_str::<serde_json::Value>(&event).unwrap(),
        other => panic!("a status, got {other:?}"),
    };
    assert_eq!(event(next(&mut t, Outcome::Go, T0))["status"], "starting");
    // The first beat starts a chain, signed, with the switch's time and no retry of its own.
    let Need::Http(send) = next(&mut t, Outcome::Go, T0) else { panic!("a beat") };
    assert_eq!((send.method, send.url.ends_with("/v1/heartbeats")), ("POST", true));
    assert_eq!(send.body.as_deref(), Some(r#"{"heartbeat_id":""}"#));
    assert_eq!(send.attempt_ms, Some(DEFAULT_INTERVAL_MS));
    assert!(send.headers.iter().any(|(name, _)| *name == "SERVICE_SIGNATURE"));
    let ok = next(&mut t, Outcome::Reply(answer(200, Some(r#"{"heartbeat_id":"h1"}"#))), T0 + 20.0);
    assert_eq!(event(ok)["beats"], 1);
    assert_eq!(next(&mut t, Outcome::Go, T0 + 20.0), Need::Wait { ms: Some(DEFAULT_INTERVAL_MS), call: None });
    // The service's answer is read in Rust: a mismatch's id is the next one sent, at once.
    let Need::Http(_) = next(&mut t, Outcome::Go, T0 + 5_020.0) else { panic!("a beat") };
    let mismatch = answer(400, Some(r#"{"error_msg":"Invalid Heartbeat ID","heartbeat_id":"e7"}"#));
    let Need::Http(send) = next(&mut t, Outcome::Reply(mismatch), T0 + 5_030.0) else { panic!("a beat") };
    assert_eq!(send.body.as_deref(), Some(r#"{"heartbeat_id":"e7"}"#));
    // A stop while a beat is on its way ends its call and the switch.
    let stopped = event(next(&mut t, Outcome::Abort(Why::Stop), T0 + 5_040.0));
    assert_eq!((&stopped["status"], &stopped["reason"]), (&"stopped".into(), &"stopped".into()));
    assert_eq!(t.call(), None);
    assert_eq!(next(&mut t, Outcome::Go, T0 + 5_040.0), Need::Done("null".into()));

    // A key the service does not take stops the switch; another failure is a late beat, tried again.
    assert_eq!(failure(&Error { status: Some(401), ..Error::decode("") }), Answer::Refused);
    assert_eq!(failure(&Error { status: Some(404), ..Error::decode("") }), Answer::Refused);
    let busy = Error { status: Some(429), retry_after_ms: Some(1500), ..Error::decode("") };
    assert_eq!(failure(&busy), Answer::Failed(Some(1500.0)));
    assert_eq!(failure(&Error::decode("no answer")), Answer::Failed(None));
    // Freed: the switch says so and ends.
    let mut t = Task::new(Switch::new(Heartbeats::new(DEFAULT_INTERVAL_MS, T0), read, Some));
    let freed = event(t.next::<Answer>(None, Outcome::Go, T0, None));
    assert_eq!(freed["reason"], "freed");
    assert_eq!(t.next::<Answer>(None, Outcome::Go, T0, None), Need::Done("null".into()));
}
