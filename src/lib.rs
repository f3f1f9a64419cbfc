//! PredictKit: a client for prediction-market data and order services, compiled to WebAssembly for the
//! browser and tested natively.
//!
//! The pure core (`api`, `auth`, `book`) knows nothing of JavaScript and runs under `cargo test`;
//! `wasm` (built only for wasm32) converts values, performs fetches and holds no business logic.

pub mod api;
pub mod auth;
pub mod book;
pub mod error;
pub mod json;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use error::{Error, ErrorCode};
