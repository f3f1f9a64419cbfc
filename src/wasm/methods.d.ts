/**
 * The REST methods of `Client`. Each is one line of JS (`pkg/client.mjs` installs them) calling the
 * binding's single entry for the service's routes; the list methods answer a `PagePromise`.
 */
export interface Client {
  /**
   * GET / — the CLOB surface's health check; resolves to `"OK"`.
   *
   * @example
   * await client.getOk(); // "OK"
   */
  getOk(options?: RequestOptions): Promise<string>;
  /**
   * GET /trades — cached trade fills (§4.1): await it for one page, or iterate it for every item, page after
   * page.
   *
   * @example
   * const fills = await client.getTrades({ user: "0x5668...5839", side: "BUY", limit: 50 });
   * for await (const trade of client.getTrades({ user }, { maxItems: 1000 })) console.log(trade.price);
   */
  getTrades(params?: TradesParams, options?: PageOptions): PagePromise<Trade[], Trade>;
  /**
   * GET /closed-positions — a wallet's cached exits (§4.2): await it for one page, or iterate it for every item,
   * page after page.
   *
   * @example
   * const exits = await client.getClosedPositions({ user, sortBy: "TIMESTAMP", limit: 50 });
   * for await (const p of client.getClosedPositions({ user })) total += p.realizedPnl;
   */
  getClosedPositions(params?: ClosedPositionsParams, options?: PageOptions): PagePromise<ClosedPosition[], ClosedPosition>;
  /**
   * GET /comments — comments on an event, market or series (§4.3): await it for one page, or iterate it for
   * every item, page after page.
   *
   * @example
   * const comments = await client.getComments({ parent_entity_type: "Event", parent_entity_id: "45915" });
   * for await (const c of client.getComments({ event_slug: "fed-decision" })) render(c);
   */
  getComments(params?: CommentsParams, options?: PageOptions): PagePromise<Comment[], Comment>;
  /**
   * GET /comments/{id} — the replies to one comment (§4.4).
   *
   * @example
   * const replies = await client.getCommentReplies("1234", { limit: 50 });
   */
  getCommentReplies(id: string, params?: PageParams, options?: RequestOptions): Promise<Comment[]>;
  /**
   * GET /markets/slug/{slug} — one catalog market by its slug (§4.5).
   *
   * @example
   * const market = await client.getMarketBySlug("will-it-rain-tomorrow");
   * const [yes, no] = JSON.parse(market.clobTokenIds);
   */
  getMarketBySlug(slug: string, params?: CreatorParams, options?: RequestOptions): Promise<CatalogMarket>;
  /**
   * GET /markets/{id} — one catalog market by numeric id or condition id (§4.6). (The CLOB list of
   * markets is `getMarkets`.)
   *
   * @example
   * const market = await client.getMarket("0xdd22...0917");
   */
  getMarket(idOrConditionId: string, params?: CreatorParams, options?: RequestOptions): Promise<CatalogMarket>;
  /**
   * GET /series (§4.7): await it for one page, or iterate it for every item, page after page.
   *
   * @example
   * const series = await client.getSeries({ limit: 20 });
   * for await (const s of client.getSeries()) console.log(s.title);
   */
  getSeries(params?: SeriesParams, options?: PageOptions): PagePromise<Series[], Series>;
  /**
   * GET /events (§4.8): await it for one page, or iterate it for every item, page after page.
   *
   * @example
   * const events = await client.getEvents({ active: true, closed: false, tag_slug: "politics", limit: 10 });
   * for await (const event of client.getEvents({ active: true }, { maxItems: 500 })) list.push(event);
   */
  getEvents(params?: EventsParams, options?: PageOptions): PagePromise<Event[], Event>;
  /**
   * GET /events/creators (§4.9): await it for one page, or iterate it for every item, page after page.
   *
   * @example
   * const creators = await client.getEventCreators({ creator_handle: "alice" });
   * for await (const creator of client.getEventCreators()) console.log(creator.creatorName);
   */
  getEventCreators(params?: EventCreatorsParams, options?: PageOptions): PagePromise<EventCreator[], EventCreator>;
  /**
   * GET /public-search — events and tags matching a term (§4.10).
   *
   * @example
   * const { events, pagination } = await client.publicSearch({ q: "election", limit_per_type: 5 });
   */
  publicSearch(params?: PublicSearchParams, options?: RequestOptions): Promise<SearchResult>;
  /**
   * GET /tags, one page.
   *
   * @example
   * const tags = await client.getTags({ limit: 100 });
   */
  getTags(params?: PageParams, options?: RequestOptions): Promise<Tag[]>;
  /**
   * GET /markets — the CLOB market list (§4.11). Pass the previous page's `next_cursor`.
   *
   * @example
   * const page = await client.getMarkets();         // first page ("MA==")
   * const next = await client.getMarkets(page.next_cursor);
   * for await (const market of client.getMarkets(undefined, { onPage: ({ total }) => progress(total) })) index(market);
   */
  getMarkets(nextCursor?: string, options?: PageOptions): PagePromise<Page<ClobMarket>, ClobMarket>;
  /**
   * GET /sampling-markets — the sampling markets (§4.12).
   *
   * @example
   * const { data, next_cursor } = await client.getSamplingMarkets();
   * for await (const market of client.getSamplingMarkets()) console.log(market.question);
   */
  getSamplingMarkets(nextCursor?: string, options?: PageOptions): PagePromise<Page<SamplingMarket>, SamplingMarket>;
  /**
   * GET /clob-markets/{condition_id} — a market's trading parameters in compact keys (§4.13).
   *
   * @example
   * const info = await client.getClobMarketInfo("0xa467...43b7");
   */
  getClobMarketInfo(conditionId: string, options?: RequestOptions): Promise<ClobMarketInfo>;
  /**
   * GET /book — one token's order book as the service sends it (a plain object). Use `getBook` for an
   * `OrderBook` with prices parsed exactly.
   *
   * @example
   * const { bids, asks, tick_size } = await client.getOrderBook("7261...3692");
   */
  getOrderBook(tokenId: string, options?: RequestOptions): Promise<OrderBookSummary>;
  /**
   * GET /book — one token's order book, parsed from the response bytes into an `OrderBook`.
   *
   * @example
   * const book = await client.getBook(tokenId);
   * book.bestAsk(); // { price: 0.52, size: 120 }
   */
  getBook(tokenId: string, options?: RequestOptions): Promise<OrderBook>;
  /**
   * POST /books — the order books of up to 500 tokens (§4.15).
   *
   * @example
   * const books = await client.getOrderBooks([{ token_id: yes }, { token_id: no }]);
   */
  getOrderBooks(params: BookParams[], options?: RequestOptions): Promise<OrderBookSummary[]>;
  /**
   * POST /prices — the best BUY and SELL prices of up to 500 tokens (§4.16).
   *
   * @example
   * const prices = await client.getPrices([{ token_id: yes }]);
   * prices[yes].BUY; // "0.52"
   */
  getPrices(params: BookParams[], options?: RequestOptions): Promise<Prices>;
  /**
   * GET /price — the best price on one side of one token's book.
   *
   * @example
   * const { price } = await client.getPrice(tokenId, "BUY");
   */
  getPrice(tokenId: string, side: Side, options?: RequestOptions): Promise<PriceResult>;
  /**
   * GET /midpoint — the midpoint of one token's book.
   *
   * @example
   * const { mid } = await client.getMidpoint(tokenId);
   */
  getMidpoint(tokenId: string, options?: RequestOptions): Promise<MidpointResult>;
  /**
   * GET /fee-rate/{token_id} — the token's fee schedule (§4.17).
   *
   * @example
   * const { base_fee, fee_schedule } = await client.getFeeRate(tokenId);
   */
  getFeeRate(tokenId: string, options?: RequestOptions): Promise<FeeRate>;
  /**
   * GET /prices-history — one token's price history.
   *
   * @example
   * const { history } = await client.getPricesHistory({ market: tokenId, interval: "1d", fidelity: 60 });
   */
  getPricesHistory(params?: PricesHistoryParams, options?: RequestOptions): Promise<PricesHistory>;
  /**
   * POST /batch-prices-history — midpoint histories of up to 20 tokens (§4.18).
   *
   * @example
   * const { history } = await client.getBatchPricesHistory({ markets: [yes, no], interval: "1w" });
   */
  getBatchPricesHistory(params?: BatchPricesHistoryParams, options?: RequestOptions): Promise<BatchPricesHistory>;
  /**
   * GET /data/orders — the account's live orders (§4.19). Needs credentials.
   *
   * @example
   * const { data, next_cursor } = await client.getOpenOrders({ market: conditionId });
   * for await (const order of client.getOpenOrders({ asset_id: tokenId })) console.log(order.id);
   */
  getOpenOrders(params?: OpenOrdersParams, options?: PageOptions): PagePromise<Page<Order>, Order>;
  /**
   * GET /data/order/{id} — one of the account's orders (§4.20); `NOT_FOUND` for another account's.
   *
   * @example
   * const { order } = await client.getOrder(orderId);
   */
  getOrder(id: string, options?: RequestOptions): Promise<OrderResult>;
  /**
   * DELETE /order — cancels one order (§4.21). An order that cannot be cancelled (already cancelled,
   * unknown, another account's) is reported in `not_canceled`, not thrown.
   *
   * @example
   * const { canceled, not_canceled } = await client.cancelOrder(orderId);
   */
  cancelOrder(orderId: string, options?: RequestOptions): Promise<CancelResult>;
  /**
   * DELETE /cancel-market-orders — cancels the account's orders in a market and/or asset (§4.22).
   *
   * @example
   * const { canceled } = await client.cancelMarketOrders({ market: conditionId });
   */
  cancelMarketOrders(params?: CancelMarketOrdersParams, options?: RequestOptions): Promise<CancelResult>;
  /**
   * DELETE /orders — cancels several orders in one request: from 1 to 1,000 ids (more is `INVALID_PARAMS`,
   * and nothing is sent). Duplicates are ignored by the service; each order that cannot be cancelled is
   * reported in `not_canceled`, not thrown.
   *
   * @example
   * const { canceled, not_canceled } = await client.cancelOrders([first, second]);
   */
  cancelOrders(orderIds: string[], options?: RequestOptions): Promise<CancelResult>;
  /**
   * DELETE /cancel-all — cancels every open order of the account.
   *
   * @example
   * const { canceled } = await client.cancelAll();
   */
  cancelAll(options?: RequestOptions): Promise<CancelResult>;
  /**
   * GET /order-scoring — whether one of the account's orders earns liquidity rewards now.
   *
   * @example
   * const { scoring } = await client.isOrderScoring(orderId);
   */
  isOrderScoring(orderId: string, options?: RequestOptions): Promise<OrderScoring>;
  /**
   * POST /orders-scoring — whether each of 1 to 1,000 orders earns liquidity rewards now, by order id.
   *
   * @example
   * const scoring = await client.areOrdersScoring([first, second]);
   * if (scoring[first]) console.log("earning");
   */
  areOrdersScoring(orderIds: string[], options?: RequestOptions): Promise<Record<string, boolean>>;
  /**
   * GET /balance-allowance — the balance the service sees for the account (base units: 6 decimals), and
   * its allowance for each exchange. `token_id` names the outcome token of a `CONDITIONAL` (or, on the
   * newer position system's markets, `CONDITIONAL-V2`) asset; the collateral takes none. `signature_type`
   * defaults to the client's `signatureType` (a Safe's or proxy's balance is the wallet's).
   *
   * @example
   * const { balance } = await client.getBalanceAllowance({ asset_type: "COLLATERAL" });
   */
  getBalanceAllowance(params: BalanceAllowanceParams, options?: RequestOptions): Promise<BalanceAllowance>;
  /**
   * GET /balance-allowance/update — has the service read the balance and allowances from the chain again
   * (after a deposit or an approval); the same params as `getBalanceAllowance`.
   *
   * @example
   * await client.updateBalanceAllowance({ asset_type: "CONDITIONAL", token_id: tokenId });
   */
  updateBalanceAllowance(params: BalanceAllowanceParams, options?: RequestOptions): Promise<unknown>;
  /**
   * GET /data/trades — the account's own trades. Needs credentials.
   *
   * @example
   * const { data } = await client.getUserTrades({ market: conditionId });
   * for await (const trade of client.getUserTrades()) console.log(trade.price);
   */
  getUserTrades(params?: UserTradesParams, options?: PageOptions): PagePromise<Page<UserTrade>, UserTrade>;
}
