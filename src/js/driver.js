// @ts-check
// The one driver of every task: a REST call (reads, pages, trading steps, the clock, a stream's snapshots) or
// a machine that makes calls and asks the wallet (the dead-man switch, the account doctor). `run` asks the
// task's machine in wasm what it needs (`next`), does it (an HTTP attempt, a signature or a provider's answer,
// a timer or a wait for its turn, telling a listener), and tells the machine what became of it (`reply`,
// `said`, `abort`). Every decision (budgets, queue order, signing, redirects,
// what an answer means, retries, backoff and deadlines) is the core's (src/task.rs, src/api/call.rs); this
// file does the I/O and the abort signal, and makes the PredictKitError the caller sees.
//
// Everything here that touches a caller's value (a signal, a fetch and what it returns, an onEvent
// listener) does so through intrinsics captured at load and inside try/catch: no exception may unwind
// through wasm, and every promise made here is handled.

/**
 * A task's handle (src/wasm/call.rs: Task). `next`, `reply` and `abort` answer what the task needs next, as
 * the JSON text of a `TaskNeed` (src/task.rs: Need::to_json).
 * @typedef {object} Task
 * @property {(now: number) => string} next Its first step, and after a wait or a tell.
 * @property {(kind: number, status: number, flags: number, retryAfter: string | undefined, headers: string | undefined,
 *   text: string | undefined, bytes: Uint8Array | undefined, sent: number, now: number) => string} reply
 *   How the attempt ended (`kind`: 0 an answer, 1 none, 2 a cut body, 3 a body too large, 4 abandoned at its
 *   `attemptMs`; `flags`: 1 an opaque redirect, 2 redirected, 4 the JSON body parsed here; `headers`: the `Date`
 *   header, then, when the answer has any, the Poly-RateLimit Remaining, Reset, Tier and Warning values, a line
 *   each).
 * @property {(kind: number, value: unknown, now: number) => string} said What a source of the task said (`kind`:
 *   the signer or the provider 0 answered `value`, 1 not within the need's `ms`, 2 threw or refused; 3 a source
 *   the task follows said `value`).
 * @property {(stopped: boolean, now: number) => string} abort The task's signal aborted (`stopped`: its owner
 *   stopped it).
 * @property {(now: number) => Uint32Array} end The task is over: what it still holds is given back; the ids of
 *   the calls this wakes.
 * @property {(body: unknown, value: unknown) => unknown} result What a done task resolves to, given the body
 *   this driver holds and the need's value.
 * @property {() => void} free
 */

/**
 * An error as the machine describes it (src/api/call.rs: write_error).
 * @typedef {object} ErrorJson
 * @property {string} code
 * @property {string} message
 * @property {string} [param]
 * @property {number} [status]
 * @property {string} [method]
 * @property {string} [path]
 * @property {number} [retryAfterMs]
 * @property {string} [mode]
 * @property {{ code: string, fix: string }} [finding]
 * @property {string} [body]
 */

/** @typedef {Error & Omit<ErrorJson, "message">} PredictKitError */

/**
 * What a task needs (src/task.rs: Need::to_json), with the ids of the calls to wake: an HTTP attempt
 * (`manual`: redirects are not followed; `bytes`: a 2xx body is read as bytes; `parse`: a 2xx text is parsed
 * here; `attemptMs`: abandon the attempt then, and reply kind 4), a signature of typed data, a provider's
 * answer (`ms` null: waited for for ever), a wait (`ms` null: until woken or aborted; `call`: the call whose wake
 * ends it), an event to tell (to the client's `onEvent`, or to the task's own listener), its result, or its
 * error.
 * @typedef {{ kind: "http", wake: number[], url: string, method: string, headers: Record<string, string>,
 *     body: string | null, manual: boolean, bytes: boolean, parse: boolean, attemptMs: number | null }
 *   | { kind: "sign", wake: number[], typedData: unknown, ms: number | null }
 *   | { kind: "rpc", wake: number[], method: string, params: unknown[], ms: number | null }
 *   | { kind: "wait", wake: number[], ms: number | null, call: number | null }
 *   | { kind: "tell", wake: number[], client: boolean, event: any }
 *   | { kind: "done", wake: number[], value: unknown }
 *   | { kind: "fail", wake: number[], error: ErrorJson }} TaskNeed
 */

/**
 * What a client's tasks do their I/O with (`clientIo`), and a task's own listener.
 * @typedef {object} Io
 * @property {FetchLike | undefined} fetch the caller's, else the global one (read at each attempt)
 * @property {unknown} onEvent the client's listener
 * @property {Waiters} waiters
 */

/**
 * A task's own I/O, besides its client's: the user's wallet (its signer's `signTypedData` and its provider's
 * `request`, each bound to its object: trade.mjs, walletOf; either may throw, return anything, or never
 * settle), its own listener, and its inbox (what a source it follows said, told as `said` 3: whoever pushes to it
 * calls `poke`, which `run` sets while it waits).
 * @typedef {object} Own
 * @property {(typedData: unknown) => unknown} [sign]
 * @property {((request: { method: string, params: unknown[] }) => unknown) | undefined} [rpc]
 * @property {(event: any) => void} [tell]
 * @property {unknown[]} [inbox]
 * @property {() => void} [poke]
 */

/**
 * What `onEvent` is told (src/wasm/client.d.ts: ClientEvent).
 * @typedef {{ type: string, method?: string, path?: string, delayMs: number, attempt?: number,
 *   error?: PredictKitError }} ClientEvent
 */

/**
 * A fetch as the caller gave it (or the global one): anything may come back, or be thrown.
 * @typedef {(url: string, init: RequestInit) => unknown} FetchLike
 */

/**
 * The wake-up function of each waiting call of one client, by the call's id.
 * @typedef {Map<number, () => void>} Waiters
 */

/**
 * One HTTP exchange as plain data (see `exchange`).
 * @typedef {object} Exchange
 * @property {number} kind 0 an answer, 1 no usable Response, 2 the body could not be read, 3 a body too large
 * @property {number} sent
 * @property {unknown} [cause]
 * @property {number} [status]
 * @property {number} [flags]
 * @property {string} [retryAfter]
 * @property {string} [date]
 * @property {string} [rateLimit] the Poly-RateLimit Remaining, Reset, Tier and Warning values, a line each
 * @property {string | Uint8Array} [body]
 */

/**
 * A prototype's own getter of `name`, if it has one.
 * @param {object} proto
 * @param {PropertyKey} name
 * @returns {((this: any) => any) | undefined}
 */
const getterOf = (proto, name) => Object.getOwnPropertyDescriptor(proto, name)?.get;
const abortedOf = /** @type {(this: AbortSignal) => boolean} */ (getterOf(AbortSignal.prototype, "aborted"));
/** @type {((this: AbortSignal) => unknown) | undefined} absent from older browsers */
const reasonOf = getterOf(AbortSignal.prototype, "reason");
const addListener = EventTarget.prototype.addEventListener;
const removeListener = EventTarget.prototype.removeEventListener;
const arrayBufferLengthOf = /** @type {(this: unknown) => number} */ (getterOf(ArrayBuffer.prototype, "byteLength"));
const parse = JSON.parse;
const ErrorOf = Error;
const define = Object.defineProperty;
/** The last reading of the clock that was a number. */
let lastNow = 0;

/**
 * The clock, read as the page has it (fake timers in a page's tests move it), but never throwing: a page's
 * `Date.now` that throws or answers something else leaves the last good reading.
 * @returns {number}
 */
export function dateNow() {
  try {
    const now = Date.now();
    if (typeof now === "number" && now === now) lastNow = now;
  } catch {
    // The last good reading stands.
  }
  return lastNow;
}
/** Timers of 2^31 ms or more fire at once in browsers and Node: longer waits are chained. */
const MAX_TIMER_MS = 2147483647;
/** The largest 2xx body read as bytes (a book: crate::bounds::MAX_BOOK_BYTES). */
const MAX_BYTES = 64 << 20;
/** How much of a non-2xx body is kept for the error (crate::bounds::MAX_ERROR_BODY). */
const MAX_ERROR_CHARS = 4096;

/** The service's rate-limit headers, in the order the machine reads them (src/api/response.rs: RateLimitNotice). */
const RATE_LIMIT_HEADERS = ["poly-ratelimit-remaining", "poly-ratelimit-reset", "poly-ratelimit-tier", "poly-ratelimit-warning"];

/** The name every error thrown by the library carries (src/js/package/client.mjs: isPredictKitError). */
const ERROR_NAME = "PredictKitError";
/** @type {readonly (keyof ErrorJson)[]} */
const FACTS = ["code", "param", "status", "method", "path", "retryAfterMs", "mode", "finding", "body"];

/**
 * A PredictKitError from the machine's description of it (src/api/call.rs: write_error).
 * @param {ErrorJson} d
 * @param {unknown} [cause]
 * @returns {PredictKitError}
 */
export function makeError(d, cause) {
  // Built with the constructor captured at load and own data properties only: a page's replaced `Error`, or a
  // setter it put on `Error.prototype` (or a Proxy below it), cannot throw here, inside a call out of wasm. (`cause`
  // is set so too, also where Error takes no `cause` option: Firefox before 91.)
  const e = /** @type {PredictKitError} */ (new ErrorOf(d.message));
  const own = (/** @type {string} */ key, /** @type {unknown} */ value) =>
    define(e, key, { value, writable: true, enumerable: true, configurable: true });
  own("name", ERROR_NAME);
  for (const key of FACTS) if (d[key] !== undefined) own(key, d[key]);
  if (cause !== undefined) own("cause", cause);
  return e;
}

/**
 * The PredictKitError a core error's JSON describes (src/wasm/interop.rs: error_with_cause): the one way wasm
 * makes the errors it throws. Never throws.
 * @param {string} json
 * @param {unknown} cause
 * @returns {PredictKitError}
 */
export function errorFrom(json, cause) {
  return makeError(parse(json), cause);
}

/** @param {AbortSignal} signal */
function abortReason(signal) {
  return reasonOf?.call(signal) ?? new DOMException("This operation was aborted", "AbortError");
}

/**
 * Whether a genuine AbortSignal has aborted, read through the platform's getter (throws for anything else).
 * @param {AbortSignal} signal
 * @returns {boolean}
 */
export function isAborted(signal) {
  return abortedOf.call(signal);
}

/**
 * Calls `listener` once when `signal` aborts; returns what stops listening.
 * @param {AbortSignal} signal
 * @param {() => void} listener
 * @returns {() => void}
 */
export function onAbortOf(signal, listener) {
  addListener.call(signal, "abort", listener, { once: true });
  return () => removeListener.call(signal, "abort", listener);
}

/** @typedef {{ timer: ReturnType<typeof setTimeout> | undefined }} Later */

/**
 * Calls `fn` after `ms` (any length: long waits are chained); returns what `clearLater` takes.
 * @param {() => void} fn
 * @param {number} ms
 * @returns {Later}
 */
export function later(fn, ms) {
  /** @type {Later} */
  const handle = { timer: undefined };
  /** @param {number} left */
  const arm = (left) => {
    handle.timer = left > MAX_TIMER_MS ? setTimeout(() => arm(left - MAX_TIMER_MS), MAX_TIMER_MS) : setTimeout(fn, Math.max(0, left));
  };
  arm(ms);
  return handle;
}

/** @param {Later | undefined} handle */
export function clearLater(handle) {
  if (handle) clearTimeout(handle.timer);
}

function ignore() {}

/**
 * Settles like `promise` (any value: a thenable that throws rejects), or rejects as soon as `signal` aborts.
 * `promise` is always handled: when the signal wins, its later rejection is dropped, never left unhandled.
 * @param {unknown} promise
 * @param {AbortSignal} signal
 * @returns {Promise<unknown>}
 */
function raceAbort(promise, signal) {
  return new Promise((resolve, reject) => {
    /** @type {Promise<unknown>} */
    const settled = new Promise((inner) => inner(promise));
    if (abortedOf.call(signal)) {
      settled.then(undefined, ignore);
      return reject(abortReason(signal));
    }
    const forget = onAbortOf(signal, () => reject(abortReason(signal)));
    settled.then(
      (v) => (forget(), resolve(v)),
      (e) => (forget(), reject(e)),
    );
  });
}

/**
 * One attempt's cancellation: aborts its signal when the task's signal aborts or the attempt's time (the
 * core's `attemptMs`) passes, and remembers which it was. The task's signal has passed `checkSignal`
 * (src/js/readers.js), or is the driver's own.
 */
class Scope {
  /**
   * @param {AbortSignal | undefined | null} callerSignal
   * @param {number} timeoutMs
   */
  constructor(callerSignal, timeoutMs) {
    this.controller = new AbortController();
    this.signal = this.controller.signal;
    this.timedOut = false;
    if (callerSignal) {
      const onAbort = () => this.controller.abort(abortReason(callerSignal));
      if (abortedOf.call(callerSignal)) onAbort();
      else this.forget = onAbortOf(callerSignal, onAbort);
    }
    if (Number.isFinite(timeoutMs)) {
      this.timer = later(() => {
        this.timedOut = true;
        this.controller.abort(new DOMException("The operation timed out", "TimeoutError"));
      }, timeoutMs);
    }
  }
  get aborted() {
    return this.signal.aborted;
  }
  finish() {
    clearLater(this.timer);
    this.forget?.();
  }
}

/**
 * One HTTP exchange with `fetchFn` (the caller's, or the global `fetch`), as plain data; it never throws.
 * Whatever the fetch, its Response or its body does wrong comes back as `kind` 1 (no usable Response) or
 * 2 (the body could not be read), and the fetch and the body are both raced against `signal`, so a fetch
 * that ignores the signal, or a body that never ends, cannot outlive the call. A 2xx body is read as bytes
 * (`bytes`, at most MAX_BYTES, else kind 3) or text; any other status's body as text, at most
 * MAX_ERROR_CHARS of it; `sent` is when the fetch was made.
 * @param {FetchLike | undefined | null} fetchFn
 * @param {string} url
 * @param {RequestInit} init
 * @param {boolean} bytes
 * @param {AbortSignal} signal
 * @returns {Promise<Exchange>}
 */
export async function exchange(fetchFn, url, init, bytes, signal) {
  const sent = dateNow();
  /** @type {any} what the caller's fetch resolved to: read only inside try blocks */
  let response;
  try {
    response = await raceAbort(new Promise((resolve) => resolve((fetchFn ?? globalThis.fetch)(url, init))), signal);
  } catch (cause) {
    return { kind: 1, cause, sent };
  }
  /** @type {Exchange} */
  const answer = { kind: 0, sent };
  let ok;
  try {
    const status = response.status;
    if (!Number.isInteger(status) || status < 0 || status > 999) throw new TypeError("fetch resolved to something other than a Response");
    answer.status = status;
    answer.flags = (response.type === "opaqueredirect" ? 1 : 0) | (response.redirected === true ? 2 : 0);
    const headers = response.headers;
    /** @param {string} name */
    const header = (name) => {
      const value = headers.get(name);
      return typeof value === "string" ? value.slice(0, 200) : undefined;
    };
    answer.retryAfter = header("retry-after");
    answer.date = header("date");
    const limits = RATE_LIMIT_HEADERS.map((name) => (header(name) ?? "").replace(/[\r\n]/g, " "));
    if (limits.some((value) => value !== "")) answer.rateLimit = limits.join("\n");
    ok = status >= 200 && status < 300;
  } catch (cause) {
    return { kind: 1, cause, sent };
  }
  try {
    const body = await raceAbort(ok && bytes ? response.arrayBuffer() : response.text(), signal);
    if (ok && bytes) {
      const length = arrayBufferLengthOf.call(body);
      if (length > MAX_BYTES) return { ...answer, kind: 3 };
      answer.body = new Uint8Array(/** @type {ArrayBuffer} */ (body), 0, length);
    } else if (typeof body === "string") {
      answer.body = ok ? body : body.slice(0, MAX_ERROR_CHARS);
    } else {
      throw new TypeError("the body is not text");
    }
  } catch (cause) {
    return { ...answer, kind: 2, cause };
  }
  return answer;
}

/**
 * Waits `ms` (null: until woken or aborted), or until the machine wakes the call `id` (`waiters`), or the task's
 * inbox is poked. Resolves to false if `signal` aborted meanwhile.
 * @param {number | null} ms
 * @param {AbortSignal | undefined | null} signal
 * @param {Waiters} waiters
 * @param {number | null} id
 * @param {Own | undefined} own its inbox's, when it has one
 * @returns {Promise<boolean>}
 */
function pause(ms, signal, waiters, id, own) {
  return new Promise((resolve) => {
    if (signal && abortedOf.call(signal)) return resolve(false);
    /** Where the inbox's pusher finds this wait's wake-up (a task's own I/O that cannot take it is never poked). */
    const poke = (/** @type {(() => void) | undefined} */ wake) => {
      try {
        if (own) own.poke = wake;
      } catch {}
    };
    try {
      // Something heard ends a wait at once.
      if (own?.inbox?.length) return resolve(true);
    } catch {}
    /** @type {Later | undefined} */
    let timer;
    /** @param {boolean} going */
    const done = (going) => {
      clearLater(timer);
      forget();
      if (id !== null && waiters.get(id) === wake) waiters.delete(id);
      poke(undefined);
      resolve(going);
    };
    const wake = () => done(true);
    const forget = signal ? onAbortOf(signal, () => done(false)) : ignore;
    if (ms !== null) timer = later(wake, ms);
    if (id !== null) waiters.set(id, wake);
    poke(wake);
  });
}

/**
 * @param {Waiters} waiters
 * @param {ArrayLike<number>} ids
 */
function wakeAll(waiters, ids) {
  for (let i = 0; i < ids.length; i++) waiters.get(ids[i])?.();
}

/**
 * Tells a listener `event` (a listener that throws is ignored); the error of a retry's event becomes a
 * PredictKitError with the last attempt's `cause`.
 * @param {unknown} listener
 * @param {any} event
 * @param {unknown} cause
 */
function tell(listener, event, cause) {
  if (typeof listener !== "function") return;
  if (event.error) event.error = makeError(event.error, cause);
  try {
    listener(event);
  } catch {
    // A listener that throws must not break the task.
  }
}

/** The reason `stop()` aborts a task's signal with: the machine is told its owner stopped it. */
const STOP = Symbol("stop");

/**
 * A client's I/O for its tasks (src/wasm/call.rs: Inner.io): its fetch, its `onEvent`, and the wake-up of each
 * of its waiting calls, by id.
 * @param {FetchLike | undefined} fetch checked by the binding (a function, or absent)
 * @param {unknown} onEvent
 * @returns {Io}
 */
export function clientIo(fetch, onEvent) {
  return { fetch, onEvent, waiters: new Map() };
}

/**
 * Runs one task (the machine's handle, freed here however it ends) to its end, under `signal` (checked by
 * `checkSignal`, src/js/readers.js, or the driver's own). Resolves to what the task's `result` makes of its
 * end; rejects with a PredictKitError.
 * @param {Task} task
 * @param {Io} io
 * @param {AbortSignal | undefined | null} signal
 * @param {Own} [own] the task's own I/O
 * @returns {Promise<unknown>}
 */
export async function run(task, io, signal, own) {
  const { fetch: fetchFn, waiters } = io;
  // The task's own I/O, read once: what cannot be read (an internal entry's caller may hand anything) is absent.
  /** @type {Own} */
  let mine = {};
  try {
    mine = { sign: own?.sign, rpc: own?.rpc, tell: own?.tell, inbox: own?.inbox };
  } catch {
    // None of it.
  }
  const list = Array.isArray(mine.inbox) ? mine.inbox : undefined;
  /** Go on: with what a followed source said first, if anything (an inbox that cannot be read says nothing). */
  const go = () => {
    /** @type {unknown[] | undefined} */
    let heard;
    try {
      if (list?.length) heard = [list.shift()];
    } catch {}
    return heard ? task.said(3, heard[0], dateNow()) : task.next(dateNow());
  };
  /** @type {unknown} */
  let body;
  /** @type {unknown} */
  let cause;
  const aborted = () => !!signal && abortedOf.call(signal);
  /** What the machine needs once the signal aborted. */
  const abort = () => task.abort(!!signal && reasonOf?.call(signal) === STOP, dateNow());
  try {
    // An aborted task sends nothing.
    /** @type {TaskNeed} */
    let need = parse(aborted() ? abort() : go());
    for (;;) {
      wakeAll(waiters, need.wake);
      if (need.kind === "http") {
        // An aborted task sends nothing more.
        if (aborted()) {
          need = parse(abort());
          continue;
        }
        const { url, method, headers, body: text, manual, bytes, parse: json, attemptMs } = need;
        // The attempt ends by the time the core gave it (a read that may be tried again; every attempt by the
        // call's deadline), or when the task's signal aborts.
        const attempt = new Scope(signal, attemptMs ?? Infinity);
        /** @type {RequestInit} */
        const init = { method, headers, signal: attempt.signal };
        if (text !== null) init.body = text;
        if (manual) init.redirect = "manual";
        const r = await exchange(fetchFn, url, init, bytes, attempt.signal);
        attempt.finish();
        cause = r.cause;
        if (aborted()) {
          need = parse(abort());
          continue;
        }
        if (attempt.timedOut && r.kind !== 0) {
          need = parse(task.reply(4, 0, 0, undefined, undefined, undefined, undefined, r.sent, dateNow()));
          continue;
        }
        let flags = r.flags ?? 0;
        const status = r.status ?? 0;
        const reply = typeof r.body === "string" ? r.body : undefined;
        let said = reply;
        body = r.body;
        if (r.kind === 0 && !bytes && reply !== undefined && status >= 200 && status < 300 && json) {
          try {
            body = parse(reply);
            flags |= 4;
            said = undefined;
          } catch (e) {
            cause = e;
            said = reply.slice(0, 400);
          }
        } else if (typeof said === "string") {
          said = said.slice(0, MAX_ERROR_CHARS);
        }
        const given = bytes && r.body instanceof Uint8Array ? r.body : undefined;
        const told = r.rateLimit === undefined ? r.date : `${r.date ?? ""}\n${r.rateLimit}`;
        need = parse(task.reply(r.kind, status, flags, r.retryAfter, told, said, given, r.sent, dateNow()));
      } else if (need.kind === "sign" || need.kind === "rpc") {
        const r = need.kind === "sign"
          ? await ask(mine.sign, need.typedData, signal, need.ms ?? Infinity)
          : await ask(mine.rpc, { method: need.method, params: need.params }, signal, need.ms ?? Infinity);
        cause = r.cause;
        need = parse(r.kind === 3 || aborted() ? abort() : task.said(r.kind, r.value, dateNow()));
      } else if (need.kind === "wait") {
        const going = await pause(need.ms, signal, waiters, need.call, list && own);
        // What follows a wait is not the last attempt's doing.
        cause = undefined;
        need = parse(going && !aborted() ? go() : abort());
      } else if (need.kind === "tell") {
        // (Told once, then on: an abort is heard at the next attempt or wait, never asked twice in a row.)
        tell(need.client ? io.onEvent : mine.tell, need.event, cause);
        need = parse(go());
      } else if (need.kind === "done") {
        return task.result(body, need.value);
      } else {
        const code = need.error.code;
        throw makeError(need.error, code === "NETWORK" || code === "DECODE" || code === "SIGNER" ? cause : undefined);
      }
    }
  } finally {
    // A task ended midway (a step that threw) gives back its places; those it frees are woken.
    try {
      wakeAll(waiters, task.end(dateNow()));
    } finally {
      task.free();
    }
  }
}

/**
 * `run`, its promise handled here: an order's tracking, whose end its handle reports (trade.mjs: follow), and
 * which an internal entry hands out inside an array.
 * @param {Task} task
 * @param {Io} io
 * @param {AbortSignal | undefined | null} signal
 * @param {Own} own
 * @returns {Promise<unknown>}
 */
export function runHandled(task, io, signal, own) {
  const running = run(task, io, signal, own);
  running.catch(ignore);
  return running;
}

/** 53 random bits from the platform's cryptographic generator: an order's salt, the backoff's seed. */
export function randomSalt() {
  const words = new Uint32Array(2);
  globalThis.crypto.getRandomValues(words);
  return (words[0] & 0x1fffff) * 0x100000000 + words[1];
}

// The wallet's side (`ask`) lives in this module rather than a snippet of its own: with a fourth snippet file, the
// page wasm-bindgen-test-runner serves to headless Chromium hung while loading in 3 runs of 4 (its server stalls
// on the browser's parallel module fetches); with three, 5 runs of 5 loaded.

/**
 * What a wallet's function did (`ask`): 0 answered `value`, 1 not within its time, 2 threw or refused (`cause`),
 * 3 the signal aborted first.
 * @typedef {{ kind: 0 | 1 | 2 | 3, value?: unknown, cause?: unknown }} Asked
 */

/**
 * Asks a wallet (`fn`: its signer's `signTypedData` or its provider's `request`, bound) `arg`, waiting at most `ms`
 * (Infinity: for ever) or until `signal` aborts: a wallet that never answers cannot hold a task. Never rejects.
 * @param {((arg: any) => unknown) | undefined} fn
 * @param {unknown} arg
 * @param {AbortSignal | undefined | null} signal a genuine AbortSignal (checked by the call's start)
 * @param {number} ms
 * @returns {Promise<Asked>}
 */
function ask(fn, arg, signal, ms) {
  return new Promise((resolve) => {
    /** @type {Later | undefined} */
    let timer;
    let forget = ignore;
    let settled = false;
    /** @param {Asked} r */
    const settle = (r) => {
      if (settled) return;
      settled = true;
      clearLater(timer);
      forget();
      resolve(r);
    };
    try {
      if (signal && abortedOf.call(signal)) return settle({ kind: 3 });
      // Listening before the wallet is asked: it may abort the call while it is being asked.
      if (signal) forget = onAbortOf(signal, () => settle({ kind: 3 }));
    } catch (cause) {
      // (Not a genuine AbortSignal: the call's start refuses those.)
      return settle({ kind: 2, cause });
    }
    if (Number.isFinite(ms)) timer = later(() => settle({ kind: 1 }), ms);
    let answer;
    try {
      if (typeof fn !== "function") throw new TypeError("the task has no wallet to ask");
      answer = fn(arg);
    } catch (cause) {
      return settle({ kind: 2, cause });
    }
    // A thenable's `then` may throw or never settle: the Promise constructor catches the first, the timer
    // and the signal the second.
    new Promise((inner) => inner(answer)).then(
      (value) => settle({ kind: 0, value }),
      (cause) => settle({ kind: 2, cause }),
    );
  });
}

/**
 * The event of a status: `{ status, beats, lastOkAt?, reason? }`.
 * @typedef {{ status: string, beats: number, lastOkAt?: number, reason?: string }} HeartbeatEvent
 */

/**
 * Runs a dead-man switch (`client.heartbeats()`), a task like any call: the core says when to send, wait and
 * tell; `run` does it, telling `onStatus` (a throwing callback is ignored). `stop()`, the signal and the
 * client's free end it. Returns the handle: `status`, `stop()`, `done` (resolves to the `stopped` event).
 * @param {Task} task
 * @param {Io} io the client's
 * @param {unknown} onStatus a function or undefined (checked by the binding)
 * @param {AbortSignal | undefined} signal a genuine AbortSignal or undefined (checked by the binding)
 * @param {unknown} client the Client, held while the switch runs (its loop's closure keeps it from the collector)
 */
export function runHeartbeats(task, io, onStatus, signal, client) {
  let status = "starting";
  /** @type {(event: HeartbeatEvent) => void} */
  let finish = ignore;
  /** @type {Promise<HeartbeatEvent>} */
  const done = new Promise((resolve) => (finish = resolve));
  // The switch's own signal: aborted by `stop()` (STOP) or the caller's signal; a beat in flight is abandoned.
  const controller = new AbortController();
  const forget = signal ? onAbortOf(signal, () => controller.abort(abortReason(signal))) : ignore;
  if (signal && abortedOf.call(signal)) controller.abort(abortReason(signal));
  const handle = Object.freeze({
    get status() {
      return status;
    },
    stop() {
      controller.abort(STOP);
    },
    done,
  });
  /** @type {HeartbeatEvent | undefined} */
  let lastEvent;
  /** @param {HeartbeatEvent} event */
  const tellStatus = (event) => {
    status = event.status;
    lastEvent = event;
    tell(onStatus, event, undefined);
    if (status === "stopped") finish(event);
  };
  (async () => {
    // Referenced for as long as the switch runs.
    const holding = client;
    // The caller hears its first status after it has the handle.
    await null;
    try {
      if (holding !== null) await run(task, io, controller.signal, { tell: tellStatus });
      else task.free();
    } catch {
      // The switch can no longer run (its client freed under it): the finally says so, never silently.
    } finally {
      forget();
      if (status !== "stopped") {
        // (The core told no stop: its client was freed under it.) What it had told stands.
        const { beats = 0, lastOkAt } = lastEvent ?? {};
        tellStatus({ status: "stopped", beats, ...(lastOkAt !== undefined && { lastOkAt }), reason: "freed" });
      }
    }
  })();
  return handle;
}

/** What the package's trading methods take from the driver (src/wasm/trade.rs: driverTools). */
export function tools() {
  return { makeError, onAbortOf, isAborted, stop: STOP };
}
