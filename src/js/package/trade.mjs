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

const methods = {
  /** GET /version: the exchange's order version (1 or 2), read afresh. */
  async getVersion(options) {
    this.tradeCall(options);
    return this.tradeSend("version", undefined, undefined, options);
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
    return build(this, params, false, options);
  },
  async buildMarketOrder(params, options) {
    return build(this, params, true, options);
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

/**
 * An order's draft: the order (read once, `client.tradeWork`) asks for the reads it still needs (what the
 * client has learnt of the service spares the others), each run with the call's options.
 */
async function build(client, params, market, options) {
  const work = client.tradeWork(params, market, false);
  try {
    client.tradeCall(options);
    for (;;) {
      const need = JSON.parse(work.next(undefined, undefined));
      if (need[0] !== "read") return need[1];
      await work.send(options);
    }
  } finally {
    work.free();
  }
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

/**
 * Builds, signs and places an order: the order (`client.tradeWork`, in wasm from its params to the POST
 * body) says what it needs next; a version change rebuilds and signs it once more, a 400 forgets the
 * token's market (src/trade/placing.rs).
 */
async function place(client, params, signer, options, market) {
  const work = client.tradeWork(params, market, true);
  try {
    const s = readSigner(signer);
    // Everything is checked before the first request: the options, the signer's address, the credentials.
    const [signal, timeoutMs] = client.tradeCall(options, true, s.address);
    let answer;
    for (;;) {
      const need = JSON.parse(work.next(s.address, answer));
      answer = undefined;
      if (need[0] === "sign") answer = await ask(s, need[1], signal, timeoutMs);
      else if (need[0] === "read") await work.send(options);
      else {
        try {
          return await work.send(options);
        } catch (e) {
          if (!work.refused(e)) throw e;
        }
      }
    }
  } finally {
    work.free();
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
