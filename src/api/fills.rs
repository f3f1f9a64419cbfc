//! The account's side of a trade. A trade the service reports (a `trade` event of the user channel, a row of
//! GET /data/trades) describes the *taker's* order at its top level: its side, asset, outcome, price and size.
//! When the account is a maker, its own fills are the `maker_orders[]` entries whose `owner` is its API key, and
//! they can be on the complementary token (a buy of YES matched against a buy of NO) at a price off the tick grid
//! (`"0.870000260000099"`): a reader of the top level sees someone else's trade. [`fills`] says what the account
//! itself bought or sold.
//!
//! Who took: `trader_side` or `type` (`"TAKER"` / `"MAKER"`, the account's perspective on REST rows), else
//! `trade_owner` (the taker's key, on the user channel), else the trade reached the account and none of its makers
//! is the account's: it took.

use super::Value;
use crate::json::JsonWriter;

/// The most maker entries read of one trade.
const MAX_MAKERS: usize = 1_000;

fn text<'a>(value: &'a Value, name: &str) -> Option<&'a str> {
    match value.field(name) {
        Some(Value::Str(s)) if s.len() <= 256 => Some(s.as_str()),
        _ => None,
    }
}

/// `BUY` or `SELL`, whatever the case the service wrote it in.
fn side(value: &Value) -> Option<&'static str> {
    let s = text(value, "side")?;
    if s.eq_ignore_ascii_case("BUY") {
        Some("BUY")
    } else if s.eq_ignore_ascii_case("SELL") {
        Some("SELL")
    } else {
        None
    }
}

/// One fill of the account's: which of its orders, on which asset and outcome, its side, the price it traded at
/// and the shares.
fn write_fill(w: &mut JsonWriter, role: &str, order: Option<&str>, part: &Value, size: Option<&str>) {
    w.object_start();
    w.field_str("role", role);
    if let Some(order) = order {
        w.field_str("orderId", order);
    }
    for (from, to) in [("asset_id", "assetId"), ("outcome", "outcome")] {
        if let Some(v) = text(part, from) {
            w.field_str(to, v);
        }
    }
    if let Some(s) = side(part) {
        w.field_str("side", s);
    }
    if let Some(p) = text(part, "price") {
        w.field_str("price", p);
    }
    if let Some(s) = size {
        w.field_str("size", s);
    }
    w.object_end();
}

/// The account's fills in `trade`, for its API key `key`, as a JSON array of
/// `{ role: "TAKER"|"MAKER", orderId, assetId, outcome, side, price, size }` (fields the trade does not give are
/// left out). Empty when the trade is none of the account's, or no key is known.
pub fn fills(trade: &Value, key: Option<&str>) -> String {
    let mut w = JsonWriter::array();
    let Some(key) = key.filter(|k| !k.is_empty() && matches!(trade, Value::Object(_))) else { return w.finish() };
    let makers: &[Value] = match trade.field("maker_orders") {
        Some(Value::Array(items)) => items.get(..items.len().min(MAX_MAKERS)).unwrap_or_default(),
        _ => &[],
    };
    let mine = |m: &&Value| text(m, "owner") == Some(key);
    let perspective = text(trade, "trader_side")
        .or_else(|| text(trade, "type"))
        .filter(|t| t.eq_ignore_ascii_case("TAKER") || t.eq_ignore_ascii_case("MAKER"));
    let took = match (perspective, text(trade, "trade_owner")) {
        (Some(p), _) => p.eq_ignore_ascii_case("TAKER"),
        (None, Some(owner)) => owner == key,
        (None, None) => !makers.iter().any(|m| mine(&m)),
    };
    if took {
        write_fill(&mut w, "TAKER", text(trade, "taker_order_id"), trade, text(trade, "size"));
    }
    for m in makers.iter().filter(mine) {
        write_fill(&mut w, "MAKER", text(m, "order_id"), m, text(m, "matched_amount"));
    }
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fills_of(json: &str, key: Option<&str>) -> serde_json::Value {
        serde_json::from_str(&fills(&crate::api::params::from_json(json), key)).unwrap()
    }

    /// The issue's shape: the account ("mine") rests a buy of NO; a taker buys YES at 0.13 against it, and the
    /// service reports the taker's order at the top level and the account's fill on the complementary token at a
    /// price off the tick grid.
    const AS_MAKER: &str = r#"{"event_type":"trade","id":"t1","taker_order_id":"0xtaker","market":"0xm",
        "asset_id":"111","side":"BUY","size":"20","price":"0.13","outcome":"Yes","owner":"mine",
        "trade_owner":"theirs","status":"MATCHED","bucket_index":"0","type":"TRADE",
        "maker_orders":[
          {"order_id":"0xmine","owner":"mine","maker_address":"0xa","matched_amount":"15","price":"0.870000260000099",
           "asset_id":"222","outcome":"No","side":"BUY","fee_rate_bps":"0"},
          {"order_id":"0xother","owner":"someone","maker_address":"0xb","matched_amount":"5","price":"0.87",
           "asset_id":"222","outcome":"No","side":"BUY","fee_rate_bps":"0"}]}"#;

    #[test]
    fn a_makers_fills_are_its_entries_not_the_top_level() {
        let got = fills_of(AS_MAKER, Some("mine"));
        assert_eq!(
            got,
            serde_json::json!([{ "role": "MAKER", "orderId": "0xmine", "assetId": "222", "outcome": "No",
                "side": "BUY", "price": "0.870000260000099", "size": "15" }])
        );
        // The taker (whose key is the trade owner) took the top level.
        let theirs = fills_of(AS_MAKER, Some("theirs"));
        assert_eq!(theirs[0]["role"], "TAKER");
        assert_eq!((theirs[0]["assetId"].as_str(), theirs[0]["size"].as_str()), (Some("111"), Some("20")));
        assert_eq!(theirs.as_array().unwrap().len(), 1);
    }

    #[test]
    fn who_took_follows_the_perspective_then_the_trade_owner_then_the_makers() {
        // (trade, key, roles)
        let table = [
            // A REST row of the taker's: `trader_side` says so; lower-case sides are written upper case.
            (
                r#"{"taker_order_id":"0x1","asset_id":"1","side":"buy","size":"5","price":"0.5","trader_side":"TAKER","owner":"k","maker_orders":[]}"#,
                "k",
                vec!["TAKER"],
            ),
            // A REST row of a maker's (`type`, this service's name).
            (
                r#"{"taker_order_id":"0x1","type":"MAKER","owner":"k","maker_orders":[{"order_id":"0x2","owner":"k","matched_amount":"5","side":"sell"}]}"#,
                "k",
                vec!["MAKER"],
            ),
            // The user channel without trade_owner: none of the makers is the account's, so it took.
            (
                r#"{"taker_order_id":"0x1","type":"TRADE","owner":"k","maker_orders":[{"order_id":"0x2","owner":"x"}]}"#,
                "k",
                vec!["TAKER"],
            ),
            (
                r#"{"taker_order_id":"0x1","type":"TRADE","owner":"k","maker_orders":[{"order_id":"0x2","owner":"k"}]}"#,
                "k",
                vec!["MAKER"],
            ),
            // A self-trade: both sides are the account's.
            (
                r#"{"taker_order_id":"0x1","trade_owner":"k","maker_orders":[{"order_id":"0x2","owner":"k"}]}"#,
                "k",
                vec!["TAKER", "MAKER"],
            ),
            // None of the account's.
            (
                r#"{"taker_order_id":"0x1","trade_owner":"x","maker_orders":[{"order_id":"0x2","owner":"y"}]}"#,
                "k",
                vec![],
            ),
            // Odd shapes: maker_orders null, or not an array.
            (r#"{"taker_order_id":"0x1","trade_owner":"k","maker_orders":null}"#, "k", vec!["TAKER"]),
            (r#"{"trade_owner":"x","maker_orders":{"owner":"k"}}"#, "k", vec![]),
        ];
        for (trade, key, roles) in table {
            let got = fills_of(trade, Some(key));
            let got: Vec<&str> = got.as_array().unwrap().iter().map(|f| f["role"].as_str().unwrap()).collect();
            assert_eq!(got, roles, "{trade}");
        }
        let sides = fills_of(r#"{"trader_side":"TAKER","side":"buy"}"#, Some("k"));
        assert_eq!(sides[0]["side"], "BUY");
        // Without credentials nothing is the account's.
        assert_eq!(fills_of(AS_MAKER, None), serde_json::json!([]));
        assert_eq!(fills_of("[]", Some("k")), serde_json::json!([]));
    }
}
