export * from "./node/predictkit.js";
export { ROUNDING_CONFIG, type RoundingTickSize, walletSigner, viemSigner, ethersSigner } from "./node.cjs";

/** Nothing to do in Node (the module is ready on import); kept so code written for the web build runs unchanged. */
export default function init(): Promise<void>;
