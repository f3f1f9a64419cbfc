// Signers for trading. PredictKit never holds a private key: it asks a signer `{ address, signTypedData }`
// to sign an `eth_signTypedData_v4` document (`EIP712Domain` included, integers as decimal strings) and
// takes back the signature. These adapters make one from the wallets pages use; none of those libraries
// is a dependency of this package.

/** `INVALID_PARAMS`, as the library's own errors are (`isPredictKitError` is true of it). */
function invalid(param, message) {
  return Object.assign(new Error(`${param}: ${message}`), { name: "PredictKitError", code: "INVALID_PARAMS", param });
}

function fail(param, message) {
  throw invalid(param, message);
}

/** Reads a caller's value through `read`; a getter or Proxy trap that throws is `INVALID_PARAMS`. */
function readSafely(param, read) {
  try {
    return read();
  } catch {
    throw invalid(param, "could not be read (a getter or Proxy threw)");
  }
}

/** The document's own types without `EIP712Domain` (viem and ethers derive it from the domain). */
function messageTypes(typedData) {
  const types = {};
  for (const [name, fields] of Object.entries(typedData.types)) if (name !== "EIP712Domain") types[name] = fields;
  return types;
}

/** The message with its integer fields as bigints, as viem encodes them (it does not parse strings). */
function bigintMessage(typedData) {
  const fields = typedData.types[typedData.primaryType] ?? [];
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
 */
export function walletSigner(provider, address) {
  const request = readSafely("provider", () => provider?.request);
  if (typeof request !== "function") fail("provider", "must be an EIP-1193 provider (with request())");
  if (typeof address !== "string" || address.length > 64) fail("address", "must be the account's address");
  return Object.freeze({
    address,
    signTypedData: (typedData) =>
      provider.request({ method: "eth_signTypedData_v4", params: [address, JSON.stringify(typedData)] }),
  });
}

/**
 * A viem account (`privateKeyToAccount`, a smart account, …) or a wallet client with an `account`.
 *
 * @example
 * const signer = viemSigner(createWalletClient({ account, chain: polygon, transport: custom(window.ethereum) }));
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
    signTypedData: (typedData) => signer.signTypedData(typedData.domain, messageTypes(typedData), typedData.message),
  });
}
