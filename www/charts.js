// Two SVG charts drawn at the container's pixel width (so text stays crisp on a phone): the book's
// cumulative depth, from OrderBook.ladder(), and a price history line. The prices they name (the midpoint,
// the history's ends) are written by the caller's `format` (the market's tick: format.js); the axes' round
// figures are not prices of the book, and keep one decimal of a cent.

const SVG = "http://www.w3.org/2000/svg";

function s(tag, attrs = {}, text) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}

const observers = new WeakMap();

/** Draws `render(width)` into `container` now and again whenever its width changes. */
function mount(container, render) {
  observers.get(container)?.disconnect();
  let lastWidth = 0;
  const draw = () => {
    const width = Math.max(240, Math.round(container.clientWidth));
    if (width === lastWidth) return;
    lastWidth = width;
    container.replaceChildren(render(width));
  };
  draw();
  const observer = new ResizeObserver(draw);
  observer.observe(container);
  observers.set(container, observer);
}

const pad = { top: 12, right: 12, bottom: 26, left: 44 };

function frame(width, height, label) {
  return s("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "img", "aria-label": label, class: "chart" });
}

const centsLabel = (p) => `${+(p * 100).toFixed(1)}¢`;
const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });

/**
 * Cumulative depth: bids step down to the left of the spread, asks up to the right. `ladder` is the
 * `{ bidPrices, bidDepth, askPrices, askDepth }` of OrderBook.ladder(), best price first; `format` writes
 * the midpoint's label.
 */
export function depthChart(container, ladder, midpoint, format = centsLabel) {
  const { bidPrices, bidDepth, askPrices, askDepth } = ladder;
  const nb = bidPrices.length;
  const na = askPrices.length;
  const label = `Depth chart: ${nb} bid and ${na} ask price levels` +
    (nb ? `, ${compact.format(bidDepth[nb - 1])} shares bid` : "") +
    (na ? `, ${compact.format(askDepth[na - 1])} shares offered` : "");
  mount(container, (width) => {
    const height = 200;
    const svg = frame(width, height, label);
    if (nb + na === 0) {
      svg.append(s("text", { x: width / 2, y: height / 2, "text-anchor": "middle", class: "chart-empty" }, "No orders on this book"));
      return svg;
    }
    const lo = nb ? bidPrices[nb - 1] : askPrices[0];
    const hi = na ? askPrices[na - 1] : bidPrices[0];
    const span = hi - lo || 0.01;
    // Prices live in [0, 1]: pad the range a little, never past either end.
    const x0 = Math.max(0, lo - span * 0.04);
    const x1 = Math.min(1, hi + span * 0.04);
    const maxDepth = Math.max(nb ? bidDepth[nb - 1] : 0, na ? askDepth[na - 1] : 0) * 1.08;
    const w = width - pad.left - pad.right;
    const hh = height - pad.top - pad.bottom;
    const x = (p) => pad.left + ((p - x0) / (x1 - x0)) * w;
    const y = (d) => pad.top + hh - (d / maxDepth) * hh;

    for (let i = 0; i <= 3; i++) {
      const d = (maxDepth / 1.08) * (i / 3);
      svg.append(s("line", { x1: pad.left, x2: width - pad.right, y1: y(d), y2: y(d), class: "grid" }));
      svg.append(s("text", { x: pad.left - 6, y: y(d) + 4, "text-anchor": "end", class: "axis" }, compact.format(d)));
    }
    const ticks = Math.max(2, Math.min(6, Math.floor(w / 80)));
    for (let i = 0; i <= ticks; i++) {
      const p = x0 + ((x1 - x0) * i) / ticks;
      const anchor = i === 0 ? "start" : i === ticks ? "end" : "middle";
      svg.append(s("text", { x: x(p), y: height - 8, "text-anchor": anchor, class: "axis" }, centsLabel(p)));
    }

    const side = (prices, depth, n, edge, cls) => {
      if (!n) return;
      let d = `M${x(prices[0])},${y(0)} L${x(prices[0])},${y(depth[0])}`;
      for (let i = 1; i < n; i++) d += ` L${x(prices[i])},${y(depth[i - 1])} L${x(prices[i])},${y(depth[i])}`;
      d += ` L${x(edge)},${y(depth[n - 1])} L${x(edge)},${y(0)} Z`;
      svg.append(s("path", { d, class: cls }));
    };
    side(bidPrices, bidDepth, nb, x0, "depth-bid");
    side(askPrices, askDepth, na, x1, "depth-ask");
    if (midpoint !== undefined) {
      svg.append(s("line", { x1: x(midpoint), x2: x(midpoint), y1: pad.top, y2: pad.top + hh, class: "mid" }));
      svg.append(s("text", { x: x(midpoint), y: pad.top + 10, "text-anchor": "middle", class: "axis mid-label" }, `mid ${format(midpoint)}`));
    }
    return svg;
  });
}

/**
 * A price line over time; `points` are the service's `{ t, p }` (epoch seconds, price). `now` (optional,
 * `{ t, p }`) is the price now, the book's midpoint: the line ends there (it replaces the last point when it
 * is not later), and the last dot says so. `format` writes the prices the label names.
 */
export function historyChart(container, points, { now, format = centsLabel } = {}) {
  const last = points[points.length - 1];
  if (now && last) points = [...(now.t > last.t ? points : points.slice(0, -1)), now];
  const first = points[0];
  const end = points[points.length - 1];
  const label = points.length
    ? `Price history: ${format(first.p)} to ${format(end.p)}${now ? " now (the book's midpoint)" : ""} over ${points.length} points`
    : "No price history";
  mount(container, (width) => {
    const height = 200;
    const svg = frame(width, height, label);
    if (points.length < 2) {
      svg.append(s("text", { x: width / 2, y: height / 2, "text-anchor": "middle", class: "chart-empty" }, "No trades in this period"));
      return svg;
    }
    let lo = Infinity;
    let hi = -Infinity;
    for (const { p } of points) {
      lo = Math.min(lo, p);
      hi = Math.max(hi, p);
    }
    const margin = Math.max((hi - lo) * 0.15, 0.005);
    lo = Math.max(0, lo - margin);
    hi = Math.min(1, hi + margin);
    const t0 = first.t;
    const t1 = end.t;
    const w = width - pad.left - pad.right;
    const hh = height - pad.top - pad.bottom;
    const x = (t) => pad.left + ((t - t0) / (t1 - t0 || 1)) * w;
    const y = (p) => pad.top + hh - ((p - lo) / (hi - lo || 1)) * hh;

    for (let i = 0; i <= 3; i++) {
      const p = lo + ((hi - lo) * i) / 3;
      svg.append(s("line", { x1: pad.left, x2: width - pad.right, y1: y(p), y2: y(p), class: "grid" }));
      svg.append(s("text", { x: pad.left - 6, y: y(p) + 4, "text-anchor": "end", class: "axis" }, centsLabel(p)));
    }
    const spanSeconds = t1 - t0;
    const fmt = new Intl.DateTimeFormat("en-US", spanSeconds > 2 * 86400
      ? { month: "short", day: "numeric" } : { hour: "2-digit", minute: "2-digit" });
    const ticks = Math.max(2, Math.min(5, Math.floor(w / 90)));
    for (let i = 0; i <= ticks; i++) {
      const t = t0 + (spanSeconds * i) / ticks;
      const anchor = i === 0 ? "start" : i === ticks ? "end" : "middle";
      svg.append(s("text", { x: x(t), y: height - 8, "text-anchor": anchor, class: "axis" }, fmt.format(new Date(t * 1000))));
    }
    let line = "";
    points.forEach(({ t, p }, i) => { line += `${i ? "L" : "M"}${x(t).toFixed(1)},${y(p).toFixed(1)}`; });
    const rising = end.p >= first.p;
    const trend = rising ? "up" : "down";
    svg.append(s("path", { d: `${line} L${x(t1)},${pad.top + hh} L${x(t0)},${pad.top + hh} Z`, class: `area ${trend}` }));
    svg.append(s("path", { d: line, class: `line ${trend}` }));
    const dot = s("circle", { cx: x(t1).toFixed(1), cy: y(end.p).toFixed(1), r: 3.5, class: `dot ${trend}${now ? " now" : ""}`, "data-price": String(end.p) });
    if (now) dot.append(s("title", {}, `Now: ${format(now.p)}, the book's midpoint`));
    svg.append(dot);
    return svg;
  });
}
