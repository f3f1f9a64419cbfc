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
