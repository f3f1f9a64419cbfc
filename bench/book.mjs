// The order-book benchmark, run in the page bench/book.html by bench/run.mjs. Each measurement repeats
// its operation in batches of at least BATCH_MS, interleaved with its competitors', and reports the fastest
// batch's time per operation (see `compare`).
// The package entry, as users import it (its use-after-free guard wraps every method).
import init, { OrderBook } from "/pkg/index.mjs";
import { calculateBuyMarketPrice, calculateSellMarketPrice, generateOrderBookSummaryHash } from "/bench/upstream.js";
import { PlainBook } from "/bench/plain.mjs";

// `?sizes=10000,100000` on the page's URL (BENCH_SIZES for run.mjs) measures fewer books while tuning.
const QUERY = new URLSearchParams(location.search);
const SIZES = (QUERY.get("sizes") ?? "10,1000,10000,100000").split(",").map(Number);
// `?rounds=25`: more rounds per measurement (bench/run.mjs asks for them in the speed guards' pages).
const SAMPLES = Math.max(1, Number(QUERY.get("rounds") ?? 15));
const BATCH_MS = 25;
let sink = 0;

/** A deterministic pseudo-random generator, so every run measures the same books. */
function rng(seed) {
  return () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
}

/** Decimal text of 10^-6 units without trailing zeros, as the service writes prices and sizes. */
function text(units) {
  const int = Math.floor(units / 1e6);
  const frac = units % 1e6;
  return frac === 0 ? String(int) : `${int}.${String(frac).padStart(6, "0").replace(/0+$/, "")}`;
}

/** A book in the service's compact form: bids ascending and asks descending (best last). */
function makeBook(levels) {
  const random = rng(levels);
  const size = () => text(Math.floor(random() * 5_000_00 + 100) * 10_000);
  // Two units apart, so 100,000 levels fit between 0 and 1 on each side of 0.5.
  const bids = [], asks = [];
  for (let i = levels - 1; i >= 0; i--) bids.push(`{"price":"${text(490_000 - i * 4)}","size":"${size()}"}`);
  for (let i = levels - 1; i >= 0; i--) asks.push(`{"price":"${text(510_000 + i * 4)}","size":"${size()}"}`);
  return (
    `{"market":"0x9d839bf0aa31324b9848f5b89841b779238a7c07dee2f7fca675d934e8ab5bf2",` +
    `"asset_id":"72610532355343625199299853218161700546393390326785971247545541945337255643692",` +
    `"timestamp":"1785734468581","hash":"d7df883ae546b09533a4f485bfae0810da1af04e",` +
    `"bids":[${bids.join(",")}],"asks":[${asks.join(",")}],` +
    `"min_order_size":"5","tick_size":"0.001","neg_risk":false,"last_trade_price":"0.5"}`
  );
}

/**
 * Nanoseconds per call of each competitor: `fns` maps a name to a function (`{ fn, async: true }` for one
 * that returns a promise). Each is first run until a batch of calls takes BATCH_MS, then SAMPLES rounds
 * run one batch of every competitor in turn, and each keeps its fastest batch. Other work on the machine
 * only ever adds time, and within a round it falls on every competitor alike: the fastest batches are what
 * the code costs, and their ratios stay put when the machine is busy (medians of batches measured one
 * competitor after the other did not: on two shared cores, ingest at 10,000 levels read 24 to 40 ns a
 * level in three runs of the same build, whose fastest batches all took 22). `rounds` keeps every round's
 * time per call of each, for the guards' paired ratios.
 */
async function compare(fns) {
  const entries = Object.entries(fns).map(([name, f]) => ({ name, ...(typeof f === "function" ? { fn: f } : f) }));
  for (const e of entries) {
    e.iterations = 1;
    for (;;) {
      const ms = await batch(e);
      if (ms >= BATCH_MS) break;
      e.iterations = Math.min(e.iterations * 10, Math.max(e.iterations * 2, Math.ceil((e.iterations * BATCH_MS * 1.2) / Math.max(ms, 0.05))));
    }
    e.best = Infinity;
    e.rounds = [];
  }
  for (let s = 0; s < SAMPLES; s++) {
    for (const e of entries) {
      const ms = await batch(e);
      e.best = Math.min(e.best, ms);
      e.rounds.push((ms * 1e6) / e.iterations);
    }
  }
  const out = Object.fromEntries(entries.map((e) => [e.name, (e.best * 1e6) / e.iterations]));
  // Each round's time per call (ns), for the speed guards' paired ratios (bench/guard.mjs).
  out.rounds = Object.fromEntries(entries.map((e) => [e.name, e.rounds]));
  return out;
}

/** Milliseconds for one batch of `e.iterations` calls. */
async function batch(e) {
  const { fn, iterations } = e;
  const t0 = performance.now();
  if (e.async) for (let i = 0; i < iterations; i++) await fn();
  else for (let i = 0; i < iterations; i++) fn();
  return performance.now() - t0;
}

/** The best prices of a plain book object found the way a careful caller must (any order): a scan. */
function scanBest(obj) {
  let bid = -Infinity, ask = Infinity;
  for (const l of obj.bids) { const p = +l.price; if (p > bid) bid = p; }
  for (const l of obj.asks) { const p = +l.price; if (p < ask) ask = p; }
  return [bid, ask, (bid + ask) / 2, ask - bid];
}

export async function run() {
  await init();
  const rows = [];
  const decoder = new TextDecoder();
  for (const levels of SIZES) {
    const json = makeBook(levels);
    const bytes = new TextEncoder().encode(json);
    const total = 2 * levels;
    const row = (op, perLevel, ours, parse, plain, upstream, rounds) =>
      rows.push({ op, levels, bytes: bytes.length, perLevel, ours, parse, plain, upstream, rounds });

    // Ingest: from the response bytes to something the page can query.
    const ingest = await compare({
      ours: () => { const b = OrderBook.fromBytes(bytes); sink += b.askCount; b.free(); },
      parse: () => { sink += JSON.parse(decoder.decode(bytes)).asks.length; },
      plain: () => { sink += PlainBook.fromBytes(bytes).asks.length; },
    });
    row("ingest", total, ingest.ours, ingest.parse, ingest.plain, null, ingest.rounds);

    const book = OrderBook.fromBytes(bytes);
    const obj = JSON.parse(json);
    const plain = PlainBook.fromBytes(bytes);
    check(book, obj, plain);
    const upstreamHash = await generateOrderBookSummaryHash({ ...obj });
    if (book.hash() !== upstreamHash || (await plain.hash()) !== upstreamHash) throw new Error("the hashes differ");

    // Best, mid, spread: the four numbers, per call (ours and plain are O(1); a plain object needs a scan).
    const best = await compare({
      ours: () => { sink += book.bestBidPrice() + book.bestAskPrice() + book.midpoint() + book.spread(); },
      parse: () => { sink += scanBest(obj)[2]; },
      plain: () => { sink += plain.bestBidPrice() + plain.bestAskPrice() + plain.midpoint() + plain.spread(); },
    });
    row("best/mid/spread (per call)", 0, best.ours / 4, best.parse / 4, best.plain / 4, null);
    const bestObject = await compare({ ours: () => { sink += book.bestBid().price; } });
    row("bestBid() object (per call)", 0, bestObject.ours, null, null, null);

    // A full walk: a FAK buy larger than the whole ask side visits every level.
    const huge = 1e15;
    const walk = await compare({
      ours: () => { sink += book.marketPrice("BUY", huge, "FAK"); },
      plain: () => { sink += plain.marketBuyPrice(huge, false); },
      upstream: () => { sink += calculateBuyMarketPrice(obj.asks, huge, "FAK"); },
    });
    row("full walk (marketPrice BUY)", levels, walk.ours, null, walk.plain, walk.upstream);
    const sell = await compare({
      ours: () => { sink += book.marketPrice("SELL", huge, "FAK"); },
      upstream: () => { sink += calculateSellMarketPrice(obj.bids, huge, "FAK"); },
    });
    row("full walk (marketPrice SELL)", levels, sell.ours, null, null, sell.upstream);
    const sim = await compare({ ours: () => { sink += book.simulate("BUY", { size: huge }).filled; } });
    row("full walk (simulate BUY)", levels, sim.ours, null, null, null);

    // The hash. Upstream's is async (crypto.subtle) and mutates the object, so it gets a copy.
    const copy = { ...obj };
    const hash = await compare({
      ours: () => { sink += book.hash().length; },
      plain: { fn: async () => { sink += (await plain.hash()).length; }, async: true },
      upstream: { fn: async () => { sink += (await generateOrderBookSummaryHash(copy)).length; }, async: true },
    });
    row("hash", total, hash.ours, null, hash.plain, hash.upstream, hash.rounds);
    book.free();
  }
  return { rows, sink: sink > 0, userAgent: navigator.userAgent };
}

/** The competitors must agree before they are timed. */
function check(book, obj, plain) {
  const [bid, ask, mid] = scanBest(obj);
  const same = (a, b, what) => { if (Math.abs(a - b) > 1e-9) throw new Error(`${what}: ${a} != ${b}`); };
  same(book.bestBidPrice(), bid, "best bid");
  same(book.bestAskPrice(), ask, "best ask");
  same(book.midpoint(), mid, "midpoint");
  same(plain.midpoint(), mid, "plain midpoint");
  same(book.marketPrice("BUY", 1e15, "FAK"), calculateBuyMarketPrice(obj.asks, 1e15, "FAK"), "walk");
  same(plain.marketBuyPrice(1e15, false), calculateBuyMarketPrice(obj.asks, 1e15, "FAK"), "plain walk");
  const amount = obj.asks.length > 2 ? 50 : 1;
  same(book.marketPrice("BUY", amount, "FAK"), calculateBuyMarketPrice(obj.asks, amount, "FAK"), "partial walk");
}
