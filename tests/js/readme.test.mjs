// Runs the README's code so that the manual cannot rot.
//
// Every ```js block runs in Node against the emulator, through the package's own Node entry (the
// import specifier "predictkit" becomes the staged package's node.mjs, or node.cjs for ```js cjs blocks),
// with the README's http://127.0.0.1:8787 replaced by the emulator's URL. The free variables the blocks
// use (tokenId, conditionId, credentials, orderId, message, client) are declared in front of the block
// from what the emulator serves. Blocks for browsers (```js vite, vite-config, worker, extension,
// extension-page) are syntax-checked here (node --check) and run in Chromium by tests/package/; so are the
// ```html page and ```json extension-manifest blocks they use.
//
// What a block run in Node prints is checked too. The block states it in an HTML comment right after its
// closing fence (not shown where the README is rendered), one printed line per line:
//
//   <!-- output
//   OK
//   /[1-9]\d* bids, [1-9]\d* asks/
//   /0x[0-9a-f]{64} (BUY|SELL) 0\.\d+ \d+/+
//   -->
//
// A line is either the exact text printed, or a regular expression between slashes that must match the
// whole printed line (for what depends on the emulator's data: ids, prices, counts), optionally followed by
// how many consecutive printed lines it matches: + (one or more), * (any), ? (at most one), {n}, {n,} or
// {n,m}. A block with no such comment must print nothing. A block's stdout that differs from its comment
// fails with a diff of the two.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { EMULATOR, README_BASE_URL, WORK, getJson, readmeBlocks, readmeOutputLines, stagePackage } from "../package/support.mjs";

const DIR = join(WORK, "readme");
const BROWSER_TAGS = new Set(["vite", "vite-config", "worker", "extension", "extension-page", "lite"]);
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

/**
 * One line of an `<!-- output` comment: `/regex/` with an optional count (see the top of this file), or
 * the exact text. `text` is the line as written, `min`/`max` how many printed lines it takes.
 */
function expectation(text) {
  const m = /^\/(.+)\/(\+|\*|\?|\{(\d+)(,(\d*))?\})?$/.exec(text);
  if (!m) return { text, test: (line) => line === text, min: 1, max: 1 };
  const regex = new RegExp(`^(?:${m[1]})$`);
  const [min, max] = m[2] === "+" ? [1, Infinity]
    : m[2] === "*" ? [0, Infinity]
    : m[2] === "?" ? [0, 1]
    : m[3] !== undefined ? [Number(m[3]), m[4] === undefined ? Number(m[3]) : m[5] === "" ? Infinity : Number(m[5])]
    : [1, 1];
  return { text, test: (line) => regex.test(line), min, max };
}

/** Whether the printed lines from `j` on are exactly what the expectations from `i` on state. */
function matches(expected, lines, i = 0, j = 0) {
  if (i === expected.length) return j === lines.length;
  const { test, min, max } = expected[i];
  let n = 0;
  while (n < max && j + n < lines.length && test(lines[j + n])) n++;
  for (; n >= min; n--) if (matches(expected, lines, i + 1, j + n)) return true;
  return false;
}

/**
 * A line diff of what a block printed against its expectations: a printed line that an expectation
 * matches (taken in order, each at most its count) is shown as that expectation, once for a run of lines
 * one counted expectation matches, so only what differs is marked (`-` expected, `+` printed).
 */
function outputDiff(expected, lines) {
  const shown = [];
  const counts = expected.map(() => 0);
  let next = 0;
  let run = -1;
  for (const line of lines) {
    const k = expected.findIndex((e, index) => index >= next && e.test(line));
    if (k === -1) {
      shown.push(line);
      run = -1;
      continue;
    }
    if (k !== run) shown.push(expected[k].text);
    counts[k] += 1;
    run = k;
    next = counts[k] < expected[k].max ? k : k + 1;
  }
  const wanted = expected.filter((e, index) => e.min > 0 || counts[index] > 0).map((e) => e.text);
  // Longest common subsequence of the two lists, then the edit script.
  const lcs = Array.from({ length: wanted.length + 1 }, () => new Array(shown.length + 1).fill(0));
  for (let a = wanted.length - 1; a >= 0; a--) {
    for (let b = shown.length - 1; b >= 0; b--) {
      lcs[a][b] = wanted[a] === shown[b] ? lcs[a + 1][b + 1] + 1 : Math.max(lcs[a + 1][b], lcs[a][b + 1]);
    }
  }
  const diff = [];
  let [a, b] = [0, 0];
  while (a < wanted.length || b < shown.length) {
    if (a < wanted.length && b < shown.length && wanted[a] === shown[b]) diff.push(`  ${wanted[a++]}`), b++;
    else if (a < wanted.length && (b === shown.length || lcs[a + 1][b] >= lcs[a][b + 1])) diff.push(`- ${wanted[a++]}`);
    else diff.push(`+ ${shown[b++]}`);
  }
  expected.forEach(({ text, min, max }, index) => {
    if (counts[index] > 0 && counts[index] < min) {
      diff.push(`(${text} matched ${counts[index]} line${counts[index] === 1 ? "" : "s"} in a row, wants ${min}${max === min ? "" : ` to ${max}`})`);
    }
  });
  return diff.join("\n");
}

/** Fails unless `stdout` is what the block states it prints (nothing, when it states nothing). */
function assertOutput(block, stdout, file) {
  const where = `README.md:${block.line}`;
  const lines = stdout === "" ? [] : stdout.replace(/\n$/, "").split("\n");
  if (block.output === undefined) {
    if (lines.length === 0) return;
    assert.fail(`${where} printed lines but states none: add an <!-- output --> comment after the block with ` +
      `what it prints (see tests/js/readme.test.mjs; the block is in ${file}). It printed:\n` +
      lines.map((line) => `+ ${line}`).join("\n"));
  }
  const expected = block.output.map(expectation);
  if (matches(expected, lines)) return;
  assert.fail(`${where} did not print what its <!-- output --> at README.md:${block.outputLine} states ` +
    `(the block is in ${file}; "-" expected, "+" printed, a printed line that an expectation matches is shown ` +
    `as the expectation):\n${outputDiff(expected, lines)}`);
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

test("every <!-- output --> comment follows a block run in Node, and is valid", () => {
  const attached = blocks.filter((b) => b.output !== undefined);
  for (const block of attached) {
    const where = `README.md:${block.outputLine}`;
    assert.ok(block.lang === "js" && !block.tags.some((t) => BROWSER_TAGS.has(t)),
      `${where}: an <!-- output --> comment after a block that is not run in Node (README.md:${block.line})`);
    assert.ok(block.output.length > 0, `${where}: an empty <!-- output --> comment (a block with none must print nothing)`);
    for (const line of block.output) assert.doesNotThrow(() => expectation(line), `${where}: ${line}`);
  }
  const loose = readmeOutputLines().filter((line) => !attached.some((b) => b.outputLine === line));
  assert.deepEqual(loose, [], `README.md:${loose.join(", ")}: an <!-- output comment that does not directly follow a code block`);
  assert.ok(attached.length >= 10, `only ${attached.length} blocks state what they print`);
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
      assertOutput(block, stdout, file);
    });
  } else if (block.lang === "json") {
    test(`${where} is valid JSON`, () => {
      assert.doesNotThrow(() => JSON.parse(block.code));
    });
  }
}
