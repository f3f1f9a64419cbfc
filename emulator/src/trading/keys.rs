//! API keys from a wallet signature (L1): `POST /auth/api-key` creates the key of (address, nonce), `GET
//! /auth/derive-api-key` answers it again. The wallet signs the `ClobAuth` message (EIP-712) with the time in
//! seconds and the nonce; the signer recovered from the signature must be the address the headers name.
//!
//! Keys are deterministic per (address, nonce): HMAC-SHA256 of the pair under a fixed emulator secret, so a test
//! that creates a key after a reset gets the same credentials again.

use std::sync::Arc;

use alloy_primitives::U256;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use base64::engine::general_purpose::URL_SAFE;
use base64::Engine;
use hmac::{Hmac, Mac};
use serde_json::json;
use sha2::Sha256;

use super::ecdsa;
use super::eip712::clob_auth_digest;
use super::order::{parse_address, parse_u256};
use crate::app::App;
use crate::dataset::Account;
use crate::params::{ok_json, ApiError, ApiResult};

/// The L1 headers: the address, its signature of the `ClobAuth` message, the time in seconds and the nonce. The
/// interface names them `SERVICE_*` (the upstream clients' `POLY_ADDRESS`, `POLY_SIGNATURE`, `POLY_TIMESTAMP`,
/// `POLY_NONCE`: rs-clob-client `src/auth.rs`).
pub const HEADER_NAMES: [&str; 4] = ["SERVICE_ADDRESS", "SERVICE_SIGNATURE", "SERVICE_TIMESTAMP", "SERVICE_NONCE"];

/// How far SERVICE_TIMESTAMP (seconds) of a key request may be from the emulator's clock.
pub const KEY_FRESHNESS_SECS: i64 = 300;

/// The fixed secret the keys are derived under (emulator only; it protects nothing).
const KEY_SECRET: &[u8] = b"predictkit-emulator api keys (not a secret)";

fn mac(label: &str, address: &str, nonce: &str) -> [u8; 32] {
    let mut m = Hmac::<Sha256>::new_from_slice(KEY_SECRET).expect("HMAC takes any key length");
    for part in [label, "|", address, "|", nonce] {
        m.update(part.as_bytes());
    }
    m.finalize().into_bytes().into()
}

/// The credentials of (address, nonce): a UUID v4-shaped API key, a url-safe Base64 secret of 32 bytes and a
/// passphrase of 64 hex digits. `address` is `0x` and 40 lowercase hex digits; `nonce` its decimal text.
pub fn derive(address: &str, nonce: &str) -> Account {
    let mut id = [0; 16];
    id.copy_from_slice(&mac("apiKey", address, nonce)[..16]);
    Account {
        address: address.to_owned(),
        api_key: uuid::Builder::from_random_bytes(id).into_uuid().to_string(),
        secret: URL_SAFE.encode(mac("secret", address, nonce)),
        passphrase: hex::encode(mac("passphrase", address, nonce)),
    }
}

/// The (lowercase address, nonce) the L1 headers prove control of, or 401.
fn verify(headers: &HeaderMap, chain_id: u64, now_secs: i64) -> Result<(String, String), ApiError> {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim).filter(|v| !v.is_empty());
    let [address_name, signature_name, timestamp_name, nonce_name] = HEADER_NAMES;
    let missing = |name: &str| ApiError::unauthorized(format!("missing {name} header"));
    let address_text = header(address_name).ok_or_else(|| missing(address_name))?;
    let address = parse_address(address_text).ok_or_else(|| {
        ApiError::unauthorized(
            "SERVICE_ADDRESS must be an address: 0x and 40 hex digits (a correct EIP-55 checksum when mixed case)",
        )
    })?;
    let signature = header(signature_name).ok_or_else(|| missing(signature_name))?;
    let signature = ecdsa::parse_signature(signature).ok_or_else(|| {
        ApiError::unauthorized("SERVICE_SIGNATURE must be a 65-byte signature: 0x and 130 hex digits, v 27/28 or 0/1")
    })?;
    let timestamp = header(timestamp_name).ok_or_else(|| missing(timestamp_name))?;
    let ts: i64 = timestamp
        .parse()
        .ok()
        .filter(|_| timestamp.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| ApiError::unauthorized("SERVICE_TIMESTAMP must be the current time in seconds"))?;
    if (now_secs - ts).abs() > KEY_FRESHNESS_SECS {
        return Err(ApiError::unauthorized(format!(
            "SERVICE_TIMESTAMP is not fresh: it must be the current time in seconds, within {KEY_FRESHNESS_SECS} s"
        )));
    }
    let nonce = match header(nonce_name) {
        None => U256::ZERO,
        Some(n) => parse_u256(n)
            .ok_or_else(|| ApiError::unauthorized("SERVICE_NONCE must be a decimal integer below 2^256"))?,
    };
    if ecdsa::recover(&clob_auth_digest(chain_id, address, timestamp, nonce), &signature) != Some(address) {
        return Err(ApiError::unauthorized(
            "invalid SERVICE_SIGNATURE: it is not the address's signature of the ClobAuth message (chain, timestamp, nonce)",
        ));
    }
    Ok((format!("0x{}", hex::encode(address)), nonce.to_string()))
}

/// The time a caller's clock shows, in seconds, which SERVICE_TIMESTAMP must be within the window of (see
/// `crate::clock`).
fn caller_secs(app: &App) -> i64 {
    (app.clock.caller_ms() / 1000) as i64
}

fn trio(a: &Account) -> serde_json::Value {
    json!({ "apiKey": a.api_key, "secret": a.secret, "passphrase": a.passphrase })
}

/// `POST /auth/api-key`: creates the key of (address, nonce); 400 when it was created already.
pub async fn create(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult {
    let (address, nonce) = verify(&headers, app.trading.chain_id, caller_secs(&app))?;
    let account = derive(&address, &nonce);
    app.accounts.create(&nonce, account.clone()).ok_or_else(|| ApiError::bad("Could not create api key"))?;
    ok_json(&trio(&account))
}

/// `GET /auth/derive-api-key`: the key created for (address, nonce); 404 when none was.
pub async fn derive_route(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult {
    let (address, nonce) = verify(&headers, app.trading.chain_id, caller_secs(&app))?;
    let account = app.accounts.created(&address, &nonce).ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "API key not found for this address and nonce (create it with POST /auth/api-key)",
        )
    })?;
    ok_json(&trio(&account))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;
    use k256::ecdsa::SigningKey;

    #[test]
    fn derived_keys_are_deterministic_and_well_shaped() {
        let a = derive("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", "0");
        assert_eq!(a, derive("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", "0"));
        assert_ne!(a.api_key, derive("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", "1").api_key);
        let k = a.api_key.as_bytes();
        assert_eq!(k.len(), 36);
        assert_eq!((k[8], k[13], k[14], k[18], k[23]), (b'-', b'-', b'4', b'-', b'-'));
        assert!(matches!(k[19], b'8' | b'9' | b'a' | b'b'));
        assert_eq!(URL_SAFE.decode(&a.secret).unwrap().len(), 32);
        assert!(a.passphrase.len() == 64 && a.passphrase.bytes().all(|b| b.is_ascii_hexdigit()));
    }

    /// The upstream `ClobAuth` vector (clob-client `tests/signing/eip712.test.ts`, py-clob-client-v2
    /// `tests/signing/test_eip712.py`, rs-clob-client `src/auth.rs`; the project's
    /// `tests/fixtures/vectors/order-signing.json`): the development key's signature on Amoy at 10000000, nonce 23.
    #[test]
    fn the_clob_auth_vector_is_reproduced_and_recovered() {
        let vector: serde_json::Value =
            serde_json::from_str(include_str!("../../../tests/fixtures/vectors/order-signing.json")).unwrap();
        let v = &vector["clobAuth"];
        let key = SigningKey::from_slice(&hex::decode(&v["privateKey"].as_str().unwrap()[2..]).unwrap()).unwrap();
        let address = parse_address(v["address"].as_str().unwrap()).unwrap();
        let digest = clob_auth_digest(
            v["chainId"].as_u64().unwrap(),
            address,
            v["timestamp"].as_str().unwrap(),
            parse_u256(v["nonce"].as_str().unwrap()).unwrap(),
        );
        let signature = ecdsa::parse_signature(v["signature"].as_str().unwrap()).unwrap();
        assert_eq!(ecdsa::sign(&key, &digest), Some(signature));
        assert_eq!(ecdsa::recover(&digest, &signature), Some(address));
    }

    #[test]
    fn l1_headers_are_checked() {
        let key = SigningKey::from_slice(&[9u8; 32]).unwrap();
        let address = ecdsa::address_of(key.verifying_key());
        let now = 1_700_000_000;
        let headers = |ts: i64, nonce: u64, signed_nonce: u64, chain: u64| {
            let digest = clob_auth_digest(chain, address, &ts.to_string(), U256::from(signed_nonce));
            let sig = ecdsa::sign(&key, &digest).unwrap();
            let mut h = HeaderMap::new();
            h.insert("SERVICE_ADDRESS", HeaderValue::from_str(&address.to_checksum(None)).unwrap());
            h.insert("SERVICE_SIGNATURE", HeaderValue::from_str(&format!("0x{}", hex::encode(sig))).unwrap());
            h.insert("SERVICE_TIMESTAMP", HeaderValue::from_str(&ts.to_string()).unwrap());
            h.insert("SERVICE_NONCE", HeaderValue::from_str(&nonce.to_string()).unwrap());
            h
        };
        let (got, nonce) = verify(&headers(now, 3, 3, 80002), 80002, now).unwrap();
        assert_eq!((got, nonce.as_str()), (format!("0x{}", hex::encode(address)), "3"));
        assert!(verify(&headers(now - 301, 3, 3, 80002), 80002, now).unwrap_err().message.contains("not fresh"));
        assert!(verify(&headers(now, 3, 4, 80002), 80002, now)
            .unwrap_err()
            .message
            .contains("invalid SERVICE_SIGNATURE"));
        assert!(verify(&headers(now, 3, 3, 137), 80002, now)
            .unwrap_err()
            .message
            .contains("invalid SERVICE_SIGNATURE"));
        let mut no_nonce = headers(now, 0, 0, 80002);
        no_nonce.remove("SERVICE_NONCE");
        assert_eq!(verify(&no_nonce, 80002, now).unwrap().1, "0");
        let mut bad = headers(now, 0, 0, 80002);
        bad.insert("SERVICE_ADDRESS", HeaderValue::from_static("0x12"));
        assert_eq!(verify(&bad, 80002, now).unwrap_err().status, StatusCode::UNAUTHORIZED);
    }
}
