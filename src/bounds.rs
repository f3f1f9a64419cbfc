//! The largest inputs the library reads from a caller. Every value is bounded before it is copied into
//! wasm memory, so that no argument can make an allocation fail (which traps the module for the whole
//! page); past a bound the call fails with `INVALID_PARAMS` naming the parameter.

/// An order book's JSON (`OrderBook.fromBytes`, `fromJson`, `fromObject`, `listFromBytes`, and the body
/// of GET /book for `getBook`): 64 MiB, about ten times the largest book the service holds.
pub const MAX_BOOK_BYTES: u32 = 64 << 20;
/// Any other string argument, in UTF-16 code units (what JavaScript's `length` counts).
pub const MAX_STRING: u32 = 1 << 20;
/// The items of an array argument (price levels for the market-price helpers, params arrays).
pub const MAX_ITEMS: u32 = 1 << 20;
/// The own keys of an object argument (params, options).
pub const MAX_KEYS: u32 = 1_000;
/// The values read from one params or options argument, all nesting levels together.
pub const MAX_VALUES: u32 = 100_000;
/// The characters of an error body kept for an excerpt; the rest is not copied into wasm.
pub const MAX_ERROR_BODY: u32 = 4_096;
/// The longest timer the runtime arms at once: browsers and Node fire a `setTimeout` of 2^31 ms or more
/// at once, so longer waits are chained from timers of at most this.
pub const MAX_TIMER_MS: f64 = 2_147_483_647.0;
