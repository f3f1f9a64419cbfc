//! Installing what the build and the tests need, quickly and idempotently: the wasm32 target, the
//! wasm-bindgen CLI at Cargo.lock's exact version, Chromium and chromedriver, and the npm dev tools.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{cargo, cmd, root, Result, WASM_TARGET};

/// The project-local tools folder.
pub fn tools_bin() -> PathBuf {
    root().join(".tools").join("bin")
}

pub fn chromium() -> PathBuf {
    std::env::var_os("CHROMIUM").map(PathBuf::from).unwrap_or_else(|| "/usr/bin/chromium".into())
}

pub fn chromedriver() -> PathBuf {
    std::env::var_os("CHROMEDRIVER").map(PathBuf::from).unwrap_or_else(|| "/usr/bin/chromedriver".into())
}

/// Everything; the browser only when `browser` is set (the demo needs none).
pub fn all(browser: bool) -> Result<bool> {
    wasm_tools()?;
    if browser {
        browser_tools()?;
    }
    Ok(true)
}

/// The wasm target, the wasm-bindgen CLI, the npm dev tools (wasm-opt, playwright-core, tsc) and the pinned
/// nightly that builds the shipped wasm.
pub fn wasm_tools() -> Result<()> {
    wasm_target()?;
    wasm_bindgen_cli()?;
    node_modules()?;
    nightly();
    Ok(())
}

/// The nightly toolchain, pinned by date, that builds the wasm the package ships (and only that: everything else,
/// tests included, is built with the stable toolchain). It rebuilds `std` for the wasm with
/// `panic=immediate-abort` and without panic locations or `Debug` formatting, which stable's prebuilt `std` keeps:
/// about 7 KB gzip less in every build (measured in the README).
pub const NIGHTLY: &str = "nightly-2026-10-30";

/// The flags of the nightly wasm build, besides the remapped paths.
pub const NIGHTLY_RUSTFLAGS: &str =
    "-Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none -Zfmt-debug=none";

/// Whether the pinned nightly, with `rust-src` and the wasm target, is here: installed by rustup when it is not.
/// When it cannot be had, the wasm is built with the stable toolchain, with a warning (once per process).
pub fn nightly() -> bool {
    static READY: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *READY.get_or_init(|| {
        // (`PREDICTKIT_WASM_TOOLCHAIN=stable` builds with the stable toolchain, to measure what the nightly changes.)
        if std::env::var("PREDICTKIT_WASM_TOOLCHAIN").is_ok_and(|t| t == "stable") {
            eprintln!("warning: the wasm is built with the stable toolchain (PREDICTKIT_WASM_TOOLCHAIN)");
            return false;
        }
        let ready = || {
            output(Command::new("rustup").args(["run", NIGHTLY, "rustc", "--print", "sysroot"])).is_some_and(|root| {
                let rustlib = Path::new(root.trim()).join("lib").join("rustlib");
                rustlib.join("src").join("rust").join("library").exists() && rustlib.join(WASM_TARGET).exists()
            })
        };
        if ready() {
            return true;
        }
        eprintln!("==> rustup toolchain install {NIGHTLY} (rust-src, {WASM_TARGET}): the shipped wasm's build");
        let installed = Command::new("rustup")
            .args(["toolchain", "install", NIGHTLY, "--profile", "minimal", "--component", "rust-src"])
            .args(["--target", WASM_TARGET])
            .status()
            .is_ok_and(|s| s.success());
        if installed && ready() {
            return true;
        }
        eprintln!(
            "warning: {NIGHTLY} could not be installed: the wasm is built with the stable toolchain, about 7 KB gzip \
             larger than the package ships (over a ceiling, the build fails unless PREDICTKIT_ALLOW_STABLE is set)"
        );
        false
    })
}

fn output(command: &mut Command) -> Option<String> {
    let out = command.output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

fn wasm_target() -> Result<()> {
    let installed = output(Command::new("rustup").args(["target", "list", "--installed"]))
        .ok_or("cannot run `rustup target list`: is rustup installed?")?;
    if installed.lines().any(|l| l.trim() == WASM_TARGET) {
        return Ok(());
    }
    eprintln!("==> rustup target add {WASM_TARGET}");
    cmd(Command::new("rustup").args(["target", "add", WASM_TARGET]))
}

/// The version of a package in Cargo.lock.
fn locked_version(package: &str) -> Result<String> {
    let lock =
        std::fs::read_to_string(root().join("Cargo.lock")).map_err(|e| format!("cannot read Cargo.lock: {e}"))?;
    let needle = format!("name = \"{package}\"\nversion = \"");
    let start = lock.find(&needle).ok_or(format!("{package} is not in Cargo.lock"))? + needle.len();
    let len = lock[start..].find('"').ok_or("Cargo.lock is malformed")?;
    Ok(lock[start..start + len].to_owned())
}

fn reports_version(bin: &Path, version: &str) -> bool {
    output(Command::new(bin).arg("--version")).is_some_and(|v| v.split_whitespace().nth(1) == Some(version))
}

/// wasm-bindgen and its test runner at exactly Cargo.lock's version, in .tools/bin, built from tools/wasm-bindgen with
/// `--locked` so that Cargo.lock pins every crate in them. (`cargo install wasm-bindgen-cli --locked` cannot work: the
/// published CLI's own lock file names webpki-roots 1.0.11, which the registry does not serve.) A per-user cache keeps
/// the built binaries so that a fresh clone does not compile them again; its folder is named after the version and
/// `-locked`, so that binaries built without the lock file by older set-ups are not reused.
fn wasm_bindgen_cli() -> Result<()> {
    let version = locked_version("wasm-bindgen")?;
    let key = format!("wasm-bindgen-cli-{version}-locked");
    let tools = tools_bin();
    let stamp = tools.join(".wasm-bindgen-cli");
    let bins = ["wasm-bindgen", "wasm-bindgen-test-runner"];
    let current = |dir: &Path| bins.iter().all(|bin| reports_version(&dir.join(bin), &version));
    if std::fs::read_to_string(&stamp).is_ok_and(|s| s == key) && current(&tools) {
        return Ok(());
    }
    let cache = cache_dir().join(&key);
    if !current(&cache.join("bin")) {
        eprintln!("==> cargo install --locked --path tools/wasm-bindgen ({version}; once per machine; a few minutes)");
        // The workspace's release profile is the library's (size, fat LTO, one codegen unit, abort on panic): the CLI
        // is built as `cargo install wasm-bindgen-cli` would build it instead.
        cmd(cargo()
            .args(["install", "--locked", "--force", "--path"])
            .arg(root().join("tools").join("wasm-bindgen"))
            .arg("--root")
            .arg(&cache)
            .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "3")
            .env("CARGO_PROFILE_RELEASE_LTO", "false")
            .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16")
            .env("CARGO_PROFILE_RELEASE_PANIC", "unwind"))?;
        if !current(&cache.join("bin")) {
            return Err(format!(
                "{} does not hold wasm-bindgen {version}: is tools/wasm-bindgen's pin Cargo.lock's?",
                cache.display()
            ));
        }
    }
    std::fs::create_dir_all(&tools).map_err(|e| format!("cannot create {}: {e}", tools.display()))?;
    for bin in bins {
        let from = cache.join("bin").join(bin);
        std::fs::copy(&from, tools.join(bin)).map_err(|e| format!("cannot copy {}: {e}", from.display()))?;
    }
    std::fs::write(&stamp, key).map_err(|e| format!("cannot write {}: {e}", stamp.display()))
}

fn cache_dir() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(|| root().join(".tools").join("cache"));
    base.join("predictkit")
}

/// `npm ci` when node_modules does not match package-lock.json.
fn node_modules() -> Result<()> {
    let root = root();
    let lock =
        std::fs::read(root.join("package-lock.json")).map_err(|e| format!("cannot read package-lock.json: {e}"))?;
    let stamp = root.join("node_modules").join(".predictkit-package-lock.json");
    if std::fs::read(&stamp).is_ok_and(|s| s == lock) && root.join("node_modules/.bin/wasm-opt").exists() {
        return Ok(());
    }
    eprintln!("==> npm ci");
    cmd(Command::new("npm").args(["ci", "--no-audit", "--no-fund"]).current_dir(&root))?;
    std::fs::write(&stamp, lock).map_err(|e| format!("cannot write {}: {e}", stamp.display()))
}

/// Debian's Chromium and chromedriver, installed with apt when missing and allowed.
fn browser_tools() -> Result<()> {
    let (chromium, driver) = (chromium(), chromedriver());
    if chromium.exists() && driver.exists() {
        return Ok(());
    }
    let root_user = output(Command::new("id").arg("-u")).is_some_and(|u| u.trim() == "0");
    let debian = Path::new("/etc/debian_version").exists();
    if !(root_user && debian) {
        return Err(format!(
            "Chromium and chromedriver are needed at {} and {} (or set CHROMIUM and CHROMEDRIVER). \
             On Debian or Ubuntu: sudo apt-get install chromium chromium-driver",
            chromium.display(),
            driver.display()
        ));
    }
    eprintln!("==> apt-get install chromium chromium-driver");
    cmd(Command::new("apt-get").arg("update").arg("-qq"))?;
    cmd(Command::new("apt-get")
        .args(["install", "-y", "-qq", "--no-install-recommends", "chromium", "chromium-driver"])
        .env("DEBIAN_FRONTEND", "noninteractive"))
}
