//! The books a token serves: its starting (generated or recorded) book until it moves, then its live book; the
//! REST reads of them, and trading's operations on a live book, applied and sent under the hub's lock.

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use super::{Hub, State};
use crate::market::{Effects, LiveBook};
use crate::sync::lock;

/// An error of an admin stream route.
pub enum TickError {
    UnknownAsset,
    Book(String),
}

impl Hub {
    pub(super) fn known(&self, token: &str) -> bool {
        self.catalog.token(token).is_some() || self.catalog.real_book(token).is_some()
    }

    /// The starting (generated or recorded) JSON of a token's book.
    fn base_json(&self, token: &str) -> Option<String> {
        if let Some(real) = self.catalog.real_book(token) {
            return Some(real.json.clone());
        }
        let (m, o) = self.catalog.token(token)?;
        Some(self.catalog.book(m, o).json.clone())
    }

    fn fee_bps(&self, token: &str) -> u64 {
        self.catalog.token(token).map_or(0, |(m, _)| self.catalog.markets[m].fee_bps)
    }

    /// The book a REST read serves now: (JSON, best bid, best ask), live when it has moved.
    pub fn current(&self, token: &str) -> Option<(String, Option<u64>, Option<u64>)> {
        {
            let state = lock(&self.state);
            if let Some(b) = state.live.get(token) {
                return Some((b.json.clone(), b.best_bid(), b.best_ask()));
            }
        }
        if let Some(real) = self.catalog.real_book(token) {
            return Some((real.json.clone(), real.best_bid, real.best_ask));
        }
        let (m, o) = self.catalog.token(token)?;
        let book = self.catalog.book(m, o);
        Some((book.json.clone(), book.best_bid(), book.best_ask()))
    }

    /// The tick size a token's book has now: its live book's (a `tick_size_change` moved it), else none.
    pub fn live_tick(&self, token: &str) -> Option<u64> {
        lock(&self.state).live.get(token).map(|b| b.tick)
    }

    /// Best bid and ask now.
    pub fn best(&self, token: &str) -> Option<(Option<u64>, Option<u64>)> {
        {
            let state = lock(&self.state);
            if let Some(b) = state.live.get(token) {
                return Some((b.best_bid(), b.best_ask()));
            }
        }
        if let Some(real) = self.catalog.real_book(token) {
            return Some((real.best_bid, real.best_ask));
        }
        let (m, o) = self.catalog.token(token)?;
        let book = self.catalog.book(m, o);
        Some((book.best_bid(), book.best_ask()))
    }

    /// The live book of `token`, made from its starting book on first use.
    pub(super) fn live<'s>(&self, state: &'s mut State, token: &str) -> Result<&'s mut LiveBook, TickError> {
        if !state.live.contains_key(token) {
            let json = self.base_json(token).ok_or(TickError::UnknownAsset)?;
            let book = LiveBook::from_json(&json, self.fee_bps(token)).map_err(TickError::Book)?;
            state.live.insert(token.to_owned(), book);
        }
        state.live.get_mut(token).ok_or(TickError::UnknownAsset)
    }

    /// The `book` event of a token now, in the current shapes (a starting book keeps its own hash and timestamp).
    pub(super) fn book_event(&self, state: &State, token: &str) -> Option<String> {
        if let Some(b) = state.live.get(token) {
            return Some(b.book_event(state.shapes));
        }
        let json = self.base_json(token)?;
        let mut book = LiveBook::from_json(&json, 0).ok()?;
        // A recorded book keeps the hash it was served with (the first recorded book predates the ten fields,
        // so its hash is not the one the ten fields give).
        if self.catalog.real_book(token).is_some() {
            if let Some(hash) =
                serde_json::from_str::<Value>(&json).ok().and_then(|v| v["hash"].as_str().map(str::to_owned))
            {
                book.hash = hash;
            }
        }
        Some(book.book_event(state.shapes))
    }

    /// Runs one trading operation on the live book of `token` (made live on first use) under the streams' lock:
    /// `f` sees the book and answers with its result and its [`Effects`], which are applied and sent at once, so
    /// that every socket hears of the change in order and the simulator never moves the book in between. `seed`
    /// seeds the transaction hashes of its trades' `last_trade_price` events (the simulator's draws stay as seeded).
    pub fn trade<R>(
        &self,
        token: &str,
        seed: [u8; 32],
        f: impl FnOnce(&LiveBook) -> (R, Effects),
    ) -> Result<R, TickError> {
        self.trade_pair(token, None, seed, |book, _| f(book))
    }

    /// [`Hub::trade`] with the live book of the market's other token too (`complement`, made live on first use),
    /// whose changes (`Effects::complement`) are applied and sent after the first book's.
    pub fn trade_pair<R>(
        &self,
        token: &str,
        complement: Option<&str>,
        seed: [u8; 32],
        f: impl FnOnce(&LiveBook, Option<&LiveBook>) -> (R, Effects),
    ) -> Result<R, TickError> {
        let mut state = lock(&self.state);
        self.live(&mut state, token)?;
        if let Some(other) = complement {
            self.live(&mut state, other)?;
        }
        let book = state.live.get(token).ok_or(TickError::UnknownAsset)?;
        let other_book = complement.and_then(|t| state.live.get(t));
        let (result, effects) = f(book, other_book);
        let sides = [(token, &effects.reserve, &effects.changes)]
            .into_iter()
            .chain(complement.map(|t| (t, &effects.complement_reserve, &effects.complement)));
        for (t, reserve, changes) in sides {
            if let Some(book) = state.live.get_mut(t) {
                for (side, price, delta) in reserve {
                    book.reserve(*side, *price, *delta);
                }
            }
            if !changes.is_empty() {
                self.apply(&mut state, t, changes, &mut ChaCha8Rng::from_seed(seed));
            }
        }
        let mut by_account: BTreeMap<usize, Vec<(String, Value)>> = BTreeMap::new();
        for (account, event) in effects.user {
            by_account.entry(account).or_default().push(event);
        }
        for (account, events) in by_account {
            Self::send_user_in(&mut state, account, &events);
        }
        Ok(result)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::accounts::Accounts;
    use crate::dataset::Catalog;
    use crate::stream::Shapes;

    #[test]
    fn books_made_live_serve_the_same_json_until_they_move() {
        let catalog = Catalog::shared(1);
        let hub = Hub::new(catalog.clone(), Arc::new(Accounts::new(catalog.clone())), Arc::default(), 1, 0.0);
        let n = catalog.markets.len();
        // Random books of the first markets, and the shaped books at the end (all but the 7 MB one).
        let mut tokens: Vec<String> = (0..40).map(|i| catalog.markets[i].tokens[i % 2].clone()).collect();
        tokens.extend((n - 8..n).flat_map(|i| catalog.markets[i].tokens.clone()));
        tokens.retain(|t| {
            catalog
                .token(t)
                .is_some_and(|(m, _)| !matches!(catalog.markets[m].book, crate::books::BookKind::Levels(100_000, _)))
        });
        for t in catalog.real_books.iter().skip(1).map(|b| b.asset_id.clone()) {
            tokens.push(t);
        }
        for t in &tokens {
            let base = hub.base_json(t).unwrap();
            let live = LiveBook::from_json(&base, 0).unwrap();
            assert_eq!(live.json, base, "{t}");
            let served: Value = serde_json::from_str(&base).unwrap();
            for shapes in [Shapes::Real, Shapes::Exact] {
                hub.set_shapes(shapes);
                let state = lock(&hub.state);
                let event: Value = serde_json::from_str(&hub.book_event(&state, t).unwrap()).unwrap();
                for k in ["market", "asset_id", "timestamp", "hash", "bids", "asks"] {
                    assert_eq!(event[k], served[k], "{k} of {t}");
                }
                for k in ["tick_size", "last_trade_price"] {
                    let expected = if shapes == Shapes::Exact { &served[k] } else { &Value::Null };
                    assert_eq!(&event[k], expected, "{k} of {t} in {shapes:?}");
                }
                assert!(event.get("min_order_size").is_none() && event.get("neg_risk").is_none());
            }
        }
        // The first recorded book lacks the later fields: its dump keeps its recorded hash, and once it moves it
        // is served with all ten (tick 0.01, the widest grid of its levels).
        let first = &catalog.real_books[0];
        hub.set_shapes(Shapes::Exact);
        let state = lock(&hub.state);
        let event: Value = serde_json::from_str(&hub.book_event(&state, &first.asset_id).unwrap()).unwrap();
        assert_eq!(event["hash"], "2fc4a3d6a98bc164e057589bcb74981852b87412");
        assert_eq!(event["tick_size"], "0.01");
        drop(state);
        hub.tick(&first.asset_id, 3).ok().unwrap();
        let (json, ..) = hub.current(&first.asset_id).unwrap();
        let v: Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v.as_object().unwrap().len(), 10);
        assert_eq!((v["min_order_size"].as_str(), v["neg_risk"].as_bool()), (Some("5"), Some(false)));
    }
}
