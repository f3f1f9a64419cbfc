// The demo page: plain ES modules importing the web build of PredictKit from the same origin.
import init, { Client, OrderBook, isPredictKitError } from "../pkg/web/predictkit.js";

const $ = (id) => document.getElementById(id);
const LEVELS = 12;

await init();
const client = new Client({ baseUrl: location.origin });

function describe(error) {
  if (!isPredictKitError(error)) return String(error);
  const messages = {
    NOT_FOUND: "The service has no book for this token.",
    NETWORK: "The service cannot be reached.",
    RATE_LIMITED: "Too many requests; try again shortly.",
  };
  return messages[error.code] ?? `${error.code}: ${error.message}`;
}

function rows(levels, best, side) {
  if (levels.length === 0) {
    const tr = document.createElement("tr");
    const td = document.createElement("td");
    td.colSpan = 2;
    td.className = "empty";
    td.textContent = `No ${side}`;
    tr.append(td);
    return [tr];
  }
  return levels.slice(0, LEVELS).map(({ price, size }) => {
    const tr = document.createElement("tr");
    if (Number(price) === best) tr.className = "best";
    for (const text of [price, size]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    return tr;
  });
}

async function load(tokenId) {
  $("status").textContent = "Loading…";
  try {
    // One request; the plain object feeds the table and its JSON text feeds the exact book.
    const summary = await client.getOrderBook(tokenId);
    const book = OrderBook.fromJson(JSON.stringify(summary));
    const bid = book.bestBid();
    const ask = book.bestAsk();
    book.free();
    const fmt = (level) => (level ? `${level.price} × ${level.size}` : "none");
    $("best-bid").textContent = fmt(bid);
    $("best-ask").textContent = fmt(ask);
    $("spread").textContent = bid && ask ? (ask.price - bid.price).toFixed(4) : "–";
    const byPrice = (dir) => (a, b) => dir * (Number(a.price) - Number(b.price));
    $("bids").replaceChildren(...rows([...summary.bids].sort(byPrice(-1)), bid?.price, "bids"));
    $("asks").replaceChildren(...rows([...summary.asks].sort(byPrice(1)), ask?.price, "asks"));
    $("book").hidden = false;
    $("status").textContent = `${summary.bids.length} bids, ${summary.asks.length} asks`;
    document.body.dataset.loaded = tokenId;
  } catch (error) {
    $("book").hidden = true;
    $("status").textContent = describe(error);
  }
}

$("book-form").addEventListener("submit", (event) => {
  event.preventDefault();
  load($("token").value);
});
load($("token").value);
