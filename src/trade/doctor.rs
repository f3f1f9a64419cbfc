//! The account doctor (`diagnoseAccount`): what an owner's account is, which signature type and funder its
//! orders need, whether the client's API key is the signer's, and what the service sees of its collateral,
//! each problem a finding with the one fix. It sends no order: a state machine that asks for what it needs
//! (the wallet provider's `eth_chainId` and `eth_getCode`, the service's balance reads) and decides from the
//! answers, run as a task ([`Examination`]: the balance reads are its calls, read in Rust).
//!
//! A deposit wallet's signature form: deployed deposit wallets that take only their owner's plain signature of
//! the order's digest, and refuse the ERC-7739 form the upstream clients send, are reported by a production
//! user who asked the wallet with `eth_call isValidSignature(bytes32,bytes)` (ERC-1271: `0x1626ba7e` when
//! valid; Polymarket/py-clob-client-v2 issue 70). So for an account that trades through its deposit wallet
//! (POLY_1271, the wallet deployed, a provider to ask) the doctor asks the owner to sign a test order (every
//! amount, the token, the salt and the time zero: nothing it could ever fill, and never sent) in the ERC-7739
//! form, asks the wallet whether it takes it, and if not, the same for the plain form. The form it takes is
//! what the client signs its orders in from then on.
//!
//! The owner's wallets, by CREATE2 (the upstream clients):
//! - Safe and proxy: Polymarket/rs-clob-client-v2 `src/lib.rs` (`derive_safe_wallet`, `derive_proxy_wallet`,
//!   WALLET_CONFIG from builder-relayer-client): the Safe factory on 137 and 80002, salted with the owner as a
//!   word; the proxy factory on 137 only ("Proxy factory unsupported on Amoy testnet"), salted with its 20 bytes.
//! - The deposit wallet: Polymarket/ts-sdk `packages/client/src/wallet.ts` and `environments.ts`: a beacon
//!   clone of the factory whose immutable args are the factory and the owner as a word, salted with their
//!   keccak. The factory's address is a vanity CREATE2 deployment, the same wherever it is deployed; no
//!   upstream source names another chain's, so it is used on every chain, and `eth_getCode` says whether the
//!   wallet is there.
//!
//! What the service says of an owner: a balance read for signature type 3 answers "no deposit wallet found for
//! owner" when the owner has none (Polymarket/py-clob-client-v2 issue 104); new accounts trade only through
//! their deposit wallet (docs.polymarket.com "Wallets and Authentication": every account wallet deployed on or
//! after May 4, 2026 is one), and their other makers are refused (`DEPOSIT_WALLET_REQUIRED`).

use super::eip712::{decode_hex, hex, keccak, parse_signature, Address, Domain, U256};
use super::order::{domain, Exchanges, Order, SignatureType, Version};
use super::settings::TradingSettings;
use crate::api::call::{CallLimits, Expect};
use crate::api::Params;
use crate::error::Error;
use crate::json::JsonWriter;
use crate::json::Value;
use crate::task::{Got, Machine, Need, Said, Step};

/// How long the wallet provider may take to answer a read (no person approves it).
pub const PROVIDER_TIMEOUT_MS: u32 = 30_000;

const SAFE_FACTORY: &str = "0xaacFeEa03eb1561C4e67d661e40682Bd20E3541b";
const SAFE_INIT_CODE_HASH: &str = "2bce2127ff07fb632d16c8347c4ebf501f4841168bed00d9e6ef715ddb6fcecf";
const PROXY_FACTORY_137: &str = "0xaB45c5A4B0c941a2F231C04C3f49182e1A254052";
const PROXY_INIT_CODE_HASH: &str = "d21df8dc65880a8606f09fe0ce3df9b8869287ab0b058be05aa9e8af6330a00b";
const DEPOSIT_FACTORY: &str = "0x00000000000Fb5C9ADea0298D729A0CB3823Cc07";
const DEPOSIT_BEACON: &str = "0x7A18EDfe055488A3128f01F563e5B479D92ffc3a";
/// Solady's ERC-1967 beacon proxy with 64 bytes of immutable args (ts-sdk `wallet.ts`: the beacon init code,
/// its length word for 64-byte args): before the beacon's address, then after it.
const BEACON_HEAD: &str = "6100923d8160233d3973";
const BEACON_TAIL: &str = "60195155f3363d3d373d3d363d602036600436635c60da1b60e01b36527fa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50545afa5036515af43d6000803e604d573d6000fd5b3d6000f3";

fn bytes(hex: &str) -> Vec<u8> {
    decode_hex(hex).unwrap_or_default()
}

fn word(hex: &str) -> [u8; 32] {
    bytes(hex).try_into().unwrap_or([0; 32])
}

fn known(address: &str) -> Address {
    Address::parse("wallet", address).unwrap_or(Address::ZERO)
}

fn padded(address: &Address) -> [u8; 32] {
    let mut w = [0; 32];
    for (to, from) in w.iter_mut().skip(12).zip(address.0) {
        *to = from;
    }
    w
}

/// `keccak(0xff ‖ factory ‖ salt ‖ init code hash)`, its last 20 bytes.
pub fn create2(factory: &Address, salt: &[u8; 32], init_code_hash: &[u8; 32]) -> Address {
    let mut data = Vec::with_capacity(85);
    data.push(0xff);
    data.extend_from_slice(&factory.0);
    data.extend_from_slice(salt);
    data.extend_from_slice(init_code_hash);
    let hash = keccak(&data);
    let mut out = [0; 20];
    for (to, from) in out.iter_mut().zip(hash.iter().skip(12)) {
        *to = *from;
    }
    Address(out)
}

/// The wallets an owner has on a chain (whether deployed or not): its proxy where the chain has proxy
/// wallets, its Safe, its deposit wallet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wallets {
    pub proxy: Option<Address>,
    pub safe: Option<Address>,
    pub deposit: Address,
}

impl Wallets {
    pub fn of(chain_id: u64, owner: &Address) -> Self {
        let safe = matches!(chain_id, 137 | 80002)
            .then(|| create2(&known(SAFE_FACTORY), &keccak(&padded(owner)), &word(SAFE_INIT_CODE_HASH)));
        let proxy = (chain_id == 137)
            .then(|| create2(&known(PROXY_FACTORY_137), &keccak(&owner.0), &word(PROXY_INIT_CODE_HASH)));
        let factory = known(DEPOSIT_FACTORY);
        let mut args = padded(&factory).to_vec();
        args.extend_from_slice(&padded(owner));
        let mut init = bytes(BEACON_HEAD);
        init.extend_from_slice(&known(DEPOSIT_BEACON).0);
        init.extend_from_slice(&bytes(BEACON_TAIL));
        init.extend_from_slice(&args);
        Self { proxy, safe, deposit: create2(&factory, &keccak(&args), &keccak(&init)) }
    }

    /// The owner's wallet of a signature type (the owner itself for EOA); None where the chain has none.
    pub fn of_type(&self, owner: Address, t: SignatureType) -> Option<Address> {
        match t {
            SignatureType::Eoa => Some(owner),
            SignatureType::PolyProxy => self.proxy,
            SignatureType::PolyGnosisSafe => self.safe,
            SignatureType::Poly1271 => Some(self.deposit),
        }
    }
}

/// What the doctor needs next.
#[derive(Clone, Debug, PartialEq)]
pub enum Ask {
    /// Ask the wallet provider (EIP-1193 `request`): the method and its params as JSON.
    Rpc { method: &'static str, params: String },
    /// Read the collateral balance and allowances the service sees for a signature type.
    Balance(SignatureType),
    /// Ask the signer to sign this typed data (JSON): the test order of a deposit wallet's form.
    Sign(String),
    /// The diagnosis, as JSON (`AccountDiagnosis` in trade.d.ts).
    Done(String),
}

/// Whether a failed question ends the examination instead of leaving its answer unknown: the call's own end
/// (its signal), or a balance read that timed out or found no network (the service cannot be reached: every
/// finding after it would be a guess). A provider's or a signer's failure, or the service's refusal, is an
/// unknown, and the examination goes on.
pub fn ends_examination(balance_read: bool, code: &str) -> bool {
    code == "ABORTED" || (balance_read && matches!(code, "TIMEOUT" | "NETWORK"))
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Asked {
    Chain,
    Code(usize),
    Balance(SignatureType),
    Sign,
    Valid,
}

/// `isValidSignature(bytes32,bytes)`'s selector, and what a wallet answers for a valid signature (ERC-1271).
const ERC1271_MAGIC: &str = "1626ba7e";

/// A deposit wallet's test of the two signature forms: the ERC-7739 form, then the plain one.
#[derive(Clone, Debug)]
struct Probe {
    wallet: Address,
    domain: Domain,
    /// What each form tried got from the wallet, in order: Some(taken), None when it could not be told
    /// (the signer or the provider failed), which ends the test.
    tried: Vec<Option<bool>>,
    /// The owner's signature of the form being tried, until the wallet is asked.
    signature: Option<String>,
}

impl Probe {
    /// The test order in the form being tried.
    fn order(&self) -> Order {
        Order {
            version: Version::V2,
            salt: 0,
            maker: self.wallet,
            signer: self.wallet,
            token_id: U256::default(),
            maker_amount: 0,
            taker_amount: 0,
            side: crate::book::Side::Buy,
            signature_type: SignatureType::Poly1271,
            expiration: 0,
            taker: Address::ZERO,
            nonce: U256::default(),
            fee_rate_bps: 0,
            timestamp_ms: 0,
            metadata: [0; 32],
            builder: [0; 32],
            wrapped: self.tried.is_empty(),
        }
    }

    /// The form the wallet takes: Some(true) ERC-7739, Some(false) plain; None when neither was seen.
    fn wrapped(&self) -> Option<bool> {
        match self.tried.as_slice() {
            [Some(true), ..] => Some(true),
            [_, Some(true)] => Some(false),
            _ => None,
        }
    }

    fn need(&self) -> Option<(Ask, Asked)> {
        if !matches!(self.tried.as_slice(), [] | [Some(false)]) {
            return None;
        }
        let order = self.order();
        let Some(signature) = &self.signature else {
            return Some((Ask::Sign(order.typed_data_to_sign(&self.domain)), Asked::Sign));
        };
        // eth_call of isValidSignature(hash, signature): the ABI's head (the hash, the bytes' offset), then the
        // bytes' length and the bytes, padded to a whole word.
        let full = order.wrapped_signature(&self.domain, signature);
        let mut bytes = full.get(2..).and_then(decode_hex).unwrap_or_default();
        let mut data = order.hash(&self.domain).to_vec();
        data.extend_from_slice(&U256::from_u64(64).0);
        data.extend_from_slice(&U256::from_u64(bytes.len() as u64).0);
        bytes.resize(bytes.len().div_ceil(32) * 32, 0);
        data.append(&mut bytes);
        let params = crate::text::concat(&[
            "[{\"to\":\"",
            &self.wallet.checksummed(),
            "\",\"data\":\"0x",
            ERC1271_MAGIC,
            &hex(&data),
            "\"},\"latest\"]",
        ]);
        Some((Ask::Rpc { method: "eth_call", params }, Asked::Valid))
    }

    fn supply(&mut self, asked: Asked, answer: Option<&Value>) {
        match (asked, answer) {
            (Asked::Sign, Some(Value::Str(text))) => match parse_signature(text) {
                Ok(signature) => self.signature = Some(signature),
                Err(_) => self.tried.push(None),
            },
            (Asked::Valid, Some(Value::Str(text))) => {
                // The ABI-encoded `bytes4`: one word, the magic value for a valid signature. Anything else is
                // no answer (unknown), not a refusal.
                let word =
                    text.strip_prefix("0x").filter(|w| w.len() == 64 && w.bytes().all(|b| b.is_ascii_hexdigit()));
                self.tried.push(word.map(|w| w.get(..8).is_some_and(|m| m.eq_ignore_ascii_case(ERC1271_MAGIC))));
                self.signature = None;
            }
            _ => self.tried.push(None),
        }
    }
}

/// A balance read's outcome.
#[derive(Clone, Debug, PartialEq)]
enum Seen {
    Held {
        balance: String,
        allowances: Vec<(String, String)>,
    },
    Refused {
        status: Option<u16>,
        body: String,
    },
    /// The answer was not a balance (or the read failed on the way).
    Unknown,
}

/// One account's examination (`diagnoseAccount`).
#[derive(Clone, Debug)]
pub struct Doctor {
    chain_id: u64,
    owner: Address,
    signature_type: SignatureType,
    funder: Option<Address>,
    /// The address of the client's API key; None without credentials.
    key: Option<Address>,
    provider: bool,
    wallets: Wallets,
    /// The addresses whose code is asked, and what was learnt: Some(true) code, Some(false) none, None unknown.
    probes: Vec<(Address, Option<bool>)>,
    asked_codes: usize,
    chain: Option<Option<u64>>,
    reads: Vec<SignatureType>,
    seen: Vec<(SignatureType, Seen)>,
    asked: Option<Asked>,
    /// The deposit wallet to test, until its code is known (then the test, if it is deployed).
    wallet: Option<(Address, Domain)>,
    probe: Option<Probe>,
}

impl Doctor {
    /// The examination of `owner`'s account under the client's `settings`, with the API key of `key` (the
    /// credentials' address) and a wallet provider when `provider`.
    pub fn new(settings: &TradingSettings, owner: Address, key: Option<Address>, provider: bool) -> Self {
        let wallets = Wallets::of(settings.chain_id, &owner);
        let mut probes = Vec::new();
        if provider {
            let candidates = [Some(wallets.deposit), wallets.safe, wallets.proxy, settings.funder];
            for address in candidates.into_iter().flatten() {
                if address != owner && !probes.iter().any(|(a, _)| *a == address) {
                    probes.push((address, None));
                }
            }
        }
        // The service is asked only with the signer's own key (another's would read another account): for the
        // signature type orders will use, and whether it knows a deposit wallet of the owner.
        let mut reads = Vec::new();
        if key == Some(owner) {
            reads.push(settings.signature_type);
            if settings.signature_type != SignatureType::Poly1271 {
                reads.push(SignatureType::Poly1271);
            }
        }
        // A deposit-wallet account's orders are signed in the form its wallet takes: asked of the wallet.
        let wallet = match (provider, settings.signature_type, settings.funder) {
            (true, SignatureType::Poly1271, Some(funder)) => settings
                .exchanges
                .or_else(|| Exchanges::known(settings.chain_id, Version::V2))
                .map(|e| (funder, domain(Version::V2, settings.chain_id, e.exchange))),
            _ => None,
        };
        Self {
            wallet,
            probe: None,
            chain_id: settings.chain_id,
            owner,
            signature_type: settings.signature_type,
            funder: settings.funder,
            key,
            provider,
            wallets,
            probes,
            asked_codes: 0,
            chain: None,
            reads,
            seen: Vec::new(),
            asked: None,
        }
    }

    /// What came back for the last need.
    pub fn hear(&mut self, heard: Heard) {
        // The provider gave up on a question (it did not answer in time): it is not asked again.
        let late = matches!(heard, Heard::Said(Said::Late));
        let said = match &heard {
            Heard::Said(Said::Answer(answer)) => Some(answer),
            _ => None,
        };
        match self.asked.take() {
            Some(Asked::Chain) => {
                self.chain = Some(said.and_then(chain_id));
                // The wallet on another chain: its code says nothing of this one's wallets.
                if matches!(self.chain, Some(Some(c)) if c != self.chain_id) || late {
                    self.asked_codes = self.probes.len();
                }
            }
            Some(Asked::Code(i)) => {
                if let Some((_, code)) = self.probes.get_mut(i) {
                    *code = said.and_then(has_code);
                }
                if late {
                    self.asked_codes = self.probes.len();
                }
            }
            Some(Asked::Balance(t)) => self.seen.push((
                t,
                match heard {
                    Heard::Read(Some(Holding { balance, allowances })) => Seen::Held { balance, allowances },
                    Heard::Failed(e) if e.status.is_some() => {
                        Seen::Refused { status: e.status, body: e.body.unwrap_or_default().chars().take(512).collect() }
                    }
                    _ => Seen::Unknown,
                },
            )),
            Some(asked @ (Asked::Sign | Asked::Valid)) => {
                if let Some(probe) = self.probe.as_mut() {
                    probe.supply(asked, said);
                }
            }
            None => {}
        }
    }

    pub fn need(&mut self) -> Ask {
        if self.provider && self.chain.is_none() && self.asked.is_none() {
            self.asked = Some(Asked::Chain);
            return Ask::Rpc { method: "eth_chainId", params: "[]".into() };
        }
        if let Some((address, _)) = self.probes.get(self.asked_codes) {
            let params = crate::text::concat(&["[\"", &address.checksummed(), "\",\"latest\"]"]);
            self.asked = Some(Asked::Code(self.asked_codes));
            self.asked_codes += 1;
            return Ask::Rpc { method: "eth_getCode", params };
        }
        // The wallet's code is known now: deployed, it is asked which form it takes.
        if let Some((wallet, domain)) = self.wallet.take() {
            if self.code_of(Some(wallet)) == Some(true) {
                self.probe = Some(Probe { wallet, domain, tried: Vec::new(), signature: None });
            }
        }
        if let Some((need, asked)) = self.probe.as_ref().and_then(Probe::need) {
            self.asked = Some(asked);
            return need;
        }
        if let Some(t) = self.reads.get(self.seen.len()).copied() {
            self.asked = Some(Asked::Balance(t));
            return Ask::Balance(t);
        }
        Ask::Done(self.diagnosis().to_json(self))
    }

    /// The deposit wallet the test found to take its owner's plain signature, and whether the test told
    /// the form (Some(None): the ERC-7739 one); None when it did not.
    pub fn deposit_form(&self) -> Option<Option<Address>> {
        let probe = self.probe.as_ref()?;
        Some((!probe.wrapped()?).then_some(probe.wallet))
    }

    fn code_of(&self, address: Option<Address>) -> Option<bool> {
        let address = address?;
        self.probes.iter().find(|(a, _)| *a == address).and_then(|(_, code)| *code)
    }

    fn seen_for(&self, t: SignatureType) -> Option<&Seen> {
        self.seen.iter().find(|(s, _)| *s == t).map(|(_, seen)| seen)
    }

    /// Whether the service knows a deposit wallet of the owner: a balance for type 3, or its refusal's words.
    fn service_deposit(&self) -> Option<bool> {
        match self.seen_for(SignatureType::Poly1271)? {
            Seen::Held { .. } => Some(true),
            Seen::Refused { body, .. } if no_deposit_wallet(body) => Some(false),
            _ => None,
        }
    }

    /// The account's kind, from the chain's code and the service's word; None when neither could tell.
    fn kind(&self) -> Option<SignatureType> {
        let deposit = self.code_of(Some(self.wallets.deposit));
        if deposit == Some(true) || self.service_deposit() == Some(true) {
            return Some(SignatureType::Poly1271);
        }
        if self.code_of(self.wallets.safe) == Some(true) {
            return Some(SignatureType::PolyGnosisSafe);
        }
        if self.code_of(self.wallets.proxy) == Some(true) {
            return Some(SignatureType::PolyProxy);
        }
        // No wallet has code (the provider answered for the deposit wallet at least): the owner trades itself.
        (deposit == Some(false)).then_some(SignatureType::Eoa)
    }

    fn diagnosis(&self) -> Diagnosis {
        let mut findings = Vec::new();
        let kind = self.kind();
        if let Some(Some(chain)) = self.chain {
            if chain != self.chain_id {
                findings.push(Found::ChainMismatch(chain));
            }
        }
        let configured = self.wallets.of_type(self.owner, self.signature_type);
        let funder = self.funder.unwrap_or(self.owner);
        if self.signature_type != SignatureType::Eoa && configured != Some(funder) {
            let other =
                [SignatureType::Eoa, SignatureType::PolyProxy, SignatureType::PolyGnosisSafe, SignatureType::Poly1271]
                    .into_iter()
                    .find(|t| self.wallets.of_type(self.owner, *t) == Some(funder));
            findings.push(match other {
                Some(t) => Found::WrongSignatureType(t),
                None => Found::FunderNotOwned(configured),
            });
        }
        if kind == Some(SignatureType::Poly1271) && self.signature_type != SignatureType::Poly1271 {
            findings.push(Found::DepositWalletRequired(self.wallets.deposit));
        }
        if self.signature_type == SignatureType::Poly1271 && self.service_deposit() == Some(false) {
            findings.push(Found::NoDepositWallet(kind));
        }
        // The wallet orders will be made by (or the account's deposit wallet) has no code yet.
        let misnamed = !findings.is_empty() && !matches!(findings.as_slice(), [Found::ChainMismatch(_)]);
        let needed = if kind == Some(SignatureType::Poly1271) {
            Some(self.wallets.deposit)
        } else if misnamed {
            None
        } else {
            configured
        };
        if let Some(wallet) = needed.filter(|w| *w != self.owner) {
            if self.code_of(Some(wallet)) == Some(false)
                && !findings.iter().any(|f| matches!(f, Found::NoDepositWallet(_)))
            {
                findings.push(Found::WalletNotDeployed(wallet));
            }
        }
        if let Some(probe) = &self.probe {
            if probe.tried == [Some(false), Some(false)] {
                findings.push(Found::SignatureRefused(probe.wallet));
            }
        }
        match self.key {
            None => findings.push(Found::NoApiKey),
            Some(key) if key != self.owner => findings.push(Found::KeyNotForSigner(key)),
            Some(_) => {}
        }
        let mut collateral = None;
        match self.seen_for(self.signature_type) {
            Some(Seen::Refused { status: Some(401 | 403), .. }) => findings.push(Found::KeyRejected),
            Some(Seen::Held { balance, allowances }) => {
                // Settings that name the wrong wallet read another's balance: their finding is the one fix.
                let settings_wrong = findings.iter().any(|f| {
                    matches!(
                        f,
                        Found::WrongSignatureType(_)
                            | Found::FunderNotOwned(_)
                            | Found::DepositWalletRequired(_)
                            | Found::NoDepositWallet(_)
                    )
                });
                if !settings_wrong && balance.bytes().all(|b| b == b'0') {
                    let elsewhere = kind.filter(|k| *k != self.signature_type).and_then(|k| {
                        let wallet = self.wallets.of_type(self.owner, k)?;
                        Some((k, wallet))
                    });
                    findings.push(Found::NoBalance(funder, elsewhere));
                }
                // Funds in another of the owner's wallets: moving to it is the fix, not this one's approvals.
                let moved = findings.iter().any(|f| matches!(f, Found::NoBalance(_, Some(_))));
                if !settings_wrong && !moved && !allowances.iter().any(|(_, a)| a.bytes().any(|b| b != b'0')) {
                    findings.push(Found::NoAllowance(funder));
                }
                collateral = Some((balance.clone(), allowances.clone()));
            }
            _ => {}
        }
        let recommended = match kind {
            Some(k) => (k, self.wallets.of_type(self.owner, k)),
            None => (self.signature_type, self.funder),
        };
        Diagnosis { kind, recommended, findings, collateral }
    }
}

/// A provider that did not answer in time: it is not asked again (each question would wait as long).
fn chain_id(answer: &Value) -> Option<u64> {
    let Value::Str(text) = answer else { return None };
    let digits = text.strip_prefix("0x")?;
    if digits.is_empty() || digits.len() > 15 {
        return None;
    }
    digits.bytes().try_fold(0_u64, |n, b| Some(n << 4 | u64::from(char::from(b).to_digit(16)?)))
}

/// An `eth_getCode` answer: `0x` (no code) or hex bytes.
fn has_code(answer: &Value) -> Option<bool> {
    let Value::Str(text) = answer else { return None };
    let digits = text.strip_prefix("0x")?;
    if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    Some(!digits.is_empty())
}

/// Decimal digits, as the service writes base units (at most 78: a uint256).
fn units(text: &str) -> Option<String> {
    (!text.is_empty() && text.len() <= 78 && text.bytes().all(|b| b.is_ascii_digit())).then(|| text.to_owned())
}

/// What the service sees of an account's collateral: its balance and the exchanges' allowances (base units).
#[derive(Clone, Debug, PartialEq)]
pub struct Holding {
    balance: String,
    allowances: Vec<(String, String)>,
}

/// A balance read's answer, `{ balance, allowances: { spender: amount } }` (at most 16 allowances; one that is not
/// base units is left out); None when it is not one.
pub fn read_holding(body: &[u8]) -> Option<Holding> {
    let answer = Value::parse(body).ok()?;
    let balance = match answer.field("balance")? {
        Value::Str(text) => units(text)?,
        _ => return None,
    };
    let allowances = match answer.field("allowances") {
        Some(Value::Object(list)) => list
            .iter()
            .filter_map(|(spender, amount)| match amount {
                Value::Str(text) => Some((spender.clone(), units(text)?)),
                _ => None,
            })
            .take(16)
            .collect(),
        _ => Vec::new(),
    };
    Some(Holding { balance, allowances })
}

/// What came back for a doctor's need.
#[derive(Debug)]
pub enum Heard {
    /// What the provider or the signer said.
    Said(Said),
    /// A balance read's answer (None: not a balance).
    Read(Option<Holding>),
    /// A balance read that failed.
    Failed(Error),
}

/// An examination as a task (`crate::task`): the provider's and the signer's questions are the driver's, the
/// balance reads are calls of `api::balance_allowance`, read by `read` into the owner's product, from which `held`
/// takes the holding.
pub struct Examination<P> {
    pub doctor: Doctor,
    read: Expect<P>,
    held: fn(P) -> Option<Holding>,
    /// The limits of each balance read (the call's).
    limits: CallLimits,
    /// How long the signer may take (`signTimeoutMs`).
    sign_ms: f64,
}

impl<P> Examination<P> {
    pub fn new(
        doctor: Doctor,
        read: Expect<P>,
        held: fn(P) -> Option<Holding>,
        limits: CallLimits,
        sign_ms: f64,
    ) -> Self {
        Examination { doctor, read, held, limits, sign_ms }
    }
}

impl<P> Machine<P> for Examination<P> {
    fn step(&mut self, got: Got<P>, _now: f64) -> Step<P> {
        match got {
            Got::Go => {}
            Got::Said(said) => self.doctor.hear(Heard::Said(said)),
            Got::Heard(_) => return Step::Do(Need::Fail(crate::task::not_followed())),
            Got::Answer { product, .. } => self.doctor.hear(Heard::Read(product.and_then(self.held))),
            // A service out of reach ends the examination with that failure.
            Got::Failed(e) if ends_examination(true, e.code.as_str()) => return Step::Do(Need::Fail(e)),
            Got::Failed(e) => self.doctor.hear(Heard::Failed(e)),
            // The call's own end ends the examination.
            Got::Abort { error, .. } => return Step::Do(Need::Fail(crate::task::abort_error(error))),
        }
        Step::Do(match self.doctor.need() {
            Ask::Rpc { method, params } => Need::Rpc { method, params, ms: Some(f64::from(PROVIDER_TIMEOUT_MS)) },
            Ask::Sign(typed) => Need::Sign { typed, ms: Some(self.sign_ms).filter(|ms| ms.is_finite()) },
            Ask::Balance(t) => {
                let params = Params(vec![
                    ("asset_type".into(), Value::Str("COLLATERAL".into())),
                    ("signature_type".into(), Value::Number(f64::from(t as u8))),
                ]);
                match crate::api::balance_allowance(&params) {
                    Ok(request) => return Step::Call { request, expect: self.read, limits: self.limits },
                    Err(e) => Need::Fail(e),
                }
            }
            Ask::Done(diagnosis) => Need::Done(diagnosis),
        })
    }
}

/// The service's words for an owner without a deposit wallet (py-clob-client-v2 issue 104), as the refusals'
/// findings read them.
fn no_deposit_wallet(text: &str) -> bool {
    crate::api::response::account_finding(text).is_some_and(|f| f.code == "NO_DEPOSIT_WALLET")
}

/// One problem found.
#[derive(Clone, Debug, PartialEq)]
enum Found {
    ChainMismatch(u64),
    WrongSignatureType(SignatureType),
    FunderNotOwned(Option<Address>),
    DepositWalletRequired(Address),
    NoDepositWallet(Option<SignatureType>),
    WalletNotDeployed(Address),
    NoApiKey,
    KeyNotForSigner(Address),
    KeyRejected,
    NoBalance(Address, Option<(SignatureType, Address)>),
    NoAllowance(Address),
    SignatureRefused(Address),
}

pub fn type_name(t: SignatureType) -> &'static str {
    match t {
        SignatureType::Eoa => "EOA",
        SignatureType::PolyProxy => "POLY_PROXY",
        SignatureType::PolyGnosisSafe => "POLY_GNOSIS_SAFE",
        SignatureType::Poly1271 => "POLY_1271",
    }
}

fn wallet_name(t: SignatureType) -> &'static str {
    match t {
        SignatureType::Eoa => "own address",
        SignatureType::PolyProxy => "proxy wallet",
        SignatureType::PolyGnosisSafe => "Safe",
        SignatureType::Poly1271 => "deposit wallet",
    }
}

/// "set signatureType "T" and funder to A" (no funder for EOA).
fn settings_text(t: SignatureType, wallet: Option<Address>) -> String {
    match (t, wallet) {
        (SignatureType::Eoa, _) | (_, None) => crate::text::concat(&[
            "set signatureType \"",
            type_name(t),
            "\"",
            if t == SignatureType::Eoa { " without a funder" } else { "" },
        ]),
        (_, Some(w)) => {
            crate::text::concat(&["set signatureType \"", type_name(t), "\" and funder to ", &w.checksummed()])
        }
    }
}

impl Found {
    /// `(code, message, fix)`.
    fn text(&self, d: &Doctor) -> (&'static str, String, String) {
        let chain = crate::trade::decimal(d.chain_id);
        match self {
            Self::ChainMismatch(c) => (
                "CHAIN_MISMATCH",
                crate::text::concat(&["the wallet is on chain ", &crate::trade::decimal(*c), ", the client signs for chain ", &chain]),
                crate::text::concat(&["switch the wallet to chain ", &chain, ", or create the client with chainId ", &crate::trade::decimal(*c)]),
            ),
            Self::WrongSignatureType(t) => (
                "WRONG_SIGNATURE_TYPE",
                crate::text::concat(&["the funder is the signer's ", wallet_name(*t), ", not a wallet of signature type ", type_name(d.signature_type)]),
                settings_text(*t, d.wallets.of_type(d.owner, *t).filter(|_| *t != SignatureType::Eoa)),
            ),
            Self::FunderNotOwned(expected) => (
                "FUNDER_NOT_OWNED",
                match expected {
                    Some(_) => crate::text::concat(&["the funder is no wallet of the signer: its ", wallet_name(d.signature_type), " is elsewhere"]),
                    None => crate::text::concat(&["chain ", &chain, " has no ", wallet_name(d.signature_type), "s"]),
                },
                match expected {
                    Some(w) => crate::text::concat(&["set funder to ", &w.checksummed(), ", or sign with the wallet that owns the funder"]),
                    None => "use the signature type of the account's wallet on this chain".into(),
                },
            ),
            Self::DepositWalletRequired(w) => (
                "DEPOSIT_WALLET_REQUIRED",
                "this account trades through its deposit wallet: the service refuses its other makers".into(),
                settings_text(SignatureType::Poly1271, Some(*w)),
            ),
            Self::NoDepositWallet(kind) => (
                "NO_DEPOSIT_WALLET",
                "the service knows no deposit wallet of this signer".into(),
                match kind {
                    Some(k) => settings_text(*k, d.wallets.of_type(d.owner, *k).filter(|_| *k != SignatureType::Eoa)),
                    None => "use the signature type and funder of the account's wallet (its proxy, Safe or own address)".into(),
                },
            ),
            Self::WalletNotDeployed(w) => (
                "WALLET_NOT_DEPLOYED",
                crate::text::concat(&["the wallet ", &w.checksummed(), " has no code on chain ", &chain, " yet: the service refuses orders it makes"]),
                "deploy the wallet first (a first deposit on the service's website does), then place orders".into(),
            ),
            Self::NoApiKey => (
                "NO_API_KEY",
                "the client holds no API key".into(),
                "call createOrDeriveApiKey(signer): the signer's own address holds the key, for every kind of wallet".into(),
            ),
            Self::KeyNotForSigner(key) => (
                "KEY_NOT_FOR_SIGNER",
                crate::text::concat(&["the client's API key is ", &key.checksummed(), "'s, not the signer's"]),
                "call createOrDeriveApiKey(signer) with the wallet that signs the orders (the owner, for proxy, Safe and deposit wallets)".into(),
            ),
            Self::KeyRejected => (
                "KEY_REJECTED",
                "the service does not take the client's API key".into(),
                "derive it again with createOrDeriveApiKey(signer)".into(),
            ),
            Self::NoBalance(funder, elsewhere) => (
                "NO_BALANCE",
                crate::text::concat(&["the service sees no collateral at ", &funder.checksummed()]),
                match elsewhere {
                    Some((k, w)) => crate::text::concat(&["the account's funds are in its ", wallet_name(*k), ": ", &settings_text(*k, Some(*w).filter(|_| *k != SignatureType::Eoa))]),
                    None => crate::text::concat(&["deposit collateral to ", &funder.checksummed()]),
                },
            ),
            Self::SignatureRefused(w) => (
                "SIGNATURE_REFUSED",
                crate::text::concat(&["the deposit wallet ", &w.checksummed(), " takes neither form of the signer's signature (ERC-7739, plain)"]),
                "sign with the owner the deposit wallet was made for".into(),
            ),
            Self::NoAllowance(funder) => (
                "NO_ALLOWANCE",
                "the exchanges may not spend the collateral".into(),
                crate::text::concat(&["approve the exchange contracts to spend the collateral of ", &funder.checksummed(), ", then call updateBalanceAllowance"]),
            ),
        }
    }
}

struct Diagnosis {
    kind: Option<SignatureType>,
    recommended: (SignatureType, Option<Address>),
    findings: Vec<Found>,
    collateral: Option<(String, Vec<(String, String)>)>,
}

impl Diagnosis {
    fn to_json(&self, d: &Doctor) -> String {
        let mut w = JsonWriter::object();
        w.field_str("owner", &d.owner.checksummed());
        w.field_raw("chainId", &crate::trade::decimal(d.chain_id));
        if let Some(Some(chain)) = d.chain {
            w.field_raw("walletChainId", &crate::trade::decimal(chain));
        }
        if let Some(kind) = self.kind {
            w.field_str("kind", type_name(kind));
        }
        let (t, funder) = self.recommended;
        w.field_str("signatureType", type_name(t));
        if let Some(f) = funder.filter(|_| t != SignatureType::Eoa) {
            w.field_str("funder", &f.checksummed());
        }
        if let Some(wrapped) = d.probe.as_ref().and_then(Probe::wrapped) {
            w.field_str("depositSignature", if wrapped { "ERC7739" } else { "PLAIN" });
        }
        w.key("wallets");
        w.object_start();
        for (name, address) in
            [("proxy", d.wallets.proxy), ("safe", d.wallets.safe), ("depositWallet", Some(d.wallets.deposit))]
        {
            let Some(address) = address else { continue };
            w.key(name);
            w.object_start();
            w.field_str("address", &address.checksummed());
            if let Some(code) = d.code_of(Some(address)) {
                w.field_raw("deployed", if code { "true" } else { "false" });
            }
            w.object_end();
        }
        w.object_end();
        if let Some(key) = d.key {
            w.key("apiKey");
            w.object_start();
            w.field_str("address", &key.checksummed());
            w.field_raw("forSigner", if key == d.owner { "true" } else { "false" });
            w.object_end();
        }
        if let Some((balance, allowances)) = &self.collateral {
            w.key("collateral");
            w.object_start();
            w.field_str("balance", balance);
            w.key("allowances");
            w.object_start();
            for (spender, amount) in allowances {
                w.field_str(spender, amount);
            }
            w.object_end();
            w.object_end();
        }
        w.key("findings");
        w.array_start();
        for f in &self.findings {
            let (code, message, fix) = f.text(d);
            w.object_start();
            w.field_str("code", code);
            w.field_str("message", &message);
            w.field_str("fix", &fix);
            w.object_end();
        }
        w.array_end();
        w.field_raw("ok", if self.findings.is_empty() { "true" } else { "false" });
        w.finish()
    }
}

#[cfg(test)]
#[path = "doctor_tests.rs"]
mod tests;
