// The packed tarball itself: its files, publint, @arethetypeswrong/cli, and its declarations compiled by
// tsc --strict in a consumer project under each module resolution users have.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO, installProject, packTarball, packageJson, run, timed, writeFiles } from "./support.mjs";

const BIN = join(REPO, "node_modules", ".bin");
const TSC = join(REPO, "node_modules", "typescript", "bin", "tsc");

let tgz;
before(async () => {
  const started = performance.now();
  tgz = await packTarball();
  timed("npm pack (or reuse)", started);
});

test("the tarball holds the entry files and the four builds, and every exports target", async () => {
  const { stdout } = await run("tar", ["-tzf", tgz]);
  const files = new Set(stdout.trim().split("\n").map((f) => f.replace(/^package\//, "")));
  const manifest = packageJson();
  assert.ok(manifest.files.length > 0, "package.json lists its files");
  for (const entry of manifest.files) {
    if (entry.endsWith("/")) {
      for (const name of ["predictkit.js", "predictkit.d.ts", "predictkit_bg.wasm"]) {
        assert.ok(files.has(entry + name), `${entry}${name} is packed`);
      }
    } else {
      assert.ok(files.has(entry), `${entry} is packed`);
    }
  }
  const targets = [];
  const collect = (value) => (typeof value === "string" ? targets.push(value) : Object.values(value).forEach(collect));
  collect(manifest.exports);
  assert.ok(targets.length > 0, "package.json names exports targets");
  for (const target of [...targets, manifest.main, manifest.types]) {
    assert.ok(files.has(target.replace(/^\.\//, "")), `${target} (named by package.json) is packed`);
  }
  // Nothing but the package: no sources, tests or tarballs.
  for (const licence of ["LICENSE-MIT", "LICENSE-APACHE"]) assert.ok(files.has(licence), `${licence} is packed`);
  const stray = [...files].filter((f) => !/^(package\.json|README\.md|LICENSE-(MIT|APACHE)|[a-z-]+\.(mjs|cjs|d\.mts|d\.cts)|(web|bundler|node|lite|live)\/.+)$/.test(f));
  assert.deepEqual(stray, []);
  // Bundlers may drop or skip modules not listed here. The bundler build's predictkit.js hands the wasm
  // instance to its glue when it is evaluated, and the Node entries instantiate on load, so they must be
  // kept; the snippets (JS the binding imports, edited with the Rust code) are kept whole to be safe. The
  // web build's glue only defines things (init() does the work). The entry files guard the classes
  // against use after free(), so a bundler must not skip them for the glue they re-export.
  assert.deepEqual(manifest.sideEffects.sort(), [
    "./bundler.mjs", "./bundler/predictkit.js", "./bundler/snippets/**", "./index.mjs", "./lite.mjs",
    "./lite/snippets/**", "./live.mjs", "./live/snippets/**", "./node.cjs", "./node/predictkit.js", "./web/snippets/**",
  ]);
});

test("publint finds no error or warning", async () => {
  const { publint } = await import("publint");
  const { formatMessage } = await import("publint/utils");
  const bytes = readFileSync(tgz);
  const result = await publint({
    pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) },
    level: "suggestion",
    strict: true,
  });
  const shown = result.messages.map((m) => `${m.type} ${m.code}: ${formatMessage(m, result.pkg)}`);
  console.log(shown.join("\n"));
  // The one suggestion, "type": "commonjs", cannot be taken: node/predictkit.js is CommonJS but its
  // snippets/ are ES modules found by Node's syntax detection, which an explicit "type" turns off
  // (and "type": "module" would break node/predictkit.js). Anything else fails the test.
  assert.deepEqual(result.messages.map((m) => `${m.type} ${m.code}`), ["suggestion USE_TYPE"], shown.join("\n"));
});

test("@arethetypeswrong/cli finds no problem but the inherent ones of the .wasm and bundler sub-paths", async () => {
  const { stdout } = await run(join(BIN, "attw"), [tgz, "--format", "json"]).catch((e) => ({ stdout: e.message.slice(e.message.indexOf("{")) }));
  const { problems, analysis } = JSON.parse(stdout.slice(stdout.indexOf("{")));
  const found = Object.values(problems).flat().map((p) => `${p.entrypoint} ${p.resolutionKind} ${p.kind}`).sort();
  assert.deepEqual(found, [
    // An ES module for bundlers with WebAssembly ESM integration: no CommonJS form exists, and node10
    // resolution ignores "exports" sub-paths.
    "./bundler node10 NoResolution",
    "./bundler node16-cjs CJSResolvesToESM",
    // The builds for pages by use (`predictkit/lite`, `predictkit/live`) are ES modules too, as the default
    // browser entry is.
    "./lite node10 NoResolution",
    "./lite node16-cjs CJSResolvesToESM",
    // Binary assets (for `?url` imports, require.resolve or copying): they have no type declarations.
    "./lite/predictkit_bg.wasm bundler NoResolution",
    "./lite/predictkit_bg.wasm node16-cjs NoResolution",
    "./lite/predictkit_bg.wasm node16-esm NoResolution",
    "./live node10 NoResolution",
    "./live node16-cjs CJSResolvesToESM",
    "./live/predictkit_bg.wasm bundler NoResolution",
    "./live/predictkit_bg.wasm node16-cjs NoResolution",
    "./live/predictkit_bg.wasm node16-esm NoResolution",
    "./predictkit_bg.wasm bundler NoResolution",
    "./predictkit_bg.wasm node10 NoResolution",
    "./predictkit_bg.wasm node16-cjs NoResolution",
    "./predictkit_bg.wasm node16-esm NoResolution",
  ]);
  const root = analysis.entrypoints["."].resolutions;
  assert.match(root["node16-cjs"].resolution.fileName, /\/node\.d\.cts$/);
  assert.match(root["node16-esm"].resolution.fileName, /\/node\.d\.mts$/);
  assert.match(root.bundler.resolution.fileName, /\/index\.d\.mts$/);
});

const USE_BROWSER = `
import init, { Client, OrderBook, ROUNDING_CONFIG, isPredictKitError, type OrderBookSummary, type SimulateResult } from "predictkit";
import { Client as BundlerClient } from "predictkit/bundler";
import initLite, { Client as LiteClient, type Event as LiteEvent } from "predictkit/lite";
import initLive, { Client as LiveClient, type MarketStream as LiveMarketStream } from "predictkit/live";

await init({ module_or_path: "/assets/predictkit_bg.wasm" });
const client = new Client({ baseUrl: "http://127.0.0.1:8787", maxRetries: 1 });
const summary: OrderBookSummary = await client.getOrderBook("1");
const book: OrderBook = OrderBook.fromObject(summary);
const simulated: SimulateResult = book.simulate("BUY", { notional: 10 });
const places: number = ROUNDING_CONFIG["0.01"].price + simulated.filled;
// @ts-expect-error a tick size the table does not have
ROUNDING_CONFIG["0.5"];
// @ts-expect-error the table is read-only
ROUNDING_CONFIG["0.1"].price = 3;
try { await new BundlerClient({ baseUrl: "x" }).getOk(); } catch (e) { if (isPredictKitError(e)) e.code satisfies string; }
await initLite();
const lite = new LiteClient({ baseUrl: "http://127.0.0.1:8787" });
const liteEvents: LiteEvent[] = await lite.getEvents({ limit: 1 });
// @ts-expect-error the reading build has no streaming
lite.marketStream(["1"]);
// @ts-expect-error nor trading
await lite.placeOrder({});
await initLive();
const live = new LiveClient({ baseUrl: "http://127.0.0.1:8787" });
const stream: LiveMarketStream = live.marketStream(["1"]);
const status: string | undefined = stream.bookStatus("1")?.state;
// @ts-expect-error the live build has no trading
await live.placeOrder({});
// @ts-expect-error nor API keys from a wallet
await live.createOrDeriveApiKey({});
export { places, liteEvents, status };
`;

const USE_NODE_ESM = `
import init, { Client, ROUNDING_CONFIG, type RoundingTickSize, type Event } from "predictkit";
await init();
const client = new Client({ baseUrl: "http://127.0.0.1:8787" });
const events: Event[] = await client.getEvents({ limit: 2 });
const tick: RoundingTickSize = "0.001";
export const places: number = ROUNDING_CONFIG[tick].amount + events.length;
// @ts-expect-error the Node entry has no web-only initSync
export { initSync } from "predictkit";
`;

const USE_NODE_CJS = `
import predictkit = require("predictkit");
const client = new predictkit.Client({ baseUrl: "http://127.0.0.1:8787" });
export const pending: Promise<"OK" | string> = client.getOk();
export const places: number = predictkit.ROUNDING_CONFIG["0.0001"].size;
// @ts-expect-error no such export
predictkit.NotAnExport;
`;

const LIB = ["ES2022", "DOM", "ESNext.Disposable"];

test("the declarations compile with tsc --strict under bundler, node16 ESM and node16 CommonJS resolution", async () => {
  const started = performance.now();
  const dir = await installProject("types");
  const config = (module, moduleResolution, file) => JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, skipLibCheck: false, target: "ES2022", module, moduleResolution, lib: LIB, types: [] },
    files: [file],
  });
  writeFiles(dir, {
    "browser.ts": USE_BROWSER,
    "node-esm.mts": USE_NODE_ESM,
    "node-cjs.cts": USE_NODE_CJS,
    "tsconfig.bundler.json": config("ESNext", "Bundler", "browser.ts"),
    "tsconfig.node-esm.json": config("Node16", "Node16", "node-esm.mts"),
    "tsconfig.node-cjs.json": config("Node16", "Node16", "node-cjs.cts"),
  });
  await Promise.all(["bundler", "node-esm", "node-cjs"].map((name) =>
    run(process.execPath, [TSC, "-p", `tsconfig.${name}.json`], { cwd: dir })));
  timed("tsc in a consumer project (three resolutions)", started);
});
