// The Node entry for `require`: the wasm-bindgen `nodejs` build, which reads predictkit_bg.wasm from disk
// and is ready when loaded. Its JS snippets are ES modules loaded with require(), hence Node ^20.19 or >= 22.12.
"use strict";
const predictkit = require("./node/predictkit.js");

require("./guard.mjs").guardClasses(predictkit);
// This build is instantiated on load: the REST methods can be defined now.
require("./client.mjs").installMethods(predictkit);

for (const name of Object.keys(predictkit)) exports[name] = predictkit[name];

const signers = require("./signers.mjs");
exports.walletSigner = signers.walletSigner;
exports.viemSigner = signers.viemSigner;
exports.ethersSigner = signers.ethersSigner;

/** The upstream `ROUNDING_CONFIG` (the same table as `roundingConfig()`). */
exports.ROUNDING_CONFIG = Object.freeze({
  "0.1": Object.freeze({ price: 1, size: 2, amount: 3 }),
  "0.01": Object.freeze({ price: 2, size: 2, amount: 4 }),
  "0.001": Object.freeze({ price: 3, size: 2, amount: 5 }),
  "0.0001": Object.freeze({ price: 4, size: 2, amount: 6 }),
  "0.005": Object.freeze({ price: 3, size: 2, amount: 5 }),
  "0.0025": Object.freeze({ price: 4, size: 2, amount: 6 }),
});
