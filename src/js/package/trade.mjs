// The Client's trading methods: API keys from the user's wallet, orders built, signed and placed. This
// file sequences the steps and waits for the wallet; every rule is the core's, through the binding's
// `trade*` entries (src/wasm/trade.rs): params and drafts are read there, amounts computed, typed data
// written, signatures checked, requests built and sent (with the client's budgets, retries, signal and
// timeout), and what follows a refusal decided (src/trade/flow.rs). Their declarations are in
// src/wasm/trade.d.ts.

import { live } from "./guard.mjs";

const installed = Symbol("predictkit.trading");
// The signal's own accessors, taken at load: a caller's AbortSignal may shadow them.
const abortedOf = Object.getOwnPropertyDescriptor(AbortSignal.prototype, "aborted").get;
const { addEventListener, removeEventListener } = EventTarget.prototype;
const MAX_TIMER_MS = 2147483647;
const SIGNER_RULE = "must be { address, signTypedData(typedData) } (see walletSigner, viemSigner, ethersSigner)";

/** Defines the trading methods on `glue.Client` (idempotent): only builds that trade export `tradeSend`. */
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

// What each client has learnt of the service: the order version, each token's market, V1 fee rates.
const learnt = new WeakMap();
function memory(client) {
  let m = learnt.get(client);
  if (!m) learnt.set(client, (m = { version: undefined, markets: new Map(), fees: new Map() }));
  return m;
}

const methods = {
  /** GET /version: the exchange's order version (1 or 2), read afresh. */
  async getVersion(options) {
    this.tradeCall(options);
    return version(this, options, true);
  },
  async createApiKey(signer, nonce, options) {
    return apiKey(this, readSigner(signer), nonce, options, "createKey");
  },
  async deriveApiKey(signer, nonce, options) {
    return apiKey(this, readSigner(signer), nonce, options, "deriveKey");
  },
  async createOrDeriveApiKey(signer, nonce, options) {
    const s = readSigner(signer);
    try {
      return await apiKey(this, s, nonce, options, "deriveKey");
    } catch (e) {
      if (this.tradeNext("derive", e, false) !== "create") throw e;
      return apiKey(this, s, nonce, options, "createKey");
    }
  },
  async buildOrder(params, options) {
    const order = readOrder(this, params, false);
    this.tradeCall(options);
    return draft(this, order, options, false);
  },
  async buildMarketOrder(params, options) {
    const order = readOrder(this, params, true);
    this.tradeCall(options);
    return draft(this, order, options, false);
  },
  async signOrder(orderDraft, signer, options) {
    const s = readSigner(signer);
    const [signal, timeoutMs] = this.tradeCall(options);
    return sign(this, orderDraft, s, signal, timeoutMs);
  },
  async postOrder(signed, orderType, options) {
    return this.tradeSend("post", signed, orderType, options);
  },
  async postOrders(signed, options) {
    return this.tradeSend("postBatch", signed, undefined, options);
  },
  async placeOrder(params, signer, options) {
    return place(this, params, signer, options, false);
  },
  async placeMarketOrder(params, signer, options) {
    return place(this, params, signer, options, true);
  },
};

/** The order version: learnt once, or read afresh when `fresh`. */
async function version(client, options, fresh) {
  const m = memory(client);
  if (m.version === undefined || fresh) m.version = await client.tradeSend("version", undefined, undefined, options);
  return m.version;
}

/**
 * An order's draft (and what it was built from): the version, the token's market (from the book when the
 * params name none; learnt once per token), the book for a market order without a price, the V1 fee rate.
 */
async function draft(client, order, options, fresh) {
  const { token, condition, needsBook, params, market } = order;
  const v = await version(client, options, fresh);
  const m = memory(client);
  let known = m.markets.get(token);
  if (known && condition !== undefined && known.condition !== condition) known = undefined;
  let book;
  if (!known) {
    let found = condition;
    if (found === undefined) {
      [found, book] = await client.tradeSend("book", token, undefined, options);
      if (found == null) throw decodeError("GET /book: the book names no market");
    }
    known = { condition: found, info: await client.tradeSend("market", found, undefined, options) };
  }
  if (needsBook && !book) [, book] = await client.tradeSend("book", token, undefined, options);
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
    if (e.param !== "tokenId") m.markets.set(token, known);
    throw e;
  }
  m.markets.set(token, known);
  return built;
}

/**
 * An order's params read once (`tradeOrder`): the token, the condition if given, whether the price comes
 * from the book, and a plain copy of the params that every build reads (the caller's object may change
 * while requests are under way).
 */
function readOrder(client, params, market) {
  const [token, condition, needsBook, copy] = client.tradeOrder(params, market);
  return { token, condition, needsBook, params: copy, market };
}

/** Has the signer sign a draft; resolves to the signed order. */
async function sign(client, orderDraft, s, signal, timeoutMs) {
  const [typedData, signed] = client.tradeOrderToSign(orderDraft, s.address);
  signed.signature = client.tradeSignature(await ask(s, typedData, signal, timeoutMs));
  return signed;
}

/** Creates or derives the key of the signer `s` (read) and `nonce`, and keeps it as the client's credentials. */
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

/** Builds, signs and places an order; a version change rebuilds and signs it once more. */
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

/** A caller's signer, read once (its getters and traps may throw). */
function readSigner(signer) {
  let address, signTypedData;
  try {
    if (typeof signer !== "object" || signer === null) throw 0;
    address = signer.address;
    signTypedData = signer.signTypedData;
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
 */
function ask(s, typedData, signal, timeoutMs) {
  return new Promise((resolve, reject) => {
    let timer;
    let settled = false;
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

function error(code, message, cause) {
  const e = cause === undefined ? new Error(message) : new Error(message, { cause });
  e.name = "PredictKitError";
  e.code = code;
  return e;
}

function invalid(param, rule) {
  const e = error("INVALID_PARAMS", `${param}: ${rule}`);
  e.param = param;
  return e;
}

function decodeError(message) {
  return error("DECODE", message);
}
