//! The TypeScript declarations name the same error codes and rate-limit scopes as the Rust enums, so that a
//! code or scope added on one side cannot be forgotten on the other.

use predictkit::api::budget::Bucket;
use predictkit::ErrorCode;

const CLIENT_DTS: &str = include_str!("../src/wasm/client.d.ts");

/// The string literals of `export type <name> = | "a" | "b" ...;` in `text`, in order.
fn union_members(text: &str, name: &str) -> Vec<String> {
    let head = format!("export type {name} =");
    let start = text.find(&head).unwrap_or_else(|| panic!("client.d.ts declares {name}")) + head.len();
    let body = &text[start..start + text[start..].find(';').expect("the union ends with ;")];
    let members: Vec<String> = body
        .split('|')
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .map(|m| m.strip_prefix('"').and_then(|m| m.strip_suffix('"')).expect("a string literal").to_owned())
        .collect();
    assert!(!members.is_empty(), "{name} has members");
    members
}

#[test]
fn error_codes_in_the_declarations_equal_the_enum() {
    let declared = union_members(CLIENT_DTS, "PredictKitErrorCode");
    let rust: Vec<String> = ErrorCode::ALL.iter().map(|c| c.as_str().to_owned()).collect();
    assert_eq!(declared, rust);
}

#[test]
fn rate_limit_scopes_in_the_declarations_equal_the_buckets() {
    let declared = union_members(CLIENT_DTS, "RateLimitScope");
    let rust: Vec<String> = Bucket::ALL.iter().map(|b| b.name().to_owned()).collect();
    assert_eq!(declared, rust);
    for name in &declared {
        assert!(CLIENT_DTS.contains(&format!(" * - `{name}`:")), "the scope {name} is described in the comment above");
    }
}

#[test]
fn every_error_code_is_listed_once() {
    // A new variant does not compile here until it has a place, and then the assertion asks for it in ALL.
    let place = |c: ErrorCode| match c {
        ErrorCode::InvalidParams => 0,
        ErrorCode::Unauthorized => 1,
        ErrorCode::Forbidden => 2,
        ErrorCode::NotFound => 3,
        ErrorCode::RateLimited => 4,
        ErrorCode::Server => 5,
        ErrorCode::Api => 6,
        ErrorCode::Network => 7,
        ErrorCode::Timeout => 8,
        ErrorCode::Aborted => 9,
        ErrorCode::Decode => 10,
        ErrorCode::NoMatch => 11,
        ErrorCode::Freed => 12,
        ErrorCode::Signer => 13,
        ErrorCode::EngineRestarting => 14,
        ErrorCode::TradingPaused => 15,
    };
    for (i, code) in ErrorCode::ALL.into_iter().enumerate() {
        assert_eq!(place(code), i, "{} is in its place", code.as_str());
    }
    assert_eq!(ErrorCode::ALL.len(), 16);
}
