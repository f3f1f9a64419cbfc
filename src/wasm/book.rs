//! The JS `OrderBook`: a handle on a book parsed in Rust.

use js_sys::Object;
use wasm_bindgen::prelude::*;

use super::interop::set;
use crate::book::{self, fixed, Level};

/// An order book parsed exactly (prices and sizes as integers scaled by 10^6) from the service's JSON.
///
/// @example
/// const book = OrderBook.fromJson(text);
/// book.bestBid(); // { price: 0.48, size: 1500 } or undefined
#[wasm_bindgen]
pub struct OrderBook {
    inner: book::OrderBook,
}

impl From<book::OrderBook> for OrderBook {
    fn from(inner: book::OrderBook) -> Self {
        Self { inner }
    }
}

#[wasm_bindgen]
impl OrderBook {
    /// Parses the bytes of a GET /book response (or one element of POST /books).
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(bytes: &[u8]) -> Result<OrderBook, JsValue> {
        Ok(book::OrderBook::from_bytes(bytes)?.into())
    }

    /// Parses the text of a GET /book response (or one element of POST /books).
    #[wasm_bindgen(js_name = fromJson)]
    pub fn from_json(text: &str) -> Result<OrderBook, JsValue> {
        Self::from_bytes(text.as_bytes())
    }

    /// The highest bid, or `undefined` when there are no bids.
    #[wasm_bindgen(js_name = bestBid, unchecked_return_type = "PriceLevel | undefined")]
    pub fn best_bid(&self) -> JsValue {
        level(self.inner.best_bid())
    }

    /// The lowest ask, or `undefined` when there are no asks.
    #[wasm_bindgen(js_name = bestAsk, unchecked_return_type = "PriceLevel | undefined")]
    pub fn best_ask(&self) -> JsValue {
        level(self.inner.best_ask())
    }

    /// The number of bid levels as received.
    #[wasm_bindgen(getter, js_name = bidCount)]
    pub fn bid_count(&self) -> usize {
        self.inner.bids.len()
    }

    /// The number of ask levels as received.
    #[wasm_bindgen(getter, js_name = askCount)]
    pub fn ask_count(&self) -> usize {
        self.inner.asks.len()
    }

    /// The token this book is for.
    #[wasm_bindgen(getter, js_name = assetId)]
    pub fn asset_id(&self) -> Option<String> {
        self.inner.asset_id()
    }

    /// The market (condition id) this book is for.
    #[wasm_bindgen(getter)]
    pub fn market(&self) -> Option<String> {
        self.inner.market()
    }
}

fn level(level: Option<Level>) -> JsValue {
    match level {
        Some(Level { price, size }) => {
            let obj = Object::new();
            set(&obj, "price", &JsValue::from_f64(fixed::to_f64(price)));
            set(&obj, "size", &JsValue::from_f64(fixed::to_f64(size)));
            obj.into()
        }
        None => JsValue::UNDEFINED,
    }
}
