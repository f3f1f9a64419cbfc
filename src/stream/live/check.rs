//! Checking live books against the service's hash: when ([`HashCheck`]), where ([`Hasher`]: here, or by the
//! platform for large books), and the checks handed to the platform that wait for its digest.

use super::Resync;
use crate::book::OrderBook;
use crate::error::Error;

/// When a live book is checked against the service's hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashCheck {
    /// After every price-change entry.
    EveryEntry,
    /// After the last entry of each asset in a frame (the default: a frame's entries come together).
    LastPerFrame,
    /// Never: books are applied but never verified.
    Off,
}

impl HashCheck {
    pub fn parse(text: &str) -> Result<Self, Error> {
        match text {
            "entry" => Ok(Self::EveryEntry),
            "frame" => Ok(Self::LastPerFrame),
            "off" => Ok(Self::Off),
            _ => Err(Error::invalid("verify", "must be \"entry\", \"frame\" or \"off\"")),
        }
    }
}

/// Hash checks waiting for the platform's digest at most; beyond this, books are hashed here.
pub const MAX_AWAITING: usize = 1_024;

/// Books whose hash input is shorter are hashed here even when the platform can: a platform digest costs
/// the main thread ~10 µs whatever its length (measured in Chromium by `cargo xtask bench`), the SHA-1
/// here ~1.5 µs per KiB; from 16 KiB (about 250 levels a side) the platform's is the cheaper.
pub const PLATFORM_FROM: usize = 16 * 1024;

/// Where the books' hashes are computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hasher {
    /// Here, by SHA-1 in this crate, as the change is applied.
    Here,
    /// By the platform (the browser's or Node's native SHA-1, off the main thread) for books whose levels'
    /// text is at least `from` bytes ([`PLATFORM_FROM`]), here for smaller ones: a check hands the book's
    /// hash input out as [`Due`] and its answer comes back through
    /// [`LiveBooks::digested`](super::LiveBooks::digested).
    Platform { from: usize },
}

/// A check whose digest the binding is to compute: `input[start..end]` of
/// [`LiveBooks::take_due`](super::LiveBooks::take_due).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Due {
    pub id: u32,
    pub start: usize,
    pub end: usize,
}

/// A check handed to the platform, waiting for its digest.
#[derive(Clone, Debug)]
pub(super) struct Awaiting {
    pub(super) id: u32,
    pub(super) asset: String,
    /// The book's epoch when checked: an answer for a book since replaced is moot.
    pub(super) epoch: u32,
    /// The book's timestamp when checked: a mismatch that comes back after a later change has ended its
    /// burst can wait for nothing more.
    pub(super) timestamp: u64,
    pub(super) expected: [u8; 20],
    /// What a mismatch means: a price change's hash, or a whole book's own.
    pub(super) reason: Resync,
}

/// The checks of the books of one stream: how they are hashed and those under way.
#[derive(Debug)]
pub(super) struct Checks {
    pub(super) hasher: Hasher,
    pub(super) next_id: u32,
    pub(super) awaiting: Vec<Awaiting>,
    pub(super) due: Vec<Due>,
    /// The hash inputs of the due checks, one after another.
    pub(super) input: Vec<u8>,
}

/// What a check of a book against an expected hash came to, when it came to something now.
pub(super) enum Checked {
    Matched,
    Mismatched,
    /// Handed to the platform: the answer comes later.
    Deferred,
}

impl Checks {
    /// Before a frame or snapshot: the bytes of the last one's checks are no longer needed (the binding
    /// hands them to the platform at once); checks it never handed over will not be answered.
    pub(super) fn begin(&mut self) {
        for due in self.due.drain(..) {
            self.awaiting.retain(|a| a.id != due.id);
        }
        self.input.clear();
    }

    /// Checks `book` against `want`, the service's hash: here, or by handing its input to the platform.
    pub(super) fn check(
        &mut self,
        book: &mut OrderBook,
        want: [u8; 20],
        at: (&str, u32, u64),
        reason: Resync,
    ) -> Checked {
        let (asset, epoch, timestamp) = at;
        book.keep_summary();
        let platform = matches!(self.hasher, Hasher::Platform { from } if book.summary_len() >= from);
        if platform && self.awaiting.len() < MAX_AWAITING {
            let start = self.input.len();
            book.write_hash_input(&mut self.input);
            let id = self.next_id;
            self.next_id = self.next_id.wrapping_add(1);
            self.due.push(Due { id, start, end: self.input.len() });
            self.awaiting.push(Awaiting { id, asset: asset.to_owned(), epoch, timestamp, expected: want, reason });
            return Checked::Deferred;
        }
        if book.digest() == want {
            Checked::Matched
        } else {
            Checked::Mismatched
        }
    }
}

/// 40 hex digits (either case) as 20 bytes.
pub(super) fn hex20(text: &str) -> Option<[u8; 20]> {
    let digits = text.as_bytes();
    if digits.len() != 40 {
        return None;
    }
    let mut out = [0u8; 20];
    for (byte, pair) in out.iter_mut().zip(digits.chunks(2)) {
        let nibble = |c: u8| (c as char).to_digit(16);
        *byte = match pair {
            [hi, lo] => (nibble(*hi)? * 16 + nibble(*lo)?) as u8,
            _ => return None,
        };
    }
    Some(out)
}
