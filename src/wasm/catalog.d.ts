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
