import { test } from "node:test";
import assert from "node:assert/strict";
import { pk, EMULATOR, fixture, rejectsWith } from "./helpers.mjs";

const TOKEN = "72610532355343625199299853218161700546393390326785971247545541945337255643692";

test("getOk answers OK", async () => {
  const client = new pk.Client({ baseUrl: EMULATOR });
  assert.equal(await client.getOk(), "OK");
});

test("getOrderBook returns the recorded book as a plain object", async () => {
  const client = new pk.Client({ baseUrl: EMULATOR + "/" });
  const book = await client.getOrderBook(TOKEN);
  const recorded = JSON.parse(fixture("real/clob-book-2.json"));
  assert.deepEqual(book, recorded);
});

test("getBook parses the bytes into an OrderBook", async () => {
  const client = new pk.Client({ baseUrl: EMULATOR });
  const book = await client.getBook(TOKEN);
  assert.ok(book instanceof pk.OrderBook);
  assert.deepEqual(book.bestBid(), { price: 0.002, size: 6.99 });
  assert.equal(book.bestAsk(), undefined);
  assert.equal(book.assetId, TOKEN);
  book.free();
});

test("errors carry code, status, method, path and the service's text", async () => {
  const client = new pk.Client({ baseUrl: EMULATOR });
  const e = await rejectsWith(assert, client.getOrderBook("1"), "NOT_FOUND");
  assert.equal(e.status, 404);
  assert.equal(e.method, "GET");
  assert.equal(e.path, "/book");
  assert.match(e.body, /No orderbook/);
});

test("invalid params reject before anything is sent", async () => {
  const sent = [];
  const client = new pk.Client({ baseUrl: EMULATOR, fetch: (url, init) => (sent.push(url), fetch(url, init)) });
  const e = await rejectsWith(assert, client.getOrderBook(""), "INVALID_PARAMS");
  assert.equal(e.param, "token_id");
  await rejectsWith(assert, client.getOrderBook("12; DROP"), "INVALID_PARAMS");
  assert.equal(sent.length, 0);
  await client.getOk();
  assert.deepEqual(sent, [EMULATOR + "/"]);
});

test("bad options throw INVALID_PARAMS naming the option", async () => {
  const cases = [
    [undefined, "options"],
    [{}, "baseUrl"],
    [{ baseUrl: "127.0.0.1" }, "baseUrl"],
    [{ baseUrl: { catalog: EMULATOR, clob: EMULATOR } }, "activity"],
    [{ baseUrl: EMULATOR, fetch: "no" }, "fetch"],
    [{ baseUrl: EMULATOR, timestampUnit: "ns" }, "timestampUnit"],
  ];
  for (const [options, param] of cases) {
    const e = await rejectsWith(assert, () => new pk.Client(options), "INVALID_PARAMS");
    assert.equal(e.param, param);
  }
});

test("a non-JSON success body is a DECODE error with an excerpt", async () => {
  const client = new pk.Client({ baseUrl: EMULATOR, fetch: async () => new Response("<html>oops", { status: 200 }) });
  const e = await rejectsWith(assert, client.getOk(), "DECODE");
  assert.equal(e.body, "<html>oops");
  assert.ok(e.cause instanceof SyntaxError);
});

test("a refused connection is a NETWORK error keeping the cause", async () => {
  const client = new pk.Client({ baseUrl: "http://127.0.0.1:9" });
  const e = await rejectsWith(assert, client.getOk(), "NETWORK");
  assert.ok(e.cause);
});

test("OrderBook.fromJson reads the recorded books in any level order", () => {
  const book = pk.OrderBook.fromJson(fixture("real/clob-book-1.json"));
  assert.deepEqual(book.bestBid(), { price: 0.1, size: 125 });
  assert.deepEqual(book.bestAsk(), { price: 0.14, size: 705 });
  assert.equal(book.bidCount, 5);
  assert.equal(book.askCount, 7);
  const bytes = new TextEncoder().encode(fixture("real/clob-book-3.json"));
  const deep = pk.OrderBook.fromBytes(bytes);
  assert.equal(deep.askCount, 104);
  assert.equal(deep.bestBid(), undefined);
});

test("OrderBook rejects malformed books with DECODE", async () => {
  for (const bad of ["", "{", '{"bids":[{"price":"x","size":"1"}]}', '{"asks":[{"price":"0.1234567","size":"1"}]}']) {
    await rejectsWith(assert, () => pk.OrderBook.fromJson(bad), "DECODE");
  }
});
