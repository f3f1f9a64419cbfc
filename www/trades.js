// My orders' Trades tab and dead-man switch. The tab lists the account's trades (client.getUserTrades) with
// each one's settlement (MATCHED, MINED, CONFIRMED; or RETRYING, FAILED) and transaction, updated in place from
// the user channel's trade events (which come again at each step: the orders view hands them over). The switch
// runs client.heartbeats() while it is on: the service cancels the account's orders if this page stops sending
// them for 10 s; its status is shown (ok, late, lost), with each accepted heartbeat as it comes: their count and
// the time of the last (the switch's onStatus tells only changes of status, so the beats are seen as the
// service's answers to the page client's requests to its heartbeat route: ctx.onAnswer).
import { $, h, formatPrice, formatShares, dateTime, shortId } from "./ui.js";
import { plural } from "./format.js";

const ROWS = 50;

export function tradesView(ctx) {
  const body = $("trades-body");
  const status = $("trades-status");
  const tabs = { orders: $("tab-orders"), trades: $("tab-trades") };
  const panels = { orders: $("orders-panel"), trades: $("trades-panel") };
  /** id → the trade as shown. */
  let trades = new Map();
  let loaded = false;
  let controller = null;

  // --- Tabs ----------------------------------------------------------------------------------------

  function select(name, focus = false) {
    for (const key of Object.keys(tabs)) {
      const on = key === name;
      tabs[key].setAttribute("aria-selected", String(on));
      tabs[key].tabIndex = on ? 0 : -1;
      panels[key].hidden = !on;
    }
    if (focus) tabs[name].focus();
    if (name === "trades" && !loaded) load();
  }
  tabs.orders.addEventListener("click", () => select("orders"));
  tabs.trades.addEventListener("click", () => select("trades"));
  for (const tab of Object.values(tabs)) {
    tab.addEventListener("keydown", (event) => {
      if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
      event.preventDefault();
      select(tab === tabs.orders ? "trades" : "orders", true);
    });
  }

  // --- Trades --------------------------------------------------------------------------------------

  /** A trade's status as the channel writes it (REST adds a TRADE_STATUS_ prefix). */
  const settlement = (s) => String(s ?? "").replace(/^TRADE_STATUS_/, "");

  /** The account's side of a trade: its maker order's, when it made it. */
  function view(t) {
    // (`owner` is the API key of the account it is shown to.)
    const mine = (t.maker_orders ?? []).find((m) => m?.owner && m.owner === t.owner);
    return {
      id: t.id,
      at: Number(t.match_time ?? t.matchtime ?? t.timestamp / 1000) * 1000,
      market: t.market ?? "",
      outcome: mine?.outcome ?? t.outcome ?? "",
      side: mine?.side ?? t.side,
      size: mine?.matched_amount ?? t.size,
      price: mine?.price ?? t.price,
      role: t.trader_side ?? (mine ? "MAKER" : "TAKER"),
      status: settlement(t.status),
      tx: t.transaction_hash || "",
    };
  }

  async function load() {
    controller?.abort();
    controller = new AbortController();
    const client = ctx.client;
    loaded = true;
    status.textContent = "Loading trades…";
    try {
      const page = await client.getUserTrades({}, { signal: controller.signal });
      if (client !== ctx.client) return;
      trades = new Map(page.data.slice(0, ROWS).map((t) => [t.id, view(t)]));
      status.textContent = trades.size ? "" : "No trades yet.";
      render();
    } catch (error) {
      if (ctx.isAbort(error)) return;
      status.textContent = ctx.describe(error);
      loaded = false;
    }
  }

  function row(t) {
    const final = t.status === "CONFIRMED" || t.status === "FAILED";
    return h("tr", { "data-trade-id": t.id },
      h("td", {}, Number.isFinite(t.at) && t.at > 0 ? dateTime(t.at) : "–"),
      marketCell(t.market),
      h("td", { dataset: { label: "Outcome" } }, t.outcome || "–"),
      h("td", {}, t.side),
      h("td", { class: "num" }, formatShares(t.size, { unit: false })),
      h("td", { class: "num" }, formatPrice(t.price)),
      h("td", {}, t.role === "MAKER" ? "Maker" : t.role === "TAKER" ? "Taker" : "–"),
      h("td", { class: "settlement", "data-status": t.status, "data-final": String(final) }, t.status + (final ? "" : " …")),
      h("td", { class: "mono" }, t.tx ? shortId(t.tx) : "–"));
  }

  /** condition id → the catalog market (its question), once read. */
  const markets = new Map();

  /** The market's question, linked to its page, once known (its condition id until then). */
  function marketCell(conditionId) {
    const cell = h("td", { class: "market-cell", dataset: { market: conditionId } });
    const fill = (market) => cell.replaceChildren(
      h("a", { href: `#/market/${encodeURIComponent(market.id)}`, class: "market-name" }, market.question));
    cell.append(h("span", { class: "market-name" }, conditionId ? shortId(conditionId) : "–"));
    if (!conditionId) return cell;
    if (!markets.has(conditionId)) {
      const client = ctx.client;
      markets.set(conditionId, client.getMarket(conditionId).catch(() => {
        markets.delete(conditionId);
        return null;
      }).finally(() => ctx.settled()));
    }
    markets.get(conditionId).then((market) => { if (market) fill(market); });
    return cell;
  }

  function render() {
    const list = [...trades.values()].sort((a, b) => b.at - a.at);
    body.replaceChildren(...list.map(row));
  }

  // A trade event: a new fill, or the next step of one's settlement, updated in place.
  ctx.onTrade((event) => {
    if (!loaded) return;
    const shown = view(event);
    const known = trades.get(event.id);
    trades.set(event.id, { ...known, ...shown, at: known?.at ?? Date.now(), role: known?.role || shown.role, tx: shown.tx || known?.tx || "" });
    status.textContent = "";
    const existing = body.querySelector(`tr[data-trade-id="${CSS.escape(event.id)}"]`);
    if (existing) existing.replaceWith(row(trades.get(event.id)));
    else render();
  });

  // --- The dead-man switch --------------------------------------------------------------------------

  const toggle = $("deadman-toggle");
  const pill = $("deadman-status");
  let deadman = null;
  /** What the running switch said last, and the heartbeats the service accepted since it started. */
  let shown = null;
  let beats = { count: 0, lastAt: 0, since: 0 };
  /** Whether the service's answers to heartbeats are being counted (from the switch's start to its end). */
  let watching = false;

  const WORDS = {
    starting: "Starting…",
    ok: "On",
    late: "Late: a heartbeat failed, trying again",
    lost: "Lost: the service may have cancelled your orders",
    stopped: "Off",
  };

  function renderSwitch() {
    if (!shown) return;
    const status = shown.status;
    pill.hidden = false;
    pill.dataset.status = status;
    pill.dataset.tone = status === "ok" ? "ok" : status === "late" || status === "lost" ? "bad" : "wait";
    const count = Math.max(shown.beats ?? 0, beats.count);
    const lastAt = Math.max(shown.lastOkAt ?? 0, beats.lastAt);
    pill.dataset.beats = String(count);
    pill.dataset.lastBeatAt = lastAt ? String(lastAt) : "";
    const words = WORDS[status] ?? status;
    const counted = count ? `${plural(count, "heartbeat")}, last ${new Date(lastAt).toLocaleTimeString()}` : "no heartbeat yet";
    pill.textContent = status === "stopped" ? (shown.reason === "refused" ? "Off: the service refused this API key" : words)
      : status === "ok" ? `${words} · ${counted} · every 5 s`
      : status === "starting" ? words
      : `${words} · ${counted}`;
  }

  /** Counts the service's accepted answers to this page's heartbeats from now on. */
  function watchBeats() {
    beats = { count: 0, lastAt: 0, since: Date.now() };
    watching = true;
  }

  ctx.onAnswer((url, status, sentAt) => {
    // (Only an answer the service accepted counts, to a heartbeat this switch sent: not a late answer to the one
    // before it.)
    if (!watching || sentAt < beats.since || !(status >= 200 && status < 300) || !isHeartbeat(url)) return;
    beats.count += 1;
    beats.lastAt = Date.now();
    renderSwitch();
  });

  function isHeartbeat(url) {
    try {
      return new URL(url).pathname.endsWith("/v1/heartbeats");
    } catch {
      return false;
    }
  }

  function stopSwitch() {
    deadman?.stop();
    deadman = null;
    shown = null;
    watching = false;
  }

  toggle.addEventListener("change", () => {
    stopSwitch();
    if (!toggle.checked || !ctx.account) {
      pill.hidden = true;
      return;
    }
    try {
      watchBeats();
      const mine = ctx.client.heartbeats({
        onStatus: (event) => {
          if (deadman !== mine) return;
          shown = event;
          renderSwitch();
          if (event.status === "stopped") {
            toggle.checked = false;
            deadman = null;
            watching = false;
          }
        },
      });
      deadman = mine;
    } catch (error) {
      watching = false;
      toggle.checked = false;
      pill.hidden = false;
      pill.dataset.tone = "bad";
      pill.textContent = ctx.describe(error);
    }
  });

  // A new client (sign-in, sign-out, another service): what the old one ran stops, the tab reads again.
  ctx.onRelease(() => {
    stopSwitch();
    toggle.checked = false;
    pill.hidden = true;
    controller?.abort();
  });
  ctx.onConnect(({ serviceChanged }) => {
    if (serviceChanged) markets.clear();
    trades = new Map();
    body.replaceChildren();
    status.textContent = "";
    loaded = false;
    if (!panels.trades.hidden && ctx.account) load();
  });
}
