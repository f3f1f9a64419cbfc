// How prices, sizes and dollar amounts are written, everywhere: the demo page (through ui.js) and the example
// extension (`cargo xtask build` copies this file to examples/extension/format.js, which git ignores). No DOM:
// plain functions of numbers (or the service's decimal text).
//
// A price is a probability, written in cents at its market's tick: at tick 0.01 "9¢", at 0.001 "9.1¢", at
// 0.0001 "9.01¢", so neighbouring levels never read the same. A price off its tick (an average, a midpoint
// between two levels) keeps its own digits, up to 10^-6. Sizes are shares, exact to 10^-6 as the service
// counts them; dollar amounts are exact to 10^-6 too, with at least cents.

/** The decimal places `value` is written with (at most 6). */
export function placesOf(value) {
  const n = Math.abs(Number(value));
  if (!Number.isFinite(n)) return 0;
  const text = String(Number(n.toFixed(6)));
  const dot = text.indexOf(".");
  return dot < 0 ? 0 : text.length - dot - 1;
}

const valid = (value) => value !== undefined && value !== null && value !== "" && Number.isFinite(Number(value));

/**
 * A price in cents at the market's tick (`tick`, a number or decimal text; 0.01 when unknown): "48.5¢".
 * `-` for no price.
 */
export function formatPrice(price, tick) {
  if (!valid(price)) return "–";
  const places = Math.max(placesOf(valid(tick) && Number(tick) > 0 ? tick : 0.01), placesOf(price));
  const cents = (Number(price) * 100).toFixed(Math.max(0, places - 2));
  return `${cents.includes(".") ? cents.replace(/0+$/, "").replace(/\.$/, "") : cents}¢`;
}

const sharesFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 6 });

/** A size in shares, exact: "5.5555 shares", "1 share"; `{ unit: false }` for a column headed "Shares". */
export function formatShares(size, { unit = true } = {}) {
  if (!valid(size)) return "–";
  const n = Number(size);
  const text = sharesFormat.format(Math.abs(n) < 5e-7 ? 0 : n);
  return unit ? `${text} ${text === "1" ? "share" : "shares"}` : text;
}

const usdFormat = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 6 });

/** Dollars, exact to 10^-6 and at least to the cent: "$5.00", "$4.999995". */
export function formatUsd(amount) {
  if (!valid(amount)) return "–";
  return usdFormat.format(Number(amount));
}

/** "1 event", "2 events": a count and its noun, `plural` when it is not "noun" + "s". */
export function plural(count, noun, many = `${noun}s`) {
  return `${sharesFormat.format(count)} ${count === 1 ? noun : many}`;
}

/** Why `text` is not a token id (a long decimal number), or "" when it is one. */
export function notATokenId(text) {
  const id = String(text ?? "").trim();
  if (/^\d{1,100}$/.test(id)) return "";
  if (/^0x[0-9a-f]{64}$/i.test(id)) return `${id.slice(0, 10)}… is a market's condition id, not a token id`;
  if (/^[a-z][a-z0-9+.-]*:|\/|#/i.test(id)) return `“${id.length > 40 ? `${id.slice(0, 40)}…` : id}” is a link, not a token id`;
  return `“${id.length > 40 ? `${id.slice(0, 40)}…` : id}” is not a token id (a token id is a long decimal number)`;
}
