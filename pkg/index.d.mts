export * from "./web/predictkit.js";
export { default } from "./web/predictkit.js";
export { ROUNDING_CONFIG, type RoundingTickSize } from "./rounding-config.mjs";
export { walletSigner, viemSigner, ethersSigner } from "./signers.mjs";
