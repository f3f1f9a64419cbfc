// Trading against the emulator: API keys from a wallet, orders built exactly, signed by the wallet (the
// emulator's development wallet, as a local chain's node offers), placed, matched, listed, cancelled;
// and every refusal made locally with nothing sent.
import { test, before, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { pk, EMULATOR, PKG_DIR, rejectsWith, admin as adminAt, holdShares } from "./helpers.mjs";

const { walletSigner } = await import(`${PKG_DIR}/signers.mjs`);
const admin = (method, path, body) => adminAt(EMULATOR, method, path, body);

/** The emulator's wallet as an EIP-1193 provider. */
const provider = {
  async request({ method, params }) {
    const res = await fetch(`${EMULATOR}/wallet`, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
    const answer = await res.json();
    if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
    return answer.result;
  },
};

let accounts;
let market; // { conditionId, tokenId, tick, minSize, bestBid, bestAsk }
let fine; // the same, for a market on a 0.001 tick with asks

const newClient = (extra = {}) => new pk.Client({ baseUrl: EMULATOR, chainId: 80002, rateLimits: false, ...extra });

/** The first of the emulator's markets (GET /markets, page by page) that `accept` makes something of. */
async function firstMarket(accept) {
  for (let cursor = "MA=="; cursor && cursor !== "LTE="; ) {
    const page = await (await fetch(`${EMULATOR}/markets?next_cursor=${cursor}`)).json();
    for (const m of page.data) {
      const found = await accept(m);
      if (found) return found;
    }
    cursor = page.next_cursor;
  }
  return undefined;
}

/** A client with the API key of the development wallet's account `i`, and that account's signer. */
async function trader(i) {
  const client = newClient();
  const signer = walletSigner(provider, accounts[i]);
  await client.createApiKey(signer);
  return { client, signer };
}

async function orderRequests() {
  const { requests } = await admin("GET", "/__admin/requests?path=/order");
  return requests.filter((r) => r.method === "POST" && r.path === "/order");
}

before(async () => {
  accounts = await provider.request({ method: "eth_requestAccounts" });
  assert.ok(accounts.length >= 2, "the emulator's wallet has at least two accounts");
  const page = await (await fetch(`${EMULATOR}/sampling-markets`)).json();
  for (const m of page.data) {
    const tokenId = m.tokens[0].token_id;
    const info = await (await fetch(`${EMULATOR}/clob-markets/${m.condition_id}`)).json();
    const book = await (await fetch(`${EMULATOR}/book?token_id=${tokenId}`)).json();
    if (!m.accepting_orders || !book.bids.length || !book.asks.length) continue;
    const bestBid = Math.max(...book.bids.map((l) => Number(l.price)));
    const bestAsk = Math.min(...book.asks.map((l) => Number(l.price)));
    if (!market && info.mts === 0.01 && bestAsk - bestBid >= 0.03) {
      market = { conditionId: m.condition_id, tokenId, tick: info.mts, minSize: info.mos, bestBid, bestAsk };
    }
    if (!fine && info.mts === 0.001 && bestAsk <= 0.9) {
      fine = { conditionId: m.condition_id, tokenId, tick: info.mts, minSize: info.mos, bestBid, bestAsk };
    }
    if (market && fine) break;
  }
  assert.ok(market, "a market with a 0.01 tick and a spread of three ticks");
  assert.ok(fine, "a market with a 0.001 tick and asks");
});
beforeEach(() => admin("POST", "/__admin/reset"));

test("API keys: created from the wallet's signature, refused twice, derived, and used for the account's routes", async () => {
  const client = newClient();
  const signer = walletSigner(provider, accounts[0]);
  const created = await client.createApiKey(signer);
  assert.deepEqual(Object.keys(created).sort(), ["address", "apiKey"], "no secret or passphrase handed out");
  assert.equal(created.address, accounts[0]);
  assert.match(created.apiKey, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  assert.equal(client.hasCredentials, true);
  const page = await client.getOpenOrders();
  assert.deepEqual(page.data, [], "the new account has no orders");

  const again = await rejectsWith(assert, client.createApiKey(signer), "API");
  assert.equal(again.status, 400);
  const other = newClient();
  assert.equal((await other.deriveApiKey(signer)).apiKey, created.apiKey, "derived: the same key");
  assert.equal((await other.createOrDeriveApiKey(signer)).apiKey, created.apiKey);
  // A fresh nonce has no key yet: createOrDerive creates it, with the one signature the wallet was asked for
  // (the derivation's 404, then the creation, both carrying it).
  let signatures = 0;
  const counting = { address: signer.address, signTypedData: (td) => (signatures++, signer.signTypedData(td)) };
  const since = (await admin("GET", "/__admin/requests")).requests.length;
  const fresh = await newClient().createOrDeriveApiKey(counting, 7);
  assert.notEqual(fresh.apiKey, created.apiKey);
  assert.equal(signatures, 1, "the wallet is asked once");
  const routes = (await admin("GET", "/__admin/requests")).requests.slice(since).map((r) => `${r.method} ${r.path}`);
  // (The wallet's signature is the emulator's development wallet's: POST /wallet.)
  assert.deepEqual(routes, ["POST /wallet", "GET /auth/derive-api-key", "POST /auth/api-key"]);
  await rejectsWith(assert, newClient().deriveApiKey(signer, 8), "NOT_FOUND");

  // The key route's answer is read in wasm, and the bytes the page's fetch handed over are zeroed there.
  const read = [];
  const spying = newClient({
    fetch: async (url, init) => {
      const r = await fetch(url, init);
      const arrayBuffer = r.arrayBuffer.bind(r);
      r.arrayBuffer = async () => {
        const b = await arrayBuffer();
        read.push([String(url), b]);
        return b;
      };
      return r;
    },
  });
  await spying.createOrDeriveApiKey(signer, 9);
  const keyAnswers = read.filter(([url]) => url.includes("/auth/"));
  assert.ok(keyAnswers.length >= 1, "the key's answer was read as bytes");
  for (const [url, b] of keyAnswers) {
    assert.ok(b.byteLength > 0 && new Uint8Array(b).every((x) => x === 0), `${url}: zeroed`);
  }

  // A signer that claims another address: the service recovers the real one and refuses.
  const liar = { address: accounts[1], signTypedData: (td) => signer.signTypedData(td) };
  await rejectsWith(assert, newClient().createApiKey(liar), "UNAUTHORIZED");
});

test("every refusal is made locally, with no order sent", async () => {
  const client = newClient();
  const signer = walletSigner(provider, accounts[0]);
  await client.createApiKey(signer);
  const base = { tokenId: market.tokenId, side: "BUY", price: 0.5, size: 10, conditionId: market.conditionId };
  const cases = [
    [{ ...base, price: 0.505 }, "price"],
    [{ ...base, price: 0.001 }, "price"],
    [{ ...base, price: 1 }, "price"],
    [{ ...base, price: 0.995 }, "price"],
    [{ ...base, size: 10.001 }, "size"],
    [{ ...base, size: market.minSize - 0.01 }, "size"],
    [{ ...base, orderType: "FOK", postOnly: true }, "postOnly"],
    [{ ...base, expiration: Math.floor(Date.now() / 1000) + 3600 }, "expiration"],
    [{ ...base, orderType: "GTD" }, "expiration"],
    [{ ...base, orderType: "GTD", expiration: Math.floor(Date.now() / 1000) + 30 }, "expiration"],
    [{ ...base, tokenId: "0x12" }, "tokenId"],
    [{ ...base, side: "buy" }, "side"],
    [{ ...base, postonly: true }, "postonly"],
  ];
  for (const [params, param] of cases) {
    const e = await rejectsWith(assert, client.placeOrder(params, signer), "INVALID_PARAMS");
    assert.equal(e.param, param, JSON.stringify(params));
  }
  await rejectsWith(assert, client.placeMarketOrder({ tokenId: market.tokenId, side: "BUY", amount: 5.001 }, signer), "INVALID_PARAMS");
  await rejectsWith(assert, client.placeMarketOrder({ tokenId: market.tokenId, side: "BUY", amount: 5, orderType: "GTC" }, signer), "INVALID_PARAMS");
  // Signers that fail: a refusal, a throw, garbage.
  const refusing = { address: accounts[0], signTypedData: async () => { throw new Error("User rejected the request."); } };
  const e = await rejectsWith(assert, client.placeOrder(base, refusing), "SIGNER");
  assert.equal(e.cause.message, "User rejected the request.");
  await rejectsWith(assert, client.placeOrder(base, { address: accounts[0], signTypedData() { throw new TypeError("boom"); } }), "SIGNER");
  await rejectsWith(assert, client.placeOrder(base, { address: accounts[0], signTypedData: () => "0x1234" }), "SIGNER");
  // A signer that answers nothing, or not a signature, is the signer's fault too, named (issue 33: it was DECODE,
  // "the order is not signed"), for limit and market orders alike.
  const answers = [
    [undefined, /answered undefined instead of a signature/],
    [null, /answered null instead/],
    [42, /answered number instead/],
    [{ signature: "0x" }, /answered object instead/],
    ["0x" + "ab".repeat(64), /answered a string that is not a 65-byte signature/],
  ];
  const marketBase = { tokenId: market.tokenId, side: "BUY", amount: 5 };
  for (const [answer, message] of answers) {
    const odd = { address: accounts[0], signTypedData: async () => answer };
    for (const placed of [client.placeOrder(base, odd), client.placeMarketOrder(marketBase, odd)]) {
      const error = await rejectsWith(assert, placed, "SIGNER");
      assert.match(error.message, message, String(answer));
    }
  }
  await rejectsWith(assert, client.placeOrder(base, { address: "0xnope", signTypedData: () => "" }), "INVALID_PARAMS");
  await rejectsWith(assert, client.placeOrder(base, null), "INVALID_PARAMS");
  // A signer that never answers: the client's signTimeoutMs ends the wait, and so does the call's signal.
  const silent = { address: accounts[0], signTypedData: () => new Promise(() => {}) };
  const patient = newClient({ signTimeoutMs: 200 });
  await patient.createApiKey(signer, 3);
  const started = Date.now();
  await rejectsWith(assert, patient.placeOrder(base, silent), "TIMEOUT");
  assert.ok(Date.now() - started < 5_000, "the wait ended at signTimeoutMs");
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 100);
  await rejectsWith(assert, client.placeOrder(base, silent, { signal: controller.signal }), "ABORTED");
  for (const bad of [-1, "5", 0, NaN]) {
    assert.equal((await rejectsWith(assert, async () => newClient({ signTimeoutMs: bad }), "INVALID_PARAMS")).param, "signTimeoutMs");
  }
  // Without credentials nothing is signed or sent.
  await rejectsWith(assert, newClient().placeOrder(base, signer), "UNAUTHORIZED");
  assert.deepEqual(await orderRequests(), [], "no POST /order reached the service");
  // After all of it the client still places an order.
  const placed = await patient.placeOrder({ ...base, price: Math.round((market.bestBid - 0.01) * 100) / 100, size: market.minSize }, signer);
  assert.equal(placed.success, true, placed.errorMsg);
});

test("orders are built exactly, placed, listed, matched by another account and cancelled", async () => {
  const { client: alice, signer: aliceSigner } = await trader(0);
  const { client: bob, signer: bobSigner } = await trader(1);

  // A buy inside the spread rests.
  const price = Math.round((market.bestBid + 0.01) * 100) / 100;
  const draft = await alice.buildOrder({ tokenId: market.tokenId, side: "BUY", price, size: 19.99 });
  assert.equal(draft.version, 2);
  assert.equal(draft.takerAmount, "19990000");
  assert.equal(draft.makerAmount, String(Math.round(price * 100) * 199900));
  assert.equal(draft.shares, "19.99");
  assert.equal(draft.tickSize, "0.01");
  const signed = await alice.signOrder(draft, aliceSigner);
  assert.equal(signed.maker, accounts[0]);
  assert.match(signed.signature, /^0x[0-9a-f]{130}$/);
  const placed = await alice.postOrder(signed);
  assert.equal(placed.success, true, placed.errorMsg);
  assert.equal(placed.status, "live");
  const open = await alice.getOpenOrders();
  assert.deepEqual(open.data.map((o) => o.id), [placed.orderID]);
  assert.equal(open.data[0].price, String(price));
  const book = await alice.getOrderBook(market.tokenId);
  assert.ok(book.bids.some((l) => Number(l.price) === price), "the order rests on the book");

  // Bob sells into it (shares he bought first): matched.
  await holdShares(bob, bobSigner, market.tokenId, 10);
  const sold = await bob.placeOrder({ tokenId: market.tokenId, side: "SELL", price, size: 10 }, bobSigner);
  assert.equal(sold.success, true, sold.errorMsg);
  assert.equal(sold.status, "matched");
  const after = (await alice.getOpenOrders()).data[0];
  assert.equal(Number(after.sizeMatched), 10);
  const trades = await bob.getUserTrades();
  assert.ok(trades.data.length >= 1, "bob's fill is recorded");

  // Alice cancels the rest.
  const canceled = await alice.cancelOrder(placed.orderID);
  assert.deepEqual(canceled.canceled, [placed.orderID]);
  assert.deepEqual((await alice.getOpenOrders()).data, []);

  // A post-only order that would cross is refused by the service.
  const crossing = await rejectsWith(assert, alice.placeOrder({ tokenId: market.tokenId, side: "BUY", price: market.bestAsk, size: 5, postOnly: true }, aliceSigner), "API");
  assert.match(crossing.body, /post-only/);
});

test("cancel many and all, balances moved by a fill, scoring; bad lists refused before anything is sent", async () => {
  const { client: alice, signer: aliceSigner } = await trader(0);
  const { client: bob, signer: bobSigner } = await trader(1);
  const collateral = await alice.getBalanceAllowance({ asset_type: "COLLATERAL" });
  assert.equal(collateral.balance, "10000000000");
  assert.equal(Object.keys(collateral.allowances).length, 2);

  const price = Math.round((market.bestBid + 0.01) * 100) / 100;
  const buy = (size) => alice.placeOrder({ tokenId: market.tokenId, side: "BUY", price, size }, aliceSigner);
  const [first, second] = [await buy(5), await buy(20)];
  assert.equal(first.status, "live");
  const unknown = "0x" + "e".repeat(64);
  const many = await alice.cancelOrders([first.orderID, first.orderID, unknown]);
  assert.deepEqual(many.canceled, [first.orderID]);
  assert.deepEqual(Object.keys(many.not_canceled), [unknown]);
  assert.equal(typeof (await alice.isOrderScoring(second.orderID)).scoring, "boolean");
  const scoring = await alice.areOrdersScoring([first.orderID, second.orderID]);
  assert.equal(scoring[first.orderID], false, "a canceled order earns nothing");
  assert.equal(typeof scoring[second.orderID], "boolean");

  // Bob sells 10 (bought first) into the second: Alice holds 10 shares and paid 10 × price.
  await holdShares(bob, bobSigner, market.tokenId, 10);
  const sold = await bob.placeOrder({ tokenId: market.tokenId, side: "SELL", price, size: 10 }, bobSigner);
  assert.equal(sold.status, "matched");
  const shares = await alice.getBalanceAllowance({ asset_type: "CONDITIONAL", token_id: market.tokenId });
  assert.equal(shares.balance, "10000000");
  const paid = await alice.updateBalanceAllowance({ asset_type: "COLLATERAL" });
  assert.equal(paid.balance, String(10_000_000_000 - Math.round(price * 100) * 100_000));

  // Cancel all: the rest of the second, and nothing is left.
  const all = await alice.cancelAll();
  assert.deepEqual(all.canceled, [second.orderID]);
  assert.deepEqual((await alice.getOpenOrders()).data, []);

  // Refused locally: nothing reaches the service.
  await admin("DELETE", "/__admin/requests");
  const ids = Array.from({ length: 1001 }, (_, i) => "0x" + i.toString(16));
  const tooMany = await rejectsWith(assert, alice.cancelOrders(ids), "INVALID_PARAMS");
  assert.equal(tooMany.param, "orderIds");
  await rejectsWith(assert, alice.cancelOrders([]), "INVALID_PARAMS");
  await rejectsWith(assert, alice.areOrdersScoring("0xa"), "INVALID_PARAMS");
  const noToken = await rejectsWith(assert, alice.getBalanceAllowance({ asset_type: "CONDITIONAL" }), "INVALID_PARAMS");
  assert.equal(noToken.param, "token_id");
  const { requests } = await admin("GET", "/__admin/requests");
  assert.deepEqual(requests.filter((r) => r.path !== "/").map((r) => `${r.method} ${r.path}`), []);
});

test("balances ask for the client's signatureType unless the call names one", async () => {
  const urls = [];
  const fetchSpy = (url, init) => (urls.push(String(url)), fetch(url, init));
  const creds = (await admin("GET", "/__admin/accounts"))[0];
  const safe = newClient({ fetch: fetchSpy, signatureType: "POLY_GNOSIS_SAFE", funder: accounts[1], credentials: creds });
  await safe.getBalanceAllowance({ asset_type: "COLLATERAL" });
  await safe.getBalanceAllowance({ asset_type: "COLLATERAL", signature_type: 0 });
  const eoa = newClient({ fetch: fetchSpy, credentials: creds });
  await eoa.getBalanceAllowance({ asset_type: "COLLATERAL" });
  assert.deepEqual(urls.map((u) => new URL(u).search), [
    "?asset_type=COLLATERAL&signature_type=2",
    "?asset_type=COLLATERAL&signature_type=0",
    "?asset_type=COLLATERAL&signature_type=0",
  ]);
});

test("a restarting engine: a placement refused with 425 is retried a second later and lands once; cancel-only and post-only are TRADING_PAUSED", async () => {
  const alice = newClient({ maxRetries: 2 });
  const signer = walletSigner(provider, accounts[0]);
  await alice.createApiKey(signer);
  const price = Math.round((market.bestBid + 0.01) * 100) / 100;
  const order = (extra = {}) => ({ tokenId: market.tokenId, side: "BUY", price, size: 5, ...extra });
  const posts = async () => (await admin("GET", "/__admin/requests?path=/order")).requests
    .filter((r) => r.method === "POST" && r.path === "/order").map((r) => r.status);

  // One 425 (no wait named): retried after the second the client waits at least, and placed once.
  await admin("POST", "/__admin/engine", { mode: "restarting", count: 1 });
  await admin("DELETE", "/__admin/requests");
  const started = Date.now();
  const placed = await alice.placeOrder(order(), signer);
  assert.equal(placed.success, true, placed.errorMsg);
  assert.ok(Date.now() - started >= 1000, `waited ${Date.now() - started} ms`);
  assert.deepEqual(await posts(), [425, 200]);
  assert.equal((await alice.getOpenOrders()).data.length, 1, "placed once");

  // Still restarting past maxRetries: ENGINE_RESTARTING, with the wait the body named.
  const once = newClient({ maxRetries: 0, credentials: (await admin("GET", "/__admin/accounts"))[0] });
  await admin("POST", "/__admin/engine", { mode: "restarting", retryAfterSeconds: 7, retryAfterIn: "body" });
  const restarting = await rejectsWith(assert, once.cancelAll(), "ENGINE_RESTARTING");
  assert.equal(restarting.status, 425);
  assert.equal(restarting.retryAfterMs, 7000);

  // Cancel-only: new orders refused with the mode and not retried; cancellations go through.
  await admin("POST", "/__admin/engine", { mode: "cancel-only" });
  await admin("DELETE", "/__admin/requests");
  const paused = await rejectsWith(assert, alice.placeOrder(order(), signer), "TRADING_PAUSED");
  assert.equal(paused.mode, "cancel-only");
  assert.equal(paused.status, 503);
  assert.match(paused.body, /cancel-only/);
  assert.deepEqual(await posts(), [503]);
  assert.deepEqual((await alice.cancelAll()).canceled, [placed.orderID]);

  // Post-only: only post-only orders are taken.
  await admin("POST", "/__admin/engine", { mode: "post-only" });
  const taking = await rejectsWith(assert, alice.placeOrder(order(), signer), "TRADING_PAUSED");
  assert.equal(taking.mode, "post-only");
  const resting = await alice.placeOrder(order({ postOnly: true }), signer);
  assert.equal(resting.success, true, resting.errorMsg);
  await admin("POST", "/__admin/engine", { mode: "normal" });
});

test("a deposit wallet (POLY_1271): the owner's key, the wallet as maker and signer, a wrapped signature the emulator checks; another wallet is refused", async () => {
  // The fifth development account trades through its deposit wallet (the emulator's starting accounts).
  const owner = accounts[4];
  const { wallet } = await admin("GET", `/__admin/deposit-wallet?owner=${owner}`);
  const client = newClient({ signatureType: "POLY_1271", funder: wallet });
  const signer = walletSigner(provider, owner);
  const key = await client.createApiKey(signer);
  assert.equal(key.address, owner, "the key is the owner's");
  const price = Math.round((market.bestBid + 0.01) * 100) / 100;
  const draft = await client.buildOrder({ tokenId: market.tokenId, side: "BUY", price, size: 5 });
  const signed = await client.signOrder(draft, signer);
  assert.equal(signed.maker, wallet);
  assert.equal(signed.signer, wallet);
  assert.equal(signed.signatureType, 3);
  // 65 bytes, two words, the Order type string and its length.
  assert.equal((signed.signature.length - 2) / 2, 65 + 32 + 32 + 186 + 2);
  const placed = await client.postOrder(signed);
  assert.equal(placed.success, true, placed.errorMsg);
  const open = await client.getOpenOrders();
  assert.deepEqual(open.data.map((o) => o.id), [placed.orderID]);
  const again = await client.placeOrder({ tokenId: market.tokenId, side: "BUY", price, size: 5 }, signer);
  assert.equal(again.success, true, again.errorMsg);

  // A wallet that is not the key owner's: refused with the service's text.
  const other = (await admin("GET", `/__admin/deposit-wallet?owner=${accounts[1]}`)).wallet;
  const stranger = newClient({ signatureType: "POLY_1271", funder: other });
  await stranger.createOrDeriveApiKey(signer);
  const refused = await rejectsWith(assert, stranger.placeOrder({ tokenId: market.tokenId, side: "BUY", price, size: 5 }, signer), "API");
  assert.match(refused.body, /the order signer address has to be the address of the API KEY/);
  assert.equal(refused.finding.code, "KEY_NOT_FOR_SIGNER");
  assert.match(refused.finding.fix, /owner/);
});

test("the service's rate-limit headers reach onEvent, and a spent bucket holds the next placement until its reset", async () => {
  const events = [];
  const alice = new pk.Client({ baseUrl: EMULATOR, chainId: 80002, onEvent: (e) => events.push(e) });
  const signer = walletSigner(provider, accounts[0]);
  await alice.createApiKey(signer);
  await admin("POST", "/__admin/rate-limit-headers", { remaining: 0, resetInSeconds: 2, tier: "standard", warning: true });
  const price = Math.round((market.bestBid + 0.01) * 100) / 100;
  const order = () => alice.placeOrder({ tokenId: market.tokenId, side: "BUY", price, size: 5 }, signer);
  const first = await order();
  assert.equal(first.success, true, first.errorMsg);
  const told = events.filter((e) => e.type === "rateLimit");
  assert.equal(told.length, 1, JSON.stringify(events));
  assert.deepEqual({ ...told[0], resetMs: 0 }, { type: "rateLimit", method: "POST", path: "/order", remaining: 0, resetMs: 0, tier: "standard", warning: true });
  const resetMs = told[0].resetMs;
  assert.ok(resetMs > Date.now() && resetMs <= Date.now() + 2000, `reset ${resetMs - Date.now()} ms ahead`);
  // The next placement waits for the reset (told as a wait), though the local budget has room.
  await admin("POST", "/__admin/rate-limit-headers", {});
  const second = await order();
  assert.equal(second.success, true, second.errorMsg);
  assert.ok(Date.now() >= resetMs - 20, "sent at the reset");
  assert.ok(events.some((e) => e.type === "wait" && e.path === "/order"), JSON.stringify(events));
  // Once the headers are gone, no more notices; and a read in another scope was never held.
  assert.equal(events.filter((e) => e.type === "rateLimit").length, 1);
  await admin("POST", "/__admin/rate-limit-headers", { remaining: 0, resetInSeconds: 60 });
  await alice.cancelAll();
  const started = Date.now();
  await alice.getOpenOrders();
  assert.ok(Date.now() - started < 1000, "a read is not held by a spent cancellation bucket");
  await admin("POST", "/__admin/rate-limit-headers", {});
  alice.free();
});

test("a market of the newer position system: its position is signed for the third exchange (version 3), placed, listed, cancelled and matched", async () => {
  // A position id: a module (1 to 3) in the top byte, the 64 reserved bits above bit 40 zero.
  const isPosition = (id) => {
    const n = BigInt(id);
    return [1n, 2n, 3n].includes(n >> 248n) && ((n >> 40n) & ((1n << 64n) - 1n)) === 0n;
  };
  const found = await firstMarket(async (m) => {
    if (!m.accepting_orders || !isPosition(m.tokens[0].token_id)) return undefined;
    const book = await (await fetch(`${EMULATOR}/book?token_id=${m.tokens[0].token_id}`)).json();
    if (!book.bids.length) return undefined;
    return { tokenId: m.tokens[0].token_id, conditionId: m.condition_id, bid: Math.max(...book.bids.map((l) => Number(l.price))), tick: Number(book.tick_size) };
  });
  assert.ok(found, "an open market of the newer position system with bids");
  const client = newClient();
  const signer = walletSigner(provider, accounts[0]);
  await client.createApiKey(signer);
  const price = Math.round((found.bid - found.tick) / found.tick) * found.tick;
  const draft = await client.buildOrder({ tokenId: found.tokenId, side: "BUY", price: Number(price.toFixed(4)), size: 10 });
  assert.equal(draft.version, 3);
  assert.equal(draft.exchange, "0x9fE6e61422AdB6F610d8597F9684b16912D50C3D");
  const signed = await client.signOrder(draft, signer);
  const placed = await client.postOrder(signed);
  assert.equal(placed.success, true, placed.errorMsg);
  assert.deepEqual((await client.getOpenOrders()).data.map((o) => o.id), [placed.orderID]);
  assert.deepEqual((await client.cancelAll()).canceled, [placed.orderID]);
  // A sell into the bids (of shares bought first) matches on the third exchange.
  await holdShares(client, signer, found.tokenId, 5);
  const taken = await client.placeMarketOrder({ tokenId: found.tokenId, side: "SELL", amount: 5, orderType: "FAK" }, signer);
  assert.equal(taken.status, "matched", JSON.stringify(taken));
  // Signed for the second exchange instead, the service does not recover the signer.
  const second = { ...draft, version: 2, exchange: "0xE111180000d2663C0091e4f400237545B87B996B" };
  const refused = await rejectsWith(assert, client.postOrder(await client.signOrder(second, signer)), "API");
  assert.match(refused.body, /signature/);
});

test("a service that says version 3 has every order signed for the third exchange; a position is signed for it on a version-1 service too", async () => {
  // py-clob-client-v2 `create_order`, clob-client-v2 `createOrder` (`case 3: exchangeV3`): the service's version
  // decides the exchange of an older market's token, and a position id always goes to the third exchange.
  await admin("POST", "/__admin/version", { version: 3 });
  const { client, signer } = await trader(0);
  const low = Math.round((market.bestBid - 0.02) * 100) / 100;
  const order = { tokenId: market.tokenId, side: "BUY", price: low, size: 5 };
  const draft = await client.buildOrder(order);
  assert.deepEqual([draft.version, draft.exchange], [3, "0x9fE6e61422AdB6F610d8597F9684b16912D50C3D"]);
  const placed = await client.placeOrder(order, signer);
  assert.equal(placed.success, true, placed.errorMsg);
  assert.equal((await orderRequests()).length, 1, "accepted at once: signed for the exchange the service takes");

  const position = await firstMarket(async (m) => {
    const id = m.tokens[0].token_id;
    const reserved = (BigInt(id) >> 40n) & ((1n << 64n) - 1n);
    return m.accepting_orders && reserved === 0n ? { tokenId: id, tick: Number((await (await fetch(`${EMULATOR}/clob-markets/${m.condition_id}`)).json()).mts) } : undefined;
  });
  assert.ok(position, "a market of the newer position system");
  await admin("POST", "/__admin/version", { version: 1 });
  const v1 = newClient();
  await v1.createApiKey(signer, 1);
  const onV1 = await v1.buildOrder({ tokenId: position.tokenId, side: "BUY", price: position.tick * 2, size: 5 });
  assert.deepEqual([onV1.version, onV1.exchange, onV1.feeRateBps], [3, "0x9fE6e61422AdB6F610d8597F9684b16912D50C3D", "0"]);
  const onV1Placed = await v1.placeOrder({ tokenId: position.tokenId, side: "BUY", price: position.tick * 2, size: 5 }, signer);
  assert.equal(onV1Placed.success, true, onV1Placed.errorMsg);
  // An older market's token on the same version-1 service is a V1 order.
  assert.equal((await v1.buildOrder(order)).version, 1);
});

test("a market's tick made finer: checked once against a fresh read before a price is refused, or learnt from the client's own stream", async () => {
  const { client, signer } = await trader(0);
  const low = Math.round((market.bestBid - 0.03) * 100) / 100;
  const order = (price) => ({ tokenId: market.tokenId, side: "BUY", price, size: 5 });
  const marketReads = async () => (await admin("GET", "/__admin/requests?path=/clob-markets")).requests.length;
  // The client remembers 0.01; the service makes it 0.001 (issue 33: 0.995 after 0.01 → 0.001 was refused).
  await client.buildOrder(order(low));
  await rejectsWith(assert, client.buildOrder(order(low + 0.005)), "INVALID_PARAMS");
  const changed = await admin("POST", "/__admin/tick-size", { asset_id: market.tokenId, tick_size: "0.001" });
  assert.deepEqual([changed.old_tick_size, changed.tick_size], ["0.01", "0.001"]);
  let before = await marketReads();
  const finer = Math.round((low + 0.007) * 1000) / 1000;
  assert.equal((await client.buildOrder(order(finer))).tickSize, "0.001");
  assert.equal(await marketReads(), before + 1, "one fresh read of the market's rules");
  const placed = await client.placeOrder(order(finer), signer);
  assert.equal(placed.success, true, placed.errorMsg);
  const refused = await rejectsWith(assert, client.buildOrder(order(Math.round((low + 0.0005) * 10000) / 10000)), "INVALID_PARAMS");
  assert.equal(refused.param, "price");
  assert.equal(await marketReads(), before + 2, "a price off the fresh tick too is refused, after one read");

  // A stream of the market tells its tick_size_change: the client's orders take the new tick with no read.
  const ticks = [];
  const stream = client.marketStream([market.tokenId], { WebSocket, onEvent: (e) => e.event_type === "tick_size_change" && ticks.push(e) });
  try {
    for (let i = 0; i < 100 && stream.bookStatus(market.tokenId)?.state !== "live"; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(stream.bookStatus(market.tokenId)?.state, "live");
    await admin("POST", "/__admin/tick-size", { asset_id: market.tokenId, tick_size: "0.0001" });
    for (let i = 0; i < 100 && !ticks.length; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(ticks[0]?.new_tick_size, "0.0001", "the stream told the change");
    before = await marketReads();
    const finest = Math.round((low + 0.0013) * 10000) / 10000;
    assert.equal((await client.buildOrder(order(finest))).tickSize, "0.0001");
    assert.equal(await marketReads(), before, "no read: the stream taught it");
  } finally {
    stream.close();
  }
});

test("a batch of orders is admitted whole by the local order budget: it waits or is refused as one unit", async () => {
  const signer = walletSigner(provider, accounts[0]);
  const client = newClient({ rateLimits: { "order-burst": { requests: 5, windowMs: 60_000 } }, maxQueueMs: 1 });
  await client.createApiKey(signer);
  const low = Math.round((market.bestBid - 0.02) * 100) / 100;
  const signed = [];
  for (const size of [5, 6, 7, 8, 9, 10]) {
    signed.push(await client.signOrder(await client.buildOrder({ tokenId: market.tokenId, side: "BUY", price: low, size }), signer));
  }
  const batches = async () => (await admin("GET", "/__admin/requests?path=/orders")).requests.filter((r) => r.method === "POST" && r.path === "/orders");
  // Six entries never fit a budget of five: refused at once, nothing sent.
  const tooMany = await rejectsWith(assert, client.postOrders(signed), "RATE_LIMITED");
  assert.equal(tooMany.status, undefined, "refused locally");
  assert.equal((await batches()).length, 0);
  // Three fit; three more do not fit in the two places left, though one request would.
  assert.equal((await client.postOrders(signed.slice(0, 3))).length, 3);
  await rejectsWith(assert, client.postOrders(signed.slice(3, 6)), "RATE_LIMITED");
  assert.equal((await batches()).length, 1, "the second batch was not sent");
  // Two still fit, then nothing does.
  assert.equal((await client.postOrders(signed.slice(3, 5))).length, 2);
  await rejectsWith(assert, client.postOrder(signed[5]), "RATE_LIMITED");
  assert.equal((await batches()).length, 2);
  // With room to wait, a batch waits for its places as one unit (a short window here).
  const waits = [];
  const patient = newClient({ rateLimits: { "order-burst": { requests: 3, windowMs: 400 } }, onEvent: (e) => e.type === "wait" && waits.push(e) });
  await patient.createApiKey(signer, 1);
  const again = [];
  for (const size of [5, 6, 7, 8]) {
    again.push(await patient.signOrder(await patient.buildOrder({ tokenId: market.tokenId, side: "BUY", price: low, size }), signer));
  }
  await patient.postOrder(again[0]);
  const started = Date.now();
  const results = await patient.postOrders(again.slice(1));
  assert.equal(results.length, 3);
  assert.deepEqual(waits.map((w) => w.path), ["/orders"], "one wait, for the batch as a whole");
  assert.ok(Date.now() - started >= 300, `waited for the first order's place to free: ${Date.now() - started} ms`);
});

test("market orders: FOK at the book's price fills; a FOK the book cannot fill is refused", async () => {
  const client = newClient();
  const signer = walletSigner(provider, accounts[0]);
  await client.createApiKey(signer);
  const draft = await client.buildMarketOrder({ tokenId: market.tokenId, side: "BUY", amount: 5 });
  assert.equal(draft.orderType, "FOK");
  assert.equal(draft.makerAmount, "5000000");
  assert.ok(Number(draft.price) >= market.bestAsk, `priced from the book: ${draft.price}`);
  const filled = await client.postOrder(await client.signOrder(draft, signer));
  assert.equal(filled.status, "matched");
  await rejectsWith(assert, client.buildMarketOrder({ tokenId: market.tokenId, side: "BUY", amount: 100_000_000 }), "NO_MATCH");
});

/**
 * A fetch that reports the markets' minimum order size as `min` (GET /clob-markets' `mos`: the dataset's
 * markets all take 5 shares or more, and issue 24's examples are smaller), and keeps the orders posted in
 * `posted`.
 */
const withMinimum = (min, posted) => async (url, init) => {
  if (init?.method === "POST" && new URL(url).pathname === "/order") posted.push(JSON.parse(init.body).order);
  const res = await fetch(url, init);
  if (!new URL(url).pathname.startsWith("/clob-markets/")) return res;
  const info = await res.json();
  return new Response(JSON.stringify({ ...info, mos: min }), { status: res.status, headers: { "content-type": "application/json" } });
};

/** Units cut (never rounded up) to 4 decimals. */
const cut4 = (units) => units - (units % 100n);

test("FOK and FAK orders carry the decimals the service takes for them at any tick (issue 24)", async () => {
  const sent = [];
  const client = newClient({ fetch: withMinimum(0, sent) });
  const signer = walletSigner(provider, accounts[0]);
  await client.createApiKey(signer);
  const on = (m) => ({ tokenId: m.tokenId, conditionId: m.conditionId });

  // A FOK buy of 1.74 at 0.58 would pay 1.0092 (a FOK maker takes 2 decimals): refused, naming 1.5 and 2;
  // before, it was built with makerAmount 1009200. As GTC it rests, and is built as asked.
  const fok = { ...on(market), side: "BUY", price: 0.58, size: 1.74, orderType: "FOK" };
  const refused = await rejectsWith(assert, client.placeOrder(fok, signer), "INVALID_PARAMS");
  assert.equal(refused.param, "size");
  assert.match(refused.message, /nearest exact sizes: 1\.5 and 2$/, refused.message);
  const gtc = await client.buildOrder({ ...fok, orderType: "GTC" });
  assert.deepEqual([gtc.makerAmount, gtc.takerAmount], ["1009200", "1740000"]);
  const exact = await client.buildOrder({ ...fok, size: 1.5 });
  assert.deepEqual([exact.makerAmount, exact.takerAmount], ["870000", "1500000"]);
  // A FAK sell takes cash of 4 decimals: 12.34 at 0.487 (6.00958) is refused on the 0.001 tick.
  const sell = await rejectsWith(assert, client.buildOrder({ ...on(fine), side: "SELL", price: 0.487, size: 12.34, orderType: "FAK" }), "INVALID_PARAMS");
  assert.match(sell.message, /12\.3 and 12\.4$/, sell.message);
  assert.deepEqual(await orderRequests(), [], "no refused order reached the service");

  // Market orders on the 0.001 tick: the taker amount is cut to 4 decimals (before: 10131970 and 1340).
  const buy = await client.buildMarketOrder({ ...on(fine), side: "BUY", amount: 9.98, orderType: "FAK", price: 0.985 });
  assert.deepEqual([buy.makerAmount, buy.takerAmount, buy.shares], ["9980000", "10131900", "10.1319"]);
  const dust = await client.buildMarketOrder({ ...on(fine), side: "SELL", amount: 0.67, orderType: "FAK", price: 0.002 });
  assert.deepEqual([dust.makerAmount, dust.takerAmount, dust.cash], ["670000", "1300", "0.0013"]);
  await rejectsWith(assert, client.buildMarketOrder({ ...on(fine), side: "SELL", amount: 0.04, price: 0.001 }), "INVALID_PARAMS");
  await rejectsWith(assert, client.buildMarketOrder({ ...on(fine), side: "BUY", amount: 5, orderType: "GTD" }), "INVALID_PARAMS");

  // A FAK buy priced from the book, and one with a worst price a little above it: both accepted.
  const fromBook = await client.buildMarketOrder({ ...on(fine), side: "BUY", amount: 9.98, orderType: "FAK" });
  assert.equal(BigInt(fromBook.takerAmount) % 100n, 0n, fromBook.takerAmount);
  const filled = await client.postOrder(await client.signOrder(fromBook, signer));
  assert.equal(filled.success, true, filled.errorMsg);
  assert.equal(filled.status, "matched");
  const worst = Math.round((fine.bestAsk + 0.004) * 1000) / 1000;
  const placed = await client.placeMarketOrder({ ...on(fine), side: "BUY", amount: 9.98, orderType: "FAK", price: worst }, signer);
  assert.equal(placed.success, true, placed.errorMsg);
  assert.equal((await orderRequests()).length, 2);
  assert.equal(sent.length, 2);
  assert.equal(sent[1].makerAmount, "9980000");
  assert.equal(BigInt(sent[1].takerAmount), cut4((9_980_000n * 1_000_000n) / BigInt(Math.round(worst * 1e6))));
});

test("a batch of orders is placed in one request; a version change is followed once", async () => {
  const client = newClient();
  const signer = walletSigner(provider, accounts[0]);
  await client.createApiKey(signer);
  const low = Math.round((market.bestBid - 0.02) * 100) / 100;
  const signed = [];
  for (const size of [5, 6, 7]) {
    signed.push(await client.signOrder(await client.buildOrder({ tokenId: market.tokenId, side: "BUY", price: low, size }), signer));
  }
  const results = await client.postOrders(signed);
  assert.equal(results.length, 3);
  assert.ok(results.every((r) => r.success && r.status === "live"), JSON.stringify(results));
  await rejectsWith(assert, client.postOrders([]), "INVALID_PARAMS");
  await rejectsWith(assert, client.postOrders(Array(16).fill(signed[0])), "INVALID_PARAMS");

  // The exchange moves to V1: the client's V2 order is refused, it re-reads /version and signs a V1 order.
  assert.equal(await client.getVersion(), 2);
  await admin("POST", "/__admin/version", { version: 1 });
  const placed = await client.placeOrder({ tokenId: market.tokenId, side: "BUY", price: low, size: 8 }, signer);
  assert.equal(placed.success, true, placed.errorMsg);
  const posts = await orderRequests();
  assert.equal(posts.length, 2, "one refused V2 post, one V1 post");
  assert.equal(await client.getVersion(), 1);
  // A stale signed order is refused by the service, not retried.
  const e = await rejectsWith(assert, client.postOrder(signed[0]), "API");
  assert.match(e.body, /order_version_mismatch|duplicate/);
});

test("a GTD order rests until its expiration, then leaves the book and the account's orders", async () => {
  const client = newClient();
  const signer = walletSigner(provider, accounts[0]);
  await client.createApiKey(signer);
  const low = Math.round((market.bestBid - 0.02) * 100) / 100;
  const sizeAt = async (price) =>
    (await client.getOrderBook(market.tokenId)).bids.filter((l) => Number(l.price) === price).reduce((n, l) => n + Number(l.size), 0);
  const restingBefore = await sizeAt(low);
  const expiration = Math.floor(Date.now() / 1000) + 90;
  const draft = await client.buildOrder({ tokenId: market.tokenId, side: "BUY", price: low, size: 5, orderType: "GTD", expiration });
  assert.equal(draft.expiration, String(expiration));
  const placed = await client.postOrder(await client.signOrder(draft, signer), "GTD");
  assert.equal(placed.success, true, placed.errorMsg);
  assert.deepEqual((await client.getOpenOrders()).data.map((o) => [o.id, o.order_type, o.expiration]), [
    [placed.orderID, "GTD", String(expiration)],
  ]);
  assert.equal(await sizeAt(low), restingBefore + 5, "the order rests on the book");
  // Ninety seconds later (the emulator's order clock moved ahead): expired, gone from the account and the book.
  await admin("POST", "/__admin/clock", { advanceSecs: 91 });
  assert.deepEqual((await client.getOpenOrders()).data, []);
  const { order } = await client.getOrder(placed.orderID);
  assert.equal(order.status, "CANCELED", "an expired order reads as canceled");
  assert.equal(await sizeAt(low), restingBefore, "and left the book");
  // An expiration less than a minute ahead is refused locally, with nothing sent.
  const before = (await orderRequests()).length;
  await rejectsWith(assert, client.buildOrder({ tokenId: market.tokenId, side: "BUY", price: low, size: 5, orderType: "GTD", expiration: Math.floor(Date.now() / 1000) + 30 }), "INVALID_PARAMS");
  assert.equal((await orderRequests()).length, before);
});

test("viem and ethers signers (the real libraries, with development keys) create keys and place orders the service accepts", async () => {
  const { privateKeyToAccount } = await import("viem/accounts");
  const { createWalletClient, http } = await import("viem");
  const { polygonAmoy } = await import("viem/chains");
  const { Wallet } = await import("ethers");
  const { viemSigner, ethersSigner } = await import(`${PKG_DIR}/signers.mjs`);
  // Development keys #2 and #3 of the local chains' well-known set (the emulator's wallet holds the same).
  const viemAccount = privateKeyToAccount("0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a");
  const wallet = new Wallet("0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6");
  // A viem wallet client (its transport is never used: typed data is signed by the local account).
  const walletClient = createWalletClient({ account: viemAccount, chain: polygonAmoy, transport: http("http://127.0.0.1:9") });
  const signers = [
    ["viem account", viemSigner(viemAccount)],
    ["viem wallet client", viemSigner(walletClient)],
    ["ethers Wallet", await ethersSigner(wallet)],
  ];
  assert.equal(signers[0][1].address, "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC");
  assert.equal(signers[2][1].address, "0x90F79bf6EB2c4f870365E785982E1f101E93b906");
  const price = Math.round((market.bestBid + 0.01) * 100) / 100;
  for (const [name, signer] of signers) {
    await admin("POST", "/__admin/reset");
    // Key #2's account trades through its Safe (the emulator's starting accounts), so its own address holds
    // nothing and the service refuses these EOA orders ("not enough balance / allowance"): it trades as an EOA here.
    await admin("POST", "/__admin/wallets", { owner: signer.address, kind: "EOA" });
    const client = newClient();
    const key = await client.createOrDeriveApiKey(signer);
    assert.equal(key.address, signer.address, name);
    const placed = await client.placeOrder({ tokenId: market.tokenId, side: "BUY", price, size: 5 }, signer);
    assert.equal(placed.success, true, `${name}: ${placed.errorMsg}`);
    assert.equal(placed.status, "live", name);
    const open = await client.getOpenOrders();
    assert.deepEqual(open.data.map((o) => o.id), [placed.orderID], name);
  }
  // A signer whose library signs something else than the document it was handed would be refused above:
  // the service recovers the signer from its own hash of the order (emulator/src/trading/typed_data.rs).
});

test("an order is read once and checked before anything is sent; the wallet's wait ends on abort, or never with Infinity", async () => {
  const client = newClient();
  const signer = walletSigner(provider, accounts[0]);
  await client.createApiKey(signer);
  const low = Math.round((market.bestBid - 0.02) * 100) / 100;
  // The caller's params change while the order is on its way: the order placed is the one asked for.
  const params = { tokenId: market.tokenId, side: "BUY", price: low, size: market.minSize };
  const placing = client.placeOrder(params, signer);
  params.price = Math.round((market.bestBid - 0.01) * 100) / 100;
  params.side = "SELL";
  const placed = await placing;
  assert.equal(placed.success, true, placed.errorMsg);
  const { order } = await client.getOrder(placed.orderID);
  assert.deepEqual([order.side, Number(order.price)], ["BUY", low]);

  // The call's extraQuery goes with every request of a placing: the reads it needs and the POST.
  await admin("DELETE", "/__admin/requests");
  const traced = newClient();
  await traced.deriveApiKey(signer);
  await admin("DELETE", "/__admin/requests");
  const placedTraced = await traced.placeOrder(
    { tokenId: market.tokenId, side: "BUY", price: low, size: market.minSize },
    signer,
    { extraQuery: { trace: "t1" } },
  );
  assert.equal(placedTraced.success, true, placedTraced.errorMsg);
  // (The wallet's own signing request, POST /wallet, is the signer's, not the client's.)
  const sent = (await admin("GET", "/__admin/requests")).requests.filter((r) => r.path !== "/wallet");
  assert.deepEqual(
    sent.map((r) => `${r.method} ${r.path.startsWith("/clob-markets/") ? "/clob-markets/{id}" : r.path}`),
    ["GET /version", "GET /book", "GET /clob-markets/{id}", "POST /order"],
  );
  for (const r of sent) assert.match(String(r.query ?? ""), /(^|&)trace=t1(&|$)/, `${r.method} ${r.path} carries the call's extraQuery`);

  // A signer whose address is not one: refused before the version, the book or the market is read.
  await admin("DELETE", "/__admin/requests");
  const fresh = newClient();
  const e = await rejectsWith(assert, fresh.placeOrder(params, { address: "0xnope", signTypedData: () => "" }), "INVALID_PARAMS");
  assert.equal(e.param, "signer.address");
  assert.deepEqual((await admin("GET", "/__admin/requests")).requests, [], "nothing was sent");

  // placeOrder's options are the call's: a postOnly there changes nothing (and is not read).
  const crossing = await client.placeOrder(
    { tokenId: market.tokenId, side: "BUY", price: market.bestAsk, size: market.minSize },
    signer,
    { postOnly: "yes" },
  );
  assert.equal(crossing.success, true, crossing.errorMsg);

  // The call aborted while the wallet is being asked (from inside signTypedData): ABORTED at once.
  const controller = new AbortController();
  const aborting = { address: accounts[0], signTypedData: () => (controller.abort(), new Promise(() => {})) };
  const started = Date.now();
  await rejectsWith(assert, newClient({ signTimeoutMs: 60_000 }).signOrder(await client.buildOrder(params), aborting, { signal: controller.signal }), "ABORTED");
  assert.ok(Date.now() - started < 2_000, "the abort ended the wait");
  // signTimeoutMs: Infinity waits for the wallet, however long it takes.
  const late = { address: accounts[0], signTypedData: async (td) => (await new Promise((r) => setTimeout(r, 300)), signer.signTypedData(td)) };
  const signed = await newClient({ signTimeoutMs: Infinity }).signOrder(await client.buildOrder(params), late);
  assert.match(signed.signature, /^0x[0-9a-f]{130}$/);
});

test("a neg-risk market's order is signed for the neg-risk exchange, placed, matched by another account and cancelled", async () => {
  const found = await firstMarket(async (m) => {
    if (!m.accepting_orders || !m.neg_risk) return undefined;
    const tokenId = m.tokens[0].token_id;
    const info = await (await fetch(`${EMULATOR}/clob-markets/${m.condition_id}`)).json();
    const book = await (await fetch(`${EMULATOR}/book?token_id=${tokenId}`)).json();
    if (info.mts !== 0.01 || !book.bids.length || !book.asks.length) return undefined;
    const bid = Math.max(...book.bids.map((l) => Number(l.price)));
    const ask = Math.min(...book.asks.map((l) => Number(l.price)));
    return ask - bid >= 0.03 ? { tokenId, price: Math.round((bid + 0.01) * 100) / 100, minSize: info.mos } : undefined;
  });
  assert.ok(found, "an open neg-risk market on a 0.01 tick with a spread");
  const alice = newClient();
  const aliceSigner = walletSigner(provider, accounts[0]);
  await alice.createApiKey(aliceSigner);
  const size = Math.max(10, found.minSize * 2);
  const draft = await alice.buildOrder({ tokenId: found.tokenId, side: "BUY", price: found.price, size });
  assert.equal(draft.negRisk, true);
  const placed = await alice.postOrder(await alice.signOrder(draft, aliceSigner));
  // The emulator takes the signature only under the market's exchange: the neg-risk one.
  assert.equal(placed.status, "live", placed.errorMsg);
  const bob = newClient();
  const bobSigner = walletSigner(provider, accounts[1]);
  await bob.createApiKey(bobSigner);
  await holdShares(bob, bobSigner, found.tokenId, size / 2);
  const taken = await bob.placeOrder({ tokenId: found.tokenId, side: "SELL", price: found.price, size: size / 2, orderType: "FAK" }, bobSigner);
  assert.equal(taken.status, "matched", JSON.stringify(taken));
  const { order } = await alice.getOrder(placed.orderID);
  assert.equal(Number(order.sizeMatched), size / 2);
  assert.deepEqual((await alice.cancelOrder(placed.orderID)).canceled, [placed.orderID]);
});
