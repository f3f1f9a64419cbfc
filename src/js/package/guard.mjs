// @ts-check
// Use after free(), and objects that only name a handle, for every class the wasm exports. A freed
// object's handle is 0, and a call that reached wasm with it would throw a bare Error from inside the
// module; a made-up handle (a plain object, or `Object.create(Client.prototype)`, that names one) would
// reach memory the module never gave it. So every method, accessor and free() checks first that its
// receiver is an instance the module made (`handles`: stamped when the glue made it, in a WeakMap no
// other code can read or write) and that its `__wbg_ptr` is still that handle, and throws a PredictKitError with
// code FREED otherwise. The classes the entries export are views of the glue's (`guardClasses`) without
// wasm-bindgen's `__wrap`, the one way to make an instance from a number. free() (and Symbol.dispose) may
// be called any number of times: after the first it does nothing. A free() that runs while a method of the
// same object is still running (from a callback or a getter the method invoked) is completed by the module
// when that method returns.

/** The handle the module gave each instance the glue made, by the instance (no getter or trap runs). */
const handles = new WeakMap();

/**
 * Stamps `object`, an instance the glue has just made, with its handle, which stays a data property.
 * @param {{ __wbg_ptr: number }} object
 */
function stamp(object) {
  handles.set(object, object.__wbg_ptr);
  return Object.defineProperty(object, "__wbg_ptr", { configurable: false });
}

/**
 * Whether `receiver` is an instance the module made and has not freed (its handle is the one it was given).
 * @param {any} receiver
 */
const held = (receiver) => {
  const handle = handles.get(receiver);
  return !!handle && handle === receiver.__wbg_ptr;
};

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
 * their public prototypes and constructors into a table of their own (`internal`). Answers the classes as
 * the entries export them: each a view of its class whose instances are stamped when made, and which has no
 * `__wrap`, by their names.
 * @template {Glue} G
 * @param {G} glue
 * @returns {G}
 */
export function guardClasses(glue) {
  const views = /** @type {G} */ ({});
  for (const [name, value] of Object.entries(glue)) {
    const proto = typeof value === "function" ? value.prototype : undefined;
    if (!proto || typeof proto.__destroy_into_raw !== "function") continue;
    // (A class guarded already has its view as its prototype's constructor.)
    /** @type {Record<string, unknown>} */ (views)[name] = proto.constructor === value ? guard(value, proto, glue) : proto.constructor;
  }
  return views;
}

/**
 * Guards one class of the glue, and answers its view.
 * @param {Function & Record<string, any>} value the class
 * @param {Record<PropertyKey, any>} proto its prototype
 * @param {Glue} glue
 */
function guard(value, proto, glue) {
  /** @type {Record<string, Method>} */
  const table = Object.create(null);
  for (const key of Reflect.ownKeys(proto)) {
    if (key === "constructor") continue;
    // An own key has a descriptor.
    const d = /** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(proto, key));
    if (key === "free" || key === Symbol.dispose) d.value = release(d.value);
    else if (key === "__destroy_into_raw") d.value = raw(d.value);
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
  // The glue makes an instance from a handle with `__wrap` (called on the class itself) and with `new`: both
  // stamp it. The view forwards everything else to the class, and is the prototype's `constructor`, so that no
  // caller reaches the class's `__wrap`.
  const wrap = value.__wrap;
  if (typeof wrap === "function") value.__wrap = (/** @type {number} */ handle) => stamp(wrap.call(value, handle));
  const view = new Proxy(value, {
    construct: (target, args, newTarget) => stamp(Reflect.construct(target, args, newTarget)),
    get: (target, key) => (key === "__wrap" ? undefined : Reflect.get(target, key)),
    getOwnPropertyDescriptor: (target, key) => (key === "__wrap" ? undefined : Reflect.getOwnPropertyDescriptor(target, key)),
  });
  return (proto.constructor = view);
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
      throw (/** @type {() => Error} */ (freedError))();
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
    for (let p = proto; p; p = Object.getPrototypeOf(p)) {
      const table = tables.get(p);
      if (table) return table;
    }
  } catch {
    // A receiver whose prototype cannot be read is no instance.
  }
  return stranger;
}

/**
 * `method` with the freed-object check of every method (also used for the REST methods, defined later).
 * @param {Method} method
 * @param {Glue} glue
 * @returns {Method}
 */
export function live(method, glue) {
  // Fixed parameters rather than rest and apply (nine: a task's `reply`, the most any export takes): this
  // wraps the book's hot getters. (tests/js/receivers.test.mjs holds every export to nine at most.)
  return function (a, b, c, d, e, f, g, h, i) {
    if (!held(this)) throw glue.freedError();
    return method.call(this, a, b, c, d, e, f, g, h, i);
  };
}

/**
 * `__destroy_into_raw` (the glue gives an instance's handle to the module with it, when an export takes the
 * instance itself): for anything but a held instance, 0, which the module reads as none.
 * @param {(this: Receiver) => number} destroy
 * @returns {(this: Receiver) => number}
 */
function raw(destroy) {
  return function () {
    // (free() ends here too: a freed instance is never held again, whatever its handle is set to.)
    return held(this) && handles.delete(/** @type {object} */ (this)) ? destroy.call(this) : 0;
  };
}

/**
 * `free` that does nothing once the object is freed.
 * @param {(this: Receiver) => void} free
 * @returns {(this: Receiver) => void}
 */
function release(free) {
  return function () {
    if (!held(this)) return;
    try {
      free.call(this);
    } catch {
      // Freed while one of its own methods runs: the module frees it when that method returns.
    }
  };
}
