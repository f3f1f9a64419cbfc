// Timers, cancellation and the I/O of one HTTP exchange, used from Rust. Kept tiny: the decisions are
// made in Rust. Everything here that touches a caller's value (a signal, a fetch and what it returns)
// does so through intrinsics captured at load and inside try/catch, and the functions Rust imports either
// never throw or are imported with `catch`: a JS exception must never unwind through wasm frames.

const getterOf = (proto, name) => Object.getOwnPropertyDescriptor(proto, name)?.get;
const abortedOf = getterOf(AbortSignal.prototype, "aborted");
const reasonOf = getterOf(AbortSignal.prototype, "reason");
const addListener = EventTarget.prototype.addEventListener;
const removeListener = EventTarget.prototype.removeEventListener;
const typedArray = Object.getPrototypeOf(Uint8Array.prototype);
const tagOf = getterOf(typedArray, Symbol.toStringTag);
const byteLengthOf = getterOf(typedArray, "byteLength");
const byteOffsetOf = getterOf(typedArray, "byteOffset");
const bufferOf = getterOf(typedArray, "buffer");
const arrayBufferLengthOf = getterOf(ArrayBuffer.prototype, "byteLength");
/** Timers of 2^31 ms or more fire at once in browsers and Node: longer waits are chained. */
const MAX_TIMER_MS = 2147483647;

function abortReason(signal) {
  return reasonOf?.call(signal) ?? new DOMException("This operation was aborted", "AbortError");
}

/** Throws unless `signal` is a genuine AbortSignal (a look-alike or a Proxy has no aborted state). */
export function checkSignal(signal) {
  abortedOf.call(signal);
}

function onAbortOf(signal, listener) {
  addListener.call(signal, "abort", listener, { once: true });
  return () => removeListener.call(signal, "abort", listener);
}

/** Calls `fn` after `ms` (any length: long waits are chained); returns what `clearLater` takes. */
function later(fn, ms) {
  const handle = { timer: undefined };
  const arm = (left) => {
    handle.timer = left > MAX_TIMER_MS ? setTimeout(() => arm(left - MAX_TIMER_MS), MAX_TIMER_MS) : setTimeout(fn, Math.max(0, left));
  };
  arm(ms);
  return handle;
}

function clearLater(handle) {
  if (handle) clearTimeout(handle.timer);
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as `signal` aborts. */
export function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal && abortedOf.call(signal)) return reject(abortReason(signal));
    let forget;
    const timer = later(() => {
      forget?.();
      resolve();
    }, ms);
    if (signal) {
      forget = onAbortOf(signal, () => {
        clearLater(timer);
        reject(abortReason(signal));
      });
    }
  });
}

/**
 * Settles like `promise` (any value: a thenable that throws rejects), or rejects as soon as `signal` aborts.
 * `promise` is always handled: when the signal wins, its later rejection (a fetch's AbortError, an abort
 * reason of any kind) is dropped, never left unhandled.
 */
export function raceAbort(promise, signal) {
  return new Promise((resolve, reject) => {
    const settled = new Promise((inner) => inner(promise));
    if (!signal) return settled.then(resolve, reject);
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

function ignore() {}

/**
 * One call's cancellation: aborts its signal when the caller's signal aborts or the deadline passes,
 * and remembers which it was. The caller's signal has passed `checkSignal`.
 */
export class CallScope {
  constructor(callerSignal, timeoutMs) {
    this.controller = new AbortController();
    this.timedOut = false;
    if (callerSignal) {
      const onAbort = () => this.controller.abort(abortReason(callerSignal));
      if (abortedOf.call(callerSignal)) onAbort();
      else this.forget = onAbortOf(callerSignal, onAbort);
    }
    if (Number.isFinite(timeoutMs) && timeoutMs > 0) {
      this.timer = later(() => {
        this.timedOut = true;
        this.controller.abort(new DOMException("The operation timed out", "TimeoutError"));
      }, timeoutMs);
    }
  }
  get signal() {
    return this.controller.signal;
  }
  get aborted() {
    return this.controller.signal.aborted;
  }
  finish() {
    clearLater(this.timer);
    this.forget?.();
  }
}

/**
 * One HTTP exchange with `fetchFn` (the caller's, or the global `fetch`), as plain data; it never throws.
 * Whatever the fetch, its Response or its body does wrong comes back as `kind` "network" (no usable
 * Response) or "cut" (the body could not be read), and the fetch and the body are both raced against
 * `signal`, so a fetch that ignores the signal, or a body that never ends, cannot outlive the call.
 * A 2xx body is read as bytes (`bytes`, at most `maxBytes`, else kind "large") or text; any other
 * status's body as text, at most `maxErrorChars` of it; `sent` is when the fetch was made. With `signal`
 * already aborted nothing is sent.
 */
export async function exchange(fetchFn, url, init, bytes, maxBytes, maxErrorChars, signal) {
  // An aborted call sends nothing (and starts no fetch whose rejection could go unhandled).
  if (signal && abortedOf.call(signal)) return { kind: "network", cause: abortReason(signal) };
  const sent = Date.now();
  let response;
  try {
    response = await raceAbort(new Promise((resolve) => resolve((fetchFn ?? globalThis.fetch)(url, init))), signal);
  } catch (cause) {
    return { kind: "network", cause };
  }
  const answer = { kind: "answer", sent };
  let ok;
  try {
    const status = response.status;
    if (!Number.isInteger(status) || status < 0 || status > 999) throw new TypeError("fetch resolved to something other than a Response");
    answer.status = status;
    answer.opaqueRedirect = response.type === "opaqueredirect";
    answer.redirected = response.redirected === true;
    const headers = response.headers;
    const header = (name) => {
      const value = headers.get(name);
      return typeof value === "string" ? value.slice(0, 200) : undefined;
    };
    answer.retryAfter = header("retry-after");
    answer.date = header("date");
    ok = status >= 200 && status < 300;
  } catch (cause) {
    return { kind: "network", cause };
  }
  try {
    const body = await raceAbort(ok && bytes ? response.arrayBuffer() : response.text(), signal);
    if (ok && bytes) {
      const length = arrayBufferLengthOf.call(body);
      if (length > maxBytes) return { ...answer, kind: "large" };
      answer.body = new Uint8Array(body, 0, length);
    } else if (typeof body === "string") {
      answer.body = ok ? body : body.slice(0, maxErrorChars);
    } else {
      throw new TypeError("the body is not text");
    }
  } catch (cause) {
    return { ...answer, kind: "cut", cause };
  }
  return answer;
}

/**
 * A caller's object's own enumerable string keys and values, as [key, value, key, value, ...], or the
 * number of keys when there are more than `max`. Throws whatever the object throws (Proxy traps, getters).
 */
export function entriesOf(value, max) {
  const keys = Object.keys(value);
  if (keys.length > max) return keys.length;
  const out = [];
  for (const key of keys) out.push(key, value[key]);
  return out;
}

/**
 * A copy of a genuine array's items (so that nothing of the caller's array is read again), its length
 * when over `max`, or undefined for anything but an array. Throws whatever the array throws.
 */
export function itemsOf(value, max) {
  if (!Array.isArray(value)) return undefined;
  const length = value.length;
  if (!(length <= max)) return length;
  const out = new Array(length);
  for (let i = 0; i < length; i++) out[i] = value[i];
  return out;
}

/**
 * The JSON text of a caller's order-book object as `JSON.stringify` writes it, with `hash` set to "" when
 * `blankHash` (the upstream hash input: keys in the object's own order, `hash` last when absent). Throws for
 * anything that is not a book-sized plain object: an array or typed array (`new Uint8Array(2 ** 31)` has
 * 2^31 keys to copy) or an object with more keys than a book could have.
 */
export function bookText(book, blankHash) {
  if (typeof book !== "object" || book === null || Array.isArray(book) || ArrayBuffer.isView(book)) {
    throw new TypeError("not an order book object");
  }
  if (Object.keys(book).length > 64) throw new TypeError("not an order book object");
  return JSON.stringify(blankHash ? Object.assign({}, book, { hash: "" }) : book);
}

/**
 * A view on the bytes of a genuine Uint8Array (brand-checked: a look-alike or a Proxy is not one), its
 * length when over `max`, or undefined for anything else.
 */
export function bytesOf(value, max) {
  if (tagOf.call(value) !== "Uint8Array") return undefined;
  const length = byteLengthOf.call(value);
  if (length > max) return length;
  return new Uint8Array(bufferOf.call(value), byteOffsetOf.call(value), length);
}

/** A first-in, first-out queue per key: `enter(key)` gives `{ ready, leave }`. */
export class Gate {
  constructor() {
    this.tails = new Map();
  }
  enter(key) {
    let leave;
    const mine = new Promise((resolve) => (leave = resolve));
    const ready = this.tails.get(key) ?? Promise.resolve();
    const tail = ready.then(() => mine);
    this.tails.set(key, tail);
    tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return { ready, leave };
  }
}

/** A uniform random number in [0, 1), for backoff jitter. */
export function random() {
  return Math.random();
}

/** Wakes waiters when a request finishes, so that queued requests need not poll. */
export class Notifier {
  constructor() {
    this.waiters = [];
  }
  /** Resolves at the next `notify()`, after `ms` at the latest, or rejects when `signal` aborts. */
  wait(ms, signal) {
    return new Promise((resolve, reject) => {
      if (abortedOf.call(signal)) return reject(abortReason(signal));
      const done = () => {
        clearLater(timer);
        forget();
        resolve();
      };
      const forget = onAbortOf(signal, () => {
        clearLater(timer);
        this.waiters = this.waiters.filter((w) => w !== done);
        reject(abortReason(signal));
      });
      const timer = later(() => {
        this.waiters = this.waiters.filter((w) => w !== done);
        done();
      }, ms);
      this.waiters.push(done);
    });
  }
  notify() {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

/** 53 random bits for an order's salt, from the platform's cryptographic generator. */
export function randomSalt() {
  const words = new Uint32Array(2);
  globalThis.crypto.getRandomValues(words);
  return (words[0] & 0x1fffff) * 0x100000000 + words[1];
}
