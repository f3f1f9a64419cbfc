// @ts-check
// The Client's trading methods: API keys from the user's wallet, orders built, signed and placed. This
// file sequences the steps and waits for the wallet; every rule is the core's, through the binding's
// `trade*` entries (src/wasm/trade.rs): params and drafts are read there, amounts computed, typed data
// written, signatures checked, requests built and sent (with the client's budgets, retries, signal and
// timeout), and what follows a refusal decided (src/trade/flow.rs). Their declarations are in
// src/wasm/trade.d.ts.

import { live } from "./guard.mjs";

const installed = Symbol("predictkit.trading");
// The signal's own accessors, taken at load: a caller's AbortSignal may shadow them.
const abortedOf = /** @type {(this: AbortSignal) => boolean} */ (
  /** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(AbortSignal.prototype, "aborted")).get
);
const { addEventListener, removeEventListener } = EventTarget.prototype;
const MAX_TIMER_MS = 2147483647;
const SIGNER_RULE = "must be { address, signTypedData(typedData) } (see walletSigner, viemSigner, ethersSigner)";

/**
 * A Client as the trading methods use it: the binding's `trade*` entries (src/wasm/trade.rs).
 * @typedef {object} TradingClient
 * @property {(options: unknown, needsKey?: boolean, address?: string)
 *   => [signal: AbortSignal | undefined, signTimeoutMs: number]} tradeCall
 *   A call's start: its options checked (and the signer's address, and the credentials when `needsKey`).
 * @property {(params: unknown, market: boolean)
 *   => [token: string, condition: string | undefined, needsBook: boolean, params: object]} tradeOrder
 *   An order's params, read once.
 * @property {(params: object, market: boolean, version: 1 | 2, info: Uint8Array, fee: number,
 *   book: Uint8Array | undefined) => unknown} tradeDraft
 *   An order's draft.
 * @property {(draft: unknown, address: string) => [typedData: unknown, signed: { signature: string }]} tradeOrderToSign
 *   What the wallet signs for a draft, and the signed order but for its signature.
 * @property {(address: string, nonce: unknown) => [typedData: unknown, auth: unknown]} tradeKeyToSign
 *   What the wallet signs for its API key, and the challenge for `tradeSend`.
 * @property {(answer: unknown) => string} tradeSignature A wallet's answer as a signature.
 * @property {(auth: unknown, answer: Uint8Array) => unknown} tradeKey A key route's answer kept as the credentials.
 * @property {(stage: "place" | "derive", error: unknown, rebuilt: boolean) => string} tradeNext
 *   What follows a failed step: "rebuild", "forget" or "fail" (placing), "create" or "fail" (deriving).
 * @property {TradeSend} tradeSend One trading step's request.
 */

/**
 * The trading steps' requests and what each resolves to.
 * @typedef {{
 *   (step: "version", a: undefined, b: undefined, options: unknown): Promise<1 | 2>;
 *   (step: "fee", token: string, b: undefined, options: unknown): Promise<number>;
 *   (step: "market", condition: string, b: undefined, options: unknown): Promise<Uint8Array>;
 *   (step: "book", token: string, b: undefined, options: unknown): Promise<[market: string | null, book: Uint8Array]>;
 *   (step: "createKey" | "deriveKey", auth: unknown, signature: unknown, options: unknown): Promise<Uint8Array>;
 *   (step: "post" | "place" | "postBatch", orders: unknown, orderType: unknown, options: unknown): Promise<unknown>;
 * }} TradeSend
 */

/**
 * The wasm-bindgen module of a build, as this file uses it.
 * @typedef {object} Glue
 * @property {{ prototype: { tradeSend?: unknown } }} Client
 * @property {() => Error} freedError
 */

/** @typedef {Error & { code: string, param?: string }} PredictKitError */

/**
 * A caller's signer as read once (`readSigner`).
 * @typedef {{ address: string, signTypedData: Function, signer: object }} ReadSigner
 */

/**
 * An order's params as read once (`readOrder`).
 * @typedef {{ token: string, condition: string | undefined, needsBook: boolean, params: object,
 *   market: boolean }} ReadOrder
 */

/**
 * Defines the trading methods on `glue.Client` (idempotent): only builds that trade export `tradeSend`.
 * @param {Glue} glue
 */
export function installTrading(glue) {
  const proto = glue.Client.prototype;
  if (typeof proto.tradeSend !== "function" || Object.hasOwn(proto, installed)) return;
  Object.defineProperty(proto, installed, { value: true });
  for (const [name, method] of Object.entries(methods)) {
    const guarded = live(method, glue);
    Object.defineProperty(guarded, "name", { value: name });
    Object.defineProperty(proto, name, { value: guarded, writable: true, configurable: true });
  }
}

/**
 * What a client has learnt of the service: the order version, each token's market (its condition id and
 * its GET /clob-markets answer), V1 fee rates.
 * @typedef {{ version: 1 | 2 | undefined, markets: Map<string, { condition: string, info: Uint8Array }>,
 *   fees: Map<string, number> }} Memory
 */

// What each client has learnt of the service.
/** @type {WeakMap<TradingClient, Memory>} */
const learnt = new WeakMap();
/** @param {TradingClient} client */
function memory(client) {
  let m = learnt.get(client);
  if (!m) learnt.set(client, (m = { version: undefined, markets: new Map(), fees: new Map() }));
  return m;
}

const methods = {
  /**
   * GET /version: the exchange's order version (1 or 2), read afresh.
   * @this {TradingClient}
   * @param {unknown} options
   */
  async getVersion(options) {
    this.tradeCall(options);
    return version(this, options, true);
  },
  /**
   * @this {TradingClient}
   * @param {unknown} signer
   * @param {unknown} nonce
   * @param {unknown} options
   */
  async createApiKey(signer, nonce, options) {
    return apiKey(this, readSigner(signer), nonce, options, "createKey");
  },
  /**
   * @this {TradingClient}
   * @param {unknown} signer
   * @param {unknown} nonce
   * @param {unknown} options
   */
  async deriveApiKey(signer, nonce, options) {
    return apiKey(this, readSigner(signer), nonce, options, "deriveKey");
  },
  /**
   * @this {TradingClient}
   * @param {unknown} signer
   * @param {unknown} nonce
   * @param {unknown} options
   */
  async createOrDeriveApiKey(signer, nonce, options) {
    const s = readSigner(signer);
    try {
      return await apiKey(this, s, nonce, options, "deriveKey");
    } catch (e) {
      if (this.tradeNext("derive", e, false) !== "create") throw e;
      return apiKey(this, s, nonce, options, "createKey");
    }
  },
  /**
   * @this {TradingClient}
   * @param {unknown} params
   * @param {unknown} options
   */
  async buildOrder(params, options) {
    const order = readOrder(this, params, false);
    this.tradeCall(options);
    return draft(this, order, options, false);
  },
  /**
   * @this {TradingClient}
   * @param {unknown} params
   * @param {unknown} options
   */
  async buildMarketOrder(params, options) {
    const order = readOrder(this, params, true);
    this.tradeCall(options);
    return draft(this, order, options, false);
  },
  /**
   * @this {TradingClient}
   * @param {unknown} orderDraft
   * @param {unknown} signer
   * @param {unknown} options
   */
  async signOrder(orderDraft, signer, options) {
    const s = readSigner(signer);
    const [signal, timeoutMs] = this.tradeCall(options);
    return sign(this, orderDraft, s, signal, timeoutMs);
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
};

/**
 * The order version: learnt once, or read afresh when `fresh`.
 * @param {TradingClient} client
 * @param {unknown} options
 * @param {boolean} fresh
 */
async function version(client, options, fresh) {
  const m = memory(client);
  if (m.version === undefined || fresh) m.version = await client.tradeSend("version", undefined, undefined, options);
  return m.version;
}

/**
 * An order's draft (and what it was built from): the version, the token's market (from the book when the
 * params name none; learnt once per token), the book for a market order without a price, the V1 fee rate.
 * @param {TradingClient} client
 * @param {ReadOrder} order
 * @param {unknown} options
 * @param {boolean} fresh
 */
async function draft(client, order, options, fresh) {
  const { token, condition, needsBook, params, market } = order;
  const v = await version(client, options, fresh);
  const m = memory(client);
  let known = m.markets.get(token);
  if (known && condition !== undefined && known.condition !== condition) known = undefined;
  let book;
  if (!known) {
    /** @type {string | null | undefined} */
    let found = condition;
    if (found === undefined) {
      [found, book] = await client.tradeSend("book", token, undefined, options);
      if (found == null) throw decodeError("GET /book: the book names no market");
    }
    known = { condition: found, info: await client.tradeSend("market", found, undefined, options) };
  }
  if (needsBook && !book) [, book] = await client.tradeSend("book", token, undefined, options);
  /** @type {number | undefined} */
  let fee = 0;
  if (v === 1) {
    fee = m.fees.get(token);
    if (fee === undefined) m.fees.set(token, (fee = await client.tradeSend("fee", token, undefined, options)));
  }
  let built;
  try {
    built = client.tradeDraft(params, market, v, known.info, fee, book);
  } catch (e) {
    // The market is learnt (once) unless it does not list the token.
    if (/** @type {{ param?: string }} */ (e).param !== "tokenId") m.markets.set(token, known);
    throw e;
  }
  m.markets.set(token, known);
  return built;
}

/**
 * An order's params read once (`tradeOrder`): the token, the condition if given, whether the price comes
 * from the book, and a plain copy of the params that every build reads (the caller's object may change
 * while requests are under way).
 * @param {TradingClient} client
 * @param {unknown} params
 * @param {boolean} market
 * @returns {ReadOrder}
 */
function readOrder(client, params, market) {
  const [token, condition, needsBook, copy] = client.tradeOrder(params, market);
  return { token, condition, needsBook, params: copy, market };
}

/**
 * Has the signer sign a draft; resolves to the signed order.
 * @param {TradingClient} client
 * @param {unknown} orderDraft
 * @param {ReadSigner} s
 * @param {AbortSignal | undefined} signal
 * @param {number} timeoutMs
 */
async function sign(client, orderDraft, s, signal, timeoutMs) {
  const [typedData, signed] = client.tradeOrderToSign(orderDraft, s.address);
  signed.signature = client.tradeSignature(await ask(s, typedData, signal, timeoutMs));
  return signed;
}

/**
 * Creates or derives the key of the signer `s` (read) and `nonce`, and keeps it as the client's credentials.
 * @param {TradingClient} client
 * @param {ReadSigner} s
 * @param {unknown} nonce
 * @param {unknown} options
 * @param {"createKey" | "deriveKey"} step
 */
async function apiKey(client, s, nonce, options, step) {
  const [signal, timeoutMs] = client.tradeCall(options);
  const [typedData, auth] = client.tradeKeyToSign(s.address, nonce);
  const signature = await ask(s, typedData, signal, timeoutMs);
  const answer = await client.tradeSend(step, auth, signature, options);
  try {
    return client.tradeKey(auth, answer);
  } finally {
    // The answer holds the key's secret and passphrase.
    answer.fill(0);
  }
}

/**
 * Builds, signs and places an order; a version change rebuilds and signs it once more.
 * @param {TradingClient} client
 * @param {unknown} params
 * @param {unknown} signer
 * @param {unknown} options
 * @param {boolean} market
 */
async function place(client, params, signer, options, market) {
  const order = readOrder(client, params, market);
  const s = readSigner(signer);
  // Everything is checked before the first request: the options, the signer's address, the credentials.
  const [signal, timeoutMs] = client.tradeCall(options, true, s.address);
  for (let rebuilt = false; ; rebuilt = true) {
    const built = await draft(client, order, options, rebuilt);
    const signed = await sign(client, built, s, signal, timeoutMs);
    try {
      // Posted as built and signed (its terms were checked with the draft; the options only carry the call's).
      return await client.tradeSend("place", signed, undefined, options);
    } catch (e) {
      const next = client.tradeNext("place", e, rebuilt);
      if (next === "rebuild") continue;
      // Refused: the market's tick size may have changed.
      if (next === "forget") memory(client).markets.delete(order.token);
      throw e;
    }
  }
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
 * Asks the wallet to sign `typedData` (an `eth_signTypedData_v4` document). The call's signal stops the
 * wait, and so does `signTimeoutMs`: a wallet that never answers cannot hold the call for ever.
 * @param {ReadSigner} s
 * @param {unknown} typedData
 * @param {AbortSignal | undefined} signal
 * @param {number} timeoutMs
 * @returns {Promise<unknown>}
 */
function ask(s, typedData, signal, timeoutMs) {
  return new Promise((resolve, reject) => {
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    let settled = false;
    /**
     * @param {(value: any) => void} how
     * @param {unknown} value
     */
    const settle = (how, value) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (signal) removeEventListener.call(signal, "abort", onAbort);
      how(value);
    };
    const onAbort = () => settle(reject, error("ABORTED", "the call was aborted by its AbortSignal while the signer was asked"));
    if (signal && abortedOf.call(signal)) return onAbort();
    // Listening before the wallet is asked: it may abort the call while it is being asked.
    if (signal) addEventListener.call(signal, "abort", onAbort, { once: true });
    // Infinity waits for ever; a wait longer than one timer can hold is made of several.
    if (Number.isFinite(timeoutMs)) {
      const deadline = Date.now() + timeoutMs;
      const arm = () => {
        const left = deadline - Date.now();
        if (left <= 0) return settle(reject, error("TIMEOUT", "the signer did not answer within signTimeoutMs"));
        timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
      };
      arm();
    }
    let answer;
    try {
      answer = s.signTypedData.call(s.signer, typedData);
    } catch (e) {
      return settle(reject, error("SIGNER", "the signer threw", e));
    }
    new Promise((inner) => inner(answer)).then(
      (signature) => settle(resolve, signature),
      (e) => settle(reject, error("SIGNER", "the signer refused or failed to sign", e)),
    );
  });
}

/**
 * @param {string} code
 * @param {string} message
 * @param {unknown} [cause]
 * @returns {PredictKitError}
 */
function error(code, message, cause) {
  const e = /** @type {PredictKitError} */ (cause === undefined ? new Error(message) : new Error(message, { cause }));
  e.name = "PredictKitError";
  e.code = code;
  return e;
}

/**
 * @param {string} param
 * @param {string} rule
 */
function invalid(param, rule) {
  const e = error("INVALID_PARAMS", `${param}: ${rule}`);
  e.param = param;
  return e;
}

/** @param {string} message */
function decodeError(message) {
  return error("DECODE", message);
}
