//! Cursor paging to the end, the huge books, determinism by seed.

mod common;

use std::collections::HashSet;
use std::time::Instant;

use common::*;
use serde_json::Value;

async fn walk(base: &str, path: &str, end: &str) -> (Vec<Value>, usize) {
    let mut cursor = "MA==".to_owned();
    let mut items = Vec::new();
    let mut pages = 0;
    loop {
        let page = get(base, &format!("{path}?next_cursor={cursor}")).await.assert_ok();
        pages += 1;
        let data = page["data"].as_array().unwrap();
        assert_eq!(page["count"].as_u64().unwrap() as usize, data.len());
        assert_eq!(page["limit"], 100);
        items.extend(data.iter().cloned());
        cursor = page["next_cursor"].as_str().unwrap().to_owned();
        if cursor == end {
            return (items, pages);
        }
        assert!(pages < 1000, "no end");
    }
}

#[tokio::test]
async fn every_clob_market_by_cursor() {
    let emu = start().await;
    let first = get(&emu.url, "/markets").await.assert_ok();
    assert_eq!(first["next_cursor"], "MTAw", "Base64 of the next offset");
    assert_eq!(first, get(&emu.url, "/markets?next_cursor=MA==").await.assert_ok());
    let (markets, pages) = walk(&emu.url, "/markets", "").await;
    assert_eq!(pages, 100);
    assert_eq!(markets.len(), 10_000);
    let conditions: HashSet<&str> = markets.iter().map(|m| m["condition_id"].as_str().unwrap()).collect();
    assert_eq!(conditions.len(), 10_000);
    assert!(conditions
        .iter()
        .all(|c| c.len() == 66 && c.starts_with("0x") && c[2..].bytes().all(|b| b.is_ascii_hexdigit())));
    let tokens: HashSet<&str> =
        markets.iter().flat_map(|m| m["assets_ids"].as_array().unwrap().iter().map(|t| t.as_str().unwrap())).collect();
    assert_eq!(tokens.len(), 20_000);
    assert!(
        tokens.iter().all(|t| (70..=78).contains(&t.len()) && t.bytes().all(|b| b.is_ascii_digit())),
        "token ids are 70-78 digits"
    );
    // Every token has a book: a sample across the whole list.
    for m in markets.iter().step_by(97) {
        for t in m["assets_ids"].as_array().unwrap() {
            let book = get(&emu.url, &format!("/book?token_id={}", t.as_str().unwrap())).await.assert_ok();
            assert_eq!(book["market"], m["condition_id"]);
        }
    }
    // Past the end: an empty page with the end cursor.
    let past = get(&emu.url, "/markets?next_cursor=OTk5OTk5").await.assert_ok();
    assert_eq!(past["data"].as_array().unwrap().len(), 0);
    assert_eq!(past["next_cursor"], "");
    get(&emu.url, "/markets?next_cursor=not-base64!").await.assert_bad("next_cursor");
    get(&emu.url, "/markets?next_cursor=YWJj").await.assert_bad("next_cursor");
}

#[tokio::test]
async fn sampling_markets_by_cursor() {
    let emu = start().await;
    let (items, _) = walk(&emu.url, "/sampling-markets", "").await;
    let info = info(&emu.url).await;
    assert_eq!(items.len() as u64, info["counts"]["sampling_markets"].as_u64().unwrap());
    assert!(items.len() > 1000);
    let ids: HashSet<&str> = items.iter().map(|m| m["condition_id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), items.len());
    for m in &items {
        for absent in ["status", "market_id", "slug", "assets_ids", "outcomes", "event", "raw_metadata"] {
            assert!(m.get(absent).is_none(), "sampling markets have no {absent}");
        }
        assert!(!m["rewards"]["rates"].as_array().unwrap().is_empty());
    }
}

#[tokio::test]
async fn lte_end_cursor_flag() {
    let emu = start_with(Config { cursor_end_lte: true, limits: false, ..Config::for_tests() }).await;
    let (markets, _) = walk(&emu.url, "/markets", "LTE=").await;
    assert_eq!(markets.len(), 10_000);
    let after = get(&emu.url, "/markets?next_cursor=LTE=").await.assert_ok();
    assert_eq!(after["data"].as_array().unwrap().len(), 0);
    assert_eq!(after["next_cursor"], "LTE=");
    let orders = auth_get(&emu.url, "/data/orders?next_cursor=MjAw", &emu.demo).await.assert_ok();
    assert_eq!(orders["next_cursor"], "LTE=");
    assert_eq!(orders["count"], 100);
}

#[tokio::test]
async fn huge_books_are_built_on_demand() {
    let emu = start().await;
    let token = special_token(&emu.url, "huge").await;
    let t = Instant::now();
    let book = get(&emu.url, &format!("/book?token_id={token}")).await.assert_ok();
    let first = t.elapsed();
    assert_eq!(book["bids"].as_array().unwrap().len(), 100_000);
    assert_eq!(book["asks"].as_array().unwrap().len(), 100_000);
    let t = Instant::now();
    let again = client().get(format!("{}/book?token_id={token}", emu.url)).send().await.unwrap().bytes().await.unwrap();
    assert!(again.len() > 5_000_000);
    eprintln!("huge book: first {first:?}, cached {:?}", t.elapsed());
    let deep = special_token(&emu.url, "deep").await;
    let book = get(&emu.url, &format!("/book?token_id={deep}")).await.assert_ok();
    assert_eq!(book["bids"].as_array().unwrap().len(), 10_000);
}

async fn snapshot(base: &str) -> Vec<Value> {
    let markets = get(base, "/markets?next_cursor=MjAw").await.assert_ok();
    let token = markets["data"][7]["assets_ids"][0].as_str().unwrap().to_owned();
    vec![
        get(base, "/events?limit=30").await.assert_ok(),
        markets,
        get(base, &format!("/book?token_id={token}")).await.assert_ok(),
        get(base, "/trades?limit=50").await.assert_ok(),
        get(base, "/comments?limit=10").await.assert_ok(),
        get(base, "/__admin/accounts").await.assert_ok(),
    ]
}

#[tokio::test]
async fn same_seed_same_data_other_seed_other_data() {
    let a = start_with(Config { seed: 1, limits: false, ..Config::for_tests() }).await;
    let b = start_with(Config { seed: 1, limits: false, ..Config::for_tests() }).await;
    let c = start_with(Config { seed: 2, limits: false, ..Config::for_tests() }).await;
    let (sa, sb, sc) = (snapshot(&a.url).await, snapshot(&b.url).await, snapshot(&c.url).await);
    assert_eq!(sa, sb);
    for (x, y) in sa.iter().zip(&sc) {
        assert_ne!(x, y);
    }
    assert_ne!(a.demo.api_key, c.demo.api_key);
    // The recorded books are the same under every seed.
    let real = |base: &str| format!("{base}/book?token_id={REAL_BOOK_2}");
    assert_eq!(
        client().get(real(&a.url)).send().await.unwrap().text().await.unwrap(),
        client().get(real(&c.url)).send().await.unwrap().text().await.unwrap()
    );
}
