//! What the binding reads and writes for trading: the caller's order parameters, the market's rules
//! from GET /clob-markets, the draft `buildOrder` shows before signing, and the signed order `postOrder`
//! takes back. Every value a caller hands in is read as hostile data and checked here.

use super::amounts::{self, units_text, Amounts, MarketRules};
use super::eip712::{decode_hex, Address, U256};
use super::order::{Exchanges, Order, SignatureType, Version, MAX_SALT};
use crate::api::{JsonWriter, Params, Value};
use crate::book::math::{calculate_fee, FeeRate};
use crate::book::{fixed, OrderType, Side};
use crate::error::Error;

/// A market's trading rules and fee, from GET /clob-markets/{condition_id}'s compact keys.
#[derive(Clone, Debug, PartialEq)]
pub struct MarketInfo {
    pub rules: MarketRules,
    /// `fd { r, e, to }`: the fee rate, its exponent, and whether only takers pay.
    pub fee: Option<(FeeRate, bool)>,
    /// The market's token ids (`t[].t`).
    pub tokens: Vec<String>,
}

impl MarketInfo {
    pub fn from_answer(body: &[u8]) -> Result<Self, Error> {
        let answer = Value::parse(body)?;
        // (The JSON reader keeps numbers as their text.)
        let number = |v: Option<&Value>| match v {
            Some(Value::Str(text)) => fixed::parse(text.as_bytes()),
            _ => None,
        };
        let flag = |v: Option<&Value>| matches!(v, Some(Value::Bool(true)));
        let fee = answer.field("fd").filter(|fd| matches!(fd, Value::Object(_))).and_then(|fd| {
            let exponent = match fd.field("e") {
                Some(Value::Str(text)) => text.parse().unwrap_or(0),
                _ => 0,
            };
            let rate = number(fd.field("r")).map(fixed::to_f64).filter(|r| r.is_finite())?;
            Some((FeeRate { rate, exponent }, flag(fd.field("to"))))
        });
        let tokens = match answer.field("t") {
            Some(Value::Array(items)) => items
                .iter()
                .filter_map(|item| match item.field("t") {
                    Some(Value::Str(token)) => Some(token.clone()),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        let tick = number(answer.field("mts"))
            .filter(|&t| amounts::decimals(t).is_some())
            .ok_or_else(|| Error::decode("GET /clob-markets: no tick size (mts) the library knows"))?;
        let min_size = number(answer.field("mos")).unwrap_or(0);
        Ok(Self { rules: MarketRules { tick, min_size, neg_risk: flag(answer.field("nr")) }, fee, tokens })
    }
}

/// GET /fee-rate/{token_id}'s `base_fee` (basis points), which a V1 order signs.
pub fn base_fee(body: &[u8]) -> Result<u64, Error> {
    let found = match Value::parse(body)?.field("base_fee") {
        Some(Value::Str(text)) => text.parse::<u64>().ok(),
        _ => None,
    };
    found.filter(|&b| b <= 10_000).ok_or_else(|| Error::decode("GET /fee-rate: no base_fee in basis points"))
}

/// The largest decimal parameter, in millionths: 2^53 − 1, the most a JavaScript number holds exactly.
const MAX_DECIMAL: u64 = (1 << 53) - 1;

/// A decimal parameter: a JavaScript number that is exactly a decimal of at most six places, or its text
/// (blank text is no value, as an empty form field is), at most 2^53 millionths (what a number holds exactly).
pub fn decimal(params: &Params, name: &'static str) -> Result<Option<u64>, Error> {
    let units = match params.get(name) {
        Value::Undefined | Value::Null => return Ok(None),
        Value::Number(n) => fixed::from_f64(*n),
        Value::Str(t) => match t.as_bytes().trim_ascii() {
            [] => return Ok(None),
            text => fixed::parse(text),
        },
        _ => return Err(Error::invalid(name, "must be a number or a decimal string")),
    };
    units.filter(|&u| u <= MAX_DECIMAL).map(Some).ok_or_else(|| {
        Error::invalid(name, "must be a non-negative decimal with at most 6 decimals, up to 9007199254.740991")
    })
}

fn required<T>(value: Option<T>, name: &'static str) -> Result<T, Error> {
    value.ok_or_else(|| Error::invalid(name, "is required"))
}

fn text<'a>(params: &'a Params, name: &'static str) -> Result<Option<&'a str>, Error> {
    match params.get(name) {
        Value::Undefined | Value::Null => Ok(None),
        Value::Str(s) => Ok(Some(s)),
        _ => Err(Error::invalid(name, "must be a string")),
    }
}

/// A token id: a decimal uint256.
pub fn token_id(text: &str) -> Result<U256, Error> {
    U256::parse_decimal(text).ok_or_else(|| Error::invalid("tokenId", "must be a decimal token id (a uint256)"))
}

/// A condition id: `0x` and 64 hex digits.
fn condition_id(text: &str) -> Result<String, Error> {
    match text.strip_prefix("0x").and_then(decode_hex) {
        Some(b) if b.len() == 32 => Ok(text.to_owned()),
        _ => Err(Error::invalid("conditionId", "must be 0x and 64 hex digits")),
    }
}

fn whole(params: &Params, name: &'static str) -> Result<u64, Error> {
    match params.get(name) {
        Value::Undefined | Value::Null => Ok(0),
        Value::Number(n) if n.fract() == 0.0 && *n >= 0.0 && *n <= crate::api::MAX_SAFE_INT as f64 => Ok(*n as u64),
        Value::Str(t) if !t.is_empty() && t.len() <= 16 && t.bytes().all(|b| b.is_ascii_digit()) => {
            t.parse().map_err(|_| Error::invalid(name, "must be a whole number"))
        }
        _ => Err(Error::invalid(name, "must be a whole number")),
    }
}

fn flag(params: &Params, name: &'static str) -> Result<bool, Error> {
    match params.get(name) {
        Value::Undefined | Value::Null => Ok(false),
        Value::Bool(b) => Ok(*b),
        _ => Err(Error::invalid(name, "must be true or false")),
    }
}

/// What the caller asks for: a limit order (`price`, `size`) or a market order (`amount`, optional worst
/// `price`).
#[derive(Clone, Debug, PartialEq)]
pub struct OrderRequest {
    pub token_id: String,
    pub condition_id: Option<String>,
    pub side: Side,
    pub order_type: OrderType,
    pub post_only: bool,
    pub expiration: u64,
    pub kind: Kind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Limit { price: u64, size: u64 },
    Market { amount: u64, price: Option<u64> },
}

const LIMIT_KEYS: &[&str] = &["tokenId", "conditionId", "side", "price", "size", "orderType", "expiration", "postOnly"];
const MARKET_KEYS: &[&str] = &["tokenId", "conditionId", "side", "amount", "price", "orderType"];

impl OrderRequest {
    /// `buildOrder`'s `{ tokenId, side, price, size, orderType = "GTC", expiration?, postOnly?, conditionId? }`
    /// or `buildMarketOrder`'s `{ tokenId, side, amount, orderType = "FOK", price?, conditionId? }`.
    /// Unknown keys are refused (a misspelt `postonly` must not be dropped silently).
    pub fn parse(params: &Params, market: bool) -> Result<Self, Error> {
        let keys = if market { MARKET_KEYS } else { LIMIT_KEYS };
        if let Some((k, _)) = params.0.iter().find(|(k, _)| !keys.contains(&k.as_str())) {
            return Err(Error::invalid_owned(k, "is not a parameter of this order"));
        }
        let token = required(text(params, "tokenId")?, "tokenId")?;
        token_id(token)?;
        let side = Side::parse(required(text(params, "side")?, "side")?)?;
        let order_type = match text(params, "orderType")? {
            Some(t) => OrderType::parse(t)?,
            None if market => OrderType::Fok,
            None => OrderType::Gtc,
        };
        let kind = if market {
            amounts::check_market_type(order_type)?;
            Kind::Market { amount: required(decimal(params, "amount")?, "amount")?, price: decimal(params, "price")? }
        } else {
            Kind::Limit {
                price: required(decimal(params, "price")?, "price")?,
                size: required(decimal(params, "size")?, "size")?,
            }
        };
        Ok(Self {
            token_id: token.to_owned(),
            condition_id: text(params, "conditionId")?.map(condition_id).transpose()?,
            side,
            order_type,
            post_only: flag(params, "postOnly")?,
            expiration: whole(params, "expiration")?,
            kind,
        })
    }

    /// The amounts at `price` (a market order's price from the book when it named none), after every rule
    /// of the market and the order type.
    pub fn amounts(&self, rules: &MarketRules, price: u64, now_s: u64) -> Result<Amounts, Error> {
        amounts::check_terms(self.order_type, self.post_only, self.expiration, now_s)?;
        match self.kind {
            Kind::Limit { size, .. } => amounts::limit(rules, self.order_type, self.side, price, size),
            Kind::Market { amount, .. } => amounts::market(rules, self.order_type, self.side, price, amount),
        }
    }
}

/// An order built and not yet signed: everything the wallet will be shown, and the preview of its fee.
#[derive(Clone, Debug, PartialEq)]
pub struct Draft {
    pub version: Version,
    pub chain_id: u64,
    pub exchange: Address,
    pub token_id: String,
    pub side: Side,
    pub amounts: Amounts,
    pub expiration: u64,
    pub fee_rate_bps: u64,
    pub order_type: OrderType,
    pub post_only: bool,
}

/// What a draft is built from besides the order's params, as the trading flow gathered it.
pub struct DraftInputs<'a> {
    /// The exchange's order version, as GET /version told it.
    pub version: Option<Version>,
    /// The market of the order's token (GET /clob-markets).
    pub info: &'a MarketInfo,
    /// The token's base fee in basis points (GET /fee-rate), which a V1 order signs.
    pub fee: Option<f64>,
    /// GET /book's book, for a market order without a price.
    pub book: Option<&'a crate::book::OrderBook>,
}

impl Draft {
    /// The draft of an order: its version, the exchange of its market (the settings' or the published
    /// one), its price (given, or the book's market price for its amount), its amounts at `now_s` by the
    /// market's rules, and the fee a V1 order signs. A token the market does not list is refused.
    pub fn assemble(
        req: &OrderRequest,
        inputs: DraftInputs<'_>,
        settings: &crate::trade::settings::TradingSettings,
        now_s: u64,
    ) -> Result<Draft, Error> {
        let DraftInputs { version, info, fee, book } = inputs;
        let server = version.ok_or_else(|| Error::invalid("version", "must be 1, 2 or 3"))?;
        let version = crate::trade::order::order_version(server, &token_id(&req.token_id)?);
        if !info.tokens.is_empty() && !info.tokens.contains(&req.token_id) {
            return Err(Error::invalid("tokenId", "is not a token of this market (conditionId)"));
        }
        let price = match req.kind {
            Kind::Limit { price, .. } | Kind::Market { price: Some(price), .. } => price,
            Kind::Market { amount, price: None } => {
                let book =
                    book.ok_or_else(|| Error::invalid("book", "is required for a market order without a price"))?;
                book.market_price(req.side, amount, req.order_type)?
            }
        };
        let fee_rate_bps = match (version, fee) {
            (Version::V2 | Version::V3, _) => 0,
            (Version::V1, Some(f)) if f.fract() == 0.0 && (0.0..=1e9).contains(&f) => f as u64,
            _ => return Err(Error::invalid("fee", "must be the fee rate in basis points")),
        };
        let exchanges =
            settings.exchanges.or_else(|| Exchanges::known(settings.chain_id, version)).ok_or_else(|| {
                Error::invalid(
                    "exchanges",
                    "is required: no exchange is published for this chainId (give { exchange, negRiskExchange })",
                )
            })?;
        Ok(Draft {
            version,
            chain_id: settings.chain_id,
            exchange: exchanges.for_market(info.rules.neg_risk),
            token_id: req.token_id.clone(),
            side: req.side,
            amounts: req.amounts(&info.rules, price, now_s)?,
            expiration: req.expiration,
            fee_rate_bps,
            order_type: req.order_type,
            post_only: req.post_only,
        })
    }
}

fn side_text(side: Side) -> &'static str {
    match side {
        Side::Buy => "BUY",
        Side::Sell => "SELL",
    }
}

fn type_text(t: OrderType) -> &'static str {
    match t {
        OrderType::Fok => "FOK",
        OrderType::Fak => "FAK",
        OrderType::Gtc => "GTC",
        OrderType::Gtd => "GTD",
    }
}

impl Draft {
    /// The draft as JSON for the caller: amounts as the exchange counts them (10^-6 units, text), the
    /// price and size they mean, and the fee a taker would pay at that price (cash), when the market has one.
    pub fn to_json(&self, market: &MarketInfo) -> String {
        let (shares, cash) = self.amounts.shares_and_cash(self.side);
        let mut w = JsonWriter::object();
        w.field_raw("version", self.version.number());
        w.field_raw("chainId", &crate::trade::decimal(self.chain_id));
        w.field_str("exchange", &self.exchange.checksummed());
        w.field_str("tokenId", &self.token_id);
        w.field_str("side", side_text(self.side));
        w.field_str("orderType", type_text(self.order_type));
        w.field_raw("postOnly", if self.post_only { "true" } else { "false" });
        w.field_str("expiration", &crate::trade::decimal(self.expiration));
        w.field_str("makerAmount", &crate::trade::decimal(self.amounts.maker));
        w.field_str("takerAmount", &crate::trade::decimal(self.amounts.taker));
        w.field_str("feeRateBps", &crate::trade::decimal(self.fee_rate_bps));
        w.field_str("shares", &units_text(shares));
        w.field_str("cash", &units_text(cash));
        // The price the amounts make, to 6 decimals (a market buy's cut shares make it inexact).
        let price =
            if shares == 0 { 0 } else { (u128::from(cash) * u128::from(fixed::SCALE) / u128::from(shares)) as u64 };
        w.field_raw("price", &units_text(price));
        w.field_str("tickSize", &units_text(market.rules.tick));
        w.field_raw("negRisk", if market.rules.neg_risk { "true" } else { "false" });
        if let Some((rate, _)) = market.fee {
            let fee = calculate_fee(rate, fixed::to_f64(shares), fixed::to_f64(price));
            if let Some(units) = fixed::nearest_units(fee) {
                w.field_raw("fee", &units_text(units));
            }
        }
        w.finish()
    }

    /// A draft handed back by the caller: every field checked again (it may have been changed).
    pub fn from_params(p: &Params) -> Result<Self, Error> {
        let exchange = Address::parse("exchange", required(text(p, "exchange")?, "exchange")?)?;
        Self::read(p, whole(p, "chainId")?, exchange)
    }

    /// The fields a draft shares with a signed order, for `chain_id` and `exchange`.
    fn read(p: &Params, chain_id: u64, exchange: Address) -> Result<Self, Error> {
        let version = match p.get("version") {
            Value::Number(n) if *n == 1.0 => Version::V1,
            Value::Number(n) if *n == 2.0 => Version::V2,
            Value::Number(n) if *n == 3.0 => Version::V3,
            _ => return Err(Error::invalid("order.version", "must be 1, 2 or 3 (pass what buildOrder returned)")),
        };
        let amount = |name: &'static str| -> Result<u64, Error> {
            match p.get(name) {
                Value::Str(t) if !t.is_empty() && t.len() <= 19 && t.bytes().all(|b| b.is_ascii_digit()) => {
                    t.parse().map_err(|_| Error::invalid(name, "must be a whole number of units"))
                }
                _ => Err(Error::invalid(name, "must be a whole number of units, as text")),
            }
        };
        let token = required(text(p, "tokenId")?, "tokenId")?;
        token_id(token)?;
        Ok(Self {
            version,
            chain_id,
            exchange,
            token_id: token.to_owned(),
            side: Side::parse(required(text(p, "side")?, "side")?)?,
            amounts: Amounts { maker: amount("makerAmount")?, taker: amount("takerAmount")? },
            expiration: whole(p, "expiration")?,
            fee_rate_bps: whole(p, "feeRateBps")?,
            order_type: OrderType::parse(required(text(p, "orderType")?, "orderType")?)?,
            post_only: flag(p, "postOnly")?,
        })
    }

    /// The order to sign for `owner` (the wallet that signs) and `maker`, as `signature_type` says: the
    /// order's signer is the owner, or the deposit wallet itself for POLY_1271, which V1 orders do not know.
    pub fn order_for(
        &self,
        owner: Address,
        maker: Address,
        signature_type: SignatureType,
        salt: u64,
        now_ms: u64,
    ) -> Result<Order, Error> {
        if signature_type == SignatureType::Poly1271 && self.version == Version::V1 {
            return Err(Error::invalid(
                "signatureType",
                "POLY_1271 (a deposit wallet) signs V2 orders only, and the exchange takes version 1 now",
            ));
        }
        self.order(signature_type.order_signer(owner, maker), maker, signature_type, salt, now_ms)
    }

    /// The order to sign: `signer` signs for `maker`; the salt and (V2) the time make it unique.
    pub fn order(
        &self,
        signer: Address,
        maker: Address,
        signature_type: SignatureType,
        salt: u64,
        now_ms: u64,
    ) -> Result<Order, Error> {
        Ok(Order {
            version: self.version,
            salt: salt & MAX_SALT,
            maker,
            signer,
            token_id: token_id(&self.token_id)?,
            maker_amount: self.amounts.maker,
            taker_amount: self.amounts.taker,
            side: self.side,
            signature_type,
            expiration: self.expiration,
            taker: Address::ZERO,
            nonce: U256::default(),
            fee_rate_bps: self.fee_rate_bps,
            timestamp_ms: now_ms,
            wrapped: signature_type == SignatureType::Poly1271,
            metadata: [0; 32],
            builder: [0; 32],
        })
    }
}

/// A signed order as the caller holds it: the order's fields, `signature`, and how to place it.
pub fn signed_json(order: &Order, signature: &str, order_type: OrderType, post_only: bool) -> String {
    let mut w = JsonWriter::object();
    w.field_raw("version", order.version.number());
    order.write_fields(&mut w, signature, true);
    w.field_str("orderType", type_text(order_type));
    w.field_raw("postOnly", if post_only { "true" } else { "false" });
    w.finish()
}

fn bytes32(p: &Params, name: &'static str) -> Result<[u8; 32], Error> {
    match p.get(name) {
        Value::Undefined | Value::Null => Ok([0; 32]),
        Value::Str(t) => t
            .strip_prefix("0x")
            .and_then(decode_hex)
            .and_then(|b| b.try_into().ok())
            .ok_or_else(|| Error::invalid(name, "must be 0x and 64 hex digits")),
        _ => Err(Error::invalid(name, "must be 0x and 64 hex digits")),
    }
}

fn uint(p: &Params, name: &'static str) -> Result<U256, Error> {
    match p.get(name) {
        Value::Undefined | Value::Null => Ok(U256::default()),
        Value::Str(t) => U256::parse_decimal(t).ok_or_else(|| Error::invalid(name, "must be a decimal uint256")),
        _ => Err(Error::invalid(name, "must be a decimal uint256, as text")),
    }
}

/// A signed order handed back for posting, with its signature, order type and `postOnly`.
pub fn signed_from_params(p: &Params) -> Result<(Order, String, OrderType, bool), Error> {
    // A signed order names no chain or exchange: its signature binds them.
    let draft = Draft::read(p, 0, Address::ZERO)?;
    let salt = whole(p, "salt")?;
    if salt > MAX_SALT {
        return Err(Error::invalid("salt", "must be below 2^53"));
    }
    let signature_type = SignatureType::parse(p.get("signatureType"))?;
    let signature = required(text(p, "signature")?, "signature")?;
    // A deposit wallet's signature is the ERC-7739 form, or the owner's own 65 bytes for a wallet that takes it.
    let wrapped = signature_type == SignatureType::Poly1271 && signature.len() != 132;
    let signature = super::eip712::parse_order_signature(signature, wrapped)?;
    let order = Order {
        salt,
        maker: Address::parse("maker", required(text(p, "maker")?, "maker")?)?,
        signer: Address::parse("signer", required(text(p, "signer")?, "signer")?)?,
        signature_type,
        taker: match text(p, "taker")? {
            Some(t) => Address::parse("taker", t)?,
            None => Address::ZERO,
        },
        nonce: uint(p, "nonce")?,
        timestamp_ms: whole(p, "timestamp")?,
        metadata: bytes32(p, "metadata")?,
        builder: bytes32(p, "builder")?,
        wrapped,
        ..draft.order(Address::ZERO, Address::ZERO, SignatureType::Eoa, 0, 0)?
    };
    Ok((order, signature, draft.order_type, draft.post_only))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(json: &str) -> Params {
        match crate::api::params::from_json(json) {
            Value::Object(f) => Params(f),
            _ => panic!(),
        }
    }

    #[test]
    fn market_info_reads_the_compact_keys() {
        let body = br#"{"gst":"x","r":null,"nr":true,"t":[{"t":"123","o":"Yes"},{"t":"456","o":"No"}],"mts":0.001,"mos":5,"fd":{"r":0.25,"e":2,"to":true},"mbf":0}"#;
        let info = MarketInfo::from_answer(body).unwrap();
        assert_eq!(info.rules, MarketRules { tick: 1_000, min_size: 5_000_000, neg_risk: true });
        assert_eq!(info.fee, Some((FeeRate { rate: 0.25, exponent: 2 }, true)));
        assert_eq!(info.tokens, ["123", "456"]);
        assert!(MarketInfo::from_answer(br#"{"mts":0.02}"#).is_err());
        assert!(MarketInfo::from_answer(br#"{"nr":false}"#).is_err());
        assert!(MarketInfo::from_answer(b"{").is_err());
    }

    #[test]
    fn base_fees_are_read() {
        assert_eq!(base_fee(br#"{"base_fee":100,"fd":{"r":0.1}}"#).unwrap(), 100);
        assert!(base_fee(br#"{"base_fee":-1}"#).is_err());
        assert!(base_fee(br#"{"base_fee":10001}"#).is_err());
        assert!(base_fee(br#"{}"#).is_err());
    }

    #[test]
    fn decimals_that_cannot_be_read_say_why_and_what_applies() {
        // Issue 35 §3: (params, the rule in the message). A number beyond 2^53 millionths holds no exact decimal.
        const BOUNDS: &str = "must be a non-negative decimal with at most 6 decimals, up to 9007199254.740991";
        let table = [
            (r#"{"size":99999999999999}"#, BOUNDS),
            (r#"{"size":"99999999999999"}"#, BOUNDS),
            (r#"{"size":"99999999999999999999"}"#, BOUNDS),
            (r#"{"size":-5}"#, BOUNDS),
            (r#"{"size":"-5"}"#, BOUNDS),
            (r#"{"size":"five"}"#, BOUNDS),
            (r#"{"size":"5."}"#, BOUNDS),
            (r#"{"size":1.2345678}"#, BOUNDS),
            (r#"{"size":"0.0000001"}"#, BOUNDS),
            (r#"{"size":""}"#, "is required"),
            (r#"{"size":"  "}"#, "is required"),
            (r#"{"size":true}"#, "must be a number or a decimal string"),
            (r#"{"size":"12","price":"0.5x"}"#, BOUNDS),
        ];
        for (json, rule) in table {
            let p = params(json);
            let e =
                decimal(&p, "price").and_then(|_| decimal(&p, "size")).and_then(|s| required(s, "size")).unwrap_err();
            let param = if json.contains("0.5x") { "price" } else { "size" };
            assert_eq!(
                (e.code, &*e.message),
                (crate::error::ErrorCode::InvalidParams, &*[param, rule].join(": ")),
                "{json}"
            );
            assert_eq!(e.param.as_deref(), Some(param));
        }
        // Text is read without its blanks; blank text and an empty expiration are no value.
        assert_eq!(decimal(&params(r#"{"size":" 12.5 "}"#), "size").unwrap(), Some(12_500_000));
        assert_eq!(decimal(&params(r#"{"size":"9007199254.740991"}"#), "size").unwrap(), Some(9_007_199_254_740_991));
        assert!(whole(&params(r#"{"expiration":""}"#), "expiration").is_err(), "a whole number is not blank");
    }

    #[test]
    fn requests_are_read_strictly() {
        let r = OrderRequest::parse(&params(r#"{"tokenId":"123","side":"BUY","price":0.56,"size":"19.99"}"#), false)
            .unwrap();
        assert_eq!(r.kind, Kind::Limit { price: 560_000, size: 19_990_000 });
        assert_eq!(r.order_type, OrderType::Gtc);
        let m = OrderRequest::parse(&params(r#"{"tokenId":"123","side":"SELL","amount":10}"#), true).unwrap();
        assert_eq!((m.kind, m.order_type), (Kind::Market { amount: 10_000_000, price: None }, OrderType::Fok));
        let table = [
            (r#"{"tokenId":"123","side":"BUY","price":0.5,"size":1,"postonly":true}"#, false, "postonly"),
            (r#"{"tokenId":"0x12","side":"BUY","price":0.5,"size":1}"#, false, "tokenId"),
            (r#"{"side":"BUY","price":0.5,"size":1}"#, false, "tokenId"),
            (r#"{"tokenId":"1","side":"buy","price":0.5,"size":1}"#, false, "side"),
            (r#"{"tokenId":"1","side":"BUY","price":0.1234567,"size":1}"#, false, "price"),
            (r#"{"tokenId":"1","side":"BUY","price":-0.5,"size":1}"#, false, "price"),
            (r#"{"tokenId":"1","side":"BUY","size":1}"#, false, "price"),
            (r#"{"tokenId":"1","side":"BUY","price":0.5,"size":1,"expiration":1.5}"#, false, "expiration"),
            (r#"{"tokenId":"1","side":"BUY","price":0.5,"size":1,"conditionId":"0x12"}"#, false, "conditionId"),
            (r#"{"tokenId":"1","side":"BUY","amount":1,"orderType":"GTC"}"#, true, "orderType"),
            (r#"{"tokenId":"1","side":"SELL","amount":1,"orderType":"GTD"}"#, true, "orderType"),
            (r#"{"tokenId":"1","side":"BUY","amount":1,"size":2}"#, true, "size"),
        ];
        for (json, market, param) in table {
            assert_eq!(OrderRequest::parse(&params(json), market).unwrap_err().param.as_deref(), Some(param), "{json}");
        }
    }

    #[test]
    fn a_draft_is_assembled_from_what_the_flow_gathered() {
        use crate::trade::settings::TradingSettings;
        let settings = |json: &str| {
            let p = params(json);
            TradingSettings::read(&mut |name| Ok(p.get(name).clone())).unwrap()
        };
        let polygon = settings("{}");
        let unknown_chain = settings(r#"{"chainId":5}"#);
        let info = MarketInfo::from_answer(br#"{"mts":0.01,"mos":5,"nr":true,"t":[{"t":"71321045679252212594626385532706912750332728571942532289631379312455583992563"},{"t":"52114319501245915516055106046884209969926127482827954674443846427813813222426"}]}"#).unwrap();
        let book = br#"{"market":"0x1","asset_id":"71321045679252212594626385532706912750332728571942532289631379312455583992563","timestamp":"1","hash":"","bids":[],"asks":[{"price":"0.6","size":"100"},{"price":"0.55","size":"10"}]}"#;
        let limit =
            OrderRequest::parse(&params(r#"{"tokenId":"71321045679252212594626385532706912750332728571942532289631379312455583992563","side":"BUY","price":0.5,"size":10}"#), false).unwrap();
        let market = OrderRequest::parse(&params(r#"{"tokenId":"71321045679252212594626385532706912750332728571942532289631379312455583992563","side":"BUY","amount":20}"#), true).unwrap();
        let other =
            OrderRequest::parse(&params(r#"{"tokenId":"21742633143463906290569050155826241533067272736897614950488156847949938836455","side":"BUY","price":0.5,"size":10}"#), false).unwrap();
        let book = crate::book::OrderBook::from_vec(book.to_vec()).unwrap();
        let inputs = |version: f64, fee: Option<f64>, book: Option<&'static crate::book::OrderBook>| DraftInputs {
            version: [Version::V1, Version::V2, Version::V3].get((version as usize).wrapping_sub(1)).copied(),
            info: &info,
            fee,
            book,
        };
        let now = 1_700_000_000;
        // (request, inputs, settings, the draft's price in micro units and fee, or the parameter refused)
        let v2 = Draft::assemble(&limit, inputs(2.0, None, None), &polygon, now).unwrap();
        assert_eq!((v2.version, v2.fee_rate_bps, v2.chain_id), (Version::V2, 0, 137));
        assert_eq!(v2.exchange, Exchanges::known(137, Version::V2).unwrap().for_market(true), "the neg-risk exchange");
        let v1 = Draft::assemble(&limit, inputs(1.0, Some(30.0), None), &polygon, now).unwrap();
        assert_eq!((v1.version, v1.fee_rate_bps), (Version::V1, 30));
        // A service that says 3 has every order signed for the third exchange, a token of an older market too.
        let all_v3 = Draft::assemble(&limit, inputs(3.0, None, None), &polygon, now).unwrap();
        assert_eq!((all_v3.version, all_v3.fee_rate_bps), (Version::V3, 0));
        assert_eq!(all_v3.exchange, Exchanges::known(137, Version::V3).unwrap().exchange, "one exchange, neg-risk too");
        // A position of the newer system (the reserved bits zero) goes to the third exchange whatever the
        // service's version, neg-risk or not: a version-1 service too, as the upstream clients route it.
        let id = crate::trade::eip712::U256({
            let mut b = [7u8; 32];
            b[0] = 1;
            b[19..27].fill(0);
            b
        })
        .to_decimal();
        let on_v3 =
            OrderRequest::parse(&params(&format!(r#"{{"tokenId":"{id}","side":"BUY","price":0.5,"size":10}}"#)), false)
                .unwrap();
        let any_token = MarketInfo { tokens: vec![], ..info.clone() };
        let open = |version: f64, fee: Option<f64>| DraftInputs {
            version: inputs(version, fee, None).version,
            info: &any_token,
            fee,
            book: None,
        };
        for version in [1.0, 2.0, 3.0] {
            let v3 = Draft::assemble(&on_v3, open(version, Some(0.0)), &polygon, now).unwrap();
            assert_eq!((v3.version, v3.fee_rate_bps), (Version::V3, 0), "service version {version}");
            assert_eq!(v3.exchange, Exchanges::known(137, Version::V3).unwrap().exchange);
        }
        // A market order without a price takes the book's: 20 USDC reach into the 0.6 level.
        let from_book =
            Draft::assemble(&market, inputs(2.0, None, Some(Box::leak(Box::new(book)))), &polygon, now).unwrap();
        let from_limit = Draft::assemble(
            &OrderRequest::parse(&params(r#"{"tokenId":"71321045679252212594626385532706912750332728571942532289631379312455583992563","side":"BUY","amount":20,"price":0.6}"#), true).unwrap(),
            inputs(2.0, None, None),
            &polygon,
            now,
        )
        .unwrap();
        assert_eq!(from_book.amounts, from_limit.amounts);
        let refused = [
            (Draft::assemble(&limit, inputs(4.0, None, None), &polygon, now), "version"),
            (Draft::assemble(&limit, inputs(1.0, None, None), &polygon, now), "fee"),
            (Draft::assemble(&limit, inputs(1.0, Some(0.5), None), &polygon, now), "fee"),
            (Draft::assemble(&other, inputs(2.0, None, None), &polygon, now), "tokenId"),
            (Draft::assemble(&market, inputs(2.0, None, None), &polygon, now), "book"),
            (Draft::assemble(&limit, inputs(2.0, None, None), &unknown_chain, now), "exchanges"),
        ];
        for (i, (result, param)) in refused.into_iter().enumerate() {
            assert_eq!(result.unwrap_err().param.as_deref(), Some(param), "row {i}");
        }
    }

    #[test]
    fn drafts_and_signed_orders_round_trip_through_their_json() {
        let info = MarketInfo {
            rules: MarketRules { tick: 10_000, min_size: 0, neg_risk: false },
            fee: Some((FeeRate { rate: 0.25, exponent: 2 }, true)),
            tokens: vec![],
        };
        let draft = Draft {
            version: Version::V2,
            chain_id: 80002,
            exchange: Address::parse("e", "0xE111180000d2663C0091e4f400237545B87B996B").unwrap(),
            token_id: "1234".into(),
            side: Side::Buy,
            amounts: Amounts { maker: 50_000_000, taker: 100_000_000 },
            expiration: 0,
            fee_rate_bps: 0,
            order_type: OrderType::Gtc,
            post_only: true,
        };
        let json = draft.to_json(&info);
        let back = params(&json);
        assert_eq!(Draft::from_params(&back).unwrap(), draft);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(
            (v["shares"].as_str(), v["cash"].as_str(), v["price"].as_f64()),
            (Some("100"), Some("50"), Some(0.5))
        );
        // 100 shares × 0.25 × (0.5 × 0.5)^2.
        assert_eq!(v["fee"].as_f64(), Some(1.5625));

        let signer = Address::parse("s", "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266").unwrap();
        let order = draft.order(signer, signer, SignatureType::Eoa, u64::MAX, 1_700_000_000_000).unwrap();
        assert_eq!(order.salt, MAX_SALT);
        let sig = format!("0x{}1c", "cd".repeat(64));
        let signed = signed_json(&order, &sig, OrderType::Gtc, true);
        let (again, sig2, t, post_only) = signed_from_params(&params(&signed)).unwrap();
        assert_eq!((again, sig2, t, post_only), (order, sig.clone(), OrderType::Gtc, true));
        for (from, to) in [
            ("\"salt\":\"9007199254740991\"", "\"salt\":\"9007199254740992\""),
            ("1c\"", "1d\""),
            ("\"BUY\"", "\"buy\""),
        ] {
            assert!(signed_from_params(&params(&signed.replace(from, to))).is_err(), "{to}");
        }

        // A deposit wallet's order: the wallet signs as itself, its signature travels wrapped (or plain, for a
        // wallet that takes that form) and is read back whole; V1 orders do not know the type.
        let wallet = Address::parse("w", "0x1111111111111111111111111111111111111111").unwrap();
        let order = draft.order_for(signer, wallet, SignatureType::Poly1271, 7, 1_700_000_000_000).unwrap();
        assert_eq!((order.maker, order.signer, order.signature_type), (wallet, wallet, SignatureType::Poly1271));
        let domain = crate::trade::order::domain(Version::V2, 80002, draft.exchange);
        let wrapped = order.wrapped_signature(&domain, &sig);
        let signed = signed_json(&order, &wrapped, OrderType::Gtc, true);
        let (again, sig2, ..) = signed_from_params(&params(&signed)).unwrap();
        assert_eq!((again, sig2), (order.clone(), wrapped.clone()));
        // For a wallet that takes its owner's plain signature, the 65 bytes alone: read back as such.
        let (plain, sig3, ..) = signed_from_params(&params(&signed_json(&order, &sig, OrderType::Gtc, true))).unwrap();
        assert_eq!((plain, sig3), (Order { wrapped: false, ..order.clone() }, sig.clone()));
        let cut = &wrapped[..wrapped.len() - 2];
        assert!(signed_from_params(&params(&signed_json(&order, cut, OrderType::Gtc, true))).is_err(), "cut");
        let v1 = Draft { version: Version::V1, ..draft.clone() };
        let e = v1.order_for(signer, wallet, SignatureType::Poly1271, 7, 0).unwrap_err();
        assert_eq!(e.param.as_deref(), Some("signatureType"));
        assert_eq!(v1.order_for(signer, wallet, SignatureType::PolyProxy, 7, 0).unwrap().signer, signer);
    }
}
