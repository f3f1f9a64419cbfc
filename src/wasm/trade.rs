//! Trading through a `Client`: API keys from the user's wallet, orders built by the core, signed by the
//! caller's signer, posted. This file converts values and does I/O; every rule is in `crate::trade`.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Function, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use super::call::{race_abort, random_salt, CallOptions, CallScope, Inner};
use super::client::Client;
use super::interop::{error_with_cause, field, get, is_absent, promise, read_str, rejected, to_value};
use super::transport::{Payload, Want};
use crate::api::{self, HttpRequest, Params, Value};
use crate::error::{Error, ErrorCode};
use crate::trade::draft::{Draft, Kind, MarketInfo, OrderRequest};
use crate::trade::eip712::{parse_signature, Address, U256};
use crate::trade::keys::{credentials_from_answer, ClobAuth};
use crate::trade::order::{self, order_body, orders_body, Exchanges, Order, Placement, Version, MAX_BATCH};
use crate::trade::settings::TradingSettings;

/// The client's trading settings and what it has learnt of the service.
pub struct Trading {
    pub settings: TradingSettings,
    version: Cell<Option<Version>>,
    /// Per token: its market's condition id and rules (GET /clob-markets), learnt once.
    markets: RefCell<Vec<(String, String, Rc<MarketInfo>)>>,
    /// Per token: the V1 fee rate in basis points (GET /fee-rate).
    fees: RefCell<Vec<(String, u64)>>,
}

/// Reads `chainId` (default 137), `signatureType`, `funder`, `exchanges: { exchange, negRiskExchange }` and
/// `signTimeoutMs` by the core's rules (`TradingSettings`).
pub fn read_trading(options: &JsValue) -> Result<Trading, Error> {
    Ok(Trading {
        settings: TradingSettings::read(&mut |name| super::interop::option(options, name))?,
        version: Cell::new(None),
        markets: RefCell::new(Vec::new()),
        fees: RefCell::new(Vec::new()),
    })
}

/// A caller's signer: `{ address, signTypedData(typedData) }`.
struct Signer {
    address: Address,
    sign: Function,
    this: JsValue,
}

fn read_signer(value: &JsValue) -> Result<Signer, Error> {
    const RULE: &str = "must be { address, signTypedData(typedData) } (see walletSigner, viemSigner, ethersSigner)";
    if !value.is_object() {
        return Err(Error::invalid("signer", RULE));
    }
    let address = field(value, "address", "signer")?;
    let address = Address::parse(
        "signer.address",
        &read_str(&address, "signer.address", 64)
            .map_err(|_| Error::invalid("signer.address", "must be an address string"))?,
    )?;
    let sign =
        field(value, "signTypedData", "signer")?.dyn_into::<Function>().map_err(|_| Error::invalid("signer", RULE))?;
    Ok(Signer { address, sign, this: value.clone() })
}

/// `SIGNER`: the wallet refused or failed; its own error is the `cause`.
fn signer_error(message: &'static str, cause: Option<&JsValue>) -> JsValue {
    error_with_cause(&Error::new(ErrorCode::Signer, message), cause)
}

impl Signer {
    /// Asks the wallet to sign `typed` (an `eth_signTypedData_v4` document). The call's signal stops the
    /// wait, and so does `signTimeoutMs`: a wallet that never answers cannot hold the call for ever.
    async fn sign(&self, typed: &str, call: &CallOptions, timeout_ms: f64) -> Result<String, JsValue> {
        let doc = js_sys::JSON::parse(typed).map_err(|_| Error::decode("typed data"))?;
        let answer = self.sign.call1(&self.this, &doc).map_err(|e| signer_error("the signer threw", Some(&e)))?;
        let scope = CallScope::new(&call.signal, timeout_ms);
        let answer = JsFuture::from(race_abort(&Promise::resolve(&answer), &scope.signal())).await;
        let (timed_out, aborted) = (scope.timed_out(), scope.aborted());
        scope.finish();
        let answer = answer.map_err(|e| {
            if timed_out {
                Error::new(ErrorCode::Timeout, "the signer did not answer within signTimeoutMs").into()
            } else if aborted {
                Error::new(ErrorCode::Aborted, "the call was aborted by its AbortSignal while the signer was asked")
                    .into()
            } else if super::interop::is_predictkit_error(&e) {
                e
            } else {
                signer_error("the signer refused or failed to sign", Some(&e))
            }
        })?;
        let text = read_str(&answer, "signature", 1024)
            .map_err(|_| signer_error("the signer answered something other than a signature string", None))?;
        parse_signature(&text)
            .map_err(|_| signer_error("the signer answered something other than a 65-byte signature", None))
    }
}

fn now_ms(inner: &Inner) -> f64 {
    js_sys::Date::now() + inner.clock_offset_ms.get()
}

impl Inner {
    /// Sends `request` and reads its 2xx body's bytes through `parse` (a body that does not parse counts
    /// as garbled and is retried).
    async fn read<T: 'static>(
        &self,
        request: HttpRequest,
        call: &CallOptions,
        parse: impl Fn(&[u8]) -> Result<T, Error>,
    ) -> Result<T, JsValue> {
        let out = RefCell::new(None);
        let decode = |payload: Payload| match payload {
            Payload::Bytes(mut bytes) => {
                let parsed = parse(&bytes);
                // An API-key answer holds the secret and passphrase: the copy in wasm memory is cleared.
                zeroize::Zeroize::zeroize(&mut bytes);
                *out.borrow_mut() = Some(parsed?);
                Ok(JsValue::UNDEFINED)
            }
            Payload::Json(_) => Err(Error::decode("expected a byte body")),
        };
        let request = call.prepare(request)?;
        self.execute(&request, call, Want::Bytes, &decode).await?;
        out.into_inner().ok_or_else(|| Error::decode("no answer").into())
    }

    async fn order_version(&self, call: &CallOptions, fresh: bool) -> Result<Version, JsValue> {
        if let (Some(v), false) = (self.trading.version.get(), fresh) {
            return Ok(v);
        }
        let v = self.read(api::version(), call, Version::from_answer).await?;
        self.trading.version.set(Some(v));
        Ok(v)
    }

    /// The token's market and its rules: from the cache, or GET /book (for the market, unless the caller
    /// named it) and GET /clob-markets. A token the market does not list is refused.
    async fn market_of(
        &self,
        token: &str,
        condition: Option<&str>,
        call: &CallOptions,
    ) -> Result<(String, Rc<MarketInfo>), JsValue> {
        let known = self
            .trading
            .markets
            .borrow()
            .iter()
            .find(|(t, c, _)| t == token && condition.map_or(true, |c2| c2 == c))
            .map(|(_, c, i)| (c.clone(), i.clone()));
        if let Some(found) = known {
            return Ok(found);
        }
        let condition = match condition {
            Some(c) => c.to_owned(),
            None => {
                let book =
                    self.read(api::order_book(token)?, call, |b| crate::book::OrderBook::from_vec(b.to_vec())).await?;
                book.market().ok_or_else(|| Error::decode("GET /book: the book names no market"))?
            }
        };
        let info = Rc::new(self.read(api::clob_market_info(&condition)?, call, MarketInfo::from_answer).await?);
        if !info.tokens.is_empty() && !info.tokens.iter().any(|t| t == token) {
            return Err(Error::invalid("tokenId", "is not a token of this market (conditionId)").into());
        }
        let mut markets = self.trading.markets.borrow_mut();
        markets.retain(|(t, _, _)| t != token);
        markets.push((token.to_owned(), condition.clone(), info.clone()));
        Ok((condition, info))
    }

    /// Forgets what was learnt of a token's market (after the service refused an order: its tick size may
    /// have changed).
    fn forget_market(&self, token: &str) {
        self.trading.markets.borrow_mut().retain(|(t, _, _)| t != token);
    }

    async fn fee_bps(&self, token: &str, call: &CallOptions) -> Result<u64, JsValue> {
        if let Some(&(_, bps)) = self.trading.fees.borrow().iter().find(|(t, _)| t == token) {
            return Ok(bps);
        }
        let bps = self.read(api::fee_rate(token)?, call, crate::trade::draft::base_fee).await?;
        self.trading.fees.borrow_mut().push((token.to_owned(), bps));
        Ok(bps)
    }

    fn exchanges(&self, version: Version) -> Result<Exchanges, Error> {
        self.trading
            .settings
            .exchanges
            .or_else(|| Exchanges::known(self.trading.settings.chain_id, version))
            .ok_or_else(|| {
                Error::invalid(
                    "exchanges",
                    "is required: no exchange is published for this chainId (give { exchange, negRiskExchange })",
                )
            })
    }

    /// Builds the draft of an order: version, market rules, price (from the book for a market order
    /// that named none), exact amounts.
    async fn draft(
        &self,
        req: &OrderRequest,
        call: &CallOptions,
        fresh_version: bool,
    ) -> Result<(Draft, Rc<MarketInfo>), JsValue> {
        let version = self.order_version(call, fresh_version).await?;
        let (_, info) = self.market_of(&req.token_id, req.condition_id.as_deref(), call).await?;
        let price = match req.kind {
            Kind::Limit { price, .. } | Kind::Market { price: Some(price), .. } => price,
            Kind::Market { amount, price: None } => {
                let book = self
                    .read(api::order_book(&req.token_id)?, call, |b| crate::book::OrderBook::from_vec(b.to_vec()))
                    .await?;
                book.market_price(req.side, amount, req.order_type)?
            }
        };
        let amounts = req.amounts(&info.rules, price, (now_ms(self) / 1000.0) as u64)?;
        let fee_rate_bps = if version == Version::V1 { self.fee_bps(&req.token_id, call).await? } else { 0 };
        let draft = Draft {
            version,
            chain_id: self.trading.settings.chain_id,
            exchange: self.exchanges(version)?.for_market(info.rules.neg_risk),
            token_id: req.token_id.clone(),
            side: req.side,
            amounts,
            expiration: req.expiration,
            fee_rate_bps,
            order_type: req.order_type,
            post_only: req.post_only,
        };
        Ok((draft, info))
    }

    async fn sign_draft(&self, draft: &Draft, signer: &Signer, call: &CallOptions) -> Result<(Order, String), JsValue> {
        if draft.chain_id != self.trading.settings.chain_id {
            return Err(Error::invalid("order.chainId", "is not this client's chainId").into());
        }
        let maker = self.trading.settings.signature_type.maker(signer.address, self.trading.settings.funder)?;
        let order = draft.order(
            signer.address,
            maker,
            self.trading.settings.signature_type,
            random_salt() as u64,
            now_ms(self) as u64,
        )?;
        let domain = order::domain(order.version, draft.chain_id, draft.exchange);
        let signature = signer.sign(&order.typed_data(&domain), call, self.trading.settings.sign_timeout_ms).await?;
        Ok((order, signature))
    }

    fn owner(&self) -> Result<String, Error> {
        self.credentials.borrow().as_ref().map(|c| c.api_key().to_owned()).ok_or_else(crate::auth::missing_credentials)
    }

    async fn post(&self, request: HttpRequest, call: &CallOptions) -> Result<JsValue, JsValue> {
        let request = call.prepare(request)?;
        self.execute(&request, call, Want::Json, &super::client::decode_json).await
    }

    /// Creates (POST /auth/api-key) or derives (GET /auth/derive-api-key) the key of `signer` and `nonce`,
    /// and keeps it as this client's credentials. Resolves to `{ address, apiKey }`: the secret and
    /// passphrase never leave the library.
    async fn api_key(
        &self,
        signer: &Signer,
        nonce: U256,
        create: bool,
        call: &CallOptions,
    ) -> Result<JsValue, JsValue> {
        let auth = ClobAuth {
            chain_id: self.trading.settings.chain_id,
            address: signer.address,
            timestamp: crate::trade::decimal((now_ms(self) / 1000.0).floor() as u64),
            nonce,
        };
        let signature = signer.sign(&auth.typed_data(), call, self.trading.settings.sign_timeout_ms).await?;
        let credentials = self
            .read(auth.request(create, &signature), call, |body| credentials_from_answer(&signer.address, body))
            .await?;
        let info = js_sys::Object::new();
        super::interop::set(&info, "address", &JsValue::from_str(credentials.address()));
        super::interop::set(&info, "apiKey", &JsValue::from_str(credentials.api_key()));
        *self.credentials.borrow_mut() = Some(credentials);
        Ok(info.into())
    }
}

fn nonce(value: Option<&JsValue>) -> Result<U256, Error> {
    match value.map(|v| to_value(v, "nonce")).transpose()? {
        None | Some(Value::Undefined | Value::Null) => Ok(U256::default()),
        Some(Value::Number(n)) if n.fract() == 0.0 && n >= 0.0 && n <= api::MAX_SAFE_INT as f64 => {
            Ok(U256::from_u64(n as u64))
        }
        Some(Value::Str(s)) => U256::parse_decimal(&s)
            .ok_or_else(|| Error::invalid("nonce", "must be a whole number (or its decimal text)")),
        _ => Err(Error::invalid("nonce", "must be a whole number (or its decimal text)")),
    }
}

fn params(value: &JsValue, param: &'static str) -> Result<Params, Error> {
    match to_value(value, param)? {
        Value::Object(fields) => Ok(Params(fields)),
        _ => Err(Error::invalid(param, "must be an object")),
    }
}

fn json(text: &str) -> Result<JsValue, JsValue> {
    js_sys::JSON::parse(text).map_err(|_| Error::decode("the library's own JSON").into())
}

/// Whether a service error says the order's version is not the exchange's.
fn version_mismatch(error: &JsValue) -> bool {
    const NEEDLE: &[u8] = b"order_version_mismatch";
    get(error, "body").as_string().is_some_and(|b| b.as_bytes().windows(NEEDLE.len()).any(|w| w == NEEDLE))
}

/// A signed order handed back, with `orderType` and `postOnly` overridable at posting.
fn read_signed(
    value: &JsValue,
    order_type: Option<&JsValue>,
    post_only: Option<bool>,
) -> Result<(Order, String, crate::book::OrderType, bool), Error> {
    let mut p = params(value, "order")?;
    if let Some(t) = order_type.filter(|t| !is_absent(t)) {
        p.set("orderType", to_value(t, "orderType")?);
    }
    let (order, signature, t, post) = crate::trade::draft::signed_from_params(&p)?;
    let post = post_only.unwrap_or(post);
    crate::trade::amounts::check_terms(t, post, order.expiration, (js_sys::Date::now() / 1000.0) as u64)?;
    Ok((order, signature, t, post))
}

fn post_only_of(options: Option<&JsValue>) -> Result<Option<bool>, Error> {
    let Some(o) = options.filter(|o| !is_absent(o)) else { return Ok(None) };
    let v = field(o, "postOnly", "postOnly")?;
    if is_absent(&v) {
        Ok(None)
    } else {
        v.as_bool().map(Some).ok_or_else(|| Error::invalid("postOnly", "must be true or false"))
    }
}

#[wasm_bindgen]
impl Client {
    /// GET /version: the exchange's order version (1 or 2), which decides how orders are built and signed.
    #[wasm_bindgen(js_name = getVersion, unchecked_return_type = "Promise<1 | 2>")]
    pub fn get_version(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.trade(options.as_ref(), |inner, call| async move {
            let v = inner.order_version(&call, true).await?;
            Ok(JsValue::from(if v == Version::V1 { 1 } else { 2 }))
        })
    }

    /// Creates the API key of the signer's wallet (and `nonce`, default 0) and keeps it as this client's
    /// credentials: the wallet signs a `ClobAuth` message, nothing else. Resolves to `{ address, apiKey }`;
    /// the secret and passphrase stay inside the library.
    ///
    /// @example
    /// await client.createOrDeriveApiKey(walletSigner(window.ethereum, account));
    #[wasm_bindgen(js_name = createApiKey, unchecked_return_type = "Promise<ApiKeyInfo>")]
    pub fn create_api_key(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Signer")] signer: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "number | string")] nonce: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.key(signer, nonce, options, Some(true))
    }

    /// Derives the signer's existing API key (GET /auth/derive-api-key) and keeps it as this client's credentials.
    #[wasm_bindgen(js_name = deriveApiKey, unchecked_return_type = "Promise<ApiKeyInfo>")]
    pub fn derive_api_key(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Signer")] signer: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "number | string")] nonce: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.key(signer, nonce, options, Some(false))
    }

    /// Derives the signer's API key, or creates it when there is none yet (two signatures at most).
    #[wasm_bindgen(js_name = createOrDeriveApiKey, unchecked_return_type = "Promise<ApiKeyInfo>")]
    pub fn create_or_derive_api_key(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Signer")] signer: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "number | string")] nonce: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.key(signer, nonce, options, None)
    }

    /// Builds a limit order with exact amounts from the market's tick size (GET /clob-markets, learnt
    /// once per market) and refuses what the service would refuse: a price off the tick or outside
    /// [tick, 1 − tick], more than 2 decimals of size, a size under the minimum, `postOnly` with FOK/FAK,
    /// an expiration on anything but GTD. Resolves to a draft to show the user (amounts, price, fee) and
    /// then sign.
    ///
    /// @example
    /// const draft = await client.buildOrder({ tokenId, side: "BUY", price: 0.56, size: 20 });
    /// const signed = await client.signOrder(draft, signer);
    /// const result = await client.postOrder(signed);
    #[wasm_bindgen(js_name = buildOrder, unchecked_return_type = "Promise<OrderDraft>")]
    pub fn build_order(
        &self,
        #[wasm_bindgen(unchecked_param_type = "OrderParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.build(params, options, false)
    }

    /// Builds a market order: a buy spends `amount` cash, a sell gives `amount` shares, at `price` or else
    /// at the price the book reaches for that amount (FOK refuses a book too thin with `NO_MATCH`).
    #[wasm_bindgen(js_name = buildMarketOrder, unchecked_return_type = "Promise<OrderDraft>")]
    pub fn build_market_order(
        &self,
        #[wasm_bindgen(unchecked_param_type = "MarketOrderParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.build(params, options, true)
    }

    /// Has the signer sign a draft (EIP-712, the exchange's domain): the maker is the signer, or the
    /// client's `funder` for POLY_PROXY and POLY_GNOSIS_SAFE.
    #[wasm_bindgen(js_name = signOrder, unchecked_return_type = "Promise<SignedOrder>")]
    pub fn sign_order(
        &self,
        #[wasm_bindgen(unchecked_param_type = "OrderDraft")] draft: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Signer")] signer: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        let read = params(&draft, "order")
            .and_then(|p| Draft::from_params(&p))
            .and_then(|d| read_signer(&signer).map(|s| (d, s)));
        let (draft, signer) = match read {
            Ok(x) => x,
            Err(e) => return rejected(e),
        };
        self.trade(options.as_ref(), move |inner, call| async move {
            let (order, signature) = inner.sign_draft(&draft, &signer, &call).await?;
            json(&crate::trade::draft::signed_json(&order, &signature, draft.order_type, draft.post_only))
        })
    }

    /// POST /order: places a signed order (`orderType` and `postOnly` as signed unless given here).
    /// Needs credentials. Resolves to the service's answer `{ success, errorMsg, orderID, status,
    /// takingAmount, makingAmount }`; a refusal rejects with `API` and the service's reason as `body`.
    #[wasm_bindgen(js_name = postOrder, unchecked_return_type = "Promise<OrderResult>")]
    pub fn post_order(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SignedOrder")] order: JsValue,
        #[wasm_bindgen(js_name = orderType, unchecked_optional_param_type = "OrderType")] order_type: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "PostOrderOptions")] options: Option<JsValue>,
    ) -> Promise {
        let read = post_only_of(options.as_ref()).and_then(|post| read_signed(&order, order_type.as_ref(), post));
        let (order, signature, t, post_only) = match read {
            Ok(x) => x,
            Err(e) => return rejected(e),
        };
        self.trade(options.as_ref(), move |inner, call| async move {
            let owner = inner.owner()?;
            let body =
                order_body(&Placement { order: &order, signature: &signature, order_type: t, post_only }, &owner);
            inner.post(api::post_order(body), &call).await
        })
    }

    /// POST /orders: places 1 to 15 signed orders at once. Resolves to one answer per order, in order.
    #[wasm_bindgen(js_name = postOrders, unchecked_return_type = "Promise<OrderResult[]>")]
    pub fn post_orders(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SignedOrder[]")] orders: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        let read = (|| {
            let items = super::interop::items(&orders, "orders")?
                .ok_or_else(|| Error::invalid("orders", "must be an array of signed orders"))?;
            if items.length() == 0 || items.length() as usize > MAX_BATCH {
                return Err(Error::invalid("orders", "must hold 1 to 15 orders"));
            }
            items.iter().map(|o| read_signed(&o, None, None)).collect::<Result<Vec<_>, _>>()
        })();
        let signed = match read {
            Ok(x) => x,
            Err(e) => return rejected(e),
        };
        self.trade(options.as_ref(), move |inner, call| async move {
            let owner = inner.owner()?;
            let placements: Vec<_> = signed
                .iter()
                .map(|(o, s, t, p)| Placement { order: o, signature: s, order_type: *t, post_only: *p })
                .collect();
            inner.post(api::post_orders(orders_body(&placements, &owner)?), &call).await
        })
    }

    /// Builds, signs and places a limit order. When the service answers that the order's version is not
    /// the exchange's, the version is read again and the order rebuilt and signed once more.
    #[wasm_bindgen(js_name = placeOrder, unchecked_return_type = "Promise<OrderResult>")]
    pub fn place_order(
        &self,
        #[wasm_bindgen(unchecked_param_type = "OrderParams")] params: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Signer")] signer: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.place(params, signer, options, false)
    }

    /// Builds, signs and places a market order (FOK unless `orderType: "FAK"`).
    #[wasm_bindgen(js_name = placeMarketOrder, unchecked_return_type = "Promise<OrderResult>")]
    pub fn place_market_order(
        &self,
        #[wasm_bindgen(unchecked_param_type = "MarketOrderParams")] params: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Signer")] signer: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.place(params, signer, options, true)
    }
}

impl Client {
    fn trade<F, Fut>(&self, options: Option<&JsValue>, task: F) -> Promise
    where
        F: FnOnce(Rc<Inner>, CallOptions) -> Fut + 'static,
        Fut: std::future::Future<Output = Result<JsValue, JsValue>> + 'static,
    {
        let call = match self.inner.call_options(options) {
            Ok(c) => c,
            Err(e) => return rejected(e),
        };
        let inner = self.inner.clone();
        promise(Box::pin(async move { task(inner, call).await }))
    }

    fn key(
        &self,
        signer: JsValue,
        nonce_value: Option<JsValue>,
        options: Option<JsValue>,
        create: Option<bool>,
    ) -> Promise {
        let read = read_signer(&signer).and_then(|s| nonce(nonce_value.as_ref()).map(|n| (s, n)));
        let (signer, nonce) = match read {
            Ok(x) => x,
            Err(e) => return rejected(e),
        };
        self.trade(options.as_ref(), move |inner, call| async move {
            match create {
                Some(create) => inner.api_key(&signer, nonce, create, &call).await,
                None => match inner.api_key(&signer, nonce, false, &call).await {
                    Ok(info) => Ok(info),
                    // No key yet: the service answers 404 (or another 4xx that is not about the request's
                    // credentials or rate) to a derivation.
                    Err(e) if matches!(get(&e, "status").as_f64(), Some(s) if (400.0..500.0).contains(&s) && s != 401.0 && s != 429.0) => {
                        inner.api_key(&signer, nonce, true, &call).await
                    }
                    Err(e) => Err(e),
                },
            }
        })
    }

    fn build(&self, params_value: JsValue, options: Option<JsValue>, market: bool) -> Promise {
        let req = match params(&params_value, "params").and_then(|p| OrderRequest::parse(&p, market)) {
            Ok(r) => r,
            Err(e) => return rejected(e),
        };
        self.trade(options.as_ref(), move |inner, call| async move {
            let (draft, info) = inner.draft(&req, &call, false).await?;
            json(&draft.to_json(&info))
        })
    }

    fn place(&self, params_value: JsValue, signer: JsValue, options: Option<JsValue>, market: bool) -> Promise {
        let read = params(&params_value, "params")
            .and_then(|p| OrderRequest::parse(&p, market))
            .and_then(|r| read_signer(&signer).map(|s| (r, s)));
        let (req, signer) = match read {
            Ok(x) => x,
            Err(e) => return rejected(e),
        };
        self.trade(options.as_ref(), move |inner, call| async move {
            let owner = inner.owner()?;
            let mut fresh = false;
            loop {
                let (draft, _) = inner.draft(&req, &call, fresh).await?;
                let (order, signature) = inner.sign_draft(&draft, &signer, &call).await?;
                let body = order_body(
                    &Placement {
                        order: &order,
                        signature: &signature,
                        order_type: draft.order_type,
                        post_only: draft.post_only,
                    },
                    &owner,
                );
                match inner.post(api::post_order(body), &call).await {
                    Err(e) if version_mismatch(&e) && !fresh => fresh = true,
                    Err(e) => {
                        if get(&e, "status").as_f64().is_some_and(|s| s == 400.0) {
                            inner.forget_market(&req.token_id);
                        }
                        return Err(e);
                    }
                    ok => return ok,
                }
            }
        })
    }
}
