// The streaming benchmark, in the page bench/stream.html, driven by bench/stream.mjs (which generated the
// frames and their hashes with its reference implementation, bench/stream-frames.mjs, and serves them as
// /bench/stream-data.json).
//
// The SDK side is used as a page uses it: the package entry, a Client whose `fetch` answers GET /book and POST
// /books from memory (the snapshots a stream asks for to learn min_order_size and neg_risk), and `client.marketStream`
// with a fake WebSocket (FakeSocket below) that opens at once, answers PING with PONG, and lets the
// benchmark deliver frames synchronously by calling `socket.onmessage({ data })`, as a browser would. A
// batch's time is that of its onmessage calls and of `stream.settled()` after them (the checks of large
// books are answered by crypto.subtle a moment later): from the frames' text to updated, hash-checked books.
import init, { Client } from "/pkg/index.mjs";
import { PlainStream } from "/bench/plain-stream.mjs";

/**
 * Batches per measurement: the first WARMUP are not recorded, the median of the next SAMPLES is reported (and
 * every round's time is kept, for the speed guards' paired ratios).
 */
const WARMUP = 2;
const SAMPLES = 15;

let sink = 0;
const snapshots = new Map();

/**
 * The Client's fetch: the snapshots a stream asks for, from memory: GET /book?token_id=… for one book, and POST
 * /books (a body `[{ token_id }]`) for several at once; nothing else is expected.
 */
async function fakeFetch(input, init) {
  const url = new URL(String(input));
  let body;
  if (url.pathname === "/book") body = snapshots.get(url.searchParams.get("token_id"));
  else if (url.pathname === "/books" && init?.method === "POST") {
    const books = JSON.parse(init.body).map((p) => snapshots.get(p.token_id));
    if (books.every((b) => b !== undefined)) body = `[${books.join(",")}]`;
  }
  if (body === undefined) return new Response('{"error":"not found"}', { status: 404 });
  return new Response(body, { status: 200, headers: { "content-type": "application/json" } });
}

/** A WebSocket that opens at once and whose frames the benchmark delivers by calling onmessage. */
class FakeSocket {
  static last = null;
  constructor(url) {
    this.url = String(url);
    this.readyState = 0;
    this.sent = [];
    FakeSocket.last = this;
    // The driver sets onopen/onmessage/onclose/onerror right after construction.
    queueMicrotask(() => {
      if (this.readyState !== 0) return;
      this.readyState = 1;
      this.onopen?.({ type: "open" });
    });
  }

  send(text) {
    if (this.readyState !== 1) throw new Error("not open");
    if (text === "PING") setTimeout(() => this.readyState === 1 && this.onmessage?.({ data: "PONG" }), 0);
    else this.sent.push(text);
  }

  close() {
    this.readyState = 3;
  }
}

const client = () => new Client({ baseUrl: "https://bench.invalid", fetch: fakeFetch, rateLimits: false });

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Opens a market stream on `assets` and waits until every book is live and verified (from its snapshot; "off" never verifies). */
async function openLive(sdk, assets, options = {}) {
  const stream = sdk.marketStream(assets, { WebSocket: FakeSocket, ...options });
  const socket = FakeSocket.last;
  const deadline = performance.now() + 20_000;
  for (;;) {
    const ready = assets.every((a) => {
      const s = stream.bookStatus(a);
      return s && s.state === "live" && (s.verified || options.verify === "off");
    });
    if (ready) break;
    if (performance.now() > deadline) {
      throw new Error(`books not live: ${JSON.stringify(assets.slice(0, 3).map((a) => stream.bookStatus(a)))}, stream ${stream.status}`);
    }
    await tick();
  }
  if (socket.sent.length === 0) throw new Error("the stream sent no subscription");
  return { stream, socket };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function expect(ok, what) {
  if (!ok) throw new Error(what);
}

/**
 * One batch of the SDK: a fresh stream from the snapshot, the churn frames (untimed; empty hashes, so
 * applied but not checked: they only make the book's levels come from price changes rather than from the
 * snapshot's text, as in a long-lived stream), then the measured frames, timed. Then the book is checked:
 * the number of hash checks the policy implies, no mismatch, and its hash equal to the reference's.
 */
async function oursBatch(sdk, set, seq, verify, withListener) {
  const onEvent = withListener ? (event) => { sink += event.event_type.length; } : undefined;
  const { stream, socket } = await openLive(sdk, [set.asset], { verify, onEvent });
  try {
    for (const message of set.churnMessages) socket.onmessage(message);
    const before = stream.bookStatus(set.asset);
    expect(before.state === "live" && before.mismatches === 0, `after the churn: ${JSON.stringify(before)}`);
    const messages = seq.messages;
    const t0 = performance.now();
    for (let i = 0; i < messages.length; i++) socket.onmessage(messages[i]);
    // Checked means checked: the wait for the platform's digests (crypto.subtle) is part of the time.
    await stream.settled();
    const ms = performance.now() - t0;
    const after = stream.bookStatus(set.asset);
    const book = stream.book(set.asset);
    const hash = book.hash();
    book.free();
    expect(after.state === "live" && (after.verified || verify === "off") && after.mismatches === 0, `ours (${verify}): ${JSON.stringify(after)}`);
    expect(after.checks - before.checks === seq.checks[verify], `ours (${verify}): ${after.checks - before.checks} checks, expected ${seq.checks[verify]}`);
    expect(hash === seq.finalHash, `ours (${verify}): final hash ${hash}, expected ${seq.finalHash}`);
    return ms;
  } finally {
    stream.close();
  }
}

/** The same batch for the plain-JS competitor: async (crypto.subtle, each frame awaited) or sync SHA-1. */
async function plainBatch(set, seq, verify, sync) {
  const plain = new PlainStream(verify);
  const book = plain.addBook(set.snapshot);
  expect(plain.hash(set.asset) === set.snapshotHash, "plain: the snapshot's hash");
  for (const text of set.churn) plain.handleSync(text);
  const before = book.checks;
  const frames = seq.frames;
  let ms;
  if (sync) {
    const t0 = performance.now();
    for (let i = 0; i < frames.length; i++) plain.handleSync(frames[i]);
    ms = performance.now() - t0;
  } else {
    const t0 = performance.now();
    for (let i = 0; i < frames.length; i++) await plain.handle(frames[i]);
    ms = performance.now() - t0;
  }
  expect(book.mismatches === 0 && (book.verified || verify === "off"), `plain (${verify}): ${book.mismatches} mismatches`);
  expect(book.checks - before === seq.checks[verify], `plain (${verify}): ${book.checks - before} checks, expected ${seq.checks[verify]}`);
  expect(plain.hash(set.asset) === seq.finalHash, `plain (${verify}): final hash`);
  sink += book.checks;
  return ms;
}

/**
 * Per entry: for each book size, frame size (1 or 5 entries of one asset) and policy ("frame", "entry",
 * and "off" for 5-entry frames), interleaved rounds of: ours, plain JS with crypto.subtle, plain JS with the
 * sync SHA-1 (and, for 5-entry frames verified per frame, ours with an onEvent listener, which makes the
 * driver JSON.parse every frame to hand out its events). WARMUP rounds first, then SAMPLES recorded; each batch replays the same frames
 * from the same state. Returns rows with the median batch's time per frame and per entry (ns).
 */
async function perEntry(data) {
  const sdk = client();
  const rows = [];
  for (const set of data.perEntry) {
    snapshots.set(set.asset, set.snapshot);
    set.churnMessages = set.churn.map((data) => ({ data }));
    const variants = [];
    for (const seq of set.sequences) {
      seq.messages = seq.frames.map((data) => ({ data }));
      // "off" (applied, never checked) only for 5-entry frames: what the checks cost, by difference.
      for (const verify of seq.perFrame > 1 ? ["frame", "entry", "off"] : ["frame", "entry"]) {
        const row = { levels: set.levels, perFrame: seq.perFrame, verify, frames: seq.frames.length, entries: seq.entries, listener: false };
        rows.push(row);
        variants.push([row, "ours", () => oursBatch(sdk, set, seq, verify, false)]);
        variants.push([row, "plain", () => plainBatch(set, seq, verify, false)]);
        variants.push([row, "plainSync", () => plainBatch(set, seq, verify, true)]);
        if (seq.perFrame > 1 && verify === "frame") {
          // Plain JS has the parsed events already: a listener costs it nothing, so its row shares the
          // plain measurements of the row above.
          const listened = { ...row, listener: true, sameAs: row };
          rows.push(listened);
          variants.push([listened, "ours", () => oursBatch(sdk, set, seq, verify, true)]);
        }
      }
    }
    const samples = new Map(variants.map(([row, kind]) => [`${rows.indexOf(row)}/${kind}`, []]));
    for (let round = 0; round < WARMUP + SAMPLES; round++) {
      for (const [row, kind, run] of variants) {
        const ms = await run();
        if (round >= WARMUP) samples.get(`${rows.indexOf(row)}/${kind}`).push(ms);
        await tick();
      }
    }
    for (const [key, list] of samples) {
      const [index, kind] = key.split("/");
      const row = rows[index];
      row[kind] = (median(list) * 1e6) / row.frames; // ns per frame
      row[`${kind}Samples`] = list.map((ms) => +ms.toFixed(4));
    }
    for (const row of rows) {
      if (!row.sameAs) continue;
      row.plain = row.sameAs.plain;
      row.plainSync = row.sameAs.plainSync;
      delete row.sameAs;
    }
    snapshots.delete(set.asset);
  }
  sdk.free();
  return { rows, sink: sink > 0, userAgent: navigator.userAgent, crossOriginIsolated };
}

/** Input delays seen by the page: [phase, ms from the event's timeStamp to its listener running]. */
const delays = [];
let phase = "setup";
const phaseTimes = {};
const slowEvents = [];
document.getElementById("target").addEventListener("pointerdown", (event) => {
  delays.push([phase, performance.now() - event.timeStamp]);
});
// Event Timing reports events that took 16 ms or more from input to the next paint; their input delay
// (processingStart - startTime) is kept as a cross-check of the listener's own measure.
if (PerformanceObserver.supportedEntryTypes?.includes("event")) {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) slowEvents.push({ name: e.name, startTime: e.startTime, delay: e.processingStart - e.startTime, duration: e.duration });
  }).observe({ type: "event", durationThreshold: 16, buffered: true });
}

/**
 * Throughput: one stream on `books.length` assets (50 levels each, verify "frame"), fed `rate` entries per
 * second in frames of `perFrame` entries of one asset by a `tickMs` timer; each tick delivers every frame
 * due by then (so the rate holds when timers run late). The runner clicks a button about every 100 ms
 * throughout (idle for `idleMs` first, as a baseline); the page records each click's input delay. CPU share
 * = time inside onmessage (each call timed) / wall time from the first tick to the last frame.
 */
async function throughput(data, { idleMs }) {
  const tp = data.throughput;
  const sdk = client();
  for (const b of tp.books) snapshots.set(b.asset, b.snapshot);
  const assets = tp.books.map((b) => b.asset);
  const { stream, socket } = await openLive(sdk, assets);
  const messages = tp.frames.map((data) => ({ data }));
  const framesPerMs = tp.rate / tp.perFrame / 1000;
  try {
    phase = "idle";
    phaseTimes.idle = performance.now();
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    phase = "load";
    let next = 0, busy = 0, longest = 0, longestFrames = 0, longestCall = 0, ticks = 0, lag = 0, over16 = 0, over50 = 0;
    const t0 = performance.now();
    phaseTimes.load = t0;
    const end = await new Promise((resolve) => {
      const timer = setInterval(() => {
        const start = performance.now();
        const due = Math.min(messages.length, Math.floor((start - t0) * framesPerMs));
        // How late the oldest frame of this tick is, against its schedule.
        if (next < due) lag = Math.max(lag, start - (t0 + (next + 1) / framesPerMs));
        const first = next;
        while (next < due) {
          const a = performance.now();
          socket.onmessage(messages[next++]);
          const took = performance.now() - a;
          busy += took;
          if (took > longestCall) longestCall = took;
        }
        const stop = performance.now();
        if (stop - start > longest) {
          longest = stop - start;
          longestFrames = next - first;
        }
        if (stop - start > 16) over16++;
        if (stop - start > 50) over50++;
        ticks++;
        if (next === messages.length) {
          clearInterval(timer);
          resolve(stop);
        }
      }, tp.tickMs);
    });
    phase = "after";
    phaseTimes.after = end;
    // Every book must be live, verified, without mismatch, and equal to the reference's.
    await stream.settled();
    let checks = 0;
    for (const b of tp.books) {
      const s = stream.bookStatus(b.asset);
      expect(s.state === "live" && s.verified && s.mismatches === 0, `throughput book: ${JSON.stringify(s)}`);
      const book = stream.book(b.asset);
      const hash = book.hash();
      book.free();
      expect(hash === b.finalHash, "throughput: a final hash differs from the reference's");
      checks += s.checks - 1;
    }
    expect(checks === tp.frames.length, `throughput: ${checks} checks for ${tp.frames.length} frames`);
    const wall = end - t0;
    return {
      entries: tp.entries, frames: tp.frames.length, books: tp.books.length, levels: tp.levels, rate: tp.rate,
      wallMs: wall, plannedMs: tp.frames.length / framesPerMs, busyMs: busy, longestTickMs: longest, longestTickFrames: longestFrames,
      longestCallMs: longestCall, ticksOver16: over16, ticksOver50: over50, maxLagMs: lag, ticks,
      achievedRate: (tp.entries / wall) * 1000,
    };
  } finally {
    stream.close();
    sdk.free();
    for (const b of tp.books) snapshots.delete(b.asset);
  }
}

function inputReport() {
  const classify = (t) => (t < phaseTimes.load ? "idle" : t < (phaseTimes.after ?? Infinity) ? "load" : "after");
  return {
    delays,
    slowEvents: slowEvents.filter((e) => e.startTime >= phaseTimes.idle).map((e) => ({ ...e, phase: classify(e.startTime) })),
  };
}

/** Loads the package and the frames; resolves to the functions the runner calls. */
export async function load() {
  await init();
  const data = await (await fetch("/bench/stream-data.json")).json();
  return {
    perEntry: () => perEntry(data),
    throughput: (options) => throughput(data, options),
    inputReport,
  };
}
