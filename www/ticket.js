// The order ticket on the market page: a limit or market order for the outcome shown, previewed with its
// exact amounts and fee (client.buildOrder / buildMarketOrder) before the wallet is asked to sign, then
// signed by the wallet (signOrder) and placed (postOrder); the service's answer is shown, and the order
// appears in "My orders". The wallet is the browser's (window.ethereum), or, on a local page talking to
// the local emulator, the emulator's development wallet (as a local chain's node offers). The API key
// comes from the wallet's signature (createOrDeriveApiKey) and stays inside the Client; then the account
// doctor (diagnoseAccount) says what the account trades through and any problem with its fix. Every figure the
// preview shows is the draft's, and that draft is what is signed: nothing is computed apart from it, and a
// change to the form discards it.
import { $, h } from "./ui.js";
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

export function ticketView(ctx, target) {
  let draft = null;
  let busy = false;
  let edits = 0; // changes to the form: a draft built from an older form is not shown

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
    discard();
    $("ticket-place").disabled = true;
  }

  async function wallet() {
    if (ctx.signer) return ctx.signer;
    const service = new URL(ctx.baseUrl);
    const provider = globalThis.ethereum ?? (ctx.isLocal && ["localhost", "127.0.0.1", "[::1]"].includes(service.hostname) ? emulatorWallet(ctx.baseUrl) : null);
    if (!provider) throw new Error("No wallet: install a browser wallet to trade.");
    const [address] = await provider.request({ method: "eth_requestAccounts" });
    const signer = walletSigner(provider, address);
    await ctx.client.createOrDeriveApiKey(signer);
    ctx.useWallet(signer);
    await checkAccount(signer, provider);
    return signer;
  }

  /**
   * The account doctor, once the wallet is connected: what the account trades through and each problem with
   * its fix, before the first order is signed. A doctor that cannot finish does not stop the order.
   */
  async function checkAccount(signer, provider) {
    const box = $("ticket-account");
    box.hidden = false;
    box.className = "ticket-account";
    box.replaceChildren(h("p", {}, "Checking the account…"));
    try {
      const report = await ctx.client.diagnoseAccount(signer, { provider });
      const kind = { EOA: "its own address", POLY_PROXY: "a proxy wallet", POLY_GNOSIS_SAFE: "a Safe", POLY_1271: "a deposit wallet" }[report.kind ?? report.signatureType];
      const head = h("p", {}, h("strong", {}, report.ok ? "Account ready" : "Account needs attention"), ` · ${report.owner.slice(0, 6)}…${report.owner.slice(-4)} trades through ${kind}`);
      const findings = report.findings.map((f) => h("li", { "data-code": f.code }, f.message, h("span", { class: "fix" }, `Fix: ${f.fix}`)));
      box.className = `ticket-account ${report.ok ? "good" : "bad"}`;
      box.replaceChildren(head, ...(findings.length ? [h("ul", {}, ...findings)] : []));
    } catch (error) {
      box.replaceChildren(h("p", {}, `The account could not be checked: ${ctx.describe(error)}`));
    }
  }

  function params() {
    const { tokenId, conditionId } = target();
    const base = { tokenId, side: value("ticket-side"), orderType: value("ticket-type") };
    if (conditionId) base.conditionId = conditionId;
    if (isMarket()) return { ...base, amount: value("ticket-size") };
    const p = { ...base, price: value("ticket-price"), size: value("ticket-size") };
    if (form.elements["ticket-post-only"].checked && !form.elements["ticket-post-only"].disabled) p.postOnly = true;
    if (p.orderType === "GTD") p.expiration = Math.floor(new Date(value("ticket-expiration")).getTime() / 1000);
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
      const built = await (isMarket() ? ctx.client.buildMarketOrder(p) : ctx.client.buildOrder(p));
      if (at !== edits) return; // the form changed while it was built: preview again
      draft = built;
      show([
        ["Order", `${draft.side} ${draft.shares} shares at ${draft.price} (${draft.orderType}${draft.postOnly ? ", post-only" : ""})`],
        [draft.side === "BUY" ? "You pay" : "You receive", `$${draft.cash}`],
        ["Maker amount", `${draft.makerAmount} units`],
        ["Taker amount", `${draft.takerAmount} units`],
        ["Fee if it takes", draft.fee === undefined ? "none" : `$${draft.fee}`],
        ["Exchange", `v${draft.version} ${draft.exchange}${draft.negRisk ? " (neg-risk)" : ""}`],
      ]);
      $("ticket-place").disabled = false;
    } catch (error) {
      draft = null;
      $("ticket-place").disabled = true;
      // A refusal's own text says what would fit (a FOK size names the nearest exact sizes).
      show([["Refused", ctx.describe(error)], ...(error?.code === "INVALID_PARAMS" ? [["Why", error.message]] : [])], "bad");
    } finally {
      busy = false;
    }
  }

  async function place() {
    if (!draft || busy) return;
    busy = true;
    $("ticket-place").disabled = true;
    try {
      const signer = await wallet();
      const signed = await ctx.client.signOrder(draft, signer);
      const result = await ctx.client.postOrder(signed);
      show([["Placed", result.success ? result.status : "no"], ["Order id", result.orderID], ["Filled", `${result.makingAmount || 0} / ${result.takingAmount || 0}`], ["Message", result.errorMsg || "–"]], result.success ? "good" : "bad");
      draft = null;
      if (result.success && result.orderID) ctx.placed(result.orderID);
    } catch (error) {
      show([["Not placed", ctx.describe(error)]], "bad");
    } finally {
      busy = false;
      ctx.settled();
    }
  }

  form.addEventListener("change", syncFields);
  form.addEventListener("input", discard);
  form.addEventListener("submit", preview);
  $("ticket-place").addEventListener("click", place);
  syncFields();
  return { reset: () => { draft = null; out.replaceChildren(); syncFields(); } };
}
