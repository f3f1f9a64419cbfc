// Every paged list iterated to its end against the emulator, through the built Node package.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pk, EMULATOR } from "./helpers.mjs";

const client = new pk.Client({ baseUrl: EMULATOR });

async function drain(iterable) {
  const items = [];
  for await (const item of iterable) items.push(item);
  return items;
}

function unique(items, key) {
  return new Set(items.map((i) => i[key])).size;
}

test("iterateMarkets walks all CLOB markets by cursor", async () => {
  const pages = [];
  const markets = await drain(client.iterateMarkets({ onPage: (info) => pages.push(info) }));
  assert.ok(markets.length >= 10_000, `${markets.length} markets`);
  assert.equal(unique(markets, "condition_id"), markets.length);
  assert.equal(pages.at(-1).done, true);
  assert.equal(pages.at(-1).total, markets.length);
  assert.equal(pages.reduce((n, p) => n + p.items, 0), markets.length);
  assert.ok(pages.length > 10, "many pages");
});

test("iterateSamplingMarkets reaches the end", async () => {
  const markets = await drain(client.iterateSamplingMarkets());
  assert.ok(markets.length > 0);
  assert.equal(unique(markets, "condition_id"), markets.length);
  const first = await client.getSamplingMarkets();
  assert.deepEqual(markets.slice(0, first.data.length), first.data);
});

for (const [name, params, key, least] of [
  ["iterateEvents", {}, "id", 2000],
  ["iterateSeries", {}, "id", 1],
  ["iterateEventCreators", {}, "id", 1],
  ["iterateComments", {}, "id", 1],
]) {
  test(`${name} walks every page by offset`, async () => {
    const items = await drain(client[name](params));
    assert.ok(items.length >= least, `${items.length} items`);
    assert.equal(unique(items, key), items.length, "no duplicates across pages");
  });
}

test("iterateTrades stops at the route's offset bound or the end", async () => {
  const trades = await drain(client.iterateTrades({ side: "SELL" }));
  assert.ok(trades.length > 0);
  assert.ok(trades.every((t) => t.side === "SELL"));
  assert.ok(trades.length <= 10_000 + 500);
});

test("iterateClosedPositions walks a wallet's exits", async () => {
  const [trade] = await client.getTrades({ limit: 1 });
  const positions = await drain(client.iterateClosedPositions({ user: trade.proxyWallet }));
  assert.ok(positions.every((p) => p.proxyWallet.toLowerCase() === trade.proxyWallet.toLowerCase()));
});

test("maxItems bounds an iteration and break stops it", async () => {
  const some = await drain(client.iterateEvents({ active: true }, { maxItems: 150 }));
  assert.equal(some.length, 150);
  let seen = 0;
  for await (const _ of client.iterateMarkets()) {
    if (++seen === 3) break;
  }
  assert.equal(seen, 3);
});

test("an iterable is iterated once, and bad options throw at the call", () => {
  const iterable = client.iterateSeries();
  iterable[Symbol.asyncIterator]();
  assert.throws(() => iterable[Symbol.asyncIterator](), TypeError);
  assert.throws(() => client.iterateEvents({}, { maxItems: 1.5 }), (e) => e.code === "INVALID_PARAMS" && e.param === "maxItems");
});

test("an AbortSignal stops an iteration with ABORTED and nothing more is fetched", async () => {
  const sent = [];
  const counting = new pk.Client({ baseUrl: EMULATOR, fetch: (url, init) => (sent.push(url), fetch(url, init)) });
  const controller = new AbortController();
  let seen = 0;
  let error;
  try {
    for await (const _ of counting.iterateMarkets({ signal: controller.signal })) {
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
