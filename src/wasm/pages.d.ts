/**
 * What a list method (`getEvents`, `getTrades`, `getMarkets`, ...) answers: `await` it for one page (the
 * service's answer, with `hasNextPage()` and `getNextPage()`), or iterate it with `for await` for every
 * item, page after page. Nothing is sent until it is awaited or iterated; awaiting it again gives the same
 * page. Each iteration starts from the given params and fetches pages as large as the route allows (or
 * `limit`), one at a time.
 *
 * @example
 * const events = await client.getEvents({ active: true, limit: 20 });
 * if (events.hasNextPage()) more = await events.getNextPage();
 * for await (const event of client.getEvents({ active: true }, { maxItems: 500 })) list.push(event);
 */
export interface PagePromise<P, Item> extends Promise<Paged<P, Item>>, AsyncIterable<Item> {}

/** One page of a list: the service's answer as it came, with the way to the next page. */
export type Paged<P, Item> = P & {
  /** Whether another page may follow (a full page of an offset list, a cursor that is not the last). */
  hasNextPage(): boolean;
  /**
   * The next page, with the same params and options (offset or cursor moved on); rejects with
   * `INVALID_PARAMS` when `hasNextPage()` is false.
   */
  getNextPage(): PagePromise<P, Item>;
};

/**
 * Options of a list method. `signal`, `timeoutMs`, `maxRetries` and `extraQuery` apply to each page's
 * request; `onPage` and `maxItems` to iteration.
 */
export interface PageOptions {
  /** When iterating: called after each page is fetched, before its items are yielded. */
  onPage?: (info: PageInfo) => void;
  /** When iterating: stop after this many items (the last page is cut short). */
  maxItems?: number;
  /** Aborting ends the call, or the iteration: the pending `next()` rejects with `ABORTED`. */
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

/** Progress of an iteration, passed to `PageOptions.onPage`. */
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
