// @ts-check
// The Node entry for `import`: the same CommonJS instance that `require("predictkit")` loads (so there is
// one wasm instance and one set of classes per process), re-exported as ES module bindings.
export * from "./node/predictkit.js";
export { Client, OrderBook, StreamCore, Task, ROUNDING_CONFIG, isPredictKitError, walletSigner, viemSigner, ethersSigner } from "./node.cjs";

/** Nothing to do in Node (the module is ready on import); kept so code written for the web build runs unchanged. */
export default async function init() {}
