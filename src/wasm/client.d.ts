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
