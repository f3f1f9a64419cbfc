// The REST driver (src/js/driver.js) on its own, with no wasm and no emulator: `drive()` runs a fake call
// handle that answers the JSON texts the call machine would (src/api/call.rs: Need::to_json), over a fake
// fetch, with short real timers. Checked: what the driver fetches and tells the machine (`supply`, `stop`),
// what the caller gets for each shape, the wait with its events and wake-ups, the signal and the deadline,
// fetches and bodies that misbehave, and that the handle is freed once however the call ends; and
// `exchange()` and `makeError()` by themselves; and the wallet's side (`askSigner`), with
// its timeout, signal and misbehaving signers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { drive, exchange, makeError } from "../../src/js/driver.js";

// --- The machine's needs, as Need::to_json writes them ---------------------------------------------------

const URL_X = "https://svc.test/x?a=1";
const send = ({ url = URL_X, method = "GET", headers = { Accept: "application/json" }, body = null, manual = 0, bytes = 0, json = bytes ? 0 : 1, woken = [] } = {}) =>
  [0, woken, url, method, headers, body, manual, bytes, json];
const wait = (ms, event = null, woken = []) => [1, woken, ms, event];
const done = (result = null, woken = []) => [2, woken, result];
const fail = (error, woken = []) => [3, woken, error];

/**
 * A call handle whose machine follows `script`: each `next`, `supply` or `stop` takes the next entry (a
 * need, or a function of the step's arguments giving one) and answers its JSON text. `log` records every
 * step with its arguments (`supply`'s nine, `stop`'s `timedOut`), `book`, `done` (answering `woken`) and `free`
 * included.
 */
function fakeCall(script, { id = 7, book, woken = [] } = {}) {
  const log = [];
  let at = 0;
  const answer = (step, args) => {
    log.push([step, ...args]);
    if (at >= script.length) throw new Error(`the driver asked ${step} after the script's end`);
    const need = script[at++];
    return JSON.stringify(typeof need === "function" ? need(...args) : need);
  };
  const handle = {
    id,
    next: () => answer("next", []),
    supply: (...args) => answer("supply", args),
    stop: (timedOut) => answer("stop", [timedOut]),
    book: () => (log.push(["book"]), book),
    keep: () => void log.push(["keep"]),
    done: () => (log.push(["done"]), JSON.stringify([2, woken, null])),
    free: () => log.push(["free"]),
  };
  return { handle, log, steps: () => log.map(([step]) => step), left: () => script.length - at };
}

/** A fetch that records its calls and answers with `answer(url, init, n)` (a value, a promise, or a throw). */
function fakeFetch(answer) {
  const calls = [];
  const fetch = (url, init) => {
    calls.push({ url, init });
    return answer(url, init, calls.length);
  };
  return { fetch, calls };
}

const json = (value, status = 200, headers = {}) =>
  new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json", ...headers } });
const pending = () => new Promise(() => {});
/** A body that never ends: its stream is never closed. */
const endless = (status = 200) => new Response(new ReadableStream({ start() {} }), { status });

/** Runs `drive` with defaults: no caller signal, no deadline, no onEvent, a fresh waiters map, shape 0. */
function run(call, fetch, { signal, timeoutMs = Infinity, onEvent, waiters = new Map(), shape = 0 } = {}) {
  return drive(call.handle, fetch, signal, timeoutMs, onEvent, waiters, shape);
}

/** `promise`, or a rejection after `ms` (a call that hangs fails its test rather than the run's end). */
function within(promise, ms = 2000) {
  let timer;
  const late = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Awaits `promise`, which must reject; returns the reason. */
async function rejection(promise) {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  assert.fail("expected a rejection");
}

function freedOnce(call) {
  assert.equal(call.log.filter(([step]) => step === "free").length, 1, `free() once: ${JSON.stringify(call.steps())}`);
  assert.equal(call.steps().at(-1), "free", "free() last");
}

const supplied = (call) => call.log.filter(([step]) => step === "supply").map(([, ...args]) => args);
const ERROR = { code: "API", message: "the service refused", status: 400, method: "GET", path: "/x", body: "bad" };

// --- drive ----------------------------------------------------------------------------------------------

test("a send and a done: the request as the machine wrote it, the JSON parsed in JS, the handle freed", async () => {
  const call = fakeCall([send({ method: "POST", body: '{"q":1}', headers: { "Content-Type": "application/json" } }), done()]);
  const { fetch, calls } = fakeFetch(() => json({ ok: [1, 2] }, 200, { "retry-after": "3", date: "Tue, 01 Jul 2025 00:00:00 GMT" }));
  const before = Date.now();
  assert.deepEqual(await run(call, fetch), { ok: [1, 2] });
  assert.equal(calls.length, 1);
  assert.equal(calls[0].url, URL_X);
  assert.equal(calls[0].init.method, "POST");
  assert.equal(calls[0].init.body, '{"q":1}');
  assert.deepEqual(calls[0].init.headers, { "Content-Type": "application/json" });
  assert.ok(calls[0].init.signal instanceof AbortSignal && !calls[0].init.signal.aborted);
  assert.equal("redirect" in calls[0].init, false, "redirects followed unless the need says manual");
  assert.deepEqual(call.steps(), ["next", "supply", "done", "free"]);
  const [[kind, status, flags, retryAfter, date, text, bytes, sent]] = supplied(call);
  // kind 0 (an answer), flag 4: parsed here, so neither the text nor the bytes cross.
  assert.deepEqual([kind, status, flags, retryAfter, date, text, bytes], [0, 200, 4, "3", "Tue, 01 Jul 2025 00:00:00 GMT", undefined, undefined]);
  assert.ok(sent >= before && sent <= Date.now(), "sent: when the fetch was made");
  freedOnce(call);
});

test("a GET without a body, and a manual redirect: no body in the init, redirect 'manual'", async () => {
  const call = fakeCall([send({ manual: 1 }), done()]);
  const { fetch, calls } = fakeFetch(() => json([]));
  await run(call, fetch);
  assert.equal("body" in calls[0].init, false);
  assert.equal(calls[0].init.redirect, "manual");
  freedOnce(call);
});

test("a 2xx body that is not JSON: its first 400 characters go to the machine, the SyntaxError is the error's cause", async () => {
  const text = "<html>" + "x".repeat(1000);
  const decode = { code: "DECODE", message: "the response is not valid JSON", status: 200, method: "GET", path: "/x", body: "<html>xxx" };
  const call = fakeCall([send(), fail(decode)]);
  const { fetch } = fakeFetch(() => new Response(text, { status: 200 }));
  const error = await rejection(run(call, fetch));
  const [[kind, status, flags, , , said, bytes]] = supplied(call);
  assert.deepEqual([kind, status, flags, said, bytes], [0, 200, 0, text.slice(0, 400), undefined]);
  assert.equal(error.name, "PredictKitError");
  assert.equal(error.code, "DECODE");
  assert.equal(error.message, decode.message);
  assert.equal(error.status, 200);
  assert.equal(error.body, decode.body);
  assert.ok(error.cause instanceof SyntaxError, `cause: ${error.cause}`);
  freedOnce(call);
});

test("a non-2xx answer: its text (at most 4096 characters) goes to the machine, and the error has no cause", async () => {
  const text = "refused ".repeat(1000);
  const call = fakeCall([send(), fail(ERROR)]);
  const { fetch } = fakeFetch(() => new Response(text, { status: 400, headers: { "retry-after": "x".repeat(300) } }));
  const error = await rejection(run(call, fetch));
  const [[kind, status, flags, retryAfter, , said]] = supplied(call);
  assert.deepEqual([kind, status, flags], [0, 400, 0]);
  assert.equal(said, text.slice(0, 4096));
  assert.equal(retryAfter, "x".repeat(200), "headers are cut to 200 characters");
  assert.equal(error.code, "API");
  assert.equal(error.status, 400);
  assert.equal(error.path, "/x");
  assert.equal(error.body, "bad");
  assert.equal("cause" in error, false, "only NETWORK and DECODE keep a cause");
  freedOnce(call);
});

test("a 2xx text body the machine does not mark as JSON is handed over as text, not parsed", async () => {
  const call = fakeCall([send({ json: 0 }), done(-1500)]);
  const { fetch } = fakeFetch(() => new Response("1751328000000", { status: 200 }));
  assert.equal(await run(call, fetch, { shape: 2 }), -1500);
  const [[kind, status, flags, , , said]] = supplied(call);
  assert.deepEqual([kind, status, flags, said], [0, 200, 0, "1751328000000"]);
  freedOnce(call);
});

test("bytes: shape 3 resolves to the body's bytes, shape 5 to nothing (the machine keeps what it parsed); the machine is given them in both", async () => {
  const body = new Uint8Array([123, 34, 97, 34, 58, 49, 125]);
  for (const [shape, result] of [
    [3, null],
    [5, null],
  ]) {
    const call = fakeCall([send({ bytes: 1 }), done(result)]);
    const { fetch } = fakeFetch(() => new Response(body, { status: 200 }));
    const got = await run(call, fetch, { shape });
    const [[kind, status, flags, , , said, given]] = supplied(call);
    assert.deepEqual([kind, status, flags, said], [0, 200, 0, undefined]);
    assert.ok(given instanceof Uint8Array);
    assert.deepEqual([...given], [...body]);
    if (shape === 3) {
      assert.ok(got instanceof Uint8Array, `shape ${shape}`);
      assert.deepEqual([...got], [...body]);
    } else {
      assert.equal(got, undefined);
      assert.deepEqual(call.steps().slice(-3), ["keep", "done", "free"], "what was parsed is handed over before the handle is freed");
    }
    freedOnce(call);
  }
});

test("shape 1 resolves to the book the machine read, shape 2 to the machine's result", async () => {
  const book = { bestBid: () => 0.5 };
  const call = fakeCall([send({ bytes: 1 }), done()], { book });
  const { fetch } = fakeFetch(() => new Response(new Uint8Array([1, 2, 3]), { status: 200 }));
  assert.equal(await run(call, fetch, { shape: 1 }), book);
  assert.deepEqual(call.steps(), ["next", "supply", "book", "done", "free"]);
  const result = fakeCall([send(), done(2)]);
  assert.equal(await run(result, fakeFetch(() => new Response("{}")).fetch, { shape: 2 }), 2);
  freedOnce(result);
});

test("a wait with an event: onEvent is told it, one that throws does not stop the call, which goes on after the wait", async () => {
  const network = { code: "NETWORK", message: "the request got no answer", method: "GET", path: "/x" };
  const call = fakeCall([
    send(),
    wait(5, ["retry", 5, 1, network, "GET", "/x"]),
    send(),
    wait(1, ["wait", 1, 0, null, "GET", "/x"]),
    done(),
  ]);
  const refused = new TypeError("fetch failed");
  const { fetch, calls } = fakeFetch((url, init, n) => {
    if (n === 1) throw refused;
    return json({ n });
  });
  const events = [];
  const onEvent = (event) => {
    events.push(event);
    throw new Error("a listener that throws");
  };
  const started = Date.now();
  assert.deepEqual(await run(call, fetch, { onEvent }), { n: 2 });
  assert.ok(Date.now() - started >= 5, "the wait was waited");
  assert.equal(calls.length, 2);
  assert.deepEqual(call.steps(), ["next", "supply", "next", "supply", "next", "done", "free"]);
  // The failed attempt: kind 1 (no Response), status 0, nothing else.
  assert.deepEqual(supplied(call)[0].slice(0, 7), [1, 0, 0, undefined, undefined, undefined, undefined]);
  assert.equal(events.length, 2);
  const [retry, budget] = events;
  assert.deepEqual({ ...retry, error: undefined }, { type: "retry", method: "GET", path: "/x", delayMs: 5, attempt: 1, error: undefined });
  assert.equal(retry.error.name, "PredictKitError");
  assert.equal(retry.error.code, "NETWORK");
  assert.equal(retry.error.cause, refused, "the retried attempt's error keeps what the fetch threw");
  assert.deepEqual(budget, { type: "wait", method: "GET", path: "/x", delayMs: 1 });
  freedOnce(call);
});

test("a wait until woken ends when another call's need lists its id, and each call leaves the waiters", async () => {
  const waiters = new Map();
  const { fetch } = fakeFetch(() => json({}));
  const a = fakeCall([wait(null), done("a")], { id: 1 });
  const b = fakeCall([send(), done("b", [1])], { id: 2 });
  const first = run(a, fetch, { waiters, shape: 2 });
  // A waits for its turn, for ever unless woken.
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual(a.steps(), ["next"]);
  assert.equal(typeof waiters.get(1), "function");
  assert.equal(await run(b, fetch, { waiters, shape: 2 }), "b");
  assert.equal(await within(first), "a");
  assert.deepEqual(a.steps(), ["next", "next", "done", "free"]);
  assert.equal(waiters.size, 0);
  freedOnce(a);
  freedOnce(b);
});

test("a wake for a call that is not waiting, or twice for one, does nothing", async () => {
  const waiters = new Map();
  const call = fakeCall([wait(null), done("a")], { id: 3 });
  const other = fakeCall([done("b", [3, 3, 99])], { id: 4 });
  const first = run(call, undefined, { waiters, shape: 2 });
  await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(await run(other, undefined, { waiters, shape: 2 }), "b");
  assert.equal(await within(first), "a");
  assert.deepEqual(call.steps(), ["next", "next", "done", "free"]);
});

test("an aborted signal before the call: stop(false) is asked, nothing is fetched, the handle is freed", async () => {
  const controller = new AbortController();
  controller.abort(new Error("the caller's reason"));
  const aborted = { code: "ABORTED", message: "the call was aborted by its AbortSignal" };
  const call = fakeCall([(timedOut) => (assert.equal(timedOut, false), fail(aborted))]);
  const { fetch, calls } = fakeFetch(() => json({}));
  const error = await rejection(run(call, fetch, { signal: controller.signal }));
  assert.equal(error.code, "ABORTED");
  assert.equal(calls.length, 0);
  assert.deepEqual(call.log, [["stop", false], ["done"], ["free"]]);
});

test("a signal aborted during a backoff: stop(false), no more fetches, and the failed attempt's cause is not the error's", async () => {
  const controller = new AbortController();
  const network = { code: "NETWORK", message: "no answer" };
  const call = fakeCall([send(), wait(60_000, ["retry", 60_000, 1, network, "GET", "/x"]), fail({ code: "ABORTED", message: "aborted" })]);
  const { fetch, calls } = fakeFetch(() => Promise.reject(new TypeError("fetch failed")));
  const waiters = new Map();
  const promise = run(call, fetch, { signal: controller.signal, waiters });
  setTimeout(() => controller.abort(), 5);
  const error = await rejection(within(promise));
  assert.equal(error.code, "ABORTED");
  assert.equal("cause" in error, false, "only NETWORK and DECODE keep a cause");
  assert.equal(calls.length, 1);
  assert.deepEqual(call.steps(), ["next", "supply", "stop", "done", "free"]);
  assert.equal(call.log.at(-3)[1], false);
  assert.equal(waiters.size, 0);
});

test("a deadline passing during the fetch: the fetch's signal aborts with a TimeoutError and stop(true) is asked", async () => {
  const call = fakeCall([send(), fail({ code: "TIMEOUT", message: "the call took longer than timeoutMs" })]);
  // A fetch that ignores its signal and never settles: the race with the signal still ends it.
  const { fetch, calls } = fakeFetch(() => pending());
  const error = await rejection(run(call, fetch, { timeoutMs: 20 }));
  assert.equal(error.code, "TIMEOUT");
  assert.deepEqual(call.log, [["next"], ["stop", true], ["done"], ["free"]]);
  assert.equal(calls[0].init.signal.aborted, true);
  assert.equal(calls[0].init.signal.reason.name, "TimeoutError");
});

test("a caller's signal aborting during the fetch: stop(false), the fetch's signal aborted with the caller's reason", async () => {
  const controller = new AbortController();
  const reason = new Error("navigated away");
  const call = fakeCall([send(), fail({ code: "ABORTED", message: "aborted" })]);
  const { fetch, calls } = fakeFetch(() => pending());
  const promise = run(call, fetch, { signal: controller.signal, timeoutMs: 60_000 });
  setTimeout(() => controller.abort(reason), 5);
  assert.equal((await rejection(promise)).code, "ABORTED");
  assert.deepEqual(call.log, [["next"], ["stop", false], ["done"], ["free"]]);
  assert.equal(calls[0].init.signal.reason, reason);
});

test("a call that ends before its deadline clears it: the request's signal never aborts afterwards", async () => {
  const call = fakeCall([send(), done()]);
  const { fetch, calls } = fakeFetch(() => json({}));
  await run(call, fetch, { timeoutMs: 15 });
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.equal(calls[0].init.signal.aborted, false);
  freedOnce(call);
});

test("a body that never ends is raced by the deadline: stop(true)", async () => {
  const call = fakeCall([send(), fail({ code: "TIMEOUT", message: "timed out" })]);
  const { fetch } = fakeFetch(() => endless());
  assert.equal((await rejection(run(call, fetch, { timeoutMs: 20 }))).code, "TIMEOUT");
  assert.deepEqual(call.log, [["next"], ["stop", true], ["done"], ["free"]]);
});

test("a fetch that throws, rejects or answers something other than a Response: kind 1, the cause kept for NETWORK", async () => {
  const network = { code: "NETWORK", message: "the request got no answer" };
  for (const [label, answer, check] of [
    ["throws", () => { throw new RangeError("thrown"); }, (cause) => cause instanceof RangeError],
    ["rejects", () => Promise.reject(new TypeError("rejected")), (cause) => cause instanceof TypeError && cause.message === "rejected"],
    ["a number", () => 42, (cause) => cause instanceof TypeError],
    ["a plain object", () => ({ status: "200" }), (cause) => cause instanceof TypeError],
    ["a thenable that throws", () => ({ then() { throw new SyntaxError("then"); } }), (cause) => cause instanceof SyntaxError],
    ["not a function", null, (cause) => cause instanceof TypeError],
  ]) {
    const call = fakeCall([send(), fail(network)]);
    const fetch = answer === null ? 42 : fakeFetch(answer).fetch;
    const error = await rejection(run(call, fetch));
    assert.equal(error.code, "NETWORK", label);
    assert.ok(check(error.cause), `${label}: cause ${error.cause}`);
    assert.deepEqual(supplied(call)[0].slice(0, 7), [1, 0, 0, undefined, undefined, undefined, undefined], label);
    freedOnce(call);
  }
});

test("free() is called once when the handle itself throws, and the driver's promise rejects", async () => {
  const broken = new Error("the machine is gone");
  const call = fakeCall([() => { throw broken; }]);
  assert.equal(await rejection(run(call, undefined)), broken);
  freedOnce(call);
  // An answer that is not JSON.
  const garbled = fakeCall([]);
  garbled.handle.next = () => "{";
  assert.ok((await rejection(run(garbled, undefined))) instanceof SyntaxError);
  freedOnce(garbled);
});

// --- exchange -------------------------------------------------------------------------------------------

const signal = () => new AbortController().signal;

/** A Response look-alike: what `exchange` reads of one. */
function lookalike({ status = 200, type = "basic", redirected = false, headers = {}, text = async () => "", arrayBuffer } = {}) {
  return { status, type, redirected, headers: { get: (name) => headers[name] ?? null }, text, arrayBuffer };
}

test("exchange: an answer as text, with its status, flags, headers and when it was sent", async () => {
  const before = Date.now();
  const r = await exchange(() => json({ a: 1 }, 201, { date: "Tue, 01 Jul 2025 00:00:00 GMT" }), URL_X, {}, false, signal());
  assert.deepEqual({ ...r, sent: 0 }, { kind: 0, sent: 0, status: 201, flags: 0, retryAfter: undefined, date: "Tue, 01 Jul 2025 00:00:00 GMT", body: '{"a":1}' });
  assert.ok(r.sent >= before && r.sent <= Date.now());
});

test("exchange: a 2xx as bytes, a non-2xx as text even when bytes were asked for", async () => {
  const ok = await exchange(() => new Response(new Uint8Array([1, 2, 3])), URL_X, {}, true, signal());
  assert.ok(ok.body instanceof Uint8Array);
  assert.deepEqual([...ok.body], [1, 2, 3]);
  const refused = await exchange(() => new Response("no", { status: 404 }), URL_X, {}, true, signal());
  assert.deepEqual([refused.kind, refused.status, refused.body], [0, 404, "no"]);
  // A non-2xx body is kept for the error, its first 4096 characters; a 2xx one whole.
  const long = "e".repeat(10_000);
  assert.equal((await exchange(() => new Response(long, { status: 500 }), URL_X, {}, false, signal())).body, long.slice(0, 4096));
  assert.equal((await exchange(() => new Response(long), URL_X, {}, false, signal())).body, long);
});

test("exchange: the flags of an opaque redirect (1) and of a followed one (2)", async () => {
  const opaque = await exchange(() => lookalike({ status: 0, type: "opaqueredirect" }), URL_X, {}, false, signal());
  assert.deepEqual([opaque.kind, opaque.status, opaque.flags], [0, 0, 1]);
  const followed = await exchange(() => lookalike({ redirected: true }), URL_X, {}, false, signal());
  assert.equal(followed.flags, 2);
  // Only `true` counts: a truthy look-alike is not a redirect.
  assert.equal((await exchange(() => lookalike({ redirected: 1 }), URL_X, {}, false, signal())).flags, 0);
});

test("exchange: a status that is not one, or headers that throw, is kind 1", async () => {
  for (const status of [1000, -1, 200.5, "200", undefined, NaN]) {
    const r = await exchange(() => ({ ...lookalike(), status }), URL_X, {}, false, signal());
    assert.equal(r.kind, 1, String(status));
    assert.ok(r.cause instanceof TypeError);
  }
  const thrown = new Error("get throws");
  const r = await exchange(() => ({ status: 200, headers: { get() { throw thrown; } } }), URL_X, {}, false, signal());
  assert.deepEqual([r.kind, r.cause], [1, thrown]);
});

test("exchange: a body that cannot be read is kind 2, with the status kept and the cause", async () => {
  const thrown = new Error("connection reset");
  const reset = await exchange(() => lookalike({ status: 503, text: async () => { throw thrown; } }), URL_X, {}, false, signal());
  assert.deepEqual([reset.kind, reset.status, reset.cause], [2, 503, thrown]);
  const notText = await exchange(() => lookalike({ text: async () => 42 }), URL_X, {}, false, signal());
  assert.equal(notText.kind, 2);
  assert.ok(notText.cause instanceof TypeError);
  const notBytes = await exchange(() => lookalike({ arrayBuffer: async () => "bytes" }), URL_X, {}, true, signal());
  assert.equal(notBytes.kind, 2, "arrayBuffer() answering something else than an ArrayBuffer");
});

test("exchange: a 2xx body over 64 MiB read as bytes is kind 3", async () => {
  const r = await exchange(() => lookalike({ arrayBuffer: async () => new ArrayBuffer((64 << 20) + 1) }), URL_X, {}, true, signal());
  assert.deepEqual([r.kind, r.status, r.body], [3, 200, undefined]);
});

test("exchange: without a fetch it uses the global one, with the init it was given", async () => {
  const saved = globalThis.fetch;
  const seen = [];
  globalThis.fetch = (url, init) => (seen.push([url, init]), Promise.resolve(new Response("OK")));
  try {
    const init = { method: "GET" };
    const r = await exchange(undefined, URL_X, init, false, signal());
    assert.equal(r.body, "OK");
    assert.deepEqual(seen, [[URL_X, init]]);
  } finally {
    globalThis.fetch = saved;
  }
});

test("exchange: an aborted signal ends it at once with the signal's reason, and the fetch's later rejection is handled", async () => {
  const controller = new AbortController();
  const reason = new Error("stop");
  controller.abort(reason);
  const r = await exchange(() => Promise.reject(new Error("late")), URL_X, {}, false, controller.signal);
  assert.deepEqual([r.kind, r.cause], [1, reason]);
  // Aborted while the body is on its way.
  const later = new AbortController();
  setTimeout(() => later.abort(reason), 5);
  const cut = await exchange(() => endless(), URL_X, {}, false, later.signal);
  assert.deepEqual([cut.kind, cut.status, cut.cause], [2, 200, reason]);
  // Unhandled rejections would fail the run; give them a turn to surface.
  await new Promise((resolve) => setTimeout(resolve, 5));
});

// --- makeError ------------------------------------------------------------------------------------------

test("makeError: a PredictKitError with the code, the facts the machine gave, and the cause when there is one", () => {
  const cause = new SyntaxError("Unexpected token");
  const e = makeError({ code: "API", message: "refused", param: "side", status: 400, method: "POST", path: "/order", retryAfterMs: 1500, body: "no" }, cause);
  assert.ok(e instanceof Error);
  assert.equal(e.name, "PredictKitError");
  assert.equal(e.message, "refused");
  assert.equal(e.cause, cause);
  assert.deepEqual(
    { code: e.code, param: e.param, status: e.status, method: e.method, path: e.path, retryAfterMs: e.retryAfterMs, body: e.body },
    { code: "API", param: "side", status: 400, method: "POST", path: "/order", retryAfterMs: 1500, body: "no" },
  );
  const bare = makeError({ code: "FREED", message: "freed" });
  assert.deepEqual(Object.keys(bare).sort(), ["code", "name"]);
  for (const key of ["cause", "param", "status", "method", "path", "retryAfterMs", "body"]) assert.equal(key in bare, false, key);
  // Only the facts are copied: nothing else of the description.
  assert.equal("extra" in makeError({ code: "X", message: "m", extra: 1 }), false);
});

test("a call ended by a step that throws gives back its places: done() is asked, the calls it wakes are woken, then free()", async () => {
  const waiters = new Map();
  let woke = 0;
  waiters.set(9, () => woke++);
  const call = fakeCall(
    [
      () => {
        throw new Error("the machine was busy");
      },
    ],
    { woken: [9] },
  );
  await rejection(run(call, undefined, { waiters }));
  assert.equal(woke, 1, "the call waiting behind it is woken");
  assert.deepEqual(call.steps(), ["next", "done", "free"]);
});

test("a page's Date.now that throws does not break a call: the last good reading stands", async () => {
  const call = fakeCall([send(), done()]);
  const { fetch } = fakeFetch(() => json({ ok: true }));
  const real = Date.now;
  Date.now = () => {
    throw new Error("a page's clock");
  };
  try {
    assert.deepEqual(await run(call, fetch), { ok: true });
  } finally {
    Date.now = real;
  }
  const [[, , , , , , , sent, now]] = supplied(call);
  assert.equal(typeof sent, "number");
  assert.equal(typeof now, "number");
  freedOnce(call);
});

test("the service's rate-limit headers go to the machine after the Date line, and its notice to onEvent once", async () => {
  const headers = {
    date: "Tue, 01 Jul 2025 00:00:00 GMT",
    "poly-ratelimit-remaining": "0",
    "poly-ratelimit-reset": "1751328005",
    "poly-ratelimit-tier": "standard",
  };
  const { fetch } = fakeFetch(() => json({ ok: 1 }, 200, headers));
  const notice = { type: "rateLimit", method: "DELETE", path: "/order", remaining: 0, resetMs: 1751328005000, warning: false };
  const call = fakeCall([send(), [2, [], null, notice]]);
  const events = [];
  const out = await drive(call.handle, fetch, undefined, 1000, (e) => events.push(e), new Map(), 0);
  assert.deepEqual(out, { ok: 1 });
  const [[, , , , told]] = supplied(call);
  assert.equal(told, "Tue, 01 Jul 2025 00:00:00 GMT\n0\n1751328005\nstandard\n");
  assert.deepEqual(events, [notice]);
  // Without any of them, the Date line alone.
  const plain = fakeCall([send(), done()]);
  await drive(plain.handle, fakeFetch(() => json({}, 200, { date: headers.date })).fetch, undefined, 1000, undefined, new Map(), 0);
  assert.equal(supplied(plain)[0][4], headers.date);
});

// --- The wallet's side (askSigner) -----------------------------------------------------------------

const { askSigner } = await import("../../src/js/driver.js");
const signerDone = (promise) => promise.then((value) => ({ value }), (error) => ({ error }));

test("askSigner: the signer is called on its own object with the typed data, and its answer (or a thenable's) comes back", async () => {
  const calls = [];
  const signer = { name: "w" };
  function signTypedData(typedData) {
    calls.push([this, typedData]);
    return { then: (resolve) => resolve("0xsig") };
  }
  assert.equal(await askSigner(signTypedData, signer, { t: 1 }, undefined, 1000), "0xsig");
  assert.deepEqual(calls, [[signer, { t: 1 }]]);
});

test("askSigner: a signer that throws, rejects, or whose thenable's then throws is SIGNER with the wallet's error as cause", async () => {
  const boom = new Error("boom");
  const cases = [
    [() => { throw boom; }, "the signer threw"],
    [() => Promise.reject(boom), "the signer refused or failed to sign"],
    [() => ({ get then() { throw boom; } }), "the signer refused or failed to sign"],
  ];
  for (const [sign, message] of cases) {
    const { error } = await signerDone(askSigner(sign, {}, {}, undefined, 1000));
    assert.equal(error.name, "PredictKitError");
    assert.equal(error.code, "SIGNER");
    assert.equal(error.message, message);
    assert.equal(error.cause, boom);
  }
});

test("askSigner: a wallet that never answers is TIMEOUT after timeoutMs; Infinity waits until the signal aborts", async () => {
  const started = Date.now();
  const { error } = await signerDone(askSigner(pending, {}, {}, undefined, 30));
  assert.equal(error.code, "TIMEOUT");
  assert.ok(Date.now() - started >= 25);
  const controller = new AbortController();
  const asked = signerDone(askSigner(pending, {}, {}, controller.signal, Infinity));
  setTimeout(() => controller.abort(), 20);
  const aborted = await asked;
  assert.equal(aborted.error.code, "ABORTED");
});

test("askSigner: an aborted signal refuses before the wallet is asked; an abort from inside the wallet's call is heard", async () => {
  let asked = 0;
  const { error } = await signerDone(askSigner(() => asked++, {}, {}, AbortSignal.abort(), 1000));
  assert.equal(error.code, "ABORTED");
  assert.equal(asked, 0);
  const controller = new AbortController();
  const during = await signerDone(askSigner(() => (controller.abort(), pending()), {}, {}, controller.signal, 1000));
  assert.equal(during.error.code, "ABORTED");
});

test("askSigner: a signal that is not an AbortSignal is INVALID_PARAMS, and the wallet is not asked", async () => {
  let asked = 0;
  for (const signal of [{ aborted: false }, new Proxy({}, { get() { throw new Error("trap"); } }), Object.create(AbortSignal.prototype)]) {
    const { error } = await signerDone(askSigner(() => asked++, {}, {}, /** @type {any} */ (signal), 1000));
    assert.equal(error.name, "PredictKitError");
    assert.equal(error.code, "INVALID_PARAMS");
  }
  assert.equal(asked, 0);
});

test("askSigner: a signal's own aborted property or listeners are never used: the platform's are", async () => {
  const controller = new AbortController();
  Object.defineProperty(controller.signal, "aborted", { get: () => { throw new Error("own getter"); } });
  controller.signal.addEventListener = () => { throw new Error("own method"); };
  const asked = signerDone(askSigner(pending, {}, {}, controller.signal, 1000));
  controller.abort();
  assert.equal((await asked).error.code, "ABORTED");
});
