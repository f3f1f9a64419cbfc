//! `predictkit-emulator [--port N] [--host ADDR] [--seed N] [--www DIR] [--pkg DIR] [--cursor-end-lte]
//! [--freshness-secs N] [--timestamp-unit ms|s] [--limits-scale F] [--no-limits] [--stream-rate N] [--chain-id N]`

use std::net::IpAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use predictkit_emulator::{Config, Emulator, TimestampUnit};

const USAGE: &str = "usage: predictkit-emulator [options]
  --port N              port (8787; 0 picks a free port)
  --host ADDR           address to listen on (127.0.0.1)
  --seed N              data seed (1)
  --www DIR             serve DIR under /www/ (the demo page)
  --pkg DIR             serve DIR under /pkg/ (the built package)
  --cursor-end-lte      answer next_cursor \"LTE=\" on the last page instead of \"\"
  --freshness-secs N    accepted SERVICE_TIMESTAMP skew in seconds (30)
  --timestamp-unit U    ms (default, the interface) or s (the upstream service)
  --limits-scale F      multiply every rate-limit capacity by F (1)
  --no-limits           do not enforce rate limits
  --stream-rate N       price changes per second per subscribed asset on /ws/market (5; 0: admin ticks only)
  --chain-id N          chain of the signatures checked and of the wallet at /wallet (80002)";

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
            "--cursor-end-lte" => config.cursor_end_lte = true,
            "--freshness-secs" => {
                config.freshness_secs = value()?.parse().map_err(|_| "--freshness-secs takes a whole number")?
            }
            "--timestamp-unit" => {
                config.timestamp_unit = match value()?.as_str() {
                    "ms" => TimestampUnit::Millis,
                    "s" => TimestampUnit::Seconds,
                    _ => return Err("--timestamp-unit takes ms or s".into()),
                }
            }
            "--limits-scale" => {
                config.limits_scale = value()?
                    .parse::<f64>()
                    .ok()
                    .filter(|f| f.is_finite() && *f > 0.0)
                    .ok_or("--limits-scale takes a positive number")?
            }
            "--no-limits" => config.limits = false,
            "--stream-rate" => {
                config.stream_rate = value()?
                    .parse::<f64>()
                    .ok()
                    .filter(|f| f.is_finite() && (0.0..=10_000.0).contains(f))
                    .ok_or("--stream-rate takes a number 0..10000")?
            }
            "--chain-id" => {
                config.chain_id =
                    value()?.parse::<u64>().ok().filter(|n| *n > 0).ok_or("--chain-id takes a positive whole number")?
            }
            "-h" | "--help" => return Err(USAGE.to_owned()),
            other => return Err(format!("unknown argument {other}\n{USAGE}")),
        }
    }
    Ok(config)
}

/// Completes on Ctrl-C or SIGTERM. The handlers are installed when this is called, not when it is first polled,
/// so a signal that arrives right after the listening line is printed still stops the emulator cleanly.
fn shutdown_signal() -> impl std::future::Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let interrupt = signal(SignalKind::interrupt());
        let terminate = signal(SignalKind::terminate());
        async move {
            match (interrupt, terminate) {
                (Ok(mut interrupt), Ok(mut terminate)) => {
                    tokio::select! {
                        _ = interrupt.recv() => {}
                        _ = terminate.recv() => {}
                    }
                }
                _ => {
                    let _ = tokio::signal::ctrl_c().await;
                }
            }
        }
    }
    #[cfg(not(unix))]
    async {
        let _ = tokio::signal::ctrl_c().await;
    }
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
    let limits = if config.limits { format!("on (scale {})", config.limits_scale) } else { "off".to_owned() };
    let shutdown = shutdown_signal();
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
    println!("rate limits {limits}; all accounts: GET {url}/__admin/accounts");
    if let Err(e) = emulator.serve(shutdown).await {
        eprintln!("predictkit-emulator: {e}");
        return ExitCode::FAILURE;
    }
    println!("predictkit-emulator stopped");
    ExitCode::SUCCESS
}
