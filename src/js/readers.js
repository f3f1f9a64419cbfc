// @ts-check
// Readers of a caller's values for the binding (src/wasm/interop.rs): each copies what wasm may read of a
// value it cannot trust (a Proxy, a getter that throws, an absurdly large object) through intrinsics
// captured at load. Rust imports them with `catch`: whatever they throw becomes INVALID_PARAMS naming the
// parameter, and no JS exception unwinds through wasm frames.

/**
 * A prototype's own getter of `name` (these all exist: a getter of %TypedArray% brand-checks its receiver).
 * @template T
 * @param {object} proto
 * @param {PropertyKey} name
 * @returns {(this: unknown) => T}
 */
const getterOf = (proto, name) =>
  /** @type {(this: unknown) => T} */ (Object.getOwnPropertyDescriptor(proto, name)?.get);
/** @type {(this: unknown) => boolean} */
const abortedOf = getterOf(AbortSignal.prototype, "aborted");
const typedArray = Object.getPrototypeOf(Uint8Array.prototype);
/** @type {(this: unknown) => string | undefined} */
const tagOf = getterOf(typedArray, Symbol.toStringTag);
/** @type {(this: unknown) => number} */
const byteLengthOf = getterOf(typedArray, "byteLength");
/** @type {(this: unknown) => number} */
const byteOffsetOf = getterOf(typedArray, "byteOffset");
/** @type {(this: unknown) => ArrayBufferLike} */
const bufferOf = getterOf(typedArray, "buffer");

/**
 * Throws unless `signal` is a genuine AbortSignal (a look-alike or a Proxy has no aborted state).
 * @param {unknown} signal
 */
export function checkSignal(signal) {
  abortedOf.call(signal);
}

/**
 * A caller's object's own enumerable string keys and values, as [key, value, key, value, ...], or the
 * number of keys when there are more than `max`. Throws whatever the object throws (Proxy traps, getters).
 * @param {object} value
 * @param {number} max
 * @returns {unknown[] | number}
 */
export function entriesOf(value, max) {
  const keys = Object.keys(value);
  if (keys.length > max) return keys.length;
  /** @type {unknown[]} */
  const out = [];
  const record = /** @type {Record<string, unknown>} */ (value);
  for (const key of keys) out.push(key, record[key]);
  return out;
}

/**
 * A copy of a genuine array's items (so that nothing of the caller's array is read again), its length
 * when over `max`, or undefined for anything but an array. Throws whatever the array throws.
 * @param {unknown} value
 * @param {number} max
 * @returns {unknown[] | number | undefined}
 */
export function itemsOf(value, max) {
  if (!Array.isArray(value)) return undefined;
  const length = value.length;
  if (!(length <= max)) return length;
  const out = new Array(length);
  for (let i = 0; i < length; i++) out[i] = value[i];
  return out;
}

/**
 * The JSON text of a caller's order-book object as `JSON.stringify` writes it, with `hash` set to "" when
 * `blankHash` (the upstream hash input: keys in the object's own order, `hash` last when absent). Throws for
 * anything that is not a book-sized plain object: an array or typed array (`new Uint8Array(2 ** 31)` has
 * 2^31 keys to copy) or an object with more keys than a book could have.
 * @param {unknown} book
 * @param {boolean} blankHash
 * @returns {string}
 */
export function bookText(book, blankHash) {
  if (typeof book !== "object" || book === null || Array.isArray(book) || ArrayBuffer.isView(book)) {
    throw new TypeError("not an order book object");
  }
  if (Object.keys(book).length > 64) throw new TypeError("not an order book object");
  return JSON.stringify(blankHash ? Object.assign({}, book, { hash: "" }) : book);
}

/**
 * A view on the bytes of a genuine Uint8Array (brand-checked: a look-alike or a Proxy is not one), its
 * length when over `max`, or undefined for anything else.
 * @param {unknown} value
 * @param {number} max
 * @returns {Uint8Array | number | undefined}
 */
export function bytesOf(value, max) {
  if (tagOf.call(value) !== "Uint8Array") return undefined;
  const length = byteLengthOf.call(value);
  if (length > max) return length;
  return new Uint8Array(bufferOf.call(value), byteOffsetOf.call(value), length);
}
