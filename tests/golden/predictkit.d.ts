/* tslint:disable */
/* eslint-disable */
/*
 * Response types: what the service answers. A field is required only where the interface guarantees it
 * (its §2 says every field it lists appears in responses) AND every real recorded answer has it (recordings
 * of the upstream service, the examples of the service's OpenAPI documents); otherwise it is optional (`?`),
 * and nullable (`| null`) where any recording or OpenAPI document shows null. Where the interface does not
 * show a payload, the `required` lists of the service's own OpenAPI documents stand in for it; fields the
 * interface does not list are optional.
 */

/** "BUY" or "SELL". */
export type Side = "BUY" | "SELL";

/** A cached trade fill (GET /trades, interface §2.1). */
export interface Trade {
    /** The trader's wallet address. */
    proxyWallet: string;
    side: Side;
    /** The token: `<condition_id>:<outcome_index>` on this service, a decimal token id upstream. */
    asset: string;
    conditionId: string;
    /** Shares. */
    size: number;
    price: number;
    /** Epoch seconds. */
    timestamp: number;
    /** The fill's value in USDC. Absent from the upstream service's GET /trades. */
    usdcSize?: number;
    /** The market's title. */
    title: string;
    /** The market's slug. */
    slug: string;
    /** Image URL. */
    icon: string;
    eventSlug: string;
    outcome: string;
    outcomeIndex: number;
    /** The trader's display name; may be empty or null. */
    name: string | null;
    /** May be empty or null. */
    pseudonym: string | null;
    bio: string | null;
    /** URL; may be empty or null. */
    profileImage: string | null;
    /** URL; may be empty or null. */
    profileImageOptimized: string | null;
    transactionHash: string;
}

/**
 * A wallet's cached exit from a market (GET /closed-positions, interface §2.2). Real responses carry only
 * the PnL fields `avgPrice`, `totalBought`, `realizedPnl` and `curPrice`; the others are optional.
 */
export interface ClosedPosition {
    proxyWallet: string;
    /** The token: `<condition_id>:<outcome_index>` on this service, a decimal token id upstream. */
    asset: string;
    conditionId: string;
    size?: number;
    avgPrice: number;
    initialValue?: number;
    currentValue?: number;
    cashPnl?: number;
    totalBought: number;
    realizedPnl: number;
    percentPnl?: number;
    percentRealizedPnl?: number;
    curPrice: number;
    redeemable?: boolean;
    mergeable?: boolean;
    title: string;
    slug: string;
    icon: string;
    eventSlug: string;
    outcome: string;
    outcomeIndex: number;
    oppositeOutcome: string;
    oppositeAsset: string;
    /** Epoch seconds. */
    timestamp: number;
    /** ISO 8601 date-time. */
    endDate: string;
}


/**
 * A catalog market (GET /markets/{id}, GET /markets/slug/{slug}, interface §2.4). Dates are ISO 8601
 * strings. Real responses carry many more keys than the interface lists; the common ones are declared
 * optional, the rest are reachable through the index signature as `unknown`.
 */
export interface CatalogMarket {
    /** Numeric id, as a string. */
    id: string;
    question: string;
    conditionId: string;
    /** The paired upstream condition id. This service only; absent when the market is not a mirror. */
    mirrorConditionId?: string;
    slug: string;
    resolutionSource?: string;
    startDate?: string;
    endDate: string;
    /** Image URL. */
    image: string;
    /** Image URL. */
    icon: string;
    description: string;
    /** The outcome labels as JSON text, e.g. `'["Yes", "No"]'`: use `JSON.parse`. */
    outcomes: string;
    /** The outcome token ids as JSON text, in the order of `outcomes`: use `JSON.parse`. */
    clobTokenIds: string;
    /** The paired upstream token ids as JSON text. This service only; absent when not a mirror. */
    mirrorClobTokenIds?: string;
    active: boolean;
    closed: boolean;
    archived: boolean;
    createdAt: string;
    updatedAt: string;
    questionID?: string;
    /** The events the market belongs to. */
    events?: EventSummary[];

    /** The outcome prices as JSON text of decimal strings, in the order of `outcomes`. */
    outcomePrices?: string;
    /** Total volume, as a decimal string. */
    volume?: string;
    /** Liquidity, as a decimal string. */
    liquidity?: string;
    volumeNum?: number;
    liquidityNum?: number;
    volume24hr?: number;
    volume1wk?: number;
    volume1mo?: number;
    volume1yr?: number;
    volumeClob?: number;
    liquidityClob?: number;
    /** Date part of `endDate` (YYYY-MM-DD). */
    endDateIso?: string;
    /** Date part of `startDate` (YYYY-MM-DD). */
    startDateIso?: string;
    /** When the market closed; not always ISO 8601 (e.g. "2024-01-01 12:00:00+00"). */
    closedTime?: string;
    enableOrderBook?: boolean;
    acceptingOrders?: boolean;
    acceptingOrdersTimestamp?: string;
    /** The book's tick size. */
    orderPriceMinTickSize?: number;
    /** The book's minimum order size, in shares. */
    orderMinSize?: number;
    negRisk?: boolean;
    negRiskMarketID?: string;
    negRiskRequestID?: string;
    lastTradePrice?: number;
    bestBid?: number;
    bestAsk?: number;
    spread?: number;
    oneDayPriceChange?: number;
    oneWeekPriceChange?: number;
    oneMonthPriceChange?: number;
    rewardsMinSize?: number;
    rewardsMaxSpread?: number;
    /** Label of this market inside its event's group (e.g. a candidate's name). */
    groupItemTitle?: string;
    groupItemThreshold?: string;
    /** The AMM's address; empty for order-book markets. */
    marketMakerAddress?: string;
    /** e.g. "scalar" for ranged markets. */
    marketType?: string;
    /** Lower end of a scalar market, as a decimal string. */
    lowerBound?: string;
    /** Upper end of a scalar market, as a decimal string. */
    upperBound?: string;
    category?: string;
    /** The creator's wallet address. */
    creator?: string;
    umaResolutionStatus?: string;
    /** JSON text of an array of strings. */
    umaResolutionStatuses?: string;
    /** The fee type; null when none is set. */
    feeType?: string | null;
    feesEnabled?: boolean;
    /** The taker fee curve. The interface does not list these keys, so each is optional. */
    feeSchedule?: {
        rate?: number;
        exponent?: number;
        takerOnly?: boolean;
        rebateRate?: number;
        [key: string]: unknown;
    };
    /** Liquidity reward programmes of the market. */
    clobRewards?: CatalogMarketReward[];
    new?: boolean;
    featured?: boolean;
    restricted?: boolean;
    ready?: boolean;
    funded?: boolean;
    approved?: boolean;
    /** Sports markets: the game's id, as a string. */
    gameId?: string;
    gameStartTime?: string;
    sportsMarketType?: string;
    /** Sports markets: the handicap or total line. */
    line?: number;
    [key: string]: unknown;
}

/**
 * A liquidity reward programme in `CatalogMarket.clobRewards`. Dates are YYYY-MM-DD. The interface does not
 * list these keys, so each is optional.
 */
export interface CatalogMarketReward {
    id?: string;
    conditionId?: string;
    /** The reward token's address. */
    assetAddress?: string;
    rewardsAmount?: number;
    rewardsDailyRate?: number;
    startDate?: string;
    endDate?: string;
    [key: string]: unknown;
}

/**
 * An event as embedded in a market or a series (interface §2.4). Dates are ISO 8601 strings. The service's
 * documented answer of GET /markets embeds events with only `id`, `ticker`, `slug` and `title`, so the other
 * summary fields are optional here; an `Event` (GET /events) has them all.
 */
export interface EventSummary {
    id: string;
    ticker: string;
    slug: string;
    title: string;
    description?: string;
    resolutionSource?: string;
    startDate?: string;
    /** Listed for embedded events only (interface §2.4); GET /events items may lack it. */
    creationDate?: string;
    endDate?: string;
    createdAt?: string;
    updatedAt?: string;
    /** Image URL. */
    image?: string;
    /** Image URL. */
    icon?: string;
    active?: boolean;
    closed?: boolean;
    archived?: boolean;

    /** Series the event belongs to. */
    series?: SeriesSummary[];
    seriesSlug?: string;
    new?: boolean;
    featured?: boolean;
    restricted?: boolean;
    liquidity?: number;
    volume?: number;
    openInterest?: number;
    competitive?: number;
    volume24hr?: number;
    volume1wk?: number;
    volume1mo?: number;
    volume1yr?: number;
    liquidityClob?: number;
    enableOrderBook?: boolean;
    negRisk?: boolean;
    enableNegRisk?: boolean;
    negRiskAugmented?: boolean;
    negRiskMarketID?: string;
    commentCount?: number;
    cyom?: boolean;
    showAllOutcomes?: boolean;
    showMarketImages?: boolean;
    automaticallyActive?: boolean;
    automaticallyResolved?: boolean;
    /** When the event closed. */
    closedTime?: string;
    startTime?: string;
    /** Free-form metadata (e.g. context text, a sports league, a price to beat). */
    eventMetadata?: { [key: string]: unknown };
    /** Sports events: the game's id, as a number (a market's `gameId` is a string). */
    gameId?: number;
    live?: boolean;
    ended?: boolean;
    score?: string;
    period?: string;
    [key: string]: unknown;
}

/** An event (GET /events, interface §2.5): its summary fields, all present, plus tags and markets. */
export interface Event extends EventSummary {
    description: string;
    resolutionSource: string;
    startDate: string;
    endDate: string;
    createdAt: string;
    updatedAt: string;
    /** Image URL. */
    image: string;
    /** Image URL. */
    icon: string;
    active: boolean;
    closed: boolean;
    archived: boolean;
    tags: Tag[];
    markets: EventMarket[];
}

/** A tag (GET /tags; `Event.tags`). */
export interface Tag {
    /** Numeric id, as a string. */
    id: string;
    label: string;
    slug: string;
    createdAt: string;
    updatedAt: string;
    /** Absent from some real answers (tags embedded in events). */
    requiresTranslation?: boolean;
    forceShow?: boolean;
    forceHide?: boolean;
    publishedAt?: string;
    isCarousel?: boolean;
    /** Numeric user id. */
    createdBy?: number;
    /** Numeric user id. */
    updatedBy?: number;
    [key: string]: unknown;
}

/**
 * A market inside `Event.markets`. The interface guarantees the ids below; real responses carry most
 * `CatalogMarket` fields too, so those are declared (optional) as well.
 */
export interface EventMarket extends Partial<CatalogMarket> {
    id: string;
    question: string;
    conditionId: string;
    /** The outcome token ids as JSON text: use `JSON.parse`. */
    clobTokenIds: string;
}

/**
 * A series as embedded in an event (`EventSummary.series`): the fields of a `Series` without its `events`.
 * Real answers may lack `image` and `icon` here.
 */
export interface SeriesSummary {
    id: string;
    ticker: string;
    slug: string;
    title: string;
    /** e.g. "single". */
    seriesType: string;
    /** e.g. "daily", "weekly". */
    recurrence: string;
    /** Image URL. */
    image?: string;
    /** Image URL. */
    icon?: string;
    active: boolean;
    closed: boolean;
    archived: boolean;
    createdAt: string;
    updatedAt: string;
    featured?: boolean;
    restricted?: boolean;
    volume?: number;
    volume24hr?: number;
    liquidity?: number;
    commentCount?: number;
    requiresTranslation?: boolean;
    [key: string]: unknown;
}

/** A series of recurring events (GET /series, interface §2.6). */
export interface Series extends SeriesSummary {
    /** Image URL. */
    image: string;
    /** Image URL. */
    icon: string;
    /** The series' events. */
    events?: EventSummary[];
}

/** A wallet that created synced events (GET /events/creators, interface §2.7). */
export interface EventCreator {
    id: string;
    creatorName?: string;
    creatorHandle?: string;
    /** URL. */
    creatorUrl?: string;
    /** Image URL. */
    creatorImage?: string;
    createdAt?: string;
    updatedAt?: string;
    [key: string]: unknown;
}

/** The answer of GET /public-search (interface §2.8). */
export interface SearchResult {
    events: SearchEvent[];
    /** Absent when tags were not searched or none matched. */
    tags?: SearchTag[];
    pagination: SearchPagination;
}

/**
 * An event found by search. The interface guarantees the four ids; real responses carry whole events
 * (with their markets), so the other `Event` fields are declared optional.
 */
export interface SearchEvent extends Partial<Event> {
    id: string;
    ticker: string;
    slug: string;
    title: string;
}

/** A tag found by search. */
export interface SearchTag {
    id: string;
    label: string;
    slug: string;
    /** Events carrying the tag. */
    event_count: number;
}

/** Paging of a search. */
export interface SearchPagination {
    /** True when the next `page` has results. */
    hasMore: boolean;
    totalResults: number;
}

/** A comment (GET /comments, GET /comments/{id}, interface §2.3). */
export interface Comment {
    id: string;
    body: string;
    /** "Event", "Series" or "market". */
    parentEntityType: string;
    /** The numeric id of the event, series or market. */
    parentEntityID: number | null;
    /** The comment this one replies to; absent, null or empty for a top-level comment. */
    parentCommentID?: string | null;
    userAddress: string;
    /** The address replied to; absent from some real answers. */
    replyAddress?: string;
    createdAt: string;
    updatedAt: string;
    /** The author's profile; absent from some real answers. */
    profile?: CommentProfile;
    /** Absent from some real answers, even when `reactionCount` is not 0. */
    reactions?: CommentReaction[];
    reportCount: number;
    reactionCount: number;
    /** This service only. */
    replyCount?: number;
    /** This service only. */
    replies?: Comment[];
    [key: string]: unknown;
}

/** The author of a comment. */
export interface CommentProfile {
    name?: string;
    pseudonym?: string;
    displayUsernamePublic?: boolean;
    bio?: string;
    isMod?: boolean;
    isCreator?: boolean;
    proxyWallet?: string;
    baseAddress?: string;
    /** Image URL. */
    profileImage?: string;
    /** Resized copies of the profile image (shape not documented). */
    profileImageOptimized?: { [key: string]: unknown };
    /** The author's positions in the commented markets (with `holders_only` or upstream's get_positions). */
    positions?: CommentPosition[];
    [key: string]: unknown;
}

/** A position shown beside a comment. */
export interface CommentPosition {
    tokenId: string;
    /** In the token's base units (6 decimals), as a decimal string. */
    positionSize: string;
}

/** A reaction to a comment (the interface leaves the shape open; these are the keys real responses carry). */
export interface CommentReaction {
    id?: string;
    commentID?: number;
    /** e.g. "HEART". */
    reactionType?: string;
    userAddress?: string;
    profile?: CommentProfile;
    [key: string]: unknown;
}


/**
 * A sampling market (items of GET /sampling-markets, interface §2.9): a CLOB market without
 * `status`, `market_id`, `slug`, `assets_ids`, `outcomes`, `event` and `raw_metadata`.
 */
export interface SamplingMarket {
    enable_order_book: boolean;
    active: boolean;
    closed: boolean;
    archived: boolean;
    accepting_orders: boolean;
    /** ISO 8601; null until the market first accepted orders. */
    accepting_order_timestamp: string | null;
    /** In shares; 0 on some old markets. */
    minimum_order_size: number;
    minimum_tick_size: number;
    condition_id: string;
    /** The creating wallet (lower case). This service only. */
    creator?: string | null;
    /** The paired upstream condition id. This service only; absent when not a mirror. */
    mirror_condition_id?: string;
    question_id: string;
    question: string;
    description: string;
    market_slug: string;
    /** ISO 8601. */
    end_date_iso: string | null;
    /** ISO 8601 (sometimes with fractional seconds), or null. */
    game_start_time: string | null;
    /** Seconds a marketable order is delayed (sports markets). */
    seconds_delay: number;
    /** The AMM's address; empty for order-book markets. */
    fpmm: string;
    maker_base_fee: number;
    taker_base_fee: number;
    notifications_enabled: boolean;
    neg_risk: boolean;
    neg_risk_market_id: string;
    neg_risk_request_id: string;
    /** Image URL; may be empty. */
    icon: string;
    /** Image URL; may be empty. */
    image: string;
    rewards: Rewards;
    is_50_50_outcome: boolean;
    tokens: Token[];
    /** Tag labels; null on some markets. */
    tags: string[] | null;
}

/** A CLOB market (items of GET /markets, interface §2.9). The fields beyond `SamplingMarket` are this service's only. */
export interface ClobMarket extends SamplingMarket {
    status?: string;
    market_id?: number | null;
    slug?: string;
    /** The outcome token ids. */
    assets_ids?: string[];
    /** The outcome labels. */
    outcomes?: string[];
    event?: ClobMarketEvent;
    raw_metadata?: { [key: string]: unknown } | null;
}

/** The event of a `ClobMarket`. */
export interface ClobMarketEvent {
    id: string;
    slug: string;
    title: string;
    ticker: string;
    description: string;
}

/** Liquidity rewards of a CLOB market. */
export interface Rewards {
    /** Null when the market has no reward programme. */
    rates: RewardRate[] | null;
    /** Smallest order that earns rewards, in shares. */
    min_size: number;
    /** Widest spread that earns rewards, in cents. */
    max_spread: number;
}

/** A daily reward rate. */
export interface RewardRate {
    /** The reward token's address. */
    asset_address: string;
    rewards_daily_rate: number;
}

/** An outcome token of a CLOB market. */
export interface Token {
    /** The token id, a decimal string (may be empty on old markets). */
    token_id: string;
    /** The paired upstream token id. This service only; absent when not a mirror. */
    mirror_token_id?: string;
    outcome: string;
    price: number;
    winner: boolean;
}

/**
 * A market's trading parameters in compact keys (GET /clob-markets/{condition_id}, interface §2.10).
 * Keys are omitted when false or null; the upstream service also sends keys the interface does not list.
 */
export interface ClobMarketInfo {
    /** Game start time (sports), ISO 8601, or null. */
    gst?: string | null;
    /** Rewards. */
    r: ClobMarketInfoRewards;
    /** The condition id. */
    c: string;
    /** The creating wallet (lower case). This service only. */
    creator?: string | null;
    /** The paired upstream condition id. This service only. */
    mirror_condition_id?: string;
    /** Negative risk. */
    nr?: boolean;
    /** Outcome tokens. */
    t: ClobMarketInfoToken[];
    /** Minimum tick size. */
    mts: number;
    /** Minimum order size, in shares. */
    mos: number;
    /** Fee curve. */
    fd: FeeDetails;
    /** Maker base fee, in basis points. */
    mbf: number;
    /** Taker base fee, in basis points. */
    tbf: number;
    /** RFQ (request for quote) enabled. */
    rfqe?: boolean;
    /** Taker order delay enabled. */
    itode?: boolean;
    /** Blockaid check enabled. */
    ibce?: boolean;
    /** Minimum order age, in seconds. */
    oas?: number;
    /** Accepting orders (upstream). */
    ao?: boolean;
    /** Accepting orders since, ISO 8601 (upstream). */
    aot?: string;
    /** Upstream; meaning not documented. */
    cbos?: boolean;
    /** Format version, e.g. "v1" (upstream). */
    v?: string;
    [key: string]: unknown;
}

/**
 * The rewards of a `ClobMarketInfo`: the interface's Rewards object, or the upstream service's compact
 * keys (`mi`, `ma`, `e`, `moas`), whose meanings are not documented.
 */
export interface ClobMarketInfoRewards {
    rates?: RewardRate[] | null;
    min_size?: number;
    max_spread?: number;
    /** Upstream; by its values the minimum size that earns rewards. */
    mi?: number;
    /** Upstream; by its values the maximum spread that earns rewards. */
    ma?: number;
    /** Upstream; not documented. */
    e?: boolean;
    /** Upstream; not documented. */
    moas?: number;
    [key: string]: unknown;
}

/** An outcome token of a `ClobMarketInfo`. */
export interface ClobMarketInfoToken {
    /** The token id. */
    t: string;
    /** The paired upstream token id. This service only. */
    mirror_token_id?: string;
    /** The outcome label. */
    o: string;
}

/** Fee curve parameters. The upstream service's documents allow null for each. */
export interface FeeDetails {
    /** Rate. */
    r: number | null;
    /** Exponent of the curve. */
    e: number | null;
    /** Fees apply to takers only. */
    to: boolean | null;
}

/** A token's fees (GET /fee-rate/{token_id}, interface §2.13). */
export interface FeeRate {
    /** In basis points. */
    base_fee: number;
    /** This service; the upstream service sends only `base_fee`. */
    fd?: FeeDetails;
    /** This service; the upstream service sends only `base_fee`. */
    fee_schedule?: FeeSchedule;
}

/** A fee schedule. */
export interface FeeSchedule {
    rate: number;
    exponent: number;
    takerOnly: boolean;
    rebateRate: number;
    category: string;
    version: number;
    /** "local" or "polymarket" in the service's documents. */
    source: string;
}

/** A point of a price history. */
export interface PriceHistoryPoint {
    /** Epoch seconds. */
    t: number;
    /** Price. */
    p: number;
}

/** The answer of GET /prices-history. */
export interface PricesHistory {
    history: PriceHistoryPoint[];
}

/** The answer of POST /batch-prices-history: a history per token id. */
export interface BatchPricesHistory {
    history: Record<string, PriceHistoryPoint[]>;
}

/**
 * The answer of POST /prices: best prices per token id, as decimal strings. BUY is the best ask, SELL
 * the best bid; a side may be missing (the service's documents do not require either).
 */
export type Prices = Record<string, { BUY?: string; SELL?: string }>;

/** The answer of GET /price. */
export interface PriceResult {
    /** A decimal string. */
    price: string;
}

/** The answer of GET /midpoint. */
export interface MidpointResult {
    /** A decimal string. */
    mid: string;
}

/** A price level as numbers. */
export interface PriceLevel {
    price: number;
    size: number;
}

/** A price level as the service sends it: decimal strings. */
export interface OrderSummary {
    price: string;
    size: string;
}

/** An order book as the service sends it (GET /book, POST /books, interface §2.12). Older books lack the last four fields. */
export interface OrderBookSummary {
    /** The condition id. */
    market: string;
    /** The token id. */
    asset_id: string;
    /** Epoch milliseconds, as a string. */
    timestamp: string;
    /** SHA-1 of the book, hex. */
    hash: string;
    /** Bids, in no guaranteed order. */
    bids: OrderSummary[];
    /** Asks, in no guaranteed order. */
    asks: OrderSummary[];
    min_order_size?: string;
    tick_size?: string;
    neg_risk?: boolean;
    /** A decimal string; empty when there has been no trade. */
    last_trade_price?: string;
}


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


/**
 * What a list method (`getEvents`, `getTrades`, `getMarkets`, ...) answers: `await` it for one page (the
 * service's answer, with `hasNextPage()` and `getNextPage()`), or iterate it with `for await` for every
 * item, page after page. Nothing is sent until it is awaited or iterated; awaiting it again gives the same
 * page. Each iteration starts from the given params and fetches pages as large as the route allows (or
 * `limit`), one at a time.
 *
 * @example
 * const events = await client.getEvents({ active: true, limit: 20 });
 * if (events.hasNextPage()) more = await events.getNextPage();
 * for await (const event of client.getEvents({ active: true }, { maxItems: 500 })) list.push(event);
 */
export interface PagePromise<P, Item> extends Promise<Paged<P, Item>>, AsyncIterable<Item> {}

/** One page of a list: the service's answer as it came, with the way to the next page. */
export type Paged<P, Item> = P & {
    /** Whether another page may follow (a full page of an offset list, a cursor that is not the last). */
    hasNextPage(): boolean;
    /**
     * The next page, with the same params and options (offset or cursor moved on); rejects with
     * `INVALID_PARAMS` when `hasNextPage()` is false.
     */
    getNextPage(): PagePromise<P, Item>;
};

/**
 * Options of a list method. `signal`, `timeoutMs`, `maxRetries` and `extraQuery` apply to each page's
 * request; `onPage` and `maxItems` to iteration.
 */
export interface PageOptions {
    /** When iterating: called after each page is fetched, before its items are yielded. */
    onPage?: (info: PageInfo) => void;
    /** When iterating: stop after this many items (the last page is cut short). */
    maxItems?: number;
    /** Aborting ends the call, or the iteration: the pending `next()` rejects with `ABORTED`. */
    signal?: AbortSignal;
    /** Milliseconds before the call (budget wait, attempts and backoffs together) fails with `TIMEOUT`. */
    timeoutMs?: number;
    /** How many times the call is retried when it failed in a retryable way. */
    maxRetries?: number;
    /**
     * Query parameters the interface does not list for this call, sent as given (for filters the service
     * supports beyond the interface). Names the call already takes are refused: pass those in params, where
     * they are checked. At most 20 entries; names of letters, digits and `_.-[]`, at most 64 characters;
     * values at most 1000 characters.
     */
    extraQuery?: Record<string, string | number | boolean>;
}

/** Progress of an iteration, passed to `PageOptions.onPage`. */
export interface PageInfo {
    /** 1-based number of the page just fetched. */
    page: number;
    /** Items this page contributes. */
    items: number;
    /** Items so far, this page included. */
    total: number;
    /** True when no page follows. */
    done: boolean;
    /** The cursor of the next page (cursor-paged lists, when a page follows). */
    nextCursor?: string;
}

/**
 * One page of a cursor-paged CLOB list (interface §2.9, §2.11). Pass `next_cursor` to get the next page;
 * an empty `next_cursor` (or "LTE=") means this was the last one.
 */
export interface Page<T> {
    data: T[];
    /** Base64-encoded offset of the next page. */
    next_cursor: string;
    /** The page size the service used. */
    limit: number;
    /** Items in this page. */
    count: number;
}


/** Decimal places of prices, sizes and amounts for one tick size. */
export interface RoundingConfigEntry {
    price: number;
    size: number;
    amount: number;
}

/** A fee schedule: `{ rate, exponent }` (GET /fee-rate's fee_schedule), `{ r, e }` (its fd), or the whole GET /fee-rate answer. */
export type FeeRateInput =
| { rate: number; exponent: number }
| { r: number; e: number }
| { fee_schedule?: { rate: number; exponent: number }; fd?: { r: number | null; e: number | null } };


/** One of the account's orders (GET /data/orders, GET /data/order/{id}, interface §2.11). */
export interface Order {
    /** Ids of the trades that filled the order. */
    associateTrades: string[];
    id: string;
    /** e.g. "live", "matched" (values not fixed by the interface). */
    status: string;
    /** The condition id. */
    market: string;
    /** In shares, as a decimal string. */
    originalSize: string;
    outcome: string;
    makerAddress: string;
    /** The API key owning the order, when known. */
    owner?: string | null;
    /** A decimal string; null when indeterminate. */
    price: string | null;
    side: Side;
    /** In shares, as a decimal string. */
    sizeMatched: string;
    /** The token id. */
    assetId: string;
    /** Epoch seconds as a string; "0" when the order does not expire. */
    expiration: string;
    /** Time in force: "GTC", "GTD", "FOK" or "FAK". */
    order_type: string;
    /** ISO 8601. */
    createdAt: string;
}

/** The answer of GET /data/order/{id}. */
export interface OrderResult {
    order: Order;
}

/** The answer of DELETE /order and DELETE /cancel-market-orders. */
export interface CancelResult {
    /** Ids of the canceled orders. */
    canceled: string[];
    /** Order id to the reason it was not canceled. */
    not_canceled: Record<string, string>;
}

/** GET /balance-allowance: amounts are decimal strings of base units (6 decimals). */
export interface BalanceAllowance {
    balance?: string;
    /** Each exchange's address to the allowance the account gave it. */
    allowances?: Record<string, string>;
}

/** GET /order-scoring. */
export interface OrderScoring {
    scoring?: boolean;
}

/** One of the account's trades (GET /data/trades). Sizes, prices and fees are decimal strings. */
export interface UserTrade {
    id: string;
    taker_order_id: string;
    /** The condition id. */
    market: string;
    /** The token id. */
    asset_id: string;
    /** The taker's side; the service's documents give it in lower case. */
    side: Side | "buy" | "sell";
    size: string;
    fee_rate_bps: string;
    price: string;
    /** "MATCHED", "MINED", "CONFIRMED", "RETRYING", "FAILED", ... */
    status: string;
    /** When the trade matched. */
    match_time: string;
    last_update: string;
    outcome?: string;
    /** A number or its text: the service writes both. */
    bucket_index?: number | string;
    /** The taker's API key. */
    owner: string;
    maker_address: string;
    /** Absent or null until the trade is on chain. */
    transaction_hash?: string | null;
    /** The account's side of the trade (upstream name). */
    trader_side?: "TAKER" | "MAKER";
    /** The account's side of the trade (this service's name). */
    type?: "TAKER" | "MAKER";
    maker_orders: MakerOrder[];
    /** The account's side of the trade (added by PredictKit, `Client#fills`): the top level describes the
     * taker's order, so a maker's own fills are here, on their own token, side and price. */
    fills?: Fill[];
}

/**
 * One fill of the account's in a trade (`Client#fills`): which of its orders, on which asset and outcome, its
 * side and the price and shares it traded. A maker's fill can be on the complementary token of the trade's
 * top level, at a price off the tick grid (`"0.870000260000099"`).
 */
export interface Fill {
    /** Whether the account's order took (`TAKER`) or rested and was taken (`MAKER`). */
    role: "TAKER" | "MAKER";
    orderId?: string;
    /** The token id of the account's order. */
    assetId?: string;
    outcome?: string;
    side?: Side;
    /** As the service wrote it. */
    price?: string;
    /** Shares, as the service wrote them. */
    size?: string;
}

/** A maker order filled by a `UserTrade`. */
export interface MakerOrder {
    order_id: string;
    owner: string;
    maker_address: string;
    /** Shares of this maker order consumed by the trade. */
    matched_amount: string;
    price: string;
    fee_rate_bps: string;
    asset_id: string;
    outcome: string;
    side: Side | "buy" | "sell";
}


/** Options of `new Client(options)`. Every option but `baseUrl` is optional. */
export interface ClientOptions {
    /** The service's base URL, or one per surface (catalog, CLOB, activity). */
    baseUrl: string | { catalog: string; clob: string; activity: string };
    /** The account's API credentials; needed only for the account's own orders and trades. */
    credentials?: Credentials;
    /** Unit of SERVICE_TIMESTAMP: "ms" (the interface, default) or "s" (the upstream service). */
    timestampUnit?: "ms" | "s";
    /** A fetch to use instead of the global one (tests, extensions, proxies). */
    fetch?: (input: string, init?: RequestInit) => Promise<Response>;
    /**
     * Milliseconds before a call fails with `TIMEOUT`: its budget wait, attempts and retry backoffs
     * together (default 15000). Overridable per call.
     */
    timeoutMs?: number;
    /** How many times a failed idempotent request is retried (with backoff). Overridable per call. */
    maxRetries?: number;
    /**
     * Milliseconds one attempt of an idempotent request may take before it is abandoned and retried within
     * `timeoutMs`, so that a stalled answer does not spend the whole deadline (default: a third of the call's
     * remaining time, at least 1000; the last attempt keeps the rest). Orders, key creation and cancellations
     * are never abandoned: they wait for their answer. Overridable per call.
     */
    attemptTimeoutMs?: number;
    /** Added to the local clock when signing, in milliseconds; `Client.syncClock()` measures it. */
    clockOffsetMs?: number;
    /** The longest a request may wait for rate budget before it fails with `RATE_LIMITED`, in milliseconds. */
    maxQueueMs?: number;
    /** Requests of this client in flight at once (default 64); more wait their turn in order. */
    maxConcurrency?: number;
    /** Told when a request waits for rate budget or is about to be retried, e.g. to show a notice. */
    onEvent?: (event: ClientEvent) => void;
    /**
     * Local rate budgets per scope. The defaults are the interface's §8 limits; a scope set to `false`
     * has no local budget, and `rateLimits: false` disables them all.
     */
    rateLimits?: false | Partial<Record<RateLimitScope, RateLimit | false>>;
}

/** A rate budget: at most `requests` requests per sliding window of `windowMs` milliseconds. */
export interface RateLimit {
    requests: number;
    windowMs: number;
}

/**
 * The rate-limit scopes (interface §8). A request counts against its route's scope and against its
 * surface's "all routes" scope.
 * - `catalog`: all catalog routes (4,000 / 10 s).
 * - `events`: GET /events (500 / 10 s).
 * - `markets`: GET /markets (300 / 10 s).
 * - `listings`: event and market listings combined (900 / 10 s).
 * - `tags`: GET /tags (200 / 10 s).
 * - `public-search`: GET /public-search (350 / 10 s).
 * - `clob`: all CLOB routes (5,000 / 10 s).
 * - `clob-root`: GET / (50 / 10 s).
 * - `book`: GET /book (200 / 10 s).
 * - `books`: POST /books (80 / 10 s).
 * - `price`: GET /price (200 / 10 s).
 * - `prices`: POST /prices (80 / 10 s).
 * - `midpoint`: GET /midpoint (200 / 10 s).
 * - `prices-history`: GET /prices-history (100 / 10 s).
 * - `batch-prices-history`: POST /batch-prices-history (80 / 10 s).
 * - `data-trades`: GET /data/trades (150 / 10 s).
 * - `cancel-burst`: DELETE /order, burst budget (2,400 / 10 s).
 * - `cancel-sustained`: DELETE /order, sustained budget (24,000 / 10 minutes).
 * - `order-burst`: POST /order and POST /orders, burst budget (2,400 / 10 s).
 * - `order-sustained`: POST /order and POST /orders, sustained budget (24,000 / 10 minutes).
 * - `activity`: all activity routes (GET /trades, GET /closed-positions); the interface states no limit.
 */
export type RateLimitScope =
| "catalog" | "events" | "markets" | "listings" | "tags" | "public-search"
| "clob" | "clob-root" | "book" | "books" | "price" | "prices" | "midpoint" | "prices-history"
| "batch-prices-history" | "data-trades" | "cancel-burst" | "cancel-sustained" | "order-burst"
| "order-sustained" | "activity";

/** What `onEvent` is told: a request's wait or retry, or the service's rate-limit headers. */
export type ClientEvent = ClientWaitEvent | RateLimitEvent;

/**
 * An answer to an order or cancellation carried the service's `Poly-RateLimit-*` headers: what remains in
 * its bucket (possibly negative), when the bucket resets (epoch milliseconds), the account's tier, and
 * `warning` when the request would have been refused under enforcement. When nothing remains, the request's
 * own scopes wait for the reset.
 */
export interface RateLimitEvent {
    type: "rateLimit";
    method: string;
    path: string;
    remaining?: number;
    resetMs?: number;
    tier?: string;
    warning: boolean;
}

/** A request is waiting for local rate budget (`wait`) or is about to be retried (`retry`). */
export interface ClientWaitEvent {
    type: "wait" | "retry";
    method: string;
    /** The request path, without the query string. */
    path: string;
    /** How long until it goes, in milliseconds. */
    delayMs: number;
    /** For `retry`: which retry this is (1 for the first). */
    attempt?: number;
    /** For `retry`: the error of the attempt that failed. */
    error?: PredictKitError;
}

/** Options of one call; each overrides the client's option of the same name. */
export interface RequestOptions {
    /** Aborting rejects the call with `ABORTED`. */
    signal?: AbortSignal;
    /** Milliseconds before the call (budget wait, attempts and backoffs together) fails with `TIMEOUT`. */
    timeoutMs?: number;
    /** How many times the call is retried when it failed in a retryable way. */
    maxRetries?: number;
    /** Milliseconds one attempt of an idempotent request may take before it is abandoned and retried. */
    attemptTimeoutMs?: number;
    /**
     * Query parameters the interface does not list for this call, sent as given (for filters the service
     * supports beyond the interface). Names the call already takes are refused: pass those in params, where
     * they are checked. At most 20 entries; names of letters, digits and `_.-[]`, at most 64 characters;
     * values at most 1000 characters.
     */
    extraQuery?: Record<string, string | number | boolean>;
}

/** An account's API credentials. The secret and passphrase stay inside the library. */
export interface Credentials {
    /** 0x followed by 40 hex digits, checksummed or lower case. */
    address: string;
    /** A uuid. */
    apiKey: string;
    /** Base64, standard or url-safe alphabet, padded or not. */
    secret: string;
    /** 64 hex digits. */
    passphrase: string;
}

/** What `createL2Headers` signs. */
export interface L2HeaderArgs {
    /** The HTTP method, e.g. "DELETE". */
    method: string;
    /** The path without its query string. */
    requestPath: string;
    /** Exactly the body that is sent, when there is one. */
    body?: string;
}

/** The five SERVICE_* headers of an authenticated request (interface §5). */
export interface L2Headers {
    /** The account's wallet address. */
    SERVICE_ADDRESS: string;
    SERVICE_API_KEY: string;
    SERVICE_PASSPHRASE: string;
    /** Epoch time as a decimal string, in the client's `timestampUnit`. */
    SERVICE_TIMESTAMP: string;
    /** Base64url HMAC-SHA256 of timestamp, method, path and body. */
    SERVICE_SIGNATURE: string;
}

/**
 * The stable codes of `PredictKitError.code`. `FREED`: a method was called on a `Client` or `OrderBook`
 * after `free()`. `SIGNER`: the signer (wallet) refused or failed to sign, or answered no signature.
 * `ENGINE_RESTARTING`: a 425, the service's matching engine is restarting (about 90 s); nothing was
 * applied, and the call was retried within `maxRetries`, a second apart at least. `TRADING_PAUSED`: a 503
 * saying trading is paused, with its `mode` ("cancel-only": new orders refused, cancellations accepted;
 * "post-only": only post-only orders and cancellations accepted).
 */
export type PredictKitErrorCode =
| "INVALID_PARAMS" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "RATE_LIMITED" | "SERVER"
| "API" | "NETWORK" | "TIMEOUT" | "ABORTED" | "DECODE" | "NO_MATCH" | "FREED" | "SIGNER"
| "ENGINE_RESTARTING" | "TRADING_PAUSED";

/** Every error the library throws: a real `Error` with `name` "PredictKitError". */
export interface PredictKitError extends Error {
    name: "PredictKitError";
    code: PredictKitErrorCode;
    /** The parameter at fault, for INVALID_PARAMS. */
    param?: string;
    /** The HTTP status, when the service answered. */
    status?: number;
    /** The HTTP method of the failed request. */
    method?: string;
    /** The request path, without the query string. */
    path?: string;
    /** How long the service asked to wait: its Retry-After (seconds or an HTTP date), else the body's
     * `retry_after_seconds`. */
    retryAfterMs?: number;
    /** For TRADING_PAUSED: what the service still accepts. */
    mode?: "cancel-only" | "post-only";
    /**
     * When the service refused an order because of how the account is set up: what is wrong, and the one fix
     * to make. `DEPOSIT_WALLET_REQUIRED` (the account trades through a deposit wallet: POLY_1271),
     * `KEY_NOT_FOR_SIGNER` (the API key is another address's), `WRONG_SIGNATURE_TYPE` (the funder is not a
     * wallet of that type owned by the signer), `NO_DEPOSIT_WALLET` (POLY_1271, and the service knows no
     * deposit wallet of the signer), `OWNER_NOT_KEY` (the order names another API key). `diagnoseAccount`
     * finds these before an order is sent.
     */
    finding?: {
        code: "DEPOSIT_WALLET_REQUIRED" | "KEY_NOT_FOR_SIGNER" | "WRONG_SIGNATURE_TYPE" | "NO_DEPOSIT_WALLET" | "OWNER_NOT_KEY";
        fix: string;
    };
    /** The service's error text, or a short excerpt of an unexpected body. */
    body?: string;
    /** The original error (a fetch failure, an abort reason, ...). */
    cause?: unknown;
}

/** True for errors thrown by PredictKit. */
export function isPredictKitError(error: unknown): error is PredictKitError;


/** Params of GET /trades (interface §4.1). */
export interface TradesParams {
    /** 0..10000, default 100. */
    limit?: number;
    /** 0..10000, default 0. */
    offset?: number;
    /** Only taker fills; default true. */
    takerOnly?: boolean;
    /** Filter fills by size: in USDC ("CASH") or shares ("TOKENS"). Give `filterAmount` with it. */
    filterType?: "CASH" | "TOKENS";
    /** The threshold of `filterType`, >= 0. */
    filterAmount?: number;
    /** Condition ids: an array or a comma-separated string. */
    market?: string[] | string;
    /** A wallet address. */
    user?: string;
    side?: Side;
}

/** Params of GET /closed-positions (interface §4.2). */
export interface ClosedPositionsParams {
    /** The wallet address. */
    user: string;
    /** Condition ids: an array or a comma-separated string. */
    market?: string[] | string;
    /** Substring of the market title, at most 100 characters. */
    title?: string;
    /** 0..50, default 10. */
    limit?: number;
    /** 0..100000, default 0. */
    offset?: number;
    /** Default "REALIZEDPNL". */
    sortBy?: "REALIZEDPNL" | "TITLE" | "PRICE" | "AVGPRICE" | "TIMESTAMP";
    /** Default "DESC". */
    sortDirection?: "DESC" | "ASC";
}

/** Params of GET /comments (interface §4.3). */
export interface CommentsParams {
    /** 1..100, default 20. */
    limit?: number;
    /** >= 0, default 0. */
    offset?: number;
    /** The sort column. */
    order?: string;
    parent_entity_type?: "Event" | "Series" | "market";
    /** The parent's id, as a string. */
    parent_entity_id?: string;
    /** Comments of the event with this slug. */
    event_slug?: string;
    /** Only comments from holders. */
    holders_only?: boolean;
}

/** Offset paging (GET /comments/{id}, GET /tags). */
export interface PageParams {
    /** 1..100, default 20. */
    limit?: number;
    /** >= 0, default 0. */
    offset?: number;
}

/** The creator filter (GET /markets/{id}, GET /markets/slug/{slug}). */
export interface CreatorParams {
    /** A creator wallet address or a site identifier. */
    creator?: string;
}

/** Params of GET /series (interface §4.7). */
export interface SeriesParams extends PageParams, CreatorParams {}

/** Params of GET /events (interface §4.8). */
export interface EventsParams {
    /** 1..100, default 20. */
    limit?: number;
    /** >= 0, default 0. */
    offset?: number;
    active?: boolean;
    closed?: boolean;
    archived?: boolean;
    /** A tag slug (alias of `tag_slug`). */
    tag?: string;
    /** A numeric tag id. */
    tag_id?: number;
    tag_slug?: string;
    series_slug?: string;
    /** An event slug. */
    slug?: string;
    /** The sort column. */
    order?: string;
    /** Default false. */
    ascending?: boolean;
    /** A creator wallet address or a site identifier. */
    creator?: string;
}

/** Params of GET /events/creators (interface §4.9). */
export interface EventCreatorsParams {
    /** 1..100, default 20. */
    limit?: number;
    /** >= 0, default 0. */
    offset?: number;
    /** The sort column. */
    order?: string;
    /** Default false. */
    ascending?: boolean;
    creator_name?: string;
    creator_handle?: string;
}

/** Params of GET /public-search (interface §4.10). */
export interface PublicSearchParams {
    /** The search term. */
    q: string;
    /** 1..500, default 25. */
    limit_per_type?: number;
    /** 1-based, default 1. */
    page?: number;
    /** Default true. */
    search_tags?: boolean;
    /** Accepted for compatibility; profiles are never returned. */
    search_profiles?: boolean;
    /** A creator wallet address or a site identifier. */
    creator?: string;
}

/** One token of POST /books and POST /prices. */
export interface BookParams {
    /** The token id, a decimal string. */
    token_id: string;
}

/** The window of a price history. */
export type PriceHistoryInterval = "max" | "1w" | "1d" | "6h" | "1h";

/** Params of GET /prices-history. Give `interval`, or `startTs` (and optionally `endTs`). */
export interface PricesHistoryParams {
    /** The token id, a decimal string. */
    market: string;
    /** Epoch seconds. */
    startTs?: number;
    /** Epoch seconds. */
    endTs?: number;
    interval?: PriceHistoryInterval;
    /** Bucket size in minutes, >= 1. */
    fidelity?: number;
}

/** The body of POST /batch-prices-history (interface §4.18). */
export interface BatchPricesHistoryParams {
    /** 1 to 20 token ids. */
    markets: string[];
    /** Epoch seconds. */
    start_ts?: number;
    /** Epoch seconds. */
    end_ts?: number;
    interval?: PriceHistoryInterval;
    /** Bucket size in minutes, >= 1. */
    fidelity?: number;
}

/** Params of GET /data/orders (interface §4.19). */
export interface OpenOrdersParams {
    /** An order id. */
    id?: string;
    /** A market or condition id. */
    market?: string;
    /** A token id. */
    asset_id?: string;
    /** The page to read; "MA==" (the default) is the first. */
    next_cursor?: string;
}

/** The body of DELETE /cancel-market-orders (interface §4.22). Give `market`, `asset_id` or both. */
export interface CancelMarketOrdersParams {
    /** A condition id. */
    market?: string;
    /** A token id. */
    asset_id?: string;
}

/** Params of GET /balance-allowance and GET /balance-allowance/update. */
export interface BalanceAllowanceParams {
    asset_type: "COLLATERAL" | "CONDITIONAL" | "CONDITIONAL-V2";
    /** The outcome token: required for a conditional asset_type, refused for the collateral. */
    token_id?: string;
    /** 0 EOA, 1 POLY_PROXY, 2 POLY_GNOSIS_SAFE, 3 POLY_1271; the client's `signatureType` when absent. */
    signature_type?: 0 | 1 | 2 | 3;
}

/** Params of GET /data/trades. */
export interface UserTradesParams {
    /** A trade id. */
    id?: string;
    /** A condition id. */
    market?: string;
    /** A token id. */
    asset_id?: string;
    /** A maker wallet address. */
    maker_address?: string;
    /** Trades strictly before this time: epoch seconds. */
    before?: number;
    /** Trades strictly after this time: epoch seconds. */
    after?: number;
    /** The page to read; "MA==" (the default) is the first. */
    next_cursor?: string;
}


/** The side of an order: a buy takes the asks, a sell takes the bids. */
export type OrderSide = "BUY" | "SELL";

/** How a market order treats a book too thin to fill it: FOK fails with NO_MATCH, the others take what there is. */
export type MarketOrderType = "FOK" | "FAK" | "GTC" | "GTD";

/** What a simulated market order wants: shares, or cash to spend (buy) or receive (sell). */
export type SimulateTarget = { size: number } | { notional: number };

/** What a market order would get from the book, best level first. */
export interface SimulateResult {
    /** Shares filled. */
    filled: number;
    /** Cash exchanged. */
    notional: number;
    /** notional / filled; NaN when nothing was filled. */
    avgPrice: number;
    /** The price of the last level taken from; NaN when nothing was filled. */
    worstPrice: number;
    /** Distinct price levels taken from. */
    levelsUsed: number;
    /** What the book could not fill, in the target's unit (shares or cash). */
    remaining: number;
    /** avgPrice against the midpoint, positive when the order does worse than it; NaN without a midpoint. */
    slippage: number;
}

/** Size, cash and distinct levels within a price band from the best price. */
export interface BookDepth {
    size: number;
    notional: number;
    levels: number;
}

/** Cumulative depth by distinct price, best first: `bidDepth[i]` is the total size from the best bid down to `bidPrices[i]`. */
export interface BookLadder {
    bidPrices: Float64Array;
    bidDepth: Float64Array;
    askPrices: Float64Array;
    askDepth: Float64Array;
}

/** A price change as the service's market channel sends it: the new total size at one price ("0" removes it). */
export interface PriceChange {
    /** "BUY" changes a bid level, "SELL" an ask level. */
    side: OrderSide;
    price: string | number;
    size: string | number;
}


/** The status of a stream, for a UI: `stalled` means PONGs come but market messages do not. */
export type StreamStatus = "connecting" | "open" | "stalled" | "reconnecting" | "closed";

/** Why a live book is being resynchronised from a fresh snapshot. */
export type ResyncReason = "hash_mismatch" | "book_mismatch" | "gap" | "overflow";

/** Options of `marketStream` and `userStream`. */
export interface StreamOptions {
    /** The streaming base URL (`wss://…`); default: the client's CLOB base URL with `ws:`/`wss:`. */
    wsBaseUrl?: string;
    /** A WebSocket constructor (default: the global one; Node 20 needs one passed, or `--experimental-websocket`). */
    WebSocket?: unknown;
    /** Called with every event, as `for await` gets them. A listener that throws does not stop the stream. */
    onEvent?: (event: StreamEvent) => void;
    /** Aborting closes the stream. */
    signal?: AbortSignal;
    /** Milliseconds without a channel message (PONGs still coming) before the subscription is renewed; default 60,000; `Infinity` turns it off. */
    stallAfterMs?: number;
    /** Milliseconds between PINGs (default 10,000, as the service expects). */
    pingEveryMs?: number;
    /** Milliseconds a PONG may take before the connection counts as dead (default 10,000). */
    pongWithinMs?: number;
}

/** Options of `marketStream`. */
export interface MarketStreamOptions extends StreamOptions {
    /** When live books are checked against the service's hash: after every entry, after each asset's last entry in a frame (default), or never. */
    verify?: "entry" | "frame" | "off";
}

/** A level of a `book` event. */
export interface StreamLevel { price: string; size: string; }

/** The market channel's events, as the service sends them. */
export interface BookEvent { event_type: "book"; market: string; asset_id: string; timestamp: string; hash: string; bids: StreamLevel[]; asks: StreamLevel[]; tick_size?: string; last_trade_price?: string; }
export interface PriceChangeEntry { asset_id: string; price: string; size: string; side: OrderSide; hash: string; best_bid: string; best_ask: string; }
export interface PriceChangeEvent { event_type: "price_change"; market: string; timestamp: string; price_changes: PriceChangeEntry[]; }
export interface TickSizeChangeEvent { event_type: "tick_size_change"; asset_id: string; market: string; old_tick_size: string; new_tick_size: string; timestamp?: string; }
export interface LastTradePriceEvent { event_type: "last_trade_price"; asset_id: string; market: string; price: string; side: OrderSide; size: string; fee_rate_bps?: string; timestamp: string; transaction_hash?: string; }
export interface BestBidAskEvent { event_type: "best_bid_ask"; asset_id: string; market: string; best_bid: string; best_ask: string; spread?: string; timestamp: string; }
/** A market created (`custom_feature_enabled`). The service sends it on every connection, more than once: a
 * stream tells it once per market. */
export interface NewMarketEvent { event_type: "new_market"; id?: string; market?: string; assets_ids?: string[]; [field: string]: unknown; }
/** A market resolved (`custom_feature_enabled`): told once per market, and its books' status becomes
 * `resolved`. */
export interface MarketResolvedEvent { event_type: "market_resolved"; id?: string; market?: string; assets_ids?: string[]; winning_asset_id?: string; [field: string]: unknown; }

/** The user channel's events. */
/**
 * An order of the account's. The service writes empty strings where it has no number or date (a killed
 * fill-or-kill order: `size_matched: ""`, `created_at: ""`), and a cancellation's `status` may carry its reason
 * after the status (`"CANCELED_order couldn't be fully filled. FOK orders are fully filled or killed."`).
 */
export interface OrderEvent { event_type: "order"; id: string; owner?: string; market: string; asset_id: string; side: OrderSide; price: string; original_size?: string; size_matched?: string; outcome?: string; type: "PLACEMENT" | "UPDATE" | "CANCELLATION"; status?: string; timestamp?: string; created_at?: string; expiration?: string; order_type?: string; associate_trades?: string[] | null; }
/**
 * A trade the account took part in. Its top level describes the *taker's* order; when the account was a maker,
 * its own fills are its `maker_orders` entries, which `fills` gives (their token, side and price as the account
 * sees them).
 */
export interface TradeEvent { event_type: "trade"; id: string; taker_order_id?: string; market: string; asset_id: string; side: OrderSide; size: string; price: string; status: "MATCHED" | "MINED" | "CONFIRMED" | "RETRYING" | "FAILED"; outcome?: string; maker_orders?: MakerOrder[]; owner?: string; trade_owner?: string; bucket_index?: number | string; transaction_hash?: string | null; matchtime?: string; last_update?: string; timestamp?: string; type?: string; fills: Fill[]; }

/** Events of the library itself. */
export interface StatusEvent { event_type: "status"; status: StreamStatus; }
export interface BookUpdateEvent { event_type: "book_update"; asset_id: string; verified: boolean; }
export interface ResyncEvent { event_type: "resync"; asset_id: string; reason: ResyncReason; }
export interface StreamErrorEvent { event_type: "error"; error: PredictKitError; }

export type MarketStreamEvent = BookEvent | PriceChangeEvent | TickSizeChangeEvent | LastTradePriceEvent | BestBidAskEvent | NewMarketEvent | MarketResolvedEvent | StatusEvent | BookUpdateEvent | ResyncEvent | StreamErrorEvent;
export type UserStreamEvent = OrderEvent | TradeEvent | StatusEvent | StreamErrorEvent;
export type StreamEvent = MarketStreamEvent | UserStreamEvent;

/** Whether a live book is current. */
export interface LiveBookStatus {
    /** `resolved`: its market resolved (`market_resolved`): the book is closed and nothing more is asked of it.
     * `none`: the service has no book for the asset (a closed or unknown token: its GET /book answered 404);
     * it is asked for again after 5 s, doubling to 5 minutes, never at every frame. */
    state: "waiting" | "live" | "resyncing" | "none" | "resolved";
    /** The last check against the service's hash matched. Checks are computed by the platform's SHA-1
     * (crypto.subtle, off the main thread) where there is one, so a check's answer comes a moment after its
     * change; `settled()` waits for them. Without crypto.subtle (an insecure context) they are computed at once. */
    verified: boolean;
    /** When (`Date.now()`) it last matched; undefined before that. */
    verifiedAt?: number;
    /** Checks that matched the service's hash. */
    checks: number;
    /** Hashes nothing explained: each resynchronised the book. */
    mismatches: number;
    /** Mismatches held as provisional while their same-timestamp burst lasted (the service may hash a burst's
     * final state in each of its frames); each was then explained, or resynchronised the book. */
    deferred: number;
    /** Hashes explained by a trade that no `last_trade_price` event had announced yet: the book took its price. */
    inferred: number;
    /** Snapshots (GET /book) refused because they were older than events already seen; each was asked for
     * again after a backoff, and the book stayed `resyncing`. */
    staleSnapshots: number;
    /** Snapshots the service answered 404 to (it has no book for the asset). */
    missing: number;
}

/** A live stream of one channel: iterate it (`for await`; `break` closes it) or pass `onEvent`. */
export interface Stream<E> extends AsyncIterable<E> {
    readonly status: StreamStatus;
    /** Events dropped because a `for await` fell more than 10,000 events behind. */
    readonly dropped: number;
    /** Follows more assets (market) or markets (user) on the live socket: at most 500 ids a call, and 5,000 in
     * all a stream (beyond, `INVALID_PARAMS` is thrown and nothing is sent). */
    subscribe(ids: string[]): void;
    unsubscribe(ids: string[]): void;
    /** Closes the socket and ends iteration. */
    close(): void;
}

export interface MarketStream extends Stream<MarketStreamEvent> {
    /** A copy of the live book of an asset (free it when done), or undefined before it has one. */
    book(assetId: string): OrderBook | undefined;
    bookStatus(assetId: string): LiveBookStatus | undefined;
    /** Resolves when every hash check under way has come back (at once when none is). */
    settled(): Promise<void>;
}

export interface UserStream extends Stream<UserStreamEvent> {}


/** The trading options of `new Client(options)` (all optional). */
export interface ClientOptions {
    /** The chain orders and API keys are signed for: 137 (Polygon, default) or 80002 (Amoy). */
    chainId?: number;
    /**
     * Who signs for the maker: "EOA" (default: the signer's own wallet), "POLY_PROXY" /
     * "POLY_GNOSIS_SAFE", whose owner signs for the wallet named by `funder`, or "POLY_1271", a deposit
     * wallet (`funder`) that is the order's maker and signer and checks its owner's signature itself (the
     * owner signs an ERC-7739 TypedDataSign; the order's signature is wrapped). API keys are always the
     * owner's: the signer's own address signs for them.
     */
    signatureType?: SignatureType;
    /** The proxy, Safe or deposit wallet that holds the funds; required unless signatureType is EOA. */
    funder?: string;
    /** The exchange contracts, for a chain without published ones (they are known for 137 and 80002). */
    exchanges?: { exchange: string; negRiskExchange: string };
    /**
     * How long a signer may take to answer, in milliseconds (default 300000: a person approves in a
     * wallet); past it the call fails with `TIMEOUT`. The call's `signal` also stops the wait.
     */
    signTimeoutMs?: number;
}

/** Who signs for an order's maker (0, 1, 2, 3 as the exchange numbers them). */
export type SignatureType = "EOA" | "POLY_PROXY" | "POLY_GNOSIS_SAFE" | "POLY_1271" | 0 | 1 | 2 | 3;

/** How long an order lives: good till cancelled or a date, fill or kill, fill and kill. */
export type OrderType = "GTC" | "GTD" | "FOK" | "FAK";

/**
 * A wallet that signs EIP-712 typed data. PredictKit never holds a private key: it hands the signer an
 * `eth_signTypedData_v4` document (`EIP712Domain` included) and takes back a 65-byte signature.
 * `walletSigner`, `viemSigner` and `ethersSigner` make one from common wallets.
 */
export interface Signer {
    address: string;
    signTypedData(typedData: TypedData): Promise<string> | string;
}

/** An `eth_signTypedData_v4` document. Integers are decimal strings, the domain's chainId a number. */
export interface TypedData {
    types: Record<string, { name: string; type: string }[]>;
    domain: { name: string; version: string; chainId: number; verifyingContract?: string };
    primaryType: string;
    message: Record<string, string>;
}

/** The API key now held by the client (its secret and passphrase stay inside the library). */
export interface ApiKeyInfo {
    address: string;
    apiKey: string;
}

/** A limit order: `size` shares at `price`. Decimals as numbers (`0.56`) or text (`"0.56"`). */
export interface OrderParams {
    tokenId: string;
    side: "BUY" | "SELL";
    price: number | string;
    /**
     * Shares, at most 2 decimals, at least the market's minimum order size. A FOK or FAK order's cash
     * (size × price) must also have at most 2 decimals for a buy, 4 for a sell: a size that cannot is
     * refused, and the error names the nearest sizes that can.
     */
    size: number | string;
    /** Default "GTC". */
    orderType?: OrderType;
    /** GTD only: seconds since the epoch, at least a minute ahead. */
    expiration?: number;
    /** Rest on the book or be refused; GTC and GTD only. */
    postOnly?: boolean;
    /** The token's market; found from the book when absent (one more request, once per token). */
    conditionId?: string;
}

/**
 * A market order (FOK or FAK): a buy spends `amount` cash, a sell gives `amount` shares (at most 2
 * decimals). What it asks for at the worst price (a buy's shares, a sell's cash) is cut to 4 decimals.
 */
export interface MarketOrderParams {
    tokenId: string;
    side: "BUY" | "SELL";
    amount: number | string;
    /** The worst price to accept; the price the book reaches for `amount` when absent. */
    price?: number | string;
    /** "FOK" (default) or "FAK". */
    orderType?: "FOK" | "FAK";
    conditionId?: string;
}

/** An order built and not signed: what the wallet will be asked to sign, and what it means. */
export interface OrderDraft {
    /** 3: a position of the newer system, for the third exchange (the V2 order under its own domain). */
    version: 1 | 2 | 3;
    chainId: number;
    /** The exchange contract that verifies it (the neg-risk exchange for neg-risk markets). */
    exchange: string;
    tokenId: string;
    side: "BUY" | "SELL";
    orderType: OrderType;
    postOnly: boolean;
    /** Seconds; "0" for none. */
    expiration: string;
    /** What the maker gives and gets, in 10^-6 units (cash for a buy's maker amount, shares for a sell's). */
    makerAmount: string;
    takerAmount: string;
    feeRateBps: string;
    /** The amounts as decimals: shares and cash, and the price they make. */
    shares: string;
    cash: string;
    price: number;
    tickSize: string;
    negRisk: boolean;
    /** The fee a taker pays at this price, in cash, when the market charges one. */
    fee?: number;
}

/** A signed order, as `signOrder` returns it and `postOrder` takes it. */
export interface SignedOrder {
    version: 1 | 2 | 3;
    salt: string;
    maker: string;
    signer: string;
    tokenId: string;
    makerAmount: string;
    takerAmount: string;
    side: "BUY" | "SELL";
    expiration: string;
    signatureType: 0 | 1 | 2 | 3;
    signature: string;
    orderType: OrderType;
    postOnly: boolean;
    /** V1 only. */
    taker?: string;
    nonce?: string;
    feeRateBps?: string;
    /** V2 only: milliseconds, and two 32-byte words. */
    timestamp?: string;
    metadata?: string;
    builder?: string;
}

/** The service's answer to a placed order. */
export interface OrderResult {
    success: boolean;
    errorMsg: string;
    orderID: string;
    status: "live" | "matched" | "unmatched" | "delayed" | "pending_settlement" | "error" | string;
    takingAmount: string;
    makingAmount: string;
    orderHash?: string | null;
    /** The trades this order took when placed (a resting order's later fills are new trades, not listed). */
    tradeIDs?: string[];
    /** Their transactions' hashes, best effort: often empty until they are mined (follow the trades instead). */
    transactionsHashes?: string[];
}

/** `postOrder`'s options: the call's, and `postOnly` over the signed order's. */
export interface PostOrderOptions extends RequestOptions {
    postOnly?: boolean;
}

/**
 * The trading methods of `Client` (the full build: `predictkit`, not `predictkit/lite`). `pkg/trade.mjs`
 * installs them over the binding's synchronous steps; the wallet is asked only through the `Signer`.
 */
export interface Client {
    /** GET /version: the exchange's order version (1, 2 or 3), which decides how orders are built and signed. */
    getVersion(options?: RequestOptions): Promise<1 | 2 | 3>;
    /**
     * Creates the API key of the signer's wallet (and `nonce`, default 0) and keeps it as this client's
     * credentials: the wallet signs a `ClobAuth` message, nothing else. Resolves to `{ address, apiKey }`;
     * the secret and passphrase stay inside the library.
     *
     * @example
     * await client.createOrDeriveApiKey(walletSigner(window.ethereum, account));
     */
    createApiKey(signer: Signer, nonce?: number | string, options?: RequestOptions): Promise<ApiKeyInfo>;
    /** Derives the signer's existing API key (GET /auth/derive-api-key) and keeps it as this client's credentials. */
    deriveApiKey(signer: Signer, nonce?: number | string, options?: RequestOptions): Promise<ApiKeyInfo>;
    /** Derives the signer's API key, or creates it when there is none yet (two signatures at most). */
    createOrDeriveApiKey(signer: Signer, nonce?: number | string, options?: RequestOptions): Promise<ApiKeyInfo>;
    /**
     * Builds a limit order with exact amounts from the market's tick size (GET /clob-markets, learnt
     * once per market) and refuses what the service would refuse: a price off the tick or outside
     * [tick, 1 − tick], more than 2 decimals of size, a size under the minimum, `postOnly` with FOK/FAK,
     * an expiration on anything but GTD, a FOK or FAK whose cash (size × price) has more than 2 decimals
     * (a buy) or 4 (a sell), which the service takes for those types at any tick size (the error names the
     * nearest sizes that fit). Resolves to a draft to show the user (amounts, price, fee) and then sign.
     *
     * @example
     * const draft = await client.buildOrder({ tokenId, side: "BUY", price: 0.56, size: 20 });
     * const signed = await client.signOrder(draft, signer);
     * const result = await client.postOrder(signed);
     */
    buildOrder(params: OrderParams, options?: RequestOptions): Promise<OrderDraft>;
    /**
     * Builds a market order (FOK or FAK): a buy spends `amount` cash, a sell gives `amount` shares, at
     * `price` or else at the price the book reaches for that amount (FOK refuses a book too thin with
     * `NO_MATCH`). What it asks for in return (a buy's shares, a sell's cash) is the exact amount at that
     * price cut, never rounded up, to 4 decimals, as the service takes FOK and FAK orders at any tick size.
     */
    buildMarketOrder(params: MarketOrderParams, options?: RequestOptions): Promise<OrderDraft>;
    /**
     * Has the signer sign a draft (EIP-712, the exchange's domain): the maker is the signer, or the
     * client's `funder` for POLY_PROXY, POLY_GNOSIS_SAFE and POLY_1271 (for which the signer is asked for an
     * ERC-7739 TypedDataSign and the signature is wrapped as the exchange takes it).
     */
    signOrder(draft: OrderDraft, signer: Signer, options?: RequestOptions): Promise<SignedOrder>;
    /**
     * POST /order: places a signed order (`orderType` and `postOnly` as signed unless given here).
     * Needs credentials. Resolves to the service's answer `{ success, errorMsg, orderID, status,
     * takingAmount, makingAmount }`; a refusal rejects with `API` and the service's reason as `body`.
     */
    postOrder(order: SignedOrder, orderType?: OrderType, options?: PostOrderOptions): Promise<OrderResult>;
    /** POST /orders: places 1 to 15 signed orders at once. Resolves to one answer per order, in order. */
    postOrders(orders: SignedOrder[], options?: RequestOptions): Promise<OrderResult[]>;
    /**
     * Builds, signs and places a limit order. When the service answers that the order's version is not
     * the exchange's, the version is read again and the order rebuilt and signed once more.
     */
    placeOrder(params: OrderParams, signer: Signer, options?: RequestOptions): Promise<OrderResult>;
    /** Builds, signs and places a market order (FOK unless `orderType: "FAK"`). */
    placeMarketOrder(params: MarketOrderParams, signer: Signer, options?: RequestOptions): Promise<OrderResult>;
    /**
     * The account doctor: before any order is signed, what the signer's account is (its own address, or the
     * proxy, Safe or deposit wallet it owns), which `signatureType` and `funder` its orders need, whether the
     * client's API key is the signer's, and the collateral and allowances the service sees, each problem a
     * finding with the one fix. It sends no order: it asks `options.provider` (when given) for the chain and
     * the wallets' code, and the service (with the signer's own key) for the balances. For an account set up
     * to trade through its deployed deposit wallet (`POLY_1271`) it also asks the signer to sign a test order
     * (every amount zero, never sent) in the ERC-7739 form, then if the wallet refuses it in the plain form,
     * and asks the wallet which it takes (`eth_call` of its ERC-1271 `isValidSignature`): the client signs its
     * orders in that form from then on (`depositSignature`).
     *
     * @example
     * const report = await client.diagnoseAccount(signer, { provider: window.ethereum });
     * for (const f of report.findings) console.warn(f.code, f.fix);
     */
    diagnoseAccount(signer: Signer, options?: DiagnoseOptions): Promise<AccountDiagnosis>;
    /**
     * The dead-man switch: the service cancels an API key's orders when no heartbeat comes within 10 s, so this
     * sends one (`POST /v1/heartbeats`) every `intervalMs` (5,000 by default), chaining the id each answer
     * gives and following the one the service names when it expects another. `onStatus` hears each change,
     * from the first (`starting`, once the handle is returned): `ok`; `late` (a beat failed or is overdue, given
     * up a second before the deadline and tried again); `lost` (the deadline may have
     * passed: the orders may be gone; told before anything else when a page's timers were held back); `stopped`
     * with its `reason`. It runs until `stop()`, the signal aborts, the client is freed, or the service refuses
     * the key (401, 403) or has no such route (404). Needs credentials (`UNAUTHORIZED` otherwise, thrown at once, as `INVALID_PARAMS` is).
     *
     * @example
     * const switch_ = client.heartbeats({ onStatus: (e) => e.status === "lost" && alert("orders may be gone") });
     * // ... later
     * switch_.stop();
     */
    heartbeats(options?: HeartbeatOptions): Heartbeats;
    /**
     * Follows one order (its id, or better the answer to placing it) and tells each change of it once: `placed`,
     * `matched` (partly or wholly), each of its trades' settlement steps (`MATCHED`, `MINED`, `CONFIRMED`, or
     * `RETRYING` and `FAILED`, with the transaction's hash once there is one), `cancelled` or `expired`, and
     * last `settled` when the order is closed and every trade final. The user channel tells it as it happens;
     * while the channel is not open (or with `stream: false`) the order and its pending trades are read every
     * `pollMs`, and when it opens again they are read once, so that nothing it missed is lost and nothing is
     * told twice. Iterate it (`for await`), or pass `onUpdate`; `done` resolves to the `settled` update.
     * Needs credentials.
     *
     * @example
     * const placed = await client.placeOrder(params, signer);
     * for await (const update of client.trackOrder(placed)) console.log(update.type, update.status ?? "");
     */
    trackOrder(order: string | OrderResult, options?: TrackOptions): OrderTracker;
    /**
     * Resolves when every trade of a placed order (its `tradeIDs`, or for a `delayed` order the trades it comes to
     * list) is final, `CONFIRMED` or `FAILED`, reading `GET /data/trades` every `pollMs` (250); rejects with
     * `TIMEOUT` after `timeoutMs` (30,000), the trades themselves unaffected. An order that took nothing
     * settles at once.
     */
    waitForSettlement(answer: OrderResult, options?: SettlementOptions): Promise<SettledUpdate>;
}

/** `trackOrder`'s options (the reads' options too: `signal`, `maxRetries`...). */
export interface TrackOptions extends RequestOptions {
    /** How often the order is read while the user channel is not open: 100 to 60,000 ms (default 1,000). */
    pollMs?: number;
    /** Open a user channel to hear changes as they happen (default true); false reads only. */
    stream?: boolean;
    /** Hears each update, as the iteration does. */
    onUpdate?: (update: OrderUpdate) => void;
    /**
     * Ends the tracking with `TIMEOUT` after this long (default: none). Each read has the client's own timeout
     * and retries, and the one in flight is abandoned when the tracking ends (`stop()`, `break`, the signal).
     */
    timeoutMs?: number;
}

/** `waitForSettlement`'s options. */
export interface SettlementOptions extends RequestOptions {
    /** How often a pending trade is read: 100 to 60,000 ms (default 250). */
    pollMs?: number;
    /** Default 30,000. */
    timeoutMs?: number;
}

/** A trade's settlement status (REST's `TRADE_STATUS_` prefix removed). */
export type TradeSettlement = "MATCHED" | "MATCHED_NOT_BROADCASTED" | "MINED" | "CONFIRMED" | "RETRYING" | "FAILED";

/** One change of a followed order. */
export type OrderUpdate =
| { type: "placed"; orderId: string }
| { type: "matched"; orderId: string; sizeMatched: string; originalSize?: string; whole: boolean }
| { type: "trade"; orderId: string; tradeId: string; status: TradeSettlement; transactionHash?: string; final: boolean }
| { type: "cancelled" | "expired"; orderId: string; sizeMatched: string; reason: "canceled" | "invalid" | "marketResolved" }
| SettledUpdate;

/** The last update: the order closed and every trade of it final (`failed` counts the FAILED ones). */
export interface SettledUpdate {
    type: "settled";
    orderId: string;
    trades: { tradeId: string; status: TradeSettlement; transactionHash?: string }[];
    failed: number;
}

/** An order followed: iterate it (`break` stops it), or await `done`. */
export interface OrderTracker extends AsyncIterable<OrderUpdate> {
    /** Resolves to the `settled` update (undefined when stopped first); rejects with what ended it. */
    readonly done: Promise<SettledUpdate | undefined>;
    stop(): void;
}

/** `heartbeats`' options. */
export interface HeartbeatOptions {
    /** Milliseconds between heartbeats, 50 to 8,000 (default 5,000). */
    intervalMs?: number;
    /** Stops the switch when it aborts (reason `aborted`). */
    signal?: AbortSignal;
    /** Hears each change of status. */
    onStatus?: (event: HeartbeatEvent) => void;
}

/** What the switch says of the key's orders. */
export type HeartbeatStatus = "starting" | "ok" | "late" | "lost" | "stopped";

/** A change of status: how many heartbeats were accepted, and when the last was (ms since the epoch). */
export interface HeartbeatEvent {
    status: HeartbeatStatus;
    beats: number;
    lastOkAt?: number;
    /** Why it stopped. */
    reason?: "stopped" | "aborted" | "freed" | "refused";
}

/** A running dead-man switch. */
export interface Heartbeats {
    readonly status: HeartbeatStatus;
    /** Stops it (reason `stopped`); no more heartbeats are sent. */
    stop(): void;
    /** Resolves to the `stopped` event. */
    readonly done: Promise<HeartbeatEvent>;
}

/** `diagnoseAccount`'s options: the call's, and the wallet provider to read the chain through. */
export interface DiagnoseOptions extends RequestOptions {
    /**
     * An EIP-1193 provider (`window.ethereum`, ...), asked `eth_chainId`, `eth_getCode` and, for a deposit
     * wallet, `eth_call` of its `isValidSignature` (30 s each at most). Without it the wallets' deployment is
     * not known, and the service's word alone tells a deposit-wallet account.
     */
    provider?: { request(args: { method: string; params?: unknown[] }): Promise<unknown> | unknown };
}

/** What `diagnoseAccount` found. */
export interface AccountDiagnosis {
    /** The signer's address: the owner of the wallets below. */
    owner: string;
    /** The chain the client signs for, and the provider's chain when it answered. */
    chainId: number;
    walletChainId?: number;
    /** What the account trades through, when the chain or the service could tell. */
    kind?: "EOA" | "POLY_PROXY" | "POLY_GNOSIS_SAFE" | "POLY_1271";
    /** The settings its orders need (the client's own when nothing could tell): give them to `new Client`. */
    signatureType: "EOA" | "POLY_PROXY" | "POLY_GNOSIS_SAFE" | "POLY_1271";
    funder?: string;
    /** The owner's wallets by CREATE2 (a proxy only where the chain has them), `deployed` when the provider said. */
    wallets: {
        proxy?: { address: string; deployed?: boolean };
        safe?: { address: string; deployed?: boolean };
        depositWallet: { address: string; deployed?: boolean };
    };
    /**
     * The form of the owner's signature the account's deposit wallet takes, as the wallet answered: the
     * ERC-7739 `TypedDataSign` (what the upstream clients send) or the plain signature of the order. The
     * client signs its orders in it from then on. Absent when it was not asked or could not tell.
     */
    depositSignature?: "ERC7739" | "PLAIN";
    /** The client's API key: whose it is. Absent when the client holds none. */
    apiKey?: { address: string; forSigner: boolean };
    /** The collateral the service sees for the client's signature type (base units, 6 decimals). */
    collateral?: { balance: string; allowances: Record<string, string> };
    /** Each problem, with the one fix to make; empty when the account can trade as the client is set up. */
    findings: AccountFinding[];
    ok: boolean;
}

/** One problem with how an account is set up. */
export interface AccountFinding {
    code:
    | "CHAIN_MISMATCH"
    | "WRONG_SIGNATURE_TYPE"
    | "FUNDER_NOT_OWNED"
    | "DEPOSIT_WALLET_REQUIRED"
    | "NO_DEPOSIT_WALLET"
    | "WALLET_NOT_DEPLOYED"
    | "NO_API_KEY"
    | "KEY_NOT_FOR_SIGNER"
    | "KEY_REJECTED"
    | "NO_BALANCE"
    | "NO_ALLOWANCE"
    | "SIGNATURE_REFUSED";
    message: string;
    fix: string;
}



/**
 * A client of the service. Create one per service and share it: it holds the rate budgets.
 *
 * @example
 * const client = new Client({ baseUrl: "http://127.0.0.1:8787" });
 * const events = await client.getEvents({ active: true, limit: 10 });
 */
export class Client {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * The account's side of a trade (a `trade` event of the user channel, a row of `getUserTrades`): its own
     * fills, which for a maker are its `maker_orders` entries (on the complementary token, at their own price),
     * not the top level, which describes the taker's order. Empty when none is the account's, or without
     * credentials. The user channel's trade events and `getUserTrades` rows carry it as `fills` already.
     *
     * @example
     * for (const fill of client.fills(trade)) console.log(fill.side, fill.size, "at", fill.price, fill.outcome);
     */
    fills(trade: UserTrade | object): Fill[];
    /**
     * Opens the market channel for `assetIds`: the service's events (`book`, `price_change`,
     * `tick_size_change`, `last_trade_price`, ...) for `for await` or `onEvent`, and a live `OrderBook` per
     * asset, checked against the service's hash and resynchronised from a fresh snapshot when it drifts.
     * PING every 10 s; a missing PONG reconnects, a silent subscription is renewed (`stallAfterMs`), and
     * reconnects back off from 1 s to 60 s.
     *
     * @example
     * const stream = client.marketStream([tokenId], { onEvent: (e) => e.event_type === "book_update" && render(stream.book(tokenId)) });
     * for await (const event of stream) if (event.event_type === "status") showStatus(event.status);
     */
    marketStream(assetIds: string[], options?: MarketStreamOptions): MarketStream;
    /**
     * Checks every option; a bad one throws `INVALID_PARAMS` naming it.
     */
    constructor(options: ClientOptions);
    /**
     * Estimates how far the local clock is from the service's and signs with the difference from then on.
     * Reads GET /time where the service has it, else the `Date` header of that answer (whole seconds;
     * cross-origin it must be exposed). Resolves to the offset in milliseconds.
     *
     * The client's `timeoutMs` and per-call `{ signal, timeoutMs }` apply.
     *
     * @example
     * const offsetMs = await client.syncClock();
     */
    syncClock(options?: RequestOptions): Promise<number>;
    /**
     * Opens the user channel for the account's orders and trades in `markets` (condition ids; empty for
     * all). Needs credentials; they go only in the socket's subscription message, never in a URL, an event
     * or an error.
     *
     * @example
     * for await (const event of client.userStream([])) if (event.event_type === "order") refresh(event.id);
     */
    userStream(markets: string[], options?: StreamOptions): UserStream;
    /**
     * The offset added to the local clock when signing, in milliseconds.
     */
    readonly clockOffsetMs: number;
    /**
     * Whether the client holds credentials (they cannot be read back).
     */
    readonly hasCredentials: boolean;
}

/**
 * An order book parsed exactly (prices and sizes as integers scaled by 10^6) from the service's JSON.
 * Levels may come in any order; levels repeated at one price count as one level with the summed size,
 * and stay as received for the hash.
 *
 * @example
 * const book = OrderBook.fromBytes(new Uint8Array(await response.arrayBuffer()));
 * book.bestBid();                       // { price: 0.48, size: 1500 } or undefined
 * book.marketPrice("BUY", 100, "FOK");  // 0.52
 */
export class OrderBook {
    private constructor();
    free(): void;
    [Symbol.dispose](): void;
    /**
     * Applies one price change of the service's market channel: the new total size at a price, `0`
     * removing the level. Pass the message's `timestamp` to keep `hash()` equal to the service's.
     *
     * @example
     * for (const change of message.price_changes) book.applyPriceChange(change, message.timestamp);
     */
    applyPriceChange(change: PriceChange, timestamp?: string | number): void;
    /**
     * The lowest ask's price, NaN when there are no asks.
     */
    bestAskPrice(): number;
    /**
     * The lowest ask with the total size at it, or `undefined` when there are no asks.
     */
    bestAsk(): PriceLevel | undefined;
    /**
     * The highest bid's price, NaN when there are no bids. The cheapest call for a hot loop.
     */
    bestBidPrice(): number;
    /**
     * The highest bid with the total size at it, or `undefined` when there are no bids.
     */
    bestBid(): PriceLevel | undefined;
    /**
     * What a market order of `side` could take within `within` (in price) of the best price it meets:
     * a buy looks at the asks from the best ask up, a sell at the bids from the best bid down.
     *
     * @example
     * book.depth("BUY", { within: 0.02 }); // { size, notional, levels } of asks up to best ask + 0.02
     */
    depth(side: OrderSide, options: { within: number }): BookDepth;
    /**
     * Parses the bytes of a GET /book response (or one element of POST /books). Throws `DECODE` for
     * anything that is not a book, or a price or size that is not an exact decimal of at most 6 places.
     */
    static fromBytes(bytes: Uint8Array): OrderBook;
    /**
     * Parses the text of a GET /book response (or one element of POST /books).
     */
    static fromJson(text: string): OrderBook;
    /**
     * Reads a book object (as `JSON.parse` or `getOrderBook` give it). Numbers are read as JavaScript
     * writes them, so `0.1 + 0.2` is rejected rather than rounded.
     */
    static fromObject(book: OrderBookSummary): OrderBook;
    /**
     * The book's hash as the service computes it (SHA-1, lowercase hex, of the compact JSON with `hash`
     * set to `""`, fields in the interface's order, every value exactly as received). Equal to
     * `receivedHash` for a book just received.
     */
    hash(): string;
    /**
     * Cumulative depth by distinct price for charts, best first, as typed arrays; `levels` (default all)
     * bounds each side.
     *
     * @example
     * const { bidPrices, bidDepth, askPrices, askDepth } = book.ladder({ levels: 20 });
     */
    ladder(options?: { levels?: number }): BookLadder;
    /**
     * Parses the bytes of a POST /books response: one `OrderBook` per element.
     */
    static listFromBytes(bytes: Uint8Array): OrderBook[];
    /**
     * The price a market order would reach, exactly as the upstream `calculateBuyMarketPrice` (buy:
     * `amount` is cash) and `calculateSellMarketPrice` (sell: `amount` is shares) compute it, walking
     * from the best price. `amount` is rounded to 10^-6. Throws `NO_MATCH` when the side is empty, or
     * for FOK (the default) when it cannot fill the amount; other types get the worst level's price.
     *
     * @example
     * book.marketPrice("BUY", 100);         // cash: the price that $100 reaches
     * book.marketPrice("SELL", 250, "FAK"); // shares
     */
    marketPrice(side: OrderSide, amount: number, orderType?: MarketOrderType): number;
    /**
     * Halfway between the best bid and the best ask; `undefined` when a side is empty.
     */
    midpoint(): number | undefined;
    /**
     * What a market order would fill, level by level from the best price: `{ size }` in shares or
     * `{ notional }` in cash. Never throws for a thin book: `remaining` says what was left.
     *
     * @example
     * const { avgPrice, worstPrice, slippage } = book.simulate("BUY", { notional: 500 });
     */
    simulate(side: OrderSide, target: SimulateTarget): SimulateResult;
    /**
     * The best ask minus the best bid (negative if crossed); `undefined` when a side is empty.
     */
    spread(): number | undefined;
    /**
     * The number of ask levels as received.
     */
    readonly askCount: number;
    /**
     * The token this book is for.
     */
    readonly assetId: string | undefined;
    /**
     * The number of bid levels as received.
     */
    readonly bidCount: number;
    /**
     * The last trade's price; `undefined` before any trade (the service sends "").
     */
    readonly lastTradePrice: number | undefined;
    /**
     * The market (condition id) this book is for.
     */
    readonly market: string | undefined;
    /**
     * The smallest order size in shares, if the book says.
     */
    readonly minOrderSize: number | undefined;
    /**
     * Whether the market is a neg-risk market, if the book says.
     */
    readonly negRisk: boolean | undefined;
    /**
     * The hash the service sent with the book.
     */
    readonly receivedHash: string | undefined;
    /**
     * The market's tick size (0.01, 0.001, ...), if the book says.
     */
    readonly tickSize: number | undefined;
    /**
     * The book's timestamp as sent (milliseconds, as text).
     */
    readonly timestamp: string | undefined;
}

/**
 * The price a market buy of `amount` cash reaches on `asks` as the service lists them (best ask LAST),
 * walking from the last element like the upstream function; exact sums. Throws `NO_MATCH` for an empty
 * array, and for FOK (the default) when the asks cannot fill it; other types get the first element's price.
 *
 * @example
 * calculateBuyMarketPrice([{ price: "0.6", size: "100" }, { price: "0.5", size: "100" }], 80, "FOK"); // 0.6
 */
export function calculateBuyMarketPrice(asks: OrderSummary[], amount: number, orderType?: MarketOrderType): number;

/**
 * The fee of a trade of `size` shares at `price`: `size × rate × (price × (1 − price))^exponent`,
 * exact in decimal where the inputs have at most 6 places.
 *
 * @example
 * calculateFee({ rate: 0.25, exponent: 2 }, 100, 0.5); // 1.5625
 */
export function calculateFee(feeRate: FeeRateInput, size: number, price: number): number;

/**
 * The price a market sell of `amount` shares reaches on `bids` as the service lists them (best bid
 * LAST), as the upstream function computes it. Errors as `calculateBuyMarketPrice`.
 */
export function calculateSellMarketPrice(bids: OrderSummary[], amount: number, orderType?: MarketOrderType): number;

/**
 * The five SERVICE_* headers of one request. `timestamp` defaults to now, in milliseconds.
 *
 * @example
 * const headers = createL2Headers(credentials, { method: "GET", requestPath: "/data/orders" });
 * await fetch(url, { headers });
 */
export function createL2Headers(credentials: Credentials, args: L2HeaderArgs, timestamp?: number | string): L2Headers;

/**
 * Decimal places of a number as JavaScript writes it, counting exponent notation (`1.23e-7` has 9).
 *
 * @example
 * decimalPlaces(949.9970999999999); // 13
 */
export function decimalPlaces(num: number): number;

/**
 * Whether tick size `a` is smaller than `b` (`"0.001"` < `"0.01"`).
 */
export function isTickSizeSmaller(a: string | number, b: string | number): boolean;

/**
 * The SHA-1 book hash of a book object exactly as the upstream `generateOrderBookSummaryHash` computes
 * it: `JSON.stringify` of the object with `hash` set to `""` (keys in the object's own order; a missing
 * `hash` goes last). Unlike upstream, the object is not modified.
 *
 * @example
 * orderBookHash(await client.getOrderBook(tokenId)); // "d7df883a..."
 */
export function orderBookHash(book: OrderBookSummary): string;

/**
 * Whether `tickSize ≤ price ≤ 1 − tickSize`.
 *
 * @example
 * priceValid(0.999, "0.01"); // false
 */
export function priceValid(price: number, tickSize: string | number): boolean;

/**
 * Rounds down to `decimals` places; a number with no more places comes back unchanged (so
 * `roundDown(0.57, 2)` is 0.57, not 0.56 from binary error).
 */
export function roundDown(num: number, decimals: number): number;

/**
 * Rounds to `decimals` places, halves up (with the upstream's `Number.EPSILON` nudge); a number with
 * no more places than that comes back unchanged.
 *
 * @example
 * roundNormal(0.5555, 2); // 0.56
 */
export function roundNormal(num: number, decimals: number): number;

/**
 * Rounds up to `decimals` places; a number with no more places comes back unchanged.
 */
export function roundUp(num: number, decimals: number): number;

/**
 * The upstream `ROUNDING_CONFIG`: decimal places of price, size and amount per tick size (a fresh
 * object each call).
 *
 * @example
 * roundingConfig()["0.01"]; // { price: 2, size: 2, amount: 4 }
 */
export function roundingConfig(): Record<string, RoundingConfigEntry>;

/**
 * The SERVICE_SIGNATURE of one request: HMAC-SHA256 of timestamp + method + requestPath + body, keyed by
 * the base64-decoded secret, in url-safe base64. Sign exactly the body you send, and the path without
 * its query string.
 *
 * @example
 * signRequest(secret, Date.now(), "DELETE", "/order", JSON.stringify({ orderId }));
 */
export function signRequest(secret: string, timestamp: number | string, method: string, requestPath: string, body?: string | null): string;

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

export interface InitOutput {
    readonly memory: WebAssembly.Memory;
    // (the raw exports of the wasm module are not compared)
}

export type SyncInitInput = BufferSource | WebAssembly.Module;

/**
 * Instantiates the given `module`, which can either be bytes or
 * a precompiled `WebAssembly.Module`.
 *
 * @param {{ module: SyncInitInput }} module - Passing `SyncInitInput` directly is deprecated.
 *
 * @returns {InitOutput}
 */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;

/**
 * If `module_or_path` is {RequestInfo} or {URL}, makes a request and
 * for everything else, calls `WebAssembly.instantiate` directly.
 *
 * @param {{ module_or_path: InitInput | Promise<InitInput> }} module_or_path - Passing `InitInput` directly is deprecated.
 *
 * @returns {Promise<InitOutput>}
 */
export default function __wbg_init (module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>): Promise<InitOutput>;
