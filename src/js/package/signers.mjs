// @ts-check
// Signers for trading. PredictKit never holds a private key: it asks a signer `{ address, signTypedData }`
// to sign an `eth_signTypedData_v4` document (`EIP712Domain` included, integers as decimal strings) and
// takes back the signature. These adapters make one from the wallets pages use; none of those libraries
// is a dependency of this package. Their declarations are pkg/signers.d.mts.

/**
 * An `eth_signTypedData_v4` document as the library writes it (src/wasm/trade.d.ts: TypedData).
 * @typedef {object} TypedData
 * @property {Record<string, { name: string, type: string }[]>} types
 * @property {object} domain
 * @property {string} primaryType
 * @property {Record<string, string>} message
 */

/**
 * What the library asks to sign with (src/wasm/trade.d.ts: Signer).
 * @typedef {{ readonly address: string, signTypedData(typedData: TypedData): unknown }} Signer
 */

/**
 * `INVALID_PARAMS`, as the library's own errors are (`isPredictKitError` is true of it).
 * @param {string} param
 * @param {string} message
 */
function invalid(param, message) {
  return Object.assign(new Error(`${param}: ${message}`), { name: "PredictKitError", code: "INVALID_PARAMS", param });
}

/**
 * @param {string} param
 * @param {string} message
 * @returns {never}
 */
function fail(param, message) {
  throw invalid(param, message);
}

/**
 * Reads a caller's value through `read`; a getter or Proxy trap that throws is `INVALID_PARAMS`.
 * @template T
 * @param {string} param
 * @param {() => T} read
 * @returns {T}
 */
function readSafely(param, read) {
  try {
    return read();
  } catch {
    throw invalid(param, "could not be read (a getter or Proxy threw)");
  }
}

/**
 * The document's own types without `EIP712Domain` (viem and ethers derive it from the domain).
 * @param {TypedData} typedData
 */
function messageTypes(typedData) {
  /** @type {TypedData["types"]} */
  const types = {};
  for (const [name, fields] of Object.entries(typedData.types)) if (name !== "EIP712Domain") types[name] = fields;
  return types;
}

/**
 * The message with its integer fields as bigints, as viem encodes them (it does not parse strings).
 * @param {TypedData} typedData
 */
function bigintMessage(typedData) {
  const fields = typedData.types[typedData.primaryType] ?? [];
  /** @type {Record<string, string | bigint>} */
  const message = { ...typedData.message };
  for (const { name, type } of fields) if (/^u?int\d*$/.test(type)) message[name] = BigInt(message[name]);
  return message;
}

/**
 * An EIP-1193 provider (`window.ethereum`, WalletConnect, …) signing as `address` with `eth_signTypedData_v4`.
 *
 * @example
 * const [address] = await window.ethereum.request({ method: "eth_requestAccounts" });
 * const signer = walletSigner(window.ethereum, address);
 * @param {{ request(args: { method: string, params?: unknown[] }): Promise<unknown> }} provider
 * @param {string} address
 * @returns {Signer}
 */
export function walletSigner(provider, address) {
  const request = readSafely("provider", () => provider?.request);
  if (typeof request !== "function") fail("provider", "must be an EIP-1193 provider (with request())");
  if (typeof address !== "string" || address.length > 64) fail("address", "must be the account's address");
  return Object.freeze({
    address,
    /** @param {TypedData} typedData */
    signTypedData: (typedData) =>
      provider.request({ method: "eth_signTypedData_v4", params: [address, JSON.stringify(typedData)] }),
  });
}

/**
 * A viem account (`privateKeyToAccount`, a smart account, …) or a wallet client with an `account`.
 *
 * @example
 * const signer = viemSigner(createWalletClient({ account, chain: polygon, transport: custom(window.ethereum) }));
 * @param {{ address?: string, account?: { address: string } | string,
 *   signTypedData(args: any): Promise<string> }} accountOrClient
 * @returns {Signer}
 */
export function viemSigner(accountOrClient) {
  const [account, address, sign, isClient] = readSafely("accountOrClient", () => {
    const account = accountOrClient?.account ?? accountOrClient;
    const address = typeof account === "string" ? account : account?.address;
    return [account, address, accountOrClient?.signTypedData, accountOrClient?.account !== undefined];
  });
  if (typeof address !== "string" || typeof sign !== "function") {
    fail("accountOrClient", "must be a viem account or a wallet client with an account");
  }
  return Object.freeze({
    address,
    /** @param {TypedData} typedData */
    signTypedData: (typedData) =>
      accountOrClient.signTypedData({
        ...(isClient ? { account } : {}),
        domain: typedData.domain,
        types: messageTypes(typedData),
        primaryType: typedData.primaryType,
        message: bigintMessage(typedData),
      }),
  });
}

/**
 * An ethers v6 `Signer` (a `Wallet`, or `await new BrowserProvider(window.ethereum).getSigner()`), whose
 * address is read once.
 *
 * @example
 * const signer = await ethersSigner(await new BrowserProvider(window.ethereum).getSigner());
 * @param {{ getAddress(): Promise<string>,
 *   signTypedData(domain: any, types: any, value: any): Promise<string> }} signer
 * @returns {Promise<Signer>}
 */
export async function ethersSigner(signer) {
  const [sign, getAddress] = readSafely("signer", () => [signer?.signTypedData, signer?.getAddress]);
  if (typeof sign !== "function" || typeof getAddress !== "function") fail("signer", "must be an ethers v6 Signer");
  let address;
  try {
    address = await signer.getAddress();
  } catch (cause) {
    throw Object.assign(new Error("the signer could not tell its address"), { name: "PredictKitError", code: "SIGNER", cause });
  }
  if (typeof address !== "string") fail("signer", "answered getAddress() with something other than an address");
  return Object.freeze({
    address,
    /** @param {TypedData} typedData */
    signTypedData: (typedData) => signer.signTypedData(typedData.domain, messageTypes(typedData), typedData.message),
  });
}
