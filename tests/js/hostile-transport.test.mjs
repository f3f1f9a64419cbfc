// The transport's rules on its newer paths, through the built Node package (pkg/node.cjs), each scenario of
// hostile-transport-cases.mjs in a fresh child process that counts its unhandled rejections and uncaught
// exceptions (tests/browser/hostile.test.mjs runs the same scenarios in Chromium):
// - the API-key routes never follow a redirect: through a 302 or 307 to another origin they reject with
//   API, that origin receives nothing, and the client keeps no credentials;
// - a call given an already-aborted signal rejects with ABORTED, sends nothing and leaves no promise
//   unhandled, whatever the signal's reason; and a plain Node process (no handler) survives it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { EMULATOR, PKG_DIR, emulatorAccount } from "./helpers.mjs";
import { startKeyRedirect, checkKeyRedirect, checkAbortedSignals } from "./hostile-transport-cases.mjs";

const CASES = new URL("./hostile-transport-cases.mjs", import.meta.url).href;

// The child: loads the package as Node users do, runs one scenario and reports on stdout: "U {…}" for each
// unhandled rejection or uncaught exception, "R {…}" last.
const CHILD = `
import { writeSync } from "node:fs";
import { createRequire } from "node:module";
const out = (line) => writeSync(1, line + "\\n");
const { scenario, args, pkgDir } = JSON.parse(process.env.PREDICTKIT_TRANSPORT);
const show = (r) => { try { return typeof r === "symbol" ? r.toString() : String(r?.stack ?? r).split("\\n").slice(0, 2).join(" | "); } catch { return "(unprintable)"; } };
process.on("unhandledRejection", (r) => out("U " + JSON.stringify({ event: "unhandledRejection", reason: show(r) })));
process.on("uncaughtException", (r) => out("U " + JSON.stringify({ event: "uncaughtException", reason: show(r) })));
const pk = createRequire(pkgDir + "/node.cjs")(pkgDir + "/node.cjs");
const cases = await import(${JSON.stringify(CASES)});
let result;
try {
  result = await cases[scenario]({ ...args, pk });
} catch (e) {
  result = { scenarioThrew: show(e) };
}
// Time for any promise the scenario left behind to be reported as unhandled before the child exits.
await new Promise((resolve) => setTimeout(resolve, 300));
out("R " + JSON.stringify(result));
process.exit(0);
`;

function runChild(source, env, limitMs = 60_000) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", source], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    const run = { unhandled: [], result: null, stdout: "", stderr: "", exit: null };
    const limit = setTimeout(() => child.kill("SIGKILL"), limitMs);
    child.stdout.setEncoding("utf8").on("data", (c) => (run.stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c) => (run.stderr = (run.stderr + c).slice(-4000)));
    child.on("close", (code, signal) => {
      clearTimeout(limit);
      run.exit = signal ?? code;
      for (const line of run.stdout.split("\n")) {
        if (line.startsWith("U ")) run.unhandled.push(JSON.parse(line.slice(2)));
        else if (line.startsWith("R ")) run.result = JSON.parse(line.slice(2));
      }
      resolve(run);
    });
  });
}

const runScenario = (scenario, args) =>
  runChild(CHILD, { PREDICTKIT_TRANSPORT: JSON.stringify({ scenario, args, pkgDir: PKG_DIR }) });

let data;
let pair;

before(async () => {
  assert.equal(await (await fetch(`${EMULATOR}/`)).json(), "OK", `the emulator answers at ${EMULATOR}`);
  data = await emulatorAccount(EMULATOR);
  pair = await startKeyRedirect();
});

after(async () => {
  await pair?.close();
});

test("item 1: createApiKey, deriveApiKey and createOrDeriveApiKey never follow a redirect (302, 307, a caller's fetch): API, nothing reaches the other origin, no credentials kept", { timeout: 60_000 }, async () => {
  pair.requests.length = 0;
  const run = await runScenario("keyRedirect", { a: pair.a });
  assert.equal(run.exit, 0, run.stderr);
  checkKeyRedirect(run, pair, { where: "process" });
});

test("item 2: every export given an already-aborted signal (reason an Error, a Symbol, none, null, a thenable, a throwing getter) rejects with ABORTED, sends nothing and leaves no unhandled rejection", { timeout: 60_000 }, async () => {
  const run = await runScenario("abortedSignals", { base: EMULATOR, data });
  assert.equal(run.exit, 0, run.stderr);
  checkAbortedSignals(run, { where: "process" });
});

test("item 2: a plain Node process (no unhandledRejection handler) survives syncClock({ signal: AbortSignal.abort() })", { timeout: 30_000 }, async () => {
  const source = `
    const { createRequire } = await import("node:module");
    const pkgDir = ${JSON.stringify(PKG_DIR)};
    const pk = createRequire(pkgDir + "/node.cjs")(pkgDir + "/node.cjs");
    const client = new pk.Client({ baseUrl: ${JSON.stringify(EMULATOR)} });
    for (const reason of [undefined, Symbol("why")]) {
      const code = await client.syncClock({ signal: AbortSignal.abort(reason) }).then(() => "resolved", (e) => e.code);
      console.log("syncClock:", code);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    console.log("survived");
  `;
  const run = await runChild(source, {});
  assert.equal(run.exit, 0, `the process ended with ${run.exit}: ${run.stderr.trim().split("\n").slice(0, 3).join(" | ")}`);
  assert.match(run.stdout, /syncClock: ABORTED\nsyncClock: ABORTED\nsurvived/);
});
