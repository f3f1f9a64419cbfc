// A Manifest V3 extension built as the README says: the package's web build copied into the extension, the
// README's manifest and background service worker (a module; init on first use, the .wasm from the
// extension's own URL), loaded into headless Chromium. An extension page asks the worker for a best bid
// with the README's chrome.runtime.sendMessage snippet, and the worker fetches it from the emulator.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { cpSync, rmSync } from "node:fs";
import { join } from "node:path";
import {
  CHROMIUM, CHROMIUM_ARGS, EMULATOR, SKIP_BROWSER, discoverToken, expectedBestBid, installProject, readmeBlock,
  timed, writeFiles,
} from "./support.mjs";

let context, extensionDir, token;
before(async () => {
  if (SKIP_BROWSER) return;
  const started = performance.now();
  const dir = await installProject("extension");
  token = await discoverToken();
  extensionDir = join(dir, "extension");
  rmSync(extensionDir, { recursive: true, force: true });
  cpSync(join(dir, "node_modules", "predictkit", "web"), join(extensionDir, "predictkit"), { recursive: true });
  writeFiles(extensionDir, {
    "manifest.json": readmeBlock("extension-manifest", undefined, "json"),
    "background.js": readmeBlock("extension", EMULATOR),
    // A test page of the extension: the README's snippet, with tokenId from the query string.
    "page.html": '<!doctype html><meta charset="utf-8"><title>best bid</title><script type="module" src="page.js"></script>\n',
    "page.js": `const tokenId = new URLSearchParams(location.search).get("token");\n${readmeBlock("extension-page")}`,
  });
  const { chromium } = await import("playwright-core");
  const profile = join(dir, "profile");
  rmSync(profile, { recursive: true, force: true });
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true, // Chromium's new headless mode, which loads extensions
    args: [...CHROMIUM_ARGS, `--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`],
  });
  timed("install, build the extension and launch Chromium", started);
});
after(async () => context?.close());

test("a Manifest V3 extension's module service worker fetches a best bid with the package", { skip: SKIP_BROWSER }, async () => {
  const started = performance.now();
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker", { timeout: 15_000 }));
  const extensionId = new URL(worker.url()).host;
  assert.match(worker.url(), /^chrome-extension:\/\/[a-p]{32}\/background\.js$/);

  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e));
  const logged = page.waitForEvent("console", { predicate: (m) => m.type() === "log", timeout: 20_000 });
  await page.goto(`chrome-extension://${extensionId}/page.html?token=${token.tokenId}`);
  const [answer] = await Promise.all((await logged).args().map((a) => a.jsonValue()));
  assert.deepEqual(errors, []);
  assert.deepEqual(answer, expectedBestBid(token.book), `the worker answered ${JSON.stringify(answer)}`);

  // The book came from the emulator, fetched by the service worker.
  const loaded = await worker.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name));
  assert.ok(loaded.some((url) => url.startsWith(`${EMULATOR}/book?token_id=${token.tokenId}`)), loaded.join("\n"));
  // A second question reuses the initialised module and client.
  const again = await page.evaluate((tokenId) => chrome.runtime.sendMessage({ type: "best-bid", tokenId }), token.tokenId);
  assert.deepEqual(again, { bestBid: expectedBestBid(token.book) });
  const unknown = await page.evaluate(() => chrome.runtime.sendMessage({ type: "best-bid", tokenId: "1" }));
  assert.deepEqual(unknown, { error: "NOT_FOUND" });
  timed("extension round trips", started);
  await page.close();
});
