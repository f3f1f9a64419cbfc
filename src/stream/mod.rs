//! The service's streaming channels (market and user), as pure decisions: the subscription messages,
//! the frames' events, live books that check the service's hash, and the stream's health. The binding
//! (`src/wasm/stream.rs`) owns the socket and the timers and does what these answer.

mod burst;
pub mod health;
pub mod index;
pub mod live;
pub mod options;
pub mod protocol;
#[cfg(test)]
mod shapes_tests;

mod session;
pub use session::{Session, MAX_QUEUED_EVENTS, SNAPSHOT_RETRY_MS};
