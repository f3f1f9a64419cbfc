export * from "./live/predictkit.js";
export { default } from "./live/predictkit.js";
export { ROUNDING_CONFIG, type RoundingTickSize } from "./rounding-config.mjs";
