// The REST methods are defined at load from the core's route table (src/api/methods.rs `ENDPOINTS`, listed
// by `Client.restMethods()` as `[name, argument count, list]`) and spelled by hand in three more places:
// the declarations (src/wasm/methods.d.ts, list methods answering a page type of src/wasm/pages.d.ts), the
// wasm tests' `rest_methods!` rows (tests/wasm_support/mod.rs) and the hostile table
// (tests/js/hostile-cases.mjs). These tests hold the four lists equal, every method of `Client.prototype`
// declared, and the binding's internal entries listed below off every public prototype (in guard.mjs's table).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { pk, PKG_DIR, internal } from "./helpers.mjs";
import { makeKit } from "./hostile-cases.mjs";

const ROOT = new URL("../../", import.meta.url);
const read = (path) => readFileSync(new URL(path, ROOT), "utf8");
const WASM_DTS = "src/wasm/";
const METHODS_DTS = `${WASM_DTS}methods.d.ts`;
const PAGES_DTS = `${WASM_DTS}pages.d.ts`;
const WASM_SUPPORT = "tests/wasm_support/mod.rs";
const HOSTILE = "tests/js/hostile-cases.mjs";
const TABLE = "Client's restMethods()";

/**
 * The binding's entries on `Client` that carry `skip_typescript` (src/wasm/client.rs, src/wasm/trade.rs):
 * the package's own JS calls them (client.mjs, pages.mjs, trade.mjs) through guard.mjs's table; they are no API,
 * and no public prototype or constructor shows them.
 */
const INTERNAL = new Set([
  "restMethods", // static: the route table installMethods reads
  "callRest",
  "pageStart",
  "nextPageArgument",
  "tradeSignal",
  "tradeOrder",
  "tradeSign",
  "tradeApiKey",
  "tradeSend",
  "tradeDoctor",
  "tradeTracker",
  "tradeHeartbeats",
]);

// --- Reading TypeScript declarations --------------------------------------------------------------------

/** `text` without its comments (string literals kept whole: a URL in one is no comment). */
function stripComments(text) {
  let out = "";
  for (let i = 0; i < text.length; ) {
    const c = text[i];
    if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (text.startsWith("/*", i)) {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 2;
      out += " ";
    } else if (text.startsWith("//", i)) {
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/**
 * `text` cut at each `separator` that stands outside every bracket pair ((), [], {}, <>; the `>` of `=>`
 * closes nothing), the pieces trimmed, empty ones dropped.
 */
function splitTop(text, separator) {
  const pieces = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if ("([{<".includes(c)) depth++;
    else if (")]}".includes(c) || (c === ">" && text[i - 1] !== "=")) depth--;
    else if (c === separator && depth === 0) {
      pieces.push(text.slice(start, i));
      start = i + 1;
    }
  }
  pieces.push(text.slice(start));
  return pieces.map((p) => p.trim()).filter((p) => p !== "");
}

/** The index just past the bracket that closes the one at `open`. */
function closing(text, open) {
  const pairs = { "(": ")", "{": "}", "<": ">", "[": "]" };
  const stack = [];
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (pairs[c]) stack.push(pairs[c]);
    else if (c === stack.at(-1) && !(c === ">" && text[i - 1] === "=")) {
      stack.pop();
      if (stack.length === 0) return i + 1;
    }
  }
  throw new Error(`unbalanced brackets from ${text.slice(open, open + 60)}`);
}

/**
 * The members of every `interface Client` and `class Client` declared in `text` (comments stripped):
 * `{ name, params, returns }` for a method (params `{ name, type }`), `{ name }` for a property.
 */
function clientMembers(text) {
  const members = [];
  const head = /\b(?:interface|class)\s+Client\b[^{;]*\{/g;
  for (let m; (m = head.exec(text)); ) {
    const open = m.index + m[0].length - 1;
    const end = closing(text, open);
    for (const member of splitTop(text.slice(open + 1, end - 1), ";")) {
      const found = /^(?:(?:readonly|static|get|set|public)\s+)*([A-Za-z_$][\w$]*|\[[^\]]*\])\s*\??\s*/.exec(member);
      if (!found) throw new Error(`cannot read the member ${member.slice(0, 80)}`);
      let at = found[0].length;
      if (member[at] === "<") at = closing(member, at);
      if (member[at] !== "(") {
        members.push({ name: found[1] });
        continue;
      }
      const close = closing(member, at);
      const params = splitTop(member.slice(at + 1, close - 1), ",").map((p) => {
        const [, name, type] = /^(?:\.\.\.)?([\w$]+)\??\s*(?::\s*([\s\S]*))?$/.exec(p) ?? [];
        return { name, type: type?.trim() };
      });
      const returns = member.slice(close).replace(/^\s*:\s*/, "").trim();
      members.push({ name: found[1], params, returns });
    }
  }
  return members;
}

/** The types of pages.d.ts that a list method answers: its interfaces that are async iterables. */
function pageTypes() {
  const text = stripComments(read(PAGES_DTS));
  const names = [...text.matchAll(/\binterface\s+(\w+)\s*(?:<[^{]*?>)?\s+extends\s+([^{]*)\{/g)]
    .filter(([, , bases]) => /\bAsyncIterable\s*</.test(bases))
    .map(([, name]) => name);
  assert.ok(names.length > 0, `${PAGES_DTS} declares no page type (an interface extending AsyncIterable)`);
  return new Set(names);
}

/** The name a type begins with (`PagePromise` of `PagePromise<Trade[], Trade>`). */
const typeHead = (type) => /^[\w$]+/.exec(type ?? "")?.[0];

// --- Comparing the lists ---------------------------------------------------------------------------------

/** The route table as `name -> { arity, list }`, checked for shape. */
function routeTable() {
  const rows = internal(pk.Client.prototype).restMethods();
  assert.ok(Array.isArray(rows) && rows.length > 0, `${TABLE} is not a list of rows`);
  const table = new Map();
  for (const row of rows) {
    const [name, arity, list, trades] = row;
    assert.ok(
      typeof name === "string" && Number.isInteger(arity) && arity >= 0 && typeof list === "boolean" && typeof trades === "boolean" && row.length === 4,
      `${TABLE} has a malformed row ${JSON.stringify(row)}`,
    );
    assert.ok(!table.has(name), `${TABLE} lists ${name} twice`);
    table.set(name, { arity, list });
  }
  return table;
}

const describeRow = ({ arity, list }) =>
  `${arity} argument${arity === 1 ? "" : "s"} before the options` + (list === undefined ? "" : list ? ", a list" : ", not a list");

/**
 * What `where` (a map `name -> { arity, list? }`; `list` undefined where that list does not say) lacks, adds
 * or spells otherwise than the route table, one line each.
 */
function differences(where, got, table) {
  const lines = [];
  for (const [name, want] of table) {
    const row = got.get(name);
    if (!row) {
      lines.push(`${where} lacks ${name} (${TABLE}: ${describeRow(want)})`);
      continue;
    }
    const same = row.arity === want.arity && (row.list === undefined || row.list === want.list);
    if (!same) lines.push(`${where} has ${name} with ${describeRow(row)}; ${TABLE} with ${describeRow({ arity: want.arity, list: row.list === undefined ? undefined : want.list })}`);
  }
  for (const [name, row] of got) {
    if (!table.has(name)) lines.push(`${where} adds ${name} (${describeRow(row)}), which ${TABLE} does not list`);
  }
  return lines;
}

function agree(lines) {
  assert.ok(lines.length === 0, `the REST surface lists disagree:\n  ${lines.join("\n  ")}`);
}

// --- The tests -------------------------------------------------------------------------------------------

test("Client's restMethods() is what the package installs on Client.prototype, list methods answering a page promise", async () => {
  const table = routeTable();
  const lines = [];
  // Nothing is sent: a page promise waits to be awaited, and every other call is aborted before it starts.
  const client = new pk.Client({ baseUrl: "http://127.0.0.1:9", fetch: () => new Promise(() => {}) });
  const signal = AbortSignal.abort();
  try {
    for (const [name, { arity, list }] of table) {
      const method = Object.getOwnPropertyDescriptor(pk.Client.prototype, name)?.value;
      if (typeof method !== "function") {
        lines.push(`Client.prototype lacks ${name}`);
        continue;
      }
      if (method.name !== name) lines.push(`Client.prototype.${name} is named ${method.name}`);
      const answer = method.call(client, ...Array(arity).fill(undefined), { signal });
      const paged = typeof answer?.[Symbol.asyncIterator] === "function";
      if (!(answer instanceof Promise)) lines.push(`Client.prototype.${name} answers no Promise`);
      else if (paged !== list) lines.push(`Client.prototype.${name} ${paged ? "answers" : "does not answer"} a page promise`);
      if (!paged) await answer.catch(() => {});
    }
  } finally {
    client.free();
  }
  agree(lines);
});

test("src/wasm/methods.d.ts declares exactly the route table's methods, list methods answering a page type", () => {
  const table = routeTable();
  const pages = pageTypes();
  const declared = new Map();
  const lines = [];
  for (const m of clientMembers(stripComments(read(METHODS_DTS)))) {
    if (!m.params) {
      lines.push(`${METHODS_DTS} declares ${m.name} as a property of Client, not a method`);
      continue;
    }
    const options = m.params.findIndex((p) => p.name === "options");
    const arity = options < 0 ? m.params.length : options;
    const list = pages.has(typeHead(m.returns));
    if (declared.has(m.name)) lines.push(`${METHODS_DTS} declares ${m.name} twice`);
    declared.set(m.name, { arity, list });
    // Options last; a list's are PageOptions (onPage, maxItems), a single call's RequestOptions.
    const optionsType = list ? "PageOptions" : "RequestOptions";
    if (options !== m.params.length - 1) lines.push(`${METHODS_DTS}: ${m.name} does not end with an options parameter`);
    else if (m.params[options].type !== optionsType) lines.push(`${METHODS_DTS}: ${m.name}'s options are ${m.params[options].type}, not ${optionsType}`);
    if (!list && typeHead(m.returns) !== "Promise") lines.push(`${METHODS_DTS}: ${m.name} answers ${m.returns}, neither a Promise nor a page type of ${PAGES_DTS}`);
  }
  lines.push(...differences(METHODS_DTS, declared, table));
  agree(lines);
});

test("the wasm tests' rest_methods! rows are the route table's methods", () => {
  const table = routeTable();
  const text = read(WASM_SUPPORT);
  const block = /^rest_methods!\s*\{([\s\S]*?)^\}/m.exec(text);
  assert.ok(block, `${WASM_SUPPORT} has no rest_methods! {{ ... }} invocation`);
  const rows = new Map();
  const lines = [];
  const rowPattern = /(\w+)\s*=>\s*"(\w+)"\s*\(([^)]*)\)\s*;/g;
  let understood = 0;
  for (const [, , js, args] of block[1].matchAll(rowPattern)) {
    understood++;
    const names = args.split(",").map((a) => a.trim().split(":")[0].trim()).filter((a) => a !== "");
    const options = names.indexOf("options");
    if (options !== names.length - 1) lines.push(`${WASM_SUPPORT}: the rest_methods! row ${js} does not end with options`);
    if (rows.has(js)) lines.push(`${WASM_SUPPORT}: rest_methods! lists ${js} twice`);
    rows.set(js, { arity: options < 0 ? names.length : options });
  }
  // Every row was read: a row the pattern misses would otherwise pass as missing from the macro.
  const written = block[1].split(";").filter((r) => r.trim() !== "").length;
  assert.equal(understood, written, `${WASM_SUPPORT}: some rest_methods! rows were not understood`);
  lines.push(...differences(`${WASM_SUPPORT} (rest_methods!)`, rows, table));
  agree(lines);
});

test("the hostile table's REST rows are the route table's methods", () => {
  const table = routeTable();
  // The rows' arguments are built only when a case runs: no data is needed to read the table.
  const { table: signatures, rest } = makeKit().signatures({}, undefined);
  assert.ok(Array.isArray(rest), `${HOSTILE}: signatures() gives no list of its REST rows`);
  const rows = new Map();
  for (const name of rest) rows.set(name, { arity: signatures[`Client#${name}`].arity - 1 });
  const lines = differences(`${HOSTILE} (the signatures table)`, rows, table);
  // Any other Client row of the table is one of the binding's entries, or a method declared apart.
  for (const id of Object.keys(signatures)) {
    const name = id.startsWith("Client#") ? id.slice("Client#".length) : undefined;
    if (name && !rows.has(name) && table.has(name)) lines.push(`${HOSTILE} has ${name} outside its REST rows`);
  }
  agree(lines);
});

test("every method of Client is declared, but for the binding's internal entries", () => {
  // The hand-written declarations, and the shipped ones (which add the methods wasm-bindgen declares from
  // the Rust signatures: syncClock, marketStream, userStream, the getters).
  const files = readdirSync(new URL(WASM_DTS, ROOT)).filter((f) => f.endsWith(".d.ts")).map((f) => WASM_DTS + f);
  const declared = new Map();
  const note = (name, where) => declared.set(name, [...(declared.get(name) ?? []), where]);
  for (const f of files) for (const m of clientMembers(stripComments(read(f)))) note(m.name, f);
  const shipped = `${PKG_DIR}/node/predictkit.d.ts`;
  for (const m of clientMembers(stripComments(readFileSync(shipped, "utf8")))) note(m.name, "pkg/node/predictkit.d.ts");

  const defined = [];
  for (const key of Reflect.ownKeys(pk.Client.prototype)) {
    if (typeof key !== "string" || key === "constructor" || key === "free" || key.startsWith("__")) continue;
    defined.push(key);
  }
  for (const key of Object.getOwnPropertyNames(pk.Client)) {
    if (["length", "name", "prototype"].includes(key) || key.startsWith("__") || typeof pk.Client[key] !== "function") continue;
    defined.push(key);
  }
  const lines = [];
  for (const name of defined) {
    if (INTERNAL.has(name)) lines.push(`${name} is internal but on Client${name === "restMethods" ? "" : ".prototype"}`);
    else if (!declared.has(name)) {
      lines.push(`Client's ${name} has no declaration in ${WASM_DTS}*.d.ts or the shipped pkg/node/predictkit.d.ts`);
    }
  }
  const hidden = internal(pk.Client.prototype);
  for (const name of INTERNAL) {
    if (typeof hidden[name] !== "function") lines.push(`${name} is listed as internal but guard.mjs's table has no such entry`);
    if (declared.has(name)) lines.push(`${name} is internal but declared in ${declared.get(name).join(", ")}`);
  }
  for (const name of Object.keys(hidden)) if (!INTERNAL.has(name)) lines.push(`guard.mjs's table holds ${name}, which is not listed as internal`);
  // An instance reaches the same table; anything else none.
  const client = new pk.Client({ baseUrl: "http://127.0.0.1:9" });
  if (internal(client) !== hidden) lines.push("an instance does not reach its class's table");
  client.free();
  if (Object.keys(internal({})).length || Object.keys(internal(null)).length) lines.push("a plain object reaches a table");
  if (Object.keys(internal(pk.OrderBook.prototype)).length) lines.push("OrderBook has internal entries");
  // The REST methods are declared by hand, in methods.d.ts (the route table's names only come from wasm).
  for (const name of routeTable().keys()) {
    if (!(declared.get(name) ?? []).includes(METHODS_DTS)) lines.push(`${name} is not declared in ${METHODS_DTS}`);
  }
  assert.ok(lines.length === 0, `Client's declarations:\n  ${lines.join("\n  ")}`);
});

test("isPredictKitError is the package's own JS: in every entry, before init, and it never throws", async () => {
  const ours = Object.assign(new Error("m"), { name: "PredictKitError", code: "API" });
  const hostile = [
    new Proxy({}, { getPrototypeOf() { throw new Error("trap"); } }),
    new Proxy(new Error("x"), { get() { throw new Error("trap"); } }),
    Object.create(Error.prototype, { name: { get() { throw new Error("getter"); } } }),
    Object.assign(Object.create(Error.prototype), { name: "PredictKitError", code: 7 }),
    { name: "PredictKitError", code: "API" },
    null, undefined, 0, "PredictKitError", Symbol("e"),
  ];
  // The web entries are imported, never initialised: the guard needs no module. (The bundler entry imports the
  // wasm as a module, which only a bundler resolves.)
  for (const entry of ["index.mjs", "lite.mjs", "live.mjs", "node.mjs"]) {
    const mod = await import(pathToFileURL(join(PKG_DIR, entry)).href);
    assert.equal(typeof mod.isPredictKitError, "function", entry);
    assert.equal(mod.isPredictKitError(ours), true, entry);
    for (const value of hostile) assert.equal(mod.isPredictKitError(value), false, `${entry}: ${String(typeof value)}`);
  }
  // And what the library throws is one.
  assert.throws(() => new pk.Client({ baseUrl: "ftp://x" }), (e) => pk.isPredictKitError(e) && e.code === "INVALID_PARAMS");
});
