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
    const provider = {
      async request({ method, params }) {
        const res = await fetch("/wallet", { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
        const answer = await res.json();
        if (answer.error) throw new Error(answer.error.message);
        return answer.result;
      },
    };
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
