// The demo page (www/) end to end in real headless Chromium, driven by playwright-core, served by the
// emulator with the page and the package on one origin. Every figure the page shows is checked against
// the emulator's own answers (fetched here directly), and every cancellation against its state.
import { test, before, after, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { createHmac } from "node:crypto";
import { chromium } from "playwright-core";

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
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
});
after(async () => browser?.close());
beforeEach(async () => {
  await admin("POST", "/__admin/reset");
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

/** A page that records uncaught errors; `expectErrors` lets fault tests allow failed-load console lines. */
async function openPage(viewport, hash = "") {
  const page = await browser.newPage({ viewport });
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
  const page = await openPage(DESKTOP);
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
  const cents = (p) => `${+(p * 100).toFixed(1)}¢`;
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

  const phone = await openPage(PHONE, `#/market/${market.id}`);
  await marketReady(phone);
  await phone.waitForSelector("#comments li");
  assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "no sideways scrolling at 375 px");
  await shot(phone, "market-phone");
  assertClean(phone);
  await phone.close();
  await page.close();
});

test("a real recorded book renders exactly, and an empty-sided book says so", async () => {
  const page = await openPage(DESKTOP, `#/token/${RECORDED_TOKEN}`);
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

  // Cancelling an order that is already gone shows the service's reason.
  const staleId = await page.getAttribute("#orders-body tr:first-child", "data-order-id");
  await signed(demo, "DELETE", "/order", "", JSON.stringify({ orderId: staleId }));
  await page.click("#orders-body tr:first-child button.danger");
  await page.click("#confirm-ok");
  await page.waitForSelector("#cancel-result .result-box[data-refused='1']");
  assert.match(await page.textContent("#cancel-result"), /Not canceled: 1.*order already canceled/s);
  assert.equal(await page.locator(`#orders-body tr[data-order-id="${staleId}"]`).count(), 0, "a gone order leaves the list");
  await shot(page, "orders-result-desktop", false);

  // Signing out forgets the account.
  await page.click("#signout");
  await page.waitForSelector("#signin:not([hidden])");
  assert.equal(await page.isVisible("#account"), false);
  assertClean(page);
  await page.close();

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
  await waitForStatus(page, "#service-status", /Connected to 127\.0\.0\.1:9/);
  assert.equal(await page.textContent("#service-host"), "127.0.0.1:9");
  await page.waitForSelector("#events-error .error-box", { timeout: 15_000 });
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
  await page.close();
});
