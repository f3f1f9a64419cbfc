// The speed guards of `cargo xtask bench`: the ratios the project holds itself to, and the one rule that
// decides whether a run met them. Each benchmark (bench/run.mjs, bench/client.mjs, bench/stream.mjs) hands
// its guarded measures here as paired rounds and exits with 1 when one fails; nothing else fails a run
// (the README's tables are printed beside each run for information).
//
// How a guard reads a measure, so that the machine's noise cannot cross it:
// - Rounds are paired: in each, ours and the competitor run one batch each, one right after the other, so
//   that whatever else the machine does falls on both alike. A round's ratio is the competitor's time
//   over ours (above 1: ours is faster).
// - The guard's figure is the median of the rounds' ratios (a round disturbed by other work moves one ratio,
//   not the median), with its interquartile range printed beside it.
// - A run fails only when that median is below the target by more than the guard's `tolerance`: how far a
//   run's median fell below the median of its runs, five runs of one unchanged build (three of the streaming
//   benchmark) on the development machine (2 shared vCPUs, a compiler running beside the benchmark in most of
//   them), rounded up to the next whole percent and one more; each guard says what was measured. A median
//   between the target and the tolerance is reported as "within noise", not as met.

/**
 * The guards, by name: what is measured, the target (× = competitor / ours), and the tolerance (a fraction
 * of the target). `show` turns a ratio into the text the target is written in.
 */
export const GUARDS = {
  ingest: {
    what: "ingest at 10,000 levels/side, × JSON.parse (bench/run.mjs)",
    target: 7,
    // Runs' medians 7.13–8.22× (their median 7.44×, 3 browsers and 75 rounds a run): at most 4.2% below.
    tolerance: 0.06,
  },
  hash: {
    what: "hash at 10,000 levels/side, × upstream (bench/run.mjs)",
    target: 4.5,
    // Runs' medians 4.49–5.01× (their median 4.68×): at most 4.1% below.
    tolerance: 0.06,
  },
  signing: {
    what: "signRequest, × upstream buildPolyHmacSignature (bench/client.mjs)",
    target: 5,
    // Runs' medians 4.38–4.52× (their median 4.44×, 61 rounds a run; with 21 rounds they spread 3.95–5.17×):
    // at most 1.4% below. (5.57–5.86× since signRequest keeps its last key.)
    tolerance: 0.03,
  },
  rest: {
    what: "REST call: client.getOrderBook against fetch + res.json() (bench/client.mjs)",
    // The target is "the client's call costs at most 1.05× fetch + res.json()", so the ratio guarded is
    // fetch's time over ours, at least 1 / 1.05.
    target: 1 / 1.05,
    // Runs' medians: the client at 1.130–1.196× fetch (their median 1.162×, 150 rounds a run): at most 2.9% below.
    tolerance: 0.04,
    show: (x) => `client ${(1 / x).toFixed(3)}× fetch + res.json()`,
    goal: "client ≤ 1.05× fetch + res.json()",
  },
  liveChecked: {
    what: 'live book at 50 levels, 5 entries a frame, verify "frame", × plain JS (bench/stream.mjs)',
    target: 1.5,
    // Runs' medians 1.19–1.26× (their median 1.24×, 15 rounds a run): at most 4.0% below.
    tolerance: 0.06,
  },
  liveUnchecked: {
    what: 'live book at 50 levels, 5 entries a frame, verify "off", × plain JS (bench/stream.mjs)',
    target: 1,
    // Runs' medians 0.48–0.52× (their median 0.49×): at most 2.0% below.
    tolerance: 0.04,
  },
};

/** The median of numbers (the mean of the middle two for an even count); NaN for none. */
export function median(values) {
  const s = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** The `p`-th quantile (0..1) of numbers, linearly interpolated; NaN for none. */
export function quantile(values, p) {
  const s = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const at = (s.length - 1) * p;
  const lo = Math.floor(at);
  const hi = Math.min(s.length - 1, lo + 1);
  return s[lo] + (s[hi] - s[lo]) * (at - lo);
}

/** Each round's ratio of two lists of paired times: `theirs[i] / ours[i]`, rounds missing either dropped. */
export function pairedRatios(ours, theirs) {
  const out = [];
  for (let i = 0; i < Math.min(ours.length, theirs.length); i++) {
    if (ours[i] > 0 && Number.isFinite(theirs[i])) out.push(theirs[i] / ours[i]);
  }
  return out;
}

/**
 * The verdict on one guard from its rounds' ratios: { name, what, target, tolerance, rounds, median, q1, q3,
 * verdict }, where verdict is "met" (median ≥ target), "within noise" (below the target by no more than the
 * tolerance) or "FAIL" (below by more, or no round measured).
 */
export function judge(name, ratios) {
  const guard = GUARDS[name];
  if (!guard) throw new Error(`no guard named ${name}`);
  const m = median(ratios);
  const floor = guard.target * (1 - guard.tolerance);
  const verdict = !(m >= floor) ? "FAIL" : m >= guard.target ? "met" : "within noise";
  return {
    name, what: guard.what, target: guard.target, tolerance: guard.tolerance, rounds: ratios.length,
    median: m, q1: quantile(ratios, 0.25), q3: quantile(ratios, 0.75), verdict,
  };
}

/** How a guard's ratio reads. */
function show(name, x) {
  const guard = GUARDS[name];
  if (!Number.isFinite(x)) return "—";
  return guard.show ? guard.show(x) : `${x.toFixed(2)}×`;
}

/** The verdicts as the benchmarks print them; true when one failed. */
export function report(verdicts, log = console.log) {
  log("\nSpeed guards (median of paired rounds' ratios; a run fails only below target × (1 − tolerance)):");
  for (const v of verdicts) {
    const goal = GUARDS[v.name].goal ?? `≥ ${show(v.name, v.target)}`;
    // (A guard shown as the inverse ratio, REST's, reads its quartiles the other way round.)
    const [lo, hi] = GUARDS[v.name].show ? [v.q3, v.q1] : [v.q1, v.q3];
    log(`  ${v.verdict.padEnd(12)} ${v.what}: ${show(v.name, v.median)} (IQR ${show(v.name, lo)}–${show(v.name, hi)}, ` +
      `${v.rounds} rounds); target ${goal}, tolerance ${(v.tolerance * 100).toFixed(0)}%`);
  }
  return verdicts.some((v) => v.verdict === "FAIL");
}
