// PredictKit Watch's popup: shows what the service worker keeps (it asks for its state every second) and sends
// new settings to it. It never reads the stored credentials: the worker keeps them and tells their address.
// Prices, sizes and amounts are written as the demo page writes them (format.js).
//
// New settings that would stop the running dead-man switch's heartbeats for its API key (other credentials,
// another service) come back from the worker unsaved, with what they would stop: the popup says that the
// service will then cancel that key's orders, and sends them again only once the user confirms; "Keep the old
// settings" puts the form back. After the change it says what was stopped.
import { formatPrice, formatShares, notATokenId, plural } from "./format.js";

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

const time = (at) => new Date(at).toLocaleTimeString();

/** The warning before settings that stop the switch's heartbeats (`c`: what the worker says they stop). */
function warningText(c) {
  const what = c.service && c.credentials ? "the service and the credentials" : c.service ? "the service" : "the credentials";
  const orders = c.orders === null ? "" : ` (${plural(c.orders, "open order")} now)`;
  return `The dead-man switch is on for ${short(c.address)} at ${c.baseUrl}. Changing ${what} stops its heartbeats, ` +
    `and that service will then cancel the old API key's orders${orders} 10 s after the last heartbeat. ` +
    "Change the settings anyway, or keep the old ones?";
}

/** What a change of settings stopped (`st`: the worker's `switchStopped`). */
function stoppedText(st) {
  const orders = st.orders === null ? "" : ` (${plural(st.orders, "open order")} then)`;
  return `The heartbeats for ${short(st.address)} at ${st.baseUrl} stopped at ${time(st.at)}: that service cancels ` +
    `the old API key's orders${orders} 10 s after the last heartbeat` + (st.lastBeatAt ? `, by ${time(st.lastBeatAt + 10_000)}.` : ".");
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
  $("deadman-stopped").hidden = !s.switchStopped;
  $("deadman-stopped").textContent = s.switchStopped ? stoppedText(s.switchStopped) : "";
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

/** Settings the worker sent back unconfirmed (they would stop the switch's heartbeats), until the user decides. */
let pending = null;

function hideWarning() {
  pending = null;
  $("settings-warning").hidden = true;
  $("settings-warning-text").textContent = "";
}

/** Sends `message`; settings that would stop the switch are held, and the user is asked first. */
async function send(message) {
  $("settings-result").textContent = "Saving…";
  try {
    const answer = await chrome.runtime.sendMessage(message);
    if (answer?.confirm) {
      pending = message;
      $("settings-warning-text").textContent = warningText(answer.confirm);
      $("settings-warning").hidden = false;
      $("settings-result").textContent = "Not saved yet: the dead-man switch is on (see below).";
      $("settings-keep").focus();
      return;
    }
    $("settings-result").textContent = answer?.ok
      ? (answer.stopped ? `Saved. ${stoppedText(answer.stopped)}` : "Saved.")
      : `Not saved: ${answer?.problem ?? "no answer"}`;
  } catch (error) {
    $("settings-result").textContent = `Not saved: ${error?.message ?? error}`;
  }
  refresh().catch(() => {});
}

$("settings").addEventListener("submit", async (event) => {
  event.preventDefault();
  hideWarning();
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
  // The secret is the worker's now (or, held until the user decides, only this popup's): not left in the page.
  form.credentials.value = "";
  await send(message);
});

$("settings-confirm").addEventListener("click", async () => {
  const message = pending;
  hideWarning();
  if (message) await send({ ...message, confirmed: true });
});

$("settings-keep").addEventListener("click", () => {
  hideWarning();
  // The form shows the settings in use again.
  const form = $("settings");
  if (last) {
    form.baseUrl.value = last.baseUrl;
    form.watchlist.value = last.watchlist.join("\n");
    form.deadman.checked = last.deadman.status !== "off";
  }
  $("settings-result").textContent = "Not saved: the old settings are kept, and the switch keeps beating.";
  form.baseUrl.focus();
});

// While the worker starts, it does not answer: the next refresh will.
const refreshQuietly = () => refresh().catch(() => {});
refreshQuietly();
setInterval(refreshQuietly, 1000);
