//! One stream's state as its driver holds it: the ids it follows, its live books and its health, and
//! what changes when the caller follows more ids or fewer.

use super::health::{Health, HealthPolicy};
use super::live::{HashCheck, LiveBooks};
use super::protocol::{self, Channel, Followed};
use crate::error::Error;

/// A snapshot that could not be had is asked for again after this long.
pub const SNAPSHOT_RETRY_MS: f64 = 1_000.0;
/// Events kept for a `for await` that reads slower than they come; beyond this the oldest is dropped
/// (and counted), so that a stalled reader cannot hold memory without bound.
pub const MAX_QUEUED_EVENTS: u32 = 10_000;

pub struct Session {
    pub channel: Channel,
    pub ids: Followed,
    pub books: LiveBooks,
    pub health: Health,
}

impl Session {
    /// A stream of `channel` following `ids`, checking hashes as `verify` says, with a live book per asset
    /// of the market channel.
    pub fn new(channel: Channel, ids: Vec<String>, verify: HashCheck, policy: HealthPolicy) -> Self {
        let mut books = LiveBooks::new(verify);
        if channel == Channel::Market {
            for id in &ids {
                books.subscribe(id);
            }
        }
        Session { channel, ids: Followed::new(ids), books, health: Health::new(policy) }
    }

    /// Follows more ids (`subscribe`) or fewer: the message to send on the live socket, or none when nothing
    /// changes. Beyond the bound the whole request is refused (`INVALID_PARAMS`) and nothing changes.
    pub fn follow(&mut self, subscribe: bool, ids: Vec<String>) -> Result<Option<String>, Error> {
        let changed = self.ids.changes(self.channel, subscribe, ids)?;
        self.ids.apply(subscribe, &changed);
        if !subscribe {
            self.books.unsubscribe(&changed);
        } else if self.channel == Channel::Market {
            for id in &changed {
                self.books.subscribe(id);
            }
        }
        if changed.is_empty() {
            return Ok(None);
        }
        Ok(Some(match self.channel {
            Channel::Market => protocol::operation(subscribe, &changed),
            Channel::User => protocol::user_operation(subscribe, &changed),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn following_more_or_fewer_ids_sends_only_what_changes() {
        let mut s = Session::new(Channel::Market, ids(&["1", "2"]), HashCheck::LastPerFrame, HealthPolicy::default());
        assert!(s.books.get("1").is_some() && s.books.get("3").is_none());
        // Already followed: nothing to send.
        assert_eq!(s.follow(true, ids(&["1"])).unwrap(), None);
        let added = s.follow(true, ids(&["2", "3"])).unwrap().unwrap();
        assert!(added.contains("\"3\"") && !added.contains("\"2\""), "{added}");
        assert!(s.books.get("3").is_some());
        let removed = s.follow(false, ids(&["1", "9"])).unwrap().unwrap();
        assert!(removed.contains("\"1\"") && !removed.contains("\"9\""), "{removed}");
        assert!(s.books.get("1").is_none());
        assert_eq!(s.follow(false, ids(&["9"])).unwrap(), None);
        // The user channel follows markets and keeps no books.
        let mut u = Session::new(Channel::User, ids(&[]), HashCheck::LastPerFrame, HealthPolicy::default());
        assert!(u.follow(true, ids(&["0xabc"])).unwrap().is_some());
        assert!(u.books.get("0xabc").is_none());
    }
}
