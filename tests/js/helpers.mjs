// Shared by the JS tests: the built Node package, the emulator's URL and the recorded data.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";

const require = createRequire(import.meta.url);

/** The package as Node users load it (its CommonJS entry, pkg/node.cjs). */
export const PKG_DIR = process.env.PREDICTKIT_PKG_DIR ?? new URL("../../pkg/", import.meta.url).pathname;
export const pk = require(`${PKG_DIR}/node.cjs`);
/** The binding's internal entries, off the public prototypes (the package's guard.mjs: `internal`). */
export const { internal } = require(`${PKG_DIR}/guard.mjs`);
/** `obj`'s internal entry `name`, bound to it. */
export const entry = (obj, name) => (...args) => internal(obj)[name].apply(obj, args);

export const EMULATOR = process.env.PREDICTKIT_EMULATOR_URL ?? "http://127.0.0.1:8787";

export function fixture(path) {
  return readFileSync(new URL(`../fixtures/${path}`, import.meta.url), "utf8");
}

/** Asserts a PredictKitError with the given code, and returns it. */
export async function rejectsWith(assert, promiseOrFn, code) {
  let error;
  try {
    await (typeof promiseOrFn === "function" ? promiseOrFn() : promiseOrFn);
  } catch (e) {
    error = e;
  }
  assert.ok(error, `expected a ${code} error, got success`);
  assert.ok(error instanceof Error, "errors are real Errors");
  assert.equal(error.name, "PredictKitError");
  assert.equal(error.code, code, error.message);
  assert.ok(pk.isPredictKitError(error));
  return error;
}

/** Calls one of the emulator's admin routes and returns its JSON answer. */
export async function admin(base, method, path, body) {
  const res = await fetch(base + path, { method, body: body && JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * Two local HTTP servers on 127.0.0.1 with ephemeral ports, so two origins. `a` answers every request with
 * what `redirect(url)` says (`[status, path on b]`, or nothing for a 404); `b` records every request it
 * receives (`{ method, url, headers }`, header names in lower case, preflights included) and answers 200
 * with `answer(method, path)` as JSON text. Both allow any origin, header and method (CORS) and answer
 * preflights with 204, so a page on a third origin can use them.
 */
export async function startServerPair({ answer, redirect }) {
  const { createServer } = await import("node:http");
  const cors = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Headers": "*",
    "Access-Control-Allow-Methods": "*",
    "Access-Control-Expose-Headers": "*",
  };
  const requests = [];
  const listen = (server) => new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server.address().port)));
  const b = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      requests.push({ method: req.method, url: req.url, headers: { ...req.headers } });
      if (req.method === "OPTIONS") return res.writeHead(204, cors).end();
      res.writeHead(200, { ...cors, "Content-Type": "application/json" }).end(answer(req.method, req.url.split("?")[0]));
    });
  });
  const bPort = await listen(b);
  const a = createServer((req, res) => {
    req.resume();
    if (req.method === "OPTIONS") return res.writeHead(204, cors).end();
    const to = redirect(req.url);
    if (!to) return res.writeHead(404, cors).end('{"error":"not found"}');
    res.writeHead(to[0], { ...cors, Location: `http://127.0.0.1:${bPort}${to[1]}` }).end();
  });
  const aPort = await listen(a);
  return {
    a: `http://127.0.0.1:${aPort}`,
    b: `http://127.0.0.1:${bPort}`,
    requests,
    close: () => Promise.all([a, b].map((s) => new Promise((resolve) => {
      s.closeAllConnections?.();
      s.close(resolve);
    }))),
  };
}

/**
 * Two origins (`startServerPair`): `a` answers every request with 307 and `Location:` the same path and
 * query on `b`; `b` answers as the service would: `"OK"` for GET /, `{"canceled":[],"not_canceled":{}}` for a
 * DELETE, an empty page otherwise.
 */
export function startRedirectPair() {
  return startServerPair({
    redirect: (url) => [307, url],
    answer: (method, path) =>
      method === "DELETE" ? '{"canceled":[],"not_canceled":{}}'
        : path === "/" ? '"OK"'
        : '{"data":[],"next_cursor":"LTE=","limit":0,"count":0}',
  });
}

/**
 * The emulator reset, and what the hostile suites call it with: a token and its market's condition id, and
 * the demo account's credentials.
 */
export async function emulatorAccount(base) {
  await admin(base, "POST", "/__admin/reset");
  const page = await (await fetch(`${base}/markets`)).json();
  const [account] = await admin(base, "GET", "/__admin/accounts");
  return {
    token: page.data[0].tokens[0].token_id,
    condition: page.data[0].condition_id,
    creds: { address: account.address, apiKey: account.apiKey, secret: account.secret, passphrase: account.passphrase },
  };
}

// --- Running the hostile scenarios (tests/js/hostile-cases.mjs) ------------------------------------
// A run is one process (Node) or page (Chromium) executing one scenario: { start, last: [index, id,
// target, value] of the last case begun, started: [indices], ids, events (emitted outcomes and
// findings), unhandled, final: { result, closing } or null, stalled, crashed, overtime, exit, stderr,
// error }.

/**
 * Runs one group of hostile cases with `runOne(scenario, args)`. A resumable scenario (the sweep, the
 * named cases) that stopped because the module was corrupted, or whose process or page died or stalled
 * in a case, goes on in a new one after that case, skipping the value that blocked the target in its
 * other positions. Calls still in flight when a later case ended their run run again in a later pass.
 */
export async function runHostileGroup(runOne, scenario, args, { resumable = false } = {}) {
  const runs = [];
  const skip = [];
  let only = null;
  for (let pass = 0; pass < 3; pass++) {
    const passRuns = [];
    let start = 0;
    for (let n = 0; n < 60; n++) {
      const run = await runOne(scenario, { ...args, start, skip: [...skip], only });
      passRuns.push(run);
      const next = run.final?.result?.next;
      if (run.final) {
        if (next === null || next === undefined || !resumable) break;
        start = next;
      } else if (resumable && run.last) {
        start = run.last[0] + 1;
        if (run.last[2]) skip.push(`${run.last[2]}|${run.last[3]}`);
      } else break;
    }
    runs.push(...passRuns);
    if (!resumable) break;
    // Calls still in flight when a later case ended their run had no fair chance to settle (each one's
    // own 5 s deadline reports it as "pending" while the event loop turns): they run again.
    const retry = [];
    for (const run of passRuns.filter((r) => !r.final)) {
      const settled = new Set(run.events.filter((e) => e.tally).map((e) => e.i));
      retry.push(...run.started.filter((i) => !settled.has(i) && i !== run.last?.[0]));
    }
    if (!retry.length) break;
    only = retry;
  }
  return runs;
}

/** What went wrong with the runs of a group, whatever the scenario: one line each. */
export function hostileRunProblems(runs, { where, stallMs }) {
  const lines = [];
  for (const run of runs) {
    const during = run.last ? run.last[1] : "its start";
    for (const u of run.unhandled) lines.push(`${u.event} during ${u.during}: ${u.reason.name ?? u.reason.type}: ${u.reason.message ?? ""}`);
    if (!run.final) {
      if (run.stalled) lines.push(`never settled in time: ${during} blocked the ${where} for more than ${stallMs / 1000} s (ended there)`);
      else if (run.crashed) lines.push(`the ${where} crashed during ${during}`);
      else if (run.overtime) lines.push(`the group's ${where} ran out of time during ${during}`);
      else lines.push(`the ${where} died (${run.exit ?? run.error}) during ${during}${run.stderr ? `: ${run.stderr.trim().split("\n").slice(-3).join(" | ")}` : ""}`);
      continue;
    }
    const { result, closing } = run.final;
    if (result?.scenarioThrew) lines.push(`the scenario threw ${result.scenarioThrew.name}: ${result.scenarioThrew.message}`);
    if (result?.corrupted) lines.push(`module corrupted by ${result.corrupted.id}: later calls fail with ${result.corrupted.problems.join("; ")}`);
    for (const p of closing.problems) lines.push(`closing check in the ${where} that ran from case ${run.start}: ${p}`);
  }
  return lines;
}

/** The sweep's figures and findings over all its runs; `show` formats an outcome. */
export function hostileSweepFindings(runs, show) {
  const results = runs.map((r) => r.final?.result).filter(Boolean);
  const events = runs.flatMap((r) => r.events);
  const settled = new Set(events.filter((e) => e.tally).map((e) => e.i));
  const killers = new Set(runs.filter((r) => !r.final && r.last).map((r) => r.last[0]));
  const started = new Set(runs.flatMap((r) => r.started));
  const counts = {};
  for (const e of events) if (e.tally) counts[e.tally] = (counts[e.tally] ?? 0) + 1;
  return {
    total: results[0]?.total,
    hugeAllocated: results[0]?.hugeAllocated,
    ran: started.size,
    counts,
    violations: events.filter((e) => e.violation).map(({ violation: v }) =>
      `${v.id}: ${v.blockedMs ? `blocked the thread for ${v.blockedMs} ms, then ` : ""}${show(v.outcome)}`),
    skipped: events.filter((e) => e.skipped).map(({ skipped: s }) => `${s.id} (${s.why})`),
    lost: [...started].filter((i) => !settled.has(i) && !killers.has(i)).map((i) => runs.find((r) => r.ids[i])?.ids[i] ?? `case ${i}`),
  };
}

/** A WebSocket stand-in that opens at once and records what is sent; the test delivers its messages (`FakeSocket.last`). */
export class FakeSocket {
  static last = null;
  constructor() {
    this.sent = [];
    FakeSocket.last = this;
    queueMicrotask(() => this.onopen?.({ type: "open" }));
  }
  send(text) {
    this.sent.push(text);
  }
  close() {}
}

/**
 * An emulator of its own (`args`: its options, e.g. `["--chain-id", "137"]`), from the binary the test command
 * built (PREDICTKIT_EMULATOR_BIN, or the workspace's debug build). Resolves to `{ url, stop() }`.
 */
export async function startEmulator(args) {
  const { spawn } = await import("node:child_process");
  const root = new URL("../../", import.meta.url).pathname;
  const bin = process.env.PREDICTKIT_EMULATOR_BIN ?? `${root}target/debug/predictkit-emulator`;
  const child = spawn(bin, ["--port", "0", "--no-limits", ...args], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise((resolve, reject) => {
    let out = "";
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the emulator exited (${code}) before listening`)));
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const line = /predictkit-emulator listening on (\S+)/.exec(out);
      if (line) resolve(line[1]);
    });
  });
  child.stdout.resume();
  return {
    url,
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", resolve);
      child.kill();
    }),
  };
}

/** An emulator's development wallet (its `POST /wallet`) as an EIP-1193 provider, as a page has `window.ethereum`. */
export function devWallet(base = EMULATOR) {
  return {
    async request({ method, params }) {
      const res = await fetch(`${base}/wallet`, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
      const answer = await res.json();
      if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
      return answer.result;
    },
  };
}

/**
 * A market of `base` that accepts orders on a 0.01 tick, with bids and asks at least three ticks apart:
 * `{ tokenId, conditionId, bid, ask, minSize }`.
 */
export async function spreadMarket(base = EMULATOR) {
  const page = await (await fetch(`${base}/sampling-markets`)).json();
  for (const m of page.data) {
    const tokenId = m.tokens[0].token_id;
    const info = await (await fetch(`${base}/clob-markets/${m.condition_id}`)).json();
    const book = await (await fetch(`${base}/book?token_id=${tokenId}`)).json();
    if (!m.accepting_orders || info.mts !== 0.01 || !book.bids.length || !book.asks.length) continue;
    const bid = Math.max(...book.bids.map((l) => Number(l.price)));
    const ask = Math.min(...book.asks.map((l) => Number(l.price)));
    if (ask - bid >= 0.03 && ask <= 0.9) return { tokenId, conditionId: m.condition_id, bid, ask, minSize: info.mos };
  }
  throw new Error("no market on a 0.01 tick with a spread of three ticks");
}

/**
 * Gives the account of `client` (signing with `signer`) `size` shares of `tokenId`, bought from the book's asks
 * with a fill-and-kill buy at the ask that covers them: the service refuses a sell of shares the account does not
 * hold (its "not enough balance / allowance"), as the emulator does.
 */
export async function holdShares(client, signer, tokenId, size, base = EMULATOR) {
  const book = await (await fetch(`${base}/book?token_id=${tokenId}`)).json();
  const asks = book.asks ?? [];
  let total = 0;
  let price;
  // Asks descending: the best last.
  for (let i = asks.length - 1; i >= 0; i--) {
    total += Number(asks[i].size);
    if (total >= size) {
      price = Number(asks[i].price);
      break;
    }
  }
  if (price === undefined) throw new Error(`the asks of ${tokenId} hold fewer than ${size} shares`);
  const bought = await client.placeOrder({ tokenId, side: "BUY", price, size, orderType: "FAK" }, signer);
  if (bought.status !== "matched") throw new Error(`buying ${size} shares of ${tokenId}: ${JSON.stringify(bought)}`);
  return bought;
}

