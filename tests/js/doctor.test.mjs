// The account doctor against the emulator: every kind of account (its own address, a Safe, a deposit wallet on
// Amoy; a proxy on Polygon, in an emulator of its own) named, and with the settings it gives an order placed,
// matched and cancelled; each finding made by an account set up wrong, the refused order's error naming the
// same fix, and gone once the fix is made; what it reads, and hostile providers and signals.
import { test, before, after, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { pk, EMULATOR, PKG_DIR, rejectsWith, admin as adminAt, startEmulator, devWallet, spreadMarket } from "./helpers.mjs";

const { walletSigner } = await import(`${PKG_DIR}/signers.mjs`);
const admin = (method, path, body) => adminAt(EMULATOR, method, path, body);

/** An emulator's wallet as an EIP-1193 provider, counting what it is asked. */
function providerOf(base) {
  const asked = [];
  const wallet = devWallet(base);
  return {
    asked,
    request(args) {
      asked.push(args.method);
      return wallet.request(args);
    },
  };
}

const provider = providerOf(EMULATOR);
let accounts;
let polygon; // an emulator on chain 137, where proxy wallets exist

before(async () => {
  accounts = await provider.request({ method: "eth_requestAccounts" });
  polygon = await startEmulator(["--chain-id", "137"]);
});
after(() => polygon?.stop());
beforeEach(() => admin("POST", "/__admin/reset"));

/** A market of `base` with both sides: its best bid and the price that crosses its best ask. */
async function marketOf(base) {
  const { tokenId, bid, ask, minSize } = await spreadMarket(base);
  return { tokenId, bestBid: bid, bestAsk: ask, minSize };
}

const clientOf = (base, chainId, extra = {}) => new pk.Client({ baseUrl: base, chainId, rateLimits: false, maxRetries: 0, ...extra });

/**
 * Diagnoses `owner`'s account with a client set up naively (EOA), then trades with the settings the doctor
 * gives: a resting order cancelled, a crossing one matched. Returns the two diagnoses and what happened.
 */
async function tradeAs(base, chainId, owner, wallet) {
  const signer = walletSigner(wallet, owner);
  const naive = clientOf(base, chainId);
  await naive.createApiKey(signer);
  const first = await naive.diagnoseAccount(signer, { provider: wallet });
  const client = clientOf(base, chainId, { signatureType: first.signatureType, funder: first.funder });
  await client.deriveApiKey(signer);
  const second = await client.diagnoseAccount(signer, { provider: wallet });
  const m = await marketOf(base);
  const size = Math.max(5, m.minSize);
  const resting = await client.placeOrder({ tokenId: m.tokenId, side: "BUY", price: Math.round((m.bestBid + 0.01) * 100) / 100, size }, signer);
  const canceled = await client.cancelOrder(resting.orderID);
  const crossing = await client.placeOrder({ tokenId: m.tokenId, side: "BUY", price: m.bestAsk, size }, signer);
  naive.free();
  client.free();
  return { first, second, resting, canceled, crossing };
}

test("each kind of account is named, and trades with the settings the doctor gives: its own address, a Safe, a deposit wallet (Amoy), a proxy (Polygon)", async () => {
  const polygonWallet = providerOf(polygon.url);
  const cases = [
    [EMULATOR, 80002, accounts[0], provider, "EOA", []],
    // A Safe's or a proxy's owner trading as itself: its own address holds nothing, the fix names the wallet.
    [EMULATOR, 80002, accounts[2], provider, "POLY_GNOSIS_SAFE", ["NO_BALANCE"]],
    [EMULATOR, 80002, accounts[4], provider, "POLY_1271", ["DEPOSIT_WALLET_REQUIRED"]],
    [polygon.url, 137, accounts[3], polygonWallet, "POLY_PROXY", ["NO_BALANCE"]],
  ];
  for (const [base, chainId, owner, wallet, kind, naiveFindings] of cases) {
    const wallets = await adminAt(base, "GET", `/__admin/wallets?owner=${owner}`);
    const r = await tradeAs(base, chainId, owner, wallet);
    const what = `${kind}: ${JSON.stringify(r.first)}`;
    assert.equal(r.first.kind, kind, what);
    assert.equal(r.first.signatureType, kind, what);
    assert.deepEqual(r.first.findings.map((f) => f.code), naiveFindings, what);
    const expectedFunder = { EOA: undefined, POLY_GNOSIS_SAFE: wallets.safe, POLY_1271: wallets.depositWallet, POLY_PROXY: wallets.proxy }[kind];
    assert.equal(r.first.funder, expectedFunder, what);
    assert.equal(r.second.ok, true, JSON.stringify(r.second));
    assert.deepEqual(r.second.findings, []);
    assert.equal(r.second.collateral.balance, "10000000000");
    assert.equal(r.resting.success, true, r.resting.errorMsg);
    assert.deepEqual(r.canceled.canceled, [r.resting.orderID]);
    assert.equal(r.crossing.status, "matched", JSON.stringify(r.crossing));
  }
});

test("each finding comes from an account set up wrong, the refused order names the same fix, and it is gone once fixed", async () => {
  const m = await marketOf(EMULATOR);
  const order = { tokenId: m.tokenId, side: "BUY", price: Math.round((m.bestBid + 0.01) * 100) / 100, size: Math.max(5, m.minSize) };
  const codes = (report) => report.findings.map((f) => f.code);
  const info = async (owner) => admin("GET", `/__admin/wallets?owner=${owner}`);

  // No key, then another address's key: the orders would be refused as another key's.
  const alice = walletSigner(provider, accounts[0]);
  const bob = walletSigner(provider, accounts[1]);
  const client = clientOf(EMULATOR, 80002);
  assert.deepEqual(codes(await client.diagnoseAccount(alice, { provider })), ["NO_API_KEY"]);
  await client.createApiKey(bob);
  const stranger = await client.diagnoseAccount(alice, { provider });
  assert.deepEqual(codes(stranger), ["KEY_NOT_FOR_SIGNER"]);
  assert.equal(stranger.apiKey.forSigner, false);
  const refusedKey = await rejectsWith(assert, client.placeOrder(order, alice), "API");
  assert.equal(refusedKey.finding.code, "KEY_NOT_FOR_SIGNER");
  await client.createApiKey(alice);
  assert.deepEqual(codes(await client.diagnoseAccount(alice, { provider })), []);

  // A key the service does not take (its secret is not the one it gave).
  const forged = clientOf(EMULATOR, 80002, {
    credentials: {
      address: accounts[0],
      apiKey: (await admin("GET", "/__admin/accounts")).find((a) => a.address.toLowerCase() === accounts[0].toLowerCase() && a.nonce).apiKey,
      secret: "c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0",
      passphrase: "ab".repeat(32),
    },
  });
  const rejected = await forged.diagnoseAccount(alice);
  assert.deepEqual(codes(rejected), ["KEY_REJECTED"], JSON.stringify(rejected));
  await forged.createOrDeriveApiKey(alice);
  assert.deepEqual(codes(await forged.diagnoseAccount(alice)), []);

  // A Safe account whose Safe is named as a proxy: "invalid POLY_PROXY signature" (no proxies on Amoy).
  const carol = walletSigner(provider, accounts[2]);
  const { safe, depositWallet } = await info(accounts[2]);
  const proxyNamed = clientOf(EMULATOR, 80002, { signatureType: "POLY_PROXY", funder: safe });
  await proxyNamed.createApiKey(carol);
  const wrongType = await proxyNamed.diagnoseAccount(carol, { provider });
  assert.deepEqual(codes(wrongType), ["WRONG_SIGNATURE_TYPE"]);
  assert.match(wrongType.findings[0].fix, /POLY_GNOSIS_SAFE/);
  const refusedType = await rejectsWith(assert, proxyNamed.placeOrder(order, carol), "API");
  assert.match(refusedType.body, /invalid POLY_PROXY signature/);
  assert.equal(refusedType.finding.code, "WRONG_SIGNATURE_TYPE");
  // Another owner's Safe as funder: "invalid signature".
  const othersSafe = (await info(accounts[3])).safe;
  const notOwned = clientOf(EMULATOR, 80002, { signatureType: "POLY_GNOSIS_SAFE", funder: othersSafe });
  await notOwned.deriveApiKey(carol);
  const notOwnedReport = await notOwned.diagnoseAccount(carol, { provider });
  assert.deepEqual(codes(notOwnedReport), ["FUNDER_NOT_OWNED"]);
  assert.ok(notOwnedReport.findings[0].fix.includes(safe), notOwnedReport.findings[0].fix);
  assert.match((await rejectsWith(assert, notOwned.placeOrder(order, carol), "API")).body, /invalid signature/);
  // Fixed as the doctor says.
  const carols = clientOf(EMULATOR, 80002, { signatureType: wrongType.signatureType, funder: wrongType.funder });
  await carols.deriveApiKey(carol);
  assert.deepEqual(codes(await carols.diagnoseAccount(carol, { provider })), []);
  assert.equal((await carols.placeOrder(order, carol)).success, true);
  // A deposit wallet the service does not know of (Carol's account is a Safe's).
  const noDeposit = clientOf(EMULATOR, 80002, { signatureType: "POLY_1271", funder: depositWallet });
  await noDeposit.deriveApiKey(carol);
  const noDepositReport = await noDeposit.diagnoseAccount(carol, { provider });
  assert.deepEqual(codes(noDepositReport), ["NO_DEPOSIT_WALLET"]);
  assert.equal(noDepositReport.signatureType, "POLY_GNOSIS_SAFE");
  const refusedBalance = await rejectsWith(assert, noDeposit.getBalanceAllowance({ asset_type: "COLLATERAL" }), "API");
  assert.equal(refusedBalance.finding.code, "NO_DEPOSIT_WALLET");

  // A deposit-wallet account that signs as its owner: "maker address not allowed, please use the deposit wallet flow".
  const dave = walletSigner(provider, accounts[4]);
  const owner = clientOf(EMULATOR, 80002);
  await owner.createApiKey(dave);
  const required = await owner.diagnoseAccount(dave, { provider });
  assert.deepEqual(codes(required), ["DEPOSIT_WALLET_REQUIRED"]);
  const refusedMaker = await rejectsWith(assert, owner.placeOrder(order, dave), "API");
  assert.match(refusedMaker.body, /maker address not allowed, please use the deposit wallet flow/);
  assert.equal(refusedMaker.finding.code, "DEPOSIT_WALLET_REQUIRED");
  // Its wallet not deployed yet: the service refuses its orders as not the key's.
  await admin("POST", "/__admin/wallets", { owner: accounts[4], kind: "POLY_1271", deployed: false });
  const fixed = clientOf(EMULATOR, 80002, { signatureType: required.signatureType, funder: required.funder });
  await fixed.deriveApiKey(dave);
  const undeployed = await fixed.diagnoseAccount(dave, { provider });
  assert.deepEqual(codes(undeployed), ["WALLET_NOT_DEPLOYED"]);
  assert.equal(undeployed.wallets.depositWallet.deployed, false);
  assert.equal((await rejectsWith(assert, fixed.placeOrder(order, dave), "API")).finding.code, "KEY_NOT_FOR_SIGNER");
  await admin("POST", "/__admin/wallets", { owner: accounts[4], kind: "POLY_1271", deployed: true });
  assert.deepEqual(codes(await fixed.diagnoseAccount(dave, { provider })), []);
  assert.equal((await fixed.placeOrder(order, dave)).success, true);

  // A wallet that approved nothing: "not enough balance / allowance"; approved, the finding is gone.
  await admin("POST", "/__admin/wallets", { owner: accounts[4], kind: "POLY_1271", approved: false });
  const unapproved = await fixed.diagnoseAccount(dave, { provider });
  assert.deepEqual(codes(unapproved), ["NO_ALLOWANCE"]);
  assert.match(unapproved.findings[0].fix, /approve the exchange contracts .* updateBalanceAllowance/);
  assert.deepEqual(Object.values(unapproved.collateral.allowances), ["0", "0"]);
  assert.match((await rejectsWith(assert, fixed.placeOrder(order, dave), "API")).body, /not enough balance \/ allowance/);
  await admin("POST", "/__admin/wallets", { owner: accounts[4], kind: "POLY_1271" });
  assert.deepEqual(codes(await fixed.diagnoseAccount(dave, { provider })), []);

  // The wallet on another chain than the client's.
  const elsewhere = { request: (args) => (args.method === "eth_chainId" ? "0x89" : provider.request(args)) };
  const mismatch = await fixed.diagnoseAccount(dave, { provider: elsewhere });
  assert.deepEqual(codes(mismatch), ["CHAIN_MISMATCH"]);
  assert.equal(mismatch.walletChainId, 137);
  for (const c of [client, forged, proxyNamed, notOwned, carols, noDeposit, owner, fixed]) c.free();
});

test("it reads only what it needs, sends no order and asks an account that is not set up for its deposit wallet to sign nothing", async () => {
  const dave = accounts[4];
  const signed = [];
  const signer = { address: dave, signTypedData: (td) => (signed.push(td), walletSigner(provider, dave).signTypedData(td)) };
  const client = clientOf(EMULATOR, 80002);
  await client.createApiKey(signer);
  signed.length = 0;
  provider.asked.length = 0;
  await admin("DELETE", "/__admin/requests");
  const report = await client.diagnoseAccount(signer, { provider });
  assert.deepEqual(signed, [], "nothing signed");
  // The chain, then the code of the deposit wallet and the Safe (Amoy has no proxies).
  assert.deepEqual(provider.asked, ["eth_chainId", "eth_getCode", "eth_getCode"]);
  const { requests } = await admin("GET", "/__admin/requests");
  const service = requests.filter((r) => r.path !== "/" && r.path !== "/wallet");
  assert.deepEqual(service.map((r) => `${r.method} ${r.path}`), ["GET /balance-allowance", "GET /balance-allowance"]);
  assert.equal(report.kind, "POLY_1271");
  // No provider and no key: nothing to read, and nothing known but the wallets' addresses.
  await admin("DELETE", "/__admin/requests");
  const bare = await clientOf(EMULATOR, 80002).diagnoseAccount(signer);
  assert.deepEqual((await admin("GET", "/__admin/requests")).requests.filter((r) => r.path !== "/" && r.path !== "/wallet"), []);
  assert.equal(bare.kind, undefined);
  assert.equal(bare.wallets.depositWallet.deployed, undefined);
  assert.equal(bare.wallets.depositWallet.address, (await admin("GET", `/__admin/deposit-wallet?owner=${dave}`)).wallet);
  assert.deepEqual(bare.findings.map((f) => f.code), ["NO_API_KEY"]);
  client.free();
});

test("a deposit wallet of either form (py-clob-client-v2 issue 70): the doctor asks the wallet which it takes, and the orders are signed in it", async () => {
  const dave = accounts[4];
  const { depositWallet } = await admin("GET", `/__admin/wallets?owner=${dave}`);
  const m = await marketOf(EMULATOR);
  const order = { tokenId: m.tokenId, side: "BUY", price: Math.round((m.bestBid + 0.01) * 100) / 100, size: Math.max(5, m.minSize) };
  const kinds = [];
  /** Dave's wallet signing, the primary type of each document it is asked to sign recorded. */
  const signerOf = (key) => ({
    address: dave,
    signTypedData: (td) => (kinds.push(td.primaryType), walletSigner(provider, key).signTypedData(td)),
  });
  const signer = signerOf(dave);
  for (const form of ["ERC7739", "PLAIN"]) {
    await admin("POST", "/__admin/wallets", { owner: dave, kind: "POLY_1271", signature: form });
    const client = clientOf(EMULATOR, 80002, { signatureType: "POLY_1271", funder: depositWallet });
    await client.createOrDeriveApiKey(signer);
    if (form === "PLAIN") {
      // Before the doctor asked: the ERC-7739 form the upstream clients send, which this wallet refuses.
      const refused = await rejectsWith(assert, client.placeOrder(order, signer), "API");
      assert.match(refused.message, /invalid order signature/);
    }
    kinds.length = 0;
    provider.asked.length = 0;
    const report = await client.diagnoseAccount(signer, { provider });
    assert.equal(report.depositSignature, form, JSON.stringify(report));
    assert.deepEqual(report.findings, [], JSON.stringify(report));
    // The ERC-7739 form first; the plain one only when the wallet refused it.
    assert.deepEqual(kinds, form === "ERC7739" ? ["TypedDataSign"] : ["TypedDataSign", "Order"]);
    assert.equal(provider.asked.filter((a) => a === "eth_call").length, kinds.length);
    kinds.length = 0;
    const placed = await client.placeOrder(order, signer);
    assert.equal(placed.success, true, placed.errorMsg);
    assert.deepEqual(kinds, [form === "ERC7739" ? "TypedDataSign" : "Order"], "the order is signed in the wallet's form");
    assert.deepEqual((await client.cancelOrder(placed.orderID)).canceled, [placed.orderID]);
    // A signer that is not the wallet's owner: the wallet takes neither form, and the finding says so.
    const wrong = await client.diagnoseAccount(signerOf(accounts[0]), { provider });
    assert.deepEqual(wrong.findings.map((f) => f.code), ["SIGNATURE_REFUSED"], JSON.stringify(wrong));
    assert.equal(wrong.depositSignature, undefined);
    client.free();
  }
});

test("a deposit wallet's test with signers and providers that throw, answer nonsense or never answer: no form told, no finding, the client goes on", async () => {
  const dave = accounts[4];
  const { depositWallet } = await admin("GET", `/__admin/wallets?owner=${dave}`);
  const client = clientOf(EMULATOR, 80002, { signatureType: "POLY_1271", funder: depositWallet });
  const signer = walletSigner(provider, dave);
  await client.createOrDeriveApiKey(signer);
  const signers = [
    { address: dave, signTypedData() { throw new Error("boom"); } },
    { address: dave, signTypedData: async () => undefined },
    { address: dave, signTypedData: async () => new Proxy({}, { get() { throw new Error("trap"); } }) },
    { address: dave, signTypedData: async () => "0x" + "zz".repeat(65) },
    { address: dave, signTypedData: async () => "0x".padEnd(1 << 20, "1") },
  ];
  for (const bad of signers) {
    const r = await client.diagnoseAccount(bad, { provider });
    assert.equal(r.depositSignature, undefined, JSON.stringify(r));
    assert.deepEqual(r.findings, [], JSON.stringify(r));
  }
  // A wallet whose eth_call answers nonsense, throws or never answers (30 s bound; here the signal ends it).
  const answering = (call) => ({ request: (args) => (args.method === "eth_call" ? call() : provider.request(args)) });
  for (const call of [() => "0xzz", () => { throw new Error("boom"); }, async () => ({ toString() { throw new Error("trap"); } })]) {
    const r = await client.diagnoseAccount(signer, { provider: answering(call) });
    assert.equal(r.depositSignature, undefined, JSON.stringify(r));
    assert.deepEqual(r.findings, [], JSON.stringify(r));
  }
  const ctl = new AbortController();
  const pending = client.diagnoseAccount({ address: dave, signTypedData: () => new Promise(() => {}) }, { provider, signal: ctl.signal });
  setTimeout(() => ctl.abort(), 50);
  await rejectsWith(assert, pending, "ABORTED");
  // The client still diagnoses and trades.
  const report = await client.diagnoseAccount(signer, { provider });
  assert.equal(report.depositSignature, "ERC7739", JSON.stringify(report));
  const m = await marketOf(EMULATOR);
  const placed = await client.placeOrder({ tokenId: m.tokenId, side: "BUY", price: Math.round((m.bestBid + 0.01) * 100) / 100, size: Math.max(5, m.minSize) }, signer);
  assert.equal(placed.success, true, placed.errorMsg);
  await client.cancelOrder(placed.orderID);
  client.free();
});

test("hostile providers, signers and signals: typed errors or unknowns, never a wedge", async () => {
  const client = clientOf(EMULATOR, 80002);
  const signer = walletSigner(provider, accounts[0]);
  await client.createApiKey(signer);
  // Not a provider, or one whose getters throw: INVALID_PARAMS before anything is asked.
  for (const bad of [5, "x", { request: 1 }, { get request() { throw new Error("trap"); } }, new Proxy({}, { get() { throw new Error("trap"); } })]) {
    const e = await rejectsWith(assert, client.diagnoseAccount(signer, { provider: bad }), "INVALID_PARAMS");
    assert.equal(e.param, "options.provider");
  }
  await rejectsWith(assert, client.diagnoseAccount({ address: "nope", signTypedData() {} }), "INVALID_PARAMS");
  await rejectsWith(assert, client.diagnoseAccount(null), "INVALID_PARAMS");
  // Providers that throw, reject, answer nonsense or a thenable that throws: the wallets' deployment is unknown.
  const providers = [
    { request() { throw new Error("boom"); } },
    { request: async () => { throw 42; } },
    { request: async () => ({ toString() { throw new Error("trap"); } }) },
    { request: () => ({ then() { throw new Error("trap"); } }) },
    { request: async () => "0x" + "zz".repeat(10) },
    { request: async () => new Proxy([], { get() { throw new Error("trap"); } }) },
    { request: async () => "0x".padEnd(1 << 20, "g") },
  ];
  for (const bad of providers) {
    const r = await client.diagnoseAccount(signer, { provider: bad });
    assert.equal(r.walletChainId, undefined);
    assert.equal(r.wallets.depositWallet.deployed === true, false, JSON.stringify(r));
    assert.deepEqual(r.findings, [], JSON.stringify(r));
  }
  // A provider that never answers: the signal ends the call (ABORTED), and the client goes on working.
  const never = { request: () => new Promise(() => {}) };
  const ctl = new AbortController();
  const pending = client.diagnoseAccount(signer, { provider: never, signal: ctl.signal });
  setTimeout(() => ctl.abort(), 50);
  await rejectsWith(assert, pending, "ABORTED");
  await rejectsWith(assert, client.diagnoseAccount(signer, { provider, signal: AbortSignal.abort() }), "ABORTED");
  assert.equal((await client.diagnoseAccount(signer, { provider })).ok, true);
  // A freed client answers its typed error.
  client.free();
  await rejectsWith(assert, () => client.diagnoseAccount(signer, { provider }), "FREED");
});
