// The demo's order ticket trades from every account kind the emulator offers, on each chain (issue 35 §1): the
// wallet is connected as a step of its own (which account, which chain), the account doctor runs then, and one
// click makes the client sign as the account needs (signatureType and funder); the order the service receives is
// the account's wallet's. The kinds of the development wallet's five accounts are the emulator's
// (emulator/src/trading/wallets.rs: two EOAs, a Safe, a proxy where the chain has the proxy factory, Polygon
// only, and a deposit wallet); the wallets' addresses are asked of the emulator's /__admin/wallets.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { launchChromium } from "./chromium.mjs";
import { startEmulator } from "../js/helpers.mjs";

const SHOTS = new URL("../../target/screenshots/", import.meta.url);
mkdirSync(SHOTS, { recursive: true });
const DESKTOP = { width: 1280, height: 900 };
const SIGNATURE_TYPES = { EOA: 0, POLY_PROXY: 1, POLY_GNOSIS_SAFE: 2, POLY_1271: 3 };

let browser;
/** One emulator per chain, each serving the demo. */
const emulators = {};
before(async () => {
  browser = await launchChromium();
  for (const chain of [80002, 137]) emulators[chain] = await startEmulator(["--chain-id", String(chain), "--www", "www", "--pkg", "pkg"]);
});
after(async () => {
  await browser?.close();
  for (const e of Object.values(emulators)) await e.stop();
});

async function json(base, path, init) {
  const res = await fetch(base + path, init);
  assert.ok(res.ok, `${path}: ${res.status}`);
  return res.json();
}

/**
 * An open market on a 0.01 tick with a best bid of at least 0.05 (or `only` that market), and the price one tick
 * under its best bid.
 */
async function restingMarket(base, only) {
  const events = await json(base, "/events?active=true&closed=false&limit=20&offset=0");
  for (const event of events) {
    for (const market of only ? [only] : event.markets) {
      if (market.closed || market.acceptingOrders === false) continue;
      const info = await json(base, `/clob-markets/${market.conditionId}`);
      const [tokenId] = JSON.parse(market.clobTokenIds);
      const book = await json(base, `/book?token_id=${tokenId}`);
      const bid = Math.max(...book.bids.map((l) => Number(l.price)));
      if (info.mts === 0.01 && bid >= 0.05) return { market, tokenId, price: (Math.round(bid * 100) - 1) / 100 };
    }
  }
  assert.fail("no open market on a 0.01 tick with bids");
}

for (const chain of [80002, 137]) {
  test(`chain ${chain}: the ticket connects each development account, applies the doctor's settings and places its order`, { timeout: 180_000 }, async () => {
    const base = emulators[chain].url;
    const accounts = await json(base, "/wallet", { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_accounts" }) });
    const owners = accounts.result;
    assert.equal(owners.length, 5);
    const kinds = ["EOA", "EOA", "POLY_GNOSIS_SAFE", chain === 137 ? "POLY_PROXY" : "EOA", "POLY_1271"];
    const { market } = await restingMarket(base);
    const page = await browser.newPage({ viewport: DESKTOP });
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    try {
      await page.goto(`${base}/www/#/market/${market.id}`);
      await page.waitForSelector("#view-market[data-state=ready]", { timeout: 15_000 });
      // The price starts from the book: a buy at the best ask.
      await page.waitForFunction(() => document.querySelector("#ticket-price").value === document.querySelector("#stat-ask").dataset.value);
      // The development wallet's accounts are listed before connecting.
      assert.deepEqual(await page.$$eval("#ticket-wallet-account option", (os) => os.map((o) => o.value)), owners);

      for (const [i, owner] of owners.entries()) {
        const kind = kinds[i];
        const { proxy, safe, depositWallet } = await json(base, `/__admin/wallets?owner=${owner}`);
        const funder = { EOA: undefined, POLY_PROXY: proxy, POLY_GNOSIS_SAFE: safe, POLY_1271: depositWallet }[kind];
        await page.selectOption("#ticket-wallet-account", owner);
        await page.click("#ticket-connect");
        await page.waitForFunction((o) => document.querySelector("#ticket-wallet-state")?.textContent.includes(`${o.slice(0, 6)}…${o.slice(-4)}`) &&
          document.querySelector("#ticket-account[data-kind]") && !/Checking/.test(document.querySelector("#ticket-account").textContent), owner, { timeout: 20_000 });
        assert.match(await page.textContent("#ticket-wallet-state"), new RegExp(`^Connected: ${owner.slice(0, 6)}…${owner.slice(-4)} on (Amoy|Polygon) ${chain}$`));
        assert.equal(await page.getAttribute("#ticket-account", "data-kind"), kind, `account ${i + 1}`);
        if (kind === "EOA") {
          assert.equal(await page.$("#ticket-use-account"), null, "an EOA signs as itself: nothing to apply");
        } else {
          const offer = await page.textContent("#ticket-account");
          assert.ok(offer.includes(`Its orders must be signed as ${kind} for ${funder.slice(0, 6)}…${funder.slice(-4)}`), offer);
          await page.click("#ticket-use-account");
          await page.waitForFunction(() => /Orders are signed as/.test(document.querySelector("#ticket-account")?.textContent ?? ""), null, { timeout: 20_000 });
        }
        const account = await page.textContent("#ticket-account");
        assert.match(account, /^Account ready/, account);
        assert.match(await page.textContent("#ticket-wallet-state"), new RegExp(`^Connected: ${owner.slice(0, 6)}…${owner.slice(-4)} on `));
        assert.ok(account.includes(`Orders are signed as ${kind}${funder ? ` for ${funder.slice(0, 6)}…${funder.slice(-4)}` : ""}.`), account);
        if (i === 0) {
          // Connecting the same account again keeps its client and key: no signature is asked for again.
          await fetch(`${base}/__admin/requests`, { method: "DELETE" });
          await page.click("#ticket-connect");
          await page.waitForFunction(() => document.querySelector("#ticket-wallet-state").textContent.startsWith("Connected") &&
            !/Checking/.test(document.querySelector("#ticket-account").textContent), null, { timeout: 20_000 });
          const { requests } = await json(base, "/__admin/requests");
          assert.deepEqual(requests.filter((r) => r.path.startsWith("/auth/")).map((r) => r.path), [], "no key asked for again");
          assert.ok(requests.some((r) => r.path === "/balance-allowance"), "the doctor looked again");
        }
        if (i === 4) await page.screenshot({ path: new URL(`accounts-${chain}-deposit-wallet.png`, SHOTS).pathname });

        // Its order: previewed, signed by the owner, placed, and the service's record says whose wallet made it.
        await fetch(`${base}/__admin/requests`, { method: "DELETE" });
        // A tick under the best bid now (the book moves): the order rests.
        const { price } = await restingMarket(base, market);
        await page.click("label[for=ticket-buy]");
        await page.click("label[for=ticket-limit]");
        await page.fill("#ticket-price", price.toFixed(2));
        await page.fill("#ticket-size", "10");
        await page.click("#ticket-form button[type=submit]");
        await page.waitForFunction(() => /You sign/.test(document.querySelector("#ticket-result")?.textContent ?? ""), null, { timeout: 15_000 });
        await page.click("#ticket-place");
        await page.waitForSelector("#ticket-result.good", { timeout: 20_000 });
        assert.match(await page.textContent("#ticket-result"), /^Placed(live|matched)/i);
        const { requests } = await json(base, "/__admin/requests?path=/order&method=POST");
        const posted = requests.filter((r) => r.path === "/order");
        assert.equal(posted.length, 1, `account ${i + 1}: one order posted`);
        const { order } = JSON.parse(posted[0].body);
        assert.equal(order.signatureType, SIGNATURE_TYPES[kind], `account ${i + 1}`);
        assert.equal(order.maker.toLowerCase(), (funder ?? owner).toLowerCase(), `account ${i + 1}: the maker is the account's wallet`);
      }
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
}
