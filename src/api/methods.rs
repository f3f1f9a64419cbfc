//! The client's REST methods as data: each JS method's name, how its arguments become a request, and how
//! its pages follow one another. The binding exports one entry that looks a method up here, and the
//! package's JS defines each named method as a call of that entry (`src/js/package/client.mjs`): adding an endpoint
//! is a builder in `endpoints.rs`, a row here, and its declaration in `src/wasm/methods.d.ts`.

use super::paging::{Paging, FIRST_CURSOR};
use super::params::{Params, Value, MAX_SAFE_INT};
use super::{endpoints as api, HttpRequest};
use crate::error::Error;

/// How a method's arguments are read (the call's options always follow them) and its request built.
#[derive(Clone, Copy)]
pub enum Args {
    /// `(options?)`.
    None(fn() -> HttpRequest),
    /// `(params?, options?)`.
    Params(fn(&Params) -> Result<HttpRequest, Error>),
    /// `(id, options?)`: the id's parameter name (for errors) and the builder.
    Id(&'static str, fn(&str) -> Result<HttpRequest, Error>),
    /// `(id, params?, options?)`.
    IdParams(&'static str, fn(&str, &Params) -> Result<HttpRequest, Error>),
    /// `(nextCursor?, options?)`.
    Cursor(fn(Option<&str>) -> Result<HttpRequest, Error>),
    /// `(items, options?)`: a JSON body of items.
    Items(fn(&Value) -> Result<HttpRequest, Error>),
    /// `(tokenId, side, options?)`.
    TokenSide(fn(&str, &str) -> Result<HttpRequest, Error>),
}

impl Args {
    /// How many arguments come before the call's options.
    pub const fn count(self) -> usize {
        match self {
            Args::None(_) => 0,
            Args::Params(_) | Args::Id(..) | Args::Cursor(_) | Args::Items(_) => 1,
            Args::IdParams(..) | Args::TokenSide(_) => 2,
        }
    }
}

/// What a 2xx answer becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The JSON body, parsed by the engine.
    Json,
    /// The JSON body, a page of the account's trades: each row gets the account's side of it (`fills`,
    /// [`crate::api::fills`]).
    Trades,
    /// The body's bytes parsed into an `OrderBook`.
    Book,
}

/// How a list method is paged when iterated, and how a page finds the next one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Listing {
    pub paging: Paging,
    /// The page size an iteration asks for when the caller gives no `limit` (offset lists: the route's
    /// largest, so that iteration takes as few requests as it can).
    pub page_size: u64,
}

/// One REST method of the client.
#[derive(Clone, Copy)]
pub struct Endpoint {
    /// The JS method's name.
    pub name: &'static str,
    pub args: Args,
    pub answer: Answer,
    /// For list methods: their paging.
    pub listing: Option<Listing>,
}

impl Endpoint {
    /// The request of one page of an iteration, from the pager's params (cursor lists read `next_cursor`).
    pub fn page_request(&self, params: &Params) -> Result<HttpRequest, Error> {
        match self.args {
            Args::Params(build) => build(params),
            Args::Cursor(build) => build(match params.get("next_cursor") {
                Value::Str(c) => Some(c.as_str()),
                _ => None,
            }),
            _ => Err(Error::invalid("method", "is not a list")),
        }
    }

    /// The params an iteration starts from: the caller's params, or for `(nextCursor?)` methods the cursor.
    pub fn iteration_params(&self, params: Params, cursor: Option<String>) -> Params {
        match (self.args, cursor) {
            (Args::Cursor(_), Some(cursor)) => Params(vec![("next_cursor".to_owned(), Value::Str(cursor))]),
            (Args::Cursor(_), None) => Params(vec![("next_cursor".to_owned(), Value::Str(FIRST_CURSOR.to_owned()))]),
            _ => params,
        }
    }
}

/// Offset lists: the largest page and the offset bound of each (interface §4).
const fn offset(page_size: u64, max_offset: u64) -> Option<Listing> {
    Some(Listing { paging: Paging::Offset { max_offset }, page_size })
}
const CURSOR: Option<Listing> = Some(Listing { paging: Paging::Cursor, page_size: 0 });
const CATALOG: Option<Listing> = offset(100, MAX_SAFE_INT as u64);

const fn json(name: &'static str, args: Args, listing: Option<Listing>) -> Endpoint {
    Endpoint { name, args, answer: Answer::Json, listing }
}

/// Every REST method, in the order of the interface.
pub const ENDPOINTS: [Endpoint; 35] = [
    json("getOk", Args::None(api::ok), None),
    json("getTrades", Args::Params(api::trades), offset(500, 10_000)),
    json("getClosedPositions", Args::Params(api::closed_positions), offset(50, 100_000)),
    json("getComments", Args::Params(api::comments), CATALOG),
    json("getCommentReplies", Args::IdParams("id", api::comment_replies), None),
    json("getMarketBySlug", Args::IdParams("slug", api::market_by_slug), None),
    json("getMarket", Args::IdParams("id", api::market), None),
    json("getSeries", Args::Params(api::series), CATALOG),
    json("getEvents", Args::Params(api::events), CATALOG),
    json("getEventCreators", Args::Params(api::event_creators), CATALOG),
    json("publicSearch", Args::Params(api::public_search), None),
    json("getTags", Args::Params(api::tags), None),
    json("getMarkets", Args::Cursor(api::clob_markets), CURSOR),
    json("getSamplingMarkets", Args::Cursor(api::sampling_markets), CURSOR),
    json("getClobMarketInfo", Args::Id("condition_id", api::clob_market_info), None),
    json("getOrderBook", Args::Id("token_id", api::order_book), None),
    Endpoint { name: "getBook", args: Args::Id("token_id", api::order_book), answer: Answer::Book, listing: None },
    json("getOrderBooks", Args::Items(api::order_books), None),
    json("getPrices", Args::Items(api::prices), None),
    json("getPrice", Args::TokenSide(api::price), None),
    json("getMidpoint", Args::Id("token_id", api::midpoint), None),
    json("getFeeRate", Args::Id("token_id", api::fee_rate), None),
    json("getPricesHistory", Args::Params(api::prices_history), None),
    json("getBatchPricesHistory", Args::Params(api::batch_prices_history), None),
    json("getOpenOrders", Args::Params(api::open_orders), CURSOR),
    json("getOrder", Args::Id("id", api::order), None),
    json("cancelOrder", Args::Id("orderId", api::cancel_order), None),
    json("cancelMarketOrders", Args::Params(api::cancel_market_orders), None),
    json("cancelOrders", Args::Items(api::cancel_orders), None),
    json("cancelAll", Args::None(api::cancel_all), None),
    json("isOrderScoring", Args::Id("orderId", api::order_scoring), None),
    json("areOrdersScoring", Args::Items(api::orders_scoring), None),
    json("getBalanceAllowance", Args::Params(api::balance_allowance), None),
    json("updateBalanceAllowance", Args::Params(api::update_balance_allowance), None),
    Endpoint { name: "getUserTrades", args: Args::Params(api::user_trades), answer: Answer::Trades, listing: CURSOR },
];

/// The method named `name`.
pub fn endpoint(name: &str) -> Option<&'static Endpoint> {
    ENDPOINTS.iter().find(|e| e.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_found() {
        for (i, e) in ENDPOINTS.iter().enumerate() {
            assert!(ENDPOINTS[i + 1..].iter().all(|o| o.name != e.name), "{} is listed once", e.name);
            assert_eq!(endpoint(e.name).map(|f| f.name), Some(e.name));
        }
        assert!(endpoint("getNothing").is_none());
        assert!(endpoint("").is_none());
    }

    #[test]
    fn list_methods_take_params_or_a_cursor_and_build_their_pages() {
        let lists: Vec<&Endpoint> = ENDPOINTS.iter().filter(|e| e.listing.is_some()).collect();
        assert_eq!(lists.len(), 10);
        for e in lists {
            assert!(matches!(e.args, Args::Params(_) | Args::Cursor(_)), "{}", e.name);
            // getClosedPositions needs a wallet; the other lists take no required param.
            let wallet = Params(vec![("user".to_owned(), Value::Str(format!("0x{}", "ab".repeat(20))))]);
            let given = if e.name == "getClosedPositions" { wallet } else { Params::default() };
            let first = e.iteration_params(given, None);
            let request = e.page_request(&first).unwrap_or_else(|err| panic!("{}: {err:?}", e.name));
            if let Args::Cursor(_) = e.args {
                assert!(request.url("").contains("next_cursor=MA%3D%3D"), "{}", request.url(""));
            }
        }
        let cursor = endpoint("getMarkets").unwrap();
        let from = cursor.iteration_params(Params::default(), Some("MTAw".to_owned()));
        assert!(cursor.page_request(&from).unwrap().url("").contains("next_cursor=MTAw"));
        assert!(endpoint("getOk").unwrap().page_request(&Params::default()).is_err());
    }

    #[test]
    fn offset_pages_and_bounds_are_the_interfaces() {
        let bounds = |name| match endpoint(name).and_then(|e| e.listing) {
            Some(Listing { paging: Paging::Offset { max_offset }, page_size }) => (page_size, max_offset),
            _ => panic!("{name} is an offset list"),
        };
        assert_eq!(bounds("getTrades"), (500, 10_000));
        assert_eq!(bounds("getClosedPositions"), (50, 100_000));
        assert_eq!(bounds("getEvents"), (100, MAX_SAFE_INT as u64));
        assert_eq!(endpoint("getBook").unwrap().answer, Answer::Book);
        assert_eq!(Args::TokenSide(api::price).count(), 2);
    }
}
