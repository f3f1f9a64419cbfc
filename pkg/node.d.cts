export * from "./node/predictkit.js";

/** A tick size that ROUNDING_CONFIG has an entry for. */
export type RoundingTickSize = "0.1" | "0.01" | "0.001" | "0.0001" | "0.005" | "0.0025";

/**
 * The upstream `ROUNDING_CONFIG`: decimal places of price, size and amount per tick size (frozen; the
 * same table as `roundingConfig()`).
 */
export declare const ROUNDING_CONFIG: Readonly<
  Record<RoundingTickSize, Readonly<{ price: number; size: number; amount: number }>>
>;
