// @ts-check
// The Client's trading methods: API keys from the user's wallet, orders built, signed and placed, the account
// doctor. Each is a task of the core (src/trade: Keying, Ordering, Signing, Examination) that the one driver
// runs (src/js/driver.js: run), through the binding's `trade*` entries (src/wasm/trade.rs): this file reads the
// caller's signer and provider and hands them over as the task's wallet (`walletOf`); every rule (params,
// amounts, typed data, signatures, requests, what follows a refusal) is the core's. The order tracker still
// runs its own loop here (`follow`). Their declarations are in src/wasm/trade.d.ts.

import { live } from "./guard.mjs";

const installed = Symbol("predictkit.trading");
const SIGNER_RULE = "must be { address, signTypedData(typedData) } (see walletSigner, viemSigner, ethersSigner)";

/**
 * A Client as the trading methods use it: the binding's `trade*` entries (src/wasm/trade.rs).
 * @typedef {object} TradingClient
 * @property {(options: unknown, needsKey?: boolean, address?: string)
 *   => [signal: AbortSignal | undefined, signTimeoutMs: number]} tradeCall
 *   A call's start: its options checked (and the signer's address, and the credentials when `needsKey`).
 * @property {(params: unknown, market: boolean, place: boolean, address: string | undefined, options: unknown,
 *   wallet: unknown) => Promise<unknown>} tradeOrder
 *   An order, a task from its params (read once) to the service's answer (signed by `wallet`) or its draft.
 * @property {(draft: unknown, address: string, options: unknown, wallet: unknown) => Promise<unknown>} tradeSign
 *   A draft signed by `wallet`, a task.
 * @property {(address: string, nonce: unknown, route: number, options: unknown, wallet: unknown) => Promise<unknown>} tradeApiKey
 *   The wallet's API key, a task that keeps it as the client's credentials.
 * @property {TradeSend} tradeSend One trading step's request.
 * @property {(address: string, options: unknown, provider: boolean, wallet: unknown) => Promise<unknown>} tradeDoctor
 *   An account's examination (src/trade/doctor.rs), for the signer at `address`, run as a task.
 * @property {(order: unknown, settleOnly: boolean, options: unknown)
 *   => [work: TrackWork, onUpdate: ((u: unknown) => void) | undefined, stream: boolean, timeoutMs: number | undefined]} tradeTracker
 *   An order followed (src/trade/tracking.rs).
 * @property {(id: string, options: unknown) => Promise<unknown>} getOrder
 * @property {(params: unknown, options: unknown) => Promise<unknown>} getUserTrades
 * @property {(markets: string[], options: unknown) => { close(): void }} userStream
 * @property {(options: unknown, client: unknown) => unknown} tradeHeartbeats The dead-man switch (src/wasm/heartbeat.rs).
 */

/**
 * An order followed (src/wasm/tracking.rs: TrackWork): what its sources said goes in (`observe`: 0 an order's
 * read, 1 a trade's read, undefined when the read failed; 2 a user channel event; 3 whether the channel is
 * open), what to do comes out (`["tell", update]`, `["order"]`, `["trade", id]`, `["wait", ms]`, `["done"]`).
 * @typedef {object} TrackWork
 * @property {string} orderId
 * @property {(kind: number, value: unknown, code?: unknown) => boolean} observe what a source said; for a
 *   failed read, whether its failure's `code` ends the following
 * @property {(now: number) => string} next
 * @property {() => void} free
 */

/**
 * The trading steps' requests and what each resolves to.
 * @typedef {{
 *   (step: "version", a: undefined, b: undefined, options: unknown): Promise<1 | 2 | 3>;
 *   (step: "post" | "postBatch", orders: unknown, orderType: unknown, options: unknown): Promise<unknown>;
 * }} TradeSend
 */

/**
 * The wasm-bindgen module of a build, as this file uses it.
 * @typedef {object} Glue
 * @property {{ prototype: { tradeSend?: unknown } }} Client
 * @property {() => Error} freedError
 * @property {() => DriverTools} [driverTools] the driver's tools (src/js/driver.js: tools)
 */

/**
 * What the one JS driver lends the trading methods (src/js/driver.js): the wallet's wait and the error maker.
 * @typedef {object} DriverTools
 * @property {(d: { code: string, message: string, param?: string }, cause?: unknown) => PredictKitError} makeError
 * @property {(fn: () => void, ms: number) => unknown} later
 * @property {(handle: unknown) => void} clearLater
 * @property {() => number} dateNow
 * @property {(signal: AbortSignal, listener: () => void) => () => void} onAbortOf
 * @property {(signal: AbortSignal) => boolean} isAborted
 * @property {(e: unknown) => { code?: unknown, status?: unknown, body?: unknown, retryAfterMs?: unknown }} facts
 */

/** The driver's tools, taken from the first build the methods are installed on. */
let driver = /** @type {DriverTools} */ (/** @type {unknown} */ (undefined));

/** @typedef {Error & { code: string, param?: string }} PredictKitError */

/**
 * A caller's signer as read once (`readSigner`).
 * @typedef {{ address: string, signTypedData: Function, signer: object }} ReadSigner
 */

/**
 * Defines the trading methods on `glue.Client` (idempotent): only builds that trade export `tradeSend`.
 * @param {Glue} glue
 */
export function installTrading(glue) {
  const proto = glue.Client.prototype;
  if (typeof proto.tradeSend !== "function" || typeof glue.driverTools !== "function") return;
  if (Object.hasOwn(proto, installed)) return;
  Object.defineProperty(proto, installed, { value: true });
  driver ??= glue.driverTools();
  for (const [name, method] of Object.entries(methods)) {
    const guarded = live(method, glue);
    Object.defineProperty(guarded, "name", { value: name });
    Object.defineProperty(proto, name, { value: guarded, writable: true, configurable: true });
  }
}

const methods = {
  /**
   * GET /version: the exchange's order version (1, 2 or 3), read afresh.
   * @this {TradingClient}
   * @param {unknown} options
   */
  async getVersion(options) {
    this.tradeCall(options);
    return this.tradeSend("version", undefined, undefined, options);
  },
  /**
   * @this {TradingClient}
   * @param {unknown} signer
   * @param {unknown} nonce
   * @param {unknown} options
   */
  async createApiKey(signer, nonce, options) {
    return apiKey(this, readSigner(signer), nonce, options, 0);
  },
  /**
   * @this {TradingClient}
   * @param {unknown} signer
   * @param {unknown} nonce
   * @param {unknown} options
   */
  async deriveApiKey(signer, nonce, options) {
    return apiKey(this, readSigner(signer), nonce, options, 1);
  },
  /**
   * @this {TradingClient}
   * @param {unknown} signer
   * @param {unknown} nonce
   * @param {unknown} options
   */
  async createOrDeriveApiKey(signer, nonce, options) {
    // Derived, else created when the wallet has none yet (src/trade/flow.rs), with one signature.
    return apiKey(this, readSigner(signer), nonce, options, 2);
  },
  /**
   * @this {TradingClient}
   * @param {unknown} params
   * @param {unknown} options
   */
  async buildOrder(params, options) {
    return this.tradeOrder(params, false, false, undefined, options, undefined);
  },
  /**
   * @this {TradingClient}
   * @param {unknown} params
   * @param {unknown} options
   */
  async buildMarketOrder(params, options) {
    return this.tradeOrder(params, true, false, undefined, options, undefined);
  },
  /**
   * @this {TradingClient}
   * @param {unknown} orderDraft
   * @param {unknown} signer
   * @param {unknown} options
   */
  async signOrder(orderDraft, signer, options) {
    const s = readSigner(signer);
    return this.tradeSign(orderDraft, s.address, options, walletOf(s, undefined));
  },
  /**
   * @this {TradingClient}
   * @param {unknown} signed
   * @param {unknown} orderType
   * @param {unknown} options
   */
  async postOrder(signed, orderType, options) {
    return this.tradeSend("post", signed, orderType, options);
  },
  /**
   * @this {TradingClient}
   * @param {unknown} signed
   * @param {unknown} options
   */
  async postOrders(signed, options) {
    return this.tradeSend("postBatch", signed, undefined, options);
  },
  /**
   * @this {TradingClient}
   * @param {unknown} params
   * @param {unknown} signer
   * @param {unknown} options
   */
  async placeOrder(params, signer, options) {
    return place(this, params, signer, options, false);
  },
  /**
   * @this {TradingClient}
   * @param {unknown} params
   * @param {unknown} signer
   * @param {unknown} options
   */
  async placeMarketOrder(params, signer, options) {
    return place(this, params, signer, options, true);
  },
  /**
   * @this {TradingClient}
   * @param {unknown} signer
   * @param {unknown} options
   */
  async diagnoseAccount(signer, options) {
    // The examination is a task (src/trade/doctor.rs: Examination): the provider's reads, the signer's
    // signatures of a deposit wallet's test order and the service's balance reads the core asks for.
    const s = readSigner(signer);
    const provider = readProvider(options);
    return this.tradeDoctor(s.address, options, provider !== undefined, walletOf(s, provider));
  },
  /**
   * @this {TradingClient}
   * @param {unknown} options
   */
  heartbeats(options) {
    // The running switch holds this client (src/js/driver.js: runHeartbeats).
    return this.tradeHeartbeats(options, this);
  },
  /**
   * @this {TradingClient}
   * @param {unknown} order
   * @param {unknown} options
   */
  trackOrder(order, options) {
    const [signal] = this.tradeCall(options);
    const [work, onUpdate, stream, timeoutMs] = this.tradeTracker(order, false, options);
    return follow(this, work, signal, onUpdate, stream, timeoutMs);
  },
  /**
   * @this {TradingClient}
   * @param {unknown} answer
   * @param {unknown} options
   */
  async waitForSettlement(answer, options) {
    const [signal] = this.tradeCall(options);
    const [work, , , timeoutMs] = this.tradeTracker(answer, true, options);
    return follow(this, work, signal, undefined, false, timeoutMs).done;
  },
};

/** How often a followed order is read while the user channel is not open (trackOrder), and a trade (waitForSettlement). */
/** The most updates a `for await` may fall behind before the oldest are dropped. */
const MAX_QUEUED = 10_000;

/**
 * Runs an order's tracker: the reads it asks for (each with the client's own timeout and retries, abandoned when
 * the tracking ends), the user channel's events when `useStream` (reads alone when no channel can open), the
 * driver's timers. Returns the tracker: `for await` its updates, or `done`, which resolves to the `settled`
 * update (rejects with the tracking's end: its signal, `timeoutMs`, or a read that cannot go on).
 * @param {TradingClient} client
 * @param {TrackWork} work
 * @param {AbortSignal | undefined} signal
 * @param {((u: unknown) => void) | undefined} onUpdate
 * @param {boolean} useStream
 * @param {number | undefined} timeoutMs
 */
function follow(client, work, signal, onUpdate, useStream, timeoutMs) {
  /** @type {unknown[]} */
  const queue = [];
  /** @type {((r: IteratorResult<unknown>) => void) | undefined} */
  let waiting;
  /** @type {((reason: unknown) => void) | undefined} */
  let waitingFail;
  /** @type {unknown} */
  let failure;
  let finished = false;
  let stopped = false;
  /** @type {(() => void) | undefined} */
  let wake;
  /** @type {unknown} */
  let timer;
  /** @type {(value: unknown) => void} */
  let resolveDone = () => {};
  /** @type {(reason: unknown) => void} */
  let rejectDone = () => {};
  const done = new Promise((resolve, reject) => ((resolveDone = resolve), (rejectDone = reject)));
  // Nobody may be awaiting it: its rejection is never left unhandled (a caller's await still gets it).
  done.catch(() => {});
  /** @param {unknown} update */
  const push = (update) => {
    if (waiting) {
      const resolve = waiting;
      waiting = waitingFail = undefined;
      resolve({ value: update, done: false });
    } else {
      queue.push(update);
      if (queue.length > MAX_QUEUED) queue.shift();
    }
  };
  /** @param {unknown} error */
  const finish = (error) => {
    if (finished) return;
    finished = true;
    failure = error;
    if (error === undefined) resolveDone(lastSettled);
    else rejectDone(error);
    if (waiting) {
      const [resolve, reject] = [waiting, waitingFail];
      waiting = waitingFail = undefined;
      if (error === undefined) resolve({ value: undefined, done: true });
      else reject?.(error);
    }
  };
  /** @type {unknown} */
  let lastSettled;
  // The read in flight is abandoned when the tracking ends (stop, `break`, the caller's signal).
  const reads = new AbortController();
  const readOptions = { signal: reads.signal };
  const stop = () => {
    stopped = true;
    reads.abort();
    wake?.();
  };
  let forget = () => {};
  if (signal) {
    forget = driver.onAbortOf(signal, () => {
      reads.abort();
      wake?.();
    });
  }
  /** @type {{ close(): void } | undefined} */
  let channel;
  (async () => {
    // The caller hears its first update after it has the tracker.
    await null;
    const deadline = timeoutMs === undefined ? Infinity : driver.dateNow() + timeoutMs;
    const ended = () => {
      if (signal && driver.isAborted(signal)) return driver.makeError({ code: "ABORTED", message: "the order's tracking was aborted by its AbortSignal" });
      if (driver.dateNow() >= deadline) return driver.makeError({ code: "TIMEOUT", message: "the order was not settled within timeoutMs" });
      return undefined;
    };
    try {
      if (useStream) {
        try {
          // The user channel: its events go to the tracker.
          channel = client.userStream([], {
            onEvent: (/** @type {{ event_type?: unknown, status?: unknown }} */ e) => {
              try {
                if (e.event_type === "status") work.observe(3, e.status === "open");
                else if (e.event_type === "order" || e.event_type === "trade") work.observe(2, e);
              } catch {
                // The tracker is gone: the loop ends.
              }
              wake?.();
            },
          });
        } catch {
          // No channel here (no WebSocket): the reads alone follow the order.
        }
      }
      for (;;) {
        if (stopped) break;
        const end = ended();
        if (end) throw end;
        const need = JSON.parse(work.next(driver.dateNow()));
        if (need[0] === "tell") {
          if (need[1].type === "settled") lastSettled = need[1];
          push(need[1]);
          if (onUpdate) {
            try {
              onUpdate(need[1]);
            } catch {
              // The caller's callback is its own business.
            }
          }
        } else if (need[0] === "done") break;
        else if (need[0] === "wait") {
          if (reads.signal.aborted) continue;
          const left = Math.min(need[1], deadline - driver.dateNow());
          await new Promise((resolve) => {
            wake = () => resolve(undefined);
            timer = driver.later(wake, Math.max(0, left));
          });
          driver.clearLater(timer);
          wake = undefined;
        } else {
          const kind = need[0] === "order" ? 0 : 1;
          try {
            const answer = kind === 0
              ? await client.getOrder(work.orderId, readOptions)
              : await client.getUserTrades({ id: need[1] }, readOptions);
            work.observe(kind, answer);
          } catch (e) {
            if (stopped) break;
            const { code } = driver.facts(e);
            // The caller's signal ends the tracking at the loop's top; a read that cannot succeed ends it here
            // (the core's rule: an order the service does not know or let this key see).
            if (code === "ABORTED") continue;
            if (work.observe(kind, undefined, code)) throw e;
          }
        }
      }
      finish(undefined);
    } catch (e) {
      finish(e);
    } finally {
      forget();
      try {
        channel?.close();
      } catch {
        // Closed already.
      }
      try {
        work.free();
      } catch {
        // Freed already.
      }
      if (!finished) finish(undefined);
    }
  })();
  return {
    done,
    stop,
    [Symbol.asyncIterator]() {
      return {
        next() {
          if (queue.length) return Promise.resolve({ value: queue.shift(), done: false });
          if (finished) return failure === undefined ? Promise.resolve({ value: undefined, done: true }) : Promise.reject(failure);
          return new Promise((resolve, reject) => ((waiting = resolve), (waitingFail = reject)));
        },
        return() {
          stop();
          return Promise.resolve({ value: undefined, done: true });
        },
      };
    },
  };
}

/**
 * What a task asks of the wallet (src/js/driver.js: Wallet): the signer's `signTypedData` and the provider's
 * `request`, each called on its own object.
 * @param {ReadSigner} s
 * @param {{ request: Function, provider: object } | undefined} provider
 */
function walletOf(s, provider) {
  return {
    sign: (/** @type {unknown} */ typedData) => s.signTypedData.call(s.signer, typedData),
    rpc: provider && ((/** @type {unknown} */ request) => provider.request.call(provider.provider, request)),
  };
}

/**
 * The call's `provider` (EIP-1193: `request({ method, params })`), read once; absent is undefined.
 * @param {unknown} options
 * @returns {{ request: Function, provider: object } | undefined}
 */
function readProvider(options) {
  const RULE = "must be an EIP-1193 provider { request({ method, params }) }";
  let provider, request;
  try {
    if (typeof options !== "object" || options === null) return undefined;
    provider = /** @type {{ provider?: unknown }} */ (options).provider;
    if (provider === undefined || provider === null) return undefined;
    if (typeof provider !== "object" && typeof provider !== "function") throw 0;
    request = /** @type {{ request?: unknown }} */ (provider).request;
  } catch {
    throw invalid("options.provider", RULE);
  }
  if (typeof request !== "function") throw invalid("options.provider", RULE);
  return { request, provider: /** @type {object} */ (provider) };
}

/**
 * Creates or derives the key of the signer `s` (read) and `nonce`, a task (src/trade/keys.rs: Keying) that keeps
 * it as the client's credentials; resolves to `{ address, apiKey }`.
 * @param {TradingClient} client
 * @param {ReadSigner} s
 * @param {unknown} nonce
 * @param {unknown} options
 * @param {0 | 1 | 2} route create, derive, or derive and else create
 */
function apiKey(client, s, nonce, options, route) {
  return client.tradeApiKey(s.address, nonce, route, options, walletOf(s, undefined));
}

/**
 * Builds, signs and places an order, a task (src/trade/placing.rs: Ordering): from its params to the POST in
 * wasm, the wallet asked for its signature; a version change rebuilds and signs it once more, a 400 forgets the
 * token's market.
 * @param {TradingClient} client
 * @param {unknown} params
 * @param {unknown} signer
 * @param {unknown} options
 * @param {boolean} market
 */
async function place(client, params, signer, options, market) {
  const s = readSigner(signer);
  return client.tradeOrder(params, market, true, s.address, options, walletOf(s, undefined));
}

/**
 * A caller's signer, read once (its getters and traps may throw).
 * @param {unknown} signer
 * @returns {ReadSigner}
 */
function readSigner(signer) {
  let address, signTypedData;
  try {
    if (typeof signer !== "object" || signer === null) throw 0;
    const given = /** @type {{ address?: unknown, signTypedData?: unknown }} */ (signer);
    address = given.address;
    signTypedData = given.signTypedData;
  } catch {
    throw invalid("signer", SIGNER_RULE);
  }
  if (typeof signTypedData !== "function") throw invalid("signer", SIGNER_RULE);
  if (typeof address !== "string" || address.length > 64) throw invalid("signer.address", "must be an address string");
  return { address, signTypedData, signer };
}

/**
 * @param {string} param
 * @param {string} rule
 */
function invalid(param, rule) {
  return driver.makeError({ code: "INVALID_PARAMS", message: `${param}: ${rule}`, param });
}
