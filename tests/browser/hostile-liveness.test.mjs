// Liveness under stream faults, in headless Chromium: the scenarios of tests/js/liveness-scenarios.mjs (also
// run in Node by tests/js/hostile-liveness.test.mjs), inside a page of the emulator's origin that imports
// pkg/web, with no unhandled rejection or error on the page.
import { test, before, after, afterEach } from "node:test";
import assert from "node:assert/strict";
import { chromium } from "playwright-core";
import { lostDumpData, lostDumpScenario, stallData, stallScenario } from "../js/liveness-scenarios.mjs";

const EMULATOR = process.env.PREDICTKIT_EMULATOR_URL ?? "http://127.0.0.1:8787";

let browser;
let page;
const pageErrors = [];

before(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  page = await browser.newPage();
  page.on("pageerror", (e) => pageErrors.push(`${e.name}: ${e.message}`));
  await page.goto(`${EMULATOR}/`);
  await page.evaluate(async () => {
    window.problems = [];
    window.addEventListener("unhandledrejection", (e) => window.problems.push(`unhandled rejection: ${e.reason?.message ?? e.reason}`));
    window.addEventListener("error", (e) => window.problems.push(`error: ${e.message}`));
    window.pk = await import("/pkg/index.mjs");
    await window.pk.default();
  });
});
after(() => browser?.close());
afterEach(async () => {
  const problems = await page.evaluate(() => window.problems.splice(0));
  assert.deepEqual([...problems, ...pageErrors.splice(0)], []);
});

/** Runs a scenario function of liveness-scenarios.mjs in the page, with the package and `data`. */
function inPage(scenario, data) {
  return page.evaluate(
    ({ source, data }) => new Function("return " + source)()(window.pk, data),
    { source: scenario.toString(), data },
  );
}

test("a book whose dump was lost after a reconnection asks for a snapshot at its first change", { timeout: 30_000 }, async () => {
  const data = lostDumpData();
  const r = await inPage(lostDumpScenario, data);
  assert.ok(r.started && r.reopened, JSON.stringify(r));
  assert.ok(r.recovered, `A not verified after its dump was lost: ${JSON.stringify(r.statusA)}`);
  assert.ok(r.tookMs < 2000, `${r.tookMs} ms`);
  assert.equal(r.hash, data.hashA);
  assert.deepEqual(r.resyncs, [["A", "gap"]]);
  assert.ok(r.statusB.verified && r.statusB.state === "live", JSON.stringify(r.statusB));
});

test("a stall that ends before the reconnection path reports stalled, then open", { timeout: 30_000 }, async () => {
  const data = stallData();
  const r = await inPage(stallScenario, data);
  assert.ok(r.verified && r.stalled, JSON.stringify(r));
  assert.equal(r.statusWhileStalled, "stalled");
  assert.equal(r.statusAfter, "open", JSON.stringify(r.statuses));
  assert.deepEqual(r.statuses.slice(-2), ["stalled", "open"]);
  assert.equal(r.sockets, 1, "no reconnection");
  assert.equal(r.hash, data.hash);
  assert.ok(r.bookStatus.verified);
});
