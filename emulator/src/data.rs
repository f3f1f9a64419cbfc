//! The emulator's deterministic data: the real recorded books, and the demo account.

use base64::engine::general_purpose::URL_SAFE;
use base64::Engine;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Real recorded GET /book responses (tests/fixtures/real, provenance in its PROVENANCE.md).
const REAL_BOOKS: [&str; 3] = [
    include_str!("../../tests/fixtures/real/clob-book-1.json"),
    include_str!("../../tests/fixtures/real/clob-book-2.json"),
    include_str!("../../tests/fixtures/real/clob-book-3.json"),
];

/// One order book, kept as the exact JSON text it is served as.
pub struct Book {
    pub asset_id: String,
    pub json: String,
}

/// An account that may call the authenticated routes.
#[derive(Clone)]
pub struct Account {
    pub address: String,
    pub api_key: String,
    pub secret: String,
    pub passphrase: String,
}

pub struct Catalog {
    pub books: Vec<Book>,
    pub demo: Account,
}

impl Catalog {
    pub fn new(seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let books = REAL_BOOKS
            .iter()
            .map(|text| {
                let value: serde_json::Value = serde_json::from_str(text).expect("recorded books are valid JSON");
                let asset_id = value["asset_id"].as_str().expect("recorded books have an asset_id").to_owned();
                // Served compact, as the service does.
                Book { asset_id, json: value.to_string() }
            })
            .collect();
        Self { books, demo: Account::generate(&mut rng) }
    }

    pub fn book(&self, asset_id: &str) -> Option<&Book> {
        self.books.iter().find(|b| b.asset_id == asset_id)
    }
}

impl Account {
    fn generate(rng: &mut ChaCha8Rng) -> Self {
        let address = format!("0x{}", hex(&rng.random::<[u8; 20]>()));
        let u = rng.random::<[u8; 16]>();
        let h = hex(&u);
        let api_key = format!("{}-{}-{}-{}-{}", &h[0..8], &h[8..12], &h[12..16], &h[16..20], &h[20..32]);
        let secret = URL_SAFE.encode(rng.random::<[u8; 32]>());
        let passphrase = hex(&rng.random::<[u8; 32]>());
        Self { address, api_key, secret, passphrase }
    }
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
