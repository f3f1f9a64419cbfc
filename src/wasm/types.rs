//! TypeScript declarations of the shapes the exports take and return.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** Options of `new Client(options)`. */
export interface ClientOptions {
  /** The service's base URL, or one per surface. */
  baseUrl: string | { catalog: string; clob: string; activity: string };
  /** The account's API credentials; needed only for the account's own orders and trades. */
  credentials?: Credentials;
  /** Unit of SERVICE_TIMESTAMP: "ms" (the interface, default) or "s" (the upstream service). */
  timestampUnit?: "ms" | "s";
  /** A fetch to use instead of the global one (tests, extensions, proxies). */
  fetch?: (input: string, init?: RequestInit) => Promise<Response>;
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

export interface L2HeaderArgs {
  method: string;
  /** The path without its query string. */
  requestPath: string;
  /** Exactly the body that is sent, if any. */
  body?: string;
}

export interface L2Headers {
  SERVICE_ADDRESS: string;
  SERVICE_API_KEY: string;
  SERVICE_PASSPHRASE: string;
  SERVICE_TIMESTAMP: string;
  SERVICE_SIGNATURE: string;
}

/** A price level as numbers. */
export interface PriceLevel {
  price: number;
  size: number;
}

/** A price level as the service sends it. */
export interface OrderSummary {
  price: string;
  size: string;
}

/** An order book as the service sends it (GET /book, POST /books). Older books lack the last four fields. */
export interface OrderBookSummary {
  market: string;
  asset_id: string;
  timestamp: string;
  hash: string;
  /** Bids, in no guaranteed order. */
  bids: OrderSummary[];
  /** Asks, in no guaranteed order. */
  asks: OrderSummary[];
  min_order_size?: string;
  tick_size?: string;
  neg_risk?: boolean;
  last_trade_price?: string;
}

/** The stable codes of `PredictKitError.code`. */
export type PredictKitErrorCode =
  | "INVALID_PARAMS" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "RATE_LIMITED" | "SERVER"
  | "API" | "NETWORK" | "TIMEOUT" | "ABORTED" | "DECODE" | "NO_MATCH";

/** Every error the library throws: a real `Error` with `name` "PredictKitError". */
export interface PredictKitError extends Error {
  name: "PredictKitError";
  code: PredictKitErrorCode;
  /** The parameter at fault, for INVALID_PARAMS. */
  param?: string;
  /** The HTTP status, when the service answered. */
  status?: number;
  method?: string;
  /** The request path, without the query string. */
  path?: string;
  /** How long the service asked to wait, from Retry-After. */
  retryAfterMs?: number;
  /** The service's error text, or a short excerpt of an unexpected body. */
  body?: string;
  cause?: unknown;
}

/** True for errors thrown by PredictKit. */
export function isPredictKitError(error: unknown): error is PredictKitError;
"#;
