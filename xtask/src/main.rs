//! `cargo xtask <command>`: set-up, build, test and demo orchestration for PredictKit.
//!
//! - `test`      set up, build, then run every suite and end with one `N passed, N failed` line
//! - `demo`      set up, build, and serve the demo page and the emulator (`--port N`, default 8787)
//! - `build`     build pkg/web, pkg/bundler and pkg/node and print their sizes
//! - `emulator`  run the emulator with the given arguments
//! - `setup`     install what the other commands need, and nothing else

mod bench;
mod names;
mod run;
mod setup;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

use run::{Emulator, Suite, Tally};

const WASM_TARGET: &str = "wasm32-unknown-unknown";
/// How much the burst test's emulator scales the §8 capacities (kept in step with the test's budgets).
const LIMITED_SCALE: &str = "10";
/// One wasm build of the library: its cargo features, and the wasm-bindgen targets (with the pkg/ folder
/// each is written to) made from it.
struct Build {
    name: &'static str,
    cargo_args: &'static [&'static str],
    targets: &'static [(&'static str, &'static str)],
}

/// The whole SDK for every runtime, and two lighter builds for pages, by use (issue 34): `predictkit/lite`,
/// what a page that reads and uses the book engine loads (no streaming, no trading), and `predictkit/live`,
/// what a page that also follows markets live loads (streaming, no trading).
const BUILDS: [Build; 3] = [
    Build { name: "full", cargo_args: &[], targets: &[("web", "web"), ("bundler", "bundler"), ("nodejs", "node")] },
    Build {
        name: "lite",
        cargo_args: &["--no-default-features", "--features", "small-sha256"],
        targets: &[("web", "lite")],
    },
    Build {
        name: "live",
        cargo_args: &["--no-default-features", "--features", "stream,small-sha256"],
        targets: &[("web", "live")],
    },
];

/// The gzip bytes a page loads (wasm, glue, snippets and the entry files), per pkg/ folder: the build fails
/// above `ceiling`. Issue 16 sets the targets (the whole SDK 80 KB, a reading page 60 KB); until they are
/// met the ceilings sit a little above the last measure, so that nothing grows unnoticed: raising one is a
/// decision, made in its own change with the reason.
struct SizeBudget {
    dir: &'static str,
    ceiling: u64,
    target: u64,
    /// The kind of page the build is for, when it is one, and issue 34's target for it (its `size reading`,
    /// `size live` and `size trading` lines): reading 85,000, live 110,000, trading 155,000.
    page: Option<(&'static str, u64)>,
}

// The full builds' ceilings rose from 148,500 with the order handle (src/trade/placing.rs): 3.3 KB gzip for
// an order that crosses the boundary 5 to 7 times less (bench/crossings.md) and trading's decisions in the
// core; the whole SDK (150,838) is still 1 KB under where issue 26 began (151,840). Lite: lowered from 101,000.
// Then up by 1,000 (full) and 500 (lite) for the six account methods of issue 27 (cancelOrders, cancelAll,
// isOrderScoring, areOrdersScoring, getBalanceAllowance, updateBalanceAllowance): 1,260 B gzip in web, 1,004 B
// in lite, measured with nothing else changed. And by 500 (full) and 1,000 (lite) for the service's restart
// and pause answers (ENGINE_RESTARTING, TRADING_PAUSED with its mode, the body's retry_after_seconds): 814 B
// in web, 1,243 B in lite (most of it the body reader, which lite shares). Lite to 98,000 for the retry that
// would pass the call's deadline ending at once (74 B). Full builds to 155,000 for deposit wallets (POLY_1271:
// the TypedDataSign the owner signs, the wrapped signature made and read back): 2,000 B gzip in web. Then to
// 157,000 and 100,000 for the service's rate-limit headers (read, told to onEvent, a spent bucket held): 2,016 B
// in web, 1,875 B in lite, more than their code's share (the call machine's `supply` grew 387 B raw and its
// neighbours were inlined differently); to be won back with the rest of issue 26's size work. Full builds to
// 157,500 for the third exchange (a position's order version, its domain and contracts): 418 B in web. Then
// 158,000 and 101,000 for `error.finding` (four refusals mapped to their fix, the texts mostly): 734 B in web,
// 636 B in lite. Full builds to 166,500 for the account doctor (`diagnoseAccount`: the owner's proxy, Safe and
// deposit wallet by CREATE2, the examination's state machine and its eleven findings with their fixes, the
// binding's handle and trade.mjs's loop over the provider and the balance reads): 8,000 B gzip in web (7,558 of
// it wasm), measured with nothing else changed; lite is unchanged but for one more refusal text (107 B).
// Full builds to 169,500 for the dead-man switch (`heartbeats()`: the core's switch, its binding handle, the
// heartbeat's answer read whatever its status, the driver's loop): 3,276 B gzip in web; lite carries the
// driver's loop (driver.js is one file for every build) for 337 B, within its ceiling.
// Full builds to 176,500 for following orders (`trackOrder`, `waitForSettlement`: the core's tracker merging the
// post answer, the user channel and the reads, its handle, and trade.mjs's loop and iterator): 6,556 B gzip in web
// (5,438 of it wasm). Then 177,000 for the review's fixes to the three: a heartbeat's own deadline, the doctor's
// wrong-chain and dead-provider rules, the tracker's polls after a drop, retried trades, and reads abandoned on
// stop (593 B in web).
// The live build (issue 34: streams without trading) starts with a ceiling a little above what it measured
// when it was made (122,488 B), as the others did.
const SIZE_BUDGETS: [SizeBudget; 5] = [
    SizeBudget { dir: "web", ceiling: 177_000, target: 80_000, page: Some(("trading", 155_000)) },
    SizeBudget { dir: "bundler", ceiling: 177_000, target: 80_000, page: None },
    SizeBudget { dir: "node", ceiling: 177_000, target: 80_000, page: None },
    SizeBudget { dir: "lite", ceiling: 101_000, target: 60_000, page: Some(("reading", 85_000)) },
    SizeBudget { dir: "live", ceiling: 123_000, target: 110_000, page: Some(("live", 110_000)) },
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives inside the workspace").to_path_buf()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (command, rest) = match args.split_first() {
        Some((c, rest)) => (c.as_str(), rest),
        None => ("help", &[][..]),
    };
    let result = match command {
        "test" => test(rest),
        "demo" => demo(rest),
        "build" => setup::wasm_tools().and_then(|_| build()),
        "bench" => bench::bench(),
        "emulator" => emulator(rest),
        "setup" => setup::all(true),
        _ => {
            eprintln!(
                "usage: cargo xtask <test [--skip-browser] | demo [--port N] | build | bench | emulator [ARGS] | setup>"
            );
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("xtask {command}: {message}");
            ExitCode::FAILURE
        }
    }
}

pub type Result<T> = std::result::Result<T, String>;

/// Runs a command to completion, failing on a non-zero exit.
pub fn cmd(command: &mut Command) -> Result<()> {
    let shown = format!("{command:?}");
    let status = command.status().map_err(|e| format!("cannot run {shown}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{shown} failed ({status})"))
    }
}

/// Cargo's target folder (CARGO_TARGET_DIR, else target/).
pub(crate) fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| root().join("target"))
}

/// Where the packages are built (PREDICTKIT_PKG_DIR, else pkg/); tests load them from there.
fn pkg_dir() -> PathBuf {
    std::env::var_os("PREDICTKIT_PKG_DIR").map(PathBuf::from).unwrap_or_else(|| root().join("pkg"))
}

fn cargo() -> Command {
    let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.current_dir(root());
    c
}

fn step(name: &str) -> Instant {
    eprintln!("==> {name}");
    Instant::now()
}

fn done(name: &str, started: Instant) {
    eprintln!("    {name} took {:.1} s", started.elapsed().as_secs_f64());
}

/// Builds the wasm in release, runs wasm-bindgen for every target, optimizes with wasm-opt and prints sizes.
fn build() -> Result<bool> {
    let root = root();
    let bindgen = setup::tools_bin().join("wasm-bindgen");
    let wasm_opt = root.join("node_modules").join(".bin").join("wasm-opt");
    // The licences travel with the package (npm packs LICENSE* files of the package folder).
    for licence in ["LICENSE-MIT", "LICENSE-APACHE"] {
        let to = pkg_dir().join(licence);
        std::fs::create_dir_all(pkg_dir()).map_err(|e| format!("cannot create {}: {e}", pkg_dir().display()))?;
        std::fs::copy(root.join(licence), &to).map_err(|e| format!("cannot copy {licence}: {e}"))?;
    }
    // The shipped wasm is built by the pinned nightly, in a target folder of its own (setup::NIGHTLY).
    let nightly = setup::nightly();
    let wasm_target_dir = if nightly { target_dir().join("nightly") } else { target_dir() };
    for build in &BUILDS {
        let t = step(&format!("build wasm (release, {})", build.name));
        let mut c = if nightly {
            let mut c = Command::new("rustup");
            c.args(["run", setup::NIGHTLY, "cargo"]).current_dir(&root);
            // (The variables the stable cargo set for this process name the stable toolchain's tools.)
            for name in ["CARGO", "RUSTC", "RUSTDOC", "RUSTUP_TOOLCHAIN"] {
                c.env_remove(name);
            }
            c
        } else {
            cargo()
        };
        c.args(["build", "--release", "--target", WASM_TARGET, "-p", "predictkit"]).args(build.cargo_args);
        if nightly {
            c.args(["-Zbuild-std=std,panic_abort", "--target-dir"]).arg(&wasm_target_dir);
            c.env(WASM_RUSTFLAGS, format!("{} {}", setup::NIGHTLY_RUSTFLAGS, remapped_paths()));
        } else {
            c.env(WASM_RUSTFLAGS, remapped_paths());
        }
        cmd(&mut c)?;
        // Each build keeps its own copy: the next cargo build overwrites predictkit.wasm.
        let release = wasm_target_dir.join(WASM_TARGET).join("release");
        let wasm = release.join(format!("predictkit-{}.wasm", build.name));
        std::fs::copy(release.join("predictkit.wasm"), &wasm).map_err(|e| format!("cannot copy the wasm: {e}"))?;
        // The outputs depend only on the wasm (which embeds the JS snippets) and on these steps.
        let stamp = stamp_of(&wasm)?;
        for &(target, dir) in build.targets {
            let out = pkg_dir().join(dir);
            let stamp_file = stamp_path(&out);
            if out.join("predictkit_bg.wasm").exists() && std::fs::read_to_string(&stamp_file).is_ok_and(|s| s == stamp)
            {
                continue;
            }
            if out.exists() {
                std::fs::remove_dir_all(&out).map_err(|e| format!("cannot clear {}: {e}", out.display()))?;
            }
            // --out-name keeps the file names of every build the same (predictkit.js, predictkit_bg.wasm).
            cmd(Command::new(&bindgen)
                .arg("--target")
                .arg(target)
                .args(["--out-name", "predictkit", "--out-dir"])
                .arg(&out)
                .arg(&wasm))?;
            // One or two letters for the import and export names, in the wasm and the glue alike.
            names::shorten(&out, target)?;
            minify_js(&out)?;
            let bg = out.join("predictkit_bg.wasm");
            // Merging functions that differ only in constants first: 0.3 KB gzip less than -Oz alone; the
            // whole-program passes (GUFA, dead arguments, inlining) another 0.3 KB. The producers and
            // target-features sections are for the tools before this one: a page needs neither. Then the
            // control flow rebuilt (flatten, rereloop) and -Oz run to a fixed point, in a second run of its own:
            // 1.3 KB less (measured with `cargo xtask bench` at the book engine's speed of before).
            cmd(Command::new(&wasm_opt)
                .args(["--merge-similar-functions", "--gufa-optimizing", "--dae-optimizing", "--inlining-optimizing"])
                .args(["-Oz", "--flatten", "--rereloop", "-Oz", "-Oz", "--strip-producers", "--strip-target-features"])
                .args(WASM_FEATURES)
                .arg(&bg)
                .arg("-o")
                .arg(&bg))?;
            cmd(Command::new(&wasm_opt).args(["-Oz", "--converge"]).args(WASM_FEATURES).arg(&bg).arg("-o").arg(&bg))?;
            std::fs::write(&stamp_file, &stamp).map_err(|e| format!("cannot write {}: {e}", stamp_file.display()))?;
        }
        done(&format!("build ({})", build.name), t);
    }
    package_entries()?;
    example_extension()?;
    let mut within = true;
    for budget in &SIZE_BUDGETS {
        // What a page (or Node) loads besides the build: the package's entry files for it.
        let (entry, trading) = match budget.dir {
            "web" => ("index.mjs", true),
            "bundler" => ("bundler.mjs", true),
            "lite" => ("lite.mjs", false),
            "live" => ("live.mjs", false),
            _ => ("node.cjs", true),
        };
        let mut entries = vec![entry, "client.mjs", "pages.mjs", "guard.mjs", "rounding-config.mjs"];
        if trading {
            entries.extend(["trade.mjs", "signers.mjs"]);
        }
        let entries: Vec<PathBuf> = entries.iter().map(|f| pkg_dir().join(f)).collect();
        let (line, gzip) = run::size_line(&pkg_dir().join(budget.dir), budget.dir, &entries)?;
        let verdict = if gzip > budget.ceiling {
            within = false;
            "OVER its ceiling"
        } else {
            "within its ceiling"
        };
        println!("{line}: {verdict} of {} B (target {} B)", budget.ceiling, budget.target);
        // (The live build's own line is its page's.)
        if let Some((page, target)) = budget.page.filter(|(page, _)| *page != budget.dir) {
            let met = if gzip <= target { "within" } else { "above" };
            println!(
                "size {page}: {gzip} B gzip, all a {page} page loads ({}): {met} its target of {target} B",
                budget.dir
            );
        }
    }
    if !within && !nightly {
        // The ceilings are the shipped build's, which the pinned nightly makes: a stable build is larger by
        // about 7 KB gzip, and passes only when asked for.
        if std::env::var_os("PREDICTKIT_ALLOW_STABLE").is_some() {
            eprintln!("xtask build: over a size ceiling, built without {} (PREDICTKIT_ALLOW_STABLE)", setup::NIGHTLY);
            return Ok(true);
        }
        eprintln!(
            "xtask build: over a size ceiling, built without {} (see the warning above; PREDICTKIT_ALLOW_STABLE=1 \
             accepts a stable build's sizes)",
            setup::NIGHTLY
        );
    }
    if !within {
        eprintln!("xtask build: a build is over its size ceiling (SIZE_BUDGETS in xtask/src/main.rs)");
    }
    Ok(within)
}

/// The example extension (examples/extension/) loads the package as a page does: its entry files and the web
/// build, copied into its `predictkit/` folder (ignored by git) after each build, and the page's `format.js`.
fn example_extension() -> Result<()> {
    let to = root().join("examples").join("extension").join("predictkit");
    if to.exists() {
        std::fs::remove_dir_all(&to).map_err(|e| format!("cannot clear {}: {e}", to.display()))?;
    }
    copy_tree(&pkg_dir(), &to, &|path| {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        !(path.is_dir() && ["node", "bundler", "lite", "live"].contains(&name)) && !name.ends_with(".cjs")
    })?;
    // The demo page's way of writing prices and sizes: one file, which the extension loads from its own folder.
    let (from, to) =
        (root().join("www").join("format.js"), root().join("examples").join("extension").join("format.js"));
    std::fs::copy(&from, &to).map_err(|e| format!("cannot copy {}: {e}", from.display()))?;
    Ok(())
}

/// Copies the folder `from` into `to`, each entry that `keep` keeps.
fn copy_tree(from: &Path, to: &Path, keep: &dyn Fn(&Path) -> bool) -> Result<()> {
    std::fs::create_dir_all(to).map_err(|e| format!("cannot create {}: {e}", to.display()))?;
    for entry in std::fs::read_dir(from).map_err(|e| format!("cannot list {}: {e}", from.display()))?.flatten() {
        let path = entry.path();
        if !keep(&path) {
            continue;
        }
        let target = to.join(entry.file_name());
        if path.is_dir() {
            copy_tree(&path, &target, keep)?;
        } else {
            std::fs::copy(&path, &target).map_err(|e| format!("cannot copy {}: {e}", path.display()))?;
        }
    }
    Ok(())
}

/// Where the stamp of a package folder is kept: under target/, never inside the package.
fn stamp_path(out: &Path) -> PathBuf {
    let name: String = out.to_string_lossy().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    let dir = target_dir().join("pkg-stamps");
    let _ = std::fs::create_dir_all(&dir);
    dir.join(name)
}

/// What the generated packages are made from: the wasm's bytes (hashed) and the steps' version.
fn stamp_of(wasm: &Path) -> Result<String> {
    use std::hash::{Hash, Hasher};
    let bytes = std::fs::read(wasm).map_err(|e| format!("cannot read {}: {e}", wasm.display()))?;
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut hasher);
    // Bump when the bindgen, short-names, wasm-opt or minify steps change.
    Ok(format!("steps 6, wasm {} bytes, hash {:016x}\n", bytes.len(), hasher.finish()))
}

/// The package's entry files (`src/js/package/`: the entries, the REST methods, the guard, the signer
/// adapters), minified into the package folder: every page loads them, and their comments are for
/// the people who edit them (2.3 KB gzip of the 4.2 KB they were). Their declarations are written by hand in
/// pkg/.
fn package_entries() -> Result<()> {
    let sources = root().join("src").join("js").join("package");
    for entry in std::fs::read_dir(&sources).map_err(|e| format!("cannot list {}: {e}", sources.display()))?.flatten() {
        let path = entry.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()).map(str::to_owned) else { continue };
        let format = match path.extension().and_then(|x| x.to_str()) {
            Some("mjs") => "esm",
            Some("cjs") => "cjs",
            _ => continue,
        };
        minify(&path, &pkg_dir().join(&name), &[&format!("--format={format}")])?;
    }
    Ok(())
}

/// Minifies every generated .js in `dir` (the glue and its snippets) in place. The documentation ships in
/// the .d.ts, where editors read it; the JS that every page downloads needs none of it.
fn minify_js(dir: &Path) -> Result<()> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d).map_err(|e| format!("cannot list {}: {e}", d.display()))?.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|x| x == "js") {
                files.push(path);
            }
        }
    }
    for file in files {
        minify(&file, &file, &["--allow-overwrite"])?;
    }
    Ok(())
}

/// `from` minified by esbuild into `to` (es2020: the browsers the README lists), without legal comments.
fn minify(from: &Path, to: &Path, extra: &[&str]) -> Result<()> {
    let esbuild = root().join("node_modules").join(".bin").join("esbuild");
    cmd(Command::new(esbuild)
        .arg(from)
        .args(["--minify", "--legal-comments=none", "--log-level=warning", "--target=es2020"])
        .args(extra)
        .arg(format!("--outfile={}", to.display())))
}

/// Rust flags of the release wasm builds (for that target only: native builds keep their cache).
const WASM_RUSTFLAGS: &str = "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS";

/// `--remap-path-prefix` flags that write the crates' sources as `crates/<name>-<version>/...` and the project's
/// as `predictkit/...` in the panic locations a release wasm keeps: the build machine's paths (its user's home,
/// its registry's index name) are nobody's business, and shorter in every page's download. Space-separated, as
/// the variable takes them (no path here has a space; one that does is left as it is).
fn remapped_paths() -> String {
    let mut flags = Vec::new();
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")));
    if let Some(src) = home.map(|h| h.join("registry").join("src")) {
        for index in std::fs::read_dir(&src).into_iter().flatten().flatten() {
            flags.push(format!("--remap-path-prefix={}=crates", index.path().display()));
        }
    }
    flags.push(format!("--remap-path-prefix={}=predictkit", root().display()));
    flags.retain(|f| !f.contains(' '));
    flags.join(" ")
}

/// The features Rust enables by default for wasm32-unknown-unknown, which wasm-opt must accept.
const WASM_FEATURES: [&str; 6] = [
    "--enable-bulk-memory",
    "--enable-nontrapping-float-to-int",
    "--enable-sign-ext",
    "--enable-mutable-globals",
    "--enable-reference-types",
    "--enable-multivalue",
];

pub(crate) fn build_emulator() -> Result<PathBuf> {
    cmd(cargo().args(["build", "--quiet", "-p", "predictkit-emulator"]))?;
    Ok(target_dir().join("debug").join(format!("predictkit-emulator{}", std::env::consts::EXE_SUFFIX)))
}

fn emulator(args: &[String]) -> Result<bool> {
    let bin = build_emulator()?;
    cmd(Command::new(bin).args(args).current_dir(root()))?;
    Ok(true)
}

fn demo(args: &[String]) -> Result<bool> {
    let mut port = "8787".to_owned();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--port" => port = it.next().ok_or("--port needs a value")?.clone(),
            other => return Err(format!("unknown argument {other} (usage: cargo xtask demo [--port N])")),
        }
    }
    setup::all(false)?;
    build()?;
    let bin = build_emulator()?;
    eprintln!("==> serving the demo (Ctrl-C to stop)");
    // The emulator stops when its standard input closes: this process holds the other end, so however it ends
    // (Ctrl-C, SIGTERM, SIGKILL) the emulator does not stay on the port.
    let mut child = Command::new(bin)
        .args(["--port", &port, "--www", "www", "--exit-with-stdin", "--pkg"])
        .arg(pkg_dir())
        .current_dir(root())
        .stdin(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start the emulator: {e}"))?;
    let _stdin = child.stdin.take();
    let status = child.wait().map_err(|e| format!("cannot wait for the emulator: {e}"))?;
    if !status.success() {
        return Err(format!("the emulator ended with {status}"));
    }
    Ok(true)
}

/// Whether this Node has no global WebSocket unless `--experimental-websocket` is given (Node 20).
fn node_needs_websocket_flag() -> bool {
    let has = |args: &[&str]| {
        Command::new("node").args(args).output().is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "function")
    };
    !has(&["-p", "typeof WebSocket"]) && has(&["--experimental-websocket", "-p", "typeof WebSocket"])
}

/// The wasm test targets: tests/wasm*.rs.
fn wasm_test_targets(root: &Path) -> Result<Vec<String>> {
    let dir = root.join("tests");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map_err(|e| format!("cannot list {}: {e}", dir.display()))?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".rs").filter(|n| n.starts_with("wasm")).map(str::to_owned))
        .collect();
    names.sort();
    Ok(names)
}

fn test(args: &[String]) -> Result<bool> {
    let skip_browser = args.iter().any(|a| a == "--skip-browser");
    let started = Instant::now();
    setup::all(!skip_browser)?;
    let within_budget = build()?;
    let root = root();
    let mut tally = Tally::default();
    // The size ceilings count as one test: a build that grew past them fails the run.
    tally.add(Suite {
        name: "size",
        passed: u64::from(within_budget),
        failed: u64::from(!within_budget),
        note: (!within_budget).then(|| "a build is over its size ceiling".to_owned()),
    });

    let t = step("TypeScript declarations (tsc --strict --noEmit tests/types)");
    tally.add(Suite::run_checked(
        "types",
        Command::new("node").arg(root.join("node_modules/typescript/bin/tsc")).arg("-p").arg(root.join("tests/types")),
    ));
    done("type test", t);

    // The hand-written JS (the wasm snippets and the package's files), by its JSDoc.
    let t = step("JS type check (tsc --strict --checkJs tests/jscheck)");
    tally.add(Suite::run_checked(
        "jscheck",
        Command::new("node")
            .arg(root.join("node_modules/typescript/bin/tsc"))
            .arg("-p")
            .arg(root.join("tests/jscheck")),
    ));
    done("JS type check", t);

    // src/lib.rs denies unwrap, expect, panics and indexing in library code; clippy enforces it. The wasm
    // target compiles the core and the binding alike.
    let t = step("lint: no panic paths in library code (cargo clippy, wasm32)");
    tally.add(Suite::run_checked(
        "lint",
        cargo().args(["clippy", "--quiet", "-p", "predictkit", "--lib", "--target", WASM_TARGET]),
    ));
    done("lint", t);

    // One formatting for the whole workspace (rustfmt.toml); the fuzz crate has its own lock file and
    // toolchain, and is formatted with it.
    let t = step("format (cargo fmt --check)");
    tally.add(Suite::run_checked("format", cargo().args(["fmt", "--all", "--", "--check"])));
    done("format", t);

    let t = step("native tests (cargo test --workspace)");
    tally.add(Suite::run("native", cargo().args(["test", "--workspace", "--color", "never"])));
    done("native tests", t);

    let emulator_bin = build_emulator()?;
    // The suites share one emulator without rate limits (many clients from one address would trip them);
    // the burst test has its own, enforcing the §8 limits scaled up tenfold.
    let emu = Emulator::start(&emulator_bin, &root, &pkg_dir(), &["--no-limits"])?;
    let limited = Emulator::start(&emulator_bin, &root, &pkg_dir(), &["--limits-scale", LIMITED_SCALE])?;
    eprintln!("    emulators at {} and (rate-limited) {}", emu.url, limited.url);

    let wasm_tests = wasm_test_targets(&root)?;
    let wasm_test = |browser: bool| {
        let mut c = cargo();
        c.args(["test", "--target", WASM_TARGET, "-p", "predictkit"]);
        for name in &wasm_tests {
            c.args(["--test", name]);
        }
        c.env("PREDICTKIT_EMULATOR_URL", &emu.url).env("WASM_BINDGEN_TEST_TIMEOUT", "60");
        if browser {
            c.env("WASM_BINDGEN_USE_BROWSER", "1").env("CHROMEDRIVER", setup::chromedriver());
        }
        c
    };
    if !skip_browser {
        let t = step("wasm tests in headless Chromium");
        tally.add(Suite::run("wasm-chromium", &mut wasm_test(true)));
        done("wasm tests in Chromium", t);
    }
    let t = step("wasm tests in Node");
    tally.add(Suite::run("wasm-node", &mut wasm_test(false)));
    done("wasm tests in Node", t);

    // Node 20 has WebSocket only behind a flag (Node 22 on): the stream tests use the global one.
    let websocket_flag = node_needs_websocket_flag();
    let node_test = |dir: &str| {
        let mut c = Command::new("node");
        if websocket_flag {
            c.arg("--experimental-websocket");
        }
        c.args(["--test", "--test-reporter=tap", "--test-concurrency=1"])
            .arg(root.join("tests").join(dir))
            .current_dir(&root)
            .env("PREDICTKIT_EMULATOR_URL", &emu.url)
            .env("PREDICTKIT_LIMITED_EMULATOR_URL", &limited.url)
            .env("PREDICTKIT_LIMITED_SCALE", LIMITED_SCALE)
            .env("PREDICTKIT_PKG_DIR", pkg_dir())
            .env("PREDICTKIT_EMULATOR_BIN", &emulator_bin)
            .env("CHROMIUM", setup::chromium());
        c
    };
    let t = step("JS tests against pkg/ (node --test)");
    tally.add(Suite::run("js", &mut node_test("js")));
    done("JS tests", t);
    let t = step("package tests (npm pack, publint, attw, tsc; Node, Vite, page, worker, extension)");
    let mut package = node_test("package");
    if skip_browser {
        package.env("PREDICTKIT_SKIP_BROWSER", "1");
    }
    tally.add(Suite::run("package", &mut package));
    done("package tests", t);
    if !skip_browser {
        let t = step("browser tests of www/ (playwright-core + Chromium)");
        tally.add(Suite::run("browser", &mut node_test("browser")));
        done("browser tests", t);
    }
    drop(emu);
    drop(limited);

    tally.print();
    eprintln!("    cargo xtask test took {:.1} s", started.elapsed().as_secs_f64());
    println!("{} passed, {} failed", tally.passed, tally.failed);
    Ok(tally.failed == 0)
}
