//! The emulator's binary as `cargo xtask demo` runs it: its first line names its address, and with
//! `--exit-with-stdin` it stops once its standard input closes (the parent that held it has gone, however it
//! ended), freeing the port.

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The child, its address, and its output (kept open: a closed stdout would end it at its next line).
fn start(exit_with_stdin: bool) -> (std::process::Child, String, BufReader<std::process::ChildStdout>) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_predictkit-emulator"));
    command.args(["--port", "0", "--no-limits"]).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
    if exit_with_stdin {
        command.arg("--exit-with-stdin");
    }
    let mut child = command.spawn().expect("the emulator starts");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut first = String::new();
    out.read_line(&mut first).expect("a first line");
    let url = first.trim().strip_prefix("predictkit-emulator listening on ").expect("its address").to_owned();
    (child, url, out)
}

/// Waits up to `within` for the child to end; its status, or None if it still runs.
fn ended_within(child: &mut std::process::Child, within: Duration) -> Option<std::process::ExitStatus> {
    let until = Instant::now() + within;
    while Instant::now() < until {
        if let Some(status) = child.try_wait().expect("try_wait") {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    None
}

#[test]
fn with_exit_with_stdin_the_emulator_stops_when_its_input_closes() {
    let (mut child, url, _out) = start(true);
    let addr = url.trim_start_matches("http://").to_owned();
    assert!(TcpStream::connect(&addr).is_ok(), "it listens on {addr}");
    drop(child.stdin.take());
    let status = ended_within(&mut child, Duration::from_secs(10));
    assert!(status.is_some_and(|s| s.success()), "it stopped cleanly once its input closed: {status:?}");
    assert!(TcpStream::connect(&addr).is_err(), "the port is free again");
}

#[test]
fn without_it_a_closed_input_does_not_stop_the_emulator() {
    let (mut child, url, _out) = start(false);
    drop(child.stdin.take());
    let status = ended_within(&mut child, Duration::from_millis(700));
    let addr = url.trim_start_matches("http://").to_owned();
    let still = TcpStream::connect(&addr).is_ok();
    let _ = child.kill();
    let _ = child.wait();
    assert!(status.is_none() && still, "it kept serving with its input closed");
}
