//! The EIP-712 digest of an `eth_signTypedData_v4` document, computed generically from its `types`, `domain`,
//! `primaryType` and `message` by alloy's `TypedData`, as a wallet does: the development wallet signs whatever
//! well-formed document it is given, so a client's typed data and its own hash are checked against each other, not
//! against a copy. The domain's type is the fields it has, in the standard order.

use alloy_dyn_abi::TypedData;
use alloy_primitives::B256;
use serde_json::Value;

/// The digest a wallet signs: keccak(0x1901 ‖ hashStruct(EIP712Domain, domain) ‖ hashStruct(primaryType, message)).
pub fn digest(doc: &Value) -> Result<B256, String> {
    if doc.get("primaryType").and_then(Value::as_str) == Some("EIP712Domain") {
        return Err("primaryType must not be EIP712Domain".into());
    }
    let typed: TypedData = serde_json::from_value(doc.clone()).map_err(|e| e.to_string())?;
    typed.eip712_signing_hash().map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trading::eip712::{self, Exchanges, Version};
    use crate::trading::order::{Order, Side, SignatureType};
    use alloy_primitives::{address, Address, U256};
    use serde_json::json;

    /// The documents the service's clients hand a wallet (ethers/viem shapes: chainId a number, integers as decimal
    /// text or numbers, bytes32 as hex) digest to the emulator's own hashes.
    #[test]
    fn the_services_typed_data_digests_to_the_emulators_hashes() {
        let me = address!("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
        let auth = json!({
            "types": {
                "EIP712Domain": [{"name": "name", "type": "string"}, {"name": "version", "type": "string"},
                                 {"name": "chainId", "type": "uint256"}],
                "ClobAuth": [{"name": "address", "type": "address"}, {"name": "timestamp", "type": "string"},
                             {"name": "nonce", "type": "uint256"}, {"name": "message", "type": "string"}],
            },
            "primaryType": "ClobAuth",
            "domain": {"name": "ClobAuthDomain", "version": "1", "chainId": 80002},
            "message": {"address": me, "timestamp": "1700000000", "nonce": 7, "message": eip712::CLOB_AUTH_MESSAGE},
        });
        assert_eq!(digest(&auth).unwrap(), eip712::clob_auth_digest(80002, me, "1700000000", U256::from(7)));
        // As a JSON string too (EIP-1193 passes it so).
        assert_eq!(digest(&Value::String(auth.to_string())).unwrap(), digest(&auth).unwrap());

        let order = |version| Order {
            version,
            salt: 12345,
            maker: me,
            signer: me,
            token_id: U256::from_str_radix(
                "71321045679252212594626385532706912750332728571942532289631379312455583992563",
                10,
            )
            .unwrap(),
            maker_amount: 5_000_000,
            taker_amount: 10_000_000,
            side: Side::Buy,
            signature_type: SignatureType::Eoa,
            expiration: 0,
            taker: Address::ZERO,
            nonce: U256::ZERO,
            fee_rate_bps: 0,
            timestamp_ms: 1_700_000_000_000,
            metadata: B256::ZERO,
            builder: B256::repeat_byte(3),
        };
        let exchange = Exchanges::published(80002, Version::V2).unwrap().neg_risk;
        let v2 = json!({
            "types": {
                "Order": [{"name": "salt", "type": "uint256"}, {"name": "maker", "type": "address"},
                          {"name": "signer", "type": "address"}, {"name": "tokenId", "type": "uint256"},
                          {"name": "makerAmount", "type": "uint256"}, {"name": "takerAmount", "type": "uint256"},
                          {"name": "side", "type": "uint8"}, {"name": "signatureType", "type": "uint8"},
                          {"name": "timestamp", "type": "uint256"}, {"name": "metadata", "type": "bytes32"},
                          {"name": "builder", "type": "bytes32"}],
            },
            "primaryType": "Order",
            "domain": {"name": "Polymarket CTF Exchange", "version": "2", "chainId": 80002, "verifyingContract": exchange},
            "message": {
                "salt": 12345, "maker": me, "signer": me,
                "tokenId": "71321045679252212594626385532706912750332728571942532289631379312455583992563",
                "makerAmount": "5000000", "takerAmount": "10000000", "side": 0, "signatureType": 0,
                "timestamp": "1700000000000", "metadata": B256::ZERO, "builder": B256::repeat_byte(3),
            },
        });
        assert_eq!(digest(&v2).unwrap(), order(Version::V2).hash(80002, exchange));
    }

    /// EIP-712's own example (Mail, with nested Person structs).
    #[test]
    fn the_eip712_example_mail() {
        let doc = json!({
            "types": {
                "EIP712Domain": [{"name": "name", "type": "string"}, {"name": "version", "type": "string"},
                                 {"name": "chainId", "type": "uint256"}, {"name": "verifyingContract", "type": "address"}],
                "Person": [{"name": "name", "type": "string"}, {"name": "wallet", "type": "address"}],
                "Mail": [{"name": "from", "type": "Person"}, {"name": "to", "type": "Person"}, {"name": "contents", "type": "string"}]
            },
            "primaryType": "Mail",
            "domain": {"name": "Ether Mail", "version": "1", "chainId": 1, "verifyingContract": "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC"},
            "message": {
                "from": {"name": "Cow", "wallet": "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"},
                "to": {"name": "Bob", "wallet": "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB"},
                "contents": "Hello, Bob!"
            }
        });
        assert_eq!(
            hex::encode(digest(&doc).unwrap()),
            "be609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2"
        );
        let mut bad = doc.clone();
        bad["message"]["contents"] = Value::from(3);
        assert!(digest(&bad).is_err());
        let mut unknown = doc.clone();
        unknown["types"]["Mail"][2]["type"] = Value::from("Letter");
        assert!(digest(&unknown).is_err());
        let mut domain = doc;
        domain["primaryType"] = Value::from("EIP712Domain");
        assert!(digest(&domain).is_err());
        assert!(digest(&json!({"types": {}})).is_err());
    }
}
