// The market view: one outcome's order book (parsed in WebAssembly), its depth and price history, a
// "what would it cost" estimate from OrderBook.simulate(), the fee rate and the comments.
//
// The book is live: a MarketStream (client.marketStream) follows every outcome of the market, keeps each
// book in wasm and checks it against the service's hash. The page first shows the REST snapshot, then
// re-renders from `stream.book(token)` on each `book_update` of the shown outcome, at most once per
// animation frame. A pill says how the connection and the book are; "Pause" closes the stream (a page
// that updates by itself must let the user stop it) and "Resume" opens a new one.
import { $, h, formatPrice, formatShares, formatUsd, plural, usdShort, num, date, dateTime, shortId, jsonList, errorBox } from "./ui.js";
import { depthChart, historyChart } from "./charts.js";
import { livePill, ago } from "./live.js";

const TABLE_LEVELS = 8;
const CHART_LEVELS = 120;
const COMMENTS_PAGE = 8;
/** Price-history windows and their bucket size in minutes. */
const INTERVALS = { "1h": 1, "6h": 5, "1d": 15, "1w": 60, max: 1440 };
/** How long a resync or a stream error stays mentioned in the pill. */
const NOTE_MS = 4000;
const RESYNC_REASONS = {
  hash_mismatch: "the book drifted from the service's hash",
  book_mismatch: "a snapshot did not match its hash",
  gap: "updates were missed",
  overflow: "too many updates came while catching up",
};

export function marketView(ctx) {
  // The ticket's target: the outcome shown, and its book on screen (read at once: it is freed when replaced).
  ctx.marketTarget = () => ({ tokenId: tokens[outcomeIndex], conditionId: market?.conditionId, outcome: market ? outcomes[outcomeIndex] : undefined, book });
  let controller = null;
  let outcomeRun = 0;
  /** The OrderBook on screen; freed when replaced or when the view closes. */
  let book = null;
  let market = null;
  let tokens = [];
  let outcomes = [];
  let outcomeIndex = 0;
  let interval = "1w";
  let feeBps = null;
  let route = {};

  // Live updates.
  /** The open MarketStream, or null (closed market, paused, another view). */
  let stream = null;
  /** The tokens the stream follows: every outcome of the market shown. */
  let streamTokens = [];
  /** Whether the page's stream is wanted for this market (false for a closed one). */
  let streamable = false;
  let paused = false;
  /** requestAnimationFrame id of the pending re-render; 0 when none is pending. */
  let frame = 0;
  /** setInterval id that refreshes "verified N s ago". */
  let ticker = 0;
  /** Whether `book` is a copy of the stream's live book (else the REST snapshot). */
  let bookIsLive = false;
  /** The last resync of the shown outcome ({ reason, at }), the last stream error ({ text, at }). */
  let lastResync = null;
  let lastError = null;
  /** The last `last_trade_price` event of the shown outcome. */
  let lastTrade = null;
  let openFailed = "";
  /** The service's price history of the shown outcome and period ({ run, points }), or null until it is read. */
  let priceHistory = null;
  /** The midpoint the history chart last ended at (the chart is redrawn only when it moves). */
  let historyMid;

  const pill = livePill({ pill: $("live-status"), text: $("live-text"), announcer: $("live-announce") });
  const liveToggle = $("live-toggle");
  liveToggle.addEventListener("click", () => {
    paused = !paused;
    liveToggle.setAttribute("aria-pressed", String(paused));
    liveToggle.textContent = paused ? "Resume" : "Pause";
    liveToggle.setAttribute("aria-label", paused ? "Resume live updates" : "Pause live updates");
    if (paused) closeStream();
    else openStream();
    renderLive();
  });

  const simForm = $("sim-form");
  simForm.addEventListener("submit", (event) => {
    event.preventDefault();
    renderSimulation(true);
  });
  simForm.addEventListener("input", () => renderSimulation(true));
  simForm.addEventListener("change", () => {
    updateAmountLabel();
    renderSimulation(true);
  });
  for (const button of document.querySelectorAll("#history-intervals button")) {
    button.addEventListener("click", () => {
      interval = button.dataset.interval;
      markPressed("#history-intervals button", (b) => b === button);
      loadHistory(tokens[outcomeIndex], outcomeRun, controller.signal);
    });
  }

  function freeBook() {
    book?.free();
    book = null;
    bookIsLive = false;
  }

  function markPressed(selector, isOn) {
    for (const b of document.querySelectorAll(selector)) b.setAttribute("aria-pressed", String(isOn(b)));
  }

  function setText(id, text) {
    $(id).textContent = text;
  }

  function resetPanels() {
    for (const id of ["stat-bid", "stat-ask", "stat-spread", "stat-mid", "stat-last", "stat-fee"]) {
      setText(id, "–");
      delete $(id).dataset.value;
      delete $(id).dataset.failed;
      $(id).classList.remove("moved-up", "moved-down");
    }
    $("book-table").replaceChildren(h("p", { class: "loading-line" }, "Loading the order book…"));
    $("book-meta").textContent = "";
    $("depth-chart").replaceChildren();
    $("history-chart").replaceChildren();
    $("history-change").textContent = "";
    delete $("history-change").dataset.now;
    priceHistory = null;
    historyMid = undefined;
    $("sim-result").replaceChildren();
    $("market-error").replaceChildren();
    $("market-details").replaceChildren();
  }

  /** Puts `text` on the clipboard; false when the browser refuses (the id stays selectable). */
  async function copyText(text) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      return false;
    }
  }

  // --- Opening a market ----------------------------------------------------------------------------

  async function show(params) {
    route = params;
    controller?.abort();
    controller = new AbortController();
    const signal = controller.signal;
    closeStream();
    streamTokens = [];
    streamable = false;
    pill.reset();
    $("live").hidden = true;
    freeBook();
    market = null;
    feeBps = null;
    resetPanels();
    $("view-market").dataset.state = "loading";
    $("outcome-tabs").replaceChildren();
    $("market-tokens").replaceChildren();
    $("comments").replaceChildren();
    $("comments-more").hidden = true;

    if (params.tokenId) {
      tokens = [params.tokenId];
      outcomes = ["Book"];
      setText("market-title", "Order book");
      setText("market-crumb", `Token ${shortId(params.tokenId)}`);
      $("market-sub").replaceChildren(h("span", { class: "mono" }, params.tokenId));
      $("comments-card").hidden = true;
      $("market-grid").classList.add("no-comments");
      document.title = "Order book · PredictKit demo";
      renderTokens();
      // (Followed live once the service has its book: an id it does not know is not waited for.)
      selectOutcome(0);
      return;
    }

    setText("market-title", "Loading market…");
    setText("market-crumb", "");
    $("market-sub").replaceChildren();
    $("comments-card").hidden = false;
    $("market-grid").classList.remove("no-comments");
    try {
      market = await ctx.client.getMarket(params.marketId, undefined, { signal });
    } catch (error) {
      if (ctx.isAbort(error)) return;
      setText("market-title", "Market unavailable");
      $("view-market").dataset.state = "error";
      $("book-table").replaceChildren();
      // A market the service does not have stays missing however often it is asked for.
      const code = ctx.isPredictKitError(error) ? error.code : "";
      $("market-error").replaceChildren(code === "NOT_FOUND"
        ? errorBox(`The service has no market “${params.marketId}”. Find it in the list of markets.`)
        : code === "INVALID_PARAMS"
          ? errorBox(`“${params.marketId}” is not a market id (a number, or a condition id 0x…). Find the market in the list of markets.`)
          : errorBox(ctx.describe(error), () => show(params)));
      ctx.settled();
      return;
    }
    outcomes = jsonList(market.outcomes);
    tokens = jsonList(market.clobTokenIds);
    const event = market.events?.[0];
    setText("market-title", market.question);
    setText("market-crumb", event?.title ?? "");
    document.title = `${market.question} · PredictKit demo`;
    $("market-sub").replaceChildren(...[
      market.closed ? h("span", { class: "badge closed" }, "Closed") : h("span", { class: "badge live" }, "Live"),
      market.endDate && h("span", {}, `${market.closed ? "Ended" : "Ends"} ${date(market.endDate)}`),
      market.volumeNum !== undefined && h("span", {}, `${usdShort(market.volumeNum)} volume`),
      market.liquidityNum !== undefined && h("span", {}, `${usdShort(market.liquidityNum)} liquidity`),
    ].filter(Boolean));
    $("outcome-tabs").replaceChildren(...outcomes.map((name, i) =>
      h("button", { type: "button", class: `tab o${i % 2}`, "aria-pressed": "false", onclick: () => selectOutcome(i, true) }, name)));
    renderTokens();
    // A closed market's books do not move: no stream.
    if (!market.closed) startLive(tokens.filter(Boolean));
    selectOutcome(Math.min(params.outcome ?? 0, Math.max(0, tokens.length - 1)));
    loadComments(market, signal);
  }

  /** Each outcome's full token id (what the extension and other apps ask for) with a control to copy it. */
  function renderTokens() {
    $("market-tokens").replaceChildren(...tokens.map((id, i) => {
      const note = h("span", { class: "copy-note", role: "status" });
      const copy = async () => {
        note.textContent = (await copyText(id)) ? "Copied" : "Select the id and copy it";
        setTimeout(() => { note.textContent = ""; }, 2000);
      };
      return h("li", { dataset: { token: id } },
        h("span", { class: "token-outcome" }, outcomes[i] ?? `Outcome ${i + 1}`),
        h("code", { class: "mono token-id" }, id),
        h("button", { type: "button", class: "secondary small", onclick: copy, "aria-label": `Copy the token id of ${outcomes[i] ?? `outcome ${i + 1}`}` }, "Copy"),
        note);
    }));
  }

  function selectOutcome(index, fromTab = false) {
    outcomeIndex = index;
    outcomeRun += 1;
    lastResync = null;
    lastTrade = null;
    markPressed("#outcome-tabs button", (b) => [...b.parentElement.children].indexOf(b) === index);
    if (fromTab && market) history.replaceState(null, "", `#/market/${encodeURIComponent(market.id)}/${index}`);
    const token = tokens[index];
    const signal = controller.signal;
    if (!token) {
      $("book-table").replaceChildren(h("p", { class: "empty-line" }, "This market has no order book."));
      $("view-market").dataset.state = "ready";
      return;
    }
    resetPanels();
    // The stream may hold this outcome's live book already; the REST snapshot is for the first paint.
    freeBook();
    scheduleRender();
    renderLive();
    const run = outcomeRun;
    Promise.allSettled([loadBook(token, run, signal), loadFee(token, run, signal), loadHistory(token, run, signal)])
      .then(() => { if (run === outcomeRun) $("view-market").dataset.state = "ready"; ctx.settled(); });
  }

  // --- Book, stats, ladder, depth ------------------------------------------------------------------

  async function loadBook(token, run, signal) {
    let fresh;
    try {
      fresh = await ctx.client.getBook(token, { signal });
    } catch (error) {
      if (ctx.isAbort(error) || run !== outcomeRun) return;
      if (ctx.isPredictKitError(error) && error.code === "NOT_FOUND") {
        // No such book: nothing to wait for live, and trying again would only ask the same.
        if (route.tokenId) {
          closeStream();
          streamable = false;
          $("live").hidden = true;
        }
        $("book-table").replaceChildren(errorBox(route.tokenId
          ? "The service has no order book for this token id. Check the id: a token id is an outcome's, not a market's."
          : "The service has no order book for this outcome."));
        return;
      }
      $("book-table").replaceChildren(errorBox(ctx.describe(error), () => selectOutcome(outcomeIndex)));
      return;
    }
    if (run !== outcomeRun || bookIsLive) {
      // Another outcome is shown, or the stream's live book (newer) is on screen already.
      fresh.free();
      return;
    }
    freeBook();
    book = fresh;
    renderBook();
    renderDetails();
    renderSimulation();
    if (route.tokenId && !streamable) startLive(tokens);
  }

  // --- Live updates --------------------------------------------------------------------------------

  /** Follows `ids` live (unless paused) and shows the pill. */
  function startLive(ids) {
    streamTokens = ids;
    streamable = ids.length > 0;
    $("live").hidden = !streamable;
    if (streamable && !paused) openStream();
    renderLive();
  }

  function openStream() {
    closeStream();
    if (!streamable || paused) return;
    openFailed = "";
    lastError = null;
    let opened = null;
    try {
      opened = ctx.client.marketStream(streamTokens, { onEvent: (event) => onStreamEvent(opened, event) });
    } catch (error) {
      // No WebSocket in this browser, or a base URL the stream cannot use.
      openFailed = ctx.describe(error);
      renderLive();
      return;
    }
    stream = opened;
    ticker = setInterval(renderLive, 1000);
    renderLive();
  }

  /** Closes the stream; the book on screen stays (it is the page's own copy). */
  function closeStream() {
    if (frame) cancelAnimationFrame(frame);
    frame = 0;
    clearInterval(ticker);
    ticker = 0;
    const closing = stream;
    stream = null;
    closing?.close();
    if (closing) ctx.socket("market", null);
  }

  function onStreamEvent(source, event) {
    if (source !== stream) return;
    const shown = tokens[outcomeIndex];
    switch (event.event_type) {
      case "book_update":
        if (event.asset_id === shown) scheduleRender();
        break;
      case "last_trade_price":
        if (event.asset_id === shown) lastTrade = event;
        break;
      case "resync":
        if (event.asset_id === shown) {
          lastResync = { reason: event.reason, at: Date.now() };
          renderLive();
        }
        break;
      case "status":
        ctx.socket("market", event.status);
        renderLive();
        break;
      case "error":
        lastError = { text: ctx.describe(event.error), at: Date.now() };
        renderLive();
        break;
    }
  }

  /** A burst of updates renders once, in the next frame (and not at all while the tab is hidden). */
  function scheduleRender() {
    if (!frame && stream) frame = requestAnimationFrame(renderLiveBook);
  }

  function renderLiveBook() {
    frame = 0;
    if (!stream) return;
    const token = tokens[outcomeIndex];
    const status = stream.bookStatus(token);
    // While a book waits for its first dump or is being resynchronised, the last one rendered stays.
    if (!token || !status || status.state !== "live") return renderLive();
    const fresh = stream.book(token);
    if (!fresh) return renderLive();
    const before = statValues();
    freeBook();
    book = fresh;
    bookIsLive = true;
    renderBook();
    renderDetails();
    renderSimulation();
    flashChanges(before);
    renderLive();
  }

  function statValues() {
    return { bid: $("stat-bid").dataset.value, ask: $("stat-ask").dataset.value, last: $("stat-last").dataset.value };
  }

  /** Briefly marks the figures that moved (not for users who ask for reduced motion: see style.css). */
  function flashChanges(before) {
    for (const [key, id] of [["bid", "stat-bid"], ["ask", "stat-ask"], ["last", "stat-last"]]) {
      const el = $(id);
      const was = before[key];
      const now = el.dataset.value;
      if (!was || !now || was === now) continue;
      el.classList.remove("moved-up", "moved-down");
      void el.offsetWidth; // restart the animation
      el.classList.add(Number(now) > Number(was) ? "moved-up" : "moved-down");
    }
  }

  /** The pill: the connection, then the shown book's state; and a sentence for screen readers. */
  function renderLive() {
    if (!streamable) return;
    const now = Date.now();
    const token = tokens[outcomeIndex];
    const status = stream?.bookStatus(token);
    const data = {
      book: status?.state ?? "none",
      verified: Boolean(status?.verified),
      checks: status?.checks ?? 0,
      mismatches: status?.mismatches ?? 0,
      verifiedAt: status?.verifiedAt ?? "",
    };
    const detail = status
      ? `${num(status.checks)} hash check${status.checks === 1 ? "" : "s"}, ${num(status.mismatches)} mismatch${status.mismatches === 1 ? "" : "es"}` +
        (status.verifiedAt ? `; last verified at ${new Date(status.verifiedAt).toLocaleTimeString()}` : "")
      : "";
    let state;
    if (paused) {
      state = { status: "paused", tone: "paused", label: "Paused", announce: "Live updates paused." };
    } else if (!stream) {
      state = openFailed
        ? { status: "unavailable", tone: "bad", label: "Live updates unavailable", detail: openFailed }
        : { status: "closed", tone: "bad", label: "Offline" };
    } else {
      const connection = stream.status;
      if (connection === "connecting") {
        state = { status: connection, tone: "wait", label: "Connecting…" };
      } else if (connection === "reconnecting") {
        state = { status: connection, tone: "bad", label: "Reconnecting…", announce: "Connection lost. Reconnecting." };
      } else if (connection === "stalled") {
        state = { status: connection, tone: "wait", label: "Stalled · resubscribing…", announce: "Live updates stalled. Resubscribing." };
      } else if (connection === "closed") {
        state = { status: connection, tone: "bad", label: "Offline", announce: "Live updates stopped." };
      } else if (!status || status.state === "waiting") {
        state = { status: connection, tone: "wait", label: "Waiting for the live book…" };
      } else if (status.state === "resyncing") {
        state = { status: connection, tone: "wait", label: "Resyncing…", announce: "The order book is being resynchronised." };
      } else if (lastResync && now - lastResync.at < NOTE_MS) {
        state = {
          status: connection, tone: "ok", label: "Live · resynced",
          detail: `Resynchronised from a fresh snapshot: ${RESYNC_REASONS[lastResync.reason] ?? lastResync.reason}. ${detail}`,
          announce: "Order book resynchronised and live.",
        };
      } else if (status.verified) {
        state = { status: connection, tone: "ok", label: `Live · verified ${ago(status.verifiedAt, now)}`, announce: "Order book live and verified." };
      } else {
        state = { status: connection, tone: "wait", label: status.checks ? "Live · checking…" : "Live · not verified yet" };
      }
      if (lastError && now - lastError.at < NOTE_MS && state.tone === "ok") {
        state.detail = `A stream message was skipped: ${lastError.text}`;
      }
    }
    pill.set({ detail, ...state, data });
  }

  /** The tick of the shown book (the catalog's when the book does not say). */
  function tick() {
    return book?.tickSize ?? market?.orderPriceMinTickSize;
  }

  /** A price of this market, at its tick. */
  const cents = (p) => formatPrice(p, tick());

  function renderBook() {
    queueMicrotask(() => ctx.bookShown()); // the ticket's price starts from it
    const bid = book.bestBid();
    const ask = book.bestAsk();
    const mid = book.midpoint();
    const spread = book.spread();
    setText("stat-bid", bid ? cents(bid.price) : "–");
    setText("stat-ask", ask ? cents(ask.price) : "–");
    setText("stat-spread", spread !== undefined ? cents(spread) : "–");
    setText("stat-mid", mid !== undefined ? cents(mid) : "–");
    const last = book.lastTradePrice;
    setText("stat-last", last !== undefined ? cents(last) : "–");
    $("stat-bid").dataset.value = bid ? String(bid.price) : "";
    $("stat-ask").dataset.value = ask ? String(ask.price) : "";
    $("stat-last").dataset.value = last !== undefined ? String(last) : "";
    $("stat-mid").dataset.value = mid !== undefined ? String(mid) : "";
    $("stat-last").title = lastTrade && Number(lastTrade.price) === last
      ? `${lastTrade.side === "BUY" ? "A buyer took" : "A seller hit"} ${formatShares(lastTrade.size)} at ${cents(lastTrade.price)}, ${new Date(Number(lastTrade.timestamp)).toLocaleTimeString()}`
      : "";
    const meta = $("book-meta");
    meta.textContent = `${plural(book.bidCount, "bid")} · ${plural(book.askCount, "ask")}` +
      (book.timestamp ? ` · as of ${bookIsLive ? new Date(Number(book.timestamp)).toLocaleTimeString() : dateTime(Number(book.timestamp))}` : "");
    meta.dataset.timestamp = book.timestamp !== undefined ? String(book.timestamp) : "";
    meta.dataset.source = bookIsLive ? "stream" : "rest";

    const ladder = book.ladder({ levels: TABLE_LEVELS });
    const askRows = levelRows(ladder.askPrices, ladder.askDepth, "ask").reverse();
    const bidRows = levelRows(ladder.bidPrices, ladder.bidDepth, "bid");
    const spreadRow = h("tr", { class: "spread-row" },
      h("td", { colSpan: 3 }, spread !== undefined ? `Spread ${cents(spread)} · mid ${cents(mid)}` : "One side of this book is empty"));
    const table = h("table", { class: "ladder", "aria-describedby": "book-meta" },
      h("caption", { class: "sr-only" }, `Order book: ${TABLE_LEVELS} best asks above, best bids below`),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Price"), h("th", { scope: "col" }, "Shares"), h("th", { scope: "col" }, "Total"))),
      h("tbody", { class: "asks" }, askRows.length ? askRows : emptyRow("No asks")),
      h("tbody", {}, spreadRow),
      h("tbody", { class: "bids" }, bidRows.length ? bidRows : emptyRow("No bids")));
    $("book-table").replaceChildren(table);

    depthChart($("depth-chart"), book.ladder({ levels: CHART_LEVELS }), mid, cents);
    renderHistory();
  }

  function emptyRow(text) {
    return h("tr", {}, h("td", { colSpan: 3, class: "empty" }, text));
  }

  /** Table rows from a cumulative ladder side: each level's own size is the step in depth. */
  function levelRows(prices, depth, side) {
    const max = depth.length ? depth[depth.length - 1] : 1;
    const rows = [];
    for (let i = 0; i < prices.length; i++) {
      const size = Math.round((depth[i] - (i ? depth[i - 1] : 0)) * 1e6) / 1e6;
      rows.push(h("tr", { class: `${side}${i === 0 ? " best" : ""}`, style: `--fill:${((depth[i] / max) * 100).toFixed(1)}%` },
        h("td", { class: "price" }, cents(prices[i])),
        h("td", {}, formatShares(size, { unit: false })),
        h("td", {}, formatShares(depth[i], { unit: false }))));
    }
    return rows;
  }

  /** Recomputes the service's SHA-1 book hash in WebAssembly and compares it with the one received. */
  function bookHashCheck() {
    if (bookIsLive) {
      const status = stream?.bookStatus(tokens[outcomeIndex]);
      if (!status) return "–";
      if (status.verified) return `Verified ✓ live (${num(status.checks)} check${status.checks === 1 ? "" : "s"})`;
      // Books recorded before the service added tick_size and friends were hashed another way.
      if (book.tickSize === undefined) return "Older format, not checked";
      return status.checks ? "Checking the live book…" : "Live, not checked yet";
    }
    if (!book.receivedHash) return "–";
    if (book.hash() === book.receivedHash) return "Verified ✓";
    // Books recorded before the service added tick_size and friends were hashed another way.
    return book.tickSize === undefined ? "Older format, not checked" : "Differs from the service's";
  }

  function renderDetails() {
    const rows = [
      ["Tick size", book.tickSize !== undefined ? String(book.tickSize) : "–"],
      ["Minimum order", book.minOrderSize !== undefined ? formatShares(book.minOrderSize) : "–"],
      ["Neg risk", book.negRisk === undefined ? "–" : book.negRisk ? "Yes" : "No"],
      ["Book hash", bookHashCheck()],
      ["Token", shortId(tokens[outcomeIndex])],
      ["Condition", shortId(book.market ?? market?.conditionId)],
    ];
    if (market?.orderPriceMinTickSize !== undefined && book.tickSize === undefined) rows[0][1] = String(market.orderPriceMinTickSize);
    $("market-details").replaceChildren(...rows.map(([k, v]) => h("div", {}, h("dt", {}, k), h("dd", {}, v))));
  }

  // --- Fee -----------------------------------------------------------------------------------------

  async function loadFee(token, run, signal) {
    try {
      const fee = await ctx.client.getFeeRate(token, { signal });
      if (run !== outcomeRun) return;
      feeBps = fee.base_fee;
      const taker = fee.fee_schedule?.takerOnly ?? fee.fd?.to;
      setText("stat-fee", `${fee.base_fee} bps${taker ? " (takers)" : ""}`);
      delete $("stat-fee").dataset.failed;
      $("stat-fee").title = fee.fee_schedule ? `Curve rate ${fee.fee_schedule.rate}, exponent ${fee.fee_schedule.exponent}, ${fee.fee_schedule.category}` : "";
    } catch (error) {
      if (ctx.isAbort(error) || run !== outcomeRun) return;
      feeBps = null;
      const none = ctx.isPredictKitError(error) && error.code === "NOT_FOUND";
      setText("stat-fee", none ? "None" : "Unavailable");
      // (Unavailable is read again once the service answers again: see onRecovered.)
      $("stat-fee").dataset.failed = String(!none);
      $("stat-fee").title = ctx.describe(error);
    }
    renderSimulation();
  }

  // --- Simulation ----------------------------------------------------------------------------------

  function simInputs() {
    const data = new FormData(simForm);
    return { side: data.get("sim-side") ?? "BUY", unit: data.get("sim-unit") ?? "shares", amount: $("sim-amount").value };
  }

  function updateAmountLabel() {
    const { side, unit } = simInputs();
    setText("sim-amount-label", unit === "shares" ? "Shares" : side === "BUY" ? "Dollars to spend" : "Dollars to receive");
  }

  let announceTimer = 0;
  /** Says the estimate the user asked for, once typing pauses (the live re-renders are not announced). */
  function announceEstimate(text) {
    clearTimeout(announceTimer);
    announceTimer = setTimeout(() => { $("sim-announce").textContent = text; }, 600);
  }

  /** `byUser`: the user changed the form (announce the result); else the book moved. */
  function renderSimulation(byUser = false) {
    const out = $("sim-result");
    if (!book) return;
    const { side, unit, amount } = simInputs();
    const value = Number(amount);
    const say = (text) => { if (byUser) announceEstimate(text); };
    if (amount === "" || !(value > 0)) {
      out.replaceChildren(h("p", { class: "muted" }, "Enter a positive amount to see what it would cost."));
      say("Enter a positive amount to see what it would cost.");
      return;
    }
    let r;
    try {
      r = book.simulate(side, unit === "shares" ? { size: value } : { notional: value });
    } catch (error) {
      out.replaceChildren(h("p", { class: "bad" }, ctx.describe(error)));
      say(ctx.describe(error));
      return;
    }
    if (r.filled === 0) {
      const text = `There are no ${side === "BUY" ? "asks" : "bids"} to ${side === "BUY" ? "buy from" : "sell to"}.`;
      out.replaceChildren(h("p", { class: "bad" }, text));
      out.dataset.filled = "0";
      say(text);
      return;
    }
    const buying = side === "BUY";
    const fee = feeBps ? (r.notional * feeBps) / 10_000 : 0;
    const field = (name, label, text, raw, cls) =>
      h("div", { class: cls }, h("dt", {}, label), h("dd", { dataset: { field: name, value: String(raw) } }, text));
    const fields = [
      field("filled", "Shares", formatShares(r.filled, { unit: false }), r.filled),
      field("avgPrice", "Average price", `${cents(r.avgPrice)} (${Number(r.avgPrice).toFixed(4)})`, r.avgPrice, "strong"),
      field("notional", buying ? "Total cost" : "You receive", formatUsd(Math.round(r.notional * 100) / 100), r.notional, "strong"),
      field("worstPrice", "Worst price", cents(r.worstPrice), r.worstPrice),
      field("levelsUsed", "Price levels", String(r.levelsUsed), r.levelsUsed),
      field("slippage", "Slippage vs mid", Number.isNaN(r.slippage) ? "–" : cents(r.slippage), r.slippage),
    ];
    if (feeBps) fields.push(field("fee", `Fee (${feeBps} bps)`, formatUsd(Math.round(fee * 100) / 100), fee));
    const children = [h("dl", { class: "sim-grid" }, fields)];
    if (r.remaining > 0) {
      const left = unit === "shares" ? formatShares(r.remaining) : formatUsd(Math.round(r.remaining * 100) / 100);
      children.push(h("p", { class: "warn", dataset: { field: "remaining", value: String(r.remaining) } },
        `The book is too thin: ${left} would stay unfilled.`));
    }
    out.dataset.filled = String(r.filled);
    out.replaceChildren(...children);
    say(`${formatShares(r.filled)} at ${cents(r.avgPrice)} on average: ${buying ? "total cost" : "you receive"} ${formatUsd(Math.round(r.notional * 100) / 100)}` +
      (r.remaining > 0 ? ". The book is too thin to fill all of it." : "."));
  }

  // --- Price history -------------------------------------------------------------------------------

  async function loadHistory(token, run, signal) {
    const box = $("history-chart");
    const asked = interval;
    box.setAttribute("aria-busy", "true");
    try {
      const { history: points } = await ctx.client.getPricesHistory({ market: token, interval: asked, fidelity: INTERVALS[asked] }, { signal });
      if (run !== outcomeRun) return;
      if (asked !== interval) return; // another period was asked for meanwhile
      priceHistory = { run, points };
      historyMid = undefined;
      renderHistory(true);
    } catch (error) {
      if (ctx.isAbort(error) || run !== outcomeRun) return;
      if (asked !== interval) return;
      priceHistory = null;
      box.replaceChildren(errorBox(ctx.describe(error), () => loadHistory(token, outcomeRun, controller.signal)));
    } finally {
      if (asked === interval) box.removeAttribute("aria-busy");
      ctx.settled();
    }
  }

  /**
   * The service's history, ending now at the book's midpoint: the chart's last point and the "now" beside it
   * are the midpoint the stats show (the service's history is sampled and lags the live book). Redrawn when
   * the midpoint moves (`force`: a new history). Without a midpoint (a side of the book is empty) the
   * history is shown as the service gave it.
   */
  function renderHistory(force = false) {
    if (!priceHistory || priceHistory.run !== outcomeRun) return;
    const mid = book ? book.midpoint() : undefined;
    if (!force && mid === historyMid) return;
    historyMid = mid;
    const points = priceHistory.points;
    const last = points[points.length - 1];
    let now;
    if (mid !== undefined && last) {
      // (The service's clock may run ahead of this one: the midpoint is then its last point's price.)
      now = { t: Math.max(Date.now() / 1000, last.t), p: mid };
    }
    historyChart($("history-chart"), points, { now, format: cents });
    const label = $("history-change");
    const first = points[0];
    const end = now ?? last;
    if (!first || (points.length < 2 && !now)) {
      label.textContent = "";
      delete label.dataset.now;
      return;
    }
    const change = end.p - first.p;
    label.textContent = `${change >= 0 ? "▲" : "▼"} ${cents(Math.abs(change))} · ` +
      (now ? `now ${cents(now.p)}` : book ? `no midpoint now (last ${cents(last.p)})` : `last ${cents(last.p)}`);
    label.className = `change ${change >= 0 ? "up" : "down"}`;
    if (now) label.dataset.now = String(now.p);
    else delete label.dataset.now;
  }

  // --- Comments ------------------------------------------------------------------------------------

  /** The market's comments; when it has none, its event's (most comments sit on events). */
  async function loadComments(forMarket, signal) {
    const list = $("comments");
    const heading = $("comments-scope");
    const moreButton = $("comments-more");
    list.replaceChildren(h("li", { class: "loading-line" }, "Loading comments…"));
    let scope = { parent_entity_type: "market", parent_entity_id: String(forMarket.id) };
    let offset = 0;
    const page = async () => {
      const items = await ctx.client.getComments({ ...scope, limit: COMMENTS_PAGE, offset, order: "createdAt" }, { signal });
      offset += items.length;
      return items;
    };
    try {
      let items = await page();
      const event = forMarket.events?.[0];
      if (items.length === 0 && event) {
        scope = { parent_entity_type: "Event", parent_entity_id: String(event.id) };
        items = await page();
        heading.textContent = items.length ? `On the event “${event.title}”` : "";
      } else {
        heading.textContent = items.length ? "On this market" : "";
      }
      if (market !== forMarket) return;
      list.replaceChildren(...(items.length ? items.map(renderComment) : [h("li", { class: "empty-line" }, "No comments yet.")]));
      moreButton.hidden = items.length < COMMENTS_PAGE;
      moreButton.onclick = async () => {
        moreButton.disabled = true;
        try {
          const next = await page();
          const rendered = next.map(renderComment);
          list.append(...rendered);
          rendered[0]?.querySelector("button, a")?.focus();
          moreButton.hidden = next.length < COMMENTS_PAGE;
        } catch (error) {
          if (!ctx.isAbort(error)) list.append(h("li", {}, errorBox(ctx.describe(error))));
        } finally {
          moreButton.disabled = false;
          ctx.settled();
        }
      };
    } catch (error) {
      if (ctx.isAbort(error) || market !== forMarket) return;
      list.replaceChildren(h("li", {}, errorBox(ctx.describe(error), () => loadComments(forMarket, controller.signal))));
    } finally {
      ctx.settled();
    }
  }

  function renderComment(comment) {
    const name = comment.profile?.name || comment.profile?.pseudonym || shortId(comment.userAddress);
    const replies = comment.replyCount ?? comment.replies?.length ?? 0;
    const item = h("li", { class: "comment" },
      h("div", { class: "avatar", "aria-hidden": "true" }, name.slice(0, 1).toUpperCase()),
      h("div", { class: "comment-main" },
        h("p", { class: "comment-head" }, h("strong", {}, name), h("span", { class: "muted" }, ` · ${date(comment.createdAt)}`)),
        h("p", { class: "comment-body" }, comment.body),
        h("p", { class: "comment-foot muted" }, `♥ ${comment.reactionCount ?? 0}`)));
    if (replies > 0) {
      const button = h("button", { type: "button", class: "link-button", "aria-expanded": "false" }, `${replies} ${replies === 1 ? "reply" : "replies"}`);
      button.addEventListener("click", async () => {
        button.disabled = true;
        try {
          const found = await ctx.client.getCommentReplies(comment.id, { limit: 20 }, { signal: controller.signal });
          button.replaceWith(h("ol", { class: "replies" }, found.map(renderComment)));
        } catch (error) {
          if (!ctx.isAbort(error)) button.after(errorBox(ctx.describe(error)));
          button.disabled = false;
        } finally {
          ctx.settled();
        }
      });
      item.querySelector(".comment-foot").append(" · ", button);
    }
    return item;
  }

  // After an outage, what could not be read then is read again (the book comes back with the stream).
  ctx.onRecovered(() => {
    const token = tokens[outcomeIndex];
    if ($("view-market").hidden || !token || !controller || controller.signal.aborted) return;
    if ($("stat-fee").dataset.failed === "true") loadFee(token, outcomeRun, controller.signal);
  });

  // Streams belong to the client that opened them: close before it is replaced, then follow the new one.
  ctx.onRelease(() => closeStream());
  ctx.onConnect(({ serviceChanged }) => {
    if ($("view-market").hidden || !route) return;
    if (serviceChanged) show(route); // another service: its market, its books
    else openStream();
  });

  return {
    show,
    hide() {
      controller?.abort();
      closeStream();
      pill.reset();
      freeBook();
    },
  };
}
