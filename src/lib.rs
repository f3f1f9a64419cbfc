//! PredictKit: a client for prediction-market data and order services, compiled to WebAssembly for the
//! browser and tested natively.
//!
//! The pure core knows nothing of JavaScript and runs under `cargo test`: the ground floor (`json`, `text`,
//! `error`, `bounds`), then `auth` and `book`, `api` (requests and the call machine), `task` (the one protocol
//! every machine speaks to the driver), `stream` and `trade`, and `product` (what a call's answer is read
//! into, for the machine that asked). `wasm` (built only for
//! wasm32) converts values, performs fetches and holds no business logic.

// A panic in wasm kills the module for the whole page: nothing a caller or the network sends may reach
// one. Library code (not its tests) may not unwrap, expect, index or panic; it returns errors instead.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing,
        clippy::unreachable,
        clippy::todo,
        clippy::unimplemented
    )
)]
#![allow(clippy::result_large_err)]

pub mod api;
pub mod auth;
pub mod book;
pub mod bounds;
pub mod error;
pub mod json;
pub mod product;
pub mod stream;
pub mod task;
pub mod text;
pub mod trade;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use error::{Error, ErrorCode};
