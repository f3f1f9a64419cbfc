// Shared by the benchmark runners (bench/run.mjs, bench/stream.mjs): a tiny static server for bench/ and the
// built package, and headless Chromium.
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const BENCH = join(ROOT, "bench");
export const PKG = process.env.PREDICTKIT_PKG_DIR ?? join(ROOT, "pkg");

const TYPES = {
  ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
  ".json": "application/json",
};

/**
 * Serves /bench/* from bench/ and /pkg/* from the built package (its entry and web build). `routes` maps a
 * path to a file path (string) or to a body held in memory ({ body, type }). With `isolate`, every answer
 * carries COOP/COEP, so the page is cross-origin isolated and performance.now() has 5 µs steps instead
 * of 100 µs. Resolves to { origin, close }.
 */
export async function serve({ routes = {}, isolate = false } = {}) {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname));
    const headers = { "cache-control": "no-store" };
    if (isolate) {
      headers["cross-origin-opener-policy"] = "same-origin";
      headers["cross-origin-embedder-policy"] = "require-corp";
    }
    const route = routes[path];
    if (route && typeof route === "object") {
      res.writeHead(200, { ...headers, "content-type": route.type ?? "application/octet-stream" });
      res.end(route.body);
      return;
    }
    let file = null;
    if (typeof route === "string") file = route;
    else if (path.startsWith("/bench/")) file = join(BENCH, path.slice(7));
    else if (path.startsWith("/pkg/")) file = join(PKG, path.slice(5));
    try {
      if (!file || file.includes("..")) throw new Error("not found");
      const body = readFileSync(file);
      res.writeHead(200, { ...headers, "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Headless Chromium as every benchmark runs it (CHROMIUM, default /usr/bin/chromium). */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

// The benchmarks' time and ratio formatting, also used to read the README's table (bench/book-table.mjs).
export { ratio, time } from "./format.mjs";
