// A Manifest V3 extension built as the README says: the package copied into the extension (its browser entry
// and web build), the
// README's manifest and background service worker (a module; init on first use, the .wasm from the
// extension's own URL), loaded into headless Chromium. An extension page asks the worker for a best bid
// with the README's chrome.runtime.sendMessage snippet, and the worker fetches it from the emulator.
//
// Then a service worker that keeps a market stream: the same README worker with a stream opened at its
// start, beside an idle twin (the same worker without the stream), for longer than Chromium's 30 s idle
// limit while the emulator holds every market message (a stall fault) and only the stream's PING/PONG
// goes over the socket. That Chromium is driven over its own DevTools pipe attached to extension pages
// only: a DevTools session attached to a service worker (as Playwright's is) keeps it from ever idling.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, realpathSync, rmSync } from "node:fs";
import { join } from "node:path";
import {
  CHROMIUM, CHROMIUM_ARGS, EMULATOR, SKIP_BROWSER, discoverToken, expectedBestBid, getJson, installProject, readmeBlock,
  timed, writeFiles,
} from "./support.mjs";

let context, extensionDir, token, projectDir;

/** The installed package as the README says to copy it: all but the node/, bundler/, lite/ and live/ builds. */
function copyPackage(from, to) {
  const skipped = new Set(["node", "bundler", "lite", "live"].map((d) => join(from, d)));
  cpSync(from, to, { recursive: true, filter: (path) => !skipped.has(path) });
}
before(async () => {
  if (SKIP_BROWSER) return;
  const started = performance.now();
  const dir = await installProject("extension");
  projectDir = dir;
  token = await discoverToken();
  extensionDir = join(dir, "extension");
  rmSync(extensionDir, { recursive: true, force: true });
  copyPackage(join(dir, "node_modules", "predictkit"), join(extensionDir, "predictkit"));
  writeFiles(extensionDir, {
    "manifest.json": readmeBlock("extension-manifest", undefined, "json"),
    "background.js": readmeBlock("extension", EMULATOR),
    // A test page of the extension: the README's snippet, with tokenId from the query string.
    "page.html": '<!doctype html><meta charset="utf-8"><title>best bid</title><script type="module" src="page.js"></script>\n',
    "page.js": `const tokenId = new URLSearchParams(location.search).get("token");\n${readmeBlock("extension-page")}`,
  });
  const { chromium } = await import("playwright-core");
  const profile = join(dir, "profile");
  rmSync(profile, { recursive: true, force: true });
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true, // Chromium's new headless mode, which loads extensions
    args: [...CHROMIUM_ARGS, `--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`],
  });
  timed("install, build the extension and launch Chromium", started);
});
after(async () => {
  await context?.close();
  await streamBrowser?.close();
  // The stream test moved a book and may leave a fault rule: the next suites get the emulator as it was.
  if (!SKIP_BROWSER) await fetch(`${EMULATOR}/__admin/reset`, { method: "POST" });
});

test("a Manifest V3 extension's module service worker fetches a best bid with the package", { skip: SKIP_BROWSER }, async () => {
  const started = performance.now();
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker", { timeout: 15_000 }));
  const extensionId = new URL(worker.url()).host;
  assert.match(worker.url(), /^chrome-extension:\/\/[a-p]{32}\/background\.js$/);

  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e));
  const logged = page.waitForEvent("console", { predicate: (m) => m.type() === "log", timeout: 20_000 });
  await page.goto(`chrome-extension://${extensionId}/page.html?token=${token.tokenId}`);
  const [answer] = await Promise.all((await logged).args().map((a) => a.jsonValue()));
  assert.deepEqual(errors, []);
  assert.deepEqual(answer, expectedBestBid(token.book), `the worker answered ${JSON.stringify(answer)}`);

  // The book came from the emulator, fetched by the service worker.
  const loaded = await worker.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name));
  assert.ok(loaded.some((url) => url.startsWith(`${EMULATOR}/book?token_id=${token.tokenId}`)), loaded.join("\n"));
  // A second question reuses the initialised module and client.
  const again = await page.evaluate((tokenId) => chrome.runtime.sendMessage({ type: "best-bid", tokenId }), token.tokenId);
  assert.deepEqual(again, { bestBid: expectedBestBid(token.book) });
  const unknown = await page.evaluate(() => chrome.runtime.sendMessage({ type: "best-bid", tokenId: "1" }));
  assert.deepEqual(unknown, { error: "NOT_FOUND" });
  timed("extension round trips", started);
  await page.close();
});

// --- A service worker that keeps a stream ---------------------------------------------------------------

/** How long the emulator holds the market messages: more than Chromium's 30 s idle limit, with a margin. */
const SILENCE_MS = 35_000;
/** Chromium's idle limit for an extension service worker with no events. */
const IDLE_LIMIT_MS = 30_000;

/**
 * Added to the README's background.js: a random id for this instance of the worker, its uncaught errors,
 * and (with `stream`) a market stream of `tokenId` opened at the worker's start through the README's
 * `getClient()` with the global WebSocket, whose book_update events are counted and whose latest
 * `bookStatus` is kept. A `{ type: "stream-state" }` message answers all that.
 */
function workerAddition({ stream, tokenId, credentials }) {
  return `
// --- The stream test's addition ---
const STREAM = ${JSON.stringify(stream)};
const TOKEN = ${JSON.stringify(tokenId)};
const CREDENTIALS = ${JSON.stringify(credentials)};
const instance = crypto.randomUUID();
const startedAt = Date.now();
const problems = [];
self.addEventListener("error", (e) => problems.push("error: " + e.message));
self.addEventListener("unhandledrejection", (e) => problems.push("unhandled rejection: " + (e.reason?.code ?? "") + " " + (e.reason?.message ?? e.reason)));
const MARKET = ["book", "price_change", "last_trade_price", "tick_size_change", "best_bid_ask"];
const live = { updates: 0, unverifiedUpdates: 0, bookStatus: null, statuses: [], resyncs: [], errors: [], marketEvents: 0, lastMarketAt: 0, maxSilenceMs: 0 };
let opened;
const marketStream = STREAM
  ? getClient().then((client) => (opened = client.marketStream([TOKEN], {
    onEvent(event) {
      const now = Date.now();
      if (MARKET.includes(event.event_type)) {
        if (live.lastMarketAt) live.maxSilenceMs = Math.max(live.maxSilenceMs, now - live.lastMarketAt);
        live.lastMarketAt = now;
        live.marketEvents++;
      } else if (event.event_type === "book_update") {
        live.updates++;
        if (!event.verified) live.unverifiedUpdates++;
        live.bookStatus = opened?.bookStatus(TOKEN) ?? null;
      } else if (event.event_type === "status") live.statuses.push(event.status);
      else if (event.event_type === "resync") live.resyncs.push(event.reason);
      else if (event.event_type === "error") live.errors.push(event.error.code);
    },
  })))
  : null;

// With the stream, the account's dead-man switch: its heartbeats go on as long as the worker lives.
const deadman = { statuses: [], beats: 0, lastOkAt: 0 };
if (STREAM) {
  // (getClient() initialises the module once.)
  getClient().then(() => {
    new Client({ baseUrl: ${JSON.stringify(EMULATOR)}, credentials: CREDENTIALS }).heartbeats({
      onStatus: (e) => deadman.statuses.push(e.status),
    });
  });
}

chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
  if (message.type !== "stream-state") return false;
  const answer = { instance, startedAt, problems, deadman };
  if (!marketStream) {
    sendResponse(answer);
    return false;
  }
  marketStream.then((stream) => {
    const book = stream.book(TOKEN);
    sendResponse({ ...answer, ...live, status: stream.status, bookStatusNow: stream.bookStatus(TOKEN) ?? null, hash: book?.hash() ?? null });
    book?.free();
  }, (error) => sendResponse({ ...answer, error: error.code ?? String(error) }));
  return true;
});
`;
}

/** An unpacked extension's id, as Chromium derives it from the folder's absolute path. */
function unpackedExtensionId(dir) {
  const hex = createHash("sha256").update(realpathSync(dir)).digest("hex").slice(0, 32);
  return [...hex].map((c) => String.fromCharCode(97 + parseInt(c, 16))).join("");
}

/**
 * Headless Chromium with the given extensions, driven over `--remote-debugging-pipe` (JSON messages ending
 * in NUL on fds 3 and 4). Nothing is attached unless asked: `page(url)` opens a page and attaches to it
 * alone, `evaluate` runs an expression there, `targets()` lists the targets without attaching.
 */
async function launchPipedChromium(profile, extensions) {
  rmSync(profile, { recursive: true, force: true });
  const child = spawn(CHROMIUM, [
    "--headless", ...CHROMIUM_ARGS, `--user-data-dir=${profile}`, "--remote-debugging-pipe",
    `--disable-extensions-except=${extensions.join(",")}`, `--load-extension=${extensions.join(",")}`, "about:blank",
  ], { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stdio[2].setEncoding("utf8").on("data", (text) => (stderr = (stderr + text).slice(-4000)));
  const pending = new Map();
  const listeners = new Set();
  let nextId = 0;
  let buffer = "";
  let exited = null;
  child.once("exit", (code, signal) => {
    exited = `exited (${code ?? signal})`;
    for (const { reject } of pending.values()) reject(new Error(`Chromium ${exited}: ${stderr.slice(-1000)}`));
    pending.clear();
  });
  child.stdio[4].setEncoding("utf8").on("data", (text) => {
    buffer += text;
    for (let end; (end = buffer.indexOf("\0")) >= 0; buffer = buffer.slice(end + 1)) {
      const message = JSON.parse(buffer.slice(0, end));
      const waiting = pending.get(message.id);
      if (waiting) {
        pending.delete(message.id);
        if (message.error) waiting.reject(new Error(`${waiting.method}: ${message.error.message}`));
        else waiting.resolve(message.result);
      } else for (const listener of listeners) listener(message);
    }
  });
  const send = (method, params = {}, sessionId) => new Promise((resolve, reject) => {
    if (exited) return reject(new Error(`Chromium ${exited}: ${stderr.slice(-1000)}`));
    const id = ++nextId;
    pending.set(id, { resolve, reject, method });
    child.stdio[3].write(JSON.stringify({ id, method, params, ...(sessionId && { sessionId }) }) + "\0");
  });
  const exceptions = [];
  listeners.add((m) => m.method === "Runtime.exceptionThrown" && exceptions.push(m.params.exceptionDetails.exception?.description ?? m.params.exceptionDetails.text));
  await send("Browser.getVersion");
  return {
    send,
    exceptions,
    targets: async () => (await send("Target.getTargets")).targetInfos,
    async page(url) {
      const { targetId } = await send("Target.createTarget", { url });
      const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
      await send("Runtime.enable", {}, sessionId);
      const evaluate = async (expression) => {
        const { result, exceptionDetails } = await send("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true }, sessionId);
        if (exceptionDetails) throw new Error(`${expression}: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
        return result.value;
      };
      const deadline = Date.now() + 10_000;
      while (!(await evaluate(`location.href === ${JSON.stringify(url)} && document.readyState === "complete"`))) {
        if (Date.now() > deadline) throw new Error(`${url} did not load`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return { evaluate };
    },
    close: () => new Promise((resolve) => {
      if (exited) return resolve();
      child.once("exit", resolve);
      child.kill();
    }),
  };
}

let streamBrowser;

test("an MV3 service worker keeps a verified market stream through 35 s of silence, kept alive by its PINGs, and its dead-man switch beating", { skip: SKIP_BROWSER, timeout: 120_000 }, async () => {
  const started = performance.now();
  await fetch(`${EMULATOR}/__admin/reset`, { method: "POST" });
  const readme = readmeBlock("extension", EMULATOR);
  const { address, apiKey, secret, passphrase } = (await getJson("/__admin/accounts"))[0];
  const credentials = { address, apiKey, secret, passphrase };
  const beats = async () => (await getJson("/__admin/requests?path=/v1/heartbeats")).requests.filter((r) => r.status === 200);
  const dirs = {};
  for (const [name, stream] of [["stream", true], ["idle", false]]) {
    const dir = join(projectDir, `${name}-extension`);
    rmSync(dir, { recursive: true, force: true });
    copyPackage(join(projectDir, "node_modules", "predictkit"), join(dir, "predictkit"));
    writeFiles(dir, {
      // The README's manifest as it is: its host permission for 127.0.0.1 is all the stream needs (Chromium
      // applies no host permission to WebSockets; the emulator accepts any Origin).
      "manifest.json": readmeBlock("extension-manifest", undefined, "json"),
      "background.js": readme + workerAddition({ stream, tokenId: token.tokenId, credentials }),
      "state.html": '<!doctype html><meta charset="utf-8"><title>state</title>\n',
    });
    dirs[name] = dir;
  }
  streamBrowser = await launchPipedChromium(join(projectDir, "profile-stream"), [dirs.stream, dirs.idle]);
  const ids = { stream: unpackedExtensionId(dirs.stream), idle: unpackedExtensionId(dirs.idle) };
  const workerUrl = (name) => `chrome-extension://${ids[name]}/background.js`;
  const running = async () => new Set((await streamBrowser.targets()).filter((t) => t.type === "service_worker").map((t) => t.url));
  for (let deadline = Date.now() + 15_000; !(await running()).has(workerUrl("stream")) || !(await running()).has(workerUrl("idle"));) {
    if (Date.now() > deadline) assert.fail(`the workers did not start: ${[...(await running())].join(", ")}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const pages = {
    stream: await streamBrowser.page(`chrome-extension://${ids.stream}/state.html`),
    idle: await streamBrowser.page(`chrome-extension://${ids.idle}/state.html`),
  };
  const ask = (name) => pages[name].evaluate(`chrome.runtime.sendMessage({ type: "stream-state" })`);
  const marketSockets = async () => (await getJson("/__admin/stream")).sockets.filter((s) => s.channel === "market");
  /** The worker's live book, verified and equal to GET /book (the simulator moves it 5 times a second: retried). */
  async function inStep(what) {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const [state, served] = await Promise.all([ask("stream"), getJson(`/book?token_id=${token.tokenId}`)]);
      if (state.bookStatusNow?.state === "live" && state.bookStatusNow.verified && state.hash === served.hash) return state;
      if (Date.now() > deadline) assert.fail(`${what}: the worker's book is not in step: ${JSON.stringify({ ...state, served: served.hash })}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  timed("stream extension: build and launch Chromium", started);

  // Live: the dump, then 200 ticks, each applied and verified in the worker. Each tick one message with
  // the hash of its own state (the emulator's exact shapes), so that every message is a book_update.
  await fetch(`${EMULATOR}/__admin/stream`, { method: "POST", body: JSON.stringify({ shapes: "exact" }) });
  const first = await inStep("after the dump");
  const { frames } = await (await fetch(`${EMULATOR}/__admin/stream/tick`, { method: "POST", body: JSON.stringify({ asset_id: token.tokenId, count: 200 }) })).json();
  const before = await inStep("after 200 ticks");
  assert.equal(before.instance, first.instance);
  // One book_update per frame that changed the book: at least the ticks' frames.
  assert.ok(before.updates >= first.updates + frames, `${first.updates} → ${before.updates} book_update events for ${frames} frames`);
  const idleBefore = await ask("idle");
  const [socket] = await marketSockets();
  assert.equal((await marketSockets()).length, 1);
  assert.deepEqual(socket.assets_ids, [token.tokenId]);

  // Silence: the emulator holds every market message for SILENCE_MS while the test keeps moving the book;
  // only PING/PONG goes over the socket. Nothing talks to either worker meanwhile.
  const silence = performance.now();
  const stall = await fetch(`${EMULATOR}/__admin/stream/faults`, {
    method: "POST", body: JSON.stringify({ path: "/ws/market", faults: [{ kind: "stall", ms: SILENCE_MS }] }),
  });
  assert.ok(stall.ok);
  let ticked = 0;
  let tickFrames = 0;
  const stoppedAfter = { stream: null, idle: null };
  while (performance.now() - silence < SILENCE_MS + 500) {
    const tick = await fetch(`${EMULATOR}/__admin/stream/tick`, { method: "POST", body: JSON.stringify({ asset_id: token.tokenId, count: 5 }) });
    assert.ok(tick.ok);
    ticked += 5;
    tickFrames += (await tick.json()).frames;
    // Which workers are still running, as the browser lists its targets (no attaching).
    const now = await running();
    for (const name of ["stream", "idle"]) if (!now.has(workerUrl(name))) stoppedAfter[name] ??= Math.round(performance.now() - silence);
    await new Promise((r) => setTimeout(r, 1000));
  }
  const [during = null] = await marketSockets();

  // After: the held messages came, in order, to the same worker instance on the same socket.
  const after = await inStep("after the silence");
  const idleAfter = await ask("idle");
  timed(`stream extension: ${ticked} ticks over ${((performance.now() - silence) / 1000).toFixed(1)} s`, silence);
  console.log(`stream worker: ${after.updates} book_update events, ${after.marketEvents} market events, longest silence ${after.maxSilenceMs} ms; `
    + `socket received ${socket.received} → ${during?.received} messages; workers stopped after ${JSON.stringify(stoppedAfter)} ms`);

  // The idle twin was stopped by Chromium's idle limit (its next message started a new instance): this
  // harness lets idle workers die, so the stream worker's survival is the stream's doing.
  assert.ok(stoppedAfter.idle !== null && stoppedAfter.idle < IDLE_LIMIT_MS + 5000, `the idle worker stopped after ${stoppedAfter.idle} ms`);
  assert.notEqual(idleAfter.instance, idleBefore.instance, "the idle twin was restarted");
  assert.equal(stoppedAfter.stream, null, `the stream worker stopped after ${stoppedAfter.stream} ms`);
  assert.equal(after.instance, first.instance, "the same stream worker instance throughout");
  assert.equal(after.startedAt, first.startedAt);
  // The worker saw no market message for longer than the idle limit: only its PINGs and their PONGs kept it.
  assert.ok(after.maxSilenceMs >= IDLE_LIMIT_MS + 1000, `longest silence ${after.maxSilenceMs} ms`);
  assert.equal(during?.id, socket.id, "the same socket");
  assert.ok(during.received >= socket.received + 3, `PINGs sent during the silence: ${during.received - socket.received}`);
  assert.equal((await marketSockets()).length, 1);
  // Every change counted and applied: the ticks (and the simulator's changes) made book_update events, the
  // latest kept status is verified, the live book equals GET /book.
  assert.ok(after.updates >= before.updates + tickFrames, `${before.updates} → ${after.updates} book_update events for ${tickFrames} frames of ticks`);
  assert.equal(after.bookStatus?.verified, true, JSON.stringify(after.bookStatus));
  assert.equal(after.bookStatus.mismatches, 0);
  assert.equal(after.bookStatusNow.mismatches, 0);
  assert.ok(after.bookStatusNow.checks >= before.bookStatusNow.checks + tickFrames, `${before.bookStatusNow.checks} → ${after.bookStatusNow.checks} checks`);
  assert.equal(after.unverifiedUpdates, first.unverifiedUpdates, "every book_update after the first verified one verified");
  assert.deepEqual(after.resyncs, []);
  assert.deepEqual(after.errors, []);
  // Connected and opened once, never stalled or lost.
  assert.deepEqual(after.statuses, ["connecting", "open"]);
  assert.equal(after.status, "open");
  assert.deepEqual([...after.problems, ...idleAfter.problems], []);
  // The dead-man switch beat all along, past the idle limit, never late or lost: the account's orders lived.
  assert.deepEqual(after.deadman.statuses, ["starting", "ok"], JSON.stringify(after.deadman));
  const accepted = await beats();
  assert.ok(accepted.length >= Math.floor((performance.now() - started) / 5000) - 3, `${accepted.length} heartbeats accepted`);
  assert.ok((await getJson("/__admin/accounts"))[0].openOrders > 0, "the account's orders are still open");
  assert.deepEqual(streamBrowser.exceptions, []);
  timed("stream extension", started);
});
