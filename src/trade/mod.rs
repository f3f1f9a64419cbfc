//! Trading: API keys from the user's wallet, orders with exact amounts, their EIP-712 hashes and the
//! bodies that place them. The wallet signs; nothing here holds a private key.

pub mod amounts;
pub mod draft;
pub mod eip712;
pub mod keys;
pub mod order;
pub mod settings;

/// A whole number's decimal text, without `core::fmt` (which would add kilobytes to the wasm).
pub fn decimal(n: u64) -> String {
    let mut out = Vec::with_capacity(20);
    crate::book::fixed::push_digits(n, &mut out);
    String::from_utf8(out).unwrap_or_default()
}
