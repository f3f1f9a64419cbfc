// The streaming channels in real headless Chromium, with the browser's own WebSocket (the Node run is
// tests/js/stream.test.mjs): live books that stay equal to the emulator's through thousands of changes,
// every stream fault survived with a verified book at the end, a stalled socket detected, unsubscribe, the
// user channel, and no unhandled rejection or error on the page. Each scenario runs inside a page of the
// emulator's origin (importing pkg/web through /pkg/index.mjs); the assertions are here.
import { test, before, after, beforeEach, afterEach } from "node:test";
import assert from "node:assert/strict";
import { launchChromium } from "./chromium.mjs";

const EMULATOR = process.env.PREDICTKIT_EMULATOR_URL ?? "http://127.0.0.1:8787";

let browser;
let page;
let assets;
const pageErrors = [];

async function admin(method, path, body) {
  const res = await fetch(EMULATOR + path, { method, body: body && JSON.stringify(body) });
  const text = await res.text();
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/**
 * Installed in the page as `window.h`: the emulator's admin routes, an event collector, `until` (an event
 * that satisfies a predicate) and `inStep` (a live book verified and equal to GET /book), as in the Node run.
 */
function pageHelpers() {
  async function admin(method, path, body) {
    const res = await fetch(path, { method, body: body && JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  }
  function collector() {
    const events = { list: [], waiters: [] };
    events.onEvent = (event) => {
      events.list.push(event);
      events.waiters = events.waiters.filter((w) => !w(event));
    };
    return events;
  }
  const show = (e) => e.event_type + (e.status ? ":" + e.status : "") + (e.reason ? ":" + e.reason : "") + (e.error ? ":" + e.error.code : "");
  function until(events, predicate, ms = 10_000, what = "event") {
    return new Promise((resolve, reject) => {
      const found = events.list.find(predicate);
      if (found) return resolve(found);
      const timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms; saw ${events.list.slice(-30).map(show).join(", ")}`)), ms);
      events.waiters.push((event) => {
        if (!predicate(event)) return false;
        clearTimeout(timer);
        resolve(event);
        return true;
      });
    });
  }
  /** `at`: how many events `events` (when given) had when the status was read. */
  async function inStep(stream, asset, ms = 10_000, events) {
    const deadline = Date.now() + ms;
    for (;;) {
      const at = events?.list.length;
      const status = stream.bookStatus(asset);
      const book = stream.book(asset);
      const served = await (await fetch(`/book?token_id=${asset}`)).json();
      const mine = book?.hash();
      book?.free();
      if (status?.verified && status.state === "live" && mine === served.hash) return { status, hash: mine, served: served.hash, at };
      if (Date.now() > deadline) throw new Error(`book of ${asset} not in step: ${JSON.stringify(status)} ${mine} vs ${served.hash}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return { admin, collector, until, inStep, show };
}

before(async () => {
  const markets = await (await fetch(`${EMULATOR}/markets`)).json();
  assets = markets.data.slice(0, 2).map((m) => m.tokens[0].token_id);
  browser = await launchChromium();
  page = await browser.newPage();
  page.on("pageerror", (e) => pageErrors.push(`${e.name}: ${e.message}`));
  // Any page of the emulator's origin will do: GET / answers "OK" and makes no requests of its own.
  await page.goto(`${EMULATOR}/`);
  await page.evaluate(async (helpers) => {
    window.problems = [];
    window.addEventListener("unhandledrejection", (e) => window.problems.push(`unhandled rejection: ${e.reason?.code ?? ""} ${e.reason?.message ?? e.reason}`));
    window.addEventListener("error", (e) => window.problems.push(`error: ${e.message}`));
    window.h = new Function(`return (${helpers})()`)();
    window.pk = await import("/pkg/index.mjs");
    await window.pk.default();
  }, pageHelpers.toString());
});
after(async () => {
  await browser?.close();
  await admin("POST", "/__admin/reset");
});
beforeEach(() => admin("POST", "/__admin/reset"));
// Whatever a test did, the page saw no unhandled rejection and no uncaught error.
afterEach(async () => {
  const problems = await page.evaluate(() => window.problems.splice(0));
  assert.deepEqual([...problems, ...pageErrors.splice(0)], []);
});

/** Runs `scenario(arg)` in the page with `pk` (the package), `h` (the helpers) and `assets`. */
function inPage(scenario, arg = {}) {
  return page.evaluate(
    async ({ source, arg }) => {
      const scenario = new Function("return " + source)();
      return scenario({ ...arg, pk: window.pk, h: window.h });
    },
    { source: scenario.toString(), arg: { ...arg, assets } },
  );
}

test("live books stay equal to the emulator's through 2,000 changes, verified after every entry", { timeout: 30_000 }, async () => {
  const r = await inPage(async ({ pk, h, assets }) => {
    const events = h.collector();
    const client = new pk.Client({ baseUrl: location.origin, rateLimits: false });
    const stream = client.marketStream(assets, { onEvent: events.onEvent, verify: "entry" });
    try {
      const first = [];
      for (const asset of assets) first.push(await h.inStep(stream, asset, 10_000, events));
      // A book event's own book_update is unverified until the snapshot gives the market fields that the
      // hash covers; from here on every update must be verified.
      const mark = events.list.length;
      for (const asset of assets) await h.admin("POST", "/__admin/stream/tick", { asset_id: asset, count: 1000 });
      const last = [];
      for (const asset of assets) last.push(await h.inStep(stream, asset, 20_000, events));
      const count = (type) => events.list.filter((e) => e.event_type === type).length;
      // The asset's price_change entries between two status readings.
      const entries = (asset, from, to) => events.list.slice(from, to).filter((e) => e.event_type === "price_change")
        .reduce((n, e) => n + e.price_changes.filter((c) => c.asset_id === asset).length, 0);
      return {
        first, last,
        resyncs: count("resync"), errors: events.list.filter((e) => e.event_type === "error").map(h.show),
        priceChanges: count("price_change"),
        entries: assets.map((asset, i) => entries(asset, first[i].at, last[i].at)),
        // Events that are checked too: a trade's book, and a trade's announcement that explains a waiting hash.
        others: assets.map((asset, i) => events.list.slice(first[i].at, last[i].at)
          .filter((e) => ["book", "last_trade_price"].includes(e.event_type) && e.asset_id === asset).length),
        updates: events.list.slice(mark).filter((e) => e.event_type === "book_update").length,
        unverified: events.list.slice(mark).filter((e) => e.event_type === "book_update" && !e.verified).length,
        deferred: assets.map((asset) => stream.bookStatus(asset).deferred),
        status: stream.status,
      };
    } finally {
      stream.close();
    }
  });
  assert.equal(r.last.length, 2, "both assets were followed");
  for (const [i, { status }] of r.last.entries()) {
    assert.equal(status.mismatches, 0, `asset ${i}`);
    // Verified after every entry: one check for each entry that came between the two readings, among them
    // the 1,000 ticks' (all but the rare tick-size changes are entries). Inside a trade's burst, whose
    // entries all carry the hash of the state after it, an entry's check waits for the burst's last one.
    const checked = status.checks + status.deferred - r.first[i].status.checks - r.first[i].status.deferred;
    const why = `${r.first[i].status.checks} → ${status.checks} checks, ${status.deferred} deferred, ${r.entries[i]} entries`;
    assert.ok(checked >= r.entries[i] && checked <= r.entries[i] + r.others[i], why);
    assert.ok(status.deferred > 0, "the emulator's trades come as bursts, as the service's do");
    assert.ok(r.entries[i] >= 950, `${r.entries[i]} entries of asset ${i}`);
    // The last state is the emulator's (GET /book's hash).
    assert.equal(r.last[i].hash, r.last[i].served);
  }
  assert.deepEqual(r.errors, []);
  assert.equal(r.resyncs, 0);
  assert.ok(r.updates >= 400, `${r.updates} book_update events`);
  // Once in step, a book is unverified only inside a burst, waiting for its last entry.
  assert.ok(r.unverified <= r.deferred.reduce((a, b) => a + b, 0), `${r.unverified} unverified book_update events`);
  assert.ok(r.priceChanges >= 400, `${r.priceChanges} price_change events`);
  assert.equal(r.status, "open");
});

for (const [kind, expected] of [
  ["wrong_hash", { type: "resync", reason: "hash_mismatch" }],
  ["lose", { type: "resync", reason: "hash_mismatch" }],
  ["malformed", { type: "error", code: "DECODE" }],
  ["drop", { type: "status", status: "reconnecting" }],
]) {
  test(`the stream survives a ${kind} fault and ends with a verified book equal to GET /book`, { timeout: 30_000 }, async () => {
    const r = await inPage(async ({ pk, h, assets, kind, expected }) => {
      const events = h.collector();
      const client = new pk.Client({ baseUrl: location.origin, rateLimits: false });
      const [asset] = assets;
      // Every entry checked, each carrying the hash of its own state (the emulator's exact shapes: in a
      // trade's burst of the real shapes a later frame of the same timestamp may make a lost frame moot).
      await h.admin("POST", "/__admin/stream", { shapes: "exact" });
      const stream = client.marketStream([asset], { onEvent: events.onEvent, verify: "entry" });
      try {
        const before = await h.inStep(stream, asset);
        await h.admin("POST", "/__admin/stream/faults", { path: "/ws/market", faults: [{ kind }] });
        const mark = events.list.length;
        await h.admin("POST", "/__admin/stream/tick", { asset_id: asset, count: 5 });
        const seen = await h.until(events, (e) => events.list.indexOf(e) >= mark && e.event_type === expected.type
          && (!expected.reason || e.reason === expected.reason)
          && (!expected.code || e.error?.code === expected.code)
          && (!expected.status || e.status === expected.status), 10_000, JSON.stringify(expected));
        await h.admin("POST", "/__admin/stream/tick", { asset_id: asset, count: 5 });
        const after = await h.inStep(stream, asset);
        const faults = await h.admin("GET", "/__admin/stream/faults");
        return {
          before, after, seen: h.show(seen), status: stream.status, faults,
          trail: events.list.slice(mark).filter((e) => !["price_change", "book_update", "last_trade_price", "tick_size_change"].includes(e.event_type)).map(h.show),
        };
      } finally {
        stream.close();
      }
    }, { kind, expected });
    // The fault was injected (the emulator says so) and the stream reported it as it should.
    assert.deepEqual(r.faults.rules.map((rule) => [rule.path, rule.injected, rule.remaining]), [["/ws/market", 1, 0]]);
    // ... and it ends live, verified and equal to the emulator's book.
    assert.equal(r.after.status.state, "live");
    assert.ok(r.after.status.verified);
    assert.equal(r.after.hash, r.after.served);
    assert.equal(r.status, "open", r.trail.join(", "));
    if (kind === "wrong_hash" || kind === "lose") assert.ok(r.after.status.mismatches >= 1, JSON.stringify(r.after.status));
    if (kind === "drop") assert.ok(r.trail.includes("status:open"), `reopened: ${r.trail.join(", ")}`);
    console.log(`# ${kind}: ${r.trail.join(", ")}`);
  });
}

test("a stalled socket (PONGs but no messages) is detected and the subscription renewed", { timeout: 30_000 }, async () => {
  const r = await inPage(async ({ pk, h, assets }) => {
    // The browser's WebSocket, watched: what each socket sent.
    const sockets = [];
    const Spy = class extends WebSocket {
      constructor(url) {
        super(url);
        this.sent = [];
        sockets.push(this);
      }
      send(text) {
        this.sent.push({ text, at: performance.now() });
        super.send(text);
      }
    };
    const events = h.collector();
    const client = new pk.Client({ baseUrl: location.origin, rateLimits: false });
    const [asset] = assets;
    const stream = client.marketStream([asset], { WebSocket: Spy, onEvent: events.onEvent, stallAfterMs: 600, pingEveryMs: 200, pongWithinMs: 1000 });
    try {
      await h.inStep(stream, asset);
      const mark = events.list.length;
      const started = performance.now();
      await h.admin("POST", "/__admin/stream/faults", { path: "/ws/market", faults: [{ kind: "stall", ms: 1500 }] });
      await h.until(events, (e) => events.list.indexOf(e) >= mark && e.status === "stalled", 5000, "stalled");
      const stalledAt = performance.now();
      await h.until(events, (e) => events.list.indexOf(e) >= mark && e.status === "open" && events.list.slice(mark).some((x) => x.status === "stalled"), 8000, "open again");
      await h.admin("POST", "/__admin/stream/tick", { asset_id: asset, count: 3 });
      const after = await h.inStep(stream, asset);
      const subscriptions = (socket) => socket.sent.filter((m) => m.text.startsWith("{")).map((m) => ({ ...JSON.parse(m.text), at: m.at }));
      return {
        stalledMs: stalledAt - started,
        after,
        sockets: sockets.map((s) => ({ url: s.url, subscriptions: subscriptions(s), pings: s.sent.filter((m) => m.text === "PING").length })),
        stalledAt,
        trail: events.list.slice(mark).filter((e) => e.event_type === "status").map(h.show),
        open: (await h.admin("GET", "/__admin/stream")).sockets.filter((s) => s.channel === "market").length,
      };
    } finally {
      stream.close();
    }
  });
  // Detected after about stallAfterMs of silence, well before the 1.5 s stall ended.
  assert.ok(r.stalledMs >= 300 && r.stalledMs < 1500, `stalled after ${r.stalledMs} ms`);
  // The subscription was renewed on the stalled socket (PONGs kept coming, so it was not lost); as the
  // stall outlasts a second stall period, a new connection followed and subscribed again.
  assert.deepEqual(r.trail, ["status:stalled", "status:reconnecting", "status:connecting", "status:open"], r.trail.join(", "));
  const [stalled, fresh] = r.sockets;
  assert.equal(r.sockets.length, 2, JSON.stringify(r.sockets));
  assert.equal(stalled.subscriptions.length, 2, JSON.stringify(stalled.subscriptions));
  assert.deepEqual(stalled.subscriptions[1].assets_ids, [assets[0]]);
  assert.ok(Math.abs(stalled.subscriptions[1].at - r.stalledAt) < 100, `renewed when the stall was seen (${stalled.subscriptions[1].at - r.stalledAt} ms)`);
  assert.ok(stalled.pings >= 3, `${stalled.pings} PINGs`);
  assert.deepEqual(fresh.subscriptions.map((m) => m.assets_ids), [[assets[0]]]);
  assert.equal(r.open, 1, "the stalled socket was closed");
  assert.ok(r.after.status.verified);
  assert.equal(r.after.hash, r.after.served);
});

test("unsubscribe stops an asset's events; subscribe adds one on the live socket", { timeout: 30_000 }, async () => {
  const r = await inPage(async ({ pk, h, assets }) => {
    const events = h.collector();
    const client = new pk.Client({ baseUrl: location.origin, rateLimits: false });
    const [a, b] = assets;
    const stream = client.marketStream([a], { onEvent: events.onEvent });
    try {
      await h.inStep(stream, a);
      stream.subscribe([b]);
      const bInStep = await h.inStep(stream, b);
      stream.unsubscribe([a]);
      await new Promise((r) => setTimeout(r, 200));
      const mark = events.list.length;
      await h.admin("POST", "/__admin/stream/tick", { asset_id: a, count: 20 });
      await h.admin("POST", "/__admin/stream/tick", { asset_id: b, count: 1 });
      await h.until(events, (e) => e.event_type === "price_change" && e.price_changes.some((c) => c.asset_id === b) && events.list.indexOf(e) >= mark, 5000, "b's change");
      const late = events.list.slice(mark).filter((e) => (e.asset_id === a) || (e.event_type === "price_change" && e.price_changes.some((c) => c.asset_id === a)));
      const sockets = (await h.admin("GET", "/__admin/stream")).sockets.filter((s) => s.channel === "market");
      return { bVerified: bInStep.status.verified, late: late.map(h.show), aStatus: stream.bookStatus(a) ?? null, aBook: stream.book(a) ?? null, sockets };
    } finally {
      stream.close();
    }
  });
  assert.ok(r.bVerified);
  assert.deepEqual(r.late, []);
  assert.equal(r.aStatus, null);
  assert.equal(r.aBook, null);
  // One socket throughout, now following only b.
  assert.equal(r.sockets.length, 1);
  assert.deepEqual(r.sockets[0].assets_ids, [assets[1]]);
});

test("for await gets the events; close() ends the iteration; an aborted signal closes", { timeout: 30_000 }, async () => {
  const r = await inPage(async ({ pk, assets }) => {
    const client = new pk.Client({ baseUrl: location.origin, rateLimits: false });
    const [asset] = assets;
    const stream = client.marketStream([asset]);
    const seen = [];
    for await (const event of stream) {
      seen.push(event.event_type);
      if (event.event_type === "book") stream.close();
    }
    const controller = new AbortController();
    const other = client.marketStream([asset], { signal: controller.signal });
    controller.abort();
    const rest = [];
    for await (const event of other) rest.push(event.event_type);
    return { seen, status: stream.status, book: stream.book(asset) ?? null, otherStatus: other.status, rest };
  });
  assert.ok(r.seen.includes("status") && r.seen.includes("book"), r.seen.join());
  assert.equal(r.status, "closed");
  assert.equal(r.book, null);
  assert.equal(r.otherStatus, "closed");
  assert.ok(!r.rest.includes("book"), r.rest.join());
});

test("the user channel reports a cancellation; its secret is in no URL, event or error", { timeout: 30_000 }, async () => {
  const [account] = await admin("GET", "/__admin/accounts");
  const credentials = { address: account.address, apiKey: account.apiKey, secret: account.secret, passphrase: account.passphrase };
  const r = await inPage(async ({ pk, h, credentials }) => {
    const urls = [];
    const Spy = class extends WebSocket {
      constructor(url) {
        urls.push(String(url));
        super(url);
      }
    };
    const events = h.collector();
    const client = new pk.Client({ baseUrl: location.origin, credentials, rateLimits: false });
    const stream = client.userStream([], { WebSocket: Spy, onEvent: events.onEvent });
    try {
      await h.until(events, (e) => e.event_type === "status" && e.status === "open", 5000, "open");
      const { data } = await client.getOpenOrders();
      const order = data[0];
      const cancelled = await client.cancelOrder(order.id);
      const event = await h.until(events, (e) => e.event_type === "order" && e.id === order.id, 5000, "cancellation");
      const anonymous = new pk.Client({ baseUrl: location.origin });
      const refused = (() => {
        try {
          anonymous.userStream([]);
          return "opened";
        } catch (e) {
          return e.code;
        }
      })();
      return { order: order.id, cancelled, event, everything: JSON.stringify(events.list) + urls.join(), urls, refused, status: stream.status };
    } finally {
      stream.close();
    }
  }, { credentials });
  assert.deepEqual(r.cancelled.canceled, [r.order]);
  assert.equal(r.event.type, "CANCELLATION");
  assert.equal(r.event.status, "CANCELED");
  assert.equal(r.event.owner, account.apiKey);
  assert.equal(r.status, "open");
  assert.deepEqual(r.urls, [`${EMULATOR.replace(/^http/, "ws")}/ws/user`]);
  for (const secret of [account.secret, account.passphrase]) assert.ok(!r.everything.includes(secret));
  // Without credentials: refused before any socket.
  assert.equal(r.refused, "UNAUTHORIZED");
});

test("hostile stream options and sockets give typed errors", async () => {
  const r = await inPage(({ pk }) => {
    const client = new pk.Client({ baseUrl: location.origin });
    const bad = [
      [[1], {}],
      [["x"], {}],
      ["123", {}],
      [new Proxy([], { get() { throw new Error("trap"); } }), {}],
      [["1"], { WebSocket: 42 }],
      [["1"], { verify: "sometimes" }],
      [["1"], { stallAfterMs: 5 }],
      [["1"], { signal: Object.create(AbortSignal.prototype) }],
      [["1"], { get onEvent() { throw new Error("boom"); } }],
      [["1"], new Proxy({}, { get() { throw new Error("trap"); } })],
      [["1"], { wsBaseUrl: "ftp://x" }],
      [["1"], 7],
    ];
    const outcomes = bad.map(([ids, options]) => {
      try {
        client.marketStream(ids, options).close();
        return "opened";
      } catch (e) {
        return pk.isPredictKitError(e) ? e.code : `${e.name}: ${e.message}`;
      }
    });
    // A WebSocket constructor that throws: the stream reports it and keeps trying, until closed.
    const events = [];
    const stream = client.marketStream(["1"], { WebSocket: function () { throw new Error("no sockets here"); }, onEvent: (e) => events.push(e) });
    const reported = events.filter((e) => e.event_type === "error").map((e) => e.error.code);
    const status = stream.status;
    stream.close();
    return { outcomes, reported, status, closed: stream.status };
  });
  assert.deepEqual(r.outcomes, Array(12).fill("INVALID_PARAMS"));
  assert.deepEqual(r.reported, ["NETWORK"]);
  assert.equal(r.status, "reconnecting");
  assert.equal(r.closed, "closed");
});

test("streams closed while a snapshot is in flight leave no unhandled rejection behind", { timeout: 30_000 }, async () => {
  // A wrong hash makes the stream fetch a snapshot (GET /book); the stream is closed as soon as it says
  // so, with the fetch still in flight, and the page then waits a quiet second for anything late.
  const r = await inPage(async ({ pk, h, assets }) => {
    const client = new pk.Client({ baseUrl: location.origin, rateLimits: false });
    const [asset] = assets;
    // Closed at once and after a few milliseconds: the first snapshot (for the market fields) in flight.
    for (let i = 0; i < 20; i++) {
      const stream = client.marketStream(assets, { verify: "entry" });
      await new Promise((r) => setTimeout(r, i * 5));
      stream.close();
    }
    const resyncs = [];
    // Each entry with the hash of its own state, so that a wrong one always resyncs.
    await h.admin("POST", "/__admin/stream", { shapes: "exact" });
    for (let i = 0; i < 5; i++) {
      const events = h.collector();
      const stream = client.marketStream([asset], { verify: "entry", onEvent: events.onEvent });
      await h.inStep(stream, asset);
      await h.admin("POST", "/__admin/stream/faults", { path: "/ws/market", faults: [{ kind: "wrong_hash" }] });
      await h.admin("POST", "/__admin/stream/tick", { asset_id: asset, count: 3 });
      await h.until(events, (e) => e.event_type === "resync", 5000, "resync");
      resyncs.push(stream.bookStatus(asset)?.state);
      stream.close();
    }
    await new Promise((r) => setTimeout(r, 1000));
    return { resyncs, problems: window.problems.slice() };
  });
  // Each was closed mid-resync (the snapshot not yet applied) ...
  assert.deepEqual(r.resyncs, Array(5).fill("resyncing"));
  // ... and nothing was left unhandled (checked again after the test).
  assert.deepEqual(r.problems, []);
});

// A quiet market: the dump is exactly the service's book and nothing changes after it. The simulator moves
// every subscribed book, so the market is a stand-in socket here that sends the dump (GET /book of a book
// nobody subscribes to, which stays still, without the market fields a dump leaves out) and answers PINGs.
test("a quiet market's book is verified once the snapshot gives the market fields", { timeout: 30_000 }, async () => {
  const r = await inPage(async ({ pk, assets }) => {
    const asset = assets[1];
    const served = await (await fetch(`/book?token_id=${asset}`)).json();
    const { min_order_size, neg_risk, ...dump } = served;
    class QuietMarket {
      constructor(url) {
        this.url = url;
        setTimeout(() => this.onopen?.(), 1);
      }
      send(text) {
        if (text === "PING") setTimeout(() => this.onmessage?.({ data: "PONG" }), 1);
        else if (JSON.parse(text).assets_ids?.includes(asset)) setTimeout(() => this.onmessage?.({ data: JSON.stringify({ event_type: "book", ...dump }) }), 1);
      }
      close() {}
    }
    const events = [];
    const started = performance.now();
    const client = new pk.Client({ baseUrl: location.origin, rateLimits: false });
    const stream = client.marketStream([asset], { WebSocket: QuietMarket, onEvent: (e) => events.push(e), pingEveryMs: 500 });
    await new Promise((r) => setTimeout(r, 2000));
    const book = stream.book(asset);
    const result = {
      equal: book?.hash() === served.hash,
      status: stream.bookStatus(asset),
      updates: events.filter((e) => e.event_type === "book_update").map((e) => e.verified),
      snapshots: performance.getEntriesByType("resource").filter((e) => e.startTime >= started && e.name.includes(`/book?token_id=${asset}`)).length,
    };
    book?.free();
    stream.close();
    return result;
  });
  assert.ok(r.equal, "the live book is the service's");
  assert.equal(r.snapshots, 1, "the stream fetched its snapshot");
  assert.equal(r.status.state, "live");
  assert.equal(r.status.verified, true, JSON.stringify(r));
  assert.equal(r.updates.at(-1), true, JSON.stringify(r.updates));
});

test("a large book is checked by the browser's crypto.subtle: answers come after the frame, a mismatch resyncs", async () => {
  // The service's side (bench/stream-frames.mjs, the benchmark's reference) runs here; the page gets its
  // snapshots and frames: 300 levels a side, past the 16 KiB from which the platform hashes.
  const { TruthBook, frame, ids, rng } = await import("../../bench/stream-frames.mjs");
  const random = rng(7);
  const { asset, market } = ids(random);
  const truth = new TruthBook({ random, levels: 300, asset, market, timestamp: 1_700_000_000_000 });
  const first = truth.snapshot();
  let ts = 1_700_000_000_000;
  const good = [];
  for (let i = 0; i < 100; i++) {
    ts++;
    good.push(frame(market, ts, Array.from({ length: 1 + (i % 3) }, () => truth.change(ts, true))));
  }
  const goodHash = truth.hash();
  truth.change(ts, false); // moved without a word: the next check fails
  ts++;
  const wrong = frame(market, ts, [truth.change(ts, true)]);
  // The mismatch waits for the rest of its burst (frames of the same timestamp); the next timestamp ends it.
  ts++;
  const next = frame(market, ts, [truth.change(ts, true)]);
  const second = truth.snapshot();
  const result = await page.evaluate(async ({ asset, first, second, good, wrong, next }) => {
    let snapshot = first;
    const fetch = async () => new Response(snapshot, { status: 200 });
    let socket;
    class FakeSocket {
      constructor() { socket = this; queueMicrotask(() => this.onopen?.({})); }
      send() {}
      close() {}
    }
    const events = [];
    const client = new window.pk.Client({ baseUrl: "http://service.invalid", fetch, rateLimits: false });
    const stream = client.marketStream([asset], { WebSocket: FakeSocket, onEvent: (e) => events.push(e) });
    const wait = async (ok) => {
      for (let i = 0; i < 1000 && !ok(); i++) {
        await stream.settled();
        await new Promise((r) => setTimeout(r, 2));
      }
    };
    await wait(() => stream.bookStatus(asset)?.verified);
    const start = stream.bookStatus(asset);
    socket.onmessage({ data: good[0] });
    const atOnce = stream.bookStatus(asset).checks - start.checks;
    for (const data of good.slice(1)) socket.onmessage({ data });
    await stream.settled();
    const after = stream.bookStatus(asset);
    const book = stream.book(asset);
    const hash = book.hash();
    book.free();
    snapshot = second;
    socket.onmessage({ data: wrong });
    socket.onmessage({ data: next });
    await wait(() => events.some((e) => e.event_type === "resync") && stream.bookStatus(asset).verified);
    const resynced = stream.bookStatus(asset);
    const last = stream.book(asset);
    const lastHash = last.hash();
    last.free();
    stream.close();
    client.free();
    return { atOnce, checks: after.checks - start.checks, after, hash, resync: events.find((e) => e.event_type === "resync"), resynced, lastHash, subtle: typeof crypto.subtle?.digest };
  }, { asset, first, second, good, wrong, next });
  assert.equal(result.subtle, "function");
  assert.equal(result.atOnce, 0, "answered inside onmessage: not handed to crypto.subtle");
  assert.equal(result.checks, 100);
  assert.ok(result.after.verified && result.after.mismatches === 0, JSON.stringify(result.after));
  assert.equal(result.hash, goodHash);
  assert.deepEqual(result.resync, { event_type: "resync", asset_id: asset, reason: "hash_mismatch" });
  assert.ok(result.resynced.verified && result.resynced.mismatches === 1, JSON.stringify(result.resynced));
  assert.equal(result.lastHash, truth.hash());
});
