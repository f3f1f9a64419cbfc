//! `cargo xtask bench`: builds the packages, then runs the order-book benchmark (bench/run.mjs), the
//! client and signing benchmark (bench/client.mjs) and the streaming benchmark (bench/stream.mjs) once
//! each in headless Chromium, printing times, ratios and the targets met or missed. The order-book benchmark
//! fails when a ratio falls more than 10% below the README's table (bench/book-table.mjs); the other two
//! still run, and the command fails at the end. (`cargo xtask test` runs none of them.)

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
    cmd(Command::new("node")
        .arg(root().join("bench").join("client.mjs"))
        .current_dir(root())
        .env("PREDICTKIT_PKG_DIR", pkg_dir())
        .env("PREDICTKIT_EMULATOR_BIN", emulator)
        .env("CHROMIUM", setup::chromium()))?;
    crate::done("client bench", t);
    let t = step("streaming benchmark in headless Chromium (bench/stream.mjs)");
    cmd(Command::new("node")
        .arg(root().join("bench").join("stream.mjs"))
        .current_dir(root())
        .env("PREDICTKIT_PKG_DIR", pkg_dir())
        .env("CHROMIUM", setup::chromium()))?;
    crate::done("stream bench", t);
    book.map_err(|e| format!("the order-book benchmark failed or fell below the README's table: {e}"))?;
    Ok(true)
}
