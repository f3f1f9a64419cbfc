//! The service's EIP-712 messages, hashed with the alloy crates (`sol!` structs and `Eip712Domain`), from the
//! upstream clients' definitions and never from the library's: what a wallet signs to create an API key
//! (`ClobAuth`), and an order of either exchange version, with the exchange contracts that verify them.
//!
//! Sources (the upstream public clients), cited beside each constant:
//! - `ClobAuth`: Polymarket/clob-client-v2 `src/signing/eip712.ts` (domain `ClobAuthDomain` version `1`, fields
//!   address, timestamp, nonce, message) and `src/signing/constants.ts` (the message); Polymarket/rs-clob-client
//!   `src/auth.rs` (the same struct in `sol!`).
//! - Orders: Polymarket/clob-client-v2 `src/order-utils/model/ctfExchangeV1TypedData.ts` and
//!   `ctfExchangeV2TypedData.ts` (domain name `Polymarket CTF Exchange`, versions `1` and `2`, the field orders),
//!   `src/order-utils/exchangeOrderBuilderV2.ts` (the V2 type string).
//! - Exchanges: Polymarket/clob-client-v2 `src/config.ts` and Polymarket/py-clob-client-v2
//!   `py_clob_client_v2/config.py` (`exchange`, `negRiskExchange`, `exchangeV2`, `negRiskExchangeV2` of chains 137
//!   and 80002).

use alloy_primitives::{address, Address, B256, U256};
use alloy_sol_types::{Eip712Domain, SolStruct};

/// The text a `ClobAuth` message carries (clob-client-v2 `src/signing/constants.ts`, `MSG_TO_SIGN`).
pub const CLOB_AUTH_MESSAGE: &str = "This message attests that I control the given wallet";
/// The `ClobAuth` domain (clob-client-v2 `src/signing/constants.ts`: `CLOB_DOMAIN_NAME`, `CLOB_VERSION`).
pub const CLOB_AUTH_DOMAIN_NAME: &str = "ClobAuthDomain";
pub const CLOB_AUTH_DOMAIN_VERSION: &str = "1";
/// The exchanges' domain name (clob-client-v2 `ctfExchangeV1TypedData.ts`, `ctfExchangeV2TypedData.ts`).
pub const EXCHANGE_DOMAIN_NAME: &str = "Polymarket CTF Exchange";

alloy_sol_types::sol! {
    /// clob-client-v2 `src/signing/eip712.ts` (`buildClobEip712Signature`); rs-clob-client `src/auth.rs`.
    struct ClobAuth {
        address address;
        string timestamp;
        uint256 nonce;
        string message;
    }
}

/// The V1 order (clob-client-v2 `src/order-utils/model/ctfExchangeV1TypedData.ts`, `CTF_EXCHANGE_V1_ORDER_STRUCT`).
pub mod v1 {
    alloy_sol_types::sol! {
        struct Order {
            uint256 salt;
            address maker;
            address signer;
            address taker;
            uint256 tokenId;
            uint256 makerAmount;
            uint256 takerAmount;
            uint256 expiration;
            uint256 nonce;
            uint256 feeRateBps;
            uint8 side;
            uint8 signatureType;
        }
    }
}

/// The V2 order (clob-client-v2 `src/order-utils/model/ctfExchangeV2TypedData.ts`, `CTF_EXCHANGE_V2_ORDER_STRUCT`;
/// its type string in `exchangeOrderBuilderV2.ts`, `ORDER_TYPE_STRING`).
pub mod v2 {
    alloy_sol_types::sol! {
        struct Order {
            uint256 salt;
            address maker;
            address signer;
            uint256 tokenId;
            uint256 makerAmount;
            uint256 takerAmount;
            uint8 side;
            uint8 signatureType;
            uint256 timestamp;
            bytes32 metadata;
            bytes32 builder;
        }
    }
}

/// The exchange's order format, as `GET /version` serves it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    V1,
    V2,
    /// ExchangeV3, the newer position system's (clob-client-v2 `src/config.ts` `exchangeV3`, domain version "3",
    /// the V2 order): an order of a position id is signed for it whatever `GET /version` serves.
    V3,
}

impl Version {
    pub fn number(self) -> u8 {
        match self {
            Self::V1 => 1,
            Self::V2 => 2,
            Self::V3 => 3,
        }
    }

    /// The exchange domain's version (`CTF_EXCHANGE_V1_DOMAIN_VERSION` "1", `CTF_EXCHANGE_V2_DOMAIN_VERSION` "2").
    fn domain_version(self) -> &'static str {
        match self {
            Self::V1 => "1",
            Self::V2 => "2",
            Self::V3 => "3",
        }
    }
}

/// The exchange contracts of a chain and order version: one for standard markets, one for neg-risk ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exchanges {
    pub exchange: Address,
    pub neg_risk: Address,
}

impl Exchanges {
    /// The published contracts of Polygon (137) and Amoy (80002). clob-client-v2 `src/config.ts`
    /// (`MATIC_CONTRACTS`, `AMOY_CONTRACTS`) and py-clob-client-v2 `py_clob_client_v2/config.py` list them: V1
    /// `exchange` / `negRiskExchange`, V2 `exchangeV2` / `negRiskExchangeV2` (the same pair on both chains).
    pub fn published(chain_id: u64, version: Version) -> Option<Self> {
        let (exchange, neg_risk) = match (chain_id, version) {
            (137, Version::V1) => (
                address!("0x4bFb41d5B3570DeFd03C39a9A4D8dE6Bd8B8982E"),
                address!("0xC5d563A36AE78145C45a50134d48A1215220f80a"),
            ),
            (80002, Version::V1) => (
                address!("0xdFE02Eb6733538f8Ea35D585af8DE5958AD99E40"),
                address!("0xC5d563A36AE78145C45a50134d48A1215220f80a"),
            ),
            (137 | 80002, Version::V2) => (
                address!("0xE111180000d2663C0091e4f400237545B87B996B"),
                address!("0xe2222d279d744050d28e00520010520000310F59"),
            ),
            // clob-client-v2 `src/config.ts` (`exchangeV3`): one contract, neg-risk markets included.
            (137, Version::V3) => (
                address!("0xe3333700cA9d93003F00f0F71f8515005F6c00Aa"),
                address!("0xe3333700cA9d93003F00f0F71f8515005F6c00Aa"),
            ),
            (80002, Version::V3) => (
                address!("0x9fE6e61422AdB6F610d8597F9684b16912D50C3D"),
                address!("0x9fE6e61422AdB6F610d8597F9684b16912D50C3D"),
            ),
            _ => return None,
        };
        Some(Self { exchange, neg_risk })
    }

    pub fn for_market(&self, neg_risk: bool) -> Address {
        if neg_risk {
            self.neg_risk
        } else {
            self.exchange
        }
    }
}

/// The domain of `ClobAuth`: name, version and chain, no contract.
pub fn clob_auth_domain(chain_id: u64) -> Eip712Domain {
    Eip712Domain {
        name: Some(CLOB_AUTH_DOMAIN_NAME.into()),
        version: Some(CLOB_AUTH_DOMAIN_VERSION.into()),
        chain_id: Some(U256::from(chain_id)),
        ..Eip712Domain::default()
    }
}

/// The digest a wallet signs to prove it controls `address` at `timestamp` (seconds, as text) with `nonce`.
pub fn clob_auth_digest(chain_id: u64, address: Address, timestamp: &str, nonce: U256) -> B256 {
    let message = ClobAuth { address, timestamp: timestamp.to_owned(), nonce, message: CLOB_AUTH_MESSAGE.to_owned() };
    message.eip712_signing_hash(&clob_auth_domain(chain_id))
}

/// The domain of an exchange's orders.
pub fn exchange_domain(version: Version, chain_id: u64, exchange: Address) -> Eip712Domain {
    Eip712Domain {
        name: Some(EXCHANGE_DOMAIN_NAME.into()),
        version: Some(version.domain_version().into()),
        chain_id: Some(U256::from(chain_id)),
        verifying_contract: Some(exchange),
        salt: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_primitives::{b256, keccak256};

    #[test]
    fn the_type_strings_are_the_upstream_ones() {
        // clob-client-v2 exchangeOrderBuilderV2.ts ORDER_TYPE_STRING.
        assert_eq!(
            v2::Order::eip712_encode_type(),
            "Order(uint256 salt,address maker,address signer,uint256 tokenId,uint256 makerAmount,uint256 takerAmount,\
             uint8 side,uint8 signatureType,uint256 timestamp,bytes32 metadata,bytes32 builder)"
        );
        assert_eq!(
            v1::Order::eip712_encode_type(),
            "Order(uint256 salt,address maker,address signer,address taker,uint256 tokenId,uint256 makerAmount,\
             uint256 takerAmount,uint256 expiration,uint256 nonce,uint256 feeRateBps,uint8 side,uint8 signatureType)"
        );
        assert_eq!(
            ClobAuth::eip712_encode_type(),
            "ClobAuth(address address,string timestamp,uint256 nonce,string message)"
        );
    }

    /// py-clob-client-v2 `tests/order_utils/test_exchange_order_builder_v2.py`: its expected POLY_1271 signature
    /// wraps (ERC-7739) the Amoy V2 exchange's domain separator and the order's struct hash, which are read here.
    #[test]
    fn the_v2_domain_separator_and_struct_hash_match_the_upstream_vector() {
        let exchange = Exchanges::published(80002, Version::V2).unwrap().exchange;
        assert_eq!(
            exchange_domain(Version::V2, 80002, exchange).separator(),
            b256!("a440cbd865bc0c6243d7a8df9a8bf48a8827b0a4abbb61c30e96d305423af148")
        );
        let wallet = address!("0x1111111111111111111111111111111111111111");
        let order = v2::Order {
            salt: U256::from(479_249_096_354u64),
            maker: wallet,
            signer: wallet,
            tokenId: U256::from(1234),
            makerAmount: U256::from(100_000_000),
            takerAmount: U256::from(50_000_000),
            side: 0,
            signatureType: 3,
            timestamp: U256::from(1_710_000_000_000u64),
            metadata: B256::ZERO,
            builder: B256::ZERO,
        };
        assert_eq!(
            order.eip712_hash_struct(),
            b256!("d23d42d3ad94e65d78258cecaf8dcbaddac0f73dc085040f2c12bb595dd83804")
        );
        assert_eq!(keccak256(v2::Order::eip712_encode_type().as_bytes()), order.eip712_type_hash());
    }

    /// clob-client-v2 `tests/order-utils/exchangeOrderBuilderV1.test.ts` and py-clob-client-v2
    /// `tests/order_utils/test_exchange_order_builder_v1.py`: the V1 order hash on Amoy's exchange and neg-risk
    /// exchange.
    #[test]
    fn the_v1_hashes_match_the_upstream_vectors() {
        let me = address!("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
        let order = v1::Order {
            salt: U256::from(479_249_096_354u64),
            maker: me,
            signer: me,
            taker: Address::ZERO,
            tokenId: U256::from(1234),
            makerAmount: U256::from(100_000_000),
            takerAmount: U256::from(50_000_000),
            expiration: U256::ZERO,
            nonce: U256::ZERO,
            feeRateBps: U256::from(100),
            side: 0,
            signatureType: 0,
        };
        let exchanges = Exchanges::published(80002, Version::V1).unwrap();
        let hash = |exchange| order.eip712_signing_hash(&exchange_domain(Version::V1, 80002, exchange));
        assert_eq!(hash(exchanges.exchange), b256!("02ca1d1aa31103804173ad1acd70066cb6c1258a4be6dada055111f9a7ea4e55"));
        assert_eq!(hash(exchanges.neg_risk), b256!("f15790d3edc4b5aed427b0b543a9206fcf4b1a13dfed016d33bfb313076263b8"));
        // Their signatures with the development key (RFC 6979, as ethers and eth-account sign), and the signer
        // recovered from each.
        let key = k256::ecdsa::SigningKey::from_slice(&alloy_primitives::hex!(
            "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
        ))
        .unwrap();
        for (exchange, signature) in [
            (
                exchanges.exchange,
                "0x302cd9abd0b5fcaa202a344437ec0b6660da984e24ae9ad915a592a90facf5a51bb8a873cd8d270f070217fea1986531d5eec66f1162a81f66e026db653bf7ce1c",
            ),
            (
                exchanges.neg_risk,
                "0x1b3646ef347e5bd144c65bd3357ba19c12c12abaeedae733cf8579bc51a2752c0454c3bc6b236957e393637982c769b8dc0706c0f5c399983d933850afd1cbcd1c",
            ),
        ] {
            let signature = super::super::ecdsa::parse_signature(signature).unwrap();
            assert_eq!(super::super::ecdsa::sign(&key, &hash(exchange)), Some(signature));
            assert_eq!(super::super::ecdsa::recover(&hash(exchange), &signature), Some(me));
        }
    }
}
