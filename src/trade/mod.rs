//! Trading: API keys from the user's wallet, orders with exact amounts, their EIP-712 hashes and the
//! bodies that place them. The wallet signs; nothing here holds a private key.

pub mod amounts;
pub mod doctor;
pub mod draft;
pub mod eip712;
pub mod flow;
pub mod heartbeat;
pub mod keys;
pub mod order;
pub mod placing;
pub mod settings;
pub mod tracking;

pub use crate::text::decimal;
