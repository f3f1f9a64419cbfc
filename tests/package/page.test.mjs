// The package without a bundler, in headless Chromium: a plain page (the README's import map and page
// snippet) and a module Web Worker (the README's worker), served as files from a project that installed
// the tarball.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { join } from "node:path";
import {
  EMULATOR, SKIP_BROWSER, discoverToken, expectedBestBid, installProject, launchChromium, readmeBlock, serveStatic,
  timed, writeFiles,
} from "./support.mjs";

const TOKEN_FROM_QUERY = 'const tokenId = new URLSearchParams(location.search).get("token");\n';

let browser, server, token, dir;
before(async () => {
  if (SKIP_BROWSER) return;
  const started = performance.now();
  [dir, token] = await Promise.all([installProject("page"), discoverToken()]);
  writeFiles(dir, {
    "index.html": `<!doctype html>\n<meta charset="utf-8">\n<title>PredictKit in a page</title>\n${readmeBlock("page", undefined, "html")}`,
    "app.js": TOKEN_FROM_QUERY + readmeBlock("page", EMULATOR),
    // Workers have no import maps: the worker imports the entry by its path, as the README says.
    "worker.js": readmeBlock("worker", EMULATOR).replace('from "predictkit"', 'from "./node_modules/predictkit/index.mjs"'),
    // The README's lite block, in a page with an import map for `predictkit/lite`.
    "lite-readme.html": `<!doctype html>
<meta charset="utf-8">
<title>PredictKit lite, as the README shows</title>
<script type="importmap">{ "imports": { "predictkit/lite": "./node_modules/predictkit/lite.mjs" } }</script>
<script type="module">
${TOKEN_FROM_QUERY}${readmeBlock("lite", EMULATOR)}
</script>
`,
    // The reading build (`predictkit/lite`): the same Client and OrderBook, without streaming and trading.
    "lite.html": `<!doctype html>
<meta charset="utf-8">
<title>PredictKit lite</title>
<script type="importmap">{ "imports": { "predictkit/lite": "./node_modules/predictkit/lite.mjs" } }</script>
<script type="module">
  import init, * as lite from "predictkit/lite";
  await init();
  const tokenId = new URLSearchParams(location.search).get("token");
  const client = new lite.Client({ baseUrl: ${JSON.stringify(EMULATOR)} });
  const events = await client.getEvents({ limit: 2 });
  const book = await client.getBook(tokenId);
  const bestBid = book.bestBid();
  const buy = book.simulate("BUY", { notional: 10 });
  console.log({
    events: events.length,
    bestBid,
    buyFilled: buy.filled,
    exports: Object.keys(lite).sort(),
    methods: Object.getOwnPropertyNames(lite.Client.prototype).sort(),
  });
</script>
`,
    // The live build (`predictkit/live`): the same Client and OrderBook with streaming, without trading.
    "live.html": `<!doctype html>
<meta charset="utf-8">
<title>PredictKit live</title>
<script type="importmap">{ "imports": { "predictkit/live": "./node_modules/predictkit/live.mjs" } }</script>
<script type="module">
  import init, * as live from "predictkit/live";
  await init();
  const tokenId = new URLSearchParams(location.search).get("token");
  const client = new live.Client({ baseUrl: ${JSON.stringify(EMULATOR)} });
  const stream = client.marketStream([tokenId]);
  const started = performance.now();
  let status = stream.bookStatus(tokenId);
  while (!(status?.state === "live" && status.verified) && performance.now() - started < 15000) {
    await new Promise((r) => setTimeout(r, 20));
    status = stream.bookStatus(tokenId);
  }
  const book = stream.book(tokenId);
  console.log({
    state: status?.state,
    verified: status?.verified,
    checks: status?.checks,
    bestBid: book?.bestBid(),
    exports: Object.keys(live).sort(),
    methods: Object.getOwnPropertyNames(live.Client.prototype).sort(),
  });
  stream.close();
</script>
`,
    "worker.html": `<!doctype html>
<meta charset="utf-8">
<title>PredictKit in a worker</title>
<script type="module">
  const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  worker.onmessage = ({ data }) => console.log(data);
  worker.onerror = (e) => console.log({ error: String(e.message) });
  worker.postMessage({ tokenId: new URLSearchParams(location.search).get("token"), notional: 100 });
</script>
`,
  });
  [server, browser] = await Promise.all([serveStatic(dir), launchChromium()]);
  timed("install and launch Chromium", started);
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens a page and returns the values of its first console message. */
async function firstConsoleMessage(path) {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e));
  const message = page.waitForEvent("console", { predicate: (m) => m.type() === "log", timeout: 20_000 });
  await page.goto(`${server.url}${path}`);
  const values = await Promise.all((await message).args().map((a) => a.jsonValue()));
  await page.close();
  assert.deepEqual(errors, []);
  return values;
}

test("a plain page with an import map uses the package as the README shows", { skip: SKIP_BROWSER }, async () => {
  const started = performance.now();
  const [label, bestBid, askLabel, bestAsk] = await firstConsoleMessage(`/index.html?token=${token.tokenId}`);
  assert.equal(label, "best bid");
  assert.equal(askLabel, "best ask");
  assert.deepEqual(bestBid, expectedBestBid(token.book));
  assert.ok(bestAsk.price > bestBid.price, JSON.stringify(bestAsk));
  assert.ok(server.requests.includes("/node_modules/predictkit/web/predictkit_bg.wasm"), server.requests.join("\n"));
  timed("plain page", started);
});

test("the README's predictkit/lite block runs in a page", { skip: SKIP_BROWSER }, async () => {
  const [bestBid] = await firstConsoleMessage(`/lite-readme.html?token=${token.tokenId}`);
  assert.deepEqual(bestBid, expectedBestBid(token.book));
});

test("a page loads predictkit/lite: reads, books and math, no streaming or trading, and less to download", { skip: SKIP_BROWSER }, async () => {
  const started = performance.now();
  const seen = server.requests.length;
  const [answer] = await firstConsoleMessage(`/lite.html?token=${token.tokenId}`);
  const requests = server.requests.slice(seen);
  assert.equal(answer.events, 2, JSON.stringify(answer));
  assert.deepEqual(answer.bestBid, expectedBestBid(token.book));
  assert.ok(answer.buyFilled > 0, JSON.stringify(answer));
  for (const name of ["Client", "OrderBook", "signRequest", "orderBookHash", "calculateBuyMarketPrice", "ROUNDING_CONFIG"]) {
    assert.ok(answer.exports.includes(name), `lite exports ${name}`);
  }
  assert.ok(answer.methods.includes("getBook") && answer.methods.includes("cancelOrder"), answer.methods.join());
  for (const name of ["marketStream", "userStream", "placeOrder", "createApiKey", "buildOrder"]) {
    assert.ok(!answer.methods.includes(name), `lite has no ${name}`);
  }
  assert.ok(!answer.exports.includes("walletSigner"), "lite has no signer adapters");
  assert.ok(requests.includes("/node_modules/predictkit/lite/predictkit_bg.wasm"), requests.join("\n"));
  assert.ok(!requests.some((r) => r.includes("/web/")), `the full build is not loaded: ${requests.join(", ")}`);
  const { statSync } = await import("node:fs");
  const size = (build) => statSync(join(dir, "node_modules", "predictkit", build, "predictkit_bg.wasm")).size;
  assert.ok(size("lite") < size("web") * 0.8, `lite ${size("lite")} B vs full ${size("web")} B`);
  timed("lite page", started);
});

test("a module Web Worker fetches a book and simulates an order with the package", { skip: SKIP_BROWSER }, async () => {
  const started = performance.now();
  const [answer] = await firstConsoleMessage(`/worker.html?token=${token.tokenId}`);
  assert.equal(answer.error, undefined, JSON.stringify(answer));
  assert.deepEqual(answer.bestBid, expectedBestBid(token.book));
  // The same computation in Node on the same book gives the same answer.
  const { OrderBook } = createRequire(join(dir, "package.json"))("predictkit");
  const book = OrderBook.fromObject(token.book);
  assert.deepEqual(answer.buy, book.simulate("BUY", { notional: 100 }));
  assert.ok(answer.buy.filled > 0, JSON.stringify(answer.buy));
  book.free();
  timed("module worker", started);
});

// Last: following the token makes the emulator trade in its market, which the tests above read as discovered.
test("a page loads predictkit/live: a live book verified against the service's hash, no trading, and less to download", { skip: SKIP_BROWSER }, async () => {
  const started = performance.now();
  const seen = server.requests.length;
  const [answer] = await firstConsoleMessage(`/live.html?token=${token.tokenId}`);
  const requests = server.requests.slice(seen);
  assert.equal(answer.state, "live", JSON.stringify(answer));
  assert.ok(answer.verified && answer.checks >= 1, JSON.stringify(answer));
  assert.ok(answer.bestBid && answer.bestBid.price > 0, JSON.stringify(answer));
  for (const name of ["Client", "OrderBook", "signRequest", "orderBookHash", "ROUNDING_CONFIG"]) {
    assert.ok(answer.exports.includes(name), `live exports ${name}`);
  }
  for (const name of ["getBook", "cancelOrder", "marketStream", "userStream"]) {
    assert.ok(answer.methods.includes(name), `live has ${name}`);
  }
  for (const name of ["placeOrder", "createApiKey", "buildOrder", "diagnoseAccount", "heartbeats"]) {
    assert.ok(!answer.methods.includes(name), `live has no ${name}`);
  }
  assert.ok(!answer.exports.includes("walletSigner"), "live has no signer adapters");
  assert.ok(requests.includes("/node_modules/predictkit/live/predictkit_bg.wasm"), requests.join("\n"));
  assert.ok(!requests.some((r) => r.includes("/web/")), `the full build is not loaded: ${requests.join(", ")}`);
  const { statSync } = await import("node:fs");
  const size = (build) => statSync(join(dir, "node_modules", "predictkit", build, "predictkit_bg.wasm")).size;
  assert.ok(size("live") < size("web") * 0.85, `live ${size("live")} B vs full ${size("web")} B`);
  timed("live page", started);
});
