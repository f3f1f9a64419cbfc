// PredictKit Watch: the extension's service worker. It holds everything that talks to the service: the
// watchlist's market stream (live books checked against the service's hash after every change; the badge
// shows the first market's best bid), the account's user stream (open orders and fills; a notification on
// each fill) and the account's dead-man switch (client.heartbeats). The API credentials live in the
// extension's storage and are read here only: the popup sends them once and is told the address, never the
// secret. The open sockets keep this worker alive past the browser's idle limit (their PINGs), and with it
// the switch's timers.
import init, { Client } from "./predictkit/index.mjs";

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
  problem: null,
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
  });
  let client;
  try {
    client = new Client({ baseUrl: s.baseUrl, ...(s.credentials && { credentials: s.credentials }) });
  } catch (error) {
    state.problem = `${error.code}: ${error.message}`;
    return;
  }
  const mine = { client, apiKey: s.credentials?.apiKey };
  session = mine;
  if (s.watchlist.length) mine.market = client.marketStream(s.watchlist, { onEvent: (e) => onMarket(mine, e) });
  if (!s.credentials) return badge();
  mine.user = client.userStream([], { onEvent: (e) => onUser(mine, e) });
  if (s.deadman) mine.deadman = client.heartbeats({ onStatus: (e) => session === mine && (state.deadman = e) });
  try {
    for await (const order of client.getOpenOrders()) if (session === mine) state.orders[order.id] ??= orderOf(order);
  } catch (error) {
    if (session === mine) state.problem = `${error.code}: ${error.message}`;
  }
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
  quietly(chrome.action.setBadgeText({ text: first?.bid == null ? "" : `${Math.round(first.bid * 100)}¢` }));
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
  if (event.event_type === "status") state.user = event.status;
  else if (event.event_type === "order") {
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
    const fill = { id: event.id, side, size: String(size), price: String(price), status: event.status, at: Date.now() };
    state.fills = [fill, ...state.fills].slice(0, MAX_FILLS);
    quietly(chrome.notifications.create(`fill-${event.id}`, {
      type: "basic", iconUrl: "icon.png", title: "Order filled",
      message: `${side} ${size} at ${price} (${event.status})`,
    }));
  }
}

/** The settings the popup sends, checked: nothing else is stored. */
function checked(message) {
  const s = {};
  if (typeof message.baseUrl === "string" && message.baseUrl.length <= 200) s.baseUrl = message.baseUrl.trim();
  if (Array.isArray(message.watchlist)) {
    s.watchlist = message.watchlist.filter((t) => typeof t === "string" && /^\d{1,100}$/.test(t)).slice(0, MAX_WATCHED);
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

chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
  if (sender.id !== chrome.runtime.id || typeof message !== "object" || message === null) return false;
  if (message.type === "state") {
    sendResponse(state);
    return false;
  }
  if (message.type === "settings") {
    Promise.resolve().then(() => chrome.storage.local.set(checked(message))).then(restart).then(
      () => sendResponse({ ok: true, problem: state.problem }),
      (error) => sendResponse({ ok: false, problem: String(error?.message ?? error) }),
    );
    return true;
  }
  return false;
});

restart();
