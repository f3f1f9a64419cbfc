//! The emulator's shared state, which every route handler is given: the catalog, the settings the routes read,
//! the clock, and the state of each part (request faults, log and rate limits, streams, accounts, trading).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use crate::accounts::Accounts;
use crate::auth::AuthSettings;
use crate::clock::Clock;
use crate::dataset::Catalog;
use crate::engine::Engine;
use crate::faults::Faults;
use crate::limits::Limiter;
use crate::params::Cursors;
use crate::stream::Hub;
use crate::sync::lock;
use crate::trading::Trading;

pub(crate) struct App {
    pub catalog: Arc<Catalog>,
    pub cursors: Cursors,
    pub auth: AuthSettings,
    pub limits: bool,
    pub faults: Mutex<Faults>,
    pub log: Mutex<VecDeque<serde_json::Value>>,
    pub limiter: Mutex<Limiter>,
    /// The one clock every part reads (`POST /__admin/clock` moves it).
    pub clock: Arc<Clock>,
    /// The streaming channels: live books, sockets, stream faults.
    pub stream: Hub,
    /// The catalog's accounts and the API keys created from wallet signatures.
    pub accounts: Arc<Accounts>,
    /// Chain, order version, every order (the catalog's and those placed) and the trades.
    pub trading: Trading,
    /// The matching engine's mode (restarting, cancel-only, post-only), switched by the admin route.
    pub engine: Mutex<Engine>,
}

impl App {
    pub fn reset(&self) {
        self.clock.reset();
        self.trading.reset(&self.catalog);
        self.accounts.reset();
        lock(&self.faults).clear();
        *lock(&self.engine) = Engine::default();
        lock(&self.log).clear();
        lock(&self.limiter).clear();
        self.stream.reset();
    }
}
