//! The upstream clients' helpers: market price over level arrays, tick-size rounding, fees.

use super::walk::PriceWalk;
use super::{fixed, Level, OrderType, Side};
use crate::error::Error;

/// The market price over a level array exactly as the upstream `calculateBuyMarketPrice` (asks, `side`
/// Buy, `amount` cash) and `calculateSellMarketPrice` (bids, Sell, shares) compute it: from the LAST
/// element backwards, whatever the prices, since the service lists the best level last. Exact sums
/// instead of floating point.
pub fn market_price(levels: &[Level], side: Side, amount: u64, order_type: OrderType) -> Result<u64, Error> {
    let mut walk = PriceWalk::new(side, amount);
    for level in levels.iter().rev() {
        if !walk.step(level.price, level.size) {
            break;
        }
    }
    walk.finish(order_type)
}

/// Decimal places of a number from its shortest round-trip text (JavaScript's `String(x)`), counting
/// exponent notation: `"1.23e-7"` has 9. Integers, NaN and infinities have 0.
pub fn decimal_places(shortest: &str) -> u32 {
    // By hand rather than with `str::parse`, which would cost a kilobyte of wasm for three digits.
    let bytes = shortest.as_bytes();
    let bytes = bytes.strip_prefix(b"-").unwrap_or(bytes);
    if !bytes.first().is_some_and(u8::is_ascii_digit) {
        return 0;
    }
    let (mut fraction, mut exponent, mut negative) = (0i64, 0i64, false);
    let mut part = 0; // 0: integer digits, 1: fraction digits, 2: exponent
    for &b in bytes {
        match (part, b) {
            (0, b'.') => part = 1,
            (0 | 1, b'e' | b'E') => part = 2,
            (1, b'0'..=b'9') => fraction += 1,
            (2, b'-') => negative = true,
            (2, b'0'..=b'9') => exponent = (exponent * 10 + i64::from(b - b'0')).min(100_000),
            _ => {}
        }
    }
    let exponent = if negative { -exponent } else { exponent };
    u32::try_from((fraction - exponent).max(0)).unwrap_or(u32::MAX)
}

/// Rounding of the upstream helpers: numbers with at most `decimals` places (`places`, from
/// [`decimal_places`]) come back unchanged, so `roundDown(0.57, 2)` is 0.57 and not 0.56 from binary error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    /// `Math.round((x + Number.EPSILON) * 10^d) / 10^d`
    Normal,
    /// `Math.floor(x * 10^d) / 10^d`
    Down,
    /// `Math.ceil(x * 10^d) / 10^d`
    Up,
}

/// Decimals the rounding helpers accept: 10^d is exact in a double up to 22.
pub const MAX_DECIMALS: u32 = 22;

pub fn round(x: f64, decimals: u32, places: u32, rounding: Rounding) -> f64 {
    if places <= decimals {
        return x;
    }
    let scale = pow10(decimals);
    let scaled = match rounding {
        Rounding::Normal => js_round((x + f64::EPSILON) * scale),
        Rounding::Down => (x * scale).floor(),
        Rounding::Up => (x * scale).ceil(),
    };
    scaled / scale
}

/// 10^d, exact for d ≤ 22.
fn pow10(decimals: u32) -> f64 {
    let mut scale = 1.0;
    for _ in 0..decimals.min(MAX_DECIMALS) {
        scale *= 10.0;
    }
    scale
}

/// JavaScript's `Math.round`: halves go towards +∞. `x - floor(x)` is exact.
fn js_round(x: f64) -> f64 {
    let floor = x.floor();
    if x - floor >= 0.5 {
        floor + 1.0
    } else {
        floor
    }
}

/// `tick ≤ price ≤ 1 − tick`, with `1 − tick` taken exactly (the double nearest to it).
pub fn price_valid(price: f64, tick: u64) -> bool {
    match fixed::SCALE.checked_sub(tick) {
        Some(top) => price >= fixed::to_f64(tick) && price <= fixed::to_f64(top),
        None => false,
    }
}

/// Decimal places of prices, sizes and amounts for each tick size, as the upstream `ROUNDING_CONFIG`.
pub const ROUNDING_CONFIG: [(&str, u32, u32, u32); 6] = [
    ("0.1", 1, 2, 3),
    ("0.01", 2, 2, 4),
    ("0.001", 3, 2, 5),
    ("0.0001", 4, 2, 6),
    ("0.005", 3, 2, 5),
    ("0.0025", 4, 2, 6),
];

/// A fee-rate schedule (`fee_schedule { rate, exponent }` or `fd { r, e }` of GET /fee-rate).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FeeRate {
    pub rate: f64,
    pub exponent: u32,
}

impl FeeRate {
    /// A fee rate in any of the shapes the service writes one: `{ rate, exponent }` (GET /fee-rate's
    /// `fee_schedule`, or alone), `{ r, e }` (a CLOB market's `fd`, or alone).
    pub fn from_value(value: &crate::json::Value) -> Result<FeeRate, Error> {
        use crate::json::Value;
        let bad = || Error::invalid("feeRate", "must be { rate, exponent }, { r, e } or a GET /fee-rate answer");
        let Value::Object(fields) = value else { return Err(bad()) };
        fn get<'a>(fields: &'a [(String, Value)], key: &str) -> &'a Value {
            fields.iter().find(|(k, _)| k == key).map_or(&Value::Undefined, |(_, v)| v)
        }
        let present = |v: &Value| !matches!(v, Value::Undefined | Value::Null);
        let pair = |inner: &Value, rate: &str, exponent: &str| match inner {
            Value::Object(f) => Ok((get(f, rate).clone(), get(f, exponent).clone())),
            _ => Err(bad()),
        };
        let (schedule, fd) = (get(fields, "fee_schedule"), get(fields, "fd"));
        let (rate, exponent) = if present(schedule) {
            pair(schedule, "rate", "exponent")?
        } else if present(fd) {
            pair(fd, "r", "e")?
        } else if present(get(fields, "rate")) {
            pair(value, "rate", "exponent")?
        } else {
            pair(value, "r", "e")?
        };
        let rate = match rate {
            Value::Number(r) if r.is_finite() && r >= 0.0 => r,
            _ => return Err(bad()),
        };
        let exponent = match exponent {
            Value::Number(e) if (0.0..=64.0).contains(&e) && e.fract() == 0.0 => e as u32,
            _ => return Err(bad()),
        };
        Ok(FeeRate { rate, exponent })
    }
}

/// [`calculate_fee`] of a caller's `size` and `price`, checked: a size that is finite and not negative, a
/// price between 0 and 1.
pub fn checked_fee(fee: FeeRate, size: f64, price: f64) -> Result<f64, Error> {
    if !(size.is_finite() && size >= 0.0) {
        return Err(Error::invalid("size", "must be a finite non-negative number"));
    }
    if !(0.0..=1.0).contains(&price) {
        return Err(Error::invalid("price", "must be between 0 and 1"));
    }
    Ok(calculate_fee(fee, size, price))
}

/// Exponents beyond this are computed in floating point only.
const EXACT_EXPONENT: u32 = 4;

/// The fee of a trade of `size` shares at `price`: `size × rate × (price × (1 − price))^exponent`.
/// Computed exactly in decimal when the inputs are decimals of at most six places and the result fits,
/// so 0.3 gives 1.1025 and not 1.1024999999999998; in floating point otherwise.
pub fn calculate_fee(fee: FeeRate, size: f64, price: f64) -> f64 {
    exact_fee(fee, size, price).unwrap_or_else(|| {
        let p = price * (1.0 - price);
        size * fee.rate * p.powi(fee.exponent.min(i32::MAX as u32) as i32)
    })
}

fn exact_fee(fee: FeeRate, size: f64, price: f64) -> Option<f64> {
    if fee.exponent > EXACT_EXPONENT {
        return None;
    }
    let (size, rate, price) = (fixed::from_f64(size)?, fixed::from_f64(fee.rate)?, fixed::from_f64(price)?);
    let q = u128::from(price).checked_mul(u128::from(fixed::SCALE.checked_sub(price)?))?;
    // value = size × rate × q^e, in 10^-(12 + 12e) units.
    let mut value = u128::from(size).checked_mul(u128::from(rate))?;
    let mut scale = 12 + 12 * fee.exponent;
    for _ in 0..fee.exponent {
        value = value.checked_mul(q)?;
    }
    while scale > 0 && value % 10 == 0 && value != 0 {
        value /= 10;
        scale -= 1;
    }
    if value == 0 {
        return Some(0.0);
    }
    // One rounding: an integer below 2^53 divided by an exact power of ten.
    (value < 1 << 53 && scale <= MAX_DECIMALS).then(|| value as f64 / pow10(scale))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fee_rates_are_read_in_every_shape_the_service_writes() {
        use crate::json::Value;
        fn obj(pairs: &[(&str, Value)]) -> Value {
            Value::Object(pairs.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect())
        }
        let n = Value::Number;
        let quarter_squared = FeeRate { rate: 0.25, exponent: 2 };
        let table = [
            (obj(&[("rate", n(0.25)), ("exponent", n(2.0))]), Some(quarter_squared)),
            (obj(&[("r", n(0.25)), ("e", n(2.0))]), Some(quarter_squared)),
            (
                obj(&[("fee_schedule", obj(&[("rate", n(0.25)), ("exponent", n(2.0))])), ("base_fee", n(0.0))]),
                Some(quarter_squared),
            ),
            (obj(&[("fd", obj(&[("r", n(0.25)), ("e", n(2.0))])), ("mts", n(0.01))]), Some(quarter_squared)),
            (obj(&[("rate", n(-0.1)), ("exponent", n(1.0))]), None),
            (obj(&[("rate", n(0.1)), ("exponent", n(1.5))]), None),
            (obj(&[("rate", n(0.1)), ("exponent", n(65.0))]), None),
            (obj(&[("fee_schedule", n(1.0))]), None),
            (obj(&[("rate", Value::Str("0.1".into())), ("exponent", n(1.0))]), None),
            (n(0.25), None),
        ];
        for (i, (value, want)) in table.into_iter().enumerate() {
            match (FeeRate::from_value(&value), want) {
                (Ok(got), Some(want)) => assert_eq!(got, want, "row {i}"),
                (Err(e), None) => assert_eq!(e.param.as_deref(), Some("feeRate"), "row {i}"),
                (got, want) => panic!("row {i}: {got:?} vs {want:?}"),
            }
        }
        assert_eq!(checked_fee(quarter_squared, 100.0, 0.5).unwrap(), 1.5625);
        assert_eq!(checked_fee(quarter_squared, -1.0, 0.5).unwrap_err().param.as_deref(), Some("size"));
        assert_eq!(checked_fee(quarter_squared, 1.0, 1.5).unwrap_err().param.as_deref(), Some("price"));
    }
    use serde_json::Value;

    fn vectors(name: &str) -> Value {
        let path = format!("{}/tests/fixtures/vectors/{name}", env!("CARGO_MANIFEST_DIR"));
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    /// The inputs of the decimalPlaces vectors read from their text with a correctly rounding parser
    /// (serde_json's default float parsing is not, and 949.9970999999999 would come out as 949.9971).
    fn decimal_places_inputs() -> Vec<f64> {
        let path = format!("{}/tests/fixtures/vectors/rounding-and-fees.json", env!("CARGO_MANIFEST_DIR"));
        let text: String = std::fs::read_to_string(path).unwrap().split_whitespace().collect();
        let start = text.find("\"decimalPlaces\"").unwrap();
        let list = &text[start..];
        let list = &list[list.find('[').unwrap() + 1..list.find("]]").unwrap()];
        list.split('[')
            .filter_map(|pair| pair.split(',').next())
            .filter(|x| !x.trim().is_empty())
            .map(|x| x.trim().parse().unwrap())
            .collect()
    }

    /// Rust's shortest round-trip text in exponent form has the same digits as JavaScript's `String(x)`.
    fn places(x: f64) -> u32 {
        decimal_places(&format!("{x:e}"))
    }

    #[test]
    fn market_price_vectors() {
        let v = vectors("market-price.json");
        let cases = v["cases"].as_array().unwrap();
        assert!(cases.len() >= 30);
        for case in cases {
            let levels: Vec<Level> = case["levels"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| Level {
                    price: fixed::parse(l["price"].as_str().unwrap().as_bytes()).unwrap(),
                    size: fixed::parse(l["size"].as_str().unwrap().as_bytes()).unwrap(),
                })
                .collect();
            let side = Side::parse(case["side"].as_str().unwrap()).unwrap();
            let order_type = OrderType::parse(case["orderType"].as_str().unwrap()).unwrap();
            let amount = fixed::from_f64(case["amount"].as_f64().unwrap()).unwrap();
            let got = market_price(&levels, side, amount, order_type);
            match &case["expected"] {
                Value::String(e) if e == "error" => {
                    assert_eq!(got.unwrap_err().code, crate::error::ErrorCode::NoMatch, "{case}")
                }
                want => assert_eq!(fixed::to_f64(got.unwrap()), want.as_f64().unwrap(), "{case}"),
            }
        }
    }

    #[test]
    fn rounding_vectors() {
        let v = vectors("rounding-and-fees.json");
        let places_cases = v["decimalPlaces"].as_array().unwrap();
        assert!(places_cases.len() >= 10);
        for (case, x) in places_cases.iter().zip(decimal_places_inputs()) {
            let want = case[1].as_u64().unwrap() as u32;
            assert_eq!(places(x), want, "{x}");
        }
        for case in v["roundDown"].as_array().unwrap() {
            let (x, d, want) = (case[0].as_f64().unwrap(), case[1].as_u64().unwrap() as u32, case[2].as_f64().unwrap());
            assert_eq!(round(x, d, places(x), Rounding::Down), want);
        }
        let prices: Vec<f64> =
            v["priceValid"]["prices"].as_array().unwrap().iter().map(|p| p.as_f64().unwrap()).collect();
        for tick in ["0.1", "0.01", "0.001", "0.0001"] {
            let tick_units = fixed::parse(tick.as_bytes()).unwrap();
            let want: Vec<bool> =
                v["priceValid"][tick].as_array().unwrap().iter().map(|b| b.as_bool().unwrap()).collect();
            let got: Vec<bool> = prices.iter().map(|&p| price_valid(p, tick_units)).collect();
            assert_eq!(got, want, "tick {tick}");
        }
        let config = v["roundingConfig"].as_object().unwrap();
        assert_eq!(config.len(), ROUNDING_CONFIG.len());
        for (tick, price, size, amount) in ROUNDING_CONFIG {
            let c = &config[tick];
            assert_eq!(
                (c["price"].as_u64(), c["size"].as_u64(), c["amount"].as_u64()),
                (Some(price.into()), Some(size.into()), Some(amount.into())),
                "{tick}"
            );
        }
        for case in v["fee"]["cases"].as_array().unwrap() {
            let fee =
                FeeRate { rate: case["rate"].as_f64().unwrap(), exponent: case["exponent"].as_u64().unwrap() as u32 };
            let got = calculate_fee(fee, case["contracts"].as_f64().unwrap(), case["price"].as_f64().unwrap());
            assert_eq!(got, case["fee"].as_f64().unwrap(), "{case}");
        }
    }

    #[test]
    fn rounding_rounds_what_has_more_places() {
        assert_eq!(round(0.5555, 2, places(0.5555), Rounding::Normal), 0.56);
        assert_eq!(round(0.5549, 2, places(0.5549), Rounding::Normal), 0.55);
        assert_eq!(round(0.5555, 2, places(0.5555), Rounding::Down), 0.55);
        assert_eq!(round(0.5511, 2, places(0.5511), Rounding::Up), 0.56);
        assert_eq!(round(1.005, 2, places(1.005), Rounding::Normal), 1.01);
        assert_eq!(js_round(-2.5), -2.0);
        assert_eq!(js_round(2.5), 3.0);
        assert!(round(f64::NAN, 2, 0, Rounding::Up).is_nan());
        assert_eq!(decimal_places("NaN"), 0);
        assert_eq!(decimal_places("-Infinity"), 0);
        assert_eq!(decimal_places("1e+21"), 0);
        assert_eq!(decimal_places("-0.25"), 2);
    }

    #[test]
    fn fees_fall_back_to_floating_point() {
        let fee = FeeRate { rate: 0.25, exponent: 2 };
        // More than six decimals: not exact, still close.
        let got = calculate_fee(fee, 100.0, 0.1234567);
        let want = 100.0 * 0.25 * (0.1234567f64 * (1.0 - 0.1234567)).powi(2);
        assert!((got - want).abs() < 1e-12);
        assert_eq!(calculate_fee(FeeRate { rate: 0.0, exponent: 1 }, 10.0, 0.5), 0.0);
        assert_eq!(calculate_fee(FeeRate { rate: 0.02, exponent: 1 }, 10.0, 0.5), 0.05);
        assert!(!price_valid(0.5, 2_000_000));
    }
}
