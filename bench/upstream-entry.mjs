// The upstream functions the book benchmark compares against, bundled for the browser by bench/run.mjs
// (the package is ESM but imports Node-style bare specifiers, so the page cannot load it directly).
export {
  calculateBuyMarketPrice,
  calculateSellMarketPrice,
} from "@polymarket/clob-client/dist/order-builder/helpers.js";
export { generateOrderBookSummaryHash } from "@polymarket/clob-client/dist/utilities.js";
