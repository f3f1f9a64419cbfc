// The demo page (www/) end to end in real headless Chromium, driven by playwright-core, served by the
// emulator with the page and the package on one origin. Every figure the page shows is checked against
// the emulator's own answers (fetched here directly), and every cancellation against its state.
//
// The market page streams its books, and the emulator's simulator moves every subscribed book several
// times a second. Tests that compare the page with a snapshot taken beforehand hold the market channel
// silent (`stillBooks`); the live tests use the real stream and compare at equal book timestamps.
import { test, before, after, beforeEach, afterEach } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { createHmac } from "node:crypto";
import { launchChromium } from "./chromium.mjs";
import { createRequire } from "node:module";
import { holdShares, spreadMarket, devWallet, pk, PKG_DIR } from "../js/helpers.mjs";

const EMULATOR = process.env.PREDICTKIT_EMULATOR_URL ?? "http://127.0.0.1:8787";
const PAGE_URL = `${EMULATOR}/www/`;
const SHOTS = new URL("../../target/screenshots/", import.meta.url);
mkdirSync(SHOTS, { recursive: true });
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 740 };
/** The recorded "2024 election" book, served byte for byte: best bid 0.1 × 125, best ask 0.14 × 705. */
const RECORDED_TOKEN = "23360939988679364027624185518382759743328544433592111535569478055890815567848";

let browser;
before(async () => {
  browser = await launchChromium();
});
after(async () => browser?.close());
beforeEach(async () => {
  await admin("POST", "/__admin/reset");
});
/** Pages a failed test left open are closed, so their sockets cannot take the next test's faults. */
const openPages = new Set();
afterEach(async () => {
  for (const page of openPages) await page.close().catch(() => {});
  openPages.clear();
  // (A fault a failed test left cannot reach the next one.)
  await admin("DELETE", "/__admin/faults");
});

// --- Helpers ---------------------------------------------------------------------------------------

async function admin(method, path, body) {
  const res = await fetch(EMULATOR + path, { method, body: body && JSON.stringify(body) });
  assert.ok(res.ok, `${method} ${path}: ${res.status}`);
  return res.json();
}

async function api(path, init) {
  const res = await fetch(EMULATOR + path, init);
  assert.equal(res.status, 200, `${path}: ${res.status}`);
  return res.json();
}

/** An authenticated request, signed here independently of the library (interface §5). */
async function signed(account, method, path, query = "", body) {
  const timestamp = String(Date.now());
  const key = Buffer.from(account.secret.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  const signature = createHmac("sha256", key).update(timestamp + method + path + (body ?? "")).digest("base64")
    .replace(/\+/g, "-").replace(/\//g, "_");
  const res = await fetch(EMULATOR + path + query, {
    method,
    body,
    headers: {
      SERVICE_ADDRESS: account.address, SERVICE_API_KEY: account.apiKey, SERVICE_PASSPHRASE: account.passphrase,
      SERVICE_TIMESTAMP: timestamp, SERVICE_SIGNATURE: signature,
    },
  });
  return { status: res.status, body: await res.json() };
}

/**
 * A page that records uncaught errors and failed requests. `stillBooks`: the page's market channel is a
 * socket that only answers PING, so no book moves while the test compares the page with GET /book.
 */
async function openPage(viewport, hash = "", { stillBooks = false } = {}) {
  // (One locale, so that the times the page writes read as the tests expect them.)
  const page = await browser.newPage({ viewport, locale: "en-US" });
  openPages.add(page);
  if (stillBooks) {
    await page.routeWebSocket(/\/ws\/market$/, (ws) => {
      ws.onMessage((message) => { if (message === "PING") ws.send("PONG"); });
    });
  }
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(String(e)));
  page.failed = [];
  page.on("response", (r) => { if (r.status() >= 400) page.failed.push(`${r.status()} ${new URL(r.url()).pathname}`); });
  // Chromium logs every failed load as a console error; those are checked through `page.failed`.
  page.on("console", (m) => { if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) page.errors.push(m.text()); });
  await page.goto(PAGE_URL + hash);
  return page;
}

/** No uncaught error, no console error, no failed request. */
function assertClean(page) {
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.failed, []);
}

async function shot(page, name, fullPage = true) {
  await page.screenshot({ path: new URL(`demo-${name}.png`, SHOTS).pathname, fullPage });
}

const firstRendered = (page) => page.waitForSelector("body[data-first-render]", { timeout: 15_000 });
const marketReady = (page) => page.waitForSelector("#view-market[data-state=ready]", { timeout: 15_000 });
const cardTitles = (page) => page.$$eval("#events .event-card .event-title", (els) => els.map((e) => e.textContent));
const pricesFilled = (page) => page.waitForFunction(() =>
  document.querySelectorAll("#events .event-card").length > 0 && !document.querySelector("#events .outcome.pending"));

/** Best bid and ask of a GET /book answer, computed here from the raw levels. */
function bestOf(book) {
  const bids = book.bids.map((l) => ({ price: Number(l.price), size: Number(l.size) })).sort((a, b) => b.price - a.price);
  const asks = book.asks.map((l) => ({ price: Number(l.price), size: Number(l.size) })).sort((a, b) => a.price - b.price);
  return { bids, asks, bid: bids[0], ask: asks[0] };
}

/** Polls `check` (async, here in Node) until it is truthy. */
async function until(check, what, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`timed out waiting for ${what}`);
}

/** The emulator's open sockets of one channel. */
const socketsOf = async (channel) => (await admin("GET", "/__admin/stream")).sockets.filter((s) => s.channel === channel);

async function waitForStatus(page, selector, pattern) {
  await page.waitForFunction(([sel, source]) => new RegExp(source).test(document.querySelector(sel)?.textContent ?? ""),
    [selector, pattern.source], { timeout: 15_000 });
}

// --- Markets ---------------------------------------------------------------------------------------

test("events list: first render, live prices, load more, search, tag and status filters", async () => {
  const page = await openPage(DESKTOP);
  await firstRendered(page);
  const firstRender = await page.evaluate(() => performance.getEntriesByName("predictkit:first-render")[0].startTime);
  assert.ok(firstRender > 0 && firstRender < 15_000);
  console.log(`# first render ${Math.round(firstRender)} ms`);

  // The first page is the active events, 12 of them, in the service's order.
  const expected = await api("/events?active=true&closed=false&limit=12&offset=0");
  assert.deepEqual(await cardTitles(page), expected.map((e) => e.title));
  // Each card lists its markets; open markets show the best ask from POST /prices.
  await pricesFilled(page);
  const { token, shown } = await page.$eval("#events .outcome-price[data-token]:not([data-token=''])",
    (el) => ({ token: el.dataset.token, shown: el.dataset.buy }));
  const prices = await api("/prices", { method: "POST", body: JSON.stringify([{ token_id: token }]) });
  assert.equal(shown, prices[token].BUY);
  const firstMarket = expected[0].markets[0];
  assert.equal(await page.textContent("#events .event-card .market-link"), firstMarket.question);
  await waitForStatus(page, "#events-status", /^12 events, more available$/);
  await shot(page, "events-desktop", false);

  // "Load more" pages on through the iterator.
  await page.click("#more");
  await page.waitForFunction(() => document.querySelectorAll("#events .event-card").length === 24);
  const next = await api("/events?active=true&closed=false&limit=12&offset=12");
  assert.deepEqual((await cardTitles(page)).slice(12), next.map((e) => e.title));
  assert.equal(await page.evaluate(() => document.activeElement.closest(".event-card")?.dataset.eventId), next[0].id,
    "focus moves to the first new event");

  // Search: public-search results, each read whole for its markets; tag suggestions as chips.
  await page.fill("#q", "bitcoin");
  await page.press("#q", "Enter");
  const found = await api("/public-search?q=bitcoin&limit_per_type=12&page=1&search_tags=true");
  const activeFound = found.events.filter((e) => e.active && !e.closed).map((e) => e.title);
  await waitForStatus(page, "#events-status", new RegExp(`^${activeFound.length} of ${found.pagination.totalResults} events`));
  assert.deepEqual(await cardTitles(page), activeFound);
  assert.ok(activeFound.length > 0);
  assert.ok(await page.locator("#events .event-card .market-row").count() >= activeFound.length, "search results show markets");
  assert.equal(await page.locator("#search-tags .chip").count(), Math.min(8, found.tags.length));
  await shot(page, "search-desktop", false);

  // A tag chip filters the list by that tag (and clears the search).
  const chip = page.locator("#events .event-card").first().locator(".event-tags .chip").first();
  const tagLabel = await chip.textContent();
  await chip.click();
  await page.waitForFunction(() => document.querySelector("#tag").value !== "" && !document.querySelector("#events[aria-busy]"));
  const tagId = await page.inputValue("#tag");
  assert.equal(await page.inputValue("#q"), "");
  assert.equal(await page.$eval("#tag", (s) => s.selectedOptions[0].textContent), tagLabel);
  await page.waitForFunction(() => !document.querySelector("#events .skeleton"));
  const tagged = await api(`/events?active=true&closed=false&tag_id=${tagId}&limit=12&offset=0`);
  assert.deepEqual(await cardTitles(page), tagged.map((e) => e.title));

  // Status filter: closed events only.
  await page.selectOption("#tag", "");
  await page.click("label[for=state-closed]");
  const closed = await api("/events?closed=true&limit=12&offset=0");
  await page.waitForFunction((title) => document.querySelector("#events .event-title")?.textContent === title, closed[0].title);
  assert.deepEqual(await cardTitles(page), closed.map((e) => e.title));
  assert.equal(await page.locator("#events .event-card:not(.is-closed)").count(), 0);
  assert.ok(await page.locator("#events .outcome.resolved").count() > 0, "closed markets show their resolution");
  assertClean(page);
  await page.close();

  const phone = await openPage(PHONE);
  await firstRendered(phone);
  await pricesFilled(phone);
  assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "no sideways scrolling at 375 px");
  await shot(phone, "events-phone", false);
  assertClean(phone);
  await phone.close();
});

// --- Market ----------------------------------------------------------------------------------------

test("market view: book, depth, history, fee and comments; simulate() agrees with the book", async () => {
  const page = await openPage(DESKTOP, "", { stillBooks: true });
  await firstRendered(page);
  const [event] = await api("/events?active=true&closed=false&limit=1&offset=0");
  const market = event.markets.find((m) => !m.closed);
  const tokens = JSON.parse(market.clobTokenIds);
  const rawBook = await api(`/book?token_id=${tokens[0]}`);
  const { bid, ask, asks, bids } = bestOf(rawBook);

  await page.click(`#events a.market-link[href="#/market/${market.id}"]`);
  await marketReady(page);
  assert.equal(await page.textContent("#market-title"), market.question);
  assert.equal(await page.textContent("#market-crumb"), event.title);
  assert.equal(await page.evaluate(() => document.activeElement.id), "market-title", "focus moves to the new view");

  // Best prices, spread and midpoint, from the book parsed in WebAssembly.
  assert.equal(Number(await page.getAttribute("#stat-bid", "data-value")), bid.price);
  assert.equal(Number(await page.getAttribute("#stat-ask", "data-value")), ask.price);
  // (In cents, at the market's tick; a midpoint between two levels keeps its own digits.)
  const cents = (p) => `${+(p * 100).toFixed(4)}¢`;
  assert.equal(await page.textContent("#stat-spread"), cents(ask.price - bid.price));
  assert.equal(await page.textContent("#stat-mid"), cents((ask.price + bid.price) / 2));
  // The ladder: the best ask sits just above the spread row, the best bid just below.
  const distinct = (levels) => new Set(levels.map((l) => l.price)).size;
  assert.equal(await page.locator(".ladder tr.ask").count(), Math.min(8, distinct(asks)));
  assert.equal(await page.locator(".ladder tr.bid").count(), Math.min(8, distinct(bids)));
  assert.equal(await page.textContent(".ladder tr.ask.best td.price"), cents(ask.price));
  assert.equal(await page.textContent(".ladder tr.bid.best td.price"), cents(bid.price));
  // Charts: depth from ladder(), history from GET /prices-history.
  assert.equal(await page.locator("#depth-chart svg path.depth-bid").count(), 1);
  assert.equal(await page.locator("#depth-chart svg path.depth-ask").count(), 1);
  const line = await page.getAttribute("#history-chart svg path.line", "d");
  assert.ok(line.split("L").length > 20, "the price history has points");
  // Fee rate and comments.
  const fee = await api(`/fee-rate/${tokens[0]}`);
  assert.match(await page.textContent("#stat-fee"), new RegExp(`^${fee.base_fee} bps`));
  const comments = await api(`/comments?parent_entity_type=market&parent_entity_id=${market.id}&limit=8&offset=0&order=createdAt`);
  if (comments.length) {
    await page.waitForSelector("#comments .comment");
    assert.equal(await page.textContent("#comments .comment .comment-body"), comments[0].body);
  } else {
    await page.waitForSelector("#comments li");
  }
  assert.equal(await page.textContent("#market-details dd"), String(Number(rawBook.tick_size)), "tick size");
  assert.match(await page.textContent("#market-details"), /Verified ✓/);

  // Simulate a buy within the best ask level: the average price is the best ask, one level used.
  const size = Math.max(0.01, Math.floor(ask.size * 50) / 100);
  await page.fill("#sim-amount", String(size));
  await page.waitForFunction((s) => document.querySelector("#sim-result")?.dataset.filled === String(s), size);
  const field = (name) => page.getAttribute(`#sim-result dd[data-field=${name}]`, "data-value").then(Number);
  assert.ok(Math.abs((await field("avgPrice")) - ask.price) < 1e-12, `${await field("avgPrice")} vs ${ask.price}`);
  assert.equal(await page.textContent("#sim-result dd[data-field=avgPrice]"), `${cents(ask.price)} (${ask.price.toFixed(4)})`);
  assert.equal(await field("filled"), size);
  assert.equal(await field("levelsUsed"), 1);
  assert.ok(Math.abs((await field("notional")) - size * ask.price) < 1e-6);
  await shot(page, "market-desktop");

  // A cash amount across several levels: the numbers match walking the asks here.
  const cash = Math.round((asks[0].price * asks[0].size + asks[1].price * asks[1].size / 2) * 100) / 100;
  await page.click("label[for=sim-dollars]");
  await page.fill("#sim-amount", String(cash));
  let rest = cash;
  let filled = 0;
  let levels = 0;
  for (const level of asks) {
    if (rest <= 1e-9) break;
    const take = Math.min(level.size, rest / level.price);
    filled += take;
    rest -= take * level.price;
    levels += 1;
  }
  // Shares are exact to 10^-6, so the cash spent may fall short of the amount by less than a millionth of a share.
  await page.waitForFunction((c) => Math.abs(Number(document.querySelector("#sim-result dd[data-field=notional]")?.dataset.value) - c) < 1e-5, cash);
  assert.ok(Math.abs((await field("filled")) - filled) < 1e-4, `${await field("filled")} vs ${filled}`);
  assert.ok(Math.abs((await field("avgPrice")) - cash / filled) < 1e-5);
  assert.equal(await field("levelsUsed"), levels);
  assert.equal(await page.textContent("#sim-amount-label"), "Dollars to spend");

  // A sell within the best bid level averages the best bid.
  await page.click("label[for=sim-sell]");
  await page.click("label[for=sim-shares]");
  const sellSize = Math.max(0.01, Math.floor(bid.size * 50) / 100);
  await page.fill("#sim-amount", String(sellSize));
  await page.waitForFunction((s) => document.querySelector("#sim-result")?.dataset.filled === String(s), sellSize);
  assert.ok(Math.abs((await field("avgPrice")) - bid.price) < 1e-12, `${await field("avgPrice")} vs ${bid.price}`);
  assert.match(await page.textContent("#sim-result dd[data-field=avgPrice]"), new RegExp(`\\(${bid.price.toFixed(4)}\\)$`));

  // The other outcome's tab loads that token's book.
  const other = bestOf(await api(`/book?token_id=${tokens[1]}`));
  await page.click("#outcome-tabs button:nth-child(2)");
  await page.waitForFunction((p) => document.querySelector("#stat-ask")?.dataset.value === String(p), other.ask.price);
  assert.equal(await page.getAttribute("#outcome-tabs button:nth-child(2)", "aria-pressed"), "true");
  assert.ok(page.url().endsWith(`#/market/${market.id}/1`));
  await marketReady(page);

  // Price-history periods.
  await page.click("#history-intervals button[data-interval='1d']");
  assert.equal(await page.getAttribute("#history-intervals button[data-interval='1d']", "aria-pressed"), "true");
  await page.waitForSelector("#history-chart svg path.line");
  assertClean(page);

  const phone = await openPage(PHONE, `#/market/${market.id}`, { stillBooks: true });
  await marketReady(phone);
  await phone.waitForSelector("#comments li");
  assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "no sideways scrolling at 375 px");
  await shot(phone, "market-phone");
  assertClean(phone);
  await phone.close();
  await page.close();
});

test("order ticket: a preview of the exact amounts, a refusal made locally, then signed with the wallet, placed and in My orders", async () => {
  const page = await openPage(DESKTOP, "", { stillBooks: true });
  await firstRendered(page);
  // An open market on a 0.01 tick whose first outcome has bids.
  let found;
  for (const event of await api("/events?active=true&closed=false&limit=20&offset=0")) {
    for (const market of event.markets.filter((m) => !m.closed)) {
      const info = await api(`/clob-markets/${market.conditionId}`);
      const [tokenId] = JSON.parse(market.clobTokenIds);
      const { bid } = bestOf(await api(`/book?token_id=${tokenId}`));
      if (info.mts === 0.01 && bid && bid.price >= 0.05) found ??= { market, tokenId, bid };
    }
  }
  assert.ok(found, "an open market on a 0.01 tick with bids");
  const { market, bid } = found;
  await page.goto(`${PAGE_URL}#/market/${market.id}`);
  await marketReady(page);

  // Off the tick: refused locally, and the button stays disabled.
  await page.fill("#ticket-price", "0.505");
  await page.fill("#ticket-size", "10");
  await page.click("#ticket-form button[type=submit]");
  await page.waitForSelector("#ticket-result.bad");
  // Said with the field's name, the rule and the nearest prices on the tick (issue 35 §3).
  assert.match(await page.textContent("#ticket-result"), /RefusedPrice must be a multiple of the market's tick size \(0\.01\); nearest prices: 0\.5 and 0\.51\. Nothing was sent\./);
  assert.equal(await page.isDisabled("#ticket-place"), true);
  // A GTD order without a date names the earliest expiration it takes; a market buy of $5.555 names the field and
  // its rule (which amounts near it are exact depends on the price: their own refusals name those).
  await page.fill("#ticket-price", "0.5");
  await page.selectOption("#ticket-type", "GTD");
  await page.fill("#ticket-expiration", "");
  await page.click("#ticket-form button[type=submit]");
  await page.waitForFunction(() => /Expiry/.test(document.querySelector("#ticket-result.bad")?.textContent ?? ""));
  assert.match(await page.textContent("#ticket-result"), /RefusedExpiry of a GTD order must be a time in seconds at least a minute ahead, from \d{10}\. Nothing was sent\./);
  await page.selectOption("#ticket-type", "GTC");
  await page.click("label[for=ticket-market]");
  await page.fill("#ticket-size", "5.555");
  await page.click("#ticket-form button[type=submit]");
  await page.waitForFunction(() => /Amount/.test(document.querySelector("#ticket-result.bad")?.textContent ?? ""));
  assert.match(await page.textContent("#ticket-result"), /RefusedAmount must be at least 0\.01, with at most 2 decimals\. Nothing was sent\./);
  await shot(page, "ticket-refusal");
  await page.click("label[for=ticket-limit]");
  await page.fill("#ticket-size", "10");

  // A buy one tick under the best bid rests; its amounts are exact: 10 shares at p cost 10 × p dollars.
  const price = Math.round((bid.price - 0.01) * 100) / 100;
  await page.fill("#ticket-price", price.toFixed(2));
  await page.click("#ticket-form button[type=submit]");
  await page.waitForFunction(() => /You sign/.test(document.querySelector("#ticket-result")?.textContent ?? "") &&
    !document.querySelector("#ticket-result").classList.contains("bad"));
  const preview = await page.textContent("#ticket-result");
  // What will be signed, with units: the side, the size, the price limit and what it costs at most; and what
  // may fill (nothing at once, one tick under the best bid: it rests).
  const outcome = JSON.parse(market.outcomes)[0];
  assert.ok(preview.includes(`You signBuy 10 shares of ${outcome} at ${Math.round(price * 100)}¢ or better (GTC)`), preview);
  assert.ok(preview.includes(`Price limit${Math.round(price * 100)}¢ (${price}) a share`), preview);
  assert.ok(preview.includes(`You pay at most$${(price * 10).toFixed(2)}`), preview);
  assert.ok(preview.includes(`May fill nowNothing at once: it rests on the book at ${Math.round(price * 100)}¢.`), preview);
  assert.match(preview, new RegExp(`Maker amount${Math.round(price * 100) * 100000} units`), preview);
  assert.match(preview, /Taker amount10000000 units/);
  assert.equal(await page.isDisabled("#ticket-place"), false);
  const posted = () => admin("GET", "/__admin/requests?path=/order").then(({ requests }) => requests.filter((r) => r.method === "POST" && r.path === "/order"));
  assert.equal((await posted()).length, 0, "nothing is sent before the user signs");

  // Sign and place: the emulator's development wallet signs on a local page; the key is derived first.
  await page.click("#ticket-place");
  await page.waitForSelector("#ticket-result.good", { timeout: 15_000 });
  const answer = await page.textContent("#ticket-result");
  assert.match(answer, /Placedlive/, answer);
  const orderId = answer.match(/Order id(0x[0-9a-f]{64})/)?.[1];
  assert.ok(orderId, answer);
  assert.equal((await posted()).length, 1);
  // The account doctor ran when the wallet connected: the development wallet's first account is an EOA's.
  await page.waitForSelector("#ticket-account.good");
  assert.match(await page.textContent("#ticket-account"), /Account ready · 0xf39F…2266 trades through its own address/);

  // My orders lists it, under the wallet's account.
  await page.goto(`${PAGE_URL}#/orders`);
  await page.waitForSelector(`#orders-body tr[data-order-id="${orderId}"]`, { timeout: 15_000 });
  await shot(page, "ticket-my-orders");
  assert.deepEqual(page.errors, []);
  // The failed requests: the wallet had no key yet, so deriving it came first and found none (then it was
  // created); and the doctor asked the service for a deposit wallet of this account, which has none.
  assert.deepEqual(page.failed, ["404 /auth/derive-api-key", "400 /balance-allowance"]);
});

test("order ticket: the doctor finds an account set up for a deposit wallet before signing, and one click trades through it", async () => {
  // The development wallet's first account, made a deposit-wallet account: its own address may not make orders.
  await admin("POST", "/__admin/wallets", { owner: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", kind: "POLY_1271" });
  const { depositWallet } = await admin("GET", "/__admin/wallets?owner=0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
  try {
    const page = await openPage(DESKTOP, "", { stillBooks: true });
    await firstRendered(page);
    const [event] = await api("/events?active=true&closed=false&limit=1&offset=0");
    const market = event.markets.find((m) => !m.closed && m.acceptingOrders !== false);
    await page.goto(`${PAGE_URL}#/market/${market.id}`);
    await marketReady(page);
    await page.fill("#ticket-price", "0.05");
    await page.fill("#ticket-size", "20");
    await page.click("#ticket-form button[type=submit]");
    await page.waitForFunction(() => /You sign/.test(document.querySelector("#ticket-result")?.textContent ?? ""));
    // "Sign and place" connects the wallet first: the doctor's finding stops the order before anything is signed.
    await page.click("#ticket-place");
    await page.waitForSelector("#ticket-account.bad", { timeout: 15_000 });
    const account = await page.textContent("#ticket-account");
    assert.match(account, /Account needs attention · 0xf39F…2266 trades through a deposit wallet/, account);
    assert.ok(account.includes(`Its orders must be signed as POLY_1271 for ${depositWallet.slice(0, 6)}…${depositWallet.slice(-4)}`), account);
    await page.waitForSelector("#ticket-result.bad", { timeout: 15_000 });
    assert.match(await page.textContent("#ticket-result"), /Not placedThis account trades through a deposit wallet: use its settings above, then preview again\./);
    const posted = await admin("GET", "/__admin/requests?path=/order&method=POST");
    assert.equal(posted.requests.filter((r) => r.path === "/order").length, 0, "nothing was signed or sent");
    await shot(page, "ticket-account-doctor");
    // One click: the client signs as the deposit wallet, and the order is placed from it.
    await page.click("#ticket-use-account");
    await page.waitForSelector("#ticket-account.good", { timeout: 15_000 });
    assert.match(await page.textContent("#ticket-account"), /Account ready · 0xf39F…2266 trades through a deposit walletOrders are signed as POLY_1271/);
    await page.click("#ticket-form button[type=submit]");
    await page.waitForFunction(() => /You sign/.test(document.querySelector("#ticket-result")?.textContent ?? ""));
    await page.click("#ticket-place");
    await page.waitForSelector("#ticket-result.good", { timeout: 15_000 });
    const { requests } = await admin("GET", "/__admin/requests?path=/order&method=POST");
    const { order } = JSON.parse(requests.filter((r) => r.path === "/order")[0].body);
    assert.deepEqual([order.signatureType, order.maker.toLowerCase()], [3, depositWallet.toLowerCase()]);
    assert.deepEqual(page.errors, []);
    await page.close();
  } finally {
    await admin("POST", "/__admin/wallets", { owner: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", kind: "EOA" });
  }
});

test("a real recorded book renders exactly, and an empty-sided book says so", async () => {
  const page = await openPage(DESKTOP, `#/token/${RECORDED_TOKEN}`, { stillBooks: true });
  await marketReady(page);
  assert.equal(await page.getAttribute("#stat-bid", "data-value"), "0.1");
  assert.equal(await page.getAttribute("#stat-ask", "data-value"), "0.14");
  assert.equal(await page.textContent("#stat-bid"), "10¢");
  assert.equal(await page.textContent("#stat-ask"), "14¢");
  assert.equal(await page.textContent("#stat-spread"), "4¢");
  assert.equal(await page.textContent(".ladder tr.bid.best td:nth-child(2)"), "125");
  assert.equal(await page.textContent(".ladder tr.ask.best td:nth-child(2)"), "705");
  // This book predates tick_size in the service's answers, and its hash was made another way.
  assert.match(await page.textContent("#market-details"), /Book hashOlder format, not checked/);
  await shot(page, "book-desktop");

  // A book with asks only: no bids, no spread, and selling finds nobody to sell to.
  const info = await admin("GET", "/__admin/info");
  const asksOnly = info.special_books.find((b) => b.kind === "asks_only").token_id;
  await page.goto(`${PAGE_URL}#/token/${asksOnly}`);
  await marketReady(page);
  assert.equal(await page.textContent("#stat-bid"), "–");
  assert.equal(await page.textContent(".ladder td.empty"), "No bids");
  await page.click("label[for=sim-sell]");
  await page.waitForSelector("#sim-result p.bad");
  assert.match(await page.textContent("#sim-result"), /no bids to sell to/);
  assert.deepEqual(page.errors, []);
  assert.ok(page.failed.every((f) => f.startsWith("404 /fee-rate/")), page.failed.join(", "));
  await page.close();
});

test("a 0.0001 tick: every ladder level reads its own price, the preview says what is signed and may fill, token ids copy", { timeout: 60_000 }, async () => {
  // A market whose tick becomes 0.0001 (as the service makes a market's tick finer near resolution), with eight
  // bids one tick apart: at 0.1¢ they would all read the same.
  const found = await spreadMarket(EMULATOR);
  await admin("POST", "/__admin/tick-size", { asset_id: found.tokenId, tick_size: "0.0001" });
  const { walletSigner } = await import(`${PKG_DIR}/signers.mjs`);
  const wallet = devWallet(EMULATOR);
  const [address] = await wallet.request({ method: "eth_requestAccounts" });
  const client = new pk.Client({ baseUrl: EMULATOR, chainId: 80002, rateLimits: false });
  const signer = walletSigner(wallet, address);
  await client.createApiKey(signer);
  const prices = [];
  for (let k = 1; k <= 8; k++) {
    const price = Math.round((found.bid + k * 0.0001) * 10_000) / 10_000;
    const placed = await client.placeOrder({ tokenId: found.tokenId, side: "BUY", price, size: Math.max(5, found.minSize) }, signer);
    assert.equal(placed.success, true, placed.errorMsg);
    prices.unshift(price);
  }
  client.free();
  const catalog = await api(`/markets/${found.conditionId}`);
  const tokens = JSON.parse(catalog.clobTokenIds);
  const page = await openPage(DESKTOP, `#/market/${catalog.id}`, { stillBooks: true });
  await marketReady(page);
  const expected = prices.map((p) => `${(p * 100).toFixed(2).replace(/0+$/, "").replace(/\.$/, "")}¢`);
  await page.waitForFunction((best) => document.querySelector(".ladder tr.bid.best td.price")?.textContent === best, expected[0]);
  const ladder = await page.$$eval(".ladder tr.bid td.price", (cells) => cells.map((c) => c.textContent));
  assert.deepEqual(ladder, expected);
  assert.equal(new Set(ladder).size, 8, ladder.join());
  assert.equal(await page.textContent("#stat-bid"), ladder[0]);
  assert.match(await page.textContent("#market-details"), /Tick size0\.0001/);

  // Every outcome's full token id, each with its own copy control.
  assert.deepEqual(await page.$$eval("#market-tokens .token-id", (els) => els.map((e) => e.textContent)), tokens);
  assert.equal(await page.locator("#market-tokens button").count(), tokens.length);
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: EMULATOR });
  await page.click("#market-tokens li:nth-child(2) button");
  await page.waitForSelector("#market-tokens li:nth-child(2) .copy-note:has-text('Copied')");
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), tokens[1]);

  // "Post only" is a check box's size, not a text field's.
  const box = await page.$eval("#ticket-post-only", (el) => el.getBoundingClientRect().toJSON());
  assert.ok(box.width <= 20 && box.height <= 20, JSON.stringify(box));

  // A $5 fill-or-kill buy: what is signed (the amount, the least shares, the price limit) and what would fill.
  await page.click("label[for=ticket-market]");
  await page.fill("#ticket-size", "5");
  await page.click("#ticket-form button[type=submit]");
  await page.waitForFunction(() => /You sign/.test(document.querySelector("#ticket-result")?.textContent ?? ""));
  const preview = await page.textContent("#ticket-result");
  const outcome = JSON.parse(catalog.outcomes)[0];
  assert.match(preview, new RegExp(`You signBuy of ${outcome} for \\$5\\.00: at least [\\d.]+ shares, at [\\d.]+¢ or better \\(FOK\\)`), preview);
  assert.match(preview, /Price limit[\d.]+¢ \(0\.\d+\) a share/, preview);
  assert.match(preview, /You pay at most\$5\.00/, preview);
  assert.match(preview, /May fill nowAll of it: [\d.,]+ shares for \$[\d.]+, [\d.]+¢ on average\./, preview);
  await shot(page, "tick-0.0001-preview");
  await page.click("#ticket-place");
  await page.waitForSelector("#ticket-result.good", { timeout: 15_000 });
  const answer = await page.textContent("#ticket-result");
  assert.match(answer, /Placedmatched/, answer);
  assert.match(answer, /Filled[\d.,]+ shares for \$[\d.]+Message/, answer);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("an unknown token's page says so once, without waiting live or asking again; an unknown market offers no pointless retry", async () => {
  await admin("DELETE", "/__admin/requests");
  const page = await openPage(DESKTOP, "#/token/123456789");
  await page.waitForSelector("#book-table .error-box");
  assert.match(await page.textContent("#book-table"), /no order book for this token id/);
  assert.equal(await page.locator("#book-table .error-box button").count(), 0, "no Try again: the answer would be the same");
  await page.waitForSelector("#live", { state: "hidden" });
  await page.waitForTimeout(1500);
  assert.equal(await page.isVisible("#live"), false, "no \"Waiting for the live book…\" beside it");
  const { requests } = await admin("GET", "/__admin/requests?path=/book");
  assert.equal(requests.filter((r) => r.query.includes("123456789")).length, 1, requests.map((r) => r.query).join());
  await shot(page, "unknown-token", false);

  // Not a market id at all (refused before anything is sent), and an id the service does not have.
  await page.goto(`${PAGE_URL}#/market/abc`);
  await page.waitForSelector("#market-error .error-box");
  assert.equal(await page.textContent("#market-error p"), "“abc” is not a market id (a number, or a condition id 0x…). Find the market in the list of markets.");
  assert.equal(await page.locator("#market-error button").count(), 0);
  await page.goto(`${PAGE_URL}#/market/999999999`);
  await page.waitForFunction(() => /no market “999999999”/.test(document.querySelector("#market-error p")?.textContent ?? ""));
  assert.equal(await page.locator("#market-error button").count(), 0);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// --- Live market -----------------------------------------------------------------------------------

/** The first open market of the first active event, and its outcome tokens. */
async function openMarket() {
  const [event] = await api("/events?active=true&closed=false&limit=1&offset=0");
  const market = event.markets.find((m) => !m.closed);
  return { market, tokens: JSON.parse(market.clobTokenIds) };
}

const pillLive = "#live-status[data-status=open][data-book=live][data-verified=true]";

/** The book the page shows: its timestamp, best prices and the best rows of the ladder. */
const shownBook = (page) => page.evaluate(() => ({
  timestamp: document.querySelector("#book-meta").dataset.timestamp,
  source: document.querySelector("#book-meta").dataset.source,
  bid: document.querySelector("#stat-bid").dataset.value,
  ask: document.querySelector("#stat-ask").dataset.value,
  bidRow: document.querySelector(".ladder tr.bid.best td:nth-child(2)")?.textContent,
  askRow: document.querySelector(".ladder tr.ask.best td:nth-child(2)")?.textContent,
}));

/**
 * Checks the page against GET /book for `token`. The simulator keeps moving the book, so this takes a
 * snapshot, waits for the page to show a book at least that new, and compares when both have the same
 * timestamp (a newer page book means the snapshot is stale already: take another).
 */
async function assertSameAsService(page, token) {
  const num = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
  for (let attempt = 0; attempt < 30; attempt++) {
    const raw = await api(`/book?token_id=${token}`);
    await page.waitForFunction((ts) => BigInt(document.querySelector("#book-meta").dataset.timestamp || "0") >= BigInt(ts),
      raw.timestamp, { timeout: 5_000 });
    const shown = await shownBook(page);
    if (shown.timestamp !== raw.timestamp) continue;
    const { bid, ask } = bestOf(raw);
    assert.equal(shown.source, "stream");
    assert.equal(Number(shown.bid), bid.price, "best bid");
    assert.equal(Number(shown.ask), ask.price, "best ask");
    assert.equal(shown.bidRow, num.format(bid.size), "best bid size");
    assert.equal(shown.askRow, num.format(ask.size), "best ask size");
    return attempt;
  }
  assert.fail("the page never showed the book GET /book answered");
}

test("live market: a tick moves the ladder, best prices equal GET /book, the pill says live and verified", async () => {
  const { market, tokens } = await openMarket();
  const started = performance.now();
  const page = await openPage(DESKTOP, `#/market/${market.id}`);
  await marketReady(page);
  await page.waitForSelector(pillLive, { timeout: 10_000 });
  console.log(`# live and verified ${Math.round(performance.now() - started)} ms after opening the page`);
  assert.match(await page.textContent("#live-text"), /^Live · verified (just now|\d+ s ago)$/);
  assert.equal(await page.getAttribute("#live-status", "data-mismatches"), "0");
  assert.equal(await page.getAttribute("#live-announce", "aria-live"), "polite");
  await waitForStatus(page, "#live-announce", /^Order book live and verified\.$/);
  // The pill's words carry the state (not only the dot's colour); the toggle is a real button.
  assert.equal(await page.getAttribute("#live-toggle", "aria-pressed"), "false");
  assert.match(await page.textContent("#market-details"), /Verified ✓ live \(\d+ checks?\)/);

  // One socket follows both outcomes.
  const marketSockets = await socketsOf("market");
  assert.equal(marketSockets.length, 1);
  assert.deepEqual([...marketSockets[0].assets_ids].sort(), [...tokens].sort());

  // A burst of 200 changes now: the ladder moves, and renders are coalesced to at most one a frame.
  await page.evaluate(() => {
    window.__renders = 0;
    window.__frames = 0;
    new MutationObserver((records) => { window.__renders += records.filter((r) => r.addedNodes.length).length; })
      .observe(document.querySelector("#book-table"), { childList: true });
    const count = () => { window.__frames += 1; window.__counting = requestAnimationFrame(count); };
    window.__counting = requestAnimationFrame(count);
  });
  const before = await page.innerHTML("#book-table");
  const tickAt = performance.now();
  const tick = await admin("POST", "/__admin/stream/tick", { asset_id: tokens[0], count: 200 });
  await page.waitForFunction((ts) => BigInt(document.querySelector("#book-meta").dataset.timestamp || "0") >= BigInt(ts), tick.timestamp);
  console.log(`# a 200-change tick (${tick.frames} frames) on screen in ${Math.round(performance.now() - tickAt)} ms`);
  assert.notEqual(await page.innerHTML("#book-table"), before, "the ladder changed");
  await page.waitForTimeout(300);
  const { renders, frames } = await page.evaluate(() => {
    cancelAnimationFrame(window.__counting);
    return { renders: window.__renders, frames: window.__frames };
  });
  assert.ok(renders >= 1 && renders <= frames + 1, `${renders} renders in ${frames} frames`);
  assert.ok(renders < tick.frames, `${renders} renders for ${tick.frames} frames of changes`);

  const attempts = await assertSameAsService(page, tokens[0]);
  console.log(`# page equals GET /book after ${attempts + 1} snapshot(s)`);
  await page.waitForSelector(pillLive);

  // The other outcome's live book is there at once.
  await page.click("#outcome-tabs button:nth-child(2)");
  await page.waitForSelector("#book-meta[data-source=stream]");
  await assertSameAsService(page, tokens[1]);
  await page.waitForSelector(pillLive);
  await shot(page, "live-desktop", false);

  // Pause closes the socket and freezes the book; resume opens a new one.
  await page.click("#live-toggle");
  await page.waitForSelector("#live-status[data-status=paused]");
  assert.equal(await page.getAttribute("#live-toggle", "aria-pressed"), "true");
  assert.equal(await page.textContent("#live-text"), "Paused");
  await waitForStatus(page, "#live-announce", /^Live updates paused\.$/);
  await until(async () => (await socketsOf("market")).length === 0, "the market socket to close");
  const frozen = await shownBook(page);
  await admin("POST", "/__admin/stream/tick", { asset_id: tokens[1], count: 20 });
  await page.waitForTimeout(300);
  assert.deepEqual(await shownBook(page), frozen, "a paused page does not move");
  await page.click("#live-toggle");
  await page.waitForSelector(pillLive, { timeout: 10_000 });
  await assertSameAsService(page, tokens[1]);

  // Leaving the market closes the stream.
  await page.click(".breadcrumb a");
  await firstRendered(page);
  await until(async () => (await socketsOf("market")).length === 0, "the market socket to close");
  assertClean(page);
  await page.close();

  const phone = await openPage(PHONE, `#/market/${market.id}`);
  await phone.waitForSelector(pillLive, { timeout: 10_000 });
  assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "no sideways scrolling at 375 px");
  await shot(phone, "live-phone", false);
  assertClean(phone);
  await phone.close();
});

test("live market: a dropped stream shows reconnecting, then live and verified again", async () => {
  const { market, tokens } = await openMarket();
  const page = await openPage(DESKTOP, `#/market/${market.id}`);
  await page.waitForSelector(pillLive, { timeout: 10_000 });
  const [first, ...others] = await socketsOf("market");
  assert.equal(others.length, 0, "the drop goes to this page's socket");

  const droppedAt = performance.now();
  await admin("POST", "/__admin/stream/faults", { path: "/ws/market", faults: ["drop"] });
  await page.waitForSelector("#live-status[data-status=reconnecting]", { timeout: 5_000 });
  const lostAt = await page.evaluate(() => Date.now());
  assert.equal(await page.textContent("#live-text"), "Reconnecting…");
  assert.equal(await page.getAttribute("#live-status", "data-tone"), "bad");
  await shot(page, "live-reconnecting-desktop", false);
  // (Screen readers hear "Connection lost" only if it lasts past the once-a-second limit of the live
  // region; a reconnect within the second is not worth interrupting them for.)

  await page.waitForSelector("#live-status[data-status=open][data-book=live]", { timeout: 15_000 });
  // A change now is checked against the service's hash on the new socket.
  await admin("POST", "/__admin/stream/tick", { asset_id: tokens[0], count: 3 });
  await page.waitForFunction((t) => {
    const pill = document.querySelector("#live-status");
    return pill.dataset.status === "open" && pill.dataset.verified === "true" && Number(pill.dataset.verifiedAt) > t;
  }, lostAt, { timeout: 10_000 });
  console.log(`# dropped to live and verified again in ${Math.round(performance.now() - droppedAt)} ms`);
  assert.match(await page.textContent("#live-text"), /^Live · verified/);
  await waitForStatus(page, "#live-announce", /^Order book live and verified\.$/);
  const sockets = await socketsOf("market");
  assert.equal(sockets.length, 1, "one socket: the new one");
  assert.notEqual(sockets[0].id, first.id);
  await assertSameAsService(page, tokens[0]);
  assertClean(page);
  await page.close();
});

test("the header follows the service: red in an outage (and the fee rate comes back after it), green again after", { timeout: 60_000 }, async () => {
  const { market } = await openMarket();
  const page = await openPage(DESKTOP, `#/market/${market.id}`);
  await page.waitForSelector(pillLive, { timeout: 10_000 });
  await page.waitForSelector("#service-summary[data-state=ok]");
  assert.equal(await page.textContent("#service-state"), "");

  // An outage: every request is answered 503, and the open socket drops (its reconnections are refused too).
  await admin("POST", "/__admin/faults", { path: "/", faults: [{ kind: "status", status: 503 }], repeat: true });
  await admin("POST", "/__admin/stream/faults", { path: "/ws/market", faults: ["drop"] });
  await page.waitForSelector("#service-summary:is([data-state=error], [data-state=reconnecting])", { timeout: 10_000 });
  // The other outcome's fee rate cannot be read meanwhile.
  await page.click("#outcome-tabs button:nth-child(2)");
  await page.waitForSelector("#service-summary[data-state=error]", { timeout: 15_000 });
  assert.equal(await page.textContent("#service-state"), "not answering");
  assert.match(await page.textContent("#service-health"), /is not answering requests \(HTTP 503\)/);
  await page.waitForFunction(() => document.querySelector("#stat-fee").textContent === "Unavailable", null, { timeout: 20_000 });
  await shot(page, "service-outage", false);

  // The service is back: the header turns green by itself, the fee rate is read again, the book is live.
  await admin("DELETE", "/__admin/faults");
  await page.waitForSelector("#service-summary[data-state=ok]", { timeout: 15_000 });
  const [, second] = JSON.parse(market.clobTokenIds);
  const fee = await api(`/fee-rate/${second}`);
  await waitForStatus(page, "#stat-fee", new RegExp(`^${fee.base_fee} bps`));
  await page.waitForSelector(pillLive, { timeout: 15_000 });
  // (Chromium logs each refused reconnection of the socket.)
  assert.deepEqual(page.errors.filter((e) => !/WebSocket connection to .* failed: .* 503/.test(e)), []);
  await page.close();
});

// --- Orders ----------------------------------------------------------------------------------------

test("sign in, list orders, cancel one and a whole market, each confirmed in a dialog", async () => {
  const [demo] = await admin("GET", "/__admin/accounts");
  const page = await openPage(DESKTOP, "#/orders");
  // Prefilled from the emulator's accounts (the page is on 127.0.0.1); secrets are password fields.
  await page.waitForFunction(() => document.querySelector("#cred-secret").value !== "");
  assert.equal(await page.inputValue("#cred-address"), demo.address);
  assert.equal(await page.getAttribute("#cred-secret", "type"), "password");
  assert.equal(await page.getAttribute("#cred-passphrase", "type"), "password");
  await shot(page, "signin-desktop", false);

  await admin("DELETE", "/__admin/requests");
  await page.click("#signin button[type=submit]");
  await page.waitForSelector("#orders-status[data-count='300']", { timeout: 15_000 });
  // The library paged GET /data/orders three times (100 per page), each signed.
  const { requests: pages } = await admin("GET", "/__admin/requests?path=/data/orders");
  assert.equal(pages.length, 3);
  assert.ok(pages.every((r) => r.status === 200 && r.headers.SERVICE_API_KEY === demo.apiKey));
  assert.equal(await page.textContent("#orders-status"), `300 open orders in ${new Set((await allOrders(demo)).map((o) => o.market)).size} markets`);
  assert.equal(await page.locator("#orders-body tr").count(), 25);
  assert.equal(await page.isVisible("#signin"), false);

  // Nothing of the credentials is left in the DOM, the inputs, storage, cookies or the URL.
  const html = await page.content();
  for (const secret of [demo.secret, demo.passphrase, demo.apiKey]) assert.ok(!html.includes(secret));
  const leftovers = await page.evaluate(() => ({
    inputs: [...document.querySelectorAll("#signin input")].map((i) => i.value).join("|"),
    local: localStorage.length, session: sessionStorage.length, cookie: document.cookie, url: location.href,
  }));
  assert.ok(!leftovers.inputs.includes(demo.secret) && !leftovers.inputs.includes(demo.passphrase));
  assert.deepEqual([leftovers.local, leftovers.session, leftovers.cookie], [0, 0, ""]);
  assert.ok(!leftovers.url.includes(demo.secret) && !leftovers.url.includes(demo.apiKey));
  assert.deepEqual(await page.context().cookies(), []);
  await page.waitForSelector("#orders-body a.market-name"); // questions resolved for the visible rows
  await shot(page, "orders-desktop", false);

  // Cancel one: the dialog opens with focus on "Keep order"; keeping sends nothing.
  const orderId = await page.getAttribute("#orders-body tr:first-child", "data-order-id");
  await page.click("#orders-body tr:first-child button.danger");
  await page.waitForSelector("dialog#confirm[open]");
  assert.equal(await page.evaluate(() => document.activeElement.id), "confirm-cancel");
  assert.equal(await page.textContent("#confirm-title"), "Cancel this order?");
  await shot(page, "cancel-dialog-desktop", false);
  await page.keyboard.press("Escape");
  await page.waitForSelector("dialog#confirm", { state: "hidden" });
  assert.equal((await admin("GET", "/__admin/requests?method=DELETE")).count, 0);
  // Confirming cancels it: the row leaves and the emulator has it canceled.
  await page.click("#orders-body tr:first-child button.danger");
  await page.click("#confirm-ok");
  await page.waitForSelector("#cancel-result .result-box[data-canceled='1']");
  assert.equal(await page.textContent("#cancel-result .result-box"), "Canceled 1 order.");
  assert.equal(await page.locator(`#orders-body tr[data-order-id="${orderId}"]`).count(), 0);
  assert.equal(await page.getAttribute("#orders-status", "data-count"), "299");
  const { requests: [cancelCall] } = await admin("GET", "/__admin/requests?method=DELETE&path=/order");
  assert.equal(cancelCall.status, 200);
  assert.deepEqual(JSON.parse(cancelCall.body), { orderId });
  const check = await signed(demo, "GET", `/data/order/${orderId}`);
  assert.equal(check.body.order.status, "CANCELED");
  assert.ok(!(await allOrders(demo)).some((o) => o.id === orderId));

  // Cancel a market: every open order of the account in it goes.
  const marketButton = page.locator("#orders-body tr button", { hasText: /^Cancel market/ }).first();
  const conditionId = await marketButton.evaluate((b) => b.closest("tr").querySelector("td[data-market]").dataset.market);
  const inMarket = (await allOrders(demo)).filter((o) => o.market === conditionId);
  assert.ok(inMarket.length > 1);
  await marketButton.click();
  await page.waitForSelector("dialog#confirm[open]");
  assert.equal(await page.textContent("#confirm-title"), `Cancel all ${inMarket.length} orders in this market?`);
  await page.click("#confirm-ok");
  await page.waitForSelector(`#cancel-result .result-box[data-canceled='${inMarket.length}']`);
  assert.equal(await page.locator(`#orders-body td[data-market="${conditionId}"]`).count(), 0);
  assert.equal(await page.getAttribute("#orders-status", "data-count"), String(299 - inMarket.length));
  assert.equal((await allOrders(demo)).filter((o) => o.market === conditionId).length, 0);
  const { requests: [marketCall] } = await admin("GET", "/__admin/requests?method=DELETE&path=/cancel-market-orders");
  assert.deepEqual(JSON.parse(marketCall.body), { market: conditionId });

  // An order canceled elsewhere while its confirmation is open: the row leaves at once (the user
  // channel), and confirming anyway shows the service's reason.
  const staleId = await page.getAttribute("#orders-body tr:first-child", "data-order-id");
  await page.click("#orders-body tr:first-child button.danger");
  await page.waitForSelector("dialog#confirm[open]");
  await signed(demo, "DELETE", "/order", "", JSON.stringify({ orderId: staleId }));
  await page.waitForSelector(`#orders-body tr[data-order-id="${staleId}"]`, { state: "detached", timeout: 10_000 });
  await page.click("#confirm-ok");
  await page.waitForSelector("#cancel-result .result-box[data-refused='1']");
  assert.match(await page.textContent("#cancel-result"), /Not canceled: 1.*order already canceled/s);
  assert.equal(await page.locator(`#orders-body tr[data-order-id="${staleId}"]`).count(), 0, "a gone order leaves the list");
  await shot(page, "orders-result-desktop", false);

  // Cancel all: confirmed in the dialog (keeping sends nothing), one DELETE /cancel-all, and the list is empty.
  const left = await allOrders(demo);
  assert.ok(left.length > 0);
  await admin("DELETE", "/__admin/requests");
  await page.click("#orders-cancel-all");
  await page.waitForSelector("dialog#confirm[open]");
  assert.equal(await page.textContent("#confirm-title"), "Cancel all your open orders?");
  await page.click("#confirm-cancel");
  await page.waitForSelector("dialog#confirm", { state: "hidden" });
  assert.equal((await admin("GET", "/__admin/requests?path=/cancel-all")).requests.length, 0, "keeping sends nothing");
  await page.click("#orders-cancel-all");
  await page.waitForSelector("dialog#confirm[open]");
  await page.click("#confirm-ok");
  await page.waitForSelector(`#cancel-result .result-box[data-canceled='${left.length}']`);
  const { requests: cancelAll } = await admin("GET", "/__admin/requests?path=/cancel-all");
  assert.deepEqual(cancelAll.map((r) => `${r.method} ${r.status}`), ["DELETE 200"]);
  await page.waitForSelector("#orders-status[data-count='0']");
  assert.equal(await page.locator("#orders-body tr").count(), 0, "this page's own cancellations leave at once");
  assert.deepEqual(await allOrders(demo), []);
  assert.equal(await page.isDisabled("#orders-cancel-all"), false, "the button stays for orders placed later");

  // Signing out forgets the account.
  await page.click("#signout");
  await page.waitForSelector("#signin:not([hidden])");
  assert.equal(await page.isVisible("#account"), false);
  assertClean(page);
  await page.close();

  await admin("POST", "/__admin/reset"); // the seed's orders again
  const phone = await openPage(PHONE, "#/orders");
  await phone.waitForFunction(() => document.querySelector("#cred-secret").value !== "");
  await shot(phone, "signin-phone", false);
  await phone.click("#signin button[type=submit]");
  await phone.waitForSelector("#orders-status[data-count]");
  await phone.waitForSelector("#orders-body a.market-name");
  assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "no sideways scrolling at 375 px");
  await shot(phone, "orders-phone", false);
  await phone.click("#orders-body tr:first-child button.danger");
  await phone.waitForSelector("dialog#confirm[open]");
  await shot(phone, "cancel-dialog-phone", false);
  assertClean(phone);
  await phone.close();
});

test("my orders' Trades tab shows a fill's settlement step by step, and the dead-man switch beats", { timeout: 60_000 }, async () => {
  const PKG_DIR = process.env.PREDICTKIT_PKG_DIR ?? new URL("../../pkg", import.meta.url).pathname;
  const pk = createRequire(import.meta.url)(`${PKG_DIR}/node.cjs`);
  const { walletSigner } = await import(`${PKG_DIR}/signers.mjs`);
  const wallet = { request: async ({ method, params }) => (await api("/wallet", { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) })).result };
  const accounts = await wallet.request({ method: "eth_requestAccounts" });
  // The page's account (the second development account) rests a buy that improves a bid; the first sells into it.
  const trader = (i) => new pk.Client({ baseUrl: EMULATOR, chainId: 80002, rateLimits: false });
  const mine = trader(1);
  await mine.createApiKey(walletSigner(wallet, accounts[1]));
  let found;
  for (const m of (await api("/sampling-markets")).data) {
    const info = await api(`/clob-markets/${m.condition_id}`);
    const book = await api(`/book?token_id=${m.tokens[0].token_id}`);
    const bid = Math.max(...book.bids.map((l) => Number(l.price)));
    const ask = Math.min(...book.asks.map((l) => Number(l.price)));
    if (m.accepting_orders && info.mts === 0.01 && ask - bid >= 0.03) {
      found ??= { tokenId: m.tokens[0].token_id, outcome: m.tokens[0].outcome, conditionId: m.condition_id, price: Math.round((bid + 0.01) * 100) / 100 };
    }
  }
  const resting = await mine.placeOrder({ tokenId: found.tokenId, side: "BUY", price: found.price, size: 10 }, walletSigner(wallet, accounts[1]));
  assert.equal(resting.success, true);
  const key = (await admin("GET", "/__admin/accounts")).find((a) => a.nonce !== undefined && a.address.toLowerCase() === accounts[1].toLowerCase());

  const page = await openPage(DESKTOP, "#/orders");
  await page.waitForFunction(() => document.querySelector("#cred-secret").value !== "");
  await page.fill("#cred-address", key.address);
  await page.fill("#cred-key", key.apiKey);
  await page.fill("#cred-secret", key.secret);
  await page.fill("#cred-passphrase", key.passphrase);
  await page.click("#signin button[type=submit]");
  await page.waitForSelector(`#orders-body tr[data-order-id="${resting.orderID}"]`, { timeout: 15_000 });
  await page.waitForSelector("#orders-live[data-status=open]", { timeout: 15_000 });

  // The switch: on, and beating.
  await page.check("#deadman-toggle");
  await page.waitForSelector("#deadman-status[data-status=ok]", { timeout: 10_000 });
  assert.match(await page.textContent("#deadman-status"), /^On · \d+ heartbeats?, last .+ · every 5 s$/);

  // The Trades tab: nothing yet; then the fill comes, MATCHED, and settles in place.
  await page.click("#tab-trades");
  await page.waitForSelector("#trades-status:has-text('No trades yet.')");
  assert.equal(await page.isVisible("#orders-table"), false);
  const seller = trader(0);
  const sellerSigner = walletSigner(wallet, accounts[0]);
  await seller.createApiKey(sellerSigner);
  // (Shares it bought first: the service refuses a sell of shares the account does not hold.)
  await holdShares(seller, sellerSigner, found.tokenId, 5, EMULATOR);
  const sold = await seller.placeOrder({ tokenId: found.tokenId, side: "SELL", price: found.price, size: 5, orderType: "FAK" }, sellerSigner);
  const [tradeId] = sold.tradeIDs;
  const cell = `#trades-body tr[data-trade-id="${tradeId}"] td.settlement`;
  await page.waitForSelector(cell, { timeout: 10_000 });
  const seen = new Set();
  for (const end = Date.now() + 10_000; Date.now() < end && !seen.has("CONFIRMED");) {
    seen.add(await page.getAttribute(cell, "data-status"));
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.ok(seen.has("CONFIRMED"), [...seen].join());
  assert.ok(seen.has("MATCHED") || seen.has("MINED"), `an earlier step was shown: ${[...seen].join()}`);
  const row = await page.$eval(`#trades-body tr[data-trade-id="${tradeId}"]`, (tr) => [...tr.children].map((td) => td.textContent));
  // The market (its question, once read) and the outcome; the price in cents like the rest of the page.
  const { question } = await api(`/markets/${found.conditionId}`);
  await page.waitForFunction(([id, q]) => document.querySelector(`#trades-body tr[data-trade-id="${id}"] td.market-cell`)?.textContent === q,
    [tradeId, question], { timeout: 10_000 });
  assert.equal(row[2], found.outcome);
  assert.deepEqual(row.slice(3, 7), ["BUY", "5", `${Math.round(found.price * 100)}¢`, "Maker"]);
  assert.match(row[8], /^0x[0-9a-f]{4}…[0-9a-f]{4}$/);
  await shot(page, "orders-trades");

  // Off: the pill goes; the switch sends nothing more.
  await page.uncheck("#deadman-toggle");
  assert.equal(await page.isVisible("#deadman-status"), false);
  const beats = (await admin("GET", "/__admin/requests?path=/v1/heartbeats")).requests.length;
  await new Promise((r) => setTimeout(r, 600));
  assert.equal((await admin("GET", "/__admin/requests?path=/v1/heartbeats")).requests.length, beats);
  assert.deepEqual(page.errors, []);
  mine.free();
  seller.free();
});

test("my orders follow the user channel: an order canceled elsewhere leaves without a reload", async () => {
  const [demo] = await admin("GET", "/__admin/accounts");
  const page = await openPage(DESKTOP, "#/orders");
  await page.waitForFunction(() => document.querySelector("#cred-secret").value !== "");
  await page.click("#signin button[type=submit]");
  await page.waitForSelector("#orders-status[data-count='300']", { timeout: 15_000 });
  await page.waitForSelector("#orders-live[data-status=open]", { timeout: 10_000 });
  assert.equal(await page.textContent("#orders-live-text"), "Live");
  // The socket is subscribed for this account (the credentials went in its first message, nowhere else).
  await until(async () => (await socketsOf("user")).some((s) => s.authenticated && s.account === demo.address),
    "the user socket to subscribe");
  await page.waitForSelector("#orders-body a.market-name");
  await admin("DELETE", "/__admin/requests");

  // A keyboard user sits on the 5th row's Cancel button while the 3rd row is canceled elsewhere.
  const ids = await page.$$eval("#orders-body tr", (rows) => rows.map((r) => r.dataset.orderId));
  await page.focus(`#orders-body tr[data-order-id="${ids[4]}"] button.danger`);
  const canceledAt = performance.now();
  const answer = await signed(demo, "DELETE", "/order", "", JSON.stringify({ orderId: ids[2] }));
  assert.deepEqual(answer.body.canceled, [ids[2]]);
  const leaving = `#orders-body tr.leaving[data-order-id="${ids[2]}"]`;
  await page.waitForSelector(leaving, { timeout: 5_000 });
  console.log(`# canceled elsewhere, marked in the list ${Math.round(performance.now() - canceledAt)} ms later`);
  assert.equal(await page.textContent(`${leaving} .row-note`), "Canceled");
  assert.equal(await page.getAttribute("#orders-status", "data-count"), "299");
  await shot(page, "orders-live-desktop", false);
  await page.waitForSelector(`#orders-body tr[data-order-id="${ids[2]}"]`, { state: "detached", timeout: 5_000 });
  await waitForStatus(page, "#orders-announce", /^Canceled: (buy|sell) [\d,.]+ .+ at [\d.]+¢\.$/);
  // No reload: the page did not read the list again.
  assert.equal((await admin("GET", "/__admin/requests?path=/data/orders")).count, 0);
  // The rows stayed in place: still 25, in order, the next one moved up, focus where it was.
  assert.deepEqual(await page.$$eval("#orders-body tr", (rows) => rows.map((r) => r.dataset.orderId)),
    [...ids.slice(0, 2), ...ids.slice(3), (await allOrders(demo))[24].id]);
  assert.equal(await page.evaluate(() => document.activeElement.closest("tr")?.dataset.orderId), ids[4]);
  assert.equal(await page.textContent("#orders-status"), `299 open orders in ${new Set((await allOrders(demo)).map((o) => o.market)).size} markets`);

  // A whole market canceled elsewhere: each of its rows leaves.
  const conditionId = await page.getAttribute("#orders-body tr:first-child td[data-market]", "data-market");
  const inMarket = (await allOrders(demo)).filter((o) => o.market === conditionId);
  await admin("DELETE", "/__admin/requests");
  await signed(demo, "DELETE", "/cancel-market-orders", "", JSON.stringify({ market: conditionId }));
  await page.waitForFunction(([id, n]) => document.querySelector("#orders-status").dataset.count === String(n) &&
    !document.querySelector(`#orders-body td[data-market="${id}"]`), [conditionId, 299 - inMarket.length], { timeout: 5_000 });
  assert.equal((await admin("GET", "/__admin/requests?path=/data/orders")).count, 0);

  // A cancellation whose event is lost with the socket (dropped as it was sent): after the reconnect
  // the page reads the list again, quietly, and the order is gone.
  await admin("POST", "/__admin/stream/faults", { path: "/ws/user", faults: ["drop"] });
  const lostId = await page.getAttribute("#orders-body tr:first-child", "data-order-id");
  const countBefore = Number(await page.getAttribute("#orders-status", "data-count"));
  await admin("DELETE", "/__admin/requests");
  await signed(demo, "DELETE", "/order", "", JSON.stringify({ orderId: lostId }));
  await page.waitForSelector("#orders-live[data-status=reconnecting]", { timeout: 5_000 });
  assert.equal(await page.textContent("#orders-live-text"), "Reconnecting…");
  await page.waitForSelector(`#orders-body tr[data-order-id="${lostId}"]`, { state: "detached", timeout: 15_000 });
  await page.waitForSelector("#orders-live[data-status=open]");
  assert.equal(await page.getAttribute("#orders-status", "data-count"), String(countBefore - 1));
  assert.equal((await admin("GET", "/__admin/requests?path=/data/orders")).count, 3, "the list was read again");
  assert.equal(await page.locator("#orders-body tr").count(), 25);

  // Signing out closes the user channel.
  await page.click("#signout");
  await until(async () => (await socketsOf("user")).length === 0, "the user socket to close");
  const html = await page.content();
  for (const secret of [demo.secret, demo.passphrase, demo.apiKey]) assert.ok(!html.includes(secret));
  assertClean(page);
  await page.close();
});

test("my orders: PLACEMENT adds a row, UPDATE refreshes it, a filled order leaves (events injected)", async () => {
  // The emulator sends only CANCELLATION today, so the other order events are injected into the real
  // user socket, and the REST answers are shaped to match them: the list misses one order (to be
  // "placed"), and GET /data/order shows a partial fill for one and a full fill for another.
  const [demo] = await admin("GET", "/__admin/accounts");
  const all = await allOrders(demo);
  const [placed, partial, filled] = [all[0], all[1], all[2]];
  const page = await browser.newPage({ viewport: DESKTOP });
  openPages.add(page);
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(String(e)));
  let userSocket = null;
  await page.routeWebSocket(/\/ws\/user$/, (ws) => {
    ws.connectToServer(); // messages go both ways unchanged
    userSocket = ws;
  });
  await page.route(/\/data\/orders(\?|$)/, async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    body.data = body.data.filter((o) => o.id !== placed.id);
    await route.fulfill({ response, json: body });
  });
  await page.route(new RegExp(`/data/order/(${partial.id}|${filled.id})$`), async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    if (body.order.id === partial.id) body.order.sizeMatched = "50";
    else Object.assign(body.order, { sizeMatched: body.order.originalSize, status: "MATCHED" });
    await route.fulfill({ response, json: body });
  });
  await page.goto(`${PAGE_URL}#/orders`);
  await page.waitForFunction(() => document.querySelector("#cred-secret").value !== "");
  await page.click("#signin button[type=submit]");
  await page.waitForSelector("#orders-status[data-count='299']", { timeout: 15_000 });
  await page.waitForSelector("#orders-live[data-status=open]");
  assert.ok(userSocket, "the page's user socket was routed");
  const order = (o, type) => JSON.stringify({
    event_type: "order", type, id: o.id, market: o.market, asset_id: o.assetId, side: o.side, price: o.price,
    original_size: o.originalSize, size_matched: o.sizeMatched, outcome: o.outcome, status: "LIVE", timestamp: String(Date.now()),
  });

  userSocket.send(order(placed, "PLACEMENT"));
  await page.waitForSelector(`#orders-body tr:first-child[data-order-id="${placed.id}"][data-arrived=New]`);
  assert.equal(await page.getAttribute("#orders-status", "data-count"), "300");
  // Told again (as a placing page hears its own answer, then the event): one note, still "New", not red.
  userSocket.send(order(placed, "PLACEMENT"));
  await until(async () => (await admin("GET", `/__admin/requests?path=/data/order/${placed.id}`)).count >= 2, "the order read again");
  await page.waitForTimeout(200);
  const notes = await page.$$eval(`#orders-body tr[data-order-id="${placed.id}"] .row-note`, (els) =>
    els.map((e) => ({ text: e.textContent, color: getComputedStyle(e).color })));
  assert.deepEqual(notes.map((n) => n.text), ["New"]);
  const red = await page.evaluate(() => getComputedStyle(document.querySelector("#stat-ask")).color);
  assert.notEqual(notes[0].color, red);

  userSocket.send(order(partial, "UPDATE"));
  const partialRow = `#orders-body tr[data-order-id="${partial.id}"]`;
  await page.waitForSelector(`${partialRow}[data-arrived=Updated]`);
  assert.equal(await page.textContent(`${partialRow} td[data-label=Filled]`), "50");

  userSocket.send(order(filled, "UPDATE"));
  await page.waitForSelector(`#orders-body tr.leaving[data-order-id="${filled.id}"][data-leaving=Filled]`);
  await page.waitForSelector(`#orders-body tr[data-order-id="${filled.id}"]`, { state: "detached" });
  assert.equal(await page.getAttribute("#orders-status", "data-count"), "299");
  assert.deepEqual(page.errors, []);
  await page.close();
});

/** Every open order of the account, read from the emulator with a request signed here. */
async function allOrders(account) {
  const orders = [];
  let cursor = "MA==";
  while (cursor && cursor !== "LTE=") {
    const { status, body } = await signed(account, "GET", "/data/orders", `?next_cursor=${cursor}`);
    assert.equal(status, 200);
    orders.push(...body.data);
    cursor = body.next_cursor;
  }
  return orders;
}

// --- Faults and settings ---------------------------------------------------------------------------

test("429 and 500 show the retry notice, then a clear message; Try again recovers", async () => {
  await admin("POST", "/__admin/faults", { path: "/events", faults: [{ kind: "status", status: 429, retry_after: 1 }], repeat: true });
  const page = await openPage(DESKTOP);
  await page.waitForSelector("#notice:not([hidden])", { timeout: 10_000 });
  assert.match(await page.textContent("#notice-text"), /rate limiting us\. Retrying GET \/events in 1\.0 s \(retry [12]\)/);
  await shot(page, "retry-notice-desktop", false);
  await page.waitForSelector("#events-error .error-box", { timeout: 15_000 });
  assert.match(await page.textContent("#events-error"), /The service is busy and asked us to slow down \(retry in 1 s\)/);
  assert.equal(await page.isVisible("#notice"), false, "the notice goes when the request settles");
  // One request and the client's two retries.
  const { requests: calls } = await admin("GET", "/__admin/requests?path=/events");
  assert.deepEqual(calls.map((c) => c.status), [429, 429, 429]);
  await shot(page, "rate-limited-desktop", false);

  await admin("DELETE", "/__admin/faults");
  await admin("POST", "/__admin/faults", { path: "/events", faults: [{ kind: "status", status: 500 }], repeat: true });
  await page.click("#events-error button");
  await page.waitForFunction(() => /answered 500/.test(document.querySelector("#notice-text").textContent) &&
    !document.querySelector("#notice").hidden);
  await page.waitForSelector("#events-error .error-box", { timeout: 15_000 });
  assert.equal(await page.textContent("#events-error p"), "The service had a problem (HTTP 500). Try again shortly.");

  await admin("DELETE", "/__admin/faults");
  await page.click("#events-error button");
  await page.waitForSelector("#events .event-card:not(.skeleton)");
  assert.equal(await page.locator("#events-error .error-box").count(), 0);
  assert.deepEqual(page.errors, []);
  assert.ok(page.failed.every((f) => /^(429|500) \/events$/.test(f)), page.failed.join(", "));

  // The phone layout of the error.
  await admin("POST", "/__admin/faults", { path: "/events", faults: [{ kind: "status", status: 503 }], repeat: true });
  const phone = await openPage(PHONE);
  await phone.waitForSelector("#events-error .error-box", { timeout: 15_000 });
  await shot(phone, "error-phone", false);
  await phone.close();
  await page.close();
});

test("the base URL field recreates the client; the page is keyboard accessible", async () => {
  const page = await openPage(DESKTOP);
  await firstRendered(page);
  // Keyboard: the first Tab reaches the skip link, with a visible focus ring.
  await page.keyboard.press("Tab");
  const focused = await page.evaluate(() => ({
    cls: document.activeElement.className,
    outline: getComputedStyle(document.activeElement).outlineStyle,
  }));
  assert.equal(focused.cls, "skip-link");
  assert.notEqual(focused.outline, "none");
  // Every form control has a label; clickable things are buttons or links.
  const unlabeled = await page.evaluate(() => [...document.querySelectorAll("input, select")]
    .filter((el) => el.labels.length === 0 && !el.getAttribute("aria-label")).map((el) => el.id));
  assert.deepEqual(unlabeled, []);
  assert.equal(await page.locator("[onclick]:not(button):not(a)").count(), 0);

  // Point the page at a port where nothing listens: the list says the service cannot be reached.
  await page.click(".service summary");
  await page.fill("#base-url", "http://127.0.0.1:9");
  await page.press("#base-url", "Enter");
  await waitForStatus(page, "#service-status", /^Switched to 127\.0\.0\.1:9\. Signed out\.$/);
  assert.equal(await page.textContent("#service-host"), "127.0.0.1:9");
  await page.waitForSelector("#events-error .error-box", { timeout: 15_000 });
  // The header says what the requests met: nothing listens there (not green, not "connected").
  await page.waitForSelector("#service-summary[data-state=unreachable]");
  assert.equal(await page.textContent("#service-state"), "unreachable");
  assert.match(await page.textContent("#service-health"), /^127\.0\.0\.1:9 cannot be reached/);
  assert.equal(await page.textContent("#events-error p"), "The service cannot be reached. Check the base URL and your connection.");
  await shot(page, "service-desktop", false);

  // A bad URL is refused by the library and leaves the client as it was.
  await page.fill("#base-url", "ftp://example");
  await page.press("#base-url", "Enter");
  await waitForStatus(page, "#service-status", /not valid \(baseUrl\)/);
  assert.equal(await page.textContent("#service-host"), "127.0.0.1:9");

  // Back to the emulator: the list loads again.
  await page.fill("#base-url", EMULATOR);
  await page.press("#base-url", "Enter");
  await page.waitForSelector("#events .event-card:not(.skeleton)", { timeout: 15_000 });
  assert.equal(await page.locator("#events-error .error-box").count(), 0);
  await page.waitForSelector("#service-summary[data-state=ok]");
  assert.equal(await page.textContent("#service-state"), "");
  await page.close();
});

// --- What the market page and the switch show as they change (issue 35 §4) ---------------------------

/** The midpoint of a GET /book answer, computed here from its raw levels. */
function midOf(book) {
  const bid = Math.max(...book.bids.map((l) => Number(l.price)));
  const ask = Math.min(...book.asks.map((l) => Number(l.price)));
  return (bid + ask) / 2;
}

/** The order book's stats and the price history as the page shows them, read at one moment. */
const shownHistory = (page) => page.evaluate(() => {
  const svg = document.querySelector("#history-chart svg");
  const dot = svg?.querySelector("circle.dot");
  const line = svg?.querySelector("path.line")?.getAttribute("d") ?? "";
  const lastPoint = line.split(/[ML]/).filter(Boolean).pop() ?? "";
  return {
    timestamp: document.querySelector("#book-meta").dataset.timestamp,
    source: document.querySelector("#book-meta").dataset.source,
    midText: document.querySelector("#stat-mid").textContent,
    midValue: document.querySelector("#stat-mid").dataset.value,
    change: document.querySelector("#history-change").textContent,
    changeNow: document.querySelector("#history-change").dataset.now,
    label: svg?.getAttribute("aria-label") ?? "",
    dotIsNow: dot?.classList.contains("now") ?? false,
    dotPrice: dot?.dataset.price,
    dotAt: dot ? `${dot.getAttribute("cx")},${dot.getAttribute("cy")}` : "",
    lastPoint,
    points: line.split(/[ML]/).filter(Boolean).length,
  };
});

/** The history's "now" is the midpoint stat: its words, the chart's last point and its label. */
function assertHistoryEndsAtMid(shown) {
  assert.ok(shown.midValue, "the book has a midpoint");
  assert.match(shown.change, /^[▲▼] \d+(\.\d+)?¢ · now \d+(\.\d+)?¢$/, shown.change);
  assert.equal(shown.change.split(" · now ")[1], shown.midText, `the history's now (${shown.change}) is the midpoint (${shown.midText})`);
  assert.equal(shown.changeNow, shown.midValue);
  assert.equal(shown.dotIsNow, true, "the last point is marked as now");
  assert.equal(shown.dotPrice, shown.midValue, "the chart's last point is the midpoint");
  assert.equal(shown.lastPoint, shown.dotAt, "the line ends at that point");
  assert.ok(shown.label.endsWith(` to ${shown.midText} now (the book's midpoint) over ${shown.points} points`), shown.label);
  assert.ok(shown.points > 20, "the service's history is drawn too");
}

/**
 * Checks the page's history against GET /book's midpoint for `token`. The simulator keeps moving the book, so
 * this takes a snapshot, waits for the page to show a book at least that new, and compares when both have the
 * same timestamp (a newer page book means the snapshot is stale already: take another).
 */
async function assertHistoryFollowsService(page, token) {
  for (let attempt = 0; attempt < 30; attempt++) {
    const raw = await api(`/book?token_id=${token}`);
    await page.waitForFunction((ts) => BigInt(document.querySelector("#book-meta").dataset.timestamp || "0") >= BigInt(ts),
      raw.timestamp, { timeout: 5_000 });
    const shown = await shownHistory(page);
    if (shown.timestamp !== raw.timestamp) continue;
    assert.equal(shown.source, "stream");
    assert.ok(Math.abs(Number(shown.midValue) - midOf(raw)) < 1e-12, `${shown.midValue} vs ${midOf(raw)}`);
    assertHistoryEndsAtMid(shown);
    return shown;
  }
  assert.fail("the page never showed the book GET /book answered");
}

// --- Price history ---------------------------------------------------------------------------------

test("the price history ends now at the book's midpoint, and follows it as the live book moves", { timeout: 60_000 }, async () => {
  const { market, tokens } = await openMarket();
  const page = await openPage(DESKTOP, `#/market/${market.id}`);
  await marketReady(page);
  await page.waitForSelector(pillLive, { timeout: 10_000 });
  await page.waitForSelector("#history-chart svg circle.dot.now");
  const first = await assertHistoryFollowsService(page, tokens[0]);
  // What the service's history alone ends at (it is sampled, and lags the book).
  const { history } = await api(`/prices-history?market=${tokens[0]}&interval=1w&fidelity=60`);
  console.log(`# the service's history ends at ${history[history.length - 1].p}; the midpoint is ${first.midValue}`);

  // The emulator moves the book until its midpoint moves: the history's now and last point go with it.
  let moved;
  for (let round = 0; round < 20 && !moved; round++) {
    const tick = await admin("POST", "/__admin/stream/tick", { asset_id: tokens[0], count: 25 });
    await page.waitForFunction((ts) => BigInt(document.querySelector("#book-meta").dataset.timestamp || "0") >= BigInt(ts), tick.timestamp);
    const shown = await shownHistory(page);
    if (shown.midValue !== first.midValue) moved = shown;
  }
  assert.ok(moved, "the midpoint moved");
  assertHistoryEndsAtMid(moved);
  const after = await assertHistoryFollowsService(page, tokens[0]);
  assert.notEqual(after.change, first.change, "the history's now changed with the book");
  await shot(page, "history-now");

  // Another period: its history ends at the midpoint too.
  await page.click("#history-intervals button[data-interval='1d']");
  await page.waitForFunction(() => !document.querySelector("#history-chart[aria-busy]"));
  await assertHistoryFollowsService(page, tokens[0]);

  // The other outcome: its own book's midpoint.
  await page.click("#outcome-tabs button:nth-child(2)");
  await page.waitForSelector("#book-meta[data-source=stream]");
  await marketReady(page);
  await page.waitForSelector("#history-chart svg circle.dot.now");
  await assertHistoryFollowsService(page, tokens[1]);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.failed, []);
});

test("a still book's history ends at GET /midpoint; a book with one side has no midpoint, and says so", async () => {
  const { market, tokens } = await openMarket();
  const { mid } = await api(`/midpoint?token_id=${tokens[0]}`);
  const page = await openPage(DESKTOP, `#/market/${market.id}`, { stillBooks: true });
  await marketReady(page);
  await page.waitForSelector("#history-chart svg circle.dot.now");
  const shown = await shownHistory(page);
  assert.equal(Number(shown.midValue), Number(mid));
  assert.equal(shown.midText, `${+(Number(mid) * 100).toFixed(4)}¢`);
  assertHistoryEndsAtMid(shown);
  // The depth chart names the same midpoint, in the same words.
  assert.equal(await page.textContent("#depth-chart .mid-label"), `mid ${shown.midText}`);

  // Asks only: no midpoint, so no "now"; the history is the service's as it came.
  const info = await admin("GET", "/__admin/info");
  const asksOnly = info.special_books.find((b) => b.kind === "asks_only").token_id;
  await page.goto(`${PAGE_URL}#/token/${asksOnly}`);
  await marketReady(page);
  assert.equal(await page.textContent("#stat-mid"), "–");
  const { history } = await api(`/prices-history?market=${asksOnly}&interval=1w&fidelity=60`);
  assert.ok(history.length > 1, "the emulator keeps a history for the asks-only book");
  await page.waitForSelector("#history-chart svg path.line");
  assert.match(await page.textContent("#history-change"), /^[▲▼] \d+(\.\d+)?¢ · no midpoint now \(last \d+(\.\d+)?¢\)$/);
  assert.equal(await page.locator("#history-chart circle.dot.now").count(), 0);
  assert.equal(await page.getAttribute("#history-change", "data-now"), null);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// --- The dead-man switch ---------------------------------------------------------------------------

/** The emulator's log of `apiKey`'s heartbeats, oldest first. */
async function beatsLogged(apiKey) {
  const { requests } = await admin("GET", "/__admin/requests?path=/v1/heartbeats&method=POST");
  return requests.filter((r) => r.headers.SERVICE_API_KEY === apiKey);
}

const PILL_ON = /^On · (\d+) heartbeats?, last (\d{1,2}:\d{2}:\d{2}\s?[AP]M) · every 5 s$/;

test("the dead-man switch's pill shows each heartbeat as it comes: its count and time, only accepted ones counted", { timeout: 90_000 }, async () => {
  const [demo] = await admin("GET", "/__admin/accounts");
  const page = await openPage(DESKTOP, "#/orders");
  await page.waitForFunction(() => document.querySelector("#cred-secret").value !== "");
  await page.click("#signin button[type=submit]");
  await page.waitForSelector("#orders-status[data-count='300']", { timeout: 15_000 });
  await admin("DELETE", "/__admin/requests");

  await page.check("#deadman-toggle");
  await page.waitForSelector("#deadman-status[data-status=ok]", { timeout: 10_000 });
  const pill = () => page.evaluate(() => {
    const el = document.querySelector("#deadman-status");
    return { text: el.textContent, beats: Number(el.dataset.beats), lastAt: Number(el.dataset.lastBeatAt), tone: el.dataset.tone, at: Date.now() };
  });
  const first = await pill();
  assert.match(first.text, PILL_ON);
  assert.equal(first.tone, "ok");

  // Beat by beat: the count goes up by one each time, and the time is the last beat's.
  const seen = [first];
  for (let i = 0; i < 2; i++) {
    const next = seen[seen.length - 1].beats + 1;
    await page.waitForFunction((n) => Number(document.querySelector("#deadman-status").dataset.beats) >= n, next, { timeout: 12_000 });
    seen.push(await pill());
  }
  for (let i = 1; i < seen.length; i++) {
    assert.equal(seen[i].beats, seen[i - 1].beats + 1, "one beat at a time");
    assert.notEqual(seen[i].text, seen[i - 1].text);
    assert.ok(seen[i].lastAt > seen[i - 1].lastAt);
    const gap = seen[i].at - seen[i - 1].at;
    assert.ok(gap > 2_000 && gap < 8_000, `beats shown ${gap} ms apart`);
  }
  for (const { text, beats, lastAt } of seen) {
    const [, count, time] = text.match(PILL_ON);
    assert.equal(Number(count), beats, "the words say the count");
    assert.equal(time, new Date(lastAt).toLocaleTimeString("en-US"), "the words say the last beat's time");
  }
  // The count is the service's: the emulator accepted that many (one more may be on its way back).
  const last = seen[seen.length - 1];
  const logged = (await beatsLogged(demo.apiKey)).filter((r) => r.status === 200);
  assert.ok(logged.length === last.beats || logged.length === last.beats + 1, `${logged.length} logged, ${last.beats} shown`);
  const lastLogged = logged[last.beats - 1].at;
  assert.ok(Math.abs(last.lastAt - lastLogged) < 1_500, `last beat shown at ${last.lastAt}, logged at ${lastLogged}`);
  assert.equal(seen[0].beats >= 1, true);

  // A heartbeat the service refuses (503) is not counted: the next beat shown is the next accepted one.
  await admin("POST", "/__admin/faults", { path: "/v1/heartbeats", method: "POST", faults: [{ kind: "status", status: 503 }] });
  await until(async () => (await beatsLogged(demo.apiKey)).some((r) => r.status === 503), "the refused heartbeat", 12_000);
  await page.waitForFunction((n) => Number(document.querySelector("#deadman-status").dataset.beats) >= n,
    (await pill()).beats + 1, { timeout: 12_000 });
  await page.waitForSelector("#deadman-status[data-status=ok]", { timeout: 10_000 });
  const afterFault = await pill();
  const log = await beatsLogged(demo.apiKey);
  const accepted = log.filter((r) => r.status === 200).length;
  assert.ok(accepted === afterFault.beats || accepted === afterFault.beats + 1, `${accepted} accepted, ${afterFault.beats} shown (${log.length} sent)`);
  assert.ok(log.length > accepted, "a refused one was sent");
  assert.match(afterFault.text, PILL_ON);
  await shot(page, "deadman-beats", false);

  // Off, then on again: a new switch counts its own beats from one.
  await page.uncheck("#deadman-toggle");
  assert.equal(await page.isVisible("#deadman-status"), false);
  await page.check("#deadman-toggle");
  await page.waitForSelector("#deadman-status[data-status=ok]", { timeout: 10_000 });
  assert.match((await pill()).text, /^On · 1 heartbeat, last \d{1,2}:\d{2}:\d{2}\s?[AP]M · every 5 s$/);

  // On a phone the pill's words wrap: no sideways scrolling.
  await page.setViewportSize(PHONE);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "no sideways scrolling at 375 px");
  await page.locator("#deadman-status").scrollIntoViewIfNeeded();
  await shot(page, "deadman-beats-phone", false);
  await page.uncheck("#deadman-toggle");
  assert.deepEqual(page.errors, []);
  await page.close();
});
