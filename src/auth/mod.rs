//! Credentials and request signing: HMAC-SHA256 over timestamp + METHOD + path + body, keyed by the
//! base64-decoded API secret, encoded in the url-safe base64 alphabet with `=` padding.

use std::fmt;

use base64::alphabet;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::Engine;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use zeroize::Zeroizing;

use crate::error::{Error, ErrorCode};

/// The five request headers of an authenticated call, in this order.
pub const HEADER_NAMES: [&str; 5] =
    ["SERVICE_ADDRESS", "SERVICE_API_KEY", "SERVICE_PASSPHRASE", "SERVICE_TIMESTAMP", "SERVICE_SIGNATURE"];

/// The one engine, so that one alphabet's tables are in the wasm: it encodes signatures in the url-safe alphabet
/// with `=` padding, and decodes the url-safe alphabet with or without padding (standard input is mapped onto
/// it first).
const ENGINE: GeneralPurpose = GeneralPurpose::new(
    &alphabet::URL_SAFE,
    GeneralPurposeConfig::new().with_encode_padding(true).with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// The HMAC key of an API secret: base64 in the standard or url-safe alphabet, padded or not.
pub fn decode_secret(secret: &str) -> Result<Zeroizing<Vec<u8>>, Error> {
    let mut url_safe = Zeroizing::new(secret.as_bytes().to_vec());
    for b in url_safe.iter_mut() {
        match *b {
            b'+' => *b = b'-',
            b'/' => *b = b'_',
            _ => {}
        }
    }
    let key = ENGINE
        .decode(url_safe.as_slice())
        .map(Zeroizing::new)
        .map_err(|_| Error::invalid("secret", "must be base64 (standard or url-safe alphabet)"))?;
    if key.is_empty() {
        return Err(Error::invalid("secret", "must not be empty"));
    }
    Ok(key)
}

/// An API secret made ready to sign: HMAC-SHA256 keyed once (its inner and outer pads hashed), so that each
/// signature costs only its message's blocks.
#[derive(Clone)]
pub struct SigningKey(Option<Hmac<Sha256>>);

impl SigningKey {
    // (Not inlined: the client's requests and `signRequest` share one copy of the keying and of the signing.)
    #[inline(never)]
    pub fn new(key: &[u8]) -> Self {
        // HMAC accepts keys of any length, so this is never `None`; an empty key is refused by `decode_secret`.
        Self(Hmac::<Sha256>::new_from_slice(key).ok())
    }

    /// The signature of one request. `body` is exactly the bytes that are sent, or `None` when there is none.
    #[inline(never)]
    pub fn sign(&self, timestamp: &str, method: &str, request_path: &str, body: Option<&str>) -> String {
        let Some(mut mac) = self.0.clone() else { return String::new() };
        mac.update(timestamp.as_bytes());
        mac.update(method.as_bytes());
        mac.update(request_path.as_bytes());
        if let Some(body) = body {
            mac.update(body.as_bytes());
        }
        ENGINE.encode(mac.finalize().into_bytes())
    }
}

impl fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SigningKey(<redacted>)")
    }
}

/// The signature of one request, keyed by `key` (the decoded secret).
pub fn sign(key: &[u8], timestamp: &str, method: &str, request_path: &str, body: Option<&str>) -> String {
    SigningKey::new(key).sign(timestamp, method, request_path, body)
}

/// `sign` with the secret in its base64 text form.
pub fn sign_request(
    secret: &str,
    timestamp: &str,
    method: &str,
    request_path: &str,
    body: Option<&str>,
) -> Result<String, Error> {
    let key = decode_secret(secret)?;
    Ok(sign(&key, timestamp, method, request_path, body))
}

/// The last secret `signRequest` was given, keyed: a caller signs many requests with one secret, and keying
/// costs two of the three or four SHA-256 blocks of a signature and the secret's base64 decoding. One entry;
/// the secret's text is zeroed when it is replaced or dropped.
#[derive(Default)]
pub struct LastKey(Option<(Zeroizing<String>, SigningKey)>);

impl LastKey {
    pub const fn new() -> Self {
        Self(None)
    }

    /// `sign_request`, keyed from this cache when `secret` is the one it holds (else it is held from now on).
    pub fn sign_request(
        &mut self,
        secret: Zeroizing<String>,
        timestamp: &str,
        method: &str,
        request_path: &str,
        body: Option<&str>,
    ) -> Result<String, Error> {
        let held = self.0.as_ref().filter(|(text, _)| *text == secret);
        let key = match held {
            Some((_, key)) => key,
            None => {
                let decoded = decode_secret(&secret)?;
                &self.0.insert((secret, SigningKey::new(&decoded))).1
            }
        };
        Ok(key.sign(timestamp, method, request_path, body))
    }
}

/// An account's API credentials. The secret is held as its decoded key and as given (the user channel sends it);
/// the key, the secret's text and the passphrase are zeroed when dropped, and none of them is ever printed.
pub struct Credentials {
    address: String,
    api_key: String,
    key: Zeroizing<Vec<u8>>,
    /// The secret as given: the user channel's subscription carries it (the service's protocol).
    secret: Zeroizing<String>,
    passphrase: Zeroizing<String>,
}

impl Credentials {
    /// Checks every field: address `0x` + 40 hex digits, API key a uuid, passphrase 64 hex digits, secret
    /// valid base64. Errors name the field and never echo a value.
    pub fn new(address: &str, api_key: &str, secret: &str, passphrase: &str) -> Result<Self, Error> {
        let hex40 = address.strip_prefix("0x").filter(|h| h.len() == 40 && h.bytes().all(|b| b.is_ascii_hexdigit()));
        if hex40.is_none() {
            return Err(Error::invalid("address", "must be 0x followed by 40 hex digits"));
        }
        if !is_uuid(api_key) {
            return Err(Error::invalid("apiKey", "must be a uuid (8-4-4-4-12 hex digits)"));
        }
        if passphrase.len() != 64 || !passphrase.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(Error::invalid("passphrase", "must be 64 hex digits"));
        }
        let key = decode_secret(secret)?;
        Ok(Self {
            address: address.to_owned(),
            api_key: api_key.to_owned(),
            key,
            secret: Zeroizing::new(secret.to_owned()),
            passphrase: Zeroizing::new(passphrase.to_owned()),
        })
    }

    pub fn address(&self) -> &str {
        &self.address
    }

    /// The API key: not a secret (it names the key), and the `owner` of the account's orders.
    pub fn api_key(&self) -> &str {
        &self.api_key
    }

    /// The five SERVICE_* header values for one request, in the order of [`HEADER_NAMES`].
    pub fn headers(&self, timestamp: &str, method: &str, request_path: &str, body: Option<&str>) -> [String; 5] {
        [
            self.address.clone(),
            self.api_key.clone(),
            self.passphrase.as_str().to_owned(),
            timestamp.to_owned(),
            sign(&self.key, timestamp, method, request_path, body),
        ]
    }

    /// The user channel's subscription to `markets`, with these credentials in it (in memory zeroed when
    /// dropped; it is sent only on the socket).
    pub fn user_subscription(&self, markets: &[String]) -> Zeroizing<String> {
        user_subscription(markets, &self.api_key, &self.secret, &self.passphrase)
    }
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credentials")
            .field("address", &self.address)
            .field("api_key", &self.api_key)
            .field("secret", &"<redacted>")
            .field("passphrase", &"<redacted>")
            .finish()
    }
}

fn is_uuid(s: &str) -> bool {
    s.len() == 36
        && s.bytes().enumerate().all(|(i, b)| match i {
            8 | 13 | 18 | 23 => b == b'-',
            _ => b.is_ascii_hexdigit(),
        })
}

/// An `UNAUTHORIZED` error for an authenticated call made without credentials.
pub fn missing_credentials() -> Error {
    Error::new(ErrorCode::Unauthorized, "this call needs credentials: pass { address, apiKey, secret, passphrase }")
}

/// The user channel's subscription (its protocol's `{ type: "user", markets, auth }`), which carries the
/// credentials: built here, with the credentials, in memory that is zeroed when dropped, and sent only on
/// the socket.
pub(crate) fn user_subscription(
    markets: &[String],
    api_key: &str,
    secret: &str,
    passphrase: &str,
) -> Zeroizing<String> {
    let mut w = crate::json::JsonWriter::object();
    w.field_str("type", "user");
    w.key("markets");
    w.array_start();
    for market in markets {
        w.str(market);
    }
    w.array_end();
    w.key("auth");
    w.object_start();
    w.field_str("apiKey", api_key);
    w.field_str("secret", secret);
    w.field_str("passphrase", passphrase);
    w.object_end();
    Zeroizing::new(w.finish())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub const ADDRESS: &str = "0x9fB0aE0C6E3B0a1C2d3E4f5A6b7C8d9E0F1a2B3c";
    pub const API_KEY: &str = "0f5c2a1e-7b3d-4c8e-9a6f-1d2e3f4a5b6c";
    pub const PASSPHRASE: &str = "a3f1c2d4e5b60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90";
    pub const SECRET: &str = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";

    #[test]
    fn signs_every_vector() {
        let vectors: serde_json::Value =
            serde_json::from_str(include_str!("../../tests/fixtures/vectors/signing.json")).unwrap();
        let cases = vectors["cases"].as_array().unwrap();
        assert!(cases.len() >= 9);
        for case in cases {
            let got = sign_request(
                case["secret"].as_str().unwrap(),
                case["timestamp"].as_str().unwrap(),
                case["method"].as_str().unwrap(),
                case["requestPath"].as_str().unwrap(),
                case["body"].as_str(),
            )
            .unwrap();
            assert_eq!(got, case["signature"].as_str().unwrap(), "{case}");
        }
        for bad in vectors["invalid_secrets"].as_array().unwrap() {
            let err = sign_request(bad.as_str().unwrap(), "1", "GET", "/", None).unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidParams);
            assert_eq!(err.param.as_deref(), Some("secret"));
        }
    }

    #[test]
    fn the_last_key_signs_as_a_fresh_key_whatever_the_order_of_secrets() {
        let vectors: serde_json::Value =
            serde_json::from_str(include_str!("../../tests/fixtures/vectors/signing.json")).unwrap();
        let cases = vectors["cases"].as_array().unwrap();
        let mut last = LastKey::default();
        // Each case twice in a row (the second keyed from the cache), then all of them again interleaved with a
        // refused secret, which must not disturb what is held.
        for round in 0..2 {
            for case in cases {
                for _ in 0..2 {
                    let got = last
                        .sign_request(
                            Zeroizing::new(case["secret"].as_str().unwrap().to_owned()),
                            case["timestamp"].as_str().unwrap(),
                            case["method"].as_str().unwrap(),
                            case["requestPath"].as_str().unwrap(),
                            case["body"].as_str(),
                        )
                        .unwrap();
                    assert_eq!(got, case["signature"].as_str().unwrap(), "round {round}: {case}");
                }
                if round == 1 {
                    let err = last.sign_request(Zeroizing::new("!!!".to_owned()), "1", "GET", "/", None).unwrap_err();
                    assert_eq!(err.param.as_deref(), Some("secret"));
                }
            }
        }
        assert_eq!(format!("{:?}", SigningKey::new(b"k")), "SigningKey(<redacted>)");
    }

    #[test]
    fn secret_alphabets_and_padding_are_equivalent() {
        let forms = [
            "++/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
            "++/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "--_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
            "--_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        ];
        let keys: Vec<_> = forms.iter().map(|f| decode_secret(f).unwrap().to_vec()).collect();
        assert!(keys.windows(2).all(|w| w[0] == w[1]));
    }

    #[test]
    fn credentials_are_validated_without_echoing_values() {
        assert!(Credentials::new(ADDRESS, API_KEY, SECRET, PASSPHRASE).is_ok());
        let lower = ADDRESS.to_ascii_lowercase();
        assert!(Credentials::new(&lower, API_KEY, SECRET, PASSPHRASE).is_ok());
        let cases = [
            ("0x123", API_KEY, SECRET, PASSPHRASE, "address"),
            ("9fB0aE0C6E3B0a1C2d3E4f5A6b7C8d9E0F1a2B3c00", API_KEY, SECRET, PASSPHRASE, "address"),
            (ADDRESS, "not-a-uuid", SECRET, PASSPHRASE, "apiKey"),
            (ADDRESS, API_KEY, "!!!secret-value!!!", PASSPHRASE, "secret"),
            (ADDRESS, API_KEY, SECRET, "zz-passphrase-value", "passphrase"),
        ];
        for (address, api_key, secret, passphrase, field) in cases {
            let err = Credentials::new(address, api_key, secret, passphrase).unwrap_err();
            assert_eq!(err.param.as_deref(), Some(field));
            assert!(!err.message.contains("secret-value") && !err.message.contains("passphrase-value"));
        }
    }

    #[test]
    fn debug_redacts_secrets() {
        let creds = Credentials::new(ADDRESS, API_KEY, SECRET, PASSPHRASE).unwrap();
        let shown = format!("{creds:?}");
        assert!(!shown.contains(PASSPHRASE) && !shown.contains(SECRET) && shown.contains("<redacted>"));
    }

    #[test]
    fn headers_sign_with_the_given_timestamp() {
        let creds = Credentials::new(ADDRESS, API_KEY, SECRET, PASSPHRASE).unwrap();
        let headers = creds.headers("1700000000000", "DELETE", "/order", Some(r#"{"orderId":"0xabc"}"#));
        assert_eq!(headers[0], ADDRESS);
        assert_eq!(headers[1], API_KEY);
        assert_eq!(headers[2], PASSPHRASE);
        assert_eq!(headers[3], "1700000000000");
        assert_eq!(headers[4], "Vvcf1hhOxX0xMZm9j2vMVYxsjXBPuPa5W7yZclFBcPc=");
    }
}
