// A streaming connection's I/O: the socket, its timers, and the events for `for await` and `onEvent`.
// Every decision (the subscription, when to ping, resubscribe or reconnect, what a frame does to the
// books, when to fetch a snapshot) is the core's (`StreamCore`, in wasm): this calls it and does what it
// answers. Everything that touches the caller's WebSocket or listener is inside try/catch, so a socket
// or a listener that throws ends one connection (which then reconnects), never the page's wasm.

/** Events kept for a `for await` that is slower than the stream; past this the oldest are dropped. */
const MAX_QUEUED = 10000;
const MAX_TIMER_MS = 2147483647;
/** The longest frame the core reads (bounds::MAX_BOOK_BYTES); longer text is never encoded. */
const MAX_FRAME = 64 * 1024 * 1024;
/** How long the platform's SHA-1 may take to answer a check before the core stops relying on it. */
const DIGEST_WITHIN_MS = 2000;
// What happened to the connection, for core.health().
const CONNECTING = 0, OPENED = 1, CLOSED = 2, TICK = 3, CLOSE = 4;

/** Taken at load, like the platform's SHA-1: a page that replaces it later is never handed wasm memory. */
const encodeInto = TextEncoder.prototype.encodeInto.bind(new TextEncoder());

// The platform's SHA-1 (native, off the main thread), taken once at load so that a page replacing
// crypto.subtle later changes nothing; null where there is none (crypto.subtle needs a secure context:
// then the core hashes books itself).
const digestSha1 = (() => {
  try {
    const subtle = globalThis.crypto?.subtle;
    const digest = subtle?.digest;
    return typeof digest === "function" ? (bytes) => digest.call(subtle, "SHA-1", bytes) : null;
  } catch {
    return null;
  }
})();

/** Whether checks can be handed to the platform's SHA-1 (asked by the core when a stream opens). */
export function platformDigest() {
  return digestSha1 !== null;
}

export function openStream(core, url, WebSocketImpl, onEvent, signal) {
  return new Stream(core, url, WebSocketImpl, onEvent, signal);
}

class Stream {
  // Private: the core makes the subscription message, which for the user channel holds the credentials.
  #core;

  constructor(core, url, WebSocketImpl, onEvent, signal) {
    this.#core = core;
    this._url = url;
    this._WebSocket = WebSocketImpl;
    this._onEvent = onEvent;
    this._socket = null;
    this._status = "connecting";
    this._queue = [];
    this._head = 0;
    this._waiters = [];
    this._iterating = false;
    this._dropped = 0;
    // Hash checks handed to the platform and not answered yet; `settled()` promises waiting for none.
    this._digesting = 0;
    this._settled = [];
    if (signal) {
      if (signal.aborted) {
        queueMicrotask(() => this.close());
      } else {
        this._forget = () => signal.removeEventListener("abort", onAbort);
        const onAbort = () => this.close();
        signal.addEventListener("abort", onAbort, { once: true });
      }
    }
    this._connect();
  }

  /** "connecting" | "open" | "stalled" | "reconnecting" | "closed". */
  get status() {
    return this._status;
  }

  /** Events dropped because a `for await` fell more than 10,000 events behind. */
  get dropped() {
    return this._dropped;
  }

  /** Resolves when the hash checks under way (computed by the platform) have come back. */
  settled() {
    if (!this._digesting || !this.#core) return Promise.resolve();
    return new Promise((resolve) => this._settled.push(resolve));
  }

  subscribe(ids) {
    this._follow(true, ids);
  }

  unsubscribe(ids) {
    this._follow(false, ids);
  }

  _follow(subscribe, ids) {
    if (!this.#core) return;
    const message = this.#core.follow(subscribe, ids);
    // Before the socket is open the change needs no message: the subscription sent on open has it.
    if (message !== undefined && this._open) this._send(message);
    this._snapshots();
  }

  book(assetId) {
    return this.#core?.book(assetId, false);
  }

  bookStatus(assetId) {
    return this.#core?.book(assetId, true);
  }

  close() {
    if (!this.#core) return;
    this._health(CLOSE);
    const core = this.#core;
    this.#core = null;
    clearTimeout(this._timer);
    clearTimeout(this._reconnect);
    this._forget?.();
    this._drop(this._socket);
    this._socket = null;
    for (const resolve of this._waiters.splice(0)) resolve({ done: true, value: undefined });
    for (const resolve of this._settled.splice(0)) resolve();
    core.free();
  }

  [Symbol.asyncIterator]() {
    this._iterating = true;
    return {
      next: () => this._next(),
      return: async (value) => {
        this.close();
        return { done: true, value };
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  _next() {
    if (this._head < this._queue.length) {
      const value = this._queue[this._head];
      this._queue[this._head++] = undefined;
      if (this._head === this._queue.length) {
        this._queue = [];
        this._head = 0;
      }
      return Promise.resolve({ done: false, value });
    }
    if (!this.#core) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve) => this._waiters.push(resolve));
  }

  _emit(event) {
    if (this._onEvent) {
      try {
        this._onEvent(event);
      } catch {
        // A listener that throws must not break the stream.
      }
    }
    if (!this._iterating) return;
    const waiter = this._waiters.shift();
    if (waiter) return waiter({ done: false, value: event });
    if (this._queue.length - this._head >= MAX_QUEUED) {
      this._queue[this._head++] = undefined;
      this._dropped++;
    }
    this._queue.push(event);
  }

  _connect() {
    if (!this.#core) return;
    this._health(CONNECTING);
    let socket;
    try {
      socket = new this._WebSocket(this._url);
      this._socket = socket;
      socket.onopen = () => socket === this._socket && this._opened();
      socket.onmessage = (message) => socket === this._socket && this._message(message);
      socket.onclose = socket.onerror = () => socket === this._socket && this._lost();
    } catch (cause) {
      this._drop(socket);
      this._socket = null;
      this._health(CLOSED, cause ?? new Error("the WebSocket constructor threw"));
    }
  }

  _opened() {
    this._open = true;
    if (!this._send(this.#core.hello())) return;
    this._health(OPENED);
    this._snapshots();
  }

  _message(message) {
    let data;
    try {
      data = message.data;
    } catch {
      data = undefined;
    }
    // The health timer is not re-armed for a frame: a message only makes the next check due later, and a
    // check that comes early does nothing but arm the timer for the right time. A PONG (one per PING) may
    // make it due earlier: the next PING, rather than the PONG's deadline.
    const listening = Boolean(this._onEvent || this._iterating);
    // Taken first: nothing the page can replace runs between the inbox's view and the core reading it.
    const now = Date.now();
    // (A replaced Date.now may have closed the stream meanwhile.)
    if (!this.#core) return;
    // Text is encoded as UTF-8 straight into the core's inbox, and the core is told its length: room for
    // ASCII first (one byte a unit), then for the most UTF-8 can take (three). Anything else is not a frame
    // of this protocol, nor is text longer than the core reads (64 MiB): the core reports those as DECODE.
    let written;
    if (typeof data === "string" && data.length <= MAX_FRAME) {
      let done = encodeInto(data, this.#core.frameBuffer(data.length));
      if (done.read < data.length) done = encodeInto(data, this.#core.frameBuffer(data.length * 3));
      if (done.read === data.length) written = done.written;
    }
    const report = this.#core.frame(written, now, listening);
    // A message after a silent stall: the stream is open again.
    if (report?.status) {
      this._status = report.status;
      this._emit({ event_type: "status", status: report.status });
      if (!this.#core) return;
    }
    if (report === undefined && !listening) return;
    // First: the due checks' bytes are views into wasm memory, valid until wasm runs again.
    if (report?.due) this._digest(report.due);
    if (report?.pong) return this._health(TICK);
    if (report?.error) return this._emit({ event_type: "error", error: report.error });
    if (listening) {
      let events;
      try {
        events = JSON.parse(data);
      } catch {
        events = [];
      }
      for (const event of Array.isArray(events) ? events : [events]) this._emit(event);
    }
    if (report === undefined) return;
    this._report(report);
    if (report.resync.length) this._snapshots();
  }

  /** Hands each due check's bytes to the platform's SHA-1 (which copies them at once) and its answer back. */
  _digest(due) {
    for (const [id, bytes] of due) {
      let digest;
      try {
        digest = digestSha1(bytes);
      } catch (error) {
        digest = Promise.reject(error);
      }
      this._digesting++;
      // An answer that does not come in time counts as none: the core then hashes books itself.
      let answered = false;
      const answer = (digest) => {
        if (answered) return;
        answered = true;
        clearTimeout(timer);
        this._digested(id, digest);
      };
      const timer = setTimeout(() => answer(undefined), DIGEST_WITHIN_MS);
      Promise.resolve(digest)
        .then((buffer) => new Uint8Array(buffer), () => undefined)
        .then(answer);
    }
  }

  _digested(id, digest) {
    this._digesting--;
    const report = this.#core?.digested(id, digest, Date.now());
    if (report) {
      this._report(report);
      if (report.resync.length) this._snapshots();
    }
    if (!this._digesting) for (const resolve of this._settled.splice(0)) resolve();
  }

  _report(report) {
    for (const [asset_id, verified] of report.changed) this._emit({ event_type: "book_update", asset_id, verified });
    for (const [asset_id, reason] of report.resync) this._emit({ event_type: "resync", asset_id, reason });
    if (report.error) this._emit({ event_type: "error", error: report.error });
  }

  _lost() {
    const socket = this._socket;
    this._open = false;
    this._socket = null;
    this._drop(socket);
    this._health(CLOSED);
  }

  _drop(socket) {
    if (socket === this._socket) this._open = false;
    if (!socket) return;
    try {
      socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
      socket.close();
    } catch {
      // Already closed, or not a socket that can be.
    }
  }

  _send(text) {
    try {
      this._socket.send(text);
      return true;
    } catch {
      this._lost();
      return false;
    }
  }

  /**
   * Tells the core what happened and does what it answers: [["ping"], ["resubscribe"], ["reconnect", ms],
   * ["status", s], ["error", e], ["next", at]] (`next`: when to tell it again that time passed).
   */
  _health(kind, cause) {
    if (!this.#core) return;
    const actions = this.#core.health(kind, Date.now(), Math.random(), cause);
    let resync = false;
    for (const [what, arg] of actions) {
      if (what === "ping") this._send("PING");
      else if (what === "resync") {
        resync = true;
        this._emit({ event_type: "resync", asset_id: arg[0], reason: arg[1] });
      }
      else if (what === "resubscribe") this._send(this.#core.hello());
      else if (what === "status") {
        this._status = arg;
        this._emit({ event_type: "status", status: arg });
      } else if (what === "error") this._emit({ event_type: "error", error: arg });
      else if (what === "reconnect") {
        this._drop(this._socket);
        this._socket = null;
        clearTimeout(this._reconnect);
        this._reconnect = setTimeout(() => this._connect(), Math.min(arg, MAX_TIMER_MS));
      } else if (what === "next") {
        clearTimeout(this._timer);
        if (Number.isFinite(arg)) {
          this._timer = setTimeout(() => this._health(TICK), Math.min(Math.max(0, arg - Date.now()), MAX_TIMER_MS));
        }
      }
    }
    if (resync) this._snapshots();
  }

  /** Fetches the snapshots the core asks for; it applies them, and what they did is reported. */
  _snapshots() {
    if (!this.#core) return;
    for (const done of this.#core.snapshots()) {
      done.then((report) => {
        if (!this.#core) return;
        if (report.due) this._digest(report.due);
        this._report(report);
        // A failed snapshot is asked for again after a second; a stale one after the core's backoff.
        if (report.retry) setTimeout(() => this._snapshots(), typeof report.retry === "number" ? report.retry : 1000);
        else this._snapshots();
      });
    }
  }
}
