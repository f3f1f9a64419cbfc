//! Property tests: no params a caller can pass make a request builder panic, and whatever is built is a
//! well-formed request; whatever the service answers, classifying it does not panic; paging always ends.
#![cfg(not(target_arch = "wasm32"))]

use predictkit::api::{self, Paging, Params, Value};
use predictkit::ErrorCode;
use proptest::prelude::*;

/// Names the builders know, mixed with arbitrary ones, so that both the rules and the unknown-name check
/// are exercised.
const NAMES: &[&str] = &[
    "limit",
    "offset",
    "takerOnly",
    "filterType",
    "filterAmount",
    "market",
    "user",
    "side",
    "title",
    "sortBy",
    "sortDirection",
    "order",
    "parent_entity_type",
    "parent_entity_id",
    "event_slug",
    "holders_only",
    "creator",
    "active",
    "closed",
    "archived",
    "tag",
    "tag_id",
    "tag_slug",
    "series_slug",
    "slug",
    "ascending",
    "creator_name",
    "creator_handle",
    "q",
    "limit_per_type",
    "page",
    "search_tags",
    "search_profiles",
    "startTs",
    "endTs",
    "interval",
    "fidelity",
    "markets",
    "start_ts",
    "end_ts",
    "id",
    "asset_id",
    "next_cursor",
    "maker_address",
    "before",
    "after",
    "token_id",
];

fn number() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>(),
        (-5i64..200_000).prop_map(|n| n as f64),
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(9_007_199_254_740_993.0),
        Just(-0.0),
    ]
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[0-9]{1,100}",
        "0x[0-9a-f]{40}",
        "0x[0-9a-fA-F]{64}",
        Just("BUY".to_owned()),
        Just("MA==".to_owned()),
        Just("1d".to_owned()),
        Just("Event".to_owned()),
        ".{0,300}",
    ]
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Undefined),
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number().prop_map(Value::Number),
        text().prop_map(Value::Str),
        Just(Value::Other),
    ];
    leaf.prop_recursive(4, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::vec((name(), inner), 0..6).prop_map(Value::Object),
        ]
    })
}

fn name() -> impl Strategy<Value = String> {
    prop_oneof![prop::sample::select(NAMES).prop_map(str::to_owned), "[a-zA-Z_]{0,12}"]
}

fn params() -> impl Strategy<Value = Params> {
    prop::collection::vec((name(), value()), 0..8).prop_map(Params)
}

type Build = fn(&Params) -> Result<api::HttpRequest, predictkit::Error>;

const BUILDERS: &[(&str, Build)] = &[
    ("trades", api::trades),
    ("closed_positions", api::closed_positions),
    ("comments", api::comments),
    ("series", api::series),
    ("events", api::events),
    ("event_creators", api::event_creators),
    ("public_search", api::public_search),
    ("tags", api::tags),
    ("prices_history", api::prices_history),
    ("batch_prices_history", api::batch_prices_history),
    ("open_orders", api::open_orders),
    ("cancel_market_orders", api::cancel_market_orders),
    ("user_trades", api::user_trades),
];

/// A built request is well formed: a rooted path without spaces or raw query characters, a URL that
/// carries each query pair, and a body that is valid JSON.
fn well_formed(request: &api::HttpRequest) {
    assert!(request.path.starts_with('/'));
    assert!(!request.path.contains([' ', '?', '#']), "{}", request.path);
    let url = request.url("http://h");
    assert!(!url.contains(' '), "{url}");
    // Values are percent-encoded, so `?` and `&` only separate the pairs.
    if request.query.is_empty() {
        assert!(!url.contains('?'), "{url}");
    } else {
        assert_eq!(url.matches('?').count(), 1, "{url}");
        assert_eq!(url.matches('&').count(), request.query.len() - 1, "{url}");
    }
    if let Some(body) = &request.body {
        serde_json::from_str::<serde_json::Value>(body).expect("bodies are JSON");
    }
}

fn checked(result: Result<api::HttpRequest, predictkit::Error>) {
    match result {
        Ok(request) => well_formed(&request),
        Err(e) => {
            assert_eq!(e.code, ErrorCode::InvalidParams);
            assert!(e.param.is_some(), "{e:?}");
            assert!(e.message.len() < 2000);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn params_builders_never_panic(p in params()) {
        for (_, build) in BUILDERS {
            checked(build(&p));
        }
    }

    #[test]
    fn path_and_value_builders_never_panic(s in text(), v in value(), p in params()) {
        checked(api::comment_replies(&s, &p));
        checked(api::market_by_slug(&s, &p));
        checked(api::market(&s, &p));
        checked(api::clob_market_info(&s));
        checked(api::order_book(&s));
        checked(api::price(&s, &s));
        checked(api::midpoint(&s));
        checked(api::fee_rate(&s));
        checked(api::order(&s));
        checked(api::cancel_order(&s));
        checked(api::clob_markets(Some(&s)));
        checked(api::sampling_markets(Some(&s)));
        checked(api::order_books(&v));
        checked(api::prices(&v));
    }

    #[test]
    fn answers_never_panic(status in 0u16..1000, body in prop::collection::vec(any::<u8>(), 0..400), after in proptest::option::of(any::<f64>())) {
        let request = api::order_book("1").unwrap();
        match api::check_response(&request, status, &body, after) {
            Ok(()) => prop_assert!((200..300).contains(&status)),
            Err(e) => {
                prop_assert_eq!(e.status, Some(status));
                prop_assert!(e.body.as_deref().is_some_and(|b| b.chars().count() <= 200));
            }
        }
    }

    #[test]
    fn paging_always_ends(pages in prop::collection::vec((0usize..300, "[A-Za-z0-9=]{0,6}"), 1..60), limit in 1u64..200) {
        // Each page asked for moves on from the one before (another cursor, never the end marker; a
        // greater offset within the route's bound), and a short page ends offset paging.
        let offset_paging = Paging::Offset { max_offset: 10_000 };
        let mut cursor = Some(api::first_page(Params::default(), Paging::Cursor, 0).unwrap());
        let mut offset = Some(api::first_page(Params::default(), offset_paging, limit).unwrap());
        let mut last_cursor = String::new();
        let mut last_offset = -1.0;
        for (len, next) in &pages {
            if let Some(asked) = cursor.take() {
                let Value::Str(c) = asked.get("next_cursor") else { unreachable!() };
                prop_assert!(!c.is_empty() && *c != last_cursor && c != api::END_CURSOR, "cursor {:?} asked", c);
                last_cursor = c.clone();
                cursor = api::following(&asked, Paging::Cursor, *len, Some(next));
            }
            if let Some(asked) = offset.take() {
                let Value::Number(at) = *asked.get("offset") else { unreachable!() };
                prop_assert!(at > last_offset && at <= 10_000.0);
                last_offset = at;
                offset = api::following(&asked, offset_paging, *len, None);
                if (*len as u64) < limit {
                    prop_assert!(offset.is_none(), "a page shorter than the limit ends offset paging");
                }
            }
        }
    }
}
