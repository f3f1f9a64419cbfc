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
