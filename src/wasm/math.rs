//! The upstream clients' helpers as free functions: book hash of a plain object, market price over level
//! arrays, tick-size rounding, fees. Converts arguments and results only; the math is `crate::book::math`.

use js_sys::{Number, Object};
use wasm_bindgen::prelude::*;

use super::book::{amount_units, read_order_type};
use super::interop::{book_json, field, items, read_f64, read_str, set, to_value};
use crate::book::math::{self, FeeRate, Rounding, MAX_DECIMALS, ROUNDING_CONFIG};
use crate::book::{fixed, sha1_hex, Level, Side};
use crate::error::Error;

#[wasm_bindgen(typescript_custom_section)]
const MATH_TYPES: &str = include_str!("math.d.ts");

/// The SHA-1 book hash of a book object exactly as the upstream `generateOrderBookSummaryHash` computes
/// it: `JSON.stringify` of the object with `hash` set to `""` (keys in the object's own order; a missing
/// `hash` goes last). Unlike upstream, the object is not modified.
///
/// @example
/// orderBookHash(await client.getOrderBook(tokenId)); // "d7df883a..."
#[wasm_bindgen(js_name = orderBookHash)]
pub fn order_book_hash(
    #[wasm_bindgen(unchecked_param_type = "OrderBookSummary")] book: &JsValue,
) -> Result<String, JsValue> {
    Ok(sha1_hex(book_json(book, "book", true)?.as_bytes()))
}

/// The price a market buy of `amount` cash reaches on `asks` as the service lists them (best ask LAST),
/// walking from the last element like the upstream function; exact sums. Throws `NO_MATCH` for an empty
/// array, and for FOK (the default) when the asks cannot fill it; other types get the first element's price.
///
/// @example
/// calculateBuyMarketPrice([{ price: "0.6", size: "100" }, { price: "0.5", size: "100" }], 80, "FOK"); // 0.6
#[wasm_bindgen(js_name = calculateBuyMarketPrice)]
pub fn calculate_buy_market_price(
    #[wasm_bindgen(unchecked_param_type = "OrderSummary[]")] asks: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] amount: &JsValue,
    #[wasm_bindgen(js_name = orderType, unchecked_optional_param_type = "MarketOrderType")] order_type: &JsValue,
) -> Result<f64, JsValue> {
    market_price(asks, Side::Buy, amount, order_type)
}

/// The price a market sell of `amount` shares reaches on `bids` as the service lists them (best bid
/// LAST), as the upstream function computes it. Errors as `calculateBuyMarketPrice`.
#[wasm_bindgen(js_name = calculateSellMarketPrice)]
pub fn calculate_sell_market_price(
    #[wasm_bindgen(unchecked_param_type = "OrderSummary[]")] bids: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] amount: &JsValue,
    #[wasm_bindgen(js_name = orderType, unchecked_optional_param_type = "MarketOrderType")] order_type: &JsValue,
) -> Result<f64, JsValue> {
    market_price(bids, Side::Sell, amount, order_type)
}

fn market_price(levels: &JsValue, side: Side, amount: &JsValue, order_type: &JsValue) -> Result<f64, JsValue> {
    let array =
        items(levels, "levels")?.ok_or_else(|| Error::invalid("levels", "must be an array of { price, size }"))?;
    let amount = amount_units("amount", read_f64(amount, "amount")?)?;
    let order_type = read_order_type(order_type)?;
    let mut read = Vec::with_capacity(array.length() as usize);
    for item in array.iter() {
        if !item.is_object() {
            return Err(Error::invalid("levels", "must be an array of { price, size }").into());
        }
        let price = decimal(&field(&item, "price", "price")?, "price")?;
        let size = decimal(&field(&item, "size", "size")?, "size")?;
        read.push(Level { price, size });
    }
    let price = math::market_price(&read, side, amount, order_type)?;
    Ok(fixed::to_f64(price))
}

/// A decimal given as a string or a number, exactly.
fn decimal(value: &JsValue, param: &'static str) -> Result<u64, Error> {
    let units = if value.is_string() {
        read_str(value, param, 64).ok().and_then(|text| fixed::parse(text.as_bytes()))
    } else {
        value.as_f64().and_then(fixed::from_f64)
    };
    units.ok_or_else(|| Error::invalid(param, "must be a non-negative decimal with at most 6 decimals"))
}

/// Decimal places of a number as JavaScript writes it, counting exponent notation (`1.23e-7` has 9).
///
/// @example
/// decimalPlaces(949.9970999999999); // 13
#[wasm_bindgen(js_name = decimalPlaces)]
pub fn decimal_places(#[wasm_bindgen(unchecked_param_type = "number")] num: &JsValue) -> Result<u32, JsValue> {
    Ok(places(read_f64(num, "num")?))
}

fn places(num: f64) -> u32 {
    math::decimal_places(&shortest(num))
}

/// JavaScript's `String(num)`: the shortest text that reads back as the same number.
fn shortest(num: f64) -> String {
    Number::from(num).to_string_with_radix(10).ok().and_then(|s| s.as_string()).unwrap_or_default()
}

fn rounded(num: &JsValue, decimals: &JsValue, rounding: Rounding) -> Result<f64, JsValue> {
    let num = read_f64(num, "num")?;
    let decimals = read_f64(decimals, "decimals")?;
    if !(decimals >= 0.0 && decimals <= f64::from(MAX_DECIMALS) && decimals.fract() == 0.0) {
        return Err(Error::invalid("decimals", "must be a whole number from 0 to 22").into());
    }
    Ok(math::round(num, decimals as u32, places(num), rounding))
}

/// Rounds to `decimals` places, halves up (with the upstream's `Number.EPSILON` nudge); a number with
/// no more places than that comes back unchanged.
///
/// @example
/// roundNormal(0.5555, 2); // 0.56
#[wasm_bindgen(js_name = roundNormal)]
pub fn round_normal(
    #[wasm_bindgen(unchecked_param_type = "number")] num: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] decimals: &JsValue,
) -> Result<f64, JsValue> {
    rounded(num, decimals, Rounding::Normal)
}

/// Rounds down to `decimals` places; a number with no more places comes back unchanged (so
/// `roundDown(0.57, 2)` is 0.57, not 0.56 from binary error).
#[wasm_bindgen(js_name = roundDown)]
pub fn round_down(
    #[wasm_bindgen(unchecked_param_type = "number")] num: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] decimals: &JsValue,
) -> Result<f64, JsValue> {
    rounded(num, decimals, Rounding::Down)
}

/// Rounds up to `decimals` places; a number with no more places comes back unchanged.
#[wasm_bindgen(js_name = roundUp)]
pub fn round_up(
    #[wasm_bindgen(unchecked_param_type = "number")] num: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] decimals: &JsValue,
) -> Result<f64, JsValue> {
    rounded(num, decimals, Rounding::Up)
}

/// Whether `tickSize ≤ price ≤ 1 − tickSize`.
///
/// @example
/// priceValid(0.999, "0.01"); // false
#[wasm_bindgen(js_name = priceValid)]
pub fn price_valid(
    #[wasm_bindgen(unchecked_param_type = "number")] price: &JsValue,
    #[wasm_bindgen(js_name = tickSize, unchecked_param_type = "string | number")] tick_size: &JsValue,
) -> Result<bool, JsValue> {
    Ok(math::price_valid(read_f64(price, "price")?, decimal(tick_size, "tickSize")?))
}

/// Whether tick size `a` is smaller than `b` (`"0.001"` < `"0.01"`).
#[wasm_bindgen(js_name = isTickSizeSmaller)]
pub fn is_tick_size_smaller(
    #[wasm_bindgen(unchecked_param_type = "string | number")] a: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | number")] b: &JsValue,
) -> Result<bool, JsValue> {
    Ok(decimal(a, "a")? < decimal(b, "b")?)
}

/// The upstream `ROUNDING_CONFIG`: decimal places of price, size and amount per tick size (a fresh
/// object each call).
///
/// @example
/// roundingConfig()["0.01"]; // { price: 2, size: 2, amount: 4 }
#[wasm_bindgen(js_name = roundingConfig, unchecked_return_type = "Record<string, RoundingConfigEntry>")]
pub fn rounding_config() -> Object {
    let out = Object::new();
    for (tick, price, size, amount) in ROUNDING_CONFIG {
        let entry = Object::new();
        set(&entry, "price", &JsValue::from(price));
        set(&entry, "size", &JsValue::from(size));
        set(&entry, "amount", &JsValue::from(amount));
        set(&out, tick, &entry);
    }
    out
}

/// The fee of a trade of `size` shares at `price`: `size × rate × (price × (1 − price))^exponent`,
/// exact in decimal where the inputs have at most 6 places.
///
/// @example
/// calculateFee({ rate: 0.25, exponent: 2 }, 100, 0.5); // 1.5625
#[wasm_bindgen(js_name = calculateFee)]
pub fn calculate_fee(
    #[wasm_bindgen(js_name = feeRate, unchecked_param_type = "FeeRateInput")] fee_rate: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] size: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] price: &JsValue,
) -> Result<f64, JsValue> {
    let fee = FeeRate::from_value(&to_value(fee_rate, "feeRate")?)?;
    Ok(math::checked_fee(fee, read_f64(size, "size")?, read_f64(price, "price")?)?)
}
