// A hostile listener, signal and socket against the stream driver, and subscriptions past their bound, as
// scenarios that run in Node (tests/js/hostile-stream.test.mjs) and in Chromium (tests/browser/
// hostile-stream.test.mjs) alike. The service's side is made here, in Node, with the benchmark's reference
// book (bench/stream-frames.mjs); each scenario function is self-contained (no closure), so that the browser
// test can send its source to the page. Each returns plain data; the assertions are in the test files.
import { TruthBook, frame, ids, rng } from "../../bench/stream-frames.mjs";

/** A market that changes: its snapshot, frames of one change each, and its hash after all of them. */
export function marketData(seed = 25) {
  const random = rng(seed);
  const { asset, market } = ids(random);
  const ts = 1_700_000_000_000;
  const truth = new TruthBook({ random, levels: 8, asset, market, timestamp: ts });
  const snapshot = truth.snapshot();
  const frames = Array.from({ length: 8 }, (_, i) => frame(market, ts + 1 + i, [truth.change(ts + 1 + i, true)]));
  return { asset, snapshot, frames, hash: truth.hash() };
}

/**
 * A listener that hands the socket's frame back to its `onmessage` at every `price_change`, without end (the
 * re-entrancy that overflowed the stack), then the market's later frames delivered as usual; and a listener
 * that throws at every event. What the stream came to.
 */
export async function reentrantScenario(pk, data) {
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
  const until = async (ok, ms) => {
    const end = Date.now() + ms;
    while (!ok() && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
    return ok();
  };
  const fetch = async () => new Response(data.snapshot, { status: 200 });
  const client = new pk.Client({ baseUrl: "http://service.invalid", fetch, rateLimits: false });

  // 1. Re-entrant delivery without end.
  let reenter = false;
  let reentered = 0;
  const thrown = [];
  const errors = [];
  const stream = client.marketStream([data.asset], {
    WebSocket: FakeSocket,
    onEvent(e) {
      if (e.event_type === "error") errors.push({ code: e.error?.code, typed: pk.isPredictKitError(e.error), message: String(e.error?.message) });
      if (!reenter || e.event_type !== "price_change") return;
      reentered++;
      try {
        sockets[0].onmessage({ data: data.frames[0] });
      } catch (error) {
        thrown.push(`${error?.name}: ${error?.message}`);
      }
    },
  });
  const started = await until(() => stream.bookStatus(data.asset)?.verified, 5000);
  reenter = true;
  try {
    sockets[0].onmessage({ data: data.frames[0] });
  } catch (error) {
    thrown.push(`${error?.name}: ${error?.message}`);
  }
  reenter = false;
  const errorsWhileReentered = errors.splice(0);
  const statusAfterReentry = stream.bookStatus(data.asset);
  // The market goes on: later frames are applied and verified.
  for (const f of data.frames.slice(1)) sockets[0].onmessage({ data: f });
  await stream.settled();
  const book = stream.book(data.asset);
  const reentry = {
    started,
    reentered,
    thrown: thrown.slice(0, 3),
    thrownCount: thrown.length,
    errorsWhileReentered: errorsWhileReentered.slice(0, 3),
    errorsWhileReenteredCount: errorsWhileReentered.length,
    statusAfterReentry,
    errorsAfter: errors.splice(0),
    bookStatus: stream.bookStatus(data.asset),
    hash: book?.hash(),
    streamStatus: stream.status,
  };
  book?.free();
  stream.close();

  // 2. A listener that throws at every event, each time something else.
  const throwing = [
    () => new Error("listener"),
    () => new RangeError("Maximum call stack size exceeded"),
    () => new Proxy({}, { get() { throw new Error("a thrown Proxy"); } }),
    () => undefined,
  ];
  let calls = 0;
  const second = client.marketStream([data.asset], {
    WebSocket: FakeSocket,
    onEvent() {
      throw throwing[calls++ % throwing.length]();
    },
  });
  const secondStarted = await until(() => second.bookStatus(data.asset)?.verified, 5000);
  const socket = sockets[sockets.length - 1];
  for (const f of data.frames) socket.onmessage({ data: f });
  await second.settled();
  const secondBook = second.book(data.asset);
  const listenerThrows = { started: secondStarted, calls, bookStatus: second.bookStatus(data.asset), hash: secondBook?.hash(), streamStatus: second.status };
  secondBook?.free();
  second.close();
  client.free();
  return { reentry, listenerThrows };
}

/**
 * Signals whose own methods and `aborted` throw: a genuine AbortSignal given own properties, and Proxies of
 * one. Whether each stream opened, closed (by close() or by its abort), closed its socket, and stayed quiet
 * when the socket spoke after.
 */
export async function signalScenario(pk, data) {
  const sockets = [];
  class FakeSocket {
    constructor() {
      this.sent = [];
      this.closed = 0;
      sockets.push(this);
      queueMicrotask(() => this.onopen?.({ type: "open" }));
    }
    send(text) {
      this.sent.push(text);
    }
    close() {
      this.closed++;
    }
  }
  const until = async (ok, ms) => {
    const end = Date.now() + ms;
    while (!ok() && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
    return ok();
  };
  const describe = (e) => (e === undefined ? undefined : `${e?.name}${e?.code ? " " + e.code : ""}: ${e?.message}`);
  const fetch = async () => new Response(data.snapshot, { status: 200 });
  const client = new pk.Client({ baseUrl: "http://service.invalid", fetch, rateLimits: false });
  const hostileSignal = (only) => {
    const controller = new AbortController();
    const signal = controller.signal;
    const boom = (what) => () => {
      throw new Error(`the signal's own ${what}`);
    };
    if (!only) {
      Object.defineProperty(signal, "addEventListener", { value: boom("addEventListener") });
      Object.defineProperty(signal, "aborted", { get: boom("aborted") });
    }
    Object.defineProperty(signal, "removeEventListener", { value: boom("removeEventListener") });
    return { controller, signal };
  };
  /** Opens a stream with `signal`, ends it with `end`, then has its socket speak. */
  async function run(signal, end) {
    const before = sockets.length;
    const out = {};
    let stream;
    try {
      stream = client.marketStream([data.asset], { WebSocket: FakeSocket, signal, onEvent() {} });
    } catch (e) {
      out.openThrew = describe(e);
      out.typed = pk.isPredictKitError(e);
      out.socketsMade = sockets.length - before;
      return out;
    }
    const socket = sockets[before];
    out.opened = await until(() => stream.status !== "connecting", 3000) && stream.status === "open";
    out.verified = out.opened && (await until(() => stream.bookStatus(data.asset)?.verified, 3000));
    // The socket's handlers as the stream set them, to call after the end.
    const handlers = ["onopen", "onmessage", "onclose", "onerror"].map((name) => socket?.[name]);
    try {
      await end(stream);
    } catch (e) {
      out.endThrew = describe(e);
    }
    out.status = stream.status;
    out.bookStatusAfter = stream.bookStatus(data.asset) ?? null;
    out.socketClosed = socket?.closed ?? 0;
    out.laterEventsThrew = [];
    for (const handler of handlers) {
      try {
        handler?.({ type: "message", data: data.frames[0] });
      } catch (e) {
        out.laterEventsThrew.push(describe(e));
      }
    }
    try {
      stream.close();
    } catch (e) {
      out.closeAgainThrew = describe(e);
    }
    return out;
  }
  const result = {};
  {
    // Only its removeEventListener throws.
    const { signal } = hostileSignal("removeEventListener");
    result.removeThrows = await run(signal, (stream) => stream.close());
  }
  {
    const { signal } = hostileSignal();
    result.closed = await run(signal, (stream) => stream.close());
  }
  {
    const { controller, signal } = hostileSignal();
    result.aborted = await run(signal, async () => {
      controller.abort();
      await new Promise((r) => setTimeout(r, 10));
    });
  }
  {
    const { controller, signal } = hostileSignal();
    controller.abort();
    result.abortedBefore = await run(signal, () => new Promise((r) => setTimeout(r, 10)));
  }
  {
    const controller = new AbortController();
    result.proxy = await run(new Proxy(controller.signal, {}), (stream) => stream.close());
  }
  {
    const controller = new AbortController();
    const trap = () => {
      throw new Error("a Proxy trap");
    };
    result.throwingProxy = await run(new Proxy(controller.signal, { get: trap, has: trap, getPrototypeOf: trap }), (stream) => stream.close());
  }
  client.free();
  return result;
}

/**
 * Sockets whose handler setters throw, always or only when cleared (set to null), through reconnections; and
 * a platform WebSocket (`base`: the emulator, `asset` one of its tokens) given own properties that throw
 * (`close`, the handler setters). How many sockets were made, and how many were left open.
 */
export async function socketScenario(pk, data) {
  const until = async (ok, ms) => {
    const end = Date.now() + ms;
    while (!ok() && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
    return ok();
  };
  const fetch = async () => new Response(data.snapshot, { status: 200 });
  const client = new pk.Client({ baseUrl: "http://service.invalid", fetch, rateLimits: false });
  /** A socket class whose handler setters throw when `refuses(value)`. */
  function socketClass(refuses, made) {
    return class HostileSocket {
      constructor() {
        this.closed = 0;
        this.handlers = {};
        made.push(this);
        queueMicrotask(() => this.handlers.onopen?.({ type: "open" }));
      }
      send() {}
      close() {
        this.closed++;
      }
      static {
        for (const name of ["onopen", "onmessage", "onclose", "onerror"]) {
          Object.defineProperty(this.prototype, name, {
            get() {
              return this.handlers[name];
            },
            set(value) {
              if (refuses(value)) throw new Error(`the socket's ${name} setter`);
              this.handlers[name] = value;
            },
          });
        }
      }
    };
  }
  const open = (made) => made.filter((s) => s.closed === 0).length;
  const result = {};
  {
    // Every setter throws: each socket is given up at once, and the stream reconnects after its backoff.
    const made = [];
    const stream = client.marketStream([data.asset], { WebSocket: socketClass(() => true, made) });
    result.alwaysReconnected = await until(() => made.length >= 2, 5000);
    result.alwaysOpenWhileRunning = open(made);
    stream.close();
    result.alwaysMade = made.length;
    result.alwaysOpenAfterClose = open(made);
  }
  {
    // Setters that refuse null: the stream works, and every socket it leaves is still closed.
    const made = [];
    const stream = client.marketStream([data.asset], { WebSocket: socketClass((v) => v === null, made) });
    const opened = [];
    for (let i = 0; i < 3; i++) {
      opened.push(await until(() => made.length === i + 1 && stream.status === "open", 5000));
      if (i < 2) made[i].handlers.onclose?.({ type: "close" });
    }
    result.nullOpened = opened;
    result.nullOpenWhileRunning = open(made);
    stream.close();
    result.nullMade = made.length;
    result.nullOpenAfterClose = open(made);
  }
  if (data.base && typeof WebSocket === "function") {
    // The platform's WebSocket to the emulator, given own properties that throw: `close` and the handlers.
    const made = [];
    function OwnPropertySocket(url) {
      const socket = new WebSocket(url);
      const boom = (what) => () => {
        throw new Error(`own ${what}`);
      };
      Object.defineProperty(socket, "close", { value: boom("close") });
      for (const name of ["onopen", "onmessage", "onclose", "onerror"]) {
        Object.defineProperty(socket, name, { get: () => undefined, set: boom(name) });
      }
      made.push(socket);
      return socket;
    }
    const real = new pk.Client({ baseUrl: data.base, rateLimits: false });
    const events = [];
    const stream = real.marketStream([data.emulatorAsset], { WebSocket: OwnPropertySocket, onEvent: (e) => events.push(e.event_type) });
    const readyState = Object.getOwnPropertyDescriptor(WebSocket.prototype, "readyState").get;
    result.platformOpened = await until(() => stream.status === "open" && events.includes("book"), 5000);
    stream.close();
    result.platformMade = made.length;
    // CLOSING (2) or CLOSED (3): closed through the prototype's close, not the object's own.
    result.platformStates = made.map((s) => readyState.call(s));
    real.free();
  }
  client.free();
  return result;
}

/**
 * Subscriptions up to and past the bound (5,000 a stream), in calls of 500: where the bound refuses, what was
 * sent; and how long following `n` and `2n` assets takes (the best of three), for the ratio.
 */
export async function boundScenario(pk, data) {
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
  const until = async (ok, ms) => {
    const end = Date.now() + ms;
    while (!ok() && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
    return ok();
  };
  // Snapshots never come: the books wait, and nothing else competes with the subscriptions.
  const fetch = () => new Promise(() => {});
  const client = new pk.Client({ baseUrl: "http://service.invalid", fetch, rateLimits: false });
  const id = (i) => String(10n ** 70n + BigInt(i));
  const chunk = (from, n) => Array.from({ length: n }, (_, i) => id(from + i));
  const result = { accepted: 0 };
  const stream = client.marketStream(chunk(0, 500), { WebSocket: FakeSocket });
  result.opened = await until(() => stream.status === "open", 3000);
  const socket = sockets[0];
  let followed = 500;
  try {
    while (followed < data.bound) {
      stream.subscribe(chunk(followed, 500));
      followed += 500;
      result.accepted = followed;
    }
  } catch (e) {
    result.refusedEarly = `${e?.code}: ${e?.message}`;
  }
  const sent = socket.sent.length;
  try {
    stream.subscribe([...chunk(0, 10), id(followed)]);
    result.beyond = "accepted";
  } catch (e) {
    result.beyond = { code: e?.code, typed: pk.isPredictKitError(e), param: e?.param, message: e?.message };
  }
  result.sentOnRefusal = socket.sent.length - sent;
  result.beyondStatus = stream.bookStatus(id(followed)) ?? null;
  // Ids already followed change nothing and pass; unsubscribing makes room.
  try {
    stream.subscribe(chunk(0, 500));
    result.again = "ok";
  } catch (e) {
    result.again = `${e?.code}`;
  }
  stream.unsubscribe([id(0)]);
  try {
    stream.subscribe([id(followed)]);
    result.afterRoom = "ok";
  } catch (e) {
    result.afterRoom = `${e?.code}`;
  }
  result.lastSent = socket.sent.at(-1);
  stream.close();

  client.free();

  // The time to follow n assets, 500 a call, on a fresh client and stream (whose snapshots are answered 404
  // at once, so that none stays under way): the best of nine, alternating (a collection in one run of five
  // once read 3.02x on a loaded machine).
  const times = { half: Infinity, full: Infinity };
  async function follow(n) {
    const fresh = new pk.Client({ baseUrl: "http://service.invalid", fetch: async () => new Response("{}", { status: 404 }), rateLimits: false });
    const s = fresh.marketStream([], { WebSocket: FakeSocket });
    await until(() => s.status === "open", 3000);
    const calls = [];
    for (let at = 0; at < n; at += 500) calls.push(chunk(at, 500));
    const start = performance.now();
    for (const ids of calls) s.subscribe(ids);
    const ms = performance.now() - start;
    s.close();
    fresh.free();
    await new Promise((r) => setTimeout(r, 20));
    return ms;
  }
  await follow(1000);
  for (let run = 0; run < 9; run++) {
    times.half = Math.min(times.half, await follow(data.bound / 2));
    times.full = Math.min(times.full, await follow(data.bound));
  }
  result.halfMs = times.half;
  result.fullMs = times.full;
  return result;
}
