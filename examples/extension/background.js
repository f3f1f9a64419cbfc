// PredictKit Watch: the extension's service worker. It holds everything that talks to the service: the
// watchlist's market stream (live books checked against the service's hash after every change; the badge
// shows the first market's best bid), the account's user stream (open orders and fills; a notification on
// each fill) and the account's dead-man switch (client.heartbeats). The API credentials live in the
// extension's storage and are read here only: the popup sends them once and is told the address, never the
// secret. The open sockets keep this worker alive past the browser's idle limit (their PINGs), and with it
// the switch's timers.
//
// Every request of the worker's client goes through `seeing` (ClientOptions.fetch): the popup is told what the
// last answer was (or that nothing answered), and each accepted heartbeat as it comes, with its count and
// time (the switch's onStatus tells only changes of status).
//
// While the switch is on, new settings that move it off its API key or its service (other credentials, another
// service URL) stop that key's heartbeats, and the service then cancels all of that key's orders: such settings
// are not stored until the popup has warned and the user has confirmed, and the popup is told afterwards what
// was stopped (`state.switchStopped`).
import init, { Client } from "./predictkit/index.mjs";
import { formatPrice, formatShares, notATokenId } from "./format.js";

const DEFAULTS = { baseUrl: "http://127.0.0.1:8787", watchlist: [], deadman: false, credentials: null };
const MAX_WATCHED = 20;
const MAX_FILLS = 50;

/** What the popup shows. */
const state = {
  startedAt: Date.now(),
  baseUrl: DEFAULTS.baseUrl,
  watchlist: [],
  account: null,
  market: "closed",
  user: "closed",
  prices: {},
  orders: {},
  fills: [],
  deadman: { status: "off" },
  /** What the last request met: { state: checking | ok | error | unreachable, why, at }. */
  service: { state: "checking" },
  /** Whether the open orders were read: loading, ok, or failed (with `ordersProblem`). */
  ordersState: "loading",
  ordersProblem: null,
  /** condition id → the market's question, for the fills. */
  markets: {},
  problem: null,
  /** The switch these settings stopped, if the last change did: { address, baseUrl, orders, lastBeatAt, at }. */
  switchStopped: null,
};

/** The running session: the client and what it opened. */
let session = null;
let ready;
let starting = Promise.resolve();

function loadModule() {
  // A failed load is tried again at the next start, not kept.
  ready ??= init({ module_or_path: chrome.runtime.getURL("predictkit/web/predictkit_bg.wasm") }).catch((error) => {
    ready = undefined;
    throw error;
  });
  return ready;
}

/** A browser API's promise, whose failure only the state shows. */
function quietly(promise) {
  Promise.resolve(promise).catch((error) => (state.problem = String(error?.message ?? error)));
}

async function settings() {
  return { ...DEFAULTS, ...(await chrome.storage.local.get(Object.keys(DEFAULTS))) };
}

function stopSession() {
  if (!session) return;
  const { client, market, user, deadman } = session;
  session = null;
  deadman?.stop();
  market?.close();
  user?.close();
  client.free();
}

/** (Re)starts everything from the stored settings; one start at a time. */
function restart() {
  starting = starting.then(startSession, startSession).catch((error) => {
    state.problem = `${error?.code ?? "ERROR"}: ${error?.message ?? error}`;
  });
  return starting;
}

async function startSession() {
  stopSession();
  await loadModule();
  const s = await settings();
  Object.assign(state, {
    baseUrl: s.baseUrl, watchlist: s.watchlist, account: s.credentials?.address ?? null, prices: {}, orders: {},
    fills: [], market: "closed", user: "closed", deadman: { status: s.deadman && s.credentials ? "starting" : "off" }, problem: null,
    service: { state: "checking" }, ordersState: s.credentials ? "loading" : "ok", ordersProblem: null, markets: {},
  });
  const mine = { apiKey: s.credentials?.apiKey, beats: 0, lastBeatAt: 0, userDown: false };
  let client;
  try {
    client = new Client({ baseUrl: s.baseUrl, fetch: seeing(mine), ...(s.credentials && { credentials: s.credentials }) });
  } catch (error) {
    state.problem = `${error.code}: ${error.message}`;
    return;
  }
  mine.client = client;
  session = mine;
  if (s.watchlist.length) mine.market = client.marketStream(s.watchlist, { onEvent: (e) => onMarket(mine, e) });
  if (!s.credentials) return badge();
  mine.user = client.userStream([], { onEvent: (e) => onUser(mine, e) });
  if (s.deadman) mine.deadman = client.heartbeats({ onStatus: (e) => session === mine && (state.deadman = withBeats(mine, e)) });
  await loadOrders(mine);
}

/** Reads the account's open orders; a failure is shown as such (not as "no open orders"). */
async function loadOrders(mine) {
  if (mine.loading) return;
  mine.loading = true;
  const found = {};
  try {
    for await (const order of mine.client.getOpenOrders()) found[order.id] = orderOf(order);
    if (session !== mine) return;
    // Events that came meanwhile are newer than the pages read before them.
    state.orders = { ...found, ...Object.fromEntries(Object.entries(state.orders).filter(([id]) => found[id])) };
    state.ordersState = "ok";
    state.ordersProblem = null;
  } catch (error) {
    if (session !== mine) return;
    state.ordersState = "failed";
    state.ordersProblem = describe(error);
  } finally {
    mine.loading = false;
  }
}

/** A sentence for an error of the client. */
function describe(error) {
  if (error?.code === "NETWORK") return "the service cannot be reached";
  if (error?.code === "SERVER") return `the service is not answering (HTTP ${error.status ?? "5xx"})`;
  if (error?.code === "TIMEOUT") return "the service took too long to answer";
  return `${error?.code ?? "ERROR"}: ${error?.message ?? error}`;
}

/**
 * The fetch of the session's client: each answer says the service is there (or has a problem), a failure to
 * connect that it cannot be reached, and each accepted heartbeat is counted as it comes.
 */
function seeing(mine) {
  return (input, init) => fetch(input, init).then((response) => {
    if (session !== mine) return response;
    const s = response.status;
    state.service = s >= 500 ? { state: "error", why: `HTTP ${s}`, at: Date.now() } : { state: "ok", at: Date.now() };
    if (response.ok && (init?.method ?? "GET").toUpperCase() === "POST" && new URL(String(input)).pathname.endsWith("/v1/heartbeats")) {
      mine.beats += 1;
      mine.lastBeatAt = Date.now();
      state.deadman = withBeats(mine, state.deadman);
    }
    // The service answers again: the orders it could not list are read again.
    if (state.ordersState === "failed" && s < 500 && !mine.loading && mine.user) setTimeout(() => session === mine && loadOrders(mine), 0);
    return response;
  }, (error) => {
    if (session === mine && !init?.signal?.aborted) state.service = { state: "unreachable", at: Date.now() };
    throw error;
  });
}

/** The switch's last event, with the beats counted as they came. */
function withBeats(mine, event) {
  return { ...event, beats: Math.max(event.beats ?? 0, mine.beats), lastOkAt: Math.max(event.lastOkAt ?? 0, mine.lastBeatAt) || undefined };
}

function onMarket(mine, event) {
  if (session !== mine) return;
  if (event.event_type === "status") state.market = event.status;
  if (event.event_type !== "book_update") return;
  const book = mine.market.book(event.asset_id);
  if (!book) return;
  state.prices[event.asset_id] = { bid: book.bestBidPrice() ?? null, ask: book.bestAskPrice() ?? null, verified: event.verified, at: Date.now() };
  book.free();
  badge();
}

function badge() {
  const first = state.prices[state.watchlist[0]];
  quietly(chrome.action.setBadgeText({ text: first?.bid == null ? "" : formatPrice(first.bid) }));
  quietly(chrome.action.setBadgeBackgroundColor({ color: first?.verified ? "#16a06e" : "#8a8f98" }));
}

/** What the popup lists of an order (from GET /data/orders or the user channel). */
function orderOf(o) {
  return {
    id: o.id, side: o.side, price: o.price, size: o.original_size ?? o.originalSize,
    matched: o.size_matched ?? o.sizeMatched ?? "0", outcome: o.outcome ?? "",
  };
}

function onUser(mine, event) {
  if (session !== mine) return;
  if (event.event_type === "status") {
    state.user = event.status;
    if (event.status === "reconnecting") mine.userDown = true;
    // Events sent while the socket was down are lost: read the list again once it is back.
    if (event.status === "open" && (mine.userDown || state.ordersState === "failed")) {
      mine.userDown = false;
      loadOrders(mine);
    }
  } else if (event.event_type === "order") {
    const order = orderOf(event);
    if (event.type === "CANCELLATION" || Number(order.matched) >= Number(order.size)) delete state.orders[event.id];
    else state.orders[event.id] = { ...state.orders[event.id], ...order };
  } else if (event.event_type === "trade") {
    const known = state.fills.find((f) => f.id === event.id);
    if (known) {
      known.status = event.status;
      return;
    }
    // The account's side of it: its maker orders when it made the trade, else the taker's side.
    const made = (Array.isArray(event.maker_orders) ? event.maker_orders : []).filter((m) => m?.owner === mine.apiKey);
    const side = made[0]?.side ?? event.side;
    const size = made.length ? made.reduce((sum, m) => sum + Number(m.matched_amount), 0) : Number(event.size);
    const price = Number(made[0]?.price ?? event.price);
    const outcome = made[0]?.outcome ?? event.outcome ?? "";
    const fill = { id: event.id, market: event.market ?? "", outcome, side, size: String(size), price: String(price), status: event.status, at: Date.now() };
    if (event.market && !(event.market in state.markets)) {
      state.markets[event.market] = null;
      mine.client.getMarket(event.market).then((m) => { if (session === mine) state.markets[event.market] = m.question; }, () => {
        if (session === mine) delete state.markets[event.market];
      });
    }
    state.fills = [fill, ...state.fills].slice(0, MAX_FILLS);
    quietly(chrome.notifications.create(`fill-${event.id}`, {
      type: "basic", iconUrl: "icon.png", title: "Order filled",
      message: `${side} ${formatShares(size)} of ${outcome || "the outcome"} at ${formatPrice(price)} (${event.status})`,
    }));
  }
}

/**
 * What `next` would stop of the running switch: the account it beats for, at which service, with how many open
 * orders (null when they could not be read) and what changes; or null when the switch is off or keeps beating for
 * the same API key at the same service.
 */
function switchStops(old, next) {
  const running = session?.deadman && session.deadman.status !== "stopped";
  if (!running || !old.deadman || !old.credentials) return null;
  const service = next.baseUrl !== undefined && next.baseUrl !== old.baseUrl;
  const credentials = next.credentials !== undefined && next.credentials?.apiKey !== old.credentials.apiKey;
  if (!service && !credentials) return null;
  return {
    address: old.credentials.address, baseUrl: old.baseUrl, service, credentials,
    orders: state.ordersState === "ok" ? Object.keys(state.orders).length : null,
    lastBeatAt: session.lastBeatAt || null,
  };
}

/** The settings the popup sends, checked: nothing else is stored; an id that is not a token id is refused. */
async function checked(message) {
  const s = {};
  if (typeof message.baseUrl === "string" && message.baseUrl.length <= 200) s.baseUrl = message.baseUrl.trim();
  if (Array.isArray(message.watchlist)) {
    const ids = message.watchlist.filter((t) => typeof t === "string").map((t) => t.trim()).filter(Boolean);
    const wrong = ids.map(notATokenId).filter(Boolean);
    if (wrong.length) throw new Error(`${wrong.join("; ")}. Paste each outcome's token id (the demo's market page lists them, each with a Copy button).`);
    if (ids.length > MAX_WATCHED) throw new Error(`at most ${MAX_WATCHED} token ids can be watched`);
    s.watchlist = [...new Set(ids)];
    await knownTokens(s.baseUrl ?? (await settings()).baseUrl, s.watchlist);
  }
  if (typeof message.deadman === "boolean") s.deadman = message.deadman;
  const c = message.credentials;
  if (c === null) s.credentials = null;
  else if (c !== undefined) {
    const { address, apiKey, secret, passphrase } = c && typeof c === "object" ? c : {};
    if (![address, apiKey, secret, passphrase].every((v) => typeof v === "string" && v.length > 0 && v.length <= 200)) {
      throw new Error("the credentials must be { address, apiKey, secret, passphrase }, each text");
    }
    s.credentials = { address, apiKey, secret, passphrase };
  }
  return s;
}

/**
 * Asks the service for the book of each id: one it has no book for is refused (a market's id is a decimal number
 * too). When the service cannot be asked, the ids are kept: the watchlist then says what it meets.
 */
async function knownTokens(baseUrl, ids) {
  if (!ids.length) return;
  await loadModule();
  let client;
  try {
    client = new Client({ baseUrl, maxRetries: 1 });
  } catch {
    return; // the base URL's own problem is the session's to show
  }
  try {
    const unknown = (await Promise.all(ids.map((id) => client.getBook(id).then((book) => {
      book.free();
      return "";
    }, (error) => (error?.code === "NOT_FOUND" ? id : ""))))).filter(Boolean);
    if (unknown.length) {
      const list = unknown.map((id) => (id.length > 14 ? `${id.slice(0, 6)}…${id.slice(-6)}` : id)).join(", ");
      throw new Error(`the service has no order book for ${list}: ${unknown.length === 1 ? "it is" : "they are"} not a token id (a market's id?). Paste each outcome's token id (the demo's market page lists them, each with a Copy button).`);
    }
  } finally {
    client.free();
  }
}

/**
 * Stores and applies new settings. Settings that would stop the running switch's heartbeats for its key are
 * answered `{ ok: false, confirm }` (what they would stop) and not stored, unless the message says `confirmed`.
 */
async function saveSettings(message) {
  const next = await checked(message);
  const stops = switchStops(await settings(), next);
  if (stops && message.confirmed !== true) return { ok: false, confirm: stops };
  await chrome.storage.local.set(next);
  await restart();
  state.switchStopped = stops && { ...stops, at: Date.now() };
  return { ok: true, problem: state.problem, stopped: state.switchStopped };
}

chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
  if (sender.id !== chrome.runtime.id || typeof message !== "object" || message === null) return false;
  if (message.type === "state") {
    sendResponse(state);
    return false;
  }
  if (message.type === "settings") {
    saveSettings(message).then(sendResponse, (error) => sendResponse({ ok: false, problem: String(error?.message ?? error) }));
    return true;
  }
  return false;
});

restart();
