// The package's entry for browsers and bundlers: the wasm-bindgen `web` build. Call `await init()` once;
// it fetches predictkit_bg.wasm next to web/predictkit.js (`new URL(..., import.meta.url)`, which Vite,
// webpack 5 and Parcel 2 turn into an emitted asset), or pass `{ module_or_path }`.
import * as glue from "./web/predictkit.js";
import { guardClasses } from "./guard.mjs";
import { installMethods } from "./client.mjs";

guardClasses(glue);
export * from "./web/predictkit.js";

/** Instantiates the module (once; see wasm-bindgen's `init`), then defines the Client's REST methods. */
export default async function init(options) {
  const exports = await glue.default(options);
  installMethods(glue);
  return exports;
}

/** `init` for a module already compiled or its bytes, synchronously. */
export function initSync(options) {
  const exports = glue.initSync(options);
  installMethods(glue);
  return exports;
}
export { ROUNDING_CONFIG } from "./rounding-config.mjs";
export { walletSigner, viemSigner, ethersSigner } from "./signers.mjs";
