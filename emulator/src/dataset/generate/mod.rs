//! The generated part of the catalog, drawn from one random stream. The order of the draws is the data: the
//! catalog calls these in a fixed order, and each draws in a fixed order.

mod activity;
mod comments;
mod markets;
mod words;

use base64::engine::general_purpose::URL_SAFE;
use base64::Engine;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use uuid::Uuid;

pub use activity::{account_trades, closed_positions, fills, orders, wallets};
pub use comments::{comments, profiles};
pub use markets::{creators, events, markets, tags};

use super::records::Account;

/// An account with made-up credentials: a UUID-shaped API key, a url-safe Base64 secret of 32 bytes and a
/// passphrase of 64 hex digits.
pub fn account(rng: &mut ChaCha8Rng) -> Account {
    let address = address(rng);
    let api_key = uuid(rng);
    let secret = URL_SAFE.encode(rng.random::<[u8; 32]>());
    let passphrase = hex::encode(rng.random::<[u8; 32]>());
    Account { address, api_key, secret, passphrase }
}

/// `0x` and 64 hex digits: a hash or an id.
fn hash32(rng: &mut ChaCha8Rng) -> String {
    format!("0x{}", hex::encode(rng.random::<[u8; 32]>()))
}

/// `0x` and 40 lowercase hex digits.
fn address(rng: &mut ChaCha8Rng) -> String {
    format!("0x{}", hex::encode(rng.random::<[u8; 20]>()))
}

/// A 70–78 digit decimal token id.
fn token_id(rng: &mut ChaCha8Rng) -> String {
    let len = rng.random_range(70..=78);
    let mut s = String::with_capacity(len);
    s.push(char::from(b'1' + rng.random_range(0..9u8)));
    while s.len() < len {
        let chunk = format!("{:018}", rng.random_range(0..1_000_000_000_000_000_000u64));
        let take = (len - s.len()).min(18);
        s.push_str(&chunk[..take]);
    }
    s
}

/// Sixteen random bytes in the hyphenated UUID form (no version bits set).
fn uuid(rng: &mut ChaCha8Rng) -> String {
    Uuid::from_bytes(rng.random()).to_string()
}
