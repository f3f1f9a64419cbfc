//! Exchange orders, V1 and V2: their EIP-712 form, the exchanges that verify them, and the body that
//! places them.

use super::eip712::{self, hex0x, typed_data_json, Address, Domain, Struct, Value, U256};
use crate::api::JsonWriter;
use crate::book::{OrderType, Side};
use crate::error::Error;
use crate::json::Value as Param;

/// The exchange's order format, as `GET /version` tells it; `V3`, the exchange of the newer position system's
/// markets, takes the V2 order under its own domain (version "3"), chosen by the market's token (see
/// [`order_version`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    V1,
    V2,
    V3,
}

/// Whether a token id is a position id of the newer position system, as the upstream clients route orders
/// (clob-client-v2 `src/protocol.ts` and the unified SDKs' `isV2PositionId`: the 64 reserved bits, 40 to 103,
/// are zero). The older markets' token ids are keccak hashes, whose 64 reserved bits are never all zero in
/// practice; small numbers (`"1"`, `"123"`) count as positions, as upstream counts them.
pub fn is_position_id(token: &U256) -> bool {
    token.0.get(19..27).is_some_and(|reserved| reserved.iter().all(|b| *b == 0))
}

/// The order version for `token` when the service takes `server` orders: the third exchange for a position
/// id, whatever the service's version (the upstream clients route a position there); the service's otherwise,
/// so that a service that says 3 has every order signed for the third exchange.
pub fn order_version(server: Version, token: &U256) -> Version {
    if is_position_id(token) {
        Version::V3
    } else {
        server
    }
}

impl Version {
    /// `{"version": 2}` (a number or its text). Versions this library does not know are refused.
    pub fn from_answer(body: &[u8]) -> Result<Self, Error> {
        // (The JSON reader keeps a number as its text.)
        match crate::json::Value::parse(body)?.field("version") {
            Some(crate::json::Value::Str(v)) => match v.as_str() {
                "1" => Ok(Self::V1),
                "2" => Ok(Self::V2),
                "3" => Ok(Self::V3),
                _ => Err(Error::decode("GET /version: an order version this library does not know")),
            },
            _ => Err(Error::decode("GET /version: no version in the answer")),
        }
    }

    fn domain_version(self) -> &'static str {
        match self {
            Self::V1 => "1",
            Self::V2 => "2",
            Self::V3 => "3",
        }
    }

    /// The version as a number (drafts and signed orders carry it).
    pub fn number(self) -> &'static str {
        self.domain_version()
    }
}

/// Who signs for the maker: the maker itself (EOA), or its owner for a Polymarket proxy or Gnosis Safe
/// wallet, which is then a separate funder address; or, for a deposit wallet (`POLY_1271`), the wallet
/// contract is maker and signer and checks its owner's signature itself (ERC-1271, the ERC-7739 form).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignatureType {
    Eoa = 0,
    PolyProxy = 1,
    PolyGnosisSafe = 2,
    Poly1271 = 3,
}

impl SignatureType {
    pub fn parse(value: &Param) -> Result<Self, Error> {
        match value {
            Param::Undefined | Param::Null => Ok(Self::Eoa),
            Param::Str(s) if s == "EOA" => Ok(Self::Eoa),
            Param::Str(s) if s == "POLY_PROXY" => Ok(Self::PolyProxy),
            Param::Str(s) if s == "POLY_GNOSIS_SAFE" => Ok(Self::PolyGnosisSafe),
            Param::Str(s) if s == "POLY_1271" => Ok(Self::Poly1271),
            Param::Number(n) if *n == 0.0 => Ok(Self::Eoa),
            Param::Number(n) if *n == 1.0 => Ok(Self::PolyProxy),
            Param::Number(n) if *n == 2.0 => Ok(Self::PolyGnosisSafe),
            Param::Number(n) if *n == 3.0 => Ok(Self::Poly1271),
            _ => Err(Error::invalid(
                "signatureType",
                "must be \"EOA\", \"POLY_PROXY\", \"POLY_GNOSIS_SAFE\" or \"POLY_1271\" (0, 1, 2 or 3)",
            )),
        }
    }

    /// The order's `signer` field when `owner` signs: the deposit wallet itself for POLY_1271 (which checks
    /// its owner's signature), the owner otherwise.
    pub fn order_signer(self, owner: Address, maker: Address) -> Address {
        if self == Self::Poly1271 {
            maker
        } else {
            owner
        }
    }

    /// The maker of an order signed by `signer`: the signer itself for EOA, the funder otherwise.
    pub fn maker(self, signer: Address, funder: Option<Address>) -> Result<Address, Error> {
        match (self, funder) {
            (Self::Eoa, None) => Ok(signer),
            (Self::Eoa, Some(f)) if f == signer => Ok(signer),
            (Self::Eoa, Some(_)) => Err(Error::invalid(
                "funder",
                "must be the signer's own address for EOA orders (use POLY_PROXY or POLY_GNOSIS_SAFE)",
            )),
            (_, Some(f)) => Ok(f),
            (_, None) => Err(Error::invalid(
                "funder",
                "is required: the proxy, Safe or deposit wallet's address that holds the funds",
            )),
        }
    }
}

/// The exchange contracts of one chain and order version: one for standard markets, one for neg-risk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exchanges {
    pub exchange: Address,
    pub neg_risk: Address,
}

fn addr(hex: &str) -> Address {
    Address::parse("exchange", hex).unwrap_or(Address::ZERO)
}

impl Exchanges {
    /// The published exchanges: Polygon (137) and Amoy (80002). The V2 exchanges have the same address on
    /// both (a deterministic deployment; the upstream V2 clients' configurations list the same pair for
    /// both chains); other chains need `exchanges` in the client's options.
    pub fn known(chain_id: u64, version: Version) -> Option<Self> {
        let (exchange, neg_risk) = match (chain_id, version) {
            (137, Version::V1) => {
                ("0x4bFb41d5B3570DeFd03C39a9A4D8dE6Bd8B8982E", "0xC5d563A36AE78145C45a50134d48A1215220f80a")
            }
            (80002, Version::V1) => {
                ("0xdFE02Eb6733538f8Ea35D585af8DE5958AD99E40", "0xC5d563A36AE78145C45a50134d48A1215220f80a")
            }
            (137 | 80002, Version::V2) => {
                ("0xE111180000d2663C0091e4f400237545B87B996B", "0xe2222d279d744050d28e00520010520000310F59")
            }
            // clob-client-v2 `src/config.ts` (`exchangeV3`): one exchange, neg-risk markets included.
            (137, Version::V3) => {
                ("0xe3333700cA9d93003F00f0F71f8515005F6c00Aa", "0xe3333700cA9d93003F00f0F71f8515005F6c00Aa")
            }
            (80002, Version::V3) => {
                ("0x9fE6e61422AdB6F610d8597F9684b16912D50C3D", "0x9fE6e61422AdB6F610d8597F9684b16912D50C3D")
            }
            _ => return None,
        };
        Some(Self { exchange: addr(exchange), neg_risk: addr(neg_risk) })
    }

    pub fn for_market(&self, neg_risk: bool) -> Address {
        if neg_risk {
            self.neg_risk
        } else {
            self.exchange
        }
    }
}

/// The exchange's EIP-712 domain.
pub fn domain(version: Version, chain_id: u64, exchange: Address) -> Domain {
    Domain {
        name: "Polymarket CTF Exchange",
        version: version.domain_version(),
        chain_id,
        verifying_contract: Some(exchange),
    }
}

/// One order, in either version; the fields a version does not sign are ignored by it.
#[derive(Clone, Debug, PartialEq)]
pub struct Order {
    pub version: Version,
    /// Below 2^53, so the body can carry it as a JSON number, as the service takes it.
    pub salt: u64,
    pub maker: Address,
    pub signer: Address,
    pub token_id: U256,
    /// In 10^-6 units of cash or shares.
    pub maker_amount: u64,
    pub taker_amount: u64,
    pub side: Side,
    pub signature_type: SignatureType,
    /// Seconds; 0 for none. Signed by V1; sent beside a V2 order for GTD.
    pub expiration: u64,
    /// V1 only.
    pub taker: Address,
    pub nonce: U256,
    pub fee_rate_bps: u64,
    /// V2 only: milliseconds.
    pub timestamp_ms: u64,
    pub metadata: [u8; 32],
    pub builder: [u8; 32],
    /// A deposit wallet's order (POLY_1271) signed in the ERC-7739 form (`TypedDataSign`, the upstream
    /// clients'); false for one whose wallet takes its owner's plain signature of the order, and for every
    /// other signature type.
    pub wrapped: bool,
}

/// The largest salt: 2^53 − 1.
pub const MAX_SALT: u64 = (1 << 53) - 1;

fn side_code(side: Side) -> u64 {
    match side {
        Side::Buy => 0,
        Side::Sell => 1,
    }
}

fn side_text(side: Side) -> &'static str {
    match side {
        Side::Buy => "BUY",
        Side::Sell => "SELL",
    }
}

impl Order {
    fn fields(&self) -> Vec<(&'static str, &'static str, Value)> {
        let n = |v: u64| Value::Uint(U256::from_u64(v));
        let mut fields = vec![
            ("salt", "uint256", n(self.salt)),
            ("maker", "address", Value::Address(self.maker)),
            ("signer", "address", Value::Address(self.signer)),
        ];
        match self.version {
            Version::V1 => fields.extend([
                ("taker", "address", Value::Address(self.taker)),
                ("tokenId", "uint256", Value::Uint(self.token_id)),
                ("makerAmount", "uint256", n(self.maker_amount)),
                ("takerAmount", "uint256", n(self.taker_amount)),
                ("expiration", "uint256", n(self.expiration)),
                ("nonce", "uint256", Value::Uint(self.nonce)),
                ("feeRateBps", "uint256", n(self.fee_rate_bps)),
                ("side", "uint8", n(side_code(self.side))),
                ("signatureType", "uint8", n(self.signature_type as u64)),
            ]),
            Version::V2 | Version::V3 => fields.extend([
                ("tokenId", "uint256", Value::Uint(self.token_id)),
                ("makerAmount", "uint256", n(self.maker_amount)),
                ("takerAmount", "uint256", n(self.taker_amount)),
                ("side", "uint8", n(side_code(self.side))),
                ("signatureType", "uint8", n(self.signature_type as u64)),
                ("timestamp", "uint256", n(self.timestamp_ms)),
                ("metadata", "bytes32", Value::Bytes32(self.metadata)),
                ("builder", "bytes32", Value::Bytes32(self.builder)),
            ]),
        }
        fields
    }

    /// The order's EIP-712 hash under `domain`: what the wallet signs and the exchange checks.
    pub fn hash(&self, domain: &Domain) -> [u8; 32] {
        eip712::digest(domain, &Struct { name: "Order", fields: &self.fields() })
    }

    /// The `eth_signTypedData_v4` document for the wallet.
    pub fn typed_data(&self, domain: &Domain) -> String {
        typed_data_json(domain, &Struct { name: "Order", fields: &self.fields() })
    }

    /// The order as the service takes it, with its signature: amounts and ids as decimal text, the salt
    /// a number, the side `BUY`/`SELL`, the signature type a number.
    pub fn write_json(&self, w: &mut JsonWriter, signature: &str) {
        w.object_start();
        self.write_fields(w, signature, false);
        w.object_end();
    }

    /// The order's fields and signature into an open object; the salt as text for callers (`salt_text`),
    /// a number for the service.
    pub fn write_fields(&self, w: &mut JsonWriter, signature: &str, salt_text: bool) {
        let salt = crate::trade::decimal(self.salt);
        if salt_text {
            w.field_str("salt", &salt);
        } else {
            w.field_raw("salt", &salt);
        }
        w.field_str("maker", &self.maker.checksummed());
        w.field_str("signer", &self.signer.checksummed());
        if self.version == Version::V1 {
            w.field_str("taker", &self.taker.checksummed());
        }
        w.field_str("tokenId", &self.token_id.to_decimal());
        w.field_str("makerAmount", &crate::trade::decimal(self.maker_amount));
        w.field_str("takerAmount", &crate::trade::decimal(self.taker_amount));
        w.field_str("side", side_text(self.side));
        w.field_str("expiration", &crate::trade::decimal(self.expiration));
        match self.version {
            Version::V1 => {
                w.field_str("nonce", &self.nonce.to_decimal());
                w.field_str("feeRateBps", &crate::trade::decimal(self.fee_rate_bps));
            }
            Version::V2 | Version::V3 => {
                w.field_str("timestamp", &crate::trade::decimal(self.timestamp_ms));
                w.field_str("metadata", &hex0x(&self.metadata));
                w.field_str("builder", &hex0x(&self.builder));
            }
        }
        w.field_raw("signatureType", &crate::trade::decimal(self.signature_type as u64));
        w.field_str("signature", signature);
    }
}

/// The V2 `Order` type string: a deposit wallet's wrapped signature carries it (ERC-7739).
pub const ORDER_TYPE: &str = "Order(uint256 salt,address maker,address signer,uint256 tokenId,uint256 makerAmount,\
uint256 takerAmount,uint8 side,uint8 signatureType,uint256 timestamp,bytes32 metadata,bytes32 builder)";

/// The deposit wallet's own EIP-712 name and version, which the owner's signature is bound to.
const WALLET_NAME: &str = "DepositWallet";
const WALLET_VERSION: &str = "1";

impl Order {
    /// What the owner's wallet signs: for a deposit wallet (POLY_1271) in the ERC-7739 form, the
    /// `TypedDataSign` that nests the order under the exchange's domain and names the wallet's (as the
    /// upstream V2 order builders ask it); otherwise the order itself.
    pub fn typed_data_to_sign(&self, domain: &Domain) -> String {
        if !self.wrapped {
            return self.typed_data(domain);
        }
        let contents = self.fields();
        eip712::typed_data_sign_json(domain, &Struct { name: "Order", fields: &contents }, &self.wallet_fields(domain))
    }

    /// The deposit wallet's domain fields of the `TypedDataSign` message.
    fn wallet_fields(&self, domain: &Domain) -> [(&'static str, &'static str, Value); 5] {
        [
            ("name", "string", Value::Text(WALLET_NAME.into())),
            ("version", "string", Value::Text(WALLET_VERSION.into())),
            ("chainId", "uint256", Value::Uint(U256::from_u64(domain.chain_id))),
            ("verifyingContract", "address", Value::Address(self.signer)),
            ("salt", "bytes32", Value::Bytes32([0; 32])),
        ]
    }

    /// The digest the owner signs for a deposit wallet's order (for checks and tests; the wallet computes
    /// its own from the typed data).
    pub fn typed_data_sign_digest(&self, domain: &Domain) -> [u8; 32] {
        let contents = self.fields();
        eip712::typed_data_sign_digest(
            domain,
            &Struct { name: "Order", fields: &contents },
            &self.wallet_fields(domain),
        )
    }

    /// The signature the exchange takes from the owner's 65-byte `signature` (`0x` hex): for a deposit
    /// wallet in the ERC-7739 form, `signature ‖ the exchange's domain separator ‖ the order's hash ‖ its
    /// type string ‖ the type string's length (2 bytes, big-endian)`; otherwise the signature itself.
    pub fn wrapped_signature(&self, domain: &Domain, signature: &str) -> String {
        if !self.wrapped {
            return signature.to_owned();
        }
        let fields = self.fields();
        let contents = Struct { name: "Order", fields: &fields };
        // The type string is the one the hash covers (ORDER_TYPE for V2), written from the same fields.
        let type_string = contents.encode_type();
        let mut tail = Vec::with_capacity(64 + type_string.len() + 2);
        tail.extend_from_slice(&domain.separator());
        tail.extend_from_slice(&contents.hash());
        tail.extend_from_slice(type_string.as_bytes());
        tail.extend_from_slice(&(type_string.len() as u16).to_be_bytes());
        let mut out = String::with_capacity(signature.len() + tail.len() * 2);
        out.push_str(signature);
        out.push_str(&eip712::hex(&tail));
        out
    }
}

/// A signed order ready to post, with how it is to be placed.
#[derive(Clone, Copy)]
pub struct Placement<'a> {
    pub order: &'a Order,
    pub signature: &'a str,
    pub order_type: OrderType,
    pub post_only: bool,
}

fn order_type_text(t: OrderType) -> &'static str {
    match t {
        OrderType::Fok => "FOK",
        OrderType::Fak => "FAK",
        OrderType::Gtc => "GTC",
        OrderType::Gtd => "GTD",
    }
}

fn write_placement(w: &mut JsonWriter, p: &Placement<'_>, owner: &str) {
    w.key("order");
    p.order.write_json(w, p.signature);
    w.field_str("owner", owner);
    w.field_str("orderType", order_type_text(p.order_type));
    w.field_raw("postOnly", if p.post_only { "true" } else { "false" });
}

/// The most orders one POST /orders takes.
pub const MAX_BATCH: usize = 15;

/// POST /order's body: `{ order, owner, orderType, postOnly }`, `owner` the API key.
pub fn order_body(p: &Placement<'_>, owner: &str) -> String {
    let mut w = JsonWriter::object();
    write_placement(&mut w, p, owner);
    w.finish()
}

/// POST /orders's body: an array of what POST /order takes, 1 to 15 of them.
pub fn orders_body(placements: &[Placement<'_>], owner: &str) -> Result<String, Error> {
    if placements.is_empty() || placements.len() > MAX_BATCH {
        return Err(Error::invalid("orders", "must hold 1 to 15 orders"));
    }
    let mut w = JsonWriter::array();
    for p in placements {
        w.object_start();
        write_placement(&mut w, p, owner);
        w.object_end();
    }
    Ok(w.finish())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn vector_order() -> Order {
        Order {
            version: Version::V1,
            salt: 479_249_096_354,
            maker: addr("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"),
            signer: addr("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"),
            token_id: U256::from_u64(1234),
            maker_amount: 100_000_000,
            taker_amount: 50_000_000,
            side: Side::Buy,
            signature_type: SignatureType::Eoa,
            expiration: 0,
            taker: Address::ZERO,
            nonce: U256::default(),
            fee_rate_bps: 100,
            timestamp_ms: 0,
            metadata: [0; 32],
            builder: [0; 32],
            wrapped: false,
        }
    }

    #[test]
    fn the_upstream_v1_order_vector_hashes_as_published() {
        // vectors/order-signing.json: clob-order-utils' test order, Amoy exchange.
        let order = vector_order();
        let domain = domain(Version::V1, 80002, addr("0xdFE02Eb6733538f8Ea35D585af8DE5958AD99E40"));
        assert_eq!(hex0x(&order.hash(&domain)), "0x02ca1d1aa31103804173ad1acd70066cb6c1258a4be6dada055111f9a7ea4e55");
    }

    #[test]
    fn typed_data_and_hash_come_from_the_same_fields() {
        let order = Order { version: Version::V2, timestamp_ms: 1_700_000_000_123, ..vector_order() };
        let domain = domain(Version::V2, 137, Exchanges::known(137, Version::V2).unwrap().exchange);
        let doc: serde_json::Value = serde_json::from_str(&order.typed_data(&domain)).unwrap();
        assert_eq!(doc["primaryType"], "Order");
        assert_eq!(doc["domain"]["version"], "2");
        assert_eq!(doc["domain"]["chainId"], 137);
        assert_eq!(doc["domain"]["verifyingContract"], "0xE111180000d2663C0091e4f400237545B87B996B");
        let names: Vec<_> =
            doc["types"]["Order"].as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap().to_owned()).collect();
        assert_eq!(
            names,
            [
                "salt",
                "maker",
                "signer",
                "tokenId",
                "makerAmount",
                "takerAmount",
                "side",
                "signatureType",
                "timestamp",
                "metadata",
                "builder"
            ]
        );
        assert_eq!(doc["message"]["timestamp"], "1700000000123");
        assert_eq!(doc["message"]["metadata"], format!("0x{}", "00".repeat(32)));
        // V1 and V2 hash differently, and each field counts.
        let v1 = Order { version: Version::V1, ..order.clone() };
        assert_ne!(order.hash(&domain), v1.hash(&domain));
        assert_ne!(order.hash(&domain), Order { builder: [1; 32], ..order.clone() }.hash(&domain));
        // V2 does not sign V1's fields.
        assert_eq!(
            order.hash(&domain),
            Order { fee_rate_bps: 7, nonce: U256::from_u64(3), ..order.clone() }.hash(&domain)
        );
    }

    #[test]
    fn bodies_carry_what_the_service_reads() {
        let order = vector_order();
        let sig = format!("0x{}1b", "ab".repeat(64));
        let p = Placement { order: &order, signature: &sig, order_type: OrderType::Gtc, post_only: true };
        let body: serde_json::Value =
            serde_json::from_str(&order_body(&p, "00000000-0000-0000-0000-000000000000")).unwrap();
        assert_eq!(body["order"]["salt"], 479_249_096_354u64);
        assert_eq!(body["order"]["makerAmount"], "100000000");
        assert_eq!(body["order"]["side"], "BUY");
        assert_eq!(body["order"]["signatureType"], 0);
        assert_eq!(body["order"]["taker"], "0x0000000000000000000000000000000000000000");
        assert_eq!(body["order"]["feeRateBps"], "100");
        assert_eq!(body["order"]["signature"], sig.as_str());
        assert_eq!(body["orderType"], "GTC");
        assert_eq!(body["postOnly"], true);
        let many = vec![Placement { post_only: false, ..p }; 15];
        let arr: serde_json::Value = serde_json::from_str(&orders_body(&many, "k").unwrap()).unwrap();
        assert_eq!(arr.as_array().unwrap().len(), 15);
        assert_eq!(arr[14]["owner"], "k");
        let too_many = vec![Placement { post_only: false, ..p }; 16];
        assert!(orders_body(&too_many, "k").is_err());
        assert!(orders_body(&[], "k").is_err());
    }

    #[test]
    fn makers_follow_the_signature_type() {
        let (signer, funder) =
            (addr("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"), addr("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"));
        assert_eq!(SignatureType::Eoa.maker(signer, None).unwrap(), signer);
        assert_eq!(SignatureType::PolyProxy.maker(signer, Some(funder)).unwrap(), funder);
        assert_eq!(SignatureType::PolyGnosisSafe.maker(signer, Some(funder)).unwrap(), funder);
        assert!(SignatureType::PolyGnosisSafe.maker(signer, None).is_err());
        assert!(SignatureType::Eoa.maker(signer, Some(funder)).is_err());
        assert_eq!(SignatureType::parse(&Param::Str("POLY_PROXY".into())).unwrap(), SignatureType::PolyProxy);
        assert_eq!(SignatureType::parse(&Param::Number(2.0)).unwrap(), SignatureType::PolyGnosisSafe);
        assert_eq!(SignatureType::parse(&Param::Number(3.0)).unwrap(), SignatureType::Poly1271);
        assert_eq!(SignatureType::parse(&Param::Str("POLY_1271".into())).unwrap(), SignatureType::Poly1271);
        assert!(SignatureType::parse(&Param::Number(4.0)).is_err());
        // A deposit wallet is the maker and the order's signer; the others sign as their owner.
        assert_eq!(SignatureType::Poly1271.maker(signer, Some(funder)).unwrap(), funder);
        assert_eq!(SignatureType::Poly1271.order_signer(signer, funder), funder);
        assert_eq!(SignatureType::PolyGnosisSafe.order_signer(signer, funder), signer);
        assert!(SignatureType::Poly1271.maker(signer, None).is_err());
    }

    #[test]
    fn positions_of_the_newer_system_trade_on_the_third_exchange() {
        // A position id as the unified SDKs lay it out: the module (1, binary) in the top byte, the condition's
        // bits, the reserved 64 bits zero, the outcome in the last byte.
        let mut bytes = [0x5a_u8; 32];
        bytes[0] = 1;
        bytes[19..27].fill(0);
        bytes[31] = 1;
        let position = U256(bytes);
        let bit = |k: usize| {
            let mut b = [0u8; 32];
            b[31 - k / 8] = 1 << (k % 8);
            b
        };
        let or = |a: [u8; 32], b: [u8; 32]| U256(std::array::from_fn(|i| a[i] | b[i]));
        // An older market's token (a hash).
        let token =
            U256::parse_decimal("71321045679252212594626385532706912750332728571942532289631379312455583992563")
                .unwrap();
        // The upstream classifier's own cases (clob-client-v2 `tests/protocol.test.ts`): any uint256 whose reserved
        // bits are zero, small numbers and a top byte of no module included, where this library's earlier rule
        // (a module of 1 to 3 in the top byte) said no.
        let mut all_but_reserved = [0xff_u8; 32];
        all_but_reserved[19..].fill(0);
        let positions = [
            position,
            U256::default(),
            U256::from_u64(1),
            U256::from_u64(123),
            U256(bit(39)),
            U256(bit(104)),
            U256(bit(255)),
            U256(all_but_reserved),
            U256({
                let mut b = bytes;
                b[0] = 4;
                b
            }),
        ];
        for id in positions {
            assert!(is_position_id(&id), "{id:?}");
        }
        let mut not_positions: Vec<U256> = (40..=103).map(|k| or(bit(248), bit(k))).collect();
        not_positions.extend([token, U256([0xff; 32]), U256([0x5a; 32])]);
        for id in &not_positions {
            assert!(!is_position_id(id), "{id:?}");
        }
        // A position goes to the third exchange whatever the service's version; a token to the service's, so a
        // service that says 3 has every order signed for the third exchange.
        let table = [
            (Version::V1, token, Version::V1),
            (Version::V2, token, Version::V2),
            (Version::V3, token, Version::V3),
            (Version::V1, position, Version::V3),
            (Version::V2, position, Version::V3),
            (Version::V3, position, Version::V3),
            (Version::V1, U256::from_u64(123), Version::V3),
        ];
        for (server, id, want) in table {
            assert_eq!(order_version(server, &id), want, "{server:?} {id:?}");
        }
        // clob-client-v2 `exchangeOrderBuilderV2.test.ts`: the V3 domain, the V2 order schema.
        for (chain, address) in
            [(137, "0xe3333700cA9d93003F00f0F71f8515005F6c00Aa"), (80002, "0x9fE6e61422AdB6F610d8597F9684b16912D50C3D")]
        {
            let exchanges = Exchanges::known(chain, Version::V3).unwrap();
            assert_eq!((exchanges.for_market(false), exchanges.for_market(true)), (addr(address), addr(address)));
            let order = Order { version: Version::V3, token_id: position, ..vector_order() };
            let doc: serde_json::Value =
                serde_json::from_str(&order.typed_data(&domain(Version::V3, chain, addr(address)))).unwrap();
            assert_eq!(doc["domain"]["name"], "Polymarket CTF Exchange");
            assert_eq!(doc["domain"]["version"], "3");
            assert_eq!(doc["domain"]["verifyingContract"], address);
            let v2 = Order { version: Version::V2, ..order.clone() };
            let v2_doc: serde_json::Value =
                serde_json::from_str(&v2.typed_data(&domain(Version::V2, chain, addr(address)))).unwrap();
            assert_eq!(doc["types"]["Order"], v2_doc["types"]["Order"]);
            assert_ne!(
                order.hash(&domain(Version::V3, chain, addr(address))),
                v2.hash(&domain(Version::V2, chain, addr(address)))
            );
        }
    }

    #[test]
    fn versions_are_read_from_the_answer() {
        assert_eq!(Version::from_answer(br#"{"version":2}"#).unwrap(), Version::V2);
        assert_eq!(Version::from_answer(br#"{"other":[1],"version":"1"}"#).unwrap(), Version::V1);
        assert_eq!(Version::from_answer(br#"{"version":3}"#).unwrap(), Version::V3);
        assert!(Version::from_answer(br#"{"version":4}"#).is_err());
        assert!(Version::from_answer(br#"{}"#).is_err());
        assert!(Version::from_answer(b"[").is_err());
    }
}
