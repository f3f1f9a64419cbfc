//! TypeScript declarations of the shapes the exports take and return.
//!
//! Each const below is copied verbatim into the generated `predictkit.d.ts`; methods name these types with
//! `unchecked_param_type` / `unchecked_return_type`. Response shapes follow interface §2, corrected by the
//! real recorded responses in `tests/fixtures/real` (which decide what is optional or nullable), and
//! `tests/types` assigns every recording to its declared type so the two cannot drift apart.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const CLIENT_TYPES: &str = r#"
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
  /** The chain orders and API keys are signed for: 137 (Polygon, default) or 80002 (Amoy). */
  chainId?: number;
  /**
   * Who signs for the maker: "EOA" (default: the signer's own wallet), or "POLY_PROXY" /
   * "POLY_GNOSIS_SAFE", whose owner signs for the wallet named by `funder`.
   */
  signatureType?: SignatureType;
  /** The proxy or Safe wallet that holds the funds; required with POLY_PROXY and POLY_GNOSIS_SAFE. */
  funder?: string;
  /** The exchange contracts, for a chain without published ones (they are known for 137 and 80002). */
  exchanges?: { exchange: string; negRiskExchange: string };
  /**
   * How long a signer may take to answer, in milliseconds (default 300000: a person approves in a
   * wallet); past it the call fails with `TIMEOUT`. The call's `signal` also stops the wait.
   */
  signTimeoutMs?: number;
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

/** A request is waiting for local rate budget (`wait`) or is about to be retried (`retry`). */
export interface ClientEvent {
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
 * after `free()`.
 */
export type PredictKitErrorCode =
  | "INVALID_PARAMS" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "RATE_LIMITED" | "SERVER"
  | "API" | "NETWORK" | "TIMEOUT" | "ABORTED" | "DECODE" | "NO_MATCH" | "FREED";

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
  /** How long the service asked to wait, from Retry-After. */
  retryAfterMs?: number;
  /** The service's error text, or a short excerpt of an unexpected body. */
  body?: string;
  /** The original error (a fetch failure, an abort reason, ...). */
  cause?: unknown;
}

/** True for errors thrown by PredictKit. */
export function isPredictKitError(error: unknown): error is PredictKitError;
"#;

#[wasm_bindgen(typescript_custom_section)]
const ITERATION_TYPES: &str = r#"
/** Options of the `iterate*` methods. `timeoutMs`, `maxRetries` and `extraQuery` apply to each page's request. */
export interface IterateOptions {
  /** Called after each page is fetched, before its items are yielded. */
  onPage?: (info: PageInfo) => void;
  /** Stop after this many items (the last page is cut short). */
  maxItems?: number;
  /** Aborting ends the iteration: the pending `next()` rejects with `ABORTED`. */
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

/** Progress of an iteration, passed to `IterateOptions.onPage`. */
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
"#;

#[wasm_bindgen(typescript_custom_section)]
const ACTIVITY_TYPES: &str = r#"
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
"#;

#[wasm_bindgen(typescript_custom_section)]
const CATALOG_TYPES: &str = r#"
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
"#;

#[wasm_bindgen(typescript_custom_section)]
const CLOB_TYPES: &str = r#"
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
"#;

#[wasm_bindgen(typescript_custom_section)]
const ACCOUNT_TYPES: &str = r#"
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
  bucket_index: number;
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
"#;

#[wasm_bindgen(typescript_custom_section)]
const PARAMS_TYPES: &str = r#"
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
"#;

#[wasm_bindgen(typescript_custom_section)]
const TRADING_TYPES: &str = r#"
/** Who signs for an order's maker (0, 1, 2 as the exchange numbers them). */
export type SignatureType = "EOA" | "POLY_PROXY" | "POLY_GNOSIS_SAFE" | 0 | 1 | 2;

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
  /** Shares, at most 2 decimals, at least the market's minimum order size. */
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

/** A market order: a buy spends `amount` cash, a sell gives `amount` shares (at most 2 decimals). */
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
  version: 1 | 2;
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
  version: 1 | 2;
  salt: string;
  maker: string;
  signer: string;
  tokenId: string;
  makerAmount: string;
  takerAmount: string;
  side: "BUY" | "SELL";
  expiration: string;
  signatureType: 0 | 1 | 2;
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
}

/** `postOrder`'s options: the call's, and `postOnly` over the signed order's. */
export interface PostOrderOptions extends RequestOptions {
  postOnly?: boolean;
}
"#;
