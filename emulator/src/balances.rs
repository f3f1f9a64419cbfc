//! The account's balances and allowances (GET /balance-allowance and its update) and whether its orders earn
//! liquidity rewards (GET /order-scoring, POST /orders-scoring). Shapes: the public CLOB OpenAPI documents
//! (`BalanceAllowanceResponse`, `OrderScoringResponse`, `OrdersScoringResponse`).
//!
//! The model: every account starts with `STARTING_COLLATERAL` and no outcome tokens; the trades of the orders it
//! placed here move both (fees aside), in the wallet it trades through (`trading::wallets`): a read for another
//! signature type sees none, and one for a deposit wallet (type 3) of an owner without one is refused. Its allowances are unlimited for the exchanges of the version served. An
//! order scores while it rests on a market with a rewards program, with at least the program's minimum size
//! left, priced within the program's maximum spread (in cents) of the book's midpoint.

use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::routing::{get, post};
use axum::Router;
use serde_json::{json, Map, Value};

use crate::app::App;
use crate::params::{ok_json, ApiError, ApiResult, Params};
use crate::signed::Signed;
use crate::sync::lock;
use crate::trading::ledger::{Ledger, HUNDREDTH};

/// What an account holds before it trades: 10,000 of the collateral, in its 6-decimal base units.
pub const STARTING_COLLATERAL: i128 = 10_000_000_000;
/// An unlimited ERC-20 allowance (2^256 - 1), as wallets approve the exchanges.
const UNLIMITED: &str = "115792089237316195423570985008687907853269984665640564039457584007913129639935";

pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/balance-allowance", get(balance_allowance))
        .route("/balance-allowance/update", get(balance_allowance))
        .route("/order-scoring", get(order_scoring))
        .route("/orders-scoring", post(orders_scoring))
}

async fn balance_allowance(
    State(app): State<Arc<App>>,
    RawQuery(q): RawQuery,
    Signed { account, .. }: Signed,
) -> ApiResult {
    let p = Params::parse(q.as_deref());
    let asset_type = p.required("asset_type")?;
    let signature_type = p.opt_int("signature_type", 0, Some(3))?.unwrap_or(0) as u8;
    let token = match (asset_type, p.get("token_id")) {
        ("COLLATERAL", _) => None,
        ("CONDITIONAL" | "CONDITIONAL-V2", Some(token)) if !token.is_empty() => Some(token),
        ("CONDITIONAL" | "CONDITIONAL-V2", _) => {
            return Err(ApiError::bad("token_id is required for a CONDITIONAL asset_type"))
        }
        _ => return Err(ApiError::bad("asset_type must be COLLATERAL, CONDITIONAL or CONDITIONAL-V2")),
    };
    // The account's funds are in the wallet it trades through: another signature type's wallet holds none.
    let owner = app.accounts.get(account).and_then(|a| crate::trading::order::parse_address(&a.address));
    let holds = match owner {
        Some(owner) => app.trading.wallets.holds(owner, signature_type).map_err(ApiError::bad)?,
        None => signature_type == 0,
    };
    let balance = if holds { holding(&app, account, token) } else { 0 };
    // Approvals are the wallet's own: another type's wallet, or one that approved nothing, allows none.
    let approved = holds && owner.is_none_or(|o| app.trading.wallets.setup(o).approved);
    let allowance = if approved { UNLIMITED } else { "0" };
    let exchanges = app.trading.exchanges(app.trading.version());
    let mut allowances = Map::new();
    for address in [exchanges.exchange, exchanges.neg_risk] {
        allowances.insert(address.to_string(), allowance.into());
    }
    ok_json(&json!({ "balance": balance.max(0).to_string(), "allowances": allowances }))
}

/// The account's collateral (`token` None) or shares of `token`, in base units, after its trades here.
fn holding(app: &App, account: usize, token: Option<&str>) -> i128 {
    holding_in(&app.catalog, &lock(&app.trading.ledger), account, token)
}

/// [`holding`] in a store already locked (the order checks read it under the ledger's lock).
pub(crate) fn holding_in(c: &crate::dataset::Catalog, l: &Ledger, account: usize, token: Option<&str>) -> i128 {
    let mut total = if token.is_none() { STARTING_COLLATERAL } else { 0 };
    for t in &l.trades {
        let taker = &l.orders[t.taker];
        let fills = std::iter::once((Some(t.taker), t.size))
            .chain(t.makers.iter().map(|f| (f.order, f.size)))
            .filter_map(|(order, size)| order.map(|i| (&l.orders[i], size)))
            .filter(|(o, _)| o.account == account);
        for (o, size) in fills {
            // A taker's size is the whole trade; each maker's its fill.
            let size = i128::from(size);
            let is_taker = std::ptr::eq(o, taker);
            let buy = if is_taker { taker.buy } else { o.buy };
            let sign = if buy { 1 } else { -1 };
            // A maker on the complementary token pays (or gets) one minus the taker's price: together one unit
            // of cash per share pair, minted or merged.
            let price = i128::from(t.price_of(is_taker));
            match token {
                None => total -= sign * size * price / 100,
                Some(token) if c.markets[o.market].tokens[o.outcome] == token => {
                    total += sign * size * i128::from(HUNDREDTH)
                }
                Some(_) => {}
            }
        }
    }
    total
}

async fn order_scoring(
    State(app): State<Arc<App>>,
    RawQuery(q): RawQuery,
    Signed { account, .. }: Signed,
) -> ApiResult {
    let p = Params::parse(q.as_deref());
    let id = p.required("order_id")?;
    ok_json(&json!({ "scoring": scores(&app, account, id) }))
}

/// POST /orders-scoring: the body as DELETE /orders takes it.
async fn orders_scoring(State(app): State<Arc<App>>, Signed { account, body }: Signed) -> ApiResult {
    let mut out = Map::new();
    for id in crate::account::order_id_list(&body)? {
        let scoring = scores(&app, account, &id);
        out.insert(id, scoring.into());
    }
    ok_json(&Value::Object(out))
}

/// Whether the account's order `id` earns rewards now (an unknown or another account's order does not).
fn scores(app: &App, account: usize, id: &str) -> bool {
    crate::trading::cancel::expire(app);
    let c = &app.catalog;
    let found = {
        let l = lock(&app.trading.ledger);
        l.find(id).map(|i| {
            let o = &l.orders[i];
            let open = o.account == account && o.live && o.matched < o.original;
            (open, o.market, o.outcome, o.price, o.original.saturating_sub(o.matched) as f64 / 1e6)
        })
    };
    let Some((true, market, outcome, price, shares)) = found else { return false };
    let m = &c.markets[market];
    if m.rewards_rate <= 0.0 || shares < m.rewards_min_size {
        return false;
    }
    let Some((Some(bid), Some(ask))) = app.stream.best(&m.tokens[outcome]) else { return false };
    let mid = (bid + ask) as f64 / 2e6;
    (price as f64 / 1e6 - mid).abs() * 100.0 <= m.rewards_max_spread + 1e-9
}

#[cfg(test)]
mod tests {
    #[test]
    fn unlimited_is_the_largest_uint256() {
        assert_eq!(alloy_primitives::U256::MAX.to_string(), super::UNLIMITED);
    }
}
