//! Changes that wait: one change of a book as a frame carries it, and the copy of it kept while the book's
//! snapshot is on the way.

use crate::book::Side;

/// Changes kept per asset while its snapshot is on the way; beyond this the snapshot is fetched again.
pub const MAX_PENDING: usize = 10_000;

/// One change of a book, as a frame carries it (borrowed from the frame's bytes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Change<'a> {
    Level { timestamp: u64, side: Side, price: &'a str, size: &'a str, hash: Option<&'a str>, check: bool },
    TickSize { timestamp: u64, tick_size: &'a str },
    LastTrade { timestamp: u64, price: &'a str },
}

impl Change<'_> {
    pub(super) fn timestamp(&self) -> u64 {
        match self {
            Self::Level { timestamp, .. } | Self::TickSize { timestamp, .. } | Self::LastTrade { timestamp, .. } => {
                *timestamp
            }
        }
    }
}

/// A change that could not be applied yet (its book is on the way), kept with its text.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Pending {
    change: Change<'static>,
    /// The text the change's fields point into: price, size, hash (or the tick size, or the price).
    text: [String; 3],
}

impl Pending {
    pub(super) fn keep(change: Change<'_>) -> Self {
        let own = |s: &str| s.to_owned();
        let (text, change) = match change {
            Change::Level { timestamp, side, price, size, hash, check } => (
                [own(price), own(size), own(hash.unwrap_or_default())],
                Change::Level { timestamp, side, price: "", size: "", hash: hash.map(|_| ""), check },
            ),
            Change::TickSize { timestamp, tick_size } => {
                ([own(tick_size), String::new(), String::new()], Change::TickSize { timestamp, tick_size: "" })
            }
            Change::LastTrade { timestamp, price } => {
                ([own(price), String::new(), String::new()], Change::LastTrade { timestamp, price: "" })
            }
        };
        Self { change, text }
    }

    /// The change again, pointing into the kept text.
    pub(super) fn change(&self) -> Change<'_> {
        let [a, b, c] = &self.text;
        match self.change {
            Change::Level { timestamp, side, hash, check, .. } => {
                Change::Level { timestamp, side, price: a, size: b, hash: hash.map(|_| c.as_str()), check }
            }
            Change::TickSize { timestamp, .. } => Change::TickSize { timestamp, tick_size: a },
            Change::LastTrade { timestamp, .. } => Change::LastTrade { timestamp, price: a },
        }
    }

    pub(super) fn timestamp(&self) -> u64 {
        self.change.timestamp()
    }
}
