// The orders view: sign in with API credentials, list the account's open orders (getOpenOrders, iterated),
// cancel one (cancelOrder) or every order in a market (cancelMarketOrders), each after a confirmation.
//
// While signed in, a UserStream (client.userStream) keeps the list current: an order canceled elsewhere
// is marked and leaves, a new one is added and a changed one refreshed (client.getOrder). Rows are
// updated in place, so keyboard focus stays where it is. After a reconnect the list is re-read quietly,
// since events sent while the socket was down are lost.
//
// The credentials go straight from the form into a new Client and the form is cleared: the page keeps
// no copy, and nothing of them reaches the DOM, storage, cookies or the URL.
import { $, h, formatPrice, formatShares, plural, date, shortId, confirmDialog, pool } from "./ui.js";
import { livePill } from "./live.js";

const ROWS = 25;
/** How long a row that left (canceled or filled elsewhere) stays marked before it goes. */
const LEAVING_MS = 1600;
/** How long a new or changed row stays marked. */
const ARRIVED_MS = 3000;
/** Statuses of orders that are no longer open. */
const CLOSED = new Set(["CANCELED", "CANCELLED", "MATCHED", "INVALID", "EXPIRED", "CANCELED_MARKET_RESOLVED"]);

export function ordersView(ctx) {
  const form = $("signin");
  const fields = { address: $("cred-address"), apiKey: $("cred-key"), secret: $("cred-secret"), passphrase: $("cred-passphrase") };
  const body = $("orders-body");
  const status = $("orders-status");
  const progress = $("orders-progress");
  const result = $("cancel-result");
  const more = $("orders-more");

  let orders = [];
  let visible = ROWS;
  let controller = null;
  let loading = false;
  /** condition id → Promise of the catalog market (question and id), for the market column. */
  const markets = new Map();

  // Live updates.
  let userStream = null;
  /** The socket went down since it last opened: catch up when it is open again. */
  let streamDown = false;
  /** The list is read once the user stream is open, so that an order placed meanwhile is in one or the other. */
  let readOnOpen = false;
  /** Order events that came while the list was loading, applied to it once loaded. */
  /** Whether this page is canceling every order (their CANCELLATION events are its own doing). */
  let cancelingAll = false;
  let queued = [];
  /** Orders and markets this page is canceling: their CANCELLATION events are not news to the user. */
  const cancelingIds = new Set();
  const cancelingMarkets = new Set();
  /** Cancellations from elsewhere not announced yet. */
  let unannounced = [];
  const pill = livePill({
    pill: $("orders-live"), text: $("orders-live-text"), announcer: $("orders-announce"),
    onAnnounced: () => { unannounced = []; },
  });

  // --- Signing in and out --------------------------------------------------------------------------

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const credentials = {
      address: fields.address.value.trim(),
      apiKey: fields.apiKey.value.trim(),
      secret: fields.secret.value.trim(),
      passphrase: fields.passphrase.value.trim(),
    };
    fields.apiKey.value = "";
    fields.secret.value = "";
    fields.passphrase.value = "";
    const note = $("signin-status");
    note.className = "form-status";
    try {
      ctx.connect(ctx.baseUrl, credentials);
    } catch (error) {
      note.textContent = ctx.describe(error);
      note.className = "form-status bad";
      return;
    }
    note.textContent = "";
    render();
    const ok = await loadOrders();
    if (!ok && !ctx.account) {
      // loadOrders signed out after an authentication failure; say why on the form.
      note.textContent = lastError;
      note.className = "form-status bad";
      fields.apiKey.focus();
    } else {
      $("orders-heading").focus();
    }
  });

  $("signout").addEventListener("click", () => {
    controller?.abort();
    ctx.connect(ctx.baseUrl);
    fields.address.focus();
  });
  $("orders-refresh").addEventListener("click", () => loadOrders());
  $("orders-cancel-all").addEventListener("click", (event) => cancelAll(/** @type {HTMLButtonElement} */ (event.currentTarget)));
  more.addEventListener("click", () => {
    const first = visible;
    visible += ROWS;
    renderRows();
    body.children[first]?.querySelector("button")?.focus();
  });

  let lastError = "";

  /** Prefills the form with the emulator's made-up demo account when both page and service are local. */
  async function prefill() {
    const hint = $("signin-hint");
    const service = new URL(ctx.baseUrl);
    const local = ctx.isLocal && ["localhost", "127.0.0.1", "[::1]"].includes(service.hostname);
    if (!local || fields.secret.value) return;
    try {
      const response = await fetch(new URL("/__admin/accounts", service));
      if (!response.ok) return;
      const [demo] = await response.json();
      if (!demo || ctx.account) return;
      fields.address.value = demo.address;
      fields.apiKey.value = demo.apiKey;
      fields.secret.value = demo.secret;
      fields.passphrase.value = demo.passphrase;
      hint.textContent = "Filled in with the local emulator's made-up demo account.";
    } catch {
      // Not the emulator: the user types their own credentials.
    }
  }

  // --- Loading -------------------------------------------------------------------------------------

  /**
   * Reads every open order. `quiet` (a catch-up after the stream reconnected) keeps the rows on screen
   * and brings them in line with the answer, without progress or messages (an error leaves them as
   * they are: Refresh is there).
   */
  async function loadOrders({ quiet = false } = {}) {
    if (quiet && loading) return true; // a full load is under way already
    controller?.abort();
    controller = new AbortController();
    const signal = controller.signal;
    const client = ctx.client;
    loading = true;
    queued = [];
    if (!quiet) {
      orders = [];
      visible = ROWS;
      body.replaceChildren();
      result.replaceChildren();
      more.hidden = true;
      progress.hidden = false;
      progress.removeAttribute("value");
      status.textContent = "Loading your open orders…";
      $("orders-table").setAttribute("aria-busy", "true");
    }
    const found = [];
    try {
      const iterable = client.getOpenOrders({}, {
        signal,
        onPage: ({ page, total, done }) => {
          if (!quiet) status.textContent = done ? `Loaded ${total} orders` : `Loading your open orders… ${total} so far (page ${page})`;
        },
      });
      for await (const order of iterable) {
        found.push(order);
        // Show the first screenful as soon as it is in.
        if (!quiet && found.length === ROWS) {
          orders = found.slice();
          renderRows();
        }
      }
      if (client !== ctx.client) return false;
      // Events that came meanwhile may be newer than the pages read before them.
      const events = queued;
      queued = [];
      const gone = new Set(events.filter((e) => e.type === "CANCELLATION").map((e) => e.id));
      orders = found.filter((o) => !gone.has(o.id));
      loading = false;
      renderRows();
      for (const event of events) if (event.type !== "CANCELLATION") refreshOrder(event.id);
      return true;
    } catch (error) {
      if (ctx.isAbort(error) || client !== ctx.client) return false;
      if (quiet) return false; // the list on screen stays; Refresh is there
      lastError = ctx.describe(error);
      if (ctx.isPredictKitError(error) && (error.code === "UNAUTHORIZED" || error.code === "FORBIDDEN")) {
        ctx.connect(ctx.baseUrl); // wrong credentials: drop them
        return false;
      }
      status.textContent = "";
      result.replaceChildren(h("div", { class: "error-box", role: "alert" }, h("p", {}, lastError),
        h("button", { type: "button", class: "secondary", onclick: () => loadOrders() }, "Try again")));
      return false;
    } finally {
      if (client === ctx.client) {
        loading = false;
        progress.hidden = true;
        $("orders-table").removeAttribute("aria-busy");
      }
      ctx.settled();
    }
  }

  // --- Rendering -----------------------------------------------------------------------------------

  function summary() {
    const count = new Set(orders.map((o) => o.market)).size;
    status.textContent = orders.length
      ? `${orders.length} open order${orders.length === 1 ? "" : "s"} in ${count} market${count === 1 ? "" : "s"}`
      : "You have no open orders.";
    status.dataset.count = String(orders.length);
  }

  /**
   * Brings the table in line with `orders` (the first `visible` of them), in place: rows that stay are
   * kept (with the focus inside them), rows that go are removed, new ones are inserted where they belong.
   * Rows marked as leaving stay until their own timer removes them.
   */
  function renderRows() {
    if (!loading || orders.length) summary();
    const want = orders.slice(0, visible);
    const wanted = new Set(want.map((o) => o.id));
    const counts = marketCounts();
    const kept = new Map();
    for (const row of [...body.children]) {
      if (row.classList.contains("leaving")) continue;
      if (wanted.has(row.dataset.orderId) && !kept.has(row.dataset.orderId)) kept.set(row.dataset.orderId, row);
      else row.remove();
    }
    const added = [];
    let previous = null;
    for (const order of want) {
      let row = kept.get(order.id);
      if (!row || row.dataset.version !== version(order)) {
        const fresh = renderRow(order, counts);
        if (row) replaceKeepingFocus(row, fresh);
        row = fresh;
        added.push(order);
      } else if (row.dataset.inMarket !== String(counts.get(order.market))) {
        replaceKeepingFocus(row.querySelector("td.actions"), actionsCell(order, counts));
        row.dataset.inMarket = String(counts.get(order.market));
      }
      const target = nextRow(previous);
      if (target !== row) body.insertBefore(row, target);
      previous = row;
    }
    more.hidden = orders.length <= visible;
    more.textContent = `Show ${plural(Math.min(ROWS, orders.length - visible), "more order", "more orders")}`;
    if (added.length) resolveMarkets(added);
  }

  /** The row after `row` (the first when null), skipping rows that are leaving. */
  function nextRow(row) {
    let next = row ? row.nextElementSibling : body.firstElementChild;
    while (next?.classList.contains("leaving")) next = next.nextElementSibling;
    return next;
  }

  /** Replaces `old` with `fresh`; a focused button inside moves to its counterpart (or the first button). */
  function replaceKeepingFocus(old, fresh) {
    const focused = old.contains(document.activeElement) ? document.activeElement : null;
    old.replaceWith(fresh);
    if (!focused) return;
    const same = focused.classList.contains("danger") ? "button.danger" : "button.secondary";
    (fresh.querySelector(same) ?? fresh.querySelector("button"))?.focus();
  }

  function marketCounts() {
    const counts = new Map();
    for (const o of orders) counts.set(o.market, (counts.get(o.market) ?? 0) + 1);
    return counts;
  }

  /** What a row shows that can change: a different version is rendered anew. */
  function version(order) {
    return [order.price, order.originalSize, order.sizeMatched, order.status].join("|");
  }

  function renderRow(order, counts = marketCounts()) {
    const known = markets.get(order.market)?.settled;
    const marketCell = h("td", { class: "market-cell", dataset: { label: "Market", market: order.market } },
      known
        ? h("a", { href: `#/market/${encodeURIComponent(known.id)}`, class: "market-name" }, known.question)
        : h("span", { class: "market-name" }, shortId(order.market)));
    return h("tr", { dataset: { orderId: order.id, version: version(order), inMarket: String(counts.get(order.market) ?? 1) } },
      marketCell,
      h("td", { dataset: { label: "Outcome" } }, order.outcome),
      h("td", { dataset: { label: "Side" } }, h("span", { class: `side ${order.side.toLowerCase()}` }, order.side === "BUY" ? "Buy" : "Sell")),
      h("td", { class: "num", dataset: { label: "Price" } }, formatPrice(order.price)),
      h("td", { class: "num", dataset: { label: "Size" } }, formatShares(order.originalSize, { unit: false })),
      h("td", { class: "num", dataset: { label: "Filled" } }, formatShares(order.sizeMatched, { unit: false })),
      h("td", { dataset: { label: "Placed" } }, date(order.createdAt)),
      actionsCell(order, counts));
  }

  function actionsCell(order, counts) {
    const inMarket = counts.get(order.market) ?? 1;
    return h("td", { class: "actions" },
      h("button", { type: "button", class: "danger small", onclick: (e) => cancelOne(order, e.currentTarget),
        "aria-label": `Cancel order: ${describe(order)}` }, "Cancel"),
      inMarket > 1 && h("button", { type: "button", class: "secondary small", onclick: (e) => cancelMarket(order.market, e.currentTarget),
        "aria-label": `Cancel all ${inMarket} orders in this market` }, `Cancel market (${inMarket})`));
  }

  function describe(order) {
    return `${order.side === "BUY" ? "buy" : "sell"} ${formatShares(order.originalSize)} of ${order.outcome} at ${formatPrice(order.price)}`;
  }

  /** Replaces condition ids with market questions for the rows on screen (a few requests at a time). */
  async function resolveMarkets(rows) {
    const ids = [...new Set(rows.map((o) => o.market))];
    await pool(ids, 4, async (id) => {
      if (!markets.has(id)) {
        const entry = ctx.client.getMarket(id).then(
          (market) => { entry.settled = market; return market; },
          (error) => { markets.delete(id); throw error; });
        markets.set(id, entry);
      }
      const market = await markets.get(id);
      for (const cell of body.querySelectorAll(`td[data-market="${id}"]`)) {
        cell.replaceChildren(h("a", { href: `#/market/${encodeURIComponent(market.id)}`, class: "market-name" }, market.question));
      }
    });
    ctx.settled();
  }

  async function marketName(id) {
    try {
      return (await markets.get(id))?.question ?? shortId(id);
    } catch {
      return shortId(id);
    }
  }

  // --- Cancelling ----------------------------------------------------------------------------------

  async function cancelOne(order, button) {
    const question = await marketName(order.market);
    const ok = await confirmDialog({
      title: "Cancel this order?",
      body: [`${order.side === "BUY" ? "Buy" : "Sell"} ${formatShares(order.originalSize)} of ${order.outcome} at ${formatPrice(order.price)}`, question],
      confirmLabel: "Cancel order",
      cancelLabel: "Keep order",
    });
    if (!ok) return;
    cancelingIds.add(order.id);
    await runCancel(button, () => ctx.client.cancelOrder(order.id));
    cancelingIds.delete(order.id);
  }

  async function cancelMarket(market, button) {
    const question = await marketName(market);
    const count = orders.filter((o) => o.market === market).length;
    const ok = await confirmDialog({
      title: `Cancel all ${count} orders in this market?`,
      body: [question, "Every open order of yours in this market is canceled, including any not shown here."],
      confirmLabel: `Cancel ${count} orders`,
      cancelLabel: "Keep orders",
    });
    if (!ok) return;
    cancelingMarkets.add(market);
    await runCancel(button, () => ctx.client.cancelMarketOrders({ market }));
    cancelingMarkets.delete(market);
  }

  async function cancelAll(button) {
    const ok = await confirmDialog({
      title: "Cancel all your open orders?",
      body: [`${orders.length} open order${orders.length === 1 ? " is" : "s are"} listed here.`,
        "Every open order of this account is canceled, in every market, including any not shown here."],
      confirmLabel: "Cancel all orders",
      cancelLabel: "Keep orders",
    });
    if (!ok) return;
    cancelingAll = true;
    await runCancel(button, () => ctx.client.cancelAll());
    cancelingAll = false;
    // The button stays: new orders may come.
    button.disabled = false;
    button.textContent = "Cancel all";
  }

  async function runCancel(button, call) {
    button.disabled = true;
    const label = button.textContent;
    button.textContent = "Canceling…";
    try {
      const answer = await call();
      showCancelResult(answer);
      // Orders the service reports as already gone are not open any more either.
      const stale = Object.entries(answer.not_canceled ?? {}).filter(([, reason]) => /already|not found/i.test(reason));
      const gone = new Set([...answer.canceled, ...stale.map(([id]) => id)]);
      orders = orders.filter((o) => !gone.has(o.id));
      renderRows();
    } catch (error) {
      if (!ctx.isAbort(error)) {
        result.replaceChildren(h("div", { class: "error-box", role: "alert" }, h("p", {}, `Nothing was canceled: ${ctx.describe(error)}`)));
      }
      if (button.isConnected) {
        button.disabled = false;
        button.textContent = label;
      }
    } finally {
      ctx.settled();
      result.focus();
    }
  }

  function showCancelResult({ canceled, not_canceled: notCanceled }) {
    const refused = Object.entries(notCanceled ?? {});
    const lines = [];
    if (canceled.length) lines.push(h("p", { class: "ok" }, `Canceled ${canceled.length} order${canceled.length === 1 ? "" : "s"}.`));
    if (!canceled.length && !refused.length) lines.push(h("p", {}, "There was nothing to cancel."));
    if (refused.length) {
      lines.push(h("p", { class: "warn" }, `Not canceled: ${refused.length}`),
        h("ul", { class: "refused" }, refused.map(([id, reason]) => h("li", {}, h("span", { class: "mono" }, shortId(id)), `: ${reason}`))));
    }
    result.replaceChildren(h("div", { class: `result-box${refused.length ? " has-refused" : ""}`, dataset: { canceled: String(canceled.length), refused: String(refused.length) } }, lines));
  }

  // --- Live updates (the user channel) -------------------------------------------------------------

  function openUserStream() {
    closeUserStream();
    if (!ctx.account) return;
    streamDown = false;
    readOnOpen = true;
    let opened = null;
    try {
      opened = ctx.client.userStream([], { onEvent: (event) => onUserEvent(opened, event) });
    } catch (error) {
      pill.set({ status: "unavailable", tone: "bad", label: "Live updates unavailable", detail: ctx.describe(error) });
      loadOrders({ quiet: true });
      return;
    }
    userStream = opened;
    renderLive();
  }

  function closeUserStream() {
    const closing = userStream;
    userStream = null;
    closing?.close();
    if (closing) ctx.socket("user", null);
    pill.reset();
  }

  function onUserEvent(source, event) {
    if (source !== userStream) return;
    if (event.event_type === "status") {
      ctx.socket("user", event.status);
      if (event.status === "reconnecting" || event.status === "stalled") streamDown = true;
      if (event.status === "open" && (streamDown || readOnOpen)) {
        // Events sent while the socket was down are lost, and a signed-in account (from the form or from a
        // wallet that just traded) may have placed orders before it opened: read the list (again).
        streamDown = false;
        readOnOpen = false;
        loadOrders({ quiet: true });
      }
      renderLive();
    } else if (event.event_type === "error") {
      renderLive(ctx.describe(event.error));
    } else if (event.event_type === "order") {
      if (loading) queued.push(event);
      if (event.type === "CANCELLATION") orderLeft(event.id, "Canceled", event);
      else refreshOrder(event.id);
    } else if (event.event_type === "trade") {
      ctx.trade(event);
      // A fill: the orders it touched change (their UPDATE events follow on the service; read them anyway).
      const ids = [event.taker_order_id, ...(event.maker_orders ?? []).map((m) => m?.order_id)].filter(Boolean);
      for (const id of ids) if (orders.some((o) => o.id === id)) refreshOrder(id);
    }
  }

  function renderLive(errorText) {
    const status = userStream?.status ?? "closed";
    const states = {
      connecting: { tone: "wait", label: "Connecting…" },
      open: { tone: "ok", label: "Live", announce: "Order updates are live." },
      stalled: { tone: "wait", label: "Stalled · resubscribing…", announce: "Order updates stalled. Resubscribing." },
      reconnecting: { tone: "bad", label: "Reconnecting…", announce: "Order updates lost the connection. Reconnecting." },
      closed: { tone: "bad", label: "Offline" },
    };
    const state = states[status] ?? states.closed;
    pill.set({
      status,
      ...state,
      detail: errorText ?? (status === "open" ? "Orders canceled, placed or filled elsewhere show up here as they happen." : ""),
    });
  }

  /** An order is no longer open: mark its row for a moment, then remove it. */
  function orderLeft(id, label, event) {
    const index = orders.findIndex((o) => o.id === id);
    if (index < 0) return;
    const [order] = orders.splice(index, 1);
    const row = body.querySelector(`tr[data-order-id="${CSS.escape(id)}"]`);
    const ours = cancelingAll || cancelingIds.has(id) || cancelingMarkets.has(order.market) || cancelingMarkets.has(event?.market);
    if (ours) {
      // This page asked for it: the cancel result says so; the row goes at once.
      row?.remove();
    } else {
      if (row) markLeaving(row, label);
      unannounced.push(order);
      pill.announce(unannounced.length === 1
        ? `${label}: ${describe(unannounced[0])}.`
        : `${unannounced.length} orders ${label.toLowerCase()} elsewhere.`);
    }
    renderRows();
  }

  function markLeaving(row, label) {
    const hadFocus = row.contains(document.activeElement);
    row.classList.add("leaving");
    row.dataset.leaving = label;
    row.querySelector("td.actions")?.replaceChildren(h("span", { class: "row-note" }, label));
    setTimeout(() => row.remove(), LEAVING_MS);
    if (hadFocus) {
      // Keep keyboard users in the list: the next row's Cancel, else the heading.
      let next = row.nextElementSibling;
      while (next?.classList.contains("leaving")) next = next.nextElementSibling;
      (next?.querySelector("button") ?? $("orders-heading")).focus();
    }
  }

  /**
   * Marks a row new or changed for a while: one note at a time (an order this page placed is announced by its
   * answer and then by its PLACEMENT event, and stays "New"), gone with the highlight.
   */
  function markArrived(row, label) {
    clearTimeout(Number(row.dataset.arrivedTimer));
    row.classList.add("arrived");
    row.dataset.arrived = label;
    const cell = row.querySelector("td[data-label=Placed]");
    cell?.querySelector(".row-note.arrival")?.remove();
    cell?.append(h("span", { class: "row-note arrival" }, label));
    row.dataset.arrivedTimer = String(setTimeout(() => {
      row.classList.remove("arrived");
      delete row.dataset.arrived;
      cell?.querySelector(".row-note.arrival")?.remove();
    }, ARRIVED_MS));
  }

  /** Reads one order after a PLACEMENT or UPDATE and shows it as it is now. */
  async function refreshOrder(id) {
    const client = ctx.client;
    let order;
    try {
      ({ order } = await client.getOrder(id));
    } catch (error) {
      if (client === ctx.client && ctx.isPredictKitError(error) && error.code === "NOT_FOUND") orderLeft(id, "Gone");
      return;
    } finally {
      ctx.settled();
    }
    if (client !== ctx.client || !order) return;
    if (CLOSED.has(String(order.status).toUpperCase())) {
      orderLeft(id, String(order.status).toUpperCase() === "MATCHED" ? "Filled" : "Closed");
      return;
    }
    const index = orders.findIndex((o) => o.id === id);
    if (index >= 0) orders[index] = order;
    else orders.unshift(order); // new: at the top, where it is seen
    renderRows();
    const row = body.querySelector(`tr[data-order-id="${CSS.escape(id)}"]`);
    if (row) markArrived(row, index < 0 || row.dataset.arrived === "New" ? "New" : "Updated");
    pill.announce(index >= 0 ? `Order updated: ${describe(order)}.` : `New order: ${describe(order)}.`);
  }

  // --- View ----------------------------------------------------------------------------------------

  function render() {
    const signedIn = Boolean(ctx.account);
    form.hidden = signedIn;
    $("account").hidden = !signedIn;
    if (signedIn) $("account-address").textContent = shortId(ctx.account);
  }

  // An order this page placed is listed from the service's answer: the user channel may have subscribed
  // after the order was announced, and a list read under way may have been answered before it existed.
  ctx.onPlaced((id) => {
    if (!ctx.account || orders.some((o) => o.id === id)) return;
    if (loading) queued.push({ type: "PLACEMENT", id });
    else refreshOrder(id);
  });

  // The user stream belongs to the signed-in client: closed before it is replaced, opened with the new one.
  ctx.onRelease(() => closeUserStream());
  ctx.onConnect(() => {
    render();
    if (ctx.account) openUserStream();
    if (!ctx.account) {
      controller?.abort();
      orders = [];
      body.replaceChildren();
      status.textContent = "";
      result.replaceChildren();
      if (!$("view-orders").hidden) prefill();
    }
  });

  return {
    show() {
      document.title = "My orders · PredictKit demo";
      render();
      if (!ctx.account) prefill();
    },
    hide() {},
  };
}
