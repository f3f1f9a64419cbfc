// @ts-check
// `predictkit/bundler`: the wasm-bindgen `bundler` build, which imports predictkit_bg.wasm as an ES module.
// Only for bundlers with WebAssembly ESM integration (webpack 5 with experiments.asyncWebAssembly, Vite with
// vite-plugin-wasm). It is ready on import; `init()` is kept as a no-op so code written for the default
// entry runs unchanged.
import * as glue from "./bundler/predictkit.js";
import { guardClasses } from "./guard.mjs";
import { installMethods } from "./client.mjs";
import { installTrading } from "./trade.mjs";

export * from "./bundler/predictkit.js";
/** The classes, as views that make only instances the module stamped (guard.mjs). */
export const { Client, OrderBook, StreamCore, Task } = guardClasses(glue);
// This build is instantiated on import: the REST and trading methods can be defined now (once guarded).
installMethods(glue);
installTrading(glue);
export { ROUNDING_CONFIG } from "./rounding-config.mjs";
export { isPredictKitError } from "./client.mjs";
export { walletSigner, viemSigner, ethersSigner } from "./signers.mjs";

/** Nothing to do: this build instantiates the module when it is imported. */
export default async function init() {}
