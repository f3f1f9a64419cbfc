//! The JavaScript binding: converts values, performs fetches, holds no business logic.
//! This folder alone names wasm-bindgen, js-sys and web-sys.

mod book;
mod client;
mod interop;
mod signing;
mod transport;
mod types;

pub use book::OrderBook;
pub use client::Client;
pub use interop::is_predictkit_error;
pub use signing::{create_l2_headers, sign_request};
