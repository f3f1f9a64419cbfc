//! The JS `Client`: reads its options, then for each method builds the request in the core and sends it.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Function, JsString, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::book::OrderBook;
use super::call::{read_client_settings, Decode, Gate, Inner, Notifier};
use super::interop::{
    field, is_absent, opt_string, promise, read_opt_str, read_params, read_str, rejected, req_string, to_value,
};
use super::pages::{iterate, List};
use super::signing::read_credentials;
use super::transport::{BaseUrls, Payload, Transport, Want};
use crate::api::budget::{Bucket, Budgets, Limit};
use crate::api::retry::RetryPolicy;
use crate::api::{self, base_url, clock, HttpRequest, Params, TimestampUnit, Value, MAX_SAFE_INT};
use crate::auth::missing_credentials;
use crate::error::Error;

/// A client of the service. Create one per service and share it: it holds the rate budgets.
///
/// @example
/// const client = new Client({ baseUrl: "http://127.0.0.1:8787" });
/// const events = await client.getEvents({ active: true, limit: 10 });
#[wasm_bindgen]
pub struct Client {
    pub(super) inner: Rc<Inner>,
}

/// Largest page each offset list is iterated with, and its offset bound (interface §4).
const TRADES_PAGING: (u64, u64) = (500, 10_000);
const CLOSED_POSITIONS_PAGING: (u64, u64) = (50, 100_000);
const CATALOG_PAGING: (u64, u64) = (100, MAX_SAFE_INT as u64);

#[wasm_bindgen]
impl Client {
    /// Checks every option; a bad one throws `INVALID_PARAMS` naming it.
    #[wasm_bindgen(constructor)]
    pub fn new(#[wasm_bindgen(unchecked_param_type = "ClientOptions")] options: JsValue) -> Result<Client, JsValue> {
        Ok(Client { inner: Rc::new(read_options(&options)?) })
    }

    /// GET / — the CLOB surface's health check; resolves to `"OK"`.
    ///
    /// @example
    /// await client.getOk(); // "OK"
    #[wasm_bindgen(js_name = getOk, unchecked_return_type = "Promise<string>")]
    pub fn get_ok(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.json(options.as_ref(), Ok(api::ok()))
    }

    /// GET /trades — cached trade fills (§4.1), one page.
    ///
    /// @example
    /// const fills = await client.getTrades({ user: "0x5668...5839", side: "BUY", limit: 50 });
    #[wasm_bindgen(js_name = getTrades, unchecked_return_type = "Promise<Trade[]>")]
    pub fn get_trades(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "TradesParams")] params: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.json(options.as_ref(), read_params(params.as_ref()).and_then(|p| api::trades(&p)))
    }

    /// Every trade fill matching `params`, page after page (by offset).
    ///
    /// @example
    /// for await (const trade of client.iterateTrades({ user }, { maxItems: 1000 })) console.log(trade.price);
    #[wasm_bindgen(js_name = iterateTrades, unchecked_return_type = "AsyncIterable<Trade>")]
    pub fn iterate_trades(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "TradesParams")] params: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "IterateOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        iterate(&self.inner, List::Offset(api::trades, TRADES_PAGING), params.as_ref(), options.as_ref())
    }

    /// GET /closed-positions — a wallet's cached exits (§4.2), one page.
    ///
    /// @example
    /// const exits = await client.getClosedPositions({ user, sortBy: "TIMESTAMP", limit: 50 });
    #[wasm_bindgen(js_name = getClosedPositions, unchecked_return_type = "Promise<ClosedPosition[]>")]
    pub fn get_closed_positions(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "ClosedPositionsParams")] params: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.json(options.as_ref(), read_params(params.as_ref()).and_then(|p| api::closed_positions(&p)))
    }

    /// Every closed position of a wallet, page after page (by offset).
    ///
    /// @example
    /// for await (const p of client.iterateClosedPositions({ user })) total += p.realizedPnl;
    #[wasm_bindgen(js_name = iterateClosedPositions, unchecked_return_type = "AsyncIterable<ClosedPosition>")]
    pub fn iterate_closed_positions(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "ClosedPositionsParams")] params: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "IterateOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        iterate(
            &self.inner,
            List::Offset(api::closed_positions, CLOSED_POSITIONS_PAGING),
            params.as_ref(),
            options.as_ref(),
        )
    }

    /// GET /comments — comments on an event, market or series (§4.3), one page.
    ///
    /// @example
    /// const comments = await client.getComments({ parent_entity_type: "Event", parent_entity_id: "45915" });
    #[wasm_bindgen(js_name = getComments, unchecked_return_type = "Promise<Comment[]>")]
    pub fn get_comments(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "CommentsParams")] params: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.json(options.as_ref(), read_params(params.as_ref()).and_then(|p| api::comments(&p)))
    }

    /// Every comment matching `params`, page after page (by offset).
    ///
    /// @example
    /// for await (const c of client.iterateComments({ event_slug: "fed-decision" })) render(c);
    #[wasm_bindgen(js_name = iterateComments, unchecked_return_type = "AsyncIterable<Comment>")]
    pub fn iterate_comments(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "CommentsParams")] params: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "IterateOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        iterate(&self.inner, List::Offset(api::comments, CATALOG_PAGING), params.as_ref(), options.as_ref())
    }

    /// GET /comments/{id} — the replies to one comment (§4.4).
    ///
    /// @example
    /// const replies = await client.getCommentReplies("1234", { limit: 50 });
    #[wasm_bindgen(js_name = getCommentReplies, unchecked_return_type = "Promise<Comment[]>")]
    pub fn get_comment_replies(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "PageParams")] params: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.json(
            options.as_ref(),
            read_params(params.as_ref()).and_then(|p| api::comment_replies(&text(&id, "id")?, &p)),
        )
    }

    /// GET /markets/slug/{slug} — one catalog market by its slug (§4.5).
    ///
    /// @example
    /// const market = await client.getMarketBySlug("will-it-rain-tomorrow");
    /// const [yes, no] = JSON.parse(market.clobTokenIds);
    #[wasm_bindgen(js_name = getMarketBySlug, unchecked_return_type = "Promise<CatalogMarket>")]
    pub fn get_market_by_slug(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] slug: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CreatorParams")] params: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.json(
            options.as_ref(),
            read_params(params.as_ref()).and_then(|p| api::market_by_slug(&text(&slug, "slug")?, &p)),
        )
    }

    /// GET /markets/{id} — one catalog market by numeric id or condition id (§4.6). (The CLOB list of
    /// markets is `getMarkets`.)
    ///
    /// @example
    /// const market = await client.getMarket("0xdd22...0917");
    #[wasm_bindgen(js_name = getMarket, unchecked_return_type = "Promise<CatalogMarket>")]
    pub fn get_market(
        &self,
        #[wasm_bindgen(js_name = idOrConditionId, unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CreatorParams")] params: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.json(options.as_ref(), read_params(params.as_ref()).and_then(|p| api::market(&text(&id, "id")?, &p)))
    }

    /// GET /series (§4.7), one page.
    ///
    /// @example
    /// const series = await client.getSeries({ limit: 20 });
    #[wasm_bindgen(js_name = getSeries, unchecked_return_type = "Promise<Series[]>")]
    pub fn get_series(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "SeriesParams")] params: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.json(options.as_ref(), read_params(params.as_ref()).and_then(|p| api::series(&p)))
    }

    /// Every series, page after page (by offset).
    ///
    /// @example
    /// for await (const s of client.iterateSeries()) console.log(s.title);
    #[wasm_bindgen(js_name = iterateSeries, unchecked_return_type = "AsyncIterable<Series>")]
    pub fn iterate_series(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "SeriesParams")] params: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "IterateOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        iterate(&self.inner, List::Offset(api::series, CATALOG_PAGING), params.as_ref(), options.as_ref())
    }

    /// GET /events (§4.8), one page.
    ///
    /// @example
    /// const events = await client.getEvents({ active: true, closed: false, tag_slug: "politics", limit: 10 });
    #[wasm_bindgen(js_name = getEvents, unchecked_return_type = "Promise<Event[]>")]
    pub fn get_events(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "EventsParams")] params: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.json(options.as_ref(), read_params(params.as_ref()).and_then(|p| api::events(&p)))
    }

    /// Every event matching `params`, page after page (by offset).
    ///
    /// @example
    /// for await (const event of client.iterateEvents({ active: true }, { maxItems: 500 })) list.push(event);
    #[wasm_bindgen(js_name = iterateEvents, unchecked_return_type = "AsyncIterable<Event>")]
    pub fn iterate_events(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "EventsParams")] params: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "IterateOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        iterate(&self.inner, List::Offset(api::events, CATALOG_PAGING), params.as_ref(), options.as_ref())
    }

    /// GET /events/creators (§4.9), one page.
    ///
    /// @example
    /// const creators = await client.getEventCreators({ creator_handle: "alice" });
    #[wasm_bindgen(js_name = getEventCreators, unchecked_return_type = "Promise<EventCreator[]>")]
    pub fn get_event_creators(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "EventCreatorsParams")] params: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.json(options.as_ref(), read_params(params.as_ref()).and_then(|p| api::event_creators(&p)))
    }

    /// Every event creator, page after page (by offset).
    ///
    /// @example
    /// for await (const creator of client.iterateEventCreators()) console.log(creator.creatorName);
    #[wasm_bindgen(js_name = iterateEventCreators, unchecked_return_type = "AsyncIterable<EventCreator>")]
    pub fn iterate_event_creators(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "EventCreatorsParams")] params: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "IterateOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        iterate(&self.inner, List::Offset(api::event_creators, CATALOG_PAGING), params.as_ref(), options.as_ref())
    }

    /// GET /public-search — events and tags matching a term (§4.10).
    ///
    /// @example
    /// const { events, pagination } = await client.publicSearch({ q: "election", limit_per_type: 5 });
    #[wasm_bindgen(js_name = publicSearch, unchecked_return_type = "Promise<SearchResult>")]
    pub fn public_search(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "PublicSearchParams")] params: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.json(options.as_ref(), read_params(params.as_ref()).and_then(|p| api::public_search(&p)))
    }

    /// GET /tags, one page.
    ///
    /// @example
    /// const tags = await client.getTags({ limit: 100 });
    #[wasm_bindgen(js_name = getTags, unchecked_return_type = "Promise<Tag[]>")]
    pub fn get_tags(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "PageParams")] params: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.json(options.as_ref(), read_params(params.as_ref()).and_then(|p| api::tags(&p)))
    }

    /// GET /markets — one page of the CLOB market list (§4.11). Pass the previous page's `next_cursor`.
    ///
    /// @example
    /// const page = await client.getMarkets();         // first page ("MA==")
    /// const next = await client.getMarkets(page.next_cursor);
    #[wasm_bindgen(js_name = getMarkets, unchecked_return_type = "Promise<Page<ClobMarket>>")]
    pub fn get_markets(
        &self,
        #[wasm_bindgen(js_name = nextCursor, unchecked_optional_param_type = "string")] next_cursor: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.json(
            options.as_ref(),
            opt_text(next_cursor.as_ref(), "next_cursor").and_then(|c| api::clob_markets(c.as_deref())),
        )
    }

    /// Every CLOB market, page after page (by cursor).
    ///
    /// @example
    /// for await (const market of client.iterateMarkets({ onPage: ({ total }) => progress(total) })) index(market);
    #[wasm_bindgen(js_name = iterateMarkets, unchecked_return_type = "AsyncIterable<ClobMarket>")]
    pub fn iterate_markets(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "IterateOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        iterate(&self.inner, List::Cursor(clob_markets_page), None, options.as_ref())
    }

    /// GET /sampling-markets — one page of the sampling markets (§4.12).
    ///
    /// @example
    /// const { data, next_cursor } = await client.getSamplingMarkets();
    #[wasm_bindgen(js_name = getSamplingMarkets, unchecked_return_type = "Promise<Page<SamplingMarket>>")]
    pub fn get_sampling_markets(
        &self,
        #[wasm_bindgen(js_name = nextCursor, unchecked_optional_param_type = "string")] next_cursor: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.json(
            options.as_ref(),
            opt_text(next_cursor.as_ref(), "next_cursor").and_then(|c| api::sampling_markets(c.as_deref())),
        )
    }

    /// Every sampling market, page after page (by cursor).
    ///
    /// @example
    /// for await (const market of client.iterateSamplingMarkets()) console.log(market.question);
    #[wasm_bindgen(js_name = iterateSamplingMarkets, unchecked_return_type = "AsyncIterable<SamplingMarket>")]
    pub fn iterate_sampling_markets(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "IterateOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        iterate(&self.inner, List::Cursor(sampling_markets_page), None, options.as_ref())
    }

    /// GET /clob-markets/{condition_id} — a market's trading parameters in compact keys (§4.13).
    ///
    /// @example
    /// const info = await client.getClobMarketInfo("0xa467...43b7");
    #[wasm_bindgen(js_name = getClobMarketInfo, unchecked_return_type = "Promise<ClobMarketInfo>")]
    pub fn get_clob_market_info(
        &self,
        #[wasm_bindgen(js_name = conditionId, unchecked_param_type = "string")] condition_id: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.json(options.as_ref(), text(&condition_id, "condition_id").and_then(|c| api::clob_market_info(&c)))
    }

    /// GET /book — one token's order book as the service sends it (a plain object). Use `getBook` for an
    /// `OrderBook` with prices parsed exactly.
    ///
    /// @example
    /// const { bids, asks, tick_size } = await client.getOrderBook("7261...3692");
    #[wasm_bindgen(js_name = getOrderBook, unchecked_return_type = "Promise<OrderBookSummary>")]
    pub fn get_order_book(
        &self,
        #[wasm_bindgen(js_name = tokenId, unchecked_param_type = "string")] token_id: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.json(options.as_ref(), text(&token_id, "token_id").and_then(|t| api::order_book(&t)))
    }

    /// GET /book — one token's order book, parsed from the response bytes into an `OrderBook`.
    ///
    /// @example
    /// const book = await client.getBook(tokenId);
    /// book.bestAsk(); // { price: 0.52, size: 120 }
    #[wasm_bindgen(js_name = getBook, unchecked_return_type = "Promise<OrderBook>")]
    pub fn get_book(
        &self,
        #[wasm_bindgen(js_name = tokenId, unchecked_param_type = "string")] token_id: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        let request = text(&token_id, "token_id").and_then(|t| api::order_book(&t));
        self.send(options.as_ref(), request, Want::Bytes, &decode_book)
    }

    /// POST /books — the order books of up to 500 tokens (§4.15).
    ///
    /// @example
    /// const books = await client.getOrderBooks([{ token_id: yes }, { token_id: no }]);
    #[wasm_bindgen(js_name = getOrderBooks, unchecked_return_type = "Promise<OrderBookSummary[]>")]
    pub fn get_order_books(
        &self,
        #[wasm_bindgen(unchecked_param_type = "BookParams[]")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.json(options.as_ref(), to_value(&params, "params").and_then(|v| api::order_books(&v)))
    }

    /// POST /prices — the best BUY and SELL prices of up to 500 tokens (§4.16).
    ///
    /// @example
    /// const prices = await client.getPrices([{ token_id: yes }]);
    /// prices[yes].BUY; // "0.52"
    #[wasm_bindgen(js_name = getPrices, unchecked_return_type = "Promise<Prices>")]
    pub fn get_prices(
        &self,
        #[wasm_bindgen(unchecked_param_type = "BookParams[]")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.json(options.as_ref(), to_value(&params, "params").and_then(|v| api::prices(&v)))
    }

    /// GET /price — the best price on one side of one token's book.
    ///
    /// @example
    /// const { price } = await client.getPrice(tokenId, "BUY");
    #[wasm_bindgen(js_name = getPrice, unchecked_return_type = "Promise<PriceResult>")]
    pub fn get_price(
        &self,
        #[wasm_bindgen(js_name = tokenId, unchecked_param_type = "string")] token_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Side")] side: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.json(options.as_ref(), text(&token_id, "token_id").and_then(|t| api::price(&t, &text(&side, "side")?)))
    }

    /// GET /midpoint — the midpoint of one token's book.
    ///
    /// @example
    /// const { mid } = await client.getMidpoint(tokenId);
    #[wasm_bindgen(js_name = getMidpoint, unchecked_return_type = "Promise<MidpointResult>")]
    pub fn get_midpoint(
        &self,
        #[wasm_bindgen(js_name = tokenId, unchecked_param_type = "string")] token_id: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.json(options.as_ref(), text(&token_id, "token_id").and_then(|t| api::midpoint(&t)))
    }

    /// GET /fee-rate/{token_id} — the token's fee schedule (§4.17).
    ///
    /// @example
    /// const { base_fee, fee_schedule } = await client.getFeeRate(tokenId);
    #[wasm_bindgen(js_name = getFeeRate, unchecked_return_type = "Promise<FeeRate>")]
    pub fn get_fee_rate(
        &self,
        #[wasm_bindgen(js_name = tokenId, unchecked_param_type = "string")] token_id: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.json(options.as_ref(), text(&token_id, "token_id").and_then(|t| api::fee_rate(&t)))
    }

    /// GET /prices-history — one token's price history.
    ///
    /// @example
    /// const { history } = await client.getPricesHistory({ market: tokenId, interval: "1d", fidelity: 60 });
    #[wasm_bindgen(js_name = getPricesHistory, unchecked_return_type = "Promise<PricesHistory>")]
    pub fn get_prices_history(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "PricesHistoryParams")] params: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.json(options.as_ref(), read_params(params.as_ref()).and_then(|p| api::prices_history(&p)))
    }

    /// POST /batch-prices-history — midpoint histories of up to 20 tokens (§4.18).
    ///
    /// @example
    /// const { history } = await client.getBatchPricesHistory({ markets: [yes, no], interval: "1w" });
    #[wasm_bindgen(js_name = getBatchPricesHistory, unchecked_return_type = "Promise<BatchPricesHistory>")]
    pub fn get_batch_prices_history(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "BatchPricesHistoryParams")] params: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.json(options.as_ref(), read_params(params.as_ref()).and_then(|p| api::batch_prices_history(&p)))
    }
}

#[wasm_bindgen]
impl Client {
    /// GET /data/orders — one page of the account's live orders (§4.19). Needs credentials.
    ///
    /// @example
    /// const { data, next_cursor } = await client.getOpenOrders({ market: conditionId });
    #[wasm_bindgen(js_name = getOpenOrders, unchecked_return_type = "Promise<Page<Order>>")]
    pub fn get_open_orders(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "OpenOrdersParams")] params: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.json(options.as_ref(), read_params(params.as_ref()).and_then(|p| api::open_orders(&p)))
    }

    /// Every live order of the account matching `params`, page after page (by cursor).
    ///
    /// @example
    /// for await (const order of client.iterateOpenOrders({ asset_id: tokenId })) console.log(order.id);
    #[wasm_bindgen(js_name = iterateOpenOrders, unchecked_return_type = "AsyncIterable<Order>")]
    pub fn iterate_open_orders(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "OpenOrdersParams")] params: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "IterateOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        self.require_credentials()?;
        iterate(&self.inner, List::Cursor(api::open_orders), params.as_ref(), options.as_ref())
    }

    /// GET /data/order/{id} — one of the account's orders (§4.20); `NOT_FOUND` for another account's.
    ///
    /// @example
    /// const { order } = await client.getOrder(orderId);
    #[wasm_bindgen(js_name = getOrder, unchecked_return_type = "Promise<OrderResult>")]
    pub fn get_order(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.json(options.as_ref(), text(&id, "id").and_then(|id| api::order(&id)))
    }

    /// DELETE /order — cancels one order (§4.21). An order that cannot be cancelled (already cancelled,
    /// unknown, another account's) is reported in `not_canceled`, not thrown.
    ///
    /// @example
    /// const { canceled, not_canceled } = await client.cancelOrder(orderId);
    #[wasm_bindgen(js_name = cancelOrder, unchecked_return_type = "Promise<CancelResult>")]
    pub fn cancel_order(
        &self,
        #[wasm_bindgen(js_name = orderId, unchecked_param_type = "string")] order_id: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.json(options.as_ref(), text(&order_id, "orderId").and_then(|id| api::cancel_order(&id)))
    }

    /// DELETE /cancel-market-orders — cancels the account's orders in a market and/or asset (§4.22).
    ///
    /// @example
    /// const { canceled } = await client.cancelMarketOrders({ market: conditionId });
    #[wasm_bindgen(js_name = cancelMarketOrders, unchecked_return_type = "Promise<CancelResult>")]
    pub fn cancel_market_orders(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "CancelMarketOrdersParams")] params: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.json(options.as_ref(), read_params(params.as_ref()).and_then(|p| api::cancel_market_orders(&p)))
    }

    /// GET /data/trades — one page of the account's own trades. Needs credentials.
    ///
    /// @example
    /// const { data } = await client.getUserTrades({ market: conditionId });
    #[wasm_bindgen(js_name = getUserTrades, unchecked_return_type = "Promise<Page<UserTrade>>")]
    pub fn get_user_trades(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "UserTradesParams")] params: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        self.json(options.as_ref(), read_params(params.as_ref()).and_then(|p| api::user_trades(&p)))
    }

    /// Every trade of the account matching `params`, page after page (by cursor).
    ///
    /// @example
    /// for await (const trade of client.iterateUserTrades()) console.log(trade.price);
    #[wasm_bindgen(js_name = iterateUserTrades, unchecked_return_type = "AsyncIterable<UserTrade>")]
    pub fn iterate_user_trades(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "UserTradesParams")] params: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "IterateOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        self.require_credentials()?;
        iterate(&self.inner, List::Cursor(api::user_trades), params.as_ref(), options.as_ref())
    }

    /// Estimates how far the local clock is from the service's and signs with the difference from then on.
    /// Reads GET /time where the service has it, else the `Date` header of that answer (whole seconds;
    /// cross-origin it must be exposed). Resolves to the offset in milliseconds.
    ///
    /// The client's `timeoutMs` and per-call `{ signal, timeoutMs }` apply.
    ///
    /// @example
    /// const offsetMs = await client.syncClock();
    #[wasm_bindgen(js_name = syncClock, unchecked_return_type = "Promise<number>")]
    pub fn sync_clock(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: Option<JsValue>,
    ) -> Promise {
        let inner = self.inner.clone();
        let call = inner.call_options(options.as_ref());
        promise(Box::pin(async move {
            let call = call?;
            let request = api::server_time();
            let sent = js_sys::Date::now();
            let answer = inner.exchange(&request, &call).await?;
            let received = js_sys::Date::now();
            let ok = (200..300).contains(&answer.status);
            // Only the start of the body is read: GET /time answers a number.
            let body =
                if ok { answer.body.dyn_ref::<JsString>().and_then(|t| t.slice(0, 64).as_string()) } else { None };
            let mut server = body.and_then(|t| clock::time_body_ms(&t));
            if server.is_none() {
                let date = answer.date.unwrap_or_default();
                server = clock::server_ms(js_sys::Date::parse(&date) / 1000.0, 1000.0);
            }
            let Some(server) = server else {
                let mut e = Error::decode("the service told no time: no GET /time and no readable Date header");
                e.path = Some(request.path.clone());
                return Err(e.into());
            };
            let offset = clock::offset_ms(server, sent, received);
            inner.clock_offset_ms.set(offset);
            Ok(JsValue::from_f64(offset))
        }))
    }

    /// The offset added to the local clock when signing, in milliseconds.
    #[wasm_bindgen(getter, js_name = clockOffsetMs)]
    pub fn clock_offset_ms(&self) -> f64 {
        self.inner.clock_offset_ms.get()
    }

    /// Whether the client holds credentials (they cannot be read back).
    #[wasm_bindgen(getter, js_name = hasCredentials)]
    pub fn has_credentials(&self) -> bool {
        self.inner.credentials.borrow().is_some()
    }
}

#[cfg(feature = "stream")]
#[wasm_bindgen]
impl Client {
    /// Opens the market channel for `assetIds`: the service's events (`book`, `price_change`,
    /// `tick_size_change`, `last_trade_price`, ...) for `for await` or `onEvent`, and a live `OrderBook` per
    /// asset, checked against the service's hash and resynchronised from a fresh snapshot when it drifts.
    /// PING every 10 s; a missing PONG reconnects, a silent subscription is renewed (`stallAfterMs`), and
    /// reconnects back off from 1 s to 60 s.
    ///
    /// @example
    /// const stream = client.marketStream([tokenId], { onEvent: (e) => e.event_type === "book_update" && render(stream.book(tokenId)) });
    /// for await (const event of stream) if (event.event_type === "status") showStatus(event.status);
    #[wasm_bindgen(js_name = marketStream, unchecked_return_type = "MarketStream")]
    pub fn market_stream(
        &self,
        #[wasm_bindgen(js_name = assetIds, unchecked_param_type = "string[]")] asset_ids: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "MarketStreamOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        super::stream::open(&self.inner, crate::stream::protocol::Channel::Market, &asset_ids, options.as_ref())
    }

    /// Opens the user channel for the account's orders and trades in `markets` (condition ids; empty for
    /// all). Needs credentials; they go only in the socket's subscription message, never in a URL, an event
    /// or an error.
    ///
    /// @example
    /// for await (const event of client.userStream([])) if (event.event_type === "order") refresh(event.id);
    #[wasm_bindgen(js_name = userStream, unchecked_return_type = "UserStream")]
    pub fn user_stream(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string[]")] markets: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "StreamOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        super::stream::open(&self.inner, crate::stream::protocol::Channel::User, &markets, options.as_ref())
    }
}

fn clob_markets_page(params: &Params) -> Result<HttpRequest, Error> {
    api::clob_markets(cursor_of(params))
}

fn sampling_markets_page(params: &Params) -> Result<HttpRequest, Error> {
    api::sampling_markets(cursor_of(params))
}

fn cursor_of(params: &Params) -> Option<&str> {
    match params.get("next_cursor") {
        api::Value::Str(c) => Some(c),
        _ => None,
    }
}

impl Client {
    fn require_credentials(&self) -> Result<(), Error> {
        if self.inner.credentials.borrow().is_some() {
            Ok(())
        } else {
            Err(missing_credentials())
        }
    }

    /// Sends a built request and resolves to its JSON body; a request that failed validation rejects
    /// without anything being sent.
    fn json(&self, options: Option<&JsValue>, request: Result<HttpRequest, Error>) -> Promise {
        self.send(options, request, Want::Json, &decode_json)
    }

    /// Sends a built request (with the call's options) and resolves to its answer through `decode`.
    fn send(
        &self,
        options: Option<&JsValue>,
        request: Result<HttpRequest, Error>,
        want: Want,
        decode: Decode<'static>,
    ) -> Promise {
        let call = self.inner.call_options(options);
        let request = request.and_then(|r| call.as_ref().map_err(Clone::clone).and_then(|c| c.prepare(r)));
        let (request, call) = match (request, call) {
            (Ok(request), Ok(call)) => (request, call),
            (Err(e), _) | (_, Err(e)) => return rejected(e),
        };
        let inner = self.inner.clone();
        promise(Box::pin(async move { inner.execute(&request, &call, want, decode).await }))
    }
}

pub(super) fn decode_json(payload: Payload) -> Result<JsValue, Error> {
    match payload {
        Payload::Json(value) => Ok(value),
        _ => Err(Error::decode("expected a JSON body")),
    }
}

/// GET /book's bytes as an `OrderBook`; a body that is not a book is retried like a garbled one.
fn decode_book(payload: Payload) -> Result<JsValue, Error> {
    match payload {
        Payload::Bytes(bytes) => Ok(OrderBook::from(crate::book::OrderBook::from_vec(bytes)?).into()),
        _ => Err(Error::decode("expected a byte body")),
    }
}

/// A string argument (ids, slugs, token ids, sides), bounded before it is copied; the core checks its shape.
fn text(value: &JsValue, param: &'static str) -> Result<String, Error> {
    read_str(value, param, 4096)
}

fn opt_text(value: Option<&JsValue>, param: &'static str) -> Result<Option<String>, Error> {
    value.map_or(Ok(None), |v| read_opt_str(v, param, 4096))
}

fn read_options(options: &JsValue) -> Result<Inner, Error> {
    if !options.is_object() {
        return Err(Error::invalid("options", "must be an object with at least baseUrl"));
    }
    let base = field(options, "baseUrl", "baseUrl")?;
    let bases = if base.is_string() {
        let url = base_url("baseUrl", &read_str(&base, "baseUrl", 4096)?)?;
        BaseUrls { catalog: url.clone(), clob: url.clone(), activity: url }
    } else if base.is_object() {
        BaseUrls {
            catalog: base_url("baseUrl.catalog", &req_string(&base, "catalog")?)?,
            clob: base_url("baseUrl.clob", &req_string(&base, "clob")?)?,
            activity: base_url("baseUrl.activity", &req_string(&base, "activity")?)?,
        }
    } else {
        return Err(Error::invalid("baseUrl", "is required: a URL, or { catalog, clob, activity }"));
    };

    let fetch = field(options, "fetch", "fetch")?;
    let fetch = if is_absent(&fetch) {
        None
    } else {
        Some(fetch.dyn_into::<Function>().map_err(|_| Error::invalid("fetch", "must be a function"))?)
    };

    #[cfg(feature = "trade")]
    let trading = super::trade::read_trading(options)?;
    let creds = field(options, "credentials", "credentials")?;
    let credentials = if is_absent(&creds) { None } else { Some(read_credentials(&creds)?) };

    let timestamp_unit = match opt_string(options, "timestampUnit")? {
        Some(unit) => TimestampUnit::parse(&unit)?,
        None => TimestampUnit::default(),
    };

    let (timeout_ms, max_retries, max_queue_ms, max_in_flight) = read_client_settings(options)?;
    let budgets = read_rate_limits(&field(options, "rateLimits", "rateLimits")?)?;
    let on_event = field(options, "onEvent", "onEvent")?;
    let on_event = if is_absent(&on_event) {
        None
    } else {
        Some(on_event.dyn_into::<Function>().map_err(|_| Error::invalid("onEvent", "must be a function"))?)
    };

    let offset = field(options, "clockOffsetMs", "clockOffsetMs")?;
    let clock_offset_ms = match offset.as_f64() {
        Some(ms) if ms.is_finite() && ms.abs() <= 86_400_000.0 => ms,
        _ if is_absent(&offset) => 0.0,
        _ => return Err(Error::invalid("clockOffsetMs", "must be a number of milliseconds within a day")),
    };

    Ok(Inner {
        transport: Transport { bases, fetch },
        credentials: RefCell::new(credentials),
        #[cfg(feature = "trade")]
        trading,
        timestamp_unit,
        clock_offset_ms: Cell::new(clock_offset_ms),
        budgets: RefCell::new(budgets),
        gate: Gate::new(),
        answered: Notifier::new(),
        in_flight: Cell::new(0),
        max_in_flight,
        queued: RefCell::new(Vec::new()),
        policy: RetryPolicy { max_retries, ..RetryPolicy::default() },
        timeout_ms,
        max_queue_ms,
        on_event,
    })
}

/// `rateLimits`: absent for the interface's §8 table, `false` for none, or per scope
/// `{ requests, windowMs }` or `false` over the defaults.
fn read_rate_limits(value: &JsValue) -> Result<Budgets, Error> {
    if is_absent(value) {
        return Ok(Budgets::default());
    }
    if value.as_bool() == Some(false) {
        return Ok(Budgets::unlimited());
    }
    if !value.is_object() {
        return Err(Error::invalid("rateLimits", "must be false or an object of scopes"));
    }
    let mut budgets = Budgets::default();
    let Value::Object(scopes) = to_value(value, "rateLimits")? else {
        return Err(Error::invalid("rateLimits", "must be false or an object of scopes"));
    };
    for (name, limit) in scopes {
        let Some(bucket) = Bucket::from_name(&name) else {
            return Err(Error::invalid_owned(&format!("rateLimits.{name}"), "is not a rate-limit scope"));
        };
        let limit = match limit {
            Value::Bool(false) => None,
            Value::Object(fields) => {
                let fields = Params(fields);
                let number = |key| match fields.get(key) {
                    Value::Number(n) => *n,
                    _ => f64::NAN,
                };
                Some(Limit::new(number("requests"), number("windowMs"), "rateLimits")?)
            }
            _ => Some(Limit::new(f64::NAN, f64::NAN, "rateLimits")?),
        };
        budgets.set(bucket, limit);
    }
    Ok(budgets)
}
