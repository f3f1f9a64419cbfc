//! The body of `POST /order` (one of `POST /orders`): `{order, owner, orderType, postOnly}`, read into the
//! emulator's own [`Order`], whose EIP-712 hash (alloy, [`super::eip712`]) the signature must cover. A V1 order
//! carries `taker`, `nonce` and `feeRateBps`; a V2 order `timestamp` (ms), `metadata` and `builder` instead.

use std::str::FromStr;

use alloy_primitives::{Address, B256, U256};
use alloy_sol_types::SolStruct;
use hex::FromHex;
use serde_json::{Map, Value};

use super::ecdsa;
use super::eip712::{self, Exchanges, Version};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Buy,
    Sell,
}

/// How an order is placed: resting (GTC, GTD) or taking at once (FOK, FAK), as `orderType` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrderType {
    Gtc,
    Gtd,
    Fok,
    Fak,
}

impl OrderType {
    pub fn text(self) -> &'static str {
        match self {
            Self::Gtc => "GTC",
            Self::Gtd => "GTD",
            Self::Fok => "FOK",
            Self::Fak => "FAK",
        }
    }

    /// FOK and FAK: the service's "market" orders, which never rest.
    pub fn is_market(self) -> bool {
        matches!(self, Self::Fok | Self::Fak)
    }
}

/// Who signs for the maker (clob-client-v2 `src/order-utils/model/signatureTypeV1.ts`: EOA 0, POLY_PROXY 1,
/// POLY_GNOSIS_SAFE 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignatureType {
    Eoa = 0,
    PolyProxy = 1,
    PolyGnosisSafe = 2,
    /// A deposit wallet (clob-client-v2 `signatureTypeV2.ts`: POLY_1271 3), see `deposit`.
    Poly1271 = 3,
}

/// An order, in either version; the fields a version does not sign are zero.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Order {
    pub version: Version,
    pub salt: u64,
    pub maker: Address,
    pub signer: Address,
    pub token_id: U256,
    /// In 10^-6 units of cash or shares.
    pub maker_amount: u64,
    pub taker_amount: u64,
    pub side: Side,
    pub signature_type: SignatureType,
    /// Seconds; 0 for none.
    pub expiration: u64,
    /// V1 only.
    pub taker: Address,
    pub nonce: U256,
    pub fee_rate_bps: u64,
    /// V2 only: milliseconds.
    pub timestamp_ms: u64,
    pub metadata: B256,
    pub builder: B256,
}

impl Order {
    /// The order's EIP-712 signing hash on `chain_id` for `exchange`: what the signer's wallet signed.
    pub fn hash(&self, chain_id: u64, exchange: Address) -> B256 {
        let domain = eip712::exchange_domain(self.version, chain_id, exchange);
        let side = match self.side {
            Side::Buy => 0,
            Side::Sell => 1,
        };
        let n = |v: u64| U256::from(v);
        match self.version {
            Version::V1 => eip712::v1::Order {
                salt: n(self.salt),
                maker: self.maker,
                signer: self.signer,
                taker: self.taker,
                tokenId: self.token_id,
                makerAmount: n(self.maker_amount),
                takerAmount: n(self.taker_amount),
                expiration: n(self.expiration),
                nonce: self.nonce,
                feeRateBps: n(self.fee_rate_bps),
                side,
                signatureType: self.signature_type as u8,
            }
            .eip712_signing_hash(&domain),
            Version::V2 | Version::V3 => self.v2().eip712_signing_hash(&domain),
        }
    }

    /// The order as the V2 (and V3) exchange's struct.
    pub fn v2(&self) -> eip712::v2::Order {
        let n = |v: u64| U256::from(v);
        eip712::v2::Order {
            salt: n(self.salt),
            maker: self.maker,
            signer: self.signer,
            tokenId: self.token_id,
            makerAmount: n(self.maker_amount),
            takerAmount: n(self.taker_amount),
            side: if self.side == Side::Buy { 0 } else { 1 },
            signatureType: self.signature_type as u8,
            timestamp: n(self.timestamp_ms),
            metadata: self.metadata,
            builder: self.builder,
        }
    }
}

/// Whether a token id is a position id of the newer position system, as the upstream clients route orders
/// (clob-client-v2 `src/protocol.ts` and the ts-sdk's `isV2PositionId`: the 64 reserved bits, 40 to 103, zero;
/// their tests count 0, 1 and 2^255 as positions). Registered CTF token ids are keccak hashes.
pub fn is_position_id(token: &U256) -> bool {
    (*token >> 40usize) & U256::from(u64::MAX) == U256::ZERO
}

/// The version an order of `token` is signed for when the exchange serves `served` orders: a position's is the
/// third exchange's whatever the service serves (the upstream clients route it there), every other the served one
/// (a service that serves 3 takes every order on the third exchange).
pub fn signed_version(served: Version, token: &U256) -> Version {
    if is_position_id(token) {
        Version::V3
    } else {
        served
    }
}

/// The fields an order of `token` carries when the exchange serves `served` orders: V1's, or V2's (the third
/// exchange's orders are V2 orders under its own domain).
fn shape_of(served: Version, token: Option<&U256>) -> Version {
    match (served, token) {
        (_, Some(t)) if is_position_id(t) => Version::V2,
        (Version::V1, _) => Version::V1,
        _ => Version::V2,
    }
}

/// The token id a submitted order names, when it reads.
fn token_of(order: &Map<String, Value>) -> Option<U256> {
    order.get("tokenId").and_then(Value::as_str).and_then(parse_u256)
}

/// Who signed `order`, as the exchange of its market (`neg_risk` or not) on `chain_id` sees it: the address
/// recovered from `signature` over the order's hash (None when the signature recovers nothing). The exchanges are
/// the published ones of the chain, or Amoy's on a chain without any.
pub fn recover_signer(order: &Order, signature: &[u8; 65], chain_id: u64, neg_risk: bool) -> Option<Address> {
    let exchange = exchanges(chain_id, order.version).for_market(neg_risk);
    ecdsa::recover(&order.hash(chain_id, exchange), signature)
}

/// The exchanges orders are signed for: the published ones of the chain, or Amoy's on a chain with none (listed by
/// `GET /__admin/info`, for clients that take exchanges as an option).
pub fn exchanges(chain_id: u64, version: Version) -> Exchanges {
    Exchanges::published(chain_id, version)
        .or_else(|| Exchanges::published(super::DEFAULT_CHAIN_ID, version))
        .unwrap_or(Exchanges { exchange: Address::ZERO, neg_risk: Address::ZERO })
}

/// An address as the service's clients write it: `0x` and 40 hex digits, with a correct EIP-55 checksum when the
/// letters are of mixed case.
pub fn parse_address(text: &str) -> Option<Address> {
    let digits = text.strip_prefix("0x")?;
    if digits.len() != 40 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mixed = digits.bytes().any(|b| b.is_ascii_uppercase()) && digits.bytes().any(|b| b.is_ascii_lowercase());
    if mixed {
        Address::parse_checksummed(text, None).ok()
    } else {
        Address::from_str(text).ok()
    }
}

/// A decimal integer below 2^256: digits only.
pub fn parse_u256(text: &str) -> Option<U256> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    U256::from_str_radix(text, 10).ok()
}

/// An order as submitted.
pub struct Submitted {
    pub order: Order,
    /// The signature (a deposit wallet's: the inner one, its other parts in `wrapped`).
    pub signature: [u8; 65],
    pub wrapped: Option<super::deposit::Wrapped>,
    pub owner: String,
    pub order_type: OrderType,
    pub post_only: bool,
}

/// Why a submission is refused before it is looked at further.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A V1 order while the exchange takes V2, or the reverse.
    VersionMismatch,
    Invalid(String),
}

pub const VERSION_MISMATCH: &str = "order_version_mismatch";

const V1_FIELDS: [&str; 3] = ["taker", "nonce", "feeRateBps"];
const V2_FIELDS: [&str; 3] = ["timestamp", "metadata", "builder"];

fn invalid(message: impl Into<String>) -> Refusal {
    Refusal::Invalid(message.into())
}

/// The order's version, from the fields it carries: V1's and V2's are not mixed.
fn version_of(order: &Map<String, Value>) -> Result<Version, Refusal> {
    let has = |names: &[&str]| names.iter().any(|n| order.get(*n).is_some_and(|v| !v.is_null()));
    match (has(&V1_FIELDS), has(&V2_FIELDS)) {
        (true, false) => Ok(Version::V1),
        (false, true) => Ok(Version::V2),
        (true, true) => Err(invalid("invalid order: it mixes V1 fields (taker, nonce, feeRateBps) with V2 fields (timestamp, metadata, builder)")),
        (false, false) => Err(invalid("invalid order: it has neither V1 fields (taker, nonce, feeRateBps) nor V2 fields (timestamp, metadata, builder)")),
    }
}

/// Only the version check of a submission: whether it is the exchange's version (for a batch, which is refused as
/// a whole when one of its orders is not). Anything malformed is left to [`parse`].
pub fn mismatched(item: &Value, version: Version) -> bool {
    item.get("order")
        .and_then(Value::as_object)
        .and_then(|o| version_of(o).ok().map(|v| v != shape_of(version, token_of(o).as_ref())))
        .unwrap_or(false)
}

/// A whole number in a JSON number or a decimal string.
fn uint(order: &Map<String, Value>, name: &str) -> Result<u64, Refusal> {
    let rule = || invalid(format!("invalid order: {name} must be a whole number (a decimal string)"));
    match order.get(name) {
        Some(Value::Number(n)) => n.as_u64().ok_or_else(rule),
        Some(Value::String(s)) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => {
            s.parse().map_err(|_| rule())
        }
        None | Some(Value::Null) => Err(invalid(format!("invalid order: {name} is required"))),
        _ => Err(rule()),
    }
}

fn uint_or_zero(order: &Map<String, Value>, name: &str) -> Result<u64, Refusal> {
    match order.get(name) {
        None | Some(Value::Null) => Ok(0),
        _ => uint(order, name),
    }
}

fn u256(order: &Map<String, Value>, name: &str) -> Result<U256, Refusal> {
    let text = match order.get(name) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) if n.is_u64() => n.to_string(),
        None | Some(Value::Null) => return Err(invalid(format!("invalid order: {name} is required"))),
        _ => String::new(),
    };
    parse_u256(&text).ok_or_else(|| invalid(format!("invalid order: {name} must be a decimal integer below 2^256")))
}

fn address(order: &Map<String, Value>, name: &'static str) -> Result<Address, Refusal> {
    let text = order
        .get(name)
        .and_then(Value::as_str)
        .ok_or_else(|| invalid(format!("invalid order: {name} is required (an address)")))?;
    parse_address(text).ok_or_else(|| {
        invalid(format!("invalid order: {name} must be an address: 0x and 40 hex digits (a correct EIP-55 checksum when mixed case)"))
    })
}

fn bytes32(order: &Map<String, Value>, name: &str) -> Result<B256, Refusal> {
    order
        .get(name)
        .and_then(Value::as_str)
        .and_then(|s| s.strip_prefix("0x"))
        .and_then(|s| <[u8; 32]>::from_hex(s).ok())
        .map(B256::from)
        .ok_or_else(|| invalid(format!("invalid order: {name} must be 0x and 64 hex digits")))
}

/// Reads one submission `{order, owner, orderType, postOnly}` for an exchange at `version`.
pub fn parse(item: &Value, version: Version) -> Result<Submitted, Refusal> {
    let body = item.as_object().ok_or_else(|| {
        invalid("invalid order: each order must be a JSON object {order, owner, orderType, postOnly}")
    })?;
    let o = body
        .get("order")
        .and_then(Value::as_object)
        .ok_or_else(|| invalid("invalid order: order is required (an object)"))?;
    let found = version_of(o)?;
    if found != shape_of(version, token_of(o).as_ref()) {
        return Err(Refusal::VersionMismatch);
    }
    let owner = body
        .get("owner")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| invalid("invalid order: owner is required (the API key)"))?;
    let order_type = match body.get("orderType").and_then(Value::as_str) {
        Some("GTC") => OrderType::Gtc,
        Some("GTD") => OrderType::Gtd,
        Some("FOK") => OrderType::Fok,
        Some("FAK") => OrderType::Fak,
        _ => return Err(invalid("invalid order: orderType must be GTC, GTD, FOK or FAK")),
    };
    let post_only = match body.get("postOnly") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(invalid("invalid order: postOnly must be true or false")),
    };
    let side = match o.get("side") {
        Some(Value::String(s)) if s == "BUY" => Side::Buy,
        Some(Value::String(s)) if s == "SELL" => Side::Sell,
        Some(Value::Number(n)) if n.as_u64() == Some(0) => Side::Buy,
        Some(Value::Number(n)) if n.as_u64() == Some(1) => Side::Sell,
        _ => return Err(invalid("invalid order: side must be BUY or SELL")),
    };
    let signature_type =
        match uint(o, "signatureType") {
            Ok(0) => SignatureType::Eoa,
            Ok(1) => SignatureType::PolyProxy,
            Ok(2) => SignatureType::PolyGnosisSafe,
            Ok(3) => SignatureType::Poly1271,
            _ => return Err(invalid(
                "invalid order: signatureType must be 0 (EOA), 1 (POLY_PROXY), 2 (POLY_GNOSIS_SAFE) or 3 (POLY_1271)",
            )),
        };
    let text = o.get("signature").and_then(Value::as_str);
    // A deposit wallet's signature is what the wallet's isValidSignature takes: the ERC-7739 nested form, or the
    // owner's plain 65 bytes for a wallet that takes those (`wallets::Setup::plain`).
    let plain = text.and_then(ecdsa::parse_signature);
    let (signature, wrapped) = if let (SignatureType::Poly1271, None) = (signature_type, plain) {
        let wrapped = text.and_then(super::deposit::parse_wrapped).ok_or_else(|| {
            invalid("invalid order: a deposit wallet's signature must be the ERC-7739 wrapped signature (65 bytes, the domain separator, the order hash, the type string and its length) or the owner's 65-byte signature")
        })?;
        (wrapped.inner, Some(wrapped))
    } else {
        let signature = text.and_then(ecdsa::parse_signature).ok_or_else(|| {
            invalid("invalid order: signature must be 0x and 130 hex digits (r, s, v with v 27/28 or 0/1)")
        })?;
        (signature, None)
    };
    let v1 = found == Version::V1;
    let order = Order {
        version,
        salt: uint(o, "salt")?,
        maker: address(o, "maker")?,
        signer: address(o, "signer")?,
        token_id: u256(o, "tokenId")?,
        maker_amount: uint(o, "makerAmount")?,
        taker_amount: uint(o, "takerAmount")?,
        side,
        signature_type,
        expiration: uint_or_zero(o, "expiration")?,
        taker: if v1 { address(o, "taker")? } else { Address::ZERO },
        nonce: if v1 { u256(o, "nonce")? } else { U256::ZERO },
        fee_rate_bps: if v1 { uint(o, "feeRateBps")? } else { 0 },
        timestamp_ms: if v1 { 0 } else { uint(o, "timestamp")? },
        metadata: if v1 { B256::ZERO } else { bytes32(o, "metadata")? },
        builder: if v1 { B256::ZERO } else { bytes32(o, "builder")? },
    };
    Ok(Submitted { order, signature, wrapped, owner: owner.to_owned(), order_type, post_only })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn v2() -> Value {
        json!({
            "order": {
                "salt": 42, "maker": "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "signer": "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
                "tokenId": "71321045679252212594626385532706912750332728571942532289631379312455583992563", "makerAmount": "5000000", "takerAmount": "10000000", "side": "BUY", "expiration": "0",
                "timestamp": "1700000000000", "metadata": format!("0x{}", "00".repeat(32)), "builder": format!("0x{}", "00".repeat(32)),
                "signatureType": 0, "signature": format!("0x{}1b", "ab".repeat(64)),
            },
            "owner": "key", "orderType": "GTC", "postOnly": false,
        })
    }

    #[test]
    fn bodies_are_read_or_refused_with_a_reason() {
        let s = parse(&v2(), Version::V2).ok().unwrap();
        assert_eq!(
            (s.order.maker_amount, s.order.taker_amount, s.order.timestamp_ms),
            (5_000_000, 10_000_000, 1_700_000_000_000)
        );
        assert_eq!(s.order_type, OrderType::Gtc);
        assert_eq!(parse(&v2(), Version::V1).err(), Some(Refusal::VersionMismatch));
        assert!(mismatched(&v2(), Version::V1) && !mismatched(&v2(), Version::V2));
        let mut v1 = v2();
        for f in V2_FIELDS {
            v1["order"].as_object_mut().unwrap().remove(f);
        }
        v1["order"]["taker"] = json!("0x0000000000000000000000000000000000000000");
        v1["order"]["nonce"] = json!("0");
        v1["order"]["feeRateBps"] = json!("0");
        assert!(parse(&v1, Version::V1).is_ok());
        assert_eq!(parse(&v1, Version::V2).err(), Some(Refusal::VersionMismatch));
        let broken = [
            ("/order/makerAmount", json!("1.5"), "makerAmount"),
            ("/order/side", json!("buy"), "side"),
            ("/order/maker", json!("0x12"), "maker"),
            ("/order/signature", json!("0x1234"), "signature"),
            ("/order/signatureType", json!(4), "signatureType"),
            ("/order/metadata", json!("0x00"), "metadata"),
            ("/orderType", json!("IOC"), "orderType"),
            ("/postOnly", json!("yes"), "postOnly"),
            ("/owner", json!(""), "owner"),
            ("/order/tokenId", json!("-1"), "tokenId"),
        ];
        for (pointer, value, name) in broken {
            let mut body = v2();
            *body.pointer_mut(pointer).unwrap() = value;
            match parse(&body, Version::V2) {
                Err(Refusal::Invalid(m)) => assert!(m.contains(name), "{m}"),
                other => panic!("{pointer}: {:?}", other.err()),
            }
        }
        assert!(matches!(parse(&json!([]), Version::V2), Err(Refusal::Invalid(_))));
        // A deposit wallet's order: the ERC-7739 form or the owner's plain 65 bytes (for a wallet that takes those),
        // nothing else.
        let mut deposit = v2();
        deposit["order"]["signatureType"] = json!(3);
        assert!(parse(&deposit, Version::V2).is_ok_and(|s| s.wrapped.is_none()), "the plain 65 bytes");
        let plain = deposit["order"]["signature"].as_str().unwrap().to_owned();
        deposit["order"]["signature"] = json!(format!("{plain}00"));
        assert!(matches!(parse(&deposit, Version::V2), Err(Refusal::Invalid(m)) if m.contains("ERC-7739")));
        let mut mixed = v2();
        mixed["order"]["nonce"] = json!("0");
        assert!(matches!(parse(&mixed, Version::V2), Err(Refusal::Invalid(m)) if m.contains("mixes")));
    }
}
