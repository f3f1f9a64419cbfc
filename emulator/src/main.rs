//! `predictkit-emulator [--port N] [--host ADDR] [--seed N] [--www DIR] [--pkg DIR] [--cursor-end-lte]
//! [--freshness-secs N] [--timestamp-unit ms|s] [--limits-scale F] [--no-limits] [--stream-rate N] [--chain-id N]
//! [--exit-with-stdin]`

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, ValueEnum};
use predictkit_emulator::{Config, Emulator, TimestampUnit};

/// A local emulator of the prediction-market data and order service, for tests and the demo.
#[derive(Parser)]
#[command(name = "predictkit-emulator", args_override_self = true)]
struct Args {
    /// Port (0 picks a free port)
    #[arg(long, value_name = "N", default_value_t = Config::default().addr.port(), allow_hyphen_values = true)]
    port: u16,
    /// Address to listen on
    #[arg(long, value_name = "ADDR", default_value_t = Config::default().addr.ip(), allow_hyphen_values = true)]
    host: IpAddr,
    /// Data seed (same seed, same data)
    #[arg(long, value_name = "N", default_value_t = Config::default().seed, allow_hyphen_values = true)]
    seed: u64,
    /// Serve DIR under /www/ (the demo page)
    #[arg(long, value_name = "DIR", allow_hyphen_values = true)]
    www: Option<PathBuf>,
    /// Serve DIR under /pkg/ (the built package)
    #[arg(long, value_name = "DIR", allow_hyphen_values = true)]
    pkg: Option<PathBuf>,
    /// Answer next_cursor "LTE=" on the last page instead of ""
    #[arg(long)]
    cursor_end_lte: bool,
    /// Accepted SERVICE_TIMESTAMP skew in seconds
    #[arg(long, value_name = "N", default_value_t = Config::default().freshness_secs, allow_hyphen_values = true)]
    freshness_secs: u64,
    /// Unit of SERVICE_TIMESTAMP
    #[arg(long, value_name = "U", value_enum, default_value_t = Unit::from(Config::default().timestamp_unit), allow_hyphen_values = true)]
    timestamp_unit: Unit,
    /// Multiply every rate-limit capacity by F
    #[arg(long, value_name = "F", default_value_t = Config::default().limits_scale, value_parser = positive, allow_hyphen_values = true)]
    limits_scale: f64,
    /// Do not enforce rate limits
    #[arg(long)]
    no_limits: bool,
    /// Price changes per second per subscribed asset on /ws/market (0: admin ticks only)
    #[arg(long, value_name = "N", default_value_t = Config::default().stream_rate, value_parser = stream_rate, allow_hyphen_values = true)]
    stream_rate: f64,
    /// Chain of the signatures checked and of the wallet at /wallet
    #[arg(long, value_name = "N", default_value_t = Config::default().chain_id, value_parser = clap::value_parser!(u64).range(1..), allow_hyphen_values = true)]
    chain_id: u64,
    /// Stop when standard input closes: a parent that holds the other end (as `cargo xtask demo` does) takes
    /// the emulator with it however it ends, SIGKILL included
    #[arg(long)]
    exit_with_stdin: bool,
}

/// The unit of SERVICE_TIMESTAMP.
#[derive(Clone, Copy, ValueEnum)]
enum Unit {
    /// Milliseconds (the interface)
    #[value(name = "ms")]
    Millis,
    /// Seconds (the upstream service)
    #[value(name = "s")]
    Seconds,
}

impl From<TimestampUnit> for Unit {
    fn from(unit: TimestampUnit) -> Self {
        match unit {
            TimestampUnit::Millis => Self::Millis,
            TimestampUnit::Seconds => Self::Seconds,
        }
    }
}

impl From<Unit> for TimestampUnit {
    fn from(unit: Unit) -> Self {
        match unit {
            Unit::Millis => Self::Millis,
            Unit::Seconds => Self::Seconds,
        }
    }
}

/// A finite number greater than 0.
fn positive(text: &str) -> Result<f64, String> {
    text.parse::<f64>().ok().filter(|f| f.is_finite() && *f > 0.0).ok_or_else(|| "must be a positive number".into())
}

/// A number in 0..=10000.
fn stream_rate(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|f| f.is_finite() && (0.0..=10_000.0).contains(f))
        .ok_or_else(|| "must be a number 0..10000".into())
}

impl Args {
    fn config(self) -> Config {
        Config {
            addr: SocketAddr::new(self.host, self.port),
            seed: self.seed,
            www: self.www,
            pkg: self.pkg,
            cursor_end_lte: self.cursor_end_lte,
            freshness_secs: self.freshness_secs,
            timestamp_unit: self.timestamp_unit.into(),
            limits: !self.no_limits,
            limits_scale: self.limits_scale,
            stream_rate: self.stream_rate,
            chain_id: self.chain_id,
        }
    }
}

/// Completes when standard input reaches its end (or cannot be read): its writer has gone.
/// (A thread of its own, never joined: a blocking task of the runtime would hold the exit up until it returned.)
async fn stdin_closed() {
    let (closed, on_close) = tokio::sync::oneshot::channel::<()>();
    let reader = std::thread::Builder::new().name("stdin".into()).spawn(move || {
        let mut sink = [0u8; 256];
        let mut stdin = std::io::stdin().lock();
        while matches!(std::io::Read::read(&mut stdin, &mut sink), Ok(n) if n > 0) {}
        let _ = closed.send(());
    });
    if reader.is_ok() {
        let _ = on_close.await;
    } else {
        std::future::pending::<()>().await;
    }
}

/// Completes on Ctrl-C or SIGTERM (or, with `stdin`, when standard input closes). The handlers are installed
/// when this is called, not when it is first polled, so a signal that arrives right after the listening line is
/// printed still stops the emulator cleanly.
fn shutdown_signal(stdin: bool) -> impl std::future::Future<Output = ()> + Send + 'static {
    let signals = os_signal();
    async move {
        if stdin {
            tokio::select! {
                _ = signals => {}
                _ = stdin_closed() => {}
            }
        } else {
            signals.await
        }
    }
}

/// Completes on Ctrl-C or SIGTERM, its handlers installed at once.
fn os_signal() -> impl std::future::Future<Output = ()> + Send + 'static {
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
    // Bad arguments: a message and exit status 2; --help: the flags, their defaults, and exit status 0.
    let args = Args::parse();
    let shutdown = shutdown_signal(args.exit_with_stdin);
    let config = args.config();
    let has_www = config.www.is_some();
    let limits = if config.limits { format!("on (scale {})", config.limits_scale) } else { "off".to_owned() };
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
