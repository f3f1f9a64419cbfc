import type { Signer } from "./web/predictkit.js";

/** An EIP-1193 provider (`window.ethereum`, …) signing as `address` with `eth_signTypedData_v4`. */
export declare function walletSigner(
  provider: { request(args: { method: string; params?: unknown[] }): Promise<unknown> },
  address: string,
): Signer;

/** A viem account, or a viem wallet client with an `account`. */
export declare function viemSigner(accountOrClient: {
  address?: string;
  account?: { address: string } | string;
  signTypedData(args: any): Promise<string>;
}): Signer;

/** An ethers v6 `Signer`; its address is read once. */
export declare function ethersSigner(signer: {
  getAddress(): Promise<string>;
  signTypedData(domain: any, types: any, value: any): Promise<string>;
}): Promise<Signer>;
