// Live books through the package's stream driver on what the service really sends: real captures of the upstream
// market channel (tests/fixtures/real/stream/, with their provenance; an independent script, verify.py, reproduces
// their hashes) delivered through a fake socket, and a GET /book answer older than frames already seen.
import { test } from "node:test";
import assert from "node:assert/strict";
import { FakeSocket, fixture, pk } from "./helpers.mjs";

const lines = (path) =>
  fixture(path)
    .split("\n")
    .filter((l) => l.trim());

/** The assets a capture sends a `book` event for. */
function bookAssets(frames) {
  const out = [];
  for (const frame of frames) {
    for (const e of [JSON.parse(frame)].flat()) if (e.event_type === "book" && !out.includes(e.asset_id)) out.push(e.asset_id);
  }
  return out;
}

async function until(predicate, what) {
  for (let i = 0; i < 2500; i++) {
    if (predicate()) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  assert.fail(`timed out waiting for ${what}`);
}

/** Replays `frames` on a stream whose GET /book gives the market fields the capture's hashes cover. */
async function replay(frames, { tick, lastTrade }) {
  const assets = bookAssets(frames);
  assert.ok(assets.length > 0);
  const fetch = async (url) => {
    const asset = new URL(String(url)).searchParams.get("token_id");
    const last = lastTrade === undefined ? "" : `,"last_trade_price":"${lastTrade}"`;
    const body = `{"market":"m","asset_id":"${asset}","timestamp":"0","hash":"","bids":[],"asks":[],"min_order_size":"5","tick_size":"${tick}","neg_risk":false${last}}`;
    return new Response(body, { status: 200 });
  };
  const events = [];
  const client = new pk.Client({ baseUrl: "http://service.invalid", fetch, rateLimits: false });
  const stream = client.marketStream(assets, { WebSocket: FakeSocket, onEvent: (e) => events.push(e) });
  try {
    await until(() => assets.every((a) => stream.bookStatus(a)?.state === "live"), "the snapshots");
    for (const data of frames) FakeSocket.last.onmessage({ data });
    await stream.settled();
    return { events, statuses: assets.map((a) => stream.bookStatus(a)) };
  } finally {
    // Closed whatever happened: an open stream's timers would keep the test process alive.
    stream.close();
    client.free();
  }
}

test("a real capture: books without tick_size, a trade price no frame announces, a later book without last_trade_price", async () => {
  const frames = lines("real/stream/polybotv2-2025-12-23.jsonl");
  const { events, statuses } = await replay(frames, { tick: "0.01" });
  assert.deepEqual(events.filter((e) => e.event_type === "resync"), []);
  for (const s of statuses) assert.ok(s.verified && s.state === "live" && s.mismatches === 0, JSON.stringify(s));
  // Both tokens' price_change hashes cover "0.490", inferred from the frame's prices; the later book's covers
  // the earlier "0.500" again.
  assert.deepEqual(
    statuses.map((s) => [s.checks, s.inferred, s.deferred]),
    [
      [2, 1, 0],
      [3, 2, 0],
    ],
  );
});

test("a real capture: four same-timestamp frames whose entries all carry the final state's hash", async () => {
  const frames = lines("real/stream/polyfifa-burst-2026-09-11.jsonl");
  const market = frames.map((f) => JSON.parse(f).market).find(Boolean);
  // The books before the burst: the recording project's checkpoint, in the service's order, as book events.
  const price = (l) => Number(l.price);
  const seed = JSON.parse(fixture("real/stream/polyfifa-burst-2026-09-11.seed.json")).map((b) =>
    JSON.stringify({
      event_type: "book",
      market,
      asset_id: b.asset_id,
      timestamp: b.timestamp,
      hash: b.hash,
      bids: [...b.bids].sort((x, y) => price(x) - price(y)),
      asks: [...b.asks].sort((x, y) => price(y) - price(x)),
    }),
  );
  const { events, statuses } = await replay([...seed, ...frames], { tick: "0.001", lastTrade: "0.441" });
  assert.deepEqual(events.filter((e) => e.event_type === "resync"), []);
  assert.equal(statuses.length, 2);
  for (const s of statuses) {
    // Checked by frame: the seed, then four frames; the first three wait for the fourth's state.
    assert.ok(s.verified && s.mismatches === 0, JSON.stringify(s));
    assert.deepEqual([s.checks, s.deferred, s.inferred], [2, 3, 0], JSON.stringify(s));
  }
});

test("a GET /book answer older than frames already seen is refused, asked for again, and never verified", async () => {
  const asset = "7".repeat(70);
  const level = (p, s) => `{"price":"${p}","size":"${s}"}`;
  const summary = (ts, bids) =>
    `{"market":"0xm","asset_id":"${asset}","timestamp":"${ts}","hash":"","bids":[${bids}],"asks":[${level("0.6", "5")}],"min_order_size":"5","tick_size":"0.01","neg_risk":false,"last_trade_price":"0.500"}`;
  const hashed = (json) => json.replace('"hash":""', `"hash":"${pk.OrderBook.fromJson(json).hash()}"`);
  const snapshot = (ts, bids) => hashed(summary(ts, bids));
  const change = (ts, price, size, bids) =>
    `{"event_type":"price_change","market":"0xm","timestamp":"${ts}","price_changes":[{"asset_id":"${asset}","price":"${price}","size":"${size}","side":"BUY","hash":"${pk.OrderBook.fromJson(summary(ts, bids)).hash()}"}]}`;
  // The service's answers to GET /book, in order; each is held until the test releases it.
  const answers = [];
  const fetch = () =>
    new Promise((resolve) => answers.push((body) => resolve(new Response(body, { status: 200 }))));
  const events = [];
  const client = new pk.Client({ baseUrl: "http://service.invalid", fetch, rateLimits: false });
  const stream = client.marketStream([asset], { WebSocket: FakeSocket, onEvent: (e) => events.push(e) });
  try {
    await until(() => answers.length === 1, "the first GET /book");
    answers[0](snapshot(1000, level("0.4", "10")));
    await until(() => stream.bookStatus(asset)?.verified, "the first snapshot");
    // A change the stream lost (0.41 at 1001), then one whose hash therefore fails, then the next timestamp: the
    // burst ends with a hash nothing explains, and the book resyncs from a GET /book.
    const socket = FakeSocket.last;
    socket.onmessage({ data: change(1002, "0.42", "1", [level("0.4", "10"), level("0.41", "3"), level("0.42", "1")].join()) });
    socket.onmessage({ data: change(1003, "0.43", "1", [level("0.4", "10"), level("0.41", "3"), level("0.42", "1"), level("0.43", "1")].join()) });
    await until(() => answers.length === 2, "the resync's GET /book");
    assert.equal(stream.bookStatus(asset).state, "resyncing");
    // Its answer was made before the frames already seen (a lagging replica): refused, not verified.
    answers[1](snapshot(1001, [level("0.4", "10"), level("0.41", "3")].join()));
    await until(() => stream.bookStatus(asset).staleSnapshots === 1, "the stale answer");
    let status = stream.bookStatus(asset);
    assert.equal(status.state, "resyncing");
    assert.equal(status.verified, false);
    // Asked for again after the backoff; the fresh answer is installed and verified at the newest timestamp.
    await until(() => answers.length === 3, "the next GET /book");
    const bids = [level("0.4", "10"), level("0.41", "3"), level("0.42", "1"), level("0.43", "1")].join();
    answers[2](snapshot(1003, bids));
    await until(() => stream.bookStatus(asset).state === "live", "the fresh answer");
    status = stream.bookStatus(asset);
    assert.ok(status.verified && status.staleSnapshots === 1 && status.mismatches === 1, JSON.stringify(status));
    const book = stream.book(asset);
    assert.equal(book.hash(), pk.OrderBook.fromJson(summary(1003, bids)).hash());
    book.free();
    assert.deepEqual(
      events.filter((e) => e.event_type === "resync").map((e) => e.reason),
      ["hash_mismatch"],
    );
  } finally {
    stream.close();
    client.free();
  }
});
