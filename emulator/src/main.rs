//! `predictkit-emulator [--port N] [--host ADDR] [--seed N] [--www DIR] [--pkg DIR]`

use std::net::IpAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use predictkit_emulator::{Config, Emulator};

const USAGE: &str = "usage: predictkit-emulator [--port N (8787; 0 picks a free port)] [--host ADDR (127.0.0.1)] \
[--seed N (1)] [--www DIR] [--pkg DIR]";

fn parse_args() -> Result<Config, String> {
    let mut config = Config::default();
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--port" => config.addr.set_port(value()?.parse().map_err(|_| "--port takes a number 0..65535")?),
            "--host" => config.addr.set_ip(value()?.parse::<IpAddr>().map_err(|_| "--host takes an IP address")?),
            "--seed" => config.seed = value()?.parse().map_err(|_| "--seed takes a whole number")?,
            "--www" => config.www = Some(PathBuf::from(value()?)),
            "--pkg" => config.pkg = Some(PathBuf::from(value()?)),
            "-h" | "--help" => return Err(USAGE.to_owned()),
            other => return Err(format!("unknown argument {other}\n{USAGE}")),
        }
    }
    Ok(config)
}

#[tokio::main]
async fn main() -> ExitCode {
    let config = match parse_args() {
        Ok(config) => config,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let has_www = config.www.is_some();
    let emulator = match Emulator::bind(config).await {
        Ok(emulator) => emulator,
        Err(e) => {
            eprintln!("predictkit-emulator: cannot listen: {e}");
            return ExitCode::FAILURE;
        }
    };
    let url = emulator.url();
    let demo = &emulator.demo;
    // The first line is read by `cargo xtask` to learn the address.
    println!("predictkit-emulator listening on {url}");
    if has_www {
        println!("demo page: {url}/www/");
    }
    println!("demo account (emulator only, not a real secret):");
    println!("  address    {}", demo.address);
    println!("  apiKey     {}", demo.api_key);
    println!("  secret     {}", demo.secret);
    println!("  passphrase {}", demo.passphrase);
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    if let Err(e) = emulator.serve(shutdown).await {
        eprintln!("predictkit-emulator: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
