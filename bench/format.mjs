// One copy of the benchmarks' time and ratio formatting (the runners print it, and bench/book-table.mjs reads
// the README's table written in it).

/** A duration in ns as a short human string. */
export function time(ns) {
  if (ns == null) return "—";
  if (ns < 1e3) return `${ns.toFixed(ns < 10 ? 2 : 1)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toFixed(ns < 1e4 ? 2 : 1)} µs`;
  return `${(ns / 1e6).toFixed(ns < 1e7 ? 2 : 1)} ms`;
}

/** How many times `ours` is faster than `other` ("—" without one). */
export const ratio = (other, ours) => (other == null ? "—" : `${(other / ours).toFixed(other / ours < 10 ? 2 : 1)}×`);
