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
