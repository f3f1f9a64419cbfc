//! The stream hub: the state the streaming channels (`/ws/market`, `/ws/user`) share under one lock, its
//! life (start, reset, shutdown), and the routes. Everything that changes a live book and sends it happens under
//! that lock, so every socket gets its frames in the order the books changed, and a subscription's `book` dump is
//! exactly the state that its later changes start from.
//!
//! The hub's jobs are in files of their own: the sockets and their market subscriptions ([`registry`]), the books
//! a token serves and trading's changes to them ([`live`]), the market channel's message shapes ([`shapes`]) and
//! fan-out ([`market`]), the market simulator ([`simulator`]), the user channel ([`user`]), the stream faults
//! ([`faults`]) and the admin knobs ([`admin`]); [`book`] is the channel's side of one live book (the book itself is
//! `crate::market`'s, below both this and trading), [`socket`] one WebSocket.

mod admin;
mod book;
mod faults;
mod live;
mod market;
mod registry;
mod shapes;
mod simulator;
mod socket;
mod user;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Arc, Mutex};

use axum::routing::{get, post};
use axum::Router;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tokio::sync::watch;

use crate::accounts::Accounts;
use crate::app::App;
use crate::clock::Clock;
use crate::dataset::Catalog;
use crate::faults::Faults;
use crate::market::LiveBook;
use crate::sync::lock;
pub use admin::TICK_MAX;
pub use faults::StreamFault;
pub use live::TickError;
use registry::Socket;
pub use registry::{Channel, Out};
pub use shapes::Shapes;
pub use simulator::simulate;
pub use user::{OrderEventType, TradeEvent};

pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/ws/market", get(socket::market))
        .route("/ws/user", get(socket::user))
        // GET /__admin/stream (the sockets) is served with the other admin routes.
        .route("/__admin/stream", post(admin::set_shapes))
}

struct State {
    /// The books that have moved (token id → live book); the others are as generated or recorded.
    live: HashMap<String, LiveBook>,
    /// The last event timestamp of each token (kept across resets, so timestamps never go back).
    last_ts: HashMap<String, u64>,
    sockets: BTreeMap<u64, Socket>,
    next_id: u64,
    rng: ChaCha8Rng,
    faults: Faults<StreamFault>,
    /// The simulator's fractional changes owed per subscribed token.
    budget: HashMap<String, f64>,
    shapes: Shapes,
    /// The real shapes' draws (which trades are announced, which are followed by a book), apart from the
    /// changes' draws so that both shapes move the books alike.
    shape_rng: ChaCha8Rng,
}

/// The streaming channels' state (one per emulator).
pub struct Hub {
    catalog: Arc<Catalog>,
    accounts: Arc<Accounts>,
    /// The emulator's clock: the events' timestamps.
    clock: Arc<Clock>,
    seed: u64,
    /// Price-change entries per second per subscribed asset (0: books move on admin ticks only).
    pub rate: f64,
    state: Mutex<State>,
    /// Bumped when the stream faults are cleared: stalled sockets resume.
    cleared: watch::Sender<u64>,
    /// Set when the emulator stops: sockets close (1001).
    shutdown: watch::Sender<bool>,
}

fn rng_of(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed ^ 0x5354_5245_414d)
}

fn shape_rng_of(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed ^ 0x5348_4150_4553)
}

/// A frame of several events is an array; one event alone is an object unless `wrap`.
fn frame_text(events: &[String], wrap: bool) -> String {
    if events.len() == 1 && !wrap {
        return events[0].clone();
    }
    let mut s = String::with_capacity(events.iter().map(|e| e.len() + 1).sum::<usize>() + 2);
    s.push('[');
    for (i, e) in events.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str(e);
    }
    s.push(']');
    s
}

impl Hub {
    pub fn new(catalog: Arc<Catalog>, accounts: Arc<Accounts>, clock: Arc<Clock>, seed: u64, rate: f64) -> Self {
        Self {
            catalog,
            accounts,
            clock,
            seed,
            rate,
            state: Mutex::new(State {
                live: HashMap::new(),
                last_ts: HashMap::new(),
                sockets: BTreeMap::new(),
                next_id: 0,
                rng: rng_of(seed),
                faults: Faults::default(),
                budget: HashMap::new(),
                shapes: Shapes::default(),
                shape_rng: shape_rng_of(seed),
            }),
            cleared: watch::channel(0).0,
            shutdown: watch::channel(false).0,
        }
    }

    pub fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.shutdown.subscribe()
    }

    pub fn cleared_signal(&self) -> watch::Receiver<u64> {
        self.cleared.subscribe()
    }

    /// Closes every socket (1001) and stops the simulator.
    pub fn shutdown(&self) {
        self.shutdown.send_replace(true);
    }

    /// Restores the starting books, the seed's draws and the real shapes, clears the stream faults (stalled sockets resume),
    /// and sends a fresh `book` to every socket subscribed to a book that had moved.
    pub fn reset(&self) {
        let mut state = lock(&self.state);
        let moved: BTreeSet<String> = state.live.drain().map(|(t, _)| t).collect();
        state.rng = rng_of(self.seed);
        state.shapes = Shapes::default();
        state.shape_rng = shape_rng_of(self.seed);
        state.budget.clear();
        state.faults.clear();
        self.cleared.send_modify(|g| *g += 1);
        let ids: Vec<u64> = state.sockets.keys().copied().collect();
        for id in ids {
            let Some(socket) = state.sockets.get(&id) else { continue };
            let tokens: Vec<String> = socket.assets.iter().filter(|a| moved.contains(*a)).cloned().collect();
            let events: Vec<String> = tokens.iter().filter_map(|t| self.book_event(&state, t)).collect();
            if let (false, Some(socket)) = (events.is_empty(), state.sockets.get(&id)) {
                let _ = socket.tx.send(Out::Text(frame_text(&events, false)));
            }
        }
    }
}
