use super::*;
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

fn obj(fields: &[(&str, Value)]) -> Value {
    Value::Object(fields.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect())
}

/// Runs a doctor against a world; returns what it asked and its diagnosis (as JSON text).
fn examine(s: &TradingSettings, key: Option<Address>, world: World) -> (Vec<Need>, String) {
    let owner = addr(OWNER);
    let wallets = Wallets::of(s.chain_id, &owner);
    let mut d = Doctor::new(s, owner, key, world.provider);
    let mut needs = Vec::new();
    for _ in 0..20 {
        let need = d.need();
        let (answer, failed) = match &need {
            Need::Done(json) => return (needs, json.clone()),
            Need::End => panic!("the examination ended"),
            Need::Rpc { method: "eth_chainId", .. } => (Value::Str(format!("0x{:x}", world.chain)), false),
            Need::Sign(_) if !world.signs => (obj(&[("code", Value::Str("SIGNER".into()))]), true),
            Need::Sign(_) => (Value::Str(SIGNATURE.into()), false),
            Need::Rpc { method: "eth_call", params } => {
                let wrapped = params.contains(&order_type_hex());
                let taken = if wrapped { world.takes.0 } else { world.takes.1 };
                let word = if taken { "1626ba7e" } else { "ffffffff" };
                (Value::Str(format!("0x{word}{}", "0".repeat(56))), false)
            }
            Need::Rpc { params, .. } => {
                let code = world
                    .deployed
                    .iter()
                    .any(|t| wallets.of_type(owner, *t).is_some_and(|w| params.contains(&w.checksummed())));
                (Value::Str(if code { "0x6080".into() } else { "0x".into() }), false)
            }
            Need::Balance(t) => {
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
        Need::Rpc { method: "eth_getCode", params: format!("[\"{}\",\"latest\"]", w.deposit.checksummed()) }
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
    assert_eq!(needs, [Need::Balance(Poly1271)]);
}

#[test]
fn a_provider_that_does_not_answer_in_time_is_not_asked_again() {
    let owner = addr(OWNER);
    let mut d = Doctor::new(&settings(Eoa, None), owner, None, true);
    assert!(matches!(d.need(), Need::Rpc { method: "eth_chainId", .. }));
    d.supply(&obj(&[("code", Value::Str("TIMEOUT".into()))]), true);
    assert!(matches!(d.need(), Need::Done(_)), "no eth_getCode after a timeout");
    // Another failure (a refusal) goes on to the next question.
    let mut d = Doctor::new(&settings(Eoa, None), owner, None, true);
    d.need();
    d.supply(&obj(&[("code", Value::Str("SIGNER".into()))]), true);
    assert!(matches!(d.need(), Need::Rpc { method: "eth_getCode", .. }));
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
                    Need::Done(json) => break json,
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
fn asked(needs: &[Need]) -> Vec<String> {
    needs
        .iter()
        .map(|n| match n {
            Need::Rpc { method, .. } => (*method).to_owned(),
            Need::Balance(t) => format!("balance {}", type_name(*t)),
            Need::Sign(_) => "sign".into(),
            Need::Done(_) | Need::End => unreachable!(),
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
            needs.iter().filter_map(|n| if let Need::Sign(t) = n { Some(t) } else { None }).collect();
        assert!(signs[0].contains("\"primaryType\":\"TypedDataSign\""), "{}", signs[0]);
        if let Some(plain) = signs.get(1) {
            assert!(plain.contains("\"primaryType\":\"Order\""), "{plain}");
        }
        // Each eth_call asks the wallet itself, with the test order's digest and the signature in that form.
        for need in &needs {
            if let Need::Rpc { method: "eth_call", params } = need {
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
                Need::Done(_) | Need::End => break,
                Need::Rpc { method: "eth_chainId", .. } => Value::Str("0x89".into()),
                Need::Sign(_) => Value::Str(SIGNATURE.into()),
                Need::Rpc { method: "eth_call", params } => {
                    let taken = if params.contains(&order_type_hex()) { takes.0 } else { takes.1 };
                    Value::Str(format!("0x{}{}", if taken { "1626ba7e" } else { "ffffffff" }, "0".repeat(56)))
                }
                Need::Rpc { params, .. } => Value::Str(
                    if params.contains(&wallets.deposit.checksummed()) && world.deployed.contains(&Poly1271) {
                        "0x6080".into()
                    } else {
                        "0x".into()
                    },
                ),
                Need::Balance(_) => obj(&[("balance", Value::Str("1".into()))]),
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
    // A balance read the network could not carry: the examination ends there, nothing more asked.
    let owner = addr(OWNER);
    let mut d = Doctor::new(&settings(Eoa, None), owner, Some(owner), false);
    assert!(matches!(d.need(), Need::Balance(_)));
    d.supply(&obj(&[("code", Value::Str("NETWORK".into()))]), true);
    assert_eq!(d.need(), Need::End);
    assert_eq!(d.need(), Need::End);
    // The provider's timeout only makes the wallets unknown.
    let mut d = Doctor::new(&settings(Eoa, None), owner, Some(owner), true);
    assert!(matches!(d.need(), Need::Rpc { method: "eth_chainId", .. }));
    d.supply(&obj(&[("code", Value::Str("TIMEOUT".into()))]), true);
    assert!(matches!(d.need(), Need::Balance(_)));
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
                Need::Done(json) => break json,
                Need::End => panic!("ended"),
                Need::Rpc { method: "eth_chainId", .. } => Value::Str("0x89".into()),
                Need::Rpc { method: "eth_call", .. } => word.clone(),
                Need::Rpc { .. } => Value::Str("0x6080".into()),
                Need::Sign(_) => signature.clone(),
                Need::Balance(_) => obj(&[("balance", Value::Str("1".into()))]),
            };
            d.supply(&answer, false);
        };
        assert_eq!(field(&json, "depositSignature"), form, "{signature:?} {word:?}: {json}");
        assert!(!json.contains("SIGNATURE_REFUSED"), "{signature:?} {word:?}: {json}");
    }
}
