// @ts-check
// The Client's REST methods. The binding exports one entry for all of them (`callRest`), and the route
// table is the core's (src/api/methods.rs, listed by `Client.restMethods()`): each JS method here is one
// line over that entry, which is smaller than one wasm export per method. The list methods answer a page
// promise: await it for one page (with `hasNextPage()` / `getNextPage()`), or iterate it with `for await`
// for every item. Their declarations are in src/wasm/methods.d.ts and src/wasm/pages.d.ts.

import { internal, live } from "./guard.mjs";
import { iteratePages } from "./pages.mjs";

/**
 * The binding's REST entries of `client`'s class (guard.mjs's table; for anything but a client, entries that
 * throw FREED), called with the client as `this`.
 * @param {unknown} client
 * @returns {RestClient}
 */
const rest = (client) => /** @type {RestClient} */ (/** @type {unknown} */ (internal(client)));

const installed = Symbol("predictkit.methods");

/** The name every error of the library carries (src/js/driver.js: makeError). */
const ERROR_NAME = "PredictKitError";
const isError = Error.prototype.isPrototypeOf.bind(Error.prototype);

/**
 * True for errors thrown by PredictKit: an `Error` named "PredictKitError" with a string `code`. Never throws,
 * whatever `value` is (a Proxy whose traps throw, a throwing getter: false), and needs no `init()`.
 * @param {unknown} value
 * @returns {boolean}
 */
export function isPredictKitError(value) {
  try {
    const e = /** @type {{ name: unknown, code: unknown }} */ (value);
    return isError(/** @type {object} */ (value)) && e.name === ERROR_NAME && typeof e.code === "string";
  } catch {
    return false;
  }
}

/**
 * A Client as the REST methods use it: the binding's entries for them (src/wasm/client.rs, src/wasm/pages.rs),
 * reached through guard.mjs's `internal` table (none of them is on the public prototype), and `fills`.
 * @typedef {object} RestClient
 * @property {(name: string, a?: unknown, b?: unknown, c?: unknown) => Promise<unknown>} callRest
 *   One call of the REST method `name` (its arguments, then the call's options).
 * @property {(name: string, first: unknown, page: unknown, mode: number) => unknown} nextPageArgument
 *   The first argument of the page after `page` (undefined when none follows; in mode 1, throws then).
 * @property {import("./pages.mjs").PagingClient["pageStart"]} pageStart
 * @property {(trade: unknown) => unknown[]} fills The account's side of a trade (src/api/fills.rs).
 */

/**
 * The Client's internal entries the REST methods use (guard.mjs: `internal`), off its public prototype.
 * @typedef {object} RestEntries
 * @property {RestClient["callRest"]} callRest called with the client as `this`
 * @property {() => [name: string, count: number, list: boolean, rowsAreTrades: boolean][]} restMethods
 *   The route table (src/api/methods.rs: ENDPOINTS), a static.
 */

/**
 * The wasm-bindgen module of a build, as the REST methods use it.
 * @typedef {object} Glue
 * @property {{ prototype: object }} Client its internal entries moved off by guard.mjs (`RestEntries`)
 * @property {() => Error} freedError
 */

/**
 * A web build's module: its wasm-bindgen initialisers too.
 * @typedef {Glue & { default(options?: any): Promise<unknown>, initSync(options?: any): unknown }} WebGlue
 */

/**
 * Defines the REST methods on `glue.Client` (idempotent), once the module is instantiated: the table comes
 * from the wasm. Like every method, each throws `FREED` for a freed client (or anything but a client).
 * @param {Glue} glue
 */
export function installMethods(glue) {
  const proto = glue.Client.prototype;
  if (Object.hasOwn(proto, installed)) return;
  Object.defineProperty(proto, installed, { value: true });
  // Methods whose rows are the account's trades: each row gets the account's side of it (`fills`).
  const trades = new Set();
  const entries = /** @type {RestEntries} */ (/** @type {unknown} */ (internal(proto)));
  const routes = entries.restMethods();
  for (const [name, , , rowsAreTrades] of routes) if (rowsAreTrades) trades.add(name);
  const callRest = entries.callRest;
  /**
   * @this {RestClient}
   * @param {string} name
   * @param {unknown} a
   * @param {unknown} b
   * @param {unknown} c
   */
  entries.callRest = function (name, a, b, c) {
    const answer = callRest.call(this, name, a, b, c);
    return trades.has(name) ? answer.then((/** @type {unknown} */ page) => withFills(this, page)) : answer;
  };
  for (const [name, , list] of routes) {
    const method = live(
      list
        ? /** @type {(this: RestClient, first: unknown, options: unknown) => PagePromise} */ (
            function (first, options) {
              return pagePromise(this, name, first, options);
            }
          )
        : /** @type {(this: RestClient, a: unknown, b: unknown, c: unknown) => Promise<unknown>} */ (
            function (a, b, c) {
              // (Through the receiver's own class: an object that only names a handle never reaches wasm.)
              return rest(this).callRest.call(this, name, a, b, c);
            }
          ),
      glue,
    );
    Object.defineProperty(method, "name", { value: name });
    Object.defineProperty(proto, name, { value: method, writable: true, configurable: true });
  }
}

/**
 * A page of the account's trades, each row given `fills`: the account's side of it (`Client#fills`).
 * @param {RestClient} client
 * @param {unknown} page
 */
function withFills(client, page) {
  const rows = typeof page === "object" && page !== null ? /** @type {{ data?: unknown }} */ (page).data : undefined;
  if (Array.isArray(rows)) {
    for (const row of rows) {
      try {
        /** @type {{ fills?: unknown }} */ (row).fills = client.fills(row);
      } catch {
        // A row that is not an object, or a client freed while the page was on its way: the page is still the
        // service's answer.
      }
    }
  }
  return page;
}

/**
 * `init` and `initSync` of a web build (`glue`): wasm-bindgen's, then the REST methods are defined (they
 * come from the instantiated module), and those of `install` (the trading methods of the full build).
 * @param {WebGlue} glue
 * @param {(glue: WebGlue) => void} [install]
 */
export function initializers(glue, install) {
  /**
   * @template T
   * @param {T} exports
   */
  const ready = (exports) => {
    installMethods(glue);
    install?.(glue);
    return exports;
  };
  return {
    /** @param {unknown} [options] */
    async init(options) {
      return ready(await glue.default(options));
    },
    /** @param {unknown} [options] */
    initSync(options) {
      return ready(glue.initSync(options));
    },
  };
}

/**
 * A list method's answer, a Promise of one page that is also an AsyncIterable of every item. Nothing is
 * sent until it is awaited (one page, the same page however often it is awaited) or iterated (every item,
 * from a fresh iteration each time).
 * @extends {Promise<unknown>}
 */
class PagePromise extends Promise {
  /**
   * Promises derived with then/catch/finally are plain Promises.
   * @override
   */
  static get [Symbol.species]() {
    return Promise;
  }

  /** @type {(page: unknown) => void} */
  #start;
  #started = false;
  /** @type {RestClient} */
  #client;
  /** @type {string} */
  #name;
  /** @type {unknown} */
  #first;
  /** @type {unknown} */
  #options;

  /**
   * @param {RestClient} client
   * @param {string} name
   * @param {unknown} first
   * @param {unknown} options
   */
  constructor(client, name, first, options) {
    /** @type {(page: unknown) => void} */
    let start = () => {};
    super((resolve) => (start = resolve));
    this.#start = start;
    this.#client = client;
    this.#name = name;
    this.#first = first;
    this.#options = options;
  }

  /**
   * @template [T1=unknown]
   * @template [T2=never]
   * @param {((page: unknown) => T1 | PromiseLike<T1>) | null} [onFulfilled]
   * @param {((reason: any) => T2 | PromiseLike<T2>) | null} [onRejected]
   * @returns {Promise<T1 | T2>}
   * @override
   */
  then(onFulfilled, onRejected) {
    if (!this.#started) {
      this.#started = true;
      const [client, name, first, options] = [this.#client, this.#name, this.#first, this.#options];
      this.#start(
        new Promise((resolve) => resolve(rest(client).callRest.call(client, name, first, options))).then((page) =>
          withPaging(client, name, first, options, page),
        ),
      );
    }
    return super.then(onFulfilled, onRejected);
  }

  [Symbol.asyncIterator]() {
    return iteratePages(this.#client, this.#name, this.#first, this.#options);
  }
}

/**
 * @param {RestClient} client
 * @param {string} name
 * @param {unknown} first
 * @param {unknown} options
 */
function pagePromise(client, name, first, options) {
  return new PagePromise(client, name, first, options);
}

/**
 * The service's answer, with `hasNextPage()` and `getNextPage()` (not enumerable: JSON is unchanged).
 * @param {RestClient} client
 * @param {string} name
 * @param {unknown} first
 * @param {unknown} options
 * @param {unknown} page
 */
function withPaging(client, name, first, options, page) {
  if (typeof page !== "object" || page === null) return page;
  // The core decides whether a page follows and with what params (api::following).
  const next = rest(client).nextPageArgument.call(client, name, first, page, 0);
  Object.defineProperties(page, {
    hasNextPage: { value: () => next !== undefined, configurable: true },
    getNextPage: {
      value: () => {
        if (next !== undefined) return pagePromise(client, name, next, options);
        // No page follows: the core's error (INVALID_PARAMS), as a rejection.
        return new Promise((resolve) => resolve(rest(client).nextPageArgument.call(client, name, first, page, 1)));
      },
      configurable: true,
    },
  });
  return page;
}
