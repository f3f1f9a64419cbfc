//! Running test suites and counting their results; the emulator as a child process; size lines.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use flate2::write::GzEncoder;
use flate2::Compression;

use crate::Result;

/// One suite's counts.
pub struct Suite {
    pub name: &'static str,
    pub passed: u64,
    pub failed: u64,
    pub note: Option<String>,
}

impl Suite {
    /// Runs a test command, echoing its output, and counts results from the closing lines of cargo's and
    /// wasm-bindgen's harness (`test result: ok. N passed; N failed`) and node's TAP (`# pass N`).
    /// A command that fails without reporting a failure counts as one failure.
    pub fn run(name: &'static str, command: &mut Command) -> Suite {
        let mut suite = Suite { name, passed: 0, failed: 0, note: None };
        let mut child = match command.stdout(Stdio::piped()).spawn() {
            Ok(child) => child,
            Err(e) => {
                suite.failed = 1;
                suite.note = Some(format!("could not start: {e}"));
                return suite;
            }
        };
        if let Some(stdout) = child.stdout.take() {
            let mut reader = BufReader::new(stdout);
            let mut line = Vec::new();
            while reader.read_until(b'\n', &mut line).is_ok_and(|n| n > 0) {
                let text = String::from_utf8_lossy(&line);
                print!("{text}");
                suite.count(&text);
                line.clear();
            }
        }
        let _ = std::io::stdout().flush();
        match child.wait() {
            Ok(status) if status.success() => {}
            Ok(status) => {
                if suite.failed == 0 {
                    suite.failed = 1;
                    suite.note = Some(format!("exited with {status} without reporting a failed test"));
                }
            }
            Err(e) => {
                suite.failed += 1;
                suite.note = Some(format!("could not wait: {e}"));
            }
        }
        suite
    }

    /// Runs a check that reports no test counts (a compiler, a linter): it counts as one test, passed
    /// when the command succeeds.
    pub fn run_checked(name: &'static str, command: &mut Command) -> Suite {
        let mut suite = Suite::run(name, command);
        if suite.failed == 0 {
            suite.passed = 1;
        }
        suite
    }

    fn count(&mut self, line: &str) {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("test result:") {
            self.passed += number_before(rest, " passed");
            self.failed += number_before(rest, " failed");
        } else if let Some(n) = line.strip_prefix("# pass ") {
            self.passed += n.trim().parse::<u64>().unwrap_or(0);
        } else if let Some(n) = line.strip_prefix("# fail ") {
            self.failed += n.trim().parse::<u64>().unwrap_or(0);
        }
    }
}

/// The number just before `label` in text like `ok. 12 passed; 0 failed;`.
fn number_before(text: &str, label: &str) -> u64 {
    let Some(end) = text.find(label) else { return 0 };
    let digits: String = text[..end].chars().rev().take_while(char::is_ascii_digit).collect();
    digits.chars().rev().collect::<String>().parse().unwrap_or(0)
}

#[derive(Default)]
pub struct Tally {
    pub passed: u64,
    pub failed: u64,
    suites: Vec<Suite>,
}

impl Tally {
    pub fn add(&mut self, suite: Suite) {
        self.passed += suite.passed;
        self.failed += suite.failed;
        self.suites.push(suite);
    }

    pub fn print(&self) {
        eprintln!("==> results");
        for s in &self.suites {
            let note = s.note.as_deref().map(|n| format!(" ({n})")).unwrap_or_default();
            eprintln!("    {:<14} {:>5} passed {:>4} failed{note}", s.name, s.passed, s.failed);
        }
    }
}

/// The emulator as a child process on a free port, stopped when dropped.
pub struct Emulator {
    child: Child,
    pub url: String,
}

impl Emulator {
    pub fn start(bin: &Path, root: &Path, pkg: &Path, extra: &[&str]) -> Result<Emulator> {
        let mut child = Command::new(bin)
            .args(["--port", "0", "--www", "www", "--pkg"])
            .arg(pkg)
            .args(extra)
            .current_dir(root)
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start the emulator: {e}"))?;
        let stdout = child.stdout.take().ok_or("no emulator stdout")?;
        let mut reader = BufReader::new(stdout);
        let mut first = String::new();
        reader.read_line(&mut first).map_err(|e| format!("cannot read the emulator's output: {e}"))?;
        let url = first
            .trim()
            .strip_prefix("predictkit-emulator listening on ")
            .ok_or_else(|| format!("unexpected emulator output: {first:?}"))?
            .to_owned();
        // Keep draining its output so it never blocks on a full pipe.
        std::thread::spawn(move || {
            let mut sink = Vec::new();
            let _ = reader.read_to_end(&mut sink);
        });
        Ok(Emulator { child, url })
    }
}

impl Drop for Emulator {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn gzip_len(bytes: &[u8]) -> Result<usize> {
    let mut enc = GzEncoder::new(Vec::new(), Compression::best());
    enc.write_all(bytes).map_err(|e| e.to_string())?;
    Ok(enc.finish().map_err(|e| e.to_string())?.len())
}

/// Brotli (quality 11) with Node's zlib, which every machine running the build already has.
fn brotli_len(path: &Path) -> Result<usize> {
    let script = "const z=require('zlib');const b=require('fs').readFileSync(process.argv[1]);\
        process.stdout.write(String(z.brotliCompressSync(b,{params:{[z.constants.BROTLI_PARAM_QUALITY]:11}}).length))";
    let out =
        Command::new("node").args(["-e", script]).arg(path).output().map_err(|e| format!("cannot run node: {e}"))?;
    String::from_utf8_lossy(&out.stdout).trim().parse().map_err(|_| "node could not measure brotli size".to_owned())
}

fn brotli_len_of(bytes: &[u8]) -> Result<usize> {
    let tmp = std::env::temp_dir().join(format!("predictkit-glue-{}.js", std::process::id()));
    std::fs::write(&tmp, bytes).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    let len = brotli_len(&tmp);
    let _ = std::fs::remove_file(&tmp);
    len
}

/// `size web: wasm 93125 B (39774 gzip) + glue 27386 B (6278 gzip) = 46052 B gzip`
/// The shipped size of one build: its wasm, and all its JS (the glue, the snippets it imports, and the
/// package entry files that a page loads with it), gzip and brotli.
/// The size line of a pkg/ folder, and its gzip total.
pub fn size_line(dir: &Path, name: &str, entries: &[PathBuf]) -> Result<(String, u64)> {
    let read = |p: &Path| std::fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()));
    let wasm = read(&dir.join("predictkit_bg.wasm"))?;
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for path in std::fs::read_dir(&d)
            .map_err(|e| format!("cannot list {}: {e}", d.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
        {
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|x| x == "js") {
                files.push(path);
            }
        }
    }
    files.sort();
    files.extend(entries.iter().cloned());
    let mut glue = Vec::new();
    for js in files {
        glue.extend(read(&js)?);
    }
    // The same bytes measure the same: a build that changed nothing (`cargo xtask demo` again) reads its sizes
    // back instead of compressing 2 MB at brotli's quality 11 once more (5 s of the demo's start).
    let key = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (&wasm, &glue).hash(&mut h);
        format!("{:016x}", h.finish())
    };
    let cache = crate::target_dir().join("sizes").join(name);
    std::fs::create_dir_all(crate::target_dir().join("sizes")).map_err(|e| format!("cannot make target/sizes: {e}"))?;
    if let Some(sizes) = std::fs::read_to_string(&cache).ok().and_then(|t| cached_sizes(&t, &key)) {
        return Ok(format_size_line(name, wasm.len(), glue.len(), sizes));
    }
    let sizes =
        [gzip_len(&wasm)?, brotli_len(&dir.join("predictkit_bg.wasm"))?, gzip_len(&glue)?, brotli_len_of(&glue)?];
    let text = format!("{key} {} {} {} {}", sizes[0], sizes[1], sizes[2], sizes[3]);
    std::fs::write(&cache, text).map_err(|e| format!("cannot write {}: {e}", cache.display()))?;
    Ok(format_size_line(name, wasm.len(), glue.len(), sizes))
}

/// The sizes `[wasm gzip, wasm brotli, JS gzip, JS brotli]` a cache file holds for `key`.
fn cached_sizes(text: &str, key: &str) -> Option<[usize; 4]> {
    let mut words = text.split_whitespace();
    if words.next()? != key {
        return None;
    }
    let mut sizes = [0; 4];
    for size in &mut sizes {
        *size = words.next()?.parse().ok()?;
    }
    Some(sizes)
}

fn format_size_line(name: &str, wasm: usize, glue: usize, [wz, wb, gz, gb]: [usize; 4]) -> (String, u64) {
    let line = format!(
        "size {name}: wasm {wasm} B ({wz} gzip, {wb} brotli) + JS {glue} B ({gz} gzip, {gb} brotli) = {} B gzip, {} B brotli",
        wz + gz,
        wb + gb
    );
    (line, (wz + gz) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counted(lines: &[&str]) -> (u64, u64) {
        let mut s = Suite { name: "t", passed: 0, failed: 0, note: None };
        for l in lines {
            s.count(l);
        }
        (s.passed, s.failed)
    }

    #[test]
    fn counts_cargo_and_tap_results() {
        assert_eq!(
            counted(&[
                "test result: ok. 28 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s",
                "test result: FAILED. 3 passed; 2 failed; 1 ignored",
                "# pass 7",
                "# fail 1",
                "ok 1 - something # pass 99 not a summary",
            ]),
            (38, 3)
        );
    }
}
