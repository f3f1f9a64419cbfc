// The list methods' page promise against the emulator, through the built Node package: every list
// iterated to its end with `for await`, and one page awaited with hasNextPage() / getNextPage().
import { test } from "node:test";
import assert from "node:assert/strict";
import { pk, EMULATOR, entry } from "./helpers.mjs";

const client = new pk.Client({ baseUrl: EMULATOR });

async function drain(iterable) {
  const items = [];
  for await (const item of iterable) items.push(item);
  return items;
}

function unique(items, key) {
  return new Set(items.map((i) => i[key])).size;
}

test("getMarkets iterated walks all CLOB markets by cursor", async () => {
  const pages = [];
  const markets = await drain(client.getMarkets(undefined, { onPage: (info) => pages.push(info) }));
  assert.ok(markets.length >= 10_000, `${markets.length} markets`);
  assert.equal(unique(markets, "condition_id"), markets.length);
  assert.equal(pages.at(-1).done, true);
  assert.equal(pages.at(-1).total, markets.length);
  assert.equal(pages.reduce((n, p) => n + p.items, 0), markets.length);
  assert.ok(pages.length > 10, "many pages");
});

test("getSamplingMarkets iterated reaches the end", async () => {
  const markets = await drain(client.getSamplingMarkets());
  assert.ok(markets.length > 0);
  assert.equal(unique(markets, "condition_id"), markets.length);
  const first = await client.getSamplingMarkets();
  assert.deepEqual(markets.slice(0, first.data.length), first.data);
});

for (const [name, params, key, least] of [
  ["getEvents", {}, "id", 2000],
  ["getSeries", {}, "id", 1],
  ["getEventCreators", {}, "id", 1],
  ["getComments", {}, "id", 1],
]) {
  test(`${name} iterated walks every page by offset`, async () => {
    const items = await drain(client[name](params));
    assert.ok(items.length >= least, `${items.length} items`);
    assert.equal(unique(items, key), items.length, "no duplicates across pages");
  });
}

test("getTrades iterated stops at the route's offset bound or the end", async () => {
  const trades = await drain(client.getTrades({ side: "SELL" }));
  assert.ok(trades.length > 0);
  assert.ok(trades.every((t) => t.side === "SELL"));
  assert.ok(trades.length <= 10_000 + 500);
});

test("getClosedPositions iterated walks a wallet's exits", async () => {
  const [trade] = await client.getTrades({ limit: 1 });
  const positions = await drain(client.getClosedPositions({ user: trade.proxyWallet }));
  assert.ok(positions.length > 0, "the wallet has closed positions");
  assert.ok(positions.every((p) => p.proxyWallet.toLowerCase() === trade.proxyWallet.toLowerCase()));
});

test("maxItems bounds an iteration and break stops it", async () => {
  const some = await drain(client.getEvents({ active: true }, { maxItems: 150 }));
  assert.equal(some.length, 150);
  let seen = 0;
  for await (const _ of client.getMarkets()) {
    if (++seen === 3) break;
  }
  assert.equal(seen, 3);
});

test("each for await is a fresh iteration, and bad options throw when it starts", async () => {
  const series = client.getSeries({ limit: 2 }, { maxItems: 3 });
  const once = await drain(series);
  const twice = await drain(series);
  assert.equal(once.length, 3);
  assert.deepEqual(twice, once);
  const bad = client.getEvents({}, { maxItems: 1.5 });
  assert.throws(() => bad[Symbol.asyncIterator](), (e) => e.code === "INVALID_PARAMS" && e.param === "maxItems");
});

test("an awaited list is one page, sent once however often it is awaited, with the way to the next", async () => {
  const sent = [];
  const counting = new pk.Client({ baseUrl: EMULATOR, fetch: (url, init) => (sent.push(url), fetch(url, init)) });
  const pending = counting.getEvents({ active: true, limit: 5 });
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(sent.length, 0, "nothing is sent before it is awaited or iterated");
  const first = await pending;
  const again = await pending;
  assert.equal(first, again);
  assert.equal(sent.length, 1);
  assert.ok(Array.isArray(first) && first.length === 5);
  assert.deepEqual(Object.keys(first), ["0", "1", "2", "3", "4"], "the page's methods are not enumerable");
  assert.equal(JSON.stringify(first), JSON.stringify([...first]));
  assert.equal(first.hasNextPage(), true);
  const second = await first.getNextPage();
  assert.equal(second.length, 5);
  assert.match(sent[1], /offset=5/);
  assert.ok(second.every((e) => !first.some((f) => f.id === e.id)), "the next page moved on");
  // The same two pages as one iteration of pages of 5.
  const iterated = await drain(counting.getEvents({ active: true, limit: 5 }, { maxItems: 10 }));
  assert.deepEqual(iterated.map((e) => e.id), [...first, ...second].map((e) => e.id));
});

test("a cursor list's page follows its next_cursor, and the last page has no next", async () => {
  let page = await client.getMarkets();
  const first = page.data[0].condition_id;
  let pages = 1;
  while (page.hasNextPage()) {
    page = await page.getNextPage();
    pages++;
    assert.ok(pages < 1_000, "the list ends");
  }
  assert.ok(pages > 1, `${pages} pages`);
  assert.ok(["", "LTE="].includes(page.next_cursor), page.next_cursor);
  assert.notEqual(page.data[0]?.condition_id, first);
  await assert.rejects(page.getNextPage(), (e) => e.code === "INVALID_PARAMS" && e.param === "getNextPage");
  const none = await client.getEvents({ limit: 5, tag_slug: "no-such-tag-anywhere" });
  assert.equal(none.length, 0);
  assert.equal(none.hasNextPage(), false);
});

test("an onPage that throws ends the iteration with its error, and a freed client's list throws FREED", async () => {
  const oops = new Error("onPage failed");
  await assert.rejects(drain(client.getEvents({ limit: 2 }, { onPage: () => { throw oops; } })), (e) => e === oops);
  const freed = new pk.Client({ baseUrl: EMULATOR });
  freed.free();
  assert.throws(() => freed.getEvents(), (e) => e.code === "FREED");
  assert.throws(() => pk.Client.prototype.getEvents.call({}), (e) => e.code === "FREED");
  // An object that only names a handle is no client: FREED, and nothing reaches wasm with its made-up handle.
  // (It throws as the freed client's methods do.)
  for (const fake of [{ __wbg_ptr: 8 }, { __wbg_ptr: 1_000_000 }]) {
    assert.throws(() => pk.Client.prototype.getOk.call(fake), (e) => e.code === "FREED");
    assert.throws(() => pk.Client.prototype.getEvents.call(fake), (e) => e.code === "FREED");
    assert.throws(() => pk.Client.prototype.getVersion.call(fake), (e) => e.code === "FREED");
    assert.throws(() => pk.Client.prototype.placeOrder.call(fake, {}, { address: "0x" + "1".repeat(40), signTypedData() {} }), (e) => e.code === "FREED");
  }
  assert.equal(new pk.Client({ baseUrl: EMULATOR }).hasCredentials, false, "the module still works");
});

test("the binding's entries read a method name and a page through bounded readers", async () => {
  const huge = "x".repeat(2_000_000);
  const started = performance.now();
  await assert.rejects(entry(client, "callRest")(huge, {}, undefined, undefined), (e) => e.code === "INVALID_PARAMS" && e.param === "method");
  assert.throws(() => entry(client, "pageStart")(huge, {}, undefined), (e) => e.code === "INVALID_PARAMS" && e.param === "method");
  assert.ok(performance.now() - started < 200, "a long name is refused without being copied");
  const cursorPage = { data: [{}], next_cursor: huge };
  assert.throws(() => entry(client, "nextPageArgument")("getMarkets", undefined, cursorPage, false), (e) => e.code === "INVALID_PARAMS" && e.param === "next_cursor");
  const trap = new Proxy([{}], { get() { throw new Error("hostile length"); } });
  assert.throws(() => entry(client, "nextPageArgument")("getEvents", {}, trap, false), (e) => e.code === "INVALID_PARAMS" && e.param === "page");
  // An iteration's start: the first page's argument (the route's largest page, or the first cursor) and
  // the options as read once; its pages: one that is not a page of the list is DECODE naming the route.
  const [argument, call, maxItems, onPage, signal, abortError] = entry(client, "pageStart")("getEvents", { limit: 2 }, { maxItems: 3 });
  assert.deepEqual([argument, call, maxItems, onPage, signal, abortError], [{ limit: 2, offset: 0 }, {}, 3, undefined, undefined, undefined]);
  assert.deepEqual(entry(client, "pageStart")("getEvents", {}, undefined)[0], { limit: 100, offset: 0 });
  const controller = new AbortController();
  const begun = entry(client, "pageStart")("getMarkets", undefined, { onPage() {}, signal: controller.signal, timeoutMs: 500 });
  assert.equal(begun[0], "MA==");
  assert.equal(typeof begun[3], "function");
  assert.equal(begun[4], controller.signal);
  assert.equal(begun[5].code, "ABORTED");
  assert.deepEqual(begun[1], { signal: controller.signal, timeoutMs: 500 });
  assert.throws(() => entry(client, "nextPageArgument")("getEvents", { limit: 2 }, trap, 2), (e) => e.code === "INVALID_PARAMS" && e.param === "page");
  assert.throws(() => entry(client, "nextPageArgument")("getEvents", { limit: 2 }, { length: 1 }, 2), (e) => e.code === "DECODE" && e.path === "/events");
  assert.throws(() => entry(client, "nextPageArgument")("getMarkets", "MA==", { data: 7 }, 2), (e) => e.code === "DECODE" && e.path === "/markets");
  assert.equal(entry(client, "nextPageArgument")("getEvents", { limit: 2 }, { length: 1 }, 0), undefined);
  assert.deepEqual(entry(client, "nextPageArgument")("getEvents", { limit: 2, offset: 0 }, [{ id: "a" }, { id: "b" }], 2), { limit: 2, offset: 2 });
  assert.equal(entry(client, "nextPageArgument")("getMarkets", "MA==", { data: [{}], next_cursor: "LTE=" }, 2), undefined);
  // A genuine page still leads on.
  assert.deepEqual(entry(client, "nextPageArgument")("getEvents", { limit: 1 }, [{}], false), { limit: 1, offset: 1 });
  assert.equal(entry(client, "nextPageArgument")("getMarkets", undefined, { data: [{}], next_cursor: "MTAw" }, false), "MTAw");
});

test("an AbortSignal stops an iteration with ABORTED and nothing more is fetched", async () => {
  const sent = [];
  const counting = new pk.Client({ baseUrl: EMULATOR, fetch: (url, init) => (sent.push(url), fetch(url, init)) });
  const controller = new AbortController();
  let seen = 0;
  let error;
  try {
    for await (const _ of counting.getMarkets(undefined, { signal: controller.signal })) {
      if (++seen === 150) controller.abort();
    }
  } catch (e) {
    error = e;
  }
  assert.equal(error?.code, "ABORTED", String(error));
  assert.ok(pk.isPredictKitError(error));
  // Two pages of 100 were fetched; the abort came during the second: the iteration stopped at once and
  // no third request was made.
  assert.equal(sent.length, 2);
  assert.equal(seen, 150);
});

test("return() while a page is on its way ends the iteration: the pending next() resolves done", async () => {
  const iterator = client.getEvents({ limit: 2 })[Symbol.asyncIterator]();
  const pending = iterator.next();
  assert.deepEqual(await iterator.return(), { done: true, value: undefined });
  assert.deepEqual(await pending, { done: true, value: undefined });
  assert.deepEqual(await iterator.next(), { done: true, value: undefined });
});

test("an iteration whose page is not a page of the list ends with DECODE naming the route, after the pages before it", async () => {
  let calls = 0;
  const odd = new pk.Client({
    baseUrl: EMULATOR,
    fetch: (url, init) => (++calls === 2 ? Promise.resolve(new Response('{"error":"none"}', { status: 200, headers: { "content-type": "application/json" } })) : fetch(url, init)),
  });
  const seen = [];
  const infos = [];
  await assert.rejects(
    (async () => {
      for await (const e of odd.getEvents({ limit: 3 }, { onPage: (i) => infos.push(i) })) seen.push(e.id);
    })(),
    (e) => e.code === "DECODE" && e.path === "/events",
  );
  assert.equal(seen.length, 3);
  assert.deepEqual(infos, [{ page: 1, items: 3, total: 3, done: false }]);
  assert.equal(calls, 2);
});

test("onPage says each page's share, the running total and the next cursor", async () => {
  const infos = [];
  const items = await drain(client.getEvents({ limit: 100 }, { maxItems: 250, onPage: (i) => infos.push(i) }));
  assert.equal(items.length, 250);
  assert.deepEqual(infos, [
    { page: 1, items: 100, total: 100, done: false },
    { page: 2, items: 100, total: 200, done: false },
    { page: 3, items: 50, total: 250, done: true },
  ]);
  const cursors = [];
  for await (const _ of client.getMarkets(undefined, { onPage: (i) => cursors.push(i) })) break;
  assert.equal(cursors.length, 1);
  assert.equal(cursors[0].done, false);
  assert.match(cursors[0].nextCursor, /^[A-Za-z0-9+/=]+$/);
  const none = await drain(client.getEvents({}, { maxItems: 0, onPage: (i) => infos.push(i) }));
  assert.deepEqual(none, []);
  assert.equal(infos.length, 3, "maxItems 0 fetches nothing");
});
