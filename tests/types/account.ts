// The account's routes (GET /data/orders, /data/order/{id}, /data/trades, DELETE /order,
// DELETE /cancel-market-orders) and syncClock. No real recording of these answers exists, so the shapes
// are also checked against the service's documented examples, written out as literals.

import type {
  CancelMarketOrdersParams,
  CancelResult,
  Client,
  OpenOrdersParams,
  Order,
  OrderResult,
  Page,
  UserTrade,
  UserTradesParams,
} from "../../pkg/web/predictkit.js";

const CONDITION = "0xdd22472e552920b8438158ea7238bfadfa4f736aa4cee91a6b86c39ead110917";
const TOKEN = "72610532355343625199299853218161700546393390326785971247545541945337255643692";

export async function typecheckAccount(client: Client): Promise<void> {
  const offsetMs: number = await client.syncClock();

  const filter: OpenOrdersParams = { id: "0xabc", market: CONDITION, asset_id: TOKEN, next_cursor: "MA==" };
  const orders: Page<Order> = await client.getOpenOrders(filter);
  const more: Page<Order> = await client.getOpenOrders({ next_cursor: orders.next_cursor });
  for await (const order of client.getOpenOrders({ market: CONDITION }, { maxItems: 100 })) {
    const o: Order = order;
    void o;
  }
  const one: OrderResult = await client.getOrder(orders.data[0].id);

  const tradeFilter: UserTradesParams = {
    id: "t-1",
    market: CONDITION,
    asset_id: TOKEN,
    maker_address: "0x56687bf447db6ffa42ffe2204a05edaa20f55839",
    before: 1700086400,
    after: 1700000000,
    next_cursor: "MA==",
  };
  const userTrades: Page<UserTrade> = await client.getUserTrades(tradeFilter);
  for await (const trade of client.getUserTrades({ market: CONDITION }, {})) {
    const t: UserTrade = trade;
    void t;
  }

  const canceled: CancelResult = await client.cancelOrder(one.order.id);
  const byMarket: CancelMarketOrdersParams = { market: CONDITION };
  const canceledAll: CancelResult = await client.cancelMarketOrders(byMarket);
  const canceledAsset: CancelResult = await client.cancelMarketOrders({ asset_id: TOKEN });

  // @ts-expect-error an order id is a string
  await client.cancelOrder(42);
  // @ts-expect-error the body names the asset `asset_id`
  await client.cancelMarketOrders({ assetId: TOKEN });
  // @ts-expect-error open-order filters are strings
  await client.getOpenOrders({ market: 1 });
  // @ts-expect-error an order's price may be null
  const price: string = one.order.price;
  // @ts-expect-error a trade's transaction hash is null (or absent) until it is on chain
  const hash: string = userTrades.data[0].transaction_hash;

  void [offsetMs, more, canceled, canceledAll, canceledAsset, price, hash];
}

// The service's documented examples (its OpenAPI document), typed.
export const documentedOrder: Order = {
  associateTrades: [],
  id: "01J0000000000000000000000",
  status: "live",
  market: CONDITION,
  originalSize: "100",
  outcome: "Yes",
  makerAddress: "0x56687bf447db6ffa42ffe2204a05edaa20f55839",
  owner: "00000000-0000-4000-8000-000000000000",
  price: "0.5",
  side: "BUY",
  sizeMatched: "0",
  assetId: TOKEN,
  expiration: "0",
  order_type: "FOK",
  createdAt: "2026-01-01T00:00:00Z",
};

export const documentedCancel: CancelResult = {
  canceled: ["0xabcdef1234567890abcdef1234567890abcdef12"],
  not_canceled: { "0xfedcba0987654321fedcba0987654321fedcba09": "Order already matched" },
};

export const documentedUserTrade: UserTrade = {
  id: "28c4d2eb-bbea-40e7-a9f0-b2fdb56b2c2e",
  taker_order_id: "0x06bc63e346ed4ceddce9efd6b3af37c8f8f440c92fe7da6b2d0f9e4ccbc50c42",
  market: CONDITION,
  asset_id: TOKEN,
  side: "BUY",
  size: "10",
  fee_rate_bps: "0",
  price: "0.5",
  status: "CONFIRMED",
  match_time: "1700000000",
  last_update: "1700000060",
  outcome: "Yes",
  bucket_index: 0,
  owner: "00000000-0000-4000-8000-000000000000",
  maker_address: "0x56687bf447db6ffa42ffe2204a05edaa20f55839",
  transaction_hash: null,
  trader_side: "TAKER",
  maker_orders: [
    {
      order_id: "0xff354cd7ca7539dfa9c28d90943ab5779a4eac34b9b37a757d7b32bdfb11790b",
      owner: "00000000-0000-4000-8000-000000000001",
      maker_address: "0x0000000000000000000000000000000000000001",
      matched_amount: "10",
      price: "0.5",
      fee_rate_bps: "0",
      asset_id: TOKEN,
      outcome: "Yes",
      side: "SELL",
    },
  ],
};

// @ts-expect-error an order's side is "BUY" or "SELL"
export const badSide: Order = { ...documentedOrder, side: "HOLD" };
