//! Trading over real HTTP (and the streaming channels): the order version, API keys from wallet signatures, orders
//! placed, matched, listed and cancelled, every refusal, and the development wallet. Orders are built and signed
//! here with the emulator's own EIP-712 (alloy, checked against the upstream vectors in its unit tests) and k256,
//! never with the library's: `tests/order_crosscheck.rs` at the root holds the client against the emulator.

mod common;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use alloy_primitives::{Address, B256, U256};
use common::*;
use futures_util::{SinkExt, StreamExt};
use k256::ecdsa::SigningKey;
use predictkit_emulator::trading::ecdsa;
use predictkit_emulator::trading::eip712::{clob_auth_digest, Exchanges, Version, CLOB_AUTH_MESSAGE};
use predictkit_emulator::trading::order::{Order, OrderType, Side, SignatureType};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

const CHAIN: u64 = 80002;
/// The development wallet's first two keys (public knowledge).
const KEY_0: &str = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const KEY_1: &str = "59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
const KEY_STRANGER: &str = "0101010101010101010101010101010101010101010101010101010101010101";
const ONE: u64 = 1_000_000;

/// An emulator whose books move only when orders (or admin ticks) move them.
async fn still() -> Running {
    start_with(Config { limits: false, stream_rate: 0.0, ..Config::for_tests() }).await
}

fn now_s() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs()
}

/// The L1 headers (the interface's names for the upstream `POLY_ADDRESS`, `POLY_SIGNATURE`, `POLY_TIMESTAMP`,
/// `POLY_NONCE`).
const HEADER_NAMES: [&str; 4] = ["SERVICE_ADDRESS", "SERVICE_SIGNATURE", "SERVICE_TIMESTAMP", "SERVICE_NONCE"];

fn signing_key(hex: &str) -> SigningKey {
    SigningKey::from_slice(&hex::decode(hex).unwrap()).unwrap()
}

fn address_of(key: &SigningKey) -> Address {
    ecdsa::address_of(key.verifying_key())
}

fn checksummed(a: Address) -> String {
    a.to_checksum(None)
}

fn hex0x(bytes: &[u8]) -> String {
    format!("0x{}", hex::encode(bytes))
}

/// A wallet's signature of a digest: `0x` r ‖ s ‖ v, v 27/28.
fn sign(key: &SigningKey, digest: &B256) -> String {
    hex0x(&ecdsa::sign(key, digest).unwrap())
}

/// The digest of the ClobAuth message `key` signs at `timestamp` with `nonce`.
fn auth_digest(address: Address, timestamp: &str, nonce: u64) -> B256 {
    clob_auth_digest(CHAIN, address, timestamp, U256::from(nonce))
}

/// The ClobAuth message as `eth_signTypedData_v4` takes it (the shape of the upstream clients' documents).
fn auth_typed_data(address: Address, timestamp: &str, nonce: u64) -> Value {
    json!({
        "types": {
            "EIP712Domain": [{"name": "name", "type": "string"}, {"name": "version", "type": "string"},
                             {"name": "chainId", "type": "uint256"}],
            "ClobAuth": [{"name": "address", "type": "address"}, {"name": "timestamp", "type": "string"},
                         {"name": "nonce", "type": "uint256"}, {"name": "message", "type": "string"}],
        },
        "primaryType": "ClobAuth",
        "domain": {"name": "ClobAuthDomain", "version": "1", "chainId": CHAIN},
        "message": {"address": checksummed(address), "timestamp": timestamp, "nonce": nonce, "message": CLOB_AUTH_MESSAGE},
    })
}

/// A request with the four L1 headers, signed by `key` (its ClobAuth at `timestamp` with `nonce`).
fn l1(method: Method, base: &str, path: &str, key: &SigningKey, nonce: u64, timestamp: u64) -> reqwest::RequestBuilder {
    let address = address_of(key);
    let digest = auth_digest(address, &timestamp.to_string(), nonce);
    let values = [checksummed(address), sign(key, &digest), timestamp.to_string(), nonce.to_string()];
    let mut request = client().request(method, format!("{base}{path}"));
    for (name, value) in HEADER_NAMES.iter().zip(values) {
        request = request.header(*name, value);
    }
    request
}

/// Like [`l1`], with one header's value replaced.
fn l1_with(
    method: Method,
    base: &str,
    path: &str,
    key: &SigningKey,
    nonce: u64,
    name: &str,
    value: &str,
) -> reqwest::RequestBuilder {
    let address = address_of(key);
    let timestamp = now_s();
    let digest = auth_digest(address, &timestamp.to_string(), nonce);
    let values = [checksummed(address), sign(key, &digest), timestamp.to_string(), nonce.to_string()];
    let mut request = client().request(method, format!("{base}{path}"));
    for (header, v) in HEADER_NAMES.iter().zip(values) {
        request = request.header(*header, if *header == name { value.to_owned() } else { v });
    }
    request
}

/// Someone who trades: a wallet key and the API key created from it.
struct Trader {
    key: SigningKey,
    address: Address,
    account: Account,
}

async fn trader(base: &str, hex: &str) -> Trader {
    let key = signing_key(hex);
    let address = address_of(&key);
    let r = send(l1(Method::POST, base, "/auth/api-key", &key, 0, now_s())).await.assert_ok();
    let account = Account {
        address: checksummed(address),
        api_key: r["apiKey"].as_str().unwrap().to_owned(),
        secret: r["secret"].as_str().unwrap().to_owned(),
        passphrase: r["passphrase"].as_str().unwrap().to_owned(),
    };
    Trader { key, address, account }
}

/// What an order needs to know of its market, from GET /book.
struct Market {
    token: String,
    condition: String,
    tick: u64,
    min: u64,
    neg_risk: bool,
    bids: Vec<(u64, u64)>,
    asks: Vec<(u64, u64)>,
}

fn units(text: &str) -> u64 {
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    int.parse::<u64>().unwrap() * ONE + format!("{frac:0<6}")[..6].parse::<u64>().unwrap()
}

/// Levels best first, in units.
fn levels(v: &Value, best_high: bool) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (units(l["price"].as_str().unwrap()), units(l["size"].as_str().unwrap())))
        .collect();
    out.sort_by_key(|l| if best_high { u64::MAX - l.0 } else { l.0 });
    out
}

async fn book(base: &str, token: &str) -> Value {
    get(base, &format!("/book?token_id={token}")).await.assert_ok()
}

/// A special book's market (seed 1: `ten_levels` has tick 0.01 and minimum size 5, which the sizes below assume).
async fn market(base: &str, kind: &str) -> Market {
    let token = special_token(base, kind).await;
    assert!(kind != "ten_levels" || units(book(base, &token).await["min_order_size"].as_str().unwrap()) <= 5 * ONE);
    market_of(base, token).await
}

/// A token's market as its book shows it now.
async fn market_of(base: &str, token: String) -> Market {
    let b = book(base, &token).await;
    Market {
        condition: b["market"].as_str().unwrap().to_owned(),
        tick: units(b["tick_size"].as_str().unwrap()),
        min: units(b["min_order_size"].as_str().unwrap()),
        neg_risk: b["neg_risk"].as_bool().unwrap(),
        bids: levels(&b["bids"], true),
        asks: levels(&b["asks"], false),
        token,
    }
}

/// `size × price` in units (both in units).
fn times(size: u64, price: u64) -> u64 {
    (u128::from(size) * u128::from(price) / u128::from(ONE)) as u64
}

static SALT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// An order of `t` (EOA) with these amounts.
fn order(version: Version, t: &Trader, m: &Market, side: Side, maker: u64, taker: u64) -> Order {
    Order {
        version,
        salt: SALT.fetch_add(1, std::sync::atomic::Ordering::Relaxed) * 7919,
        maker: t.address,
        signer: t.address,
        token_id: U256::from_str_radix(&m.token, 10).unwrap(),
        maker_amount: maker,
        taker_amount: taker,
        side,
        signature_type: SignatureType::Eoa,
        expiration: 0,
        taker: Address::ZERO,
        nonce: U256::ZERO,
        fee_rate_bps: 0,
        timestamp_ms: now_s() * 1000,
        metadata: B256::ZERO,
        builder: B256::ZERO,
    }
}

/// The order's hash on the emulator's chain, for its market's exchange.
fn hash(o: &Order, m: &Market) -> B256 {
    o.hash(CHAIN, Exchanges::published(CHAIN, o.version).unwrap().for_market(m.neg_risk))
}

/// One placement as `POST /order` takes it (`POST /orders` an array of them): `{order, owner, orderType, postOnly}`,
/// the order's amounts and ids decimal text, the salt a number, the side `BUY`/`SELL`.
fn placement(o: &Order, signature: &str, owner: &str, order_type: OrderType, post_only: bool) -> Value {
    let mut order = json!({
        "salt": o.salt, "maker": checksummed(o.maker), "signer": checksummed(o.signer),
        "tokenId": o.token_id.to_string(), "makerAmount": o.maker_amount.to_string(),
        "takerAmount": o.taker_amount.to_string(), "side": if o.side == Side::Buy { "BUY" } else { "SELL" },
        "expiration": o.expiration.to_string(), "signatureType": o.signature_type as u8, "signature": signature,
    });
    let extra = match o.version {
        Version::V1 => json!({
            "taker": checksummed(o.taker), "nonce": o.nonce.to_string(), "feeRateBps": o.fee_rate_bps.to_string(),
        }),
        Version::V2 | Version::V3 => json!({
            "timestamp": o.timestamp_ms.to_string(), "metadata": o.metadata.to_string(), "builder": o.builder.to_string(),
        }),
    };
    order.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    json!({ "order": order, "owner": owner, "orderType": order_type.text(), "postOnly": post_only })
}

/// POST /order's body, signed by `key`, owned by `owner`.
fn body_signed(o: &Order, m: &Market, key: &SigningKey, owner: &str, order_type: OrderType, post_only: bool) -> String {
    placement(o, &sign(key, &hash(o, m)), owner, order_type, post_only).to_string()
}

fn body(o: &Order, m: &Market, t: &Trader, order_type: OrderType) -> String {
    body_signed(o, m, &t.key, &t.account.api_key, order_type, false)
}

async fn post_signed(base: &str, path: &str, body: &str, account: &Account) -> Reply {
    send(signed(Method::POST, base, path, Some(body), account, &now_ms().to_string())).await
}

/// Places a limit order (`shares` at `price`, both in units).
async fn limit(
    base: &str,
    t: &Trader,
    m: &Market,
    side: Side,
    price: u64,
    shares: u64,
    order_type: OrderType,
) -> Reply {
    let cash = times(shares, price);
    let (maker, taker) = if side == Side::Buy { (cash, shares) } else { (shares, cash) };
    let o = order(Version::V2, t, m, side, maker, taker);
    post_signed(base, "/order", &body(&o, m, t, order_type), &t.account).await
}

fn assert_refused(r: &Reply, piece: &str) {
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    let error = r.json()["error"].as_str().unwrap_or_default().to_owned();
    assert!(error.contains(piece), "error {error:?} lacks {piece:?}");
}

fn has_level(levels: &Value, price: &str, size: &str) -> bool {
    levels.as_array().unwrap().iter().any(|l| l["price"] == price && l["size"] == size)
}

fn has_price(levels: &Value, price: &str) -> bool {
    levels.as_array().unwrap().iter().any(|l| l["price"] == price)
}

/// The minimal decimal text of units ("0.5", "12", "0.0125").
fn text(units: u64) -> String {
    let s = format!("{}.{:06}", units / ONE, units % ONE);
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

// ---- version ----

#[tokio::test]
async fn the_order_version_is_served_and_switched() {
    let emu = still().await;
    let b = &emu.url;
    assert_eq!(get(b, "/version").await.assert_ok(), json!({ "version": 2 }));
    let served = info(b).await;
    assert_eq!((served["chain_id"].as_u64(), served["order_version"].as_u64()), (Some(CHAIN), Some(2)));
    assert_eq!(
        served["exchanges"]["exchange"],
        checksummed(Exchanges::published(CHAIN, Version::V2).unwrap().exchange).as_str()
    );
    assert_eq!(post(b, "/__admin/version", &json!({ "version": 1 })).await.assert_ok(), json!({ "version": 1 }));
    assert_eq!(get(b, "/version").await.assert_ok(), json!({ "version": 1 }));
    let served = info(b).await;
    assert_eq!(served["order_version"], 1);
    assert_eq!(
        served["exchanges"]["exchange"],
        checksummed(Exchanges::published(CHAIN, Version::V1).unwrap().exchange).as_str()
    );
    // A service that says 3 takes every order on the third exchange (one exchange, neg-risk markets too).
    assert_eq!(post(b, "/__admin/version", &json!({ "version": 3 })).await.assert_ok(), json!({ "version": 3 }));
    assert_eq!(get(b, "/version").await.assert_ok(), json!({ "version": 3 }));
    let served = info(b).await;
    assert_eq!(served["order_version"], 3);
    assert_eq!(
        served["exchanges"]["exchange"],
        checksummed(Exchanges::published(CHAIN, Version::V3).unwrap().exchange).as_str()
    );
    for bad in [json!({ "version": 4 }), json!({}), json!([1])] {
        post(b, "/__admin/version", &bad).await.assert_bad("version");
    }
    post(b, "/__admin/reset", &json!({})).await.assert_ok();
    assert_eq!(get(b, "/version").await.assert_ok(), json!({ "version": 2 }));
}

#[tokio::test]
async fn another_chain_is_served_too() {
    let emu = start_with(Config { limits: false, stream_rate: 0.0, chain_id: 137, ..Config::for_tests() }).await;
    assert_eq!(info(&emu.url).await["chain_id"], 137);
    let r = post(&emu.url, "/wallet", &json!({ "jsonrpc": "2.0", "id": 1, "method": "eth_chainId" })).await.assert_ok();
    assert_eq!(r["result"], "0x89");
}

// ---- keys ----

#[tokio::test]
async fn api_keys_are_created_once_then_derived() {
    let emu = still().await;
    let b = &emu.url;
    let key = signing_key(KEY_0);
    let derive = |nonce: u64| l1(Method::GET, b, "/auth/derive-api-key", &key, nonce, now_s());
    let r = send(derive(0)).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text);
    assert!(r.json()["error"].is_string());

    let created = send(l1(Method::POST, b, "/auth/api-key", &key, 0, now_s())).await.assert_ok();
    let api_key = created["apiKey"].as_str().unwrap();
    assert_eq!(api_key.len(), 36);
    assert_eq!(&api_key[14..15], "4", "UUID v4-shaped");
    assert_eq!(created["passphrase"].as_str().unwrap().len(), 64);
    assert_eq!(created["secret"].as_str().unwrap().len(), 44);
    let again = send(l1(Method::POST, b, "/auth/api-key", &key, 0, now_s())).await;
    assert_eq!(again.status, StatusCode::BAD_REQUEST);
    assert_eq!(again.json(), json!({ "error": "Could not create api key" }));
    assert_eq!(send(derive(0)).await.assert_ok(), created);

    // Another nonce is another key; the same (address, nonce) after a reset is the same key again.
    let other = send(l1(Method::POST, b, "/auth/api-key", &key, 1, now_s())).await.assert_ok();
    assert_ne!(other["apiKey"], created["apiKey"]);
    let listed = get(b, "/__admin/accounts").await.assert_ok();
    assert_eq!(listed.as_array().unwrap().len(), 5);
    assert_eq!(listed[3]["apiKey"], created["apiKey"]);
    post(b, "/__admin/reset", &json!({})).await.assert_ok();
    assert_eq!(send(derive(0)).await.status, StatusCode::NOT_FOUND, "a reset forgets created keys");
    assert_eq!(get(b, "/__admin/accounts").await.assert_ok().as_array().unwrap().len(), 3);
    assert_eq!(send(l1(Method::POST, b, "/auth/api-key", &key, 0, now_s())).await.assert_ok(), created);
}

#[tokio::test]
async fn key_requests_with_a_bad_signature_or_a_stale_time_are_unauthorized() {
    let emu = still().await;
    let b = &emu.url;
    let key = signing_key(KEY_0);
    let address = checksummed(address_of(&key));
    // Signed by another key.
    let stranger = signing_key(KEY_STRANGER);
    let digest = auth_digest(address_of(&key), &now_s().to_string(), 0);
    let r = send(
        client()
            .post(format!("{b}/auth/api-key"))
            .header("SERVICE_ADDRESS", &address)
            .header("SERVICE_SIGNATURE", sign(&stranger, &digest))
            .header("SERVICE_TIMESTAMP", now_s().to_string())
            .header("SERVICE_NONCE", "0"),
    )
    .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.text);
    assert!(r.json()["error"].as_str().unwrap().contains("SERVICE_SIGNATURE"));
    // Signed for another nonce than the header says.
    let r = send(l1_with(Method::POST, b, "/auth/api-key", &key, 5, "SERVICE_NONCE", "6")).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    // Stale, and from the future.
    for ts in [now_s() - 400, now_s() + 400] {
        let r = send(l1(Method::POST, b, "/auth/api-key", &key, 0, ts)).await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.text);
        assert!(r.json()["error"].as_str().unwrap().contains("SERVICE_TIMESTAMP"));
    }
    // Missing and malformed headers.
    let r = send(client().post(format!("{b}/auth/api-key"))).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    for (name, value) in [
        ("SERVICE_SIGNATURE", "0x1234"),
        ("SERVICE_NONCE", "x"),
        ("SERVICE_ADDRESS", "0x12"),
        ("SERVICE_TIMESTAMP", "soon"),
    ] {
        let r = send(l1_with(Method::GET, b, "/auth/derive-api-key", &key, 0, name, value)).await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{name}: {}", r.text);
        assert!(r.json()["error"].as_str().unwrap().contains(name), "{}", r.text);
    }
    // Nothing was created.
    assert_eq!(get(b, "/__admin/accounts").await.assert_ok().as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn a_created_key_reads_the_account_routes() {
    let emu = still().await;
    let b = &emu.url;
    let t = trader(b, KEY_0).await;
    let orders = auth_get(b, "/data/orders", &t.account).await.assert_ok();
    assert_eq!((orders["count"].as_u64(), orders["next_cursor"].as_str()), (Some(0), Some("")));
    let trades = auth_get(b, "/data/trades", &t.account).await.assert_ok();
    assert_eq!(trades["count"], 0);
    let r = auth_delete(b, "/order", &json!({ "orderId": "0x01" }), &t.account).await.assert_ok();
    assert_eq!(r["not_canceled"]["0x01"], "order not found");
    // A wrong secret is still refused; the catalog's accounts still work.
    let mut wrong = t.account.clone();
    wrong.secret = emu.demo.secret.clone();
    assert_eq!(auth_get(b, "/data/orders", &wrong).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(auth_get(b, "/data/orders", &emu.demo).await.assert_ok()["count"], 100);
}

// ---- orders ----

#[tokio::test]
async fn a_resting_order_is_listed_and_cancelled() {
    let emu = still().await;
    let b = &emu.url;
    let t = trader(b, KEY_0).await;
    let m = market(b, "ten_levels").await;
    let before = book(b, &m.token).await;
    // 10 shares at 0.5: inside the spread (the book's levels are one tick apart around 0.5).
    let r = limit(b, &t, &m, Side::Buy, ONE / 2, 10 * ONE, OrderType::Gtc).await.assert_ok();
    assert_eq!(r["success"], true);
    assert_eq!(r["errorMsg"], "");
    assert_eq!(r["status"], "live");
    assert_eq!((r["makingAmount"].as_str(), r["takingAmount"].as_str()), (Some("0"), Some("0")));
    let id = r["orderID"].as_str().unwrap().to_owned();
    assert_eq!(r["orderHash"], id.as_str());
    assert_eq!(id.len(), 66);

    let after = book(b, &m.token).await;
    assert!(has_level(&after["bids"], "0.5", "10"), "{after}");
    assert_eq!(after["asks"], before["asks"]);
    assert_ne!(after["hash"], before["hash"]);

    let listed = auth_get(b, "/data/orders", &t.account).await.assert_ok();
    assert_eq!(listed["count"], 1);
    let o = &listed["data"][0];
    assert_eq!(o["id"], id.as_str());
    assert_eq!(
        (o["status"].as_str(), o["price"].as_str(), o["originalSize"].as_str()),
        (Some("LIVE"), Some("0.5"), Some("10"))
    );
    assert_eq!(
        (o["side"].as_str(), o["order_type"].as_str(), o["sizeMatched"].as_str()),
        (Some("BUY"), Some("GTC"), Some("0"))
    );
    assert_eq!(o["assetId"], m.token.as_str());
    assert_eq!(o["market"], m.condition.as_str());
    assert_eq!(o["makerAddress"], checksummed(t.address).as_str());
    assert_eq!(o["owner"], t.account.api_key.as_str());
    let one = auth_get(b, &format!("/data/order/{id}"), &t.account).await.assert_ok();
    assert_eq!(&one["order"], o);
    assert_eq!(auth_get(b, &format!("/data/order/{id}"), &emu.demo).await.status, StatusCode::NOT_FOUND);
    let filtered = auth_get(b, &format!("/data/orders?asset_id={}", m.token), &t.account).await.assert_ok();
    assert_eq!(filtered["count"], 1);

    // Another account cannot cancel it; its owner can, once.
    let r = auth_delete(b, "/order", &json!({ "orderId": id }), &emu.demo).await.assert_ok();
    assert_eq!(r["not_canceled"][&id], "not your order");
    let r = auth_delete(b, "/order", &json!({ "orderId": id }), &t.account).await.assert_ok();
    assert_eq!(r["canceled"], json!([id]));
    let r = auth_delete(b, "/order", &json!({ "orderId": id }), &t.account).await.assert_ok();
    assert_eq!(r["not_canceled"][&id], "order already canceled");
    let gone = book(b, &m.token).await;
    assert_eq!((&gone["bids"], &gone["asks"]), (&before["bids"], &before["asks"]));
    assert_eq!(auth_get(b, "/data/orders", &t.account).await.assert_ok()["count"], 0);
    let one = auth_get(b, &format!("/data/order/{id}"), &t.account).await.assert_ok();
    assert_eq!(one["order"]["status"], "CANCELED");

    // By market: two orders at once; GTD orders rest too.
    limit(b, &t, &m, Side::Buy, ONE / 2, 10 * ONE, OrderType::Gtc).await.assert_ok();
    let mut gtd = order(Version::V2, &t, &m, Side::Buy, 5 * ONE, 10 * ONE);
    gtd.expiration = now_s() + 3600;
    let r = post_signed(b, "/order", &body(&gtd, &m, &t, OrderType::Gtd), &t.account).await.assert_ok();
    assert_eq!(r["status"], "live");
    let after = book(b, &m.token).await;
    assert!(has_level(&after["bids"], "0.5", "20"), "{after}");
    let listed = auth_get(b, "/data/orders", &t.account).await.assert_ok();
    assert_eq!(listed["data"][0]["order_type"], "GTD");
    assert_eq!(listed["data"][0]["expiration"], gtd.expiration.to_string().as_str());
    let r = auth_delete(b, "/cancel-market-orders", &json!({ "asset_id": m.token }), &t.account).await.assert_ok();
    assert_eq!(r["canceled"].as_array().unwrap().len(), 2);
    let gone = book(b, &m.token).await;
    assert_eq!(gone["bids"], before["bids"]);

    // A reset forgets placed orders.
    limit(b, &t, &m, Side::Buy, ONE / 2, 10 * ONE, OrderType::Gtc).await.assert_ok();
    post(b, "/__admin/reset", &json!({})).await.assert_ok();
    assert_eq!(book(b, &m.token).await, before);
    let t = trader(b, KEY_0).await;
    assert_eq!(auth_get(b, "/data/orders", &t.account).await.assert_ok()["count"], 0);
}

#[tokio::test]
async fn a_crossing_order_of_another_account_fills_a_resting_one() {
    let emu = still().await;
    let b = &emu.url;
    // Trades stay MATCHED until the test lets them settle.
    post(b, "/__admin/settlement", &json!({ "minedAfterMs": 600_000, "confirmedAfterMs": 600_000 })).await.assert_ok();
    let (alice, bob) = (trader(b, KEY_0).await, trader(b, KEY_1).await);
    // Bob holds the 11 shares he sells below.
    fund(b, &bob, &market(b, "ten_levels").await, 11 * ONE).await;
    let m = market(b, "ten_levels").await;
    let resting = limit(b, &alice, &m, Side::Buy, ONE / 2, 10 * ONE, OrderType::Gtc).await.assert_ok();
    let resting_id = resting["orderID"].as_str().unwrap().to_owned();

    // Bob sells 6 at 0.5 (FOK): all from Alice's order, the best bid.
    let sell = order(Version::V2, &bob, &m, Side::Sell, 6 * ONE, 3 * ONE);
    let r = post_signed(b, "/order", &body(&sell, &m, &bob, OrderType::Fok), &bob.account).await.assert_ok();
    assert_eq!((r["success"].as_bool(), r["status"].as_str()), (Some(true), Some("matched")));
    assert_eq!((r["makingAmount"].as_str(), r["takingAmount"].as_str()), (Some("6"), Some("3")));
    let sell_id = r["orderID"].as_str().unwrap().to_owned();

    let after = book(b, &m.token).await;
    assert!(has_level(&after["bids"], "0.5", "4"), "{after}");
    assert_eq!(after["last_trade_price"], "0.5");

    let theirs = auth_get(b, "/data/trades", &bob.account).await.assert_ok();
    let t = &theirs["data"][0];
    assert_eq!((t["side"].as_str(), t["size"].as_str(), t["price"].as_str()), (Some("SELL"), Some("6"), Some("0.5")));
    assert_eq!((t["trader_side"].as_str(), t["status"].as_str()), (Some("TAKER"), Some("MATCHED")));
    assert_eq!(t["taker_order_id"], sell_id.as_str());
    assert_eq!(t["owner"], bob.account.api_key.as_str());
    assert_eq!(t["asset_id"], m.token.as_str());
    assert_eq!(t["maker_orders"].as_array().unwrap().len(), 1);
    assert_eq!(t["maker_orders"][0]["order_id"], resting_id.as_str());
    assert_eq!(t["maker_orders"][0]["matched_amount"], "6");
    assert_eq!(t["maker_orders"][0]["side"], "BUY");
    assert_eq!(t["transaction_hash"], "", "no transaction while MATCHED");
    let mine = auth_get(b, "/data/trades", &alice.account).await.assert_ok();
    assert_eq!(mine["data"][0]["id"], t["id"]);
    assert_eq!(mine["data"][0]["trader_side"], "MAKER");
    assert_eq!(mine["data"][0]["owner"], alice.account.api_key.as_str());
    // Let it settle: mined and confirmed, its transaction's hash shown to both sides.
    post(b, "/__admin/settlement", &json!({ "minedAfterMs": 0, "confirmedAfterMs": 0 })).await.assert_ok();
    let confirmed = async {
        for _ in 0..50 {
            let now = auth_get(b, "/data/trades", &bob.account).await.assert_ok();
            if now["data"][0]["status"] == "CONFIRMED" {
                return now;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the trade was never confirmed");
    }
    .await;
    assert_eq!(confirmed["data"][0]["transaction_hash"].as_str().unwrap().len(), 66);
    let by_id =
        auth_get(b, &format!("/data/trades?id={}", t["id"].as_str().unwrap()), &alice.account).await.assert_ok();
    assert_eq!(by_id["count"], 1);

    // The activity surface shows it too: the taker's row, and the maker's when not only takers are asked for.
    let public = get(b, &format!("/trades?user={}", checksummed(bob.address))).await.assert_ok();
    assert_eq!(
        (public[0]["side"].as_str(), public[0]["size"].as_f64(), public[0]["price"].as_f64()),
        (Some("SELL"), Some(6.0), Some(0.5))
    );
    assert_eq!(public[0]["transactionHash"], confirmed["data"][0]["transaction_hash"]);
    assert_eq!(get(b, &format!("/trades?user={}", checksummed(alice.address))).await.assert_ok(), json!([]));
    let makers = get(b, &format!("/trades?takerOnly=false&user={}", checksummed(alice.address))).await.assert_ok();
    assert_eq!((makers[0]["side"].as_str(), makers[0]["usdcSize"].as_f64()), (Some("BUY"), Some(3.0)));

    let o = auth_get(b, &format!("/data/order/{resting_id}"), &alice.account).await.assert_ok();
    assert_eq!((o["order"]["status"].as_str(), o["order"]["sizeMatched"].as_str()), (Some("MATCHED"), Some("6")));
    assert_eq!(o["order"]["associateTrades"], json!([t["id"]]));
    let listed = auth_get(b, "/data/orders", &alice.account).await.assert_ok();
    assert_eq!(listed["count"], 1, "the rest still rests");
    let bobs = auth_get(b, &format!("/data/order/{sell_id}"), &bob.account).await.assert_ok();
    assert_eq!((bobs["order"]["status"].as_str(), bobs["order"]["sizeMatched"].as_str()), (Some("MATCHED"), Some("6")));
    assert_eq!(auth_get(b, "/data/orders", &bob.account).await.assert_ok()["count"], 0, "a filled FOK does not rest");

    // Bob sells 5 more (GTC at 0.5): the 4 left of Alice's order, and 1 rests as an ask.
    let r = limit(b, &bob, &m, Side::Sell, ONE / 2, 5 * ONE, OrderType::Gtc).await.assert_ok();
    assert_eq!(
        (r["status"].as_str(), r["makingAmount"].as_str(), r["takingAmount"].as_str()),
        (Some("matched"), Some("4"), Some("2"))
    );
    let after = book(b, &m.token).await;
    assert!(!has_price(&after["bids"], "0.5") && has_level(&after["asks"], "0.5", "1"), "{after}");
    assert_eq!(auth_get(b, "/data/orders", &alice.account).await.assert_ok()["count"], 0);
    let bobs = auth_get(b, "/data/orders", &bob.account).await.assert_ok();
    assert_eq!((bobs["count"].as_u64(), bobs["data"][0]["sizeMatched"].as_str()), (Some(1), Some("4")));
    let r = auth_delete(b, "/order", &json!({ "orderId": resting_id }), &alice.account).await.assert_ok();
    assert!(r["not_canceled"][&resting_id].as_str().unwrap().contains("matched"));
}

/// Gives `t` `shares` of `m`'s token the way an account gets them: it buys them from the book's asks, at the price
/// of the level where they add up to `shares` (a GTC buy that takes them all, nothing left to rest). The service
/// refuses a sell of tokens the wallet does not hold ("not enough balance / allowance").
async fn fund(base: &str, t: &Trader, m: &Market, shares: u64) {
    let mut total = 0;
    let price = m
        .asks
        .iter()
        .find(|l| {
            total += l.1;
            total >= shares
        })
        .expect("asks enough")
        .0;
    let r = limit(base, t, m, Side::Buy, price, shares, OrderType::Gtc).await.assert_ok();
    assert_eq!(r["takingAmount"], text(shares).as_str(), "{r}");
    assert_eq!(balance(base, &t.account, Some(&m.token)).await, shares);
}

/// The other token of `m`'s market and both outcomes (`m`'s, the other's), from GET /clob-markets.
async fn complement(base: &str, m: &Market) -> (Market, String, String) {
    let info = get(base, &format!("/clob-markets/{}", m.condition)).await.assert_ok();
    let tokens = info["t"].as_array().unwrap();
    assert_eq!(tokens.len(), 2, "{info}");
    let mine = tokens.iter().position(|t| t["t"] == m.token.as_str()).unwrap();
    let (this, other) = (&tokens[mine], &tokens[1 - mine]);
    let outcome = |t: &Value| t["o"].as_str().unwrap().to_owned();
    (market_of(base, other["t"].as_str().unwrap().to_owned()).await, outcome(this), outcome(other))
}

/// A balance of GET /balance-allowance in base units: the collateral, or the shares of `token`.
async fn balance(base: &str, account: &Account, token: Option<&str>) -> u64 {
    let query = match token {
        None => "asset_type=COLLATERAL".to_owned(),
        Some(t) => format!("asset_type=CONDITIONAL&token_id={t}"),
    };
    let r = auth_get(base, &format!("/balance-allowance?{query}"), account).await.assert_ok();
    r["balance"].as_str().unwrap().parse().unwrap()
}

/// The size of a book's level at `price` (0 when there is none), in units.
fn size_at(levels: &[(u64, u64)], price: u64) -> u64 {
    levels.iter().find(|l| l.0 == price).map_or(0, |l| l.1)
}

#[tokio::test]
async fn orders_meet_the_complementary_tokens_orders_as_a_mint_and_a_merge() {
    let emu = still().await;
    let b = &emu.url;
    post(b, "/__admin/settlement", &json!({ "minedAfterMs": 600_000, "confirmedAfterMs": 600_000 })).await.assert_ok();
    let (alice, bob) = (trader(b, KEY_0).await, trader(b, KEY_1).await);
    // A price q of NO for Alice's buy that rests on NO's book (below its best ask) and whose complement is
    // below YES's best ask (so Bob's buy of YES at 1 - q finds nothing on YES's own book), where the service's
    // float arithmetic writes the maker's price off the grid (1 - (1 - q) in f64 is not q): the first market of
    // the first page that has one (seed 1).
    let off_grid = |q: u64| format!("{}", 1.0 - (ONE - q) as f64 / 1e6) != text(q);
    let listed = clob_markets(b).await;
    assert!(!listed.is_empty());
    let mut found = None;
    for item in listed.iter().filter(|m| m["accepting_orders"] == true) {
        let tokens: Vec<String> =
            item["tokens"].as_array().unwrap().iter().map(|t| t["token_id"].as_str().unwrap().to_owned()).collect();
        if tokens.len() != 2 || tokens.iter().any(|t| U256::from_str_radix(t, 10).is_err()) {
            continue;
        }
        let yes = market_of(b, tokens[0].clone()).await;
        let (no, yes_outcome, no_outcome) = complement(b, &yes).await;
        let (Some(no_ask), Some(yes_ask), Some(_), Some(_)) =
            (no.asks.first(), yes.asks.first(), no.bids.first(), yes.bids.first())
        else {
            continue;
        };
        let q = (1..ONE / no.tick)
            .map(|k| k * no.tick)
            .find(|&q| q < no_ask.0 && ONE - q < yes_ask.0 && (ONE - q).is_multiple_of(yes.tick) && off_grid(q));
        if let (Some(q), true) = (q, yes.min <= 8 * ONE && no.min <= 8 * ONE) {
            found = Some((yes, no, yes_outcome, no_outcome, q));
            break;
        }
    }
    let (yes, no, yes_outcome, no_outcome, q) = found.expect("a market with room between its books");
    let maker_price = format!("{}", 1.0 - (ONE - q) as f64 / 1e6);
    assert_ne!(maker_price, text(q));
    assert!(maker_price.len() > 12, "{maker_price} is off the grid");

    let auth = |a: &Account| json!({ "apiKey": a.api_key, "secret": a.secret, "passphrase": a.passphrase });
    let mut alice_ws =
        connect(b, "/ws/user", &json!({ "type": "user", "markets": [], "auth": auth(&alice.account) })).await;
    let mut bob_ws =
        connect(b, "/ws/user", &json!({ "type": "user", "markets": [], "auth": auth(&bob.account) })).await;
    for ws in [&mut alice_ws, &mut bob_ws] {
        settle(ws).await;
    }

    // Alice rests a buy of 20 NO at q.
    let before = size_at(&no.bids, q);
    let r = limit(b, &alice, &no, Side::Buy, q, 20 * ONE, OrderType::Gtc).await.assert_ok();
    assert_eq!(r["status"], "live");
    let resting = r["orderID"].as_str().unwrap().to_owned();
    assert_eq!(next_events(&mut alice_ws).await[0]["type"], "PLACEMENT");
    let yes_book = get(b, &format!("/book?token_id={}", yes.token)).await.text;

    // Bob buys 12 YES at 1 - q: no ask of YES is that low, so it meets Alice's buy of NO (minted together).
    let r = limit(b, &bob, &yes, Side::Buy, ONE - q, 12 * ONE, OrderType::Gtc).await.assert_ok();
    assert_eq!((r["status"].as_str(), r["takingAmount"].as_str()), (Some("matched"), Some("12")), "{r}");
    assert_eq!(r["makingAmount"], text(times(12 * ONE, ONE - q)).as_str());
    assert_eq!(auth_get(b, "/data/orders", &bob.account).await.assert_ok()["count"], 0, "Bob's order is filled");
    assert_eq!(get(b, &format!("/book?token_id={}", yes.token)).await.text, yes_book, "YES's book is untouched");
    let no_after = market_of(b, no.token.clone()).await;
    assert_eq!(size_at(&no_after.bids, q), before + 8 * ONE, "8 of Alice's 20 still rest on NO");

    // The trade as the user channel tells it: the top level is Bob's order (YES, BUY, 1 - q, 12); Alice's fill is
    // her maker entry, on NO, BUY, at the complement's float.
    let check_trade = |t: &Value, owner: &str| {
        assert_eq!((t["event_type"].as_str(), t["type"].as_str()), (Some("trade"), Some("TRADE")), "{t}");
        assert_eq!((t["asset_id"].as_str(), t["outcome"].as_str()), (Some(yes.token.as_str()), Some(&*yes_outcome)));
        assert_eq!(
            (t["side"].as_str(), t["price"].as_str(), t["size"].as_str()),
            (Some("BUY"), Some(text(ONE - q).as_str()), Some("12"))
        );
        assert_eq!(t["owner"], owner);
        assert_eq!(t["trade_owner"], bob.account.api_key.as_str());
        let makers = t["maker_orders"].as_array().unwrap();
        assert_eq!(makers.len(), 1, "{t}");
        let m = &makers[0];
        assert_eq!((m["order_id"].as_str(), m["owner"].as_str()), (Some(&*resting), Some(&*alice.account.api_key)));
        assert_eq!(m["maker_address"], alice.account.address.as_str());
        assert_eq!((m["asset_id"].as_str(), m["outcome"].as_str()), (Some(no.token.as_str()), Some(&*no_outcome)));
        assert_eq!((m["side"].as_str(), m["matched_amount"].as_str()), (Some("BUY"), Some("12")));
        assert_eq!(m["price"], maker_price.as_str(), "the maker's price off the grid");
        // The fields of the OpenAPI document's MakerOrder (kuest-openapi-clob.json), all strings.
        let mut keys: Vec<&str> = m.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort_unstable();
        let fields = [
            "asset_id",
            "fee_rate_bps",
            "maker_address",
            "matched_amount",
            "order_id",
            "outcome",
            "owner",
            "price",
            "side",
        ];
        assert_eq!(keys, fields);
        assert!(fields.iter().all(|k| m[*k].is_string()), "{m}");
    };
    let alices = next_events(&mut alice_ws).await;
    let kinds: Vec<&str> = alices.iter().map(|e| e["event_type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["trade", "order"]);
    check_trade(&alices[0], &alice.account.api_key);
    assert_eq!((alices[1]["type"].as_str(), alices[1]["size_matched"].as_str()), (Some("UPDATE"), Some("12")));
    assert_eq!((alices[1]["asset_id"].as_str(), alices[1]["id"].as_str()), (Some(no.token.as_str()), Some(&*resting)));
    let bobs = next_events(&mut bob_ws).await;
    assert_eq!(bobs.len(), 1);
    check_trade(&bobs[0], &bob.account.api_key);

    // GET /data/trades: the same trade, in the maker's view and in the taker's.
    let mine = auth_get(b, "/data/trades", &alice.account).await.assert_ok();
    let t = &mine["data"][0];
    assert_eq!(t["id"], alices[0]["id"]);
    assert_eq!((t["trader_side"].as_str(), t["asset_id"].as_str()), (Some("MAKER"), Some(yes.token.as_str())));
    assert_eq!(
        (t["maker_orders"][0]["asset_id"].as_str(), t["maker_orders"][0]["price"].as_str()),
        (Some(no.token.as_str()), Some(maker_price.as_str()))
    );
    let theirs = auth_get(b, "/data/trades", &bob.account).await.assert_ok();
    assert_eq!(
        (theirs["data"][0]["trader_side"].as_str(), theirs["data"][0]["side"].as_str()),
        (Some("TAKER"), Some("BUY"))
    );
    let o = auth_get(b, &format!("/data/order/{resting}"), &alice.account).await.assert_ok();
    assert_eq!((o["order"]["status"].as_str(), o["order"]["sizeMatched"].as_str()), (Some("MATCHED"), Some("12")));
    // The activity surface: Alice's row is her buy of NO at q.
    let rows = get(b, &format!("/trades?takerOnly=false&user={}", alice.account.address)).await.assert_ok();
    assert_eq!((rows[0]["side"].as_str(), rows[0]["outcome"].as_str()), (Some("BUY"), Some(&*no_outcome)));
    assert_eq!(rows[0]["price"].as_f64(), Some(q as f64 / 1e6));

    // A mint: Alice paid 12 q for 12 NO, Bob 12 (1 - q) for 12 YES: one unit of cash per pair.
    let start = 10_000 * ONE;
    assert_eq!(balance(b, &alice.account, None).await, start - times(12 * ONE, q));
    assert_eq!(balance(b, &bob.account, None).await, start - times(12 * ONE, ONE - q));
    assert_eq!(
        (balance(b, &alice.account, Some(&no.token)).await, balance(b, &alice.account, Some(&yes.token)).await),
        (12 * ONE, 0)
    );
    assert_eq!(
        (balance(b, &bob.account, Some(&yes.token)).await, balance(b, &bob.account, Some(&no.token)).await),
        (12 * ONE, 0)
    );

    // A merge: Alice rests a sell of 8 NO at s; Bob sells 8 YES at 1 - s, above YES's best bid: it meets Alice's
    // sell, and each gets their side of one unit of cash per pair.
    let no = market_of(b, no.token.clone()).await;
    let s_price = (1..ONE / yes.tick)
        .map(|k| k * yes.tick)
        .find(|&p| {
            p > no.bids[0].0 && p < no.asks[0].0 && ONE - p > yes.bids[0].0 && (ONE - p).is_multiple_of(yes.tick)
        })
        .expect("a price between the bids");
    limit(b, &alice, &no, Side::Sell, s_price, 8 * ONE, OrderType::Gtc).await.assert_ok();
    let r = limit(b, &bob, &yes, Side::Sell, ONE - s_price, 8 * ONE, OrderType::Fok).await.assert_ok();
    assert_eq!((r["status"].as_str(), r["makingAmount"].as_str()), (Some("matched"), Some("8")), "{r}");
    let merged = auth_get(b, "/data/trades", &alice.account).await.assert_ok();
    let m = &merged["data"][0]["maker_orders"][0];
    assert_eq!((m["asset_id"].as_str(), m["side"].as_str()), (Some(no.token.as_str()), Some("SELL")));
    assert_eq!(merged["data"][0]["side"], "SELL");
    assert_eq!(balance(b, &alice.account, None).await, start - times(12 * ONE, q) + times(8 * ONE, s_price));
    assert_eq!(balance(b, &bob.account, None).await, start - times(12 * ONE, ONE - q) + times(8 * ONE, ONE - s_price));
    assert_eq!(balance(b, &alice.account, Some(&no.token)).await, 4 * ONE);
    assert_eq!(balance(b, &bob.account, Some(&yes.token)).await, 4 * ONE);
}

/// The development wallet's third key, whose account trades through its Gnosis Safe.
const KEY_SAFE_OWNER: &str = "5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";

/// The service's refusal of an order the wallet's balance cannot cover, with its figures (base units).
fn not_enough_balance(balance: u64, active: u64, amount: u64) -> String {
    format!(
        "not enough balance / allowance: the balance is not enough -> balance: {balance}, sum of active orders: {active}, sum of matched orders: 0, order amount (inc. fees): {amount}"
    )
}

fn assert_error(r: &Reply, expected: &str) {
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    assert_eq!(r.json(), json!({ "error": expected }));
}

#[tokio::test]
async fn orders_beyond_the_wallets_balance_or_allowance_are_refused() {
    let emu = still().await;
    let b = &emu.url;
    let t = trader(b, KEY_0).await;
    let m = market(b, "ten_levels").await;
    assert!(m.asks[0].0 > ONE / 2 && m.bids[0].0 < ONE / 2, "buys at 0.5 rest");
    let start = 10_000 * ONE;
    let before = get(b, &format!("/book?token_id={}", m.token)).await.text;

    // A buy whose cost is beyond the collateral: 1,000,000 shares at 0.5 cost 500,000.
    let r = limit(b, &t, &m, Side::Buy, ONE / 2, 1_000_000 * ONE, OrderType::Gtc).await;
    assert_error(&r, &not_enough_balance(start, 0, 500_000 * ONE));
    assert_eq!(get(b, &format!("/book?token_id={}", m.token)).await.text, before, "a refused order changes nothing");
    assert_eq!(auth_get(b, "/data/orders", &t.account).await.assert_ok()["count"], 0);

    // An open order reserves its cost: 15,000 at 0.5 (7,500) rests; 6,000 more (3,000) would be beyond.
    let first = limit(b, &t, &m, Side::Buy, ONE / 2, 15_000 * ONE, OrderType::Gtc).await.assert_ok();
    assert_eq!(first["status"], "live");
    let r = limit(b, &t, &m, Side::Buy, ONE / 2, 6_000 * ONE, OrderType::Gtc).await;
    assert_error(&r, &not_enough_balance(start, 7_500 * ONE, 3_000 * ONE));
    // A market buy spends its cash too: 2,500.01 of it is beyond what is left.
    let o = order(Version::V2, &t, &m, Side::Buy, 2_500 * ONE + 10_000, 4_900 * ONE);
    let r = post_signed(b, "/order", &body(&o, &m, &t, OrderType::Fak), &t.account).await;
    assert_error(&r, &not_enough_balance(start, 7_500 * ONE, 2_500 * ONE + 10_000));
    // Exactly what is left is taken (the balance itself has not moved: nothing traded).
    limit(b, &t, &m, Side::Buy, ONE / 2, 5_000 * ONE, OrderType::Gtc).await.assert_ok();
    assert_eq!(balance(b, &t.account, None).await, start);
    // Cancelling the first frees its cost.
    let id = first["orderID"].as_str().unwrap();
    auth_delete(b, "/order", &json!({ "orderId": id }), &t.account).await.assert_ok();
    limit(b, &t, &m, Side::Buy, ONE / 2, 6_000 * ONE, OrderType::Gtc).await.assert_ok();
    auth_delete(b, "/cancel-all", &json!({}), &t.account).await.assert_ok();

    // A sell of shares the wallet does not hold, then of more than it holds with its open sells.
    let r = limit(b, &t, &m, Side::Sell, ONE - m.tick, 5 * ONE, OrderType::Gtc).await;
    assert_error(&r, &not_enough_balance(0, 0, 5 * ONE));
    fund(b, &t, &m, 13 * ONE).await;
    limit(b, &t, &m, Side::Sell, ONE - m.tick, 8 * ONE, OrderType::Gtc).await.assert_ok();
    let r = limit(b, &t, &m, Side::Sell, ONE - m.tick, 6 * ONE, OrderType::Gtc).await;
    assert_error(&r, &not_enough_balance(13 * ONE, 8 * ONE, 6 * ONE));
    limit(b, &t, &m, Side::Sell, ONE - m.tick, 5 * ONE, OrderType::Gtc).await.assert_ok();
    // In a batch, each order is checked after the ones before it: of three sells of 5 (the open ones cancelled),
    // the third is beyond the 13 held.
    auth_delete(b, "/cancel-all", &json!({}), &t.account).await.assert_ok();
    let sells: Vec<Value> = (0..3)
        .map(|_| {
            let o = order(Version::V2, &t, &m, Side::Sell, 5 * ONE, times(5 * ONE, ONE - m.tick));
            serde_json::from_str::<Value>(&body(&o, &m, &t, OrderType::Gtc)).unwrap()
        })
        .collect();
    let r = post_signed(b, "/orders", &Value::Array(sells).to_string(), &t.account).await.assert_ok();
    assert_eq!(
        (r[0]["success"].as_bool(), r[1]["success"].as_bool(), r[2]["success"].as_bool()),
        (Some(true), Some(true), Some(false)),
        "{r}"
    );
    assert_eq!(r[2]["errorMsg"], not_enough_balance(13 * ONE, 10 * ONE, 5 * ONE).as_str());

    // A wallet that approved nothing: the allowance, with the exchange the order is signed for.
    let owner = checksummed(t.address);
    post(b, "/__admin/wallets", &json!({ "owner": owner, "kind": "EOA", "deployed": true, "approved": false }))
        .await
        .assert_ok();
    let spender = checksummed(Exchanges::published(CHAIN, Version::V2).unwrap().for_market(m.neg_risk));
    let r = limit(b, &t, &m, Side::Buy, ONE / 2, 10 * ONE, OrderType::Gtc).await;
    assert_error(
        &r,
        &format!(
            "not enough balance / allowance: the allowance is not enough -> spender: {spender}, allowance: 0, sum of matched orders: 0, order amount (inc. fees): {}",
            5 * ONE
        ),
    );

    // A Safe's owner signing as an EOA: its own address holds nothing (its funds are in the Safe).
    let carol = trader(b, KEY_SAFE_OWNER).await;
    let r = limit(b, &carol, &m, Side::Buy, ONE / 2, 10 * ONE, OrderType::Gtc).await;
    assert_error(&r, &not_enough_balance(0, 0, 5 * ONE));
    let read = auth_get(b, "/balance-allowance?asset_type=COLLATERAL&signature_type=0", &carol.account).await;
    assert_eq!(read.assert_ok()["balance"], "0", "the balance read agrees");
    assert_eq!(auth_get(b, "/data/orders", &carol.account).await.assert_ok()["count"], 0);
}

#[tokio::test]
async fn a_limit_order_takes_the_emulators_liquidity_and_rests_the_rest() {
    let emu = still().await;
    let b = &emu.url;
    let t = trader(b, KEY_0).await;
    let m = market(b, "ten_levels").await;
    let (best_ask, size) = m.asks[0];
    // Buy the whole best ask level and 7 shares more at its price: the 7 rest as the new best bid.
    let shares = size + 7 * ONE;
    let r = limit(b, &t, &m, Side::Buy, best_ask, shares, OrderType::Gtc).await.assert_ok();
    assert_eq!(r["status"], "matched");
    assert_eq!(r["takingAmount"], text(size).as_str());
    assert_eq!(r["makingAmount"], text(times(size, best_ask)).as_str());
    let after = book(b, &m.token).await;
    assert!(!has_price(&after["asks"], &text(best_ask)));
    assert!(has_level(&after["bids"], &text(best_ask), "7"), "{after}");
    let trades = auth_get(b, "/data/trades", &t.account).await.assert_ok();
    let makers = &trades["data"][0]["maker_orders"];
    assert_eq!(makers.as_array().unwrap().len(), 1);
    assert_eq!(
        makers[0]["maker_address"], "0x4c69717569646974790000000000000000000000",
        "the emulator's own liquidity"
    );
    let listed = auth_get(b, "/data/orders", &t.account).await.assert_ok();
    assert_eq!(listed["data"][0]["sizeMatched"], text(size).as_str());
    assert_eq!(listed["data"][0]["status"], "MATCHED");
}

#[tokio::test]
async fn fok_and_fak_orders() {
    let emu = still().await;
    let b = &emu.url;
    let t = trader(b, KEY_0).await;
    let m = market(b, "ten_levels").await;
    let (best_bid, size) = m.bids[0];
    // Sell the best bid level and one share more, no lower than its price (the shares held: those and the 20 of
    // the FAK below).
    let shares = size.max(m.min) + ONE;
    fund(b, &t, &m, shares + 20 * ONE).await;
    let m = market(b, "ten_levels").await;
    let trades = auth_get(b, "/data/trades", &t.account).await.assert_ok()["count"].clone();
    let sell = |order_type| {
        let o = order(Version::V2, &t, &m, Side::Sell, shares, times(shares, best_bid));
        body(&o, &m, &t, order_type)
    };
    let before = get(b, &format!("/book?token_id={}", m.token)).await.text;
    let r = post_signed(b, "/order", &sell(OrderType::Fok), &t.account).await;
    assert_refused(&r, "order couldn't be fully filled. FOK orders are fully filled or killed.");
    assert_eq!(get(b, &format!("/book?token_id={}", m.token)).await.text, before, "a killed FOK changes nothing");
    assert_eq!(auth_get(b, "/data/trades", &t.account).await.assert_ok()["count"], trades, "no trade");

    let r = post_signed(b, "/order", &sell(OrderType::Fak), &t.account).await.assert_ok();
    assert_eq!(r["status"], "matched");
    assert_eq!(r["makingAmount"], text(size).as_str());
    assert_eq!(r["takingAmount"], text(times(size, best_bid)).as_str());
    let after = book(b, &m.token).await;
    assert!(!has_price(&after["bids"], &text(best_bid)), "the level is taken");
    assert_eq!(auth_get(b, "/data/orders", &t.account).await.assert_ok()["count"], 0, "the rest of a FAK is cancelled");
    let id = r["orderID"].as_str().unwrap();
    let o = auth_get(b, &format!("/data/order/{id}"), &t.account).await.assert_ok();
    assert_eq!(
        (o["order"]["order_type"].as_str(), o["order"]["originalSize"].as_str()),
        (Some("FAK"), Some(text(shares).as_str()))
    );

    // Nothing to match: a FAK far above the bids.
    let o = order(Version::V2, &t, &m, Side::Sell, 20 * ONE, times(20 * ONE, ONE - m.tick));
    let r = post_signed(b, "/order", &body(&o, &m, &t, OrderType::Fak), &t.account).await;
    assert_refused(&r, "no orders found to match with FAK order. FAK orders are partially filled or killed");

    // A market buy (FOK) spends its cash on the best asks.
    let (best_ask, ask_size) = m.asks[0];
    let cash = times(ask_size.min(10 * ONE), best_ask) / 10_000 * 10_000;
    let step = 10u64.pow(if m.tick == 10_000 { 2 } else { 1 });
    let shares = (u128::from(cash) * u128::from(ONE) / u128::from(best_ask)) as u64 / step * step;
    let o = order(Version::V2, &t, &m, Side::Buy, cash, shares);
    let r = post_signed(b, "/order", &body(&o, &m, &t, OrderType::Fok), &t.account).await.assert_ok();
    assert_eq!(r["status"], "matched");
    let spent = units(r["makingAmount"].as_str().unwrap());
    assert!(spent <= cash && cash - spent < best_ask / 100 + 1, "{r}");
}

#[tokio::test]
async fn post_only_orders_never_take() {
    let emu = still().await;
    let b = &emu.url;
    let t = trader(b, KEY_0).await;
    let m = market(b, "ten_levels").await;
    let (best_ask, _) = m.asks[0];
    let before = get(b, &format!("/book?token_id={}", m.token)).await.text;
    let o = order(Version::V2, &t, &m, Side::Buy, times(10 * ONE, best_ask), 10 * ONE);
    let r =
        post_signed(b, "/order", &body_signed(&o, &m, &t.key, &t.account.api_key, OrderType::Gtc, true), &t.account)
            .await;
    assert_refused(&r, "invalid post-only order: order crosses book");
    assert_eq!(get(b, &format!("/book?token_id={}", m.token)).await.text, before);
    // Not crossing: it rests.
    let o = order(Version::V2, &t, &m, Side::Buy, 5 * ONE, 10 * ONE);
    let r =
        post_signed(b, "/order", &body_signed(&o, &m, &t.key, &t.account.api_key, OrderType::Gtc, true), &t.account)
            .await;
    assert_eq!(r.assert_ok()["status"], "live");
    // Only GTC and GTD may be post-only.
    let o = order(Version::V2, &t, &m, Side::Buy, 5 * ONE, 10 * ONE);
    let r =
        post_signed(b, "/order", &body_signed(&o, &m, &t.key, &t.account.api_key, OrderType::Fok, true), &t.account)
            .await;
    assert_refused(&r, "post-only");
}

#[tokio::test]
async fn orders_of_the_other_version_are_refused() {
    let emu = still().await;
    let b = &emu.url;
    let t = trader(b, KEY_0).await;
    let m = market(b, "ten_levels").await;
    let v1 = order(Version::V1, &t, &m, Side::Buy, 5 * ONE, 10 * ONE);
    let r = post_signed(b, "/order", &body(&v1, &m, &t, OrderType::Gtc), &t.account).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert_eq!(r.json(), json!({ "error": "order_version_mismatch" }));
    // A batch with one such order is refused whole.
    let v2 = order(Version::V2, &t, &m, Side::Buy, 5 * ONE, 10 * ONE);
    let sig1 = sign(&t.key, &hash(&v1, &m));
    let sig2 = sign(&t.key, &hash(&v2, &m));
    let batch = json!([
        placement(&v2, &sig2, &t.account.api_key, OrderType::Gtc, false),
        placement(&v1, &sig1, &t.account.api_key, OrderType::Gtc, false),
    ])
    .to_string();
    let r = post_signed(b, "/orders", &batch, &t.account).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert_eq!(r.json()["error"], "order_version_mismatch");
    assert_eq!(
        auth_get(b, "/data/orders", &t.account).await.assert_ok()["count"],
        0,
        "nothing of the batch was placed"
    );

    // At version 1, V1 orders are taken (signed for the V1 exchange) and V2 ones refused.
    post(b, "/__admin/version", &json!({ "version": 1 })).await.assert_ok();
    let r = post_signed(b, "/order", &body(&v1, &m, &t, OrderType::Gtc), &t.account).await.assert_ok();
    assert_eq!(r["status"], "live");
    let r = post_signed(b, "/order", &body(&v2, &m, &t, OrderType::Gtc), &t.account).await;
    assert_eq!(r.json()["error"], "order_version_mismatch");
}

#[tokio::test]
async fn the_same_order_twice_is_a_duplicate() {
    let emu = still().await;
    let b = &emu.url;
    let t = trader(b, KEY_0).await;
    let m = market(b, "ten_levels").await;
    let o = order(Version::V2, &t, &m, Side::Buy, 5 * ONE, 10 * ONE);
    let text = body(&o, &m, &t, OrderType::Gtc);
    post_signed(b, "/order", &text, &t.account).await.assert_ok();
    assert_refused(&post_signed(b, "/order", &text, &t.account).await, "duplicate order");
    // Even once cancelled.
    let r = auth_delete(b, "/cancel-market-orders", &json!({ "market": m.condition }), &t.account).await.assert_ok();
    assert_eq!(r["canceled"].as_array().unwrap().len(), 1);
    assert_refused(&post_signed(b, "/order", &text, &t.account).await, "duplicate order");
}

#[tokio::test]
async fn signatures_signers_owners_and_terms_are_checked() {
    let emu = still().await;
    let b = &emu.url;
    let (alice, bob) = (trader(b, KEY_0).await, trader(b, KEY_1).await);
    let m = market(b, "ten_levels").await;
    let good = || order(Version::V2, &alice, &m, Side::Buy, 5 * ONE, 10 * ONE);
    // Signed by someone else.
    let o = good();
    let r = post_signed(
        b,
        "/order",
        &body_signed(&o, &m, &bob.key, &alice.account.api_key, OrderType::Gtc, false),
        &alice.account,
    )
    .await;
    assert_refused(&r, "invalid order signature");
    // Signed for the other exchange (standard versus neg-risk).
    let other = Market {
        neg_risk: !m.neg_risk,
        token: m.token.clone(),
        condition: String::new(),
        tick: m.tick,
        min: m.min,
        bids: vec![],
        asks: vec![],
    };
    let r = post_signed(b, "/order", &body(&o, &other, &alice, OrderType::Gtc), &alice.account).await;
    assert_refused(&r, "invalid order signature");
    // Bob's own order, sent with Alice's key.
    let bobs = order(Version::V2, &bob, &m, Side::Buy, 5 * ONE, 10 * ONE);
    let r = post_signed(
        b,
        "/order",
        &body_signed(&bobs, &m, &bob.key, &alice.account.api_key, OrderType::Gtc, false),
        &alice.account,
    )
    .await;
    assert_refused(&r, "the order signer address has to be the address of the API KEY");
    // Owned by another key.
    let r = post_signed(
        b,
        "/order",
        &body_signed(&good(), &m, &alice.key, &bob.account.api_key, OrderType::Gtc, false),
        &alice.account,
    )
    .await;
    assert_refused(&r, "the order owner has to be the owner of the API KEY");
    // Maker and signature type.
    let mut proxy = good();
    proxy.signature_type = SignatureType::PolyProxy;
    assert_refused(
        &post_signed(b, "/order", &body(&proxy, &m, &alice, OrderType::Gtc), &alice.account).await,
        "funder",
    );
    // Another's wallet is not Alice's proxy (and Amoy has no proxy wallets at all).
    proxy.maker = bob.address;
    assert_refused(
        &post_signed(b, "/order", &body(&proxy, &m, &alice, OrderType::Gtc), &alice.account).await,
        "invalid POLY_PROXY signature",
    );
    // Her Safe trades once her account is a Safe's.
    let mut safe = good();
    safe.signature_type = SignatureType::PolyGnosisSafe;
    safe.maker = predictkit_emulator::trading::wallets::safe_of(80002, alice.address).unwrap();
    assert_refused(
        &post_signed(b, "/order", &body(&safe, &m, &alice, OrderType::Gtc), &alice.account).await,
        "invalid signature",
    );
    post(b, "/__admin/wallets", &json!({ "owner": alice.address.to_string(), "kind": "POLY_GNOSIS_SAFE" }))
        .await
        .assert_ok();
    assert_eq!(
        post_signed(b, "/order", &body(&safe, &m, &alice, OrderType::Gtc), &alice.account).await.assert_ok()["status"],
        "live"
    );
    post(b, "/__admin/wallets", &json!({ "owner": alice.address.to_string(), "kind": "EOA" })).await.assert_ok();
    let mut eoa = good();
    eoa.maker = bob.address;
    assert_refused(
        &post_signed(b, "/order", &body(&eoa, &m, &alice, OrderType::Gtc), &alice.account).await,
        "maker equal to signer",
    );
    // Unknown token, closed market.
    let mut unknown = good();
    unknown.token_id = U256::from(12345);
    assert_refused(
        &post_signed(b, "/order", &body(&unknown, &m, &alice, OrderType::Gtc), &alice.account).await,
        "tokenId",
    );
    // Expiration: only GTD, and at least a minute ahead.
    let mut o = good();
    o.expiration = now_s() + 3600;
    assert_refused(
        &post_signed(b, "/order", &body(&o, &m, &alice, OrderType::Gtc), &alice.account).await,
        "expiration",
    );
    o.expiration = now_s() + 30;
    assert_refused(
        &post_signed(b, "/order", &body(&o, &m, &alice, OrderType::Gtd), &alice.account).await,
        "expiration",
    );
    assert_refused(
        &post_signed(b, "/order", &body(&good(), &m, &alice, OrderType::Gtd), &alice.account).await,
        "expiration",
    );
    // Malformed bodies and missing authentication.
    assert_refused(&post_signed(b, "/order", "[]", &alice.account).await, "body");
    assert_refused(&post_signed(b, "/order", "{\"order\": 1}", &alice.account).await, "order");
    let r =
        post(b, "/order", &serde_json::from_str::<Value>(&body(&good(), &m, &alice, OrderType::Gtc)).unwrap()).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn every_precision_rule_refuses_a_bad_amount() {
    let emu = still().await;
    let b = &emu.url;
    let t = trader(b, KEY_0).await;
    let m = market(b, "ten_levels").await;
    assert_eq!(m.tick, 10_000, "the cases below are for tick 0.01");
    let half = ONE / 2;
    let off_tick = half + m.tick / 2;
    let limit_buy =
        "invalid amounts, the buy orders maker amount supports a max accuracy of 4 decimals, taker amount a \
                     max of 2 decimals";
    let limit_sell =
        "invalid amounts, the sell orders maker amount supports a max accuracy of 2 decimals, taker amount \
                      a max of 4 decimals";
    let market_buy =
        "invalid amounts, the market buy orders maker amount supports a max accuracy of 2 decimals, taker \
                      amount a max of 4 decimals";
    let market_sell = "invalid amounts, the market sell orders maker amount supports a max accuracy of 2 decimals, \
                       taker amount a max of 4 decimals";
    let size = format!("Size ({}) lower than the minimum: {}", text(m.min - 10_000), text(m.min));
    let cases: Vec<(OrderType, Side, u64, u64, &str)> = vec![
        (OrderType::Gtc, Side::Buy, 5 * ONE, 10_001_000, limit_buy),
        (OrderType::Gtc, Side::Sell, 10_001_000, 5 * ONE, limit_sell),
        (OrderType::Gtc, Side::Buy, 5 * ONE + 10, 10 * ONE, limit_buy),
        (
            OrderType::Gtc,
            Side::Buy,
            times(10 * ONE, off_tick),
            10 * ONE,
            "Price (0.505) breaks minimum tick size rule: 0.01",
        ),
        (OrderType::Gtc, Side::Buy, 10 * ONE, 10 * ONE, "invalid price (1), min: 0.01 - max: 0.99"),
        (OrderType::Gtc, Side::Sell, 10 * ONE, 10 * ONE, "invalid price (1), min: 0.01 - max: 0.99"),
        (OrderType::Gtc, Side::Buy, times(m.min - 10_000, half), m.min - 10_000, &size),
        (OrderType::Gtc, Side::Buy, 0, 10 * ONE, "greater than 0"),
        // The rule is the order type's: cash with 4 decimals is a limit buy's, not a FOK's.
        (OrderType::Fok, Side::Buy, times(10_010_000, 510_000), 10_010_000, market_buy),
        (OrderType::Fok, Side::Buy, 5_001_000, 10 * ONE, market_buy),
        (OrderType::Fak, Side::Buy, 5 * ONE, 10 * ONE + 10, market_buy),
        (OrderType::Fak, Side::Sell, 10_001_000, 5 * ONE, market_sell),
        (OrderType::Fok, Side::Sell, 10 * ONE, 5 * ONE + 10, market_sell),
        (OrderType::Fok, Side::Buy, 5 * ONE, 5 * ONE, "invalid price (1), min: 0.01 - max: 0.99"),
    ];
    for (order_type, side, maker, taker, piece) in cases {
        let o = order(Version::V2, &t, &m, side, maker, taker);
        let r = post_signed(b, "/order", &body(&o, &m, &t, order_type), &t.account).await;
        assert_refused(&r, piece);
        if piece.contains("lower than the minimum") || piece.contains("breaks minimum tick") {
            let id = hex0x(hash(&o, &m).as_slice());
            assert_eq!(r.json()["error"], format!("order {id} is invalid. {piece}"));
        }
    }
    // A market whose tick size the service does not use (0.000001) takes no orders.
    let deep = market(b, "deep").await;
    let o = order(Version::V2, &t, &deep, Side::Buy, 5 * ONE, 10 * ONE);
    assert_refused(&post_signed(b, "/order", &body(&o, &deep, &t, OrderType::Gtc), &t.account).await, "tick size");
    assert_eq!(auth_get(b, "/data/orders", &t.account).await.assert_ok()["count"], 0);
}

#[tokio::test]
async fn a_batch_answers_each_order_in_turn() {
    let emu = still().await;
    let b = &emu.url;
    let t = trader(b, KEY_0).await;
    let m = market(b, "ten_levels").await;
    let orders = [
        order(Version::V2, &t, &m, Side::Buy, 5 * ONE, 10 * ONE),
        order(Version::V2, &t, &m, Side::Buy, 5 * ONE, 10_001_000),
        order(Version::V2, &t, &m, Side::Buy, 4 * ONE, 8 * ONE),
    ];
    let placements: Vec<Value> = orders
        .iter()
        .map(|o| placement(o, &sign(&t.key, &hash(o, &m)), &t.account.api_key, OrderType::Gtc, false))
        .collect();
    let batch = Value::Array(placements).to_string();
    let r = post_signed(b, "/orders", &batch, &t.account).await.assert_ok();
    let results = r.as_array().unwrap();
    assert_eq!(results.len(), 3);
    assert_eq!((results[0]["success"].as_bool(), results[0]["status"].as_str()), (Some(true), Some("live")));
    assert_eq!(results[0]["orderID"], hex0x(hash(&orders[0], &m).as_slice()).as_str());
    assert_eq!(results[1]["success"], false);
    assert!(results[1]["errorMsg"].as_str().unwrap().starts_with("invalid amounts"), "{r}");
    assert_eq!(results[1]["orderID"], "");
    assert_eq!(results[2]["success"], true);
    let after = book(b, &m.token).await;
    assert!(has_level(&after["bids"], "0.5", "18"), "{after}");
    assert_eq!(auth_get(b, "/data/orders", &t.account).await.assert_ok()["count"], 2);
    // 1 to 15 orders.
    assert_refused(&post_signed(b, "/orders", "[]", &t.account).await, "1 to 15");
    let many = format!("[{}]", vec!["{}"; 16].join(","));
    assert_refused(&post_signed(b, "/orders", &many, &t.account).await, "1 to 15");
    let r = post_signed(b, "/orders", "[{}]", &t.account).await.assert_ok();
    assert_eq!(r[0]["success"], false);
}

// ---- the streams hear of it ----

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn connect(base: &str, path: &str, first: &Value) -> Ws {
    let (mut ws, _) =
        tokio_tungstenite::connect_async(format!("{}{path}", base.replace("http://", "ws://"))).await.unwrap();
    ws.send(Message::Text(first.to_string().into())).await.unwrap();
    ws
}

/// The events of the next frame.
async fn next_events(ws: &mut Ws) -> Vec<Value> {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(5), ws.next()).await.expect("a frame").unwrap().unwrap();
        if let Message::Text(t) = message {
            return match serde_json::from_str::<Value>(t.as_str()).unwrap() {
                Value::Array(items) => items,
                v => vec![v],
            };
        }
    }
}

/// Waits until every socket has processed its subscription (PING is answered after it).
async fn settle(ws: &mut Ws) {
    ws.send(Message::Text("PING".into())).await.unwrap();
    loop {
        let message = tokio::time::timeout(Duration::from_secs(5), ws.next()).await.unwrap().unwrap().unwrap();
        if message.to_text().unwrap() == "PONG" {
            return;
        }
    }
}

#[tokio::test]
async fn placements_and_fills_go_out_on_both_channels() {
    let emu = still().await;
    let b = &emu.url;
    // Trades stay MATCHED here: their settlement events are another test's.
    post(b, "/__admin/settlement", &json!({ "minedAfterMs": 600_000, "confirmedAfterMs": 600_000 })).await.assert_ok();
    // One message per frame, with each trade's last_trade_price (the real shapes may leave it out).
    post(b, "/__admin/stream", &json!({ "shapes": "exact" })).await.assert_ok();
    let (alice, bob) = (trader(b, KEY_0).await, trader(b, KEY_1).await);
    // Bob holds the 6 shares he sells below.
    fund(b, &bob, &market(b, "ten_levels").await, 6 * ONE).await;
    let m = market(b, "ten_levels").await;
    let mut market_ws =
        connect(b, "/ws/market", &json!({ "type": "market", "assets_ids": [m.token], "initial_dump": false })).await;
    let auth = |a: &Account| json!({ "apiKey": a.api_key, "secret": a.secret, "passphrase": a.passphrase });
    let mut alice_ws =
        connect(b, "/ws/user", &json!({ "type": "user", "markets": [], "auth": auth(&alice.account) })).await;
    let mut bob_ws =
        connect(b, "/ws/user", &json!({ "type": "user", "markets": [m.condition], "auth": auth(&bob.account) })).await;
    for ws in [&mut market_ws, &mut alice_ws, &mut bob_ws] {
        settle(ws).await;
    }

    let r = limit(b, &alice, &m, Side::Buy, ONE / 2, 10 * ONE, OrderType::Gtc).await.assert_ok();
    let id = r["orderID"].as_str().unwrap().to_owned();
    let events = next_events(&mut market_ws).await;
    let change = events.iter().find(|e| e["event_type"] == "price_change").expect("a price_change");
    let entry = &change["price_changes"][0];
    assert_eq!(
        (entry["price"].as_str(), entry["size"].as_str(), entry["side"].as_str()),
        (Some("0.5"), Some("10"), Some("BUY"))
    );
    assert_eq!(entry["best_bid"], "0.5");
    let served = book(b, &m.token).await;
    assert_eq!(entry["hash"], served["hash"], "the entry's hash is the book's after it");
    assert_eq!(change["timestamp"], served["timestamp"]);
    let placed = next_events(&mut alice_ws).await;
    assert_eq!(placed.len(), 1);
    assert_eq!((placed[0]["event_type"].as_str(), placed[0]["type"].as_str()), (Some("order"), Some("PLACEMENT")));
    assert_eq!((placed[0]["id"].as_str(), placed[0]["status"].as_str()), (Some(id.as_str()), Some("LIVE")));
    assert_eq!(placed[0]["owner"], alice.account.api_key.as_str());
    assert_eq!((placed[0]["price"].as_str(), placed[0]["original_size"].as_str()), (Some("0.5"), Some("10")));

    let sell = order(Version::V2, &bob, &m, Side::Sell, 6 * ONE, 3 * ONE);
    post_signed(b, "/order", &body(&sell, &m, &bob, OrderType::Fak), &bob.account).await.assert_ok();
    let events = next_events(&mut market_ws).await;
    let last = events.iter().find(|e| e["event_type"] == "last_trade_price").expect("a last_trade_price");
    assert_eq!(
        (last["price"].as_str(), last["size"].as_str(), last["side"].as_str()),
        (Some("0.5"), Some("6"), Some("SELL"))
    );
    let change = events.iter().find(|e| e["event_type"] == "price_change").expect("a price_change");
    assert_eq!(change["price_changes"][0]["size"], "4");
    let served = book(b, &m.token).await;
    assert_eq!(change["price_changes"][0]["hash"], served["hash"]);
    let trades = auth_get(b, "/data/trades", &bob.account).await.assert_ok();
    assert_eq!(trades["data"][0]["transaction_hash"], "", "not broadcast yet");
    assert_eq!(last["transaction_hash"].as_str().map(str::len), Some(66));

    let bobs = next_events(&mut bob_ws).await;
    assert_eq!(bobs.len(), 1);
    assert_eq!((bobs[0]["event_type"].as_str(), bobs[0]["type"].as_str()), (Some("trade"), Some("TRADE")));
    assert_eq!(
        (bobs[0]["side"].as_str(), bobs[0]["size"].as_str(), bobs[0]["price"].as_str()),
        (Some("SELL"), Some("6"), Some("0.5"))
    );
    assert_eq!(bobs[0]["owner"], bob.account.api_key.as_str());
    assert_eq!(bobs[0]["maker_orders"][0]["order_id"], id.as_str());
    let alices = next_events(&mut alice_ws).await;
    let kinds: Vec<&str> = alices.iter().map(|e| e["event_type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["trade", "order"]);
    assert_eq!(alices[0]["owner"], alice.account.api_key.as_str());
    assert_eq!((alices[1]["type"].as_str(), alices[1]["size_matched"].as_str()), (Some("UPDATE"), Some("6")));
    assert_eq!(alices[1]["associate_trades"], json!([bobs[0]["id"]]));

    auth_delete(b, "/order", &json!({ "orderId": id }), &alice.account).await.assert_ok();
    let events = next_events(&mut market_ws).await;
    let change = events.iter().find(|e| e["event_type"] == "price_change").unwrap();
    assert_eq!(change["price_changes"][0]["size"], "0");
    let gone = next_events(&mut alice_ws).await;
    assert_eq!((gone[0]["type"].as_str(), gone[0]["status"].as_str()), (Some("CANCELLATION"), Some("CANCELED")));
    let listed = get(b, "/__admin/stream").await.assert_ok();
    let accounts: Vec<&str> =
        listed["sockets"].as_array().unwrap().iter().filter_map(|s| s["account"].as_str()).collect();
    assert_eq!(accounts.len(), 2, "{listed}");
}

#[tokio::test]
async fn the_simulator_never_eats_user_orders() {
    let emu = still().await;
    let b = &emu.url;
    let t = trader(b, KEY_0).await;
    let m = market(b, "ten_levels").await;
    let (best_bid, _) = m.bids[0];
    // An order inside the emulator's best bid level: 2,000 changes of the book never take it.
    limit(b, &t, &m, Side::Buy, best_bid, 25 * ONE, OrderType::Gtc).await.assert_ok();
    post(b, "/__admin/stream/tick", &json!({ "asset_id": m.token, "count": 2000 })).await.assert_ok();
    let after = book(b, &m.token).await;
    let level = levels(&after["bids"], true).into_iter().find(|l| l.0 == best_bid).expect("the level stays");
    assert!(level.1 >= 25 * ONE, "{level:?}");
    let r = auth_delete(b, "/cancel-market-orders", &json!({ "market": m.condition }), &t.account).await.assert_ok();
    assert_eq!(r["canceled"].as_array().unwrap().len(), 1);
}

// ---- the wallet ----

async fn rpc(base: &str, method: &str, params: Value) -> Value {
    post(base, "/wallet", &json!({ "jsonrpc": "2.0", "id": 7, "method": method, "params": params })).await.assert_ok()
}

#[tokio::test]
async fn the_wallet_signs_typed_data_as_the_key_does() {
    let emu = still().await;
    let b = &emu.url;
    assert_eq!(rpc(b, "eth_chainId", json!([])).await, json!({ "jsonrpc": "2.0", "id": 7, "result": "0x13882" }));
    let accounts = rpc(b, "eth_requestAccounts", json!([])).await["result"].clone();
    assert_eq!(accounts[0], "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    assert_eq!(accounts.as_array().unwrap().len(), 5);
    assert_eq!(rpc(b, "eth_accounts", json!([])).await["result"], accounts);
    assert_eq!(info(b).await["wallet"], accounts);

    let key = signing_key(KEY_0);
    let ts = now_s().to_string();
    let auth = auth_typed_data(address_of(&key), &ts, 3);
    // As EIP-1193 passes it (a JSON string) and as an object, for another account.
    let signed = rpc(b, "eth_signTypedData_v4", json!([accounts[0], auth.to_string()])).await;
    assert_eq!(signed["result"], sign(&key, &auth_digest(address_of(&key), &ts, 3)).as_str());
    let key1 = signing_key(KEY_1);
    assert_eq!(
        rpc(b, "eth_signTypedData_v4", json!([accounts[1], auth_typed_data(address_of(&key1), &ts, 3)])).await
            ["result"],
        sign(&key1, &auth_digest(address_of(&key1), &ts, 3)).as_str()
    );
    // An order's typed data, as the V2 clients write it.
    let t = Trader { key: signing_key(KEY_0), address: address_of(&key), account: emu.demo.clone() };
    let m = market(b, "ten_levels").await;
    let o = order(Version::V2, &t, &m, Side::Buy, 5 * ONE, 10 * ONE);
    let typed = json!({
        "types": {
            "EIP712Domain": [{"name": "name", "type": "string"}, {"name": "version", "type": "string"},
                             {"name": "chainId", "type": "uint256"}, {"name": "verifyingContract", "type": "address"}],
            "Order": [{"name": "salt", "type": "uint256"}, {"name": "maker", "type": "address"},
                      {"name": "signer", "type": "address"}, {"name": "tokenId", "type": "uint256"},
                      {"name": "makerAmount", "type": "uint256"}, {"name": "takerAmount", "type": "uint256"},
                      {"name": "side", "type": "uint8"}, {"name": "signatureType", "type": "uint8"},
                      {"name": "timestamp", "type": "uint256"}, {"name": "metadata", "type": "bytes32"},
                      {"name": "builder", "type": "bytes32"}],
        },
        "primaryType": "Order",
        "domain": {
            "name": "Polymarket CTF Exchange", "version": "2", "chainId": CHAIN,
            "verifyingContract": checksummed(Exchanges::published(CHAIN, Version::V2).unwrap().for_market(m.neg_risk)),
        },
        "message": {
            "salt": o.salt, "maker": checksummed(o.maker), "signer": checksummed(o.signer), "tokenId": m.token,
            "makerAmount": o.maker_amount.to_string(), "takerAmount": o.taker_amount.to_string(), "side": 0,
            "signatureType": 0, "timestamp": o.timestamp_ms.to_string(), "metadata": o.metadata, "builder": o.builder,
        },
    });
    let signed = rpc(b, "eth_signTypedData_v4", json!([accounts[0], typed])).await;
    assert_eq!(signed["result"], sign(&key, &hash(&o, &m)).as_str());

    // The wallet's signature creates a key.
    let r = send(
        client()
            .post(format!("{b}/auth/api-key"))
            .header("SERVICE_ADDRESS", accounts[0].as_str().unwrap())
            .header(
                "SERVICE_SIGNATURE",
                rpc(b, "eth_signTypedData_v4", json!([accounts[0], auth.to_string()])).await["result"]
                    .as_str()
                    .unwrap(),
            )
            .header("SERVICE_TIMESTAMP", &ts)
            .header("SERVICE_NONCE", "3"),
    )
    .await;
    assert_eq!(r.assert_ok()["apiKey"].as_str().unwrap().len(), 36);

    // Errors: an unknown account (4100), an unknown method (4200), bad params, a body that is not JSON.
    let r =
        rpc(b, "eth_signTypedData_v4", json!(["0x0000000000000000000000000000000000000001", auth.to_string()])).await;
    assert_eq!(r["error"]["code"], 4100);
    assert_eq!(r["id"], 7);
    assert_eq!(rpc(b, "eth_sendTransaction", json!([{}])).await["error"]["code"], 4200);
    assert_eq!(rpc(b, "eth_signTypedData_v4", json!([accounts[0]])).await["error"]["code"], -32602);
    assert_eq!(rpc(b, "eth_signTypedData_v4", json!([accounts[0], "{\"types\":{}}"])).await["error"]["code"], -32602);
    let r = send(client().post(format!("{b}/wallet")).body("not json")).await;
    assert_eq!(r.assert_ok()["error"]["code"], -32700);
}
