// Timers and cancellation for the client, used from Rust. Kept tiny: the decisions are made in Rust.

function abortReason(signal) {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as `signal` aborts. */
export function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Settles like `promise`, or rejects as soon as `signal` aborts. */
export function raceAbort(promise, signal) {
  if (!signal) return promise;
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortReason(signal));
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => (signal.removeEventListener("abort", onAbort), resolve(v)),
      (e) => (signal.removeEventListener("abort", onAbort), reject(e)),
    );
  });
}

/**
 * One call's cancellation: aborts its signal when the caller's signal aborts or the deadline passes,
 * and remembers which it was.
 */
export class CallScope {
  constructor(callerSignal, timeoutMs) {
    this.controller = new AbortController();
    this.timedOut = false;
    this.callerSignal = callerSignal ?? undefined;
    if (this.callerSignal) {
      this.onAbort = () => this.controller.abort(abortReason(this.callerSignal));
      if (this.callerSignal.aborted) this.onAbort();
      else this.callerSignal.addEventListener("abort", this.onAbort, { once: true });
    }
    if (Number.isFinite(timeoutMs) && timeoutMs > 0) {
      this.timer = setTimeout(() => {
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
    clearTimeout(this.timer);
    if (this.onAbort) this.callerSignal.removeEventListener("abort", this.onAbort);
  }
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
      if (signal?.aborted) return reject(abortReason(signal));
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = () => {
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== done);
        reject(abortReason(signal));
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== done);
        done();
      }, Math.max(0, ms));
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiters.push(done);
    });
  }
  notify() {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}
