// Receivers the module never made. Every method, accessor and internal entry of every class the package
// exports, called with an object that only names a handle (a plain object, one made from the class's
// prototype, a genuine instance whose handle was rewritten, a Proxy, a primitive), throws FREED and reaches
// no wasm: before the guard stamped the instances the glue makes, `syncClock` on a made-up handle was "memory
// access out of bounds" and `hasCredentials` an uncaught TypeError from inside the module.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { pk, internal, EMULATOR, fixture, PKG_DIR } from "./helpers.mjs";

const CLASSES = ["Client", "OrderBook", "StreamCore", "Task"];

/** Receivers that are no instance of `cls`, made fresh for each call. */
function forgeries(cls) {
  const made = (handle) => {
    const o = Object.create(cls.prototype);
    o.__wbg_ptr = handle;
    return o;
  };
  const defined = (handle) => Object.defineProperty(Object.create(cls.prototype), "__wbg_ptr", { value: handle });
  const trap = new Proxy(Object.create(cls.prototype), {
    get(target, key) {
      if (key === "__wbg_ptr") return 1_000_000;
      return Reflect.get(target, key);
    },
    getPrototypeOf: () => cls.prototype,
  });
  return [
    ["a plain object naming handle 8", () => ({ __wbg_ptr: 8 })],
    ["a plain object naming handle 1e6", () => ({ __wbg_ptr: 1_000_000 })],
    ["an object of the prototype naming handle 8", () => made(8)],
    ["an object of the prototype naming handle 1e6", () => made(1_000_000)],
    ["an object of the prototype with a defined handle", () => defined(1_000_000)],
    ["a Proxy naming a handle", () => trap],
    ["a number", () => 1_000_000],
    ["undefined", () => undefined],
  ];
}

/** `call()`'s error, thrown or rejected; undefined when it neither throws nor rejects. */
async function failure(call) {
  try {
    const answer = call();
    if (answer && typeof answer.then === "function") await answer;
  } catch (e) {
    return e;
  }
  return undefined;
}

/** Each callable member of `proto` (its methods and getters, free aside) as a function of a receiver. */
function members(proto) {
  const out = [];
  for (const key of Reflect.ownKeys(proto)) {
    if (key === "constructor" || key === "free" || key === Symbol.dispose || key === "__wbg_ptr") continue;
    const d = Object.getOwnPropertyDescriptor(proto, key);
    if (typeof d.value === "function") out.push([String(key), (self) => d.value.call(self, {}, {}, {})]);
    else if (d.get) out.push([`get ${String(key)}`, (self) => d.get.call(self)]);
  }
  return out;
}

test("every member and internal entry of every class throws FREED for a receiver the module never made", async () => {
  const lines = [];
  let checked = 0;
  for (const name of CLASSES) {
    const cls = pk[name];
    assert.equal(typeof cls, "function", `the package exports ${name}`);
    // (The table's statics, the route table, take no receiver.)
    const entries = Object.entries(internal(cls.prototype)).filter(([key]) => key !== "restMethods").map(([key, f]) => [`internal ${key}`, (self) => f.call(self, "getOk", {}, {})]);
    for (const [member, call] of [...members(cls.prototype), ...entries]) {
      if (member === "__destroy_into_raw") continue;
      for (const [what, forge] of forgeries(cls)) {
        const e = await failure(() => call(forge()));
        checked++;
        if (e?.code !== "FREED") lines.push(`${name} ${member} on ${what}: ${e ? `${e.name}: ${e.message}` : "no error"}`);
      }
    }
    // free() and the glue's hand-over of an instance do nothing for them.
    for (const [what, forge] of forgeries(cls)) {
      const self = forge();
      if (cls.prototype.free.call(self) !== undefined) lines.push(`${name} free() on ${what} answered something`);
      if (cls.prototype.__destroy_into_raw.call(self) !== 0) lines.push(`${name} __destroy_into_raw on ${what} is not 0`);
    }
  }
  assert.ok(checked > 400, `${checked} calls checked`);
  assert.deepEqual(lines, []);
  // The module still works.
  const client = new pk.Client({ baseUrl: EMULATOR });
  assert.equal(client.hasCredentials, false);
  assert.equal(typeof client.syncClock, "function");
  client.free();
});

test("no class the package exports makes an instance from a number", () => {
  for (const name of CLASSES) {
    const cls = pk[name];
    assert.equal(cls.__wrap, undefined, `${name}.__wrap`);
    assert.equal(Object.getOwnPropertyDescriptor(cls, "__wrap"), undefined);
    assert.equal(cls.prototype.constructor, cls, `${name}.prototype.constructor is the exported class`);
    assert.equal(Object.getPrototypeOf(cls.prototype).constructor, Object);
  }
});

test("the instances the module makes work, whichever way they are made, until their handle is rewritten", async () => {
  const client = new pk.Client({ baseUrl: EMULATOR });
  assert.ok(client instanceof pk.Client);
  assert.equal(client.hasCredentials, false);
  // A subclass of the exported class makes instances of its own.
  class Mine extends pk.Client {
    hello() {
      return `credentials: ${this.hasCredentials}`;
    }
  }
  const mine = new Mine({ baseUrl: EMULATOR });
  assert.ok(mine instanceof pk.Client && mine instanceof Mine);
  assert.equal(mine.hello(), "credentials: false");
  mine.free();
  assert.throws(() => mine.hello(), (e) => e.code === "FREED");
  // Books made by a static (the glue's `__wrap`) and by a REST answer.
  const recorded = pk.OrderBook.fromJson(fixture("real/clob-book-1.json"));
  assert.ok(recorded instanceof pk.OrderBook);
  assert.ok(recorded.bestBid() !== undefined);
  const token = recorded.assetId;
  assert.equal(typeof token, "string");
  const read = await client.getBook(token);
  assert.ok(read instanceof pk.OrderBook);
  assert.equal(read.assetId, token);
  assert.match(read.hash(), /^[0-9a-f]{40}$/);
  read.free();
  // A genuine instance whose handle is rewritten is FREED until it is given back; the handle stays a plain value.
  const handle = recorded.__wbg_ptr;
  recorded.__wbg_ptr = handle + 8;
  assert.throws(() => recorded.bestBid(), (e) => e.code === "FREED");
  assert.throws(() => recorded.assetId, (e) => e.code === "FREED");
  recorded.free();
  recorded.__wbg_ptr = handle;
  assert.ok(recorded.bestBid() !== undefined, "the rewritten instance was not freed");
  assert.throws(() => Object.defineProperty(recorded, "__wbg_ptr", { get: () => handle }), TypeError);
  recorded.free();
  assert.throws(() => recorded.bestBid(), (e) => e.code === "FREED");
  recorded.__wbg_ptr = handle;
  assert.throws(() => recorded.bestBid(), (e) => e.code === "FREED");
  recorded.free();
  // syncClock, the direct method that reached wasm with a made-up handle.
  const forged = Object.create(pk.Client.prototype);
  forged.__wbg_ptr = client.__wbg_ptr;
  await assert.rejects(async () => forged.syncClock(), (e) => e.code === "FREED");
  assert.throws(() => forged.hasCredentials, (e) => e.code === "FREED");
  forged.free();
  assert.equal(client.hasCredentials, false, "a forged free() did not free the client it names");
  client.free();
});

test("no method of the binding takes more parameters than the guard passes on (nine)", () => {
  // A copy of the Node build's glue of its own (and its own module instance), as wasm-bindgen wrote it: unguarded.
  const require = createRequire(import.meta.url);
  const path = require.resolve(`${PKG_DIR}/node/predictkit.js`);
  const cached = require.cache[path];
  delete require.cache[path];
  let glue;
  try {
    glue = require(path);
  } finally {
    require.cache[path] = cached;
  }
  assert.notEqual(glue.Client, pk.Client);
  let methods = 0;
  for (const name of CLASSES) {
    const proto = glue[name].prototype;
    for (const key of Reflect.ownKeys(proto)) {
      const d = Object.getOwnPropertyDescriptor(proto, key);
      const f = d.value ?? d.get;
      if (typeof f !== "function" || key === "constructor") continue;
      methods++;
      assert.ok(f.length <= 9, `${name}.${String(key)} takes ${f.length} parameters`);
    }
  }
  assert.ok(methods > 50, `${methods} methods`);
});
