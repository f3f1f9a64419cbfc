// The ten hostile-input rules, written once for the two runtimes that run them: tests/js/hostile.test.mjs
// runs each group of tests/js/hostile-cases.mjs in a Node child process, tests/browser/hostile.test.mjs
// in a fresh headless-Chromium page. Here are the shared set-up (the emulator's data and the redirect
// pair) and teardown, the ten tests, their assertions and the findings they report; a test file gives
// only how one run of a group goes in its runtime and what it calls that run.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { EMULATOR, fixture, admin, emulatorAccount, startRedirectPair, runHostileGroup, hostileRunProblems, hostileSweepFindings } from "./helpers.mjs";
import { makeKit } from "./hostile-cases.mjs";

const kit = makeKit();

function report(t, title, lines) {
  t.diagnostic(`${title}: ${lines.length ? `${lines.length} finding(s)` : "none"}`);
  for (const line of lines) t.diagnostic(`  ${line}`);
}

const resultOf = (runs) => runs.at(-1).final?.result ?? {};

/**
 * Registers the set-up, the teardown and the ten tests for one runtime (node:test runs its hooks in the
 * order they were registered, so a runtime's own hooks registered before this call run first, at set-up
 * and at teardown alike):
 * - `runOne(scenario, args)`: runs one scenario in a fresh process or page and resolves to its run
 *   (see runHostileGroup in helpers.mjs);
 * - `stallMs`: how long a run whose event loop is blocked is given before it is ended;
 * - `marker`: what follows "rule N" in the test names ("" or " (Chromium)");
 * - `where`, `wherePlural`, `ends`: what a run is and how a case ends it, in the reports and the
 *   assertions' messages ("process", "processes", "killed" or "page", "pages", "crashed");
 * - `redirectRule`: what rule 6 claims in this runtime, and `redirectCalls`: how many authenticated calls
 *   its scenario must report (not checked when undefined).
 */
export function registerHostileRules({ runOne, stallMs, marker, where, wherePlural, ends, redirectRule, redirectCalls }) {
  const runGroup = (scenario, args, options) => runHostileGroup(runOne, scenario, args, options);
  const problemsOf = (runs) => hostileRunProblems(runs, { where, stallMs });

  let data;
  let pair;

  before(async () => {
    assert.equal(await (await fetch(`${EMULATOR}/`)).json(), "OK", `the emulator answers at ${EMULATOR}`);
    data = {
      ...(await emulatorAccount(EMULATOR)),
      bookJson: fixture("real/clob-book-1.json"),
      orderId: "0x" + "a".repeat(64),
      vectors: { signing: JSON.parse(fixture("vectors/signing.json")), bookHash: JSON.parse(fixture("vectors/book-hash.json")) },
    };
    // The runs' health check signs every signing vector and hashes every book-hash vector in the service's order.
    assert.ok(data.vectors.signing.cases.length > 0, "signing vectors for the health check");
    assert.ok(data.vectors.bookHash.cases.some((c) => c.order === "service"), "book-hash vectors in the service's order for the health check");
    pair = await startRedirectPair();
  });

  after(async () => {
    await pair?.close();
    await admin(EMULATOR, "POST", "/__admin/reset").catch(() => {});
  });

  test(`rule 1${marker}: every export, constructor, static, method and getter answers every hostile argument, in every position, with a value or a PredictKitError in time (no trap, no foreign error, no hang, no corruption)`, { timeout: 180_000 }, async (t) => {
    const started = Date.now();
    const shards = await Promise.all([0, 1].map((index) =>
      runGroup("sweep", { base: EMULATOR, data, shard: { index, count: 2 } }, { resumable: true })));
    const runs = shards.flat();
    const { total, hugeAllocated, ran, counts, violations, skipped, lost } = hostileSweepFindings(runs, kit.show);
    const problems = problemsOf(runs);
    t.diagnostic(`${ran} cases of ${total} in ${runs.length} ${wherePlural}, ${((Date.now() - started) / 1000).toFixed(1)} s; outcomes ${JSON.stringify(counts)}; 2 GiB array allocated: ${hugeAllocated}`);
    if (skipped.length) report(t, "not run (the same value blocked the same target in another position)", skipped);
    if (lost.length) report(t, `outcome lost (still pending when a later call blocked or ${ends} the ${where})`, lost);
    report(t, `${wherePlural} (hangs, crashes, corruption, closing checks, unhandled)`, problems);
    report(t, "calls that broke the rules", violations);
    assert.ok(total > 2000, "the sweep enumerated the module");
    assert.equal(ran + skipped.length, total, `every case ran (those that blocked or ${ends} their ${where} included), or was skipped after a block`);
    assert.deepEqual(problems, [], "no hang, crash, corruption, unhandled rejection or failed closing check");
    assert.deepEqual(violations, [], "every call returned, resolved, or failed with a PredictKitError");
  });

  test(`rule 1${marker}: the named hostile arguments are INVALID_PARAMS and send nothing`, { timeout: 120_000 }, async (t) => {
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
    const problems = problemsOf(runs);
    report(t, wherePlural, problems);
    report(t, "cases not INVALID_PARAMS", lines);
    assert.equal(results.length + runs.filter((r) => !r.final && r.last).length, 10,
      `all ten cases ran (or are reported as having hung or ${ends} their ${where})`);
    assert.deepEqual(problems, []);
    assert.deepEqual(lines, []);
  });

  test(`rule 2${marker}: a JS exception never unwinds through Rust — after 2,000 rounds of throwing Proxies, throwing getters and re-entrant/freeing getters, the same client and book still work`, { timeout: 60_000 }, async (t) => {
    const runs = await runGroup("unwind", { base: EMULATOR, data });
    const problems = problemsOf(runs);
    report(t, wherePlural, problems);
    const r = resultOf(runs);
    t.diagnostic(`outcomes ${JSON.stringify(r.tallies)}; a book freed by its own getter then: ${JSON.stringify(r.freedAfter)}`);
    if (r.firstBad) t.diagnostic(`first call that broke the rules: round ${r.firstBad.round}, ${r.firstBad.call}: ${r.firstBad.shown}`);
    if (r.stopped) t.diagnostic(`stopped at round ${r.stopped.round}: ${r.stopped.shown}`);
    assert.deepEqual(problems, []);
    assert.equal(r.stopped, null, "all 2,000 rounds ran");
    assert.deepEqual(r.examples, {}, "every call returned or threw a PredictKitError");
    assert.ok(Object.keys(r.freedAfter).length > 0, "a book was freed by its own getter");
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

  test(`rule 3${marker}: a misbehaving fetch fails only its own call (NETWORK or DECODE), never the machinery; a fake or throwing signal is INVALID_PARAMS`, { timeout: 60_000 }, async (t) => {
    const runs = await runGroup("badFetch", { base: EMULATOR, data });
    const problems = problemsOf(runs);
    report(t, wherePlural, problems);
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
    assert.equal(Object.keys(r.signals).length, 2, "both fake signals were tried");
    for (const [call, s] of Object.entries(r.signals)) assert.equal(s.code, "INVALID_PARAMS", `${call}: ${s.shown}`);
    assert.ok(["INVALID_PARAMS", "ABORTED"].includes(r.proxiedAborted.code),
      `a Proxy of an aborted AbortSignal is refused or honoured, not ignored: ${r.proxiedAborted.shown}`);
    assert.deepEqual(r.signalsSent, [], "a call with a bad or aborted signal sends nothing");
    assert.equal(r.normal, "OK", "afterwards a normal client still resolves getOk()");
  });

  test(`rule 4${marker}: the deadline holds whatever fetch does (a fetch that never settles, a body that never ends), and timeoutMs of 2**31 or 2**40 does not fire at once`, { timeout: 60_000 }, async (t) => {
    const runs = await runGroup("deadline", { base: EMULATOR, data });
    const problems = problemsOf(runs);
    report(t, wherePlural, problems);
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

  test(`rule 5${marker}: path segments '..' and '.' are INVALID_PARAMS and nothing reaches the emulator`, { timeout: 60_000 }, async (t) => {
    await admin(EMULATOR, "DELETE", "/__admin/requests");
    const runs = await runGroup("traversal", { base: EMULATOR, data });
    const log = await admin(EMULATOR, "GET", "/__admin/requests");
    const problems = problemsOf(runs);
    report(t, wherePlural, problems);
    const r = resultOf(runs);
    const wrong = (r.results ?? []).filter((c) => c.code !== "INVALID_PARAMS" || c.sent.length)
      .map((c) => `${c.name}: ${c.shown}${c.sent.length ? `; sent ${c.sent.join(", ")}` : ""}`);
    report(t, "calls not refused", wrong);
    assert.deepEqual(problems, []);
    assert.equal(r.results.length, 11);
    assert.deepEqual(wrong, []);
    // The closing check's own GET / is the only request the emulator may have seen.
    const seen = log.requests.filter((e) => !(e.method === "GET" && e.path === "/")).map((e) => `${e.method} ${e.path}`);
    assert.deepEqual(seen, [], "the emulator received none of them");
  });

  test(`rule 6${marker}: ${redirectRule}`, { timeout: 60_000 }, async (t) => {
    pair.requests.length = 0;
    const runs = await runGroup("redirect", { base: EMULATOR, a: pair.a, data });
    const problems = problemsOf(runs);
    report(t, wherePlural, problems);
    const r = resultOf(runs);
    const leaked = pair.requests.filter((q) => Object.keys(q.headers).some((h) => /^service_(api_key|passphrase|signature)$/i.test(h)));
    const deletes = pair.requests.filter((q) => q.method === "DELETE");
    report(t, "authenticated calls", (r.results ?? []).map((c) => `${c.name}: ${c.shown}`));
    report(t, "requests that reached the other origin with credentials", leaked.map((q) => `${q.method} ${q.url}`));
    assert.deepEqual(problems, []);
    if (redirectCalls !== undefined) assert.equal(r.results.length, redirectCalls);
    assert.ok(r.results.length > 0, "authenticated calls were made through the redirect");
    for (const c of r.results) {
      assert.equal(c.code, "API", `${c.name}: ${c.shown}`);
      assert.match(c.message, /redirect/i, `${c.name}: ${c.message}`);
    }
    assert.deepEqual(leaked.map((q) => `${q.method} ${q.url}`), [], "no credentials reached the other origin");
    assert.deepEqual(deletes.map((q) => q.url), [], "no DELETE reached the other origin");
    assert.deepEqual(r.getOk, { value: "OK" }, "a public read follows the redirect");
    assert.ok(pair.requests.some((q) => q.method === "GET" && q.url === "/"), "and its answer came from the other origin");
  });

  test(`rule 7${marker}: every method and getter of a freed Client or OrderBook fails with FREED; free() twice does nothing; isPredictKitError never throws`, { timeout: 60_000 }, async (t) => {
    const runs = await runGroup("freed", { base: EMULATOR, data });
    const problems = problemsOf(runs);
    report(t, wherePlural, problems);
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
    assert.equal(Object.keys(r.isPredictKitError).length, 3, "isPredictKitError was given its three hostile values");
    for (const [label, v] of Object.entries(r.isPredictKitError)) if (v !== false) wrong.push(`isPredictKitError(${label}): ${v}`);
    report(t, "not FREED", wrong);
    assert.deepEqual(problems, []);
    assert.deepEqual(wrong, []);
  });

  test(`rule 8${marker}: getBook retries a cut and a malformed body, like every idempotent read`, { timeout: 60_000 }, async (t) => {
    await admin(EMULATOR, "POST", "/__admin/reset");
    const reference = await (await fetch(`${EMULATOR}/book?token_id=${data.token}`)).json();
    await admin(EMULATOR, "POST", "/__admin/faults", { path: "/book", faults: [{ kind: "truncated" }, { kind: "malformed" }] });
    await admin(EMULATOR, "DELETE", "/__admin/requests");
    try {
      const runs = await runGroup("retryBook", { base: EMULATOR, data });
      const log = await admin(EMULATOR, "GET", "/__admin/requests?path=/book");
      const problems = problemsOf(runs);
      report(t, wherePlural, problems);
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

  test(`rule 10${marker}: extraQuery adds query parameters to every page and is validated; unknown names in params are still refused`, { timeout: 60_000 }, async (t) => {
    await admin(EMULATOR, "DELETE", "/__admin/requests");
    const runs = await runGroup("extraQuery", { base: EMULATOR, data });
    const log = await admin(EMULATOR, "GET", "/__admin/requests?path=/events");
    const problems = problemsOf(runs);
    report(t, wherePlural, problems);
    const r = resultOf(runs);
    t.diagnostic(JSON.stringify(r));
    assert.deepEqual(problems, []);
    assert.deepEqual(r.good, { count: 2 }, "getEvents({ limit: 2 }, { extraQuery }) resolves");
    const query = (u) => new URL(u).searchParams;
    assert.equal(r.goodSent.length, 1);
    assert.equal(query(r.goodSent[0]).get("liquidity_min"), "10");
    assert.equal(query(r.goodSent[0]).get("featured"), "true");
    assert.equal(query(r.goodSent[0]).get("limit"), "2");
    assert.equal(Object.keys(r.bad).length, 6, "the six bad extraQuery cases ran");
    for (const [label, b] of Object.entries(r.bad)) {
      assert.equal(b.code, "INVALID_PARAMS", `${label}: ${b.shown}`);
      assert.deepEqual(b.sent, [], `${label} sends nothing`);
    }
    assert.equal(r.iterate.error, null);
    assert.equal(r.iterate.items, 3);
    assert.equal(r.iterate.sent.length, 2, "two pages of two");
    for (const u of r.iterate.sent) assert.equal(query(u).get("featured"), "true", `every page carries extraQuery: ${u}`);
    // The emulator saw exactly these three requests, with the parameters in their query strings.
    const queries = log.requests.map((e) => new URLSearchParams(e.query));
    assert.equal(queries.length, 3, JSON.stringify(log.requests.map((e) => e.query)));
    assert.equal(queries[0].get("liquidity_min"), "10");
    assert.equal(queries[0].get("featured"), "true");
    assert.ok(queries.slice(1).every((q) => q.get("featured") === "true"));
  });
}
