//! Every public route with good and bad parameters, each bound at and past its edge.

mod common;

use common::*;
use reqwest::StatusCode;
use serde_json::{json, Value};
use sha1::{Digest, Sha1};

fn micro(text: &str) -> u64 {
    let (i, f) = text.split_once('.').unwrap_or((text, ""));
    let mut frac = f.to_owned();
    while frac.len() < 6 {
        frac.push('0');
    }
    i.parse::<u64>().unwrap() * 1_000_000 + frac.parse::<u64>().unwrap()
}

fn best(book: &Value) -> (Option<u64>, Option<u64>) {
    let prices = |side: &str| {
        book[side].as_array().unwrap().iter().map(|l| micro(l["price"].as_str().unwrap())).collect::<Vec<_>>()
    };
    (prices("bids").into_iter().max(), prices("asks").into_iter().min())
}

#[tokio::test]
async fn root_says_ok() {
    let emu = start().await;
    let r = get(&emu.url, "/").await;
    assert_eq!(r.assert_ok(), json!("OK"));
    assert!(r.headers["content-type"].to_str().unwrap().starts_with("application/json"));
}

#[tokio::test]
async fn recorded_books_are_served_as_recorded() {
    let emu = start().await;
    let book = get(&emu.url, &format!("/book?token_id={REAL_BOOK_2}")).await.assert_ok();
    assert_eq!(book["bids"].as_array().unwrap().len(), 2);
    assert_eq!(book["asks"].as_array().unwrap().len(), 0);
    assert_eq!(book["neg_risk"], true);
    assert_eq!(book["hash"], "d7df883ae546b09533a4f485bfae0810da1af04e");
    let text = get(&emu.url, &format!("/book?token_id={REAL_BOOK_2}")).await.text;
    assert!(text.starts_with(r#"{"market":"0x9d83"#), "recorded key order kept: {text}");
    for fixture in [
        include_str!("../../tests/fixtures/real/clob-book-1.json"),
        include_str!("../../tests/fixtures/real/clob-book-3.json"),
    ] {
        let recorded: Value = serde_json::from_str(fixture).unwrap();
        let served =
            get(&emu.url, &format!("/book?token_id={}", recorded["asset_id"].as_str().unwrap())).await.assert_ok();
        assert_eq!(served, recorded);
    }
}

#[tokio::test]
async fn generated_books_carry_the_service_hash_and_orientation() {
    let emu = start().await;
    let markets = clob_markets(&emu.url).await;
    let mut checked = 0;
    for m in markets.iter().take(12) {
        for t in m["tokens"].as_array().unwrap() {
            let token = t["token_id"].as_str().unwrap();
            let r = get(&emu.url, &format!("/book?token_id={token}")).await;
            let book = r.assert_ok();
            assert_eq!(book["asset_id"], token);
            assert_eq!(book["market"], m["condition_id"]);
            assert_eq!(book["neg_risk"], m["neg_risk"]);
            // The hash: SHA-1 of the compact JSON with "hash" emptied, in the served (interface) key order.
            let hash = book["hash"].as_str().unwrap();
            let unhashed = r.text.replace(&format!(r#""hash":"{hash}""#), r#""hash":"""#);
            assert_eq!(format!("{:x}", Sha1::digest(unhashed.as_bytes())), hash);
            let keys: Vec<&str> =
                r.text.match_indices("\":").map(|(i, _)| &r.text[r.text[..i].rfind('"').unwrap() + 1..i]).collect();
            assert_eq!(&keys[..4], ["market", "asset_id", "timestamp", "hash"]);
            // Bids ascending and asks descending: the best level last on both sides.
            let levels = |side: &str| {
                book[side].as_array().unwrap().iter().map(|l| micro(l["price"].as_str().unwrap())).collect::<Vec<_>>()
            };
            let (bids, asks) = (levels("bids"), levels("asks"));
            assert!(bids.windows(2).all(|w| w[0] < w[1]), "{bids:?}");
            assert!(asks.windows(2).all(|w| w[0] > w[1]), "{asks:?}");
            if let (Some(b), Some(a)) = (bids.last(), asks.last()) {
                assert!(b < a, "crossed book");
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 24);
}

#[tokio::test]
async fn book_params() {
    let emu = start().await;
    get(&emu.url, "/book").await.assert_bad("token_id");
    get(&emu.url, "/book?token_id=").await.assert_bad("token_id");
    let r = get(&emu.url, "/book?token_id=123").await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert!(r.json()["error"].is_string());
}

#[tokio::test]
async fn special_books_have_their_shapes() {
    let emu = start().await;
    for (kind, bids, asks) in
        [("ten_levels", 10, 10), ("empty", 0, 0), ("bids_only", 25, 0), ("asks_only", 0, 25), ("large", 1000, 1000)]
    {
        let token = special_token(&emu.url, kind).await;
        let book = get(&emu.url, &format!("/book?token_id={token}")).await.assert_ok();
        assert_eq!(book["bids"].as_array().unwrap().len(), bids, "{kind}");
        assert_eq!(book["asks"].as_array().unwrap().len(), asks, "{kind}");
    }
}

#[tokio::test]
async fn books_post_bounds() {
    let emu = start().await;
    let markets = clob_markets(&emu.url).await;
    let tokens: Vec<String> = markets
        .iter()
        .flat_map(|m| m["assets_ids"].as_array().unwrap().iter().map(|t| t.as_str().unwrap().to_owned()))
        .collect();
    let items = |n: usize| Value::Array((0..n).map(|i| json!({ "token_id": tokens[i % tokens.len()] })).collect());
    post(&emu.url, "/books", &json!([])).await.assert_bad("1 to 500");
    let ok = post(&emu.url, "/books", &items(500)).await.assert_ok();
    assert_eq!(ok.as_array().unwrap().len(), 500);
    post(&emu.url, "/books", &items(501)).await.assert_bad("1 to 500");
    post(&emu.url, "/books", &json!({ "token_id": tokens[0] })).await.assert_bad("array");
    post(&emu.url, "/books", &json!([{ "tokenId": tokens[0] }])).await.assert_bad("token_id");
    let two = post(
        &emu.url,
        "/books",
        &json!([{ "token_id": tokens[0] }, { "token_id": "999" }, { "token_id": REAL_BOOK_2 }]),
    )
    .await
    .assert_ok();
    let ids: Vec<&str> = two.as_array().unwrap().iter().map(|b| b["asset_id"].as_str().unwrap()).collect();
    assert_eq!(ids, [tokens[0].as_str(), REAL_BOOK_2], "unknown tokens are left out");
}

#[tokio::test]
async fn prices_price_and_midpoint_agree_with_the_book() {
    let emu = start().await;
    let markets = clob_markets(&emu.url).await;
    let mut tokens: Vec<String> =
        markets.iter().take(30).map(|m| m["assets_ids"][0].as_str().unwrap().to_owned()).collect();
    tokens.push(REAL_BOOK_2.to_owned());
    let body = Value::Array(tokens.iter().map(|t| json!({ "token_id": t })).collect());
    let prices = post(&emu.url, "/prices", &body).await.assert_ok();
    let mut both_sides = 0;
    for token in &tokens {
        let book = get(&emu.url, &format!("/book?token_id={token}")).await.assert_ok();
        let (bid, ask) = best(&book);
        let entry = &prices[token.as_str()];
        assert_eq!(entry["BUY"].as_str().map(micro), ask, "BUY is the best ask");
        assert_eq!(entry["SELL"].as_str().map(micro), bid, "SELL is the best bid");
        let buy = get(&emu.url, &format!("/price?token_id={token}&side=BUY")).await;
        match ask {
            Some(ask) => assert_eq!(micro(buy.assert_ok()["price"].as_str().unwrap()), ask),
            None => assert_eq!(buy.status, StatusCode::NOT_FOUND),
        }
        let sell = get(&emu.url, &format!("/price?token_id={token}&side=SELL")).await;
        match bid {
            Some(bid) => assert_eq!(micro(sell.assert_ok()["price"].as_str().unwrap()), bid),
            None => assert_eq!(sell.status, StatusCode::NOT_FOUND),
        }
        let mid = get(&emu.url, &format!("/midpoint?token_id={token}")).await;
        match (bid, ask) {
            (Some(b), Some(a)) => {
                let m = mid.assert_ok()["mid"].as_str().unwrap().to_owned();
                // Exact: twice the midpoint is the sum (in ten-millionths to allow a half tick).
                let (i, f) = m.split_once('.').unwrap_or((&m, ""));
                let tenth_micro = i.parse::<u64>().unwrap() * 10_000_000 + format!("{f:0<7}").parse::<u64>().unwrap();
                assert_eq!(tenth_micro * 2, (a + b) * 10, "{m}");
                both_sides += 1;
            }
            _ => assert_eq!(mid.status, StatusCode::NOT_FOUND),
        }
    }
    assert!(both_sides > 10);
    let one_side = post(&emu.url, "/prices", &json!([{ "token_id": tokens[0], "side": "BUY" }])).await.assert_ok();
    assert!(one_side[tokens[0].as_str()].get("SELL").is_none());
}

#[tokio::test]
async fn price_params() {
    let emu = start().await;
    let token = special_token(&emu.url, "ten_levels").await;
    get(&emu.url, "/price?side=BUY").await.assert_bad("token_id");
    get(&emu.url, &format!("/price?token_id={token}")).await.assert_bad("side");
    get(&emu.url, &format!("/price?token_id={token}&side=buy")).await.assert_bad("side");
    assert_eq!(get(&emu.url, "/price?token_id=1&side=BUY").await.status, StatusCode::NOT_FOUND);
    get(&emu.url, "/midpoint").await.assert_bad("token_id");
    assert_eq!(get(&emu.url, "/midpoint?token_id=1").await.status, StatusCode::NOT_FOUND);
    let empty = special_token(&emu.url, "empty").await;
    assert_eq!(get(&emu.url, &format!("/midpoint?token_id={empty}")).await.status, StatusCode::NOT_FOUND);
    let items = |n: usize| Value::Array((0..n).map(|_| json!({ "token_id": token })).collect());
    post(&emu.url, "/prices", &items(500)).await.assert_ok();
    post(&emu.url, "/prices", &items(501)).await.assert_bad("1 to 500");
    post(&emu.url, "/prices", &items(0)).await.assert_bad("1 to 500");
    post(&emu.url, "/prices", &json!([{ "token_id": token, "side": "both" }])).await.assert_bad("side");
}

#[tokio::test]
async fn prices_history_params_and_points() {
    let emu = start().await;
    let token = clob_markets(&emu.url).await[5]["assets_ids"][0].as_str().unwrap().to_owned();
    get(&emu.url, "/prices-history").await.assert_bad("market");
    for interval in ["max", "1m", "1w", "1d", "6h", "1h"] {
        let h = get(&emu.url, &format!("/prices-history?market={token}&interval={interval}")).await.assert_ok();
        let points = h["history"].as_array().unwrap();
        assert!(!points.is_empty(), "{interval}");
        assert!(points.windows(2).all(|w| w[0]["t"].as_i64() < w[1]["t"].as_i64()));
        assert!(points.iter().all(|p| (0.0..=1.0).contains(&p["p"].as_f64().unwrap())));
    }
    get(&emu.url, &format!("/prices-history?market={token}&interval=2h")).await.assert_bad("interval");
    get(&emu.url, &format!("/prices-history?market={token}&interval=1d&startTs=1")).await.assert_bad("interval");
    get(&emu.url, &format!("/prices-history?market={token}&startTs=20&endTs=10")).await.assert_bad("startTs");
    get(&emu.url, &format!("/prices-history?market={token}&endTs=10")).await.assert_bad("startTs");
    get(&emu.url, &format!("/prices-history?market={token}&startTs=-1")).await.assert_bad("startTs");
    get(&emu.url, &format!("/prices-history?market={token}&startTs=1767225600&endTs=1767229200&fidelity=0"))
        .await
        .assert_bad("fidelity");
    let range = "startTs=1767225600&endTs=1767229200";
    let h = get(&emu.url, &format!("/prices-history?market={token}&{range}&fidelity=1")).await.assert_ok();
    assert_eq!(h["history"].as_array().unwrap().len(), 61);
    let h10 = get(&emu.url, &format!("/prices-history?market={token}&{range}&fidelity=10")).await.assert_ok();
    assert_eq!(h10["history"].as_array().unwrap().len(), 7);
    assert_eq!(
        h,
        get(&emu.url, &format!("/prices-history?market={token}&{range}&fidelity=1")).await.assert_ok(),
        "deterministic"
    );
    let unknown = get(&emu.url, "/prices-history?market=1&interval=1d").await.assert_ok();
    assert_eq!(unknown, json!({ "history": [] }));
}

#[tokio::test]
async fn batch_prices_history_bounds() {
    let emu = start().await;
    let markets = clob_markets(&emu.url).await;
    let tokens: Vec<Value> = markets.iter().take(21).map(|m| m["assets_ids"][0].clone()).collect();
    post(&emu.url, "/batch-prices-history", &json!({ "markets": [] })).await.assert_bad("markets");
    post(&emu.url, "/batch-prices-history", &json!({ "markets": tokens })).await.assert_bad("markets");
    post(&emu.url, "/batch-prices-history", &json!({})).await.assert_bad("markets");
    post(&emu.url, "/batch-prices-history", &json!([])).await.assert_bad("object");
    post(&emu.url, "/batch-prices-history", &json!({ "markets": [1] })).await.assert_bad("markets");
    let twenty = &tokens[..20];
    let ok = post(&emu.url, "/batch-prices-history", &json!({ "markets": twenty, "interval": "1d" })).await.assert_ok();
    let history = ok["history"].as_object().unwrap();
    assert_eq!(history.len(), 20);
    assert!(history.values().all(|v| !v.as_array().unwrap().is_empty()));
    post(&emu.url, "/batch-prices-history", &json!({ "markets": twenty, "interval": "1m" }))
        .await
        .assert_bad("interval");
    post(&emu.url, "/batch-prices-history", &json!({ "markets": twenty, "interval": "1d", "start_ts": 1 }))
        .await
        .assert_bad("interval");
    post(&emu.url, "/batch-prices-history", &json!({ "markets": twenty, "start_ts": "x" }))
        .await
        .assert_bad("start_ts");
    post(&emu.url, "/batch-prices-history", &json!({ "markets": twenty, "start_ts": 10, "end_ts": 5 }))
        .await
        .assert_bad("start_ts");
    post(&emu.url, "/batch-prices-history", &json!({ "markets": twenty, "start_ts": 1, "fidelity": 0 }))
        .await
        .assert_bad("fidelity");
    let ranged = post(
        &emu.url,
        "/batch-prices-history",
        &json!({ "markets": &tokens[..2], "start_ts": 1767225600, "end_ts": 1767229200, "fidelity": 60 }),
    )
    .await
    .assert_ok();
    assert_eq!(ranged["history"][tokens[0].as_str().unwrap()].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn clob_market_info_and_fee_rate() {
    let emu = start().await;
    let m = &clob_markets(&emu.url).await[4];
    let info = get(&emu.url, &format!("/clob-markets/{}", m["condition_id"].as_str().unwrap())).await.assert_ok();
    assert_eq!(info["c"], m["condition_id"]);
    assert_eq!(info["t"][0]["t"], m["tokens"][0]["token_id"]);
    assert_eq!(info["mts"], m["minimum_tick_size"]);
    get(&emu.url, "/clob-markets/0x12").await.assert_bad("condition_id");
    let missing = format!("/clob-markets/0x{}", "ab".repeat(32));
    assert_eq!(get(&emu.url, &missing).await.status, StatusCode::NOT_FOUND);
    let fee = get(&emu.url, &format!("/fee-rate/{}", m["tokens"][1]["token_id"].as_str().unwrap())).await.assert_ok();
    assert!(fee["base_fee"].is_i64());
    assert!(fee["fd"]["e"].is_i64());
    assert_eq!(fee["fee_schedule"]["source"], "local");
    assert_eq!(get(&emu.url, "/fee-rate/42").await.status, StatusCode::NOT_FOUND);
}

async fn assert_limit_offset(base: &str, path: &str) {
    let sep = if path.contains('?') { '&' } else { '?' };
    get(base, &format!("{path}{sep}limit=0")).await.assert_bad("limit");
    assert_eq!(get(base, &format!("{path}{sep}limit=1")).await.assert_ok().as_array().unwrap().len(), 1, "{path}");
    get(base, &format!("{path}{sep}limit=100")).await.assert_ok();
    get(base, &format!("{path}{sep}limit=101")).await.assert_bad("limit");
    get(base, &format!("{path}{sep}limit=ten")).await.assert_bad("limit");
    get(base, &format!("{path}{sep}offset=-1")).await.assert_bad("offset");
    get(base, &format!("{path}{sep}offset=0")).await.assert_ok();
    let far = get(base, &format!("{path}{sep}offset=100000000")).await.assert_ok();
    assert_eq!(far, json!([]));
}

#[tokio::test]
async fn events_paging_and_filters() {
    let emu = start().await;
    let b = &emu.url;
    assert_limit_offset(b, "/events").await;
    let first = get(b, "/events").await.assert_ok();
    assert_eq!(first.as_array().unwrap().len(), 20, "default limit");
    let page2 = get(b, "/events?limit=10&offset=10").await.assert_ok();
    assert_eq!(page2[0], first[10], "offsets page");
    for flag in ["active", "closed", "archived", "ascending"] {
        get(b, &format!("/events?{flag}=yes")).await.assert_bad(flag);
    }
    let closed = get(b, "/events?closed=true&limit=100").await.assert_ok();
    assert!(!closed.as_array().unwrap().is_empty());
    assert!(closed.as_array().unwrap().iter().all(|e| e["closed"] == true));
    get(b, "/events?tag_id=abc").await.assert_bad("tag_id");
    let e0 = &first[0];
    let tag = &e0["tags"][0];
    for q in [
        format!("tag_id={}", tag["id"].as_str().unwrap()),
        format!("tag_slug={}", tag["slug"].as_str().unwrap()),
        format!("tag={}", tag["slug"].as_str().unwrap()),
    ] {
        let hits = get(b, &format!("/events?limit=100&{q}")).await.assert_ok();
        assert!(
            hits.as_array().unwrap().iter().all(|e| e["tags"].as_array().unwrap().iter().any(|t| t["id"] == tag["id"])),
            "{q}"
        );
        assert!(hits.as_array().unwrap().iter().any(|e| e["id"] == e0["id"]), "{q}");
    }
    let by_slug = get(b, &format!("/events?slug={}", e0["slug"].as_str().unwrap())).await.assert_ok();
    assert_eq!(by_slug.as_array().unwrap().len(), 1);
    let series = get(b, "/series?limit=1").await.assert_ok();
    let s = &series[0];
    let in_series = get(b, &format!("/events?limit=100&series_slug={}", s["slug"].as_str().unwrap())).await.assert_ok();
    assert_eq!(in_series.as_array().unwrap().len(), s["events"].as_array().unwrap().len().min(100));
    get(b, "/events?order=bogus").await.assert_bad("order");
    let asc = get(b, "/events?order=startDate&ascending=true&limit=50").await.assert_ok();
    let dates: Vec<&str> = asc.as_array().unwrap().iter().map(|e| e["startDate"].as_str().unwrap()).collect();
    assert!(dates.len() >= 2, "an order needs two events");
    assert!(dates.windows(2).all(|w| w[0] <= w[1]));
    let desc = get(b, "/events?order=startDate&limit=50").await.assert_ok();
    let dates: Vec<&str> = desc.as_array().unwrap().iter().map(|e| e["startDate"].as_str().unwrap()).collect();
    assert!(dates.len() >= 2, "an order needs two events");
    assert!(dates.windows(2).all(|w| w[0] >= w[1]));
    let info = info(b).await;
    let creator = &info["creators"][0];
    let by_address =
        get(b, &format!("/events?limit=100&creator={}", creator["id"].as_str().unwrap())).await.assert_ok();
    let by_site = get(b, &format!("/events?limit=100&creator={}", creator["site"].as_str().unwrap())).await.assert_ok();
    assert!(!by_address.as_array().unwrap().is_empty());
    assert_eq!(by_address, by_site);
    assert_eq!(get(b, "/events?creator=nobody.example").await.assert_ok(), json!([]));
}

#[tokio::test]
async fn an_event_leads_to_its_markets_and_books() {
    let emu = start().await;
    let events = get(&emu.url, "/events?limit=5&closed=false").await.assert_ok();
    let market = &events[0]["markets"][0];
    let tokens: Vec<String> = serde_json::from_str(market["clobTokenIds"].as_str().unwrap()).unwrap();
    let mirror: Vec<String> = serde_json::from_str(market["mirrorClobTokenIds"].as_str().unwrap()).unwrap();
    assert_eq!((tokens.len(), mirror.len()), (2, 2));
    for token in &tokens {
        assert!((70..=78).contains(&token.len()) && token.bytes().all(|b| b.is_ascii_digit()), "{token}");
        let book = get(&emu.url, &format!("/book?token_id={token}")).await.assert_ok();
        assert_eq!(book["market"], market["conditionId"]);
    }
    let full = get(&emu.url, &format!("/markets/{}", market["id"].as_str().unwrap())).await.assert_ok();
    assert_eq!(full["clobTokenIds"], market["clobTokenIds"]);
    assert_eq!(full["events"][0]["id"], events[0]["id"]);
    let by_condition =
        get(&emu.url, &format!("/markets/{}", market["conditionId"].as_str().unwrap())).await.assert_ok();
    assert_eq!(by_condition, full);
    let by_slug = get(&emu.url, &format!("/markets/slug/{}", full["slug"].as_str().unwrap())).await.assert_ok();
    assert_eq!(by_slug, full);
    let cond = market["conditionId"].as_str().unwrap();
    assert_eq!(get(&emu.url, &format!("/clob-markets/{cond}")).await.assert_ok()["t"][0]["t"], tokens[0].as_str());
}

#[tokio::test]
async fn catalog_market_lookups() {
    let emu = start().await;
    let b = &emu.url;
    assert_eq!(get(b, "/markets/999").await.status, StatusCode::NOT_FOUND);
    assert_eq!(get(b, &format!("/markets/0x{}", "cd".repeat(32))).await.status, StatusCode::NOT_FOUND);
    get(b, "/markets/not-an-id").await.assert_bad("id");
    assert_eq!(get(b, "/markets/slug/no-such-market").await.status, StatusCode::NOT_FOUND);
    let m = get(b, "/markets/500010").await.assert_ok();
    assert_eq!(m["id"], "500010");
    assert_eq!(get(b, "/markets/500010?creator=nobody.example").await.status, StatusCode::NOT_FOUND);
    let event = get(b, &format!("/events?slug={}", m["events"][0]["slug"].as_str().unwrap())).await.assert_ok();
    assert_eq!(event.as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn series_tags_and_creators() {
    let emu = start().await;
    let b = &emu.url;
    assert_limit_offset(b, "/series").await;
    assert_limit_offset(b, "/tags").await;
    assert_limit_offset(b, "/events/creators").await;
    let tags = get(b, "/tags?limit=5").await.assert_ok();
    let recorded: Value = serde_json::from_str(include_str!("../../tests/fixtures/real/gamma-tags-1.json")).unwrap();
    assert_eq!(tags[0]["id"], recorded[0]["id"]);
    assert_eq!(tags[0]["label"], recorded[0]["label"]);
    let series = get(b, "/series?limit=3").await.assert_ok();
    assert!(!series.as_array().unwrap().is_empty());
    assert!(series.as_array().unwrap().iter().all(|s| s["events"].is_array()));
    let creators = get(b, "/events/creators?limit=100").await.assert_ok();
    assert_eq!(creators.as_array().unwrap().len(), 48);
    let name = creators[3]["creatorName"].as_str().unwrap();
    let filtered = get(b, &format!("/events/creators?creator_name={}", name.replace(' ', "%20"))).await.assert_ok();
    assert!(!filtered.as_array().unwrap().is_empty(), "{name} is found");
    assert!(filtered.as_array().unwrap().iter().all(|c| c["creatorName"] == name));
    let handle = creators[3]["creatorHandle"].as_str().unwrap();
    let by_handle = get(b, &format!("/events/creators?creator_handle={handle}")).await.assert_ok();
    assert_eq!(by_handle[0]["creatorHandle"], handle);
    get(b, "/events/creators?order=nope").await.assert_bad("order");
    get(b, "/events/creators?ascending=1").await.assert_bad("ascending");
    let sorted = get(b, "/events/creators?order=creatorHandle&ascending=true&limit=100").await.assert_ok();
    let handles: Vec<&str> = sorted.as_array().unwrap().iter().map(|c| c["creatorHandle"].as_str().unwrap()).collect();
    assert!(handles.len() >= 2, "an order needs two creators");
    assert!(handles.windows(2).all(|w| w[0] <= w[1]));
}

#[tokio::test]
async fn comments_and_replies() {
    let emu = start().await;
    let b = &emu.url;
    assert_limit_offset(b, "/comments").await;
    let info = info(b).await;
    let event = &info["commented_event"];
    let scope = format!("parent_entity_type=Event&parent_entity_id={}", event["id"].as_str().unwrap());
    let page = get(b, &format!("/comments?{scope}&limit=100")).await.assert_ok();
    let list = page.as_array().unwrap();
    assert_eq!(list.len(), 45);
    assert!(list.iter().all(|c| c["parentEntityType"] == "Event" && c["parentEntityID"].as_u64().is_some()));
    let by_slug =
        get(b, &format!("/comments?event_slug={}&limit=100", event["slug"].as_str().unwrap())).await.assert_ok();
    assert_eq!(by_slug, page);
    let with_replies = list.iter().find(|c| c["id"] == event["first_comment_id"]).unwrap();
    assert_eq!(with_replies["replyCount"], 30);
    assert_eq!(with_replies["replies"].as_array().unwrap().len(), 30);
    get(b, "/comments?parent_entity_type=Event").await.assert_bad("parent_entity_id");
    get(b, "/comments?parent_entity_id=1").await.assert_bad("parent_entity_type");
    get(b, "/comments?parent_entity_type=event&parent_entity_id=1").await.assert_bad("parent_entity_type");
    get(b, "/comments?holders_only=maybe").await.assert_bad("holders_only");
    let holders = get(b, &format!("/comments?{scope}&holders_only=true&limit=100")).await.assert_ok();
    assert!(holders.as_array().unwrap().len() < list.len());
    assert!(!holders.as_array().unwrap().is_empty(), "some commenters hold positions");
    assert!(holders.as_array().unwrap().iter().all(|c| !c["profile"]["positions"].as_array().unwrap().is_empty()));
    let market_comments =
        get(b, "/comments?parent_entity_type=market&parent_entity_id=500000&limit=100").await.assert_ok();
    assert!(!market_comments.as_array().unwrap().is_empty(), "the market has comments");
    assert!(market_comments.as_array().unwrap().iter().all(|c| c["parentEntityType"] == "market"));
    let id = event["first_comment_id"].as_str().unwrap();
    let replies = get(b, &format!("/comments/{id}?limit=100")).await.assert_ok();
    assert_eq!(replies.as_array().unwrap().len(), 30);
    assert!(replies.as_array().unwrap().iter().all(|r| r["parentCommentID"] == id));
    let paged = get(b, &format!("/comments/{id}?limit=10&offset=25")).await.assert_ok();
    assert_eq!(paged.as_array().unwrap().len(), 5);
    get(b, &format!("/comments/{id}?limit=101")).await.assert_bad("limit");
    get(b, &format!("/comments/{id}?limit=0")).await.assert_bad("limit");
    get(b, &format!("/comments/{id}?offset=-1")).await.assert_bad("offset");
    assert_eq!(get(b, "/comments/1").await.status, StatusCode::NOT_FOUND);
    get(b, "/comments/abc").await.assert_bad("id");
}

#[tokio::test]
async fn public_search() {
    let emu = start().await;
    let b = &emu.url;
    get(b, "/public-search").await.assert_bad("q");
    get(b, "/public-search?q=").await.assert_bad("q");
    get(b, "/public-search?q=bitcoin&limit_per_type=0").await.assert_bad("limit_per_type");
    get(b, "/public-search?q=bitcoin&limit_per_type=501").await.assert_bad("limit_per_type");
    get(b, "/public-search?q=bitcoin&page=0").await.assert_bad("page");
    get(b, "/public-search?q=bitcoin&search_tags=no").await.assert_bad("search_tags");
    get(b, "/public-search?q=bitcoin&search_profiles=no").await.assert_bad("search_profiles");
    let one = get(b, "/public-search?q=bitcoin&limit_per_type=1").await.assert_ok();
    assert_eq!(one["events"].as_array().unwrap().len(), 1);
    assert_eq!(one["pagination"]["hasMore"], true);
    let total = one["pagination"]["totalResults"].as_u64().unwrap();
    let all = get(b, "/public-search?q=bitcoin&limit_per_type=500").await.assert_ok();
    assert_eq!(all["events"].as_array().unwrap().len() as u64, total.min(500));
    assert!(!all["tags"].as_array().unwrap().is_empty(), "tags named after Bitcoin");
    assert!(all["tags"].as_array().unwrap().iter().all(|t| t["event_count"].is_u64()));
    let page2 = get(b, "/public-search?q=bitcoin&limit_per_type=1&page=2").await.assert_ok();
    assert_ne!(page2["events"][0]["id"], one["events"][0]["id"]);
    let no_tags = get(b, "/public-search?q=bitcoin&search_tags=false").await.assert_ok();
    assert_eq!(no_tags["tags"], json!([]));
}

#[tokio::test]
async fn activity_trades() {
    let emu = start().await;
    let b = &emu.url;
    assert_eq!(get(b, "/trades").await.assert_ok().as_array().unwrap().len(), 100, "default limit");
    assert_eq!(get(b, "/trades?limit=0").await.assert_ok(), json!([]));
    let all = get(b, "/trades?limit=10000&takerOnly=false").await.assert_ok();
    assert_eq!(all.as_array().unwrap().len(), 6000);
    get(b, "/trades?limit=10001").await.assert_bad("limit");
    get(b, "/trades?limit=-1").await.assert_bad("limit");
    get(b, "/trades?offset=10000").await.assert_ok();
    get(b, "/trades?offset=10001").await.assert_bad("offset");
    get(b, "/trades?takerOnly=1").await.assert_bad("takerOnly");
    get(b, "/trades?filterType=CASH").await.assert_bad("filterAmount");
    get(b, "/trades?filterAmount=5").await.assert_bad("filterType");
    get(b, "/trades?filterType=USD&filterAmount=5").await.assert_bad("filterType");
    get(b, "/trades?filterType=CASH&filterAmount=-1").await.assert_bad("filterAmount");
    get(b, "/trades?market=0x12").await.assert_bad("market");
    get(b, "/trades?user=bob").await.assert_bad("user");
    get(b, "/trades?side=buy").await.assert_bad("side");
    let cash = get(b, "/trades?filterType=CASH&filterAmount=1000&limit=500").await.assert_ok();
    assert!(!cash.as_array().unwrap().is_empty(), "some trades are worth $1,000");
    assert!(cash
        .as_array()
        .unwrap()
        .iter()
        .all(|t| t["size"].as_f64().unwrap() * t["price"].as_f64().unwrap() >= 1000.0));
    let sells = get(b, "/trades?side=SELL&limit=200").await.assert_ok();
    assert!(!sells.as_array().unwrap().is_empty());
    assert!(sells.as_array().unwrap().iter().all(|t| t["side"] == "SELL"));
    let t0 = &all[0];
    let cond = t0["conditionId"].as_str().unwrap();
    assert_eq!(t0["asset"].as_str().unwrap(), format!("{cond}:{}", t0["outcomeIndex"]));
    let other = all.as_array().unwrap().iter().find(|t| t["conditionId"] != cond).unwrap()["conditionId"]
        .as_str()
        .unwrap()
        .to_owned();
    let by_market = get(b, &format!("/trades?takerOnly=false&limit=10000&market={cond},{other}")).await.assert_ok();
    assert!(by_market
        .as_array()
        .unwrap()
        .iter()
        .all(|t| t["conditionId"] == cond || t["conditionId"] == other.as_str()));
    assert!(by_market.as_array().unwrap().iter().any(|t| t["conditionId"] == other.as_str()));
    let user = emu.demo.address.clone();
    let mine = get(b, &format!("/trades?user={user}&limit=10000&takerOnly=false")).await.assert_ok();
    assert!(!mine.as_array().unwrap().is_empty());
    assert!(mine.as_array().unwrap().iter().all(|t| t["proxyWallet"] == user.as_str()));
    let taker = get(b, "/trades?limit=10000").await.assert_ok().as_array().unwrap().len();
    assert!(taker < 6000 && taker > 3000, "takerOnly defaults to true: {taker}");
}

#[tokio::test]
async fn activity_closed_positions() {
    let emu = start().await;
    let b = &emu.url;
    let user = emu.demo.address.clone();
    get(b, "/closed-positions").await.assert_bad("user");
    get(b, "/closed-positions?user=0x1").await.assert_bad("user");
    let q = |rest: &str| format!("/closed-positions?user={user}{rest}");
    assert_eq!(get(b, &q("")).await.assert_ok().as_array().unwrap().len(), 10, "default limit");
    assert_eq!(get(b, &q("&limit=0")).await.assert_ok(), json!([]));
    assert_eq!(get(b, &q("&limit=50")).await.assert_ok().as_array().unwrap().len(), 50);
    get(b, &q("&limit=51")).await.assert_bad("limit");
    get(b, &q("&offset=100000")).await.assert_ok();
    get(b, &q("&offset=100001")).await.assert_bad("offset");
    get(b, &q(&format!("&title={}", "a".repeat(100)))).await.assert_ok();
    get(b, &q(&format!("&title={}", "a".repeat(101)))).await.assert_bad("title");
    get(b, &q("&sortBy=SIZE")).await.assert_bad("sortBy");
    get(b, &q("&sortDirection=UP")).await.assert_bad("sortDirection");
    let pnl = get(b, &q("&limit=50")).await.assert_ok();
    let values: Vec<f64> = pnl.as_array().unwrap().iter().map(|p| p["realizedPnl"].as_f64().unwrap()).collect();
    assert!(values.len() >= 2, "an order needs two positions");
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "REALIZEDPNL DESC by default");
    let ts = get(b, &q("&limit=50&sortBy=TIMESTAMP&sortDirection=ASC")).await.assert_ok();
    let values: Vec<i64> = ts.as_array().unwrap().iter().map(|p| p["timestamp"].as_i64().unwrap()).collect();
    assert!(values.len() >= 2, "an order needs two positions");
    assert!(values.windows(2).all(|w| w[0] <= w[1]));
    let p0 = &pnl[0];
    assert_eq!(p0["proxyWallet"], user.as_str());
    let title_word = p0["title"].as_str().unwrap().split(' ').nth(1).unwrap().to_lowercase();
    let titled = get(b, &q(&format!("&title={title_word}&limit=50"))).await.assert_ok();
    assert!(!titled.as_array().unwrap().is_empty(), "the position's own title matches");
    assert!(titled.as_array().unwrap().iter().all(|p| p["title"]
        .as_str()
        .unwrap()
        .to_lowercase()
        .contains(&title_word)));
    let cond = p0["conditionId"].as_str().unwrap();
    let by_market = get(b, &q(&format!("&market={cond}"))).await.assert_ok();
    assert!(!by_market.as_array().unwrap().is_empty(), "the position's market lists it");
    assert!(by_market.as_array().unwrap().iter().all(|p| p["conditionId"] == cond));
    assert_eq!(get(b, &format!("/closed-positions?user=0x{}", "0".repeat(40))).await.assert_ok(), json!([]));
}

#[tokio::test]
async fn unknown_routes_and_wrong_methods_answer_json() {
    let emu = start().await;
    let r = get(&emu.url, "/no/such/route").await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert!(r.json()["error"].is_string());
    let r = post(&emu.url, "/book", &json!({})).await;
    assert_eq!(r.status, StatusCode::METHOD_NOT_ALLOWED);
    assert!(r.json()["error"].is_string());
    let r = send(client().delete(format!("{}/events", emu.url))).await;
    assert_eq!(r.status, StatusCode::METHOD_NOT_ALLOWED);
    let r = get(&emu.url, "/books").await;
    assert_eq!(r.status, StatusCode::METHOD_NOT_ALLOWED);
    let r = post(&emu.url, "/order", &json!({})).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "POST /order places orders: it needs the SERVICE_* headers");
    assert!(r.json()["error"].is_string());
    let r = get(&emu.url, "/order").await;
    assert_eq!(r.status, StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn cors_preflight_and_exposed_headers() {
    let emu = start().await;
    let preflight = send(
        client()
            .request(reqwest::Method::OPTIONS, format!("{}/order", emu.url))
            .header("Origin", "http://localhost:3000")
            .header("Access-Control-Request-Method", "DELETE")
            .header(
                "Access-Control-Request-Headers",
                "content-type,service_address,service_api_key,service_passphrase,service_timestamp,service_signature",
            ),
    )
    .await;
    assert!(preflight.status.is_success(), "{}", preflight.status);
    let h = |name: &str| preflight.headers.get(name).map(|v| v.to_str().unwrap().to_lowercase()).unwrap_or_default();
    assert_eq!(h("access-control-allow-origin"), "*");
    assert!(h("access-control-allow-methods").contains("delete"));
    assert!(h("access-control-allow-headers").contains("service_signature"));
    let r = send(client().get(format!("{}/", emu.url)).header("Origin", "http://example.test")).await;
    assert_eq!(r.headers["access-control-allow-origin"], "*");
    let exposed = r.headers["access-control-expose-headers"].to_str().unwrap().to_lowercase();
    assert!(exposed.contains("retry-after") && exposed.contains("date"), "{exposed}");
    assert!(r.headers.contains_key("date"));
}

#[tokio::test]
async fn serves_www_and_pkg() {
    let dir = std::env::temp_dir().join(format!("predictkit-emulator-static-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("www")).unwrap();
    std::fs::create_dir_all(dir.join("pkg")).unwrap();
    std::fs::write(dir.join("www/index.html"), "<h1>demo</h1>").unwrap();
    std::fs::write(dir.join("pkg/predictkit_bg.wasm"), b"\0asm\x01\0\0\0").unwrap();
    let emu = start_with(Config {
        www: Some(dir.join("www")),
        pkg: Some(dir.join("pkg")),
        limits: false,
        ..Config::for_tests()
    })
    .await;
    let page = get(&emu.url, "/www/index.html").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.text.contains("demo"));
    let wasm = client().get(format!("{}/pkg/predictkit_bg.wasm", emu.url)).send().await.unwrap();
    assert_eq!(wasm.headers()["content-type"], "application/wasm");
    assert_eq!(wasm.bytes().await.unwrap().len(), 8);
    let _ = std::fs::remove_dir_all(dir);
}
