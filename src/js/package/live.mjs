// @ts-check
// `predictkit/live`: the build for pages that read and follow markets live. The same Client, OrderBook and
// helpers as the default entry, with streaming (marketStream, userStream, live books that check the service's
// hash), without trading (API keys from a wallet, orders). Call `await init()` once, as with the default entry.
import * as glue from "./live/predictkit.js";
import { guardClasses } from "./guard.mjs";
import { initializers } from "./client.mjs";

export * from "./live/predictkit.js";
/** The classes, as views that make only instances the module stamped (guard.mjs). */
export const { Client, OrderBook, StreamCore, Task } = guardClasses(glue);

/** Instantiates the module (once; see wasm-bindgen's `init`), then defines the Client's REST methods. */
const { init, initSync } = initializers(glue);
export { init as default, initSync };
export { ROUNDING_CONFIG } from "./rounding-config.mjs";
export { isPredictKitError } from "./client.mjs";
