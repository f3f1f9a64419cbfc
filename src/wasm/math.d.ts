/** Decimal places of prices, sizes and amounts for one tick size. */
export interface RoundingConfigEntry {
  price: number;
  size: number;
  amount: number;
}

/** A fee schedule: `{ rate, exponent }` (GET /fee-rate's fee_schedule), `{ r, e }` (its fd), or the whole GET /fee-rate answer. */
export type FeeRateInput =
  | { rate: number; exponent: number }
  | { r: number; e: number }
  | { fee_schedule?: { rate: number; exponent: number }; fd?: { r: number | null; e: number | null } };
