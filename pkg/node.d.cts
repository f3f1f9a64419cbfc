export * from "./node/predictkit.js";
import type { Signer } from "./node/predictkit.js";

/** An EIP-1193 provider (`window.ethereum`, …) signing as `address` with `eth_signTypedData_v4`. */
export declare function walletSigner(provider: { request(args: { method: string; params?: unknown[] }): Promise<unknown> }, address: string): Signer;
/** A viem account, or a viem wallet client with an `account`. */
export declare function viemSigner(accountOrClient: { address?: string; account?: { address: string } | string; signTypedData(args: any): Promise<string> }): Signer;
/** An ethers v6 `Signer`; its address is read once. */
export declare function ethersSigner(signer: { getAddress(): Promise<string>; signTypedData(domain: any, types: any, value: any): Promise<string> }): Promise<Signer>;

/** A tick size that ROUNDING_CONFIG has an entry for. */
export type RoundingTickSize = "0.1" | "0.01" | "0.001" | "0.0001" | "0.005" | "0.0025";

/**
 * The upstream `ROUNDING_CONFIG`: decimal places of price, size and amount per tick size (frozen; the
 * same table as `roundingConfig()`).
 */
export declare const ROUNDING_CONFIG: Readonly<
  Record<RoundingTickSize, Readonly<{ price: number; size: number; amount: number }>>
>;
