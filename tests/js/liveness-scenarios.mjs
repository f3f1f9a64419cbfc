// Stream liveness under faults, as scenarios that run in Node (tests/js/hostile-stream.test.mjs) and in
// Chromium (tests/browser/hostile-stream.test.mjs) alike, checked by stream-hostile-checks.mjs. The service's
// side is made here, in Node, with the benchmark's reference book (bench/stream-frames.mjs); each scenario
// function is self-contained (no closure), so that the browser test can send its source to the page.
import { TruthBook, frame, ids, rng } from "../../bench/stream-frames.mjs";

/**
 * The frames and snapshots of a reconnection whose dump is cut before one asset's book: two assets live from
 * their snapshots; after the reconnection only B's `book` event comes, then a change of A.
 */
export function lostDumpData() {
  const random = rng(7);
  const a = ids(random);
  const b = ids(random);
  const ts = 1_700_000_000_000;
  const truthA = new TruthBook({ random, levels: 8, asset: a.asset, market: a.market, timestamp: ts });
  const truthB = new TruthBook({ random, levels: 8, asset: b.asset, market: b.market, timestamp: ts });
  const first = { [a.asset]: truthA.snapshot(), [b.asset]: truthB.snapshot() };
  const bookB = JSON.stringify({ event_type: "book", ...JSON.parse(truthB.snapshot()) });
  const changeA = frame(a.market, ts + 5, [truthA.change(ts + 5, true)]);
  return { A: a.asset, B: b.asset, first, bookB, changeA, afterA: truthA.snapshot(), hashA: truthA.hash() };
}

/** Runs the lost-dump scenario on the package `pk`: what the books and the events came to. */
export async function lostDumpScenario(pk, data) {
  const sockets = [];
  class FakeSocket {
    constructor() {
      this.sent = [];
      sockets.push(this);
      queueMicrotask(() => this.onopen?.({ type: "open" }));
    }
    send(text) {
      this.sent.push(text);
    }
    close() {}
  }
  const snapshots = { ...data.first };
  const fetch = async (url) => new Response(snapshots[new URL(String(url)).searchParams.get("token_id")], { status: 200 });
  const events = [];
  const client = new pk.Client({ baseUrl: "http://service.invalid", fetch, rateLimits: false });
  const stream = client.marketStream([data.A, data.B], { WebSocket: FakeSocket, onEvent: (e) => events.push(e) });
  try {
    const until = async (ok, ms) => {
      const end = Date.now() + ms;
      while (!ok() && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
      return ok();
    };
    const live = (asset) => stream.bookStatus(asset)?.state === "live" && stream.bookStatus(asset)?.verified;
    const started = await until(() => live(data.A) && live(data.B), 5000);
    // The connection is lost; the stream reconnects after its backoff (1 s at first).
    sockets[0].onclose?.({ type: "close" });
    const reopened = await until(() => sockets.length === 2 && stream.status === "open", 5000);
    const lost = Date.now();
    // The new socket's dump is cut: B's book comes, A's never does; then A changes.
    sockets[1].onmessage({ data: data.bookB });
    snapshots[data.A] = data.afterA;
    sockets[1].onmessage({ data: data.changeA });
    const recovered = await until(() => live(data.A), 5000);
    const tookMs = Date.now() - lost;
    const book = stream.book(data.A);
    const hash = book?.hash();
    book?.free();
    const result = {
      started,
      reopened,
      recovered,
      tookMs,
      hash,
      statusA: stream.bookStatus(data.A),
      statusB: stream.bookStatus(data.B),
      resyncs: events.filter((e) => e.event_type === "resync").map((e) => [e.asset_id === data.A ? "A" : "B", e.reason]),
    };
    return result;
  } finally {
    // Closed whatever happened: an open stream's timers would keep the process alive.
    stream.close();
    client.free();
  }
}

/** The frames of a market that goes silent (PONGs still come) and then speaks again before any reconnection. */
export function stallData() {
  const random = rng(11);
  const { asset, market } = ids(random);
  const ts = 1_700_000_000_000;
  const truth = new TruthBook({ random, levels: 8, asset, market, timestamp: ts });
  const snapshot = truth.snapshot();
  const frames = Array.from({ length: 6 }, (_, i) => frame(market, ts + 1 + i, [truth.change(ts + 1 + i, true)]));
  return { asset, snapshot, frames, hash: truth.hash() };
}

/**
 * Runs the stall scenario on `pk`: frames flow, then none for longer than `stallAfterMs` (PONGs still answer
 * the PINGs: the silent stall), then frames flow again on the same socket before the reconnection path.
 */
export async function stallScenario(pk, data) {
  const sockets = [];
  class FakeSocket {
    constructor() {
      this.sent = [];
      sockets.push(this);
      queueMicrotask(() => this.onopen?.({ type: "open" }));
    }
    send(text) {
      this.sent.push(text);
      if (text === "PING") setTimeout(() => this.onmessage?.({ data: "PONG" }), 1);
    }
    close() {}
  }
  const fetch = async () => new Response(data.snapshot, { status: 200 });
  const statuses = [];
  const client = new pk.Client({ baseUrl: "http://service.invalid", fetch, rateLimits: false });
  const stream = client.marketStream([data.asset], {
    WebSocket: FakeSocket,
    stallAfterMs: 300,
    pingEveryMs: 100,
    pongWithinMs: 1000,
    onEvent: (e) => e.event_type === "status" && statuses.push(e.status),
  });
  try {
    const until = async (ok, ms) => {
      const end = Date.now() + ms;
      while (!ok() && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
      return ok();
    };
    const verified = await until(() => stream.bookStatus(data.asset)?.verified, 5000);
    for (const f of data.frames.slice(0, 3)) sockets[0].onmessage({ data: f });
    // Silence: no market message, PONGs still come.
    const stalled = await until(() => stream.status === "stalled", 3000);
    const statusWhileStalled = stream.status;
    // The market speaks again on the same socket, before the renewed subscription's own wait runs out.
    for (const f of data.frames.slice(3)) sockets[0].onmessage({ data: f });
    const statusAfter = stream.status;
    const book = stream.book(data.asset);
    const hash = book?.hash();
    book?.free();
    const result = { verified, stalled, statusWhileStalled, statusAfter, statuses: [...statuses], sockets: sockets.length, hash, bookStatus: stream.bookStatus(data.asset) };
    return result;
  } finally {
    // Closed whatever happened: an open stream's timers would keep the process alive.
    stream.close();
    client.free();
  }
}

/** A live book, then a change whose hash nothing explains (a change before it was lost), then silence. */
export function quietMismatchData() {
  const random = rng(13);
  const { asset, market } = ids(random);
  const ts = 1_700_000_000_000;
  const truth = new TruthBook({ random, levels: 8, asset, market, timestamp: ts });
  const snapshot = truth.snapshot();
  truth.change(ts + 1, false); // lost on the way
  const wrong = frame(market, ts + 2, [truth.change(ts + 2, true)]);
  return { asset, snapshot, wrong, after: truth.snapshot(), hash: truth.hash() };
}

/**
 * Runs the quiet-mismatch scenario on `pk`, on a stream that never pings nor watches for stalls: the hash that
 * waits for the rest of its burst must still be settled when its window ends, with no frame or ping to wake it.
 */
export async function quietMismatchScenario(pk, data) {
  class FakeSocket {
    constructor() {
      queueMicrotask(() => this.onopen?.({ type: "open" }));
      FakeSocket.last = this;
    }
    send() {}
    close() {}
  }
  let snapshot = data.snapshot;
  const fetch = async () => new Response(snapshot, { status: 200 });
  const events = [];
  const client = new pk.Client({ baseUrl: "http://service.invalid", fetch, rateLimits: false });
  const stream = client.marketStream([data.asset], {
    WebSocket: FakeSocket,
    pingEveryMs: Infinity,
    stallAfterMs: Infinity,
    onEvent: (e) => events.push(e),
  });
  try {
    const until = async (ok, ms) => {
      const end = Date.now() + ms;
      while (!ok() && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
      return ok();
    };
    const verified = await until(() => stream.bookStatus(data.asset)?.verified, 5000);
    snapshot = data.after;
    const sent = Date.now();
    FakeSocket.last.onmessage({ data: data.wrong });
    const waiting = stream.bookStatus(data.asset);
    const resynced = await until(() => events.some((e) => e.event_type === "resync"), 5000);
    const resyncMs = Date.now() - sent;
    const recovered = await until(() => stream.bookStatus(data.asset)?.verified, 5000);
    const book = stream.book(data.asset);
    const hash = book?.hash();
    book?.free();
    return { verified, waiting, resynced, resyncMs, recovered, hash, reasons: events.filter((e) => e.event_type === "resync").map((e) => e.reason) };
  } finally {
    stream.close();
    client.free();
  }
}
