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

mod as_a_task {
    use super::*;
    use crate::api::call::{Calls, Reply};
    use crate::task::tests::{answer, calls, creds};
    use crate::task::{Need, Outcome, Said, Task, Why};

    const LIMITS: CallLimits = CallLimits { max_retries: 0, timeout_ms: 10_000.0, attempt_timeout_ms: None };
    const CONDITION: &str = "0xc0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0";

    /// The book, naming a market whose condition id can be asked for.
    fn book() -> Vec<u8> {
        String::from_utf8_lossy(BOOK).replace("\"0xc0\"", &format!("\"{CONDITION}\"")).into_bytes()
    }
    /// A 65-byte signature, as a wallet answers one.
    const SIGNATURE: &str = "0x111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111b";

    fn read(kind: u8) -> Expect<Answer> {
        Expect::Read(parse_answer, kind)
    }

    fn ordering(place: bool, learnt: &Rc<RefCell<Learnt>>) -> Task<Ordering<Answer>> {
        let cx = OrderContext {
            learnt: learnt.clone(),
            settings: settings(),
            signer: place.then(signer).flatten(),
            owner: place.then(|| "key".to_owned()),
            salt: 7,
            clock_offset_ms: 0.0,
            limits: LIMITS,
        };
        Task::new(Ordering::new(Placing::new(limit(), place), cx, read, Some))
    }

    fn bytes(body: &[u8]) -> Reply<'static> {
        Reply { bytes: Some(body.to_vec()), parsed: false, ..answer(200, None) }
    }

    /// Answers the reads as the service would, until the order needs something else; the paths read.
    fn reads(t: &mut Task<Ordering<Answer>>, c: &mut Calls<Answer>, first: Need) -> (Vec<String>, Need) {
        let creds = creds();
        let mut paths = Vec::new();
        let mut need = first;
        while let Need::Http(send) = &need {
            let path = send.url.split_once("8787").map(|(_, p)| p.to_owned()).unwrap_or_default();
            let body: Vec<u8> = match path.split('?').next().unwrap_or_default() {
                "/version" => br#"{"version":2}"#.to_vec(),
                "/book" => book(),
                _ if path.starts_with("/clob-markets/") => MARKET.to_vec(),
                _ => break,
            };
            paths.push(path);
            need = t.next(Some(c), Outcome::Reply(bytes(&body)), T0, Some(&creds));
        }
        (paths, need)
    }

    #[test]
    fn a_draft_reads_in_rust_and_is_the_tasks_result() {
        let (mut c, creds, learnt) = (calls::<Answer>(), creds(), Rc::default());
        let mut t = ordering(false, &learnt);
        let first = t.next(Some(&mut c), Outcome::Go, T0, Some(&creds));
        let (paths, need) = reads(&mut t, &mut c, first);
        assert_eq!(paths[0], "/version");
        assert!(paths[1].starts_with("/book?token_id="), "{paths:?}");
        assert_eq!(paths[2], format!("/clob-markets/{CONDITION}"));
        let Need::Done(draft) = need else { panic!("the draft: {need:?}") };
        let v: serde_json::Value = serde_json::from_str(&draft).unwrap();
        assert_eq!(v["tokenId"], TOKEN, "{draft}");
        // What was read is the client's: the next order reads nothing.
        let mut again = ordering(false, &learnt);
        assert!(matches!(again.next(Some(&mut c), Outcome::Go, T0, Some(&creds)), Need::Done(_)));
    }

    #[test]
    fn a_placing_asks_the_wallet_then_posts_and_is_done_with_the_answer_the_driver_holds() {
        let (mut c, creds, learnt) = (calls::<Answer>(), creds(), Rc::default());
        let mut t = ordering(true, &learnt);
        let first = t.next(Some(&mut c), Outcome::Go, T0, Some(&creds));
        let (_, need) = reads(&mut t, &mut c, first);
        let Need::Sign { typed, ms } = &need else { panic!("a signature: {need:?}") };
        assert!(typed.contains("\"primaryType\":\"Order\""), "{typed}");
        assert_eq!(*ms, Some(settings().sign_timeout_ms).filter(|ms| ms.is_finite()));
        let said = Outcome::Said(Said::Answer(Value::Str(SIGNATURE.into())));
        let Need::Http(post) = t.next(Some(&mut c), said, T0, Some(&creds)) else { panic!("the POST") };
        assert_eq!((post.method, post.url.ends_with("/order")), ("POST", true));
        assert!(post.body.as_deref().is_some_and(|b| b.contains(&SIGNATURE[2..]) && b.contains("\"owner\":\"key\"")));
        let Need::Done(result) = t.next(Some(&mut c), Outcome::Reply(answer(200, None)), T0, Some(&creds)) else {
            panic!("done")
        };
        assert_eq!(result, "null", "the body is the driver's");
    }

    #[test]
    fn a_version_change_signs_once_more_and_a_second_refusal_fails() {
        let (mut c, creds, learnt) = (calls::<Answer>(), creds(), Rc::default());
        let mut t = ordering(true, &learnt);
        let first = t.next(Some(&mut c), Outcome::Go, T0, Some(&creds));
        let (_, _) = reads(&mut t, &mut c, first);
        let said = || Outcome::Said(Said::Answer(Value::Str(SIGNATURE.into())));
        t.next(Some(&mut c), said(), T0, Some(&creds));
        let mismatch = || answer(400, Some(r#"{"error":"order_version_mismatch"}"#));
        // The version is read afresh, and the order signed again.
        let need = t.next(Some(&mut c), Outcome::Reply(mismatch()), T0, Some(&creds));
        let (paths, need) = reads(&mut t, &mut c, need);
        assert_eq!(paths, ["/version"]);
        assert!(matches!(need, Need::Sign { .. }), "{need:?}");
        t.next(Some(&mut c), said(), T0, Some(&creds));
        let Need::Fail(e) = t.next(Some(&mut c), Outcome::Reply(mismatch()), T0, Some(&creds)) else { panic!() };
        assert_eq!((e.code, e.status), (ErrorCode::Api, Some(400)));
    }

    #[test]
    fn what_the_wallet_says_instead_of_a_signature_is_its_fault_and_nothing_is_posted() {
        let cases: [(Said, ErrorCode, &str); 6] = [
            (
                Said::Answer(Value::Undefined),
                ErrorCode::Signer,
                "the signer answered undefined instead of a signature string",
            ),
            (Said::Answer(Value::Null), ErrorCode::Signer, "the signer answered null instead of a signature string"),
            (
                Said::Answer(Value::Number(1.0)),
                ErrorCode::Signer,
                "the signer answered number instead of a signature string",
            ),
            (
                Said::Answer(Value::Str("0x1234".into())),
                ErrorCode::Signer,
                "the signer answered a string that is not a 65-byte signature",
            ),
            (Said::Late, ErrorCode::Timeout, "the signer did not answer within signTimeoutMs"),
            (Said::Threw, ErrorCode::Signer, "the signer refused or failed to sign"),
        ];
        for (said, code, message) in cases {
            let (mut c, creds, learnt) = (calls::<Answer>(), creds(), Rc::default());
            let mut t = ordering(true, &learnt);
            let first = t.next(Some(&mut c), Outcome::Go, T0, Some(&creds));
            let (_, need) = reads(&mut t, &mut c, first);
            assert!(matches!(need, Need::Sign { .. }));
            let Need::Fail(e) = t.next(Some(&mut c), Outcome::Said(said), T0, Some(&creds)) else { panic!() };
            assert_eq!((e.code, e.message.as_ref()), (code, message));
            assert_eq!(t.call(), None, "nothing posted");
        }
        // Aborted while the wallet is asked.
        let (mut c, creds, learnt) = (calls::<Answer>(), creds(), Rc::default());
        let mut t = ordering(true, &learnt);
        let first = t.next(Some(&mut c), Outcome::Go, T0, Some(&creds));
        reads(&mut t, &mut c, first);
        let Need::Fail(e) = t.next(Some(&mut c), Outcome::Abort(Why::Signal), T0, Some(&creds)) else { panic!() };
        assert_eq!(e.code, ErrorCode::Aborted);
    }

    #[test]
    fn a_read_that_fails_fails_the_order() {
        let (mut c, creds, learnt) = (calls::<Answer>(), creds(), Rc::default());
        let mut t = ordering(false, &learnt);
        t.next(Some(&mut c), Outcome::Go, T0, Some(&creds));
        let Need::Fail(e) = t.next(Some(&mut c), Outcome::Reply(answer(404, Some("{}"))), T0, Some(&creds)) else {
            panic!()
        };
        assert_eq!(e.code, ErrorCode::NotFound);
    }

    #[test]
    fn a_callers_draft_is_signed_once_and_comes_back_with_the_signature_the_exchange_takes() {
        let order = crate::trade::order::tests::vector_order();
        let domain = domain(order.version, 80002, Address::ZERO);
        let typed_expected = order.typed_data_to_sign(&domain);
        let mut t = Task::new(Signing {
            order: order.clone(),
            domain: domain.clone(),
            order_type: crate::book::OrderType::Gtc,
            post_only: false,
            sign_ms: f64::INFINITY,
        });
        let mut c = calls::<Answer>();
        let Need::Sign { typed, ms } = t.next(Some(&mut c), Outcome::Go, T0, None) else { panic!("a signature") };
        assert_eq!((typed, ms), (typed_expected, None), "Infinity waits for ever");
        let said = Outcome::Said(Said::Answer(Value::Str(SIGNATURE.into())));
        let Need::Done(json) = t.next(Some(&mut c), said, T0, None) else { panic!("the signed order") };
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["signature"], order.wrapped_signature(&domain, SIGNATURE), "{json}");
        assert_eq!(v["orderType"], "GTC", "{json}");
        // What is not a signature is the signer's fault.
        let mut t = Task::new(Signing {
            order,
            domain,
            order_type: crate::book::OrderType::Gtc,
            post_only: false,
            sign_ms: 1.0,
        });
        t.next(Some(&mut c), Outcome::Go, T0, None);
        let Need::Fail(e) = t.next(Some(&mut c), Outcome::Said(Said::Answer(Value::Null)), T0, None) else { panic!() };
        assert_eq!(e.code, ErrorCode::Signer);
    }
}
