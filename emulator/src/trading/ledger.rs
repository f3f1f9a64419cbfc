//! The one store of orders: the catalog's made-up orders (seeded when the app is built and again at every
//! `POST /__admin/reset`) and those placed through `POST /order`, with the trades the placed ones made, as the
//! account routes, the admin routes and the user channel show them. Every read and every cancellation goes
//! through it. Sizes are kept in 10^-6 units of shares (the order amounts' unit); what rests on a book is always
//! whole hundredths (a limit order's shares have at most 2 decimals, and fills are in book units).

use std::collections::HashMap;

use serde_json::{json, Value};

use crate::dataset::{Catalog, SeedOrder};
use crate::stream::{OrderEventType, TradeEvent};
use crate::text::{decimal, iso};

/// Units of shares in one hundredth (the books' size unit).
pub const HUNDREDTH: u64 = 10_000;
/// One share or one unit of cash (prices are in millionths).
const ONE: u64 = 1_000_000;

/// The address that stands for the emulator's own liquidity in trades (the levels that are no user's order):
/// "Liquidity" in ASCII.
pub const LIQUIDITY: &str = "0x4c69717569646974790000000000000000000000";

/// One order: the catalog's (a seed) or placed through POST /order.
pub struct Order {
    /// The order hash (`0x` and 64 lowercase hex digits): the order's id.
    pub id: String,
    pub account: usize,
    /// The API key of the account.
    pub owner: String,
    /// The order's maker (the funder for proxy and Safe orders), checksummed.
    pub maker_address: String,
    pub market: usize,
    pub outcome: usize,
    pub buy: bool,
    /// The limit price in millionths (a market order's: its implied worst price, cut to millionths).
    pub price: u64,
    /// Shares, in units: asked for and matched so far.
    pub original: u64,
    pub matched: u64,
    pub order_type: &'static str,
    pub expiration: u64,
    /// Seconds.
    pub created: i64,
    /// Open: resting on the book now (a seed: not cancelled).
    pub live: bool,
    pub canceled: bool,
    pub trades: Vec<String>,
    /// One of the catalog's made-up orders: it rests on no live book (matching never meets it and cancelling it
    /// moves no book) and, as recorded, never expires.
    pub seed: bool,
}

impl Order {
    /// A catalog order as the store holds it: whole shares in units, its made-up trade, open.
    pub fn seeded(c: &Catalog, o: &SeedOrder) -> Self {
        let a = &c.accounts[o.account];
        Self {
            id: o.id.clone(),
            account: o.account,
            owner: a.api_key.clone(),
            maker_address: a.address.clone(),
            market: o.market,
            outcome: o.outcome,
            buy: o.buy,
            price: o.price,
            original: o.original_size * 1_000_000,
            matched: o.size_matched * 1_000_000,
            order_type: o.order_type,
            expiration: u64::try_from(o.expiration).unwrap_or(0),
            created: o.created,
            live: true,
            canceled: false,
            trades: if o.size_matched > 0 { vec![format!("{}-trade", &o.id[2..18])] } else { Vec::new() },
            seed: true,
        }
    }

    /// What still rests (or would), in book units.
    pub fn remaining(&self) -> u64 {
        self.original.saturating_sub(self.matched) / HUNDREDTH
    }

    /// As the service reports orders: canceled, matched (in part or whole) or live.
    pub fn status(&self) -> &'static str {
        if self.canceled {
            "CANCELED"
        } else if self.matched > 0 {
            "MATCHED"
        } else {
            "LIVE"
        }
    }
}

/// One side of a trade that is not the taker: a user's resting order, or the emulator's liquidity.
pub struct MakerFill {
    /// The order's index in the store; None for the emulator's liquidity.
    pub order: Option<usize>,
    pub id: String,
    /// Book units.
    pub size: u64,
}

/// One trade: a taker order against one price level.
pub struct Trade {
    pub id: String,
    /// Index of the taker order in the store.
    pub taker: usize,
    /// Book units and millionths.
    pub size: u64,
    pub price: u64,
    pub fee_bps: u64,
    /// Milliseconds.
    pub time_ms: u64,
    pub tx: String,
    pub makers: Vec<MakerFill>,
    /// The makers' orders rest on the market's other token (a buy met by buys of it: the two tokens minted
    /// together; a sell by sells of it: merged), and `price` is the taker's, one minus theirs.
    pub cross: bool,
    /// MATCHED, then MINED and CONFIRMED (or RETRYING and FAILED), as `super::settlement` moves it.
    pub status: &'static str,
    /// When it moves on (ms after `time_ms`, on the emulator's clock) and whether its transaction fails.
    pub plan: super::settlement::Plan,
}

impl Trade {
    /// The price a fill of this trade is at, in millionths: the taker's `price`; a maker's on the complementary
    /// token is one minus it.
    pub fn price_of(&self, taker: bool) -> u64 {
        if self.cross && !taker {
            ONE.saturating_sub(self.price)
        } else {
            self.price
        }
    }

    /// Its transaction's hash once one was broadcast (none while MATCHED).
    pub fn tx_hash(&self) -> Option<&str> {
        (self.status != "MATCHED").then_some(self.tx.as_str())
    }
}

/// Every order (the catalog's first, then those placed, in the order they came) and the placed orders' trades.
pub struct Ledger {
    pub orders: Vec<Order>,
    /// How many of `orders` are the catalog's (the first ones).
    seeds: usize,
    index: HashMap<String, usize>,
    pub trades: Vec<Trade>,
}

impl Ledger {
    /// The starting store: the catalog's orders, open, and nothing placed.
    pub fn seeded(c: &Catalog) -> Self {
        let mut ledger = Self { orders: Vec::new(), seeds: 0, index: HashMap::new(), trades: Vec::new() };
        for o in &c.orders {
            ledger.add(Order::seeded(c, o));
        }
        ledger.seeds = ledger.orders.len();
        ledger
    }

    /// An order by id: a placed one in any case, a catalog one exactly (as its id was always matched).
    pub fn find(&self, id: &str) -> Option<usize> {
        let i = *self.index.get(&id.to_ascii_lowercase())?;
        (!self.orders[i].seed || self.orders[i].id == id).then_some(i)
    }

    pub fn add(&mut self, order: Order) -> usize {
        let i = self.orders.len();
        self.index.insert(order.id.to_ascii_lowercase(), i);
        self.orders.push(order);
        i
    }

    /// How many orders were placed (the catalog's aside).
    pub fn placed_count(&self) -> usize {
        self.orders.len() - self.seeds
    }

    /// Every order in the order the account routes list them: the placed ones newest first, then the catalog's.
    pub fn listing(&self) -> impl Iterator<Item = usize> {
        (self.seeds..self.orders.len()).rev().chain(0..self.seeds)
    }

    /// The account's open orders.
    pub fn open_count(&self, account: usize) -> usize {
        self.orders.iter().filter(|o| o.account == account && o.live).count()
    }

    /// The placed orders resting on one side of a token, by price (best first: the highest bid, the lowest ask),
    /// each price's oldest first, with what remains of each (book units).
    pub fn resting_levels(&self, market: usize, outcome: usize, buy: bool) -> Vec<(u64, Vec<(usize, u64)>)> {
        let mut levels: Vec<(u64, Vec<(usize, u64)>)> = Vec::new();
        for (i, o) in self.orders.iter().enumerate() {
            if o.live && !o.seed && o.market == market && o.outcome == outcome && o.buy == buy && o.remaining() > 0 {
                match levels.iter_mut().find(|l| l.0 == o.price) {
                    Some(level) => level.1.push((i, o.remaining())),
                    None => levels.push((o.price, vec![(i, o.remaining())])),
                }
            }
        }
        levels.sort_by_key(|l| if buy { u64::MAX - l.0 } else { l.0 });
        levels
    }

    /// The orders resting on a token's side at `price`, oldest first, with what remains of each (book units).
    pub fn resting(&self, market: usize, outcome: usize, buy: bool, price: u64) -> Vec<(usize, u64)> {
        self.orders
            .iter()
            .enumerate()
            .filter(|(_, o)| {
                o.live && !o.seed && o.market == market && o.outcome == outcome && o.buy == buy && o.price == price
            })
            .map(|(i, o)| (i, o.remaining()))
            .collect()
    }
}

fn side(buy: bool) -> &'static str {
    if buy {
        "BUY"
    } else {
        "SELL"
    }
}

/// An order as GET /data/orders and GET /data/order/{id} show it.
pub fn order_json(c: &Catalog, o: &Order) -> Value {
    let m = &c.markets[o.market];
    json!({
        "associateTrades": o.trades, "id": o.id, "status": o.status(), "market": m.condition_id,
        "originalSize": decimal(o.original, 6), "outcome": m.outcomes[o.outcome], "makerAddress": o.maker_address,
        "owner": o.owner, "price": decimal(o.price, 6), "side": side(o.buy), "sizeMatched": decimal(o.matched, 6),
        "assetId": m.tokens[o.outcome], "expiration": o.expiration.to_string(), "order_type": o.order_type,
        "createdAt": iso(o.created),
    })
}

/// The user channel's `order` event of an order at `now_ms`, with its market's condition id.
pub fn order_event(c: &Catalog, o: &Order, kind: OrderEventType, now_ms: u64) -> (String, Value) {
    let m = &c.markets[o.market];
    let event = json!({
        "event_type": "order", "id": o.id, "owner": o.owner, "market": m.condition_id,
        "asset_id": m.tokens[o.outcome], "side": side(o.buy), "price": decimal(o.price, 6),
        "original_size": decimal(o.original, 6), "size_matched": decimal(o.matched, 6),
        "outcome": m.outcomes[o.outcome], "type": kind.as_str(), "status": o.status(),
        "timestamp": now_ms.to_string(), "associate_trades": o.trades,
    });
    (m.condition_id.clone(), event)
}

/// The price of a maker's entry on the complementary token: one minus the taker's price, in the service's float
/// arithmetic (f64) and written as its shortest text, so that it can fall off the tick grid: a taker's 0.55 gives
/// a maker's `"0.44999999999999996"`, 0.07 gives `"0.9299999999999999"` (and 0.13 gives `"0.87"`). The service's
/// users capture such entries (`"price": "0.870000260000099"` for a maker's buy of the other token, the library's
/// `src/api/fills.rs` and README "Whose fill is it"); its exact arithmetic is not published, so the emulator's is
/// this one subtraction.
pub fn complement_price(taker_price: u64) -> String {
    let p = taker_price as f64 / ONE as f64;
    format!("{}", 1.0 - p)
}

/// The maker side of a trade, as `maker_orders` lists it: each maker's own order, on its own token with its own
/// side (on the complementary token for a cross trade, at [`complement_price`]).
fn maker_orders(c: &Catalog, l: &Ledger, t: &Trade) -> Vec<Value> {
    let taker = &l.orders[t.taker];
    let m = &c.markets[taker.market];
    let price = if t.cross { complement_price(t.price) } else { decimal(t.price, 6) };
    t.makers
        .iter()
        .map(|f| {
            let (address, owner, outcome, buy) = match f.order {
                Some(i) => {
                    let o = &l.orders[i];
                    (o.maker_address.as_str(), o.owner.as_str(), o.outcome, o.buy)
                }
                None => (LIQUIDITY, "", taker.outcome, !taker.buy),
            };
            json!({
                "order_id": f.id, "maker_address": address, "owner": owner, "matched_amount": decimal(f.size, 2),
                "fee_rate_bps": t.fee_bps.to_string(), "price": price, "asset_id": m.tokens[outcome],
                "outcome": m.outcomes[outcome], "side": side(buy),
            })
        })
        .collect()
}

/// Whether `account` took part in a trade: as its taker, or as the owner of one of its maker orders.
pub fn involves(l: &Ledger, t: &Trade, account: usize) -> Option<bool> {
    if l.orders[t.taker].account == account {
        return Some(true);
    }
    t.makers.iter().any(|f| f.order.is_some_and(|i| l.orders[i].account == account)).then_some(false)
}

/// A trade as GET /data/trades shows it to `account` (the taker's view or a maker's).
pub fn trade_json(c: &Catalog, l: &Ledger, t: &Trade, account: usize) -> Value {
    let taker = &l.orders[t.taker];
    let m = &c.markets[taker.market];
    let as_taker = taker.account == account;
    let mine = t.makers.iter().filter_map(|f| f.order).map(|i| &l.orders[i]).find(|o| o.account == account);
    let (owner, address) = match (as_taker, mine) {
        (false, Some(o)) => (o.owner.as_str(), o.maker_address.as_str()),
        _ => (taker.owner.as_str(), taker.maker_address.as_str()),
    };
    let trader_side = if as_taker { "TAKER" } else { "MAKER" };
    let secs = t.time_ms / 1000;
    json!({
        "id": t.id, "taker_order_id": taker.id, "market": m.condition_id, "asset_id": m.tokens[taker.outcome],
        "side": side(taker.buy), "size": decimal(t.size, 2), "fee_rate_bps": t.fee_bps.to_string(),
        "price": decimal(t.price, 6), "status": t.status, "match_time": secs.to_string(),
        "last_update": secs.to_string(), "outcome": m.outcomes[taker.outcome], "bucket_index": 0, "owner": owner,
        "maker_address": address, "transaction_hash": t.tx_hash().unwrap_or_default(), "trader_side": trader_side, "type": trader_side,
        "maker_orders": maker_orders(c, l, t),
    })
}

/// The user channel's `trade` event of a trade at `now_ms`, for the account whose API key is `owner`.
pub fn trade_event(c: &Catalog, l: &Ledger, t: &Trade, owner: &str, now_ms: u64) -> (String, Value) {
    let taker = &l.orders[t.taker];
    let m = &c.markets[taker.market];
    let event = TradeEvent {
        id: &t.id,
        taker_order_id: &taker.id,
        market: &m.condition_id,
        asset_id: &m.tokens[taker.outcome],
        side: side(taker.buy),
        size: &decimal(t.size, 2),
        price: &decimal(t.price, 6),
        status: t.status,
        maker_orders: maker_orders(c, l, t),
        owner,
        trade_owner: &taker.owner,
        outcome: &m.outcomes[taker.outcome],
        bucket_index: 0,
        transaction_hash: t.tx_hash(),
        now_ms,
    }
    .json();
    (m.condition_id.clone(), event)
}

#[cfg(test)]
mod tests {
    use super::complement_price;

    #[test]
    fn a_complement_is_the_floats_shortest_text() {
        // (taker's price in millionths, the maker's entry): on the grid where f64 gives it, off it where not.
        let table = [
            (130_000, "0.87"),
            (500_000, "0.5"),
            (550_000, "0.44999999999999996"),
            (70_000, "0.9299999999999999"),
            (180_000, "0.8200000000000001"),
            (999_000, "0.0010000000000000009"),
        ];
        for (taker, maker) in table {
            assert_eq!(complement_price(taker), maker, "{taker}");
        }
    }
}
