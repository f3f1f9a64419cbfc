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
