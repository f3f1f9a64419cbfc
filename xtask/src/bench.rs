//! `cargo xtask bench`: builds the packages, then runs the order-book benchmark (bench/run.mjs), the
//! client and signing benchmark (bench/client.mjs) and the streaming benchmark (bench/stream.mjs) once
//! each in headless Chromium, printing times, ratios and the targets met or missed. Each fails when one of
//! its speed guards does (bench/guard.mjs: a ratio's median over paired rounds below its target by more
//! than the measured run-to-run spread); all three still run, and the command fails at the end naming
//! them. (`cargo xtask test` runs none of them.)

use std::process::Command;

use crate::{build, cmd, pkg_dir, root, setup, step, Result};

pub fn bench() -> Result<bool> {
    // The wasm tools, node_modules (esbuild, @polymarket/clob-client, playwright-core) and Chromium.
    setup::all(true)?;
    build()?;
    let t = step("order-book benchmark in headless Chromium (bench/run.mjs)");
    let book = cmd(Command::new("node")
        .arg(root().join("bench").join("run.mjs"))
        .current_dir(root())
        .env("PREDICTKIT_PKG_DIR", pkg_dir())
        .env("CHROMIUM", setup::chromium()));
    crate::done("bench", t);
    let emulator = crate::build_emulator()?;
    let t = step("client overhead and signing benchmark in headless Chromium (bench/client.mjs)");
    let client = cmd(Command::new("node")
        .arg(root().join("bench").join("client.mjs"))
        .current_dir(root())
        .env("PREDICTKIT_PKG_DIR", pkg_dir())
        .env("PREDICTKIT_EMULATOR_BIN", emulator)
        .env("CHROMIUM", setup::chromium()));
    crate::done("client bench", t);
    let t = step("streaming benchmark in headless Chromium (bench/stream.mjs)");
    let stream = cmd(Command::new("node")
        .arg(root().join("bench").join("stream.mjs"))
        .current_dir(root())
        .env("PREDICTKIT_PKG_DIR", pkg_dir())
        .env("CHROMIUM", setup::chromium()));
    crate::done("stream bench", t);
    let failed: Vec<&str> = [("bench/run.mjs", book), ("bench/client.mjs", client), ("bench/stream.mjs", stream)]
        .into_iter()
        .filter_map(|(name, result)| result.is_err().then_some(name))
        .collect();
    if !failed.is_empty() {
        return Err(format!("failed or below a speed guard (FAIL in its output): {}", failed.join(", ")));
    }
    Ok(true)
}
