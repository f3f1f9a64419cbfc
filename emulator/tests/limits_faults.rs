//! Rate limits, fault injection, the request log and the admin reset.

mod common;

use std::time::{Duration, Instant};

use common::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

async fn limited(scale: f64) -> Running {
    start_with(Config { limits_scale: scale, ..Config::for_tests() }).await
}

fn retry_after(r: &Reply) -> u64 {
    r.headers["retry-after"].to_str().unwrap().parse().expect("Retry-After in whole seconds")
}

#[tokio::test]
async fn route_limits_answer_429_with_retry_after() {
    let emu = limited(0.01).await;
    let b = &emu.url;
    let path = format!("/book?token_id={REAL_BOOK_2}");
    // GET /book: 200 per 10 s, scaled to 2.
    get(b, &path).await.assert_ok();
    get(b, &path).await.assert_ok();
    let r = get(b, &path).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(r.json()["error"].as_str().unwrap().contains("GET /book"));
    let wait = retry_after(&r);
    assert!((9..=10).contains(&wait), "{wait}");
    // Keyed on SERVICE_API_KEY when present: another key has its own window.
    let other = send(client().get(format!("{b}{path}")).header("SERVICE_API_KEY", "someone-else")).await;
    assert_eq!(other.status, StatusCode::OK);
    // Other routes are not affected by the /book window.
    get(b, "/").await.assert_ok();
    // GET /markets: 300 per 10 s, scaled to 3.
    for _ in 0..3 {
        get(b, "/markets").await.assert_ok();
    }
    let r = get(b, "/markets").await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(r.json()["error"].as_str().unwrap().contains("GET /markets"));
    // GET /: 50 per 10 s, scaled to 1 (it was used once above).
    let r = get(b, "/").await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(retry_after(&r) >= 1);
    // Admin routes are exempt; reset clears the windows.
    for _ in 0..5 {
        get(b, "/__admin/info").await.assert_ok();
    }
    post(b, "/__admin/reset", &json!({})).await.assert_ok();
    get(b, &path).await.assert_ok();
}

#[tokio::test]
async fn surface_wide_limit_counts_every_route() {
    // "All CLOB routes": 5,000 per 10 s, scaled to 5. GET /sampling-markets has no window of its own.
    let emu = limited(0.001).await;
    let b = &emu.url;
    for _ in 0..5 {
        get(b, "/sampling-markets").await.assert_ok();
    }
    let r = get(b, "/sampling-markets").await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(r.json()["error"].as_str().unwrap().contains("clob: all routes"));
    // GET /book's own window (200 × 0.001 → 1) is empty, but the surface's is full.
    let r = get(b, &format!("/book?token_id={REAL_BOOK_2}")).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    // The catalog surface has its own window: "All catalog routes", 4,000 × 0.001 = 4.
    for _ in 0..4 {
        get(b, "/series?limit=1").await.assert_ok();
    }
    let r = get(b, "/series?limit=1").await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(r.json()["error"].as_str().unwrap().contains("catalog: all routes"));
    // Refused requests count nowhere: the activity surface (no limits in the interface) is still served.
    get(b, "/trades?limit=1").await.assert_ok();
}

#[tokio::test]
async fn cancel_burst_limit() {
    let emu = limited(0.001).await;
    let (b, demo) = (&emu.url, &emu.demo);
    // DELETE /order: burst 2,400 per 10 s → 2; sustained 24,000 per 10 min → 24.
    for _ in 0..2 {
        auth_delete(b, "/order", &json!({ "orderId": "0x1" }), demo).await.assert_ok();
    }
    let r = auth_delete(b, "/order", &json!({ "orderId": "0x1" }), demo).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(r.json()["error"].as_str().unwrap().contains("burst"));
    // The cancel-market route shares the trading windows.
    let r = auth_delete(b, "/cancel-market-orders", &json!({ "market": "0x1" }), demo).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn limits_can_be_turned_off() {
    let emu = start_with(Config { limits: false, limits_scale: 0.001, ..Config::for_tests() }).await;
    for _ in 0..30 {
        get(&emu.url, "/").await.assert_ok();
    }
}

async fn add_fault(base: &str, rule: Value) -> u64 {
    post(base, "/__admin/faults", &rule).await.assert_ok()["id"].as_u64().unwrap()
}

#[tokio::test]
async fn each_fault_kind() {
    let emu = start().await;
    let b = &emu.url;
    let path = format!("/book?token_id={REAL_BOOK_2}");
    let normal = get(b, &path).await.text;
    add_fault(
        b,
        json!({
            "path": "/book", "method": "GET",
            "faults": [
                { "kind": "delay", "ms": 300 },
                { "kind": "status", "status": 503, "retry_after": 2 },
                { "kind": "reset" },
                { "kind": "malformed" },
                { "kind": "truncated" },
                { "kind": "slow_body", "ms": 400 },
            ],
        }),
    )
    .await;
    // Other paths and methods are untouched.
    get(b, "/").await.assert_ok();
    post(b, "/books", &json!([{ "token_id": REAL_BOOK_2 }])).await.assert_ok();
    let t = Instant::now();
    let r = get(b, &path).await;
    assert!(t.elapsed() >= Duration::from_millis(300));
    assert_eq!(r.text, normal, "delay then the normal answer");
    let r = get(b, &path).await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(retry_after(&r), 2);
    assert!(r.json()["error"].is_string());
    let reset = client().get(format!("{b}{path}")).send().await;
    let err = reset.expect_err("a reset connection is a network error");
    assert!(!err.is_status() && !err.is_decode(), "{err:?}");
    let r = get(b, &path).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(serde_json::from_str::<Value>(&r.text).is_err(), "malformed: {}", r.text);
    let r = get(b, &path).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.text.len() < normal.len() && normal.starts_with(&r.text), "truncated");
    assert!(serde_json::from_str::<Value>(&r.text).is_err());
    let t = Instant::now();
    let r = get(b, &path).await;
    assert!(t.elapsed() >= Duration::from_millis(350), "{:?}", t.elapsed());
    assert_eq!(r.text, normal, "slow body arrives whole");
    // The sequence is used up: normal service again.
    assert_eq!(get(b, &path).await.text, normal);
    let listed = get(b, "/__admin/faults").await.assert_ok();
    assert_eq!(listed["rules"][0]["remaining"], 0);
    assert_eq!(listed["rules"][0]["injected"], 6);
}

#[tokio::test]
async fn repeating_faults_spare_preflights_and_admin_routes() {
    let emu = start().await;
    let b = &emu.url;
    add_fault(b, json!({ "path": "/", "faults": ["reset", { "kind": "status", "status": 500 }], "repeat": true }))
        .await;
    for _ in 0..2 {
        assert!(client().get(format!("{b}/events")).send().await.is_err());
        assert_eq!(get(b, "/events").await.status, StatusCode::INTERNAL_SERVER_ERROR);
    }
    let preflight = send(
        client()
            .request(Method::OPTIONS, format!("{b}/book"))
            .header("Origin", "http://localhost:5173")
            .header("Access-Control-Request-Method", "GET"),
    )
    .await;
    assert!(preflight.status.is_success());
    assert_eq!(preflight.headers["access-control-allow-origin"], "*");
    get(b, "/__admin/info").await.assert_ok();
    let r = send(client().delete(format!("{b}/__admin/faults"))).await;
    assert_eq!(r.status, StatusCode::OK);
    get(b, "/events").await.assert_ok();
    // Faulted answers carry CORS headers too.
    add_fault(b, json!({ "path": "/events", "faults": [{ "kind": "status", "status": 429, "retry_after": 3 }] })).await;
    let r = send(client().get(format!("{b}/events")).header("Origin", "http://localhost:5173")).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(r.headers["access-control-allow-origin"], "*");
    assert_eq!(retry_after(&r), 3);
}

#[tokio::test]
async fn fault_rules_are_validated() {
    let emu = start().await;
    let b = &emu.url;
    for bad in [
        json!({ "faults": ["reset"] }),
        json!({ "path": "book", "faults": ["reset"] }),
        json!({ "path": "/", "faults": [] }),
        json!({ "path": "/", "faults": [{ "kind": "explode" }] }),
        json!({ "path": "/", "faults": [{ "kind": "status", "status": 42 }] }),
        json!({ "path": "/", "rate": 1.5, "kinds": ["reset"] }),
        json!({ "path": "/", "rate": 0.5 }),
        json!({ "path": "/", "rate": 0.5, "kinds": ["reset"], "faults": ["reset"] }),
    ] {
        let r = post(b, "/__admin/faults", &bad).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{bad}");
    }
}

#[tokio::test]
async fn random_faults_are_deterministic_by_seed() {
    let emu = start().await;
    let b = &emu.url;
    let run = |seed: u64| async move {
        send(client().delete(format!("{b}/__admin/faults"))).await;
        add_fault(b, json!({ "path": "/", "rate": 0.4, "kinds": [{ "kind": "status", "status": 502 }, "malformed"], "seed": seed })).await;
        let mut out = Vec::new();
        for _ in 0..40 {
            let r = get(b, "/").await;
            out.push(if r.status == StatusCode::BAD_GATEWAY {
                'S'
            } else if r.text == "\"OK\"" {
                '.'
            } else {
                'M'
            });
        }
        out.into_iter().collect::<String>()
    };
    let a = run(7).await;
    assert_eq!(a, run(7).await);
    assert_ne!(a, run(8).await);
    assert!(a.contains('S') && a.contains('M') && a.contains('.'), "{a}");
}

#[tokio::test]
async fn request_log_records_what_was_sent_without_secrets() {
    let emu = start().await;
    let (b, demo) = (&emu.url, &emu.demo);
    send(client().delete(format!("{b}/__admin/requests"))).await;
    get(b, "/events?limit=5").await.assert_ok();
    get(b, "/events?limit=500").await.assert_bad("limit");
    auth_get(b, "/data/orders?next_cursor=MA==", demo).await.assert_ok();
    auth_delete(b, "/order", &json!({ "orderId": "0xabc" }), demo).await.assert_ok();
    get(b, "/__admin/info").await.assert_ok();
    let log = get(b, "/__admin/requests").await;
    let entries = log.json()["requests"].as_array().unwrap().clone();
    let summary: Vec<(String, String, String, u64)> = entries
        .iter()
        .map(|e| {
            (
                e["method"].as_str().unwrap().into(),
                e["path"].as_str().unwrap().into(),
                e["query"].as_str().unwrap().into(),
                e["status"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("GET".into(), "/events".into(), "limit=5".into(), 200),
            ("GET".into(), "/events".into(), "limit=500".into(), 400),
            ("GET".into(), "/data/orders".into(), "next_cursor=MA==".into(), 200),
            ("DELETE".into(), "/order".into(), String::new(), 200),
        ]
    );
    assert!(entries.iter().all(|e| e["ms"].as_f64().unwrap() >= 0.0 && e["at"].as_u64().unwrap() > 1_700_000_000_000));
    assert_eq!(entries[2]["headers"]["SERVICE_API_KEY"], demo.api_key.as_str());
    assert_eq!(entries[2]["headers"]["SERVICE_PASSPHRASE"], "(sent)");
    assert_eq!(entries[3]["body"], r#"{"orderId":"0xabc"}"#);
    assert!(!log.text.contains(&demo.secret) && !log.text.contains(&demo.passphrase), "no secrets in the log");
    let filtered = get(b, "/__admin/requests?path=/data").await.assert_ok();
    assert_eq!(filtered["count"], 1);
    send(client().delete(format!("{b}/__admin/requests"))).await;
    assert_eq!(get(b, "/__admin/requests").await.assert_ok()["count"], 0);
}

#[tokio::test]
async fn reset_clears_faults_and_log() {
    let emu = start().await;
    let b = &emu.url;
    add_fault(b, json!({ "path": "/", "faults": [{ "kind": "status", "status": 500 }], "repeat": true })).await;
    assert_eq!(get(b, "/").await.status, StatusCode::INTERNAL_SERVER_ERROR);
    post(b, "/__admin/reset", &json!({})).await.assert_ok();
    assert_eq!(get(b, "/__admin/faults").await.assert_ok()["rules"], json!([]));
    assert_eq!(get(b, "/__admin/requests").await.assert_ok()["count"], 0);
    get(b, "/").await.assert_ok();
}
