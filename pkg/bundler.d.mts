export * from "./bundler/predictkit.js";
export { ROUNDING_CONFIG, type RoundingTickSize } from "./rounding-config.mjs";
export { walletSigner, viemSigner, ethersSigner } from "./signers.mjs";

/** Nothing to do: this build instantiates the module when it is imported. */
export default function init(): Promise<void>;
