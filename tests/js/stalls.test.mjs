// A stalled answer does not spend the whole deadline (issue 33): 1,000 reads through one client, 32 at a time,
// against the emulator with 20% of answers faulted (resets, 503, 429, cut and malformed bodies, slow bodies,
// 400 ms and 20 s delays) and a 5 s timeoutMs. An idempotent read's attempt is abandoned after
// attemptTimeoutMs (by default a third of what remains, at least 1 s) and retried within the deadline. Every
// read ends correct, or its failure is explained by its attempts: each one faulted (the emulator's log, found by
// the read's own query parameter). Before, about 2% ended TIMEOUT with a stall as their first attempt.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pk, EMULATOR, admin as adminAt } from "./helpers.mjs";

const admin = (method, path, body) => adminAt(EMULATOR, method, path, body);
const READS = 1000;
const AT_ONCE = 32;

test("1,000 reads with 20% of answers faulted, 20 s stalls among them, end correct or with every attempt faulted", async (t) => {
  await admin("POST", "/__admin/reset");
  const page = await (await fetch(`${EMULATOR}/markets`)).json();
  const token = page.data[0].tokens[0].token_id;
  const clean = new pk.Client({ baseUrl: EMULATOR, rateLimits: false });
  const reference = await clean.getBook(token);
  const hash = reference.hash;
  reference.free();
  const events = JSON.stringify(await clean.getEvents({ limit: 3 }));
  const kinds = [
    "reset",
    { kind: "status", status: 503 },
    { kind: "status", status: 429 },
    "truncated",
    "malformed",
    { kind: "slow_body", ms: 2000 },
    { kind: "delay", ms: 400 },
    { kind: "delay", ms: 20_000 },
  ];
  await admin("POST", "/__admin/faults", { path: "/", rate: 0.2, kinds, seed: 33 });
  await admin("DELETE", "/__admin/requests");

  const client = new pk.Client({ baseUrl: EMULATOR, rateLimits: false, timeoutMs: 5_000 });
  let correct = 0;
  const failures = [];
  let next = 0;
  const started = Date.now();
  const worker = async () => {
    while (next < READS) {
      const i = next++;
      const options = { extraQuery: { read: String(i) } };
      try {
        if (i % 2 === 0) {
          const book = await client.getBook(token, options);
          assert.equal(book.hash, hash, `read ${i}: the book`);
          book.free();
        } else {
          const got = await client.getEvents({ limit: 3 }, options);
          assert.equal(JSON.stringify(got), events, `read ${i}: the events`);
        }
        correct++;
      } catch (e) {
        if (e instanceof assert.AssertionError) throw e;
        failures.push({ i, code: e.code, message: e.message });
      }
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, worker));
  const took = Date.now() - started;
  await admin("DELETE", "/__admin/faults");

  // Each failed read's attempts, from the emulator's log (a stalled attempt is logged when its 20 s are over).
  const attemptsOf = async () => {
    const { requests } = await admin("GET", "/__admin/requests");
    const by = new Map();
    for (const r of requests) {
      const read = new URLSearchParams(r.query ?? "").get("read");
      if (read !== null) by.set(Number(read), [...(by.get(Number(read)) ?? []), r]);
    }
    return by;
  };
  let attempts = await attemptsOf();
  for (let waited = 0; waited < 25_000 && failures.some((f) => (attempts.get(f.i)?.length ?? 0) < 3); waited += 500) {
    await new Promise((r) => setTimeout(r, 500));
    attempts = await attemptsOf();
  }
  const explained = failures.filter((f) => {
    const tried = attempts.get(f.i) ?? [];
    return tried.length === 3 && tried.every((r) => r.fault);
  });
  for (const f of failures) {
    const tried = (attempts.get(f.i) ?? []).map((r) => r.fault ?? `ok ${r.status}`);
    t.diagnostic(`read ${f.i}: ${f.code} (${f.message}) after attempts: ${tried.join(", ")}`);
  }
  const faulted = [...attempts.values()].flat().filter((r) => r.fault).length;
  t.diagnostic(`${READS} reads in ${took} ms: ${correct} correct, ${failures.length} failed (${explained.length} with every attempt faulted); ${faulted} faulted answers`);
  assert.ok(faulted > READS * 0.15, `faults were injected: ${faulted}`);
  assert.equal(correct + explained.length, READS, "every read is correct, or failed with every attempt faulted");
  assert.ok(failures.every((f) => f.code !== "TIMEOUT" || explained.includes(f)), "no read timed out on one stall");
});
