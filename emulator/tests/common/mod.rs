//! Shared helpers of the emulator's tests: start an emulator in-process on a free port, call it over real HTTP.
#![allow(dead_code)]

use std::time::{SystemTime, UNIX_EPOCH};

pub use predictkit_emulator::{Account, Config, Emulator, Running};
use reqwest::{Method, StatusCode};
use serde_json::Value;

/// An emulator with rate limits off (the limit tests turn them on).
pub async fn start() -> Running {
    start_with(Config { limits: false, ..Config::for_tests() }).await
}

pub async fn start_with(config: Config) -> Running {
    Emulator::bind(config).await.expect("bind 127.0.0.1:0").spawn()
}

thread_local! {
    /// One client per test thread (each test has its own runtime, and pooled connections belong to one runtime).
    static CLIENT: reqwest::Client = reqwest::Client::builder().no_proxy().build().unwrap();
}

pub fn client() -> reqwest::Client {
    CLIENT.with(Clone::clone)
}

pub struct Reply {
    pub status: StatusCode,
    pub headers: reqwest::header::HeaderMap,
    pub text: String,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text))
    }
    /// Asserts a 400 whose error names `param`.
    pub fn assert_bad(&self, param: &str) {
        assert_eq!(self.status, StatusCode::BAD_REQUEST, "{}", self.text);
        let error = self.json()["error"].as_str().unwrap_or_default().to_owned();
        assert!(error.contains(param), "error {error:?} does not name {param}");
    }
    pub fn assert_ok(&self) -> Value {
        assert_eq!(self.status, StatusCode::OK, "{}", self.text);
        self.json()
    }
}

pub async fn send(request: reqwest::RequestBuilder) -> Reply {
    let response = request.send().await.expect("request");
    let status = response.status();
    let headers = response.headers().clone();
    let text = response.text().await.expect("body");
    Reply { status, headers, text }
}

pub async fn get(base: &str, path: &str) -> Reply {
    send(client().get(format!("{base}{path}"))).await
}

pub async fn post(base: &str, path: &str, body: &Value) -> Reply {
    send(client().post(format!("{base}{path}")).header("content-type", "application/json").body(body.to_string())).await
}

pub fn now_ms() -> u128 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis()
}

/// A request carrying the five SERVICE_* headers, signed over `path` without its query string.
pub fn signed(
    method: Method,
    base: &str,
    path_and_query: &str,
    body: Option<&str>,
    account: &Account,
    timestamp: &str,
) -> reqwest::RequestBuilder {
    let path = path_and_query.split('?').next().unwrap();
    let signature = predictkit_emulator::auth::sign(&account.secret, timestamp, method.as_str(), path, body).unwrap();
    signed_as(method, base, path_and_query, body, account, timestamp, &signature)
}

/// Like [`signed`] with a given SERVICE_SIGNATURE.
pub fn signed_as(
    method: Method,
    base: &str,
    path_and_query: &str,
    body: Option<&str>,
    account: &Account,
    timestamp: &str,
    signature: &str,
) -> reqwest::RequestBuilder {
    let mut request = client()
        .request(method, format!("{base}{path_and_query}"))
        .header("SERVICE_ADDRESS", &account.address)
        .header("SERVICE_API_KEY", &account.api_key)
        .header("SERVICE_PASSPHRASE", &account.passphrase)
        .header("SERVICE_TIMESTAMP", timestamp)
        .header("SERVICE_SIGNATURE", signature);
    if let Some(body) = body {
        request = request.header("content-type", "application/json").body(body.to_owned());
    }
    request
}

pub async fn auth_get(base: &str, path_and_query: &str, account: &Account) -> Reply {
    send(signed(Method::GET, base, path_and_query, None, account, &now_ms().to_string())).await
}

pub async fn auth_delete(base: &str, path: &str, body: &Value, account: &Account) -> Reply {
    send(signed(Method::DELETE, base, path, Some(&body.to_string()), account, &now_ms().to_string())).await
}

/// The handy ids of GET /__admin/info.
pub async fn info(base: &str) -> Value {
    get(base, "/__admin/info").await.assert_ok()
}

pub async fn special_token(base: &str, kind: &str) -> String {
    let info = info(base).await;
    info["special_books"].as_array().unwrap().iter().find(|b| b["kind"] == kind).unwrap()["token_id"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// The first page of CLOB markets.
pub async fn clob_markets(base: &str) -> Vec<Value> {
    get(base, "/markets").await.assert_ok()["data"].as_array().unwrap().clone()
}

pub const REAL_BOOK_2: &str = "72610532355343625199299853218161700546393390326785971247545541945337255643692";
