// The example extension (examples/extension/, with the package's web build that `cargo xtask build` copies into
// it) loaded unpacked into headless Chromium against the emulator: its popup sends the settings (the service,
// a watchlist, an account's credentials, the dead-man switch on) to the service worker, which shows the
// watchlist's live, hash-verified best prices (and the first on the badge), the account's open orders, and a
// fill made by another account (with its notification), the switch beating; no error anywhere; and that new
// settings which would stop the switch's heartbeats for its API key are confirmed first. Screenshots are kept
// in target/screenshots/.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { chromium } from "playwright-core";
import { devWallet, holdShares, spreadMarket } from "../js/helpers.mjs";

const EMULATOR = (process.env.PREDICTKIT_EMULATOR_URL ?? "http://127.0.0.1:8787").replace(/\/$/, "");
const ROOT = new URL("../../", import.meta.url).pathname;
const EXTENSION = `${ROOT}examples/extension`;
const PKG_DIR = process.env.PREDICTKIT_PKG_DIR ?? `${ROOT}pkg`;
const SHOTS = new URL("../../target/screenshots/", import.meta.url);
mkdirSync(SHOTS, { recursive: true });
const pk = createRequire(import.meta.url)(`${PKG_DIR}/node.cjs`);
const { walletSigner } = await import(`${PKG_DIR}/signers.mjs`);

const wallet = devWallet(EMULATOR);
const admin = async (method, path, body) => (await fetch(EMULATOR + path, { method, body: body && JSON.stringify(body) })).json();

let context;
let worker;
let market;
const problems = [];

before(async () => {
  await admin("POST", "/__admin/reset");
  assert.ok(existsSync(`${EXTENSION}/predictkit/web/predictkit_bg.wasm`), "cargo xtask build copies the package into the extension");
  market = await spreadMarket(EMULATOR);
  assert.ok(market, "a market on a 0.01 tick with a spread of three ticks");
  const profile = `${ROOT}target/extension-profile`;
  rmSync(profile, { recursive: true, force: true });
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", `--disable-extensions-except=${EXTENSION}`, `--load-extension=${EXTENSION}`],
  });
  worker = context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker", { timeout: 15_000 }));
});
after(async () => {
  await context?.close();
  await admin("POST", "/__admin/reset");
});

test("the example extension shows live verified prices, the account's orders and a fill, with its dead-man switch beating", { timeout: 90_000 }, async () => {
  const extensionId = new URL(worker.url()).host;
  const accounts = await wallet.request({ method: "eth_requestAccounts" });
  // The extension's account (the second development account): a key, and an order that improves the best bid.
  const trader = new pk.Client({ baseUrl: EMULATOR, chainId: 80002, rateLimits: false });
  const signer = walletSigner(wallet, accounts[1]);
  await trader.createApiKey(signer);
  const price = Math.round((market.bid + 0.01) * 100) / 100;
  const size = Math.max(10, market.minSize * 2);
  const resting = await trader.placeOrder({ tokenId: market.tokenId, side: "BUY", price, size }, signer);
  assert.equal(resting.success, true, resting.errorMsg);
  const key = (await admin("GET", "/__admin/accounts")).find((a) => a.nonce !== undefined && a.address.toLowerCase() === accounts[1].toLowerCase());
  const credentials = { address: key.address, apiKey: key.apiKey, secret: key.secret, passphrase: key.passphrase };

  const popup = await context.newPage();
  popup.on("pageerror", (e) => problems.push(`popup: ${e.message}`));
  popup.on("console", (m) => m.type() === "error" && problems.push(`popup console: ${m.text()}`));
  await popup.goto(`chrome-extension://${extensionId}/popup.html`);
  await popup.click("#settings-box summary");
  await popup.fill("input[name=baseUrl]", EMULATOR);
  await popup.fill("textarea[name=watchlist]", market.tokenId);
  await popup.fill("textarea[name=credentials]", JSON.stringify(credentials));
  await popup.check("input[name=deadman]");
  await popup.click("#settings button[type=submit]");
  await popup.waitForSelector("#settings-result:has-text('Saved.')");
  assert.equal(await popup.inputValue("textarea[name=credentials]"), "", "the popup forgets the credentials once sent");

  // The watchlist's book: live and verified, its best bid the account's order.
  const cents = `${Math.round(price * 100)}¢`;
  await popup.waitForFunction(([token, cents]) => {
    const row = document.querySelector(`#prices tr[data-id="${token}"]`);
    return row && /verified/.test(row.textContent) && row.children[1].textContent === cents;
  }, [market.tokenId, cents], { timeout: 20_000 });
  assert.equal(await popup.evaluate(() => chrome.action.getBadgeText({})), cents);
  await popup.waitForSelector(`#orders tr[data-id="${resting.orderID}"]`, { timeout: 15_000 });
  await popup.waitForFunction(() => document.querySelector("#deadman")?.textContent === "ok", null, { timeout: 15_000 });
  await popup.screenshot({ path: new URL("extension-popup.png", SHOTS).pathname, fullPage: true });

  // Another account sells into the order: a fill, notified, and the order shows what it matched.
  const seller = new pk.Client({ baseUrl: EMULATOR, chainId: 80002, rateLimits: false });
  const sellerSigner = walletSigner(wallet, accounts[0]);
  await seller.createApiKey(sellerSigner);
  // (Shares it bought first: the service refuses a sell of shares the account does not hold.)
  await holdShares(seller, sellerSigner, market.tokenId, size / 2, EMULATOR);
  const sold = await seller.placeOrder({ tokenId: market.tokenId, side: "SELL", price, size: size / 2, orderType: "FAK" }, sellerSigner);
  assert.equal(sold.status, "matched", JSON.stringify(sold));
  await popup.waitForSelector("#fills tbody tr[data-id]:not([data-id=''])", { timeout: 15_000 });
  const fill = await popup.$eval("#fills tbody tr[data-id]", (tr) => [...tr.children].map((td) => td.textContent));
  // Its market (the question, once read) and outcome; the price in cents as the demo page writes it.
  const { question, outcomes } = await (await fetch(`${EMULATOR}/markets/${market.conditionId}`)).json();
  assert.deepEqual(fill.slice(1, 5), [JSON.parse(outcomes)[0], "BUY", String(size / 2), cents], fill.join());
  await popup.waitForFunction(([id, q]) => document.querySelector(`#fills tr[data-id="${id}"] td.market`)?.textContent === q,
    [await popup.getAttribute("#fills tbody tr[data-id]", "data-id"), question], { timeout: 10_000 });
  await popup.waitForFunction(([id, half]) => document.querySelector(`#orders tr[data-id="${id}"]`)?.children[4].textContent === half,
    [resting.orderID, String(size / 2)], { timeout: 15_000 });
  const notifications = await popup.evaluate(() => chrome.notifications.getAll());
  assert.equal(Object.keys(notifications).filter((id) => id.startsWith("fill-")).length, 1, JSON.stringify(notifications));
  await popup.screenshot({ path: new URL("extension-popup-fill.png", SHOTS).pathname, fullPage: true });

  // The worker's own view: no problem, both streams open, the switch beating; the popup saw no error.
  const state = await popup.evaluate(() => chrome.runtime.sendMessage({ type: "state" }));
  assert.equal(state.problem, null);
  assert.equal(state.market, "open");
  assert.equal(state.user, "open");
  assert.equal(state.deadman.status, "ok");
  assert.ok(state.deadman.beats >= 1);
  assert.equal(JSON.stringify(state).includes(credentials.secret), false, "the secret never leaves the worker's storage");
  assert.deepEqual(problems, []);
  trader.free();
  seller.free();
  await popup.close();
});

test("the extension writes figures as the page does, refuses ids that are not token ids, shows each beat, pages 300 orders, and says when the service is down", { timeout: 150_000 }, async () => {
  // One way of writing prices and sizes: the extension's format.js is the page's.
  assert.equal(readFileSync(`${EXTENSION}/format.js`, "utf8"), readFileSync(`${ROOT}www/format.js`, "utf8"));
  const extensionId = new URL(worker.url()).host;
  const popup = await context.newPage();
  popup.on("pageerror", (e) => problems.push(`popup: ${e.message}`));
  await popup.goto(`chrome-extension://${extensionId}/popup.html`);
  const state = () => popup.evaluate(() => chrome.runtime.sendMessage({ type: "state" }));
  await popup.waitForFunction(() => document.querySelector("input[name=baseUrl]").value !== "");
  await popup.click("#settings-box summary");
  const save = async (expected) => {
    await popup.evaluate(() => { document.querySelector("#settings-result").textContent = ""; });
    await popup.click("#settings button[type=submit]");
    await popup.waitForFunction((source) => new RegExp(source).test(document.querySelector("#settings-result").textContent),
      expected.source, { timeout: 20_000 });
  };

  // Not token ids: a market's condition id, a pasted link, a market's (decimal) id; each refused with why.
  const catalog = await (await fetch(`${EMULATOR}/markets/${market.conditionId}`)).json();
  for (const [id, why] of [
    [market.conditionId, /^Not saved: 0x[0-9a-f]{8}… is a market's condition id, not a token id\. Paste each outcome's token id/],
    [`${EMULATOR}/www/#/market/${catalog.id}`, /^Not saved: “http:\/\/.+” is a link, not a token id/],
    [catalog.id, new RegExp(`^Not saved: the service has no order book for ${catalog.id}: it is not a token id \\(a market's id\\?\\)`)],
  ]) {
    await popup.fill("textarea[name=watchlist]", `${market.tokenId}\n${id}`);
    await save(why);
  }
  await popup.screenshot({ path: new URL("extension-refused-id.png", SHOTS).pathname, fullPage: true });
  assert.deepEqual((await state()).watchlist, [market.tokenId], "nothing was stored");
  await popup.fill("textarea[name=watchlist]", market.tokenId);

  // The dead-man switch: each beat is shown as it comes (every 5 s), with its count and time.
  await popup.waitForFunction(() => document.querySelector("#deadman")?.textContent === "ok", null, { timeout: 15_000 });
  const beatsNow = () => popup.getAttribute("#deadman-detail", "data-beats").then(Number);
  const seen = [];
  const first = await beatsNow();
  for (const next of [first + 1, first + 2]) {
    await popup.waitForFunction((n) => Number(document.querySelector("#deadman-detail").dataset.beats) >= n, next, { timeout: 12_000 });
    seen.push({ at: Date.now(), text: await popup.textContent("#deadman-detail") });
  }
  assert.ok(seen[1].at - seen[0].at < 8000, `beats shown ${seen[1].at - seen[0].at} ms apart`);
  for (const { text } of seen) assert.match(text, /^\d+ heartbeats?, last \d{1,2}:\d{2}:\d{2}\s?[AP]M \((just now|\d s ago)\)$/);
  assert.notEqual(seen[0].text, seen[1].text);

  // 300 open orders (the emulator's demo account): paged, 20 at a time, not one long list.
  const [demo] = await admin("GET", "/__admin/accounts");
  await popup.fill("textarea[name=credentials]", JSON.stringify({ address: demo.address, apiKey: demo.apiKey, secret: demo.secret, passphrase: demo.passphrase }));
  await popup.uncheck("input[name=deadman]");
  // (The switch is on for the first test's key: the popup warns first, and the change is confirmed.)
  await save(/^Not saved yet: the dead-man switch is on/);
  await popup.click("#settings-confirm");
  await popup.waitForFunction(() => /^Saved\. The heartbeats for /.test(document.querySelector("#settings-result").textContent), null, { timeout: 20_000 });
  await popup.waitForFunction(() => document.querySelector("#orders-range")?.textContent === "1–20 of 300", null, { timeout: 20_000 });
  assert.equal(await popup.locator("#orders tbody tr[data-id]").count(), 20);
  const firstPage = await popup.$$eval("#orders tbody tr[data-id]", (rows) => rows.map((r) => r.dataset.id));
  await popup.click("#orders-next");
  assert.equal(await popup.textContent("#orders-range"), "21–40 of 300");
  const secondPage = await popup.$$eval("#orders tbody tr[data-id]", (rows) => rows.map((r) => r.dataset.id));
  assert.equal(secondPage.length, 20);
  assert.ok(!secondPage.some((id) => firstPage.includes(id)));
  assert.match(await popup.textContent("#orders tbody tr[data-id] td:nth-child(3)"), /^\d+(\.\d+)?¢$/);
  const height = await popup.evaluate(() => document.documentElement.scrollHeight);
  assert.ok(height < 1200, `the popup is ${height} px tall`);
  await popup.screenshot({ path: new URL("extension-orders-paged.png", SHOTS).pathname, fullPage: true });

  // An outage: the orders cannot be read, and the popup says so (not "No open orders.").
  await admin("POST", "/__admin/faults", { path: "/", faults: [{ kind: "status", status: 503 }], repeat: true });
  try {
    await save(/^Saved\.$/);
    await popup.waitForFunction(() => /^Open orders unknown: the service is not answering \(HTTP 503\)\.$/.test(document.querySelector("#orders td.empty")?.textContent ?? ""),
      null, { timeout: 30_000 });
    assert.match(await popup.textContent("#service"), /is not answering \(HTTP 503\)/);
    await popup.screenshot({ path: new URL("extension-service-down.png", SHOTS).pathname, fullPage: true });
  } finally {
    await admin("DELETE", "/__admin/faults");
  }
  // The service is back: the list is read again once the user channel reconnects.
  await popup.waitForFunction(() => document.querySelector("#orders-range")?.textContent === "1–20 of 300", null, { timeout: 30_000 });
  assert.equal(await popup.isVisible("#service"), false);

  // A port where nothing listens.
  await popup.fill("input[name=baseUrl]", "http://127.0.0.1:9");
  await save(/^Saved\.$/);
  await popup.waitForFunction(() => /^Open orders unknown: (the service cannot be reached|The service at http:\/\/127\.0\.0\.1:9 cannot be reached)/.test(document.querySelector("#orders td.empty")?.textContent ?? ""),
    null, { timeout: 30_000 });
  assert.match(await popup.textContent("#service"), /^The service at http:\/\/127\.0\.0\.1:9 cannot be reached/);
  assert.notEqual(await popup.textContent("#orders td.empty"), "No open orders.");
  await popup.fill("input[name=baseUrl]", EMULATOR);
  await save(/^Saved\.$/);
  assert.deepEqual(problems, []);
  await popup.close();
});

const short = (id) => `${id.slice(0, 6)}…${id.slice(-6)}`;
const TIME = String.raw`\d{1,2}:\d{2}:\d{2}\s?[AP]M`;

test("changing the service or the credentials while the switch is on warns first that the service will cancel the old key's orders; keeping changes nothing, changing stops its heartbeats and they are cancelled", { timeout: 120_000 }, async () => {
  await admin("POST", "/__admin/reset");
  const extensionId = new URL(worker.url()).host;
  const accounts = await wallet.request({ method: "eth_requestAccounts" });
  // Two keys of two development accounts, each resting a buy: the switch beats for the first, then the second.
  const price = Math.round((market.bid + 0.01) * 100) / 100;
  const size = Math.max(10, market.minSize * 2);
  const keys = [];
  for (const account of [accounts[1], accounts[0]]) {
    const trader = new pk.Client({ baseUrl: EMULATOR, chainId: 80002, rateLimits: false });
    const signer = walletSigner(wallet, account);
    await trader.createApiKey(signer);
    const resting = await trader.placeOrder({ tokenId: market.tokenId, side: "BUY", price, size }, signer);
    assert.equal(resting.success, true, resting.errorMsg);
    trader.free();
    const key = (await admin("GET", "/__admin/accounts")).find((a) => a.nonce !== undefined && a.address.toLowerCase() === account.toLowerCase());
    keys.push({ ...key, orderId: resting.orderID, credentials: { address: key.address, apiKey: key.apiKey, secret: key.secret, passphrase: key.passphrase } });
  }
  const [old, next] = keys;
  const openOrdersOf = async (key) => (await admin("GET", "/__admin/accounts")).find((a) => a.apiKey === key.apiKey).openOrders;

  const popup = await context.newPage();
  popup.on("pageerror", (e) => problems.push(`popup: ${e.message}`));
  popup.on("console", (m) => m.type() === "error" && problems.push(`popup console: ${m.text()}`));
  await popup.goto(`chrome-extension://${extensionId}/popup.html`);
  const state = () => popup.evaluate(() => chrome.runtime.sendMessage({ type: "state" }));
  await popup.waitForFunction(() => document.querySelector("input[name=baseUrl]").value !== "");
  await popup.click("#settings-box summary");
  const result = (pattern) => popup.waitForFunction((source) => new RegExp(source).test(document.querySelector("#settings-result").textContent),
    pattern.source, { timeout: 20_000 });

  // The switch is off: new credentials with it on are saved at once.
  await popup.fill("input[name=baseUrl]", EMULATOR);
  await popup.fill("textarea[name=credentials]", JSON.stringify(old.credentials));
  await popup.check("input[name=deadman]");
  await popup.click("#settings button[type=submit]");
  await result(/^Saved\.$/);
  assert.equal(await popup.isVisible("#settings-warning"), false);
  await popup.waitForFunction(() => document.querySelector("#deadman")?.textContent === "ok", null, { timeout: 15_000 });
  await popup.waitForSelector(`#orders tr[data-id="${old.orderId}"]`, { timeout: 15_000 });

  // Another service URL: a warning, and nothing is stored until the user decides.
  const otherUrl = EMULATOR.replace("127.0.0.1", "localhost");
  await popup.fill("input[name=baseUrl]", otherUrl);
  await popup.click("#settings button[type=submit]");
  await result(/^Not saved yet: the dead-man switch is on \(see below\)\.$/);
  assert.equal(await popup.textContent("#settings-warning-text"),
    `The dead-man switch is on for ${short(old.address)} at ${EMULATOR}. Changing the service stops its heartbeats, ` +
    "and that service will then cancel the old API key's orders (1 open order now) 10 s after the last heartbeat. " +
    "Change the settings anyway, or keep the old ones?");
  assert.equal(await popup.getAttribute("#settings-warning", "role"), "alertdialog");
  assert.equal(await popup.evaluate(() => document.activeElement?.id), "settings-keep", "the safe choice has the focus");
  assert.equal((await state()).baseUrl, EMULATOR, "nothing was stored");
  await popup.screenshot({ path: new URL("extension-switch-warning.png", SHOTS).pathname, fullPage: true });

  // Keeping the old settings: the form shows them again, and the same switch goes on beating for the old key.
  const beatsBefore = (await state()).deadman.beats;
  await popup.click("#settings-keep");
  await result(/^Not saved: the old settings are kept, and the switch keeps beating\.$/);
  assert.equal(await popup.isVisible("#settings-warning"), false);
  assert.equal(await popup.inputValue("input[name=baseUrl]"), EMULATOR);
  await popup.waitForFunction((n) => Number(document.querySelector("#deadman-detail").dataset.beats) > n, beatsBefore, { timeout: 12_000 });
  const kept = await state();
  assert.equal(kept.baseUrl, EMULATOR);
  assert.equal(kept.account, old.address);
  assert.equal(kept.deadman.status, "ok");
  assert.equal(await openOrdersOf(old), 1, "the old key's order is still open");

  // Other credentials: warned, confirmed; the popup says what was stopped, and the service cancels the old key's
  // orders once its heartbeats have stopped for 10 s, while the new key's switch keeps the new key's.
  await popup.fill("textarea[name=credentials]", JSON.stringify(next.credentials));
  await popup.click("#settings button[type=submit]");
  await result(/^Not saved yet: the dead-man switch is on/);
  assert.match(await popup.textContent("#settings-warning-text"),
    new RegExp(`^The dead-man switch is on for ${short(old.address)} at ${EMULATOR.replace(/\./g, "\\.")}\\. Changing the credentials stops its heartbeats`));
  assert.equal(await popup.inputValue("textarea[name=credentials]"), "", "the secret is not left in the form while the user decides");
  assert.equal((await state()).account, old.address, "nothing was stored");
  await popup.click("#settings-confirm");
  const stopped = new RegExp(`^The heartbeats for ${short(old.address)} at ${EMULATOR.replace(/\./g, "\\.")} stopped at ${TIME}: ` +
    `that service cancels the old API key's orders \\(1 open order then\\) 10 s after the last heartbeat, by ${TIME}\\.$`);
  await result(new RegExp(`^Saved\\. ${stopped.source.slice(1)}`));
  await popup.waitForFunction((source) => new RegExp(source).test(document.querySelector("#deadman-stopped").textContent), stopped.source);
  assert.equal(await popup.isVisible("#deadman-stopped"), true);
  const changed = await state();
  assert.equal(changed.account, next.address);
  assert.equal(changed.switchStopped.address, old.address);
  await popup.screenshot({ path: new URL("extension-switch-stopped.png", SHOTS).pathname, fullPage: true });

  const stoppedAt = Date.now();
  for (const end = Date.now() + 25_000; Date.now() < end && (await openOrdersOf(old)) > 0;) await new Promise((r) => setTimeout(r, 250));
  assert.equal(await openOrdersOf(old), 0, "the service cancelled the old key's orders");
  console.log(`# the old key's orders were cancelled ${Math.round((Date.now() - stoppedAt) / 1000)} s after the change`);
  await popup.waitForFunction(() => document.querySelector("#deadman")?.textContent === "ok", null, { timeout: 15_000 });
  await popup.waitForSelector(`#orders tr[data-id="${next.orderId}"]`, { timeout: 15_000 });
  assert.equal(await openOrdersOf(next), 1, "the new key's switch keeps its order");

  // Opened again, the popup still says what the change stopped.
  await popup.reload();
  await popup.waitForFunction((source) => new RegExp(source).test(document.querySelector("#deadman-stopped").textContent), stopped.source);
  assert.deepEqual(problems, []);
  await popup.close();
});
