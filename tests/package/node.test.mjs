// The packed package installed in a Node project, loaded as an ES module (`import`) and as CommonJS
// (`require`), calling the emulator.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { EMULATOR, discoverToken, expectedBestBid, installProject, run, timed, writeFiles } from "./support.mjs";

const ESM = `
import init, * as pk from "predictkit";
import { Client, OrderBook, ROUNDING_CONFIG, roundingConfig, isPredictKitError } from "predictkit";
import { createRequire } from "node:module";

const [baseUrl, tokenId] = process.argv.slice(2);
await init(); // a no-op in Node, there so that code written for the web build runs unchanged
const client = new Client({ baseUrl });
const ok = await client.getOk();
const summary = await client.getOrderBook(tokenId);
const book = OrderBook.fromObject(summary);
let notFound;
try {
  await client.getOrderBook("1");
} catch (e) {
  notFound = { isPredictKitError: isPredictKitError(e), code: e.code, status: e.status, instanceOfError: e instanceof Error };
}
const cjs = createRequire(import.meta.url)("predictkit");
console.log(JSON.stringify({
  ok,
  assetId: summary.asset_id,
  bestBid: book.bestBid(),
  hashMatches: book.hash() === summary.hash,
  notFound,
  rounding: { constant: ROUNDING_CONFIG, fromWasm: roundingConfig(), frozen: Object.isFrozen(ROUNDING_CONFIG) },
  sameInstanceAsRequire: cjs.Client === Client && cjs.ROUNDING_CONFIG === ROUNDING_CONFIG,
  exports: Object.keys(pk).sort(),
}));
book.free();
`;

const CJS = `
const pk = require("predictkit");
const { Client, OrderBook, ROUNDING_CONFIG, roundingConfig, isPredictKitError } = pk;

const [baseUrl, tokenId] = process.argv.slice(2);
(async () => {
  const client = new Client({ baseUrl });
  const ok = await client.getOk();
  const bytes = new Uint8Array(await (await fetch(baseUrl + "/book?token_id=" + tokenId)).arrayBuffer());
  const book = OrderBook.fromBytes(bytes);
  const summary = await client.getOrderBook(tokenId);
  let notFound;
  try {
    await client.getOrderBook("1");
  } catch (e) {
    notFound = { isPredictKitError: isPredictKitError(e), code: e.code, status: e.status, instanceOfError: e instanceof Error };
  }
  console.log(JSON.stringify({
    ok,
    assetId: summary.asset_id,
    bestBid: book.bestBid(),
    hashMatches: book.hash() === summary.hash,
    notFound,
    rounding: { constant: ROUNDING_CONFIG, fromWasm: roundingConfig(), frozen: Object.isFrozen(ROUNDING_CONFIG) },
    resolved: require.resolve("predictkit"),
    exports: Object.keys(pk).sort(),
  }));
  book.free();
})().catch((e) => { console.error(e); process.exit(1); });
`;

// Every entry of the package in one process: the web build (initialised with initSync from the file's
// bytes), the bundler build (Node's WebAssembly ESM integration stands in for a bundler's) and the Node one.
const ENTRIES = `
import { readFileSync } from "node:fs";
const web = await import("./node_modules/predictkit/index.mjs");
web.initSync({ module: readFileSync(new URL("./node_modules/predictkit/web/predictkit_bg.wasm", import.meta.url)) });
const bundler = await import("predictkit/bundler");
await bundler.default();
const node = await import("predictkit");
const describe = (m) => ({
  names: Object.keys(m).filter((n) => n !== "initSync").sort(),
  constant: m.ROUNDING_CONFIG,
  fromWasm: m.roundingConfig(),
  signature: m.signRequest("c2VjcmV0LXNlY3JldC1zZWNyZXQ=", 1700000000000, "DELETE", "/order", '{"orderId":"0x1"}'),
});
console.log(JSON.stringify({ web: describe(web), bundler: describe(bundler), node: describe(node), webInitSync: typeof web.initSync }));
`;

let dir, token;
before(async () => {
  const started = performance.now();
  [dir, token] = await Promise.all([installProject("node"), discoverToken()]);
  writeFiles(dir, { "esm.mjs": ESM, "cjs.cjs": CJS, "entries.mjs": ENTRIES });
  timed("pack and install into a Node project", started);
});

async function runScript(name) {
  const started = performance.now();
  const { stdout } = await run(process.execPath, [name, EMULATOR, token.tokenId], { cwd: dir });
  timed(`node ${name}`, started);
  return JSON.parse(stdout);
}

function checkCommon(result) {
  assert.equal(result.ok, "OK");
  assert.equal(result.assetId, token.tokenId);
  assert.deepEqual(result.bestBid, expectedBestBid(token.book));
  assert.equal(result.hashMatches, true, "the book's hash equals the service's");
  assert.deepEqual(result.notFound, { isPredictKitError: true, code: "NOT_FOUND", status: 404, instanceOfError: true });
  assert.deepEqual(result.rounding.constant, result.rounding.fromWasm, "ROUNDING_CONFIG equals roundingConfig()");
  assert.equal(result.rounding.frozen, true);
}

test("import { Client } from \"predictkit\" in Node (ESM) calls the emulator", async () => {
  const result = await runScript("esm.mjs");
  checkCommon(result);
  assert.equal(result.sameInstanceAsRequire, true, "import and require share one instance");
  for (const name of ["default", "Client", "OrderBook", "signRequest", "createL2Headers", "ROUNDING_CONFIG", "isPredictKitError"]) {
    assert.ok(result.exports.includes(name), `ESM entry exports ${name}`);
  }
});

test("require(\"predictkit\") in Node (CommonJS) calls the emulator", async () => {
  const result = await runScript("cjs.cjs");
  checkCommon(result);
  assert.equal(result.resolved, join(dir, "node_modules", "predictkit", "node.cjs"));
});

test("the ESM and CommonJS entries export the same names", async () => {
  const [esm, cjs] = await Promise.all([runScript("esm.mjs"), runScript("cjs.cjs")]);
  assert.deepEqual(esm.exports.filter((n) => n !== "default"), cjs.exports);
});

test("the web, bundler and Node entries export the same API, and ROUNDING_CONFIG equals roundingConfig()", async () => {
  const started = performance.now();
  const { stdout } = await run(process.execPath, ["--experimental-wasm-modules", "--no-warnings", "entries.mjs"], { cwd: dir });
  timed("three entries in one process", started);
  const { web, bundler, node, webInitSync } = JSON.parse(stdout);
  assert.equal(webInitSync, "function");
  for (const [name, entry] of Object.entries({ web, bundler })) {
    assert.deepEqual(entry.names, node.names, `${name} exports what the Node entry exports`);
    assert.equal(entry.signature, node.signature, `${name} signs as the Node entry does`);
  }
  for (const [name, entry] of Object.entries({ web, bundler, node })) {
    assert.deepEqual(entry.constant, entry.fromWasm, `${name}: ROUNDING_CONFIG equals roundingConfig()`);
  }
  assert.match(node.signature, /^[A-Za-z0-9_-]{43}=$/);
});
