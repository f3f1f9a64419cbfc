/** The trading options of `new Client(options)` (all optional). */
export interface ClientOptions {
  /** The chain orders and API keys are signed for: 137 (Polygon, default) or 80002 (Amoy). */
  chainId?: number;
  /**
   * Who signs for the maker: "EOA" (default: the signer's own wallet), or "POLY_PROXY" /
   * "POLY_GNOSIS_SAFE", whose owner signs for the wallet named by `funder`.
   */
  signatureType?: SignatureType;
  /** The proxy or Safe wallet that holds the funds; required with POLY_PROXY and POLY_GNOSIS_SAFE. */
  funder?: string;
  /** The exchange contracts, for a chain without published ones (they are known for 137 and 80002). */
  exchanges?: { exchange: string; negRiskExchange: string };
  /**
   * How long a signer may take to answer, in milliseconds (default 300000: a person approves in a
   * wallet); past it the call fails with `TIMEOUT`. The call's `signal` also stops the wait.
   */
  signTimeoutMs?: number;
}

/** Who signs for an order's maker (0, 1, 2 as the exchange numbers them). */
export type SignatureType = "EOA" | "POLY_PROXY" | "POLY_GNOSIS_SAFE" | 0 | 1 | 2;

/** How long an order lives: good till cancelled or a date, fill or kill, fill and kill. */
export type OrderType = "GTC" | "GTD" | "FOK" | "FAK";

/**
 * A wallet that signs EIP-712 typed data. PredictKit never holds a private key: it hands the signer an
 * `eth_signTypedData_v4` document (`EIP712Domain` included) and takes back a 65-byte signature.
 * `walletSigner`, `viemSigner` and `ethersSigner` make one from common wallets.
 */
export interface Signer {
  address: string;
  signTypedData(typedData: TypedData): Promise<string> | string;
}

/** An `eth_signTypedData_v4` document. Integers are decimal strings, the domain's chainId a number. */
export interface TypedData {
  types: Record<string, { name: string; type: string }[]>;
  domain: { name: string; version: string; chainId: number; verifyingContract?: string };
  primaryType: string;
  message: Record<string, string>;
}

/** The API key now held by the client (its secret and passphrase stay inside the library). */
export interface ApiKeyInfo {
  address: string;
  apiKey: string;
}

/** A limit order: `size` shares at `price`. Decimals as numbers (`0.56`) or text (`"0.56"`). */
export interface OrderParams {
  tokenId: string;
  side: "BUY" | "SELL";
  price: number | string;
  /** Shares, at most 2 decimals, at least the market's minimum order size. */
  size: number | string;
  /** Default "GTC". */
  orderType?: OrderType;
  /** GTD only: seconds since the epoch, at least a minute ahead. */
  expiration?: number;
  /** Rest on the book or be refused; GTC and GTD only. */
  postOnly?: boolean;
  /** The token's market; found from the book when absent (one more request, once per token). */
  conditionId?: string;
}

/** A market order: a buy spends `amount` cash, a sell gives `amount` shares (at most 2 decimals). */
export interface MarketOrderParams {
  tokenId: string;
  side: "BUY" | "SELL";
  amount: number | string;
  /** The worst price to accept; the price the book reaches for `amount` when absent. */
  price?: number | string;
  /** "FOK" (default) or "FAK". */
  orderType?: "FOK" | "FAK";
  conditionId?: string;
}

/** An order built and not signed: what the wallet will be asked to sign, and what it means. */
export interface OrderDraft {
  version: 1 | 2;
  chainId: number;
  /** The exchange contract that verifies it (the neg-risk exchange for neg-risk markets). */
  exchange: string;
  tokenId: string;
  side: "BUY" | "SELL";
  orderType: OrderType;
  postOnly: boolean;
  /** Seconds; "0" for none. */
  expiration: string;
  /** What the maker gives and gets, in 10^-6 units (cash for a buy's maker amount, shares for a sell's). */
  makerAmount: string;
  takerAmount: string;
  feeRateBps: string;
  /** The amounts as decimals: shares and cash, and the price they make. */
  shares: string;
  cash: string;
  price: number;
  tickSize: string;
  negRisk: boolean;
  /** The fee a taker pays at this price, in cash, when the market charges one. */
  fee?: number;
}

/** A signed order, as `signOrder` returns it and `postOrder` takes it. */
export interface SignedOrder {
  version: 1 | 2;
  salt: string;
  maker: string;
  signer: string;
  tokenId: string;
  makerAmount: string;
  takerAmount: string;
  side: "BUY" | "SELL";
  expiration: string;
  signatureType: 0 | 1 | 2;
  signature: string;
  orderType: OrderType;
  postOnly: boolean;
  /** V1 only. */
  taker?: string;
  nonce?: string;
  feeRateBps?: string;
  /** V2 only: milliseconds, and two 32-byte words. */
  timestamp?: string;
  metadata?: string;
  builder?: string;
}

/** The service's answer to a placed order. */
export interface OrderResult {
  success: boolean;
  errorMsg: string;
  orderID: string;
  status: "live" | "matched" | "unmatched" | "delayed" | "pending_settlement" | "error" | string;
  takingAmount: string;
  makingAmount: string;
  orderHash?: string | null;
}

/** `postOrder`'s options: the call's, and `postOnly` over the signed order's. */
export interface PostOrderOptions extends RequestOptions {
  postOnly?: boolean;
}
