// The Client's REST methods. The binding exports one entry for all of them (`callRest`), and the route
// table is the core's (src/api/methods.rs, listed by `Client.restMethods()`): each JS method here is one
// line over that entry, which is smaller than one wasm export per method. The list methods answer a page
// promise: await it for one page (with `hasNextPage()` / `getNextPage()`), or iterate it with `for await`
// for every item. Their declarations are in src/wasm/methods.d.ts and src/wasm/pages.d.ts.

import { live } from "./guard.mjs";
import { iteratePages } from "./pages.mjs";

const installed = Symbol("predictkit.methods");

/**
 * Defines the REST methods on `glue.Client` (idempotent), once the module is instantiated: the table comes
 * from the wasm. Like every method, each throws `FREED` for a freed client (or anything but a client).
 */
export function installMethods(glue) {
  const proto = glue.Client.prototype;
  if (Object.hasOwn(proto, installed)) return;
  Object.defineProperty(proto, installed, { value: true });
  for (const [name, , list] of glue.Client.restMethods()) {
    const method = live(
      list
        ? function (first, options) {
            return pagePromise(this, name, first, options);
          }
        : function (a, b, c) {
            return this.callRest(name, a, b, c);
          },
      glue,
    );
    Object.defineProperty(method, "name", { value: name });
    Object.defineProperty(proto, name, { value: method, writable: true, configurable: true });
  }
}

/**
 * `init` and `initSync` of a web build (`glue`): wasm-bindgen's, then the REST methods are defined (they
 * come from the instantiated module), and those of `install` (the trading methods of the full build).
 */
export function initializers(glue, install) {
  const ready = (exports) => {
    installMethods(glue);
    install?.(glue);
    return exports;
  };
  return {
    async init(options) {
      return ready(await glue.default(options));
    },
    initSync(options) {
      return ready(glue.initSync(options));
    },
  };
}

/**
 * A list method's answer, a Promise of one page that is also an AsyncIterable of every item. Nothing is
 * sent until it is awaited (one page, the same page however often it is awaited) or iterated (every item,
 * from a fresh iteration each time).
 */
class PagePromise extends Promise {
  // Promises derived with then/catch/finally are plain Promises.
  static get [Symbol.species]() {
    return Promise;
  }

  #start;
  #started = false;
  #client;
  #name;
  #first;
  #options;

  constructor(client, name, first, options) {
    let start;
    super((resolve) => (start = resolve));
    this.#start = start;
    this.#client = client;
    this.#name = name;
    this.#first = first;
    this.#options = options;
  }

  then(onFulfilled, onRejected) {
    if (!this.#started) {
      this.#started = true;
      const [client, name, first, options] = [this.#client, this.#name, this.#first, this.#options];
      this.#start(
        new Promise((resolve) => resolve(client.callRest(name, first, options))).then((page) =>
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

function pagePromise(client, name, first, options) {
  return new PagePromise(client, name, first, options);
}

/** The service's answer, with `hasNextPage()` and `getNextPage()` (not enumerable: JSON is unchanged). */
function withPaging(client, name, first, options, page) {
  if (typeof page !== "object" || page === null) return page;
  // The core decides whether a page follows and with what params (api::following).
  const next = client.nextPageArgument(name, first, page, false);
  Object.defineProperties(page, {
    hasNextPage: { value: () => next !== undefined, configurable: true },
    getNextPage: {
      value: () => {
        if (next !== undefined) return pagePromise(client, name, next, options);
        // No page follows: the core's error (INVALID_PARAMS), as a rejection.
        return new Promise((resolve) => resolve(client.nextPageArgument(name, first, page, true)));
      },
      configurable: true,
    },
  });
  return page;
}
