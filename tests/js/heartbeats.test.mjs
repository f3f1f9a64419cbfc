// The dead-man switch against the emulator: a chain of heartbeats keeps a key's orders alive across an hour of the
// emulator's (movable) clock, and the orders go once the heartbeats stop; the id the service expects is followed;
// stop(), the signal, a freed client and a refused key each stop it with their reason; hostile options are
// refused at once.
import { test, before, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { pk, EMULATOR, PKG_DIR, rejectsWith, admin as adminAt, devWallet, spreadMarket } from "./helpers.mjs";

const { walletSigner } = await import(`${PKG_DIR}/signers.mjs`);
const admin = (method, path, body) => adminAt(EMULATOR, method, path, body);

const provider = devWallet();

let accounts;
let market;

before(async () => {
  accounts = await provider.request({ method: "eth_requestAccounts" });
  const m = await spreadMarket();
  market = { tokenId: m.tokenId, low: Math.max(0.01, m.bid - 0.01) };
});
beforeEach(() => admin("POST", "/__admin/reset"));

/** A client with the first development account's key; `fetch` sees every request. */
async function trader(fetchImpl = fetch) {
  const client = new pk.Client({ baseUrl: EMULATOR, chainId: 80002, rateLimits: false, fetch: fetchImpl });
  const signer = walletSigner(provider, accounts[0]);
  await client.createOrDeriveApiKey(signer);
  const placed = await client.placeOrder({ tokenId: market.tokenId, side: "BUY", price: Number(market.low.toFixed(2)), size: 10 }, signer);
  assert.equal(placed.success, true, placed.errorMsg);
  return { client, orderId: placed.orderID };
}

const isBeat = (url, init) => String(url).endsWith("/v1/heartbeats") && init?.method === "POST";
const until = async (what, ms = 10_000) => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 10))) if (what()) return;
  assert.fail("timed out");
};

test("a chain of heartbeats keeps the orders alive across an hour of the emulator's clock; once stopped they go", { timeout: 120_000 }, async () => {
  const sent = [];
  // Before each heartbeat the emulator's clock moves 9 s: 400 beats are an hour of its time, each within the deadline.
  const advancing = async (url, init) => {
    if (isBeat(url, init)) {
      sent.push(JSON.parse(init.body).heartbeat_id);
      await admin("POST", "/__admin/clock", { advanceSecs: 9 });
    }
    return fetch(url, init);
  };
  const { client, orderId } = await trader(advancing);
  const events = [];
  const beats = client.heartbeats({ intervalMs: 50, onStatus: (e) => events.push(e) });
  assert.equal(beats.status, "starting");
  await until(() => sent.length >= 401, 100_000);
  beats.stop();
  const stopped = await beats.done;
  assert.equal(stopped.reason, "stopped");
  assert.equal(beats.status, "stopped");
  assert.deepEqual(events.map((e) => e.status), ["starting", "ok", "stopped"], JSON.stringify(events.slice(0, 5)));
  assert.ok(stopped.beats >= 400, `${stopped.beats} beats`);
  // Each heartbeat named the id the one before was answered with.
  assert.equal(sent[0], "");
  assert.equal(new Set(sent).size, sent.length, "every id is new");
  assert.deepEqual((await client.getOpenOrders()).data.map((o) => o.id), [orderId], "alive after an hour");
  const count = sent.length;
  // Stopped: 11 s later the service has cancelled the key's orders.
  await admin("POST", "/__admin/clock", { advanceSecs: 11 });
  await new Promise((r) => setTimeout(r, 400));
  assert.deepEqual((await client.getOpenOrders()).data, [], "cancelled once the heartbeats stopped");
  assert.match((await client.getOrder(orderId)).order.status, /^CANCEL/);
  assert.equal(sent.length, count, "nothing sent after stop()");
  client.free();
});

test("an id the service does not expect: it names the one it does, which is sent at once", async () => {
  /** The statuses of one client's heartbeats. */
  const recorder = (list) => async (url, init) => {
    const res = await fetch(url, init);
    if (isBeat(url, init)) list.push(res.status);
    return res;
  };
  const mine = [];
  const { client } = await trader(recorder(mine));
  const events = [];
  const beats = client.heartbeats({ intervalMs: 200, onStatus: (e) => events.push(e.status) });
  await until(() => beats.status === "ok");
  // Another client of the same key (another tab) starts its own chain: the service expects this one's next id,
  // so the newcomer follows it, and then this one's id is no longer the expected one.
  const theirs = [];
  const creds = (await admin("GET", "/__admin/accounts")).find((a) => a.nonce !== undefined && a.address.toLowerCase() === accounts[0].toLowerCase());
  const other = new pk.Client({ baseUrl: EMULATOR, rateLimits: false, fetch: recorder(theirs), credentials: creds });
  const second = other.heartbeats({ intervalMs: 200 });
  await until(() => second.status === "ok");
  second.stop();
  await until(() => mine.includes(400) && mine.at(-1) === 200 && mine.lastIndexOf(200) > mine.indexOf(400));
  beats.stop();
  await beats.done;
  assert.equal(theirs[0], 400, "the newcomer's empty id: the service names the chain's");
  assert.equal(theirs[1], 200);
  // Each mismatch was followed at once by the id the service named, accepted.
  for (let i = mine.indexOf(400); i >= 0 && i < mine.length - 1; i = mine.indexOf(400, i + 1)) assert.equal(mine[i + 1], 200, mine.join());
  assert.deepEqual(events, ["starting", "ok", "stopped"], "never late: a mismatch followed at once is no failure");
  client.free();
  other.free();
});

test("it stops on stop(), the signal, the client's free and a refused key, each saying why", async () => {
  const { client } = await trader();
  const a = client.heartbeats({ intervalMs: 100 });
  a.stop();
  a.stop();
  assert.equal((await a.done).reason, "stopped");

  const ctl = new AbortController();
  const b = client.heartbeats({ intervalMs: 100, signal: ctl.signal });
  await until(() => b.status === "ok");
  ctl.abort();
  assert.equal((await b.done).reason, "aborted");
  assert.equal((await client.heartbeats({ signal: AbortSignal.abort() }).done).reason, "aborted");

  const c = client.heartbeats({ intervalMs: 100 });
  await until(() => c.status === "ok");
  client.free();
  const freed = await c.done;
  assert.equal(freed.reason, "freed");
  assert.equal(freed.status, "stopped");

  const creds = (await admin("GET", "/__admin/accounts"))[0];
  const forged = new pk.Client({ baseUrl: EMULATOR, rateLimits: false, credentials: { ...creds, secret: "c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0" } });
  const refused = await forged.heartbeats({ intervalMs: 100 }).done;
  assert.equal(refused.reason, "refused");
  forged.free();
});

test("hostile options are refused at once; a throwing listener changes nothing", async () => {
  const { client } = await trader();
  for (const [options, param] of [
    [{ intervalMs: 10 }, "intervalMs"],
    [{ intervalMs: 9000 }, "intervalMs"],
    [{ intervalMs: "5000" }, "intervalMs"],
    [{ onStatus: 5 }, "onStatus"],
    [{ signal: {} }, "signal"],
    [{ get intervalMs() { throw new Error("trap"); } }, "intervalMs"],
    [5, "options"],
  ]) {
    const e = await rejectsWith(assert, () => client.heartbeats(options), "INVALID_PARAMS");
    assert.equal(e.param, param);
  }
  await rejectsWith(assert, () => new pk.Client({ baseUrl: EMULATOR }).heartbeats(), "UNAUTHORIZED");
  const heard = [];
  const beats = client.heartbeats({ intervalMs: 100, onStatus: (e) => { heard.push(e.status); throw new Error("listener"); } });
  await until(() => heard.includes("ok"));
  beats.stop();
  assert.equal((await beats.done).reason, "stopped");
  assert.deepEqual(heard, ["starting", "ok", "stopped"]);
  client.free();
});

test("a switch whose client nobody keeps goes on beating through garbage collections", async () => {
  const { execFile } = await import("node:child_process");
  const creds = (await admin("GET", "/__admin/accounts"))[0];
  // A process of its own, with the collector at hand: the client and the handle are dropped at once.
  const script = `
    const pk = require(${JSON.stringify(`${PKG_DIR}/node.cjs`)});
    const statuses = [];
    new pk.Client({ baseUrl: ${JSON.stringify(EMULATOR)}, rateLimits: false, credentials: ${JSON.stringify({ address: creds.address, apiKey: creds.apiKey, secret: creds.secret, passphrase: creds.passphrase })} })
      .heartbeats({ intervalMs: 100, onStatus: (e) => statuses.push(e.status) });
    const collect = setInterval(() => globalThis.gc(), 20);
    setTimeout(() => { clearInterval(collect); console.log(JSON.stringify(statuses)); process.exit(0); }, 1500);
  `;
  const out = await new Promise((resolve, reject) =>
    execFile(process.execPath, ["--expose-gc", "-e", script], (error, stdout, stderr) => (error ? reject(new Error(stderr)) : resolve(stdout))));
  assert.deepEqual(JSON.parse(out), ["starting", "ok"], "never stopped as freed");
});
