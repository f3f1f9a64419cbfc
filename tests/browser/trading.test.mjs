// Trading in real headless Chromium (the Node run is tests/js/trading.test.mjs): the page's package
// (pkg/web through /pkg/index.mjs) creates an API key from a wallet (the emulator's development wallet,
// through walletSigner as a page uses window.ethereum), builds an exact order, has it signed, places it,
// lists it and cancels it; a refused order sends nothing; and the page sees no unhandled rejection.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { chromium } from "playwright-core";

const EMULATOR = process.env.PREDICTKIT_EMULATOR_URL ?? "http://127.0.0.1:8787";
let browser;
let page;
let market;
const pageErrors = [];

before(async () => {
  await fetch(`${EMULATOR}/__admin/reset`, { method: "POST" });
  const { data } = await (await fetch(`${EMULATOR}/sampling-markets`)).json();
  for (const m of data) {
    const info = await (await fetch(`${EMULATOR}/clob-markets/${m.condition_id}`)).json();
    const book = await (await fetch(`${EMULATOR}/book?token_id=${m.tokens[0].token_id}`)).json();
    if (m.accepting_orders && info.mts === 0.01 && book.bids.length) {
      market = { tokenId: m.tokens[0].token_id, conditionId: m.condition_id, low: Math.max(0.01, Math.min(...book.bids.map((l) => Number(l.price)))) };
      break;
    }
  }
  assert.ok(market, "a market with a 0.01 tick and bids");
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
  page = await browser.newPage();
  page.on("pageerror", (e) => pageErrors.push(`${e.name}: ${e.message}`));
  await page.goto(`${EMULATOR}/`);
  await page.evaluate(async () => {
    window.problems = [];
    window.addEventListener("unhandledrejection", (e) => window.problems.push(`unhandled rejection: ${e.reason?.message ?? e.reason}`));
    // The emulator's development wallet as an EIP-1193 provider, as a page has window.ethereum.
    window.walletProvider = {
      async request({ method, params }) {
        const res = await fetch("/wallet", { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
        const answer = await res.json();
        if (answer.error) throw new Error(answer.error.message);
        return answer.result;
      },
    };
    window.pk = await import("/pkg/index.mjs");
    await window.pk.default();
  });
});
after(async () => {
  await browser?.close();
  await fetch(`${EMULATOR}/__admin/reset`, { method: "POST" });
});

test("a page creates a key from a wallet, places an exact order, lists it and cancels it", { timeout: 30_000 }, async () => {
  const r = await page.evaluate(async (market) => {
    const { Client, walletSigner } = window.pk;
    const provider = window.walletProvider;
    const [address] = await provider.request({ method: "eth_requestAccounts" });
    const signer = walletSigner(provider, address);
    const client = new Client({ baseUrl: location.origin, chainId: 80002, rateLimits: false });
    const key = await client.createOrDeriveApiKey(signer);
    // Refused locally (off the tick): nothing is posted.
    let refused;
    try {
      await client.placeOrder({ tokenId: market.tokenId, side: "BUY", price: 0.015, size: 10 }, signer);
    } catch (e) {
      refused = { code: e.code, param: e.param };
    }
    const draft = await client.buildOrder({ tokenId: market.tokenId, conditionId: market.conditionId, side: "BUY", price: market.low, size: 12.34 });
    const signed = await client.signOrder(draft, signer);
    const placed = await client.postOrder(signed);
    const open = await client.getOpenOrders();
    const canceled = await client.cancelOrder(placed.orderID);
    const log = await (await fetch("/__admin/requests?path=/order&method=POST")).json();
    client.free();
    return { key, refused, draft, signed, placed, open: open.data.map((o) => o.id), canceled, posts: log.requests.filter((q) => q.path === "/order").length, problems: window.problems };
  }, market);
  assert.match(r.key.apiKey, /^[0-9a-f-]{36}$/);
  assert.deepEqual(Object.keys(r.key).sort(), ["address", "apiKey"]);
  assert.deepEqual(r.refused, { code: "INVALID_PARAMS", param: "price" });
  assert.equal(r.draft.takerAmount, "12340000");
  assert.equal(r.draft.makerAmount, String(Math.round(market.low * 100) * 123400));
  assert.match(r.signed.signature, /^0x[0-9a-f]{130}$/);
  assert.equal(r.placed.success, true, r.placed.errorMsg);
  assert.deepEqual(r.open, [r.placed.orderID]);
  assert.deepEqual(r.canceled.canceled, [r.placed.orderID]);
  assert.equal(r.posts, 1, "only the valid order was posted");
  assert.deepEqual([...r.problems, ...pageErrors], []);
});

test("a page's doctor finds a deposit-wallet account; with its settings the page trades, cancels many then all, and types a restarting engine", { timeout: 45_000 }, async () => {
  await fetch(`${EMULATOR}/__admin/reset`, { method: "POST" });
  const r = await page.evaluate(async (market) => {
    const { Client, walletSigner } = window.pk;
    const provider = window.walletProvider;
    // The fifth development account trades through its deposit wallet; the page does not know that yet.
    const owner = (await provider.request({ method: "eth_requestAccounts" }))[4];
    const { wallet } = await (await fetch(`/__admin/deposit-wallet?owner=${owner}`)).json();
    const signer = walletSigner(provider, owner);
    const naive = new Client({ baseUrl: location.origin, chainId: 80002, rateLimits: false, maxRetries: 0 });
    await naive.createOrDeriveApiKey(signer);
    const report = await naive.diagnoseAccount(signer, { provider });
    naive.free();
    const client = new Client({ baseUrl: location.origin, chainId: 80002, rateLimits: false, maxRetries: 0, signatureType: report.signatureType, funder: report.funder });
    await client.createOrDeriveApiKey(signer);
    const healthy = await client.diagnoseAccount(signer, { provider });
    const place = () => client.placeOrder({ tokenId: market.tokenId, side: "BUY", price: market.low, size: 5 }, signer);
    const placed = [await place(), await place()];
    const open = (await client.getOpenOrders()).data;
    const many = await client.cancelOrders([placed[0].orderID, placed[0].orderID]);
    const third = await place();
    const all = await client.cancelAll();
    await fetch("/__admin/engine", { method: "POST", body: JSON.stringify({ mode: "restarting", retryAfterSeconds: 3 }) });
    let restarting;
    try {
      await place();
    } catch (e) {
      restarting = { code: e.code, status: e.status, retryAfterMs: e.retryAfterMs };
    }
    await fetch("/__admin/engine", { method: "POST", body: JSON.stringify({ mode: "normal" }) });
    client.free();
    return {
      wallet,
      found: report.findings.map((f) => f.code),
      kind: report.kind,
      healthy: healthy.ok,
      makers: open.map((o) => o.makerAddress),
      placed: placed.map((p) => p.success),
      many: many.canceled.length === 1 && many.canceled[0] === placed[0].orderID,
      all: all.canceled.slice().sort().join() === [placed[1].orderID, third.orderID].sort().join(),
      restarting,
    };
  }, market);
  assert.deepEqual(r.found, ["DEPOSIT_WALLET_REQUIRED"]);
  assert.equal(r.kind, "POLY_1271");
  assert.equal(r.healthy, true);
  assert.deepEqual(r.placed, [true, true]);
  assert.equal(r.makers.length, 2);
  assert.ok(r.makers.every((m) => m.toLowerCase() === r.wallet.toLowerCase()), JSON.stringify(r));
  assert.equal(r.many, true);
  assert.equal(r.all, true);
  assert.deepEqual(r.restarting, { code: "ENGINE_RESTARTING", status: 425, retryAfterMs: 3000 });
  assert.deepEqual(await page.evaluate(() => window.problems), []);
  assert.deepEqual(pageErrors, []);
});

test("the demo's order ticket previews the draft it signs: a $9.98 FAK market buy on a 0.001 tick, placed", { timeout: 45_000 }, async () => {
  // An open market on a 0.001 tick whose first outcome (the one the market page trades) has asks.
  let found;
  for (const event of await (await fetch(`${EMULATOR}/events?active=true&closed=false&limit=20&offset=0`)).json()) {
    for (const m of event.markets.filter((m) => !m.closed)) {
      const info = await (await fetch(`${EMULATOR}/clob-markets/${m.conditionId}`)).json();
      const [tokenId] = JSON.parse(m.clobTokenIds);
      const book = await (await fetch(`${EMULATOR}/book?token_id=${tokenId}`)).json();
      if (!found && info.mts === 0.001 && book.asks.length) found = { id: m.id, tokenId, conditionId: m.conditionId };
    }
  }
  assert.ok(found, "an open market on a 0.001 tick with asks");
  const demo = await browser.newPage();
  const demoErrors = [];
  demo.on("pageerror", (e) => demoErrors.push(`${e.name}: ${e.message}`));
  // Still books: a streamed change could move the book's price between the preview and the check below.
  await demo.routeWebSocket(/\/ws\/market$/, (ws) => ws.onMessage((m) => { if (m === "PING") ws.send("PONG"); }));
  await demo.goto(`${EMULATOR}/www/#/market/${found.id}`);
  await demo.waitForSelector("#view-market[data-state=ready]", { timeout: 15_000 });
  await demo.click("label[for=ticket-market]");
  await demo.selectOption("#ticket-type", "FAK");
  await demo.fill("#ticket-size", "9.98");
  await demo.click("#ticket-form button[type=submit]");
  await demo.waitForFunction(() => /You sign/.test(document.querySelector("#ticket-result")?.textContent ?? "") &&
    !document.querySelector("#ticket-result").classList.contains("bad"), undefined, { timeout: 15_000 });
  const preview = await demo.textContent("#ticket-result");

  // The draft the package builds for the same order from the same book: the preview shows its figures,
  // the shares with at most the 4 decimals a FAK taker amount takes (before: 5, as 20.49281 at 0.487).
  const draft = await page.evaluate(async (found) => {
    const client = new window.pk.Client({ baseUrl: location.origin, chainId: 80002, rateLimits: false });
    try {
      return await client.buildMarketOrder({ tokenId: found.tokenId, conditionId: found.conditionId, side: "BUY", amount: 9.98, orderType: "FAK" });
    } finally {
      client.free();
    }
  }, found);
  assert.equal(draft.makerAmount, "9980000");
  assert.equal(BigInt(draft.takerAmount) % 100n, 0n, draft.takerAmount);
  assert.match(draft.shares, /^\d+(\.\d{1,4})?$/);
  assert.equal(preview.match(/You signBuy\b.* for \$9\.98: at least (\S+) shares?/)?.[1], draft.shares, preview);
  assert.ok(preview.includes(`Taker amount${draft.takerAmount} units`), preview);
  assert.ok(preview.includes(`Maker amount${draft.makerAmount} units`), preview);
  assert.ok(preview.includes("(FAK)"), preview);

  // A change to the form discards the draft: nothing can be signed until it is previewed again.
  await demo.fill("#ticket-size", "9.99");
  assert.equal(await demo.isDisabled("#ticket-place"), true);
  await demo.fill("#ticket-size", "9.98");
  await demo.click("#ticket-form button[type=submit]");
  await demo.waitForFunction(() => !document.querySelector("#ticket-place").disabled, undefined, { timeout: 15_000 });

  // Signed as previewed and placed: the service takes the 4-decimal taker amount.
  await demo.click("#ticket-place");
  await demo.waitForSelector("#ticket-result.good", { timeout: 15_000 });
  const answer = await demo.textContent("#ticket-result");
  assert.match(answer, /Placedmatched/, answer);
  await demo.close();
  assert.deepEqual(demoErrors, []);
});

test("a page whose JavaScript is held past the deadline (a frozen or throttled tab) loses its orders; its dead-man switch says lost first, then beats again", { timeout: 45_000 }, async () => {
  await fetch(`${EMULATOR}/__admin/reset`, { method: "POST" });
  // A page of its own, frozen as a browser freezes a background tab.
  const frozen = await browser.newPage();
  frozen.on("pageerror", (e) => pageErrors.push(`${e.name}: ${e.message}`));
  await frozen.goto(`${EMULATOR}/`);
  const orderId = await frozen.evaluate(async (market) => {
    const pk = await import("/pkg/index.mjs");
    await pk.default();
    const provider = {
      async request({ method, params }) {
        const res = await fetch("/wallet", { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
        return (await res.json()).result;
      },
    };
    const [, address] = await provider.request({ method: "eth_requestAccounts" });
    const signer = pk.walletSigner(provider, address);
    const client = new pk.Client({ baseUrl: location.origin, chainId: 80002, rateLimits: false });
    await client.createOrDeriveApiKey(signer);
    const placed = await client.placeOrder({ tokenId: market.tokenId, side: "BUY", price: market.low, size: 5 }, signer);
    window.heard = [];
    window.client = client;
    window.deadman = client.heartbeats({ intervalMs: 2000, onStatus: (e) => window.heard.push(e.status) });
    return placed.orderID;
  }, market);
  await frozen.waitForFunction(() => window.heard.includes("ok"));
  // The page's JavaScript stopped (as a frozen or throttled tab's is): paused in the debugger for 12 s, which
  // is past the deadline, so the emulator cancels the key's orders.
  const cdp = await frozen.context().newCDPSession(frozen);
  await cdp.send("Debugger.enable");
  await cdp.send("Debugger.pause");
  await new Promise((resolve) => setTimeout(resolve, 12_000));
  await cdp.send("Debugger.resume");
  await cdp.send("Debugger.disable");
  await frozen.waitForFunction(() => window.heard.lastIndexOf("ok") > window.heard.indexOf("lost") && window.heard.includes("lost"), null, { timeout: 10_000 })
    .catch(async (e) => assert.fail(`${e.message}: heard ${await frozen.evaluate(() => window.heard.join())}`));
  const r = await frozen.evaluate(async () => {
    const open = (await window.client.getOpenOrders()).data.map((o) => o.id);
    window.deadman.stop();
    const done = await window.deadman.done;
    window.client.free();
    return { heard: window.heard, open, reason: done.reason };
  });
  // Lost is told before anything else once the page runs again; then a new chain begins and beats.
  assert.deepEqual(r.heard, ["starting", "ok", "lost", "ok", "stopped"], r.heard.join());
  assert.ok(!r.open.includes(orderId), "the order was cancelled by the service while the page was frozen");
  assert.equal(r.reason, "stopped");
  await frozen.close();
  assert.deepEqual(pageErrors, []);
});

test("a dead-man switch keeps its schedule in a module Worker, and stops when told", { timeout: 30_000 }, async () => {
  await fetch(`${EMULATOR}/__admin/reset`, { method: "POST" });
  const creds = (await (await fetch(`${EMULATOR}/__admin/accounts`)).json())[0];
  const credentials = { address: creds.address, apiKey: creds.apiKey, secret: creds.secret, passphrase: creds.passphrase };
  const r = await page.evaluate(async (credentials) => {
    const code = `
      import init, { Client } from "${location.origin}/pkg/index.mjs";
      await init();
      const client = new Client({ baseUrl: "${location.origin}", rateLimits: false, credentials: ${JSON.stringify(credentials)} });
      const deadman = client.heartbeats({ intervalMs: 200, onStatus: (e) => postMessage(e) });
      onmessage = () => deadman.stop();
    `;
    const worker = new Worker(URL.createObjectURL(new Blob([code], { type: "text/javascript" })), { type: "module" });
    const heard = [];
    const stopped = new Promise((resolve) => {
      worker.onmessage = ({ data }) => {
        heard.push(data.status);
        if (data.status === "ok") setTimeout(() => worker.postMessage("stop"), 1500);
        if (data.status === "stopped") resolve(data);
      };
      worker.onerror = (e) => resolve({ error: e.message });
    });
    const last = await stopped;
    worker.terminate();
    return { heard, last };
  }, credentials);
  assert.deepEqual(r.heard, ["starting", "ok", "stopped"], JSON.stringify(r));
  assert.equal(r.last.reason, "stopped");
  // 1.5 s at 200 ms: the worker's timers sent about seven, each accepted.
  const { requests } = await (await fetch(`${EMULATOR}/__admin/requests?path=/v1/heartbeats`)).json();
  assert.ok(requests.filter((q) => q.status === 200).length >= 5, `${requests.length} heartbeats`);
  assert.ok(r.last.beats >= 5, JSON.stringify(r.last));
  assert.deepEqual(pageErrors, []);
});
