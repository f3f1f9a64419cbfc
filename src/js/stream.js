// @ts-check
// A streaming connection's I/O: the socket, its timers, and the events for `for await` and `onEvent`.
// Every decision (the subscription, when to ping, resubscribe or reconnect, what a frame does to the
// books, when to fetch a snapshot) is the core's (`StreamCore`, in wasm): this calls it and does what it
// answers. Everything that touches the caller's WebSocket or listener is inside try/catch, so a socket
// or a listener that throws ends one connection (which then reconnects), never the page's wasm. A caller's
// signal, and a socket that is the platform's WebSocket, are used through the built-ins taken at load, which
// their own properties cannot replace; closing a socket is tried whatever clearing its handlers did. Frames
// are applied one at a time: one that comes while another is applied or its events are told (a listener
// that hands frames to the socket's `onmessage`) waits for it, and beyond MAX_REENTRANT such frames in one
// delivery they are refused with an `error` event, so the core is never entered again mid-frame.

// The timers, the clock and a caller's AbortSignal are the one driver's (its signal is read through the
// platform's accessors: its own properties, a getter or method it was given, are never called).
import { clearLater, dateNow, isAborted, later, onAbortOf } from "./driver.js";

/**
 * A stream's core in wasm (src/wasm/stream.rs: StreamCore): every decision is its own.
 * @typedef {object} StreamCore
 * @property {() => string} hello The subscription message (for the user channel, it holds the credentials).
 * @property {(kind: number, now: number, random: number, cause: unknown) => [string, any][]} health
 *   What to do after `kind` (CONNECTING, OPENED, CLOSED, TICK, CLOSE) happened.
 * @property {(bytes: number) => Uint8Array} frameBuffer A view of the core's inbox, `bytes` long.
 * @property {(written: number | undefined, now: number, listening: boolean) => Report | undefined} frame
 *   The frame written into the inbox (undefined: none could be) applied.
 * @property {(id: number, digest: Uint8Array | undefined, now: number) => Report | undefined} digested
 * @property {(subscribe: boolean, ids: unknown) => string | undefined} follow
 * @property {() => unknown} refused The `error` of frames refused during one delivery.
 * @property {() => [string | string[], Promise<any>][]} snapshots The snapshots started now: GET /book of one
 *   asset (its book), or POST /books of several (their books).
 * @property {(assets: string[]) => Report | undefined} unanswered A batch's assets its answer left out.
 * @property {(asset: string, book: { free(): void } | undefined, error: unknown) => Report | undefined} snapshot
 *   A fetched snapshot, or the error of one that could not be had (a 404: the service has no book for it).
 * @property {(asset: unknown, status: boolean) => unknown} book
 * @property {(event: unknown) => unknown[] | undefined} fills The account's side of a user channel trade event
 *   (undefined for anything else).
 * @property {() => void} free
 */

/**
 * What the core says a frame, a check's answer or a snapshot did.
 * @typedef {object} Report
 * @property {[number, Uint8Array<ArrayBuffer>][]} [due] Checks for the platform's SHA-1: views into wasm memory.
 * @property {number} [wake] When to tell the core that time passed (a burst's window ends).
 * @property {string} [status] The stream's new status.
 * @property {boolean} [pong]
 * @property {unknown} [error]
 * @property {[string, boolean][]} changed Books changed, and whether each is verified.
 * @property {[string, string][]} resync Books to be read again, with the reason.
 * @property {number} [retry] A snapshot to ask for again after this many ms.
 * @property {number[]} [repeats] The frame's events (their indexes) that repeat a lifecycle event already told.
 */

/**
 * A socket as a caller's WebSocket class makes it: anything may be thrown or answered.
 * @typedef {any} Socket
 */

/** An event for `onEvent` and `for await`. @typedef {Record<string, unknown>} StreamEvent */

/** Frames one delivery takes that came while it was under way; more are refused (an `error` event). */
const MAX_REENTRANT = 1000;
/** The longest frame the core reads (bounds::MAX_BOOK_BYTES); longer text is never encoded. */
const MAX_FRAME = 64 * 1024 * 1024;
/** How long the platform's SHA-1 may take to answer a check before the core stops relying on it. */
const DIGEST_WITHIN_MS = 2000;
// What happened to the connection, for core.health().
const CONNECTING = 0, OPENED = 1, CLOSED = 2, TICK = 3, CLOSE = 4;

/** Taken at load, like the platform's SHA-1: a page that replaces it later is never handed wasm memory. */
const encodeInto = TextEncoder.prototype.encodeInto.bind(new TextEncoder());

/**
 * @param {any} proto
 * @param {string} name
 * @returns {PropertyDescriptor | undefined}
 */
const accessorOf = (proto, name) => (proto ? Object.getOwnPropertyDescriptor(proto, name) : undefined);
// The platform's WebSocket, where there is one: a socket that is one has its handlers set through its
// prototype's setters, and is closed through its prototype's `close` too (after its own, which a subclass may
// extend), so that what the object itself was given cannot skip its closing.
const HANDLERS = ["onopen", "onmessage", "onclose", "onerror"];
const platformSocket = (() => {
  try {
    const proto = globalThis.WebSocket?.prototype;
    const readyState = accessorOf(proto, "readyState")?.get;
    const setters = Object.fromEntries(HANDLERS.map((name) => [name, accessorOf(proto, name)?.set]));
    if (!readyState || typeof proto.close !== "function") return null;
    return {
      readyState,
      setters: /** @type {Record<string, ((this: unknown, v: unknown) => void) | undefined>} */ (setters),
      close: /** @type {(this: unknown) => void} */ (proto.close),
    };
  } catch {
    return null;
  }
})();

/**
 * Whether `socket` is the platform's WebSocket (its brand check passes), never calling the object's own code.
 * @param {Socket} socket
 */
function isPlatformSocket(socket) {
  if (!platformSocket) return false;
  try {
    platformSocket.readyState.call(socket);
    return true;
  } catch {
    return false;
  }
}

/**
 * Sets (or clears, with null) one handler of `socket`; whether it could.
 * @param {Socket} socket
 * @param {string} name
 * @param {((event: any) => void) | null} handler
 */
function setHandler(socket, name, handler) {
  try {
    const set = platformSocket && isPlatformSocket(socket) ? platformSocket.setters[name] : undefined;
    if (set) set.call(socket, handler);
    else socket[name] = handler;
    return true;
  } catch {
    return false;
  }
}

// The platform's SHA-1 (native, off the main thread), taken once at load so that a page replacing
// crypto.subtle later changes nothing; null where there is none (crypto.subtle needs a secure context:
// then the core hashes books itself).
const digestSha1 = (() => {
  try {
    const subtle = globalThis.crypto?.subtle;
    const digest = subtle?.digest;
    return typeof digest === "function"
      ? /** @param {Uint8Array<ArrayBuffer>} bytes @returns {Promise<ArrayBuffer>} */ (bytes) => digest.call(subtle, "SHA-1", bytes)
      : null;
  } catch {
    return null;
  }
})();

/** Whether checks can be handed to the platform's SHA-1 (asked by the core when a stream opens). */
export function platformDigest() {
  return digestSha1 !== null;
}

/**
 * Opens a stream over `core` (the binding checked every argument).
 * @param {StreamCore} core
 * @param {string} url
 * @param {new (url: string) => Socket} WebSocketImpl
 * @param {((event: StreamEvent) => void) | undefined} onEvent
 * @param {AbortSignal | undefined} signal a genuine AbortSignal
 * @param {number} maxQueued events kept for a slow `for await` (the core's MAX_QUEUED_EVENTS)
 */
export function openStream(core, url, WebSocketImpl, onEvent, signal, maxQueued) {
  return new Stream(core, url, WebSocketImpl, onEvent, signal, maxQueued);
}

class Stream {
  // Private: the core makes the subscription message, which for the user channel holds the credentials.
  /** @type {StreamCore | null} */
  #core;

  /**
   * @param {StreamCore} core
   * @param {string} url
   * @param {new (url: string) => Socket} WebSocketImpl
   * @param {((event: StreamEvent) => void) | undefined} onEvent
   * @param {AbortSignal | undefined} signal
   * @param {number} maxQueued
   */
  constructor(core, url, WebSocketImpl, onEvent, signal, maxQueued) {
    this.#core = core;
    /** Events kept for a `for await` that is slower than the stream; past this the oldest are dropped. */
    this._maxQueued = maxQueued;
    this._url = url;
    this._WebSocket = WebSocketImpl;
    this._onEvent = onEvent;
    /** @type {Socket} */
    this._socket = null;
    this._status = "connecting";
    /** @type {(StreamEvent | undefined)[]} */
    this._queue = [];
    this._head = 0;
    /** @type {((result: IteratorResult<StreamEvent>) => void)[]} */
    this._waiters = [];
    this._iterating = false;
    this._dropped = 0;
    // Hash checks handed to the platform and not answered yet; `settled()` promises waiting for none.
    this._digesting = 0;
    /** @type {((value?: any) => void)[]} */
    this._settled = [];
    // Frames that came while one was being applied (see `_message`), and those refused.
    this._delivering = false;
    /** @type {([Socket, unknown] | undefined)[]} */
    this._pending = [];
    this._refused = 0;
    this._open = false;
    this._closing = false;
    /** @type {import("./driver.js").Later | undefined} */
    this._timer = undefined;
    /** @type {import("./driver.js").Later | undefined} */
    this._reconnect = undefined;
    /** @type {(() => void) | undefined} */
    this._forget = undefined;
    if (signal) {
      // (The binding checked it is a genuine AbortSignal; a failure here, which only running out of stack
      // could cause, closes the stream rather than leaving it unable to hear an abort.)
      let aborted = true;
      try {
        aborted = isAborted(signal);
        if (!aborted) this._forget = onAbortOf(signal, () => this.close());
      } catch {
        aborted = true;
      }
      if (aborted) queueMicrotask(() => this.close());
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

  /** @param {unknown} ids */
  subscribe(ids) {
    this._follow(true, ids);
  }

  /** @param {unknown} ids */
  unsubscribe(ids) {
    this._follow(false, ids);
  }

  /**
   * @param {boolean} subscribe
   * @param {unknown} ids
   */
  _follow(subscribe, ids) {
    if (!this.#core) return;
    const message = this.#core.follow(subscribe, ids);
    // Before the socket is open the change needs no message: the subscription sent on open has it.
    if (message !== undefined && this._open) this._send(message);
    this._snapshots();
  }

  /** @param {unknown} assetId */
  book(assetId) {
    return this.#core?.book(assetId, false);
  }

  /** @param {unknown} assetId */
  bookStatus(assetId) {
    return this.#core?.book(assetId, true);
  }

  /** Ends the stream: the socket is closed and the core freed, whatever the socket or a listener does. */
  close() {
    const core = this.#core;
    if (!core || this._closing) return;
    // (The "closed" status event is told first; a listener that closes again meanwhile changes nothing.)
    this._closing = true;
    this._health(CLOSE);
    this.#core = null;
    clearLater(this._timer);
    clearLater(this._reconnect);
    try {
      this._forget?.();
    } catch {
      // Only running out of stack could make the built-in throw; the listener then closes nothing.
    }
    const socket = this._socket;
    this._socket = null;
    this._drop(socket);
    this._pending = [];
    for (const resolve of this._waiters.splice(0)) resolve({ done: true, value: undefined });
    for (const resolve of this._settled.splice(0)) resolve();
    try {
      core.free();
    } catch {
      // Freed already (the binding's guard), or out of stack: nothing else holds it.
    }
  }

  [Symbol.asyncIterator]() {
    this._iterating = true;
    return {
      next: () => this._next(),
      /** @param {unknown} value */
      return: async (value) => {
        this.close();
        return { done: true, value };
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  /** @returns {Promise<IteratorResult<StreamEvent>>} */
  _next() {
    if (this._head < this._queue.length) {
      const value = this._queue[this._head];
      this._queue[this._head++] = undefined;
      if (this._head === this._queue.length) {
        this._queue = [];
        this._head = 0;
      }
      return Promise.resolve({ done: false, value: /** @type {StreamEvent} */ (value) });
    }
    if (!this.#core) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve) => this._waiters.push(resolve));
  }

  /** @param {StreamEvent} event */
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
    if (this._queue.length - this._head >= this._maxQueued) {
      this._queue[this._head++] = undefined;
      this._dropped++;
    }
    this._queue.push(event);
  }

  _connect() {
    if (!this.#core) return;
    this._health(CONNECTING);
    /** @type {Socket} */
    let socket;
    try {
      socket = new this._WebSocket(this._url);
      this._socket = socket;
      const lost = () => socket === this._socket && this._lost();
      const set =
        setHandler(socket, "onopen", () => socket === this._socket && this._opened()) &&
        setHandler(socket, "onmessage", (/** @type {unknown} */ message) => socket === this._socket && this._message(socket, message)) &&
        setHandler(socket, "onclose", lost) &&
        setHandler(socket, "onerror", lost);
      if (!set) throw new Error("the WebSocket's handlers could not be set");
    } catch (cause) {
      this._drop(socket);
      this._socket = null;
      this._health(CLOSED, cause ?? new Error("the WebSocket constructor threw"));
    }
  }

  _opened() {
    if (!this.#core) return;
    this._open = true;
    let hello;
    try {
      hello = this.#core.hello();
    } catch {
      return this._lost();
    }
    if (!this._send(hello)) return;
    this._health(OPENED);
    this._snapshots();
  }

  /**
   * One message of `socket`. A message that comes while another is being applied or its events told (a
   * listener handing frames to `onmessage`) waits until that is done, and is applied after it; at most
   * MAX_REENTRANT of those a delivery, beyond which they are refused (one `error` event, DECODE).
   */
  /**
   * @param {Socket} socket
   * @param {unknown} message
   */
  _message(socket, message) {
    if (this._delivering) {
      if (this._pending.length < MAX_REENTRANT) this._pending.push([socket, message]);
      else this._refused++;
      return;
    }
    // Taken before the delivery starts (and before anything else: nothing the page can replace runs between
    // the inbox's view and the core reading it). A replaced Date.now that delivers a frame of its own has that
    // frame applied first, whole; one delivered later in the delivery waits.
    const now = dateNow();
    this._delivering = true;
    try {
      this._deliver(socket, message, now);
      for (let i = 0; i < this._pending.length; i++) {
        const [from, next] = /** @type {[Socket, unknown]} */ (this._pending[i]);
        this._pending[i] = undefined;
        this._deliver(from, next);
      }
      if (this._refused && this.#core) {
        let error;
        try {
          error = this.#core.refused();
        } catch {}
        if (error) this._emit({ event_type: "error", error });
      }
    } finally {
      this._delivering = false;
      this._pending = [];
      this._refused = 0;
    }
  }

  /**
   * @param {Socket} socket
   * @param {unknown} message
   * @param {number} [now]
   */
  _deliver(socket, message, now) {
    // A message of a socket since replaced (by a reconnection while it waited) is not this connection's.
    if (socket !== this._socket || !this.#core) return;
    try {
      this._apply(message, now ?? dateNow());
    } catch {
      // A call into the core that threw (only running out of stack can) loses this frame, not the stream.
    }
  }

  /**
   * @param {any} message
   * @param {number} now
   */
  _apply(message, now) {
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
    // (A replaced Date.now, called before, may have closed the stream meanwhile.)
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
    if (report === undefined && !listening) return;
    // First: the due checks' bytes are views into wasm memory, valid until wasm runs again.
    if (report?.due) this._digest(report.due);
    // A hash waits for the rest of its burst: the health check comes no later than its window's end.
    if (report?.wake !== undefined) {
      clearLater(this._timer);
      this._timer = later(() => this._health(TICK), report.wake - dateNow());
    }
    // A message after a silent stall: the stream is open again.
    if (report?.status) {
      this._status = report.status;
      this._emit({ event_type: "status", status: report.status });
      if (!this.#core) return;
    }
    if (report?.pong) return this._health(TICK);
    if (report?.error) return this._emit({ event_type: "error", error: report.error });
    if (listening) {
      let events;
      try {
        events = JSON.parse(data);
      } catch {
        events = [];
      }
      const list = Array.isArray(events) ? events : [events];
      for (let i = 0; i < list.length; i++) {
        // A lifecycle event the service repeated (on every connection, more than once) is told once.
        if (report?.repeats?.includes(i)) continue;
        const event = list[i];
        // A trade of the account's: its own fills beside the taker's order the event describes.
        const fills = this.#core.fills(event);
        if (fills) event.fills = fills;
        this._emit(event);
        if (!this.#core) return;
      }
    }
    if (report === undefined) return;
    this._report(report);
    if (report.resync.length) this._snapshots();
  }

  /** Hands each due check's bytes to the platform's SHA-1 (which copies them at once) and its answer back. */
  /** @param {[number, Uint8Array<ArrayBuffer>][]} due */
  _digest(due) {
    for (const [id, bytes] of due) {
      /** @type {Promise<ArrayBuffer>} */
      let digest;
      try {
        if (!digestSha1) throw new Error("no platform SHA-1");
        digest = digestSha1(bytes);
      } catch (error) {
        digest = Promise.reject(error);
      }
      this._digesting++;
      // An answer that does not come in time counts as none: the core then hashes books itself.
      let answered = false;
      /** @param {Uint8Array | undefined} digest */
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

  /**
   * @param {number} id
   * @param {Uint8Array | undefined} digest
   */
  _digested(id, digest) {
    this._digesting--;
    let report;
    try {
      report = this.#core?.digested(id, digest, dateNow());
    } catch {
      report = undefined;
    }
    if (report) {
      this._report(report);
      if (report.resync.length) this._snapshots();
    }
    if (!this._digesting) for (const resolve of this._settled.splice(0)) resolve();
  }

  /** @param {Report} report */
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

  /** Closes `socket`: each handler is cleared and the socket closed, each step tried whatever the others did. */
  /** @param {Socket} socket */
  _drop(socket) {
    if (socket === this._socket) this._open = false;
    if (!socket) return;
    for (const name of HANDLERS) setHandler(socket, name, null);
    try {
      socket.close();
    } catch {
      // Already closed, or not a socket that can be.
    }
    // (Closing a closed WebSocket does nothing.)
    if (platformSocket && isPlatformSocket(socket)) {
      try {
        platformSocket.close.call(socket);
      } catch {}
    }
  }

  /** @param {string} text */
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
  /**
   * @param {number} kind
   * @param {unknown} [cause]
   */
  _health(kind, cause) {
    if (!this.#core) return;
    let actions;
    try {
      actions = this.#core.health(kind, dateNow(), Math.random(), cause);
    } catch {
      return;
    }
    let resync = false;
    for (const [what, arg] of actions) {
      if (what === "ping") this._send("PING");
      else if (what === "resync") {
        resync = true;
        this._emit({ event_type: "resync", asset_id: arg[0], reason: arg[1] });
      }
      else if (what === "resubscribe") {
        let hello;
        try {
          hello = this.#core?.hello();
        } catch {}
        if (hello !== undefined) this._send(hello);
      }
      else if (what === "status") {
        this._status = arg;
        this._emit({ event_type: "status", status: arg });
      } else if (what === "error") this._emit({ event_type: "error", error: arg });
      else if (what === "reconnect") {
        this._drop(this._socket);
        this._socket = null;
        clearLater(this._reconnect);
        this._reconnect = later(() => this._connect(), arg);
      } else if (what === "next") {
        clearLater(this._timer);
        if (Number.isFinite(arg)) this._timer = later(() => this._health(TICK), arg - dateNow());
      }
    }
    if (resync) this._snapshots();
  }

  /** Fetches the snapshots the core asks for; it applies them, and what they did is reported. */
  _snapshots() {
    if (!this.#core) return;
    let started;
    try {
      started = this.#core.snapshots();
    } catch {
      return;
    }
    for (const [asked, fetched] of started) {
      // One asset's book (GET /book), or a batch's books (POST /books) and then the assets its answer left out
      // (the core decides what they mean).
      const batch = Array.isArray(asked) ? asked : [asked];
      fetched
        .then(
          (/** @type {any} */ answer) =>
            Array.isArray(asked)
              ? [
                  .../** @type {{ assetId?: string, free(): void }[]} */ (answer).map((book) =>
                    this._applySnapshot(String(book.assetId ?? ""), book),
                  ),
                  this.#core?.unanswered(asked),
                ]
              : [this._applySnapshot(asked, answer)],
          (/** @type {unknown} */ error) => batch.map((asset) => this._applySnapshot(asset, undefined, error)),
        )
        .then((reports) => {
          let retry = 0;
          for (const report of reports) {
            if (!report) continue;
            if (report.due) this._digest(report.due);
            this._report(report);
            if (report.retry) retry = retry ? Math.min(retry, report.retry) : report.retry;
          }
          // A failed or stale snapshot is asked for again after the core's delay.
          if (retry) setTimeout(() => this._snapshots(), retry);
          else if (reports.some(Boolean)) this._snapshots();
        })
        .catch(() => {
          // Never rejects; a throwing step above (out of stack) leaves nothing unhandled.
        });
    }
  }

  /**
   * Hands a fetched snapshot (undefined: none could be had, and `error` says why) to the core; its report, or
   * none once closed.
   * @param {string} asset
   * @param {{ free(): void } | undefined} book
   * @param {unknown} [error]
   * @returns {Report | undefined}
   */
  _applySnapshot(asset, book, error) {
    if (!this.#core) {
      book?.free();
      return undefined;
    }
    return this.#core.snapshot(asset, book, error);
  }
}
