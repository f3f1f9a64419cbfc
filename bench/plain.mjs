// A careful plain-JavaScript order book, written for the benchmark as the strongest fair competitor:
// it reads the response bytes directly (no JSON.parse for the compact form the service sends), keeps
// prices and sizes as integers scaled by 10^6 in typed arrays, caches the best prices, walks typed arrays,
// and hashes by copying the received text into one buffer for the browser's native SHA-1.
// It handles what the benchmark feeds it (the service's compact form), not every JSON a server could send.

const Q = 0x22, COMMA = 0x2c, RBRACKET = 0x5d, RBRACE = 0x7d, DOT = 0x2e;
const PRICE_KEY = [...'{"price":"'].map((c) => c.charCodeAt(0));
const SIZE_KEY = [...'","size":"'].map((c) => c.charCodeAt(0));
const BIDS_KEY = [...'"bids":['].map((c) => c.charCodeAt(0));
const ASKS_KEY = [...'"asks":['].map((c) => c.charCodeAt(0));
const PAD = [1e6, 1e5, 1e4, 1e3, 100, 10, 1];

function find(bytes, pattern, from) {
  outer: for (let i = from; i <= bytes.length - pattern.length; i++) {
    for (let j = 0; j < pattern.length; j++) if (bytes[i + j] !== pattern[j]) continue outer;
    return i;
  }
  return -1;
}

function matches(bytes, at, pattern) {
  for (let j = 0; j < pattern.length; j++) if (bytes[at + j] !== pattern[j]) return false;
  return true;
}

class Side {
  constructor(capacity) {
    this.prices = new Float64Array(capacity);
    this.sizes = new Float64Array(capacity);
    // Offsets of each level's text: [start, end) of `{"price":...}`.
    this.starts = new Uint32Array(capacity);
    this.ends = new Uint32Array(capacity);
    this.length = 0;
  }
}

/** Parses one quoted decimal at `i` (just after the quote); returns [units, index of the closing quote]. */
function decimal(bytes, i) {
  let int = 0, d;
  const start = i;
  while ((d = bytes[i] - 48) >= 0 && d <= 9) { int = int * 10 + d; i++; }
  if (i === start) throw new Error("bad decimal");
  let frac = 0, digits = 0;
  if (bytes[i] === DOT) {
    i++;
    while ((d = bytes[i] - 48) >= 0 && d <= 9) { if (digits === 6) throw new Error("too many decimals"); frac = frac * 10 + d; digits++; i++; }
  }
  if (bytes[i] !== Q) throw new Error("bad decimal");
  return [int * 1e6 + frac * PAD[digits], i];
}

function readSide(bytes, at, side) {
  let i = at;
  if (bytes[i] === RBRACKET) return i + 1;
  for (;;) {
    if (!matches(bytes, i, PRICE_KEY)) throw new Error("not the compact form");
    const start = i;
    const [price, pq] = decimal(bytes, i + PRICE_KEY.length);
    if (!matches(bytes, pq, SIZE_KEY)) throw new Error("not the compact form");
    const [size, sq] = decimal(bytes, pq + SIZE_KEY.length);
    if (bytes[sq + 1] !== RBRACE) throw new Error("not the compact form");
    const n = side.length++;
    side.prices[n] = price; side.sizes[n] = size; side.starts[n] = start; side.ends[n] = sq + 2;
    i = sq + 2;
    if (bytes[i] === COMMA) { i++; continue; }
    if (bytes[i] === RBRACKET) return i + 1;
    throw new Error("not the compact form");
  }
}

export class PlainBook {
  static fromBytes(bytes) {
    const book = new PlainBook();
    book.bytes = bytes;
    // A level takes at least 26 bytes, which bounds the arrays without a first pass.
    const capacity = Math.ceil(bytes.length / 26);
    book.bids = new Side(capacity);
    book.asks = new Side(capacity);
    const b = find(bytes, BIDS_KEY, 0);
    book.bidsAt = b + BIDS_KEY.length;
    book.bidsEnd = readSide(bytes, book.bidsAt, book.bids);
    const a = find(bytes, ASKS_KEY, book.bidsEnd);
    book.asksAt = a + ASKS_KEY.length;
    book.asksEnd = readSide(bytes, book.asksAt, book.asks);
    book.bestBid = best(book.bids, true);
    book.bestAsk = best(book.asks, false);
    return book;
  }

  bestBidPrice() { return this.bestBid / 1e6; }
  bestAskPrice() { return this.bestAsk / 1e6; }
  midpoint() { return (this.bestBid + this.bestAsk) / 2e6; }
  spread() { return (this.bestAsk - this.bestBid) / 1e6; }

  /** The upstream buy walk (cash amount) from the best ask, which the service lists last. */
  marketBuyPrice(amount, fok) {
    const { prices, sizes, length } = this.asks;
    if (length === 0) throw new Error("no match");
    const target = amount * 1e12;
    let sum = 0;
    for (let i = length - 1; i >= 0; i--) {
      sum += prices[i] * sizes[i];
      if (sum >= target) return prices[i] / 1e6;
    }
    if (fok) throw new Error("no match");
    return prices[0] / 1e6;
  }

  /** The hash: the received text of the book with `hash` emptied, hashed natively. */
  async hash() {
    // The service sends its own compact form, so only the hash value needs replacing.
    const bytes = this.bytes;
    const h = find(bytes, [...'"hash":"'].map((c) => c.charCodeAt(0)), 0);
    const valueStart = h + 8;
    const valueEnd = bytes.indexOf(Q, valueStart);
    const out = new Uint8Array(bytes.length - (valueEnd - valueStart));
    out.set(bytes.subarray(0, valueStart), 0);
    out.set(bytes.subarray(valueEnd), valueStart);
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-1", out));
    let hex = "";
    for (const x of digest) hex += (x < 16 ? "0" : "") + x.toString(16);
    return hex;
  }
}

function best(side, highest) {
  let bestPrice = highest ? -Infinity : Infinity;
  const { prices, length } = side;
  for (let i = 0; i < length; i++) {
    const p = prices[i];
    if (highest ? p > bestPrice : p < bestPrice) bestPrice = p;
  }
  return bestPrice;
}
