// The public TypeScript declarations against the committed golden copy, so that every API change shows
// up as a change of tests/golden/predictkit.d.ts in review.
//
// After an intended change: UPDATE_GOLDEN=1 cargo xtask test   (or, after cargo xtask build,
// UPDATE_GOLDEN=1 node --test tests/package/golden.test.mjs), then commit the golden file.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PKG_DIR, REPO, WORK } from "./support.mjs";

const GOLDEN = join(REPO, "tests", "golden", "predictkit.d.ts");

/**
 * The web build's declarations with the members of `InitOutput` (the wasm module's raw exports, which
 * change with every internal change of the binding and are no API) left out, `memory` excepted.
 */
export function publicDeclarations(text) {
  return text.replace(/(export interface InitOutput \{\n)([\s\S]*?)(\n\}\n)/, (_, open, body, close) =>
    open + body.split("\n").filter((line) => /^\s*readonly memory:/.test(line)).join("\n") +
    "\n    // (the raw exports of the wasm module are not compared)" + close);
}

function diff(expected, actual) {
  const dir = join(WORK, "golden");
  mkdirSync(dir, { recursive: true });
  const [a, b] = [join(dir, "golden.d.ts"), join(dir, "built.d.ts")];
  writeFileSync(a, expected);
  writeFileSync(b, actual);
  try {
    execFileSync("diff", ["-u", "--label", "tests/golden/predictkit.d.ts", "--label", "built web/predictkit.d.ts", a, b], { encoding: "utf8" });
    return "";
  } catch (e) {
    return e.stdout || String(e);
  }
}

test("the public declarations equal tests/golden/predictkit.d.ts", () => {
  const built = publicDeclarations(readFileSync(join(PKG_DIR, "web", "predictkit.d.ts"), "utf8"));
  if (process.env.UPDATE_GOLDEN === "1") {
    mkdirSync(join(REPO, "tests", "golden"), { recursive: true });
    writeFileSync(GOLDEN, built);
    console.log(`UPDATE_GOLDEN=1: wrote ${GOLDEN}`);
  }
  assert.ok(existsSync(GOLDEN), "tests/golden/predictkit.d.ts is missing: create it with UPDATE_GOLDEN=1");
  const golden = readFileSync(GOLDEN, "utf8");
  if (golden !== built) {
    const shown = diff(golden, built);
    console.log(shown);
    assert.fail(
      "The public API declarations changed (diff above). If the change is intended, run " +
        "`UPDATE_GOLDEN=1 cargo xtask test` (or `UPDATE_GOLDEN=1 node --test tests/package/golden.test.mjs` " +
        "after `cargo xtask build`) and commit tests/golden/predictkit.d.ts.",
    );
  }
});

test("the Node and bundler builds declare the same API as the web build, less its init functions", () => {
  const web = readFileSync(join(PKG_DIR, "web", "predictkit.d.ts"), "utf8");
  const node = readFileSync(join(PKG_DIR, "node", "predictkit.d.ts"), "utf8");
  const bundler = readFileSync(join(PKG_DIR, "bundler", "predictkit.d.ts"), "utf8");
  assert.equal(bundler, node);
  assert.ok(web.startsWith(node.trimEnd()), "node/predictkit.d.ts is the start of web/predictkit.d.ts");
  const rest = web.slice(node.trimEnd().length);
  assert.match(rest, /^\s*export type InitInput /, "the web build adds only the init declarations");
});
