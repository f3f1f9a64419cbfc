// The README's order-book benchmark table is what `cargo xtask bench` prints its run beside
// (bench/book-table.mjs): it must read, hold every row the benchmark measures, and its printed ratios must
// be those of its times. (The benchmark itself runs only in `cargo xtask bench`.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { HEADER, readTable } from "../../bench/book-table.mjs";

const README = fileURLToPath(new URL("../../README.md", import.meta.url));

const OPS = [
  "ingest",
  "best/mid/spread (per call)",
  "bestBid() object (per call)",
  "full walk (marketPrice BUY)",
  "full walk (marketPrice SELL)",
  "full walk (simulate BUY)",
  "hash",
];

test("the README's benchmark table reads, with every row the benchmark measures", () => {
  const { rows } = readTable(readFileSync(README, "utf8"));
  for (const levels of [10, 1000, 10000, 100000]) {
    for (const op of OPS) {
      const row = rows.find((r) => r.op === op && r.levels === levels);
      assert.ok(row, `${op} at ${levels} levels/side`);
      assert.ok(row.ours > 0, `${op} at ${levels}: ours`);
    }
  }
  assert.equal(rows.length, 4 * OPS.length);
});

test("the README's printed ratios are those of its times", () => {
  const text = readFileSync(README, "utf8");
  const { rows, start } = readTable(text);
  const lines = text.split("\n").slice(start + 2);
  rows.forEach((row, i) => {
    const cells = lines[i].split("|").slice(1, -1).map((c) => c.trim());
    for (const [field, column] of [["parse", 5], ["plain", 7], ["upstream", 9]]) {
      const printed = cells[column];
      assert.equal(HEADER[column], "×");
      if (row[field] == null) {
        assert.equal(printed, "—", `${row.op} at ${row.levels}: ${HEADER[column - 1]}`);
        continue;
      }
      const ratio = Number(printed.replace("×", ""));
      const fromTimes = row[field] / row.ours;
      // The ratio is printed from the unrounded times (to 2 decimals, 1 from 10), the times to 3 or 4 digits.
      const slack = (fromTimes < 10 ? 0.005 : 0.05) + 0.03 * fromTimes;
      assert.ok(Math.abs(ratio - fromTimes) <= slack, `${row.op} at ${row.levels}: ${printed}, ${fromTimes} from the times`);
    }
  });
});
