// `cargo xtask bench` (after the build) runs this: it bundles the upstream functions with esbuild, serves
// bench/ and the built pkg/web from a tiny static server, runs bench/book.html once in headless Chromium
// (playwright-core) and prints a table of medians and ratios, then the targets met or missed.
//
// Environment: PREDICTKIT_PKG_DIR (default pkg/), CHROMIUM (default /usr/bin/chromium), BENCH_SIZES
// (levels per side, comma-separated; default 10,1000,10000,100000).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { BENCH, launch, serve, ratio, time } from "./harness.mjs";

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
const server = await serve({ routes: { "/bench/upstream.js": upstream } });
const sizes = process.env.BENCH_SIZES ? `?sizes=${process.env.BENCH_SIZES}` : "";
const url = `${server.origin}/bench/book.html${sizes}`;

const browser = await launch();
let result;
try {
  const page = await browser.newPage();
  page.on("pageerror", (e) => console.error(`page error: ${e}`));
  await page.goto(url);
  await page.waitForFunction(() => window.__bench, null, { timeout: 600_000, polling: 500 });
  result = await page.evaluate(() => window.__bench);
} finally {
  await browser.close();
  server.close();
  rmSync(work, { recursive: true, force: true });
}
if (result.error) {
  console.error(result.error);
  process.exit(1);
}


const header = ["operation", "levels/side", "ours", "ours/level", "JSON.parse", "×", "plain JS", "×", "upstream", "×"];
const lines = result.rows.map((r) => [
  r.op,
  r.levels.toLocaleString("en-US"),
  time(r.ours),
  r.perLevel ? time(r.ours / r.perLevel) : "",
  time(r.parse), ratio(r.parse, r.ours),
  time(r.plain), ratio(r.plain, r.ours),
  time(r.upstream), ratio(r.upstream, r.ours),
]);
const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
const fmt = (cells) => `| ${cells.map((c, i) => (i < 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(" | ")} |`;
console.log(`Order-book benchmark, ${result.userAgent}`);
console.log("Medians of 7 batches; × = competitor time / ours (above 1: ours is faster). Ingest and hash per level");
console.log("count both sides; walks count one side.\n");
console.log(fmt(header));
console.log(`|${widths.map((w, i) => (i < 1 ? "-".repeat(w + 2) : `${"-".repeat(w + 1)}:`)).join("|")}|`);
for (const l of lines) console.log(fmt(l));

// The targets of the book engine, checked against this run.
const find = (op, levels) => result.rows.find((r) => r.op === op && r.levels === levels);
const targets = [];
for (const levels of [10_000, 100_000]) {
  const r = find("ingest", levels);
  if (!r) continue;
  targets.push([`ingest ≤ 15 ns/level at ${levels} levels/side`, r.ours / r.perLevel <= 15, time(r.ours / r.perLevel)]);
  targets.push([`ingest ≥ 6× faster than JSON.parse at ${levels}`, r.parse / r.ours >= 6, ratio(r.parse, r.ours)]);
  const w = find("full walk (marketPrice BUY)", levels);
  targets.push([`full walk ≤ 1 ns/level at ${levels}`, w.ours / w.perLevel <= 1, time(w.ours / w.perLevel)]);
}
const worstBest = Math.max(...result.rows.filter((r) => r.op.startsWith("best/mid")).map((r) => r.ours));
targets.push(["best/mid/spread ≤ 50 ns per call", worstBest <= 50, time(worstBest)]);
const h = find("hash", 10_000);
if (h) targets.push(["hash ≥ 5× faster than upstream at 10,000", h.upstream / h.ours >= 5, ratio(h.upstream, h.ours)]);
console.log("\nTargets:");
for (const [name, ok, got] of targets) console.log(`  ${ok ? "met " : "MISS"}  ${name}: ${got}`);
