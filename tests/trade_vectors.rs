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

#[test]
fn a_deposit_wallets_wrapped_signature_matches_the_upstream_vector() {
    use predictkit::book::Side;
    use predictkit::trade::order::{domain, Order, SignatureType, Version, ORDER_TYPE};
    let v = &vectors()["depositWalletV2"];
    let text = |k: &str| v[k].as_str().unwrap();
    let wallet = Address::parse("wallet", text("depositWallet")).unwrap();
    let order = Order {
        version: Version::V2,
        salt: text("salt").parse().unwrap(),
        maker: wallet,
        signer: SignatureType::Poly1271.order_signer(Address::parse("owner", text("owner")).unwrap(), wallet),
        token_id: U256::parse_decimal(text("tokenId")).unwrap(),
        maker_amount: text("makerAmount").parse().unwrap(),
        taker_amount: text("takerAmount").parse().unwrap(),
        side: Side::Buy,
        signature_type: SignatureType::Poly1271,
        expiration: 0,
        taker: Address::ZERO,
        nonce: U256::default(),
        fee_rate_bps: 0,
        timestamp_ms: text("timestamp").parse().unwrap(),
        metadata: [0; 32],
        builder: [0; 32],
        wrapped: true,
    };
    assert_eq!(order.signer, wallet, "a deposit wallet is the order's signer");
    let domain = domain(Version::V2, v["chainId"].as_u64().unwrap(), Address::parse("x", text("exchange")).unwrap());
    // The owner signs the TypedDataSign digest; the exchange takes it wrapped.
    let inner = sign(text("privateKey"), &order.typed_data_sign_digest(&domain));
    let wrapped = order.wrapped_signature(&domain, &inner);
    assert_eq!(wrapped, text("signature"));
    assert_eq!((wrapped.len() - 2) / 2, 65 + 32 + 32 + ORDER_TYPE.len() + 2);
    // What the wallet is shown is that TypedDataSign: the exchange's domain, the order as `contents`,
    // and the deposit wallet's own name, version and address.
    let doc: Value = serde_json::from_str(&order.typed_data_to_sign(&domain)).unwrap();
    assert_eq!(doc["primaryType"], "TypedDataSign");
    assert_eq!(doc["domain"]["name"], "Polymarket CTF Exchange");
    assert_eq!(doc["domain"]["verifyingContract"], text("exchange"));
    assert_eq!(doc["message"]["name"], "DepositWallet");
    assert_eq!(doc["message"]["version"], "1");
    assert_eq!(doc["message"]["verifyingContract"], text("depositWallet"));
    assert_eq!(doc["message"]["salt"], format!("0x{}", "00".repeat(32)));
    assert_eq!(doc["message"]["contents"]["tokenId"], "1234");
    assert_eq!(doc["message"]["contents"]["signatureType"], "3");
    let names: Vec<&str> =
        doc["types"]["TypedDataSign"].as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["contents", "name", "version", "chainId", "verifyingContract", "salt"]);
    assert_eq!(doc["types"]["TypedDataSign"][0]["type"], "Order");
    assert_eq!(doc["types"]["Order"].as_array().unwrap().len(), 11);
    // An EOA's order is signed as itself and its signature is not wrapped.
    let eoa = Order { signature_type: SignatureType::Eoa, wrapped: false, ..order.clone() };
    assert_eq!(eoa.wrapped_signature(&domain, &inner), inner);
    assert_eq!(serde_json::from_str::<Value>(&eoa.typed_data_to_sign(&domain)).unwrap()["primaryType"], "Order");
}
