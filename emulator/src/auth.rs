//! The SERVICE_* request signature: HMAC-SHA256 keyed with the Base64-decoded secret over
//! timestamp + METHOD + path (no query) + body, sent in the url-safe Base64 alphabet with '=' padding.

use axum::http::HeaderMap;
use base64::alphabet;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig, URL_SAFE};
use base64::engine::DecodePaddingMode;
use base64::Engine;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use subtle::ConstantTimeEq;

use crate::dataset::Account;
use crate::params::ApiError;

/// Whether SERVICE_TIMESTAMP counts milliseconds (the interface) or seconds (the upstream service).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimestampUnit {
    Millis,
    Seconds,
}

const LENIENT: GeneralPurposeConfig =
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent);
const STANDARD_ANY: GeneralPurpose = GeneralPurpose::new(&alphabet::STANDARD, LENIENT);
const URL_SAFE_ANY: GeneralPurpose = GeneralPurpose::new(&alphabet::URL_SAFE, LENIENT);

/// Decodes a secret written in either Base64 alphabet, padded or not.
pub fn decode_secret(secret: &str) -> Option<Vec<u8>> {
    if secret.is_empty() {
        return None;
    }
    URL_SAFE_ANY.decode(secret).or_else(|_| STANDARD_ANY.decode(secret)).ok()
}

/// The signature of one request.
pub fn sign(secret: &str, timestamp: &str, method: &str, path: &str, body: Option<&str>) -> Option<String> {
    let key = decode_secret(secret)?;
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).ok()?;
    mac.update(timestamp.as_bytes());
    mac.update(method.as_bytes());
    mac.update(path.as_bytes());
    if let Some(body) = body {
        mac.update(body.as_bytes());
    }
    Some(URL_SAFE.encode(mac.finalize().into_bytes()))
}

pub struct AuthSettings {
    pub freshness_secs: u64,
    pub unit: TimestampUnit,
}

pub const HEADERS: [&str; 5] =
    ["SERVICE_ADDRESS", "SERVICE_API_KEY", "SERVICE_PASSPHRASE", "SERVICE_TIMESTAMP", "SERVICE_SIGNATURE"];

/// Checks the SERVICE_* headers of a request; the account index when they are valid, 401 otherwise. `account`
/// finds the account of an API key (the catalog's accounts and the created keys); `now_ms` is the time a caller's
/// clock shows (`crate::clock::Clock::caller_ms`), which SERVICE_TIMESTAMP must be within the window of.
pub fn authenticate(
    account: impl Fn(&str) -> Option<(usize, Account)>,
    settings: &AuthSettings,
    headers: &HeaderMap,
    method: &str,
    path: &str,
    body: &[u8],
    now_ms: u64,
) -> Result<usize, ApiError> {
    let mut values = [""; 5];
    for (i, name) in HEADERS.iter().enumerate() {
        let value = headers.get(*name).and_then(|v| v.to_str().ok()).unwrap_or("");
        if value.is_empty() {
            return Err(ApiError::unauthorized(format!("missing {name} header")));
        }
        values[i] = value;
    }
    let [address, api_key, passphrase, timestamp, signature] = values;
    let (account, a) = account(api_key).ok_or_else(|| ApiError::unauthorized("invalid SERVICE_API_KEY"))?;
    if !bool::from(a.passphrase.as_bytes().ct_eq(passphrase.as_bytes())) {
        return Err(ApiError::unauthorized("invalid SERVICE_PASSPHRASE"));
    }
    if !a.address.eq_ignore_ascii_case(address) {
        return Err(ApiError::unauthorized("SERVICE_ADDRESS does not match the API key"));
    }
    let ts: i64 = timestamp
        .parse()
        .ok()
        .filter(|_| timestamp.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| ApiError::unauthorized("SERVICE_TIMESTAMP must be an integer"))?;
    let (now, window, unit) = match settings.unit {
        TimestampUnit::Millis => (now_ms as i64, settings.freshness_secs as i64 * 1000, "milliseconds"),
        TimestampUnit::Seconds => ((now_ms / 1000) as i64, settings.freshness_secs as i64, "seconds"),
    };
    if (now - ts).abs() > window {
        return Err(ApiError::unauthorized(format!(
            "SERVICE_TIMESTAMP is not fresh: it must be the current time in {unit}, within {} s",
            settings.freshness_secs
        )));
    }
    let body = (!body.is_empty()).then(|| String::from_utf8_lossy(body));
    let expected = sign(&a.secret, timestamp, method, path, body.as_deref()).unwrap_or_default();
    if !bool::from(expected.as_bytes().ct_eq(signature.as_bytes())) {
        return Err(ApiError::unauthorized("invalid SERVICE_SIGNATURE"));
    }
    Ok(account)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_signing_vector() {
        let text = include_str!("../../tests/fixtures/vectors/signing.json");
        let v: serde_json::Value = serde_json::from_str(text).unwrap();
        let cases = v["cases"].as_array().unwrap();
        assert!(cases.len() >= 9);
        for case in cases {
            let s = |k: &str| case[k].as_str().unwrap();
            let got = sign(s("secret"), s("timestamp"), s("method"), s("requestPath"), case["body"].as_str());
            assert_eq!(got.as_deref(), Some(s("signature")), "{case}");
        }
        for secret in v["invalid_secrets"].as_array().unwrap() {
            assert_eq!(sign(secret.as_str().unwrap(), "1", "GET", "/", None), None);
        }
    }
}
