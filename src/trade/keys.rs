//! API keys from the user's wallet (L1): the `ClobAuth` message the wallet signs, the headers that carry
//! the signature, and the answer that holds the new credentials, run as a task ([`Keying`]).

use super::eip712::{digest, typed_data_json, Address, Domain, Struct, Value, U256};
use super::flow::create_after_derive;
use super::placing::signature_of;
use crate::api::call::{CallLimits, Expect};
use crate::api::{HttpRequest, Method, Surface};
use crate::auth::Credentials;
use crate::error::Error;
use crate::json::Scanner;
use crate::task::{Got, Machine, Need, Step};
use zeroize::Zeroizing;

/// The statement the wallet signs.
pub const MESSAGE: &str = "This message attests that I control the given wallet";

/// The four L1 headers, in this order.
pub const HEADER_NAMES: [&str; 4] = ["SERVICE_ADDRESS", "SERVICE_SIGNATURE", "SERVICE_TIMESTAMP", "SERVICE_NONCE"];

/// One `ClobAuth` challenge: the wallet's address, the time in seconds (as text) and a nonce.
#[derive(Clone, Debug, PartialEq)]
pub struct ClobAuth {
    pub chain_id: u64,
    pub address: Address,
    pub timestamp: String,
    pub nonce: U256,
}

impl ClobAuth {
    fn domain(&self) -> Domain {
        Domain { name: "ClobAuthDomain", version: "1", chain_id: self.chain_id, verifying_contract: None }
    }

    fn fields(&self) -> [(&'static str, &'static str, Value); 4] {
        [
            ("address", "address", Value::Address(self.address)),
            ("timestamp", "string", Value::Text(self.timestamp.clone())),
            ("nonce", "uint256", Value::Uint(self.nonce)),
            ("message", "string", Value::Text(MESSAGE.into())),
        ]
    }

    /// The digest the wallet signs.
    pub fn digest(&self) -> [u8; 32] {
        digest(&self.domain(), &Struct { name: "ClobAuth", fields: &self.fields() })
    }

    /// The `eth_signTypedData_v4` document for the wallet.
    pub fn typed_data(&self) -> String {
        typed_data_json(&self.domain(), &Struct { name: "ClobAuth", fields: &self.fields() })
    }

    /// `POST /auth/api-key` (create) or `GET /auth/derive-api-key` (derive), with the signed challenge in
    /// the L1 headers.
    pub fn request(&self, create: bool, signature: &str) -> HttpRequest {
        // Creating is not repeated once it may have arrived: a second try would find the key made.
        let request = if create {
            HttpRequest::new(Method::Post, Surface::Clob, "/auth/api-key").writes()
        } else {
            HttpRequest::get(Surface::Clob, "/auth/derive-api-key")
        };
        let values =
            [self.address.checksummed(), signature.to_owned(), self.timestamp.clone(), self.nonce.to_decimal()];
        request.headers(HEADER_NAMES.iter().copied().zip(values).collect())
    }
}

/// A key route's answer `{ apiKey, secret, passphrase }`, read: nothing else of it is kept, and its secret and
/// passphrase are zeroed when it is dropped.
pub struct KeyAnswer {
    api_key: Zeroizing<String>,
    secret: Zeroizing<String>,
    passphrase: Zeroizing<String>,
}

/// Reads a key route's answer; one without the three is a `DECODE` error naming no value.
pub fn read_key(body: &[u8]) -> Result<KeyAnswer, Error> {
    let (mut api_key, mut secret, mut passphrase) = (None, None, None);
    let mut s = Scanner::new(body);
    s.object(|s, key| {
        let slot = match key {
            b"apiKey" => &mut api_key,
            b"secret" => &mut secret,
            b"passphrase" => &mut passphrase,
            _ => return s.skip_value(),
        };
        *slot = Some(Zeroizing::new(s.string()?.into_owned()));
        Ok(())
    })?;
    let (Some(api_key), Some(secret), Some(passphrase)) = (api_key, secret, passphrase) else {
        return Err(Error::decode("the key answer lacks apiKey, secret or passphrase"));
    };
    Ok(KeyAnswer { api_key, secret, passphrase })
}

impl KeyAnswer {
    /// The credentials of the key, for `address`.
    pub fn credentials(&self, address: &Address) -> Result<Credentials, Error> {
        Credentials::new(&address.checksummed(), &self.api_key, &self.secret, &self.passphrase).map_err(|e| {
            Error::decode(if e.param.as_deref() == Some("secret") {
                "the key answer's secret is not base64"
            } else {
                "the key answer's apiKey or passphrase is malformed"
            })
        })
    }
}

/// Which key routes a [`Keying`] asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyRoute {
    /// `createApiKey`: POST /auth/api-key.
    Create,
    /// `deriveApiKey`: GET /auth/derive-api-key.
    Derive,
    /// `createOrDeriveApiKey`: derive, and create when the wallet has no key yet ([`create_after_derive`]), with
    /// the same signature: the wallet is asked once.
    DeriveOrCreate,
}

/// An API key from the wallet, as a task (`crate::task`): the wallet signs the challenge, the key route's answer
/// is read by `read` into the owner's product (from which `key` takes it) and never leaves Rust; done with
/// `{ address, apiKey }`, the credentials kept in [`Keying::credentials`] for the client.
pub struct Keying<P> {
    auth: ClobAuth,
    route: KeyRoute,
    read: Expect<P>,
    key: fn(P) -> Option<KeyAnswer>,
    limits: CallLimits,
    sign_ms: f64,
    signature: Option<String>,
    /// The route on its way creates the key.
    creating: bool,
    /// The key, once read.
    pub credentials: Option<Credentials>,
}

impl<P> Keying<P> {
    pub fn new(
        auth: ClobAuth,
        route: KeyRoute,
        read: Expect<P>,
        key: fn(P) -> Option<KeyAnswer>,
        limits: CallLimits,
        sign_ms: f64,
    ) -> Self {
        Keying { auth, route, read, key, limits, sign_ms, signature: None, creating: false, credentials: None }
    }

    fn ask(&mut self, create: bool) -> Result<Step<P>, Error> {
        let signature = self.signature.as_deref().ok_or_else(|| Error::decode("the challenge is not signed"))?;
        self.creating = create;
        Ok(Step::Call { request: self.auth.request(create, signature), expect: self.read, limits: self.limits })
    }

    fn advance(&mut self, got: Got<P>) -> Result<Step<P>, Error> {
        match got {
            Got::Go => {
                let ms = Some(self.sign_ms).filter(|ms| ms.is_finite());
                Ok(Step::Do(Need::Sign { typed: self.auth.typed_data(), ms }))
            }
            Got::Said(said) => {
                self.signature = Some(signature_of(said)?);
                self.ask(self.route == KeyRoute::Create)
            }
            Got::Answer { product, .. } => {
                let key = product.and_then(self.key).ok_or_else(|| Error::decode("the key answer was not read"))?;
                let credentials = key.credentials(&self.auth.address)?;
                let mut w = crate::json::JsonWriter::object();
                w.field_str("address", credentials.address());
                w.field_str("apiKey", credentials.api_key());
                self.credentials = Some(credentials);
                Ok(Step::Do(Need::Done(w.finish())))
            }
            Got::Failed(e)
                if self.route == KeyRoute::DeriveOrCreate && !self.creating && create_after_derive(e.status) =>
            {
                self.ask(true)
            }
            Got::Failed(e) => Err(e),
            Got::Heard(_) => Err(crate::task::not_followed()),
            Got::Abort { error, .. } => Err(crate::task::abort_error(error)),
        }
    }
}

impl<P> Machine<P> for Keying<P> {
    fn step(&mut self, got: Got<P>, _now: f64) -> Step<P> {
        self.advance(got).unwrap_or_else(|e| Step::Do(Need::Fail(e)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_data_matches_the_digest_fields() {
        let auth = ClobAuth {
            chain_id: 80002,
            address: Address::parse("a", "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266").unwrap(),
            timestamp: "10000000".into(),
            nonce: U256::from_u64(23),
        };
        let doc: serde_json::Value = serde_json::from_str(&auth.typed_data()).unwrap();
        assert_eq!(doc["primaryType"], "ClobAuth");
        assert_eq!(doc["domain"], serde_json::json!({"name": "ClobAuthDomain", "version": "1", "chainId": 80002}));
        assert_eq!(doc["message"]["nonce"], "23");
        assert_eq!(doc["message"]["message"], MESSAGE);
        assert_eq!(doc["types"]["EIP712Domain"].as_array().unwrap().len(), 3);
        let request = auth.request(true, "0xsig");
        assert_eq!(request.path, "/auth/api-key");
        assert_eq!(request.headers[3], ("SERVICE_NONCE", "23".to_owned()));
        assert_eq!(request.headers[0].1, "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
        assert!(!request.idempotent(), "a create is not sent twice");
        assert_eq!(auth.request(false, "0xsig").method, Method::Get);
        assert!(auth.request(false, "0xsig").idempotent());
        // Both carry their challenge in SERVICE_* headers: they refuse redirects whatever their `auth` flag says.
        for create in [true, false] {
            let request = auth.request(create, "0x11");
            assert!(crate::api::response::refuses_redirects(request.header_names()), "{}", request.path);
        }
    }

    #[test]
    fn answers_become_credentials_or_a_decode_error() {
        let a = Address::parse("a", "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266").unwrap();
        let ok = format!(
            r#"{{"apiKey":"0f0e0d0c-0b0a-4009-8807-060504030201","secret":"AAAA","passphrase":"{}"}}"#,
            "ab".repeat(32)
        );
        let creds = read_key(ok.as_bytes()).and_then(|k| k.credentials(&a)).unwrap();
        assert_eq!(creds.address(), "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
        for bad in [r#"{"apiKey":"x"}"#.to_owned(), ok.replace("AAAA", "***"), ok.replace("ab", "zz"), "[]".to_owned()]
        {
            let e = read_key(bad.as_bytes()).and_then(|k| k.credentials(&a)).unwrap_err();
            assert_eq!(e.code, crate::ErrorCode::Decode, "{bad}");
            assert!(!e.message.contains("AAAA") && !e.message.contains("abab"), "{e}");
        }
    }

    mod as_a_task {
        use super::*;
        use crate::api::call::Reply;
        use crate::task::tests::{answer, calls};
        use crate::task::{Need as TaskNeed, Outcome, Said, Task, Why};
        use crate::ErrorCode;

        const LIMITS: CallLimits = CallLimits { max_retries: 0, timeout_ms: 10_000.0, attempt_timeout_ms: None };
        const READ: Expect<KeyAnswer> = Expect::Read(|_, body| read_key(&body), 0);
        const SIGNATURE: &str = "0x111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111b";
        const T: f64 = 1_700_000_000_000.0;

        fn keying(route: KeyRoute) -> Task<Keying<KeyAnswer>> {
            let auth = ClobAuth {
                chain_id: 80002,
                address: Address::parse("a", "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266").unwrap(),
                timestamp: "1700000000".into(),
                nonce: U256::from_u64(7),
            };
            Task::new(Keying::new(auth, route, READ, Some, LIMITS, 5_000.0))
        }

        fn key_answer() -> String {
            format!(
                r#"{{"apiKey":"0f0e0d0c-0b0a-4009-8807-060504030201","secret":"AAAA","passphrase":"{}"}}"#,
                "ab".repeat(32)
            )
        }

        fn signed() -> Outcome<'static> {
            Outcome::Said(Said::Answer(crate::json::Value::Str(SIGNATURE.into())))
        }

        #[test]
        fn the_wallet_signs_once_and_a_missing_key_is_created_with_the_same_signature() {
            let mut c = calls::<KeyAnswer>();
            let mut t = keying(KeyRoute::DeriveOrCreate);
            let TaskNeed::Sign { typed, ms } = t.next(Some(&mut c), Outcome::Go, T, None) else {
                panic!("a signature")
            };
            assert!(typed.contains("\"primaryType\":\"ClobAuth\""), "{typed}");
            assert_eq!(ms, Some(5_000.0));
            let TaskNeed::Http(derive) = t.next(Some(&mut c), signed(), T, None) else { panic!("the derivation") };
            assert!(derive.url.ends_with("/auth/derive-api-key"), "{}", derive.url);
            assert!(derive.headers.iter().any(|(n, v)| *n == "SERVICE_SIGNATURE" && v == SIGNATURE));
            assert!(derive.manual, "a signature never follows a redirect");
            // No key yet (404): created, with the signature the wallet gave.
            let missing = answer(404, Some(r#"{"error":"no key"}"#));
            let TaskNeed::Http(create) = t.next(Some(&mut c), Outcome::Reply(missing), T, None) else {
                panic!("the creation")
            };
            assert_eq!((create.method, create.url.ends_with("/auth/api-key")), ("POST", true));
            assert!(create.headers.iter().any(|(n, v)| *n == "SERVICE_SIGNATURE" && v == SIGNATURE));
            let body = key_answer();
            let reply = Reply { bytes: Some(body.into_bytes()), parsed: false, ..answer(200, None) };
            let TaskNeed::Done(json) = t.next(Some(&mut c), Outcome::Reply(reply), T, None) else { panic!("done") };
            assert_eq!(
                json,
                r#"{"address":"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266","apiKey":"0f0e0d0c-0b0a-4009-8807-060504030201"}"#,
                "no secret or passphrase in the result"
            );
            let creds = t.machine.credentials.take().expect("the credentials, kept for the client");
            assert_eq!(creds.api_key(), "0f0e0d0c-0b0a-4009-8807-060504030201");
        }

        #[test]
        fn a_refusal_that_is_not_a_missing_key_a_bad_answer_or_the_wallets_fault_fails_it() {
            // (route, what the derivation or creation answers, the code it fails with)
            let cases: [(KeyRoute, u16, &str, ErrorCode); 5] = [
                (KeyRoute::DeriveOrCreate, 401, "{}", ErrorCode::Unauthorized),
                (KeyRoute::DeriveOrCreate, 429, "{}", ErrorCode::RateLimited),
                (KeyRoute::Derive, 404, "{}", ErrorCode::NotFound),
                (KeyRoute::Create, 400, r#"{"error":"exists"}"#, ErrorCode::Api),
                (KeyRoute::Create, 200, r#"{"apiKey":"x"}"#, ErrorCode::Decode),
            ];
            for (route, status, body, code) in cases {
                let mut c = calls::<KeyAnswer>();
                let mut t = keying(route);
                t.next(Some(&mut c), Outcome::Go, T, None);
                let TaskNeed::Http(first) = t.next(Some(&mut c), signed(), T, None) else { panic!() };
                assert_eq!(first.method, if route == KeyRoute::Create { "POST" } else { "GET" });
                let reply = if status == 200 {
                    Reply { bytes: Some(body.as_bytes().to_vec()), parsed: false, ..answer(200, None) }
                } else {
                    answer(status, Some(body))
                };
                let TaskNeed::Fail(e) = t.next(Some(&mut c), Outcome::Reply(reply), T, None) else {
                    panic!("{route:?} {status}")
                };
                assert_eq!(e.code, code, "{route:?} {status}");
                assert!(t.machine.credentials.is_none());
            }
            for (said, code) in [(Said::Threw, ErrorCode::Signer), (Said::Late, ErrorCode::Timeout)] {
                let mut c = calls::<KeyAnswer>();
                let mut t = keying(KeyRoute::Create);
                t.next(Some(&mut c), Outcome::Go, T, None);
                let TaskNeed::Fail(e) = t.next(Some(&mut c), Outcome::Said(said), T, None) else { panic!() };
                assert_eq!(e.code, code);
                assert_eq!(t.call(), None, "nothing sent");
            }
            let mut c = calls::<KeyAnswer>();
            let mut t = keying(KeyRoute::Create);
            t.next(Some(&mut c), Outcome::Go, T, None);
            let TaskNeed::Fail(e) = t.next(Some(&mut c), Outcome::Abort(Why::Signal), T, None) else { panic!() };
            assert_eq!(e.code, ErrorCode::Aborted);
        }
    }
}
