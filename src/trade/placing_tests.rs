//! Table tests of an order's way: the reads it needs after what the client learnt, the signature, the POST
//! and what a refusal leads to.

use super::*;
use crate::api::{Params, Value};
use crate::error::ErrorCode;
use crate::trade::eip712::Address;
use crate::trade::order::Exchanges;

const T0: f64 = 1_700_000_000_000.0;
const SIGNER: &str = "0x9fb0ae0c6e3b0a1c2d3e4f5a6b7c8d9e0f1a2b3c";
/// An older market's token id (a hash; small numbers are positions of the newer system, as upstream counts them).
const TOKEN: &str = "71321045679252212594626385532706912750332728571942532289631379312455583992563";
const BOOK: &[u8] = br#"{"market":"0xc0","asset_id":"71321045679252212594626385532706912750332728571942532289631379312455583992563","timestamp":"1","hash":"","bids":[{"price":"0.4","size":"100"}],"asks":[{"price":"0.6","size":"100"}]}"#;
const MARKET: &[u8] = br#"{"mts":0.01,"mos":5,"nr":false,"t":[{"t":"71321045679252212594626385532706912750332728571942532289631379312455583992563"},{"t":"52114319501245915516055106046884209969926127482827954674443846427813813222426"}]}"#;

fn request(json: &str, market: bool) -> OrderRequest {
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    let fields = v
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| {
            let value = match v {
                serde_json::Value::String(s) => Value::Str(s.clone()),
                serde_json::Value::Number(n) => Value::Number(n.as_f64().unwrap()),
                serde_json::Value::Bool(b) => Value::Bool(*b),
                _ => Value::Null,
            };
            (k.clone(), value)
        })
        .collect();
    OrderRequest::parse(&Params(fields), market).unwrap()
}

fn limit() -> OrderRequest {
    request(
        r#"{"tokenId":"71321045679252212594626385532706912750332728571942532289631379312455583992563","side":"BUY","price":0.5,"size":10}"#,
        false,
    )
}

fn settings() -> TradingSettings {
    TradingSettings::read(&mut |_| Ok(Value::Undefined)).unwrap()
}

fn signer() -> Option<Address> {
    Some(Address::parse("signer", SIGNER).unwrap())
}

/// Answers each read as the service would (`version` for GET /version); the reads asked, in order.
fn run(p: &mut Placing, learnt: &mut Learnt, version: u8) -> (Vec<Read>, Result<Step, Error>) {
    let mut reads = Vec::new();
    loop {
        match p.next(learnt, &settings(), signer(), T0, 7) {
            Ok(Step::Read(read)) => {
                let body: Vec<u8> = match &read {
                    Read::Version => format!(r#"{{"version":{version}}}"#).into_bytes(),
                    Read::Book => BOOK.to_vec(),
                    Read::Market(_) => MARKET.to_vec(),
                    Read::Fee => br#"{"base_fee":30}"#.to_vec(),
                };
                assert_eq!(p.pending(), Some(&read));
                let answer = parse(&read, body).unwrap();
                p.learn(learnt, answer).unwrap();
                reads.push(read);
            }
            other => return (reads, other),
        }
    }
}

#[test]
fn a_first_order_reads_what_it_needs_and_the_next_one_nothing() {
    let mut learnt = Learnt::default();
    let mut p = Placing::new(limit(), true);
    let (reads, step) = run(&mut p, &mut learnt, 2);
    // No condition id in the params: the book names the market.
    assert_eq!(reads, [Read::Version, Read::Book, Read::Market("0xc0".into())]);
    let Ok(Step::Sign(typed)) = step else { panic!("{step:?}") };
    let typed: serde_json::Value = serde_json::from_str(&typed).unwrap();
    assert_eq!(typed["primaryType"], "Order");
    assert!(p.post_request("key").is_err(), "nothing is posted unsigned");
    // Asked to sign, a wallet that answers nothing is the signer's fault (issue 33), and the order waits.
    let unsigned = p.next(&mut learnt, &settings(), signer(), T0, 7).unwrap_err();
    assert_eq!(
        (unsigned.code, unsigned.message.as_ref()),
        (ErrorCode::Signer, "the signer answered undefined instead of a signature string")
    );
    assert!(p.post_request("key").is_err());
    p.signed(format!("0x{}1b", "11".repeat(64)));
    assert_eq!(p.next(&mut learnt, &settings(), signer(), T0, 7).unwrap(), Step::Post);
    let post = p.post_request("key").unwrap();
    let body: serde_json::Value = serde_json::from_str(post.body.as_deref().unwrap()).unwrap();
    assert_eq!((body["owner"].as_str(), body["order"]["tokenId"].as_str()), (Some("key"), Some(TOKEN)));

    // The same token again: everything is known.
    let mut again = Placing::new(limit(), true);
    let (reads, step) = run(&mut again, &mut learnt, 2);
    assert!(reads.is_empty() && matches!(step, Ok(Step::Sign(_))), "{reads:?} {step:?}");
}

#[test]
fn what_each_order_reads() {
    // (params, market order, the exchange's version, the reads of a fresh client)
    let with_condition = format!(
        r#"{{"tokenId":"71321045679252212594626385532706912750332728571942532289631379312455583992563","side":"BUY","price":0.5,"size":10,"conditionId":"0x{}"}}"#,
        "c".repeat(64)
    );
    let table: Vec<(String, bool, u8, Vec<Read>)> = vec![
        (with_condition.clone(), false, 2, vec![Read::Version, Read::Market(format!("0x{}", "c".repeat(64)))]),
        (
            r#"{"tokenId":"71321045679252212594626385532706912750332728571942532289631379312455583992563","side":"BUY","price":0.5,"size":10}"#.into(),
            false,
            1,
            vec![Read::Version, Read::Book, Read::Market("0xc0".into()), Read::Fee],
        ),
        // A market order without a price takes it from the book, which also names the market.
        (
            r#"{"tokenId":"71321045679252212594626385532706912750332728571942532289631379312455583992563","side":"BUY","amount":20}"#.into(),
            true,
            2,
            vec![Read::Version, Read::Book, Read::Market("0xc0".into())],
        ),
        (
            r#"{"tokenId":"71321045679252212594626385532706912750332728571942532289631379312455583992563","side":"BUY","amount":20,"price":0.6}"#.into(),
            true,
            2,
            vec![Read::Version, Read::Book, Read::Market("0xc0".into())],
        ),
    ];
    for (i, (json, market, version, want)) in table.into_iter().enumerate() {
        let mut learnt = Learnt::default();
        let (reads, step) = run(&mut Placing::new(request(&json, market), true), &mut learnt, version);
        assert_eq!(reads, want, "row {i}");
        assert!(matches!(step, Ok(Step::Sign(_))), "row {i}: {step:?}");
    }
    // Once the market is known, a market order without a price still reads the book for its price.
    let mut learnt = Learnt::default();
    assert!(matches!(run(&mut Placing::new(limit(), true), &mut learnt, 2).1, Ok(Step::Sign(_))));
    let (reads, _) = run(
        &mut Placing::new(
            request(
                r#"{"tokenId":"71321045679252212594626385532706912750332728571942532289631379312455583992563","side":"BUY","amount":20}"#,
                true,
            ),
            true,
        ),
        &mut learnt,
        2,
    );
    assert_eq!(reads, [Read::Book]);
}

#[test]
fn a_service_that_says_3_has_every_order_signed_for_the_third_exchange() {
    // py-clob-client-v2 `create_order` and clob-client-v2 `createOrder` (`case 3: exchangeV3`): the version the
    // service tells decides the domain, an older market's token included.
    for (version, domain) in [(1, "1"), (2, "2"), (3, "3")] {
        let mut learnt = Learnt::default();
        let (_, step) = run(&mut Placing::new(limit(), true), &mut learnt, version);
        let Ok(Step::Sign(typed)) = step else { panic!("{step:?}") };
        let typed: serde_json::Value = serde_json::from_str(&typed).unwrap();
        assert_eq!(typed["domain"]["version"], domain, "service version {version}");
        let exchange =
            Exchanges::known(137, [Version::V1, Version::V2, Version::V3][usize::from(version) - 1]).unwrap();
        assert_eq!(typed["domain"]["verifyingContract"], exchange.exchange.checksummed(), "service version {version}");
    }
}

#[test]
fn a_draft_only_and_a_token_the_market_does_not_list() {
    let mut learnt = Learnt::default();
    let (_, step) = run(&mut Placing::new(limit(), false), &mut learnt, 2);
    let Ok(Step::Drafted(json)) = step else { panic!("{step:?}") };
    let draft: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(draft["tokenId"], TOKEN);
    let other = request(
        &format!(
            r#"{{"tokenId":"21742633143463906290569050155826241533067272736897614950488156847949938836455","side":"BUY","price":0.5,"size":10,"conditionId":"0x{}"}}"#,
            "c".repeat(64)
        ),
        false,
    );
    let (_, step) = run(&mut Placing::new(other, true), &mut learnt, 2);
    assert_eq!(step.unwrap_err().param.as_deref(), Some("tokenId"));
    assert!(
        learnt.market("21742633143463906290569050155826241533067272736897614950488156847949938836455").is_none(),
        "a market that does not list the token is not learnt for it"
    );
}

#[test]
fn refusals_rebuild_once_forget_the_market_or_fail() {
    let mut learnt = Learnt::default();
    let mut p = Placing::new(limit(), true);
    assert!(matches!(run(&mut p, &mut learnt, 1).1, Ok(Step::Sign(_))));
    p.signed(format!("0x{}1b", "11".repeat(64)));
    // The exchange's version changed: read it afresh, rebuild, sign once more.
    assert!(p.refused(&mut learnt, Some(400), Some("order_version_mismatch")));
    let (reads, step) = run(&mut p, &mut learnt, 2);
    assert_eq!(reads, [Read::Version]);
    assert!(matches!(step, Ok(Step::Sign(_))));
    // Never twice; a 400 forgets the token's market.
    assert!(!p.refused(&mut learnt, Some(400), Some("order_version_mismatch")));
    assert!(learnt.market(TOKEN).is_none());
    let mut q = Placing::new(limit(), true);
    let (reads, _) = run(&mut q, &mut learnt, 2);
    assert_eq!(reads, [Read::Book, Read::Market("0xc0".into())]);
    assert!(!q.refused(&mut learnt, Some(500), None));
    assert!(learnt.market(TOKEN).is_some());
}

#[test]
fn answers_that_do_not_read_are_refused() {
    assert!(parse(&Read::Version, b"{\"version\":9}".to_vec()).is_err());
    assert!(parse(&Read::Book, b"[]".to_vec()).is_err());
    assert!(parse(&Read::Market("0x1".into()), b"{}".to_vec()).is_err());
    assert!(parse(&Read::Fee, b"{\"base_fee\":-1}".to_vec()).is_err());
}

/// Answers each read with `market` for GET /clob-markets; the reads asked, in order.
fn run_with(p: &mut Placing, learnt: &mut Learnt, market: &[u8]) -> (Vec<Read>, Result<Step, Error>) {
    let mut reads = Vec::new();
    loop {
        match p.next(learnt, &settings(), signer(), T0, 7) {
            Ok(Step::Read(read)) => {
                let body = match &read {
                    Read::Version => br#"{"version":2}"#.to_vec(),
                    Read::Book => BOOK.to_vec(),
                    Read::Market(_) => market.to_vec(),
                    Read::Fee => br#"{"base_fee":30}"#.to_vec(),
                };
                p.learn(learnt, parse(&read, body).unwrap()).unwrap();
                reads.push(read);
            }
            other => return (reads, other),
        }
    }
}

#[test]
fn a_new_tick_size_is_learnt_from_streams_and_a_price_refused_for_the_old_one_is_checked_afresh() {
    let fine = String::from_utf8(MARKET.to_vec()).unwrap().replace("\"mts\":0.01", "\"mts\":0.001");
    let at =
        |price: &str| request(&format!(r#"{{"tokenId":"{TOKEN}","side":"BUY","price":{price},"size":10}}"#), false);
    // The client learnt the market at 0.01; the service has since made it 0.001 (issue 33: 0.995 was refused).
    let mut learnt = Learnt::default();
    assert!(matches!(run_with(&mut Placing::new(limit(), true), &mut learnt, MARKET).1, Ok(Step::Sign(_))));
    let (reads, step) = run_with(&mut Placing::new(at("0.995"), true), &mut learnt, fine.as_bytes());
    assert_eq!(reads, [Read::Market("0xc0".into())], "the rules read once more");
    assert!(matches!(step, Ok(Step::Sign(_))), "{step:?}");
    // Now known: no read. A price refused by the fresh rules too is refused, after one read only.
    let (reads, step) = run_with(&mut Placing::new(at("0.9955"), true), &mut learnt, fine.as_bytes());
    assert_eq!(reads, [Read::Market("0xc0".into())]);
    assert_eq!(step.unwrap_err().param.as_deref(), Some("price"));
    let (reads, step) = run_with(&mut Placing::new(at("0.996"), true), &mut learnt, fine.as_bytes());
    assert!(reads.is_empty() && matches!(step, Ok(Step::Sign(_))), "{reads:?} {step:?}");

    // A stream's tick_size_change teaches it without any read; a tick the library does not know forgets it.
    let mut learnt = Learnt::default();
    assert!(matches!(run_with(&mut Placing::new(limit(), true), &mut learnt, MARKET).1, Ok(Step::Sign(_))));
    learnt.tick_changed(TOKEN, 1_000);
    let (reads, step) = run_with(&mut Placing::new(at("0.995"), true), &mut learnt, MARKET);
    assert!(reads.is_empty() && matches!(step, Ok(Step::Sign(_))), "{reads:?} {step:?}");
    learnt.tick_changed(TOKEN, 3);
    assert!(learnt.market(TOKEN).is_none());
    // A price off the tick of rules read just now is refused at once, with no second read.
    let mut learnt = Learnt::default();
    let (reads, step) = run_with(&mut Placing::new(at("0.995"), true), &mut learnt, MARKET);
    assert_eq!(reads, [Read::Version, Read::Book, Read::Market("0xc0".into())]);
    assert_eq!(step.unwrap_err().param.as_deref(), Some("price"));
}
