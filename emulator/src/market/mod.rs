//! The market layer: the live order books and the types of their changes, below both trading (which matches
//! orders on them and says what each placement or cancellation does to a book, [`Effects`]) and the streaming
//! channels (which hold the live books, apply those changes under their lock and publish them). It imports
//! neither.

pub mod book;

use serde_json::Value;

pub use book::{parse_fixed, Change, LiveBook, Side, ONE};

/// What one trading operation does to a live book (the stream hub applies it, `Hub::trade`) and who hears of it.
#[derive(Default)]
pub struct Effects {
    /// Level changes and trades, applied and sent in this order.
    pub changes: Vec<Change>,
    /// Changes of the user orders' size resting at (side, price), which the simulator leaves alone.
    pub reserve: Vec<(Side, u64, i64)>,
    /// User-channel events: (account, (condition id, event)).
    pub user: Vec<(usize, (String, Value))>,
    /// Level changes of the market's other token's book (fills of orders resting on the complementary token), applied
    /// and sent after `changes`, and the user orders' sizes they take off its levels.
    pub complement: Vec<Change>,
    pub complement_reserve: Vec<(Side, u64, i64)>,
}
