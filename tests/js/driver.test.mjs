// The task driver (src/js/driver.js) on its own, with no wasm and no emulator: `run()` runs a fake task that
// answers the JSON texts a task would (src/task.rs: Need::to_json), over a fake fetch, with short real timers.
// Checked: what the driver fetches and tells the task (`reply`, `abort`), what `result` is given and what the
// caller gets, the waits and wake-ups, the tells (to the client's `onEvent` or the task's own listener), the
// signal and the attempt timeout, fetches and bodies that misbehave, and that the handle is freed once and last
// however the task ends; the dead-man switch's loop (`runHeartbeats`) over a fake task; `exchange()` and
// `makeError()` by themselves; and the wallet's rows (`sign`, `rpc`), with their time, signal and misbehaving
// wallets.
import { test } from "node:test";
import assert from "node:assert/strict";
import { clientIo, exchange, makeError, run, runHeartbeats } from "../../src/js/driver.js";

// --- A task's needs, as Need::to_json writes them ---------------------------------------------------------

const URL_X = "https://svc.test/x?a=1";
const http = ({
  url = URL_X,
  method = "GET",
  headers = { Accept: "application/json" },
  body = null,
  manual = false,
  bytes = false,
  parse = !bytes,
  attemptMs = null,
  wake = [],
} = {}) => ({ kind: "http", wake, url, method, headers, body, manual, bytes, parse, attemptMs });
const wait = (ms, { call = null, wake = [] } = {}) => ({ kind: "wait", wake, ms, call });
const tell = (event, { client = true, wake = [] } = {}) => ({ kind: "tell", wake, client, event });
const done = (value = null, wake = []) => ({ kind: "done", wake, value });
const fail = (error, wake = []) => ({ kind: "fail", wake, error });
const sign = (typedData, ms = null, wake = []) => ({ kind: "sign", wake, typedData, ms });
const rpc = (method, params, ms = null, wake = []) => ({ kind: "rpc", wake, method, params, ms });

/**
 * A task whose machine follows `script`: each `next`, `reply` or `abort` takes the next entry (a need, a
 * function of the step's arguments giving one, or a text answered as it is) and answers its JSON text. `log`
 * records every call with its arguments (`next`'s `now`, `reply`'s nine, `abort`'s `stopped` and `now`, `end`'s
 * `now`, `result`'s body and value, `free`). `end()` answers `wakes` (as a Uint32Array, as the binding does);
 * `result` answers what `result(body, value)` makes, by default the need's value, else the body.
 */
function fakeTask(script, { wakes = [], result = (body, value) => value ?? body } = {}) {
  const log = [];
  let at = 0;
  const answer = (step, args) => {
    log.push([step, ...args]);
    if (at >= script.length) throw new Error(`the driver asked ${step} after the script's end`);
    const entry = script[at++];
    const need = typeof entry === "function" ? entry(...args) : entry;
    return typeof need === "string" ? need : JSON.stringify(need);
  };
  const handle = {
    next: (now) => answer("next", [now]),
    reply: (...args) => answer("reply", args),
    abort: (stopped, now) => answer("abort", [stopped, now]),
    said: (kind, value, now) => answer("said", [kind, value, now]),
    end: (now) => (log.push(["end", now]), Uint32Array.from(wakes)),
    result: (body, value) => (log.push(["result", body, value]), result(body, value)),
    free: () => void log.push(["free"]),
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
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `run` over `task`'s handle with a client's I/O (`clientIo`), its waiters and listener overridable. */
function runTask(task, fetch, { signal, onEvent, waiters, tell, wallet, inbox } = {}) {
  const io = clientIo(fetch, onEvent);
  if (waiters) io.waiters = waiters;
  return run(task.handle, io, signal, wallet || tell || inbox ? { ...wallet, tell, inbox } : undefined);
}

/** `promise`, or a rejection after `ms` (a task that hangs fails its test rather than the run's end). */
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

/** `free()` once and last, `end()` once and just before it. */
function freedOnce(task) {
  const steps = task.steps();
  assert.equal(steps.filter((step) => step === "free").length, 1, `free() once: ${JSON.stringify(steps)}`);
  assert.equal(steps.at(-1), "free", `free() last: ${JSON.stringify(steps)}`);
  assert.equal(steps.filter((step) => step === "end").length, 1, `end() once: ${JSON.stringify(steps)}`);
  assert.equal(steps.at(-2), "end", `end() before free(): ${JSON.stringify(steps)}`);
}

const replied = (task) => task.log.filter(([step]) => step === "reply").map(([, ...args]) => args);
/** The nine arguments of an abandoned attempt's reply, `sent` and `now` left out. */
const ABANDONED = [4, 0, 0, undefined, undefined, undefined, undefined];
const NO_ANSWER = [1, 0, 0, undefined, undefined, undefined, undefined];
const ERROR = { code: "API", message: "the service refused", status: 400, method: "GET", path: "/x", body: "bad" };

// --- run ------------------------------------------------------------------------------------------------

test("an http need and a done: the request as the task wrote it, the JSON parsed in JS, result() given it, the handle freed", async () => {
  const task = fakeTask([http({ method: "POST", body: '{"q":1}', headers: { "Content-Type": "application/json" } }), done()]);
  const { fetch, calls } = fakeFetch(() => json({ ok: [1, 2] }, 200, { "retry-after": "3", date: "Tue, 01 Jul 2025 00:00:00 GMT" }));
  const before = Date.now();
  assert.deepEqual(await runTask(task, fetch), { ok: [1, 2] });
  assert.equal(calls.length, 1);
  assert.equal(calls[0].url, URL_X);
  assert.equal(calls[0].init.method, "POST");
  assert.equal(calls[0].init.body, '{"q":1}');
  assert.deepEqual(calls[0].init.headers, { "Content-Type": "application/json" });
  assert.ok(calls[0].init.signal instanceof AbortSignal && !calls[0].init.signal.aborted, "an attempt's own signal, even with no caller's");
  assert.equal("redirect" in calls[0].init, false, "redirects followed unless the need says manual");
  assert.deepEqual(task.steps(), ["next", "reply", "result", "end", "free"]);
  const [[kind, status, flags, retryAfter, date, text, bytes, sent, now]] = replied(task);
  // kind 0 (an answer), flag 4: parsed here, so neither the text nor the bytes cross.
  assert.deepEqual([kind, status, flags, retryAfter, date, text, bytes], [0, 200, 4, "3", "Tue, 01 Jul 2025 00:00:00 GMT", undefined, undefined]);
  assert.ok(sent >= before && sent <= now && now <= Date.now(), "sent: when the fetch was made; now: when it was told");
  const [, body, value] = task.log.find(([step]) => step === "result");
  assert.deepEqual([body, value], [{ ok: [1, 2] }, null], "result(): the body parsed here and the need's value");
  assert.ok(typeof task.log[0][1] === "number" && task.log[0][1] >= before, "next(now)");
  freedOnce(task);
});

test("a GET without a body, and a manual redirect: no body in the init, redirect 'manual'", async () => {
  const task = fakeTask([http({ manual: true }), done()]);
  const { fetch, calls } = fakeFetch(() => json([]));
  await runTask(task, fetch);
  assert.equal("body" in calls[0].init, false);
  assert.equal(calls[0].init.redirect, "manual");
  freedOnce(task);
});

test("every attempt has a signal of its own, the next attempt a fresh one, none aborted once it ended", async () => {
  const task = fakeTask([http(), http(), done()]);
  const { fetch, calls } = fakeFetch((url, init, n) => json({ n }));
  assert.deepEqual(await runTask(task, fetch), { n: 2 });
  assert.equal(calls.length, 2);
  assert.notEqual(calls[0].init.signal, calls[1].init.signal);
  await sleep(5);
  assert.equal(calls[0].init.signal.aborted || calls[1].init.signal.aborted, false);
  freedOnce(task);
});

test("a 2xx body that is not JSON: its first 400 characters go to the task, the SyntaxError is the error's cause", async () => {
  const text = "<html>" + "x".repeat(1000);
  const decode = { code: "DECODE", message: "the response is not valid JSON", status: 200, method: "GET", path: "/x", body: "<html>xxx" };
  const task = fakeTask([http(), fail(decode)]);
  const { fetch } = fakeFetch(() => new Response(text, { status: 200 }));
  const error = await rejection(runTask(task, fetch));
  const [[kind, status, flags, , , said, bytes]] = replied(task);
  assert.deepEqual([kind, status, flags, said, bytes], [0, 200, 0, text.slice(0, 400), undefined]);
  assert.equal(error.name, "PredictKitError");
  assert.equal(error.code, "DECODE");
  assert.equal(error.message, decode.message);
  assert.equal(error.status, 200);
  assert.equal(error.body, decode.body);
  assert.ok(error.cause instanceof SyntaxError, `cause: ${error.cause}`);
  assert.equal(task.steps().includes("result"), false, "a failed task's result() is not asked");
  freedOnce(task);
});

test("a non-2xx answer: its text (at most 4096 characters) goes to the task, and the error has no cause", async () => {
  const text = "refused ".repeat(1000);
  const task = fakeTask([http(), fail(ERROR)]);
  const { fetch } = fakeFetch(() => new Response(text, { status: 400, headers: { "retry-after": "x".repeat(300) } }));
  const error = await rejection(runTask(task, fetch));
  const [[kind, status, flags, retryAfter, , said]] = replied(task);
  assert.deepEqual([kind, status, flags], [0, 400, 0]);
  assert.equal(said, text.slice(0, 4096));
  assert.equal(retryAfter, "x".repeat(200), "headers are cut to 200 characters");
  assert.equal(error.code, "API");
  assert.equal(error.status, 400);
  assert.equal(error.path, "/x");
  assert.equal(error.body, "bad");
  assert.equal("cause" in error, false, "only NETWORK and DECODE keep a cause");
  freedOnce(task);
});

test("a 2xx text body the task does not mark for parsing is handed over as text; run resolves to what result() makes", async () => {
  const made = { clockOffsetMs: -1500 };
  const task = fakeTask([http({ parse: false }), done(-1500)], { result: () => made });
  const { fetch } = fakeFetch(() => new Response("1751328000000", { status: 200 }));
  assert.equal(await runTask(task, fetch), made);
  const [[kind, status, flags, , , said]] = replied(task);
  assert.deepEqual([kind, status, flags, said], [0, 200, 0, "1751328000000"]);
  const [, body, value] = task.log.find(([step]) => step === "result");
  assert.deepEqual([body, value], ["1751328000000", -1500], "result(): the text unparsed, and the need's value");
  freedOnce(task);
});

test("bytes: the task is given the body's bytes, and so is result(), before the handle is ended and freed", async () => {
  const body = new Uint8Array([123, 34, 97, 34, 58, 49, 125]);
  for (const [label, result] of [
    ["the bytes", (bytes) => bytes],
    ["what the task kept", () => undefined],
  ]) {
    const task = fakeTask([http({ bytes: true }), done()], { result });
    const { fetch } = fakeFetch(() => new Response(body, { status: 200 }));
    const got = await runTask(task, fetch);
    const [[kind, status, flags, , , said, given]] = replied(task);
    assert.deepEqual([kind, status, flags, said], [0, 200, 0, undefined], label);
    assert.ok(given instanceof Uint8Array, label);
    assert.deepEqual([...given], [...body], label);
    const [, held, value] = task.log.find(([step]) => step === "result");
    assert.ok(held instanceof Uint8Array && held.length === body.length, `${label}: result() is given the bytes`);
    assert.equal(value, null, label);
    if (label === "the bytes") {
      assert.ok(got instanceof Uint8Array, label);
      assert.deepEqual([...got], [...body], label);
    } else {
      assert.equal(got, undefined, label);
    }
    assert.deepEqual(task.steps().slice(-3), ["result", "end", "free"], `${label}: result() before the handle is freed`);
    freedOnce(task);
  }
});

test("a retry's and a wait's events are tells to onEvent (one that throws is ignored); the task goes on after each wait", async () => {
  const network = { code: "NETWORK", message: "the request got no answer", method: "GET", path: "/x" };
  const task = fakeTask([
    http(),
    tell({ type: "retry", method: "GET", path: "/x", delayMs: 5, attempt: 1, error: network }),
    wait(5, { call: 7 }),
    http(),
    tell({ type: "wait", method: "GET", path: "/x", delayMs: 1 }),
    wait(1, { call: 7 }),
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
  const waiters = new Map();
  const started = Date.now();
  assert.deepEqual(await runTask(task, fetch, { onEvent, waiters }), { n: 2 });
  assert.ok(Date.now() - started >= 4, "the wait was waited");
  assert.equal(calls.length, 2);
  assert.deepEqual(task.steps(), ["next", "reply", "next", "next", "reply", "next", "next", "result", "end", "free"]);
  // The failed attempt: kind 1 (no Response), status 0, nothing else.
  assert.deepEqual(replied(task)[0].slice(0, 7), NO_ANSWER);
  assert.equal(events.length, 2);
  const [retry, budget] = events;
  assert.deepEqual({ ...retry, error: undefined }, { type: "retry", method: "GET", path: "/x", delayMs: 5, attempt: 1, error: undefined });
  assert.ok(retry.error instanceof Error);
  assert.equal(retry.error.name, "PredictKitError");
  assert.equal(retry.error.code, "NETWORK");
  assert.equal(retry.error.message, network.message);
  assert.equal(retry.error.path, "/x");
  assert.equal(retry.error.cause, refused, "the retried attempt's error keeps what the fetch threw");
  assert.deepEqual(budget, { type: "wait", method: "GET", path: "/x", delayMs: 1 });
  assert.equal(waiters.size, 0, "each wait leaves the waiters");
  freedOnce(task);
});

test("an inbox: what a followed source said is told (`said` 3) at the next step instead of `next`, and a poke ends a wait", async () => {
  const inbox = [{ n: 1 }];
  const own = { inbox };
  const task = fakeTask([wait(null), wait(null), done("ok")]);
  const running = run(task.handle, clientIo(undefined, undefined), undefined, own);
  // The first step hears what was there before it began.
  await sleep(5);
  assert.deepEqual(task.log[0].slice(0, 3), ["said", 3, { n: 1 }]);
  assert.equal(typeof own.poke, "function", "waiting, the inbox can be poked");
  inbox.push({ n: 2 });
  own.poke();
  await sleep(5);
  assert.deepEqual(task.log[1].slice(0, 3), ["said", 3, { n: 2 }]);
  inbox.push({ n: 3 });
  own.poke();
  assert.equal(await within(running), "ok");
  assert.deepEqual(task.log.slice(0, 3).map(([step, kind]) => `${step} ${kind}`), ["said 3", "said 3", "said 3"]);
  assert.equal(own.poke, undefined, "no longer waiting");
});

test("a task's own tell (client: false) goes to io.tell, not onEvent; with no listener it is dropped and the task goes on", async () => {
  const own = [];
  const client = [];
  const event = { status: "ok", beats: 1 };
  const task = fakeTask([tell(event, { client: false }), tell({ type: "x", delayMs: 0 }), done("over")]);
  assert.equal(await runTask(task, undefined, { onEvent: (e) => client.push(e), tell: (e) => own.push(e) }), "over");
  assert.deepEqual(own, [event]);
  assert.deepEqual(client, [{ type: "x", delayMs: 0 }]);
  assert.deepEqual(task.steps(), ["next", "next", "next", "result", "end", "free"]);
  // No listener of either kind: the tells are dropped.
  const bare = fakeTask([tell(event, { client: false }), tell(event), done("bare")]);
  assert.equal(await runTask(bare, undefined), "bare");
  assert.deepEqual(bare.steps(), ["next", "next", "next", "result", "end", "free"]);
  // An own listener's event with an error is given a PredictKitError too; one that throws is ignored.
  const told = [];
  const failing = fakeTask([tell({ status: "late", error: { code: "API", message: "no", status: 500 } }, { client: false }), done(1)]);
  const got = await runTask(failing, undefined, { tell: (e) => (told.push(e), assert.fail("a throwing listener")) });
  assert.equal(got, 1);
  assert.equal(told[0].error.name, "PredictKitError");
  assert.deepEqual([told[0].error.code, told[0].error.status, "cause" in told[0].error], ["API", 500, false]);
});

test("the service's rate-limit headers go to the task after the Date line, and its notice, a tell, to onEvent once", async () => {
  const headers = {
    date: "Tue, 01 Jul 2025 00:00:00 GMT",
    "poly-ratelimit-remaining": "0",
    "poly-ratelimit-reset": "1751328005",
    "poly-ratelimit-tier": "standard",
  };
  const { fetch } = fakeFetch(() => json({ ok: 1 }, 200, headers));
  const notice = { type: "rateLimit", method: "DELETE", path: "/order", remaining: 0, resetMs: 1751328005000, warning: false };
  const task = fakeTask([http(), tell(notice), done()]);
  const events = [];
  assert.deepEqual(await runTask(task, fetch, { onEvent: (e) => events.push(e) }), { ok: 1 });
  const [[, , , , told]] = replied(task);
  assert.equal(told, "Tue, 01 Jul 2025 00:00:00 GMT\n0\n1751328005\nstandard\n");
  assert.deepEqual(events, [notice]);
  assert.deepEqual(task.steps(), ["next", "reply", "next", "result", "end", "free"]);
  // Without any of them, the Date line alone.
  const plain = fakeTask([http(), done()]);
  await runTask(plain, fakeFetch(() => json({}, 200, { date: headers.date })).fetch);
  assert.equal(replied(plain)[0][4], headers.date);
});

test("a wait until woken ends when another task's need lists its call, and each task leaves the waiters", async () => {
  const waiters = new Map();
  const { fetch } = fakeFetch(() => json({}));
  const a = fakeTask([wait(null, { call: 1 }), done("a")]);
  const b = fakeTask([http(), done("b", [1])]);
  const first = runTask(a, fetch, { waiters });
  // A waits for its turn, for ever unless woken.
  await sleep(10);
  assert.deepEqual(a.steps(), ["next"]);
  assert.equal(typeof waiters.get(1), "function");
  assert.equal(await runTask(b, fetch, { waiters }), "b");
  assert.equal(await within(first), "a");
  assert.deepEqual(a.steps(), ["next", "next", "result", "end", "free"]);
  assert.equal(waiters.size, 0);
  freedOnce(a);
  freedOnce(b);
});

test("a wake for a call that is not waiting, or twice for one, does nothing", async () => {
  const waiters = new Map();
  const task = fakeTask([wait(null, { call: 3 }), done("a")]);
  const other = fakeTask([done("b", [3, 3, 99])]);
  const first = runTask(task, undefined, { waiters });
  await sleep(5);
  assert.equal(await runTask(other, undefined, { waiters }), "b");
  assert.equal(await within(first), "a");
  assert.deepEqual(task.steps(), ["next", "next", "result", "end", "free"]);
  assert.equal(waiters.size, 0);
});

test("a wait with no call registers nothing, and ends by its timer", async () => {
  const waiters = new Map();
  const task = fakeTask([wait(15), done("late")]);
  const promise = runTask(task, undefined, { waiters });
  await sleep(2);
  assert.equal(waiters.size, 0);
  assert.deepEqual(task.steps(), ["next"]);
  assert.equal(await within(promise), "late");
});

test("every need's wake list is woken before the need is handled, and end()'s in the finally, before free()", async () => {
  const order = [];
  const waiters = new Map([1, 2, 3, 4, 5, 6].map((id) => [id, () => order.push(`wake ${id}`)]));
  const { fetch } = fakeFetch(() => (order.push("fetch"), json({})));
  const task = fakeTask([http({ wake: [1] }), tell({ type: "t", delayMs: 0 }, { wake: [2] }), wait(1, { wake: [3] }), done(null, [4])], {
    wakes: [5, 6],
    result: () => (order.push("result"), "r"),
  });
  const handle = task.handle;
  const free = handle.free;
  handle.free = () => (order.push("free"), free());
  const next = handle.next;
  handle.next = (now) => (order.push("next"), next(now));
  assert.equal(await runTask(task, fetch, { waiters, onEvent: () => order.push("told") }), "r");
  assert.deepEqual(order, ["next", "wake 1", "fetch", "wake 2", "told", "next", "wake 3", "next", "wake 4", "result", "wake 5", "wake 6", "free"]);
  // A fail need's list too.
  const failed = [];
  const failing = fakeTask([fail(ERROR, [8])]);
  const error = await rejection(runTask(failing, undefined, { waiters: new Map([[8, () => failed.push(8)]]) }));
  assert.equal(error.code, "API");
  assert.deepEqual(failed, [8]);
  freedOnce(failing);
});

test("an aborted signal before the task: abort(false) is asked first, nothing is fetched, the handle is freed", async () => {
  const controller = new AbortController();
  controller.abort(new Error("the caller's reason"));
  const aborted = { code: "ABORTED", message: "the call was aborted by its AbortSignal" };
  const task = fakeTask([fail(aborted)]);
  const { fetch, calls } = fakeFetch(() => json({}));
  const error = await rejection(runTask(task, fetch, { signal: controller.signal }));
  assert.equal(error.code, "ABORTED");
  assert.equal(calls.length, 0);
  assert.deepEqual(task.steps(), ["abort", "end", "free"]);
  assert.equal(task.log[0][1], false, "a caller's signal is not a stop");
  assert.equal(typeof task.log[0][2], "number");
});

test("a caller's signal aborted during a backoff: abort(false), no more fetches, and the failed attempt's cause is not the error's", async () => {
  const controller = new AbortController();
  const network = { code: "NETWORK", message: "no answer" };
  const task = fakeTask([
    http(),
    tell({ type: "retry", delayMs: 60_000, attempt: 1, error: network }),
    wait(60_000, { call: 2 }),
    fail({ code: "ABORTED", message: "aborted" }),
  ]);
  const { fetch, calls } = fakeFetch(() => Promise.reject(new TypeError("fetch failed")));
  const waiters = new Map();
  const promise = runTask(task, fetch, { signal: controller.signal, waiters });
  setTimeout(() => controller.abort(), 5);
  const error = await rejection(within(promise));
  assert.equal(error.code, "ABORTED");
  assert.equal("cause" in error, false, "only NETWORK and DECODE keep a cause");
  assert.equal(calls.length, 1);
  assert.deepEqual(task.steps(), ["next", "reply", "next", "abort", "end", "free"]);
  assert.equal(task.log.at(-3)[1], false);
  assert.equal(waiters.size, 0, "the aborted wait leaves the waiters");
});

test("what follows a wait is not the last attempt's doing: its cause is not given to a later event or failure", async () => {
  const network = { code: "NETWORK", message: "no answer" };
  const task = fakeTask([http(), wait(1), tell({ type: "retry", delayMs: 0, attempt: 1, error: network }), fail(network)]);
  const { fetch } = fakeFetch(() => Promise.reject(new TypeError("fetch failed")));
  const events = [];
  const error = await rejection(runTask(task, fetch, { onEvent: (e) => events.push(e) }));
  assert.equal(error.code, "NETWORK");
  assert.equal("cause" in error, false);
  assert.equal(events[0].error.code, "NETWORK");
  assert.equal("cause" in events[0].error, false);
  freedOnce(task);
});

test("a caller's signal aborted during a wait with no timer (until woken) ends it: abort(false)", async () => {
  const controller = new AbortController();
  const waiters = new Map();
  const task = fakeTask([wait(null, { call: 4 }), fail({ code: "ABORTED", message: "aborted" })]);
  const promise = runTask(task, undefined, { signal: controller.signal, waiters });
  await sleep(5);
  assert.equal(typeof waiters.get(4), "function");
  controller.abort();
  assert.equal((await rejection(within(promise))).code, "ABORTED");
  assert.deepEqual(task.log.slice(0, 2).map(([step, arg]) => [step, step === "abort" ? arg : "-"]), [["next", "-"], ["abort", false]]);
  assert.equal(waiters.size, 0);
  freedOnce(task);
});

test("a caller's signal aborting during the fetch or the body: abort(false), the attempt's signal aborted with the caller's reason", async () => {
  for (const [label, answer] of [
    ["the fetch", pending],
    ["the body", () => endless()],
  ]) {
    const controller = new AbortController();
    const reason = new Error("navigated away");
    const task = fakeTask([http(), fail({ code: "ABORTED", message: "aborted" })]);
    // A fetch that ignores its signal: the race with the signal still ends it.
    const { fetch, calls } = fakeFetch(answer);
    const promise = runTask(task, fetch, { signal: controller.signal });
    setTimeout(() => controller.abort(reason), 5);
    const error = await rejection(within(promise));
    assert.equal(error.code, "ABORTED", label);
    assert.equal("cause" in error, false, label);
    assert.deepEqual(task.steps(), ["next", "abort", "end", "free"], label);
    assert.equal(task.log[1][1], false, label);
    assert.equal(calls[0].init.signal.aborted, true, label);
    assert.equal(calls[0].init.signal.reason, reason, label);
  }
});

test("a listener that aborts the signal: the task goes on once, and its next attempt is not sent but aborted", async () => {
  const controller = new AbortController();
  const task = fakeTask([tell({ type: "wait", delayMs: 1 }), http(), fail({ code: "ABORTED", message: "aborted" })]);
  const { fetch, calls } = fakeFetch(() => json({}));
  const error = await rejection(runTask(task, fetch, { signal: controller.signal, onEvent: () => controller.abort() }));
  assert.equal(error.code, "ABORTED");
  // Never asked abort() twice in a row: a tell is followed by next().
  assert.deepEqual(task.log.slice(0, 3).map(([step, arg]) => [step, step === "abort" ? arg : "-"]), [["next", "-"], ["next", "-"], ["abort", false]]);
  assert.equal(calls.length, 0, "nothing sent once aborted");
  freedOnce(task);
});

test("an attempt past its attemptMs is abandoned: its signal aborts with a TimeoutError, reply kind 4", async () => {
  for (const [label, answer] of [
    ["a fetch that never settles", pending],
    ["a body that never ends", () => endless()],
  ]) {
    const task = fakeTask([http({ attemptMs: 20 }), fail({ code: "TIMEOUT", message: "the call took longer than timeoutMs" })]);
    const { fetch, calls } = fakeFetch(answer);
    const started = Date.now();
    const error = await rejection(within(runTask(task, fetch)));
    assert.ok(Date.now() - started >= 15, `${label}: abandoned at its attemptMs, not before`);
    assert.equal(error.code, "TIMEOUT", label);
    assert.equal("cause" in error, false, label);
    assert.deepEqual(task.steps(), ["next", "reply", "end", "free"], label);
    const [args] = replied(task);
    assert.deepEqual(args.slice(0, 7), ABANDONED, label);
    assert.ok(args[7] >= started && args[7] <= args[8], `${label}: sent, then now`);
    assert.equal(calls[0].init.signal.aborted, true, label);
    assert.equal(calls[0].init.signal.reason.name, "TimeoutError", label);
  }
});

test("after an abandoned attempt the next one is a fresh attempt; a NETWORK failure keeps the TimeoutError as its cause", async () => {
  const task = fakeTask([http({ attemptMs: 10 }), http({ attemptMs: 10 }), fail({ code: "NETWORK", message: "stalled" })]);
  const { fetch, calls } = fakeFetch(pending);
  const error = await rejection(within(runTask(task, fetch)));
  assert.equal(calls.length, 2);
  assert.notEqual(calls[0].init.signal, calls[1].init.signal);
  assert.deepEqual(replied(task).map((args) => args.slice(0, 7)), [ABANDONED, ABANDONED]);
  assert.equal(error.code, "NETWORK");
  assert.equal(error.cause?.name, "TimeoutError");
  freedOnce(task);
});

test("an attempt that ends before its attemptMs clears the timer; with attemptMs null a slow answer is waited for", async () => {
  const quick = fakeTask([http({ attemptMs: 15 }), done()]);
  const { fetch, calls } = fakeFetch(() => json({}));
  await runTask(quick, fetch);
  await sleep(30);
  assert.equal(calls[0].init.signal.aborted, false);
  freedOnce(quick);
  const slow = fakeTask([http(), done()]);
  const late = fakeFetch(() => sleep(30).then(() => json({ late: true })));
  assert.deepEqual(await runTask(slow, late.fetch), { late: true });
  assert.equal(replied(slow)[0][0], 0, "an answer, not an abandoned attempt");
  assert.equal(late.calls[0].init.signal.aborted, false);
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
    const task = fakeTask([http(), fail(network)]);
    const fetch = answer === null ? 42 : fakeFetch(answer).fetch;
    const error = await rejection(runTask(task, fetch));
    assert.equal(error.code, "NETWORK", label);
    assert.ok(check(error.cause), `${label}: cause ${error.cause}`);
    assert.deepEqual(replied(task)[0].slice(0, 7), NO_ANSWER, label);
    freedOnce(task);
  }
});

test("free() is called once and last when a task method throws, and run's promise rejects with what it threw", async () => {
  const broken = new Error("the machine is gone");
  const task = fakeTask([() => { throw broken; }]);
  assert.equal(await rejection(runTask(task, undefined)), broken);
  freedOnce(task);
  // An answer that is not JSON.
  const garbled = fakeTask(["{"]);
  assert.ok((await rejection(runTask(garbled, undefined))) instanceof SyntaxError);
  freedOnce(garbled);
  // reply(), abort() and result() that throw.
  const inReply = fakeTask([http(), () => { throw broken; }]);
  assert.equal(await rejection(runTask(inReply, fakeFetch(() => json({})).fetch)), broken);
  assert.deepEqual(inReply.steps(), ["next", "reply", "end", "free"]);
  const inAbort = fakeTask([() => { throw broken; }]);
  assert.equal(await rejection(runTask(inAbort, undefined, { signal: AbortSignal.abort() })), broken);
  assert.deepEqual(inAbort.steps(), ["abort", "end", "free"]);
  const inResult = fakeTask([done()], { result: () => { throw broken; } });
  assert.equal(await rejection(runTask(inResult, undefined)), broken);
  assert.deepEqual(inResult.steps(), ["next", "result", "end", "free"]);
  // end() that throws: free() still comes, last.
  const ended = new Error("end failed");
  const inEnd = fakeTask([done("x")]);
  inEnd.handle.end = () => {
    inEnd.log.push(["end"]);
    throw ended;
  };
  const endError = await rejection(runTask(inEnd, undefined));
  assert.equal(endError, ended);
  freedOnce(inEnd);
});

test("a task ended by a step that throws gives back its places: end() is asked, the calls it wakes are woken, then free()", async () => {
  const woke = [];
  const waiters = new Map([
    [9, () => woke.push(9)],
    [10, () => woke.push(10)],
  ]);
  const task = fakeTask([() => { throw new Error("the machine was busy"); }], { wakes: [9, 10] });
  await rejection(runTask(task, undefined, { waiters }));
  assert.deepEqual(woke, [9, 10], "the calls waiting behind it are woken");
  assert.deepEqual(task.steps(), ["next", "end", "free"]);
});

test("a page's Date.now that throws does not break a task: the last good reading stands", async () => {
  const task = fakeTask([http(), done()]);
  const { fetch } = fakeFetch(() => json({ ok: true }));
  const real = Date.now;
  Date.now = () => {
    throw new Error("a page's clock");
  };
  try {
    assert.deepEqual(await runTask(task, fetch), { ok: true });
  } finally {
    Date.now = real;
  }
  const [[, , , , , , , sent, now]] = replied(task);
  assert.equal(typeof sent, "number");
  assert.equal(typeof now, "number");
  freedOnce(task);
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

// --- runHeartbeats ----------------------------------------------------------------------------------------

test("runHeartbeats: the switch's tells go to onStatus, not onEvent; stop() aborts it as a stop: abort(true); done is the stopped event", async () => {
  const starting = { status: "starting", beats: 0 };
  const stopped = { status: "stopped", beats: 0, reason: "stopped" };
  const task = fakeTask([
    tell(starting, { client: false }),
    wait(10_000),
    // The answer to abort(true).
    tell(stopped, { client: false }),
    // The signal is still aborted after that tell: the driver asks abort(true) again, and the switch is done.
    done(),
  ]);
  const statuses = [];
  const clientEvents = [];
  const io = clientIo(undefined, (e) => clientEvents.push(e));
  const handle = runHeartbeats(task.handle, io, (e) => statuses.push(e), undefined, {});
  assert.equal(handle.status, "starting");
  assert.deepEqual(statuses, [], "the first status comes after the caller has the handle");
  assert.ok(Object.isFrozen(handle));
  await sleep(10);
  assert.deepEqual(task.steps(), ["next", "next"], "waiting for the next beat");
  handle.stop();
  assert.deepEqual(await within(handle.done), stopped);
  assert.equal(handle.status, "stopped");
  assert.deepEqual(statuses, [starting, stopped]);
  assert.deepEqual(clientEvents, [], "a switch's own tells are not the client's onEvent");
  await sleep(5);
  const aborts = task.log.filter(([step]) => step === "abort");
  assert.ok(aborts.length >= 1 && aborts.every(([, stop]) => stop === true), `abort(true): ${JSON.stringify(aborts)}`);
  assert.equal(task.log[2][0], "abort", "stop() ends the wait: abort, not next");
  assert.equal(task.left(), 0);
  freedOnce(task);
});

test("runHeartbeats: a caller's signal aborting the switch is not a stop: abort(false)", async () => {
  const controller = new AbortController();
  const aborted = { status: "stopped", beats: 0, reason: "aborted" };
  const task = fakeTask([wait(10_000), tell(aborted, { client: false }), done()]);
  const statuses = [];
  const handle = runHeartbeats(task.handle, clientIo(undefined, undefined), (e) => statuses.push(e), controller.signal, {});
  await sleep(5);
  controller.abort();
  assert.deepEqual(await within(handle.done), aborted);
  assert.deepEqual(statuses, [aborted]);
  await sleep(5);
  const aborts = task.log.filter(([step]) => step === "abort");
  assert.ok(aborts.length >= 1 && aborts.every(([, stop]) => stop === false), `abort(false): ${JSON.stringify(aborts)}`);
  freedOnce(task);
});

test("runHeartbeats: a switch whose task fails is told stopped (freed), with what it had told, and freed once", async () => {
  const ok = { status: "ok", beats: 3, lastOkAt: 1751328000000 };
  const task = fakeTask([tell(ok, { client: false }), () => { throw new Error("the client was freed"); }]);
  const statuses = [];
  const handle = runHeartbeats(task.handle, clientIo(undefined, undefined), (e) => {
    statuses.push(e);
    throw new Error("a callback that throws");
  }, undefined, {});
  const last = await within(handle.done);
  assert.deepEqual(last, { status: "stopped", beats: 3, lastOkAt: 1751328000000, reason: "freed" });
  assert.deepEqual(statuses, [ok, last]);
  assert.equal(handle.status, "stopped");
  freedOnce(task);
});

// --- The wallet's rows: sign and rpc ------------------------------------------------------------------

const saids = (task) => task.log.filter(([step]) => step === "said").map(([, kind, value]) => [kind, value]);

test("sign and rpc: the wallet is asked what the task wrote, and what it said is told (`said` 0 with the value)", async () => {
  const asked = [];
  const wallet = {
    sign: (typedData) => (asked.push(["sign", typedData]), Promise.resolve("0xsig")),
    rpc: (request) => (asked.push(["rpc", request]), "0x89"),
  };
  const task = fakeTask([rpc("eth_chainId", [], 1000), sign({ primaryType: "Order" }, 1000), done({ ok: true })]);
  const fetch = fakeFetch(() => assert.fail("nothing is fetched"));
  assert.deepEqual(await within(runTask(task, fetch.fetch, { wallet })), { ok: true });
  assert.deepEqual(asked, [["rpc", { method: "eth_chainId", params: [] }], ["sign", { primaryType: "Order" }]]);
  assert.deepEqual(saids(task), [[0, "0x89"], [0, "0xsig"]]);
  freedOnce(task);
});

test("sign: a wallet that throws, rejects or is missing is `said` 2, and its error is the cause of a SIGNER failure", async () => {
  const boom = new Error("user rejected");
  for (const [wallet, cause] of [
    [{ sign: () => { throw boom; } }, boom],
    [{ sign: () => Promise.reject(boom) }, boom],
    [{ sign: () => ({ then() { throw boom; } }) }, boom],
    [undefined, undefined],
  ]) {
    const task = fakeTask([sign({}), fail({ code: "SIGNER", message: "the signer refused or failed to sign" })]);
    const e = await within(rejection(runTask(task, undefined, { wallet })));
    assert.equal(e.code, "SIGNER");
    assert.deepEqual(saids(task), [[2, undefined]]);
    if (cause) assert.equal(e.cause, cause);
    else assert.ok(e.cause instanceof TypeError, "no wallet: a TypeError says so");
    freedOnce(task);
  }
});

test("sign: a wallet that never answers is `said` 1 at the need's ms; a null ms waits until the signal aborts", async () => {
  const task = fakeTask([sign({}, 30), done("late")]);
  const started = Date.now();
  assert.equal(await within(runTask(task, undefined, { wallet: { sign: pending } })), "late");
  assert.ok(Date.now() - started >= 25, "waited its ms");
  assert.deepEqual(saids(task), [[1, undefined]]);
  const controller = new AbortController();
  const forever = fakeTask([sign({}), fail({ code: "ABORTED", message: "aborted" })]);
  const running = runTask(forever, undefined, { wallet: { sign: pending }, signal: controller.signal });
  await sleep(40);
  assert.deepEqual(forever.steps(), ["next"], "still waiting");
  controller.abort();
  assert.equal((await within(rejection(running))).code, "ABORTED");
  assert.deepEqual(forever.steps(), ["next", "abort", "end", "free"]);
});

test("rpc: an abort from inside the provider's call is heard, and the provider's late answer is dropped", async () => {
  const controller = new AbortController();
  let answer;
  const wallet = { rpc: () => (controller.abort(), new Promise((resolve) => (answer = resolve))) };
  const task = fakeTask([rpc("eth_getCode", ["0x1", "latest"]), fail({ code: "ABORTED", message: "aborted" })]);
  assert.equal((await within(rejection(runTask(task, undefined, { wallet, signal: controller.signal })))).code, "ABORTED");
  answer("0x");
  await sleep(5);
  assert.deepEqual(task.steps(), ["next", "abort", "end", "free"]);
});

// --- The wallet's rows against hostile signals ------------------------------------------------------

test("sign: a signal aborted before the wallet is asked stops the task, and the wallet is never asked", async () => {
  const controller = new AbortController();
  let asked = 0;
  // The task's own listener aborts the signal: the sign need that follows is never put to the wallet.
  const task = fakeTask([tell({ n: 1 }, { client: false }), sign({}), fail({ code: "ABORTED", message: "aborted" })]);
  const running = runTask(task, undefined, { signal: controller.signal, tell: () => controller.abort(), wallet: { sign: () => asked++ } });
  assert.equal((await within(rejection(running))).code, "ABORTED");
  assert.equal(asked, 0);
  assert.deepEqual(task.steps(), ["next", "next", "abort", "end", "free"]);
});

test("sign: a signal's own aborted property or listeners are never used: the platform's are", async () => {
  const controller = new AbortController();
  const task = fakeTask([sign({}), fail({ code: "ABORTED", message: "aborted" })]);
  const running = runTask(task, undefined, { signal: controller.signal, wallet: { sign: pending } });
  Object.defineProperty(controller.signal, "aborted", { get: () => { throw new Error("own getter"); } });
  controller.signal.addEventListener = () => { throw new Error("own method"); };
  await sleep(5);
  controller.abort();
  assert.equal((await within(rejection(running))).code, "ABORTED");
});

test("makeError: a page's setters on Error.prototype, a Proxy below it or a replaced Error cannot make it throw", () => {
  const proto = Object.getPrototypeOf(Error.prototype);
  const saved = Error;
  const thrower = { get() { return "page"; }, set() { throw new Error("page setter"); }, configurable: true };
  Object.defineProperty(Error.prototype, "code", thrower);
  Object.defineProperty(Error.prototype, "param", thrower);
  Object.setPrototypeOf(Error.prototype, new Proxy(proto, { has() { throw new Error("page trap"); } }));
  globalThis.Error = function () { throw new Error("page Error"); };
  let e;
  try {
    e = makeError({ code: "INVALID_PARAMS", message: "price: must be …", param: "price" }, "why");
  } finally {
    globalThis.Error = saved;
    Object.setPrototypeOf(Error.prototype, proto);
    delete Error.prototype.code;
    delete Error.prototype.param;
  }
  assert.ok(e instanceof Error);
  assert.deepEqual([e.name, e.code, e.param, e.message, e.cause], ["PredictKitError", "INVALID_PARAMS", "price", "price: must be …", "why"]);
  assert.deepEqual(Object.keys(e).sort(), ["cause", "code", "name", "param"]);
});
