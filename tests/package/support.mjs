// Shared by the package tests: the packed tarball (made once per content), consumer projects that install
// it, a static file server, Chromium, the emulator, and the README's code blocks.
//
// The tarball is packed from a staging folder: the hand-written, committed top-level files of pkg/
// (package.json and the entry files its "files" names) plus the generated web/, bundler/ and node/ folders
// of PREDICTKIT_PKG_DIR (default pkg/, where `cargo xtask build` writes them). With the default the two
// are the same folder; with another PREDICTKIT_PKG_DIR no manual overlay step is needed.
import { execFile as execFileCb } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const execFile = promisify(execFileCb);

export const REPO = fileURLToPath(new URL("../../", import.meta.url));
export const PKG_DIR = resolve(process.env.PREDICTKIT_PKG_DIR ?? join(REPO, "pkg"));
export const WORK = join(REPO, "target", "package-tests");
export const EMULATOR = (process.env.PREDICTKIT_EMULATOR_URL ?? "http://127.0.0.1:8787").replace(/\/$/, "");
export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
/** The URL the README's snippets use; tests put the emulator's in its place. */
export const README_BASE_URL = "http://127.0.0.1:8787";
export const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];

const COMMITTED = join(REPO, "pkg");
const GENERATED_DIRS = ["web", "bundler", "node", "lite", "live"];

function walk(dir, base = dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? walk(path, base) : [relative(base, path).split(sep).join("/")];
  }).sort();
}

/** package.json of the package as committed. */
export function packageJson() {
  return JSON.parse(readFileSync(join(COMMITTED, "package.json"), "utf8"));
}

/** Copies the package into `stage` (default target/package-tests/stage/predictkit) and returns that folder. */
export function stagePackage(stage = join(WORK, "stage", "predictkit")) {
  const manifest = packageJson();
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  const topLevel = ["package.json", ...manifest.files.filter((f) => !f.endsWith("/"))];
  // The entry files are built (minified from src/js/package/) into the package folder; the declarations,
  // package.json and README are committed in pkg/.
  const built = (file) => /\.(mjs|cjs)$/.test(file);
  for (const file of topLevel) cpSync(join(built(file) ? PKG_DIR : COMMITTED, file), join(stage, file));
  // The licences are the repository's own; npm packs them from the package folder.
  for (const licence of ["LICENSE-MIT", "LICENSE-APACHE"]) cpSync(join(REPO, licence), join(stage, licence));
  for (const dir of GENERATED_DIRS) {
    const from = join(PKG_DIR, dir);
    if (!existsSync(join(from, "predictkit.js"))) {
      throw new Error(`${from}/predictkit.js is missing: run \`cargo xtask build\` first (PREDICTKIT_PKG_DIR=${PKG_DIR})`);
    }
    cpSync(from, join(stage, dir), { recursive: true });
  }
  return stage;
}

let packed;
/**
 * Packs the package with `npm pack` and returns the .tgz path. The tarball is named after a hash of the
 * staged files, so a run with an unchanged package reuses the previous one and the four suites pack once.
 */
export async function packTarball() {
  if (packed) return packed;
  const stage = stagePackage();
  const hash = createHash("sha256");
  for (const file of walk(stage)) hash.update(file).update("\0").update(readFileSync(join(stage, file))).update("\0");
  const { version } = packageJson();
  const tarballs = join(WORK, "tarballs");
  const tgz = join(tarballs, `predictkit-${version}-${hash.digest("hex").slice(0, 16)}.tgz`);
  if (!existsSync(tgz)) {
    const tmp = join(tarballs, `tmp-${process.pid}`);
    mkdirSync(tmp, { recursive: true });
    await execFile("npm", ["pack", "--silent", "--pack-destination", tmp, stage], { cwd: WORK });
    renameSync(join(tmp, `predictkit-${version}.tgz`), tgz);
    rmSync(tmp, { recursive: true, force: true });
  }
  packed = tgz;
  return tgz;
}

/**
 * A consumer project in target/package-tests/<name>/ with the tarball and `dependencies` installed by npm
 * (skipped when the same tarball and dependencies are already installed). Returns its folder.
 */
export async function installProject(name, dependencies = {}) {
  const tgz = await packTarball();
  const dir = join(WORK, name);
  mkdirSync(dir, { recursive: true });
  const manifest = {
    name: `predictkit-package-test-${name}`,
    private: true,
    type: "module",
    dependencies: { predictkit: `file:${tgz}`, ...dependencies },
  };
  const stamp = join(dir, ".installed.json");
  const wanted = JSON.stringify(manifest, null, 2);
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === wanted && existsSync(join(dir, "node_modules", "predictkit"))) {
    return dir;
  }
  writeFileSync(join(dir, "package.json"), wanted + "\n");
  await execFile("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, maxBuffer: 16 << 20 });
  writeFileSync(stamp, wanted);
  return dir;
}

/** Writes files (path → text) under a folder, creating folders as needed. */
export function writeFiles(dir, files) {
  for (const [path, text] of Object.entries(files)) {
    const target = join(dir, path);
    mkdirSync(resolve(target, ".."), { recursive: true });
    writeFileSync(target, text);
  }
}

/** Runs a program to completion; rejects with its output when it fails. */
export async function run(file, args, options = {}) {
  try {
    return await execFile(file, args, { maxBuffer: 16 << 20, ...options });
  } catch (e) {
    throw new Error(`${file} ${args.join(" ")} failed (${e.code}):\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
  }
}

const TYPES = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".mjs": "text/javascript",
  ".json": "application/json", ".css": "text/css", ".wasm": "application/wasm", ".svg": "image/svg+xml",
};

/** A static file server for a folder on 127.0.0.1 and a free port; `requests` lists the paths asked for. */
export async function serveStatic(root) {
  const requests = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    requests.push(path);
    let file = resolve(root, "." + path);
    if (!file.startsWith(resolve(root))) return void res.writeHead(403).end();
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
    if (!existsSync(file)) return void res.writeHead(404).end("not found");
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "cache-control": "no-store" });
    res.end(readFileSync(file));
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests,
    close: () => new Promise((ok) => server.close(ok)),
  };
}

/** Headless Chromium through playwright-core (Debian's Chromium; nothing is downloaded). */
export async function launchChromium() {
  const { chromium } = await import("playwright-core");
  return chromium.launch({ executablePath: CHROMIUM, args: ["--headless", ...CHROMIUM_ARGS] });
}

/** Skips browser tests when asked to (`cargo xtask test --skip-browser` sets PREDICTKIT_SKIP_BROWSER=1). */
export const SKIP_BROWSER = process.env.PREDICTKIT_SKIP_BROWSER === "1" && "PREDICTKIT_SKIP_BROWSER=1";

export async function getJson(path) {
  const response = await fetch(`${EMULATOR}${path}`);
  if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
  return response.json();
}

/**
 * A real token discovered from the emulator: the first CLOB market of GET /markets whose book has bids
 * and asks. Returns the token id, its condition id and the raw book.
 */
export async function discoverToken() {
  const { data } = await getJson("/markets");
  for (const market of data) {
    for (const { token_id: tokenId } of market.tokens ?? []) {
      const book = await getJson(`/book?token_id=${tokenId}`);
      if (book.bids.length > 0 && book.asks.length > 0) return { tokenId, conditionId: market.condition_id, book };
    }
  }
  throw new Error("no market of the first GET /markets page has a two-sided book");
}

/** The best bid of a raw book as the library reports it (levels at one price summed). */
export function expectedBestBid(book) {
  const price = Math.max(...book.bids.map((l) => Number(l.price)));
  const size = book.bids.filter((l) => Number(l.price) === price).reduce((s, l) => s + Number(l.size), 0);
  return { price, size: Math.round(size * 1e6) / 1e6 };
}

/** The line of README.md at which `index` is. */
const lineAt = (text, index) => text.slice(0, index).split("\n").length;

/**
 * The README's fenced code blocks: `{ lang, tags, code, line, output, outputLine }`. A block's info string
 * is its language followed by tags, e.g. ```js extension. `output` is the list of lines of the
 * `<!-- output … -->` comment right after the block (blank lines between allowed), which states what the
 * block prints (see tests/js/readme.test.mjs), and `outputLine` the line that comment starts on; both are
 * undefined when the block has none.
 */
export function readmeBlocks() {
  const text = readFileSync(join(REPO, "README.md"), "utf8");
  const blocks = [];
  const fence = /^```(\S*)([^\n]*)\n([\s\S]*?)^```\s*$/gm;
  const output = /\s*^<!-- output[ \t]*\n([\s\S]*?)^-->[ \t]*$/my;
  for (let m; (m = fence.exec(text));) {
    const block = {
      lang: m[1],
      tags: m[2].trim().split(/\s+/).filter(Boolean),
      code: m[3],
      line: lineAt(text, m.index),
      output: undefined,
      outputLine: undefined,
    };
    output.lastIndex = fence.lastIndex;
    const o = output.exec(text);
    if (o) {
      block.output = o[1] === "" ? [] : o[1].replace(/\n$/, "").split("\n");
      block.outputLine = lineAt(text, o.index + o[0].indexOf("<!--"));
      fence.lastIndex = output.lastIndex;
    }
    blocks.push(block);
  }
  return blocks;
}

/** The lines of README.md that open an `<!-- output` comment, attached to a block or not. */
export function readmeOutputLines() {
  const text = readFileSync(join(REPO, "README.md"), "utf8");
  return [...text.matchAll(/^<!-- output\b/gm)].map((m) => lineAt(text, m.index));
}

/** The one README block of a language with a tag, with the README's base URL replaced by `baseUrl` when given. */
export function readmeBlock(tag, baseUrl, lang = "js") {
  const found = readmeBlocks().filter((b) => b.lang === lang && b.tags.includes(tag));
  if (found.length !== 1) throw new Error(`README.md should have exactly one ${lang} block tagged "${tag}", has ${found.length}`);
  return baseUrl ? found[0].code.replaceAll(README_BASE_URL, baseUrl) : found[0].code;
}

/** Logs a duration in the TAP output. */
export function timed(label, started) {
  console.log(`${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
