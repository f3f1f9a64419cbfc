// Shared by the JS tests: the built Node package, the emulator's URL and the recorded data.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";

const require = createRequire(import.meta.url);

/** The package as Node users load it (pkg/node, CommonJS). */
export const PKG_DIR = process.env.PREDICTKIT_PKG_DIR ?? new URL("../../pkg/", import.meta.url).pathname;
export const pk = require(`${PKG_DIR}/node/predictkit.js`);

export const EMULATOR = process.env.PREDICTKIT_EMULATOR_URL ?? "http://127.0.0.1:8787";

export function fixture(path) {
  return readFileSync(new URL(`../fixtures/${path}`, import.meta.url), "utf8");
}

/** Asserts a PredictKitError with the given code, and returns it. */
export async function rejectsWith(assert, promiseOrFn, code) {
  let error;
  try {
    await (typeof promiseOrFn === "function" ? promiseOrFn() : promiseOrFn);
  } catch (e) {
    error = e;
  }
  assert.ok(error, `expected a ${code} error, got success`);
  assert.ok(error instanceof Error, "errors are real Errors");
  assert.equal(error.name, "PredictKitError");
  assert.equal(error.code, code, error.message);
  assert.ok(pk.isPredictKitError(error));
  return error;
}
