// The order-book benchmark's table: written by bench/run.mjs for a run, and read back from the README, whose
// "Speed" section keeps the recorded run. `cargo xtask bench` prints the README's figures beside its own,
// marking LOW a ratio more than `ALLOWED_DROP` below the README's (for information: the speed guards of
// bench/guard.mjs decide a run). It loads no browser: tests/js checks the README's table with it.
import { ratio, time } from "./format.mjs";

/** The columns, as the README's table heads them. */
export const HEADER = ["operation", "levels/side", "ours", "ours/level", "JSON.parse", "×", "plain JS", "×", "upstream", "×"];

/** The competitors of the table, in its order: a row's field and the column of its time. */
export const COMPETITORS = [
  ["parse", "JSON.parse"],
  ["plain", "plain JS"],
  ["upstream", "upstream"],
];

/** How far a ratio may fall below the README's before it is marked LOW: 10%. */
export const ALLOWED_DROP = 0.1;

/** The text of `time` (bench/format.mjs) back in ns; null for "—" or an empty cell. */
export function parseTime(text) {
  if (text === "—" || text === "") return null;
  const m = /^(\d+(?:\.\d+)?) (ns|µs|ms|s)$/.exec(text);
  if (!m) throw new Error(`not a duration: ${JSON.stringify(text)}`);
  return Number(m[1]) * { ns: 1, µs: 1e3, ms: 1e6, s: 1e9 }[m[2]];
}

/**
 * Rows ({ op, levels, perLevel, ours, parse, plain, upstream }, times in ns, null where there is none) as the
 * markdown table the README keeps: one line a row, columns padded.
 */
export function formatTable(rows) {
  const lines = rows.map((r) => [
    r.op,
    r.levels.toLocaleString("en-US"),
    time(r.ours),
    r.perLevel ? time(r.ours / r.perLevel) : "",
    time(r.parse), ratio(r.parse, r.ours),
    time(r.plain), ratio(r.plain, r.ours),
    time(r.upstream), ratio(r.upstream, r.ours),
  ]);
  const widths = HEADER.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells) => `| ${cells.map((c, i) => (i < 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(" | ")} |`;
  const rule = `|${widths.map((w, i) => (i < 1 ? "-".repeat(w + 2) : `${"-".repeat(w + 1)}:`)).join("|")}|`;
  return [fmt(HEADER), rule, ...lines.map(fmt)];
}

/** The cells of a markdown table line. */
const cells = (line) => line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());

/**
 * The README's table of the order-book benchmark: its rows (times in ns, as printed) and where it sits
 * (`start`, `end`: the indexes of its first line and of the line after it in `markdown.split("\n")`).
 * Throws when there is no such table, or a line of it does not read.
 */
export function readTable(markdown) {
  const lines = markdown.split("\n");
  const start = lines.findIndex((l) => l.startsWith("|") && cells(l).join("|") === HEADER.join("|"));
  if (start < 0) throw new Error(`no table headed ${HEADER.join(" | ")}`);
  let end = start + 2;
  while (end < lines.length && lines[end].startsWith("|")) end++;
  const rows = lines.slice(start + 2, end).map((line) => {
    const c = cells(line);
    if (c.length !== HEADER.length) throw new Error(`a row of ${c.length} cells: ${line}`);
    const levels = Number(c[1].replaceAll(",", ""));
    if (!Number.isInteger(levels)) throw new Error(`levels/side is not a number: ${line}`);
    const ours = parseTime(c[2]);
    const perLevel = c[3] === "" ? 0 : Math.round(ours / parseTime(c[3]));
    return { op: c[0], levels, perLevel, ours, parse: parseTime(c[4]), plain: parseTime(c[6]), upstream: parseTime(c[8]) };
  });
  return { rows, start, end };
}

/**
 * Each ratio of `run`'s rows beside the README's for the same operation and size: { row, recorded,
 * checks: [{ name, now, then, low }] }, `low` when `now` is more than ALLOWED_DROP below `then`. Ratios are
 * taken from the times, not from the rounded ratios printed. Rows the README lacks have `recorded` null.
 */
export function againstReadme(run, readme) {
  return run.map((row) => {
    const recorded = readme.find((r) => r.op === row.op && r.levels === row.levels) ?? null;
    const checks = [];
    for (const [field, name] of COMPETITORS) {
      if (!recorded || recorded[field] == null || row[field] == null) continue;
      const now = row[field] / row.ours;
      const then = recorded[field] / recorded.ours;
      checks.push({ name, now, then, low: now < then * (1 - ALLOWED_DROP) });
    }
    return { row, recorded, checks };
  });
}
