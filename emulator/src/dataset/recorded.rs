//! The real recorded responses of tests/fixtures/real (provenance in its PROVENANCE.md): books served as recorded,
//! and the CLOB markets and tags the catalog starts with.

use super::records::{Market, Tag};
use crate::books::BookKind;
use crate::text::parse_micro;

/// Real recorded GET /book responses.
const BOOKS: [&str; 3] = [
    include_str!("../../../tests/fixtures/real/clob-book-1.json"),
    include_str!("../../../tests/fixtures/real/clob-book-2.json"),
    include_str!("../../../tests/fixtures/real/clob-book-3.json"),
];
/// Real recorded CLOB markets: the first three CLOB markets of the catalog keep their ids, questions and tokens.
pub const CLOB_MARKETS: [&str; 3] = [
    include_str!("../../../tests/fixtures/real/clob-market-1.json"),
    include_str!("../../../tests/fixtures/real/clob-market-2.json"),
    include_str!("../../../tests/fixtures/real/clob-market-3.json"),
];
/// Real recorded tags: the first tags of the catalog.
const TAGS: &str = include_str!("../../../tests/fixtures/real/gamma-tags-1.json");

/// The recorded books.
pub fn books() -> Vec<RealBook> {
    BOOKS.iter().map(|text| RealBook::parse(text)).collect()
}

/// The recorded tags.
pub fn tags() -> Vec<Tag> {
    let real: Vec<serde_json::Value> = serde_json::from_str(TAGS).expect("recorded tags are valid JSON");
    real.iter()
        .map(|t| Tag {
            id: t["id"].as_str().and_then(|s| s.parse().ok()).unwrap_or(0),
            label: t["label"].as_str().unwrap_or_default().to_owned(),
            slug: t["slug"].as_str().unwrap_or_default().to_owned(),
            created: t["createdAt"].as_str().unwrap_or_default().to_owned(),
            updated: t["updatedAt"].as_str().unwrap_or_default().to_owned(),
        })
        .collect()
}

/// One recorded order book, kept as the exact JSON text it is served as.
pub struct RealBook {
    pub asset_id: String,
    pub json: String,
    /// Best bid and ask in millionths, for /price and /midpoint.
    pub best_bid: Option<u64>,
    pub best_ask: Option<u64>,
}

impl RealBook {
    fn parse(text: &str) -> Self {
        let value: serde_json::Value = serde_json::from_str(text).expect("recorded books are valid JSON");
        let asset_id = value["asset_id"].as_str().expect("recorded books have an asset_id").to_owned();
        let best = |side: &str, highest: bool| {
            let prices = value[side]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|l| l["price"].as_str())
                .filter_map(parse_micro);
            if highest {
                prices.max()
            } else {
                prices.min()
            }
        };
        let (best_bid, best_ask) = (best("bids", true), best("asks", false));
        // Served compact, as the service does, keeping the recorded key order and strings.
        Self { asset_id, json: compact(text), best_bid, best_ask }
    }
}

/// JSON text without the whitespace between tokens (strings untouched).
fn compact(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let (mut in_string, mut escaped) = (false, false);
    for ch in text.chars() {
        if in_string {
            out.push(ch);
            if escaped {
                escaped = false;
            } else if ch == '\\' {
                escaped = true;
            } else if ch == '"' {
                in_string = false;
            }
        } else if ch == '"' {
            in_string = true;
            out.push(ch);
        } else if !ch.is_whitespace() {
            out.push(ch);
        }
    }
    out
}

/// Takes ids, question and tokens of a recorded CLOB market.
pub fn apply_clob_market(m: &mut Market, text: &str) {
    let v: serde_json::Value = serde_json::from_str(text).expect("recorded markets are valid JSON");
    let s = |k: &str| v[k].as_str().unwrap_or_default().to_owned();
    m.condition_id = s("condition_id");
    m.question_id = s("question_id");
    m.question = s("question");
    m.description = s("description");
    m.slug = s("market_slug");
    m.neg_risk = v["neg_risk"].as_bool().unwrap_or(false);
    m.neg_risk_market_id = s("neg_risk_market_id");
    m.neg_risk_request_id = s("neg_risk_request_id");
    m.tick = (v["minimum_tick_size"].as_f64().unwrap_or(0.01) * 1e6).round() as u64;
    m.min_order_size = v["minimum_order_size"].as_u64().unwrap_or(5);
    m.closed = v["closed"].as_bool().unwrap_or(false);
    m.accepting_orders = v["accepting_orders"].as_bool().unwrap_or(false);
    m.active = v["active"].as_bool().unwrap_or(true);
    m.archived = false;
    if let Some(tokens) = v["tokens"].as_array() {
        for (k, t) in tokens.iter().take(2).enumerate() {
            m.tokens[k] = t["token_id"].as_str().unwrap_or_default().to_owned();
            m.outcomes[k] = t["outcome"].as_str().unwrap_or_default().to_owned();
            m.prices[k] = (t["price"].as_f64().unwrap_or(0.0) * 1e6).round() as u64;
            if t["winner"].as_bool() == Some(true) {
                m.winner = Some(k);
            }
        }
    }
    if !m.closed {
        m.winner = None;
        m.book = BookKind::Random(12, 12);
    } else {
        m.book = BookKind::Empty;
    }
    m.sampling = !m.closed;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compacting_keeps_strings() {
        assert_eq!(compact("{ \"a b\" : [1, \"x\\\" y\"] }"), "{\"a b\":[1,\"x\\\" y\"]}");
    }
}
