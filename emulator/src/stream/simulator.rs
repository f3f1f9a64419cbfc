//! The market simulator: the changes it draws for the subscribed books, as many per second per asset as the
//! hub's rate says, split into frames of a few changes each (the admin ticks use the same frames).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Duration;

use rand::Rng;

use super::book::Item;
use super::live::TickError;
use super::market::step;
use super::registry::Channel;
use super::{Hub, State};
use crate::app::App;
use crate::market::Change;
use crate::sync::lock;

/// Most changes in one frame of the simulator or of an admin tick.
const FRAME_CHANGES: usize = 5;
/// How often the simulator moves the subscribed books.
const SIMULATOR_STEP: Duration = Duration::from_millis(100);

impl Hub {
    /// Draws, applies and sends one frame of changes (`tokens`: one token per change, all of one market), as one
    /// message or, with the real shapes around a trade, several. Answers how many messages it made.
    fn frame(&self, state: &mut State, tokens: &[String]) -> Result<usize, TickError> {
        let mut distinct: Vec<String> = Vec::new();
        for t in tokens {
            if !distinct.contains(t) {
                self.live(state, t)?;
                distinct.push(t.clone());
            }
        }
        let before: Vec<(Option<u64>, Option<u64>)> =
            distinct.iter().map(|t| state.live.get(t).map_or((None, None), |b| (b.best_bid(), b.best_ask()))).collect();
        let mut ts = self.next_ts(state, &distinct);
        let mut items = Vec::with_capacity(tokens.len() + 2);
        let State { live, rng, last_ts, shapes, shape_rng, .. } = &mut *state;
        let mut market = String::new();
        for t in tokens {
            let Some(book) = live.get_mut(t) else { continue };
            let change: Change = book.draw(rng);
            step(book, &[change], &mut ts, rng, *shapes, shape_rng, &mut items);
            market.clone_from(&book.market);
        }
        for t in &distinct {
            last_ts.insert(t.clone(), ts);
        }
        for (t, before) in distinct.iter().zip(before) {
            if let Some(book) = live.get_mut(t) {
                book.refresh();
                if (book.best_bid(), book.best_ask()) != before {
                    items.push(Item::BestBidAsk { asset: t.clone(), json: book.best_bid_ask(ts) });
                }
            }
        }
        let wrap = state.rng.random_bool(0.2);
        Ok(Self::emit(state, &market, &items, wrap))
    }

    /// Splits `changes` (one token per change) into frames of 1–5 changes and sends them; answers the number of
    /// messages sent.
    pub(super) fn frames(&self, state: &mut State, changes: &[String]) -> Result<usize, TickError> {
        let mut done = 0;
        let mut messages = 0;
        while done < changes.len() {
            let n = state.rng.random_range(1..=FRAME_CHANGES).min(changes.len() - done);
            messages += self.frame(state, &changes[done..done + n])?;
            done += n;
        }
        Ok(messages)
    }

    /// One step of the market simulator: every subscribed token owes `rate × dt` changes.
    pub fn step(&self, dt: f64) {
        if self.rate <= 0.0 {
            return;
        }
        let mut state = lock(&self.state);
        let subscribed: BTreeSet<String> = state
            .sockets
            .values()
            .filter(|s| s.channel == Channel::Market)
            .flat_map(|s| s.assets.iter().cloned())
            .collect();
        state.budget.retain(|t, _| subscribed.contains(t));
        // Tokens of one market change in the same frames.
        let mut owed: BTreeMap<String, Vec<(String, usize)>> = BTreeMap::new();
        for token in subscribed {
            let budget = state.budget.entry(token.clone()).or_insert(0.0);
            *budget += self.rate * dt;
            let n = budget.floor();
            *budget -= n;
            if n >= 1.0 {
                let Ok(book) = self.live(&mut state, &token) else { continue };
                owed.entry(book.market.clone()).or_default().push((token, n as usize));
            }
        }
        for (_, mut tokens) in owed {
            let mut changes = Vec::new();
            while tokens.iter().any(|(_, n)| *n > 0) {
                for (t, n) in tokens.iter_mut().filter(|(_, n)| *n > 0) {
                    changes.push(t.clone());
                    *n -= 1;
                }
            }
            let _ = self.frames(&mut state, &changes);
        }
    }
}

/// Moves the subscribed books until the emulator stops.
pub async fn simulate(app: Arc<App>) {
    let hub = &app.stream;
    if hub.rate <= 0.0 {
        return;
    }
    let mut shutdown = hub.shutdown_signal();
    let mut interval = tokio::time::interval(SIMULATOR_STEP);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = interval.tick() => hub.step(SIMULATOR_STEP.as_secs_f64()),
            _ = shutdown.changed() => return,
        }
    }
}
