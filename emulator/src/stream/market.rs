//! The market channel's fan-out: how the steps of a frame (changes, an incoming order's trades) become items,
//! the text of a message, and the sending of a frame's messages to each market socket, filtered to its
//! subscription and shaped as [`Shapes`] says.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::book::{Entry, Item};
use super::faults::{deliver, wrong, Message};
use super::registry::Channel;
use super::shapes::{Shapes, BOOK_AFTER_TRADE, TRADE_UNANNOUNCED};
use super::{frame_text, Hub, State};
use crate::market::{Change, LiveBook};

/// Applies one step of a frame to `book` at `*ts` and adds what describes it to `items`: one change, or the
/// trades of one incoming order ([`Change::Take`]s, which the real shapes send as one burst). A trade or a
/// tick size change gets a later timestamp than the frame's entries before it; with the real shapes, whatever
/// follows a trade does too, in messages of its own.
pub(super) fn step(
    book: &mut LiveBook,
    changes: &[Change],
    ts: &mut u64,
    rng: &mut ChaCha8Rng,
    shapes: Shapes,
    shape_rng: &mut ChaCha8Rng,
    items: &mut Vec<Item>,
) {
    if shapes == Shapes::Real && matches!(changes.first(), Some(Change::Take { .. })) {
        if !items.is_empty() {
            *ts += 1;
            items.push(Item::Break);
        }
        let burst = book.burst(changes, *ts, rng);
        for frame in burst.frames {
            items.extend(frame.into_iter().map(Item::Entry));
            items.push(Item::Break);
        }
        // Both draws every time, so that later trades' draws do not depend on these.
        let announced = !shape_rng.random_ratio(1, TRADE_UNANNOUNCED);
        let book_after = shape_rng.random_ratio(1, BOOK_AFTER_TRADE);
        if announced {
            items.extend(burst.trades);
            items.push(Item::Break);
        }
        if book_after {
            items.push(Item::Event { asset: book.asset_id.clone(), json: book.book_event(Shapes::Real) });
            items.push(Item::Break);
        }
        *ts += 1;
        return;
    }
    for change in changes {
        // Every price_change of an asset is later than the one before: a trade or a tick size splits the
        // frame's entries into another price_change event, with a later timestamp.
        if !matches!(change, Change::Level { .. }) && !items.is_empty() {
            *ts += 1;
        }
        items.extend(book.apply(*change, *ts, rng));
    }
}

/// The text of one message: consecutive entries of one timestamp make one `price_change` event, other events
/// go in order between them. `wrong_hash` spoils the last entry's hash (no later entry of the message can then
/// show the book right again).
fn render(market: &str, items: &[&Item], wrong_hash: bool, wrap: bool) -> String {
    let mut events = Vec::new();
    let mut run: Vec<&Entry> = Vec::new();
    let entries = items.iter().filter(|i| matches!(i, Item::Entry(_))).count();
    let spoiled = if wrong_hash { entries } else { 0 };
    let mut written = 0;
    let mut flush = |run: &mut Vec<&Entry>, events: &mut Vec<String>| {
        if run.is_empty() {
            return;
        }
        let parts: Vec<String> = run
            .iter()
            .map(|e| {
                written += 1;
                if written == spoiled {
                    e.json(&wrong(&e.hash))
                } else {
                    e.json(&e.hash)
                }
            })
            .collect();
        events.push(format!(
            r#"{{"event_type":"price_change","market":"{market}","timestamp":"{}","price_changes":[{}]}}"#,
            run[0].timestamp,
            parts.join(",")
        ));
        run.clear();
    };
    for item in items {
        match item {
            Item::Entry(e) => {
                if run.last().is_some_and(|r| r.timestamp != e.timestamp) {
                    flush(&mut run, &mut events);
                }
                run.push(e)
            }
            Item::Event { json, .. } | Item::BestBidAsk { json, .. } => {
                flush(&mut run, &mut events);
                events.push(json.clone());
            }
            Item::Break => flush(&mut run, &mut events),
        }
    }
    flush(&mut run, &mut events);
    frame_text(&events, wrap)
}

impl Hub {
    /// The next frame timestamp for `tokens`: the clock in ms, after every earlier event of each token.
    pub(super) fn next_ts(&self, state: &mut State, books: &[String]) -> u64 {
        let mut ts = self.clock.now_ms();
        for token in books {
            let live = state.live.get(token).map_or(0, |b| b.timestamp);
            ts = ts.max(state.last_ts.get(token).copied().unwrap_or(0).max(live) + 1);
        }
        for token in books {
            state.last_ts.insert(token.clone(), ts);
        }
        ts
    }

    /// Sends the items of one frame to each market socket, filtered to its subscription: a message per run of
    /// items between [`Item::Break`]s, in which consecutive entries of one timestamp make one `price_change`
    /// event and other events go in order between them. Answers the number of messages (as a subscriber of
    /// every asset with `custom_feature_enabled` gets them).
    pub(super) fn emit(state: &mut State, market: &str, items: &[Item], wrap: bool) -> usize {
        let messages: Vec<&[Item]> = items.split(|i| matches!(i, Item::Break)).filter(|m| !m.is_empty()).collect();
        let State { sockets, faults, .. } = state;
        for socket in sockets.values_mut() {
            if socket.channel != Channel::Market {
                continue;
            }
            for message in &messages {
                let mine: Vec<&Item> = message
                    .iter()
                    .filter(|i| {
                        i.asset().is_some_and(|a| socket.assets.contains(a))
                            && (socket.custom || !matches!(i, Item::BestBidAsk { .. }))
                    })
                    .collect();
                if mine.is_empty() {
                    continue;
                }
                let entries = mine.iter().any(|i| matches!(i, Item::Entry(_)));
                deliver(faults, socket, Message { dump: false, entries }, |wrong_hash| {
                    render(market, &mine, wrong_hash, wrap)
                });
            }
        }
        messages.len()
    }

    /// Applies given changes to a live book now and sends them as one frame, as [`Hub::frame`] does drawn ones
    /// (consecutive trades are one incoming order's: with the real shapes, one burst).
    pub(super) fn apply(&self, state: &mut State, token: &str, changes: &[Change], rng: &mut ChaCha8Rng) {
        let tokens = [token.to_owned()];
        let Some(before) = state.live.get(token).map(|b| (b.best_bid(), b.best_ask())) else { return };
        let mut ts = self.next_ts(state, &tokens);
        let State { live, last_ts, shapes, shape_rng, .. } = &mut *state;
        let Some(book) = live.get_mut(token) else { return };
        let mut items = Vec::with_capacity(changes.len() * 2 + 1);
        let mut rest = changes;
        while let Some(first) = rest.first() {
            let n = if matches!(first, Change::Take { .. }) {
                rest.iter().take_while(|c| matches!(c, Change::Take { .. })).count()
            } else {
                1
            };
            let (now, later) = rest.split_at(n);
            step(book, now, &mut ts, rng, *shapes, shape_rng, &mut items);
            rest = later;
        }
        last_ts.insert(token.to_owned(), ts);
        book.refresh();
        if (book.best_bid(), book.best_ask()) != before {
            items.push(Item::BestBidAsk { asset: token.to_owned(), json: book.best_bid_ask(ts) });
        }
        let market = book.market.clone();
        Self::emit(state, &market, &items, false);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use rand::SeedableRng;
    use serde_json::Value;
    use tokio::sync::mpsc;

    use super::*;
    use crate::accounts::Accounts;
    use crate::dataset::Catalog;
    use crate::market::{Effects, Side};
    use crate::stream::Out;
    use crate::sync::lock;
    use crate::text::decimal;

    /// A hub with one market socket subscribed (with its dump) to the first token of the ten-level market.
    fn ten_levels() -> (Hub, String, mpsc::UnboundedReceiver<Out>) {
        let catalog = Catalog::shared(1);
        let hub = Hub::new(catalog.clone(), Arc::new(Accounts::new(catalog.clone())), Arc::default(), 1, 0.0);
        let m = catalog.markets.iter().find(|m| m.book == crate::books::BookKind::Levels(10, 10)).unwrap();
        let token = m.tokens[0].clone();
        let (id, rx, _) = hub.register(Channel::Market);
        hub.subscribe(id, std::slice::from_ref(&token), true, Some(false));
        (hub, token, rx)
    }

    /// The messages queued so far, as JSON.
    fn drain(rx: &mut mpsc::UnboundedReceiver<Out>) -> Vec<Value> {
        let mut out = Vec::new();
        while let Ok(Out::Text(t)) = rx.try_recv() {
            out.push(serde_json::from_str(&t).unwrap());
        }
        out
    }

    fn summary(hub: &Hub, token: &str) -> Value {
        serde_json::from_str(&hub.current(token).unwrap().0).unwrap()
    }

    #[test]
    fn an_orders_trades_go_out_as_one_burst_with_the_hash_after_it() {
        let (hub, token, mut rx) = ten_levels();
        let dump = drain(&mut rx);
        assert_eq!(dump.len(), 1);
        assert_eq!(dump[0]["event_type"], "book");
        assert!(dump[0].get("tick_size").is_none() && dump[0].get("last_trade_price").is_none(), "{}", dump[0]);
        assert_eq!(dump[0]["hash"], summary(&hub, &token)["hash"]);
        // A buy that takes the best ask and part of the next one.
        let seed = [7u8; 32];
        let (asks, bids) = hub
            .trade(&token, seed, |book| {
                let asks: Vec<(u64, u64)> = book.asks.iter().rev().take(2).copied().collect();
                let changes = vec![
                    Change::Take { side: Side::Ask, price: asks[0].0, taken: asks[0].1, remaining: 0 },
                    Change::Take { side: Side::Ask, price: asks[1].0, taken: 1, remaining: asks[1].1 - 1 },
                ];
                ((asks, book.bids.clone()), Effects { changes, ..Effects::default() })
            })
            .ok()
            .unwrap();
        let after = summary(&hub, &token);
        let messages = drain(&mut rx);
        assert!(messages.len() >= 3, "{messages:?}");
        let text = |p: u64| decimal(p, 6);
        let frames: Vec<Vec<(String, String, String)>> = messages[..3]
            .iter()
            .map(|m| {
                assert_eq!(m["event_type"], "price_change", "{m}");
                assert_eq!(m["timestamp"], after["timestamp"], "one timestamp, the book's after the burst");
                m["price_changes"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|e| {
                        assert_eq!(e["hash"], after["hash"], "every entry has the hash after the burst");
                        assert_eq!(e["best_ask"].as_str().unwrap(), text(asks[1].0));
                        assert_eq!(e["best_bid"].as_str().unwrap(), text(bids.last().unwrap().0));
                        let s = |k: &str| e[k].as_str().unwrap().to_owned();
                        (s("side"), s("price"), s("size"))
                    })
                    .collect()
            })
            .collect();
        let size = |u: u64| decimal(u, 2);
        let crossing = ("BUY".to_owned(), text(asks[1].0), size(asks[0].1 + 1));
        assert_eq!(frames[0], vec![crossing]);
        assert_eq!(frames[1], vec![("SELL".to_owned(), text(asks[0].0), "0".to_owned())]);
        assert_eq!(
            frames[2],
            vec![
                ("SELL".to_owned(), text(asks[1].0), size(asks[1].1 - 1)),
                ("BUY".to_owned(), text(asks[1].0), "0".to_owned())
            ]
        );
        // The book after: the trade's price is its last trade price, and no bid is left at the crossing price.
        assert_eq!(after["last_trade_price"].as_str().unwrap(), text(asks[1].0));
        assert_eq!(after["bids"].as_array().unwrap().len(), bids.len());
        // Then the trades' events, if announced, with the transaction hashes the trading code draws from the seed.
        for m in &messages[3..] {
            let events: Vec<&Value> = match m {
                Value::Array(list) => list.iter().collect(),
                one => vec![one],
            };
            match events[0]["event_type"].as_str().unwrap() {
                "last_trade_price" => {
                    let mut rng = ChaCha8Rng::from_seed(seed);
                    assert_eq!(events.len(), 2);
                    for (e, (price, taken)) in events.iter().zip([(asks[0].0, asks[0].1), (asks[1].0, 1)]) {
                        let tx = format!("0x{}", hex::encode(rng.random::<[u8; 32]>()));
                        assert_eq!(e["transaction_hash"].as_str().unwrap(), tx);
                        assert_eq!(
                            (e["price"].as_str().unwrap(), e["size"].as_str().unwrap()),
                            (text(price).as_str(), size(taken).as_str())
                        );
                        assert_eq!(e["side"], "BUY");
                    }
                }
                "book" => {
                    assert_eq!(events[0]["hash"], after["hash"]);
                    assert!(events[0].get("tick_size").is_none() && events[0].get("last_trade_price").is_none());
                }
                other => panic!("{other} after a burst"),
            }
        }
    }

    #[test]
    fn trades_are_sometimes_unannounced_and_sometimes_followed_by_a_book() {
        let (hub, token, mut rx) = ten_levels();
        drain(&mut rx);
        let (mut announced, mut silent, mut books) = (0, 0, 0);
        for k in 0..40u8 {
            hub.trade(&token, [k; 32], |book| {
                let side = if k % 2 == 0 { Side::Ask } else { Side::Bid };
                let (price, size) = *if side == Side::Ask { &book.asks } else { &book.bids }.last().unwrap();
                (
                    (),
                    Effects {
                        changes: vec![Change::Take { side, price, taken: 1, remaining: size - 1 }],
                        ..Effects::default()
                    },
                )
            })
            .ok()
            .unwrap();
            let after = summary(&hub, &token);
            let messages = drain(&mut rx);
            let kinds: Vec<&str> = messages.iter().map(|m| m["event_type"].as_str().unwrap()).collect();
            assert_eq!(kinds[..2], ["price_change", "price_change"], "{messages:?}");
            let ltp = kinds.iter().position(|k| *k == "last_trade_price");
            if let Some(i) = ltp {
                assert_eq!(i, 2, "the trade is announced after the burst");
                assert_eq!(messages[i]["price"], after["last_trade_price"]);
                announced += 1;
            } else {
                silent += 1;
            }
            if let Some(i) = kinds.iter().position(|k| *k == "book") {
                assert_eq!(i, kinds.len() - 1);
                assert_eq!(messages[i]["hash"], after["hash"]);
                books += 1;
            }
            assert!(kinds.len() <= 4, "{kinds:?}");
        }
        assert!(announced > 20 && silent > 3 && books > 3, "{announced} {silent} {books}");
        // The exact shapes: one message, the trade first, then its entry with the hash right after it.
        hub.set_shapes(Shapes::Exact);
        hub.trade(&token, [99; 32], |book| {
            let (price, size) = *book.asks.last().unwrap();
            (
                (),
                Effects {
                    changes: vec![Change::Take { side: Side::Ask, price, taken: 1, remaining: size - 1 }],
                    ..Effects::default()
                },
            )
        })
        .ok()
        .unwrap();
        let messages = drain(&mut rx);
        assert_eq!(messages.len(), 1);
        let events = messages[0].as_array().unwrap();
        assert_eq!(
            (events[0]["event_type"].as_str(), events[1]["event_type"].as_str()),
            (Some("last_trade_price"), Some("price_change"))
        );
        assert_eq!(events[1]["price_changes"][0]["hash"], summary(&hub, &token)["hash"]);
        // A reset restores the real shapes.
        hub.reset();
        assert_eq!(lock(&hub.state).shapes, Shapes::Real);
    }
}
