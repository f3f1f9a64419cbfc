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
