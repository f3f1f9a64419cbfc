// PredictKit Watch's popup: shows what the service worker keeps (it asks for its state every second) and sends
// new settings to it. It never reads the stored credentials: the worker keeps them and tells their address.
// Prices, sizes and amounts are written as the demo page writes them (format.js).
import { formatPrice, formatShares, notATokenId } from "./format.js";

const $ = (id) => document.getElementById(id);
/** Open orders shown a page at a time: an account may have hundreds. */
const ORDERS_PAGE = 20;
let ordersPage = 0;

function cell(text, className) {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function rows(table, list, empty, columns) {
  const body = $(table).tBodies[0];
  const span = $(table).tHead.rows[0].cells.length;
  body.replaceChildren(...(list.length ? list.map((item) => {
    const tr = document.createElement("tr");
    tr.dataset.id = item.id ?? "";
    tr.append(...columns(item));
    return tr;
  }) : [(() => { const tr = document.createElement("tr"); tr.append(cell(empty, "empty")); tr.firstChild.colSpan = span; return tr; })()]));
}

const short = (id) => (id.length > 14 ? `${id.slice(0, 6)}…${id.slice(-6)}` : id);

/** What the last request met, in words; "" when the service answers. */
function serviceProblem(s) {
  if (s.service?.state === "unreachable") return `The service at ${s.baseUrl} cannot be reached: nothing answers there.`;
  if (s.service?.state === "error") return `The service at ${s.baseUrl} is not answering (${s.service.why}).`;
  return "";
}

function ago(at) {
  const seconds = Math.max(0, Math.round((Date.now() - at) / 1000));
  return seconds < 2 ? "just now" : `${seconds} s ago`;
}

function render(s) {
  $("streams").textContent = `market ${s.market} · user ${s.user}`;
  $("streams").className = `pill ${s.market === "open" || s.user === "open" ? "good" : ""}`;
  const down = serviceProblem(s);
  $("service").hidden = !down;
  $("service").textContent = down;
  rows("prices", s.watchlist.map((token) => ({ id: token, ...s.prices[token] })), "No markets watched: add token ids in Settings.", (p) => [
    cell(short(p.id), "mono"), cell(formatPrice(p.bid)), cell(formatPrice(p.ask)), cell(p.verified ? "verified ✓" : p.at ? "checking…" : down ? "unreachable" : "waiting"),
  ]);
  $("account").textContent = s.account ? `(${short(s.account)})` : "(no account)";
  const orders = Object.values(s.orders);
  const pages = Math.max(1, Math.ceil(orders.length / ORDERS_PAGE));
  ordersPage = Math.min(ordersPage, pages - 1);
  const first = ordersPage * ORDERS_PAGE;
  const empty = !s.account ? "Add API credentials in Settings."
    : s.ordersState === "failed" ? `Open orders unknown: ${s.ordersProblem}.`
    : s.ordersState === "loading" ? (down ? `Open orders unknown: ${down}` : "Loading…")
    : "No open orders.";
  rows("orders", orders.slice(first, first + ORDERS_PAGE), empty, (o) => [
    cell(o.outcome || "–"), cell(o.side), cell(formatPrice(o.price)), cell(formatShares(o.size, { unit: false })), cell(formatShares(o.matched, { unit: false })),
  ]);
  $("orders-pager").hidden = orders.length <= ORDERS_PAGE;
  $("orders-range").textContent = `${first + 1}–${Math.min(first + ORDERS_PAGE, orders.length)} of ${orders.length}`;
  $("orders-prev").disabled = ordersPage === 0;
  $("orders-next").disabled = ordersPage >= pages - 1;
  rows("fills", s.fills, "No fills yet.", (f) => [
    cell(s.markets?.[f.market] ?? (f.market ? short(f.market) : "–"), "market"), cell(f.outcome || "–"), cell(f.side),
    cell(formatShares(f.size, { unit: false })), cell(formatPrice(f.price)), cell(f.status),
  ]);
  const d = s.deadman;
  $("deadman").textContent = d.status;
  $("deadman").className = `pill ${d.status === "ok" ? "good" : d.status === "lost" || d.status === "late" ? "bad" : ""}`;
  const beats = d.beats ?? 0;
  $("deadman-detail").textContent = d.status === "off" ? "" : `${beats} heartbeat${beats === 1 ? "" : "s"}` +
    (d.lastOkAt ? `, last ${new Date(d.lastOkAt).toLocaleTimeString()} (${ago(d.lastOkAt)})` : "") + (d.reason ? ` (${d.reason})` : "");
  $("deadman-detail").dataset.beats = String(beats);
  $("problem").hidden = !s.problem;
  $("problem").textContent = s.problem ?? "";
}

let filled = false;
let last = null;
async function refresh() {
  const s = await chrome.runtime.sendMessage({ type: "state" });
  if (!s) return;
  last = s;
  render(s);
  if (!filled) {
    filled = true;
    const form = $("settings");
    form.baseUrl.value = s.baseUrl;
    form.watchlist.value = s.watchlist.join("\n");
    form.deadman.checked = s.deadman.status !== "off";
  }
}

$("orders-prev").addEventListener("click", () => { ordersPage -= 1; if (last) render(last); });
$("orders-next").addEventListener("click", () => { ordersPage += 1; if (last) render(last); });

$("settings").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.target;
  const watchlist = form.watchlist.value.split(/\s+/).filter(Boolean);
  // Refused here already (the worker checks again, and asks the service whether it has each book).
  const wrong = watchlist.map(notATokenId).filter(Boolean);
  if (wrong.length) {
    $("settings-result").textContent = `Not saved: ${wrong.join("; ")}. Paste each outcome's token id (the demo's market page lists them, each with a Copy button).`;
    return;
  }
  const message = { type: "settings", baseUrl: form.baseUrl.value, watchlist, deadman: form.deadman.checked };
  if (form.credentials.value.trim()) {
    try {
      message.credentials = JSON.parse(form.credentials.value);
    } catch {
      $("settings-result").textContent = "The credentials are not JSON.";
      return;
    }
  }
  $("settings-result").textContent = "Saving…";
  try {
    const answer = await chrome.runtime.sendMessage(message);
    $("settings-result").textContent = answer?.ok ? "Saved." : `Not saved: ${answer?.problem ?? "no answer"}`;
  } catch (error) {
    $("settings-result").textContent = `Not saved: ${error?.message ?? error}`;
  } finally {
    // The secret is the worker's now (or nobody's): not left in the page.
    form.credentials.value = "";
  }
  refresh().catch(() => {});
});

// While the worker starts, it does not answer: the next refresh will.
const refreshQuietly = () => refresh().catch(() => {});
refreshQuietly();
setInterval(refreshQuietly, 1000);
