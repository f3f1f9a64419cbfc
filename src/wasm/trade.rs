//! Trading through a `Client`: the synchronous steps that the package's driver (`src/js/package/trade.mjs`)
//! sequences around the wallet and the network, and one entry that sends a step's request. This file
//! converts values and does I/O; every rule is in `crate::trade` (the flows' decisions in `trade::flow`).

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Array, Object, Promise};
use wasm_bindgen::prelude::*;

use super::call::{run, run_into, Inner, Shape, Sink};
use super::client::Client;
use super::interop::{field, get, is_absent, items, read_bytes, read_str, rejected, set, to_value};
use crate::api::call::Expect;
use crate::api::{self, HttpRequest, Params, Value};
use crate::error::{Error, ErrorCode};
use crate::product::Product;
use crate::trade::doctor::{Doctor, Need, PROVIDER_TIMEOUT_MS};
use crate::trade::draft::{signed_from_params, signed_json, Draft, OrderRequest};
use crate::trade::eip712::{parse_signature, Address, U256};
use crate::trade::flow::{answers, create_after_derive};
use crate::trade::keys::{credentials_from_answer, ClobAuth};
use crate::trade::order::{self, order_body, orders_body, Order, Placement, MAX_BATCH};
use crate::trade::placing::{Placing, Step};

/// The longest answer of a trading read (a book is the longest).
const MAX_ANSWER: u32 = crate::bounds::MAX_BOOK_BYTES;

#[wasm_bindgen(module = "/src/js/driver.js")]
extern "C" {
    /// The driver's functions the package's trading methods use: the wallet's wait, the error maker.
    fn tools() -> JsValue;
}

/// The one JS driver's tools for `trade.mjs` (a package file, which cannot import a snippet itself), so
/// that the wallet is asked with the same timers, signal handling and errors as every request.
#[wasm_bindgen(js_name = driverTools, skip_typescript)]
pub fn driver_tools() -> JsValue {
    tools()
}

fn params(value: &JsValue, param: &'static str) -> Result<Params, Error> {
    match to_value(value, param)? {
        Value::Object(fields) => Ok(Params(fields)),
        _ => Err(Error::invalid(param, "must be an object")),
    }
}

fn signer_address(value: &JsValue) -> Result<Address, Error> {
    let text = read_str(value, "signer.address", 64)
        .map_err(|_| Error::invalid("signer.address", "must be an address string"))?;
    Address::parse("signer.address", &text)
}

/// A wallet's answer as a signature; anything else is `SIGNER` (the wallet misbehaved, not the caller), naming
/// what came back: its type (`typeof` never runs the caller's code), or a string's length.
fn signature(value: &JsValue) -> Result<String, Error> {
    let Ok(text) = read_str(value, "signature", 1024) else {
        let kind = if value.is_null() { "null".into() } else { value.js_typeof().as_string().unwrap_or_default() };
        return Err(Error::new(
            ErrorCode::Signer,
            crate::text::concat(&["the signer answered ", &kind, " instead of a signature string"]),
        ));
    };
    parse_signature(&text)
        .map_err(|_| Error::new(ErrorCode::Signer, "the signer answered a string that is not a 65-byte signature"))
}

fn json(text: &str) -> JsValue {
    js_sys::JSON::parse(text).unwrap_or(JsValue::UNDEFINED)
}

fn now_ms(client: &Client) -> f64 {
    client.inner.now_ms()
}

fn now_s(client: &Client) -> u64 {
    (now_ms(client) / 1000.0) as u64
}

/// A caller's signed order, with `orderType` and `postOnly` overridable at posting; its terms are checked at
/// `now_s` (the client's clock): a signed order may be old.
fn read_signed(
    value: &JsValue,
    order_type: Option<&JsValue>,
    post_only: Option<bool>,
    now_s: Option<u64>,
) -> Result<(Order, String, crate::book::OrderType, bool), Error> {
    let mut p = params(value, "order")?;
    if let Some(t) = order_type.filter(|t| !is_absent(t)) {
        p.set("orderType", to_value(t, "orderType")?);
    }
    let (order, signature, t, post) = signed_from_params(&p)?;
    let post = post_only.unwrap_or(post);
    if let Some(now_s) = now_s {
        crate::trade::amounts::check_terms(t, post, order.expiration, now_s)?;
    }
    Ok((order, signature, t, post))
}

fn post_only_of(options: &JsValue) -> Result<Option<bool>, Error> {
    if is_absent(options) {
        return Ok(None);
    }
    let v = field(options, "postOnly", "postOnly")?;
    if is_absent(&v) {
        Ok(None)
    } else {
        v.as_bool().map(Some).ok_or_else(|| Error::invalid("postOnly", "must be true or false"))
    }
}

/// A key challenge as the driver hands it back: `[address, timestamp, nonce]`, as `tradeKeyToSign` made it.
fn read_auth(value: &JsValue, chain_id: u64) -> Result<ClobAuth, Error> {
    const RULE: &str = "must be the challenge tradeKeyToSign returned";
    let items = items(value, "auth")?.filter(|a| a.length() == 3).ok_or_else(|| Error::invalid("auth", RULE))?;
    let timestamp = read_str(&items.get(1), "auth", 20)?;
    if timestamp.is_empty() || !timestamp.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Error::invalid("auth", RULE));
    }
    Ok(ClobAuth {
        chain_id,
        address: signer_address(&items.get(0))?,
        timestamp,
        nonce: U256::parse_decimal(&read_str(&items.get(2), "auth", 80)?)
            .ok_or_else(|| Error::invalid("auth", RULE))?,
    })
}

fn nonce(value: &JsValue) -> Result<U256, Error> {
    const RULE: &str = "must be a whole number (or its decimal text)";
    match to_value(value, "nonce")? {
        Value::Undefined | Value::Null => Ok(U256::default()),
        Value::Number(n) if n.fract() == 0.0 && n >= 0.0 && n <= api::MAX_SAFE_INT as f64 => {
            Ok(U256::from_u64(n as u64))
        }
        Value::Str(s) => U256::parse_decimal(&s).ok_or_else(|| Error::invalid("nonce", RULE)),
        _ => Err(Error::invalid("nonce", RULE)),
    }
}

/// The steps of the trading driver: none is part of the typed API (the methods are, in trade.d.ts).
#[wasm_bindgen]
impl Client {
    /// A trading call's start, before anything is sent: its options checked (as every call's), the
    /// signer's `address` when given, and, when `needsKey`, the client's credentials. Returns
    /// `[signal, signTimeoutMs]`.
    #[wasm_bindgen(js_name = tradeCall, skip_typescript)]
    pub fn trade_call(&self, options: JsValue, needs_key: JsValue, address: JsValue) -> Result<Array, JsValue> {
        if !address.is_undefined() {
            signer_address(&address)?;
        }
        let call = self.inner.call_options(Some(&options))?;
        if needs_key.is_truthy() {
            self.owner()?;
        }
        Ok(Array::of2(&call.signal, &JsValue::from_f64(self.inner.trading.sign_timeout_ms)))
    }

    /// An order on its way, from its params (read once; `market` for a market order) to the service's
    /// answer (`place`) or to its draft: the handle the package's driver (`trade.mjs`) runs.
    #[wasm_bindgen(js_name = tradeWork, skip_typescript)]
    pub fn trade_work(&self, order: JsValue, market: JsValue, place: JsValue) -> Result<OrderWork, JsValue> {
        let req = OrderRequest::parse(&params(&order, "params")?, market.is_truthy())?;
        Ok(OrderWork {
            inner: self.inner.clone(),
            placing: RefCell::new(Placing::new(req, place.is_truthy())),
            inbox: Rc::new(RefCell::new(None)),
        })
    }

    /// What the wallet of `address` signs for a draft: `[typedData, signedOrder]`, the signed order's
    /// `signature` empty until `tradeSignature` gives it. The maker is the signer, or the client's
    /// `funder` for POLY_PROXY and POLY_GNOSIS_SAFE.
    #[wasm_bindgen(js_name = tradeOrderToSign, skip_typescript)]
    pub fn trade_order_to_sign(&self, draft: JsValue, address: JsValue) -> Result<Array, JsValue> {
        let draft = Draft::from_params(&params(&draft, "order")?)?;
        let signer = signer_address(&address)?;
        let settings = &self.inner.trading;
        if draft.chain_id != settings.chain_id {
            return Err(Error::invalid("order.chainId", "is not this client's chainId").into());
        }
        let maker = settings.signature_type.maker(signer, settings.funder)?;
        let now = now_ms(self);
        let mut order =
            draft.order_for(signer, maker, settings.signature_type, super::call::random_salt() as u64, now as u64)?;
        order.wrapped = self.inner.learnt.try_borrow().map_or(order.wrapped, |l| l.wraps(&order));
        let domain = order::domain(order.version, draft.chain_id, draft.exchange);
        let signed = signed_json(&order, "", draft.order_type, draft.post_only);
        // What follows the wallet's 65 bytes in the signature the exchange takes (a deposit wallet's wrapping).
        let tail = order.wrapped_signature(&domain, "");
        Ok(Array::of3(&json(&order.typed_data_to_sign(&domain)), &json(&signed), &JsValue::from_str(&tail)))
    }

    /// The `ClobAuth` challenge the wallet of `address` signs for its API key (`nonce`, default 0):
    /// `[typedData, auth]`, `auth` for `tradeSend("createKey" | "deriveKey")`.
    #[wasm_bindgen(js_name = tradeKeyToSign, skip_typescript)]
    pub fn trade_key_to_sign(&self, address: JsValue, nonce_value: JsValue) -> Result<Array, JsValue> {
        let auth = ClobAuth {
            chain_id: self.inner.trading.chain_id,
            address: signer_address(&address)?,
            timestamp: crate::trade::decimal((now_ms(self) / 1000.0).floor() as u64),
            nonce: nonce(&nonce_value)?,
        };
        let fields = Array::of3(
            &JsValue::from_str(&auth.address.checksummed()),
            &JsValue::from_str(&auth.timestamp),
            &JsValue::from_str(&auth.nonce.to_decimal()),
        );
        Ok(Array::of2(&json(&auth.typed_data()), &fields))
    }

    /// A wallet's answer as the signature the service takes (`v` normalised to 27 or 28), or `SIGNER`.
    #[wasm_bindgen(js_name = tradeSignature, skip_typescript)]
    pub fn trade_signature(&self, answer: JsValue, tail: JsValue) -> Result<String, JsValue> {
        let signature = signature(&answer)?;
        if is_absent(&tail) {
            return Ok(signature);
        }
        // The tail `tradeOrderToSign` gave: hex, and no longer than a wrapping is.
        let tail = read_str(&tail, "tail", 1024)?;
        if !tail.bytes().all(|b| b.is_ascii_hexdigit()) || tail.len() % 2 != 0 {
            return Err(Error::invalid("tail", "must be the hex tail tradeOrderToSign gave").into());
        }
        Ok(crate::text::concat(&[&signature, &tail]))
    }

    /// A key route's answer (`bytes`, cleared here) kept as this client's credentials for the challenge's
    /// address. Returns `{ address, apiKey }`: the secret and passphrase never leave the library.
    #[wasm_bindgen(js_name = tradeKey, skip_typescript)]
    pub fn trade_key(&self, auth: JsValue, answer: JsValue) -> Result<JsValue, JsValue> {
        let auth = read_auth(&auth, self.inner.trading.chain_id)?;
        let mut body = read_bytes(&answer, "answer", MAX_ANSWER)?;
        let credentials = credentials_from_answer(&auth.address, &body);
        zeroize::Zeroize::zeroize(&mut body);
        let credentials = credentials?;
        let info = Object::new();
        set(&info, "address", &JsValue::from_str(credentials.address()));
        set(&info, "apiKey", &JsValue::from_str(credentials.api_key()));
        *self.inner.credentials.borrow_mut() = Some(credentials);
        Ok(info.into())
    }

    /// Whether a failed derivation of a key (`error`) means the wallet has none yet, so that one is created
    /// (the core's `trade::flow`).
    #[wasm_bindgen(js_name = tradeNext, skip_typescript)]
    pub fn trade_next(&self, error: JsValue) -> bool {
        let status = get(&error, "status").as_f64().filter(|s| (0.0..1000.0).contains(s)).map(|s| s as u16);
        create_after_derive(status)
    }

    /// Sends one trading step's request under the call's `options` (budgets, retries, signal, timeout):
    /// "version" (resolves to 1 or 2), "createKey" / "deriveKey" (`a`: the challenge, `b`: the wallet's
    /// signature; bytes for `tradeKey`), "post" (`a`: a signed order, `b`: its order type; the answer) and
    /// "postBatch" (`a`: 1 to 15 signed orders; the answers).
    #[wasm_bindgen(js_name = tradeSend, skip_typescript)]
    pub fn trade_send(&self, step: JsValue, a: JsValue, b: JsValue, options: JsValue) -> Promise {
        let built = (|| -> Result<(HttpRequest, Expect<Product>, Shape), Error> {
            let step = read_str(&step, "step", 16)?;
            Ok(match step.as_str() {
                "version" => (api::version(), Expect::Bytes(answers::version), Shape::Result),
                "createKey" | "deriveKey" => {
                    let auth = read_auth(&a, self.inner.trading.chain_id)?;
                    (auth.request(step == "createKey", &signature(&b)?), Expect::Bytes(answers::key), Shape::Body)
                }
                // A caller's signed order (`postOrder`).
                "post" => {
                    let (order, signature, order_type, post_only) =
                        read_signed(&a, Some(&b), post_only_of(&options)?, Some(now_s(self)))?;
                    let placement = Placement { order: &order, signature: &signature, order_type, post_only };
                    (api::post_order(order_body(&placement, &self.owner()?)), Expect::Json, Shape::Body)
                }
                "postBatch" => {
                    let items = items(&a, "orders")?
                        .ok_or_else(|| Error::invalid("orders", "must be an array of signed orders"))?;
                    if items.length() == 0 || items.length() as usize > MAX_BATCH {
                        return Err(Error::invalid("orders", "must hold 1 to 15 orders"));
                    }
                    let now = now_s(self);
                    let signed =
                        items.iter().map(|o| read_signed(&o, None, None, Some(now))).collect::<Result<Vec<_>, _>>()?;
                    let placements: Vec<_> = signed
                        .iter()
                        .map(|(o, s, t, p)| Placement { order: o, signature: s, order_type: *t, post_only: *p })
                        .collect();
                    (
                        api::post_orders(orders_body(&placements, &self.owner()?)?, placements.len() as u32),
                        Expect::Json,
                        Shape::Body,
                    )
                }
                _ => return Err(Error::invalid("step", "is not a trading step")),
            })
        })();
        match built {
            Ok((request, expect, shape)) => self.send(Some(&options), Ok(request), expect, shape),
            Err(e) => rejected(e),
        }
    }
}

/// The account doctor's steps (`diagnoseAccount`).
#[wasm_bindgen]
impl Client {
    /// The examination of the account of the signer at `address` (`provider`: a wallet provider will answer
    /// its reads): the handle the package's driver runs.
    #[wasm_bindgen(js_name = tradeDoctor, skip_typescript)]
    pub fn trade_doctor(&self, address: JsValue, provider: JsValue) -> Result<AccountWork, JsValue> {
        let owner = signer_address(&address)?;
        let key = self.inner.credentials.borrow().as_ref().and_then(|c| Address::parse("key", c.address()).ok());
        let doctor = RefCell::new(Doctor::new(&self.inner.trading, owner, key, provider.is_truthy()));
        Ok(AccountWork { inner: self.inner.clone(), doctor })
    }
}

/// An account's examination (`tradeDoctor`): `next` takes the answer to the last need and says the next, as
/// JSON: `["rpc", method, params, timeoutMs]`, `["sign", typedData]`, `["balance", signatureType]`,
/// `["done", diagnosis]` or `["end"]` (the last failure ends it). Internal.
#[wasm_bindgen(skip_typescript)]
pub struct AccountWork {
    inner: Rc<Inner>,
    doctor: RefCell<Doctor>,
}

#[wasm_bindgen]
impl AccountWork {
    /// `answer`: the provider's or the service's answer to the last need, or when `failed` the failure
    /// (`{ status, body }` when the service answered).
    pub fn next(&self, answer: JsValue, failed: JsValue) -> Result<String, JsValue> {
        let answer = to_value(&answer, "answer").unwrap_or(Value::Other);
        let Ok(mut doctor) = self.doctor.try_borrow_mut() else {
            return Err(Error::decode("the examination is busy").into());
        };
        doctor.supply(&answer, failed.is_truthy());
        Ok(match doctor.need() {
            Need::Rpc { method, params } => {
                let timeout = crate::trade::decimal(u64::from(PROVIDER_TIMEOUT_MS));
                crate::text::concat(&["[\"rpc\",\"", method, "\",", &params, ",", &timeout, "]"])
            }
            Need::Sign(typed) => crate::text::concat(&["[\"sign\",", &typed, "]"]),
            Need::End => "[\"end\"]".into(),
            Need::Balance(t) => crate::text::concat(&["[\"balance\",", &crate::trade::decimal(t as u64), "]"]),
            Need::Done(diagnosis) => {
                // The form the account's deposit wallet takes is the one its orders are signed in from now on.
                if let (Some(plain), Ok(mut learnt)) = (doctor.deposit_form(), self.inner.learnt.try_borrow_mut()) {
                    learnt.plain_wallet = plain;
                }
                crate::text::concat(&["[\"done\",", &diagnosis, "]"])
            }
        })
    }
}

impl Client {
    /// The API key orders are placed for (`UNAUTHORIZED` without credentials).
    fn owner(&self) -> Result<String, Error> {
        self.inner
            .credentials
            .borrow()
            .as_ref()
            .map(|c| c.api_key().to_owned())
            .ok_or_else(crate::auth::missing_credentials)
    }
}

/// An order on its way (`tradeWork`): its driver asks what it needs (`next`, handing the wallet's answer
/// when it was asked to sign), sends what it needs sent (`send`: a read, or the order), and tells a refusal
/// (`refused`). Internal.
#[wasm_bindgen(skip_typescript)]
pub struct OrderWork {
    inner: Rc<Inner>,
    placing: RefCell<Placing>,
    /// Where a read's parsed answer arrives.
    inbox: Sink,
}

#[wasm_bindgen]
impl OrderWork {
    /// What the order needs: `["read"]` or `["post"]` (then `send`), `["sign", typedData]` (for the signer
    /// of `address`; its answer comes with the next `next`), or `["draft", draft]`, as JSON. `answer` is the
    /// wallet's answer to the last `sign` (`SIGNER` unless it is a signature).
    pub fn next(&self, address: JsValue, answer: JsValue) -> Result<String, JsValue> {
        let signer = if address.is_undefined() { None } else { Some(signer_address(&address)?) };
        let signature = if answer.is_undefined() { None } else { Some(signature(&answer)?) };
        // The clock and the salt are read before anything is borrowed.
        let now = self.inner.now_ms();
        let salt = super::call::random_salt() as u64;
        let (Ok(mut placing), Ok(mut learnt)) = (self.placing.try_borrow_mut(), self.inner.learnt.try_borrow_mut())
        else {
            return Err(Error::decode("the order is busy").into());
        };
        if let Some(signature) = signature {
            placing.signed(signature);
        }
        if let Some(Product::Order(answer)) = self.inbox.try_borrow_mut().ok().and_then(|mut a| a.take()) {
            placing.learn(&mut learnt, answer)?;
        }
        Ok(match placing.next(&mut learnt, &self.inner.trading, signer, now, salt)? {
            Step::Read(_) => "[\"read\"]".into(),
            Step::Sign(typed) => crate::text::concat(&["[\"sign\",", &typed, "]"]),
            Step::Post => "[\"post\"]".into(),
            Step::Drafted(draft) => crate::text::concat(&["[\"draft\",", &draft, "]"]),
        })
    }

    /// Sends what the order needs sent, under the call's `options`: the read it needs (its answer goes to the
    /// order), or the signed order for the client's API key (resolves to the service's answer).
    pub fn send(&self, options: JsValue) -> Promise {
        let call = match self.inner.call_options(Some(&options)) {
            Ok(call) => call,
            Err(e) => return rejected(e),
        };
        let built = (|| {
            let placing = self.placing.try_borrow().map_err(|_| Error::decode("the order is busy"))?;
            if let Some(read) = placing.pending() {
                return Ok::<_, Error>((placing.request(read)?, Some(read.kind())));
            }
            let owner = self.inner.credentials.borrow().as_ref().map(|c| c.api_key().to_owned());
            Ok((placing.post_request(&owner.ok_or_else(crate::auth::missing_credentials)?)?, None))
        })();
        // The call's extraQuery goes with every request of it, the reads and the POST alike.
        let built = built.and_then(|(request, kind)| Ok((call.prepare(request)?, kind)));
        match built {
            Ok((request, Some(kind))) => {
                run_into(&self.inner, request, &call, crate::product::order_read(kind), self.inbox.clone())
            }
            Ok((request, None)) => run(&self.inner, request, &call, Expect::Json, Shape::Body),
            Err(e) => rejected(e),
        }
    }

    /// The service refused the order with `error`: true when it is to be rebuilt and signed once more.
    pub fn refused(&self, error: JsValue) -> bool {
        let status = get(&error, "status").as_f64().filter(|s| (0.0..1000.0).contains(s)).map(|s| s as u16);
        let body = read_str(&get(&error, "body"), "body", 1 << 16).ok();
        let (Ok(mut placing), Ok(mut learnt)) = (self.placing.try_borrow_mut(), self.inner.learnt.try_borrow_mut())
        else {
            return false;
        };
        placing.refused(&mut learnt, status, body.as_deref())
    }
}
