// The orders view: sign in with API credentials, list the account's open orders (iterateOpenOrders),
// cancel one (cancelOrder) or every order in a market (cancelMarketOrders), each after a confirmation.
//
// The credentials go straight from the form into a new Client and the form is cleared: the page keeps
// no copy, and nothing of them reaches the DOM, storage, cookies or the URL.
import { $, h, cents, num, date, shortId, confirmDialog, pool } from "./ui.js";

const ROWS = 25;

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

  async function loadOrders() {
    controller?.abort();
    controller = new AbortController();
    const signal = controller.signal;
    const client = ctx.client;
    loading = true;
    orders = [];
    visible = ROWS;
    body.replaceChildren();
    result.replaceChildren();
    more.hidden = true;
    progress.hidden = false;
    progress.removeAttribute("value");
    status.textContent = "Loading your open orders…";
    $("orders-table").setAttribute("aria-busy", "true");
    const found = [];
    try {
      const iterable = client.iterateOpenOrders({}, {
        signal,
        onPage: ({ page, total, done }) => {
          status.textContent = done ? `Loaded ${total} orders` : `Loading your open orders… ${total} so far (page ${page})`;
        },
      });
      for await (const order of iterable) {
        found.push(order);
        // Show the first screenful as soon as it is in.
        if (found.length === ROWS) {
          orders = found.slice();
          renderRows();
        }
      }
      if (client !== ctx.client) return false;
      orders = found;
      renderRows();
      return true;
    } catch (error) {
      if (ctx.isAbort(error) || client !== ctx.client) return false;
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

  function renderRows() {
    if (!loading || orders.length) summary();
    const rows = orders.slice(0, visible);
    body.replaceChildren(...rows.map(renderRow));
    more.hidden = orders.length <= visible;
    more.textContent = `Show ${Math.min(ROWS, orders.length - visible)} more`;
    resolveMarkets(rows);
  }

  function renderRow(order) {
    const inMarket = orders.filter((o) => o.market === order.market).length;
    const marketCell = h("td", { class: "market-cell", dataset: { label: "Market", market: order.market } },
      h("span", { class: "market-name" }, shortId(order.market)));
    return h("tr", { dataset: { orderId: order.id } },
      marketCell,
      h("td", { dataset: { label: "Outcome" } }, order.outcome),
      h("td", { dataset: { label: "Side" } }, h("span", { class: `side ${order.side.toLowerCase()}` }, order.side === "BUY" ? "Buy" : "Sell")),
      h("td", { class: "num", dataset: { label: "Price" } }, order.price === null ? "–" : cents(order.price)),
      h("td", { class: "num", dataset: { label: "Size" } }, num(order.originalSize)),
      h("td", { class: "num", dataset: { label: "Filled" } }, num(order.sizeMatched)),
      h("td", { dataset: { label: "Placed" } }, date(order.createdAt)),
      h("td", { class: "actions" },
        h("button", { type: "button", class: "danger small", onclick: (e) => cancelOne(order, e.currentTarget),
          "aria-label": `Cancel order: ${order.side === "BUY" ? "buy" : "sell"} ${num(order.originalSize)} ${order.outcome} at ${cents(order.price)}` }, "Cancel"),
        inMarket > 1 && h("button", { type: "button", class: "secondary small", onclick: (e) => cancelMarket(order.market, e.currentTarget),
          "aria-label": `Cancel all ${inMarket} orders in this market` }, `Cancel market (${inMarket})`)));
  }

  /** Replaces condition ids with market questions for the rows on screen (a few requests at a time). */
  async function resolveMarkets(rows) {
    const ids = [...new Set(rows.map((o) => o.market))];
    await pool(ids, 4, async (id) => {
      if (!markets.has(id)) markets.set(id, ctx.client.getMarket(id).catch((error) => { markets.delete(id); throw error; }));
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
      body: [`${order.side === "BUY" ? "Buy" : "Sell"} ${num(order.originalSize)} ${order.outcome} at ${cents(order.price)}`, question],
      confirmLabel: "Cancel order",
      cancelLabel: "Keep order",
    });
    if (!ok) return;
    await runCancel(button, () => ctx.client.cancelOrder(order.id));
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
    await runCancel(button, () => ctx.client.cancelMarketOrders({ market }));
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

  // --- View ----------------------------------------------------------------------------------------

  function render() {
    const signedIn = Boolean(ctx.account);
    form.hidden = signedIn;
    $("account").hidden = !signedIn;
    if (signedIn) $("account-address").textContent = shortId(ctx.account);
  }

  ctx.onConnect(() => {
    render();
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
