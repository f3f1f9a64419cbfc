// Liveness under stream faults, in Node (the same scenarios run in Chromium: tests/browser/hostile-liveness.test.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { pk } from "./helpers.mjs";
import { lostDumpData, lostDumpScenario, stallData, stallScenario } from "./liveness-scenarios.mjs";

test("a book whose dump was lost after a reconnection asks for a snapshot at its first change", async () => {
  const data = lostDumpData();
  const r = await lostDumpScenario(pk, data);
  assert.ok(r.started && r.reopened, JSON.stringify(r));
  assert.ok(r.recovered, `A not verified after its dump was lost: ${JSON.stringify(r.statusA)}`);
  // Within one snapshot of the change (the reconnection's backoff came before it).
  assert.ok(r.tookMs < 2000, `${r.tookMs} ms`);
  assert.equal(r.hash, data.hashA);
  assert.deepEqual(r.resyncs, [["A", "gap"]]);
  assert.ok(r.statusB.verified && r.statusB.state === "live", JSON.stringify(r.statusB));
});

test("a stall that ends before the reconnection path reports stalled, then open", async () => {
  const data = stallData();
  const r = await stallScenario(pk, data);
  assert.ok(r.verified && r.stalled, JSON.stringify(r));
  assert.equal(r.statusWhileStalled, "stalled");
  assert.equal(r.statusAfter, "open", JSON.stringify(r.statuses));
  assert.deepEqual(r.statuses.slice(-2), ["stalled", "open"]);
  assert.equal(r.sockets, 1, "no reconnection");
  assert.equal(r.hash, data.hash);
  assert.ok(r.bookStatus.verified);
});
