// The assertions on what the scenarios of stream-hostile-scenarios.mjs and liveness-scenarios.mjs report, shared
// by the Node and the Chromium runs (tests/js/hostile-stream.test.mjs, tests/browser/hostile-stream.test.mjs).

/** Re-entrant delivery: no exception, a bounded number of frames taken, one typed refusal, and a stream that goes on. */
export function reentrant(assert, r, data) {
  const { reentry, listenerThrows } = r;
  assert.ok(reentry.started, "the book was never verified");
  assert.deepEqual(reentry.thrown, [], `onmessage threw ${reentry.thrownCount} times`);
  // 1 + the bound's 1,000 frames applied; those beyond are refused, with one typed error event.
  assert.equal(reentry.reentered, 1001, `price_change events seen while re-entering: ${reentry.reentered}`);
  assert.equal(reentry.errorsWhileReenteredCount, 1, JSON.stringify(reentry.errorsWhileReentered));
  const [refusal] = reentry.errorsWhileReentered;
  assert.ok(refusal.typed && refusal.code === "DECODE" && /refused/.test(refusal.message), JSON.stringify(refusal));
  assert.ok(reentry.statusAfterReentry?.verified, `bookStatus after re-entry: ${JSON.stringify(reentry.statusAfterReentry)}`);
  // Later frames are read (no DECODE "not text") and the book is the service's.
  assert.deepEqual(reentry.errorsAfter, []);
  assert.ok(reentry.bookStatus?.verified && reentry.bookStatus.state === "live", JSON.stringify(reentry.bookStatus));
  assert.equal(reentry.hash, data.hash);
  assert.equal(reentry.streamStatus, "open");
  // A listener that throws at every event, whatever it throws.
  assert.ok(listenerThrows.started, "the book was never verified with a throwing listener");
  assert.ok(listenerThrows.calls > data.frames.length, `the listener was called ${listenerThrows.calls} times`);
  assert.ok(listenerThrows.bookStatus?.verified, JSON.stringify(listenerThrows.bookStatus));
  assert.equal(listenerThrows.hash, data.hash);
  assert.equal(listenerThrows.streamStatus, "open");
}

/** Hostile signals: a genuine one with throwing own properties works through the built-ins; a Proxy is refused. */
export function signal(assert, r) {
  for (const name of ["removeThrows", "closed", "aborted"]) {
    const c = r[name];
    assert.equal(c.openThrew, undefined, `${name}: marketStream threw ${c.openThrew}`);
    assert.ok(c.opened && c.verified, `${name}: ${JSON.stringify(c)}`);
    assert.equal(c.endThrew, undefined, `${name}: ${c.endThrew}`);
    assert.equal(c.status, "closed", `${name}: ${JSON.stringify(c)}`);
    assert.equal(c.bookStatusAfter, null, `${name}: the core still answers after close`);
    assert.equal(c.socketClosed, 1, `${name}: the socket was closed ${c.socketClosed} times`);
    assert.deepEqual(c.laterEventsThrew, [], `${name}: the socket's later events threw`);
    assert.equal(c.closeAgainThrew, undefined, `${name}: ${c.closeAgainThrew}`);
  }
  const before = r.abortedBefore;
  assert.equal(before.openThrew, undefined, `aborted before: marketStream threw ${before.openThrew}`);
  assert.equal(before.status, "closed", JSON.stringify(before));
  assert.equal(before.socketClosed, 1, JSON.stringify(before));
  assert.deepEqual(before.laterEventsThrew, []);
  // A Proxy of a signal: refused (INVALID_PARAMS, no socket made) where the platform's brand checks see
  // through no Proxy (browsers), or used as the signal it wraps where they do (Node's AbortSignal).
  for (const name of ["proxy", "throwingProxy"]) {
    const p = r[name];
    if (p.openThrew !== undefined) {
      assert.ok(p.typed && /INVALID_PARAMS/.test(p.openThrew), `${name}: ${JSON.stringify(p)}`);
      assert.equal(p.socketsMade, 0, `${name}: a socket was made`);
    } else {
      assert.equal(p.endThrew, undefined, `${name}: ${p.endThrew}`);
      assert.ok(p.status === "closed" && p.socketClosed === 1 && p.bookStatusAfter === null, `${name}: ${JSON.stringify(p)}`);
      assert.deepEqual(p.laterEventsThrew, [], `${name}: the socket's later events threw`);
    }
  }
}

/** Hostile sockets: none left open, whatever their setters do. */
export function socket(assert, r, { platform }) {
  assert.ok(r.alwaysReconnected && r.alwaysMade >= 2, JSON.stringify(r));
  assert.ok(r.alwaysOpenWhileRunning <= 1, `throwing setters: ${r.alwaysOpenWhileRunning} sockets open at once`);
  assert.equal(r.alwaysOpenAfterClose, 0, `throwing setters: ${r.alwaysOpenAfterClose} of ${r.alwaysMade} sockets left open`);
  assert.deepEqual(r.nullOpened, [true, true, true], JSON.stringify(r));
  assert.ok(r.nullOpenWhileRunning <= 1, `setters refusing null: ${r.nullOpenWhileRunning} sockets open at once`);
  assert.equal(r.nullMade, 3);
  assert.equal(r.nullOpenAfterClose, 0, `setters refusing null: ${r.nullOpenAfterClose} of ${r.nullMade} sockets left open`);
  if (platform) {
    assert.ok(r.platformOpened, `a platform WebSocket with throwing own properties: ${JSON.stringify(r)}`);
    assert.equal(r.platformMade, 1);
    assert.ok(r.platformStates.every((s) => s >= 2), `readyState after close: ${r.platformStates}`);
  }
}

/** The subscription bound: refused whole beyond it, nothing sent; linear time within it. */
export function bound(assert, r) {
  assert.ok(r.opened);
  assert.equal(r.refusedEarly, undefined);
  assert.equal(r.accepted, 5000);
  assert.equal(typeof r.beyond, "object", `subscribing beyond 5,000: ${JSON.stringify(r.beyond)}`);
  assert.ok(r.beyond.typed && r.beyond.code === "INVALID_PARAMS" && r.beyond.param === "assetIds", JSON.stringify(r.beyond));
  assert.equal(r.sentOnRefusal, 0);
  assert.equal(r.beyondStatus, null);
  assert.equal(r.again, "ok");
  assert.equal(r.afterRoom, "ok");
  assert.match(r.lastSent, /^\{"operation":"subscribe","assets_ids":\["\d+"\]\}$/);
  // Linear: twice the ids take about twice the time (quadratic would be four times). Generous.
  const ratio = r.fullMs / r.halfMs;
  assert.ok(ratio < 3, `5,000 ids took ${r.fullMs.toFixed(1)} ms, 2,500 took ${r.halfMs.toFixed(1)} ms: ${ratio.toFixed(2)}x`);
}

/** A reconnection whose dump is cut before A's book: A asks for a snapshot at its first change and is verified. */
export function lostDump(assert, r, data) {
  assert.ok(r.started && r.reopened, JSON.stringify(r));
  assert.ok(r.recovered, `A not verified after its dump was lost: ${JSON.stringify(r.statusA)}`);
  // Within one snapshot of the change (the reconnection's backoff came before it).
  assert.ok(r.tookMs < 2000, `${r.tookMs} ms`);
  assert.equal(r.hash, data.hashA);
  assert.deepEqual(r.resyncs, [["A", "gap"]]);
  assert.ok(r.statusB.verified && r.statusB.state === "live", JSON.stringify(r.statusB));
}

/** A silent stall that ends before the reconnection path: stalled, then open, on the same socket. */
export function stall(assert, r, data) {
  assert.ok(r.verified && r.stalled, JSON.stringify(r));
  assert.equal(r.statusWhileStalled, "stalled");
  assert.equal(r.statusAfter, "open", JSON.stringify(r.statuses));
  assert.deepEqual(r.statuses.slice(-2), ["stalled", "open"]);
  assert.equal(r.sockets, 1, "no reconnection");
  assert.equal(r.hash, data.hash);
  assert.ok(r.bookStatus.verified);
}

/** A hash nothing explains, on a stream with nothing else to wake it: resynced at its window's end (1 s). */
export function quietMismatch(assert, r, data) {
  assert.ok(r.verified, JSON.stringify(r));
  assert.ok(!r.waiting.verified && r.waiting.deferred === 1 && r.waiting.state === "live", JSON.stringify(r.waiting));
  assert.ok(r.resynced, "no resync on a quiet stream");
  assert.ok(r.resyncMs >= 900 && r.resyncMs < 3000, `${r.resyncMs} ms`);
  assert.deepEqual(r.reasons, ["hash_mismatch"]);
  assert.ok(r.recovered);
  assert.equal(r.hash, data.hash);
}
