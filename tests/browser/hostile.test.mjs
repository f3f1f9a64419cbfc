// A hostile caller and a hostile network in real headless Chromium: the scenarios of
// tests/js/hostile-cases.mjs run inside pages of the emulator's origin, which import the package as a
// page does (`import("/pkg/index.mjs")`, then `init()`). Each group runs in a fresh browser context (its
// own renderer and module instance); a call that corrupts the module, crashes the page or blocks it
// forever ends that page, and resumable groups go on in a new one after that call. Every page ends with
// the closing check (the signing and book-hash vectors, and getOk() from the emulator) and counts its
// "unhandledrejection" and "error" events. The assertions and the reported findings are here.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { chromium } from "playwright-core";
import { EMULATOR, fixture, admin, startRedirectPair, runHostileGroup, hostileRunProblems, hostileSweepFindings } from "../js/helpers.mjs";
import * as scenarios from "../js/hostile-cases.mjs";

/** A page whose event loop is blocked this long (no heartbeat) is reported as never settling. */
const STALL_MS = 4000;
const kit = scenarios.makeKit();

let browser;
let data;
let pair;

before(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  assert.equal(await (await fetch(`${EMULATOR}/`)).json(), "OK", `the emulator answers at ${EMULATOR}`);
  await admin(EMULATOR, "POST", "/__admin/reset");
  const page = await (await fetch(`${EMULATOR}/markets`)).json();
  const [account] = await admin(EMULATOR, "GET", "/__admin/accounts");
  data = {
    bookJson: fixture("real/clob-book-1.json"),
    token: page.data[0].tokens[0].token_id,
    condition: page.data[0].condition_id,
    creds: { address: account.address, apiKey: account.apiKey, secret: account.secret, passphrase: account.passphrase },
    orderId: "0x" + "a".repeat(64),
    vectors: { signing: JSON.parse(fixture("vectors/signing.json")), bookHash: JSON.parse(fixture("vectors/book-hash.json")) },
  };
  pair = await startRedirectPair();
});

after(async () => {
  await browser?.close();
  await pair?.close();
  await admin(EMULATOR, "POST", "/__admin/reset").catch(() => {});
});

// In the page: the kit, the package and the listeners, once per page.
async function setUp({ kitSource }) {
  window.__during = "loading the package";
  window.__kit = new Function("return " + kitSource)()();
  const report = (event, reason) =>
    console.debug("PKU " + JSON.stringify({ event, during: window.__during, reason: window.__kit.describe(window.__pk, reason) }));
  window.addEventListener("unhandledrejection", (e) => report("unhandledrejection", e.reason));
  window.addEventListener("error", (e) => report("error", e.error ?? e.message));
  setInterval(() => console.debug("PKB"), 200);
  const mod = await import("/pkg/index.mjs");
  await mod.default();
  window.__pk = mod;
}

// In the page: one scenario, then the closing check. Progress, outcomes, findings and unhandled errors
// go out on the console as they happen ("PKS", "PKE", "PKU"), so that they survive a page killed later.
async function runScenario({ source, closingSource, args }) {
  const scenario = new Function("return " + source)();
  const closingCheck = new Function("return " + closingSource)();
  const pk = window.__pk;
  const kit = window.__kit;
  const base = args.base ?? location.origin;
  const progress = (i, id, target, value) => {
    window.__during = id;
    console.debug("PKS " + JSON.stringify([i, id, target, value]));
  };
  const emit = (event) => console.debug("PKE " + JSON.stringify(event));
  let result;
  window.__during = "the scenario";
  try {
    result = await scenario({ ...args, base, pk, kit, progress, emit });
  } catch (e) {
    result = { scenarioThrew: kit.describe(pk, e) };
  }
  window.__during = "the closing check (or a late settlement)";
  const closing = await closingCheck({ pk, kit, base, data: args.data });
  await new Promise((resolve) => setTimeout(resolve, 100));
  return { result, closing };
}

/** Runs `scenario` in a fresh page; resolves to what it reported, or how it stopped. */
async function runPage(scenario, args, { limitMs = 90_000 } = {}) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const run = {
    scenario, start: args.start ?? 0, last: null, started: [], ids: {}, events: [], unhandled: [],
    final: null, stalled: false, error: null,
  };
  let stallTimer;
  let stop;
  const stopped = new Promise((resolve) => (stop = resolve));
  const arm = () => {
    clearTimeout(stallTimer);
    stallTimer = setTimeout(() => {
      run.stalled = true;
      stop();
    }, STALL_MS);
  };
  const limit = setTimeout(() => {
    run.overtime = true;
    stop();
  }, limitMs);
  page.on("console", (message) => {
    const text = message.text();
    if (!text.startsWith("PK")) return;
    arm();
    if (text.startsWith("PKS ")) {
      run.last = JSON.parse(text.slice(4));
      run.started.push(run.last[0]);
      run.ids[run.last[0]] = run.last[1];
    } else if (text.startsWith("PKE ")) run.events.push(JSON.parse(text.slice(4)));
    else if (text.startsWith("PKU ")) run.unhandled.push(JSON.parse(text.slice(4)));
  });
  page.on("crash", () => {
    run.crashed = true;
    stop();
  });
  try {
    await page.goto(`${EMULATOR}/`);
    await page.evaluate(setUp, { kitSource: scenarios.makeKit.toString() });
    arm();
    const work = page.evaluate(runScenario, { source: scenarios[scenario].toString(), closingSource: scenarios.closingCheck.toString(), args })
      .then((final) => {
        run.final = final;
      }, (e) => {
        run.error = String(e?.message ?? e).split("\n")[0];
      });
    await Promise.race([work, stopped]);
  } catch (e) {
    run.error = String(e?.message ?? e).split("\n")[0];
  } finally {
    clearTimeout(stallTimer);
    clearTimeout(limit);
    await context.close().catch(() => {});
  }
  return run;
}

const runGroup = (scenario, args, options) => runHostileGroup(runPage, scenario, args, options);
const pageProblems = (runs) => hostileRunProblems(runs, { where: "page", stallMs: STALL_MS });

function report(t, title, lines) {
  t.diagnostic(`${title}: ${lines.length ? `${lines.length} finding(s)` : "none"}`);
  for (const line of lines) t.diagnostic(`  ${line}`);
}

const resultOf = (runs) => runs.at(-1).final?.result ?? {};

test("rule 1 (Chromium): every export, constructor, static, method and getter answers every hostile argument, in every position, with a value or a PredictKitError in time (no trap, no foreign error, no hang, no corruption)", { timeout: 180_000 }, async (t) => {
  const started = Date.now();
  const shards = await Promise.all([0, 1].map((index) =>
    runGroup("sweep", { base: EMULATOR, data, shard: { index, count: 2 } }, { resumable: true })));
  const runs = shards.flat();
  const { total, hugeAllocated, ran, counts, violations, skipped, lost } = hostileSweepFindings(runs, kit.show);
  const problems = pageProblems(runs);
  t.diagnostic(`${ran} cases of ${total} in ${runs.length} pages, ${((Date.now() - started) / 1000).toFixed(1)} s; outcomes ${JSON.stringify(counts)}; 2 GiB array allocated: ${hugeAllocated}`);
  if (skipped.length) report(t, "not run (the same value blocked the same target in another position)", skipped);
  if (lost.length) report(t, "outcome lost (still pending when a later call blocked or crashed the page)", lost);
  report(t, "pages (hangs, crashes, corruption, closing checks, unhandled)", problems);
  report(t, "calls that broke the rules", violations);
  assert.ok(total > 2000, "the sweep enumerated the module");
  assert.equal(ran + skipped.length, total, "every case ran (those that blocked or crashed their page included), or was skipped after a block");
  assert.deepEqual(problems, [], "no hang, crash, corruption, unhandled rejection or failed closing check");
  assert.deepEqual(violations, [], "every call returned, resolved, or failed with a PredictKitError");
});

test("rule 1 (Chromium): the named hostile arguments are INVALID_PARAMS and send nothing", { timeout: 120_000 }, async (t) => {
  const runs = await runGroup("namedInvalid", { base: EMULATOR, data }, { resumable: true });
  const results = runs.flatMap((r) => r.events.filter((e) => e.named).map((e) => e.named));
  const lines = [];
  for (const r of results) {
    if (r.skipped) {
      t.diagnostic(`${r.name}: skipped (${r.skipped})`);
      continue;
    }
    if (!kit.failedWith(r.outcome, "INVALID_PARAMS") || r.sent.length) {
      lines.push(`${r.name}: ${kit.show(r.outcome)}${r.sent.length ? `; sent ${r.sent.join(", ")}` : ""}`);
    }
  }
  const problems = pageProblems(runs);
  report(t, "pages", problems);
  report(t, "cases not INVALID_PARAMS", lines);
  assert.equal(results.length + runs.filter((r) => !r.final && r.last).length, 10,
    "all ten cases ran (or are reported as having hung or crashed their page)");
  assert.deepEqual(problems, []);
  assert.deepEqual(lines, []);
});

test("rule 2 (Chromium): a JS exception never unwinds through Rust — after 2,000 rounds of throwing Proxies, throwing getters and re-entrant/freeing getters, the same client and book still work", { timeout: 60_000 }, async (t) => {
  const runs = await runGroup("unwind", { base: EMULATOR, data });
  const problems = pageProblems(runs);
  report(t, "pages", problems);
  const r = resultOf(runs);
  t.diagnostic(`outcomes ${JSON.stringify(r.tallies)}; a book freed by its own getter then: ${JSON.stringify(r.freedAfter)}`);
  if (r.firstBad) t.diagnostic(`first call that broke the rules: round ${r.firstBad.round}, ${r.firstBad.call}: ${r.firstBad.shown}`);
  if (r.stopped) t.diagnostic(`stopped at round ${r.stopped.round}: ${r.stopped.shown}`);
  assert.deepEqual(problems, []);
  assert.equal(r.stopped, null, "all 2,000 rounds ran");
  assert.deepEqual(r.examples, {}, "every call returned or threw a PredictKitError");
  for (const key of Object.keys(r.freedAfter)) {
    assert.match(key, /^threw PredictKitError FREED/, "a book freed from inside its own method is FREED afterwards");
  }
  assert.equal(r.tradesSent, 0, "getTrades(throwing Proxy) sent nothing");
  assert.deepEqual(r.later.bestBid, { ok: true, value: r.bestBefore }, "the book still answers");
  assert.deepEqual(r.later.hash, { ok: true, value: r.hashBefore }, "and its hash is unchanged");
  assert.deepEqual(r.later.getOk, { ok: true, value: "OK" }, "the client still calls the service");
  assert.equal(r.later.getTrades.ok, true, `getTrades({ limit: 2 }) afterwards: ${r.later.getTrades.shown}`);
  assert.equal(r.bookFree, "returned undefined");
  assert.equal(r.clientFree, "returned undefined", "client.free() returns");
});

test("rule 3 (Chromium): a misbehaving fetch fails only its own call (NETWORK or DECODE), never the machinery; a fake or throwing signal is INVALID_PARAMS", { timeout: 60_000 }, async (t) => {
  const runs = await runGroup("badFetch", { base: EMULATOR, data });
  const problems = pageProblems(runs);
  report(t, "pages", problems);
  const r = resultOf(runs);
  const wrong = [];
  for (const [call, list] of Object.entries(r.outcomes ?? {})) {
    const bad = list.filter((o) => o !== "ok");
    if (bad.length || list.length !== 5) wrong.push(`${call}: ${[...new Set(bad)].join(" / ") || ""} (${list.length} of 5 rounds run)`);
  }
  report(t, "calls not rejected with NETWORK or DECODE", wrong);
  t.diagnostic(`signals: ${JSON.stringify(r.signals)}; Proxy of an aborted signal: ${r.proxiedAborted?.shown}; sent ${JSON.stringify(r.signalsSent)}; then a normal getOk(): ${r.normal}`);
  assert.deepEqual(problems, []);
  assert.equal(Object.keys(r.outcomes).length, 21, "seven fetches × three calls");
  assert.deepEqual(wrong, []);
  for (const [call, s] of Object.entries(r.signals)) assert.equal(s.code, "INVALID_PARAMS", `${call}: ${s.shown}`);
  assert.ok(["INVALID_PARAMS", "ABORTED"].includes(r.proxiedAborted.code),
    `a Proxy of an aborted AbortSignal is refused or honoured, not ignored: ${r.proxiedAborted.shown}`);
  assert.deepEqual(r.signalsSent, [], "a call with a bad or aborted signal sends nothing");
  assert.equal(r.normal, "OK", "afterwards a normal client still resolves getOk()");
});

test("rule 4 (Chromium): the deadline holds whatever fetch does (a fetch that never settles, a body that never ends), and timeoutMs of 2**31 or 2**40 does not fire at once", { timeout: 60_000 }, async (t) => {
  const runs = await runGroup("deadline", { base: EMULATOR, data });
  const problems = pageProblems(runs);
  report(t, "pages", problems);
  const r = resultOf(runs);
  t.diagnostic(JSON.stringify(r));
  assert.deepEqual(problems, []);
  assert.equal(r.neverSettles.code, "TIMEOUT", `a fetch that never settles: ${r.neverSettles.shown}`);
  assert.ok(r.neverSettles.ms >= 990 && r.neverSettles.ms <= 2500, `TIMEOUT after ${r.neverSettles.ms} ms`);
  for (const k of ["endlessOk", "endlessBook"]) {
    assert.equal(r[k].code, "TIMEOUT", `${k}, a body that never ends: ${r[k].shown}`);
    assert.ok(r[k].ms >= 990 && r[k].ms <= 2500, `${k}: TIMEOUT after ${r[k].ms} ms`);
  }
  assert.equal(r.big31.value, "OK", `timeoutMs: 2**31 → ${r.big31.shown}`);
  assert.equal(r.big40.value, "OK", `timeoutMs: 2**40 → ${r.big40.shown}`);
});

test("rule 5 (Chromium): path segments '..' and '.' are INVALID_PARAMS and nothing reaches the emulator", { timeout: 60_000 }, async (t) => {
  await admin(EMULATOR, "DELETE", "/__admin/requests");
  const runs = await runGroup("traversal", { base: EMULATOR, data });
  const log = await admin(EMULATOR, "GET", "/__admin/requests");
  const problems = pageProblems(runs);
  report(t, "pages", problems);
  const r = resultOf(runs);
  const wrong = (r.results ?? []).filter((c) => c.code !== "INVALID_PARAMS" || c.sent.length)
    .map((c) => `${c.name}: ${c.shown}${c.sent.length ? `; sent ${c.sent.join(", ")}` : ""}`);
  report(t, "calls not refused", wrong);
  assert.deepEqual(problems, []);
  assert.equal(r.results.length, 9);
  assert.deepEqual(wrong, []);
  // The closing check's own GET / is the only request the emulator may have seen.
  const seen = log.requests.filter((e) => !(e.method === "GET" && e.path === "/")).map((e) => `${e.method} ${e.path}`);
  assert.deepEqual(seen, [], "the emulator received none of them");
});

test("rule 6 (Chromium): credentials never follow a redirect — authenticated calls through a 307 to another origin fail with API 'redirect' (the status may be opaque) and that origin sees no SERVICE_* header and no DELETE; a public read (getOk) is followed", { timeout: 60_000 }, async (t) => {
  pair.requests.length = 0;
  const runs = await runGroup("redirect", { base: EMULATOR, a: pair.a, data });
  const problems = pageProblems(runs);
  report(t, "pages", problems);
  const r = resultOf(runs);
  const leaked = pair.requests.filter((q) => Object.keys(q.headers).some((h) => /^service_(api_key|passphrase|signature)$/i.test(h)));
  const deletes = pair.requests.filter((q) => q.method === "DELETE");
  report(t, "authenticated calls", (r.results ?? []).map((c) => `${c.name}: ${c.shown}`));
  report(t, "requests that reached the other origin with credentials", leaked.map((q) => `${q.method} ${q.url}`));
  assert.deepEqual(problems, []);
  assert.equal(r.results.length, 5);
  for (const c of r.results) {
    assert.equal(c.code, "API", `${c.name}: ${c.shown}`);
    assert.match(c.message, /redirect/i, `${c.name}: ${c.message}`);
  }
  assert.deepEqual(leaked.map((q) => `${q.method} ${q.url}`), [], "no credentials reached the other origin");
  assert.deepEqual(deletes.map((q) => q.url), [], "no DELETE reached the other origin");
  assert.deepEqual(r.getOk, { value: "OK" }, "a public read follows the redirect");
  assert.ok(pair.requests.some((q) => q.method === "GET" && q.url === "/"), "and its answer came from the other origin");
});

test("rule 7 (Chromium): every method and getter of a freed Client or OrderBook fails with FREED; free() twice does nothing; isPredictKitError never throws", { timeout: 60_000 }, async (t) => {
  const runs = await runGroup("freed", { base: EMULATOR, data });
  const problems = pageProblems(runs);
  report(t, "pages", problems);
  const r = resultOf(runs);
  const wrong = [];
  for (const name of ["Client", "OrderBook"]) {
    const c = r[name];
    assert.ok(c, `${name} was checked`);
    assert.ok(Object.keys(c.members).length >= (name === "Client" ? 40 : 20), `${name}: the prototype was enumerated`);
    if (c.firstFree !== "returned undefined") wrong.push(`${name} first free(): ${c.firstFree}`);
    for (const [m, o] of Object.entries(c.members)) if (o.code !== "FREED") wrong.push(`${name}#${m} after free(): ${o.shown}`);
    if (c.secondFree !== "returned undefined") wrong.push(`${name} second free(): ${c.secondFree}`);
    if (!["returned undefined", "no Symbol.dispose"].includes(c.dispose)) wrong.push(`${name}[Symbol.dispose]() after free(): ${c.dispose}`);
  }
  for (const [label, v] of Object.entries(r.isPredictKitError)) if (v !== false) wrong.push(`isPredictKitError(${label}): ${v}`);
  report(t, "not FREED", wrong);
  assert.deepEqual(problems, []);
  assert.deepEqual(wrong, []);
});

test("rule 8 (Chromium): getBook retries a cut and a malformed body, like every idempotent read", { timeout: 60_000 }, async (t) => {
  await admin(EMULATOR, "POST", "/__admin/reset");
  const reference = await (await fetch(`${EMULATOR}/book?token_id=${data.token}`)).json();
  await admin(EMULATOR, "POST", "/__admin/faults", { path: "/book", faults: [{ kind: "truncated" }, { kind: "malformed" }] });
  await admin(EMULATOR, "DELETE", "/__admin/requests");
  try {
    const runs = await runGroup("retryBook", { base: EMULATOR, data });
    const log = await admin(EMULATOR, "GET", "/__admin/requests?path=/book");
    const problems = pageProblems(runs);
    report(t, "pages", problems);
    const r = resultOf(runs);
    t.diagnostic(`getBook: ${r.shown}; events ${JSON.stringify(r.events)}; ${log.count} requests to /book`);
    assert.deepEqual(problems, []);
    assert.equal(r.bidCount, reference.bids.length, `getBook(token, { maxRetries: 2 }): ${r.shown}`);
    assert.equal(r.askCount, reference.asks.length);
    assert.equal(log.count, 3, "a cut answer, a malformed one, then the book");
  } finally {
    await admin(EMULATOR, "POST", "/__admin/reset");
  }
});

test("rule 10 (Chromium): extraQuery adds query parameters to every page and is validated; unknown names in params are still refused", { timeout: 60_000 }, async (t) => {
  await admin(EMULATOR, "DELETE", "/__admin/requests");
  const runs = await runGroup("extraQuery", { base: EMULATOR, data });
  const log = await admin(EMULATOR, "GET", "/__admin/requests?path=/events");
  const problems = pageProblems(runs);
  report(t, "pages", problems);
  const r = resultOf(runs);
  t.diagnostic(JSON.stringify(r));
  assert.deepEqual(problems, []);
  assert.deepEqual(r.good, { count: 2 }, "getEvents({ limit: 2 }, { extraQuery }) resolves");
  const query = (u) => new URL(u).searchParams;
  assert.equal(r.goodSent.length, 1);
  assert.equal(query(r.goodSent[0]).get("liquidity_min"), "10");
  assert.equal(query(r.goodSent[0]).get("featured"), "true");
  assert.equal(query(r.goodSent[0]).get("limit"), "2");
  for (const [label, b] of Object.entries(r.bad)) {
    assert.equal(b.code, "INVALID_PARAMS", `${label}: ${b.shown}`);
    assert.deepEqual(b.sent, [], `${label} sends nothing`);
  }
  assert.equal(r.iterate.error, null);
  assert.equal(r.iterate.items, 3);
  assert.equal(r.iterate.sent.length, 2, "two pages of two");
  for (const u of r.iterate.sent) assert.equal(query(u).get("featured"), "true", `every page carries extraQuery: ${u}`);
  const queries = log.requests.map((e) => new URLSearchParams(e.query));
  assert.equal(queries.length, 3, JSON.stringify(log.requests.map((e) => e.query)));
  assert.equal(queries[0].get("liquidity_min"), "10");
  assert.equal(queries[0].get("featured"), "true");
  assert.ok(queries.slice(1).every((q) => q.get("featured") === "true"));
});
