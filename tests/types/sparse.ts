// Real answers without the keys that some real answers omit. A field is declared required only where the
// interface guarantees it and every real answer has it, so each object below (a real recorded shape with the
// keys that other real answers lack taken out, or the service's own documented example answer) must be
// assignable to its declared type. Against declarations that require any of those keys, this file stops
// compiling.

import type {
  CatalogMarket,
  ClosedPosition,
  Comment,
  Event,
  EventSummary,
  FeeRate,
  SearchResult,
  Series,
  SeriesSummary,
  Tag,
  Trade,
  UserTrade,
} from "../../pkg/web/predictkit.js";

import gammaCommentsElement1 from "../fixtures/real/gamma-comments-element-1.json";
import gammaEventSingle1 from "../fixtures/real/gamma-event-single-1.json";
import gammaMarket8 from "../fixtures/real/gamma-market-8.json";
import gammaTags1 from "../fixtures/real/gamma-tags-1.json";
import catalogDoc from "../fixtures/openapi/kuest-openapi-gamma.json";
import activityDoc from "../fixtures/openapi/kuest-openapi-data-api.json";

// A series embedded in an event may come without `image` and `icon`: the recorded series of
// gamma-market-8's event, without them, embedded in the recorded event of gamma-event-single-1.
const { image: _seriesImage, icon: _seriesIcon, ...seriesWithoutImages } = gammaMarket8.events[0].series[0];
export const embeddedSeries: SeriesSummary = seriesWithoutImages;
export const eventWithBareSeries: Event = { ...gammaEventSingle1, series: [seriesWithoutImages] };

// A tag embedded in an event may come without `requiresTranslation`: no tag carries it in the upstream
// GET /events answers captured 2026-10-08 (dilettante-trading/polyoxide polyoxide-gamma/tests/fixtures/event_*.json).
const { requiresTranslation: _requiresTranslation, ...tagWithoutFlag } = gammaTags1[0];
export const bareTag: Tag = tagWithoutFlag;
export const eventWithBareTags: Event = { ...gammaEventSingle1, tags: [tagWithoutFlag] };

// A comment may come without `parentCommentID`, `replyAddress`, `profile` and `reactions`: the recorded
// comment without them...
const {
  parentCommentID: _parentCommentID,
  replyAddress: _replyAddress,
  profile: _profile,
  reactions: _reactions,
  ...commentWithoutOptionals
} = gammaCommentsElement1;
export const bareComment: Comment = commentWithoutOptionals;

// ...and one such comment exactly as the upstream service sent it (GET /comments/user_address/{address},
// captured 2026-08-19, verbatim; dilettante-trading/polyoxide polyoxide-gamma/tests/fixtures/comment_sparse.json
// at 782ad3ede459): no parentCommentID, replyAddress, profile or reactions, though reactionCount is 2.
export const sparseComment: Comment = {
  id: "2136267",
  body: "It's over, Tarcisio bros [link removed]",
  parentEntityType: "Event",
  parentEntityID: 45915,
  userAddress: "0x8ef197aa37f6d0ec4c5802b40c34ec358e4da6ab",
  createdAt: "2025-12-05T18:44:45.20799Z",
  updatedAt: "2025-12-05T18:44:56.642122Z",
  reportCount: 0,
  reactionCount: 2,
};

// The example answers of the service's own OpenAPI documents: GET /markets embeds events with only id,
// ticker, slug and title; GET /events embeds markets with only their ids.
const catalogPaths = catalogDoc.paths;
const activityPaths = activityDoc.paths;
const marketsExample = catalogPaths["/markets"].get.responses["200"].content["application/json"].examples.sample.value;
export const documentedMarkets: CatalogMarket[] = marketsExample;
export const documentedEmbeddedEvent: EventSummary = marketsExample[0].events[0];
export const documentedEvents: Event[] =
  catalogPaths["/events"].get.responses["200"].content["application/json"].examples.sample.value;
export const documentedSearch: SearchResult =
  catalogPaths["/public-search"].get.responses["200"].content["application/json"].examples.sample.value;
export const documentedClosedPositions: ClosedPosition[] =
  activityPaths["/closed-positions"].get.responses["200"].content["application/json"].examples.sample.value;
const tradesExample = activityPaths["/trades"].get.responses["200"].content["application/json"].examples.sample.value;
// The JSON types `side` as a string: check it, as fixtures.ts does.
export const documentedTrades: Trade[] = tradesExample.map((row) => {
  const side = row.side;
  if (side === "BUY" || side === "SELL") return { ...row, side };
  throw new Error(`not a side: ${side}`);
});

// GET /data/trades: the service's document does not require transaction_hash.
export const unminedTrade: UserTrade = {
  id: "28c4d2eb-bbea-40e7-a9f0-b2fdb56b2c2e",
  taker_order_id: "0x06bc63e346ed4ceddce9efd6b3af37c8f8f440c92fe7da6b2d0f9e4ccbc50c42",
  market: "0xdd22472e552920b8438158ea7238bfadfa4f736aa4cee91a6b86c39ead110917",
  asset_id: "72610532355343625199299853218161700546393390326785971247545541945337255643692",
  side: "BUY",
  size: "10",
  fee_rate_bps: "0",
  price: "0.5",
  status: "MATCHED",
  match_time: "1700000000",
  last_update: "1700000000",
  bucket_index: 0,
  owner: "00000000-0000-4000-8000-000000000000",
  maker_address: "0x56687bf447db6ffa42ffe2204a05edaa20f55839",
  type: "TAKER",
  maker_orders: [],
};

// The upstream service's documents allow null for each fee-curve parameter.
export const feeWithoutCurve: FeeRate = { base_fee: 0, fd: { r: null, e: null, to: null } };

// Negative checks: what is optional must be narrowed before use, and what stays guaranteed stays required.

// @ts-expect-error an embedded series may lack its image
export const embeddedSeriesImage: string = embeddedSeries.image;

// @ts-expect-error a series of GET /series has its image and icon (interface §2.6)
export const seriesFromEmbedded: Series = seriesWithoutImages;

// @ts-expect-error an event embedded in a market may lack its dates
export const embeddedEventEnd: string = documentedEmbeddedEvent.endDate;

// An event of GET /events has them (interface §2.5).
export const eventEnd: string = documentedEvents[0].endDate;

// @ts-expect-error an event summary is not a GET /events event, which has every summary field
export const eventWithoutDescription: Event = { ...documentedEmbeddedEvent, tags: [], markets: [] };

// @ts-expect-error a comment's profile may be absent
export const authorName: string | undefined = sparseComment.profile.name;

// Narrowed, it is usable.
export const authorNameChecked: string | undefined = sparseComment.profile?.name;

// @ts-expect-error a comment is not missing its body
export const commentWithoutBody: Comment = { ...sparseComment, body: undefined };

// @ts-expect-error a fee-curve rate may be null
export const feeRateNumber: number = feeWithoutCurve.fd!.r;
