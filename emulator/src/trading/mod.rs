//! Trading: the chain and order version the emulator serves, API keys from wallet signatures (L1), orders placed
//! with `POST /order` and `POST /orders`, checked as the service checks them and matched on the same live books the
//! market channel publishes, and a development wallet that signs for the demo and the tests.
//!
//! Nothing here comes from the library: signatures are checked against EIP-712 hashes computed with the alloy crates
//! from the upstream clients' definitions ([`eip712`]), signers recovered with k256 ([`ecdsa`]), and the amount
//! rules written from the service's own refusals ([`precision`]), so that a mistake the client makes is not made
//! here too. The pure checks are public ([`order::parse`], [`order::recover_signer`], [`precision::check`]) so
//! that a test can hold what the client builds against them.

pub(crate) mod cancel;
pub mod deposit;
pub mod ecdsa;
pub mod eip712;
mod engine;
pub(crate) mod heartbeats;
mod keys;
pub(crate) mod ledger;
pub mod order;
mod place;
pub mod precision;
pub mod settlement;
pub mod typed_data;
pub mod wallet;
pub mod wallets;

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};

use axum::routing::{get, post};
use axum::Router;

pub use eip712::{Exchanges, Version};

use crate::app::App;
use crate::dataset::Catalog;
use crate::sync::lock;

pub(crate) use place::place_order;

/// Polygon's test chain (Amoy), whose exchanges the upstream clients publish.
pub const DEFAULT_CHAIN_ID: u64 = 80002;

/// The emulator's trading state.
pub(crate) struct Trading {
    pub chain_id: u64,
    /// The order version `GET /version` serves: 1 or 2.
    version: AtomicU8,
    /// Every order (the catalog's and those placed) and the placed orders' trades.
    pub ledger: Mutex<ledger::Ledger>,
    /// Which wallet each owner's account trades through.
    pub wallets: wallets::Wallets,
    /// Each API key's heartbeat chain.
    pub heartbeats: heartbeats::Chains,
    /// How trades settle.
    pub settlement: settlement::Settlement,
}

impl Trading {
    pub fn new(chain_id: u64, catalog: &Catalog) -> Self {
        Self {
            chain_id,
            version: AtomicU8::new(2),
            ledger: Mutex::new(ledger::Ledger::seeded(catalog)),
            wallets: wallets::Wallets::new(chain_id),
            heartbeats: heartbeats::Chains::default(),
            settlement: settlement::Settlement::default(),
        }
    }

    pub fn version(&self) -> Version {
        match self.version.load(Ordering::Relaxed) {
            1 => Version::V1,
            3 => Version::V3,
            _ => Version::V2,
        }
    }

    pub fn set_version(&self, version: Version) {
        self.version.store(version_number(version), Ordering::Relaxed);
    }

    /// The exchanges orders are signed for ([`order::exchanges`]).
    pub fn exchanges(&self, version: Version) -> Exchanges {
        order::exchanges(self.chain_id, version)
    }

    /// Forgets the placed orders and trades, reopens the catalog's orders and serves order version 2 again (the
    /// starting state).
    pub fn reset(&self, catalog: &Catalog) {
        *lock(&self.ledger) = ledger::Ledger::seeded(catalog);
        self.set_version(Version::V2);
        self.wallets.reset();
        self.heartbeats.reset();
        self.settlement.set(settlement::Rules::default());
    }
}

pub fn version_number(version: Version) -> u8 {
    version.number()
}

pub(crate) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/version", get(version))
        .route("/auth/api-key", post(keys::create))
        .route("/auth/derive-api-key", get(keys::derive_route))
        .route("/orders", post(place::place_orders).delete(crate::account::cancel_orders))
        .route("/wallet", post(wallet::rpc))
        .route("/v1/heartbeats", post(heartbeats::post))
}

/// `GET /version`: `{"version": 2}`, the order format the exchange takes.
async fn version(axum::extract::State(app): axum::extract::State<Arc<App>>) -> crate::params::ApiResult {
    crate::params::ok_json(&serde_json::json!({ "version": version_number(app.trading.version()) }))
}
