//! The JS `OrderBook`: a handle on a book parsed in Rust. Converts arguments and results only.

use js_sys::{Float64Array, Object};
use wasm_bindgen::prelude::*;

use std::cell::{Ref, RefCell};

use super::interop::{book_json, field, is_absent, read_bytes, read_f64, read_str};
use crate::book::{self, fixed, Level, OrderType, Side, Target};
use crate::bounds::MAX_BOOK_BYTES;
use crate::error::Error;

#[wasm_bindgen(typescript_custom_section)]
const BOOK_TYPES: &str = include_str!("book.d.ts");

// Result objects are built and options read in JavaScript: one call with numbers instead of a
// property-name string passed from wasm per field (measured: bestBid() 1.4 µs with Reflect, far less so).
#[wasm_bindgen(inline_js = "
export function priceLevel(price, size) { return { price, size }; }
export function simulateResult(filled, notional, avgPrice, worstPrice, levelsUsed, remaining, slippage) {
  return { filled, notional, avgPrice, worstPrice, levelsUsed, remaining, slippage };
}
export function bookDepth(size, notional, levels) { return { size, notional, levels }; }
export function bookLadder(bidPrices, bidDepth, askPrices, askDepth) { return { bidPrices, bidDepth, askPrices, askDepth }; }
export function sizeOf(o) { return o == null ? undefined : o.size; }
export function notionalOf(o) { return o == null ? undefined : o.notional; }
export function withinOf(o) { return o == null ? undefined : o.within; }
export function levelsOf(o) { return o == null ? undefined : o.levels; }
export function sideCode(v) { return v === \"BUY\" ? 1 : v === \"SELL\" ? 2 : 0; }
export function orderTypeCode(v) {
  if (v === undefined || v === null || v === \"FOK\") return 0;
  if (typeof v !== \"string\") return -1;
  return v === \"FAK\" ? 1 : v === \"GTC\" ? 2 : v === \"GTD\" ? 3 : v.length > 8 ? -2 : -3;
}
")]
extern "C" {
    #[wasm_bindgen(js_name = priceLevel)]
    fn price_level(price: f64, size: f64) -> JsValue;
    #[wasm_bindgen(js_name = simulateResult)]
    #[allow(clippy::too_many_arguments)]
    fn simulate_result(
        filled: f64,
        notional: f64,
        avg_price: f64,
        worst_price: f64,
        levels_used: f64,
        remaining: f64,
        slippage: f64,
    ) -> Object;
    #[wasm_bindgen(js_name = bookDepth)]
    fn book_depth(size: f64, notional: f64, levels: f64) -> Object;
    #[wasm_bindgen(js_name = bookLadder)]
    fn book_ladder(
        bid_prices: Float64Array,
        bid_depth: Float64Array,
        ask_prices: Float64Array,
        ask_depth: Float64Array,
    ) -> Object;
    // Option fields (`undefined` when the options are null or undefined), read without passing the
    // property name across; a getter or Proxy trap that throws is caught.
    #[wasm_bindgen(js_name = sizeOf, catch)]
    fn size_of(o: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = notionalOf, catch)]
    fn notional_of(o: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = withinOf, catch)]
    fn within_of(o: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = levelsOf, catch)]
    fn levels_of(o: &JsValue) -> Result<JsValue, JsValue>;
    // A side or an order type as a number, compared in JavaScript: no string is copied into wasm for the
    // argument of every walk (measured: 4,000 fewer instructions a call than three reads of a copied string).
    // `===` and `typeof` run none of the caller's code, so these cannot throw.
    #[wasm_bindgen(js_name = sideCode)]
    fn side_code(v: &JsValue) -> u32;
    #[wasm_bindgen(js_name = orderTypeCode)]
    fn order_type_code(v: &JsValue) -> i32;
}

/// An order book parsed exactly (prices and sizes as integers scaled by 10^6) from the service's JSON.
/// Levels may come in any order; levels repeated at one price count as one level with the summed size,
/// and stay as received for the hash.
///
/// @example
/// const book = OrderBook.fromBytes(new Uint8Array(await response.arrayBuffer()));
/// book.bestBid();                       // { price: 0.48, size: 1500 } or undefined
/// book.marketPrice("BUY", 100, "FOK");  // 0.52
#[wasm_bindgen]
pub struct OrderBook {
    // Every export takes `&self` (wasm-bindgen's shared borrow, which re-entrant calls cannot fail);
    // `applyPriceChange` reads its argument first and then mutates here, calling no JS meanwhile.
    cell: RefCell<book::OrderBook>,
}

impl From<book::OrderBook> for OrderBook {
    fn from(book: book::OrderBook) -> Self {
        Self { cell: RefCell::new(book) }
    }
}

#[cfg(feature = "stream")]
impl OrderBook {
    /// The core's book, out of its JS wrapper.
    pub(super) fn into_inner(self) -> book::OrderBook {
        self.cell.into_inner()
    }
}

impl OrderBook {
    /// The book, for a reading that can fail anyway.
    fn book(&self) -> Result<Ref<'_, book::OrderBook>, Error> {
        self.cell.try_borrow().map_err(|_| Error::invalid("book", "is being changed"))
    }

    /// A reading that cannot fail: the book is only borrowed mutably inside `applyPriceChange`, which
    /// calls no JS meanwhile, so `otherwise` is never the answer.
    fn read<R>(&self, otherwise: R, f: impl FnOnce(&book::OrderBook) -> R) -> R {
        self.cell.try_borrow().map_or(otherwise, |b| f(&b))
    }
}

#[wasm_bindgen]
impl OrderBook {
    /// Parses the bytes of a GET /book response (or one element of POST /books). Throws `DECODE` for
    /// anything that is not a book, or a price or size that is not an exact decimal of at most 6 places.
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(
        #[wasm_bindgen(unchecked_param_type = "Uint8Array")] bytes: JsValue,
    ) -> Result<OrderBook, JsValue> {
        Ok(book::OrderBook::from_vec(read_bytes(&bytes, "bytes", MAX_BOOK_BYTES)?)?.into())
    }

    /// Parses the text of a GET /book response (or one element of POST /books).
    #[wasm_bindgen(js_name = fromJson)]
    pub fn from_json(#[wasm_bindgen(unchecked_param_type = "string")] text: JsValue) -> Result<OrderBook, JsValue> {
        Ok(book::OrderBook::from_vec(read_str(&text, "text", MAX_BOOK_BYTES)?.into_bytes())?.into())
    }

    /// Reads a book object (as `JSON.parse` or `getOrderBook` give it). Numbers are read as JavaScript
    /// writes them, so `0.1 + 0.2` is rejected rather than rounded.
    #[wasm_bindgen(js_name = fromObject)]
    pub fn from_object(
        #[wasm_bindgen(unchecked_param_type = "OrderBookSummary")] book: &JsValue,
    ) -> Result<OrderBook, JsValue> {
        let text = book_json(book, "book", false)?;
        Ok(book::OrderBook::from_vec(text.into_bytes())?.into())
    }

    /// Parses the bytes of a POST /books response: one `OrderBook` per element.
    #[wasm_bindgen(js_name = listFromBytes)]
    pub fn list_from_bytes(
        #[wasm_bindgen(unchecked_param_type = "Uint8Array")] bytes: JsValue,
    ) -> Result<Vec<OrderBook>, JsValue> {
        let bytes = read_bytes(&bytes, "bytes", MAX_BOOK_BYTES)?;
        Ok(book::OrderBook::list_from_bytes(&bytes)?.into_iter().map(OrderBook::from).collect())
    }

    /// The highest bid with the total size at it, or `undefined` when there are no bids.
    #[wasm_bindgen(js_name = bestBid, unchecked_return_type = "PriceLevel | undefined")]
    pub fn best_bid(&self) -> JsValue {
        level(self.read(None, |b| b.best_bid()))
    }

    /// The lowest ask with the total size at it, or `undefined` when there are no asks.
    #[wasm_bindgen(js_name = bestAsk, unchecked_return_type = "PriceLevel | undefined")]
    pub fn best_ask(&self) -> JsValue {
        level(self.read(None, |b| b.best_ask()))
    }

    /// The highest bid's price, NaN when there are no bids. The cheapest call for a hot loop.
    #[wasm_bindgen(js_name = bestBidPrice)]
    pub fn best_bid_price(&self) -> f64 {
        self.read(None, |b| b.best_bid()).map_or(f64::NAN, |l| fixed::to_f64(l.price))
    }

    /// The lowest ask's price, NaN when there are no asks.
    #[wasm_bindgen(js_name = bestAskPrice)]
    pub fn best_ask_price(&self) -> f64 {
        self.read(None, |b| b.best_ask()).map_or(f64::NAN, |l| fixed::to_f64(l.price))
    }

    /// Halfway between the best bid and the best ask; `undefined` when a side is empty.
    pub fn midpoint(&self) -> Option<f64> {
        self.read(None, |b| b.midpoint())
    }

    /// The best ask minus the best bid (negative if crossed); `undefined` when a side is empty.
    pub fn spread(&self) -> Option<f64> {
        self.read(None, |b| b.spread())
    }

    /// The price a market order would reach, exactly as the upstream `calculateBuyMarketPrice` (buy:
    /// `amount` is cash) and `calculateSellMarketPrice` (sell: `amount` is shares) compute it, walking
    /// from the best price. `amount` is rounded to 10^-6. Throws `NO_MATCH` when the side is empty, or
    /// for FOK (the default) when it cannot fill the amount; other types get the worst level's price.
    ///
    /// @example
    /// book.marketPrice("BUY", 100);         // cash: the price that $100 reaches
    /// book.marketPrice("SELL", 250, "FAK"); // shares
    #[wasm_bindgen(js_name = marketPrice)]
    pub fn market_price(
        &self,
        #[wasm_bindgen(unchecked_param_type = "OrderSide")] side: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] amount: JsValue,
        #[wasm_bindgen(js_name = orderType, unchecked_optional_param_type = "MarketOrderType")] order_type: JsValue,
    ) -> Result<f64, JsValue> {
        let side = read_side(&side)?;
        let amount = amount_units("amount", read_f64(&amount, "amount")?)?;
        let order_type = read_order_type(&order_type)?;
        let price = self.book()?.market_price(side, amount, order_type)?;
        Ok(fixed::to_f64(price))
    }

    /// What a market order would fill, level by level from the best price: `{ size }` in shares or
    /// `{ notional }` in cash. Never throws for a thin book: `remaining` says what was left.
    ///
    /// @example
    /// const { avgPrice, worstPrice, slippage } = book.simulate("BUY", { notional: 500 });
    #[wasm_bindgen(unchecked_return_type = "SimulateResult")]
    pub fn simulate(
        &self,
        #[wasm_bindgen(unchecked_param_type = "OrderSide")] side: JsValue,
        #[wasm_bindgen(unchecked_param_type = "SimulateTarget")] target: &JsValue,
    ) -> Result<Object, JsValue> {
        let side = read_side(&side)?;
        let size = size_of(target).map_err(|_| unreadable_option("target"))?;
        let notional = notional_of(target).map_err(|_| unreadable_option("target"))?;
        let target = match (is_absent(&size), is_absent(&notional)) {
            (false, true) => Target::Size(amount_units("size", size.as_f64().unwrap_or(f64::NAN))?),
            (true, false) => Target::Notional(amount_units("notional", notional.as_f64().unwrap_or(f64::NAN))?),
            _ => return Err(Error::invalid("target", "must be { size } or { notional }").into()),
        };
        let book = self.book()?;
        let fill = book.simulate(side, target);
        Ok(simulate_result(
            fixed::to_f64(fill.filled),
            fixed::notional_to_f64(fill.notional),
            fill.avg_price().unwrap_or(f64::NAN),
            fill.worst_price.map_or(f64::NAN, fixed::to_f64),
            f64::from(fill.levels_used),
            fill.remaining_f64(),
            book.slippage(side, &fill).unwrap_or(f64::NAN),
        ))
    }

    /// What a market order of `side` could take within `within` (in price) of the best price it meets:
    /// a buy looks at the asks from the best ask up, a sell at the bids from the best bid down.
    ///
    /// @example
    /// book.depth("BUY", { within: 0.02 }); // { size, notional, levels } of asks up to best ask + 0.02
    #[wasm_bindgen(unchecked_return_type = "BookDepth")]
    pub fn depth(
        &self,
        #[wasm_bindgen(unchecked_param_type = "OrderSide")] side: JsValue,
        #[wasm_bindgen(unchecked_param_type = "{ within: number }")] options: &JsValue,
    ) -> Result<Object, JsValue> {
        let side = read_side(&side)?;
        let within = within_of(options).map_err(|_| unreadable_option("options"))?;
        let within = amount_units("within", within.as_f64().unwrap_or(f64::NAN))?;
        let depth = self.book()?.depth(side, within);
        Ok(book_depth(fixed::to_f64(depth.size), fixed::notional_to_f64(depth.notional), f64::from(depth.levels)))
    }

    /// Cumulative depth by distinct price for charts, best first, as typed arrays; `levels` (default all)
    /// bounds each side.
    ///
    /// @example
    /// const { bidPrices, bidDepth, askPrices, askDepth } = book.ladder({ levels: 20 });
    #[wasm_bindgen(unchecked_return_type = "BookLadder")]
    pub fn ladder(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "{ levels?: number }")] options: Option<JsValue>,
    ) -> Result<Object, JsValue> {
        let levels = levels_of(&options.unwrap_or(JsValue::UNDEFINED)).map_err(|_| unreadable_option("options"))?;
        let levels = match levels {
            v if is_absent(&v) => usize::MAX,
            v => match v.as_f64() {
                Some(n) if n >= 0.0 && n.fract() == 0.0 => n as usize,
                _ => return Err(Error::invalid("levels", "must be a non-negative whole number").into()),
            },
        };
        let ladder = self.book()?.ladder(levels);
        Ok(book_ladder(
            Float64Array::from(ladder.bid_prices.as_slice()),
            Float64Array::from(ladder.bid_depth.as_slice()),
            Float64Array::from(ladder.ask_prices.as_slice()),
            Float64Array::from(ladder.ask_depth.as_slice()),
        ))
    }

    /// The book's hash as the service computes it (SHA-1, lowercase hex, of the compact JSON with `hash`
    /// set to `""`, fields in the interface's order, every value exactly as received). Equal to
    /// `receivedHash` for a book just received.
    pub fn hash(&self) -> Result<String, JsValue> {
        Ok(self.book()?.hash())
    }

    /// Applies one price change of the service's market channel: the new total size at a price, `0`
    /// removing the level. Pass the message's `timestamp` to keep `hash()` equal to the service's.
    ///
    /// @example
    /// for (const change of message.price_changes) book.applyPriceChange(change, message.timestamp);
    #[wasm_bindgen(js_name = applyPriceChange)]
    pub fn apply_price_change(
        &self,
        #[wasm_bindgen(unchecked_param_type = "PriceChange")] change: &JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "string | number")] timestamp: Option<JsValue>,
    ) -> Result<(), JsValue> {
        // Every argument is read before the book is borrowed: reading may run the caller's code.
        if !change.is_object() {
            return Err(Error::invalid("change", "must be an object { side, price, size }").into());
        }
        let side = read_side(&field(change, "side", "side")?)?;
        let price = decimal_text(&field(change, "price", "price")?, "price")?;
        let size = decimal_text(&field(change, "size", "size")?, "size")?;
        let timestamp = match timestamp.filter(|t| !is_absent(t)) {
            None => None,
            Some(t) => Some(match t.as_f64() {
                Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= 9_007_199_254_740_991.0 => {
                    crate::text::decimal(n as u64)
                }
                _ => read_str(&t, "timestamp", 64)?,
            }),
        };
        let mut book = self.cell.try_borrow_mut().map_err(|_| Error::invalid("book", "is being read"))?;
        book.apply_price_change(side, &price, &size)?;
        if let Some(text) = timestamp {
            book.set_timestamp(&text)?;
        }
        Ok(())
    }

    /// The number of bid levels as received.
    #[wasm_bindgen(getter, js_name = bidCount)]
    pub fn bid_count(&self) -> usize {
        self.read(0, |b| b.bids.len())
    }

    /// The number of ask levels as received.
    #[wasm_bindgen(getter, js_name = askCount)]
    pub fn ask_count(&self) -> usize {
        self.read(0, |b| b.asks.len())
    }

    /// The token this book is for.
    #[wasm_bindgen(getter, js_name = assetId)]
    pub fn asset_id(&self) -> Option<String> {
        self.read(None, |b| b.asset_id())
    }

    /// The market (condition id) this book is for.
    #[wasm_bindgen(getter)]
    pub fn market(&self) -> Option<String> {
        self.read(None, |b| b.market())
    }

    /// The book's timestamp as sent (milliseconds, as text).
    #[wasm_bindgen(getter)]
    pub fn timestamp(&self) -> Option<String> {
        self.read(None, |b| b.timestamp())
    }

    /// The hash the service sent with the book.
    #[wasm_bindgen(getter, js_name = receivedHash)]
    pub fn received_hash(&self) -> Option<String> {
        self.read(None, |b| b.received_hash())
    }

    /// The market's tick size (0.01, 0.001, ...), if the book says.
    #[wasm_bindgen(getter, js_name = tickSize)]
    pub fn tick_size(&self) -> Option<f64> {
        self.read(None, |b| b.tick_size()).map(fixed::to_f64)
    }

    /// The smallest order size in shares, if the book says.
    #[wasm_bindgen(getter, js_name = minOrderSize)]
    pub fn min_order_size(&self) -> Option<f64> {
        self.read(None, |b| b.min_order_size()).map(fixed::to_f64)
    }

    /// Whether the market is a neg-risk market, if the book says.
    #[wasm_bindgen(getter, js_name = negRisk)]
    pub fn neg_risk(&self) -> Option<bool> {
        self.read(None, |b| b.neg_risk())
    }

    /// The last trade's price; `undefined` before any trade (the service sends "").
    #[wasm_bindgen(getter, js_name = lastTradePrice)]
    pub fn last_trade_price(&self) -> Option<f64> {
        self.read(None, |b| b.last_trade_price()).map(fixed::to_f64)
    }
}

fn level(level: Option<Level>) -> JsValue {
    match level {
        Some(Level { price, size }) => price_level(fixed::to_f64(price), fixed::to_f64(size)),
        None => JsValue::UNDEFINED,
    }
}

/// An amount (cash, shares, a price distance) rounded to 10^-6 (`Infinity` means more than any book
/// holds); negative or NaN is INVALID_PARAMS.
pub(super) fn amount_units(param: &'static str, value: f64) -> Result<u64, Error> {
    fixed::nearest_units(value).ok_or_else(|| Error::invalid(param, "must be a non-negative number"))
}

/// `INVALID_PARAMS`: an options object whose reading threw.
fn unreadable_option(param: &'static str) -> Error {
    Error::invalid(param, "could not be read (reading it threw)")
}

/// "BUY" or "SELL".
pub(super) fn read_side(value: &JsValue) -> Result<Side, Error> {
    match side_code(value) {
        1 => Ok(Side::Buy),
        2 => Ok(Side::Sell),
        _ => Err(Error::invalid("side", "must be \"BUY\" or \"SELL\"")),
    }
}

/// The order type, FOK when absent (`undefined` or `null`); the errors are those of reading an optional
/// string of at most 8 units and parsing it.
pub(super) fn read_order_type(value: &JsValue) -> Result<OrderType, Error> {
    match order_type_code(value) {
        0 => Ok(OrderType::Fok),
        1 => Ok(OrderType::Fak),
        2 => Ok(OrderType::Gtc),
        3 => Ok(OrderType::Gtd),
        -1 => Err(Error::invalid("orderType", "must be a string")),
        -2 => Err(Error::invalid("orderType", "is too long")),
        // Any other string: the parser's own refusal.
        _ => OrderType::parse(""),
    }
}

/// A decimal given as a string (kept as written) or a number (written without trailing zeros); a number
/// with more than 6 decimals is INVALID_PARAMS.
fn decimal_text(value: &JsValue, param: &'static str) -> Result<String, Error> {
    if value.is_string() {
        return read_str(value, param, 64);
    }
    let units = value.as_f64().and_then(fixed::from_f64);
    let units =
        units.ok_or_else(|| Error::invalid(param, "must be a decimal string or a number with at most 6 decimals"))?;
    let mut out = Vec::new();
    fixed::format(units, &mut out);
    Ok(String::from_utf8(out).unwrap_or_default())
}
