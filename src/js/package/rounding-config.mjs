// @ts-check
// The upstream clients' ROUNDING_CONFIG as a constant. wasm-bindgen exports functions, not values, and
// the web build's functions work only after init(), so the table is written out here; the package tests
// check that it equals roundingConfig() in every build.
export const ROUNDING_CONFIG = Object.freeze({
  "0.1": Object.freeze({ price: 1, size: 2, amount: 3 }),
  "0.01": Object.freeze({ price: 2, size: 2, amount: 4 }),
  "0.001": Object.freeze({ price: 3, size: 2, amount: 5 }),
  "0.0001": Object.freeze({ price: 4, size: 2, amount: 6 }),
  "0.005": Object.freeze({ price: 3, size: 2, amount: 5 }),
  "0.0025": Object.freeze({ price: 4, size: 2, amount: 6 }),
});
