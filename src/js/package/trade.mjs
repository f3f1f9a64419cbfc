// @ts-check
// The Client's trading methods: API keys from the user's wallet, orders built, signed and placed, the account
// doctor. Each is a task of the core (src/trade: Keying, Ordering, Signing, Examination) that the one driver
// runs (src/js/driver.js: run), through the binding's `trade*` entries (src/wasm/trade.rs): this file reads the
// caller's signer and provider and hands them over as the task's wallet (`walletOf`); every rule (params,
// amounts, typed data, signatures, requests, what follows a refusal, an order's tracking) is the core's; `follow`
// keeps a tracked order's updates for `for await` and feeds it the user channel. Their declarations are in src/wasm/trade.d.ts.

import { internal, live } from "./guard.mjs";

/**
 * The binding's trading entries of `client`'s class (guard.mjs's table: none is on the public prototype),
 * called with the client as `this`.
 * @param {unknown} client
 * @returns {TradingClient}
 */
const entries = (client) => /** @type {TradingClient} */ (/** @type {unknown} */ (internal(client)));

const installed = Symbol("predictkit.trading");
const SIGNER_RULE = "must be { address, signTypedData(typedData) } (see walletSigner, viemSigner, ethersSigner)";

/**
 * A Client as the trading methods use it: the binding's `trade*` entries (src/wasm/trade.rs).
 * @typedef {object} TradingClient
 * @property {(options: unknown) => AbortSignal | undefined} tradeSignal A call's signal, its options checked.
 * @property {(params: unknown, market: boolean, address: string | undefined, options: unknown, wallet: unknown)
 *   => Promise<unknown>} tradeOrder
 *   An order, a task from its params (read once) to its draft, or, given the signer's address, to the service's
 *   answer (signed by `wallet`).
 * @property {(draft: unknown, address: string, options: unknown, wallet: unknown) => Promise<unknown>} tradeSign
 *   A draft signed by `wallet`, a task.
 * @property {(address: string, nonce: unknown, route: number, options: unknown, wallet: unknown) => Promise<unknown>} tradeApiKey
 *   The wallet's API key, a task that keeps it as the client's credentials.
 * @property {TradeSend} tradeSend One trading step's request.
 * @property {(address: string, options: unknown, provider: boolean, wallet: unknown) => Promise<unknown>} tradeDoctor
 *   An account's examination (src/trade/doctor.rs), for the signer at `address`, run as a task.
 * @property {(order: unknown, settleOnly: boolean, options: unknown, own: unknown, signal: AbortSignal)
 *   => [done: Promise<unknown>, onUpdate: ((u: unknown) => void) | undefined, stream: boolean]} tradeTracker
 *   An order followed, a task (src/trade/tracking.rs) run under `signal` with its own listener and inbox.
 * @property {(markets: string[], options: unknown) => { close(): void }} userStream
 * @property {(options: unknown, client: unknown) => unknown} tradeHeartbeats The dead-man switch (src/wasm/trade.rs).
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
 * What the one JS driver lends the trading methods (src/js/driver.js): the error maker, the signal's readers and
 * the reason that stops a task.
 * @typedef {object} DriverTools
 * @property {(d: { code: string, message: string, param?: string }, cause?: unknown) => PredictKitError} makeError
 * @property {(signal: AbortSignal, listener: () => void) => () => void} onAbortOf
 * @property {(signal: AbortSignal) => boolean} isAborted
 * @property {symbol} stop the abort reason that tells a task its owner stopped it
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
  if (typeof entries(proto).tradeSend !== "function" || typeof glue.driverTools !== "function") return;
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
    const send = /** @type {(this: unknown, step: "version", a: undefined, b: undefined, options: unknown) => Promise<1 | 2 | 3>} */ (
      entries(this).tradeSend
    );
    return send.call(this, "version", undefined, undefined, options);
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
    return entries(this).tradeOrder.call(this, params, false, undefined, options, undefined);
  },
  /**
   * @this {TradingClient}
   * @param {unknown} params
   * @param {unknown} options
   */
  async buildMarketOrder(params, options) {
    return entries(this).tradeOrder.call(this, params, true, undefined, options, undefined);
  },
  /**
   * @this {TradingClient}
   * @param {unknown} orderDraft
   * @param {unknown} signer
   * @param {unknown} options
   */
  async signOrder(orderDraft, signer, options) {
    const s = readSigner(signer);
    return entries(this).tradeSign.call(this, orderDraft, s.address, options, walletOf(s, undefined));
  },
  /**
   * @this {TradingClient}
   * @param {unknown} signed
   * @param {unknown} orderType
   * @param {unknown} options
   */
  async postOrder(signed, orderType, options) {
    return entries(this).tradeSend.call(this, "post", signed, orderType, options);
  },
  /**
   * @this {TradingClient}
   * @param {unknown} signed
   * @param {unknown} options
   */
  async postOrders(signed, options) {
    return entries(this).tradeSend.call(this, "postBatch", signed, undefined, options);
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
    return entries(this).tradeDoctor.call(this, s.address, options, provider !== undefined, walletOf(s, provider));
  },
  /**
   * @this {TradingClient}
   * @param {unknown} options
   */
  heartbeats(options) {
    // The running switch holds this client (src/js/driver.js: runHeartbeats).
    return entries(this).tradeHeartbeats.call(this, options, this);
  },
  /**
   * @this {TradingClient}
   * @param {unknown} order
   * @param {unknown} options
   */
  trackOrder(order, options) {
    return follow(this, order, false, options);
  },
  /**
   * @this {TradingClient}
   * @param {unknown} answer
   * @param {unknown} options
   */
  async waitForSettlement(answer, options) {
    return follow(this, answer, true, options).done;
  },
};

/** The most updates a `for await` may fall behind before the oldest are dropped. */
const MAX_QUEUED = 10_000;

/**
 * Follows an order, a task (src/trade/tracking.rs: Following) the one driver runs: its reads, polls and timeout
 * are the core's; this gives it the user channel's events (when the options want them and a channel can open)
 * and keeps its updates for `for await`. Returns the tracker: `for await` its updates, or `done`, which resolves
 * to the `settled` update (rejects with the tracking's end: its signal, `timeoutMs`, or a read that cannot go
 * on); `stop()` ends it.
 * @param {TradingClient} client
 * @param {unknown} order
 * @param {boolean} settleOnly
 * @param {unknown} options
 */
function follow(client, order, settleOnly, options) {
  const signal = entries(client).tradeSignal.call(client, options);
  /** @type {unknown[]} */
  const queue = [];
  /** @type {((r: IteratorResult<unknown>) => void) | undefined} */
  let waiting;
  /** @type {((reason: unknown) => void) | undefined} */
  let waitingFail;
  /** @type {unknown} */
  let failure;
  let finished = false;
  /** @type {((u: unknown) => void) | undefined} */
  let onUpdate;
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
    if (onUpdate) {
      try {
        onUpdate(update);
      } catch {
        // The caller's callback is its own business.
      }
    }
  };
  /** @param {unknown} error */
  const finish = (error) => {
    if (finished) return;
    finished = true;
    failure = error;
    if (waiting) {
      const [resolve, reject] = [waiting, waitingFail];
      waiting = waitingFail = undefined;
      if (error === undefined) resolve({ value: undefined, done: true });
      else reject?.(error);
    }
  };
  // The task's own signal: aborted by `stop()` (the driver's stop) or the caller's signal.
  const controller = new AbortController();
  if (signal && driver.isAborted(signal)) controller.abort();
  // The caller hears its first update after it has the tracker: what the task tells at once waits for it.
  /** @type {unknown[] | undefined} */
  let early = [];
  // `client`: held while the task runs (the task holds its client's state weakly: a tracker whose client nobody else
  // keeps still runs, and one whose client is freed ends).
  /** @type {{ tell: (u: unknown) => void, inbox: unknown[], poke?: () => void, client: TradingClient }} */
  const own = { tell: (u) => (early ? early.push(u) : push(u)), inbox: [], client };
  // Refused at once for options it does not take (and nothing is listened to yet).
  const [running, listener, useStream] = entries(client).tradeTracker.call(client, order, settleOnly, options, own, controller.signal);
  onUpdate = listener;
  const forget = signal ? driver.onAbortOf(signal, () => controller.abort()) : () => {};
  Promise.resolve().then(() => {
    const told = early ?? [];
    early = undefined;
    for (const u of told) push(u);
  });
  /** @type {{ close(): void } | undefined} */
  let channel;
  if (useStream) {
    try {
      // The user channel: its events go to the task.
      channel = client.userStream([], {
        onEvent: (/** @type {{ event_type?: unknown }} */ e) => {
          if (e.event_type !== "status" && e.event_type !== "order" && e.event_type !== "trade") return;
          own.inbox.push(e);
          if (own.inbox.length > MAX_QUEUED) own.inbox.shift();
          own.poke?.();
        },
      });
    } catch {
      // No channel here (no WebSocket): the reads alone follow the order.
    }
  }
  const done = running.then(
    (settled) => (finish(undefined), settled ?? undefined),
    (e) => (finish(e), Promise.reject(e)),
  );
  // Nobody may be awaiting it: its rejection is never left unhandled (a caller's await still gets it).
  done.catch(() => {});
  done.finally(() => {
    forget();
    try {
      channel?.close();
    } catch {
      // Closed already.
    }
  }).catch(() => {});
  const stop = () => controller.abort(driver.stop);
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
  return entries(client).tradeApiKey.call(client, s.address, nonce, route, options, walletOf(s, undefined));
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
  return entries(client).tradeOrder.call(client, params, market, s.address, options, walletOf(s, undefined));
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
