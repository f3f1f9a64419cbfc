// Signers for trading. PredictKit never holds a private key: it asks a signer `{ address, signTypedData }`
// to sign an `eth_signTypedData_v4` document (`EIP712Domain` included, integers as decimal strings) and
// takes back the signature. These adapters make one from the wallets pages use; none of those libraries
// is a dependency of this package.

function fail(message) {
  throw new TypeError(`predictkit: ${message}`);
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
  if (!provider || typeof provider.request !== "function") fail("walletSigner needs an EIP-1193 provider (with request())");
  if (typeof address !== "string") fail("walletSigner needs the account's address");
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
  const account = accountOrClient?.account ?? accountOrClient;
  const address = typeof account === "string" ? account : account?.address;
  if (typeof address !== "string" || typeof accountOrClient?.signTypedData !== "function") {
    fail("viemSigner needs a viem account or a wallet client with an account");
  }
  const isClient = accountOrClient.account !== undefined;
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
  if (typeof signer?.signTypedData !== "function" || typeof signer?.getAddress !== "function") {
    fail("ethersSigner needs an ethers v6 Signer");
  }
  const address = await signer.getAddress();
  return Object.freeze({
    address,
    signTypedData: (typedData) => signer.signTypedData(typedData.domain, messageTypes(typedData), typedData.message),
  });
}
