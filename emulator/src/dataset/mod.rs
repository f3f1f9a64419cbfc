//! The emulator's deterministic catalog: everything the service serves, generated from one seed, plus the real
//! recorded responses of tests/fixtures/real (provenance in its PROVENANCE.md) where they fit.
//!
//! The catalog is immutable once built; the only mutable data (cancellations) lives in the server state. Catalogs are
//! cached per seed so that many emulators in one process (tests) share one.

mod catalog;
mod generate;
mod recorded;
mod records;

pub use catalog::Catalog;
pub use records::{Account, Comment, Creator, Event, Market, SeedOrder, Series, Tag};

use crate::books::BookKind;

/// Deliberately shaped books, given to the outcome tokens of consecutive markets near the end of the list.
pub const SPECIAL_BOOKS: [BookKind; 7] = [
    BookKind::Levels(100_000, 100_000),
    BookKind::Levels(10_000, 10_000),
    BookKind::Levels(1_000, 1_000),
    BookKind::Levels(10, 10),
    BookKind::Empty,
    BookKind::Levels(25, 0),
    BookKind::Levels(0, 25),
];
/// Number of CLOB markets (each also a catalog market with two outcome tokens).
pub const CLOB_MARKETS: usize = 10_000;
pub const TAGS: usize = 300;
pub const SERIES: usize = 120;
pub const CREATORS: usize = 48;
pub const PROFILES: usize = 200;
pub const WALLETS: usize = 12;
pub const ACTIVITY_TRADES: usize = 6_000;
/// 2026-01-01T00:00:00Z: the catalog's reference time ("now" of the generated data).
pub const BASE: i64 = 1_767_225_600;
pub const USDC: &str = "0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174";

pub const MARKET_ID_BASE: u64 = 500_000;
pub const EVENT_ID_BASE: u64 = 20_000;
pub const SERIES_ID_BASE: u64 = 10_000;
