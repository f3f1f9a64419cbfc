// A hostile listener, signal and socket against the stream driver, and subscriptions past their bound, in
// Node (the same scenarios run in Chromium: tests/browser/hostile-stream.test.mjs). Each test holds one rule
// of the README's "Live markets"; the scenarios are in stream-hostile-scenarios.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EMULATOR, pk } from "./helpers.mjs";
import * as checks from "./stream-hostile-checks.mjs";
import { boundScenario, marketData, reentrantScenario, signalScenario, socketScenario } from "./stream-hostile-scenarios.mjs";
import { lostDumpData, lostDumpScenario, quietMismatchData, quietMismatchScenario, stallData, stallScenario } from "./liveness-scenarios.mjs";

test("re-entrant delivery is bounded and a throwing listener never stops a stream", async () => {
  const data = marketData();
  checks.reentrant(assert, await reentrantScenario(pk, data), data);
});

test("a signal whose own methods throw never keeps close() from closing the socket and freeing the core", async () => {
  checks.signal(assert, await signalScenario(pk, marketData()));
});

test("a socket whose handler setters throw is always closed, through reconnections", { timeout: 30_000 }, async () => {
  const markets = await (await fetch(`${EMULATOR}/markets`)).json();
  const data = { ...marketData(), base: EMULATOR, emulatorAsset: markets.data[0].tokens[0].token_id };
  checks.socket(assert, await socketScenario(pk, data), { platform: typeof WebSocket === "function" });
});

test("a stream follows at most 5,000 ids, and following them costs linear time", { timeout: 60_000 }, async () => {
  checks.bound(assert, await boundScenario(pk, { bound: 5000 }));
});

test("a book whose dump was lost after a reconnection asks for a snapshot at its first change", async () => {
  const data = lostDumpData();
  checks.lostDump(assert, await lostDumpScenario(pk, data), data);
});

test("a stall that ends before the reconnection path reports stalled, then open", async () => {
  const data = stallData();
  checks.stall(assert, await stallScenario(pk, data), data);
});

test("a hash nothing explains on a stream with nothing else to wake it resyncs at its window's end", { timeout: 30_000 }, async () => {
  const data = quietMismatchData();
  checks.quietMismatch(assert, await quietMismatchScenario(pk, data), data);
});
