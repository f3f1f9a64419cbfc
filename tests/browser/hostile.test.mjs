// A hostile caller and a hostile network in real headless Chromium: the scenarios of
// tests/js/hostile-cases.mjs run inside pages of the emulator's origin, which import the package as a
// page does (`import("/pkg/index.mjs")`, then `init()`). Each group runs in a fresh browser context (its
// own renderer and module instance); a call that corrupts the module, crashes the page or blocks it
// forever ends that page, and resumable groups go on in a new one after that call. Every page ends with
// the closing check (the signing and book-hash vectors, and getOk() from the emulator) and counts its
// "unhandledrejection" and "error" events. The ten tests, their assertions and the reported findings
// are in tests/js/hostile-rules.mjs; here is how a group runs in a page.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launchChromium } from "./chromium.mjs";
import { EMULATOR, emulatorAccount, fixture } from "../js/helpers.mjs";
import * as hostileCases from "../js/hostile-cases.mjs";
import { registerHostileRules } from "../js/hostile-rules.mjs";
import * as transportCases from "../js/hostile-transport-cases.mjs";

// The scenarios a page can run: the ten rules' (hostile-cases.mjs) and the transport's newer paths
// (hostile-transport-cases.mjs: the key routes through a redirect, already-aborted signals).
const scenarios = { ...hostileCases, ...transportCases };

/** A page whose event loop is blocked this long (no heartbeat) is reported as never settling. */
const STALL_MS = 4000;

let browser;
/** The emulator's data for the transport scenarios (and the closing check), and the key-redirect pair. */
let data;
let keyPair;

// Before the shared set-up, and closed before the shared teardown.
before(async () => {
  keyPair = await transportCases.startKeyRedirect();
  data = {
    ...(await emulatorAccount(EMULATOR)),
    bookJson: fixture("real/clob-book-1.json"),
    vectors: { signing: JSON.parse(fixture("vectors/signing.json")), bookHash: JSON.parse(fixture("vectors/book-hash.json")) },
  };
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await keyPair?.close();
});

// In the page: the kit, the package and the listeners, once per page.
async function setUp({ kitSource }) {
  window.__during = "loading the package";
  window.__kit = new Function("return " + kitSource)()();
  const report = (event, reason) =>
    console.debug("PKU " + JSON.stringify({ event, during: window.__during, reason: window.__kit.describe(window.__pk, reason) }));
  window.addEventListener("unhandledrejection", (e) => report("unhandledrejection", e.reason));
  window.addEventListener("error", (e) => report("error", e.error ?? e.message));
  setInterval(() => console.debug("PKB"), 200);
  const mod = await import("/pkg/index.mjs");
  await mod.default();
  window.__pk = mod;
  // The binding's internal entries, off the public prototypes: the sweep reaches them in the package's table.
  window.__kit.setInternal((await import("/pkg/guard.mjs")).internal);
}

// In the page: one scenario, then the closing check. Progress, outcomes, findings and unhandled errors
// go out on the console as they happen ("PKS", "PKE", "PKU"), so that they survive a page killed later.
async function runScenario({ source, closingSource, args }) {
  const scenario = new Function("return " + source)();
  const closingCheck = new Function("return " + closingSource)();
  const pk = window.__pk;
  const kit = window.__kit;
  const base = args.base ?? location.origin;
  const progress = (i, id, target, value) => {
    window.__during = id;
    console.debug("PKS " + JSON.stringify([i, id, target, value]));
  };
  const emit = (event) => console.debug("PKE " + JSON.stringify(event));
  let result;
  window.__during = "the scenario";
  try {
    result = await scenario({ ...args, base, pk, kit, progress, emit });
  } catch (e) {
    result = { scenarioThrew: kit.describe(pk, e) };
  }
  window.__during = "the closing check (or a late settlement)";
  const closing = await closingCheck({ pk, kit, base, data: args.data });
  await new Promise((resolve) => setTimeout(resolve, 100));
  return { result, closing };
}

/** Runs `scenario` in a fresh page; resolves to what it reported, or how it stopped. */
async function runPage(scenario, args, { limitMs = 90_000 } = {}) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const run = {
    scenario, start: args.start ?? 0, last: null, started: [], ids: {}, events: [], unhandled: [],
    final: null, stalled: false, error: null,
  };
  let stallTimer;
  let stop;
  const stopped = new Promise((resolve) => (stop = resolve));
  const arm = () => {
    clearTimeout(stallTimer);
    stallTimer = setTimeout(() => {
      run.stalled = true;
      stop();
    }, STALL_MS);
  };
  const limit = setTimeout(() => {
    run.overtime = true;
    stop();
  }, limitMs);
  page.on("console", (message) => {
    const text = message.text();
    if (!text.startsWith("PK")) return;
    arm();
    if (text.startsWith("PKS ")) {
      run.last = JSON.parse(text.slice(4));
      run.started.push(run.last[0]);
      run.ids[run.last[0]] = run.last[1];
    } else if (text.startsWith("PKE ")) run.events.push(JSON.parse(text.slice(4)));
    else if (text.startsWith("PKU ")) run.unhandled.push(JSON.parse(text.slice(4)));
  });
  page.on("crash", () => {
    run.crashed = true;
    stop();
  });
  try {
    await page.goto(`${EMULATOR}/`);
    await page.evaluate(setUp, { kitSource: hostileCases.makeKit.toString() });
    arm();
    const work = page.evaluate(runScenario, { source: scenarios[scenario].toString(), closingSource: hostileCases.closingCheck.toString(), args })
      .then((final) => {
        run.final = final;
      }, (e) => {
        run.error = String(e?.message ?? e).split("\n")[0];
      });
    await Promise.race([work, stopped]);
  } catch (e) {
    run.error = String(e?.message ?? e).split("\n")[0];
  } finally {
    clearTimeout(stallTimer);
    clearTimeout(limit);
    await context.close().catch(() => {});
  }
  return run;
}

// Rule 6 in a page: a redirect the browser does not follow is opaque (status 0), hence its wording.
registerHostileRules({
  runOne: runPage,
  stallMs: STALL_MS,
  marker: " (Chromium)",
  where: "page",
  wherePlural: "pages",
  ends: "crashed",
  redirectRule: "credentials never follow a redirect — authenticated calls through a 307 to another origin fail with API 'redirect' (the status may be opaque) and that origin sees no SERVICE_* header and no DELETE; a public read (getOk) is followed",
  redirectCalls: 8,
});

// The transport's newer paths in a page (the same scenarios and assertions as tests/js/hostile-transport.test.mjs).
// A run's unhandled rejections are the page's "unhandledrejection" events; its closing check must pass.
const transportRun = (run) => {
  assert.ok(run.final, `the page ran the scenario to its end: ${run.error ?? (run.stalled ? "stalled" : run.crashed ? "crashed" : "")}`);
  assert.deepEqual(run.final.closing.problems, [], "the closing check passes afterwards");
  return {
    result: run.final.result,
    unhandled: run.unhandled.map((u) => ({ event: u.event, reason: `${u.reason?.type} ${u.reason?.name}: ${u.reason?.message ?? ""}` })),
  };
};

test("item 1 (Chromium): createApiKey, deriveApiKey and createOrDeriveApiKey never follow a redirect (302, 307, a caller's fetch): API, nothing reaches the other origin, no credentials kept", { timeout: 60_000 }, async () => {
  keyPair.requests.length = 0;
  const run = await runPage("keyRedirect", { a: keyPair.a, data });
  transportCases.checkKeyRedirect(transportRun(run), keyPair, { where: "page" });
});

test("item 2 (Chromium): every export given an already-aborted signal (reason an Error, a Symbol, none, null, a thenable, a throwing getter) rejects with ABORTED, sends nothing and leaves no unhandledrejection", { timeout: 60_000 }, async () => {
  const run = await runPage("abortedSignals", { base: EMULATOR, data });
  transportCases.checkAbortedSignals(transportRun(run), { where: "page" });
});
