// The order ticket on the market page: a limit or market order for the outcome shown, previewed with its
// exact amounts and fee (client.buildOrder / buildMarketOrder) before the wallet is asked to sign, then
// signed by the wallet (signOrder) and placed (postOrder); the service's answer is shown, and the order
// appears in "My orders". The wallet is the browser's (window.ethereum), or, on a local page talking to
// the local emulator, the emulator's development wallet (as a local chain's node offers), whose accounts can be
// picked. Connecting it is a step of its own: the API key comes from the wallet's signature on the wallet's
// chain (createOrDeriveApiKey) and stays inside the Client; then the account doctor (diagnoseAccount) says what
// the account trades through and any problem with its fix, and one click makes the client sign as the account
// needs (its signatureType and funder: a proxy, a Safe, a deposit wallet). Every figure the
// preview says will be signed is the draft's, and that draft is what is signed: nothing is computed apart from
// it, and a change to the form discards it. Beside it, "May fill now" walks the book on screen (simulate,
// depth): what would fill at once, and what becomes of the rest.
import { $, h, formatPrice, formatShares, formatUsd } from "./ui.js";
import { walletSigner } from "../pkg/index.mjs";

/** The emulator's development wallet, spoken to as an EIP-1193 provider. */
function emulatorWallet(baseUrl) {
  return {
    async request({ method, params }) {
      const res = await fetch(new URL("/wallet", baseUrl), { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
      const answer = await res.json();
      if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
      return answer.result;
    },
  };
}

/**
 * What the preview says: what will be signed (the side, the price limit, the size or the amount, in the
 * draft's own exact figures) and, from the book on screen, what may fill at once and what becomes of the rest.
 */
function previewRows(draft, params, { book, outcome }) {
  const buy = draft.side === "BUY";
  const tick = draft.tickSize;
  const limit = `${formatPrice(draft.price, tick)} (${draft.price}) a share`;
  const market = "amount" in params;
  const what = outcome ? ` of ${outcome}` : "";
  const rows = market
    ? [["You sign", buy
      ? `Buy${what} for ${formatUsd(draft.cash)}: at least ${formatShares(draft.shares)}, at ${formatPrice(draft.price, tick)} or better (${draft.orderType})`
      : `Sell ${formatShares(draft.shares)}${what}: for at least ${formatUsd(draft.cash)}, at ${formatPrice(draft.price, tick)} or better (${draft.orderType})`]]
    : [["You sign", `${buy ? "Buy" : "Sell"} ${formatShares(draft.shares)}${what} at ${formatPrice(draft.price, tick)} or better (${draft.orderType}${draft.postOnly ? ", post-only" : ""})`]];
  rows.push(
    ["Price limit", limit],
    [market && buy ? "Amount" : "Size", market && buy ? `${formatUsd(draft.cash)} to spend` : formatShares(draft.shares)],
    [buy ? "You pay at most" : "You receive at least", formatUsd(draft.cash)]);
  const fill = mayFill(draft, params, book);
  if (fill) rows.push(["May fill now", fill]);
  rows.push(
    ["Fee if it takes", draft.fee === undefined ? "none" : formatUsd(draft.fee)],
    ["Maker amount", `${draft.makerAmount} units`],
    ["Taker amount", `${draft.takerAmount} units`],
    ["Exchange", `v${draft.version} ${draft.exchange}${draft.negRisk ? " (neg-risk)" : ""}`]);
  return rows;
}

/** What the book on screen would fill of the draft now, in words; "" without a book. */
function mayFill(draft, params, book) {
  if (!book) return "";
  const buy = draft.side === "BUY";
  const tick = draft.tickSize;
  const type = draft.orderType;
  const against = buy ? "asks" : "bids";
  try {
    if ("amount" in params) {
      const r = buy ? book.simulate("BUY", { notional: Number(draft.cash) }) : book.simulate("SELL", { size: Number(draft.shares) });
      if (r.filled === 0) return `Nothing: there are no ${against}, so it is refused.`;
      const got = `${formatShares(Math.round(r.filled * 1e6) / 1e6)} for ${formatUsd(Math.round(r.notional * 1e6) / 1e6)}, ${formatPrice(r.avgPrice, tick)} on average`;
      if (r.remaining > 1e-9) {
        return type === "FOK"
          ? `Nothing: the book cannot fill all of it, so this fill-or-kill order is refused (it holds ${got}).`
          : `${got}; the rest is canceled (fill-and-kill).`;
      }
      return `All of it: ${got}.`;
    }
    const size = Number(draft.shares);
    const best = buy ? book.bestAsk() : book.bestBid();
    const crosses = best && (buy ? best.price <= draft.price + 1e-9 : best.price >= draft.price - 1e-9);
    const rests = type === "GTC" || type === "GTD";
    if (!crosses) {
      return rests ? `Nothing at once: it rests on the book at ${formatPrice(draft.price, tick)}.`
        : `Nothing: no ${against} at ${formatPrice(draft.price, tick)} or better, so it is refused.`;
    }
    if (draft.postOnly) return `It would take from the ${against} at once, so the service refuses it (post-only).`;
    const within = Math.abs(draft.price - best.price) + 1e-9;
    const available = book.depth(draft.side, { within }).size;
    const now = Math.min(size, Math.round(available * 1e6) / 1e6);
    const r = book.simulate(draft.side, { size: now });
    const got = `${formatShares(now)} at once, ${formatPrice(r.avgPrice, tick)} on average`;
    const left = Math.round((size - now) * 1e6) / 1e6;
    if (left <= 0) return `All of it: ${got}.`;
    if (type === "FOK") return `Nothing: only ${formatShares(now)} are offered at ${formatPrice(draft.price, tick)} or better, so this fill-or-kill order is refused.`;
    return rests ? `${got}; the other ${formatShares(left)} rest on the book at ${formatPrice(draft.price, tick)}.`
      : `${got}; the other ${formatShares(left)} are canceled (fill-and-kill).`;
  } catch {
    return "";
  }
}

/** What a placed order took at once, from the service's answer: shares for dollars. */
function filledText(side, result) {
  const making = Number(result.makingAmount || 0);
  const taking = Number(result.takingAmount || 0);
  if (!(making > 0) && !(taking > 0)) return "Nothing yet";
  return side === "BUY" ? `${formatShares(taking)} for ${formatUsd(making)}` : `${formatShares(making)} for ${formatUsd(taking)}`;
}

export function ticketView(ctx, target) {
  let draft = null;
  let busy = false;
  let edits = 0; // changes to the form: a draft built from an older form is not shown
  let draftSettings = ""; // the client's trading settings the draft was built with

  const form = $("ticket-form");
  const out = $("ticket-result");

  const value = (name) => form.elements[name].value;
  const isMarket = () => value("ticket-kind") === "market";

  function syncFields() {
    const market = isMarket();
    $("ticket-price-field").hidden = market;
    $("ticket-size-label").textContent = market ? (value("ticket-side") === "BUY" ? "Spend (dollars)" : "Shares to sell") : "Shares";
    const types = market ? ["FOK", "FAK"] : ["GTC", "GTD", "FOK", "FAK"];
    const select = form.elements["ticket-type"];
    if ([...select.options].map((o) => o.value).join() !== types.join()) select.replaceChildren(...types.map((t) => h("option", { value: t }, t)));
    $("ticket-expiration-field").hidden = market || select.value !== "GTD";
    form.elements["ticket-post-only"].disabled = market || !["GTC", "GTD"].includes(select.value);
    suggestPrice();
    discard();
    $("ticket-place").disabled = true;
  }

  // --- The wallet: connected as a step the user sees, the account doctor first --------------------------

  const pick = $("ticket-wallet-account");
  const walletState = $("ticket-wallet-state");
  let provider = null;
  /** The service whose wallet `provider` is; the wallets whose own changes the page follows. */
  let providerFor = null;
  const followed = new WeakSet();
  /** Connections started: each knows whether a later one has superseded it. */
  let connections = 0;
  /** What the doctor last said of the connected account, and whether the client signs as it says. */
  let finding = null;

  /** The browser's wallet, or on a local page talking to the local emulator, the emulator's development wallet. */
  function walletProvider() {
    const service = new URL(ctx.baseUrl);
    return globalThis.ethereum ?? (ctx.isLocal && ["localhost", "127.0.0.1", "[::1]"].includes(service.hostname) ? emulatorWallet(ctx.baseUrl) : null);
  }

  const short = (address) => `${address.slice(0, 6)}…${address.slice(-4)}`;
  const CHAINS = { 137: "Polygon", 80002: "Amoy" };
  const KINDS = { EOA: "its own address", POLY_PROXY: "a proxy wallet", POLY_GNOSIS_SAFE: "a Safe", POLY_1271: "a deposit wallet" };

  /** The wallet's accounts in the picker (when it has more than one), keeping the one chosen. */
  function listAccounts(accounts) {
    const chosen = pick.value;
    pick.replaceChildren(...accounts.map((a, i) => h("option", { value: a }, `Account ${i + 1} · ${short(a)}`)));
    if (accounts.includes(chosen)) pick.value = chosen;
    $("ticket-wallet-pick").hidden = accounts.length < 2;
  }

  /**
   * Connects the wallet: asks it for its accounts and chain, signs for the account's API key on that chain, and
   * runs the account doctor before any order is signed. Resolves to the doctor's report (or null).
   */
  async function connect() {
    // A later connection (another account picked, the wallet's own change, a second click) supersedes this one:
    // after each wait, this one stops if it is no longer the latest (its client may be freed by then).
    const turn = ++connections;
    const current = () => turn === connections;
    // The wallet of the service the page talks to now (the development wallet is the local emulator's).
    if (providerFor !== ctx.baseUrl) [provider, providerFor] = [walletProvider(), ctx.baseUrl];
    const wallet = provider;
    if (!wallet) throw new Error("No wallet: install a browser wallet to trade.");
    if (!followed.has(wallet) && typeof wallet.on === "function") {
      // A browser wallet's user switches accounts or chains in the wallet: the page follows.
      followed.add(wallet);
      for (const event of ["accountsChanged", "chainChanged"]) wallet.on(event, () => { if (ctx.signer) connectNow(); });
    }
    walletState.textContent = "Connecting…";
    const accounts = await wallet.request({ method: "eth_requestAccounts" });
    if (!current()) return null;
    listAccounts(accounts);
    const address = pick.value || accounts[0];
    const chainId = Number(await wallet.request({ method: "eth_chainId" }));
    if (!current()) return null;
    // The same account on the same chain keeps its client and key (no signature asked again): the doctor looks again.
    if (ctx.signer && ctx.signer.address.toLowerCase() === address.toLowerCase() && ctx.trading.chainId === chainId) {
      useWallet(ctx.signer);
      return checkAccount(ctx.signer);
    }
    // The client signs for the wallet's chain, as its own address (EOA) until the doctor says otherwise.
    ctx.connect(ctx.baseUrl, undefined, { chainId });
    const client = ctx.client;
    const signer = walletSigner(wallet, address);
    await client.createOrDeriveApiKey(signer);
    if (!current() || client !== ctx.client) return null;
    useWallet(signer);
    return checkAccount(signer);
  }

  /** The client holds the wallet's key: the page is the account's, and says which account on which chain. */
  function useWallet(signer) {
    ctx.useWallet(signer);
    const { chainId } = ctx.trading;
    walletState.textContent = `Connected: ${short(signer.address)} on ${CHAINS[chainId] ?? "chain"} ${chainId}`;
    $("ticket-connect").textContent = "Reconnect";
  }

  /** The settings the doctor names for the account are used for its orders: a new client with them, the same key. */
  async function useFinding() {
    const report = finding;
    if (!report || !ctx.signer || busy) return;
    const turn = ++connections;
    const signer = ctx.signer;
    discard(); // a draft built for the old settings is not what the new client signs
    ctx.connect(ctx.baseUrl, undefined, { chainId: ctx.trading.chainId, signatureType: report.signatureType, funder: report.funder });
    const client = ctx.client;
    await client.createOrDeriveApiKey(signer);
    if (turn !== connections || client !== ctx.client) return;
    useWallet(signer);
    await checkAccount(signer);
  }

  /** Whether the client's settings are the ones the doctor names for the account. */
  const applied = (report) => report.signatureType === ctx.trading.signatureType && (report.funder ?? undefined) === ctx.trading.funder;

  /**
   * The account doctor: what the account trades through and each problem with its fix; when its orders need
   * other settings than the client's, one button uses them. A doctor that cannot finish does not stop an order.
   */
  async function checkAccount(signer) {
    const box = $("ticket-account");
    box.hidden = false;
    box.className = "ticket-account";
    box.replaceChildren(h("p", {}, "Checking the account…"));
    finding = null;
    try {
      const client = ctx.client;
      const report = await client.diagnoseAccount(signer, { provider });
      if (client !== ctx.client) return null; // (the client was replaced meanwhile: its successor says)
      finding = report;
      const kind = KINDS[report.kind ?? report.signatureType];
      const head = h("p", {}, h("strong", {}, report.ok ? "Account ready" : "Account needs attention"), ` · ${short(report.owner)} trades through ${kind}`);
      const rows = [head];
      if (applied(report)) {
        rows.push(h("p", { class: "signs-as" }, `Orders are signed as ${report.signatureType}${report.funder ? ` for ${short(report.funder)}` : ""}.`));
      } else {
        const use = h("button", { type: "button", id: "ticket-use-account", class: "secondary" }, `Trade through ${kind}`);
        use.addEventListener("click", () => useFinding().catch((error) => {
          box.hidden = false;
          box.className = "ticket-account bad";
          box.replaceChildren(h("p", {}, `The account's settings could not be used: ${walletError(error)}`));
        }));
        rows.push(h("p", { class: "signs-as" }, `Its orders must be signed as ${report.signatureType}${report.funder ? ` for ${short(report.funder)}` : ""}: `, use));
      }
      // Findings the settings above fix are said by the button; the others each with their fix.
      const fixedByUse = applied(report) ? [] : ["WRONG_SIGNATURE_TYPE", "DEPOSIT_WALLET_REQUIRED", "FUNDER_NOT_OWNED"];
      const findings = report.findings.filter((f) => !fixedByUse.includes(f.code))
        .map((f) => h("li", { "data-code": f.code }, f.message, h("span", { class: "fix" }, `Fix: ${f.fix}`)));
      box.className = `ticket-account ${report.ok ? "good" : "bad"}`;
      box.dataset.kind = report.kind ?? report.signatureType;
      box.replaceChildren(...rows, ...(findings.length ? [h("ul", {}, ...findings)] : []));
      return report;
    } catch (error) {
      box.replaceChildren(h("p", {}, `The account could not be checked: ${ctx.describe(error)}`));
      return null;
    }
  }

  /** A failure to connect in words: the library's errors as the page says them, a wallet's with its own message. */
  function walletError(error) {
    if (ctx.isPredictKitError(error)) return ctx.describe(error);
    if (error?.code === 4001) return "the wallet refused.";
    const message = typeof error?.message === "string" ? error.message.slice(0, 200) : "";
    return message ? `the wallet said: ${message}` : ctx.describe(error);
  }
  const connectNow = () => connect().catch((error) => {
    // (A failed reconnection leaves the account that was connected, and says so.)
    walletState.textContent = ctx.signer ? `Still connected as ${short(ctx.signer.address)}: ${walletError(error)}` : `Not connected: ${walletError(error)}`;
  });
  $("ticket-connect").addEventListener("click", connectNow);
  pick.addEventListener("change", () => { if (ctx.signer) connectNow(); });
  // The development wallet's accounts are listed before connecting (a browser wallet tells none until asked).
  if (!globalThis.ethereum) {
    const dev = walletProvider();
    dev?.request({ method: "eth_accounts" }).then(listAccounts, () => {});
  }
  ctx.onConnect(() => {
    if (ctx.signer) return;
    walletState.textContent = "No wallet connected: connect it to trade.";
    $("ticket-connect").textContent = "Connect wallet";
    $("ticket-account").hidden = true;
    finding = null;
  });

  function params() {
    const { tokenId, conditionId } = target();
    const base = { tokenId, side: value("ticket-side"), orderType: value("ticket-type") };
    if (conditionId) base.conditionId = conditionId;
    if (isMarket()) return { ...base, amount: value("ticket-size") };
    const p = { ...base, price: value("ticket-price"), size: value("ticket-size") };
    if (form.elements["ticket-post-only"].checked && !form.elements["ticket-post-only"].disabled) p.postOnly = true;
    // An empty date is no expiration: the library says a GTD order needs one, and from when.
    const at = new Date(value("ticket-expiration")).getTime();
    if (p.orderType === "GTD" && Number.isFinite(at)) p.expiration = Math.floor(at / 1000);
    return p;
  }

  function show(rows, tone = "") {
    out.className = `ticket-result ${tone}`;
    out.replaceChildren(h("dl", { class: "details" }, ...rows.flatMap(([k, v]) => [h("dt", {}, k), h("dd", { class: "mono" }, String(v))])));
  }

  /** The form changed: the previewed draft no longer says what would be signed. */
  function discard() {
    edits += 1;
    if (!draft) return;
    draft = null;
    $("ticket-place").disabled = true;
    out.classList.add("stale");
  }

  async function preview(event) {
    event.preventDefault();
    if (busy) return;
    busy = true;
    try {
      const p = params();
      const at = edits;
      const client = ctx.client;
      const settings = JSON.stringify(ctx.trading);
      const built = await (isMarket() ? client.buildMarketOrder(p) : client.buildOrder(p));
      // The form changed, or the client was replaced (other settings), while it was built: preview again.
      if (at !== edits || client !== ctx.client) return;
      draft = built;
      draftSettings = settings;
      show(previewRows(draft, p, target()));
      $("ticket-place").disabled = false;
    } catch (error) {
      draft = null;
      $("ticket-place").disabled = true;
      // A refusal says what would fit (the bounds, the tick, the nearest valid values), in the field's name.
      show([["Refused", ctx.describe(error)]], "bad");
    } finally {
      busy = false;
    }
  }

  async function place() {
    if (!draft || busy) return;
    busy = true;
    $("ticket-place").disabled = true;
    try {
      if (!ctx.signer) {
        // Connecting runs the doctor: an account whose orders need other settings uses them first.
        const report = await connect();
        if (report && !applied(report)) {
          show([["Not placed", `This account trades through ${KINDS[report.kind ?? report.signatureType]}: use its settings above, then preview again.`]], "bad");
          return;
        }
      }
      if (!draft || !ctx.signer) return; // (a later connection took over: it says what happened)
      if (JSON.stringify(ctx.trading) !== draftSettings) {
        discard();
        show([["Not placed", "The client now signs for the connected account: preview again."]], "bad");
        return;
      }
      // One client signs and posts: a client replaced meanwhile (freed) fails the order instead of half of it.
      const { signer, client } = ctx;
      const signed = await client.signOrder(draft, signer);
      const result = await client.postOrder(signed);
      show([["Placed", result.success ? result.status : "no"], ["Order id", result.orderID], ["Filled", filledText(signed.side, result)], ["Message", result.errorMsg || "–"]], result.success ? "good" : "bad");
      draft = null;
      if (result.success && result.orderID) ctx.placed(result.orderID);
    } catch (error) {
      show([["Not placed", ctx.signer ? ctx.describe(error) : `Not connected: ${walletError(error)}`]], "bad");
    } finally {
      busy = false;
      ctx.settled();
    }
  }

  // --- The price starts at the best price on the side the order takes (a buy the best ask, a sell the best bid),
  // until the user types one; a new outcome starts again.
  let priceTyped = false;
  let priceFor = null;
  function suggestPrice() {
    const { tokenId, book } = target();
    if (tokenId !== priceFor) [priceFor, priceTyped] = [tokenId, false];
    // (Never under a previewed draft: what is signed is what the form showed when it was built.)
    if (priceTyped || !book || draft) return;
    try {
      const best = value("ticket-side") === "BUY" ? book.bestAsk() : book.bestBid();
      if (best) form.elements["ticket-price"].value = String(best.price);
    } catch {
      // (the book on screen was replaced meanwhile: the next one says)
    }
  }
  form.elements["ticket-price"].addEventListener("input", () => { priceTyped = true; });
  ctx.onBook(suggestPrice);

  form.addEventListener("change", syncFields);
  form.addEventListener("input", discard);
  form.addEventListener("submit", preview);
  $("ticket-place").addEventListener("click", place);
  syncFields();
  return { reset: () => { draft = null; out.replaceChildren(); syncFields(); } };
}
