// @ts-check
// The package's entry for browsers and bundlers: the wasm-bindgen `web` build. Call `await init()` once;
// it fetches predictkit_bg.wasm next to web/predictkit.js (`new URL(..., import.meta.url)`, which Vite,
// webpack 5 and Parcel 2 turn into an emitted asset), or pass `{ module_or_path }`.
import * as glue from "./web/predictkit.js";
import { guardClasses } from "./guard.mjs";
import { initializers } from "./client.mjs";
import { installTrading } from "./trade.mjs";

export * from "./web/predictkit.js";
/** The classes, as views that make only instances the module stamped (guard.mjs). */
export const { Client, OrderBook, StreamCore, Task } = guardClasses(glue);

/** Instantiates the module (once; see wasm-bindgen's `init`), then defines the Client's REST and trading methods. */
const { init, initSync } = initializers(glue, installTrading);
export { init as default, initSync };
export { ROUNDING_CONFIG } from "./rounding-config.mjs";
export { isPredictKitError } from "./client.mjs";
export { walletSigner, viemSigner, ethersSigner } from "./signers.mjs";
