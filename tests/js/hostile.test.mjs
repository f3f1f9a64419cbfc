// A hostile caller and a hostile network, through the built Node package loaded as users load it
// (`require("predictkit")`, i.e. pkg/node.cjs). Every call must succeed or fail with a PredictKitError,
// in time, and leave the module working. The scenarios are in hostile-cases.mjs, the ten tests and their
// assertions in hostile-rules.mjs (the browser test runs the same ones in Chromium); here is how a group
// runs in Node: in a fresh child process, so that a call that corrupts the module, kills the process or
// blocks it forever hides nothing else: the group resumes in a new process after that call. Every
// process ends with the closing check (the signing and book-hash vectors, and getOk() from the emulator)
// and counts its unhandled rejections and uncaught exceptions.
import { spawn } from "node:child_process";
import { PKG_DIR } from "./helpers.mjs";
import { registerHostileRules } from "./hostile-rules.mjs";

const CASES = new URL("./hostile-cases.mjs", import.meta.url).href;
/** A call blocking its process this long (no heartbeat) is reported as never settling. */
const STALL_MS = 4000;

// The child: loads the package from its entry, runs one scenario, then the closing check, and reports
// on stdout: "S [index, id, target, value]" before each case, "E {…}" for each outcome and finding, "U {…}"
// for each unhandled rejection or uncaught exception, as they happen (so that they survive a process
// killed later), "B" every 200 ms while its event loop turns, and "R {…}" last.
const CHILD = `
import { writeSync } from "node:fs";
import { createRequire } from "node:module";
const out = (line) => writeSync(1, line + "\\n");
const { scenario, args, pkgDir } = JSON.parse(process.env.PREDICTKIT_HOSTILE);
const cases = await import(${JSON.stringify(CASES)});
const kit = cases.makeKit();
let pk;
let during = "loading the package";
const unhandled = (event) => (reason) => out("U " + JSON.stringify({ event, during, reason: kit.describe(pk, reason) }));
process.on("unhandledRejection", unhandled("unhandledRejection"));
process.on("uncaughtException", unhandled("uncaughtException"));
const beat = setInterval(() => out("B"), 200);
pk = createRequire(pkgDir + "/node.cjs")(pkgDir + "/node.cjs");
kit.setInternal(createRequire(pkgDir + "/guard.mjs")(pkgDir + "/guard.mjs").internal);
const progress = (i, id, target, value) => {
  during = id;
  out("S " + JSON.stringify([i, id, target, value]));
};
const emit = (event) => out("E " + JSON.stringify(event));
let result;
during = "the scenario";
try {
  result = await cases[scenario]({ ...args, pk, kit, progress, emit });
} catch (e) {
  result = { scenarioThrew: kit.describe(pk, e) };
}
during = "the closing check (or a late settlement)";
const closing = await cases.closingCheck({ pk, kit, base: args.base, data: args.data });
await new Promise((resolve) => setTimeout(resolve, 100));
clearInterval(beat);
out("R " + JSON.stringify({ result, closing }));
process.exit(0);
`;

/** Runs `scenario` in a fresh Node process; resolves to what it reported, or how it stopped. */
function runChild(scenario, args, { limitMs = 90_000 } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", CHILD], {
      env: { ...process.env, PREDICTKIT_HOSTILE: JSON.stringify({ scenario, args, pkgDir: PKG_DIR }) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const run = {
      scenario, start: args.start ?? 0, last: null, started: [], ids: {}, events: [], unhandled: [],
      final: null, stalled: false, stderr: "", exit: null,
    };
    let buffer = "";
    let stall;
    const arm = () => {
      clearTimeout(stall);
      stall = setTimeout(() => {
        run.stalled = true;
        child.kill("SIGKILL");
      }, STALL_MS);
    };
    const limit = setTimeout(() => {
      run.overtime = true;
      child.kill("SIGKILL");
    }, limitMs);
    arm();
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => {
      arm();
      buffer += chunk;
      let nl;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line.startsWith("S ")) {
          run.last = JSON.parse(line.slice(2));
          run.started.push(run.last[0]);
          run.ids[run.last[0]] = run.last[1];
        } else if (line.startsWith("E ")) run.events.push(JSON.parse(line.slice(2)));
        else if (line.startsWith("U ")) run.unhandled.push(JSON.parse(line.slice(2)));
        else if (line.startsWith("R ")) run.final = JSON.parse(line.slice(2));
      }
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      run.stderr = (run.stderr + chunk).slice(-4000);
    });
    child.on("close", (code, signal) => {
      clearTimeout(stall);
      clearTimeout(limit);
      run.exit = signal ?? code;
      resolve(run);
    });
  });
}

registerHostileRules({
  runOne: runChild,
  stallMs: STALL_MS,
  marker: "",
  where: "process",
  wherePlural: "processes",
  ends: "killed",
  redirectRule: "credentials never follow a redirect — authenticated calls through a 307 fail with API 'redirect' and the other origin sees no SERVICE_* header and no DELETE; a public read (getOk) is followed",
});
