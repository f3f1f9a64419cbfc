// The speed guards' rule (bench/guard.mjs): a run fails only when the median of its paired rounds' ratios is
// below the target by more than the guard's tolerance. Loads no browser.
import { test } from "node:test";
import assert from "node:assert/strict";
import { GUARDS, judge, median, pairedRatios, quantile } from "../../bench/guard.mjs";

test("the median and quartiles of rounds", () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.ok(Number.isNaN(median([])));
  assert.equal(median([1, NaN, 3, Infinity, 2]), 2, "rounds that measured nothing are dropped");
  assert.equal(quantile([1, 2, 3, 4, 5], 0.25), 2);
  assert.equal(quantile([1, 2], 0.5), 1.5);
});

test("paired ratios are each round's competitor time over ours", () => {
  assert.deepEqual(pairedRatios([1, 2, 4], [3, 2, 2]), [3, 1, 0.5]);
  assert.deepEqual(pairedRatios([1, 0, 2], [2, 5]), [2], "a round missing either side, or ours at 0, is dropped");
});

test("verdicts: met at or above the target, within noise down to the tolerance, FAIL below it", () => {
  const { target, tolerance } = GUARDS.ingest;
  const rounds = (x) => [x * 0.9, x, x * 1.1];
  assert.equal(judge("ingest", rounds(target)).verdict, "met");
  assert.equal(judge("ingest", rounds(target * 1.5)).verdict, "met");
  assert.equal(judge("ingest", rounds(target * (1 - tolerance / 2))).verdict, "within noise");
  assert.equal(judge("ingest", rounds(target * (1 - tolerance * 1.5))).verdict, "FAIL");
  assert.equal(judge("ingest", []).verdict, "FAIL", "a guard that measured nothing fails");
  // One disturbed round moves the mean, not the median.
  assert.equal(judge("ingest", [target, target, target, target * 0.1]).verdict, "met");
  const v = judge("rest", [1 / 1.04, 1 / 1.05, 1 / 1.02]);
  assert.equal(v.verdict, "met", "the client at 1.04× fetch meets ≤ 1.05×");
  assert.equal(judge("rest", [1 / 1.2, 1 / 1.2]).verdict, "FAIL");
  assert.throws(() => judge("nothing", [1]), /no guard named nothing/);
});

test("every guard has a target and a tolerance under a tenth of it", () => {
  for (const [name, g] of Object.entries(GUARDS)) {
    assert.ok(g.target > 0 && g.tolerance > 0 && g.tolerance < 0.1, name);
    assert.equal(typeof g.what, "string", name);
  }
});
