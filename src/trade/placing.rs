//! An order from its params to the service's answer, as a machine its driver runs (`buildOrder`,
//! `placeOrder` and their market twins): which reads its draft still needs (what the client has learnt of
//! the service spares the others), the wallet's signature, the POST, and what follows a refusal. The order
//! is read once, and stays here from its params to the POST body; each answer is parsed once.

use super::draft::{Draft, DraftInputs, Kind, MarketInfo, OrderRequest};
use super::eip712::Address;
use super::flow::{after_refusal, AfterRefusal};
use super::order::{domain, order_body, Order, Placement, Version};
use super::settings::TradingSettings;
use crate::api::{self, HttpRequest};
use crate::book::OrderBook;
use crate::error::{Error, ErrorCode};

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

#[cfg(test)]
#[path = "placing_tests.rs"]
mod tests;
