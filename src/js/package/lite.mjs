// @ts-check
// `predictkit/lite`: the reading build for pages. The same Client, OrderBook and helpers as the default
// entry, without streaming (marketStream, userStream) and trading (API keys from a wallet, orders), at
// about two thirds of the size. Call `await init()` once, as with the default entry.
import * as glue from "./lite/predictkit.js";
import { guardClasses } from "./guard.mjs";
import { initializers } from "./client.mjs";

export * from "./lite/predictkit.js";
/** The classes, as views that make only instances the module stamped (guard.mjs). */
export const { Client, OrderBook, Task } = guardClasses(glue);

/** Instantiates the module (once; see wasm-bindgen's `init`), then defines the Client's REST methods. */
const { init, initSync } = initializers(glue);
export { init as default, initSync };
export { ROUNDING_CONFIG } from "./rounding-config.mjs";
export { isPredictKitError } from "./client.mjs";
