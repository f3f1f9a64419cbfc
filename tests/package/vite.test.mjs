// A Vite 7 app importing the package (the default entry, the web build) as the README shows: `vite build`
// emits the .wasm as an asset, and the built page, served as static files, fetches a book from the emulator
// in headless Chromium. `vite dev` with the README's config serves the same app.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import {
  EMULATOR, SKIP_BROWSER, discoverToken, expectedBestBid, installProject, launchChromium, readmeBlock, run,
  serveStatic, timed, writeFiles,
} from "./support.mjs";

const VITE = "7.3.8";

let browser, token, dir;
before(async () => {
  if (SKIP_BROWSER) return;
  const started = performance.now();
  [dir, token] = await Promise.all([installProject("vite", { vite: VITE }), discoverToken()]);
  writeFiles(dir, {
    "index.html": `<!doctype html>
<meta charset="utf-8">
<title>PredictKit in a Vite app</title>
<p>Best bid: <output id="best-bid">…</output></p>
<script type="module" src="/src/main.js"></script>
`,
    "src/main.js": 'const tokenId = new URLSearchParams(location.search).get("token");\n' + readmeBlock("vite", EMULATOR),
    "vite.config.js": readmeBlock("vite-config"),
  });
  browser = await launchChromium();
  timed(`install (vite ${VITE}) and launch Chromium`, started);
});
after(async () => browser?.close());

async function bestBidShown(url) {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e));
  await page.goto(url);
  await page.waitForFunction(() => document.querySelector("#best-bid").textContent !== "…", null, { timeout: 20_000 });
  const shown = JSON.parse(await page.textContent("#best-bid"));
  await page.close();
  assert.deepEqual(errors, []);
  return shown;
}

test("vite build bundles the package and the built app fetches a book in Chromium", { skip: SKIP_BROWSER }, async () => {
  let started = performance.now();
  rmSync(join(dir, "dist"), { recursive: true, force: true });
  await run(process.execPath, [join(dir, "node_modules", "vite", "bin", "vite.js"), "build", "--logLevel", "warn"], { cwd: dir });
  timed("vite build", started);
  const assets = readdirSync(join(dir, "dist", "assets"));
  const wasm = assets.filter((f) => f.endsWith(".wasm"));
  assert.equal(wasm.length, 1, `one .wasm asset is emitted: ${assets.join(", ")}`);

  started = performance.now();
  const server = await serveStatic(join(dir, "dist"));
  try {
    assert.deepEqual(await bestBidShown(`${server.url}/?token=${token.tokenId}`), expectedBestBid(token.book));
    assert.ok(server.requests.includes(`/assets/${wasm[0]}`), server.requests.join("\n"));
  } finally {
    await server.close();
  }
  timed("built app in Chromium", started);
});

test("vite dev serves the app with the README's config", { skip: SKIP_BROWSER }, async () => {
  const started = performance.now();
  const dev = spawn(process.execPath, [join(dir, "node_modules", "vite", "bin", "vite.js"), "--host", "127.0.0.1", "--port", "0", "--clearScreen", "false"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  try {
    const url = await new Promise((resolve, reject) => {
      let output = "";
      const timer = setTimeout(() => reject(new Error(`vite dev did not start:\n${output}`)), 20_000);
      const read = (chunk) => {
        output += chunk;
        const found = output.replace(/\x1b\[[0-9;]*m/g, "").match(/Local:\s+(http:\/\/127\.0\.0\.1:\d+\/)/);
        if (found) {
          clearTimeout(timer);
          resolve(found[1]);
        }
      };
      dev.stdout.on("data", read);
      dev.stderr.on("data", read);
      dev.on("exit", (code) => reject(new Error(`vite dev exited (${code}):\n${output}`)));
    });
    assert.deepEqual(await bestBidShown(`${url}?token=${token.tokenId}`), expectedBestBid(token.book));
  } finally {
    dev.kill();
  }
  timed("vite dev in Chromium", started);
});
