//! Deposit wallets (signature type 3, `POLY_1271`): which wallet an owner has, and how its orders are signed.
//!
//! Sources (the upstream public clients), written here with alloy and never from the library's code:
//! - The signature: Polymarket/py-clob-client-v2 `py_clob_client_v2/order_utils/exchange_order_builder_v2.py`
//!   (`_build_poly_1271_order_signature`, commit afa772185b233f90b602e0794e9dbe0e44763d9d) and
//!   Polymarket/clob-client-v2 `src/order-utils/exchangeOrderBuilderV2.ts`: the owner signs an ERC-7739
//!   `TypedDataSign` under the exchange's domain, naming the wallet's own domain (`DepositWallet`, `1`, the chain,
//!   the wallet, a zero salt); the order carries `signature ‖ exchange domain separator ‖ order hash ‖ the order's
//!   type string ‖ its length (2 bytes, big-endian)`.
//! - The wallet of an owner: Polymarket/ts-sdk `packages/client/src/wallet.ts` and `environments.ts` (Polygon's
//!   deposit-wallet factory, a beacon proxy clone whose immutable args are the factory and the owner as a word).
//!   No upstream source names an Amoy factory: the emulator derives every chain's wallets with Polygon's.

use alloy_primitives::{address, keccak256, Address, B256, U256};
use alloy_sol_types::SolStruct;

use super::eip712::exchange_domain;
use super::eip712::v2::Order;
use super::order::Order as Signed;

/// ts-sdk `environments.ts` (chain 137): `depositWalletFactory` and `depositWalletBeacon`.
const FACTORY: Address = address!("00000000000Fb5C9ADea0298D729A0CB3823Cc07");
const BEACON: Address = address!("7A18EDfe055488A3128f01F563e5B479D92ffc3a");

alloy_sol_types::sol! {
    /// ERC-7739 (py-clob-client-v2 `SOLADY_TYPE_STRING`), the contents the V2 order (`eip712::v2::Order`).
    struct TypedDataSign {
        Order contents;
        string name;
        string version;
        uint256 chainId;
        address verifyingContract;
        bytes32 salt;
    }
}

/// The V2 order's type string, which a wrapped signature carries (clob-client-v2 `ORDER_TYPE_STRING`).
pub const ORDER_TYPE: &str = "Order(uint256 salt,address maker,address signer,uint256 tokenId,uint256 makerAmount,uint256 takerAmount,uint8 side,uint8 signatureType,uint256 timestamp,bytes32 metadata,bytes32 builder)";

/// The deposit wallet `owner` has (its address, whether deployed or not): ts-sdk `wallet.ts`, the beacon clone of
/// the factory with `abi.encode(factory, bytes32(owner))` as its immutable args and their keccak as the salt.
pub fn wallet_of(owner: Address) -> Address {
    let mut args = Vec::with_capacity(64);
    args.extend_from_slice(&[0; 12]);
    args.extend_from_slice(FACTORY.as_slice());
    args.extend_from_slice(&[0; 12]);
    args.extend_from_slice(owner.as_slice());
    let head: u128 = 0x6100523d8160233d3973 + ((args.len() as u128) << 56);
    let mut init = Vec::with_capacity(200);
    init.extend_from_slice(&head.to_be_bytes()[6..]);
    init.extend_from_slice(BEACON.as_slice());
    for part in [
        "60195155f3363d3d373d3d363d602036600436635c60da",
        "1b60e01b36527fa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6c",
        "b3582b35133d50545afa5036515af43d6000803e604d573d6000fd5b3d6000f3",
    ] {
        init.extend_from_slice(&hex::decode(part).unwrap_or_default());
    }
    init.extend_from_slice(&args);
    FACTORY.create2(keccak256(&args), keccak256(&init))
}

/// Who signed `hash` for the deposit wallet `wallet` on `chain_id` in the ERC-7739 nested form, as the wallet's
/// ERC-1271 `isValidSignature(hash, signature)` reads it (Solady `src/accounts/ERC1271.sol`, the `TypedDataSign`
/// workflow): the signature carries the app's domain separator, its contents' hash and type string; `hash` must be
/// `keccak256(0x1901 ‖ separator ‖ contents)`, and the inner signature signs the `TypedDataSign` of the contents
/// under the app's domain, naming the wallet's own (`DepositWallet`, `1`, the chain, the wallet, a zero salt).
pub fn nested_signer(wrapped: &Wrapped, hash: B256, wallet: Address, chain_id: u64) -> Option<Address> {
    let mut app = Vec::with_capacity(66);
    app.extend_from_slice(b"\x19\x01");
    app.extend_from_slice(wrapped.domain_separator.as_slice());
    app.extend_from_slice(wrapped.contents_hash.as_slice());
    if keccak256(&app) != hash {
        return None;
    }
    let name_end = wrapped.contents_type.iter().position(|b| *b == b'(')?;
    let mut typ = b"TypedDataSign(".to_vec();
    typ.extend_from_slice(&wrapped.contents_type[..name_end]);
    typ.extend_from_slice(
        b" contents,string name,string version,uint256 chainId,address verifyingContract,bytes32 salt)",
    );
    typ.extend_from_slice(&wrapped.contents_type);
    let mut data = Vec::with_capacity(32 * 7);
    data.extend_from_slice(keccak256(&typ).as_slice());
    data.extend_from_slice(wrapped.contents_hash.as_slice());
    data.extend_from_slice(keccak256(b"DepositWallet").as_slice());
    data.extend_from_slice(keccak256(b"1").as_slice());
    data.extend_from_slice(&U256::from(chain_id).to_be_bytes::<32>());
    data.extend_from_slice(wallet.into_word().as_slice());
    data.extend_from_slice(B256::ZERO.as_slice());
    let mut digest = Vec::with_capacity(66);
    digest.extend_from_slice(b"\x19\x01");
    digest.extend_from_slice(wrapped.domain_separator.as_slice());
    digest.extend_from_slice(keccak256(&data).as_slice());
    super::ecdsa::recover(&keccak256(&digest), &wrapped.inner)
}

/// A wrapped signature's bytes again, whole.
pub fn wrapped_bytes(w: &Wrapped) -> Vec<u8> {
    let mut out = w.inner.to_vec();
    out.extend_from_slice(w.domain_separator.as_slice());
    out.extend_from_slice(w.contents_hash.as_slice());
    out.extend_from_slice(&w.contents_type);
    out.extend_from_slice(&(w.contents_type.len() as u16).to_be_bytes());
    out
}

/// A wrapped signature's parts.
pub struct Wrapped {
    pub inner: [u8; 65],
    pub domain_separator: B256,
    pub contents_hash: B256,
    pub contents_type: Vec<u8>,
}

/// `signature ‖ domain separator ‖ contents hash ‖ contents type ‖ uint16 length`, whole; None otherwise.
pub fn parse_wrapped(text: &str) -> Option<Wrapped> {
    let bytes = hex::decode(text.strip_prefix("0x")?).ok()?;
    let (rest, len) = bytes.split_at_checked(bytes.len().checked_sub(2)?)?;
    let declared = usize::from(u16::from_be_bytes([*len.first()?, *len.get(1)?]));
    let (inner, rest) = rest.split_at_checked(65)?;
    let (separator, rest) = rest.split_at_checked(32)?;
    let (hash, contents_type) = rest.split_at_checked(32)?;
    if contents_type.len() != declared {
        return None;
    }
    let inner: [u8; 65] = inner.try_into().ok()?;
    matches!(inner[64], 0 | 1 | 27 | 28).then(|| Wrapped {
        inner,
        domain_separator: B256::from_slice(separator),
        contents_hash: B256::from_slice(hash),
        contents_type: contents_type.to_vec(),
    })
}

/// Who signed a deposit wallet's V2 `order` for `exchange` on `chain_id`: the owner recovered from the wrapped
/// signature's inner one over the `TypedDataSign` digest, once every part it carries is the order's. None when a
/// part is another's, or nothing recovers.
pub fn recover_owner(order: &Signed, wrapped: &Wrapped, chain_id: u64, exchange: Address) -> Option<Address> {
    let domain = exchange_domain(order.version, chain_id, exchange);
    let contents = order.v2();
    let agrees = wrapped.domain_separator == domain.hash_struct()
        && wrapped.contents_hash == contents.eip712_hash_struct()
        && wrapped.contents_type == ORDER_TYPE.as_bytes();
    if !agrees {
        return None;
    }
    let message = TypedDataSign {
        contents,
        name: "DepositWallet".into(),
        version: "1".into(),
        chainId: U256::from(chain_id),
        verifyingContract: order.signer,
        salt: B256::ZERO,
    };
    super::ecdsa::recover(&message.eip712_signing_hash(&domain), &wrapped.inner)
}

#[cfg(test)]
mod tests {
    use super::super::eip712::Version;
    use super::super::order::Side;
    use super::*;

    #[test]
    fn wallets_derive_as_the_upstream_sdk_derives_them() {
        // ts-sdk `wallet.test.ts`: the signer 0x…01's beacon deposit wallet.
        let owner = address!("0000000000000000000000000000000000000001");
        assert_eq!(wallet_of(owner), address!("94bf330955a0b957662feaf878de77bf25f76cd9"));
    }

    #[test]
    fn the_upstream_wrapped_signature_recovers_its_owner() {
        // py-clob-client-v2 tests/order_utils/test_exchange_order_builder_v2.py (commit afa77218): the anvil #0 key
        // signs for the wallet 0x…1111 on Amoy's V2 exchange.
        let wallet = address!("1111111111111111111111111111111111111111");
        let order = Signed {
            version: Version::V2,
            salt: 479_249_096_354,
            maker: wallet,
            signer: wallet,
            token_id: U256::from(1234),
            maker_amount: 100_000_000,
            taker_amount: 50_000_000,
            side: Side::Buy,
            signature_type: super::super::order::SignatureType::Poly1271,
            expiration: 0,
            taker: Address::ZERO,
            nonce: U256::ZERO,
            fee_rate_bps: 0,
            timestamp_ms: 1_710_000_000_000,
            metadata: B256::ZERO,
            builder: B256::ZERO,
        };
        let text = concat!(
            "0xa3a093c83b6c20c83355c16ce94c92e6e9fcbdeb840618cc74f6c57a42ad145b2b98db73d2c73cbf1f2b6af288566ae81960ddbc3a1392",
            "1027358a8bff3be6ff1ca440cbd865bc0c6243d7a8df9a8bf48a8827b0a4abbb61c30e96d305423af148d23d42d3ad94e65d78258cecaf8",
            "dcbaddac0f73dc085040f2c12bb595dd838044f726465722875696e743235362073616c742c61646472657373206d616b65722c616464726573",
            "73207369676e65722c75696e7432353620746f6b656e49642c75696e74323536206d616b6572416d6f756e742c75696e743235362074616b65",
            "72416d6f756e742c75696e743820736964652c75696e7438207369676e6174757265547970652c75696e743235362074696d657374616d702c",
            "62797465733332206d657461646174612c62797465733332206275696c6465722900ba",
        );
        let wrapped = parse_wrapped(text).unwrap();
        let exchange = address!("E111180000d2663C0091e4f400237545B87B996B");
        let owner = address!("f39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
        assert_eq!(recover_owner(&order, &wrapped, 80002, exchange), Some(owner));
        // The wallet's own check, from the hash alone (what the exchange hands isValidSignature).
        let hash = order.hash(80002, exchange);
        assert_eq!(nested_signer(&wrapped, hash, wallet, 80002), Some(owner));
        assert_eq!(nested_signer(&wrapped, B256::repeat_byte(1), wallet, 80002), None);
        assert_ne!(
            nested_signer(&wrapped, hash, address!("2222222222222222222222222222222222222222"), 80002),
            Some(owner)
        );
        // Any part that is another order's, chain's or exchange's recovers no one.
        assert_eq!(recover_owner(&Signed { maker_amount: 1, ..order.clone() }, &wrapped, 80002, exchange), None);
        assert_eq!(recover_owner(&order, &wrapped, 137, exchange), None);
        assert!(parse_wrapped(&text[..text.len() - 2]).is_none());
        assert!(parse_wrapped(&text[..134]).is_none());
    }

    #[test]
    fn the_contents_type_is_the_v2_order_type() {
        assert_eq!(Order::eip712_encode_type(), ORDER_TYPE);
    }
}
