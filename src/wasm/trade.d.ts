/** The trading options of `new Client(options)` (all optional). */
export interface ClientOptions {
  /** The chain orders and API keys are signed for: 137 (Polygon, default) or 80002 (Amoy). */
  chainId?: number;
  /**
   * Who signs for the maker: "EOA" (default: the signer's own wallet), "POLY_PROXY" /
   * "POLY_GNOSIS_SAFE", whose owner signs for the wallet named by `funder`, or "POLY_1271", a deposit
   * wallet (`funder`) that is the order's maker and signer and checks its owner's signature itself (the
   * owner signs an ERC-7739 TypedDataSign; the order's signature is wrapped). API keys are always the
   * owner's: the signer's own address signs for them.
   */
  signatureType?: SignatureType;
  /** The proxy, Safe or deposit wallet that holds the funds; required unless signatureType is EOA. */
  funder?: string;
  /** The exchange contracts, for a chain without published ones (they are known for 137 and 80002). */
  exchanges?: { exchange: string; negRiskExchange: string };
  /**
   * How long a signer may take to answer, in milliseconds (default 300000: a person approves in a
   * wallet); past it the call fails with `TIMEOUT`. The call's `signal` also stops the wait.
   */
  signTimeoutMs?: number;
}

/** Who signs for an order's maker (0, 1, 2, 3 as the exchange numbers them). */
export type SignatureType = "EOA" | "POLY_PROXY" | "POLY_GNOSIS_SAFE" | "POLY_1271" | 0 | 1 | 2 | 3;

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
  /**
   * Shares, at most 2 decimals, at least the market's minimum order size. A FOK or FAK order's cash
   * (size × price) must also have at most 2 decimals for a buy, 4 for a sell: a size that cannot is
   * refused, and the error names the nearest sizes that can.
   */
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

/**
 * A market order (FOK or FAK): a buy spends `amount` cash, a sell gives `amount` shares (at most 2
 * decimals). What it asks for at the worst price (a buy's shares, a sell's cash) is cut to 4 decimals.
 */
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
  /** 3: a position of the newer system, for the third exchange (the V2 order under its own domain). */
  version: 1 | 2 | 3;
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
  version: 1 | 2 | 3;
  salt: string;
  maker: string;
  signer: string;
  tokenId: string;
  makerAmount: string;
  takerAmount: string;
  side: "BUY" | "SELL";
  expiration: string;
  signatureType: 0 | 1 | 2 | 3;
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
  /** The trades this order took when placed (a resting order's later fills are new trades, not listed). */
  tradeIDs?: string[];
  /** Their transactions' hashes, best effort: often empty until they are mined (follow the trades instead). */
  transactionsHashes?: string[];
}

/** `postOrder`'s options: the call's, and `postOnly` over the signed order's. */
export interface PostOrderOptions extends RequestOptions {
  postOnly?: boolean;
}

/**
 * The trading methods of `Client` (the full build: `predictkit`, not `predictkit/lite`). `pkg/trade.mjs`
 * installs them over the binding's synchronous steps; the wallet is asked only through the `Signer`.
 */
export interface Client {
  /** GET /version: the exchange's order version (1, 2 or 3), which decides how orders are built and signed. */
  getVersion(options?: RequestOptions): Promise<1 | 2 | 3>;
  /**
   * Creates the API key of the signer's wallet (and `nonce`, default 0) and keeps it as this client's
   * credentials: the wallet signs a `ClobAuth` message, nothing else. Resolves to `{ address, apiKey }`;
   * the secret and passphrase stay inside the library.
   *
   * @example
   * await client.createOrDeriveApiKey(walletSigner(window.ethereum, account));
   */
  createApiKey(signer: Signer, nonce?: number | string, options?: RequestOptions): Promise<ApiKeyInfo>;
  /** Derives the signer's existing API key (GET /auth/derive-api-key) and keeps it as this client's credentials. */
  deriveApiKey(signer: Signer, nonce?: number | string, options?: RequestOptions): Promise<ApiKeyInfo>;
  /** Derives the signer's API key, or creates it when there is none yet (two signatures at most). */
  createOrDeriveApiKey(signer: Signer, nonce?: number | string, options?: RequestOptions): Promise<ApiKeyInfo>;
  /**
   * Builds a limit order with exact amounts from the market's tick size (GET /clob-markets, learnt
   * once per market) and refuses what the service would refuse: a price off the tick or outside
   * [tick, 1 − tick], more than 2 decimals of size, a size under the minimum, `postOnly` with FOK/FAK,
   * an expiration on anything but GTD, a FOK or FAK whose cash (size × price) has more than 2 decimals
   * (a buy) or 4 (a sell), which the service takes for those types at any tick size (the error names the
   * nearest sizes that fit). Resolves to a draft to show the user (amounts, price, fee) and then sign.
   *
   * @example
   * const draft = await client.buildOrder({ tokenId, side: "BUY", price: 0.56, size: 20 });
   * const signed = await client.signOrder(draft, signer);
   * const result = await client.postOrder(signed);
   */
  buildOrder(params: OrderParams, options?: RequestOptions): Promise<OrderDraft>;
  /**
   * Builds a market order (FOK or FAK): a buy spends `amount` cash, a sell gives `amount` shares, at
   * `price` or else at the price the book reaches for that amount (FOK refuses a book too thin with
   * `NO_MATCH`). What it asks for in return (a buy's shares, a sell's cash) is the exact amount at that
   * price cut, never rounded up, to 4 decimals, as the service takes FOK and FAK orders at any tick size.
   */
  buildMarketOrder(params: MarketOrderParams, options?: RequestOptions): Promise<OrderDraft>;
  /**
   * Has the signer sign a draft (EIP-712, the exchange's domain): the maker is the signer, or the
   * client's `funder` for POLY_PROXY, POLY_GNOSIS_SAFE and POLY_1271 (for which the signer is asked for an
   * ERC-7739 TypedDataSign and the signature is wrapped as the exchange takes it).
   */
  signOrder(draft: OrderDraft, signer: Signer, options?: RequestOptions): Promise<SignedOrder>;
  /**
   * POST /order: places a signed order (`orderType` and `postOnly` as signed unless given here).
   * Needs credentials. Resolves to the service's answer `{ success, errorMsg, orderID, status,
   * takingAmount, makingAmount }`; a refusal rejects with `API` and the service's reason as `body`.
   */
  postOrder(order: SignedOrder, orderType?: OrderType, options?: PostOrderOptions): Promise<OrderResult>;
  /** POST /orders: places 1 to 15 signed orders at once. Resolves to one answer per order, in order. */
  postOrders(orders: SignedOrder[], options?: RequestOptions): Promise<OrderResult[]>;
  /**
   * Builds, signs and places a limit order. When the service answers that the order's version is not
   * the exchange's, the version is read again and the order rebuilt and signed once more.
   */
  placeOrder(params: OrderParams, signer: Signer, options?: RequestOptions): Promise<OrderResult>;
  /** Builds, signs and places a market order (FOK unless `orderType: "FAK"`). */
  placeMarketOrder(params: MarketOrderParams, signer: Signer, options?: RequestOptions): Promise<OrderResult>;
  /**
   * The account doctor: before any order is signed, what the signer's account is (its own address, or the
   * proxy, Safe or deposit wallet it owns), which `signatureType` and `funder` its orders need, whether the
   * client's API key is the signer's, and the collateral and allowances the service sees, each problem a
   * finding with the one fix. It sends no order: it asks `options.provider` (when given) for the chain and
   * the wallets' code, and the service (with the signer's own key) for the balances. For an account set up
   * to trade through its deployed deposit wallet (`POLY_1271`) it also asks the signer to sign a test order
   * (every amount zero, never sent) in the ERC-7739 form, then if the wallet refuses it in the plain form,
   * and asks the wallet which it takes (`eth_call` of its ERC-1271 `isValidSignature`): the client signs its
   * orders in that form from then on (`depositSignature`).
   *
   * @example
   * const report = await client.diagnoseAccount(signer, { provider: window.ethereum });
   * for (const f of report.findings) console.warn(f.code, f.fix);
   */
  diagnoseAccount(signer: Signer, options?: DiagnoseOptions): Promise<AccountDiagnosis>;
  /**
   * The dead-man switch: the service cancels an API key's orders when no heartbeat comes within 10 s, so this
   * sends one (`POST /v1/heartbeats`) every `intervalMs` (5,000 by default), chaining the id each answer
   * gives and following the one the service names when it expects another. `onStatus` hears each change,
   * from the first (`starting`, once the handle is returned): `ok`; `late` (a beat failed or is overdue, given
   * up a second before the deadline and tried again); `lost` (the deadline may have
   * passed: the orders may be gone; told before anything else when a page's timers were held back); `stopped`
   * with its `reason`. It runs until `stop()`, the signal aborts, the client is freed, or the service refuses
   * the key (401, 403) or has no such route (404). Needs credentials (`UNAUTHORIZED` otherwise, thrown at once, as `INVALID_PARAMS` is).
   *
   * @example
   * const switch_ = client.heartbeats({ onStatus: (e) => e.status === "lost" && alert("orders may be gone") });
   * // ... later
   * switch_.stop();
   */
  heartbeats(options?: HeartbeatOptions): Heartbeats;
  /**
   * Follows one order (its id, or better the answer to placing it) and tells each change of it once: `placed`,
   * `matched` (partly or wholly), each of its trades' settlement steps (`MATCHED`, `MINED`, `CONFIRMED`, or
   * `RETRYING` and `FAILED`, with the transaction's hash once there is one), `cancelled` or `expired`, and
   * last `settled` when the order is closed and every trade final. The user channel tells it as it happens;
   * while the channel is not open (or with `stream: false`) the order and its pending trades are read every
   * `pollMs`, and when it opens again they are read once, so that nothing it missed is lost and nothing is
   * told twice. Iterate it (`for await`), or pass `onUpdate`; `done` resolves to the `settled` update.
   * Needs credentials.
   *
   * @example
   * const placed = await client.placeOrder(params, signer);
   * for await (const update of client.trackOrder(placed)) console.log(update.type, update.status ?? "");
   */
  trackOrder(order: string | OrderResult, options?: TrackOptions): OrderTracker;
  /**
   * Resolves when every trade of a placed order (its `tradeIDs`, or for a `delayed` order the trades it comes to
   * list) is final, `CONFIRMED` or `FAILED`, reading `GET /data/trades` every `pollMs` (250); rejects with
   * `TIMEOUT` after `timeoutMs` (30,000), the trades themselves unaffected. An order that took nothing
   * settles at once.
   */
  waitForSettlement(answer: OrderResult, options?: SettlementOptions): Promise<SettledUpdate>;
}

/** `trackOrder`'s options (the reads' options too: `signal`, `maxRetries`...). */
export interface TrackOptions extends RequestOptions {
  /** How often the order is read while the user channel is not open: 100 to 60,000 ms (default 1,000). */
  pollMs?: number;
  /** Open a user channel to hear changes as they happen (default true); false reads only. */
  stream?: boolean;
  /** Hears each update, as the iteration does. */
  onUpdate?: (update: OrderUpdate) => void;
  /**
   * Ends the tracking with `TIMEOUT` after this long (default: none). Each read has the client's own timeout
   * and retries, and the one in flight is abandoned when the tracking ends (`stop()`, `break`, the signal).
   */
  timeoutMs?: number;
}

/** `waitForSettlement`'s options. */
export interface SettlementOptions extends RequestOptions {
  /** How often a pending trade is read: 100 to 60,000 ms (default 250). */
  pollMs?: number;
  /** Default 30,000. */
  timeoutMs?: number;
}

/** A trade's settlement status (REST's `TRADE_STATUS_` prefix removed). */
export type TradeSettlement = "MATCHED" | "MATCHED_NOT_BROADCASTED" | "MINED" | "CONFIRMED" | "RETRYING" | "FAILED";

/** One change of a followed order. */
export type OrderUpdate =
  | { type: "placed"; orderId: string }
  | { type: "matched"; orderId: string; sizeMatched: string; originalSize?: string; whole: boolean }
  | { type: "trade"; orderId: string; tradeId: string; status: TradeSettlement; transactionHash?: string; final: boolean }
  | { type: "cancelled" | "expired"; orderId: string; sizeMatched: string; reason: "canceled" | "invalid" | "marketResolved" }
  | SettledUpdate;

/** The last update: the order closed and every trade of it final (`failed` counts the FAILED ones). */
export interface SettledUpdate {
  type: "settled";
  orderId: string;
  trades: { tradeId: string; status: TradeSettlement; transactionHash?: string }[];
  failed: number;
}

/** An order followed: iterate it (`break` stops it), or await `done`. */
export interface OrderTracker extends AsyncIterable<OrderUpdate> {
  /** Resolves to the `settled` update (undefined when stopped first); rejects with what ended it. */
  readonly done: Promise<SettledUpdate | undefined>;
  stop(): void;
}

/** `heartbeats`' options. */
export interface HeartbeatOptions {
  /** Milliseconds between heartbeats, 50 to 8,000 (default 5,000). */
  intervalMs?: number;
  /** Stops the switch when it aborts (reason `aborted`). */
  signal?: AbortSignal;
  /** Hears each change of status. */
  onStatus?: (event: HeartbeatEvent) => void;
}

/** What the switch says of the key's orders. */
export type HeartbeatStatus = "starting" | "ok" | "late" | "lost" | "stopped";

/** A change of status: how many heartbeats were accepted, and when the last was (ms since the epoch). */
export interface HeartbeatEvent {
  status: HeartbeatStatus;
  beats: number;
  lastOkAt?: number;
  /** Why it stopped. */
  reason?: "stopped" | "aborted" | "freed" | "refused";
}

/** A running dead-man switch. */
export interface Heartbeats {
  readonly status: HeartbeatStatus;
  /** Stops it (reason `stopped`); no more heartbeats are sent. */
  stop(): void;
  /** Resolves to the `stopped` event. */
  readonly done: Promise<HeartbeatEvent>;
}

/** `diagnoseAccount`'s options: the call's, and the wallet provider to read the chain through. */
export interface DiagnoseOptions extends RequestOptions {
  /**
   * An EIP-1193 provider (`window.ethereum`, ...), asked `eth_chainId`, `eth_getCode` and, for a deposit
   * wallet, `eth_call` of its `isValidSignature` (30 s each at most). Without it the wallets' deployment is
   * not known, and the service's word alone tells a deposit-wallet account.
   */
  provider?: { request(args: { method: string; params?: unknown[] }): Promise<unknown> | unknown };
}

/** What `diagnoseAccount` found. */
export interface AccountDiagnosis {
  /** The signer's address: the owner of the wallets below. */
  owner: string;
  /** The chain the client signs for, and the provider's chain when it answered. */
  chainId: number;
  walletChainId?: number;
  /** What the account trades through, when the chain or the service could tell. */
  kind?: "EOA" | "POLY_PROXY" | "POLY_GNOSIS_SAFE" | "POLY_1271";
  /** The settings its orders need (the client's own when nothing could tell): give them to `new Client`. */
  signatureType: "EOA" | "POLY_PROXY" | "POLY_GNOSIS_SAFE" | "POLY_1271";
  funder?: string;
  /** The owner's wallets by CREATE2 (a proxy only where the chain has them), `deployed` when the provider said. */
  wallets: {
    proxy?: { address: string; deployed?: boolean };
    safe?: { address: string; deployed?: boolean };
    depositWallet: { address: string; deployed?: boolean };
  };
  /**
   * The form of the owner's signature the account's deposit wallet takes, as the wallet answered: the
   * ERC-7739 `TypedDataSign` (what the upstream clients send) or the plain signature of the order. The
   * client signs its orders in it from then on. Absent when it was not asked or could not tell.
   */
  depositSignature?: "ERC7739" | "PLAIN";
  /** The client's API key: whose it is. Absent when the client holds none. */
  apiKey?: { address: string; forSigner: boolean };
  /** The collateral the service sees for the client's signature type (base units, 6 decimals). */
  collateral?: { balance: string; allowances: Record<string, string> };
  /** Each problem, with the one fix to make; empty when the account can trade as the client is set up. */
  findings: AccountFinding[];
  ok: boolean;
}

/** One problem with how an account is set up. */
export interface AccountFinding {
  code:
    | "CHAIN_MISMATCH"
    | "WRONG_SIGNATURE_TYPE"
    | "FUNDER_NOT_OWNED"
    | "DEPOSIT_WALLET_REQUIRED"
    | "NO_DEPOSIT_WALLET"
    | "WALLET_NOT_DEPLOYED"
    | "NO_API_KEY"
    | "KEY_NOT_FOR_SIGNER"
    | "KEY_REJECTED"
    | "NO_BALANCE"
    | "NO_ALLOWANCE"
    | "SIGNATURE_REFUSED";
  message: string;
  fix: string;
}
