// Runs the README's code so that the manual cannot rot.
//
// Every ```js block runs in Node against the emulator, through the package's own Node entry (the
// import specifier "predictkit" becomes the staged package's node.mjs, or node.cjs for ```js cjs blocks),
// with the README's http://127.0.0.1:8787 replaced by the emulator's URL. The free variables the blocks
// use (tokenId, conditionId, credentials, orderId, message, client) are declared in front of the block
// from what the emulator serves. Blocks for browsers (```js vite, vite-config, worker, extension,
// extension-page) are syntax-checked here (node --check) and run in Chromium by tests/package/; so are the
// ```html page and ```json extension-manifest blocks they use.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { EMULATOR, README_BASE_URL, WORK, getJson, readmeBlocks, stagePackage } from "../package/support.mjs";

const DIR = join(WORK, "readme");
const BROWSER_TAGS = new Set(["vite", "vite-config", "worker", "extension", "extension-page"]);
const NODE_TAGS = new Set(["page", "cjs"]);

function node(args, timeout = 60_000) {
  return new Promise((resolve) => {
    // Node 20 needs --experimental-websocket for the global WebSocket the streaming blocks use.
    const flags = process.execArgv.filter((a) => a === "--experimental-websocket");
    execFile(process.execPath, [...flags, ...args], { cwd: DIR, timeout, maxBuffer: 16 << 20 }, (error, stdout, stderr) =>
      resolve({ code: error ? (error.code ?? error.signal) : 0, stdout, stderr }));
  });
}

let esmEntry, cjsEntry, values;

/** A token whose book can fill the README's amounts ($500 of asks, 250 shares of bids). */
async function deepToken() {
  const { data } = await getJson("/markets");
  for (const market of data) {
    for (const { token_id: tokenId } of market.tokens ?? []) {
      const book = await getJson(`/book?token_id=${tokenId}`);
      const cash = book.asks.reduce((s, l) => s + l.price * l.size, 0);
      const shares = book.bids.reduce((s, l) => s + Number(l.size), 0);
      if (cash > 1_000 && shares > 1_000) return { tokenId, book };
    }
  }
  throw new Error("no deep two-sided book on the first page of GET /markets");
}

before(async () => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  const stage = stagePackage(join(DIR, "predictkit"));
  esmEntry = join(stage, "node.mjs");
  cjsEntry = join(stage, "node.cjs");
  const { Client } = await import(pathToFileURL(esmEntry).href);
  const accounts = await getJson("/__admin/accounts");
  const { address, apiKey, secret, passphrase } = accounts[accounts.length - 1];
  const credentials = { address, apiKey, secret, passphrase };
  const client = new Client({ baseUrl: EMULATOR, credentials, rateLimits: false });
  const { data: orders } = await client.getOpenOrders();
  assert.ok(orders.length > 0, "the account has open orders");
  const { tokenId, book } = await deepToken();
  const bestBid = book.bids.reduce((best, l) => (Number(l.price) > Number(best.price) ? l : best));
  values = {
    tokenId,
    conditionId: orders[0].market,
    orderId: orders[0].id,
    credentials,
    message: {
      event_type: "price_change",
      asset_id: tokenId,
      timestamp: String(Number(book.timestamp) + 1000),
      price_changes: [{ asset_id: tokenId, side: "BUY", price: bestBid.price, size: "12.5" }],
    },
  };
  client.free();
});

// The README cancels one of the last account's orders: give the other suites the seed's orders back.
after(async () => {
  await fetch(`${EMULATOR}/__admin/reset`, { method: "POST" });
});

const declared = (code, name) =>
  new RegExp(`(?:const|let|var|function|class)\\s+(?:\\{[^}]*\\b${name}\\b[^}]*\\}|${name}\\b)|import[^;]*\\b${name}\\b[^;]*from`).test(code);
const used = (code, name) => new RegExp(`(?<![.\\w$])${name}\\b(?!\\s*:)`).test(code);

/** The block as a runnable file: the package and emulator put in, and the free variables declared. */
function prepare(code, cjs) {
  const entry = JSON.stringify(cjs ? cjsEntry : pathToFileURL(esmEntry).href);
  let body = code
    .replaceAll(README_BASE_URL, EMULATOR)
    .replace(/(from\s+|require\()(["'])predictkit\2/g, (_, head) => `${head}${entry}`);
  const lines = [];
  for (const [name, value] of Object.entries(values)) {
    if (used(code, name) && !declared(code, name)) lines.push(`const ${name} = ${JSON.stringify(value)};`);
  }
  if (used(code, "client") && !declared(code, "client")) {
    const options = JSON.stringify({ baseUrl: EMULATOR, credentials: values.credentials });
    lines.unshift(cjs
      ? `const { Client: ReadmeClient } = require(${entry});`
      : `import { Client as ReadmeClient } from ${entry};`);
    lines.push(`const client = new ReadmeClient(${options});`);
  }
  return `${lines.join("\n")}\n${body}`;
}

const blocks = readmeBlocks();

test("the README has runnable blocks, each tagged with a known tag", () => {
  const js = blocks.filter((b) => b.lang === "js");
  assert.ok(js.length >= 10, `README.md has ${js.length} js blocks`);
  for (const block of js) {
    for (const tag of block.tags) {
      assert.ok(BROWSER_TAGS.has(tag) || NODE_TAGS.has(tag), `README.md:${block.line}: unknown tag "${tag}"`);
    }
  }
  for (const tag of [...BROWSER_TAGS, "page", "cjs"]) {
    assert.ok(js.some((b) => b.tags.includes(tag)), `a js block is tagged ${tag}`);
  }
});

for (const block of blocks) {
  const where = `README.md:${block.line}`;
  if (block.lang === "js" && block.tags.some((t) => BROWSER_TAGS.has(t))) {
    test(`${where} (${block.tags.join(" ")}) is valid JavaScript (run in Chromium by tests/package)`, async () => {
      const file = join(DIR, `block-${block.line}.mjs`);
      writeFileSync(file, block.code);
      const { code, stderr } = await node(["--check", file]);
      assert.equal(code, 0, stderr);
    });
  } else if (block.lang === "js") {
    const cjs = block.tags.includes("cjs");
    test(`${where} runs in Node against the emulator`, async () => {
      const file = join(DIR, `block-${block.line}.${cjs ? "cjs" : "mjs"}`);
      writeFileSync(file, prepare(block.code, cjs));
      const { code, stdout, stderr } = await node([file]);
      console.log(stdout.trim().split("\n").slice(0, 6).join("\n"));
      assert.equal(code, 0, `${where} failed (the block is in ${file}):\n${stderr}`);
      assert.equal(stderr.trim(), "", `${where} wrote to stderr:\n${stderr}`);
    });
  } else if (block.lang === "json") {
    test(`${where} is valid JSON`, () => {
      assert.doesNotThrow(() => JSON.parse(block.code));
    });
  }
}
