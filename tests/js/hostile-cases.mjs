// Hostile callers and hostile networks: the scenarios shared by tests/js/hostile.test.mjs (each run in a
// fresh Node child process) and tests/browser/hostile.test.mjs (each run in a fresh Chromium page).
//
// Every export here is a plain, self-contained function: the browser test ships its source text into the
// page and rebuilds it with `new Function`, so nothing may refer to this module's scope. Helpers shared by
// the scenarios live in `makeKit()`, which both runners build once per process (or page) and pass in as
// `kit`. A scenario takes `{ pk, kit, base, data, ... }` — `pk` the package as users load it, `base` the
// emulator's URL, `data` the recorded fixtures and ids — and returns plain data (outcomes, counts, URLs);
// the assertions are in the test files.
//
// An outcome is `{ kind, error?, ms }`, kind one of "returned", "resolved", "threw", "rejected" or
// "pending" (not settled within the deadline); `error` describes what was thrown without keeping it:
// `{ pk, name, code, message, ... }`, `pk` true only for a real Error named PredictKitError with a string
// code that `pk.isPredictKitError` recognises.

/** Helpers for the scenarios; self-contained (the browser test rebuilds it from its source text). */
export function makeKit() {
  // The package's table of the binding's internal entries (guard.mjs: `internal`), set by the runner: the
  // sweep and the freed check reach them there, as none is on a public prototype.
  let internalOf = (/** @type {unknown} */ _proto) => ({});
  const now = () => (typeof performance !== "undefined" ? performance.now() : Date.now());
  const thrower = (what) => () => {
    throw new Error(`hostile: ${what}`);
  };
  // A handler whose every trap (get, has, ownKeys, getOwnPropertyDescriptor, getPrototypeOf, apply, …) throws.
  const throwingHandler = new Proxy({}, { get: (_, trap) => thrower(`trap ${String(trap)}`) });
  const throwingProxy = new Proxy({}, throwingHandler);
  const throwingFunctionProxy = new Proxy(function hostile() {}, throwingHandler);
  const throwingArrayProxy = new Proxy(["1", "2"], { get: thrower("array get") });
  const withGetter = (object, key) => {
    const copy = { ...object };
    delete copy[key];
    Object.defineProperty(copy, key, { get: thrower(`getter ${key}`), enumerable: true, configurable: true });
    return copy;
  };
  const isPlainObject = (v) => v !== null && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype;

  /** What a thrown value was, as plain data, touching it only inside try blocks. */
  function describe(pk, e) {
    const d = {};
    try {
      d.isError = e instanceof Error;
    } catch {
      d.isError = false;
    }
    try {
      d.type = e === null ? "null" : typeof e;
    } catch {}
    try {
      d.name = String(e.name);
    } catch {
      d.name = undefined;
    }
    try {
      if (typeof e.code === "string") d.code = e.code;
    } catch {}
    try {
      d.message = String(e.message).slice(0, 300);
    } catch {}
    try {
      if (typeof e.param === "string") d.param = e.param;
    } catch {}
    try {
      if (e.status !== undefined) d.status = e.status;
    } catch {}
    try {
      d.guard = pk ? pk.isPredictKitError(e) === true : undefined;
    } catch {
      d.guard = "threw";
    }
    d.pk = d.isError === true && d.name === "PredictKitError" && typeof d.code === "string" && d.guard === true;
    return d;
  }

  /** Settles `promise` within `ms`: { status: "fulfilled" | "rejected" | "pending", value | reason }. */
  function settle(promise, ms) {
    let timer;
    return Promise.race([
      Promise.resolve(promise).then(
        (value) => ({ status: "fulfilled", value }),
        (reason) => ({ status: "rejected", reason }),
      ),
      new Promise((resolve) => {
        timer = setTimeout(() => resolve({ status: "pending" }), ms);
      }),
    ]).finally(() => clearTimeout(timer));
  }

  /**
   * Runs the synchronous part of `thunk()` now. Returns `{ outcome, value }` when it returned or threw, or
   * `{ promise }` (of an outcome) when it gave a promise or an async iterable (whose first `next()` is then
   * what settles, within `ms` or within 1 s of `return()`). `ms` bounds the wait.
   */
  function begin(pk, thunk, ms = 5000) {
    const t0 = now();
    let r;
    try {
      r = thunk();
    } catch (e) {
      return { outcome: { kind: "threw", error: describe(pk, e), ms: now() - t0 } };
    }
    let p;
    let it;
    if (r instanceof Promise) p = r;
    else if (r !== null && typeof r === "object") {
      let f;
      try {
        f = r[Symbol.asyncIterator];
      } catch {}
      if (typeof f === "function") {
        try {
          it = f.call(r);
          p = it.next();
        } catch (e) {
          return { outcome: { kind: "threw", at: "iterator", error: describe(pk, e), ms: now() - t0 } };
        }
      }
    }
    if (!p) return { outcome: { kind: "returned", type: r === null ? "null" : typeof r, ms: now() - t0 }, value: r };
    return {
      promise: settle(p, ms).then(async (s) => {
        if (it) {
          // Done with the iteration. An iterator may wait for its first item as long as it likes (a
          // stream waits for events), but then it must end when told to: its next() settles.
          let q;
          try {
            q = it.return?.();
            if (q instanceof Promise) q.catch(() => {});
          } catch (e) {
            if (s.status === "pending") return { kind: "threw", at: "return()", error: describe(pk, e), ms: now() - t0 };
          }
          if (s.status === "pending") s = await settle(p, 1000);
        }
        const ms2 = now() - t0;
        if (s.status === "fulfilled") return { kind: "resolved", ms: ms2, value: s.value };
        if (s.status === "rejected") return { kind: "rejected", error: describe(pk, s.reason), ms: ms2 };
        return { kind: "pending", ms: ms2 };
      }),
    };
  }

  /** The outcome of `thunk()`, awaited (value dropped unless `keep`). */
  async function attempt(pk, thunk, ms = 5000, keep = false) {
    const b = begin(pk, thunk, ms);
    const o = b.promise ? await b.promise : { ...b.outcome, value: b.value };
    if (!keep) delete o.value;
    return o;
  }

  /** Returned, resolved, or failed with a PredictKitError. */
  const acceptable = (o) => o.kind === "returned" || o.kind === "resolved" || ((o.kind === "threw" || o.kind === "rejected") && o.error.pk);
  /** Failed with a PredictKitError of this code. */
  const failedWith = (o, code) => (o.kind === "threw" || o.kind === "rejected") && o.error.pk && o.error.code === code;
  /** One line for a report. */
  const show = (o) =>
    o.kind === "threw" || o.kind === "rejected"
      ? `${o.kind} ${o.error.pk ? "PredictKitError " + o.error.code : (o.error.name ?? o.error.type) + (o.error.code ? ` (code ${o.error.code})` : "")}: ${o.error.message ?? ""}`
      : `${o.kind}${o.type ? " " + o.type : ""}`;

  let hostileMemo;
  /** The hostile values, built once: [[name, value], …]. The 2 GiB array is left out if it cannot be allocated. */
  function hostileValues() {
    if (hostileMemo) return hostileMemo;
    const sparse = [];
    sparse.length = 2 ** 32 - 1;
    let deep = [];
    for (let i = 0; i < 10_000; i++) deep = [deep];
    let huge = null;
    try {
      huge = new Uint8Array(2 ** 31);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
    }
    const list = [
      ["undefined", undefined],
      ["null", null],
      ["true", true],
      ["NaN", NaN],
      ["-1", -1],
      ["2**53", 2 ** 53],
      ["Infinity", Infinity],
      ['""', ""],
      ['"x".repeat(2e6)', "x".repeat(2_000_000)],
      ["Symbol()", Symbol("s")],
      ["10n", 10n],
      ["{length: 0xFFFFFFF0}", { length: 0xfffffff0 }],
      ["array of length 2**32-1", sparse],
      ["array nested 10,000 deep", deep],
      ["throwing Proxy", throwingProxy],
      ["throwing function Proxy", throwingFunctionProxy],
      ["array Proxy whose get throws", throwingArrayProxy],
      ["Object.create(AbortSignal.prototype)", Object.create(AbortSignal.prototype)],
      ["Object.create(Response.prototype)", Object.create(Response.prototype)],
      ["() => {}", () => {}],
      ["{ get limit() throws }", { get limit() { throw new Error("hostile: getter limit"); } }],
      ["{ get signal() throws }", { get signal() { throw new Error("hostile: getter signal"); } }],
      ["{ timeoutMs: Symbol() }", { timeoutMs: Symbol("t") }],
      ["{ signal: Object.create(AbortSignal.prototype) }", { signal: Object.create(AbortSignal.prototype) }],
      ["{ signal: throwing Proxy }", { signal: throwingProxy }],
    ];
    if (huge) list.push(["new Uint8Array(2**31)", huge]);
    hostileMemo = { list, hugeAllocated: !!huge, huge, sparse, deep };
    return hostileMemo;
  }

  /**
   * Valid-ish arguments per target, with the declared number of parameters (optional ones included).
   * A target not listed here gets its function's `length`, up to 5, and undefined arguments.
   */
  function signatures(data, stubFetch) {
    const tok = data.token;
    const cond = data.condition;
    const book = () => JSON.parse(data.bookJson);
    const enc = (s) => new TextEncoder().encode(s);
    const levels = () => [{ price: "0.5", size: "100" }, { price: "0.4", size: "100" }];
    const req = () => ({ timeoutMs: 4000, maxRetries: 0 });
    const order = () => ({ tokenId: tok, side: "BUY", price: 0.5, size: 10 });
    const orderDraft = () => ({
      version: 2, chainId: 137, exchange: "0x" + "ab".repeat(20), tokenId: tok, side: "BUY", orderType: "GTC",
      postOnly: false, expiration: "0", makerAmount: "5000000", takerAmount: "10000000", feeRateBps: "0",
    });
    const s = (arity, args = () => []) => ({ arity, args });
    // The REST methods (tests/js/surface.test.mjs holds these names and arities, options included, equal to
    // the core's route table).
    const rest = {
      cancelMarketOrders: s(2, () => [{ market: cond }, req()]),
      cancelOrder: s(2, () => [data.orderId, req()]),
      cancelOrders: s(2, () => [[data.orderId], req()]),
      cancelAll: s(1, () => [req()]),
      isOrderScoring: s(2, () => [data.orderId, req()]),
      areOrdersScoring: s(2, () => [[data.orderId], req()]),
      getBalanceAllowance: s(2, () => [{ asset_type: "COLLATERAL" }, req()]),
      updateBalanceAllowance: s(2, () => [{ asset_type: "CONDITIONAL", token_id: tok }, req()]),
      getBatchPricesHistory: s(2, () => [{ markets: [tok] }, req()]),
      getBook: s(2, () => [tok, req()]),
      getClobMarketInfo: s(2, () => [cond, req()]),
      getClosedPositions: s(2, () => [{ user: data.creds.address }, req()]),
      getCommentReplies: s(3, () => ["1", { limit: 1 }, req()]),
      getComments: s(2, () => [{ limit: 1 }, req()]),
      getEventCreators: s(2, () => [{ limit: 1 }, req()]),
      getEvents: s(2, () => [{ limit: 1 }, req()]),
      getFeeRate: s(2, () => [tok, req()]),
      getMarketBySlug: s(3, () => ["some-slug", {}, req()]),
      getMarket: s(3, () => ["1", {}, req()]),
      getMarkets: s(2, () => [undefined, req()]),
      getMidpoint: s(2, () => [tok, req()]),
      getOk: s(1, () => [req()]),
      getOpenOrders: s(2, () => [{ market: cond }, req()]),
      getOrderBook: s(2, () => [tok, req()]),
      getOrderBooks: s(2, () => [[{ token_id: tok }], req()]),
      getOrder: s(2, () => [data.orderId, req()]),
      getPrice: s(3, () => [tok, "BUY", req()]),
      getPricesHistory: s(2, () => [{ market: tok }, req()]),
      getPrices: s(2, () => [[{ token_id: tok, side: "BUY" }], req()]),
      getSamplingMarkets: s(2, () => [undefined, req()]),
      getSeries: s(2, () => [{ limit: 1 }, req()]),
      getTags: s(2, () => [{ limit: 1 }, req()]),
      getTrades: s(2, () => [{ limit: 1 }, req()]),
      getUserTrades: s(2, () => [{}, req()]),
      publicSearch: s(2, () => [{ q: "bitcoin" }, req()]),
    };
    const client = {
      ...rest,
      // The binding's entry for the REST methods (the named methods above are one line of JS over it): every
      // position, a page included, gets every hostile value.
      callRest: s(4, () => ["getEvents", { limit: 1 }, req(), undefined]),
      pageStart: s(3, () => ["getEvents", { limit: 1 }, { maxItems: 1 }]),
      nextPageArgument: s(4, () => ["getEvents", { limit: 1 }, [{}], 2]),
      // The trading driver's steps (src/js/package/trade.mjs calls them; they are public all the same).
      tradeSignal: s(1, () => [req()]),
      tradeOrder: s(5, () => [order(), false, undefined, req(), undefined]),
      tradeSign: s(4, () => [orderDraft(), data.creds.address, req(), { sign: async () => "0x" + "11".repeat(64) + "1b" }]),
      // A key from a wallet that answers: its route reaches the in-memory stub, whose 404 fails it.
      tradeApiKey: s(5, () => [data.creds.address, 0, 2, req(), { sign: async () => "0x" + "11".repeat(64) + "1b" }]),
      tradeSend: s(4, () => ["version", undefined, undefined, req()]),
      tradeDoctor: s(4, () => [data.creds.address, req(), true, { sign: async () => "0x", rpc: async () => "0x" }]),
      // A switch that starts (its heartbeats reach the in-memory stub, whose 404 stops it).
      heartbeats: s(1, () => [{ intervalMs: 8000, onStatus: () => {} }]),
      tradeHeartbeats: s(2, () => [{ intervalMs: 8000 }, {}]),
      // Followed orders (their reads reach the in-memory stub, whose 404 ends them).
      tradeTracker: s(5, () => [{ orderID: data.orderId, status: "live", tradeIDs: [] }, false, { pollMs: 1000 }, { tell() {}, inbox: [] }, new AbortController().signal]),
      trackOrder: s(2, () => [data.orderId, { stream: false, pollMs: 1000 }]),
      waitForSettlement: s(2, () => [{ orderID: data.orderId, status: "matched", tradeIDs: ["t1"] }, { timeoutMs: 2000 }]),
      diagnoseAccount: s(2, () => [{ address: data.creds.address, signTypedData: () => "0x" }, { ...req(), provider: { request: async () => "0x" } }]),
      nextPageArgument: s(4, () => ["getEvents", { limit: 1 }, [{ id: "1" }], false]),
      syncClock: s(1, () => [req()]),
      fills: s(1, () => [{ taker_order_id: "0x1", trade_owner: "k", maker_orders: [{ order_id: "0x2", owner: "k", matched_amount: "1" }] }]),
    };
    const table = {
      signRequest: s(5, () => [data.creds.secret, Date.now(), "GET", "/", undefined]),
      createL2Headers: s(3, () => [{ ...data.creds }, { method: "GET", requestPath: "/" }, undefined]),
      orderBookHash: s(1, () => [book()]),
      calculateBuyMarketPrice: s(3, () => [levels(), 10, "FOK"]),
      calculateSellMarketPrice: s(3, () => [levels(), 10, "FOK"]),
      calculateFee: s(3, () => [{ rate: 0.02, exponent: 1 }, 100, 0.5]),
      roundNormal: s(2, () => [1.2345, 2]),
      roundDown: s(2, () => [1.2345, 2]),
      roundUp: s(2, () => [1.2345, 2]),
      decimalPlaces: s(1, () => [1.25]),
      priceValid: s(2, () => [0.5, "0.01"]),
      isTickSizeSmaller: s(2, () => ["0.01", "0.001"]),
      isPredictKitError: s(1, () => [new Error("not ours")]),
      roundingConfig: s(0),
      driverTools: s(0),
      "new Client": s(1, () => [{
        baseUrl: data.base, fetch: stubFetch, rateLimits: { book: { requests: 50, windowMs: 10_000 } }, maxRetries: 0,
        timeoutMs: 4000, credentials: { ...data.creds }, onEvent: () => {},
      }]),
      "OrderBook.fromBytes": s(1, () => [enc(data.bookJson)]),
      "OrderBook.fromJson": s(1, () => [data.bookJson]),
      "OrderBook.fromObject": s(1, () => [book()]),
      "OrderBook.listFromBytes": s(1, () => [enc("[" + data.bookJson + "]")]),
      "OrderBook#applyPriceChange": s(2, () => [{ side: "BUY", price: "0.1", size: "125" }, undefined]),
      "OrderBook#depth": s(2, () => ["BUY", { within: 0.02 }]),
      "OrderBook#ladder": s(1, () => [{ levels: 5 }]),
      "OrderBook#marketPrice": s(3, () => ["BUY", 10, "FOK"]),
      "OrderBook#simulate": s(2, () => ["BUY", { notional: 10 }]),
    };
    for (const [k, v] of Object.entries(client)) table[`Client#${k}`] = v;
    for (const k of ["bestAskPrice", "bestAsk", "bestBidPrice", "bestBid", "hash", "midpoint", "spread"]) table[`OrderBook#${k}`] = s(0);
    // Hostile callbacks inside otherwise valid arguments.
    const extra = {
      "new Client": () => [[0, "{ onEvent throws }", { ...table["new Client"].args()[0], onEvent: thrower("onEvent") }],
        [0, "{ fetch: throwing function Proxy }", { ...table["new Client"].args()[0], fetch: throwingFunctionProxy }]],
    };
    return { table, extra, rest: Object.keys(rest) };
  }

  /**
   * Every target of the module, found by enumeration: each exported function, each exported class's
   * constructor, statics (not `__*`) and prototype methods and getters (not constructor, free,
   * `__*` or symbols). Instances: `makeInstance[className]()`, else `new C()`.
   */
  function targets(pk, makeInstance, sigs) {
    const out = [];
    const isClass = (f) => {
      try {
        // (The package exports its classes as views of the glue's, which print as functions.)
        return /^class[\s{]/.test(Function.prototype.toString.call(f)) || (typeof f.prototype?.free === "function" && f.prototype.constructor === f);
      } catch {
        return false;
      }
    };
    const sig = (id, fn) => sigs.table[id] ?? { arity: Math.min(5, fn.length), args: () => [] };
    for (const name of Object.keys(pk).sort()) {
      const value = pk[name];
      if (typeof value !== "function") continue;
      if (!isClass(value)) {
        out.push({ id: name, kind: "function", fn: value, self: null, ...sig(name, value) });
        continue;
      }
      const C = value;
      const ctor = `new ${name}`;
      out.push({ id: ctor, kind: "constructor", fn: (...a) => new C(...a), self: null, ...sig(ctor, C) });
      for (const st of Object.getOwnPropertyNames(C).sort()) {
        if (["length", "name", "prototype"].includes(st) || st.startsWith("__")) continue;
        if (typeof C[st] !== "function") continue;
        const id = `${name}.${st}`;
        out.push({ id, kind: "static", fn: C[st], self: () => C, ...sig(id, C[st]) });
      }
      const make = makeInstance[name] ?? (() => {
        try {
          return new C();
        } catch {
          return Object.create(C.prototype);
        }
      });
      for (const key of Reflect.ownKeys(C.prototype)) {
        if (typeof key !== "string" || key === "constructor" || key === "free" || key.startsWith("__")) continue;
        const d = Object.getOwnPropertyDescriptor(C.prototype, key);
        const id = `${name}#${key}`;
        if (d.get) out.push({ id, kind: "getter", fn: d.get, self: make, arity: 0, args: () => [] });
        else if (typeof d.value === "function") out.push({ id, kind: "method", fn: d.value, self: make, ...sig(id, d.value) });
      }
      // The binding's internal entries of the class (off its prototype), called with an instance as `this`.
      for (const [key, fn] of Object.entries(internalOf(C.prototype)).sort(([a], [b]) => (a < b ? -1 : 1))) {
        const id = `${name}#${key}`;
        if (typeof fn === "function") out.push({ id, kind: "method", fn, self: make, ...sig(id, fn) });
      }
    }
    return out;
  }

  /** The sweep's cases: each target with each hostile value in each position, the others valid-ish. */
  function sweepCases(pk, data, makeInstance, stubFetch) {
    const sigs = signatures(data, stubFetch);
    const { list } = hostileValues();
    const cases = [];
    for (const t of targets(pk, makeInstance, sigs)) {
      const add = (label, pos, value) => cases.push({
        id: label === null ? `${t.id}()` : `${t.id} [${pos}] ${label}`,
        index: cases.length,
        value: label,
        target: t,
        args: () => {
          const a = t.args();
          if (label === null) return a;
          while (a.length <= pos) a.push(undefined);
          a[pos] = value;
          return a;
        },
      });
      if (t.arity === 0) {
        add(null);
        continue;
      }
      for (let pos = 0; pos < Math.min(5, t.arity); pos++) {
        for (const [name, value] of list) add(name, pos, value);
        const d = t.args()[pos];
        if (isPlainObject(d)) {
          for (const key of Object.keys(d)) {
            add(`{ …valid, get ${key}() throws }`, pos, withGetter(d, key));
            add(`{ …valid, ${key}: throwing Proxy }`, pos, { ...d, [key]: throwingProxy });
          }
        } else if (Array.isArray(d) && d.length) {
          add("[throwing Proxy]", pos, [throwingProxy]);
          if (isPlainObject(d[0])) add(`[{ get ${Object.keys(d[0])[0]}() throws }]`, pos, [withGetter(d[0], Object.keys(d[0])[0])]);
        }
      }
      for (const [pos, label, value] of sigs.extra[t.id]?.() ?? []) add(label, pos, value);
    }
    return cases;
  }

  /**
   * The module still works: the signing and book-hash vectors match and a client's promise machinery
   * still turns (with a fetch answered in memory). Returns the problems found, [] when healthy.
   */
  async function health(pk, data) {
    const problems = [];
    try {
      for (const c of data.vectors.signing.cases) {
        const got = pk.signRequest(c.secret, c.timestamp, c.method, c.requestPath, c.body ?? undefined);
        if (got !== c.signature) problems.push(`signRequest(${c.method} ${c.requestPath}) gave ${String(got).slice(0, 60)}`);
      }
    } catch (e) {
      problems.push(`signRequest threw ${show({ kind: "threw", error: describe(pk, e) })}`);
    }
    try {
      for (const c of data.vectors.bookHash.cases) {
        if (c.order !== "service") continue;
        const book = pk.OrderBook.fromJson(c.json);
        const got = book.hash();
        book.free();
        if (got !== c.sha1) problems.push(`OrderBook.fromJson(…).hash() gave ${got}`);
      }
    } catch (e) {
      problems.push(`OrderBook.fromJson(…).hash() threw ${show({ kind: "threw", error: describe(pk, e) })}`);
    }
    try {
      const client = new pk.Client({ baseUrl: "http://127.0.0.1:9", rateLimits: false, fetch: async () => new Response('"OK"', { status: 200 }) });
      const o = await attempt(pk, () => client.getOk(), 2000, true);
      if (o.kind !== "resolved" || o.value !== "OK") problems.push(`getOk() with an in-memory fetch: ${show(o)}`);
      else client.free();
    } catch (e) {
      problems.push(`new Client threw ${show({ kind: "threw", error: describe(pk, e) })}`);
    }
    return problems;
  }

  /** Where the internal entries are (the package's guard.mjs `internal`). */
  const setInternal = (/** @type {(proto: unknown) => Record<string, Function>} */ fn) => {
    internalOf = fn;
  };
  return {
    now, thrower, throwingHandler, throwingProxy, throwingFunctionProxy, throwingArrayProxy, withGetter,
    describe, settle, begin, attempt, acceptable, failedWith, show, hostileValues, signatures, targets, sweepCases, health,
    setInternal, internalOf: (/** @type {unknown} */ proto) => internalOf(proto),
  };
}

/**
 * The closing check, at the end of every group in the process (or page) that received the hostile values:
 * the signing and book-hash vectors still match, and a fresh client still gets "OK" from the emulator.
 */
export async function closingCheck({ pk, kit, base, data }) {
  const problems = await kit.health(pk, data);
  let getOk;
  try {
    const o = await kit.attempt(pk, () => new pk.Client({ baseUrl: base }).getOk(), 5000, true);
    getOk = o.kind === "resolved" ? o.value : kit.show(o);
  } catch (e) {
    getOk = kit.show({ kind: "threw", error: kit.describe(pk, e) });
  }
  if (getOk !== "OK") problems.push(`new Client({ baseUrl }).getOk() gave ${getOk}`);
  return { problems };
}

/**
 * Rule 1, the sweep. Runs the cases of shard `shard.index` of `shard.count` (whole targets, the n-th
 * target in shard n % count) from index `start` on (the runner resumes after a case that blocked or
 * killed the process), or only those in `only`. Calls `progress(i, id, target, value)` before each case
 * and `emit(event)` for each outcome and finding as it happens, so that they survive a process killed
 * later. Asynchronous calls are not awaited one by one: each has 5 s from its start, and they are awaited
 * together at the end (microtasks are drained after each call, so that what it throws asynchronously
 * happens "during" it). A synchronous call blocking for more than 2 s breaks the rules too, and the same
 * value is then skipped in the target's other positions (as are the pairs in `skip`, "target|value",
 * which blocked an earlier process). A violation is followed by a health check (at once for a synchronous
 * one, at the end of its target for an asynchronous one); when the module is corrupted the sweep stops,
 * says where, and `next` says where to resume.
 */
export async function sweep({ pk, kit, base, data, start = 0, only = null, shard = { index: 0, count: 1 }, skip = [], progress = () => {}, emit = () => {} }) {
  const sent = [];
  const stubFetch = async (url) => {
    sent.push(String(url));
    return new Response('{"error":"in-memory stub"}', { status: 404, headers: { "content-type": "application/json" } });
  };
  const makeInstance = {
    Client: () => new pk.Client({ baseUrl: base, fetch: stubFetch, rateLimits: false, maxRetries: 0, timeoutMs: 4000, credentials: { ...data.creds } }),
    OrderBook: () => pk.OrderBook.fromJson(data.bookJson),
  };
  const cases = kit.sweepCases(pk, { ...data, base }, makeInstance, stubFetch);
  const { hugeAllocated } = kit.hostileValues();
  const skipped = new Set(skip);
  const report = { total: cases.length, ran: 0, hugeAllocated, violations: [], skipped: [], counts: {}, corrupted: null, next: null, targets: [] };
  const free = (v) => {
    try {
      if (v && typeof v === "object" && typeof v.free === "function") v.free();
    } catch {}
  };
  // What a call gave back is released: closed if it can be (a connection), freed if it holds wasm memory.
  const release = (v) => {
    try {
      if (v && typeof v === "object" && typeof v.close === "function") v.close();
    } catch {}
    free(v);
  };
  const tally = (i, o) => {
    const key = kit.acceptable(o) ? (o.error ? `PredictKitError ${o.error.code}` : o.kind) : "VIOLATION";
    report.counts[key] = (report.counts[key] ?? 0) + 1;
    emit({ tally: key, i });
  };
  const violation = (v) => {
    report.violations.push(v);
    emit({ violation: v });
  };
  // The indices to run, grouped by target (cases come grouped by target).
  const batchOf = [];
  for (let k = 0, n = -1; k < cases.length; k++) batchOf.push(k === 0 || cases[k].target !== cases[k - 1].target ? ++n : n);
  const wanted = only ? new Set(only) : null;
  const order = [];
  for (let k = start; k < cases.length; k++) {
    if (batchOf[k] % shard.count === shard.index && (!wanted || wanted.has(k))) order.push(k);
  }
  const inFlight = [];
  let asyncViolation = null;
  const finish = async () => {
    await Promise.all(inFlight);
    return { ...report, sent: sent.length };
  };
  let n = 0;
  while (n < order.length) {
    const tid = cases[order[n]].target.id;
    report.targets.push(tid);
    for (; n < order.length && cases[order[n]].target.id === tid; n++) {
      const i = order[n];
      const c = cases[i];
      if (skipped.has(`${tid}|${c.value}`)) {
        report.skipped.push({ i, id: c.id, why: `${c.value} already blocked ${tid}` });
        emit({ skipped: report.skipped.at(-1) });
        continue;
      }
      progress(i, c.id, tid, c.value);
      report.ran++;
      let self;
      try {
        self = c.target.self ? c.target.self() : undefined;
      } catch (e) {
        const o = { kind: "threw", at: "making the instance", error: kit.describe(pk, e) };
        tally(i, o);
        violation({ i, id: c.id, outcome: o });
        continue;
      }
      const args = c.args();
      const b = kit.begin(pk, () => c.target.fn.apply(self, args), 5000);
      if (b.outcome) {
        const o = b.outcome;
        tally(i, o);
        if (b.value !== self) release(b.value);
        if (c.target.kind === "method" || c.target.kind === "getter") free(self);
        const blocked = o.ms > 2000;
        if (blocked) skipped.add(`${tid}|${c.value}`);
        if (!kit.acceptable(o) || blocked) {
          violation({ i, id: c.id, outcome: o, blockedMs: blocked ? Math.round(o.ms) : undefined });
          const problems = await kit.health(pk, data);
          if (problems.length) {
            report.corrupted = { i, id: c.id, problems };
            report.next = order[n + 1] ?? null;
            return finish();
          }
        }
      } else {
        inFlight.push(b.promise.then((o) => {
          tally(i, o);
          if (o.kind !== "pending" && (c.target.kind === "method" || c.target.kind === "getter")) free(self);
          if (o.kind === "resolved" && o.value !== self) release(o.value);
          delete o.value;
          if (!kit.acceptable(o)) {
            violation({ i, id: c.id, outcome: o });
            asyncViolation ??= c.id;
          }
        }));
        for (let k = 0; k < 20; k++) await null;
      }
    }
    if (asyncViolation) {
      const first = asyncViolation;
      asyncViolation = null;
      const problems = await kit.health(pk, data);
      if (problems.length) {
        report.corrupted = { i: order[n - 1], id: `${first} (found after the calls to ${tid})`, problems };
        report.next = order[n] ?? null;
        return finish();
      }
    }
  }
  await Promise.all(inFlight);
  if (asyncViolation) {
    const problems = await kit.health(pk, data);
    if (problems.length) report.corrupted = { i: order.at(-1), id: `${asyncViolation} (found at the end)`, problems };
  }
  return { ...report, sent: sent.length };
}

/**
 * Rule 1, the named cases that must be INVALID_PARAMS with nothing sent. Resumable like the sweep
 * (`start`, `progress`, `next`, `corrupted`); each result, { name, outcome, sent }, is also emitted as
 * `{ named }` when it is known.
 */
export async function namedInvalid({ pk, kit, base, data, start = 0, progress = () => {}, emit = () => {} }) {
  const { huge, sparse, deep } = kit.hostileValues();
  const sent = [];
  const recording = (url, init) => {
    sent.push(String(url));
    return fetch(url, init);
  };
  const client = () => new pk.Client({ baseUrl: base, fetch: recording, rateLimits: false, maxRetries: 0 });
  const book = () => pk.OrderBook.fromJson(data.bookJson);
  const cases = [
    ["signRequest({ length: 0xFFFFFFF0 }, Date.now(), \"GET\", \"/\")", () => pk.signRequest({ length: 0xfffffff0 }, Date.now(), "GET", "/")],
    ["signRequest(undefined, Date.now(), \"GET\", \"/\")", () => pk.signRequest(undefined, Date.now(), "GET", "/")],
    ["OrderBook.fromBytes(new Uint8Array(2 ** 31))", huge ? () => pk.OrderBook.fromBytes(huge) : null],
    ["client.getBook(null)", () => client().getBook(null)],
    ["client.getBook([\"1\"])", () => client().getBook(["1"])],
    ["roundNormal(array nested 10,000 deep, 2)", () => pk.roundNormal(deep, 2)],
    ["orderBookHash(throwing Proxy)", () => pk.orderBookHash(kit.throwingProxy)],
    ["client.getTrades(throwing Proxy)", () => client().getTrades(kit.throwingProxy)],
    ["client.getOrderBooks(array of length 2**32-1)", () => client().getOrderBooks(sparse)],
    ["book.simulate(\"BUY\", throwing Proxy)", () => book().simulate("BUY", kit.throwingProxy)],
  ];
  const results = [];
  for (let i = start; i < cases.length; i++) {
    const [name, thunk] = cases[i];
    progress(i, name);
    if (!thunk) {
      results.push({ name, skipped: "new Uint8Array(2 ** 31) cannot be allocated here" });
      emit({ named: results.at(-1) });
      continue;
    }
    const before = sent.length;
    const outcome = await kit.attempt(pk, thunk, 5000);
    results.push({ name, outcome, sent: sent.slice(before) });
    emit({ named: results.at(-1) });
    if (!kit.failedWith(outcome, "INVALID_PARAMS")) {
      const problems = await kit.health(pk, data);
      if (problems.length) return { total: cases.length, results, corrupted: { i, id: name, problems }, next: i + 1 };
    }
  }
  return { total: cases.length, results, next: null };
}

/**
 * Rule 2: 2,000 rounds of calls whose arguments throw (Proxies, getters), and getters that free the book
 * or call into it while `applyPriceChange` reads them; then the same client and book are used again.
 */
export async function unwind({ pk, kit, base, data, rounds = 2000 }) {
  const sent = [];
  const client = new pk.Client({ baseUrl: base, rateLimits: false, maxRetries: 0, fetch: (url, init) => (sent.push(String(url)), fetch(url, init)) });
  const book = pk.OrderBook.fromJson(data.bookJson);
  const bestBefore = book.bestBid();
  const hashBefore = book.hash();
  const tallies = {};
  const examples = {};
  let round = 0;
  let firstBad = null;
  let stopped = null;
  const note = (label, o) => {
    const key = `${label}: ${kit.acceptable(o) ? (o.error ? `PredictKitError ${o.error.code}` : o.kind) : kit.show(o)}`;
    tallies[key] = (tallies[key] ?? 0) + 1;
    if (!kit.acceptable(o)) {
      examples[label] ??= kit.show(o);
      firstBad ??= { round, call: label, shown: kit.show(o) };
    }
  };
  let freedAfter = {};
  const pendingTrades = [];
  for (let r = 0; r < rounds; r++) {
    round = r;
    const t = kit.begin(pk, () => client.getTrades(kit.throwingProxy), 5000);
    if (t.outcome) note("getTrades(throwing Proxy)", t.outcome);
    else pendingTrades.push(t.promise);
    note("orderBookHash(throwing Proxy)", kit.begin(pk, () => pk.orderBookHash(kit.throwingProxy)).outcome);
    note("book.simulate(\"BUY\", throwing Proxy)", kit.begin(pk, () => book.simulate("BUY", kit.throwingProxy)).outcome);
    note("book.simulate(\"BUY\", { get notional() throws })",
      kit.begin(pk, () => book.simulate("BUY", { get notional() { throw new Error("hostile: notional"); } })).outcome);
    // A getter that calls the same book's methods while applyPriceChange reads the change. The change
    // sets the best bid to the size it already has, so the book is the same afterwards.
    const reentrant = {
      get side() {
        book.bestBid();
        book.hash();
        return "BUY";
      },
      price: "0.1",
      size: "125",
    };
    note("book.applyPriceChange(a change whose getter calls the book)", kit.begin(pk, () => book.applyPriceChange(reentrant)).outcome);
    // A getter that frees the book it is read for (a throwaway book each round).
    const made = kit.begin(pk, () => pk.OrderBook.fromJson(data.bookJson));
    if (made.outcome.kind !== "returned") {
      stopped = { round: r, shown: `OrderBook.fromJson(a valid book) ${kit.show(made.outcome)}` };
      break;
    }
    const doomed = made.value;
    const freeing = {
      get side() {
        doomed.free();
        return "BUY";
      },
      price: "0.1",
      size: "125",
    };
    note("doomed.applyPriceChange(a change whose getter frees doomed)", kit.begin(pk, () => doomed.applyPriceChange(freeing)).outcome);
    const after = kit.begin(pk, () => doomed.bestBid()).outcome;
    const key = kit.show(after);
    freedAfter[key] = (freedAfter[key] ?? 0) + 1;
    try {
      doomed.free();
    } catch (e) {
      const k2 = `second free() threw ${kit.show({ kind: "threw", error: kit.describe(pk, e) })}`;
      freedAfter[k2] = (freedAfter[k2] ?? 0) + 1;
    }
  }
  for (const o of await Promise.all(pendingTrades)) note("getTrades(throwing Proxy)", o);
  const tradesSent = sent.filter((u) => u.includes("/trades")).length;
  // The same client and book, afterwards.
  const later = {
    bestBid: kit.attempt(pk, () => book.bestBid(), 1000, true),
    hash: kit.attempt(pk, () => book.hash(), 1000, true),
    getOk: kit.attempt(pk, () => client.getOk(), 5000, true),
    getTrades: kit.attempt(pk, () => client.getTrades({ limit: 2 }), 5000, true),
  };
  const res = {};
  for (const [k, p] of Object.entries(later)) {
    const o = await p;
    res[k] = o.kind === "returned" || o.kind === "resolved" ? { ok: true, value: k === "getTrades" ? (Array.isArray(o.value) ? o.value.length : typeof o.value) : o.value } : { ok: false, shown: kit.show(o) };
  }
  const bookFree = await kit.attempt(pk, () => book.free(), 1000);
  const clientFree = await kit.attempt(pk, () => client.free(), 1000);
  return {
    rounds, tallies, examples, firstBad, stopped, freedAfter, tradesSent, bestBefore, hashBefore, later: res,
    bookFree: kit.show(bookFree), clientFree: kit.show(clientFree),
  };
}

/**
 * Rule 3: fake signals per call; then clients whose fetch misbehaves, five rounds of getOk, getEvents
 * and getBook on each; then a normal client.
 */
export async function badFetch({ pk, kit, base, data, rounds = 5 }) {
  const fetches = {
    "() => 42": () => 42,
    "() => null": () => null,
    "() => { throw }": () => {
      throw new Error("hostile: sync");
    },
    "() => ({ then() { throw } })": () => ({
      then() {
        throw new Error("hostile: then");
      },
    }),
    "async () => Object.create(Response.prototype)": async () => Object.create(Response.prototype),
    "async () => throwing Proxy": async () => new Proxy({}, kit.throwingHandler),
    "async () => ({ status: 200, get headers() throws })": async () => ({
      status: 200,
      get headers() {
        throw new Error("hostile: headers");
      },
    }),
  };
  // First the signals (so that a wedge from the fetches cannot hide what they do).
  const sent = [];
  const recording = new pk.Client({ baseUrl: base, fetch: (url, init) => (sent.push(String(url)), fetch(url, init)) });
  const signals = {
    "getOk({ signal: Object.create(AbortSignal.prototype) })": await kit.attempt(pk, () => recording.getOk({ signal: Object.create(AbortSignal.prototype) })),
    "getOk({ signal: throwing Proxy })": await kit.attempt(pk, () => recording.getOk({ signal: new Proxy({}, kit.throwingHandler) })),
  };
  // A transparent Proxy of a real, already aborted signal: refused, or honoured — never ignored.
  const proxied = await kit.attempt(pk, () => recording.getOk({ signal: new Proxy(AbortSignal.abort(), {}) }));
  const outcomes = {};
  const t0 = kit.now();
  for (let r = 0; r < rounds; r++) {
    const calls = [];
    for (const [name, f] of Object.entries(fetches)) {
      let client;
      try {
        client = new pk.Client({ baseUrl: base, fetch: f, maxRetries: 1, rateLimits: false });
      } catch (e) {
        outcomes[`${name} new Client`] = [kit.show({ kind: "threw", error: kit.describe(pk, e) })];
        continue;
      }
      for (const [call, thunk] of [["getOk()", () => client.getOk()], ["getEvents()", () => client.getEvents()], ["getBook(token)", () => client.getBook(data.token)]]) {
        calls.push(kit.attempt(pk, thunk, 5000).then((o) => {
          const ok = (o.kind === "rejected" || o.kind === "threw") && o.error.pk && ["NETWORK", "DECODE"].includes(o.error.code);
          const key = `${name} ${call}`;
          (outcomes[key] ??= []).push(ok ? "ok" : kit.show(o));
        }));
      }
    }
    await Promise.all(calls);
    // A round that left calls pending has wedged something: more rounds would only wait again.
    if (Object.values(outcomes).some((list) => list.at(-1) === "pending")) break;
  }
  const roundsMs = kit.now() - t0;
  const normal = await kit.attempt(pk, () => new pk.Client({ baseUrl: base }).getOk(), 5000, true);
  return {
    outcomes,
    roundsMs,
    signals: Object.fromEntries(Object.entries(signals).map(([k, o]) => [k, { code: o.error?.pk ? o.error.code : null, shown: kit.show(o) }])),
    proxiedAborted: { code: proxied.error?.pk ? proxied.error.code : null, shown: kit.show(proxied) },
    signalsSent: sent,
    normal: normal.kind === "resolved" ? normal.value : kit.show(normal),
  };
}

/** Rule 4: deadlines whatever fetch does; timeouts too large for setTimeout do not fire at once. */
export async function deadline({ pk, kit, base, data }) {
  const timed = async (thunk, ms) => {
    const t = kit.now();
    const o = await kit.attempt(pk, thunk, ms, true);
    return { code: o.error?.pk ? o.error.code : null, shown: kit.show(o), value: o.kind === "resolved" ? (typeof o.value === "string" ? o.value : typeof o.value) : undefined, ms: Math.round(kit.now() - t) };
  };
  const never = new pk.Client({ baseUrl: base, fetch: () => new Promise(() => {}), rateLimits: false });
  const endless = new pk.Client({
    baseUrl: base,
    rateLimits: false,
    fetch: async () => new Response(new ReadableStream({ start() {} }), { status: 200, headers: { "content-type": "application/json" } }),
  });
  const delayed = new pk.Client({
    baseUrl: base,
    rateLimits: false,
    fetch: (url, init) => new Promise((resolve) => setTimeout(resolve, 50)).then(() => fetch(url, init)),
  });
  const [neverSettles, endlessOk, endlessBook, big31, big40] = await Promise.all([
    timed(() => never.getOk({ timeoutMs: 1000 }), 6000),
    timed(() => endless.getOk({ timeoutMs: 1000 }), 6000),
    timed(() => endless.getBook(data.token, { timeoutMs: 1000 }), 6000),
    timed(() => delayed.getOk({ timeoutMs: 2 ** 31 }), 6000),
    timed(() => delayed.getOk({ timeoutMs: 2 ** 40 }), 6000),
  ]);
  return { neverSettles, endlessOk, endlessBook, big31, big40 };
}

/** Rule 5: path segments "." and ".." are refused before anything is sent. */
export async function traversal({ pk, kit, base, data }) {
  const sent = [];
  const client = new pk.Client({ baseUrl: base, credentials: { ...data.creds }, maxRetries: 0, fetch: (url, init) => (sent.push(String(url)), fetch(url, init)) });
  const calls = [
    ['getCommentReplies("..")', () => client.getCommentReplies("..")],
    ['getCommentReplies(".")', () => client.getCommentReplies(".")],
    ['getMarketBySlug("..")', () => client.getMarketBySlug("..")],
    ['getMarketBySlug(".")', () => client.getMarketBySlug(".")],
    ['getMarket("..")', () => client.getMarket("..")],
    ['getOrder("..")', () => client.getOrder("..")],
    ['cancelOrder("..")', () => client.cancelOrder("..")],
    ['cancelOrders([".."])', () => client.cancelOrders([".."])],
    ['isOrderScoring("..")', () => client.isOrderScoring("..")],
    ['getFeeRate("..")', () => client.getFeeRate("..")],
    ['getClobMarketInfo("..")', () => client.getClobMarketInfo("..")],
  ];
  const results = [];
  for (const [name, thunk] of calls) {
    const before = sent.length;
    const o = await kit.attempt(pk, thunk, 5000);
    results.push({ name, code: o.error?.pk ? o.error.code : null, shown: kit.show(o), sent: sent.slice(before) });
  }
  return { results };
}

/**
 * Rule 6: a client whose base URL answers 307 to another origin. `a` is the redirecting origin.
 * Authenticated calls must fail (API, "redirect"); the public getOk() is followed.
 */
export async function redirect({ pk, kit, a, data }) {
  const client = new pk.Client({ baseUrl: a, credentials: { ...data.creds }, maxRetries: 0, rateLimits: false });
  const orderId = "0x" + "a".repeat(64);
  const calls = [
    ["getOpenOrders()", () => client.getOpenOrders()],
    ["getOrder(id)", () => client.getOrder(orderId)],
    ["cancelOrder(id)", () => client.cancelOrder(orderId)],
    ["cancelMarketOrders({ market })", () => client.cancelMarketOrders({ market: "0x" + "b".repeat(64) })],
    ["cancelOrders([id])", () => client.cancelOrders([orderId])],
    ["cancelAll()", () => client.cancelAll()],
    ["getBalanceAllowance()", () => client.getBalanceAllowance({ asset_type: "COLLATERAL" })],
    ["getUserTrades()", () => client.getUserTrades()],
  ];
  const results = [];
  for (const [name, thunk] of calls) {
    const o = await kit.attempt(pk, thunk, 5000);
    results.push({ name, kind: o.kind, code: o.error?.pk ? o.error.code : null, message: o.error?.message ?? null, shown: kit.show(o) });
  }
  const pub = await kit.attempt(pk, () => client.getOk(), 5000, true);
  return { results, getOk: pub.kind === "resolved" ? { value: pub.value } : { shown: kit.show(pub) } };
}

/** Rule 7: every member of a freed Client and OrderBook is FREED; free() twice does nothing. */
export async function freed({ pk, kit, base, data }) {
  const stubFetch = async () => new Response('"OK"', { status: 200 });
  const sigs = kit.signatures({ ...data, base }, stubFetch);
  const report = {};
  for (const [name, make] of [
    ["Client", () => new pk.Client({ baseUrl: base, fetch: stubFetch, credentials: { ...data.creds } })],
    ["OrderBook", () => pk.OrderBook.fromJson(data.bookJson)],
  ]) {
    const C = pk[name];
    const obj = make();
    const first = await kit.attempt(pk, () => obj.free(), 1000);
    const members = {};
    for (const key of Reflect.ownKeys(C.prototype)) {
      if (typeof key !== "string" || key === "constructor" || key === "free" || key.startsWith("__")) continue;
      const d = Object.getOwnPropertyDescriptor(C.prototype, key);
      const args = sigs.table[`${name}#${key}`]?.args() ?? [];
      const thunk = d.get ? () => d.get.call(obj) : () => d.value.apply(obj, args);
      const o = await kit.attempt(pk, thunk, 3000);
      members[key] = { code: o.error?.pk ? o.error.code : null, shown: kit.show(o) };
    }
    // The internal entries (statics aside: they take no instance) fail the same way on a freed instance.
    for (const [key, fn] of Object.entries(kit.internalOf(C.prototype))) {
      if (key === "restMethods") continue;
      const args = sigs.table[`${name}#${key}`]?.args() ?? [];
      const o = await kit.attempt(pk, () => fn.apply(obj, args), 3000);
      members[key] = { code: o.error?.pk ? o.error.code : null, shown: kit.show(o) };
    }
    const second = await kit.attempt(pk, () => obj.free(), 1000);
    const dispose = typeof Symbol.dispose === "symbol" && typeof obj[Symbol.dispose] === "function"
      ? kit.show(await kit.attempt(pk, () => obj[Symbol.dispose](), 1000))
      : "no Symbol.dispose";
    report[name] = { firstFree: kit.show(first), members, secondFree: kit.show(second), dispose };
  }
  const guard = {};
  for (const [label, v] of [["throwing Proxy", kit.throwingProxy], ["throwing function Proxy", kit.throwingFunctionProxy], ["Object.create(Error.prototype)", Object.create(Error.prototype)]]) {
    const o = await kit.attempt(pk, () => pk.isPredictKitError(v), 1000, true);
    guard[label] = o.kind === "returned" ? o.value : kit.show(o);
  }
  return { ...report, isPredictKitError: guard };
}

/** Rule 8: getBook retried after a cut and a malformed body (the faults are set by the test). */
export async function retryBook({ pk, kit, base, data }) {
  const events = [];
  const client = new pk.Client({ baseUrl: base, onEvent: (e) => events.push({ type: e.type, code: e.error?.code }) });
  const o = await kit.attempt(pk, () => client.getBook(data.token, { maxRetries: 2 }), 10_000, true);
  let bidCount;
  let askCount;
  if (o.kind === "resolved") {
    bidCount = o.value.bidCount;
    askCount = o.value.askCount;
    o.value.free();
  }
  return { shown: kit.show(o), bidCount, askCount, events };
}

/** Rule 10: extraQuery, and the checks on it. */
export async function extraQuery({ pk, kit, base }) {
  const sent = [];
  const client = new pk.Client({ baseUrl: base, maxRetries: 0, fetch: (url, init) => (sent.push(String(url)), fetch(url, init)) });
  const before = () => sent.length;
  const good = await kit.attempt(pk, () => client.getEvents({ limit: 2 }, { extraQuery: { liquidity_min: 10, featured: true } }), 5000, true);
  const goodSent = sent.slice();
  const many = {};
  for (let k = 0; k < 21; k++) many[`q${k}`] = k;
  const bad = {};
  for (const [label, thunk] of [
    ["extraQuery: { limit: 5 }", () => client.getEvents({ limit: 2 }, { extraQuery: { limit: 5 } })],
    ["extraQuery: { x: {} }", () => client.getEvents({ limit: 2 }, { extraQuery: { x: {} } })],
    ["extraQuery: 5", () => client.getEvents({ limit: 2 }, { extraQuery: 5 })],
    ["extraQuery with 21 entries", () => client.getEvents({ limit: 2 }, { extraQuery: many })],
    ['extraQuery: { "a b": 1 }', () => client.getEvents({ limit: 2 }, { extraQuery: { "a b": 1 } })],
    ["getEvents({ liquidity_min: 10 })", () => client.getEvents({ liquidity_min: 10 })],
  ]) {
    const n = before();
    const o = await kit.attempt(pk, thunk, 5000);
    bad[label] = { code: o.error?.pk ? o.error.code : null, shown: kit.show(o), sent: sent.slice(n) };
  }
  const n = before();
  const items = [];
  let iterError = null;
  try {
    for await (const e of client.getEvents({ limit: 2 }, { maxItems: 3, extraQuery: { featured: true } })) items.push(e.id);
  } catch (e) {
    iterError = kit.show({ kind: "threw", error: kit.describe(pk, e) });
  }
  return {
    good: good.kind === "resolved" ? { count: Array.isArray(good.value) ? good.value.length : null } : { shown: kit.show(good) },
    goodSent,
    bad,
    iterate: { items: items.length, error: iterError, sent: sent.slice(n) },
  };
}
