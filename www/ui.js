// Small DOM and formatting helpers shared by the views. No framework: elements are built with `h()`
// and text is always set through textContent, so nothing from the service is parsed as HTML.

/** Creates an element: `h("a", { href, class: "x", onclick }, "text", child)`. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style") el.style.cssText = value;
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key in el && !key.includes("-")) el[key] = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

export const $ = (id) => document.getElementById(id);

// Prices, sizes and dollar amounts are written by format.js, the one way the page (and the extension) writes them.
export { formatPrice, formatShares, formatUsd, plural, notATokenId } from "./format.js";

const usdFormat = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 2 });
const usdCompact = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", notation: "compact", maximumFractionDigits: 1 });
const numberFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
const dateFormat = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric" });
const dateTimeFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });

export const usd = (n) => (Number.isFinite(Number(n)) ? usdFormat.format(Number(n)) : "–");
export const usdShort = (n) => (Number.isFinite(Number(n)) ? usdCompact.format(Number(n)) : "–");
export const num = (n) => (Number.isFinite(Number(n)) ? numberFormat.format(Number(n)) : "–");
export const date = (iso) => (iso ? dateFormat.format(new Date(iso)) : "–");
export const dateTime = (d) => dateTimeFormat.format(d instanceof Date ? d : new Date(d));
export const shortId = (id) => (id && id.length > 14 ? `${id.slice(0, 6)}…${id.slice(-4)}` : id ?? "");

/** Parses the JSON-text fields of a catalog market (`outcomes`, `clobTokenIds`, `outcomePrices`). */
export function jsonList(text) {
  if (Array.isArray(text)) return text;
  try {
    const value = JSON.parse(text ?? "[]");
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

/** What the ticket calls the order parameters the library may refuse. */
const FIELD_NAMES = { price: "Price", size: "Shares", amount: "Amount", expiration: "Expiry", postOnly: "Post only", orderType: "Order type" };

/**
 * What the user reads for each PredictKitError code. `error` fills in the details the library gives
 * (the HTTP status, the parameter at fault, Retry-After).
 */
export const ERROR_MESSAGES = {
  // The library's message is "param: rule (the values that apply); nearest …": said with the field's name.
  INVALID_PARAMS: (e) => {
    const rule = e.param && e.message.startsWith(`${e.param}: `) ? e.message.slice(e.param.length + 2) : e.message;
    const field = FIELD_NAMES[e.param];
    return field ? `${field} ${rule}. Nothing was sent.` : `That request is not valid${e.param ? ` (${e.param})` : ""}: ${rule}. Nothing was sent.`;
  },
  UNAUTHORIZED: () => "The service did not accept these credentials. Check them and sign in again.",
  FORBIDDEN: () => "This account is not allowed to do that.",
  NOT_FOUND: () => "The service has no such item.",
  RATE_LIMITED: (e) =>
    `The service is busy and asked us to slow down${e.retryAfterMs ? ` (retry in ${Math.ceil(e.retryAfterMs / 1000)} s)` : ""}. Try again in a moment.`,
  SERVER: (e) => `The service had a problem${e.status ? ` (HTTP ${e.status})` : ""}. Try again shortly.`,
  API: (e) => e.finding
    ? `The service refused it because of how the account is set up: ${e.finding.fix}.`
    : `The service refused the request${e.status ? ` (HTTP ${e.status})` : ""}${e.body ? `: ${e.body}` : "."}`,
  NETWORK: () => "The service cannot be reached. Check the base URL and your connection.",
  TIMEOUT: () => "The service took too long to answer. Try again.",
  ABORTED: () => "The request was canceled.",
  DECODE: () => "The service sent an answer that could not be read.",
  NO_MATCH: () => "The order book cannot fill that amount.",
  ENGINE_RESTARTING: () => "The service's matching engine is restarting; nothing was changed. Try again in a minute or two.",
  TRADING_PAUSED: (e) => e.mode === "post-only"
    ? "Trading is post-only for now: only orders that rest (post-only) and cancellations are accepted."
    : "Trading is cancel-only for now: new orders are refused, but you can cancel orders.",
};

/** A human sentence for any error; `isPredictKitError` is the library's guard. */
export function describeError(error, isPredictKitError) {
  if (isPredictKitError(error)) {
    const message = ERROR_MESSAGES[error.code];
    return message ? message(error) : `${error.code}: ${error.message}`;
  }
  return "Something went wrong in the page. Reload to try again.";
}

/** An inline error box with an optional retry button. */
export function errorBox(message, retry) {
  return h("div", { class: "error-box", role: "alert" },
    h("p", {}, message),
    retry && h("button", { type: "button", class: "secondary", onclick: retry }, "Try again"));
}

/** Placeholder cards while a list loads. */
export function skeletons(count, className = "skeleton") {
  return Array.from({ length: count }, () => h("li", { class: className, "aria-hidden": "true" }));
}

/**
 * Asks for confirmation in the page's <dialog>. Resolves true when the user confirms; Escape and the
 * keep button resolve false. Focus starts on the safe choice and returns to the opener afterwards.
 */
export function confirmDialog({ title, body, confirmLabel, cancelLabel = "Keep" }) {
  const dialog = $("confirm");
  const opener = document.activeElement;
  $("confirm-title").textContent = title;
  $("confirm-body").replaceChildren(...[body].flat().map((b) => (b instanceof Node ? b : h("p", {}, b))));
  $("confirm-ok").textContent = confirmLabel;
  $("confirm-cancel").textContent = cancelLabel;
  dialog.returnValue = "";
  dialog.showModal();
  $("confirm-cancel").focus();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
      resolve(dialog.returnValue === "confirm");
    }, { once: true });
  });
}

/** Runs `work` with at most `limit` at once. */
export async function pool(items, limit, work) {
  const results = new Array(items.length);
  let next = 0;
  async function worker() {
    while (next < items.length) {
      const i = next++;
      try {
        results[i] = { ok: true, value: await work(items[i], i) };
      } catch (error) {
        results[i] = { ok: false, error };
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
