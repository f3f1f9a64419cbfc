// The retry soak of issue 25: 1,000 reads (getBook, getEvents and syncClock in turn) against the emulator with
// 20% of requests faulted (every REST fault kind, default parameters), default retries. Prints the correct
// answers, wrong answers and typed errors (and, with one client per read, which errors were not retried).
// Not a test (node --test does not pick it up): `PREDICTKIT_EMULATOR_URL=... node tests/js/retry-soak.mjs`.
import { createRequire } from "node:module";
const base = process.env.PREDICTKIT_EMULATOR_URL ?? "http://127.0.0.1:8796";
const pkgDir = process.env.PREDICTKIT_PKG_DIR ?? new URL("../../pkg/", import.meta.url).pathname;
const pk = createRequire(pkgDir + "/node.cjs")(pkgDir + "/node.cjs");
const reads = Number(process.env.READS ?? 1000);
const rate = Number(process.env.RATE ?? 0.2);
const seed = Number(process.env.SEED ?? 25);
const admin = async (method, path, body) => {
  const r = await fetch(base + path, { method, body: body && JSON.stringify(body) });
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return r.json();
};
await admin("POST", "/__admin/reset");
const page = await (await fetch(`${base}/markets`)).json();
const token = page.data[0].tokens[0].token_id;
const clean = new pk.Client({ baseUrl: base, rateLimits: false });
const refBook = await clean.getBook(token);
const refHash = refBook.hash;
const refEvents = JSON.stringify(await clean.getEvents({ limit: 3 }));
const refOffset = await clean.syncClock();
const wrongs = {};
const kinds = ["delay", "status", "reset", "malformed", "truncated", "slow_body"];
await admin("POST", "/__admin/faults", { path: "/", rate, kinds, seed });
await admin("DELETE", "/__admin/requests");
const shared = process.env.SHARED === "1" ? new pk.Client({ baseUrl: base, rateLimits: false }) : null;
const notRetried = {};
let correct = 0, wrong = 0;
const errors = {};
const t0 = Date.now();
let next = 0;
async function worker() {
  while (next < reads) {
    const i = next++;
    const attempts = [];
    const client = shared ?? new pk.Client({ baseUrl: base, rateLimits: false, onEvent: (e) => e.type === "retry" && attempts.push(`${e.error?.code} ${e.error?.status ?? ""}`) });
    try {
      if (i % 3 === 2) {
        const offset = await client.syncClock();
        Math.abs(offset - refOffset) <= 2000 ? correct++ : (wrong++, (wrongs[`syncClock ${offset}`] = 1));
      } else if (i % 3 === 0) {
        const b = await client.getBook(token);
        b.hash === refHash ? correct++ : wrong++;
        b.free();
      } else {
        const e = await client.getEvents({ limit: 3 });
        JSON.stringify(e) === refEvents ? correct++ : wrong++;
      }
    } catch (e) {
      const key = `${e.code} ${e.status ?? ""} ${String(e.message).slice(0, 70)}`;
      errors[key] = (errors[key] ?? 0) + 1;
      if (!shared && attempts.length < 2) {
        const k = `after ${attempts.length} retries: ${key}`;
        notRetried[k] = (notRetried[k] ?? 0) + 1;
      }
    }
  }
}
await Promise.all(Array.from({ length: Number(process.env.WORKERS ?? 25) }, worker));
const log = await admin("GET", "/__admin/requests?limit=100000");
const faults = {};
for (const r of log.requests ?? []) if (r.fault) faults[r.fault] = (faults[r.fault] ?? 0) + 1;
await admin("POST", "/__admin/reset");
const failed = Object.values(errors).reduce((a, b) => a + b, 0);
console.log(JSON.stringify({ reads, rate, seed, correct, wrong, failed, errors, notRetried, wrongs, requests: log.count ?? log.requests?.length, faults, seconds: (Date.now() - t0) / 1000 }, null, 1));
