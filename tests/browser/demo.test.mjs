// The demo page in real headless Chromium, driven by playwright-core, served by the emulator.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { chromium } from "playwright-core";

const EMULATOR = process.env.PREDICTKIT_EMULATOR_URL ?? "http://127.0.0.1:8787";
const SHOTS = new URL("../../target/screenshots/", import.meta.url);
mkdirSync(SHOTS, { recursive: true });

let browser;
before(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
});
after(async () => browser?.close());

test("the demo page shows a real book fetched through the library", async () => {
  const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e));
  const started = Date.now();
  await page.goto(`${EMULATOR}/www/`);
  await page.waitForSelector("body[data-loaded]", { timeout: 15_000 });
  const firstRender = Date.now() - started;
  // The default token is the recorded BTC book: no bids, 104 asks, best ask 0.002 or above.
  assert.equal(await page.textContent("#best-bid"), "none");
  const bestAsk = await page.textContent("#best-ask");
  assert.match(bestAsk, /^0\.\d+ × \d/);
  assert.equal(await page.locator("#asks tr").count(), 12);
  assert.equal(await page.textContent("#bids td.empty"), "No bids");
  assert.equal(await page.textContent("#status"), "0 bids, 104 asks");
  // The first ask row is the lowest price, and it is the best ask.
  const firstAsk = await page.textContent("#asks tr:first-child td:first-child");
  assert.ok(bestAsk.startsWith(String(Number(firstAsk))), `${bestAsk} vs ${firstAsk}`);
  await page.screenshot({ path: new URL("demo-book.png", SHOTS).pathname, fullPage: true });

  // Another book, chosen with the keyboard-accessible form.
  await page.selectOption("#token", { label: "2024 election market" });
  await page.click("button[type=submit]");
  await page.waitForFunction(() => document.body.dataset.loaded?.startsWith("2336"));
  assert.equal(await page.textContent("#best-bid"), "0.1 × 125");
  assert.equal(await page.textContent("#best-ask"), "0.14 × 705");
  assert.equal(await page.textContent("#spread"), "0.0400");
  assert.deepEqual(errors, []);
  console.log(`# first render ${firstRender} ms`);
  await page.close();
});
