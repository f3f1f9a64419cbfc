// Readers of a caller's values for the binding (src/wasm/interop.rs): each copies what wasm may read of a
// value it cannot trust (a Proxy, a getter that throws, an absurdly large object) through intrinsics
// captured at load. Rust imports them with `catch`: whatever they throw becomes INVALID_PARAMS naming the
// parameter, and no JS exception unwinds through wasm frames.

const getterOf = (proto, name) => Object.getOwnPropertyDescriptor(proto, name)?.get;
const abortedOf = getterOf(AbortSignal.prototype, "aborted");
const typedArray = Object.getPrototypeOf(Uint8Array.prototype);
const tagOf = getterOf(typedArray, Symbol.toStringTag);
const byteLengthOf = getterOf(typedArray, "byteLength");
const byteOffsetOf = getterOf(typedArray, "byteOffset");
const bufferOf = getterOf(typedArray, "buffer");

/** Throws unless `signal` is a genuine AbortSignal (a look-alike or a Proxy has no aborted state). */
export function checkSignal(signal) {
  abortedOf.call(signal);
}

/**
 * A caller's object's own enumerable string keys and values, as [key, value, key, value, ...], or the
 * number of keys when there are more than `max`. Throws whatever the object throws (Proxy traps, getters).
 */
export function entriesOf(value, max) {
  const keys = Object.keys(value);
  if (keys.length > max) return keys.length;
  const out = [];
  for (const key of keys) out.push(key, value[key]);
  return out;
}

/**
 * A copy of a genuine array's items (so that nothing of the caller's array is read again), its length
 * when over `max`, or undefined for anything but an array. Throws whatever the array throws.
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
 */
export function bytesOf(value, max) {
  if (tagOf.call(value) !== "Uint8Array") return undefined;
  const length = byteLengthOf.call(value);
  if (length > max) return length;
  return new Uint8Array(bufferOf.call(value), byteOffsetOf.call(value), length);
}
