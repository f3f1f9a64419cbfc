//! An order from its params to the service's answer, as a machine its driver runs (`buildOrder`,
//! `placeOrder` and their market twins): which reads its draft still needs (what the client has learnt of
//! the service spares the others), the wallet's signature, the POST, and what follows a refusal. The order
//! is read once, and stays here from its params to the POST body; each answer is parsed once. It runs as a
//! task ([`Ordering`]): its reads and its POST are calls of the client's call machine, read in Rust.

use std::cell::RefCell;
use std::rc::Rc;

use super::draft::{Draft, DraftInputs, Kind, MarketInfo, OrderRequest};
use super::eip712::{parse_signature, Address};
use super::flow::{after_refusal, AfterRefusal};
use super::order::{domain, order_body, Order, Placement, Version};
use super::settings::TradingSettings;
use crate::api::call::{CallLimits, Expect};
use crate::api::{self, HttpRequest};
use crate::book::OrderBook;
use crate::error::{Error, ErrorCode};
use crate::json::Value;
use crate::task::{Got, Machine, Need, Said};

/// The markets (and fee rates) a client remembers; beyond this one is forgotten.
const MAX_MARKETS: usize = 256;

/// What a client has learnt of the service for its orders: the exchange's order version, each token's
/// market (its condition id and rules), the V1 fee rate of each token, and the deposit wallet that takes
/// its owner's plain signature (the account doctor asks the wallet).
#[derive(Default)]
pub struct Learnt {
    version: Option<Version>,
    markets: Vec<(String, String, MarketInfo)>,
    fees: Vec<(String, u64)>,
    pub plain_wallet: Option<Address>,
}

impl Learnt {
    /// Whether the owner signs `order` for its deposit wallet in the ERC-7739 form: unless that wallet
    /// was found to take the plain one.
    pub fn wraps(&self, order: &Order) -> bool {
        order.wrapped && self.plain_wallet != Some(order.signer)
    }

    fn market(&self, token: &str) -> Option<&(String, String, MarketInfo)> {
        self.markets.iter().find(|(t, _, _)| t == token)
    }

    fn learn_market(&mut self, token: &str, condition: &str, info: MarketInfo) {
        self.forget(token);
        if self.markets.len() >= MAX_MARKETS {
            // (Any one: a market forgotten is read again when an order needs it.)
            self.markets.swap_remove(0);
        }
        self.markets.push((token.to_owned(), condition.to_owned(), info));
    }

    /// The service announced a new tick size for `token` (a stream's `tick_size_change`): the token's market,
    /// when known, takes it, and so do the other tokens of that market (they share the market's rules).
    pub fn tick_changed(&mut self, token: &str, tick: u64) {
        if super::amounts::decimals(tick).is_none() {
            // (A tick the library does not know: the market is read again before the next order.)
            return self.forget(token);
        }
        let Some(condition) = self.market(token).map(|(_, c, _)| c.clone()) else { return };
        for (_, c, info) in &mut self.markets {
            if *c == condition {
                info.rules.tick = tick;
            }
        }
    }

    /// Forgets a token's market (its tick size may have changed).
    pub fn forget(&mut self, token: &str) {
        if let Some(at) = self.markets.iter().position(|(t, _, _)| t == token) {
            self.markets.swap_remove(at);
        }
    }

    fn fee(&self, token: &str) -> Option<u64> {
        self.fees.iter().find(|(t, _)| t == token).map(|(_, f)| *f)
    }

    fn learn_fee(&mut self, token: &str, fee: u64) {
        if let Some(at) = self.fees.iter().position(|(t, _)| t == token) {
            self.fees.swap_remove(at);
        } else if self.fees.len() >= MAX_MARKETS {
            self.fees.swap_remove(0);
        }
        self.fees.push((token.to_owned(), fee));
    }
}

/// A read the draft needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Read {
    /// GET /version.
    Version,
    /// GET /book of the order's token: its market, and a market order's price.
    Book,
    /// GET /clob-markets of the market's condition id.
    Market(String),
    /// GET /fee-rate of the order's token (V1 orders sign it).
    Fee,
}

/// What the driver does next.
#[derive(Debug, PartialEq)]
pub enum Step {
    /// Run the read (`Placing::request`) and hand its answer back (`Placing::learn`).
    Read(Read),
    /// Have the wallet sign this typed data (JSON), and hand the signature back (`Placing::signed`).
    Sign(String),
    /// Post the signed order (`Placing::post_request`).
    Post,
    /// The draft (JSON), for `buildOrder`.
    Drafted(String),
}

/// A read's answer, parsed ([`parse`]). (Made once per read and moved to [`Placing::learn`]: not worth a box.)
#[allow(clippy::large_enum_variant)]
pub enum Answer {
    Version(Version),
    Book(OrderBook),
    Market(MarketInfo),
    /// A token's fee rate (GET /fee-rate's base fee, in basis points).
    Fee(u64),
}

/// Parses a read's answer; an answer that does not read is retried by the call machine like a garbled one.
pub fn parse(read: &Read, body: Vec<u8>) -> Result<Answer, Error> {
    parse_answer(read.kind(), body)
}

/// [`parse`] as the call machine takes it (`Expect::Read`), told the read's kind.
pub fn parse_answer(kind: u8, body: Vec<u8>) -> Result<Answer, Error> {
    Ok(match kind {
        0 => Answer::Version(Version::from_answer(&body)?),
        1 => Answer::Book(OrderBook::from_vec(body)?),
        2 => Answer::Market(MarketInfo::from_answer(&body)?),
        _ => Answer::Fee(super::draft::base_fee(&body)?),
    })
}

impl Read {
    /// The read's kind, for [`parse_answer`].
    pub fn kind(&self) -> u8 {
        match self {
            Read::Version => 0,
            Read::Book => 1,
            Read::Market(_) => 2,
            Read::Fee => 3,
        }
    }
}

/// One order on its way.
pub struct Placing {
    req: OrderRequest,
    /// Sign and post it (else only its draft is wanted).
    place: bool,
    /// Read the version afresh (a rebuild after the exchange changed it).
    fresh: bool,
    rebuilt: bool,
    /// The market's rules were read afresh after the remembered ones refused the price.
    reread: bool,
    /// The market found for the token, from the params or its book.
    condition: Option<String>,
    book: Option<OrderBook>,
    market: Option<MarketInfo>,
    version: Option<Version>,
    pending: Option<Read>,
    draft: Option<Draft>,
    order: Option<Order>,
    signature: Option<String>,
}

impl Placing {
    pub fn new(req: OrderRequest, place: bool) -> Self {
        let condition = req.condition_id.clone();
        Placing {
            req,
            place,
            fresh: false,
            rebuilt: false,
            reread: false,
            condition,
            book: None,
            market: None,
            version: None,
            pending: None,
            draft: None,
            order: None,
            signature: None,
        }
    }

    /// The request of a read.
    pub fn request(&self, read: &Read) -> Result<HttpRequest, Error> {
        match read {
            Read::Version => Ok(api::version()),
            Read::Book => api::order_book(&self.req.token_id),
            Read::Market(condition) => api::clob_market_info(condition),
            Read::Fee => api::fee_rate(&self.req.token_id),
        }
    }

    /// The read asked for last, which the next answer answers.
    pub fn pending(&self) -> Option<&Read> {
        self.pending.as_ref()
    }

    /// Takes the pending read's answer.
    pub fn learn(&mut self, learnt: &mut Learnt, answer: Answer) -> Result<(), Error> {
        self.pending = None;
        match answer {
            Answer::Version(v) => {
                learnt.version = Some(v);
                self.version = Some(v);
                self.fresh = false;
            }
            Answer::Book(book) => {
                if self.condition.is_none() {
                    let market = book.market().ok_or_else(|| Error::decode("GET /book: the book names no market"))?;
                    self.condition = Some(market);
                }
                self.book = Some(book);
            }
            Answer::Market(info) => self.market = Some(info),
            Answer::Fee(fee) => learnt.learn_fee(&self.req.token_id, fee),
        }
        Ok(())
    }

    /// What the order needs next, at `now_ms` (the client's clock); `signer` signs it, with `salt`.
    pub fn next(
        &mut self,
        learnt: &mut Learnt,
        settings: &TradingSettings,
        signer: Option<Address>,
        now_ms: f64,
        salt: u64,
    ) -> Result<Step, Error> {
        // Only a read just asked for is pending: `send` posts the order otherwise.
        self.pending = None;
        if self.draft.is_none() {
            if let Some(read) = self.missing(learnt) {
                self.pending = Some(read.clone());
                return Ok(Step::Read(read));
            }
            let token = self.req.token_id.clone();
            let (condition, info, remembered) = match (self.market.take(), &self.condition) {
                (Some(info), Some(condition)) => (condition.clone(), info, false),
                _ => match learnt.market(&token) {
                    Some((_, condition, info)) => (condition.clone(), info.clone(), true),
                    None => return Err(Error::decode("the order's market could not be read")),
                },
            };
            let version = self.version.or(learnt.version);
            let inputs = DraftInputs {
                version,
                info: &info,
                fee: learnt.fee(&token).map(|f| f as f64),
                book: self.book.as_ref(),
            };
            let drafted = Draft::assemble(&self.req, inputs, settings, (now_ms / 1000.0) as u64);
            self.book = None;
            // The market is learnt (once) unless it does not list the token.
            let draft = match drafted {
                Err(e) if e.param.as_deref() == Some("tokenId") => return Err(e),
                // A price refused for the tick the client remembers is checked once against the market's rules
                // read afresh: near resolution the service makes a market's tick finer.
                Err(e) if e.param.as_deref() == Some("price") && remembered && !self.reread => {
                    self.reread = true;
                    self.condition = Some(condition);
                    learnt.forget(&token);
                    return self.next(learnt, settings, signer, now_ms, salt);
                }
                Err(e) => {
                    learnt.learn_market(&token, &condition, info);
                    return Err(e);
                }
                Ok(draft) => draft,
            };
            let json = draft.to_json(&info);
            learnt.learn_market(&token, &condition, info);
            self.draft = Some(draft);
            if !self.place {
                return Ok(Step::Drafted(json));
            }
        }
        let Some(draft) = &self.draft else { return Err(Error::decode("the order has no draft")) };
        if self.order.is_none() {
            let signer = signer.ok_or_else(|| Error::invalid("signer.address", "must be an address string"))?;
            let maker = settings.signature_type.maker(signer, settings.funder)?;
            let mut order = draft.order_for(signer, maker, settings.signature_type, salt, now_ms as u64)?;
            order.wrapped = learnt.wraps(&order);
            let typed = order.typed_data_to_sign(&domain(order.version, draft.chain_id, draft.exchange));
            self.order = Some(order);
            return Ok(Step::Sign(typed));
        }
        if self.signature.is_none() {
            // Asked to sign, the wallet answered nothing: its fault, not the service's or the caller's.
            return Err(Error::new(ErrorCode::Signer, "the signer answered undefined instead of a signature string"));
        }
        Ok(Step::Post)
    }

    /// The first read the draft still needs, or none.
    fn missing(&self, learnt: &Learnt) -> Option<Read> {
        if self.version.is_none() && (self.fresh || learnt.version.is_none()) {
            return Some(Read::Version);
        }
        let known = learnt
            .market(&self.req.token_id)
            .filter(|(_, condition, _)| self.req.condition_id.as_ref().map_or(true, |c| c == condition));
        if known.is_none() && self.market.is_none() {
            return Some(match &self.condition {
                Some(condition) => Read::Market(condition.clone()),
                None => Read::Book,
            });
        }
        if matches!(self.req.kind, Kind::Market { price: None, .. }) && self.book.is_none() {
            return Some(Read::Book);
        }
        // Only a V1 order signs a fee rate (a position's order is the third exchange's, whatever the service's).
        let version = self.version.or(learnt.version);
        let position = super::draft::token_id(&self.req.token_id).is_ok_and(|t| super::order::is_position_id(&t));
        if version == Some(Version::V1) && !position && learnt.fee(&self.req.token_id).is_none() {
            return Some(Read::Fee);
        }
        None
    }

    /// The wallet's signature of the order.
    /// The wallet's signature of the order (what the exchange takes: a deposit wallet's is wrapped here).
    pub fn signed(&mut self, signature: String) {
        let wrapped = match (&self.draft, &self.order) {
            (Some(draft), Some(order)) => {
                order.wrapped_signature(&domain(order.version, draft.chain_id, draft.exchange), &signature)
            }
            _ => signature,
        };
        self.signature = Some(wrapped);
    }

    /// The POST of the signed order for the API key `owner`.
    pub fn post_request(&self, owner: &str) -> Result<HttpRequest, Error> {
        let (Some(draft), Some(order), Some(signature)) = (&self.draft, &self.order, &self.signature) else {
            return Err(Error::decode("the order is not signed"));
        };
        let placement = Placement { order, signature, order_type: draft.order_type, post_only: draft.post_only };
        Ok(api::post_order(order_body(&placement, owner)))
    }

    /// The service refused the order (`status`, its error text): whether it is rebuilt and signed once
    /// more (the exchange's version changed); a 400 forgets the token's market (its tick size may have changed).
    pub fn refused(&mut self, learnt: &mut Learnt, status: Option<u16>, body: Option<&str>) -> bool {
        match after_refusal(status, body, self.rebuilt) {
            AfterRefusal::Rebuild => {
                self.rebuilt = true;
                self.fresh = true;
                self.version = None;
                self.draft = None;
                self.order = None;
                self.signature = None;
                true
            }
            AfterRefusal::ForgetMarket => {
                learnt.forget(&self.req.token_id);
                false
            }
            AfterRefusal::Fail => false,
        }
    }
}

/// A wallet's answer to a signature request as the order's signature; anything else is the signer's fault
/// (`SIGNER`, naming what came back), or its time's (`TIMEOUT`).
pub fn signature_of(said: Said) -> Result<String, Error> {
    let kind = match said {
        Said::Answer(Value::Str(text)) => {
            return parse_signature(&text).map_err(|_| {
                Error::new(ErrorCode::Signer, "the signer answered a string that is not a 65-byte signature")
            })
        }
        Said::Late => return Err(Error::new(ErrorCode::Timeout, "the signer did not answer within signTimeoutMs")),
        Said::Threw => return Err(Error::new(ErrorCode::Signer, "the signer refused or failed to sign")),
        Said::Answer(Value::Undefined) => "undefined",
        Said::Answer(Value::Null) => "null",
        Said::Answer(Value::Bool(_)) => "boolean",
        Said::Answer(Value::Number(_)) => "number",
        Said::Answer(Value::Array(_) | Value::Object(_)) => "object",
        Said::Answer(Value::Other) => "a value that is not a string",
    };
    Err(Error::new(
        ErrorCode::Signer,
        crate::text::concat(&["the signer answered ", kind, " instead of a signature string"]),
    ))
}

/// What an order's task is given at its start: the client's settings, what it has learnt, who signs, for which
/// API key, and the call's limits.
pub struct OrderContext {
    pub learnt: Rc<RefCell<Learnt>>,
    pub settings: TradingSettings,
    /// The signer's address (none for a draft).
    pub signer: Option<Address>,
    /// The API key the order is posted for (none for a draft).
    pub owner: Option<String>,
    /// The order's salt.
    pub salt: u64,
    /// What the client's clock is off the service's (the order's timestamp is the service's time).
    pub clock_offset_ms: f64,
    pub limits: CallLimits,
}

/// An order as a task (`crate::task`): its reads and its POST are calls, each read by `read(kind)` into the
/// owner's product (from which `answer` takes the read's); the wallet's signature is the driver's to ask. Done
/// with the draft (JSON) for `buildOrder`, or with the POST's answer (the body the driver holds: `null`).
pub struct Ordering<P> {
    pub placing: Placing,
    cx: OrderContext,
    read: fn(u8) -> Expect<P>,
    answer: fn(P) -> Option<Answer>,
    /// The POST is on its way.
    posting: bool,
}

impl<P> Ordering<P> {
    pub fn new(placing: Placing, cx: OrderContext, read: fn(u8) -> Expect<P>, answer: fn(P) -> Option<Answer>) -> Self {
        Ordering { placing, cx, read, answer, posting: false }
    }

    fn advance(&mut self, learnt: &mut Learnt, got: Got<P>, now: f64) -> Result<crate::task::Step<P>, Error> {
        use crate::task::Step as Task;
        let posted = std::mem::take(&mut self.posting);
        match got {
            Got::Go => {}
            Got::Said(said) => self.placing.signed(signature_of(said)?),
            Got::Answer { result, .. } if posted => return Ok(Task::Do(Need::Done(result))),
            Got::Answer { product, .. } => {
                let answer =
                    product.and_then(self.answer).ok_or_else(|| Error::decode("the read was not the order's"))?;
                self.placing.learn(learnt, answer)?;
            }
            // A version change rebuilds the order and has it signed once more; a 400 forgets the token's market.
            Got::Failed(e) if posted => {
                if !self.placing.refused(learnt, e.status, e.body.as_deref()) {
                    return Err(e);
                }
            }
            Got::Failed(e) => return Err(e),
            Got::Heard(_) => return Err(crate::task::not_followed()),
            Got::Abort { error, .. } => return Err(crate::task::abort_error(error)),
        }
        let cx = &self.cx;
        Ok(match self.placing.next(learnt, &cx.settings, cx.signer, now + cx.clock_offset_ms, cx.salt)? {
            Step::Read(read) => Task::Call {
                request: self.placing.request(&read)?,
                expect: (self.read)(read.kind()),
                limits: cx.limits,
            },
            Step::Sign(typed) => {
                let ms = Some(cx.settings.sign_timeout_ms).filter(|ms| ms.is_finite());
                Task::Do(Need::Sign { typed, ms })
            }
            Step::Post => {
                let owner = cx.owner.as_deref().ok_or_else(crate::auth::missing_credentials)?;
                let request = self.placing.post_request(owner)?;
                self.posting = true;
                Task::Call { request, expect: Expect::Json, limits: cx.limits }
            }
            Step::Drafted(draft) => Task::Do(Need::Done(draft)),
        })
    }
}

impl<P> Machine<P> for Ordering<P> {
    fn step(&mut self, got: Got<P>, now: f64) -> crate::task::Step<P> {
        let learnt = self.cx.learnt.clone();
        let Ok(mut learnt) = learnt.try_borrow_mut() else {
            return crate::task::Step::Do(Need::Fail(Error::decode("the client's orders were busy")));
        };
        self.advance(&mut learnt, got, now).unwrap_or_else(|e| crate::task::Step::Do(Need::Fail(e)))
    }
}

/// A caller's draft signed (`signOrder`), as a task: the wallet is asked once; done with the signed order (JSON),
/// its signature as the exchange takes it (a deposit wallet's wrapped).
pub struct Signing {
    pub order: Order,
    pub domain: super::eip712::Domain,
    pub order_type: crate::book::OrderType,
    pub post_only: bool,
    /// How long the signer may take (`signTimeoutMs`).
    pub sign_ms: f64,
}

impl<P> Machine<P> for Signing {
    fn step(&mut self, got: Got<P>, _now: f64) -> crate::task::Step<P> {
        let need = match got {
            Got::Go => {
                let ms = Some(self.sign_ms).filter(|ms| ms.is_finite());
                Need::Sign { typed: self.order.typed_data_to_sign(&self.domain), ms }
            }
            Got::Said(said) => match signature_of(said) {
                Ok(signature) => {
                    let signature = self.order.wrapped_signature(&self.domain, &signature);
                    Need::Done(super::draft::signed_json(&self.order, &signature, self.order_type, self.post_only))
                }
                Err(e) => Need::Fail(e),
            },
            Got::Abort { error, .. } => Need::Fail(crate::task::abort_error(error)),
            // (It makes no calls.)
            Got::Answer { .. } | Got::Failed(_) => Need::Fail(Error::decode("the signing was told of a call")),
            Got::Heard(_) => Need::Fail(crate::task::not_followed()),
        };
        crate::task::Step::Do(need)
    }
}

#[cfg(test)]
#[path = "placing_tests.rs"]
mod tests;
