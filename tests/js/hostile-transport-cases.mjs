// Hostile networks and signals on the transport's newer paths: the API-key routes answering a redirect to
// another origin, and calls given an already-aborted AbortSignal. Run by tests/js/hostile-transport.test.mjs
// (a Node child process per scenario) and tests/browser/hostile.test.mjs (a Chromium page per scenario).
//
// The scenario exports are plain, self-contained functions, as in hostile-cases.mjs: the browser test ships
// their source text into the page, so they refer to nothing in this module's scope. `startKeyRedirect`
// and the `check*` assertions run in the test process only.
import assert from "node:assert/strict";
import { startServerPair } from "./helpers.mjs";

/**
 * Two local HTTP servers, so two origins. `a` answers every request under `/302/…` or `/307/…` with that
 * status and `Location:` the rest of the path on `b`; `b` records every request it receives (`{ method,
 * url, headers }`, preflights included) and answers a well-formed API key, as an attacker's service would.
 * Both allow any origin, header and method (CORS), so a page on a third origin can use them.
 */
export function startKeyRedirect() {
  const key = JSON.stringify({
    apiKey: "00000000-0000-4000-8000-0000000000aa",
    secret: Buffer.from("attacker's secret, 32 bytes long").toString("base64"),
    passphrase: "ab".repeat(32),
  });
  return startServerPair({
    redirect: (url) => {
      const [, status, rest] = /^\/(30[27])(\/.*)?$/.exec(url) ?? [];
      return status ? [Number(status), rest ?? "/"] : undefined;
    },
    answer: (_, path) => (path === "/" ? '"OK"' : key),
  });
}

/**
 * Item 1: the key routes through a 302 and a 307 to another origin (`a`, see startKeyRedirect), with the
 * runtime's own fetch; then the same through a fake fetch that answers every key route with a redirect
 * and records the `redirect` mode it was asked for. Every call must reject with API ("redirect") and
 * leave the client without credentials. A public read through the same redirect (getOk) is followed.
 */
export async function keyRedirect({ pk, a }) {
  const signer = { address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", signTypedData: async () => "0x" + "11".repeat(64) + "1b" };
  const describe = (e) => ({ code: e?.code ?? null, name: e?.name ?? null, status: e?.status ?? null, message: String(e?.message ?? e).slice(0, 200) });
  const run = async (client, method) => {
    try {
      const value = await client[method](signer, 0, { timeoutMs: 5000, maxRetries: 0 });
      return { outcome: "resolved", value: JSON.stringify(value), hasCredentials: client.hasCredentials };
    } catch (e) {
      return { outcome: "rejected", ...describe(e), hasCredentials: client.hasCredentials };
    }
  };
  const methods = ["createApiKey", "deriveApiKey", "createOrDeriveApiKey"];
  const results = [];
  for (const status of [302, 307]) {
    for (const method of methods) {
      const client = new pk.Client({ baseUrl: `${a}/${status}`, rateLimits: false, maxRetries: 0 });
      results.push({ via: `fetch ${status}`, method, ...(await run(client, method)) });
    }
  }
  // A fetch of the caller's that redirects: it must be asked for redirect "manual" on the key routes.
  const modes = [];
  const fake = async (url, init) => {
    modes.push({ url: String(url), redirect: init?.redirect ?? "follow" });
    return new Response(null, { status: 307, headers: { Location: "http://attacker.invalid/auth/api-key" } });
  };
  for (const method of methods) {
    const client = new pk.Client({ baseUrl: "http://127.0.0.1:9", fetch: fake, rateLimits: false, maxRetries: 0 });
    results.push({ via: "fake fetch 307", method, ...(await run(client, method)) });
  }
  let getOk;
  try {
    getOk = await new pk.Client({ baseUrl: `${a}/307`, rateLimits: false }).getOk();
  } catch (e) {
    getOk = describe(e);
  }
  return { results, modes, getOk };
}

/**
 * Item 2: every export that takes a `signal`, given one that is already aborted (its reason an Error, a
 * Symbol, none, null, a thenable; and one whose own `reason` getter throws). Each call must reject with
 * ABORTED and send nothing; the runner counts unhandled rejections, which must be none. `base` is the
 * emulator; `data` its token, condition and account.
 */
export async function abortedSignals({ pk, base, data }) {
  const signer = { address: data.creds.address, signTypedData: async () => "0x" + "11".repeat(64) + "1b" };
  const signals = {
    "an Error": () => AbortSignal.abort(new Error("hostile: reason")),
    "a Symbol": () => AbortSignal.abort(Symbol("hostile")),
    "none (abort())": () => AbortSignal.abort(),
    null: () => AbortSignal.abort(null),
    "a thenable that throws": () => AbortSignal.abort({ then() { throw new Error("hostile: then"); } }),
    "a throwing reason getter": () => {
      const signal = AbortSignal.abort(new Error("hostile: hidden"));
      Object.defineProperty(signal, "reason", { get() { throw new Error("hostile: reason getter"); } });
      return signal;
    },
  };
  const draft = {
    version: 2, chainId: 137, exchange: "0x" + "ab".repeat(20), tokenId: data.token, side: "BUY", orderType: "GTC",
    postOnly: false, expiration: "0", makerAmount: "5000000", takerAmount: "10000000", feeRateBps: "0",
  };
  const zero = "0x" + "0".repeat(64);
  const signed = {
    version: 2, salt: "1", maker: signer.address, signer: signer.address, tokenId: data.token, makerAmount: "5000000",
    takerAmount: "10000000", side: "BUY", expiration: "0", timestamp: String(Date.now()), metadata: zero, builder: zero,
    signatureType: 0, signature: "0x" + "11".repeat(64) + "1b", orderType: "GTC", postOnly: false,
  };
  const order = { tokenId: data.token, side: "BUY", price: 0.5, size: 10, conditionId: data.condition };
  const market = { tokenId: data.token, side: "BUY", amount: 10, price: 0.5, conditionId: data.condition };
  const first = async (iterable) => {
    const it = iterable[Symbol.asyncIterator]();
    try {
      return await it.next();
    } finally {
      it.return?.();
    }
  };
  const calls = {
    getOk: (c, o) => c.getOk(o),
    getBook: (c, o) => c.getBook(data.token, o),
    getOrderBooks: (c, o) => c.getOrderBooks([{ token_id: data.token }], o),
    "getEvents (await)": (c, o) => c.getEvents({ limit: 1 }, o),
    "getEvents (for await)": (c, o) => first(c.getEvents({ limit: 1 }, o)),
    "getMarkets (for await)": (c, o) => first(c.getMarkets(undefined, o)),
    getOpenOrders: (c, o) => c.getOpenOrders({}, o),
    cancelOrder: (c, o) => c.cancelOrder("0x" + "a".repeat(64), o),
    syncClock: (c, o) => c.syncClock(o),
    getVersion: (c, o) => c.getVersion(o),
    createApiKey: (c, o) => c.createApiKey(signer, 0, o),
    deriveApiKey: (c, o) => c.deriveApiKey(signer, 0, o),
    createOrDeriveApiKey: (c, o) => c.createOrDeriveApiKey(signer, 0, o),
    buildOrder: (c, o) => c.buildOrder(order, o),
    buildMarketOrder: (c, o) => c.buildMarketOrder(market, o),
    signOrder: (c, o) => c.signOrder(draft, signer, o),
    postOrder: (c, o) => c.postOrder(signed, "GTC", o),
    postOrders: (c, o) => c.postOrders([signed], o),
    placeOrder: (c, o) => c.placeOrder(order, signer, o),
    placeMarketOrder: (c, o) => c.placeMarketOrder(market, signer, o),
  };
  const sent = [];
  const recording = (url, init) => (sent.push(String(url)), globalThis.fetch(url, init));
  const results = [];
  for (const [reason, make] of Object.entries(signals)) {
    for (const [name, call] of Object.entries(calls)) {
      const client = new pk.Client({ baseUrl: base, fetch: recording, credentials: { ...data.creds }, chainId: 137 });
      const before = sent.length;
      let outcome;
      try {
        await call(client, { signal: make() });
        outcome = "resolved";
      } catch (e) {
        outcome = e?.name === "PredictKitError" ? e.code : `${typeof e} ${String(e?.name ?? e)}`;
      }
      results.push({ reason, call: name, outcome, sent: sent.slice(before) });
    }
    // getNextPage of a page whose call's signal aborts once the page is in.
    const client = new pk.Client({ baseUrl: base, fetch: recording, credentials: { ...data.creds } });
    const controller = new AbortController();
    const page = await client.getEvents({ limit: 1 }, { signal: controller.signal });
    const readReason = make();
    let why;
    try {
      why = readReason.reason;
    } catch {
      why = new Error("hostile: reason getter");
    }
    controller.abort(why);
    const before = sent.length;
    let outcome;
    try {
      await page.getNextPage();
      outcome = "resolved";
    } catch (e) {
      outcome = e?.name === "PredictKitError" ? e.code : `${typeof e} ${String(e?.name ?? e)}`;
    }
    results.push({ reason, call: "getNextPage", outcome, sent: sent.slice(before) });
  }
  // Time for a fetch's late rejection to surface as unhandled.
  await new Promise((resolve) => setTimeout(resolve, 300));
  return { results };
}

/** The assertions of the key-redirect scenario, shared with the Chromium test. */
export function checkKeyRedirect(run, pair, { where }) {
  assert.deepEqual(run.unhandled, [], `no unhandled rejection in the ${where}`);
  assert.ok(run.result && !run.result.scenarioThrew, `the scenario ran: ${JSON.stringify(run.result)}`);
  const { results, modes, getOk } = run.result;
  assert.equal(results.length, 9, "three key methods through a 302, a 307 and a fake fetch");
  const wrong = results.filter((r) => r.outcome !== "rejected" || r.code !== "API" || !/redirect/i.test(r.message) || r.hasCredentials !== false);
  assert.deepEqual(wrong, [], "every key call through a redirect rejects with API 'redirect' and leaves no credentials");
  const keyModes = modes.filter((m) => /\/auth\//.test(m.url));
  assert.ok(keyModes.length >= 3, "the fake fetch was asked for the key routes");
  assert.deepEqual(keyModes.filter((m) => m.redirect !== "manual"), [], "the key routes are sent with redirect: manual");
  const reached = pair.requests.filter((q) => q.url.startsWith("/auth"));
  assert.deepEqual(reached.map((q) => `${q.method} ${q.url}`), [], "nothing of the key routes reached the other origin");
  assert.equal(getOk, "OK", "a public read through the same redirect is followed");
  assert.ok(pair.requests.some((q) => q.method === "GET" && q.url === "/"), "and its answer came from the other origin");
}

/** The assertions of the aborted-signal scenario, shared with the Chromium test. */
export function checkAbortedSignals(run, { where }) {
  assert.ok(run.result && !run.result.scenarioThrew, `the scenario ran: ${JSON.stringify(run.result)}`);
  const { results } = run.result;
  assert.equal(results.length, 6 * 21, "six aborted signals × 21 calls");
  const wrong = results.filter((r) => r.outcome !== "ABORTED").map((r) => `${r.call} (reason ${r.reason}): ${r.outcome}`);
  const sent = results.filter((r) => r.sent.length).map((r) => `${r.call} (reason ${r.reason}) sent ${r.sent.join(", ")}`);
  assert.deepEqual(run.unhandled.map((u) => `${u.event}: ${u.reason}`), [], `no unhandled rejection in the ${where}`);
  assert.deepEqual(wrong, [], "every call rejects with ABORTED");
  assert.deepEqual(sent, [], "and sends nothing");
}
