// Every real recorded response in tests/fixtures/real is assigned to its declared type: if a declaration
// is narrower than what the service really sends (a field made required that real data omits, a null
// not allowed, a number where a string comes), this file stops compiling.
//
// JSON imports are not fresh object literals, so extra keys are allowed (as at runtime); missing keys,
// nulls and wrong primitive types are not.

import type {
  CatalogMarket,
  ClobMarket,
  ClobMarketInfo,
  ClosedPosition,
  Comment,
  Event,
  OrderBookSummary,
  Page,
  PricesHistory,
  SamplingMarket,
  SearchResult,
  Side,
  Tag,
  Trade,
} from "../../pkg/web/predictkit.js";

import clobBook1 from "../fixtures/real/clob-book-1.json";
import clobBook2 from "../fixtures/real/clob-book-2.json";
import clobBook3 from "../fixtures/real/clob-book-3.json";
import clobMarket1 from "../fixtures/real/clob-market-1.json";
import clobMarket2 from "../fixtures/real/clob-market-2.json";
import clobMarket3 from "../fixtures/real/clob-market-3.json";
import clobMarketInfo1 from "../fixtures/real/clob-market-info-1.json";
import clobMarketsPage1 from "../fixtures/real/clob-markets-page-1.json";
import clobPricesHistoryPoints1 from "../fixtures/real/clob-prices-history-points-1.json";
import dataActivity1 from "../fixtures/real/data-activity-1.json";
import dataClosedPositions1 from "../fixtures/real/data-closed-positions-1.json";
import dataPositions1 from "../fixtures/real/data-positions-1.json";
import dataTrades1 from "../fixtures/real/data-trades-1.json";
import gammaCommentsElement1 from "../fixtures/real/gamma-comments-element-1.json";
import gammaEventSingle1 from "../fixtures/real/gamma-event-single-1.json";
import gammaEvents1 from "../fixtures/real/gamma-events-1.json";
import gammaMarket1 from "../fixtures/real/gamma-market-1.json";
import gammaMarket2 from "../fixtures/real/gamma-market-2.json";
import gammaMarket3 from "../fixtures/real/gamma-market-3.json";
import gammaMarket4 from "../fixtures/real/gamma-market-4.json";
import gammaMarket5 from "../fixtures/real/gamma-market-5.json";
import gammaMarket6 from "../fixtures/real/gamma-market-6.json";
import gammaMarket7 from "../fixtures/real/gamma-market-7.json";
import gammaMarket8 from "../fixtures/real/gamma-market-8.json";
import gammaPublicSearch1 from "../fixtures/real/gamma-public-search-1.json";
import gammaTags1 from "../fixtures/real/gamma-tags-1.json";

// A JSON import types `side` as `string`; `Trade.side` is the interface's "BUY" | "SELL". This checks
// the value at runtime and narrows the type without a cast (it is what a caller validating untrusted
// JSON would write).
function withSide<T extends { side: string }>(row: T): T & { side: Side } {
  const side = row.side;
  if (side === "BUY" || side === "SELL") return { ...row, side };
  throw new Error(`not a side: ${side}`);
}

// GET /book (clob-book-1 is an older shape without min_order_size, tick_size, neg_risk, last_trade_price).
export const books: OrderBookSummary[] = [clobBook1, clobBook2, clobBook3];

// Single CLOB markets (upstream GET /markets/{condition_id}): the item shape of GET /markets and, without
// the service-only fields, of GET /sampling-markets.
export const clobMarkets: ClobMarket[] = [clobMarket1, clobMarket2, clobMarket3];
export const samplingMarkets: SamplingMarket[] = [clobMarket1, clobMarket2, clobMarket3];

// GET /markets, one page.
export const clobMarketsPage: Page<ClobMarket> = clobMarketsPage1;
export const samplingMarketsPage: Page<SamplingMarket> = clobMarketsPage1;

// GET /clob-markets/{condition_id}.
export const clobMarketInfo: ClobMarketInfo = clobMarketInfo1;

// GET /prices-history: the recording is the inner `history` array only.
export const pricesHistory: PricesHistory = { history: clobPricesHistoryPoints1 };

// GET /trades.
export const trades: Trade[] = dataTrades1.map(withSide);

// Supplementary: GET /activity rows of type TRADE (another endpoint) carry every Trade field, and the
// `usdcSize` that the recorded GET /trades lacks.
export const activityAsTrades: Trade[] = dataActivity1.map(withSide);

// GET /closed-positions.
export const closedPositions: ClosedPosition[] = dataClosedPositions1;

// Supplementary: GET /positions (another endpoint) rows have every ClosedPosition field but `timestamp`;
// this checks that the optional fields the closed-position recording lacks (size, cashPnl, redeemable,
// ...) have the types real data gives them.
export const openPositions: Omit<ClosedPosition, "timestamp">[] = dataPositions1;

// GET /comments, one element.
export const comment: Comment = gammaCommentsElement1;

// GET /events (a list) and one event as GET /events/{id} returns it.
export const events: Event[] = gammaEvents1;
export const event: Event = gammaEventSingle1;

// GET /markets/{id} and GET /markets/slug/{slug}.
export const catalogMarkets: CatalogMarket[] = [
  gammaMarket1,
  gammaMarket2,
  gammaMarket3,
  gammaMarket4,
  gammaMarket5,
  gammaMarket6,
  gammaMarket7,
  gammaMarket8,
];

// GET /public-search.
export const searchResult: SearchResult = gammaPublicSearch1;

// GET /tags.
export const tags: Tag[] = gammaTags1;

// Negative checks: the declarations stay as strict as real data allows.

// @ts-expect-error the recorded side is a plain string until checked; Trade.side is "BUY" | "SELL"
export const uncheckedTrades: Trade[] = dataTrades1;

// @ts-expect-error a catalog market's clobTokenIds is JSON text, not an array
export const tokenIds: string[] = catalogMarkets[0].clobTokenIds;

// @ts-expect-error a CLOB token id is a decimal string, not a number
export const tokenIdNumber: number = clobMarkets[0].tokens[0].token_id;

// @ts-expect-error usdcSize may be absent
export const usdcSize: number = trades[0].usdcSize;

// @ts-expect-error accepting_order_timestamp may be null
export const acceptingSince: string = clobMarkets[0].accepting_order_timestamp;

// @ts-expect-error reward rates may be null
export const rates: unknown[] = clobMarkets[0].rewards.rates;

// @ts-expect-error undocumented extra keys are `unknown`, never `any`
export const extra: string = catalogMarkets[0].somethingUndocumented;

// @ts-expect-error book prices are decimal strings
export const bookPrice: number = books[0].bids[0].price;

// @ts-expect-error a book without min_order_size is a valid OrderBookSummary, so the field is optional
export const minOrderSize: string = books[0].min_order_size;

// @ts-expect-error comment reactions are objects, not strings
export const reactionNames: string[] = comment.reactions ?? [];

// @ts-expect-error an event market is not missing its clobTokenIds
export const incompleteEventMarket: Event["markets"][number] = { id: "1", question: "q", conditionId: "0x" };
