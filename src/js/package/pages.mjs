// @ts-check
// `for await` over a list method: the items of every page, one page fetched at a time, walked as a page's
// `getNextPage()` walks it. The binding's `pageStart` (src/wasm/pages.rs) checks the iteration's params and
// options and gives the first page's argument; each page is one `callRest` (with the client's budgets and
// retries), and the next page's argument is the core's (`nextPageArgument`: api::following). The three are the
// binding's internal entries, reached through guard.mjs's table, not the public prototype.

import { internal } from "./guard.mjs";

/**
 * The binding's paging entries of `client`'s class (guard.mjs's table), called with the client as `this`.
 * @param {unknown} client
 * @returns {PagingClient}
 */
const paging = (client) => /** @type {PagingClient} */ (/** @type {unknown} */ (internal(client)));

// The signal's own accessor, taken at load: a caller's AbortSignal may shadow it.
const abortedOf = /** @type {(this: AbortSignal) => boolean} */ (
  /** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(AbortSignal.prototype, "aborted")).get
);
const isArray = Array.isArray;

/**
 * A Client as the iteration uses it: the binding's entries for the REST methods and their pages.
 * @typedef {object} PagingClient
 * @property {(name: string, first: unknown, options: unknown) => [argument: unknown, call: object, maxItems: number | undefined, onPage: ((info: unknown) => void) | undefined, signal: AbortSignal | undefined, abortError: Error | undefined]} pageStart
 * @property {(name: string, first: unknown, page: unknown, mode: number) => unknown} nextPageArgument
 * @property {(name: string, a?: unknown, b?: unknown, c?: unknown) => Promise<unknown>} callRest
 */

/** @type {IteratorResult<unknown>} */
const DONE = { done: true, value: undefined };

/**
 * The items of the list method `name` called with `first`, as an async iterator (and iterable). Params and
 * options are checked now: a bad one throws here, before anything is sent. Pages are fetched in order,
 * even if next() is called again before the previous call settles; `break` (return()) stops the iteration;
 * an aborted signal stops it at the next item with ABORTED.
 * @param {PagingClient} client
 * @param {string} name
 * @param {unknown} first
 * @param {unknown} options
 * @returns {AsyncIterableIterator<unknown>}
 */
export function iteratePages(client, name, first, options) {
  const [start, call, maxItems, onPage, signal, abortError] = paging(client).pageStart.call(client, name, first, options);
  /** The next page's argument; undefined once no page follows. */
  let argument = start;
  let left = maxItems ?? Infinity;
  let pages = 0;
  let total = 0;
  /** @type {unknown[]} */
  let items = [];
  let index = 0;
  let finished = left === 0;
  /** @type {Promise<unknown>} */
  let chain = Promise.resolve();
  const end = () => {
    finished = true;
    items = [];
  };
  /** @returns {Promise<IteratorResult<unknown>>} */
  const step = async () => {
    if (!finished && signal && abortedOf.call(signal)) {
      end();
      throw abortError;
    }
    while (index >= items.length) {
      if (finished || argument === undefined) return (end(), DONE);
      const asked = argument;
      try {
        const page = await paging(client).callRest.call(client, name, asked, call);
        // return() while the page was on its way: the iteration is over.
        if (finished) return DONE;
        // DECODE when the answer is not a page of this list; a genuine one is plain JSON.
        argument = paging(client).nextPageArgument.call(client, name, asked, page, 2);
        const list = /** @type {unknown[]} */ (isArray(page) ? page : /** @type {{ data: unknown[] }} */ (page).data);
        const take = Math.min(left, list.length);
        left -= take;
        if (left === 0) argument = undefined;
        pages += 1;
        total += take;
        items = take < list.length ? list.slice(0, take) : list;
        index = 0;
        if (onPage) {
          /** @type {Record<string, unknown>} */
          const info = { page: pages, items: take, total, done: argument === undefined };
          if (typeof argument === "string") info.nextCursor = argument;
          else if (argument && typeof (/** @type {any} */ (argument).next_cursor) === "string")
            info.nextCursor = /** @type {any} */ (argument).next_cursor;
          onPage(info);
        }
      } catch (error) {
        end();
        throw error;
      }
    }
    return { done: false, value: items[index++] };
  };
  return {
    next() {
      const result = chain.then(step);
      chain = result.catch(() => {});
      return result;
    },
    /** @param {unknown} [value] */
    async return(value) {
      end();
      return { done: true, value };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
