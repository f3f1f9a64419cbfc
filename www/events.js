// The markets view: events with their markets and live outcome prices; search, tag and status filters,
// and "load more" paging with the page getEvents() answers (hasNextPage / getNextPage).
import { $, h, formatPrice, plural, usdShort, date, jsonList, errorBox, skeletons } from "./ui.js";

const PAGE = 12;
const MARKETS_SHOWN = 4;
/** POST /prices takes at most 500 tokens. */
const PRICES_CHUNK = 500;

export function eventsView(ctx) {
  const list = $("events");
  const status = $("events-status");
  const errors = $("events-error");
  const more = $("more");
  const search = $("q");
  const tagSelect = $("tag");
  const chips = $("search-tags");

  let loaded = false;
  let run = 0; // a new query starts a new run; answers of older runs are dropped
  let controller = null;
  let source = null;
  let shown = 0;
  let firstRender = true;

  // --- Filters -------------------------------------------------------------------------------------

  function stateFilter() {
    return document.querySelector("input[name=state]:checked")?.value ?? "active";
  }

  function stateParams(state) {
    if (state === "active") return { active: true, closed: false };
    if (state === "closed") return { closed: true };
    return {};
  }

  function matchesState(event, state) {
    if (state === "active") return event.active !== false && !event.closed;
    if (state === "closed") return Boolean(event.closed);
    return true;
  }

  $("filters").addEventListener("submit", (event) => {
    event.preventDefault();
    if (search.value.trim()) tagSelect.value = "";
    reload();
  });
  search.addEventListener("search", () => { if (!search.value) reload(); });
  tagSelect.addEventListener("change", () => {
    search.value = "";
    reload();
  });
  for (const radio of document.querySelectorAll("input[name=state]")) radio.addEventListener("change", () => reload());
  more.addEventListener("click", () => loadMore(run, false));

  function chooseTag(tag) {
    if (![...tagSelect.options].some((o) => o.value === String(tag.id))) {
      tagSelect.append(h("option", { value: String(tag.id) }, tag.label));
    }
    tagSelect.value = String(tag.id);
    search.value = "";
    reload();
    tagSelect.focus();
  }

  async function loadTags() {
    try {
      const tags = await ctx.client.getTags({ limit: 100 });
      tags.sort((a, b) => a.label.localeCompare(b.label));
      const chosen = tagSelect.value;
      tagSelect.replaceChildren(h("option", { value: "" }, "All tags"),
        ...tags.map((tag) => h("option", { value: String(tag.id) }, tag.label)));
      tagSelect.value = chosen;
    } catch (error) {
      // The list works without tags; say so next to the select.
      if (!ctx.isAbort(error)) tagSelect.title = `Tags unavailable: ${ctx.describe(error)}`;
    }
  }

  // --- Sources: one page at a time from the event list or from search ------------------------------

  /** Pages of GET /events: each page leads to the next; a failed page is asked for again. */
  function listSource(params, signal) {
    let page = null;
    let loaded = 0;
    return {
      async next() {
        status.textContent = `Loading… ${plural(loaded, "event")} so far`;
        page = await (page ? page.getNextPage() : ctx.client.getEvents({ ...params, limit: PAGE }, { signal }));
        loaded += page.length;
        return { items: [...page], done: !page.hasNextPage() };
      },
    };
  }

  /** Pages of GET /public-search; each found event is then read whole (search gives no markets). */
  function searchSource(q, state, signal) {
    let page = 0;
    return {
      async next() {
        const result = await ctx.client.publicSearch({ q, limit_per_type: PAGE, page: page + 1, search_tags: page === 0 }, { signal });
        page += 1;
        if (page === 1) showTagChips(result.tags ?? []);
        status.textContent = `Found ${plural(result.pagination.totalResults, "event")}; loading their markets…`;
        const found = result.events.filter((event) => matchesState(event, state));
        const whole = await Promise.all(found.map((event) =>
          ctx.client.getEvents({ slug: event.slug, limit: 1 }, { signal }).then((events) => events[0] ?? event)));
        return { items: whole, done: !result.pagination.hasMore, total: result.pagination.totalResults };
      },
    };
  }

  function showTagChips(tags) {
    chips.replaceChildren();
    chips.hidden = tags.length === 0;
    if (!tags.length) return;
    chips.append(h("span", { class: "chips-label" }, "Tags:"),
      ...tags.slice(0, 8).map((tag) => h("button", { type: "button", class: "chip", onclick: () => chooseTag(tag) },
        tag.label, h("span", { class: "chip-count" }, String(tag.event_count)))));
  }

  // --- Loading -------------------------------------------------------------------------------------

  function reload() {
    run += 1;
    controller?.abort();
    controller = new AbortController();
    shown = 0;
    errors.replaceChildren();
    list.replaceChildren(...skeletons(4, "event-card skeleton"));
    more.hidden = true;
    const q = search.value.trim();
    const state = stateFilter();
    if (q) {
      source = searchSource(q, state, controller.signal);
    } else {
      chips.hidden = true;
      const params = stateParams(state);
      if (tagSelect.value) params.tag_id = Number(tagSelect.value);
      source = listSource(params, controller.signal);
    }
    status.textContent = "Loading events…";
    return loadMore(run, true);
  }

  async function loadMore(myRun, replacing) {
    const signal = controller.signal;
    more.disabled = true;
    more.textContent = "Loading…";
    list.setAttribute("aria-busy", "true");
    errors.replaceChildren();
    try {
      const { items, done, total } = await source.next();
      if (myRun !== run) return;
      if (replacing) list.replaceChildren();
      const cards = items.map(renderEvent);
      list.append(...cards);
      shown += items.length;
      if (shown === 0) {
        list.replaceChildren(h("li", { class: "empty-state" },
          h("p", {}, search.value.trim() ? `No events match “${search.value.trim()}”.` : "No events match these filters.")));
      }
      const counted = total !== undefined ? `${shown} of ${plural(total, "event")}` : plural(shown, "event");
      status.textContent = done ? counted : `${counted}, more available`;
      more.hidden = done;
      if (firstRender && shown > 0) {
        firstRender = false;
        performance.mark("predictkit:first-render");
        document.body.dataset.firstRender = "true";
      }
      if (!replacing && cards.length) cards[0].querySelector("a")?.focus();
      fillPrices(cards, items, signal);
    } catch (error) {
      if (myRun !== run || ctx.isAbort(error)) return;
      if (replacing) list.replaceChildren();
      status.textContent = "";
      errors.replaceChildren(errorBox(ctx.describe(error), () => (replacing || shown === 0 ? reload() : loadMore(run, false))));
      more.hidden = true;
    } finally {
      if (myRun === run) {
        more.disabled = false;
        more.textContent = "Load more events";
        list.removeAttribute("aria-busy");
        ctx.settled();
      }
    }
  }

  /** Fills in outcome prices (POST /prices) for the open markets of the cards just shown. */
  async function fillPrices(cards, events, signal) {
    const tokens = [];
    for (const event of events) {
      for (const market of event.markets ?? []) {
        if (!market.closed) tokens.push(...jsonList(market.clobTokenIds));
      }
    }
    const spans = cards.flatMap((card) => [...card.querySelectorAll(".outcome-price[data-token]")]);
    const byToken = new Map();
    for (const span of spans) {
      if (!byToken.has(span.dataset.token)) byToken.set(span.dataset.token, []);
      byToken.get(span.dataset.token).push(span);
    }
    for (let i = 0; i < tokens.length; i += PRICES_CHUNK) {
      const chunk = tokens.slice(i, i + PRICES_CHUNK);
      try {
        const prices = await ctx.client.getPrices(chunk.map((token_id) => ({ token_id })), { signal });
        for (const token of chunk) {
          const quote = prices[token] ?? {};
          for (const span of byToken.get(token) ?? []) {
            // BUY is the best ask: what one share of this outcome costs now.
            span.textContent = quote.BUY ? formatPrice(quote.BUY) : quote.SELL ? formatPrice(quote.SELL) : "–";
            span.dataset.buy = quote.BUY ?? "";
            span.title = `Best ask ${quote.BUY ? formatPrice(quote.BUY) : "none"} · best bid ${quote.SELL ? formatPrice(quote.SELL) : "none"}`;
            span.parentElement.classList.remove("pending");
          }
        }
      } catch (error) {
        if (ctx.isAbort(error)) return;
        for (const token of chunk) for (const span of byToken.get(token) ?? []) {
          span.textContent = "–";
          span.title = `Price unavailable: ${ctx.describe(error)}`;
          span.parentElement.classList.remove("pending");
        }
      } finally {
        ctx.settled();
      }
    }
  }

  // --- Rendering -----------------------------------------------------------------------------------

  function renderEvent(event) {
    const markets = event.markets ?? [];
    const openMarkets = markets.filter((m) => !m.closed).length;
    const meta = [
      event.closed ? h("span", { class: "badge closed" }, "Closed") : h("span", { class: "badge live" }, "Live"),
      event.volume !== undefined && h("span", {}, `${usdShort(event.volume)} vol`),
      event.endDate && h("span", {}, `${event.closed ? "Ended" : "Ends"} ${date(event.endDate)}`),
      h("span", {}, `${markets.length} market${markets.length === 1 ? "" : "s"}${openMarkets !== markets.length ? `, ${openMarkets} open` : ""}`),
    ];
    const tags = (event.tags ?? []).slice(0, 3).map((tag) =>
      h("button", { type: "button", class: "chip small", onclick: () => chooseTag(tag), "aria-label": `Show events tagged ${tag.label}` }, tag.label));
    const marketList = h("ul", { class: "market-list" }, markets.slice(0, MARKETS_SHOWN).map(renderMarket));
    const card = h("li", { class: `event-card${event.closed ? " is-closed" : ""}`, dataset: { eventId: event.id } },
      h("div", { class: "event-head" },
        h("div", { class: "event-icon", "aria-hidden": "true" }, initials(event.title)),
        h("div", {},
          h("h2", { class: "event-title" }, event.title),
          h("p", { class: "event-meta" }, meta))),
      marketList,
      tags.length > 0 && h("div", { class: "event-tags" }, tags));
    if (markets.length > MARKETS_SHOWN) {
      const rest = markets.slice(MARKETS_SHOWN);
      const toggle = h("button", { type: "button", class: "link-button", "aria-expanded": "false" }, `Show ${plural(rest.length, "more market", "more markets")}`);
      toggle.addEventListener("click", () => {
        const rows = rest.map(renderMarket);
        marketList.append(...rows);
        toggle.remove();
        rows[0].querySelector("a")?.focus();
        fillPrices([card], [{ markets: rest }], controller.signal);
      });
      marketList.after(toggle);
    }
    return card;
  }

  function renderMarket(market) {
    const outcomes = jsonList(market.outcomes);
    const tokens = jsonList(market.clobTokenIds);
    const finals = jsonList(market.outcomePrices);
    const title = market.groupItemTitle || market.question;
    return h("li", { class: `market-row${market.closed ? " is-closed" : ""}` },
      h("a", { href: `#/market/${encodeURIComponent(market.id)}`, class: "market-link" }, title),
      h("div", { class: "outcomes" }, outcomes.map((name, i) => {
        const resolved = market.closed && finals[i] !== undefined;
        return h("a", {
          href: `#/market/${encodeURIComponent(market.id)}/${i}`,
          class: `outcome o${i % 2}${resolved ? " resolved" : " pending"}`,
        },
        h("span", { class: "outcome-name" }, name),
        resolved
          ? h("span", { class: "outcome-price" }, Number(finals[i]) === 1 ? "Won" : Number(finals[i]) === 0 ? "Lost" : formatPrice(finals[i]))
          : h("span", { class: "outcome-price", dataset: { token: tokens[i] ?? "" } }, "…"));
      })));
  }

  function initials(text) {
    return (text.match(/\b[A-Za-z0-9]/g) ?? ["?"]).slice(0, 2).join("").toUpperCase();
  }

  ctx.onConnect(({ serviceChanged }) => {
    if (!serviceChanged) return;
    loaded = false;
    tagSelect.replaceChildren(h("option", { value: "" }, "All tags"));
    if (!$("view-events").hidden) show();
  });

  function show() {
    document.title = "Markets · PredictKit demo";
    if (loaded) return;
    loaded = true;
    loadTags();
    reload();
  }

  return { show, hide() {} };
}
