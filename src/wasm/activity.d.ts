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
