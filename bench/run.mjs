// `cargo xtask bench` (after the build) runs this: it bundles the upstream functions with esbuild, serves
// bench/ and the built pkg/web from a tiny static server, runs bench/book.html in headless Chromium
// (playwright-core) and prints a table of times and ratios, then the README's table beside it (for
// information), then the targets met or missed. Then the speed guards of the book engine (bench/guard.mjs:
// ingest and hash at 10,000 levels/side): their rounds pooled from GUARD_BROWSERS fresh browsers (a large
// JSON.parse moves by up to a third between browsers with the collector's state), and it exits with 1 when
// one fails.
//
// Environment: PREDICTKIT_PKG_DIR (default pkg/), CHROMIUM (default /usr/bin/chromium), BENCH_SIZES
// (levels per side, comma-separated; default 10,1000,10000,100000), BENCH_RUNS (runs of the page, each
// figure the median of the runs; default 1), BENCH_WRITE_README=1 (write this run's table into the README
// instead of printing it beside this run's: for recording a run, with BENCH_RUNS=5), BENCH_GUARDS_ONLY=1
// (only the guards' pages: for measuring their spread from run to run).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { BENCH, ROOT, launch, serve, ratio, time } from "./harness.mjs";
import { COMPETITORS, againstReadme, formatTable, readTable } from "./book-table.mjs";
import { judge, pairedRatios, report } from "./guard.mjs";

const work = mkdtempSync(join(tmpdir(), "predictkit-bench-"));
const upstream = join(work, "upstream.js");
await build({
  entryPoints: [join(BENCH, "upstream-entry.mjs")],
  bundle: true,
  format: "esm",
  platform: "browser",
  outfile: upstream,
  logLevel: "warning",
});

// Serves /bench/* from bench/ (plus the bundle) and /pkg/* from the built package (its entry and web build).
// Cross-origin isolated, so that performance.now() has 5 µs steps.
const server = await serve({ routes: { "/bench/upstream.js": upstream }, isolate: true });
const SIZES = (process.env.BENCH_SIZES ?? "10,1000,10000,100000").split(",").map(Number);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 1));
const README = join(ROOT, "README.md");
// The browsers whose rounds the guards pool (the main run's among them when it measures 10,000 levels), and
// the rounds each guard page measures.
const GUARD_BROWSERS = 3;
const GUARD_ROUNDS = 25;
const GUARD_LEVELS = 10_000;
const GUARDS_ONLY = process.env.BENCH_GUARDS_ONLY === "1";

/** One run of the page in a fresh browser, for the books of `sizes` levels per side. */
async function runPage(sizes, rounds) {
  const browser = await launch();
  try {
    const page = await browser.newPage();
    page.on("pageerror", (e) => console.error(`page error: ${e}`));
    await page.goto(`${server.origin}/bench/book.html?sizes=${sizes.join(",")}${rounds ? `&rounds=${rounds}` : ""}`);
    await page.waitForFunction(() => window.__bench, null, { timeout: 600_000, polling: 500 });
    const result = await page.evaluate(() => window.__bench);
    if (result.error) throw new Error(result.error);
    return result;
  } finally {
    await browser.close();
  }
}

/** Each figure of the rows the median of the runs' (the runs measure the same rows in the same order). */
function medianRows(runs) {
  const median = (values) => {
    const sorted = values.filter((v) => v != null).sort((a, b) => a - b);
    return sorted.length ? sorted[Math.floor(sorted.length / 2)] : null;
  };
  return runs[0].rows.map((row, i) => {
    const out = { ...row };
    for (const field of ["ours", ...COMPETITORS.map(([f]) => f)]) out[field] = median(runs.map((r) => r.rows[i][field]));
    return out;
  });
}

let rows, userAgent;
const guardRuns = [];
let failed = false;
try {
  if (!GUARDS_ONLY) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await runPage(SIZES));
    rows = medianRows(runs);
    userAgent = runs[0].userAgent;
    if (SIZES.includes(GUARD_LEVELS)) guardRuns.push(...runs);

    console.log(`Order-book benchmark, ${userAgent}${RUNS > 1 ? `, the median of ${RUNS} runs` : ""}`);
    console.log("Fastest of 15 interleaved batches; × = competitor time / ours (above 1: ours is faster). Ingest and hash per");
    console.log("level count both sides; walks count one side.\n");
    for (const line of formatTable(rows)) console.log(line);

    if (process.env.BENCH_WRITE_README === "1") {
      const text = readFileSync(README, "utf8");
      const { start, end } = readTable(text);
      const lines = text.split("\n");
      lines.splice(start, end - start, ...formatTable(rows));
      writeFileSync(README, lines.join("\n"));
      console.log(`\nWrote this table into ${README}.`);
    } else {
      printAgainstReadme(againstReadme(rows, readTable(readFileSync(README, "utf8")).rows));
    }
  }
  while (guardRuns.length < GUARD_BROWSERS) guardRuns.push(await runPage([GUARD_LEVELS], GUARD_ROUNDS));
  const pooled = (op, competitor) => guardRuns.flatMap((run) => {
    const row = run.rows.find((r) => r.op === op && r.levels === GUARD_LEVELS);
    return row?.rounds ? pairedRatios(row.rounds.ours, row.rounds[competitor]) : [];
  });
  failed = report([judge("ingest", pooled("ingest", "parse")), judge("hash", pooled("hash", "upstream"))]);
} finally {
  server.close();
  rmSync(work, { recursive: true, force: true });
}

/** The README's figures beside this run's: ours, and each ratio now and then, LOW where it fell more than 10%. */
function printAgainstReadme(list) {
  const header = ["operation", "levels/side", "ours", "README", ...COMPETITORS.flatMap(([, name]) => [`${name} ×`, "README"])];
  const lines = list.map(({ row, recorded, checks }) => [
    row.op,
    row.levels.toLocaleString("en-US"),
    time(row.ours),
    recorded ? time(recorded.ours) : "(not in README)",
    ...COMPETITORS.flatMap(([, name]) => {
      const c = checks.find((x) => x.name === name);
      if (!c) return ["—", "—"];
      return [`${c.low ? "LOW " : ""}${ratio(c.now, 1)}`, ratio(c.then, 1)];
    }),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells) => `| ${cells.map((c, i) => (i < 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(" | ")} |`;
  console.log("\nAgainst the README's table (for information: the speed guards below decide the run):\n");
  console.log(fmt(header));
  console.log(`|${widths.map((w, i) => (i < 1 ? "-".repeat(w + 2) : `${"-".repeat(w + 1)}:`)).join("|")}|`);
  for (const l of lines) console.log(fmt(l));
}

// The targets of the book engine, checked against this run.
if (GUARDS_ONLY) process.exit(failed ? 1 : 0);
const find = (op, levels) => rows.find((r) => r.op === op && r.levels === levels);
const targets = [];
for (const levels of [10_000, 100_000]) {
  const r = find("ingest", levels);
  if (!r) continue;
  targets.push([`ingest ≤ 15 ns/level at ${levels} levels/side`, r.ours / r.perLevel <= 15, time(r.ours / r.perLevel)]);
  targets.push([`ingest ≥ 6× faster than JSON.parse at ${levels}`, r.parse / r.ours >= 6, ratio(r.parse, r.ours)]);
  const w = find("full walk (marketPrice BUY)", levels);
  targets.push([`full walk ≤ 1 ns/level at ${levels}`, w.ours / w.perLevel <= 1, time(w.ours / w.perLevel)]);
}
const worstBest = Math.max(...rows.filter((r) => r.op.startsWith("best/mid")).map((r) => r.ours));
targets.push(["best/mid/spread ≤ 50 ns per call", worstBest <= 50, time(worstBest)]);
const h = find("hash", 10_000);
if (h) targets.push(["hash ≥ 5× faster than upstream at 10,000", h.upstream / h.ours >= 5, ratio(h.upstream, h.ours)]);
console.log("\nTargets:");
for (const [name, ok, got] of targets) console.log(`  ${ok ? "met " : "MISS"}  ${name}: ${got}`);
if (failed) {
  console.error("\nbench/run.mjs: a speed guard failed (FAIL above)");
  process.exit(1);
}
