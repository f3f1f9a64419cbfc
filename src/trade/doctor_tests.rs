use super::*;
use crate::error::ErrorCode;
use crate::json::Value;
use crate::trade::order::SignatureType::{Eoa, Poly1271, PolyGnosisSafe, PolyProxy};

fn addr(text: &str) -> Address {
    Address::parse("a", &text.to_ascii_lowercase()).unwrap()
}

const OWNER: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

#[test]
fn wallets_derive_as_the_upstream_clients_vectors_say() {
    // rs-clob-client-v2 src/lib.rs tests derive_safe_wallet_polygon / derive_proxy_wallet_polygon (its literals are
    // not checksummed), derive_safe_wallet_amoy and derive_proxy_wallet_amoy_not_supported.
    let w = Wallets::of(137, &addr(OWNER));
    assert_eq!(w.safe, Some(addr("0xd93b25Cb943D14d0d34FBAf01fc93a0F8b5f6e47")));
    assert_eq!(w.proxy, Some(addr("0x365f0cA36ae1F641E02Fe3b7743673DA42A13a70")));
    let amoy = Wallets::of(80002, &addr(OWNER));
    assert_eq!((amoy.safe, amoy.proxy), (w.safe, None));
    assert_eq!(Wallets::of(1, &addr(OWNER)).safe, None);
    // ts-sdk packages/client/src/wallet.test.ts, signer 0x…01: the beacon deposit wallet, the proxy and the Safe.
    let one = Wallets::of(137, &addr("0x0000000000000000000000000000000000000001"));
    assert_eq!(one.deposit, addr("0x94bf330955a0b957662feaf878de77bf25f76cd9"));
    assert_eq!(one.proxy, Some(addr("0x7754536ecd85c00b2e0cf9c1aa679340d8550756")));
    assert_eq!(one.safe, Some(addr("0x766b6851a199bf91ae3fa13b1cfac5187355118f")));
}

/// What the provider and the service answer in a scenario.
#[derive(Clone, Copy)]
struct World {
    provider: bool,
    /// The wallet's chain.
    chain: u64,
    /// Which of the owner's wallets have code.
    deployed: &'static [SignatureType],
    /// The service's deposit wallet of the owner (a type-3 read answers a balance).
    service_deposit: bool,
    /// The balance the configured type reads, and whether the exchanges may spend it.
    balance: &'static str,
    allowed: bool,
    /// The service refuses the key (401).
    key_refused: bool,
    /// The forms of the owner's signature the deposit wallet takes: (ERC-7739, plain).
    takes: (bool, bool),
    /// The signer signs (else it fails, as a person who declines does).
    signs: bool,
}

const WORLD: World = World {
    provider: true,
    chain: 137,
    deployed: &[],
    service_deposit: false,
    balance: "10000000",
    allowed: true,
    key_refused: false,
    takes: (true, false),
    signs: true,
};

/// A 65-byte signature, as a signer answers one.
const SIGNATURE: &str = "0x111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111b";

/// The type string of the order, as hex: what an ERC-7739 signature carries and a plain one does not.
fn order_type_hex() -> String {
    crate::trade::eip712::hex(b"Order(uint256 salt,")
}

fn settings(t: SignatureType, funder: Option<Address>) -> TradingSettings {
    TradingSettings { chain_id: 137, signature_type: t, funder, exchanges: None, sign_timeout_ms: 1.0 }
}

impl Doctor {
    /// Tells the doctor an answer as the tests write it: a provider's or a signer's answer as a value (failed:
    /// `{ code }`, TIMEOUT for one that did not answer in time), a balance read's as the JSON the service sends
    /// (read as the call machine reads it), a failed one as `{ code, status, body }`.
    fn supply(&mut self, answer: &Value, failed: bool) {
        let text = |name| match answer.field(name) {
            Some(Value::Str(text)) => text.clone(),
            _ => String::new(),
        };
        let heard = match (matches!(self.asked, Some(Asked::Balance(_))), failed) {
            (true, false) => Heard::Read(read_holding(json_text(answer).as_bytes())),
            (true, true) => {
                let code = match text("code").as_str() {
                    "NETWORK" => ErrorCode::Network,
                    "TIMEOUT" => ErrorCode::Timeout,
                    _ => ErrorCode::Api,
                };
                let mut e = Error::new(code, "failed");
                e.status = match answer.field("status") {
                    Some(Value::Number(n)) if (100.0..600.0).contains(n) && n.fract() == 0.0 => Some(*n as u16),
                    _ => None,
                };
                e.body = Some(text("body"));
                Heard::Failed(e)
            }
            (false, false) => Heard::Said(Said::Answer(answer.clone())),
            (false, true) if text("code") == "TIMEOUT" => Heard::Said(Said::Late),
            (false, true) => Heard::Said(Said::Threw),
        };
        self.hear(heard);
    }
}

/// A value as JSON text.
fn json_text(value: &Value) -> String {
    fn to_serde(value: &Value) -> serde_json::Value {
        match value {
            Value::Str(s) => s.clone().into(),
            Value::Number(n) => (*n).into(),
            Value::Bool(b) => (*b).into(),
            Value::Array(items) => items.iter().map(to_serde).collect(),
            Value::Object(fields) => fields.iter().map(|(k, v)| (k.clone(), to_serde(v))).collect(),
            _ => serde_json::Value::Null,
        }
    }
    to_serde(value).to_string()
}

fn obj(fields: &[(&str, Value)]) -> Value {
    Value::Object(fields.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect())
}

/// Runs a doctor against a world; returns what it asked and its diagnosis (as JSON text).
fn examine(s: &TradingSettings, key: Option<Address>, world: World) -> (Vec<Ask>, String) {
    let owner = addr(OWNER);
    let wallets = Wallets::of(s.chain_id, &owner);
    let mut d = Doctor::new(s, owner, key, world.provider);
    let mut needs = Vec::new();
    for _ in 0..20 {
        let need = d.need();
        let (answer, failed) = match &need {
            Ask::Done(json) => return (needs, json.clone()),
            Ask::Rpc { method: "eth_chainId", .. } => (Value::Str(format!("0x{:x}", world.chain)), false),
            Ask::Sign(_) if !world.signs => (obj(&[("code", Value::Str("SIGNER".into()))]), true),
            Ask::Sign(_) => (Value::Str(SIGNATURE.into()), false),
            Ask::Rpc { method: "eth_call", params } => {
                let wrapped = params.contains(&order_type_hex());
                let taken = if wrapped { world.takes.0 } else { world.takes.1 };
                let word = if taken { "1626ba7e" } else { "ffffffff" };
                (Value::Str(format!("0x{word}{}", "0".repeat(56))), false)
            }
            Ask::Rpc { params, .. } => {
                let code = world
                    .deployed
                    .iter()
                    .any(|t| wallets.of_type(owner, *t).is_some_and(|w| params.contains(&w.checksummed())));
                (Value::Str(if code { "0x6080".into() } else { "0x".into() }), false)
            }
            Ask::Balance(t) => {
                if world.key_refused {
                    (
                        obj(&[
                            ("status", Value::Number(401.0)),
                            ("body", Value::Str("Unauthorized/Invalid api key".into())),
                        ]),
                        true,
                    )
                } else if *t == Poly1271 && !world.service_deposit {
                    (
                        obj(&[
                            ("status", Value::Number(400.0)),
                            ("body", Value::Str("no deposit wallet found for owner".into())),
                        ]),
                        true,
                    )
                } else {
                    let allowance = if world.allowed {
                        "115792089237316195423570985008687907853269984665640564039457584007913129639935"
                    } else {
                        "0"
                    };
                    (
                        obj(&[
                            ("balance", Value::Str(world.balance.into())),
                            (
                                "allowances",
                                obj(&[("0xE111180000d2663C0091e4f400237545B87B996B", Value::Str(allowance.into()))]),
                            ),
                        ]),
                        false,
                    )
                }
            }
        };
        needs.push(need);
        d.supply(&answer, failed);
    }
    panic!("the doctor never finished");
}

fn codes(json: &str) -> Vec<String> {
    json.split("\"code\":\"").skip(1).map(|s| s.split('"').next().unwrap().to_owned()).collect()
}

fn field<'a>(json: &'a str, name: &str) -> Option<&'a str> {
    let at = json.find(&format!("\"{name}\":\""))? + name.len() + 4;
    json.get(at..)?.split('"').next()
}

#[test]
fn each_setup_gets_its_findings_and_the_settings_to_use() {
    let owner = addr(OWNER);
    let w = Wallets::of(137, &owner);
    let (safe, proxy, deposit) = (w.safe.unwrap(), w.proxy.unwrap(), w.deposit);
    let stranger = addr("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    let key = Some(owner);
    #[rustfmt::skip]
    let cases: Vec<(&str, TradingSettings, Option<Address>, World, &[&str], Option<&str>, &str)> = vec![
        // (what, settings, key, world, findings, kind, signatureType to use)
        ("an EOA set up right", settings(Eoa, None), key, WORLD, &[], Some("EOA"), "EOA"),
        ("a Safe set up right", settings(PolyGnosisSafe, Some(safe)), key, World { deployed: &[PolyGnosisSafe], ..WORLD }, &[], Some("POLY_GNOSIS_SAFE"), "POLY_GNOSIS_SAFE"),
        ("a proxy set up right", settings(PolyProxy, Some(proxy)), key, World { deployed: &[PolyProxy], ..WORLD }, &[], Some("POLY_PROXY"), "POLY_PROXY"),
        ("a deposit wallet set up right", settings(Poly1271, Some(deposit)), key, World { deployed: &[Poly1271], service_deposit: true, ..WORLD }, &[], Some("POLY_1271"), "POLY_1271"),
        ("a Safe named as a proxy", settings(PolyProxy, Some(safe)), key, World { deployed: &[PolyGnosisSafe], ..WORLD }, &["WRONG_SIGNATURE_TYPE"], Some("POLY_GNOSIS_SAFE"), "POLY_GNOSIS_SAFE"),
        ("a stranger's wallet as funder", settings(PolyGnosisSafe, Some(stranger)), key, World { deployed: &[PolyGnosisSafe], ..WORLD }, &["FUNDER_NOT_OWNED"], Some("POLY_GNOSIS_SAFE"), "POLY_GNOSIS_SAFE"),
        ("a deposit account signing as its owner", settings(Eoa, None), key, World { deployed: &[Poly1271], service_deposit: true, ..WORLD }, &["DEPOSIT_WALLET_REQUIRED"], Some("POLY_1271"), "POLY_1271"),
        ("a deposit account signing as its Safe", settings(PolyGnosisSafe, Some(safe)), key, World { deployed: &[Poly1271, PolyGnosisSafe], service_deposit: true, ..WORLD }, &["DEPOSIT_WALLET_REQUIRED"], Some("POLY_1271"), "POLY_1271"),
        ("a deposit wallet not deployed", settings(Poly1271, Some(deposit)), key, World { service_deposit: true, ..WORLD }, &["WALLET_NOT_DEPLOYED"], Some("POLY_1271"), "POLY_1271"),
        ("a deposit wallet the service does not know", settings(Poly1271, Some(deposit)), key, World { deployed: &[PolyGnosisSafe], ..WORLD }, &["NO_DEPOSIT_WALLET"], Some("POLY_GNOSIS_SAFE"), "POLY_GNOSIS_SAFE"),
        ("a Safe not deployed", settings(PolyGnosisSafe, Some(safe)), key, WORLD, &["WALLET_NOT_DEPLOYED"], Some("EOA"), "EOA"),
        ("no API key", settings(Eoa, None), None, WORLD, &["NO_API_KEY"], Some("EOA"), "EOA"),
        ("another address's key", settings(Eoa, None), Some(stranger), WORLD, &["KEY_NOT_FOR_SIGNER"], Some("EOA"), "EOA"),
        ("a key the service refuses", settings(Eoa, None), key, World { key_refused: true, ..WORLD }, &["KEY_REJECTED"], Some("EOA"), "EOA"),
        ("no collateral and no allowance", settings(Eoa, None), key, World { balance: "0", allowed: false, ..WORLD }, &["NO_BALANCE", "NO_ALLOWANCE"], Some("EOA"), "EOA"),
        ("a Safe account trading as its owner, whose own address holds nothing", settings(Eoa, None), key, World { deployed: &[PolyGnosisSafe], balance: "0", allowed: false, ..WORLD }, &["NO_BALANCE"], Some("POLY_GNOSIS_SAFE"), "POLY_GNOSIS_SAFE"),
        ("a Safe that approved nothing", settings(PolyGnosisSafe, Some(safe)), key, World { deployed: &[PolyGnosisSafe], allowed: false, ..WORLD }, &["NO_ALLOWANCE"], Some("POLY_GNOSIS_SAFE"), "POLY_GNOSIS_SAFE"),
        ("a deposit account as its owner: the settings are the fix, not the balance", settings(Eoa, None), key, World { deployed: &[Poly1271], service_deposit: true, balance: "0", ..WORLD }, &["DEPOSIT_WALLET_REQUIRED"], Some("POLY_1271"), "POLY_1271"),
        ("the wallet on another chain", settings(Eoa, None), key, World { chain: 80002, ..WORLD }, &["CHAIN_MISMATCH"], None, "EOA"),
        ("a Safe account seen through a wallet on another chain: its code there says nothing", settings(PolyGnosisSafe, Some(safe)), key, World { chain: 1, ..WORLD }, &["CHAIN_MISMATCH"], None, "POLY_GNOSIS_SAFE"),
        ("no provider: the service's word alone", settings(Eoa, None), key, World { provider: false, service_deposit: true, ..WORLD }, &["DEPOSIT_WALLET_REQUIRED"], Some("POLY_1271"), "POLY_1271"),
        ("no provider, no key: nothing seen", settings(PolyGnosisSafe, Some(safe)), None, World { provider: false, ..WORLD }, &["NO_API_KEY"], None, "POLY_GNOSIS_SAFE"),
        ("a deposit wallet that takes only the plain form", settings(Poly1271, Some(deposit)), key, World { deployed: &[Poly1271], service_deposit: true, takes: (false, true), ..WORLD }, &[], Some("POLY_1271"), "POLY_1271"),
        ("a deposit wallet that takes neither form", settings(Poly1271, Some(deposit)), key, World { deployed: &[Poly1271], service_deposit: true, takes: (false, false), ..WORLD }, &["SIGNATURE_REFUSED"], Some("POLY_1271"), "POLY_1271"),
        ("a deposit wallet whose owner declines to sign: nothing told", settings(Poly1271, Some(deposit)), key, World { deployed: &[Poly1271], service_deposit: true, takes: (false, false), signs: false, ..WORLD }, &[], Some("POLY_1271"), "POLY_1271"),
    ];
    for (what, s, key, world, expected, kind, use_type) in cases {
        let (_, json) = examine(&s, key, world);
        assert_eq!(codes(&json), expected, "{what}: {json}");
        assert_eq!(field(&json, "kind"), kind, "{what}: {json}");
        assert_eq!(field(&json, "signatureType"), Some(use_type), "{what}: {json}");
        assert_eq!(json.contains("\"ok\":true"), expected.is_empty(), "{what}");
        // Every finding says its fix.
        assert_eq!(json.matches("\"fix\":\"").count(), expected.len(), "{what}");
        if expected == ["NO_BALANCE"] {
            assert!(
                json.contains(&format!(
                    "its Safe: set signatureType \\\"POLY_GNOSIS_SAFE\\\" and funder to {}",
                    safe.checksummed()
                )),
                "{json}"
            );
        }
    }
}

#[test]
fn it_reads_only_what_it_needs() {
    let owner = addr(OWNER);
    let w = Wallets::of(137, &owner);
    // With a provider and the signer's key: the chain, each wallet's code once, then two balance reads.
    let (needs, json) =
        examine(&settings(PolyGnosisSafe, w.safe), Some(owner), World { deployed: &[PolyGnosisSafe], ..WORLD });
    let methods = asked(&needs);
    assert_eq!(
        methods,
        ["eth_chainId", "eth_getCode", "eth_getCode", "eth_getCode", "balance POLY_GNOSIS_SAFE", "balance POLY_1271"]
    );
    assert!(json.contains(&format!("\"safe\":{{\"address\":\"{}\",\"deployed\":true}}", w.safe.unwrap().checksummed())));
    assert_eq!(
        needs[1],
        Ask::Rpc { method: "eth_getCode", params: format!("[\"{}\",\"latest\"]", w.deposit.checksummed()) }
    );
    // Another address's key reads no balance (it would read another account); no provider asks no chain.
    let stranger = addr("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    let (needs, _) = examine(&settings(Eoa, None), Some(stranger), World { provider: false, ..WORLD });
    assert!(needs.is_empty(), "{needs:?}");
    // A deposit wallet's settings read once: the configured read is the type-3 one.
    let (needs, _) = examine(
        &settings(Poly1271, Some(w.deposit)),
        Some(owner),
        World { provider: false, service_deposit: true, ..WORLD },
    );
    assert_eq!(needs, [Ask::Balance(Poly1271)]);
}

#[test]
fn a_provider_that_does_not_answer_in_time_is_not_asked_again() {
    let owner = addr(OWNER);
    let mut d = Doctor::new(&settings(Eoa, None), owner, None, true);
    assert!(matches!(d.need(), Ask::Rpc { method: "eth_chainId", .. }));
    d.supply(&obj(&[("code", Value::Str("TIMEOUT".into()))]), true);
    assert!(matches!(d.need(), Ask::Done(_)), "no eth_getCode after a timeout");
    // Another failure (a refusal) goes on to the next question.
    let mut d = Doctor::new(&settings(Eoa, None), owner, None, true);
    d.need();
    d.supply(&obj(&[("code", Value::Str("SIGNER".into()))]), true);
    assert!(matches!(d.need(), Ask::Rpc { method: "eth_getCode", .. }));
}

#[test]
fn hostile_answers_are_unknowns_not_findings() {
    let owner = addr(OWNER);
    let s = settings(Eoa, None);
    for answer in [
        Value::Number(1.0),
        Value::Str("0xzz".into()),
        Value::Str("latest".into()),
        Value::Str("0x".to_owned() + &"f".repeat(40)),
        obj(&[("balance", Value::Number(5.0))]),
        obj(&[("status", Value::Str("401".into()))]),
        Value::Array(vec![]),
    ] {
        for failed in [false, true] {
            let mut d = Doctor::new(&s, owner, Some(owner), true);
            let mut rounds = 0;
            let json = loop {
                rounds += 1;
                assert!(rounds < 20);
                match d.need() {
                    Ask::Done(json) => break json,
                    _ => d.supply(&answer, failed),
                }
            };
            // Nothing could be told: no chain, no wallet's deployment (but from hex code), no finding made up.
            let code = !failed && answer == Value::Str("0x".to_owned() + &"f".repeat(40));
            assert_eq!(json.contains("\"deployed\":true"), code, "{answer:?} {failed}: {json}");
            assert!(!json.contains("CHAIN_MISMATCH") && !json.contains("walletChainId"), "{json}");
            assert!(!json.contains("KEY_REJECTED"), "{answer:?} {failed}: {json}");
        }
    }
}

/// The methods a doctor asked for, in order.
fn asked(needs: &[Ask]) -> Vec<String> {
    needs
        .iter()
        .map(|n| match n {
            Ask::Rpc { method, .. } => (*method).to_owned(),
            Ask::Balance(t) => format!("balance {}", type_name(*t)),
            Ask::Sign(_) => "sign".into(),
            Ask::Done(_) => unreachable!(),
        })
        .collect()
}

#[test]
fn a_deposit_wallet_is_asked_which_form_of_signature_it_takes() {
    let owner = addr(OWNER);
    let deposit = Wallets::of(137, &owner).deposit;
    let s = settings(Poly1271, Some(deposit));
    let world = World { deployed: &[Poly1271], service_deposit: true, ..WORLD };
    let probe = |takes: (bool, bool), signs: bool| {
        let (needs, json) = examine(&s, Some(owner), World { takes, signs, ..world });
        (asked(&needs).into_iter().filter(|m| m == "sign" || m == "eth_call").collect::<Vec<_>>(), needs, json)
    };
    // (takes, what it asks, the form the diagnosis names)
    let table: [((bool, bool), &[&str], Option<&str>); 4] = [
        ((true, false), &["sign", "eth_call"], Some("ERC7739")),
        ((true, true), &["sign", "eth_call"], Some("ERC7739")),
        ((false, true), &["sign", "eth_call", "sign", "eth_call"], Some("PLAIN")),
        ((false, false), &["sign", "eth_call", "sign", "eth_call"], None),
    ];
    for (takes, expected, form) in table {
        let (asks, needs, json) = probe(takes, true);
        assert_eq!(asks, expected, "{takes:?}");
        assert_eq!(field(&json, "depositSignature"), form, "{takes:?}: {json}");
        // The ERC-7739 form first (what the upstream clients send), then the owner's plain signature of the order.
        let signs: Vec<&String> =
            needs.iter().filter_map(|n| if let Ask::Sign(t) = n { Some(t) } else { None }).collect();
        assert!(signs[0].contains("\"primaryType\":\"TypedDataSign\""), "{}", signs[0]);
        if let Some(plain) = signs.get(1) {
            assert!(plain.contains("\"primaryType\":\"Order\""), "{plain}");
        }
        // Each eth_call asks the wallet itself, with the test order's digest and the signature in that form.
        for need in &needs {
            if let Ask::Rpc { method: "eth_call", params } = need {
                let to = format!("[{{\"to\":\"{}\",\"data\":\"0x1626ba7e", deposit.checksummed());
                assert!(params.starts_with(&to) && params.ends_with("\"},\"latest\"]"), "{params}");
            }
        }
    }
    // Declined: nothing told, no finding, and no second form asked.
    let (asks, _, json) = probe((false, false), false);
    assert_eq!(asks, ["sign"]);
    assert_eq!(field(&json, "depositSignature"), None);
    // Only a deposit-wallet account with a deployed wallet and a provider is tested.
    for (s, world) in [
        (settings(Poly1271, Some(deposit)), World { deployed: &[], ..world }),
        (settings(Poly1271, Some(deposit)), World { provider: false, ..world }),
        (settings(Eoa, None), world),
    ] {
        let (needs, _) = examine(&s, Some(owner), world);
        assert!(!asked(&needs).iter().any(|m| m == "sign" || m == "eth_call"), "{needs:?}");
    }
}

#[test]
fn the_form_found_is_the_one_the_clients_orders_are_signed_in() {
    let owner = addr(OWNER);
    let deposit = Wallets::of(137, &owner).deposit;
    let run = |takes: (bool, bool)| {
        let mut d = Doctor::new(&settings(Poly1271, Some(deposit)), owner, Some(owner), true);
        let world = World { deployed: &[Poly1271], service_deposit: true, takes, ..WORLD };
        // Drive it as `examine` does, keeping the doctor.
        let wallets = Wallets::of(137, &owner);
        for _ in 0..20 {
            let need = d.need();
            let answer = match &need {
                Ask::Done(_) => break,
                Ask::Rpc { method: "eth_chainId", .. } => Value::Str("0x89".into()),
                Ask::Sign(_) => Value::Str(SIGNATURE.into()),
                Ask::Rpc { method: "eth_call", params } => {
                    let taken = if params.contains(&order_type_hex()) { takes.0 } else { takes.1 };
                    Value::Str(format!("0x{}{}", if taken { "1626ba7e" } else { "ffffffff" }, "0".repeat(56)))
                }
                Ask::Rpc { params, .. } => Value::Str(
                    if params.contains(&wallets.deposit.checksummed()) && world.deployed.contains(&Poly1271) {
                        "0x6080".into()
                    } else {
                        "0x".into()
                    },
                ),
                Ask::Balance(_) => obj(&[("balance", Value::Str("1".into()))]),
            };
            d.supply(&answer, false);
        }
        d.deposit_form()
    };
    assert_eq!(run((true, false)), Some(None));
    assert_eq!(run((false, true)), Some(Some(deposit)));
    assert_eq!(run((false, false)), None);
    // The client's orders for that wallet are signed in it: the plain one's typed data is the order itself.
    let mut learnt = crate::trade::placing::Learnt::default();
    let order = crate::trade::order::tests::vector_order();
    let order = Order { signature_type: Poly1271, maker: deposit, signer: deposit, wrapped: true, ..order };
    assert!(learnt.wraps(&order));
    learnt.plain_wallet = Some(deposit);
    assert!(!learnt.wraps(&order));
    assert!(learnt.wraps(&Order { signer: owner, maker: owner, ..order }));
}

#[test]
fn only_the_calls_own_end_or_a_service_out_of_reach_ends_the_examination() {
    // (a balance read, the failure's code, whether it ends)
    let table = [
        (false, "ABORTED", true),
        (true, "ABORTED", true),
        (true, "TIMEOUT", true),
        (true, "NETWORK", true),
        (false, "TIMEOUT", false),
        (false, "NETWORK", false),
        (false, "SIGNER", false),
        (true, "API", false),
        (true, "UNAUTHORIZED", false),
        (true, "", false),
    ];
    for (balance, code, ends) in table {
        assert_eq!(ends_examination(balance, code), ends, "{balance} {code}");
    }
    // (A balance read the network could not carry ends the examination: as_a_task below.)
    let owner = addr(OWNER);
    // The provider's timeout only makes the wallets unknown.
    let mut d = Doctor::new(&settings(Eoa, None), owner, Some(owner), true);
    assert!(matches!(d.need(), Ask::Rpc { method: "eth_chainId", .. }));
    d.supply(&obj(&[("code", Value::Str("TIMEOUT".into()))]), true);
    assert!(matches!(d.need(), Ask::Balance(_)));
}

#[test]
fn a_deposit_wallets_hostile_answers_are_unknowns_not_findings() {
    let owner = addr(OWNER);
    let deposit = Wallets::of(137, &owner).deposit;
    let s = settings(Poly1271, Some(deposit));
    let valid = Value::Str(format!("0x1626ba7e{}", "0".repeat(56)));
    // (the signer's answer, the wallet's answer, what the report says of the form)
    let table = [
        (Value::Str(SIGNATURE.into()), Value::Str("0x".into()), None),
        (Value::Str(SIGNATURE.into()), Value::Str("0x1626ba7e".into()), None),
        (Value::Str(SIGNATURE.into()), Value::Str(format!("0x1626ba7é{}", "0".repeat(55))), None),
        (Value::Str(SIGNATURE.into()), Value::Str("0x".to_owned() + &"z".repeat(64)), None),
        (Value::Str(SIGNATURE.into()), Value::Number(1.0), None),
        (Value::Str("0x1234".into()), valid.clone(), None),
        (Value::Number(65.0), valid.clone(), None),
        (Value::Str(SIGNATURE.into()), valid, Some("ERC7739")),
    ];
    for (signature, word, form) in table {
        let mut d = Doctor::new(&s, owner, Some(owner), true);
        let mut asked = 0;
        let json = loop {
            asked += 1;
            assert!(asked < 20);
            let answer = match d.need() {
                Ask::Done(json) => break json,
                Ask::Rpc { method: "eth_chainId", .. } => Value::Str("0x89".into()),
                Ask::Rpc { method: "eth_call", .. } => word.clone(),
                Ask::Rpc { .. } => Value::Str("0x6080".into()),
                Ask::Sign(_) => signature.clone(),
                Ask::Balance(_) => obj(&[("balance", Value::Str("1".into()))]),
            };
            d.supply(&answer, false);
        };
        assert_eq!(field(&json, "depositSignature"), form, "{signature:?} {word:?}: {json}");
        assert!(!json.contains("SIGNATURE_REFUSED"), "{signature:?} {word:?}: {json}");
    }
}

#[test]
fn a_balance_answer_is_read_from_the_services_bytes() {
    let full =
        r#"{"balance":"10000000","allowances":{"0xE111180000d2663C0091e4f400237545B87B996B":"0","0x\u0041b":"5"}}"#;
    let held = read_holding(full.as_bytes()).unwrap();
    assert_eq!(held.balance, "10000000");
    assert_eq!(
        held.allowances,
        [
            ("0xE111180000d2663C0091e4f400237545B87B996B".to_owned(), "0".to_owned()),
            ("0xAb".to_owned(), "5".to_owned())
        ]
    );
    // Fields it does not know are skipped; an allowance that is not base units is left out (a number's digits are
    // its text: the JSON reader keeps numbers exact).
    let odd = r#"{"x":[1,{"y":2}],"balance":"7","allowances":{"a":1.5,"b":"-1","c":"12","d":3}}"#;
    assert_eq!(
        read_holding(odd.as_bytes()).unwrap().allowances,
        [("c".to_owned(), "12".to_owned()), ("d".to_owned(), "3".to_owned())]
    );
    // At most 16 allowances are kept.
    let many: Vec<String> = (0..40).map(|i| format!("\"s{i}\":\"{i}\"")).collect();
    let many = format!("{{\"balance\":\"1\",\"allowances\":{{{}}}}}", many.join(","));
    assert_eq!(read_holding(many.as_bytes()).unwrap().allowances.len(), 16);
    // Not a balance: no holding (an unknown, never a finding).
    for bad in [
        "",
        "[]",
        "{}",
        r#"{"balance":5.5}"#,
        r#"{"balance":""}"#,
        r#"{"balance":"1e3"}"#,
        r#"{"balance":"1"} x"#,
        r#"{"balance":"1","allowances":{"a":"1""#,
        &format!("{{\"balance\":\"{}\"}}", "9".repeat(79)),
    ] {
        assert_eq!(read_holding(bad.as_bytes()), None, "{bad}");
    }
}

mod as_a_task {
    use super::*;
    use crate::api::call::{Calls, Reply};
    use crate::task::tests::{answer, calls, creds, T0};
    use crate::task::{Need as TaskNeed, Outcome, Task, Why};

    const LIMITS: CallLimits = CallLimits { max_retries: 0, timeout_ms: 10_000.0, attempt_timeout_ms: None };

    /// The product of a balance read, as the binding's is (`crate::product::HOLDING`, in tests a plain holding).
    const READ: Expect<Option<Holding>> = Expect::Read(|_, body| Ok(read_holding(&body)), 0);

    fn examination(s: &TradingSettings, key: Option<Address>, provider: bool) -> Task<Examination<Option<Holding>>> {
        let doctor = Doctor::new(s, addr(OWNER), key, provider);
        Task::new(Examination::new(doctor, READ, |held| held, LIMITS, 5_000.0))
    }

    fn bytes(body: &str) -> Reply<'static> {
        Reply { bytes: Some(body.as_bytes().to_vec()), parsed: false, ..answer(200, None) }
    }

    const HELD: &str = r#"{"balance":"10000000","allowances":{"0xE111180000d2663C0091e4f400237545B87B996B":"1"}}"#;

    #[test]
    fn the_balance_reads_are_signed_calls_read_in_rust_and_the_diagnosis_is_its_result() {
        let (mut c, creds) = (calls::<Option<Holding>>(), creds());
        let owner = addr(OWNER);
        let mut t = examination(&settings(Eoa, None), Some(owner), false);
        let TaskNeed::Http(first) = t.next(Some(&mut c), Outcome::Go, T0, Some(&creds)) else { panic!("a read") };
        assert!(first.url.ends_with("/balance-allowance?asset_type=COLLATERAL&signature_type=0"), "{}", first.url);
        assert!(first.headers.iter().any(|(n, _)| *n == "SERVICE_SIGNATURE"), "signed");
        assert!(first.bytes, "read as bytes, in Rust");
        let TaskNeed::Http(second) = t.next(Some(&mut c), Outcome::Reply(bytes(HELD)), T0 + 1.0, Some(&creds)) else {
            panic!("the deposit wallet's read")
        };
        assert!(second.url.ends_with("signature_type=3"), "{}", second.url);
        let refused = answer(400, Some(r#"{"error":"no deposit wallet found for owner"}"#));
        let TaskNeed::Done(json) = t.next(Some(&mut c), Outcome::Reply(refused), T0 + 2.0, Some(&creds)) else {
            panic!("the diagnosis")
        };
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!((&v["ok"], &v["findings"]), (&true.into(), &serde_json::json!([])), "{json}");
        assert_eq!(v["collateral"]["balance"], "10000000", "{json}");
        assert_eq!(t.call(), None);
    }

    #[test]
    fn the_wallet_is_asked_through_the_driver_each_with_its_time() {
        let mut c = calls::<Option<Holding>>();
        let owner = addr(OWNER);
        let deposit = Wallets::of(137, &owner).deposit;
        let mut t = examination(&settings(Poly1271, Some(deposit)), None, true);
        let need = t.next(Some(&mut c), Outcome::Go, T0, None);
        assert_eq!(need, TaskNeed::Rpc { method: "eth_chainId", params: "[]".into(), ms: Some(30_000.0) });
        let v: serde_json::Value = serde_json::from_str(&need.to_json(&[])).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"kind": "rpc", "wake": [], "method": "eth_chainId", "params": [], "ms": 30000})
        );
        let said = |v: &str| Outcome::Said(Said::Answer(Value::Str(v.into())));
        let TaskNeed::Rpc { method: "eth_getCode", params, .. } = t.next(Some(&mut c), said("0x89"), T0, None) else {
            panic!("the wallet's code")
        };
        assert!(params.contains(&deposit.checksummed()));
        // Deployed: the owner signs a test order, within the client's signTimeoutMs.
        let mut need = t.next(Some(&mut c), said("0x6080"), T0, None);
        while let TaskNeed::Rpc { method: "eth_getCode", .. } = need {
            need = t.next(Some(&mut c), said("0x"), T0, None);
        }
        let TaskNeed::Sign { typed, ms: Some(ms) } = &need else { panic!("a signature: {need:?}") };
        assert_eq!(*ms, 5_000.0);
        let v: serde_json::Value = serde_json::from_str(&need.to_json(&[])).unwrap();
        assert_eq!(v["kind"], "sign");
        assert_eq!(v["typedData"]["primaryType"], "TypedDataSign", "the ERC-7739 form first: {typed}");
        // A signer that declines leaves the form unknown, and the examination goes on to its diagnosis.
        let TaskNeed::Done(json) = t.next(Some(&mut c), Outcome::Said(Said::Threw), T0, None) else { panic!("done") };
        assert!(json.contains("\"kind\":\"POLY_1271\""), "{json}");
        assert_eq!(t.machine.doctor.deposit_form(), None);
    }

    #[test]
    fn an_abort_or_a_service_out_of_reach_fails_the_examination() {
        let (mut c, creds) = (calls::<Option<Holding>>(), creds());
        let owner = addr(OWNER);
        // Aborted while the provider is asked.
        let mut t = examination(&settings(Eoa, None), Some(owner), true);
        assert!(matches!(t.next(Some(&mut c), Outcome::Go, T0, Some(&creds)), TaskNeed::Rpc { .. }));
        let TaskNeed::Fail(e) = t.next(Some(&mut c), Outcome::Abort(Why::Signal), T0, Some(&creds)) else { panic!() };
        assert_eq!(e.code, ErrorCode::Aborted);
        // Aborted during a balance read: the call's own error, and the call is given back.
        let mut t = examination(&settings(Eoa, None), Some(owner), false);
        assert!(matches!(t.next(Some(&mut c), Outcome::Go, T0, Some(&creds)), TaskNeed::Http(_)));
        let TaskNeed::Fail(e) = t.next(Some(&mut c), Outcome::Abort(Why::Signal), T0, Some(&creds)) else { panic!() };
        assert_eq!(e.code, ErrorCode::Aborted);
        assert_eq!(t.call(), None);
        // A balance read the network could not carry ends it with that failure.
        let mut t = examination(&settings(Eoa, None), Some(owner), false);
        t.next(Some(&mut c), Outcome::Go, T0, Some(&creds));
        let cut = Reply { ended: Some(crate::api::call::Ended::Network), ..Reply::default() };
        let TaskNeed::Fail(e) = t.next(Some(&mut c), Outcome::Reply(cut), T0, Some(&creds)) else { panic!() };
        assert_eq!(e.code, ErrorCode::Network);
        // The client freed under it.
        let mut t = examination(&settings(Eoa, None), Some(owner), false);
        let TaskNeed::Fail(e) = t.next(None::<&mut Calls<Option<Holding>>>, Outcome::Go, T0, None) else { panic!() };
        assert_eq!(e.code, ErrorCode::Aborted);
    }

    #[test]
    #[cfg(feature = "trade")]
    fn the_calls_extra_query_goes_with_every_read_and_one_it_cannot_take_is_that_reads_failure() {
        let (mut c, creds) = (calls::<Option<Holding>>(), creds());
        let owner = addr(OWNER);
        let extra = |name: &str| crate::api::Params(vec![(name.into(), Value::Str("1".into()))]);
        let mut t = examination(&settings(Eoa, None), Some(owner), false).with_extra_query(extra("probe"));
        let TaskNeed::Http(read) = t.next(Some(&mut c), Outcome::Go, T0, Some(&creds)) else { panic!() };
        assert!(read.url.ends_with("&probe=1"), "{}", read.url);
        // A parameter the read takes: refused before anything is sent, an unknown for the doctor.
        let mut t = examination(&settings(Eoa, None), Some(owner), false).with_extra_query(extra("asset_type"));
        let TaskNeed::Done(json) = t.next(Some(&mut c), Outcome::Go, T0, Some(&creds)) else { panic!("no read sent") };
        assert!(!json.contains("\"collateral\":{"), "{json}");
    }
}
