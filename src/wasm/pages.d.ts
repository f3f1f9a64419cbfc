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
