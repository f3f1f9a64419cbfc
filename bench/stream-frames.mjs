// The streaming benchmark's reference ("truth") implementation and frame generator, run in Node by
// bench/stream.mjs before anything is timed. It keeps each book as the service does (bids ascending, asks
// descending, best last; price and size text as sent), applies every generated change, and computes the
// service's hash after each entry: SHA-1 (node:crypto) of JSON.stringify of the book summary with its keys
// in the interface's order and `hash: ""`. It is written for obviousness, not speed, and shares no code
// with the plain-JS competitor (bench/plain-stream.mjs) nor, of course, with the SDK; the SDK's books must
// agree with it on every checked hash (the page asserts zero mismatches and compares the final books).
import { createHash } from "node:crypto";

/** 10^-6 units of the price grid: tick 0.0001. */
const TICK = 100;
const MID = 500_000;
export const MARKET_FIELDS = { min_order_size: "5", tick_size: "0.0001", neg_risk: false, last_trade_price: "0.5" };

/** A deterministic generator (mulberry32), so every run measures the same frames. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Decimal text of 10^-6 units without trailing zeros, as the service writes prices and sizes. */
export function text(units) {
  const int = Math.floor(units / 1e6);
  const frac = units % 1e6;
  return frac === 0 ? String(int) : `${int}.${String(frac).padStart(6, "0").replace(/0+$/, "")}`;
}

const sha1 = (s) => createHash("sha1").update(s, "utf8").digest("hex");

/** A token id like the service's (77 digits) and a condition id (0x + 64 hex). */
export function ids(random) {
  let asset = String(1 + Math.floor(random() * 9));
  while (asset.length < 77) asset += Math.floor(random() * 10);
  let market = "0x";
  while (market.length < 66) market += Math.floor(random() * 16).toString(16);
  return { asset, market };
}

/**
 * One side of a book: `levels` ({ price, size } text, as the summary lists them) in the service's order (bids
 * ascending, asks descending), and `units`, their prices in 10^-6 units, for the searches.
 */
class Side {
  constructor(isBid) {
    this.isBid = isBid;
    this.units = [];
    this.levels = [];
  }

  /** Whether price `a` comes before price `b` in the service's order. */
  before(a, b) {
    return this.isBid ? a < b : a > b;
  }

  /** The index of the level at `units`, or where it would go. */
  position(units) {
    let lo = 0, hi = this.units.length;
    while (lo < hi) {
      const m = (lo + hi) >> 1;
      if (this.before(this.units[m], units)) lo = m + 1;
      else hi = m;
    }
    return lo;
  }

  /** Sets the level at `units` to `size` (text); "0" removes it. */
  set(units, price, size) {
    const i = this.position(units);
    const found = i < this.units.length && this.units[i] === units;
    if (size === "0") {
      if (found) {
        this.units.splice(i, 1);
        this.levels.splice(i, 1);
      }
    } else if (found) {
      this.levels[i] = { price, size };
    } else {
      this.units.splice(i, 0, units);
      this.levels.splice(i, 0, { price, size });
    }
  }

  has(units) {
    const i = this.position(units);
    return i < this.units.length && this.units[i] === units;
  }

  /** A random level's price in units. */
  pick(random) {
    return this.units[Math.floor(random() * this.units.length)];
  }

  /** The best level's price text (the last level), "0" for an empty side. */
  best() {
    return this.levels.length ? this.levels[this.levels.length - 1].price : "0";
  }
}

/**
 * The service's view of one asset's book. Its price window is 2 × `levels` ticks on each side of 0.5, half
 * of them filled at first; changes keep about `levels` levels per side.
 */
export class TruthBook {
  constructor({ random, levels, asset, market, timestamp }) {
    this.random = random;
    this.target = levels;
    this.asset = asset;
    this.market = market;
    this.timestamp = String(timestamp);
    this.bids = new Side(true);
    this.asks = new Side(false);
    for (const side of [this.bids, this.asks]) {
      const slots = [...Array(2 * levels).keys()];
      for (let i = slots.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [slots[i], slots[j]] = [slots[j], slots[i]];
      }
      for (const slot of slots.slice(0, levels)) {
        const units = this.slotUnits(side, slot);
        side.set(units, text(units), this.size());
      }
    }
  }

  slotUnits(side, slot) {
    return side.isBid ? MID - TICK * (slot + 1) : MID + TICK * (slot + 1);
  }

  size() {
    return text(Math.floor(this.random() * 500_000 + 100) * 10_000);
  }

  /** The summary the hash covers, as an object whose keys are in the interface's order. */
  summary(hash) {
    return {
      market: this.market, asset_id: this.asset, timestamp: this.timestamp, hash,
      bids: this.bids.levels, asks: this.asks.levels, ...MARKET_FIELDS,
    };
  }

  hash() {
    return sha1(JSON.stringify(this.summary("")));
  }

  /** The GET /book answer (with its hash). */
  snapshot() {
    return JSON.stringify(this.summary(this.hash()));
  }

  /**
   * A random change (60 % a new size for an existing level, else a new level when the side is short of its
   * target and a removal when not; levels and free prices chosen uniformly over the side's window), applied
   * at `timestamp`. Returns the entry as the service sends it (with the hash when `withHash`).
   */
  change(timestamp, withHash) {
    const side = this.random() < 0.5 ? this.bids : this.asks;
    let units, size;
    const r = this.random();
    if (r < 0.6) {
      units = side.pick(this.random);
      size = this.size();
    } else if (side.units.length < this.target) {
      do units = this.slotUnits(side, Math.floor(this.random() * 2 * this.target));
      while (side.has(units));
      size = this.size();
    } else {
      units = side.pick(this.random);
      size = "0";
    }
    const price = text(units);
    side.set(units, price, size);
    this.timestamp = String(timestamp);
    return {
      asset_id: this.asset, price, size, side: side.isBid ? "BUY" : "SELL",
      hash: withHash ? this.hash() : "", best_bid: this.bids.best(), best_ask: this.asks.best(),
    };
  }
}

/** A price_change frame's text. */
export function frame(market, timestamp, entries) {
  return JSON.stringify({ event_type: "price_change", market, timestamp: String(timestamp), price_changes: entries });
}
