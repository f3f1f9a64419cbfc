//! Trading: the chain and order version the emulator serves, API keys from wallet signatures (L1), orders placed
//! with `POST /order` and `POST /orders`, checked as the service checks them and matched on the same live books the
//! market channel publishes, and a development wallet that signs for the demo and the tests.
//!
//! Signatures are checked against the library's own EIP-712 hashes (`predictkit::trade`), so the emulator takes
//! exactly what the client signs; the precision rules are written here independently ([`precision`]), so a test
//! can hold the client's amounts against them.

mod ecdsa;
mod engine;
mod keys;
pub(crate) mod ledger;
mod order;
mod place;
pub mod precision;
mod typed_data;
pub(crate) mod wallet;

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use axum::routing::{get, post};
use axum::Router;
use predictkit::trade::order::{Exchanges, Version};

use crate::{lock, App};

pub(crate) use place::{cancel_placed, expire, place_order};

/// Polygon's test chain (Amoy), whose exchanges the library knows.
pub const DEFAULT_CHAIN_ID: u64 = 80002;

/// The emulator's trading state.
pub(crate) struct Trading {
    pub chain_id: u64,
    /// The order version `GET /version` serves: 1 or 2.
    version: AtomicU8,
    /// The orders placed and their trades.
    pub ledger: Mutex<ledger::Ledger>,
    /// How far the orders' clock (GTD expirations) runs ahead of the real one, in seconds
    /// (`POST /__admin/clock`), so that tests need not wait for an order to expire.
    clock_ahead_secs: AtomicU64,
}

impl Trading {
    pub fn new(chain_id: u64) -> Self {
        Self {
            chain_id,
            version: AtomicU8::new(2),
            ledger: Mutex::new(ledger::Ledger::default()),
            clock_ahead_secs: AtomicU64::new(0),
        }
    }

    pub fn version(&self) -> Version {
        if self.version.load(Ordering::Relaxed) == 1 {
            Version::V1
        } else {
            Version::V2
        }
    }

    pub fn set_version(&self, version: Version) {
        self.version.store(version_number(version), Ordering::Relaxed);
    }

    /// The exchanges orders are signed for: the library's published ones for the chain, or Amoy's on a chain it
    /// does not know (listed by `GET /__admin/info`, for clients that take exchanges as an option).
    pub fn exchanges(&self, version: Version) -> Exchanges {
        Exchanges::known(self.chain_id, version).or_else(|| Exchanges::known(DEFAULT_CHAIN_ID, version)).unwrap_or(
            Exchanges {
                exchange: predictkit::trade::eip712::Address::ZERO,
                neg_risk: predictkit::trade::eip712::Address::ZERO,
            },
        )
    }

    /// Forgets the placed orders and trades and serves order version 2 again (the starting state).
    pub fn reset(&self) {
        *lock(&self.ledger) = ledger::Ledger::default();
        self.set_version(Version::V2);
        self.clock_ahead_secs.store(0, Ordering::Relaxed);
    }

    /// The orders' clock: Unix seconds, moved ahead by `advance_clock`.
    pub fn now_secs(&self) -> u64 {
        let real = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
        real.saturating_add(self.clock_ahead_secs.load(Ordering::Relaxed))
    }

    /// Moves the orders' clock ahead by `secs`; answers how far ahead it now is.
    pub fn advance_clock(&self, secs: u64) -> u64 {
        self.clock_ahead_secs.fetch_add(secs, Ordering::Relaxed).saturating_add(secs)
    }
}

pub fn version_number(version: Version) -> u8 {
    match version {
        Version::V1 => 1,
        Version::V2 => 2,
    }
}

pub(crate) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/version", get(version))
        .route("/auth/api-key", post(keys::create))
        .route("/auth/derive-api-key", get(keys::derive_route))
        .route("/orders", post(place::place_orders))
        .route("/wallet", post(wallet::rpc))
}

/// `GET /version`: `{"version": 2}`, the order format the exchange takes.
async fn version(axum::extract::State(app): axum::extract::State<Arc<App>>) -> crate::params::ApiResult {
    crate::params::ok_json(&serde_json::json!({ "version": version_number(app.trading.version()) }))
}
