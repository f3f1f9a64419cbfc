// PredictKit Watch's popup: shows what the service worker keeps (it asks for its state every second) and sends
// new settings to it. It never reads the stored credentials: the worker keeps them and tells their address.
const $ = (id) => document.getElementById(id);

function cell(text, className) {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function rows(table, list, empty, columns) {
  const body = $(table).tBodies[0];
  body.replaceChildren(...(list.length ? list.map((item) => {
    const tr = document.createElement("tr");
    tr.dataset.id = item.id ?? "";
    tr.append(...columns(item));
    return tr;
  }) : [(() => { const tr = document.createElement("tr"); tr.append(cell(empty, "empty")); tr.firstChild.colSpan = 4; return tr; })()]));
}

const cents = (p) => (p == null ? "–" : `${(p * 100).toFixed(1).replace(/\.0$/, "")}¢`);
const short = (id) => (id.length > 14 ? `${id.slice(0, 6)}…${id.slice(-6)}` : id);

function render(s) {
  $("streams").textContent = `market ${s.market} · user ${s.user}`;
  $("streams").className = `pill ${s.market === "open" || s.user === "open" ? "good" : ""}`;
  rows("prices", s.watchlist.map((token) => ({ id: token, ...s.prices[token] })), "No markets watched: add token ids in Settings.", (p) => [
    cell(short(p.id), "mono"), cell(cents(p.bid)), cell(cents(p.ask)), cell(p.verified ? "verified ✓" : p.at ? "checking…" : "waiting"),
  ]);
  $("account").textContent = s.account ? `(${short(s.account)})` : "(no account)";
  rows("orders", Object.values(s.orders), s.account ? "No open orders." : "Add API credentials in Settings.", (o) => [
    cell(o.side), cell(o.price), cell(o.size), cell(o.matched),
  ]);
  rows("fills", s.fills, "No fills yet.", (f) => [cell(f.side), cell(f.size), cell(f.price), cell(f.status)]);
  const d = s.deadman;
  $("deadman").textContent = d.status;
  $("deadman").className = `pill ${d.status === "ok" ? "good" : d.status === "lost" || d.status === "late" ? "bad" : ""}`;
  $("deadman-detail").textContent = d.status === "off" ? "" : `${d.beats ?? 0} heartbeats${d.lastOkAt ? `, last ${new Date(d.lastOkAt).toLocaleTimeString()}` : ""}${d.reason ? ` (${d.reason})` : ""}`;
  $("problem").hidden = !s.problem;
  $("problem").textContent = s.problem ?? "";
}

let filled = false;
async function refresh() {
  const s = await chrome.runtime.sendMessage({ type: "state" });
  if (!s) return;
  render(s);
  if (!filled) {
    filled = true;
    const form = $("settings");
    form.baseUrl.value = s.baseUrl;
    form.watchlist.value = s.watchlist.join("\n");
    form.deadman.checked = s.deadman.status !== "off";
  }
}

$("settings").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.target;
  const message = {
    type: "settings",
    baseUrl: form.baseUrl.value,
    watchlist: form.watchlist.value.split(/\s+/).filter(Boolean),
    deadman: form.deadman.checked,
  };
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
