//! The shapes of the market channel's messages, and how often the real shapes announce a trade or follow it
//! with a book.
//!
//! The market channel speaks the shapes real captures of the service show ([`Shapes::Real`], the default):
//! `book` events without their market fields, trades as same-timestamp bursts whose entries all carry the hash
//! of the state after the burst, announced afterwards or never. `POST /__admin/stream {"shapes": "exact"}`
//! brings back one hash per entry for tests that check each entry. Every hash sent is the true hash of the
//! state it claims, computed by [`LiveBook`](crate::market::LiveBook)'s own summary.

use serde::{Deserialize, Serialize};

/// With the real shapes, a trade's `last_trade_price` events are left out once in this many trades.
pub(super) const TRADE_UNANNOUNCED: u32 = 4;
/// With the real shapes, a `book` event (without its market fields) follows a trade once in this many trades.
pub(super) const BOOK_AFTER_TRADE: u32 = 4;

/// The shapes of the market channel's messages.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Shapes {
    /// As real captures of the service show them (the default): `book` events (the subscription's dump, and
    /// after some trades) without `tick_size`, `last_trade_price`, `min_order_size` or `neg_risk`, while their
    /// hash covers those fields; a trade as a burst of two or more `price_change` messages at one timestamp,
    /// every entry with the hash of the book after the burst (its last trade price included), then its
    /// `last_trade_price` event in a message of its own, or, once in [`TRADE_UNANNOUNCED`], none.
    #[default]
    Real,
    /// One message per frame, each entry with the hash of the book right after it, a trade's
    /// `last_trade_price` before its entry, and `book` events with `tick_size` and `last_trade_price`: for
    /// tests that check every entry's hash.
    Exact,
}
