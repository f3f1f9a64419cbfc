//! The upstream clients' trading vectors: the ClobAuth signature made with the development key over the
//! digest computed here, and the V1 order hash.

use k256::ecdsa::SigningKey;
use predictkit::trade::eip712::{hex0x, Address, U256};
use predictkit::trade::keys::ClobAuth;
use serde_json::Value;

fn vectors() -> Value {
    serde_json::from_str(include_str!("fixtures/vectors/order-signing.json")).unwrap()
}

/// What ethers' `signTypedData` returns for a digest: r ‖ s ‖ v with v = 27 + recovery id.
fn sign(key: &str, digest: &[u8; 32]) -> String {
    let bytes = predictkit::trade::eip712::decode_hex(key.trim_start_matches("0x")).unwrap();
    let key = SigningKey::from_slice(&bytes).unwrap();
    let (sig, recid) = key.sign_prehash_recoverable(digest).unwrap();
    let mut out = sig.to_bytes().to_vec();
    out.push(27 + recid.to_byte());
    hex0x(&out)
}

#[test]
fn clob_auth_signature_matches_the_upstream_vector() {
    let v = &vectors()["clobAuth"];
    let auth = ClobAuth {
        chain_id: v["chainId"].as_u64().unwrap(),
        address: Address::parse("address", v["address"].as_str().unwrap()).unwrap(),
        timestamp: v["timestamp"].as_str().unwrap().to_owned(),
        nonce: U256::parse_decimal(v["nonce"].as_str().unwrap()).unwrap(),
    };
    let key = v["privateKey"].as_str().unwrap();
    assert_eq!(sign(key, &auth.digest()), v["signature"].as_str().unwrap());
    // The key's address is the vector's (the key is the one the vector names).
    let bytes = predictkit::trade::eip712::decode_hex(key.trim_start_matches("0x")).unwrap();
    let public = SigningKey::from_slice(&bytes).unwrap().verifying_key().to_encoded_point(false);
    let hash = predictkit::trade::eip712::keccak(&public.as_bytes()[1..]);
    assert_eq!(Address(hash[12..].try_into().unwrap()).checksummed(), v["address"].as_str().unwrap());
    // Another nonce signs differently.
    let other = ClobAuth { nonce: U256::from_u64(24), ..auth };
    assert_ne!(sign(key, &other.digest()), v["signature"].as_str().unwrap());
}
