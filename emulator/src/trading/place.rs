//! `POST /order` and `POST /orders`: every check the service makes, then matching on the token's live book (the
//! one `GET /book` serves and the market channel publishes), in one step under the streams' lock.

use std::sync::Arc;

use alloy_primitives::keccak256;
use axum::extract::State;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use uuid::Uuid;

use super::cancel::expire;
use super::engine::{self, Level, Taker};
use super::ledger::{self, Ledger, MakerFill, Order, Trade, HUNDREDTH};
use super::order::{self, OrderType, Refusal, Side as OrderSide, SignatureType, Submitted, VERSION_MISMATCH};
use super::precision::{self, Rules};
use super::wallets::NOT_ENOUGH;
use crate::app::App;
use crate::dataset::Account;
use crate::market::{parse_fixed, Change, Effects, LiveBook, Side};
use crate::params::{ok_json, ApiError, ApiResult};
use crate::signed::Signed;
use crate::stream::OrderEventType;
use crate::sync::lock;
use crate::text::decimal;

/// The most orders one `POST /orders` takes.
pub const MAX_BATCH: usize = 15;
/// A GTD order's expiration must be at least this far ahead.
const GTD_MARGIN_SECS: u64 = 60;

// The service's texts, from its error reference (https://docs.polymarket.com/resources/error-codes).
pub const POST_ONLY_CROSSES: &str = "invalid post-only order: order crosses book";
pub const FOK_UNFILLED: &str = "order couldn't be fully filled. FOK orders are fully filled or killed.";
pub const FAK_UNMATCHED: &str =
    "no orders found to match with FAK order. FAK orders are partially filled or killed if no match is found.";
pub const OWNER_MISMATCH: &str = "the order owner has to be the owner of the API KEY";
pub const SIGNER_MISMATCH: &str = "the order signer address has to be the address of the API KEY";
/// The emulator's own text (the service answers "order {id} is invalid. Duplicated.").
pub const DUPLICATE: &str = "duplicate order";

/// `POST /order`: `{order, owner, orderType, postOnly}`; the placement result, or 400 `{"error": reason}`.
pub(crate) async fn place_order(State(app): State<Arc<App>>, Signed { account, body }: Signed) -> ApiResult {
    let item: Value = serde_json::from_slice(&body)
        .ok()
        .filter(Value::is_object)
        .ok_or_else(|| ApiError::bad("body must be a JSON object {order, owner, orderType, postOnly}"))?;
    expire(&app);
    match submit(&app, account, &item) {
        Ok(answer) => ok_json(&answer),
        Err((Refusal::VersionMismatch, _)) => Err(ApiError::bad(VERSION_MISMATCH)),
        Err((Refusal::Invalid(reason), _)) => Err(ApiError::bad(reason)),
    }
}

/// `POST /orders`: an array of 1 to 15 of what `POST /order` takes; the results in the same order, a refused
/// order as `{success: false, errorMsg}`. An order of the other version refuses the whole request.
pub(crate) async fn place_orders(State(app): State<Arc<App>>, Signed { account, body }: Signed) -> ApiResult {
    let items = match serde_json::from_slice::<Value>(&body) {
        Ok(Value::Array(items)) if (1..=MAX_BATCH).contains(&items.len()) => items,
        _ => {
            return Err(ApiError::bad(format!(
                "body must be a JSON array of 1 to {MAX_BATCH} orders {{order, owner, orderType, postOnly}}"
            )))
        }
    };
    let version = app.trading.version();
    if items.iter().any(|item| order::mismatched(item, version)) {
        return Err(ApiError::bad(VERSION_MISMATCH));
    }
    expire(&app);
    let answers: Vec<Value> = items
        .iter()
        .map(|item| match submit(&app, account, item) {
            Ok(answer) => answer,
            Err((refusal, hash)) => {
                let reason = match refusal {
                    Refusal::VersionMismatch => VERSION_MISMATCH.to_owned(),
                    Refusal::Invalid(reason) => reason,
                };
                json!({
                    "success": false, "errorMsg": reason, "orderID": "", "orderHash": hash.unwrap_or_default(),
                    "status": "", "takingAmount": "", "makingAmount": "",
                })
            }
        })
        .collect();
    ok_json(&Value::Array(answers))
}

fn invalid(reason: impl Into<String>) -> Refusal {
    Refusal::Invalid(reason.into())
}

/// Checks one submission and places it. A refusal carries the order hash when it got that far.
fn submit(app: &App, account: usize, item: &Value) -> Result<Value, (Refusal, Option<String>)> {
    let version = app.trading.version();
    let s = order::parse(item, version).map_err(|r| (r, None))?;
    let a = app.accounts.get(account).ok_or_else(|| (invalid("unknown account"), None))?;
    let checked = check(app, &a, &s).map_err(|r| (r, None))?;
    let id = hex0x(&checked.hash);
    place(app, account, &a, &s, &checked).map_err(|r| (invalid(r), Some(id)))
}

/// What the checks before matching found out.
struct Checked {
    hash: [u8; 32],
    token: String,
    market: usize,
    outcome: usize,
}

/// Owner, signer, token and market, maker and signature type, signature, and the order type's terms.
fn check(app: &App, a: &Account, s: &Submitted) -> Result<Checked, Refusal> {
    // A position of the newer system is signed for the third exchange.
    let signed_for =
        order::Order { version: order::signed_version(s.order.version, &s.order.token_id), ..s.order.clone() };
    let o = &signed_for;
    if s.owner != a.api_key {
        return Err(invalid(OWNER_MISMATCH));
    }
    // The key is its owner's (an EOA): a deposit wallet's order is signed by the wallet that owner has.
    let key_address = order::parse_address(&a.address);
    let signs_for_key = match o.signature_type {
        SignatureType::Poly1271 => key_address.map(super::deposit::wallet_of) == Some(o.signer),
        _ => key_address == Some(o.signer),
    };
    if !signs_for_key {
        return Err(invalid(SIGNER_MISMATCH));
    }
    let token = o.token_id.to_string();
    let (market, outcome) = app
        .catalog
        .token(&token)
        .ok_or_else(|| invalid("invalid order: tokenId is not a token of this service's markets"))?;
    let m = &app.catalog.markets[market];
    if !m.accepting_orders {
        return Err(invalid("invalid order: the market is not accepting orders"));
    }
    // A tick the service never uses (the 0.000001 of the deepest special books) cannot become one by moving: refused
    // here, before the (large) book is made live.
    if precision::amount_decimals(m.tick).is_none() {
        let rules = Rules { tick: m.tick, min_size: 0 };
        precision::check(rules, o.side, s.order_type, o.maker_amount, o.taker_amount)
            .map_err(|r| Refusal::Invalid(r.text("")))?;
    }
    match o.signature_type {
        SignatureType::Eoa if o.maker != o.signer => {
            return Err(invalid("invalid order: an EOA order (signatureType 0) must have maker equal to signer"))
        }
        SignatureType::PolyProxy | SignatureType::PolyGnosisSafe if o.maker == o.signer => {
            return Err(invalid(
                "invalid order: a proxy or Safe order (signatureType 1 or 2) must have the funder wallet as maker, not the signer",
            ))
        }
        SignatureType::Poly1271 if o.maker != o.signer => {
            return Err(invalid(
                "invalid order: a deposit wallet order (signatureType 3) must have the wallet as maker and signer",
            ))
        }
        SignatureType::Poly1271 if o.version == crate::trading::Version::V1 => {
            return Err(invalid("invalid order: signatureType 3 (POLY_1271) is for version 2 orders only"))
        }
        _ => {}
    }
    // The account's rules: the wallet it trades through, deployed (after the key's and the makers' checks).
    if let Some(refusal) =
        key_address.and_then(|owner| app.trading.wallets.refusal(owner, o.signature_type as u8, o.maker))
    {
        return Err(invalid(refusal));
    }
    let exchange = app.trading.exchanges(o.version).for_market(m.neg_risk);
    let hash: [u8; 32] = o.hash(app.trading.chain_id, exchange).0;
    // A deposit wallet is a contract: the exchange asks it (ERC-1271 isValidSignature of the order's hash), and it
    // answers for the form it takes. Any other signer's signature recovers to it.
    let signed_by_signer = match (o.signature_type, &s.wrapped) {
        (SignatureType::Poly1271, wrapped) => {
            let bytes = match wrapped {
                Some(w) => super::deposit::wrapped_bytes(w),
                None => s.signature.to_vec(),
            };
            app.trading.wallets.accepts(o.signer, hash.into(), &bytes) == Some(true)
        }
        _ => order::recover_signer(o, &s.signature, app.trading.chain_id, m.neg_risk) == Some(o.signer),
    };
    if !signed_by_signer {
        return Err(invalid(
            "invalid order signature: it is not the signer's signature of the order's EIP-712 hash (chain, exchange, version)",
        ));
    }
    if s.post_only && s.order_type.is_market() {
        return Err(invalid("invalid post-only order: only GTC and GTD orders can be post-only"));
    }
    if s.order_type == OrderType::Gtd {
        if o.expiration < app.clock.now_secs() + GTD_MARGIN_SECS {
            return Err(invalid(format!(
                "invalid expiration: a GTD order's expiration must be a time in seconds at least {GTD_MARGIN_SECS} s ahead"
            )));
        }
    } else if o.expiration != 0 {
        return Err(invalid("invalid expiration: only GTD orders expire (expiration must be 0)"));
    }
    Ok(Checked { hash, token, market, outcome })
}

/// `0x` and lowercase hex.
fn hex0x(bytes: &[u8]) -> String {
    format!("0x{}", hex::encode(bytes))
}

/// A trade's id: UUID-shaped, from the order hash and the trade's place in the order's fills.
fn trade_id(hash: &[u8; 32], k: usize) -> String {
    let mut data = hash.to_vec();
    data.extend_from_slice(&(k as u64).to_be_bytes());
    let mut id = [0; 16];
    id.copy_from_slice(&keccak256(&data)[..16]);
    Uuid::from_bytes(id).to_string()
}

/// The precision rules, duplicates, matching and resting, on the live book under the streams' lock.
fn place(app: &App, account: usize, a: &Account, s: &Submitted, c: &Checked) -> Result<Value, String> {
    let mut ledger = lock(&app.trading.ledger);
    // The market's other token, when placed orders rest on it on the order's side (a buy meets buys of it, a
    // sell sells of it): its live book is needed too. Without them it is left alone.
    let m = &app.catalog.markets[c.market];
    let buy = s.order.side == OrderSide::Buy;
    let complement = complement_of(c.outcome, m.tokens.len())
        .filter(|&other| !ledger.resting_levels(c.market, other, buy).is_empty())
        .map(|other| m.tokens[other].as_str());
    let placed = app
        .stream
        .trade_pair(&c.token, complement, c.hash, |book, other| {
            match execute(app, &mut ledger, book, other, account, a, s, c) {
                Ok((answer, effects)) => (Ok(answer), effects),
                Err(reason) => (Err(reason), Effects::default()),
            }
        })
        .map_err(|_| "the book of this token is not available".to_owned())?;
    // A fill-or-kill the book could not fill is killed, and the account's user channel hears of it as the
    // service tells it (issue 33, from its users' captures): a CANCELLATION whose status carries the reason,
    // with empty strings where it has no number or date.
    if matches!(&placed, Err(reason) if reason == FOK_UNFILLED) {
        app.stream.send_user(account, &[killed_event(app, a, s, c)]);
    }
    placed
}

/// The service's refusal of an order its maker's wallet cannot pay for, after the amount checks and before
/// matching. The rule is the upstream documentation's (docs.polymarket.com, "Orders": "you can only place orders
/// that sum to less than or equal to your available balance", `maxOrderSize = underlyingAssetBalance -
/// Σ(orderSize - orderFillAmount)`; a buy needs a collateral allowance of at least what it spends, a sell one for
/// its tokens): what the order gives (a buy's cash, a sell's shares: its maker amount), together with what the
/// account's open orders that give the same asset still would (every open buy's remaining cost, the collateral
/// being one; the open sells of the same token), must not exceed the wallet's balance of it, and the order's
/// amount its allowance. The texts and their figures (base units, 6 decimals) are the service's as its users
/// capture them: `not enough balance / allowance: the balance is not enough -> balance: 26120900, sum of active
/// orders: 6200000, sum of matched orders: 13000000, order amount (inc. fees): 12800000` (400 `{"error"}`,
/// py-clob-client issues 287, 311 and 342, rs-clob-client-v2 issue 36: the gate is balance ≥ active + matched +
/// amount), and `not enough balance / allowance: the allowance is not enough -> spender: 0x…, allowance: 0, sum
/// of matched orders: 0, order amount (inc. fees): 100000` (the exchange the order is signed for). Here
/// balances move when orders match, so no matched amount waits for its settlement (`sum of matched orders: 0`),
/// and fees are not charged, so the amount is the order's own. The wallet is the one the order's signature type
/// names: another type's wallet of the account holds nothing and allows nothing (`GET /balance-allowance` shows
/// the same). The catalog's made-up orders never moved a balance, so they reserve none either.
fn funds(app: &App, ledger: &Ledger, account: usize, a: &Account, s: &Submitted, c: &Checked) -> Result<(), String> {
    let o = &s.order;
    let buy = o.side == OrderSide::Buy;
    let m = &app.catalog.markets[c.market];
    let owner = order::parse_address(&a.address);
    let holds = owner.map_or(Ok(o.signature_type as u8 == 0), |w| app.trading.wallets.holds(w, o.signature_type as u8));
    let holds = holds.unwrap_or(false);
    let approved = holds && owner.is_none_or(|w| app.trading.wallets.setup(w).approved);
    let token = (!buy).then_some(c.token.as_str());
    let balance =
        if holds { crate::balances::holding_in(&app.catalog, ledger, account, token).max(0) as u128 } else { 0 };
    let active: u128 = ledger
        .orders
        .iter()
        .filter(|r| r.account == account && r.live && !r.seed && r.buy == buy)
        .filter(|r| buy || (r.market == c.market && r.outcome == c.outcome))
        .map(|r| {
            let left = u128::from(r.original.saturating_sub(r.matched));
            if buy {
                (left * u128::from(r.price)).div_ceil(u128::from(engine::ONE))
            } else {
                left
            }
        })
        .sum();
    let amount = u128::from(o.maker_amount);
    if active + amount > balance {
        return Err(format!(
            "{NOT_ENOUGH}: the balance is not enough -> balance: {balance}, sum of active orders: {active}, sum of matched orders: 0, order amount (inc. fees): {amount}"
        ));
    }
    if !approved {
        let version = order::signed_version(o.version, &o.token_id);
        let spender = app.trading.exchanges(version).for_market(m.neg_risk).to_checksum(None);
        return Err(format!(
            "{NOT_ENOUGH}: the allowance is not enough -> spender: {spender}, allowance: 0, sum of matched orders: 0, order amount (inc. fees): {amount}"
        ));
    }
    Ok(())
}

/// The other outcome of a two-outcome market.
fn complement_of(outcome: usize, outcomes: usize) -> Option<usize> {
    (outcomes == 2 && outcome < 2).then(|| 1 - outcome)
}

/// The user channel's `order` event of a killed fill-or-kill order.
fn killed_event(app: &App, a: &Account, s: &Submitted, c: &Checked) -> (String, Value) {
    let o = &s.order;
    let m = &app.catalog.markets[c.market];
    let buy = o.side == OrderSide::Buy;
    let (cash, shares) = if buy { (o.maker_amount, o.taker_amount) } else { (o.taker_amount, o.maker_amount) };
    let price = u128::from(cash) * 1_000_000 / u128::from(shares.max(1));
    let event = json!({
        "event_type": "order", "id": hex0x(&c.hash), "owner": a.api_key, "market": m.condition_id,
        "asset_id": c.token, "side": if buy { "BUY" } else { "SELL" },
        "price": decimal(u64::try_from(price).unwrap_or(0), 6), "original_size": decimal(shares, 6),
        "size_matched": "", "outcome": m.outcomes[c.outcome], "type": OrderEventType::Cancellation.as_str(),
        "status": format!("CANCELED_{FOK_UNFILLED}"), "order_type": "FOK", "created_at": "", "expiration": "",
        "associate_trades": [], "timestamp": app.clock.now_ms().to_string(),
    });
    (m.condition_id.clone(), event)
}

/// Runs under both locks (ledger, then streams): the checks that need the live book (its tick and minimum size),
/// the duplicate check, the plan, and, when the order is accepted, everything it changes and who hears of it.
#[allow(clippy::too_many_arguments)]
fn execute(
    app: &App,
    ledger: &mut Ledger,
    book: &LiveBook,
    complement: Option<&LiveBook>,
    account: usize,
    a: &Account,
    s: &Submitted,
    c: &Checked,
) -> Result<(Value, Effects), String> {
    let o = &s.order;
    let m = &app.catalog.markets[c.market];
    let buy = o.side == OrderSide::Buy;
    let market_order = s.order_type.is_market();
    let min_size = parse_fixed(&book.min_order_size, 6).unwrap_or(m.min_order_size.saturating_mul(1_000_000));
    let id = hex0x(&c.hash);
    precision::check(Rules { tick: book.tick, min_size }, o.side, s.order_type, o.maker_amount, o.taker_amount)
        .map_err(|r| r.text(&id))?;
    if ledger.find(&id).is_some() {
        return Err(DUPLICATE.into());
    }
    funds(app, ledger, account, a, s, c)?;
    let taker = Taker { buy, maker: o.maker_amount, taker: o.taker_amount, by_cash: buy && market_order };
    let (other, own) = if buy { (Side::Ask, Side::Bid) } else { (Side::Bid, Side::Ask) };
    let other_levels = if buy { &book.asks } else { &book.bids };
    let mut levels: Vec<Level> = other_levels
        .iter()
        .rev()
        .take_while(|(price, _)| taker.crosses(*price))
        .map(|&(price, size)| Level { price, size, makers: ledger.resting(c.market, c.outcome, !buy, price) })
        .collect();
    // The complementary token's placed orders on the order's own side: the two tokens of a market are minted
    // together from one unit of cash (a buy of one at p meets buys of the other at 1 - p or more) and merged back
    // into it (a sell at p meets sells of the other at 1 - p or less), so the upstream service matches a taker
    // against them too (its users' captures: a maker's buy of NO filled by a taker's buy of YES, the library's
    // `src/api/fills.rs`). Neither the interface nor the OpenAPI documents say how the two books interleave, so
    // the order's own book comes first (every level of it within the limit), then these, best first for the
    // taker, oldest first within a price. Only placed orders are met there: the emulator's own liquidity stands
    // for each book's own orders, and the two books are generated and simulated apart, so meeting it across
    // would make a buy below the ask trade at random.
    let same_book = levels.len();
    if let (Some(other), Some(other_outcome)) = (complement, complement_of(c.outcome, m.tokens.len())) {
        let side = if buy { Side::Bid } else { Side::Ask };
        for (q, makers) in ledger.resting_levels(c.market, other_outcome, buy) {
            let price = engine::ONE.saturating_sub(q);
            if q >= engine::ONE || !taker.crosses(price) || other.size_at(side, q).is_none() {
                continue;
            }
            let size = makers.iter().map(|m| m.1).sum();
            levels.push(Level { price, size, makers });
        }
    }
    let plan = engine::plan(&taker, &levels);
    if s.post_only && plan.crosses {
        return Err(POST_ONLY_CROSSES.into());
    }
    match s.order_type {
        OrderType::Fok if !plan.complete => return Err(FOK_UNFILLED.into()),
        OrderType::Fak if plan.shares == 0 => return Err(FAK_UNMATCHED.into()),
        _ => {}
    }

    // Accepted: the order, its fills, the makers' orders, and what rests.
    let wide = |x: u64| u128::from(x) * 1_000_000;
    let price = if buy {
        wide(o.maker_amount) / u128::from(o.taker_amount)
    } else {
        wide(o.taker_amount) / u128::from(o.maker_amount)
    };
    let matched = plan.shares * HUNDREDTH;
    let asked = if buy { o.taker_amount } else { o.maker_amount };
    let now = app.clock.now_ms();
    let index = ledger.add(Order {
        id: id.clone(),
        account,
        owner: a.api_key.clone(),
        maker_address: o.maker.to_checksum(None),
        market: c.market,
        outcome: c.outcome,
        buy,
        price: u64::try_from(price).unwrap_or(u64::MAX),
        original: if taker.by_cash { asked.max(matched) } else { asked },
        matched,
        order_type: s.order_type.text(),
        expiration: o.expiration,
        created: (now / 1000) as i64,
        live: false,
        canceled: false,
        trades: Vec::new(),
        seed: false,
    });
    let mut effects = Effects::default();
    // The same draws as the book's `last_trade_price` events (see `Hub::trade`), so the hashes agree.
    let mut rng = ChaCha8Rng::from_seed(c.hash);
    let mut touched: Vec<usize> = Vec::new();
    let first_trade = ledger.trades.len();
    for (k, fill) in plan.fills.iter().enumerate() {
        let tx = hex0x(&rng.random::<[u8; 32]>());
        let tid = trade_id(&c.hash, k);
        let cross = k >= same_book;
        // A fill across takes the makers' level of the other book (their side is the taker's: bids for a buy).
        let (maker_side, maker_price) = if cross { (own, engine::ONE - fill.price) } else { (other, fill.price) };
        if cross {
            let level = complement.and_then(|b| b.size_at(maker_side, maker_price)).unwrap_or(0);
            effects.complement.push(Change::Level {
                side: maker_side,
                price: maker_price,
                size: level.saturating_sub(fill.taken),
            });
        } else {
            effects.changes.push(Change::Take {
                side: other,
                price: fill.price,
                taken: fill.taken,
                remaining: fill.remaining,
            });
        }
        let mut makers = Vec::new();
        if fill.liquidity > 0 {
            makers.push(MakerFill {
                order: None,
                id: hex0x(keccak256(format!("liquidity:{tid}").as_bytes()).as_slice()),
                size: fill.liquidity,
            });
        }
        for &(mi, size) in &fill.makers {
            let reserve = if cross { &mut effects.complement_reserve } else { &mut effects.reserve };
            reserve.push((maker_side, maker_price, -(size as i64)));
            let maker = &mut ledger.orders[mi];
            maker.matched += size * HUNDREDTH;
            maker.live = maker.remaining() > 0;
            maker.trades.push(tid.clone());
            makers.push(MakerFill { order: Some(mi), id: maker.id.clone(), size });
            if !touched.contains(&mi) {
                touched.push(mi);
            }
        }
        ledger.orders[index].trades.push(tid.clone());
        ledger.trades.push(Trade {
            id: tid,
            taker: index,
            size: fill.taken,
            price: fill.price,
            fee_bps: m.fee_bps,
            time_ms: now,
            tx,
            makers,
            cross,
            status: "MATCHED",
            plan: app.trading.settlement.plan(),
        });
    }
    let rest = match s.order_type {
        OrderType::Gtc | OrderType::Gtd => taker.shares().saturating_sub(plan.shares),
        _ => 0,
    };
    if rest > 0 {
        let price = ledger.orders[index].price;
        let level = book.size_at(own, price).unwrap_or(0);
        effects.changes.push(Change::Level { side: own, price, size: level.saturating_add(rest) });
        effects.reserve.push((own, price, rest as i64));
        ledger.orders[index].live = true;
    }

    // Who hears of it: the taker of its trades (and of its order, when it rests), each maker of its trades and of
    // its order's new state.
    let catalog = &app.catalog;
    for t in &ledger.trades[first_trade..] {
        effects.user.push((account, ledger::trade_event(catalog, ledger, t, &a.api_key, now)));
        let mut told: Vec<usize> = Vec::new();
        for mi in t.makers.iter().filter_map(|f| f.order) {
            let maker = &ledger.orders[mi];
            if !told.contains(&maker.account) {
                told.push(maker.account);
                effects.user.push((maker.account, ledger::trade_event(catalog, ledger, t, &maker.owner, now)));
            }
        }
    }
    for mi in touched {
        let maker = &ledger.orders[mi];
        effects.user.push((maker.account, ledger::order_event(catalog, maker, OrderEventType::Update, now)));
    }
    if rest > 0 {
        let placed = &ledger.orders[index];
        effects.user.push((account, ledger::order_event(catalog, placed, OrderEventType::Placement, now)));
    }

    let (making, taking) = if buy {
        (decimal(plan.cash, 6), decimal(plan.shares, 2))
    } else {
        (decimal(plan.shares, 2), decimal(plan.cash, 6))
    };
    let status = if rest > 0 && plan.shares == 0 { "live" } else { "matched" };
    // The trades this order took (a resting order's later fills are new trades, not listed here); no transaction
    // is known yet.
    let trade_ids: Vec<&str> = ledger.trades[first_trade..].iter().map(|t| t.id.as_str()).collect();
    let answer = json!({
        "success": true, "errorMsg": "", "orderID": id, "orderHash": id, "status": status,
        "takingAmount": taking, "makingAmount": making, "tradeIDs": trade_ids, "transactionsHashes": [],
    });
    Ok((answer, effects))
}
