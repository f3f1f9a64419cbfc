//! The open sockets of both channels and what the market sockets subscribe to: a socket's registration, its
//! counters and queue, and the market channel's `subscribe`/`unsubscribe` (with the `book` dump).

use std::collections::BTreeSet;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use tokio::sync::mpsc;

use super::faults::{deliver, Message};
use super::{frame_text, Hub, State};
use crate::sync::lock;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    Market,
    User,
}

impl Channel {
    pub fn path(self) -> &'static str {
        match self {
            Channel::Market => "/ws/market",
            Channel::User => "/ws/user",
        }
    }
}

/// What a socket's task does with one queued item, in order.
#[derive(Debug)]
pub enum Out {
    /// Send this text frame.
    Text(String),
    /// Send nothing more (PONG aside) for `ms`, or until the stream faults are cleared.
    Stall(Option<u64>),
    /// Close the TCP connection without a close frame.
    Drop,
}

/// Counters of one socket, kept by its task.
#[derive(Default)]
pub struct SocketStats {
    pub sent: AtomicU64,
    pub received: AtomicU64,
}

pub(super) struct Socket {
    pub channel: Channel,
    pub tx: mpsc::UnboundedSender<Out>,
    pub stats: Arc<SocketStats>,
    pub opened_at: u64,
    /// Market channel: the subscribed token ids.
    pub assets: BTreeSet<String>,
    pub custom: bool,
    /// User channel: the authenticated account and its markets (lowercase condition ids; `None` = all).
    pub account: Option<usize>,
    pub markets: Option<BTreeSet<String>>,
    /// Faults given to this socket's messages.
    pub faults: u64,
}

impl Hub {
    pub fn register(&self, channel: Channel) -> (u64, mpsc::UnboundedReceiver<Out>, Arc<SocketStats>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let stats = Arc::new(SocketStats::default());
        let mut state = lock(&self.state);
        state.next_id += 1;
        let id = state.next_id;
        state.sockets.insert(
            id,
            Socket {
                channel,
                tx,
                stats: stats.clone(),
                opened_at: self.clock.now_ms(),
                assets: BTreeSet::new(),
                custom: false,
                account: None,
                markets: None,
                faults: 0,
            },
        );
        (id, rx, stats)
    }

    pub fn unregister(&self, id: u64) {
        lock(&self.state).sockets.remove(&id);
    }

    /// Adds known tokens to a market socket's subscription; with `dump`, the new ones' books are sent at once
    /// (several as one array frame).
    pub fn subscribe(&self, id: u64, assets: &[String], dump: bool, custom: Option<bool>) {
        let mut state = lock(&self.state);
        let Some(socket) = state.sockets.get_mut(&id) else { return };
        if let Some(custom) = custom {
            socket.custom = custom;
        }
        let mut added = Vec::new();
        let mut unknown = false;
        for asset in assets {
            if !self.known(asset) {
                unknown = true;
            } else if socket.assets.insert(asset.clone()) {
                added.push(asset.clone());
            }
        }
        // A subscription of nothing but closed or unknown tokens is answered with a bare `[]` (as the service
        // answers its users' subscriptions of closed tokens, issue 33).
        if dump && added.is_empty() && unknown {
            let State { sockets, faults, .. } = &mut *state;
            if let Some(socket) = sockets.get_mut(&id) {
                deliver(faults, socket, Message { dump: true, entries: false }, |_| "[]".to_owned());
            }
            return;
        }
        if !dump || added.is_empty() {
            return;
        }
        let events: Vec<String> = added.iter().filter_map(|a| self.book_event(&state, a)).collect();
        let State { sockets, faults, .. } = &mut *state;
        if let Some(socket) = sockets.get_mut(&id) {
            deliver(faults, socket, Message { dump: true, entries: false }, |_| frame_text(&events, false));
        }
    }

    pub fn unsubscribe(&self, id: u64, assets: &[String]) {
        let mut state = lock(&self.state);
        if let Some(socket) = state.sockets.get_mut(&id) {
            for asset in assets {
                socket.assets.remove(asset);
            }
        }
    }
}
