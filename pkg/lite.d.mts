export * from "./lite/predictkit.js";
export { default } from "./lite/predictkit.js";
export { ROUNDING_CONFIG, type RoundingTickSize } from "./rounding-config.mjs";
