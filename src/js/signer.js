// @ts-check
// The wallet's side of the one driver, in builds that trade: asking a signer, with the driver's timers,
// signal handling and errors (src/js/driver.js). The package's trading methods (src/js/package/trade.mjs)
// take it through the binding's `driverTools`, since a package file cannot import a snippet.

import { clearLater, later, makeError, onAbortOf, isAborted } from "./driver.js";

/** @typedef {import("./driver.js").Later} Later */

/**
 * Asks a wallet to sign `typedData` (an `eth_signTypedData_v4` document) with `signTypedData` called on
 * `signer`. The call's signal stops the wait, and so does `timeoutMs` (Infinity waits for ever): a wallet
 * that never answers cannot hold a call for ever. Rejects with a PredictKitError only: ABORTED, TIMEOUT, or
 * SIGNER (the wallet threw or refused; its error is the cause).
 * @param {(this: unknown, typedData: unknown) => unknown} signTypedData
 * @param {unknown} signer
 * @param {unknown} typedData
 * @param {AbortSignal | undefined} signal a genuine AbortSignal (checked by the call's start)
 * @param {number} timeoutMs
 * @returns {Promise<unknown>}
 */
export function askSigner(signTypedData, signer, typedData, signal, timeoutMs) {
  return new Promise((resolve, reject) => {
    /** @type {Later | undefined} */
    let timer;
    let forget = () => {};
    let settled = false;
    /**
     * @param {(value: any) => void} how
     * @param {unknown} value
     */
    const settle = (how, value) => {
      if (settled) return;
      settled = true;
      clearLater(timer);
      forget();
      how(value);
    };
    /**
     * @param {string} code
     * @param {string} message
     * @param {unknown} [cause]
     */
    const fail = (code, message, cause) => settle(reject, makeError({ code, message }, cause));
    const onAbort = () => fail("ABORTED", "the call was aborted by its AbortSignal while the signer was asked");
    if (signal) {
      if (isAborted(signal)) return onAbort();
      // Listening before the wallet is asked: it may abort the call while it is being asked.
      forget = onAbortOf(signal, onAbort);
    }
    if (Number.isFinite(timeoutMs)) {
      timer = later(() => fail("TIMEOUT", "the signer did not answer within signTimeoutMs"), timeoutMs);
    }
    let answer;
    try {
      answer = signTypedData.call(signer, typedData);
    } catch (e) {
      return fail("SIGNER", "the signer threw", e);
    }
    // A thenable's `then` may throw or never settle: the Promise constructor catches the first, the timer
    // and the signal the second.
    new Promise((inner) => inner(answer)).then(
      (signature) => settle(resolve, signature),
      (e) => fail("SIGNER", "the signer refused or failed to sign", e),
    );
  });
}

/** What the package's trading methods take from the driver (src/wasm/trade.rs: driverTools). */
export function tools() {
  return { askSigner, makeError };
}
