// @ts-check
// The Node entry for `require`: the wasm-bindgen `nodejs` build, which reads predictkit_bg.wasm from disk
// and is ready when loaded. Its JS snippets are ES modules loaded with require(), hence Node ^20.19 or >= 22.12.
"use strict";
const predictkit = require("./node/predictkit.js");

// The classes, as views that make only instances the module stamped (guard.mjs).
const classes = require("./guard.mjs").guardClasses(predictkit);
// This build is instantiated on load: the REST and trading methods can be defined now.
require("./client.mjs").installMethods(predictkit);
require("./trade.mjs").installTrading(predictkit);

/** @type {Record<string, unknown>} */
const bindings = predictkit;
for (const name of Object.keys(bindings)) /** @type {Record<string, unknown>} */ (exports)[name] = bindings[name];
// (Named here too, so that Node's `import` of this file finds them: node.mjs.)
exports.Client = classes.Client;
exports.OrderBook = classes.OrderBook;
exports.StreamCore = classes.StreamCore;
exports.Task = classes.Task;

const signers = require("./signers.mjs");
exports.walletSigner = signers.walletSigner;
exports.viemSigner = signers.viemSigner;
exports.ethersSigner = signers.ethersSigner;

/** The upstream `ROUNDING_CONFIG` (the same table as `roundingConfig()`). */
exports.ROUNDING_CONFIG = require("./rounding-config.mjs").ROUNDING_CONFIG;
exports.isPredictKitError = require("./client.mjs").isPredictKitError;
