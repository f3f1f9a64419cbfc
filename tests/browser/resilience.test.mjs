// Budgets, retries, timeouts and cancellation in real headless Chromium, against the emulator's fault
// injection. Each scenario runs inside the page (importing pkg/web from the emulator's origin); the
// assertions and the reported figures are here.
import { test, before, after, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { launchChromium } from "./chromium.mjs";

const EMULATOR = process.env.PREDICTKIT_EMULATOR_URL ?? "http://127.0.0.1:8787";
const LIMITED = process.env.PREDICTKIT_LIMITED_EMULATOR_URL;

let browser;
let page;

async function admin(base, method, path, body) {
  const res = await fetch(base + path, { method, body: body && JSON.stringify(body) });
  return res.json();
}

before(async () => {
  browser = await launchChromium();
  page = await browser.newPage();
  // Any page of the emulator's origin will do: GET / answers "OK" and makes no requests of its own.
  await page.goto(`${EMULATOR}/`);
  await page.evaluate(async () => {
    window.unhandled = 0;
    window.addEventListener("unhandledrejection", () => window.unhandled++);
    window.pk = await import("/pkg/index.mjs");
    await window.pk.default();
  });
});
after(async () => browser?.close());
beforeEach(async () => {
  await admin(EMULATOR, "POST", "/__admin/reset");
});

/** Runs `scenario(arg)` in the page with `pk` (the package) and `base` (the emulator URL). */
function inPage(scenario, arg = {}) {
  return page.evaluate(
    async ({ source, arg }) => {
      const scenario = new Function("return " + source)();
      return scenario({ ...arg, pk: window.pk, base: arg.base ?? location.origin });
    },
    { source: scenario.toString(), arg },
  );
}

const tokenOf = async () => {
  const page = await (await fetch(`${EMULATOR}/markets`)).json();
  return { token: page.data[0].tokens[0].token_id, condition: page.data[0].condition_id };
};

test("5xx, reset and a cut body are retried until the answer comes", async () => {
  const { token } = await tokenOf();
  await admin(EMULATOR, "POST", "/__admin/faults", {
    path: "/book", faults: [{ kind: "status", status: 503 }, { kind: "reset" }, { kind: "truncated" }],
  });
  await admin(EMULATOR, "DELETE", "/__admin/requests");
  const result = await inPage(async ({ pk, base, token }) => {
    const events = [];
    const client = new pk.Client({ baseUrl: base, maxRetries: 3, onEvent: (e) => events.push({ type: e.type, code: e.error?.code }) });
    const book = await client.getOrderBook(token);
    return { asset: book.asset_id, events };
  }, { token });
  assert.equal(result.asset, token);
  // Chromium itself re-sends a GET whose reused connection was reset before any answer, so the reset
  // may never reach the library; the emulator still sees every request.
  const codes = result.events.map((e) => e.code);
  assert.equal(codes[0], "SERVER");
  assert.equal(codes.at(-1), "DECODE");
  assert.ok(codes.every((c) => ["SERVER", "NETWORK", "DECODE"].includes(c)), codes.join());
  const log = await admin(EMULATOR, "GET", "/__admin/requests?path=/book");
  assert.equal(log.count, 4, "one request, a reset, a cut body and the answer");
});

test("Retry-After of N seconds delays the retry by N", async () => {
  const { token } = await tokenOf();
  await admin(EMULATOR, "POST", "/__admin/faults", { path: "/midpoint", faults: [{ kind: "status", status: 429, retry_after: 1 }] });
  const r = await inPage(async ({ pk, base, token }) => {
    const client = new pk.Client({ baseUrl: base });
    const started = performance.now();
    const { mid } = await client.getMidpoint(token);
    return { mid, ms: performance.now() - started };
  }, { token });
  assert.ok(Number(r.mid) > 0);
  assert.ok(r.ms >= 1000 && r.ms < 1600, `took ${r.ms} ms`);
  console.log(`# Retry-After 1 s: the call took ${Math.round(r.ms)} ms`);
});

test("a cancellation is retried on 429 but not on 5xx (it may have been applied)", async () => {
  const [account] = await admin(EMULATOR, "GET", "/__admin/accounts");
  const creds = { address: account.address, apiKey: account.apiKey, secret: account.secret, passphrase: account.passphrase };
  await admin(EMULATOR, "POST", "/__admin/faults", { path: "/order", method: "DELETE", faults: [{ kind: "status", status: 503 }] });
  const r = await inPage(async ({ pk, base, creds }) => {
    const client = new pk.Client({ baseUrl: base, credentials: creds, maxRetries: 3 });
    const [order] = (await client.getOpenOrders()).data;
    const first = await client.cancelOrder(order.id).then(() => "ok", (e) => e.code);
    return { first, id: order.id };
  }, { creds });
  assert.equal(r.first, "SERVER");
  assert.equal((await admin(EMULATOR, "GET", "/__admin/requests?path=/order&method=DELETE")).count, 1);
  await admin(EMULATOR, "POST", "/__admin/faults", { path: "/order", method: "DELETE", faults: [{ kind: "status", status: 429, retry_after: 0 }] });
  const second = await inPage(async ({ pk, base, creds, id }) => {
    const client = new pk.Client({ baseUrl: base, credentials: creds });
    return client.cancelOrder(id);
  }, { creds, id: r.id });
  assert.deepEqual(second.canceled, [r.id]);
  assert.equal((await admin(EMULATOR, "GET", "/__admin/requests?path=/order&method=DELETE")).count, 3);
});

test("timeoutMs gives TIMEOUT and an AbortSignal gives ABORTED, mid-request", async () => {
  const { token } = await tokenOf();
  await admin(EMULATOR, "POST", "/__admin/faults", { path: "/book", faults: [{ kind: "delay", ms: 3000 }], repeat: true });
  await admin(EMULATOR, "POST", "/__admin/faults", { path: "/time", faults: [{ kind: "delay", ms: 3000 }], repeat: true });
  const r = await inPage(async ({ pk, base, token }) => {
    const client = new pk.Client({ baseUrl: base, timeoutMs: 300, maxRetries: 0 });
    let t = performance.now();
    const timeout = await client.getOrderBook(token).then(() => "ok", (e) => e.code);
    const timeoutMs = performance.now() - t;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    t = performance.now();
    const aborted = await client.getOrderBook(token, { signal: controller.signal, timeoutMs: 10000 }).then(() => "ok", (e) => e.code);
    const abortMs = performance.now() - t;
    const already = await client.getOrderBook(token, { signal: AbortSignal.abort() }).then(() => "ok", (e) => e.code);
    t = performance.now();
    const clock = await client.syncClock().then(() => "ok", (e) => e.code);
    const clockMs = performance.now() - t;
    return { timeout, timeoutMs, aborted, abortMs, already, clock, clockMs };
  }, { token });
  assert.equal(r.timeout, "TIMEOUT");
  assert.ok(r.timeoutMs >= 290 && r.timeoutMs < 1000, `${r.timeoutMs}`);
  assert.equal(r.aborted, "ABORTED");
  assert.ok(r.abortMs < 1000, `${r.abortMs}`);
  assert.equal(r.already, "ABORTED");
  // syncClock() is bounded by the same deadline: a service that never answers cannot hang it.
  assert.equal(r.clock, "TIMEOUT");
  assert.ok(r.clockMs < 1000, `${r.clockMs}`);
});

test("abort during a budget wait and during a retry backoff; maxQueueMs", async () => {
  const { token } = await tokenOf();
  await admin(EMULATOR, "POST", "/__admin/faults", { path: "/midpoint", faults: [{ kind: "status", status: 503 }], repeat: true });
  await admin(EMULATOR, "DELETE", "/__admin/requests");
  const r = await inPage(async ({ pk, base, token }) => {
    const client = new pk.Client({ baseUrl: base, rateLimits: { book: { requests: 1, windowMs: 60000 } }, maxRetries: 10 });
    await client.getOrderBook(token);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    let t = performance.now();
    const waiting = await client.getOrderBook(token, { signal: controller.signal }).then(() => "ok", (e) => e.code);
    const waitMs = performance.now() - t;
    const bounded = new pk.Client({ baseUrl: base, rateLimits: { book: { requests: 1, windowMs: 60000 } }, maxQueueMs: 200 });
    await bounded.getOrderBook(token);
    t = performance.now();
    const queue = await bounded.getOrderBook(token).then(() => "ok", (e) => ({ code: e.code, retryAfterMs: e.retryAfterMs }));
    const queueMs = performance.now() - t;
    const retrying = new AbortController();
    setTimeout(() => retrying.abort(), 300);
    t = performance.now();
    const backoff = await client.getMidpoint(token, { signal: retrying.signal }).then(() => "ok", (e) => e.code);
    return { waiting, waitMs, queue, queueMs, backoff, backoffMs: performance.now() - t };
  }, { token });
  assert.equal(r.waiting, "ABORTED");
  assert.ok(r.waitMs < 1000, `${r.waitMs}`);
  assert.equal(r.queue.code, "RATE_LIMITED");
  assert.ok(r.queue.retryAfterMs > 50_000);
  assert.ok(r.queueMs < 100, `fails at once rather than waiting: ${r.queueMs}`);
  assert.equal(r.backoff, "ABORTED");
  assert.ok(r.backoffMs < 1500, `${r.backoffMs}`);
  const books = await admin(EMULATOR, "GET", "/__admin/requests?path=/book");
  assert.equal(books.count, 2, "the aborted and the refused requests were never sent");
});

test("queued requests go in the order they were made", async () => {
  const page1 = await (await fetch(`${EMULATOR}/markets`)).json();
  const tokens = page1.data.slice(0, 5).map((m) => m.tokens[0].token_id);
  await admin(EMULATOR, "DELETE", "/__admin/requests");
  await inPage(async ({ pk, base, tokens }) => {
    const client = new pk.Client({ baseUrl: base, rateLimits: { book: { requests: 1, windowMs: 150 } } });
    await Promise.all(tokens.map((t) => client.getOrderBook(t)));
  }, { tokens });
  const log = await admin(EMULATOR, "GET", "/__admin/requests?path=/book");
  assert.deepEqual(log.requests.map((r) => new URLSearchParams(r.query).get("token_id")), tokens);
});

test("1,000 reads with ~20% injected faults: each succeeds or fails with the right code in time", async () => {
  const page1 = await (await fetch(`${EMULATOR}/markets`)).json();
  const tokens = page1.data.map((m) => m.tokens[0].token_id);
  const conditions = page1.data.map((m) => m.condition_id);
  const kinds = [{ kind: "delay", ms: 200 }, { kind: "status", status: 503 }, { kind: "status", status: 500 },
    { kind: "status", status: 429, retry_after: 1 }, "reset", "malformed", "truncated", { kind: "slow_body", ms: 300 }];
  for (const path of ["/fee-rate", "/clob-markets"]) {
    await admin(EMULATOR, "POST", "/__admin/faults", { path, rate: 0.2, kinds, seed: path.length });
  }
  await admin(EMULATOR, "DELETE", "/__admin/requests");
  const r = await inPage(async ({ pk, base, tokens, conditions }) => {
    const client = new pk.Client({ baseUrl: base, rateLimits: false, timeoutMs: 4000, maxRetries: 2 });
    const outcomes = {};
    let late = 0;
    let next = 0;
    const started = performance.now();
    async function worker() {
      while (next < 1000) {
        const i = next++;
        const t = performance.now();
        const call = i % 2 ? client.getFeeRate(tokens[i % tokens.length]) : client.getClobMarketInfo(conditions[i % conditions.length]);
        const code = await call.then(() => "ok", (e) => (pk.isPredictKitError(e) ? e.code : "NOT_A_PREDICTKIT_ERROR"));
        outcomes[code] = (outcomes[code] ?? 0) + 1;
        if (performance.now() - t > 4250) late++;
      }
    }
    await Promise.all(Array.from({ length: 25 }, worker));
    await new Promise((r) => setTimeout(r, 100));
    return { outcomes, late, ms: performance.now() - started, unhandled: window.unhandled };
  }, { tokens, conditions });
  const log = await admin(EMULATOR, "GET", "/__admin/requests");
  const statuses = {};
  for (const e of log.requests) statuses[e.status] = (statuses[e.status] ?? 0) + 1;
  const total = Object.values(r.outcomes).reduce((a, b) => a + b, 0);
  assert.equal(total, 1000);
  const allowed = new Set(["ok", "SERVER", "NETWORK", "DECODE", "RATE_LIMITED", "TIMEOUT"]);
  for (const code of Object.keys(r.outcomes)) assert.ok(allowed.has(code), `unexpected outcome ${code}`);
  assert.ok(r.outcomes.ok >= 900, `most reads succeed after retries: ${JSON.stringify(r.outcomes)}`);
  assert.equal(r.late, 0, "every call ended within its deadline");
  assert.equal(r.unhandled, 0, "no unhandled rejection");
  console.log(`# 1000 reads, ${log.count} requests sent (statuses ${JSON.stringify(statuses)}), outcomes ${JSON.stringify(r.outcomes)}, ${Math.round(r.ms)} ms`);
});

test("a 5,000-request burst against enforced limits gets no 429 and takes the least time the limits allow", { skip: !LIMITED && "no limited emulator" }, async () => {
  const scale = Number(process.env.PREDICTKIT_LIMITED_SCALE ?? "10");
  const perWindow = 200 * scale;
  const { token } = await (async () => {
    const p = await (await fetch(`${LIMITED}/markets`)).json();
    return { token: p.data[0].tokens[0].token_id };
  })();
  await admin(LIMITED, "POST", "/__admin/reset");
  const windows = Math.ceil(5000 / perWindow) - 1;
  const last = 5000 - windows * perWindow;
  const r = await inPage(async ({ pk, base, unlimited, token, perWindow, scale, last }) => {
    const run = async (client, n) => {
      const started = performance.now();
      const codes = await Promise.all(Array.from({ length: n }, () => client.getOrderBook(token).then(() => "ok", (e) => e.code)));
      const counts = {};
      for (const c of codes) counts[c] = (counts[c] ?? 0) + 1;
      return { counts, ms: performance.now() - started };
    };
    // How long the last window's share takes on this machine's transport, with no limit in the way:
    // measured before and after the burst, and the slower taken, so that the machine's speed during the
    // run is bracketed.
    const free = new pk.Client({ baseUrl: unlimited, rateLimits: false, maxRetries: 0, timeoutMs: 120000 });
    const before = await run(free, last);
    const client = new pk.Client({
      baseUrl: base,
      maxRetries: 0,
      timeoutMs: 120000,
      rateLimits: { book: { requests: perWindow, windowMs: 10000 }, clob: { requests: 5000 * scale, windowMs: 10000 } },
    });
    const burst = await run(client, 5000);
    const after = await run(free, last);
    return { burst, transportMs: Math.max(before.ms, after.ms) };
  }, { token, perWindow, scale, last, base: LIMITED, unlimited: EMULATOR });
  const log = await admin(LIMITED, "GET", "/__admin/requests?path=/book");
  const throttled = log.requests.filter((e) => e.status === 429).length;
  // The limits let the last window's requests go 10 s after the window before them at the earliest, and
  // they cannot finish faster than the transport carries them.
  const least = windows * 10_000 + r.transportMs;
  assert.deepEqual(r.burst.counts, { ok: 5000 });
  assert.equal(throttled, 0);
  assert.ok(r.burst.ms >= windows * 10_000, `cannot beat the limits: ${r.burst.ms}`);
  assert.ok(r.burst.ms <= least * 1.1, `within 10% of the least time: ${Math.round(r.burst.ms)} ms vs ${Math.round(least)} ms`);
  console.log(`# burst: 5000 requests at ${perWindow}/10 s in ${Math.round(r.burst.ms)} ms; least the limits allow ${Math.round(least)} ms (${windows} windows + ${Math.round(r.transportMs)} ms to carry the last ${last}); +${((r.burst.ms / least - 1) * 100).toFixed(1)}%; ${throttled} throttled`);
});
