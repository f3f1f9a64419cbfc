// `cargo xtask bench` runs this after the book benchmark: in one headless Chromium run it measures
//   1. the client's overhead per request: client.getOrderBook(token) against a plain fetch(url) +
//      res.json() of the same URL, interleaved, against the emulator (one origin, no rate limits);
//   2. signing: the synchronous signRequest against the upstream clob-client's buildPolyHmacSignature
//      (WebCrypto, asynchronous), over the same inputs.
// It prints medians and ratios, then its speed guards (bench/guard.mjs: the REST call's overhead and
// signing, each the median of paired rounds' ratios), and exits with 1 when one fails. Budgets live here,
// in the report, not in unit tests.
//
// Environment: PREDICTKIT_EMULATOR_BIN (the built emulator), PREDICTKIT_PKG_DIR, CHROMIUM.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { chromium } from "playwright-core";
import { judge, pairedRatios, report } from "./guard.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PKG = process.env.PREDICTKIT_PKG_DIR ?? join(ROOT, "pkg");
const BIN = process.env.PREDICTKIT_EMULATOR_BIN ?? join(ROOT, "target/debug/predictkit-emulator");

const upstream = await build({
  stdin: { contents: 'export { buildPolyHmacSignature } from "@polymarket/clob-client/dist/signing/hmac.js";', resolveDir: ROOT },
  bundle: true,
  format: "esm",
  platform: "browser",
  write: false,
  logLevel: "warning",
});

const emulator = spawn(BIN, ["--port", "0", "--no-limits", "--www", join(ROOT, "www"), "--pkg", PKG], { stdio: ["ignore", "pipe", "inherit"] });
const base = await new Promise((resolve, reject) => {
  const lines = createInterface({ input: emulator.stdout });
  lines.once("line", (line) => resolve(line.replace("predictkit-emulator listening on ", "").trim()));
  emulator.once("exit", (code) => reject(new Error(`the emulator exited with ${code}`)));
});
const info = await (await fetch(`${base}/__admin/info`)).json();
const tenLevels = JSON.stringify(info).match(/"kind":"ten_levels","token_id":"(\d+)"/)?.[1];
const token = tenLevels ?? (await (await fetch(`${base}/markets`)).json()).data[0].tokens[0].token_id;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const page = await browser.newPage();
  await page.goto(`${base}/www/`);
  const result = await page.evaluate(async ({ token, upstreamSource }) => {
    const pk = await import("/pkg/index.mjs");
    await pk.default();
    const upstream = await import(URL.createObjectURL(new Blob([upstreamSource], { type: "text/javascript" })));
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

    // 1. Overhead per request, interleaved so that both see the same machine and server. Default
    //    client settings (budgets on): 150 requests stay within the GET /book budget of 200 per 10 s.
    const client = new pk.Client({ baseUrl: location.origin });
    const url = `${location.origin}/book?token_id=${token}`;
    for (let i = 0; i < 20; i++) {
      await client.getOrderBook(token);
      await (await fetch(url)).json();
    }
    const ours = [];
    const plain = [];
    for (let i = 0; i < 150; i++) {
      let t = performance.now();
      await client.getOrderBook(token);
      ours.push(performance.now() - t);
      t = performance.now();
      await (await fetch(url)).json();
      plain.push(performance.now() - t);
    }

    // 2. Signing over the same inputs.
    const secret = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
    const body = '{"orderId":"0x8f3b2c7a61d5e94f0a2b6c3d8e7f9a1b2c3d4e5f60718293a4b5c6d7e8f90a1b"}';
    const same = pk.signRequest(secret, 1700000000000, "DELETE", "/order", body)
      === (await upstream.buildPolyHmacSignature(secret, 1700000000000, "DELETE", "/order", body));
    const runOurs = (n) => {
      const t = performance.now();
      for (let i = 0; i < n; i++) pk.signRequest(secret, 1700000000000 + i, "DELETE", "/order", body);
      return ((performance.now() - t) * 1000) / n;
    };
    const runUpstream = async (n) => {
      const t = performance.now();
      for (let i = 0; i < n; i++) await upstream.buildPolyHmacSignature(secret, 1700000000000 + i, "DELETE", "/order", body);
      return ((performance.now() - t) * 1000) / n;
    };
    runOurs(2000);
    await runUpstream(200);
    const signOurs = [];
    const signUpstream = [];
    for (let round = 0; round < 61; round++) {
      signOurs.push(runOurs(2000));
      signUpstream.push(await runUpstream(400));
    }
    return {
      ours: median(ours), plain: median(plain),
      signOurs: median(signOurs), signUpstream: median(signUpstream), same,
      rounds: { ours, plain, signOurs, signUpstream },
    };
  }, { token, upstreamSource: upstream.outputFiles[0].text });

  const ratio = result.ours / result.plain;
  console.log("\nclient overhead per request (GET /book, 10-level book, 150 interleaved requests each, medians)");
  console.log(`  client.getOrderBook      ${result.ours.toFixed(3)} ms`);
  console.log(`  fetch + res.json()       ${result.plain.toFixed(3)} ms`);
  console.log(`  ratio                    ${ratio.toFixed(2)}× (+${(result.ours - result.plain).toFixed(3)} ms per request)`);
  const speedup = result.signUpstream / result.signOurs;
  console.log("\nsigning (DELETE /order with a body; median of 61 rounds)");
  console.log(`  signRequest (sync)                      ${result.signOurs.toFixed(2)} µs per signature`);
  console.log(`  upstream buildPolyHmacSignature (async) ${result.signUpstream.toFixed(2)} µs per signature`);
  console.log(`  ratio                                   ${speedup.toFixed(1)}× faster (target ≥ 5×: ${speedup >= 5 ? "met" : "missed"}); same signature: ${result.same}`);
  const { rounds } = result;
  const failed = report([
    judge("rest", pairedRatios(rounds.ours, rounds.plain)),
    judge("signing", pairedRatios(rounds.signOurs, rounds.signUpstream)),
  ]);
  if (!result.same || failed) process.exitCode = 1;
} finally {
  await browser.close();
  emulator.kill();
}
