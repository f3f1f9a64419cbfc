//! The accounts of every kind: which wallet each owner trades through (its own address, its Polymarket proxy, its
//! Gnosis Safe or its deposit wallet) and whether that wallet is deployed, which the development wallet's
//! `eth_getCode` tells, the order checks enforce and the balances follow.
//!
//! Sources (the upstream service and clients, written here with alloy, never from the library's code):
//! - Proxy and Safe addresses: Polymarket/rs-clob-client-v2 `src/lib.rs` (`derive_proxy_wallet`, `derive_safe_wallet`,
//!   WALLET_CONFIG from builder-relayer-client): the Safe factory on 137 and 80002; the proxy factory on 137 only
//!   ("Proxy factory unsupported on Amoy testnet"), so a chain without one has no proxy accounts.
//! - Deposit wallets: [`super::deposit::wallet_of`].
//! - Which accounts trade how: docs.polymarket.com "Wallets and Authentication" (deposit wallets for every account
//!   wallet deployed from May 4, 2026; proxies for Magic Link and Google logins; Safes for external signers).
//! - The service's refusals: "maker address not allowed, please use the deposit wallet flow" for a deposit-wallet
//!   account's other makers (py-clob-client-v2 issues 48, 83, 90); "invalid POLY_PROXY signature" for a POLY_PROXY
//!   order whose maker is not the signer's proxy (issue 104); "invalid signature" for a POLY_GNOSIS_SAFE order whose
//!   maker is not the signer's Safe (rs-clob-client-v2 issue 21, py-clob-client issue 277); "the order signer
//!   address has to be the address of the API KEY" for an undeployed deposit wallet (py-clob-client-v2 issue 64);
//!   "no deposit wallet found for owner" for a type-3 balance read of an owner without one (issue 104).

use std::collections::HashMap;
use std::sync::Mutex;

use alloy_primitives::{address, b256, keccak256, Address, B256};

use crate::sync::lock;

const SAFE_FACTORY: Address = address!("aacFeEa03eb1561C4e67d661e40682Bd20E3541b");
const SAFE_INIT_CODE_HASH: B256 = b256!("2bce2127ff07fb632d16c8347c4ebf501f4841168bed00d9e6ef715ddb6fcecf");
const PROXY_FACTORY_POLYGON: Address = address!("aB45c5A4B0c941a2F231C04C3f49182e1A254052");
const PROXY_INIT_CODE_HASH: B256 = b256!("d21df8dc65880a8606f09fe0ce3df9b8869287ab0b058be05aa9e8af6330a00b");

pub const NOT_DEPOSIT_FLOW: &str = "maker address not allowed, please use the deposit wallet flow";
pub const BAD_PROXY: &str = "invalid POLY_PROXY signature";
pub const BAD_SIGNATURE: &str = "invalid signature";
pub const NO_DEPOSIT_WALLET: &str = "no deposit wallet found for owner";
/// py-clob-client issues 109 and 287, polymarket-cli issue 54: an order the wallet's balance or approvals cannot
/// cover.
pub const NOT_ENOUGH: &str = "not enough balance / allowance";

/// The owner's Polymarket proxy wallet, on a chain that has them.
pub fn proxy_of(chain_id: u64, owner: Address) -> Option<Address> {
    (chain_id == 137).then(|| PROXY_FACTORY_POLYGON.create2(keccak256(owner.as_slice()), PROXY_INIT_CODE_HASH))
}

/// The owner's Gnosis Safe, on a chain that has the factory.
pub fn safe_of(chain_id: u64, owner: Address) -> Option<Address> {
    matches!(chain_id, 137 | 80002).then(|| SAFE_FACTORY.create2(keccak256(owner.into_word()), SAFE_INIT_CODE_HASH))
}

/// What an owner's account trades through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Eoa,
    Proxy,
    Safe,
    Deposit,
}

impl Kind {
    pub fn parse(text: &str) -> Option<Self> {
        Some(match text {
            "EOA" => Self::Eoa,
            "POLY_PROXY" => Self::Proxy,
            "POLY_GNOSIS_SAFE" => Self::Safe,
            "POLY_1271" => Self::Deposit,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Eoa => "EOA",
            Self::Proxy => "POLY_PROXY",
            Self::Safe => "POLY_GNOSIS_SAFE",
            Self::Deposit => "POLY_1271",
        }
    }

    /// The signature type its orders carry (and its balance reads name).
    pub fn signature_type(self) -> u8 {
        match self {
            Self::Eoa => 0,
            Self::Proxy => 1,
            Self::Safe => 2,
            Self::Deposit => 3,
        }
    }
}

/// An owner's account: its kind, and whether its wallet has been deployed (a new deposit-wallet account's wallet
/// exists only as an address until its first use).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    pub kind: Kind,
    pub deployed: bool,
    /// Whether the wallet has let the exchanges spend its collateral (its ERC-20 approvals).
    pub approved: bool,
    /// A deposit wallet that takes its owner's plain signature of an order's digest and refuses the ERC-7739
    /// form (the deployed wallets py-clob-client-v2 issue 70 reports, asked with `isValidSignature`); else it
    /// takes the ERC-7739 form the upstream clients send.
    pub plain: bool,
}

const EOA: Setup = Setup { kind: Kind::Eoa, deployed: true, approved: true, plain: false };

/// Every owner's account: the development wallet's five accounts start as two EOAs, a Safe, a proxy (on a chain
/// with proxies; an EOA elsewhere) and a deposit wallet; anyone else trades as an EOA until told otherwise.
pub struct Wallets {
    chain_id: u64,
    setups: Mutex<HashMap<Address, Setup>>,
}

impl Wallets {
    pub fn new(chain_id: u64) -> Self {
        let wallets = Self { chain_id, setups: Mutex::new(HashMap::new()) };
        wallets.reset();
        wallets
    }

    /// The starting accounts again.
    pub fn reset(&self) {
        let proxy = if proxy_of(self.chain_id, Address::ZERO).is_some() { Kind::Proxy } else { Kind::Eoa };
        let kinds = [Kind::Eoa, Kind::Eoa, Kind::Safe, proxy, Kind::Deposit];
        let mut setups = lock(&self.setups);
        setups.clear();
        for ((_, owner), kind) in super::wallet::accounts().iter().zip(kinds) {
            setups.insert(*owner, Setup { kind, deployed: true, approved: true, plain: false });
        }
    }

    pub fn setup(&self, owner: Address) -> Setup {
        lock(&self.setups).get(&owner).copied().unwrap_or(EOA)
    }

    /// Sets an owner's account; a proxy account on a chain without proxies is refused.
    pub fn set(&self, owner: Address, setup: Setup) -> Result<(), String> {
        if setup.kind == Kind::Proxy && proxy_of(self.chain_id, owner).is_none() {
            return Err(format!("chain {} has no proxy wallets", self.chain_id));
        }
        lock(&self.setups).insert(owner, setup);
        Ok(())
    }

    /// The wallet an owner's account trades through.
    pub fn wallet_of(&self, owner: Address, kind: Kind) -> Option<Address> {
        match kind {
            Kind::Eoa => Some(owner),
            Kind::Proxy => proxy_of(self.chain_id, owner),
            Kind::Safe => safe_of(self.chain_id, owner),
            Kind::Deposit => Some(super::deposit::wallet_of(owner)),
        }
    }

    /// Whether `address` holds a contract: a deployed wallet of some owner's account.
    pub fn has_code(&self, address: Address) -> bool {
        lock(&self.setups)
            .iter()
            .any(|(owner, s)| s.deployed && s.kind != Kind::Eoa && self.wallet_of(*owner, s.kind) == Some(address))
    }

    /// What the deployed deposit wallet `wallet` answers `isValidSignature(hash, signature)` with (ERC-1271): true
    /// (`0x1626ba7e`) when its owner signed `hash` in the form it takes, the plain 65 bytes or the ERC-7739 nested
    /// form; false (`0xffffffff`) otherwise. None when `wallet` is no deployed deposit wallet.
    pub fn accepts(&self, wallet: Address, hash: B256, signature: &[u8]) -> Option<bool> {
        let setups = lock(&self.setups);
        let (owner, setup) = setups
            .iter()
            .find(|(owner, s)| s.kind == Kind::Deposit && s.deployed && super::deposit::wallet_of(**owner) == wallet)?;
        let signer = if setup.plain {
            <[u8; 65]>::try_from(signature).ok().and_then(|s| super::ecdsa::recover(&hash, &s))
        } else {
            super::deposit::parse_wrapped(&format!("0x{}", hex::encode(signature)))
                .and_then(|w| super::deposit::nested_signer(&w, hash, wallet, self.chain_id))
        };
        Some(signer == Some(*owner))
    }

    /// The refusal of an order signed by `owner` (the key's address) with `signature_type` for `maker`, if any:
    /// the account rules, after the signature and the key checks.
    pub fn refusal(&self, owner: Address, signature_type: u8, maker: Address) -> Option<&'static str> {
        let setup = self.setup(owner);
        if setup.kind == Kind::Deposit && signature_type != 3 {
            return Some(NOT_DEPOSIT_FLOW);
        }
        let own = |kind: Kind| setup.kind == kind && setup.deployed && self.wallet_of(owner, kind) == Some(maker);
        match signature_type {
            1 if !own(Kind::Proxy) => Some(BAD_PROXY),
            2 if !own(Kind::Safe) => Some(BAD_SIGNATURE),
            3 if !own(Kind::Deposit) => Some(crate::trading::place::SIGNER_MISMATCH),
            // A wallet that approved nothing, or holds too little, is refused later, with the figures, once the
            // order's amounts are known (`place::funds`).
            _ => None,
        }
    }

    /// Whether a balance read for `signature_type` sees the account's funds (`Ok(true)`), another wallet's
    /// (`Ok(false)`: none of its funds), or is refused (an owner without a deposit wallet, for type 3).
    pub fn holds(&self, owner: Address, signature_type: u8) -> Result<bool, &'static str> {
        let setup = self.setup(owner);
        if signature_type == 3 && setup.kind != Kind::Deposit {
            return Err(NO_DEPOSIT_WALLET);
        }
        Ok(setup.kind.signature_type() == signature_type)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wallets_are_the_upstream_clients_ones() {
        // rs-clob-client-v2 src/lib.rs tests (derive_safe_wallet_polygon, derive_proxy_wallet_polygon, _amoy).
        let owner = address!("f39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
        assert_eq!(safe_of(137, owner), Some(address!("d93b25Cb943D14d0d34FBAf01fc93a0F8b5f6e47")));
        assert_eq!(safe_of(80002, owner), safe_of(137, owner));
        assert_eq!(proxy_of(137, owner), Some(address!("365f0cA36ae1F641E02Fe3b7743673DA42A13a70")));
        assert_eq!(proxy_of(80002, owner), None);
        // ts-sdk wallet.test.ts, signer 0x…01.
        let one = address!("0000000000000000000000000000000000000001");
        assert_eq!(proxy_of(137, one), Some(address!("7754536ecd85c00b2e0cf9c1aa679340d8550756")));
        assert_eq!(safe_of(137, one), Some(address!("766b6851a199bf91ae3fa13b1cfac5187355118f")));
    }

    #[test]
    fn accounts_refuse_the_makers_they_do_not_trade_through() {
        let w = Wallets::new(137);
        let owners: Vec<Address> = super::super::wallet::accounts().iter().map(|(_, a)| *a).collect();
        let (eoa, safe, proxy, deposit) = (owners[0], owners[2], owners[3], owners[4]);
        let safe_wallet = safe_of(137, safe).unwrap();
        let proxy_wallet = proxy_of(137, proxy).unwrap();
        let deposit_wallet = super::super::deposit::wallet_of(deposit);
        let table = [
            (eoa, 0, eoa, None),
            (eoa, 2, safe_of(137, eoa).unwrap(), Some(BAD_SIGNATURE)),
            (safe, 2, safe_wallet, None),
            (safe, 1, safe_wallet, Some(BAD_PROXY)),
            (safe, 0, safe, None),
            (proxy, 1, proxy_wallet, None),
            (proxy, 2, proxy_wallet, Some(BAD_SIGNATURE)),
            (deposit, 3, deposit_wallet, None),
            (deposit, 0, deposit, Some(NOT_DEPOSIT_FLOW)),
            (deposit, 2, safe_of(137, deposit).unwrap(), Some(NOT_DEPOSIT_FLOW)),
            (eoa, 3, super::super::deposit::wallet_of(eoa), Some(crate::trading::place::SIGNER_MISMATCH)),
        ];
        for (owner, t, maker, refusal) in table {
            assert_eq!(w.refusal(owner, t, maker), refusal, "{owner} type {t}");
        }
        assert!(w.has_code(safe_wallet) && w.has_code(proxy_wallet) && w.has_code(deposit_wallet));
        assert!(!w.has_code(eoa) && !w.has_code(safe_of(137, eoa).unwrap()));
        // A deposit wallet not yet deployed: no code, its orders refused as not the key's, the account's others too.
        w.set(deposit, Setup { kind: Kind::Deposit, deployed: false, approved: true, plain: false }).unwrap();
        assert!(!w.has_code(deposit_wallet));
        assert_eq!(w.refusal(deposit, 3, deposit_wallet), Some(crate::trading::place::SIGNER_MISMATCH));
        assert_eq!(w.holds(deposit, 3), Ok(true));
        assert_eq!(w.holds(eoa, 3), Err(NO_DEPOSIT_WALLET));
        assert_eq!((w.holds(safe, 2), w.holds(safe, 0)), (Ok(true), Ok(false)));
        // A wallet that approved nothing: its orders pass these checks (the funds are checked with the amounts).
        w.set(safe, Setup { kind: Kind::Safe, deployed: true, approved: false, plain: false }).unwrap();
        assert_eq!(w.refusal(safe, 2, safe_wallet), None);
        assert_eq!(w.refusal(safe, 0, safe), None);
        // No proxies on Amoy.
        assert!(Wallets::new(80002)
            .set(eoa, Setup { kind: Kind::Proxy, deployed: true, approved: true, plain: false })
            .is_err());
        w.reset();
        assert!(w.has_code(deposit_wallet));
    }

    #[test]
    fn a_deposit_wallet_answers_is_valid_signature_for_the_form_it_takes() {
        let w = Wallets::new(137);
        let (key, owner) = &super::super::wallet::accounts()[4];
        let wallet = super::super::deposit::wallet_of(*owner);
        assert_eq!(w.setup(*owner).kind, Kind::Deposit);
        let hash = keccak256(b"an order's digest");
        let plain = super::super::ecdsa::sign(key, &hash).unwrap();
        // The ERC-7739 kind (the upstream clients' form): the owner's plain 65 bytes are not its form.
        assert_eq!(w.accepts(wallet, hash, &plain), Some(false));
        // The plain kind takes them, for this hash only, from its owner only.
        w.set(*owner, Setup { kind: Kind::Deposit, deployed: true, approved: true, plain: true }).unwrap();
        assert_eq!(w.accepts(wallet, hash, &plain), Some(true));
        assert_eq!(w.accepts(wallet, keccak256(b"another"), &plain), Some(false));
        let other = super::super::ecdsa::sign(&super::super::wallet::accounts()[0].0, &hash).unwrap();
        assert_eq!(w.accepts(wallet, hash, &other), Some(false));
        assert_eq!(w.accepts(wallet, hash, &plain[..64]), Some(false));
        // Not a deposit wallet, or not deployed: no such contract to ask.
        assert_eq!(w.accepts(*owner, hash, &plain), None);
        w.set(*owner, Setup { kind: Kind::Deposit, deployed: false, approved: true, plain: true }).unwrap();
        assert_eq!(w.accepts(wallet, hash, &plain), None);
    }
}
