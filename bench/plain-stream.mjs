// A careful plain-JavaScript keeper of live books, written for the streaming benchmark as the strongest fair
// competitor of `client.marketStream`: what a page would write with no SDK. Per frame: JSON.parse of the
// text; per price_change entry: the price validated and turned into integer 10^-6 units, a binary search in
// the side's sorted prices (bids ascending, asks descending: the service's order, best last), then an
// update in place, an insert or a removal (Array splice), keeping each level's compact JSON fragment
// (`{"price":"0.4","size":"10"}`) ready so that the summary the service hashes is one string concatenation
// and two joins. Verification follows the same policy as the SDK ("frame": after each asset's last entry
// of a frame; "entry": after every entry; "off"), skips entries whose hash is empty, and counts checks
// and mismatches.
//
// Two ways to hash:
//   - `handle(text)` (async): the browser's SHA-1, crypto.subtle.digest, which is what a page would use.
//     The summaries of a frame are all encoded and handed to digest() before the first await (digest copies
//     its input at the call), and the frame's promise resolves when every digest has been compared.
//   - `handleSync(text)`: the same work with the synchronous pure-JS SHA-1 of bench/sha1.mjs.
import { sha1Hex } from "/bench/sha1.mjs";

const DECIMAL = /^\d{1,12}(\.\d{1,6})?$/;
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

function units(text) {
  if (typeof text !== "string" || !DECIMAL.test(text)) throw new Error(`not a decimal: ${text}`);
  return Math.round(+text * 1e6);
}

class PlainSide {
  constructor(ascending) {
    this.ascending = ascending;
    this.prices = [];
    this.fragments = [];
  }

  /** The first index whose price is not before `p` in this side's order. */
  search(p) {
    const prices = this.prices;
    let lo = 0, hi = prices.length;
    if (this.ascending) {
      while (lo < hi) { const m = (lo + hi) >>> 1; if (prices[m] < p) lo = m + 1; else hi = m; }
    } else {
      while (lo < hi) { const m = (lo + hi) >>> 1; if (prices[m] > p) lo = m + 1; else hi = m; }
    }
    return lo;
  }

  set(price, size) {
    const p = units(price);
    const remove = units(size) === 0;
    const i = this.search(p);
    const found = i < this.prices.length && this.prices[i] === p;
    if (remove) {
      if (found) { this.prices.splice(i, 1); this.fragments.splice(i, 1); }
      return;
    }
    const fragment = `{"price":"${price}","size":"${size}"}`;
    if (found) this.fragments[i] = fragment;
    else { this.prices.splice(i, 0, p); this.fragments.splice(i, 0, fragment); }
  }
}

class PlainBook {
  constructor(snapshot) {
    const o = JSON.parse(snapshot);
    this.assetId = o.asset_id;
    this.head = `{"market":${JSON.stringify(o.market)},"asset_id":${JSON.stringify(o.asset_id)},"timestamp":"`;
    this.tail = "]";
    for (const key of ["min_order_size", "tick_size", "neg_risk", "last_trade_price"]) {
      if (key in o) this.tail += `,"${key}":${JSON.stringify(o[key])}`;
    }
    this.tail += "}";
    this.timestamp = o.timestamp;
    this.time = Number(o.timestamp);
    this.bids = new PlainSide(true);
    this.asks = new PlainSide(false);
    // The service lists levels sorted; sort anyway, as a careful reader of a snapshot would (not timed).
    const load = (side, levels) => {
      const sorted = levels.map((l) => [units(l.price), l]).sort((a, b) => (side.ascending ? a[0] - b[0] : b[0] - a[0]));
      for (const [, l] of sorted) side.set(l.price, l.size);
    };
    load(this.bids, o.bids);
    load(this.asks, o.asks);
    this.checks = 0;
    this.mismatches = 0;
    this.verified = false;
  }

  /** The compact JSON the service hashes. */
  summary() {
    return `${this.head}${this.timestamp}","hash":"","bids":[${this.bids.fragments.join(",")}],"asks":[${this.asks.fragments.join(",")}${this.tail}`;
  }

  record(matched) {
    this.verified = matched;
    if (matched) this.checks++;
    else this.mismatches++;
  }
}

export class PlainStream {
  constructor(verify = "frame") {
    this.verify = verify;
    this.books = new Map();
    this.encoder = new TextEncoder();
    this.buffer = new Uint8Array(1 << 16);
  }

  addBook(snapshot) {
    const book = new PlainBook(snapshot);
    this.books.set(book.assetId, book);
    return book;
  }

  /** The summary of `book` as UTF-8 in a reused buffer; returns its length. */
  encode(book) {
    const s = book.summary();
    if (s.length * 3 > this.buffer.length) this.buffer = new Uint8Array(s.length * 3);
    return this.encoder.encodeInto(s, this.buffer).written;
  }

  /**
   * Applies one frame; calls `check(book, expectedHash)` where the policy verifies. Events that do not move
   * a book are left alone, as the SDK does.
   */
  apply(text, check) {
    const parsed = JSON.parse(text);
    const events = Array.isArray(parsed) ? parsed : [parsed];
    for (const event of events) {
      if (event.event_type !== "price_change") continue;
      const timestamp = event.timestamp;
      const time = Number(timestamp);
      const entries = event.price_changes;
      for (let i = 0; i < entries.length; i++) {
        const entry = entries[i];
        const book = this.books.get(entry.asset_id);
        if (!book || time < book.time) continue;
        (entry.side === "BUY" ? book.bids : book.asks).set(entry.price, entry.size);
        book.timestamp = timestamp;
        book.time = time;
        let due = this.verify === "entry";
        if (this.verify === "frame") {
          due = true;
          for (let j = i + 1; j < entries.length; j++) if (entries[j].asset_id === entry.asset_id) { due = false; break; }
        }
        if (due && entry.hash) check(book, entry.hash);
      }
    }
  }

  /** One frame, hashed with crypto.subtle; resolves when every check of the frame is done. */
  handle(text) {
    const pending = [];
    this.apply(text, (book, expected) => {
      const length = this.encode(book);
      pending.push(crypto.subtle.digest("SHA-1", this.buffer.subarray(0, length)).then((digest) => {
        const d = new Uint8Array(digest);
        let hex = "";
        for (let k = 0; k < d.length; k++) hex += HEX[d[k]];
        book.record(hex === expected);
      }));
    });
    return pending.length === 1 ? pending[0] : Promise.all(pending);
  }

  /** One frame, hashed with the synchronous pure-JS SHA-1. */
  handleSync(text) {
    this.apply(text, (book, expected) => {
      const length = this.encode(book); // may replace this.buffer with a larger one: read it after
      book.record(sha1Hex(this.buffer, length) === expected);
    });
  }

  /** The hash of a book now (synchronous SHA-1), for the benchmark's final check. */
  hash(assetId) {
    const length = this.encode(this.books.get(assetId));
    return sha1Hex(this.buffer, length);
  }
}
