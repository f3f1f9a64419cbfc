// Following an order against the emulator, whose trades settle on their own (MATCHED, MINED, CONFIRMED; or
// RETRYING, FAILED): trackOrder tells every state of an order exactly once, through the user channel, through a
// dropped socket (the message it missed comes from a read) and with no socket at all; waitForSettlement resolves
// when every trade of a post answer is final, and times out as told; hostile arguments are refused at once.
import { test, before, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { pk, EMULATOR, PKG_DIR, rejectsWith, admin as adminAt, devWallet, spreadMarket, holdShares } from "./helpers.mjs";

const { walletSigner } = await import(`${PKG_DIR}/signers.mjs`);
const admin = (method, path, body) => adminAt(EMULATOR, method, path, body);
const wallet = devWallet();

let accounts;
let market;

before(async () => {
  accounts = await wallet.request({ method: "eth_requestAccounts" });
  const m = await spreadMarket();
  market = { tokenId: m.tokenId, price: Math.round((m.bid + 0.01) * 100) / 100, minSize: m.minSize };
});
beforeEach(() => admin("POST", "/__admin/reset"));

async function trader(i) {
  const client = new pk.Client({ baseUrl: EMULATOR, chainId: 80002, rateLimits: false });
  const signer = walletSigner(wallet, accounts[i]);
  await client.createOrDeriveApiKey(signer);
  return { client, signer };
}

/** One line per update: its type, and a trade's status. */
const line = (u) => (u.type === "trade" ? `trade ${u.status}` : u.type === "matched" ? `matched ${u.sizeMatched}/${u.originalSize}` : u.type);

/**
 * A resting buy of 10 followed; another account sells 5 into it (one trade, which settles), then the rest is
 * cancelled. `between` runs after the fill (to drop the socket). Returns the updates told.
 */
async function restingFilledThenCancelled(options, between = async () => {}) {
  const alice = await trader(0);
  const bob = await trader(1);
  const size = Math.max(10, market.minSize * 2);
  const placed = await alice.client.placeOrder({ tokenId: market.tokenId, side: "BUY", price: market.price, size }, alice.signer);
  assert.equal(placed.status, "live");
  assert.deepEqual(placed.tradeIDs, []);
  const updates = [];
  const tracker = alice.client.trackOrder(placed, { pollMs: 200, ...options });
  const collected = (async () => {
    for await (const u of tracker) updates.push(u);
  })();
  await until(() => updates.some((u) => u.type === "placed"));
  await holdShares(bob.client, bob.signer, market.tokenId, size / 2);
  const sold = await bob.client.placeOrder({ tokenId: market.tokenId, side: "SELL", price: market.price, size: size / 2, orderType: "FAK" }, bob.signer);
  assert.equal(sold.status, "matched");
  assert.equal(sold.tradeIDs.length, 1, "the post answer names its trade");
  await between();
  await until(() => updates.some((u) => u.type === "trade" && u.status === "CONFIRMED"), 10_000);
  await alice.client.cancelOrder(placed.orderID);
  await collected;
  const settled = await tracker.done;
  assert.equal(settled.type, "settled");
  assert.deepEqual(settled.trades.map((t) => t.status), ["CONFIRMED"]);
  assert.match(settled.trades[0].transactionHash, /^0x[0-9a-f]{64}$/);
  alice.client.free();
  bob.client.free();
  return { lines: updates.map(line), size };
}

async function until(what, ms = 5_000) {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) if (what()) return;
  assert.fail("timed out");
}

test("trackOrder through the user channel tells each state of an order once: placed, matched, each trade's settlement, cancelled, settled", async () => {
  const { lines, size } = await restingFilledThenCancelled({});
  assert.deepEqual(lines, ["placed", `matched ${size / 2}/${size}`, "trade MATCHED", "trade MINED", "trade CONFIRMED", "cancelled", "settled"]);
});

test("through a dropped socket the missed changes come from the reads, none told twice", async () => {
  // The user socket is cut instead of sending the next message after the fill (the trade's MINED, most likely).
  const drop = () => admin("POST", "/__admin/stream/faults", { path: "/ws/user", faults: ["drop"] });
  const { lines, size } = await restingFilledThenCancelled({}, drop);
  const { rules } = await admin("GET", "/__admin/stream/faults");
  assert.equal(rules[0].injected, 1, `the socket was cut: ${JSON.stringify(rules)}`);
  // A step the socket missed (MINED, when the cut came before it and the catch-up read after CONFIRMED) is
  // not told; everything else is, once, in order.
  const expected = ["placed", `matched ${size / 2}/${size}`, "trade MATCHED", "trade MINED", "trade CONFIRMED", "cancelled", "settled"];
  assert.deepEqual(lines, expected.filter((l) => l !== "trade MINED" || lines.includes(l)));
});

test("with no socket at all, the reads alone tell the same states once", async () => {
  const { lines } = await restingFilledThenCancelled({ stream: false });
  // A read may see the trade mined already: its MATCHED is then never told; what is told is in order, once each.
  const seen = lines.filter((l, i) => lines.indexOf(l) === i);
  assert.deepEqual(seen, lines, "nothing twice");
  for (const must of ["placed", "trade CONFIRMED", "cancelled", "settled"]) assert.ok(lines.includes(must), lines.join());
  assert.ok(lines.indexOf("trade CONFIRMED") < lines.indexOf("settled"));
});

/** Two traders, each with its user channel open and its events collected. */
async function listeningPair() {
  const alice = await trader(0);
  const bob = await trader(1);
  const events = { alice: [], bob: [] };
  const streams = [
    alice.client.userStream([], { WebSocket, onEvent: (e) => events.alice.push(e) }),
    bob.client.userStream([], { WebSocket, onEvent: (e) => events.bob.push(e) }),
  ];
  await until(() => events.alice.some((e) => e.status === "open") && events.bob.some((e) => e.status === "open"));
  return { alice, bob, events, streams };
}

/** Millionths of a decimal text ("0.45" -> 450000). */
const units = (text) => Math.round(Number(text) * 1e6);
/** Millionths as the service writes them (no trailing zeros). */
const decimal = (u) => (u % 1e6 === 0 ? String(u / 1e6) : `${Math.floor(u / 1e6)}.${String(u % 1e6).padStart(6, "0").replace(/0+$/, "")}`);

test("the account as maker on the complementary token: its fill is on its own token, at the service's off-grid price", async () => {
  // Trades stay MATCHED for the test (nothing settles under it).
  await admin("POST", "/__admin/settlement", { minedAfterMs: 600_000, confirmedAfterMs: 600_000 });
  // A market with room between its books: a buy of NO at q that rests (under NO's best ask), whose complement
  // 1 - q is under YES's best ask (so a buy of YES there meets no ask of YES's own book) and where the
  // service's float arithmetic writes the maker's price off the tick grid (1 - (1 - q) is not q in f64).
  const page = await (await fetch(`${EMULATOR}/markets`)).json();
  let found;
  for (const m of page.data ?? []) {
    if (found || m.accepting_orders !== true || m.tokens?.length !== 2) continue;
    const [yes, no] = await Promise.all(m.tokens.map(async (t) => ({ id: t.token_id, outcome: t.outcome, book: await (await fetch(`${EMULATOR}/book?token_id=${t.token_id}`)).json() })));
    // Asks descending, bids ascending: the best last.
    const bestAsk = (b) => (b.asks?.length ? units(b.asks[b.asks.length - 1].price) : undefined);
    const [yesAsk, noAsk] = [bestAsk(yes.book), bestAsk(no.book)];
    const [yesTick, noTick] = [units(yes.book.tick_size), units(no.book.tick_size)];
    if (!yesAsk || !noAsk || Number(yes.book.min_order_size) > 8 || Number(no.book.min_order_size) > 8) continue;
    for (let q = noTick; q < noAsk; q += noTick) {
      if (1e6 - q < yesAsk && (1e6 - q) % yesTick === 0 && String(1 - (1e6 - q) / 1e6) !== decimal(q)) {
        found = { yes, no, q };
        break;
      }
    }
  }
  assert.ok(found, "a market with room between its books");
  const { yes, no, q } = found;
  const makerPrice = String(1 - (1e6 - q) / 1e6);

  const { alice, bob, events, streams } = await listeningPair();
  try {
    const resting = await alice.client.placeOrder({ tokenId: no.id, side: "BUY", price: q / 1e6, size: 20 }, alice.signer);
    assert.equal(resting.status, "live");
    // Bob buys YES at 1 - q: it meets Alice's buy of NO (the two are minted together).
    const taken = await bob.client.placeOrder({ tokenId: yes.id, side: "BUY", price: (1e6 - q) / 1e6, size: 12 }, bob.signer);
    assert.equal(taken.status, "matched");
    const tradeId = taken.tradeIDs[0];
    await until(() => events.alice.some((e) => e.event_type === "trade" && e.id === tradeId));
    const seen = events.alice.find((e) => e.event_type === "trade" && e.id === tradeId);
    // The top level is Bob's order (YES, BUY, 1 - q); Alice's fill is hers: NO, BUY, at the complement's float.
    assert.deepEqual([seen.asset_id, seen.side, seen.price], [yes.id, "BUY", decimal(1e6 - q)]);
    assert.deepEqual(seen.fills, [{ role: "MAKER", orderId: resting.orderID, assetId: no.id, outcome: no.outcome, side: "BUY", price: makerPrice, size: "12" }]);
    assert.ok(makerPrice.length > 10 && makerPrice !== decimal(q), `${makerPrice} is off the grid`);
    // Her trade read says the same.
    const rows = (await alice.client.getUserTrades({ id: tradeId })).data;
    assert.deepEqual(rows.map((r) => r.fills.map((f) => [f.role, f.assetId, f.side, f.price, f.size])), [[["MAKER", no.id, "BUY", makerPrice, "12"]]]);
    // Bob's side: his own order, taker, on YES.
    await until(() => events.bob.some((e) => e.event_type === "trade" && e.id === tradeId));
    const his = events.bob.find((e) => e.event_type === "trade" && e.id === tradeId);
    assert.deepEqual(his.fills.map((f) => [f.role, f.assetId, f.side, f.orderId]), [["TAKER", yes.id, "BUY", taken.orderID]]);
    await alice.client.cancelOrder(resting.orderID);
  } finally {
    for (const s of streams) s.close();
    alice.client.free();
    bob.client.free();
  }
});

test("the user channel as the service sends it: each side's own fills, a killed fill-or-kill, both forms of bucket_index", async () => {
  const size = Math.max(10, market.minSize * 2);
  const { alice, bob, events, streams } = await listeningPair();
  try {
    const placed = await alice.client.placeOrder({ tokenId: market.tokenId, side: "BUY", price: market.price, size }, alice.signer);
    const updates = [];
    const tracker = alice.client.trackOrder(placed, { pollMs: 60_000, onUpdate: (u) => updates.push(u) });
    await until(() => updates.some((u) => u.type === "placed"));
    await holdShares(bob.client, bob.signer, market.tokenId, size / 2);
    const sold = await bob.client.placeOrder({ tokenId: market.tokenId, side: "SELL", price: market.price, size: size / 2, orderType: "FAK" }, bob.signer);
    const tradeId = sold.tradeIDs[0];
    await until(() => events.alice.some((e) => e.event_type === "trade" && e.id === tradeId) && events.bob.some((e) => e.event_type === "trade" && e.id === tradeId));
    // The trade's top level is the taker's (bob's sell) in both accounts' events; each account's fills are its own.
    const seen = events.alice.find((e) => e.event_type === "trade" && e.id === tradeId);
    assert.equal(seen.side, "SELL", "the top level describes the taker's order");
    assert.deepEqual(seen.fills, [{ role: "MAKER", orderId: placed.orderID, assetId: market.tokenId, outcome: seen.outcome, side: "BUY", price: seen.maker_orders[0].price, size: seen.maker_orders[0].matched_amount }]);
    const taken = events.bob.find((e) => e.event_type === "trade" && e.id === tradeId);
    assert.deepEqual(taken.fills.map((f) => [f.role, f.side, f.orderId]), [["TAKER", "SELL", sold.orderID]]);
    // getUserTrades rows carry the same sides.
    const rows = (await alice.client.getUserTrades({ id: tradeId })).data;
    assert.deepEqual(rows.map((r) => r.fills.map((f) => [f.role, f.side, f.orderId])), [[["MAKER", "BUY", placed.orderID]]]);
    assert.deepEqual(alice.client.fills(rows[0]), rows[0].fills);
    assert.deepEqual(new pk.Client({ baseUrl: EMULATOR }).fills(rows[0]), [], "no credentials: nothing is known to be the account's");
    // The tracked order was told matched at the trade, with the trade's amount.
    await until(() => updates.some((u) => u.type === "matched"));
    assert.equal(updates.find((u) => u.type === "matched").sizeMatched, String(size / 2));
    tracker.stop();

    // A fill-or-kill the book cannot fill (a buy the account can pay for, no ask at or under its price): refused,
    // and killed on the channel with the service's reason.
    await rejectsWith(assert, bob.client.placeMarketOrder({ tokenId: market.tokenId, side: "BUY", amount: 50, orderType: "FOK", price: market.price }, bob.signer), "API");
    await until(() => events.bob.some((e) => e.event_type === "order" && e.type === "CANCELLATION"));
    const killed = events.bob.find((e) => e.event_type === "order" && e.type === "CANCELLATION");
    assert.equal(killed.status, "CANCELED_order couldn't be fully filled. FOK orders are fully filled or killed.");
    assert.deepEqual([killed.size_matched, killed.created_at], ["", ""]);
    // bucket_index comes as a number or as text: both are read.
    const trades = [...events.alice, ...events.bob].filter((e) => e.event_type === "trade");
    assert.ok(trades.length >= 2);
    assert.ok(trades.every((e) => typeof e.bucket_index === "number" || /^\d+$/.test(e.bucket_index)), JSON.stringify(trades.map((e) => e.bucket_index)));
  } finally {
    for (const s of streams) s.close();
  }
});

test("waitForSettlement resolves when every trade of the answer is final, failed ones counted; and times out", async () => {
  const alice = await trader(0);
  const bob = await trader(1);
  const size = Math.max(10, market.minSize * 2);
  const rest = () => alice.client.placeOrder({ tokenId: market.tokenId, side: "BUY", price: market.price, size }, alice.signer);
  const take = () => bob.client.placeOrder({ tokenId: market.tokenId, side: "SELL", price: market.price, size: size / 2, orderType: "FAK" }, bob.signer);
  // The shares of Bob's three sells, bought first (before the settlement is told to fail the next trade).
  await holdShares(bob.client, bob.signer, market.tokenId, (size / 2) * 3);
  await rest();
  const taken = await take();
  const settled = await bob.client.waitForSettlement(taken);
  assert.equal(settled.failed, 0);
  assert.deepEqual(settled.trades.map((t) => [t.tradeId, t.status]), [[taken.tradeIDs[0], "CONFIRMED"]]);

  await admin("POST", "/__admin/settlement", { failNext: 1 });
  const failing = await take();
  const failed = await bob.client.waitForSettlement(failing, { pollMs: 100 });
  assert.equal(failed.failed, 1);
  assert.equal(failed.trades[0].status, "FAILED");

  // A resting order that took nothing has nothing to settle.
  const resting = await rest();
  assert.deepEqual((await alice.client.waitForSettlement(resting)).trades, []);

  await admin("POST", "/__admin/settlement", { minedAfterMs: 60_000, confirmedAfterMs: 60_000 });
  const slow = await take();
  const started = Date.now();
  const e = await rejectsWith(assert, bob.client.waitForSettlement(slow, { timeoutMs: 600 }), "TIMEOUT");
  assert.ok(Date.now() - started < 3_000, `${Date.now() - started} ms`);
  assert.match(e.message, /settled/);
  alice.client.free();
  bob.client.free();
});

test("hostile arguments are refused at once; a signal or stop() ends a tracker; a throwing listener changes nothing", async () => {
  const { client, signer } = await trader(0);
  for (const [order, options, param] of [
    ["not an id", undefined, "order"],
    [{ orderID: "" }, undefined, "order"],
    [5, undefined, "order"],
    ["0xabc", { pollMs: 5 }, "pollMs"],
    ["0xabc", { onUpdate: 1 }, "onUpdate"],
    ["0xabc", { stream: "yes" }, "stream"],
    ["0xabc", { signal: {} }, "signal"],
    [new Proxy({}, { get() { throw new Error("trap"); } }), undefined, "order"],
  ]) {
    const e = await rejectsWith(assert, () => client.trackOrder(order, options), "INVALID_PARAMS");
    assert.equal(e.param, param, JSON.stringify(options));
  }
  await rejectsWith(assert, client.waitForSettlement("0xabc"), "INVALID_PARAMS");
  await rejectsWith(assert, () => new pk.Client({ baseUrl: EMULATOR }).trackOrder("0xabc"), "UNAUTHORIZED");
  // An order the service does not know: the tracker ends with its NOT_FOUND.
  await rejectsWith(assert, client.trackOrder("0x" + "ab".repeat(32), { stream: false }).done, "NOT_FOUND");

  const placed = await client.placeOrder({ tokenId: market.tokenId, side: "BUY", price: market.price, size: Math.max(10, market.minSize) }, signer);
  const ctl = new AbortController();
  const heard = [];
  const tracker = client.trackOrder(placed, { signal: ctl.signal, onUpdate: (u) => { heard.push(u.type); throw new Error("listener"); } });
  await until(() => heard.includes("placed"));
  ctl.abort();
  await rejectsWith(assert, tracker.done, "ABORTED");
  const stopped = client.trackOrder(placed.orderID, { stream: false });
  for await (const u of stopped) if (u.type === "placed") break;
  assert.equal(await stopped.done, undefined, "stopped before it settled");
  client.free();

  // A read that never answers does not hold a stopped tracker: it is abandoned at once.
  const creds = (await admin("GET", "/__admin/accounts")).find((a) => a.nonce !== undefined);
  const hanging = new pk.Client({
    baseUrl: EMULATOR, rateLimits: false, timeoutMs: 600_000, credentials: creds,
    fetch: (url, init) => (String(url).includes("/data/order/") ? new Promise(() => {}) : fetch(url, init)),
  });
  const stuck = hanging.trackOrder(placed.orderID, { stream: false });
  await new Promise((r) => setTimeout(r, 100));
  const started = Date.now();
  stuck.stop();
  assert.equal(await stuck.done, undefined);
  assert.ok(Date.now() - started < 500, `${Date.now() - started} ms to stop`);
  hanging.free();
});

test("a tracker whose client is freed ends with FREED at its next step and reads nothing more", async () => {
  const { client, signer } = await trader(0);
  const placed = await client.placeOrder({ tokenId: market.tokenId, side: "BUY", price: market.price, size: Math.max(10, market.minSize) }, signer);
  const reads = [];
  // The same account through a client whose fetch records the tracker's reads.
  const creds = (await adminAt(EMULATOR, "GET", "/__admin/accounts")).find((a) => a.nonce !== undefined);
  const watched = new pk.Client({
    baseUrl: EMULATOR, rateLimits: false, credentials: creds,
    fetch: (url, init) => (reads.push(String(url)), fetch(url, init)),
  });
  const tracked = watched.trackOrder(placed.orderID, { stream: false, pollMs: 100 });
  await until(() => reads.filter((u) => u.includes("/data/order/")).length >= 3);
  watched.free();
  const e = await rejectsWith(assert, tracked.done, "FREED");
  assert.match(e.message, /freed/);
  const after = reads.length;
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(reads.length, after, "no read after the client was freed");
  await client.cancelAll();
  client.free();
});
