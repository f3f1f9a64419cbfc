// The PredictKit demo: plain ES modules importing the web build of PredictKit from the same origin.
// app.js owns the Client (one per service, recreated when the base URL or the account changes), the
// retry notice, the router and the views' shared context.
import init, { Client, OrderBook, isPredictKitError } from "../pkg/index.mjs";
import { $, describeError } from "./ui.js";
import { eventsView } from "./events.js";
import { marketView } from "./market.js";
import { ordersView } from "./orders.js";
import { ticketView } from "./ticket.js";
import { tradesView } from "./trades.js";
import { serviceHealth } from "./connection.js";

const LOCAL_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

/** What every view shares. Credentials are never kept here: only the Client holds them. */
const ctx = {
  client: null,
  baseUrl: location.origin,
  /** The signed-in wallet address, or null. */
  account: null,
  OrderBook,
  isLocal: LOCAL_HOSTS.includes(location.hostname),
  describe: (error) => describeError(error, isPredictKitError),
  isAbort: (error) => isPredictKitError(error) && error.code === "ABORTED",
  isPredictKitError,
  connectListeners: [],
  placedListeners: [],
  releaseListeners: [],
  tradeListeners: [],
  bookListeners: [],
  answerListeners: [],

  /**
   * Points the page at `baseUrl`, with the account's credentials or none. Throws INVALID_PARAMS for a
   * bad URL or bad credentials, leaving the current client in place. The old client is freed.
   */
  connect(baseUrl, credentials, trading = {}) {
    // The local emulator is a development chain (Amoy's id); a real service signs for Polygon. A connected
    // wallet says its own chain, and the account doctor the signature type and funder its orders need.
    const settings = {
      chainId: trading.chainId ?? (new URL(baseUrl).hostname === location.hostname && this.isLocal ? 80002 : 137),
      signatureType: trading.signatureType ?? "EOA",
      funder: trading.funder,
    };
    const client = new Client({
      baseUrl,
      credentials,
      fetch: (input, init) => answered(input, init),
      ...settings,
      timeoutMs: 15_000,
      maxRetries: 2,
      onEvent: showRetryNotice,
    });
    const host = new URL(baseUrl).host;
    // Streams opened by the old client close before it is freed (sign-in, sign-out, base-URL change).
    for (const listener of this.releaseListeners) listener();
    const previous = this.client;
    const serviceChanged = baseUrl !== this.baseUrl;
    this.client = client;
    this.trading = settings;
    this.baseUrl = baseUrl;
    this.account = credentials ? credentials.address : null;
    this.signer = null;
    previous?.free();
    $("service-host").textContent = host;
    if (serviceChanged || !previous) seen = health.connect(baseUrl);
    for (const listener of this.connectListeners) listener({ serviceChanged });
  },
  /** The wallet that signs orders, once connected (its API key is in the current client). */
  signer: null,
  /** The current client's trading settings: `{ chainId, signatureType, funder }`. */
  trading: {},
  /** The wallet's API key is now the client's: the account is the wallet's, and the views reload. */
  useWallet(signer) {
    this.signer = signer;
    this.account = signer.address;
    for (const listener of this.connectListeners) listener({ serviceChanged: false });
  },
  /** `listener(orderId)` runs when this page has placed an order (its answer is in before any stream event). */
  onPlaced(listener) {
    this.placedListeners.push(listener);
  },
  placed(orderId) {
    for (const listener of this.placedListeners) listener(orderId);
  },
  /** `listener(url, status, sentAt)` runs for each answer the current client's requests get. */
  onAnswer(listener) {
    this.answerListeners.push(listener);
  },
  /** `listener()` runs when the market page has drawn its book (a new one, or a change to it). */
  onBook(listener) {
    this.bookListeners.push(listener);
  },
  bookShown() {
    for (const listener of this.bookListeners) listener();
  },
  /** `listener(event)` runs for each `trade` event of the signed-in account's user channel. */
  onTrade(listener) {
    this.tradeListeners.push(listener);
  },
  trade(event) {
    for (const listener of this.tradeListeners) listener(event);
  },
  /** A view's stream changed its status (`null` once closed): the header's pill hears it. */
  socket(name, status) {
    health.socket(name, status);
  },
  /** `listener()` runs when the service answers again after an outage or a lost connection. */
  onRecovered(listener) {
    health.onRecovered(listener);
  },
  /** The outcome the market page shows ({ tokenId, conditionId }), set by the market view. */
  marketTarget: () => ({}),
  onConnect(listener) {
    this.connectListeners.push(listener);
  },
  /** `listener()` runs when the current client is about to be replaced: close what it opened. */
  onRelease(listener) {
    this.releaseListeners.push(listener);
  },
  /**
   * Call when a request has settled. The retry notice goes once the retried attempt has been sent: a
   * request that settles while another one still waits to retry leaves it up.
   */
  settled() {
    if (Date.now() >= retryDueAt) hideRetryNotice();
  },
};

// --- What the last requests and sockets saw of the service (the header's pill) -----------------------

const health = serviceHealth({
  summary: $("service-summary"),
  label: $("service-state"),
  detail: $("service-health"),
  probe: (signal) => ctx.client?.getOk({ signal, maxRetries: 0, timeoutMs: 5000 }),
});
/** The current client's fetch: every answer and failure is seen by `health`. */
let seen = (input, init) => fetch(input, init);

/**
 * The current client's fetch as the views see it: each answer's URL, status and the time its request was sent to
 * `ctx.onAnswer`'s listeners.
 */
async function answered(input, init) {
  const sentAt = Date.now();
  const response = await seen(input, init);
  const url = typeof input === "string" ? input : String(input?.url ?? input);
  for (const listener of ctx.answerListeners) {
    try {
      listener(url, response.status, sentAt);
    } catch {
      // (a view's listener does not stop the request)
    }
  }
  return response;
}

// --- Retry and rate-limit notice (ClientOptions.onEvent) --------------------------------------------

let noticeTimer = 0;
/** When the latest announced retry or wait is over. */
let retryDueAt = 0;

function showRetryNotice(event) {
  // The service's rate-limit headers: a spent bucket's wait is announced as a "wait" event of its own.
  if (event.type === "rateLimit") return;
  const seconds = (event.delayMs / 1000).toFixed(1);
  const where = `${event.method} ${event.path}`;
  let text;
  if (event.type === "retry") {
    const code = event.error?.code;
    const why = code === "RATE_LIMITED" ? "The service is rate limiting us"
      : code === "SERVER" ? `The service answered ${event.error.status ?? "an error"}`
      : code === "TIMEOUT" ? "The service is slow"
      : "A request failed";
    text = `${why}. Retrying ${where} in ${seconds} s (retry ${event.attempt}).`;
  } else {
    text = `Pacing requests to stay within the service's rate limits: ${where} goes in ${seconds} s.`;
  }
  const notice = $("notice");
  notice.dataset.kind = event.type;
  $("notice-text").textContent = text;
  notice.hidden = false;
  retryDueAt = Date.now() + event.delayMs;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(hideRetryNotice, event.delayMs + 3000);
}

function hideRetryNotice() {
  clearTimeout(noticeTimer);
  $("notice").hidden = true;
}

// --- Service settings ------------------------------------------------------------------------------

function setUpServiceForm() {
  const input = $("base-url");
  input.value = ctx.baseUrl;
  $("service-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const url = input.value.trim().replace(/\/+$/, "");
    const status = $("service-status");
    try {
      ctx.connect(url);
      // Whether it answers is the pill's to say, once it has.
      status.textContent = `Switched to ${new URL(url).host}. Signed out.`;
      status.className = "form-status ok";
    } catch (error) {
      status.textContent = ctx.describe(error);
      status.className = "form-status bad";
    }
  });
}

// --- Router ----------------------------------------------------------------------------------------

const views = {};
let current = null;

function route() {
  const [, name = "", first, second] = (location.hash || "#/").split("/").map(decodeURIComponent);
  let view;
  let params = {};
  if (name === "market" && first) {
    view = "market";
    params = { marketId: first, outcome: Number(second) || 0 };
  } else if (name === "token" && first) {
    view = "market";
    params = { tokenId: first };
  } else if (name === "orders") {
    view = "orders";
  } else {
    view = "events";
  }
  const changed = current !== view;
  if (changed && current) views[current].hide();
  for (const [key, section] of Object.entries({ events: "view-events", market: "view-market", orders: "view-orders" })) {
    $(section).hidden = key !== view;
  }
  for (const link of document.querySelectorAll("[data-nav]")) {
    const active = link.dataset.nav === (view === "market" ? "events" : view);
    if (active) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  const first_ = current === null;
  current = view;
  views[view].show(params);
  // Move focus to the new view's heading so keyboard and screen-reader users land in it.
  if (!first_ && changed) document.querySelector(`#view-${view} h1`)?.focus({ preventScroll: true });
  if (!first_) window.scrollTo({ top: 0 });
}

// --- Start ----------------------------------------------------------------------------------------

try {
  await init();
  ctx.connect(location.origin);
  views.events = eventsView(ctx);
  views.market = marketView(ctx);
  views.orders = ordersView(ctx);
  tradesView(ctx);
  ticketView(ctx, () => ctx.marketTarget());
  setUpServiceForm();
  $("notice-dismiss").addEventListener("click", hideRetryNotice);
  window.addEventListener("hashchange", route);
  route();
} catch (error) {
  $("boot-error").hidden = false;
  $("boot-error").textContent = `PredictKit could not start: ${error?.message ?? error}. Build the package (cargo xtask build) and reload.`;
}
