// @ts-check
// `for await` over a list method: the items of every page, one page fetched at a time. The binding's
// `PageReader` (src/wasm/pages.rs, over the core's `Pager`) says what each page's call is and what its
// answer means; this makes the calls (`callRest`, with the client's budgets and retries) and yields the
// items. Self-contained (no imports): the wasm tests load it as a snippet.

// The signal's own accessor, taken at load: a caller's AbortSignal may shadow it.
const abortedOf = /** @type {(this: AbortSignal) => boolean} */ (
  /** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(AbortSignal.prototype, "aborted")).get
);

/**
 * One iteration as the binding's `PageReader` (src/wasm/pages.rs) runs it.
 * @typedef {object} PageReader
 * @property {unknown} options the options of each page's call
 * @property {((info: unknown) => void) | undefined} onPage the caller's
 * @property {AbortSignal | undefined} signal the caller's
 * @property {() => Error} abortError
 * @property {() => unknown} next the first argument of the next page's call; undefined when none follows
 * @property {(page: unknown) => { items: unknown[], done: boolean, info?: unknown }} record
 * @property {() => void} free
 */

/**
 * A Client as the iteration uses it: the binding's entries for the REST methods and their pages.
 * @typedef {object} PagingClient
 * @property {(name: string, first: unknown, options: unknown) => PageReader} pageReader
 * @property {(name: string, a?: unknown, b?: unknown, c?: unknown) => Promise<unknown>} callRest
 */

/**
 * The items of the list method `name` called with `first`, as an async iterator (and iterable). Params and
 * options are checked now: a bad one throws here, before anything is sent. Pages are fetched in order,
 * even if next() is called again before the previous call settles; `break` (return()) stops the iteration
 * and frees the reader; an aborted signal stops it at the next item with ABORTED.
 * @param {PagingClient} client
 * @param {string} name
 * @param {unknown} first
 * @param {unknown} options
 * @returns {AsyncIterableIterator<unknown>}
 */
export function iteratePages(client, name, first, options) {
  /** @type {PageReader | undefined} */
  let reader = client.pageReader(name, first, options);
  const { options: callOptions, onPage, signal } = reader;
  /** @type {unknown[]} */
  let items = [];
  let index = 0;
  let finished = false;
  /** @type {Promise<unknown>} */
  let chain = Promise.resolve();
  const release = () => {
    finished = true;
    items = [];
    reader?.free();
    reader = undefined;
  };
  /** @returns {Promise<IteratorResult<unknown>>} */
  const step = async () => {
    if (reader && signal && abortedOf.call(signal)) {
      const error = reader.abortError();
      release();
      throw error;
    }
    while (index >= items.length) {
      if (finished || !reader) return { done: true, value: undefined };
      const argument = reader.next();
      if (argument === undefined) {
        release();
        return { done: true, value: undefined };
      }
      let page;
      try {
        const answer = await client.callRest(name, argument, callOptions);
        // return() while the page was on its way: the iteration is over.
        if (!reader) return { done: true, value: undefined };
        page = reader.record(answer);
        // `info` is there when `onPage` is a function.
        if (page.info) onPage?.(page.info);
      } catch (error) {
        release();
        throw error;
      }
      items = page.items;
      index = 0;
      if (page.done) {
        finished = true;
        reader?.free();
        reader = undefined;
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
      release();
      return { done: true, value };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
