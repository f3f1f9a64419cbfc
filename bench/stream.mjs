// The streaming benchmark (issue 14). `cargo xtask bench` runs it after the order-book and client
// benchmarks; alone: `node bench/stream.mjs` (after a build: it serves the built pkg/).
//
// 1. In Node, before anything is timed: the frames. A reference implementation (bench/stream-frames.mjs)
//    keeps the service's view of each book, applies random price changes (new sizes, new levels, removals)
//    and computes the service's SHA-1 book hash after every entry; the frames and snapshots are served to
//    the page as /bench/stream-data.json. The pure-JS SHA-1 the competitor may use is checked here first.
// 2. In headless Chromium (bench/stream.html, bench/stream-page.mjs), one run:
//    - per entry, on 50- and 1,000-level books (levels per side), frames of 1 and of 5 entries of one asset,
//      verify "frame" and "entry" (and "off", and "frame" with an onEvent listener, for 5-entry frames, to
//      show what the checks and the listener cost): the time of `socket.onmessage({ data })` for a batch, and of
//      `stream.settled()` after it (large books' checks are answered by crypto.subtle): the frames' text to
//      updated, hash-checked books, against a careful plain-JS keeper
//      of books (bench/plain-stream.mjs) awaiting crypto.subtle's SHA-1, and the same with a synchronous
//      pure-JS SHA-1. Batches replay the same frames from the same state; medians of 15 after 2 warm-ups,
//      both sides interleaved in the same run; every batch ends with its book checked against the reference
//      (hash checks counted, no mismatch, equal final hash), which also keeps the work from being optimised
//      away.
//    - throughput: 10,000 entries per second across 100 books of 50 levels for 5 s, fed by a 10 ms timer,
//      while Playwright clicks a button about every 100 ms (first 2 s idle, as a baseline) and the page
//      records each click's input delay; plus the CPU share spent in onmessage.
// 3. Prints a table of medians and ratios and the targets met or missed, and how long it all took; then its
//    speed guards (bench/guard.mjs: 50 levels, 5 entries a frame, verified per frame and unchecked, against
//    the faster of the two plain-JS keepers in each round), and exits with 1 when one fails.
//
// Environment: PREDICTKIT_PKG_DIR (default pkg/), CHROMIUM (default /usr/bin/chromium), STREAM_BENCH_QUICK=1
// (smaller batches and a 1 s load, to try the script out; its numbers are not the benchmark's).
import { createHash, randomBytes } from "node:crypto";
import { availableParallelism, loadavg } from "node:os";
import { launch, serve, ratio, time } from "./harness.mjs";
import { judge, report } from "./guard.mjs";
import { sha1Hex } from "./sha1.mjs";
import { TruthBook, frame, ids, rng } from "./stream-frames.mjs";

const started = performance.now();
const loadAtStart = loadavg()[0];
const QUICK = process.env.STREAM_BENCH_QUICK === "1";
const T0 = 1785734468581;

// The pure-JS SHA-1 must be right before its speed means anything.
for (const n of [...Array(301).keys(), 4096, 70_001, 1 << 20]) {
  const bytes = randomBytes(n);
  if (sha1Hex(bytes) !== createHash("sha1").update(bytes).digest("hex")) throw new Error(`bench/sha1.mjs is wrong at ${n} bytes`);
}

/**
 * One book for the per-entry measurements: its snapshot, the churn (8 changes per level per side, in frames
 * of 5, with empty hashes: applied unchecked and untimed), then for frames of 1 and of 5 entries the same
 * `entries` changes (from the same state and random stream) with their hashes.
 */
function perEntrySet(levels, entries) {
  const build = () => {
    const random = rng(levels * 7919 + 1);
    const { asset, market } = ids(random);
    const truth = new TruthBook({ random, levels, asset, market, timestamp: T0 });
    const snapshot = truth.snapshot();
    const snapshotHash = truth.hash();
    const churn = [];
    let ts = T0;
    for (let n = 0; n < 8 * levels; n += 5) {
      ts += 1;
      const changes = Array.from({ length: 5 }, () => truth.change(ts, false));
      churn.push(frame(market, ts, changes));
    }
    return { truth, snapshot, snapshotHash, churn, ts, asset, market };
  };
  const first = build();
  const sequences = [1, 5].map((perFrame) => {
    const { truth, ts: start } = perFrame === 1 ? first : build();
    const step = rng(perFrame);
    const frames = [];
    let ts = start;
    for (let n = 0; n < entries; n += perFrame) {
      ts += 1 + Math.floor(step() * 3);
      const changes = Array.from({ length: perFrame }, () => truth.change(ts, true));
      frames.push(frame(first.market, ts, changes));
    }
    return {
      perFrame, frames, entries, finalHash: truth.hash(),
      checks: { frame: frames.length, entry: entries, off: 0 },
    };
  });
  return {
    levels, asset: first.asset, snapshot: first.snapshot, snapshotHash: first.snapshotHash, churn: first.churn, sequences,
  };
}

/** The throughput run's books and frames: `rate` entries per second for `seconds`, frames of `perFrame` entries of a random asset. */
function throughputSet({ books, levels, rate, seconds, perFrame, tickMs }) {
  const random = rng(42);
  const truths = Array.from({ length: books }, () => {
    const { asset, market } = ids(random);
    return new TruthBook({ random, levels, asset, market, timestamp: T0 });
  });
  const snapshots = truths.map((t) => t.snapshot());
  const entries = rate * seconds;
  const frames = [];
  const framesPerMs = rate / perFrame / 1000;
  for (let n = 0; n < entries / perFrame; n++) {
    const truth = truths[Math.floor(random() * books)];
    const ts = T0 + 1 + Math.floor(n / framesPerMs);
    frames.push(frame(truth.market, ts, Array.from({ length: perFrame }, () => truth.change(ts, true))));
  }
  return {
    levels, rate, perFrame, tickMs, entries,
    books: truths.map((t, i) => ({ asset: t.asset, snapshot: snapshots[i], finalHash: t.hash() })),
    frames,
  };
}

const generating = performance.now();
const data = {
  perEntry: [perEntrySet(50, QUICK ? 1000 : 4000), perEntrySet(1000, QUICK ? 100 : 500)],
  throughput: throughputSet({ books: 100, levels: 50, rate: 10_000, seconds: QUICK ? 1 : 5, perFrame: 5, tickMs: 10 }),
};
const body = Buffer.from(JSON.stringify(data));
const generated = performance.now() - generating;

const server = await serve({
  routes: { "/bench/stream-data.json": { body, type: "application/json" } },
  // Cross-origin isolation gives performance.now() 5 µs steps (100 µs otherwise).
  isolate: true,
});
const browser = await launch();
let perEntry, throughput, input;
try {
  const page = await browser.newPage();
  page.on("pageerror", (e) => console.error(`page error: ${e}`));
  await page.goto(`${server.origin}/bench/stream.html`);
  await page.waitForFunction(() => window.streamBench || window.streamBenchError, null, { timeout: 120_000, polling: 100 });
  const loadError = await page.evaluate(() => window.streamBenchError);
  if (loadError) throw new Error(loadError);

  perEntry = await page.evaluate(() => window.streamBench.perEntry());

  // The throughput run, with a click about every 100 ms from here until it ends (the page tags each click
  // with its phase: setup, idle, load, after).
  const box = await page.locator("#target").boundingBox();
  let running = true;
  const run = page.evaluate((idleMs) => window.streamBench.throughput({ idleMs }), QUICK ? 1000 : 2000)
    .finally(() => { running = false; });
  while (running) {
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throughput = await run;
  input = await page.evaluate(() => window.streamBench.inputReport());
} finally {
  await browser.close();
  await server.close();
}

/** A markdown table, columns padded; `right(i)` tells which columns align right. */
function table(header, lines, right) {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells) => `| ${cells.map((c, i) => (right(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(" | ")} |`;
  const rule = `|${widths.map((w, i) => (right(i) ? `${"-".repeat(w + 1)}:` : "-".repeat(w + 2))).join("|")}|`;
  return [fmt(header), rule, ...lines.map(fmt)].join("\n");
}
const percentile = (values, p) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

// Targets per row: a price_change entry applied and verified on a 50-level book in at most 5 µs, and ours at
// least 2× faster than plain JS with the browser's SHA-1.
const PER_ENTRY_NS = 5_000;
const rowTargets = (r) => {
  const perEntry = r.ours / r.perFrame;
  const out = [];
  if (r.verify === "off") return out;
  if (r.levels === 50) out.push([`≤ 5 µs/entry`, perEntry <= PER_ENTRY_NS]);
  out.push(["≥ 2× plain", r.plain / r.ours >= 2]);
  return out;
};

const header = ["operation", "levels/side", "ours/frame", "ours/entry", "plain JS/entry", "×", "plain JS, sync SHA-1/entry", "×", "target"];
const lines = perEntry.rows.map((r) => {
  const targets = rowTargets(r);
  const missed = targets.filter(([, ok]) => !ok).map(([name]) => name);
  return [
    `price_change, ${r.perFrame} ${r.perFrame === 1 ? "entry" : "entries"}/frame, verify "${r.verify}"${r.listener ? " + onEvent" : ""}`,
    r.levels.toLocaleString("en-US"),
    time(r.ours),
    time(r.ours / r.perFrame),
    time(r.plain / r.perFrame), ratio(r.plain, r.ours),
    time(r.plainSync / r.perFrame), ratio(r.plainSync, r.ours),
    targets.length === 0 ? "— (no check)" : missed.length ? `MISS ${missed.join(", ")}` : "met",
  ];
});
console.log(`\nStreaming benchmark (market channel, live books), ${perEntry.userAgent}${perEntry.crossOriginIsolated ? "" : " (not cross-origin isolated: 100 µs timer)"}`);
console.log(`Load average (1 min) ${loadAtStart.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end, on ${availableParallelism()} CPUs.`);
console.log("Time of socket.onmessage({ data }): from the frame's text to an updated, hash-checked book. Medians of 15");
console.log("batches after 2 warm-ups; each batch replays the same frames from the same state, a book first churned");
console.log("(untimed) by 8 changes per level, so that its levels come from price changes as in a long-lived stream.");
console.log("Plain JS: JSON.parse, sorted arrays, the summary rebuilt and hashed with crypto.subtle.digest (each frame");
console.log("awaited), or with a synchronous pure-JS SHA-1. × = plain JS / ours (above 1: ours is faster).");
console.log(`"+ onEvent": with a listener, for which the driver also JSON.parses each frame to hand out its events;`);
console.log(`verify "off": applied, never checked (what the checks cost, by difference).\n`);
console.log(table(header, lines, (i) => i > 0 && i < header.length - 1));

// Throughput and input.
const delaysIn = (p) => input.delays.filter(([phase]) => phase === p).map(([, ms]) => ms);
const idle = delaysIn("idle");
const load = delaysIn("load");
const slowLoad = input.slowEvents.filter((e) => e.phase === "load");
const share = throughput.busyMs / throughput.wallMs;
// Kept up: the last frame delivered within 1 % of the schedule (each tick delivers every frame due by then,
// so a page that cannot keep up falls further and further behind). How late single ticks ran (timer
// jitter, other processes) is reported apart.
const keptUp = throughput.achievedRate >= 0.99 * throughput.rate;
const ms = (x) => (Number.isFinite(x) ? `${x.toFixed(1)} ms` : "—");
const tpRows = [
  ["entries applied and verified (frames of 5)", `${throughput.entries.toLocaleString("en-US")} in ${(throughput.wallMs / 1000).toFixed(2)} s (${Math.round(throughput.achievedRate).toLocaleString("en-US")}/s)`, "10,000/s", keptUp],
  ["frames delivered behind their schedule by (max)", ms(throughput.maxLagMs), "", null],
  ["CPU share in onmessage (busy / wall)", `${(share * 100).toFixed(1)} % (${(throughput.busyMs / throughput.entries * 1000).toFixed(2)} µs/entry)`, "", null],
  [`timer ticks over 16 ms / over 50 ms (of ${throughput.ticks})`, `${throughput.ticksOver16} / ${throughput.ticksOver50}`, "", null],
  ["longest tick (frames it delivered); longest single frame", `${ms(throughput.longestTickMs)} (${throughput.longestTickFrames}); ${ms(throughput.longestCallMs)}`, "", null],
  [`input delay, idle baseline (${idle.length} clicks): p95 / max`, `${ms(percentile(idle, 95))} / ${ms(Math.max(...idle))}`, "", null],
  [`input delay under load (${load.length} clicks): p95 / max`, `${ms(percentile(load, 95))} / ${ms(Math.max(...load))}`, "≤ 50 ms", load.length > 0 && Math.max(...load) <= 50],
  // Event Timing reports only events of 16 ms or more to the next paint; their input delay (processingStart -
  // startTime) cross-checks the listener's own measure.
  ["Event Timing cross-check: worst input delay under load", slowLoad.length ? `${ms(Math.max(...slowLoad.map((e) => e.delay)))} (of ${slowLoad.length} events reported)` : "no event reported (all under 16 ms)", "", null],
];
console.log(`\nThroughput: ${throughput.books} books of ${throughput.levels} levels/side in one stream (verify "frame"), ${throughput.rate.toLocaleString("en-US")} entries/s`);
console.log(`fed every ${data.throughput.tickMs} ms, a click every ~100 ms (Playwright page.mouse.click; delay = listener time - event.timeStamp).\n`);
console.log(table(["measure", "result", "target", "met"], tpRows.map(([m, r, t, ok]) => [m, r, t, ok == null ? "" : ok ? "met" : "MISS"]), () => false));

// The targets of issue 14, against this run.
const find = (levels, perFrame, verify) => perEntry.rows.find((r) => r.levels === levels && r.perFrame === perFrame && r.verify === verify && !r.listener);
const targets = [];
for (const [perFrame, verify] of [[1, "frame"], [5, "frame"], [5, "entry"]]) {
  const r = find(50, perFrame, verify);
  targets.push([`entry applied and verified ≤ 5 µs at 50 levels (${perFrame}/frame, verify "${verify}")`, r.ours / r.perFrame <= PER_ENTRY_NS, time(r.ours / r.perFrame)]);
}
const checked = perEntry.rows.filter((r) => !r.listener && r.verify !== "off");
const worst = checked.reduce((a, r) => (r.plain / r.ours < a.plain / a.ours ? r : a));
targets.push([`≥ 2× faster than plain JS (crypto.subtle), every row; worst: ${worst.levels} levels, ${worst.perFrame}/frame, "${worst.verify}"`, checked.every((r) => r.plain / r.ours >= 2), ratio(worst.plain, worst.ours)]);
const worstSync = checked.reduce((a, r) => (r.plainSync / r.ours < a.plainSync / a.ours ? r : a));
targets.push([`(also) ≥ 2× faster than plain JS with a sync SHA-1; worst: ${worstSync.levels} levels, ${worstSync.perFrame}/frame, "${worstSync.verify}"`, worstSync.plainSync / worstSync.ours >= 2, ratio(worstSync.plainSync, worstSync.ours)]);
targets.push(["kept up with 10,000 entries/s across 100 books (finished within 1 % of the schedule)", keptUp, `${Math.round(throughput.achievedRate).toLocaleString("en-US")}/s, ${ms(throughput.maxLagMs)} behind at worst`]);
targets.push(["input answered within 50 ms at 10,000 entries/s (max delay)", load.length > 0 && Math.max(...load) <= 50, ms(Math.max(...load))]);
console.log("\nTargets:");
for (const [name, ok, got] of targets) console.log(`  ${ok ? "met " : "MISS"}  ${name}: ${got}`);
console.log(`\nFrames generated in ${(generated / 1000).toFixed(1)} s (${(body.length / 1e6).toFixed(1)} MB); whole benchmark ${((performance.now() - started) / 1000).toFixed(1)} s.${QUICK ? " QUICK run: not the benchmark's numbers." : ""}`);

// The speed guards: each round's ratio against the faster plain-JS keeper of that round (crypto.subtle or the
// synchronous SHA-1; both were measured right after ours).
const fasterPlain = (r) => (r.oursSamples ?? []).map((ours, i) => Math.min(r.plainSamples[i], r.plainSyncSamples[i]) / ours)
  .filter(Number.isFinite);
const live = (verify) => find(50, 5, verify);
if (report([judge("liveChecked", fasterPlain(live("frame"))), judge("liveUnchecked", fasterPlain(live("off")))])) {
  console.error("\nbench/stream.mjs: a speed guard failed (FAIL above)");
  process.exitCode = 1;
}
