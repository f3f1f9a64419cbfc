// @ts-check
// Use after free(), for every class the wasm exports. A freed object's handle is 0, and a call that
// reached wasm with it would throw a bare Error from inside the module; so every method and accessor
// checks the handle first and throws a PredictKitError with code FREED instead. free() (and
// Symbol.dispose) may be called any number of times: after the first it does nothing. A free() that
// runs while a method of the same object is still running (from a callback or a getter the method
// invoked) is completed by the module when that method returns.

/** @type {Set<PropertyKey>} */
const skipped = new Set(["constructor", "__destroy_into_raw", "__wbg_ptr"]);

/**
 * The wasm-bindgen module of a build, as the guard uses it: its classes among its exports, and the error
 * of a freed object.
 * @typedef {{ freedError(): Error }} Glue
 */

/**
 * An instance of a wasm-bindgen class, as the guard sees it: its handle is 0 once freed (or absent from
 * anything but an instance).
 * @typedef {{ __wbg_ptr?: number } | null | undefined} Receiver
 */

/**
 * A method of a wasm-bindgen class, or one defined on it (eight parameters at most).
 * @typedef {(this: any, a?: any, b?: any, c?: any, d?: any, e?: any, f?: any, g?: any, h?: any, i?: any) => any} Method
 */

/**
 * Guards the classes among `glue`'s exports (idempotent), and takes the binding's internal entries (the
 * package's own JS calls them: `callRest`, `pageStart`, `nextPageArgument`, `restMethods`, `trade…`) off
 * their public prototypes and constructors into a table of their own (`internal`).
 * @param {Glue} glue
 */
export function guardClasses(glue) {
  for (const value of Object.values(glue)) {
    const proto = typeof value === "function" ? value.prototype : undefined;
    if (!proto || typeof proto.__destroy_into_raw !== "function" || Object.hasOwn(proto, guarded)) continue;
    Object.defineProperty(proto, guarded, { value: true });
    /** @type {Record<string, Method>} */
    const table = Object.create(null);
    for (const key of Reflect.ownKeys(proto)) {
      if (skipped.has(key)) continue;
      // An own key has a descriptor.
      const d = /** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(proto, key));
      if (key === "free" || key === Symbol.dispose) d.value = release(d.value);
      else if (typeof d.value === "function") d.value = live(d.value, glue);
      else if (d.get) d.get = live(d.get, glue);
      else continue;
      if (typeof key === "string" && INTERNAL.test(key)) {
        table[key] = d.value;
        delete proto[key];
      } else {
        Object.defineProperty(proto, key, d);
      }
    }
    // The class's own statics (the route table).
    const statics = /** @type {Record<string, Method>} */ (/** @type {unknown} */ (value));
    for (const key of Object.getOwnPropertyNames(statics)) {
      if (!INTERNAL.test(key)) continue;
      table[key] = statics[key];
      delete statics[key];
    }
    if (Object.keys(table).length) tables.set(proto, table);
    freedError ??= glue.freedError;
  }
}

/** The binding's internal entries, by their names (src/wasm: `skip_typescript` and undeclared). */
const INTERNAL = /^(callRest|pageStart|nextPageArgument|restMethods|trade[A-Z])/;

/** Each guarded class's internal entries, by its prototype. */
const tables = new WeakMap();

/**
 * The entries of anything that is no guarded class's instance (a plain object that names a handle, given as a
 * method's `this`): each throws FREED, as a freed object's methods do, and none reaches wasm with a handle it
 * never made. It has no own keys.
 * @type {Record<string, Method>}
 */
const stranger = new Proxy(Object.create(null), {
  get: () =>
    function () {
      throw freedError?.() ?? new TypeError("not an instance of the package's classes");
    },
});

/** The FREED error of the first build guarded (src/wasm/interop.rs). @type {(() => Error) | undefined} */
let freedError;

/**
 * The internal entries of `proto`'s class (a guarded class's prototype, or an instance's prototype chain up to
 * one): its methods, called with the instance as `this`, and its statics. For anything else, entries that
 * throw FREED (`stranger`).
 * @param {unknown} proto
 * @returns {Record<string, Method>}
 */
export function internal(proto) {
  try {
    for (let p = proto; p !== null && (typeof p === "object" || typeof p === "function"); p = Object.getPrototypeOf(p)) {
      const table = tables.get(p);
      if (table) return table;
    }
  } catch {
    // A receiver whose prototype cannot be read is no instance.
  }
  return stranger;
}

const guarded = Symbol("predictkit.guarded");

/**
 * `method` with the freed-object check of every method (also used for the REST methods, defined later).
 * @param {Method} method
 * @param {Glue} glue
 * @returns {Method}
 */
export function live(method, glue) {
  // Fixed parameters rather than rest and apply (nine: a task's `reply`, the most any export takes):
  // this wraps the book's hot getters. An export that takes more fails every load, not some calls.
  if (method.length > 9) throw new Error(`${method.name} takes more arguments than the guard passes on`);
  return function (a, b, c, d, e, f, g, h, i) {
    if (!this?.__wbg_ptr) throw glue.freedError();
    return method.call(this, a, b, c, d, e, f, g, h, i);
  };
}

/**
 * `free` that does nothing once the object is freed.
 * @param {(this: Receiver) => void} free
 * @returns {(this: Receiver) => void}
 */
function release(free) {
  return function () {
    if (!this?.__wbg_ptr) return;
    try {
      free.call(this);
    } catch {
      // Freed while one of its own methods runs: the module frees it when that method returns.
    }
  };
}
