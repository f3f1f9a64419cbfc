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
