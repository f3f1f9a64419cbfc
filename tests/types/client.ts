// Every Client method called with typed params, its result assigned to its declared type, every
// iterate* method consumed with `for await`, and `@ts-expect-error` lines proving that wrong params do
// not compile. Nothing here runs: `typecheck` is only type-checked.

import init, { Client, isPredictKitError } from "../../pkg/web/predictkit.js";
import type {
  BatchPricesHistory,
  BookParams,
  CatalogMarket,
  ClientOptions,
  ClobMarket,
  ClobMarketInfo,
  ClosedPosition,
  Comment,
  Event,
  EventCreator,
  FeeRate,
  PageOptions,
  PagePromise,
  Paged,
  MidpointResult,
  OrderBook,
  OrderBookSummary,
  Page,
  PageInfo,
  PredictKitErrorCode,
  PriceHistoryPoint,
  PriceResult,
  Prices,
  PricesHistory,
  RateLimitScope,
  RequestOptions,
  SamplingMarket,
  SearchResult,
  Series,
  Side,
  Tag,
  Trade,
} from "../../pkg/web/predictkit.js";

const TOKEN = "72610532355343625199299853218161700546393390326785971247545541945337255643692";
const CONDITION = "0xdd22472e552920b8438158ea7238bfadfa4f736aa4cee91a6b86c39ead110917";
const USER = "0x56687bf447db6ffa42ffe2204a05edaa20f55839";

export function options(): ClientOptions[] {
  const full: ClientOptions = {
    baseUrl: { catalog: "https://catalog.example", clob: "https://clob.example", activity: "https://data.example" },
    credentials: {
      address: USER,
      apiKey: "00000000-0000-4000-8000-000000000000",
      secret: "c2VjcmV0",
      passphrase: "0".repeat(64),
    },
    timestampUnit: "s",
    fetch: (input, init) => fetch(input, init),
    timeoutMs: 15_000,
    maxRetries: 2,
    clockOffsetMs: -250,
    maxQueueMs: 5_000,
    rateLimits: { book: { requests: 100, windowMs: 10_000 }, "cancel-sustained": false, activity: { requests: 50, windowMs: 1_000 } },
  };
  const scope: RateLimitScope = "batch-prices-history";
  const withGlobalFetch: ClientOptions = { baseUrl: "http://127.0.0.1:8787", fetch, rateLimits: false };
  const perCall: RequestOptions = {
    signal: new AbortController().signal,
    timeoutMs: 1_000,
    maxRetries: 0,
    extraQuery: { featured: true, volume_min: 1000, "tag_ids[]": "2" },
  };

  // @ts-expect-error baseUrl is required
  const noBase: ClientOptions = { timeoutMs: 1 };
  // @ts-expect-error the timestamp unit is "ms" or "s"
  const micro: ClientOptions = { baseUrl: "http://x", timestampUnit: "us" };
  // @ts-expect-error rate limits are keyed by the interface's scopes
  const badScope: ClientOptions = { baseUrl: "http://x", rateLimits: { orders: { requests: 1, windowMs: 1 } } };
  // @ts-expect-error a rate limit needs both requests and windowMs
  const halfLimit: ClientOptions = { baseUrl: "http://x", rateLimits: { book: { requests: 1 } } };
  // @ts-expect-error a per-surface baseUrl names all three surfaces
  const partialBase: ClientOptions = { baseUrl: { catalog: "http://x" } };
  // @ts-expect-error RequestOptions takes no unknown keys
  const badPerCall: RequestOptions = { retries: 1 };
  // @ts-expect-error extraQuery values are strings, numbers or booleans, not arrays
  const listQuery: RequestOptions = { extraQuery: { tag_ids: ["1", "2"] } };

  void scope, perCall, noBase, micro, badScope, halfLimit, partialBase, badPerCall, listQuery;
  return [full, withGlobalFetch];
}

export async function typecheck(client: Client): Promise<void> {
  await init();

  const ok: string = await client.getOk();

  // Activity surface.
  const fills: Trade[] = await client.getTrades({
    limit: 50,
    offset: 0,
    takerOnly: true,
    filterType: "CASH",
    filterAmount: 1000,
    market: [CONDITION],
    user: USER,
    side: "BUY",
  });
  const fillsByCsv: Trade[] = await client.getTrades({ market: `${CONDITION},${CONDITION}` });
  const exits: ClosedPosition[] = await client.getClosedPositions({
    user: USER,
    market: CONDITION,
    title: "election",
    limit: 50,
    offset: 0,
    sortBy: "TIMESTAMP",
    sortDirection: "ASC",
  });

  // Catalog surface.
  const comments: Comment[] = await client.getComments({
    limit: 20,
    offset: 0,
    order: "createdAt",
    parent_entity_type: "Event",
    parent_entity_id: "45915",
    holders_only: false,
  });
  const bySlug: Comment[] = await client.getComments({ event_slug: "fed-decision" });
  const replies: Comment[] = await client.getCommentReplies("3218542", { limit: 50, offset: 0 });
  const market: CatalogMarket = await client.getMarketBySlug("will-it-rain", { creator: USER });
  const market2: CatalogMarket = await client.getMarket(CONDITION, {});
  const tokenIdList: unknown = JSON.parse(market.clobTokenIds);
  const series: Series[] = await client.getSeries({ limit: 20, offset: 0, creator: "site" });
  const seriesImage: string = series[0].image;
  const embeddedSeriesImage: string | undefined = series[0].events?.[0]?.series?.[0]?.image;
  const events: Event[] = await client.getEvents({
    limit: 10,
    offset: 0,
    active: true,
    closed: false,
    archived: false,
    tag: "politics",
    tag_id: 2,
    tag_slug: "politics",
    series_slug: "nba",
    slug: "event",
    order: "volume",
    ascending: false,
    creator: USER,
  });
  const creators: EventCreator[] = await client.getEventCreators({
    limit: 10,
    offset: 0,
    order: "createdAt",
    ascending: true,
    creator_name: "Alice",
    creator_handle: "alice",
  });
  const found: SearchResult = await client.publicSearch({
    q: "election",
    limit_per_type: 5,
    page: 1,
    search_tags: true,
    search_profiles: false,
    creator: USER,
  });
  const tags: Tag[] = await client.getTags({ limit: 100, offset: 0 });

  // CLOB surface.
  const marketsPage: Page<ClobMarket> = await client.getMarkets();
  const nextMarkets: Page<ClobMarket> = await client.getMarkets(marketsPage.next_cursor);
  const sampling: Page<SamplingMarket> = await client.getSamplingMarkets("MA==");
  const info: ClobMarketInfo = await client.getClobMarketInfo(CONDITION);
  const summary: OrderBookSummary = await client.getOrderBook(TOKEN);
  const book: OrderBook = await client.getBook(TOKEN);
  const tokens: BookParams[] = [{ token_id: TOKEN }];
  const summaries: OrderBookSummary[] = await client.getOrderBooks(tokens);
  const prices: Prices = await client.getPrices(tokens);
  const buy: string | undefined = prices[TOKEN]?.BUY;
  const side: Side = "SELL";
  const price: PriceResult = await client.getPrice(TOKEN, side);
  const mid: MidpointResult = await client.getMidpoint(TOKEN);
  const fee: FeeRate = await client.getFeeRate(TOKEN);
  const history: PricesHistory = await client.getPricesHistory({
    market: TOKEN,
    startTs: 1_700_000_000,
    endTs: 1_700_086_400,
    interval: "1d",
    fidelity: 60,
  });
  const batch: BatchPricesHistory = await client.getBatchPricesHistory({
    markets: [TOKEN],
    start_ts: 1_700_000_000,
    end_ts: 1_700_086_400,
    interval: "1w",
    fidelity: 60,
  });
  const points: PriceHistoryPoint[] | undefined = batch.history[TOKEN];

  // A list method's page: the service's answer with the way to the next page.
  const eventsPage: Paged<Event[], Event> = await client.getEvents({ limit: 5 });
  const firstEvent: Event | undefined = eventsPage[0];
  if (eventsPage.hasNextPage()) {
    const nextEvents: Event[] = await eventsPage.getNextPage();
    void nextEvents;
  }
  const clobPromise: PagePromise<Page<ClobMarket>, ClobMarket> = client.getMarkets();
  const clobPage = await clobPromise;
  const cursor: string = clobPage.next_cursor;
  const clobNext: Page<ClobMarket> = await clobPage.getNextPage();
  void [firstEvent, cursor, clobNext];

  // Iteration.
  const progress: PageOptions = {
    onPage: (page: PageInfo) => {
      const cursor: string | undefined = page.nextCursor;
      void [page.page, page.items, page.total, page.done, cursor];
    },
    maxItems: 1000,
    signal: new AbortController().signal,
    timeoutMs: 30_000,
    maxRetries: 1,
    extraQuery: { featured: true },
  };
  for await (const trade of client.getTrades({ user: USER }, progress)) {
    const t: Trade = trade;
    void t;
  }
  for await (const position of client.getClosedPositions({ user: USER, sortBy: "REALIZEDPNL" }, {})) {
    const p: ClosedPosition = position;
    void p;
  }
  for await (const c of client.getComments({ parent_entity_type: "Series", parent_entity_id: "7" }, { maxItems: 10 })) {
    const x: Comment = c;
    void x;
  }
  for await (const s of client.getSeries({}, {})) {
    const x: Series = s;
    void x;
  }
  for await (const e of client.getEvents({ active: true }, { maxItems: 500 })) {
    const x: Event = e;
    void x;
  }
  for await (const c of client.getEventCreators({}, {})) {
    const x: EventCreator = c;
    void x;
  }
  for await (const m of client.getMarkets(undefined, { onPage: ({ total }) => void total })) {
    const x: ClobMarket = m;
    void x;
  }
  for await (const m of client.getSamplingMarkets(undefined, {})) {
    const x: SamplingMarket = m;
    void x;
  }

  // Errors.
  try {
    await client.getOk();
  } catch (error: unknown) {
    if (isPredictKitError(error)) {
      const code: PredictKitErrorCode = error.code;
      if (error.code === "FREED") throw error;
      const status: number | undefined = error.status;
      const wait: number | undefined = error.retryAfterMs;
      const asError: Error = error;
      // @ts-expect-error codes are the stable set only
      if (error.code === "BAD_REQUEST") throw error;
      void [code, status, wait, asError];
    }
  }

  // Negative checks: wrong params do not compile.
  // @ts-expect-error closed positions need a user
  await client.getClosedPositions({ limit: 10 });
  // @ts-expect-error sortBy is one of the interface's columns
  await client.getClosedPositions({ user: USER, sortBy: "SIZE" });
  // @ts-expect-error filterType is "CASH" or "TOKENS"
  await client.getTrades({ filterType: "USD", filterAmount: 1 });
  // @ts-expect-error side is upper case
  await client.getTrades({ side: "buy" });
  // @ts-expect-error market ids are strings
  await client.getTrades({ market: [1, 2] });
  // @ts-expect-error parent_entity_type is "Event", "Series" or "market"
  await client.getComments({ parent_entity_type: "event" });
  // @ts-expect-error tag_id is a number
  await client.getEvents({ tag_id: "2" });
  // @ts-expect-error active is a boolean
  await client.getEvents({ active: "true" });
  // @ts-expect-error search needs q
  await client.publicSearch({ limit_per_type: 5 });
  // @ts-expect-error a token id is a decimal string, not a number
  await client.getOrderBook(123);
  // @ts-expect-error book params carry token_id as a string
  await client.getOrderBooks([{ token_id: 123 }]);
  // @ts-expect-error book params are objects, not bare token ids
  await client.getPrices([TOKEN]);
  // @ts-expect-error the side of getPrice is "BUY" or "SELL"
  await client.getPrice(TOKEN, "bid");
  // @ts-expect-error the interval is max, 1w, 1d, 6h or 1h
  await client.getPricesHistory({ market: TOKEN, interval: "5m" });
  // @ts-expect-error prices-history needs the token id as market
  await client.getPricesHistory({ interval: "1d" });
  // @ts-expect-error batch history needs markets
  await client.getBatchPricesHistory({ interval: "1d" });
  // @ts-expect-error batch history start_ts is epoch seconds as a number
  await client.getBatchPricesHistory({ markets: [TOKEN], start_ts: "1700000000" });
  // @ts-expect-error maxItems is a number
  client.getEvents({}, { maxItems: "10" });
  // @ts-expect-error onPage receives PageInfo, whose nextCursor may be absent
  client.getMarkets(undefined, { onPage: (page: { nextCursor: string }) => void page });

  // Negative checks: results are not looser than declared.
  // @ts-expect-error a price is a decimal string
  const priceNumber: number = price.price;
  // @ts-expect-error a trade's size is a number
  const sizeText: string = fills[0].size;
  // @ts-expect-error a CLOB page's items are CLOB markets, not catalog markets
  const wrongItems: CatalogMarket[] = marketsPage.data;
  // @ts-expect-error the fee schedule is absent from the upstream service's answer
  const rate: number = fee.fee_schedule.rate;

  void [ok, fillsByCsv, exits, bySlug, replies, market2, tokenIdList, series, seriesImage, embeddedSeriesImage];
  void [events, creators, found, tags];
  void [nextMarkets, sampling, info, summary, book, summaries, buy, mid, history, points];
  void [priceNumber, sizeText, wrongItems, rate];
}
