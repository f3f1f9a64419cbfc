//! The client against the emulator, which shares no code with it (alloy and k256 for EIP-712 and signatures, the
//! service's own refusal texts for the amount rules): thousands of orders built and signed by the library's pure
//! core, at every tick size, side, order type, order version and signature type, must be read by the emulator, have
//! their signer recovered from the order and its signature alone, and pass the emulator's amount rules; and for
//! every amount rule the emulator enforces, the client refuses an order that breaks it before anything is signed.
//! The library never holds keys: the test signs the digests with k256, as a wallet would.

#![cfg(not(target_arch = "wasm32"))]

use k256::ecdsa::SigningKey;
use predictkit::book::{OrderType, Side};
use predictkit::trade::amounts::{self, Amounts, MarketRules};
use predictkit::trade::draft::Draft;
use predictkit::trade::eip712::{hex0x, keccak, Address, U256};
use predictkit::trade::keys::ClobAuth;
use predictkit::trade::order::{domain, order_body, Exchanges, Placement, SignatureType, Version};
use predictkit_emulator::trading::order::{self as emu_order, OrderType as EmuOrderType, Side as EmuSide};
use predictkit_emulator::trading::precision::{self, Refusal, Rules};
use predictkit_emulator::trading::{ecdsa as emu_ecdsa, eip712 as emu_eip712, typed_data, Version as EmuVersion};
use serde_json::Value;

const ONE: u64 = 1_000_000;
/// The tick sizes the service uses (units): the four of the upstream table's powers of ten, and 0.005 and 0.0025.
const TICKS: [u64; 6] = [100_000, 10_000, 1_000, 100, 5_000, 2_500];
const TYPES: [OrderType; 4] = [OrderType::Gtc, OrderType::Gtd, OrderType::Fok, OrderType::Fak];
const ORDERS: usize = 4_000;
const NOW_S: u64 = 1_760_000_000;

/// SplitMix64: a seeded, reproducible stream of numbers.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

fn key(rng: &mut Rng) -> SigningKey {
    loop {
        let mut bytes = [0u8; 32];
        for chunk in bytes.chunks_mut(8) {
            chunk.copy_from_slice(&rng.next().to_be_bytes());
        }
        if let Ok(key) = SigningKey::from_slice(&bytes) {
            return key;
        }
    }
}

/// The address of a key: keccak of its public point (the library's keccak; the emulator recovers with alloy's).
fn address_of(key: &SigningKey) -> Address {
    let point = key.verifying_key().to_encoded_point(false);
    Address(keccak(&point.as_bytes()[1..])[12..].try_into().unwrap())
}

/// A wallet's signature: r ‖ s ‖ v, v = 27 + recovery id.
fn sign(key: &SigningKey, digest: &[u8; 32]) -> String {
    let (sig, id) = key.sign_prehash_recoverable(digest).unwrap();
    let mut out = sig.to_bytes().to_vec();
    out.push(27 + id.to_byte());
    hex0x(&out)
}

fn taking(t: OrderType) -> bool {
    matches!(t, OrderType::Fok | OrderType::Fak)
}

fn emu_side(side: Side) -> EmuSide {
    match side {
        Side::Buy => EmuSide::Buy,
        Side::Sell => EmuSide::Sell,
    }
}

fn emu_type(t: OrderType) -> EmuOrderType {
    match t {
        OrderType::Gtc => EmuOrderType::Gtc,
        OrderType::Gtd => EmuOrderType::Gtd,
        OrderType::Fok => EmuOrderType::Fok,
        OrderType::Fak => EmuOrderType::Fak,
    }
}

fn emu_version(v: Version) -> EmuVersion {
    match v {
        Version::V1 => EmuVersion::V1,
        Version::V2 => EmuVersion::V2,
        Version::V3 => EmuVersion::V3,
    }
}

/// What became of one order the client was asked to build.
#[derive(Default)]
struct Tally {
    tried: usize,
    accepted: usize,
    /// Refused by the client before signing, by its reason.
    refused: std::collections::BTreeMap<String, usize>,
    /// Client-built orders the emulator refused (must stay empty), with what it said.
    emulator_refused: Vec<String>,
    /// Kinds of orders accepted: (order type, version, signature type, market-style) seen.
    kinds: std::collections::BTreeSet<(String, u8, u8, bool)>,
}

#[test]
fn every_order_the_client_builds_is_one_the_emulator_takes() {
    let mut rng = Rng(0x5eed_0024);
    let keys: Vec<SigningKey> = (0..8).map(|_| key(&mut rng)).collect();
    let mut tally = Tally::default();
    for i in 0..ORDERS {
        tally.tried += 1;
        let tick = rng.pick(&TICKS);
        let side = rng.pick(&[Side::Buy, Side::Sell]);
        let order_type = rng.pick(&TYPES);
        let version = rng.pick(&[Version::V1, Version::V2]);
        let signature_type = rng.pick(&[SignatureType::Eoa, SignatureType::PolyProxy, SignatureType::PolyGnosisSafe]);
        let chain = rng.pick(&[137u64, 80002]);
        let neg_risk = rng.below(2) == 0;
        let min_size = rng.pick(&[0, 5 * ONE, 15 * ONE]);
        let rules = MarketRules { tick, min_size, neg_risk };
        let price = (1 + rng.below(ONE / tick - 1)) * tick;
        // Sizes and amounts in hundredths, from small to large; a FOK/FAK order is a market order (amount) or
        // limit-priced (size) in turn.
        let hundredths = match rng.below(3) {
            0 => 1 + rng.below(1_000),
            1 => 1 + rng.below(100_000),
            _ => 1 + rng.below(10_000_000),
        };
        let market_style = taking(order_type) && rng.below(2) == 0;
        let built = if market_style {
            amounts::market(&rules, order_type, side, price, hundredths * 10_000)
        } else {
            amounts::limit(&rules, order_type, side, price, hundredths * 10_000)
        };
        let a = match built {
            Ok(a) => a,
            Err(e) => {
                let reason = e.message.split(';').next().unwrap_or_default().to_owned();
                *tally.refused.entry(reason).or_default() += 1;
                continue;
            }
        };
        let signer_key = &keys[rng.below(keys.len() as u64) as usize];
        let signer = address_of(signer_key);
        let funder = address_of(&keys[(i + 1) % keys.len()]);
        let maker = match signature_type {
            SignatureType::Eoa => signer,
            _ if funder == signer => address_of(&keys[(i + 2) % keys.len()]),
            _ => funder,
        };
        let exchanges = Exchanges::known(chain, version).unwrap();
        let draft = Draft {
            version,
            chain_id: chain,
            exchange: exchanges.for_market(neg_risk),
            token_id: U256::from_u64(rng.next()).to_decimal() + &rng.below(1_000_000_000).to_string(),
            side,
            amounts: a,
            expiration: if order_type == OrderType::Gtd { NOW_S + 3_600 } else { 0 },
            fee_rate_bps: rng.pick(&[0, 100]),
            order_type,
            post_only: !taking(order_type) && rng.below(4) == 0,
        };
        let order = draft
            .order(signer, maker, signature_type, rng.next(), NOW_S * 1000 + rng.below(1000))
            .expect("a draft of a valid token id makes an order");
        let digest = order.hash(&domain(version, chain, draft.exchange));
        let signature = sign(signer_key, &digest);
        let body = order_body(
            &Placement { order: &order, signature: &signature, order_type, post_only: draft.post_only },
            "00000000-0000-4000-8000-000000000000",
        );
        let why = |what: &str| {
            format!("{what}: tick {tick} {side:?} {order_type:?} {version:?} {signature_type:?} chain {chain} neg_risk {neg_risk} maker {} taker {}", a.maker, a.taker)
        };

        // The emulator reads the body the client wrote...
        let item: Value = serde_json::from_str(&body).expect("the client writes JSON");
        let submitted = match emu_order::parse(&item, emu_version(version)) {
            Ok(s) => s,
            Err(e) => {
                tally.emulator_refused.push(why(&format!("body refused ({e:?})")));
                continue;
            }
        };
        assert_eq!(submitted.order_type, emu_type(order_type));
        assert_eq!(submitted.order.side, emu_side(side));
        assert_eq!((submitted.order.maker_amount, submitted.order.taker_amount), (a.maker, a.taker));
        assert_eq!(submitted.post_only, draft.post_only);
        // ...hashes it as the client did (alloy against the library's EIP-712)...
        let emu_exchange = emu_order::exchanges(chain, emu_version(version)).for_market(neg_risk);
        assert_eq!(emu_exchange.as_slice(), &draft.exchange.0, "{}", why("exchange"));
        assert_eq!(submitted.order.hash(chain, emu_exchange).0, digest, "{}", why("hash"));
        // ...recovers the signer from the order and the signature alone...
        let recovered = emu_order::recover_signer(&submitted.order, &submitted.signature, chain, neg_risk);
        if recovered.map(|r| r.0 .0) != Some(signer.0) {
            tally.emulator_refused.push(why("signer not recovered"));
            continue;
        }
        assert_eq!(submitted.order.maker.as_slice(), &maker.0);
        // ...and takes its amounts for the order type it is posted as.
        if let Err(refusal) =
            precision::check(Rules { tick, min_size }, emu_side(side), emu_type(order_type), a.maker, a.taker)
        {
            tally.emulator_refused.push(why(&refusal.text("0x…")));
            continue;
        }
        // The document the wallet is shown digests, in the emulator's generic EIP-712 (alloy's TypedData), to the
        // same hash.
        if i % 16 == 0 {
            let doc: Value = serde_json::from_str(&order.typed_data(&domain(version, chain, draft.exchange))).unwrap();
            assert_eq!(typed_data::digest(&doc).unwrap().0, digest, "{}", why("typed data"));
        }
        tally.accepted += 1;
        tally.kinds.insert((
            format!("{order_type:?}"),
            if version == Version::V1 { 1 } else { 2 },
            signature_type as u8,
            market_style,
        ));
    }

    let refused: usize = tally.refused.values().sum();
    eprintln!(
        "order cross-check: {} tried, {} built by the client and accepted by the emulator, {} refused by the client ({:?}), {} client-built orders refused by the emulator",
        tally.tried,
        tally.accepted,
        refused,
        tally.refused,
        tally.emulator_refused.len()
    );
    for example in tally.emulator_refused.iter().take(10) {
        eprintln!("  refused by the emulator: {example}");
    }
    // Every order type, version and signature type was built and accepted, market-style and limit-priced.
    assert_eq!(tally.kinds.len(), 4 * 2 * 3 + 2 * 2 * 3, "{:?}", tally.kinds);
    assert!(tally.accepted > ORDERS / 2, "{} accepted", tally.accepted);
    assert!(
        tally.emulator_refused.is_empty(),
        "{} client-built orders refused by the emulator, e.g. {:?}",
        tally.emulator_refused.len(),
        &tally.emulator_refused[..tally.emulator_refused.len().min(5)]
    );
}

#[test]
fn the_emulator_recovers_the_signer_of_every_api_key_challenge_the_client_makes() {
    let mut rng = Rng(7);
    for _ in 0..200 {
        let key = key(&mut rng);
        let address = address_of(&key);
        let chain = rng.pick(&[137u64, 80002, 31337]);
        let timestamp = (NOW_S + rng.below(1_000_000)).to_string();
        let nonce = rng.below(1 << 40);
        let auth = ClobAuth { chain_id: chain, address, timestamp: timestamp.clone(), nonce: U256::from_u64(nonce) };
        let signature = emu_ecdsa::parse_signature(&sign(&key, &auth.digest())).unwrap();
        let emu_address = emu_order::parse_address(&address.checksummed()).unwrap();
        let digest = emu_eip712::clob_auth_digest(
            chain,
            emu_address,
            &timestamp,
            emu_order::parse_u256(&nonce.to_string()).unwrap(),
        );
        assert_eq!(digest.0, auth.digest());
        assert_eq!(emu_ecdsa::recover(&digest, &signature), Some(emu_address));
        let doc: Value = serde_json::from_str(&auth.typed_data()).unwrap();
        assert_eq!(typed_data::digest(&doc).unwrap(), digest);
    }
}

/// The client's published exchanges are the emulator's (both from the upstream clients' configurations).
#[test]
fn the_exchanges_agree() {
    for chain in [137, 80002] {
        for (version, emu) in [(Version::V1, EmuVersion::V1), (Version::V2, EmuVersion::V2)] {
            let client = Exchanges::known(chain, version).unwrap();
            let emulator = emu_eip712::Exchanges::published(chain, emu).unwrap();
            assert_eq!(
                (emulator.exchange.as_slice(), emulator.neg_risk.as_slice()),
                (&client.exchange.0[..], &client.neg_risk.0[..])
            );
        }
    }
}

/// One rule the emulator enforces: amounts that break it, the emulator's refusal, and the client refusing to build
/// such an order (its parameter).
struct Case {
    rule: &'static str,
    tick: u64,
    min_size: u64,
    order_type: OrderType,
    side: Side,
    /// The amounts such an order would carry.
    amounts: Amounts,
    /// What the client is asked for: a limit order (price, size) or a market order (price, amount).
    ask: Ask,
    client_param: &'static str,
}

enum Ask {
    Limit(u64, u64),
    Market(u64, u64),
}

#[test]
fn every_rule_the_emulator_enforces_the_client_enforces_first() {
    use OrderType::{Fak, Fok, Gtc, Gtd};
    use Side::{Buy, Sell};
    let a = |maker: u64, taker: u64| Amounts { maker, taker };
    let cases = [
        // Resting orders: shares 2 decimals.
        Case {
            rule: "accuracy: a resting order's shares",
            tick: 10_000,
            min_size: 0,
            order_type: Gtc,
            side: Buy,
            amounts: a(5_000_500, 10_001_000),
            ask: Ask::Limit(500_000, 10_001_000),
            client_param: "size",
        },
        // Resting orders: cash at most the tick's decimals (a price off the tick gives more).
        Case {
            rule: "accuracy: a resting order's cash",
            tick: 10_000,
            min_size: 0,
            order_type: Gtd,
            side: Sell,
            amounts: a(10_010_000, 5_055_050),
            ask: Ask::Limit(505_000, 10_010_000),
            client_param: "price",
        },
        Case {
            rule: "tick: a resting order's price on the tick",
            tick: 10_000,
            min_size: 0,
            order_type: Gtc,
            side: Buy,
            amounts: a(5_050_000, 10_000_000),
            ask: Ask::Limit(505_000, 10_000_000),
            client_param: "price",
        },
        Case {
            rule: "price: within [tick, 1 − tick] (resting)",
            tick: 10_000,
            min_size: 0,
            order_type: Gtc,
            side: Sell,
            amounts: a(10_000_000, 10_000_000),
            ask: Ask::Limit(ONE, 10_000_000),
            client_param: "price",
        },
        Case {
            rule: "price: within [tick, 1 − tick] (FOK/FAK)",
            tick: 1_000,
            min_size: 0,
            order_type: Fak,
            side: Buy,
            amounts: a(10_000_000, 10_000_000),
            ask: Ask::Market(ONE, 10_000_000),
            client_param: "price",
        },
        Case {
            rule: "size: a resting order's minimum",
            tick: 10_000,
            min_size: 5 * ONE,
            order_type: Gtc,
            side: Buy,
            amounts: a(2_495_000, 4_990_000),
            ask: Ask::Limit(500_000, 4_990_000),
            client_param: "size",
        },
        Case {
            rule: "zero amounts",
            tick: 10_000,
            min_size: 0,
            order_type: Fok,
            side: Buy,
            amounts: a(0, 0),
            ask: Ask::Market(500_000, 0),
            client_param: "amount",
        },
        // FOK/FAK: maker 2 decimals at every tick (a market buy's cash; a limit-priced buy whose cash has 4).
        Case {
            rule: "accuracy: a FOK/FAK maker amount (market buy)",
            tick: 100,
            min_size: 0,
            order_type: Fok,
            side: Buy,
            amounts: a(10_001_000, 20_002_000),
            ask: Ask::Market(500_000, 10_001_000),
            client_param: "amount",
        },
        Case {
            rule: "accuracy: a FOK/FAK maker amount (limit-priced buy)",
            tick: 10_000,
            min_size: 0,
            order_type: Fak,
            side: Buy,
            amounts: a(5_105_100, 10_010_000),
            ask: Ask::Limit(510_000, 10_010_000),
            client_param: "size",
        },
        // FOK/FAK: taker 4 decimals at every tick (a limit-priced sell at 0.001 whose cash has 5).
        Case {
            rule: "accuracy: a FOK/FAK taker amount (limit-priced sell)",
            tick: 1_000,
            min_size: 0,
            order_type: Fok,
            side: Sell,
            amounts: a(10_010_000, 5_055_050),
            ask: Ask::Limit(505_000, 10_010_000),
            client_param: "size",
        },
        Case {
            rule: "tick: one the service uses",
            tick: 20_000,
            min_size: 0,
            order_type: Gtc,
            side: Buy,
            amounts: a(5_000_000, 10_000_000),
            ask: Ask::Limit(500_000, 10_000_000),
            client_param: "tickSize",
        },
    ];
    assert!(!cases.is_empty());
    let mut rules_seen = std::collections::HashSet::new();
    for c in &cases {
        let refusal = precision::check(
            Rules { tick: c.tick, min_size: c.min_size },
            emu_side(c.side),
            emu_type(c.order_type),
            c.amounts.maker,
            c.amounts.taker,
        )
        .expect_err(c.rule);
        rules_seen.insert(std::mem::discriminant(&refusal));
        let rules = MarketRules { tick: c.tick, min_size: c.min_size, neg_risk: false };
        let client = match c.ask {
            Ask::Limit(price, size) => amounts::limit(&rules, c.order_type, c.side, price, size),
            Ask::Market(price, amount) => amounts::market(&rules, c.order_type, c.side, price, amount),
        };
        let e = client.expect_err(c.rule);
        assert_eq!(e.param.as_deref(), Some(c.client_param), "{}: the client refused with {:?}", c.rule, e.message);
        eprintln!("{}: emulator {:?}; client: {}", c.rule, refusal.text("0x…"), e.message);
    }
    // Every kind of refusal the emulator has is in the table.
    let all = [
        Refusal::UnknownTick { tick: 0 },
        Refusal::Zero,
        Refusal::Accuracy { order_type: EmuOrderType::Gtc, side: EmuSide::Buy, maker: 0, taker: 0 },
        Refusal::Tick { cash: 0, shares: 0, tick: 0 },
        Refusal::Price { cash: 0, shares: 0, tick: 0 },
        Refusal::Size { shares: 0, min: 0 },
    ];
    let kinds: std::collections::HashSet<_> = all.iter().map(std::mem::discriminant).collect();
    assert_eq!(rules_seen, kinds);
}

/// Issue 24's example: a FAK buy of $9.98 at 0.985 on tick 0.001. Its exact taker amount, 10.131979…, once rounded
/// to the tick's 5 amount decimals (10131970) is refused by the service; cut to 4 (10131900) it is taken.
#[test]
fn a_fak_buy_on_a_fine_tick_is_cut_to_four_decimals() {
    let rules = MarketRules { tick: 1_000, min_size: 5 * ONE, neg_risk: false };
    let built = amounts::market(&rules, OrderType::Fak, Side::Buy, 985_000, 9_980_000).unwrap();
    assert_eq!(built, Amounts { maker: 9_980_000, taker: 10_131_900 });
    let check = |taker| {
        precision::check(Rules { tick: 1_000, min_size: 5 * ONE }, EmuSide::Buy, EmuOrderType::Fak, 9_980_000, taker)
    };
    assert_eq!(check(built.taker), Ok(()));
    assert_eq!(
        check(10_131_970).unwrap_err().text("0x…"),
        "invalid amounts, the market buy orders maker amount supports a max accuracy of 2 decimals, taker amount a max \
         of 4 decimals"
    );
}

/// The account doctor's test of a deposit wallet's signature form, answered by the emulator's model of the wallet
/// (its ERC-1271 `isValidSignature`, decoded with alloy's ABI and checked in Solady's nested form): the test
/// signs what the doctor asks with the owner's key, as the owner's wallet would, and the doctor must find the
/// form each kind of wallet takes, and none for a wallet whose owner is another.
#[test]
fn the_doctor_finds_the_form_each_kind_of_deposit_wallet_takes() {
    use predictkit::api::Value as V;
    use predictkit::task::Said;
    use predictkit::trade::doctor::{Ask, Doctor, Heard, Wallets as LibWallets};
    use predictkit::trade::settings::TradingSettings;
    use predictkit_emulator::trading::wallets::{Kind, Setup, Wallets};
    use predictkit_emulator::trading::{deposit, wallet};

    let (emu_key, emu_owner) = &wallet::accounts()[4];
    let key = SigningKey::from_slice(&emu_key.to_bytes()).unwrap();
    let owner = address_of(&key);
    let stranger = SigningKey::from_slice(&[7u8; 32]).unwrap();
    let wallet_address = Address(deposit::wallet_of(*emu_owner).0 .0);
    assert_eq!(LibWallets::of(137, &owner).deposit, wallet_address, "both derive the same wallet");
    // (the wallet takes the plain form, who signs, what the doctor finds)
    for (plain, signer, found) in [
        (false, &key, Some(None)),
        (true, &key, Some(Some(wallet_address))),
        (false, &stranger, None),
        (true, &stranger, None),
    ] {
        let wallets = Wallets::new(137);
        wallets.set(*emu_owner, Setup { kind: Kind::Deposit, deployed: true, approved: true, plain }).unwrap();
        let settings = TradingSettings {
            chain_id: 137,
            signature_type: SignatureType::Poly1271,
            funder: Some(wallet_address),
            exchanges: None,
            sign_timeout_ms: 1.0,
        };
        let mut d = Doctor::new(&settings, owner, Some(owner), true);
        let (mut signed, mut asked) = (0, 0);
        let json = loop {
            let said = |v: String| Heard::Said(Said::Answer(V::Str(v)));
            let heard = match d.need() {
                Ask::Done(json) => break json,
                Ask::Sign(typed) => {
                    signed += 1;
                    let doc: Value = serde_json::from_str(&typed).unwrap();
                    said(sign(signer, &typed_data::digest(&doc).unwrap().0))
                }
                Ask::Rpc { method: "eth_call", params } => {
                    asked += 1;
                    match wallet::eth_call(&wallets, &serde_json::from_str(&params).unwrap()) {
                        Ok(Value::String(word)) => said(word),
                        other => panic!("{other:?}"),
                    }
                }
                Ask::Rpc { method: "eth_chainId", .. } => said("0x89".into()),
                Ask::Rpc { params, .. } => {
                    let code = params.contains(&wallet_address.checksummed());
                    said(if code { "0x60".into() } else { "0x".into() })
                }
                // (No service here: the balance is unknown.)
                Ask::Balance(_) => Heard::Read(None),
            };
            d.hear(heard);
        };
        assert_eq!(d.deposit_form(), found, "plain {plain}: {json}");
        let expected = match found {
            Some(None) => (1, "\"depositSignature\":\"ERC7739\""),
            Some(Some(_)) => (2, "\"depositSignature\":\"PLAIN\""),
            None => (2, "\"code\":\"SIGNATURE_REFUSED\""),
        };
        assert_eq!((signed, asked), (expected.0, expected.0), "plain {plain}: {json}");
        assert!(json.contains(expected.1), "plain {plain}: {json}");
    }
}
