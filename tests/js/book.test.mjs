// The OrderBook class and the book helpers, against the built Node package.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pk, fixture, rejectsWith } from "./helpers.mjs";

const { OrderBook } = pk;
const encode = (text) => new TextEncoder().encode(text);
const hashVectors = JSON.parse(fixture("vectors/book-hash.json"));
const priceVectors = JSON.parse(fixture("vectors/market-price.json"));
const rounding = JSON.parse(fixture("vectors/rounding-and-fees.json"));
const BOOKS = [1, 2, 3].map((n) => fixture(`real/clob-book-${n}.json`));

/** Best-first levels of one side by price, repeated prices merged, from the raw JSON. */
function reference(levels, bids) {
  const merged = new Map();
  for (const { price, size } of levels) merged.set(Number(price), (merged.get(Number(price)) ?? 0) + Number(size));
  return [...merged].sort((a, b) => (bids ? b[0] - a[0] : a[0] - b[0]));
}

test("the three ways in give the same book, for both recorded shapes", () => {
  for (const text of BOOKS) {
    const obj = JSON.parse(text);
    const books = [OrderBook.fromBytes(encode(text)), OrderBook.fromJson(text), OrderBook.fromObject(obj)];
    const bids = reference(obj.bids, true);
    const asks = reference(obj.asks, false);
    for (const book of books) {
      assert.equal(book.bidCount, obj.bids.length);
      assert.equal(book.askCount, obj.asks.length);
      assert.deepEqual(book.bestBid(), bids.length ? { price: bids[0][0], size: bids[0][1] } : undefined);
      assert.deepEqual(book.bestAsk(), asks.length ? { price: asks[0][0], size: asks[0][1] } : undefined);
      assert.equal(book.assetId, obj.asset_id);
      assert.equal(book.market, obj.market);
      assert.equal(book.timestamp, obj.timestamp);
      assert.equal(book.receivedHash, obj.hash);
      assert.equal(book.hash(), books[0].hash());
    }
  }
});

test("queries: best prices, midpoint, spread and the book's own fields", () => {
  const old = OrderBook.fromJson(BOOKS[0]);
  assert.equal(old.bestBidPrice(), 0.1);
  assert.equal(old.bestAskPrice(), 0.14);
  assert.equal(old.midpoint(), 0.12);
  assert.ok(Math.abs(old.spread() - 0.04) < 1e-12);
  assert.equal(old.tickSize, undefined);
  assert.equal(old.negRisk, undefined);

  const oneSided = OrderBook.fromJson(BOOKS[1]);
  assert.equal(oneSided.bestAsk(), undefined);
  assert.ok(Number.isNaN(oneSided.bestAskPrice()));
  assert.equal(oneSided.midpoint(), undefined);
  assert.equal(oneSided.spread(), undefined);
  assert.equal(oneSided.tickSize, 0.001);
  assert.equal(oneSided.minOrderSize, 5);
  assert.equal(oneSided.negRisk, true);
  assert.equal(oneSided.lastTradePrice, undefined, "the service sends \"\" before any trade");
});

test("the hash matches the service's hashes and the vectors", () => {
  for (const text of BOOKS.slice(1)) {
    const book = OrderBook.fromJson(text);
    assert.equal(book.hash(), book.receivedHash);
    assert.equal(pk.orderBookHash(JSON.parse(text)), book.receivedHash);
  }
  assert.ok(hashVectors.cases.length >= 4);
  for (const c of hashVectors.cases) {
    const obj = JSON.parse(c.json);
    assert.equal(pk.orderBookHash(obj), c.sha1, c.source);
    assert.equal(obj.hash, "", "orderBookHash leaves the object alone");
    if (c.order === "service") assert.equal(OrderBook.fromJson(c.json).hash(), c.sha1);
  }
});

test("marketPrice and the level-array functions follow the upstream vectors", async () => {
  assert.ok(priceVectors.cases.length >= 30);
  for (const c of priceVectors.cases) {
    const fn = c.side === "BUY" ? pk.calculateBuyMarketPrice : pk.calculateSellMarketPrice;
    // The book holds the levels as the opposite side of the order.
    const json = JSON.stringify(c.side === "BUY" ? { bids: [], asks: c.levels } : { bids: c.levels, asks: [] });
    const book = OrderBook.fromJson(json);
    if (c.expected === "error") {
      await rejectsWith(assert, () => fn(c.levels, c.amount, c.orderType), "NO_MATCH");
      await rejectsWith(assert, () => book.marketPrice(c.side, c.amount, c.orderType), "NO_MATCH");
    } else {
      assert.equal(fn(c.levels, c.amount, c.orderType), c.expected, JSON.stringify(c));
      assert.equal(book.marketPrice(c.side, c.amount, c.orderType), c.expected, JSON.stringify(c));
    }
  }
  const book = OrderBook.fromJson(BOOKS[0]);
  await rejectsWith(assert, () => book.marketPrice("HOLD", 1), "INVALID_PARAMS");
  await rejectsWith(assert, () => book.marketPrice("BUY", -1), "INVALID_PARAMS");
  await rejectsWith(assert, () => book.marketPrice("BUY", 1, "IOC"), "INVALID_PARAMS");
  await rejectsWith(assert, () => pk.calculateBuyMarketPrice([{ price: "x", size: "1" }], 1, "FOK"), "INVALID_PARAMS");
  assert.equal(book.marketPrice("BUY", 1e9, "FAK"), 0.98, "FAK falls back to the worst ask");
});

test("simulate walks from the best price, by size or by notional", async () => {
  const book = OrderBook.fromJson(BOOKS[0]);
  // Asks best first: 0.14 × 705, 0.2 × 70, 0.38 × 192.3, ...
  const bySize = book.simulate("BUY", { size: 745 });
  assert.equal(bySize.filled, 745);
  assert.ok(Math.abs(bySize.notional - (0.14 * 705 + 0.2 * 40)) < 1e-9);
  assert.equal(bySize.worstPrice, 0.2);
  assert.equal(bySize.levelsUsed, 2);
  assert.equal(bySize.remaining, 0);
  assert.ok(Math.abs(bySize.avgPrice - bySize.notional / 745) < 1e-12);
  assert.ok(Math.abs(bySize.slippage - (bySize.avgPrice - 0.12)) < 1e-12);

  const byCash = book.simulate("SELL", { notional: 20 });
  // Bids best first: 0.1 × 125 = 12.5, then 7.5 at 0.09.
  assert.equal(byCash.levelsUsed, 2);
  assert.ok(Math.abs(byCash.filled - (125 + 7.5 / 0.09)) < 1e-5);
  assert.equal(byCash.remaining, 0);

  const tooMuch = book.simulate("SELL", { size: 10_000 });
  assert.equal(tooMuch.filled, 1000 + 200 + 120 + 294 + 125);
  assert.equal(tooMuch.remaining, 10_000 - tooMuch.filled);
  assert.equal(tooMuch.worstPrice, 0.01);

  const none = book.simulate("BUY", { size: 0 });
  assert.ok(Number.isNaN(none.avgPrice) && Number.isNaN(none.slippage));
  await rejectsWith(assert, () => book.simulate("BUY", { size: 1, notional: 1 }), "INVALID_PARAMS");
  await rejectsWith(assert, () => book.simulate("BUY", {}), "INVALID_PARAMS");
});

test("depth and ladder", () => {
  const book = OrderBook.fromJson(BOOKS[0]);
  const depth = book.depth("BUY", { within: 0.06 });
  assert.deepEqual({ ...depth, notional: Math.round(depth.notional * 1e6) / 1e6 }, { size: 775, notional: 112.7, levels: 2 });
  assert.equal(book.depth("SELL", { within: 0 }).size, 125);

  const ladder = book.ladder({ levels: 3 });
  assert.ok(ladder.bidPrices instanceof Float64Array);
  assert.deepEqual([...ladder.bidPrices], [0.1, 0.09, 0.08]);
  assert.deepEqual([...ladder.bidDepth], [125, 419, 539]);
  assert.deepEqual([...ladder.askPrices], [0.14, 0.2, 0.38]);
  assert.deepEqual([...ladder.askDepth], [705, 775, 967.3]);
  assert.equal(book.ladder({}).askPrices.length, 7);
});

test("applyPriceChange keeps a live book and its hash", async () => {
  const text = BOOKS[2];
  const book = OrderBook.fromJson(text);
  const obj = JSON.parse(text);
  const best = book.bestAskPrice();
  book.applyPriceChange({ side: "SELL", price: String(best), size: "0" }, "1785734468999");
  assert.ok(book.bestAskPrice() > best);
  book.applyPriceChange({ side: "BUY", price: 0.2, size: 10 });
  assert.deepEqual(book.bestBid(), { price: 0.2, size: 10 });
  // The same edits on the plain object (in the service's order) give the same hash.
  obj.asks = obj.asks.filter((l) => Number(l.price) !== best);
  obj.bids = [{ price: "0.2", size: "10" }];
  obj.timestamp = "1785734468999";
  assert.equal(book.hash(), pk.orderBookHash(obj));
  assert.equal(book.timestamp, "1785734468999");
  await rejectsWith(assert, () => book.applyPriceChange({ side: "BUY", price: 0.1234567, size: 1 }), "INVALID_PARAMS");
  await rejectsWith(assert, () => book.applyPriceChange({ side: "X", price: "0.1", size: "1" }), "INVALID_PARAMS");
});

test("bad input is DECODE, with a clear message", async () => {
  const e = await rejectsWith(assert, () => OrderBook.fromJson('{"bids":[{"price":"0.1234567","size":"1"}]}'), "DECODE");
  assert.match(e.message, /price/);
  await rejectsWith(assert, () => OrderBook.fromBytes(new Uint8Array([0xff, 0x00])), "DECODE");
  await rejectsWith(assert, () => OrderBook.fromObject({ bids: [{ price: 0.1 + 0.2, size: 1 }] }), "DECODE");
  const list = OrderBook.listFromBytes(encode(`[${BOOKS[1]},${BOOKS[2]}]`));
  assert.equal(list.length, 2);
  assert.equal(list[1].askCount, 104);
});

test("rounding helpers and fees follow the vectors", () => {
  assert.ok(rounding.decimalPlaces.length > 0, "the decimalPlaces vectors are there");
  for (const [x, want] of rounding.decimalPlaces) assert.equal(pk.decimalPlaces(x), want, String(x));
  assert.ok(rounding.roundDown.length > 0, "the roundDown vectors are there");
  for (const [x, d, want] of rounding.roundDown) assert.equal(pk.roundDown(x, d), want);
  assert.equal(pk.roundNormal(0.5555, 2), 0.56);
  assert.equal(pk.roundUp(0.5511, 2), 0.56);
  assert.throws(() => pk.roundUp(0.5, -1));
  const ticks = Object.entries(rounding.priceValid).filter(([k]) => k !== "prices");
  assert.ok(ticks.length > 0 && rounding.priceValid.prices.length > 0, "the priceValid vectors are there");
  for (const [tick, want] of ticks) {
    assert.deepEqual(rounding.priceValid.prices.map((p) => pk.priceValid(p, tick)), want, tick);
  }
  assert.ok(rounding.isTickSizeSmaller_true.length > 0, "the isTickSizeSmaller vectors are there");
  for (const [a, b] of rounding.isTickSizeSmaller_true) {
    assert.equal(pk.isTickSizeSmaller(a, b), true);
    assert.equal(pk.isTickSizeSmaller(b, a), false);
  }
  assert.deepEqual(pk.roundingConfig(), rounding.roundingConfig);
  assert.ok(rounding.fee.cases.length > 0, "the fee vectors are there");
  for (const c of rounding.fee.cases) {
    assert.equal(pk.calculateFee({ rate: c.rate, exponent: c.exponent }, c.contracts, c.price), c.fee);
    assert.equal(pk.calculateFee({ fd: { r: c.rate, e: c.exponent, to: true } }, c.contracts, c.price), c.fee);
  }
});
