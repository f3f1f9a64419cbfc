// A hostile listener, signal and socket against the stream driver, and subscriptions past their bound, in
// headless Chromium: the scenarios of tests/js/stream-hostile-scenarios.mjs (also run in Node by
// tests/js/hostile-stream.test.mjs) inside a page of the emulator's origin that imports pkg/web, with the same
// assertions (tests/js/stream-hostile-checks.mjs) and no unhandled rejection or error on the page.
import { test, before, after, afterEach } from "node:test";
import assert from "node:assert/strict";
import { launchChromium } from "./chromium.mjs";
import * as checks from "../js/stream-hostile-checks.mjs";
import { boundScenario, marketData, reentrantScenario, signalScenario, socketScenario } from "../js/stream-hostile-scenarios.mjs";
import { lostDumpData, lostDumpScenario, quietMismatchData, quietMismatchScenario, stallData, stallScenario } from "../js/liveness-scenarios.mjs";

const EMULATOR = process.env.PREDICTKIT_EMULATOR_URL ?? "http://127.0.0.1:8787";

let browser;
let page;
const pageErrors = [];

before(async () => {
  browser = await launchChromium();
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

/** Runs a scenario function of stream-hostile-scenarios.mjs in the page, with the package and `data`. */
function inPage(scenario, data) {
  return page.evaluate(
    ({ source, data }) => new Function("return " + source)()(window.pk, data),
    { source: scenario.toString(), data },
  );
}

test("re-entrant delivery is bounded and a throwing listener never stops a stream", { timeout: 30_000 }, async () => {
  const data = marketData();
  checks.reentrant(assert, await inPage(reentrantScenario, data), data);
});

test("a signal whose own methods throw never keeps close() from closing the socket and freeing the core", { timeout: 30_000 }, async () => {
  checks.signal(assert, await inPage(signalScenario, marketData()));
});

test("a socket whose handler setters throw is always closed, through reconnections", { timeout: 30_000 }, async () => {
  const markets = await (await fetch(`${EMULATOR}/markets`)).json();
  const data = { ...marketData(), base: EMULATOR, emulatorAsset: markets.data[0].tokens[0].token_id };
  checks.socket(assert, await inPage(socketScenario, data), { platform: true });
});

test("a stream follows at most 5,000 ids, and following them costs linear time", { timeout: 60_000 }, async () => {
  checks.bound(assert, await inPage(boundScenario, { bound: 5000 }));
});

test("a book whose dump was lost after a reconnection asks for a snapshot at its first change", { timeout: 30_000 }, async () => {
  const data = lostDumpData();
  checks.lostDump(assert, await inPage(lostDumpScenario, data), data);
});

test("a stall that ends before the reconnection path reports stalled, then open", { timeout: 30_000 }, async () => {
  const data = stallData();
  checks.stall(assert, await inPage(stallScenario, data), data);
});

test("a hash nothing explains on a stream with nothing else to wake it resyncs at its window's end", { timeout: 30_000 }, async () => {
  const data = quietMismatchData();
  checks.quietMismatch(assert, await inPage(quietMismatchScenario, data), data);
});
