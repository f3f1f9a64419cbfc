// Live books large enough (over 16 KiB of levels) for their hash checks to go to the platform's SHA-1
// (crypto.subtle, off the main thread), and the same books where there is no crypto.subtle (a child Node
// without the global webcrypto, as an insecure page has none), where the core hashes them at once. The
// service's side is the benchmark's reference implementation (bench/stream-frames.mjs), fed through a fake
// socket; snapshots come from an in-memory fetch.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { TruthBook, frame, ids, rng } from "../../bench/stream-frames.mjs";
if (process.env.STREAM_DIGEST_CHILD === "hang") {
  Object.defineProperty(globalThis.crypto.subtle, "digest", { value: () => new Promise(() => {}) });
}
const { pk, FakeSocket } = await import("./helpers.mjs");

const PLATFORM = typeof globalThis.crypto?.subtle?.digest === "function";

/** A 300-level book (about 20 KB of levels; or `levels`) and a stream following it, live and verified. */
async function liveBigBook(onEvent, levels = 300) {
  const random = rng(42);
  const { asset, market } = ids(random);
  const truth = new TruthBook({ random, levels, asset, market, timestamp: 1_700_000_000_000 });
  const fetch = async (url) => {
    assert.equal(new URL(String(url)).searchParams.get("token_id"), asset);
    return new Response(truth.snapshot(), { status: 200 });
  };
  const client = new pk.Client({ baseUrl: "http://service.invalid", fetch, rateLimits: false });
  const stream = client.marketStream([asset], { WebSocket: FakeSocket, onEvent });
  for (let i = 0; i < 500 && !stream.bookStatus(asset)?.verified; i++) {
    await stream.settled();
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  assert.ok(stream.bookStatus(asset).verified, JSON.stringify(stream.bookStatus(asset)));
  return { truth, asset, market, stream, socket: FakeSocket.last, client };
}

/** Delivers the next change and asserts that it was checked and verified. */
async function checkedNext(stream, socket, asset, next) {
  const before = stream.bookStatus(asset).checks;
  socket.onmessage({ data: next() });
  await stream.settled();
  const status = stream.bookStatus(asset);
  assert.ok(status.verified && status.checks === before + 1, JSON.stringify(status));
}

async function scenario() {
  const events = [];
  const { truth, asset, market, stream, socket, client } = await liveBigBook((e) => events.push(e));
  let ts = 1_700_000_000_000;
  const before = stream.bookStatus(asset).checks;
  // One change: checked by the platform, so its answer comes after onmessage returns; here, at once.
  socket.onmessage({ data: frame(market, ++ts, [truth.change(ts, true)]) });
  const atOnce = stream.bookStatus(asset).checks - before;
  await stream.settled();
  assert.equal(stream.bookStatus(asset).checks - before, 1);
  for (let i = 0; i < 200; i++) {
    ts++;
    const n = 1 + (i % 4);
    socket.onmessage({ data: frame(market, ts, Array.from({ length: n }, () => truth.change(ts, true))) });
  }
  await stream.settled();
  let status = stream.bookStatus(asset);
  assert.equal(status.checks - before, 201, JSON.stringify(status));
  assert.equal(status.mismatches, 0);
  assert.ok(status.verified);
  const book = stream.book(asset);
  assert.equal(book.hash(), truth.hash());
  book.free();

  // The service moves a level without saying so: the next check fails. The mismatch waits for the rest of
  // its burst (frames with the same timestamp); the next timestamp ends it, and the book is fetched again.
  truth.change(ts, false);
  ts++;
  socket.onmessage({ data: frame(market, ts, [truth.change(ts, true)]) });
  await stream.settled();
  assert.equal(stream.bookStatus(asset).deferred, 1, JSON.stringify(stream.bookStatus(asset)));
  assert.equal(stream.bookStatus(asset).verified, false);
  ts++;
  socket.onmessage({ data: frame(market, ts, [truth.change(ts, true)]) });
  await stream.settled();
  for (let i = 0; i < 500 && !(stream.bookStatus(asset).verified && events.some((e) => e.event_type === "resync")); i++) {
    await new Promise((resolve) => setTimeout(resolve, 2));
    await stream.settled();
  }
  const resync = events.find((e) => e.event_type === "resync");
  assert.deepEqual(resync, { event_type: "resync", asset_id: asset, reason: "hash_mismatch" });
  status = stream.bookStatus(asset);
  assert.ok(status.verified && status.mismatches === 1, JSON.stringify(status));
  const again = stream.book(asset);
  assert.equal(again.hash(), truth.hash());
  again.free();
  stream.close();
  // Closed with nothing under way: settled at once, and the client still answers.
  await stream.settled();
  client.free();
  return { atOnce };
}

if (process.env.STREAM_DIGEST_CHILD === "hang") {
  // A page that replaced crypto.subtle.digest, before the package loaded, with one that never answers.
  const random = rng(9);
  const { asset, market } = ids(random);
  const truth = new TruthBook({ random, levels: 300, asset, market, timestamp: 1_700_000_000_000 });
  const fetch = async () => new Response(truth.snapshot(), { status: 200 });
  const client = new pk.Client({ baseUrl: "http://service.invalid", fetch, rateLimits: false });
  const stream = client.marketStream([asset], { WebSocket: FakeSocket });
  while (stream.bookStatus(asset).state !== "live") await new Promise((resolve) => setTimeout(resolve, 2));
  // (The snapshot's check is handed to the platform when its promise settles in the driver.)
  await new Promise((resolve) => setTimeout(resolve, 50));
  const started = Date.now();
  await stream.settled();
  const waited = Date.now() - started;
  const before = stream.bookStatus(asset).checks;
  FakeSocket.last.onmessage({ data: frame(market, 1_700_000_000_001, [truth.change(1_700_000_000_001, true)]) });
  const status = stream.bookStatus(asset);
  stream.close();
  process.stdout.write(JSON.stringify({ waited: waited >= 1500 && waited < 10_000, atOnce: status.checks - before, verified: status.verified }));
} else if (process.env.STREAM_DIGEST_CHILD) {
  const { atOnce } = await scenario();
  process.stdout.write(JSON.stringify({ platform: PLATFORM, atOnce }));
} else {
  test("large books are checked by the platform's SHA-1: answers after the frame, books verified, a mismatch resyncs", async () => {
    assert.ok(PLATFORM, "Node 20 has crypto.subtle");
    const { atOnce } = await scenario();
    assert.equal(atOnce, 0, "the check was answered inside onmessage: not handed to the platform");
  });

  test("a frame longer than 64 MiB is a DECODE event, not copied, and the stream goes on", async () => {
    const events = [];
    const { truth, asset, market, stream, socket, client } = await liveBigBook((e) => events.push(e));
    socket.onmessage({ data: "x".repeat(64 * 1024 * 1024 + 1) });
    const error = events.find((e) => e.event_type === "error");
    assert.equal(error?.error.code, "DECODE");
    assert.match(error.error.message, /64 MiB/);
    const before = stream.bookStatus(asset).checks;
    socket.onmessage({ data: frame(market, 1_700_000_000_001, [truth.change(1_700_000_000_001, true)]) });
    await stream.settled();
    const status = stream.bookStatus(asset);
    assert.ok(status.verified && status.checks === before + 1, JSON.stringify(status));
    stream.close();
    client.free();
  });

  test("frames are read as UTF-8 from the core's inbox: text beyond ASCII applies; binary data or over 64 MiB of UTF-8 is DECODE", async () => {
    const events = [];
    const { truth, asset, market, stream, socket, client } = await liveBigBook((e) => events.push(e));
    const decodes = () => events.filter((e) => e.event_type === "error" && e.error.code === "DECODE").length;
    let ts = 1_700_000_000_000;
    const checked = async (text) => {
      const before = stream.bookStatus(asset).checks;
      socket.onmessage({ data: text });
      await stream.settled();
      const status = stream.bookStatus(asset);
      assert.ok(status.verified && status.checks === before + 1, JSON.stringify(status));
    };
    // Two-, three- and four-byte characters, and an escaped one, in a field the books skip; the frame's
    // first entry then lands at another offset than its UTF-16 index.
    const wide = (text) => text.replace('"event_type"', '"note":"Zürich – 東京 😀 \\u00e9","event_type"');
    await checked(wide(frame(market, ++ts, [truth.change(ts, true), truth.change(ts, true)])));
    // A long frame after a short one and a short one after it: the inbox is reused and grows as needed.
    await checked(wide(frame(market, ++ts, Array.from({ length: 40 }, () => truth.change(ts, true)))));
    await checked(frame(market, ++ts, [truth.change(ts, true)]));
    assert.equal(decodes(), 0);
    // Not text: an ArrayBuffer or a Blob is not a frame of this protocol.
    socket.onmessage({ data: new TextEncoder().encode(frame(market, ts + 1, [])).buffer });
    socket.onmessage({ data: new Blob(["{}"]) });
    assert.equal(decodes(), 2);
    // Under 64 Mi UTF-16 units but over 64 MiB of UTF-8 (3 bytes each): too long, and the stream goes on.
    socket.onmessage({ data: "€".repeat(23 * 1024 * 1024) });
    assert.equal(decodes(), 3);
    assert.match(events.at(-1).error.message, /64 MiB/);
    await checked(frame(market, ++ts, [truth.change(ts, true)]));
    const book = stream.book(asset);
    assert.equal(book.hash(), truth.hash());
    book.free();
    stream.close();
    client.free();
  });

  test("a frame that comes while another is being read (from a replaced Date.now or an Object.prototype setter) is read whole, and so is the first", async () => {
    // 50 levels: hashed by the core at once, so each frame's check is counted when onmessage returns.
    const events = [];
    const { truth, asset, market, stream, socket, client } = await liveBigBook((e) => events.push(e), 50);
    let ts = 1_700_000_000_000;
    const next = () => frame(market, ++ts, [truth.change(ts, true)]);
    const checks = () => stream.bookStatus(asset).checks;
    const realNow = Date.now;
    const before = checks();
    try {
      // The page's Date.now delivers a frame of its own, once, in the middle of the driver's handling.
      let inner = next();
      const outer = next();
      Date.now = function () {
        if (inner) {
          const text = inner;
          inner = null;
          // (Applied out of order: the outer frame is newer, so this one must come first to count.)
          socket.onmessage({ data: text });
        }
        return realNow.call(Date);
      };
      socket.onmessage({ data: outer });
    } finally {
      Date.now = realNow;
    }
    assert.equal(checks(), before + 2, JSON.stringify(stream.bookStatus(asset)));
    // A setter on Object.prototype runs while the core builds a report (its `changed` list): a frame
    // delivered from there is applied too, and the outer report still arrives.
    const outer = next();
    let nested = next();
    Object.defineProperty(Object.prototype, "changed", {
      configurable: true,
      set(value) {
        Object.defineProperty(this, "changed", { value, writable: true, enumerable: true, configurable: true });
        if (nested) {
          const text = nested;
          nested = null;
          socket.onmessage({ data: text });
        }
      },
    });
    const middle = checks();
    try {
      // The outer frame is applied before its report is built, so the nested one is the newer.
      socket.onmessage({ data: outer });
    } finally {
      delete Object.prototype.changed;
    }
    assert.equal(nested, null, "the setter ran");
    assert.equal(checks(), middle + 2, JSON.stringify(stream.bookStatus(asset)));
    assert.equal(events.filter((e) => e.event_type === "error").length, 0, JSON.stringify(events.filter((e) => e.event_type === "error")));
    await checkedNext(stream, socket, asset, next);
    // A Date.now that closes the stream while the driver reads a frame: nothing throws, nothing more is
    // applied, and the client goes on.
    const closing = next();
    try {
      Date.now = function () {
        Date.now = realNow;
        stream.close();
        return realNow.call(Date);
      };
      socket.onmessage({ data: closing });
    } finally {
      Date.now = realNow;
    }
    assert.equal(stream.bookStatus(asset), undefined, "closed");
    assert.equal(events.filter((e) => e.event_type === "error").length, 0);
    assert.ok(client.hasCredentials === false);
    client.free();
  });

  test("a page's Date.now that throws: frames and signing go on, and nothing is left borrowed", async () => {
    const events = [];
    const { truth, asset, market, stream, socket, client } = await liveBigBook((e) => events.push(e), 50);
    let ts = 1_700_000_000_000;
    const next = () => frame(market, ++ts, [truth.change(ts, true)]);
    const realNow = Date.now;
    const creds = {
      address: "0x" + "ab".repeat(20), apiKey: "00000000-0000-4000-8000-000000000000",
      secret: "c2VjcmV0", passphrase: "a".repeat(64),
    };
    let headers;
    try {
      Date.now = () => {
        throw new Error("hostile: Date.now");
      };
      socket.onmessage({ data: next() });
      headers = pk.createL2Headers(creds, { method: "GET", requestPath: "/data/orders" });
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      Date.now = realNow;
    }
    assert.match(headers.SERVICE_TIMESTAMP, /^\d+$/, "signed with the last good reading of the clock");
    // The stream and the client still answer: nothing was left borrowed by an exception through wasm.
    for (let i = 0; i < 200 && !stream.bookStatus(asset)?.verified; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    assert.ok(stream.bookStatus(asset).verified, JSON.stringify(stream.bookStatus(asset)));
    await checkedNext(stream, socket, asset, () => frame(market, ++ts, [truth.change(ts, true)]));
    assert.equal(events.filter((e) => e.event_type === "error").length, 0, JSON.stringify(events.filter((e) => e.event_type === "error")));
    stream.close();
    client.free();
  });

  test("a platform SHA-1 that never answers: settled() still resolves, and the core hashes books itself", () => {
    const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url)], {
      env: { ...process.env, STREAM_DIGEST_CHILD: "hang" },
      encoding: "utf8",
      timeout: 60_000,
    });
    assert.equal(child.status, 0, child.stderr);
    assert.deepEqual(JSON.parse(child.stdout), { waited: true, atOnce: 1, verified: true });
  });

  test("without crypto.subtle the core hashes the same books at once, with the same results", () => {
    const child = spawnSync(process.execPath, ["--no-experimental-global-webcrypto", fileURLToPath(import.meta.url)], {
      env: { ...process.env, STREAM_DIGEST_CHILD: "1" },
      encoding: "utf8",
      timeout: 60_000,
    });
    assert.equal(child.status, 0, child.stderr);
    assert.deepEqual(JSON.parse(child.stdout), { platform: false, atOnce: 1 });
  });
}
