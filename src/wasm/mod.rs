//! The JavaScript binding: converts values, performs fetches, holds no business logic.
//! This folder alone names wasm-bindgen, js-sys and web-sys.

/// Talc instead of the default dlmalloc: smaller and faster for wasm (measured with `cargo xtask build`).
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

mod book;
mod call;
mod client;
mod interop;
mod math;
mod pages;
mod signing;
#[cfg(feature = "stream")]
mod stream;
#[cfg(feature = "trade")]
mod trade;
mod types;

pub use book::OrderBook;
pub use client::Client;
pub use math::{
    calculate_buy_market_price, calculate_fee, calculate_sell_market_price, decimal_places, is_tick_size_smaller,
    order_book_hash, price_valid, round_down, round_normal, round_up, rounding_config,
};
pub use signing::{create_l2_headers, sign_request};
