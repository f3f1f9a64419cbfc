//! A local emulator of the prediction-market data and order service: what PredictKit's tests, its demo
//! and its users' own test suites run against. See README.md beside this crate for routes, data and admin API.

mod account;
mod accounts;
mod activity;
mod admin;
mod app;
pub mod auth;
mod balances;
mod books;
mod catalog_routes;
mod clob;
mod clock;
mod dataset;
mod engine;
mod faults;
pub mod limits;
mod market;
mod params;
mod signed;
mod stream;
mod sync;
mod text;
pub mod trading;

use std::collections::VecDeque;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderName, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use axum::Router;
use tokio::net::TcpListener;
use tower::ServiceExt;
use tower_http::cors::{AllowHeaders, Any, CorsLayer};
use tower_http::services::ServeDir;

use app::App;
pub use auth::TimestampUnit;
pub use dataset::{Account, Catalog};
use faults::{Fault, FaultKind, Faults};
use limits::Limiter;
use params::{error, Cursors};
pub use params::{MARKETS_PAGE, ORDERS_PAGE, SAMPLING_PAGE, TRADES_PAGE};
use sync::lock;

/// How to run the emulator.
#[derive(Clone, Debug)]
pub struct Config {
    pub addr: SocketAddr,
    pub seed: u64,
    /// Served under /www/ when set (the demo page).
    pub www: Option<PathBuf>,
    /// Served under /pkg/ when set (the built package).
    pub pkg: Option<PathBuf>,
    /// Answer `LTE=` instead of "" as the last page's `next_cursor` (as the upstream service does).
    pub cursor_end_lte: bool,
    /// How far SERVICE_TIMESTAMP may be from the emulator's clock.
    pub freshness_secs: u64,
    /// The unit of SERVICE_TIMESTAMP.
    pub timestamp_unit: TimestampUnit,
    /// Enforce the interface's §8 rate limits.
    pub limits: bool,
    /// Multiplies every rate-limit capacity (0.01 makes limits trip after a few requests).
    pub limits_scale: f64,
    /// Market simulator: price-change entries per second per subscribed asset (0: books move only on
    /// `POST /__admin/stream/tick`).
    pub stream_rate: f64,
    /// The chain whose signatures the emulator checks (API-key challenges, orders) and the wallet reports.
    pub chain_id: u64,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            addr: SocketAddr::from(([127, 0, 0, 1], 8787)),
            seed: 1,
            www: None,
            pkg: None,
            cursor_end_lte: false,
            freshness_secs: 30,
            timestamp_unit: TimestampUnit::Millis,
            limits: true,
            limits_scale: 1.0,
            stream_rate: 5.0,
            chain_id: trading::DEFAULT_CHAIN_ID,
        }
    }
}

impl Config {
    /// A configuration for tests: a free port on 127.0.0.1, everything else default.
    pub fn for_tests() -> Self {
        Self { addr: SocketAddr::from(([127, 0, 0, 1], 0)), ..Self::default() }
    }
}

const LOG_CAPACITY: usize = 10_000;

/// A bound emulator, ready to serve.
pub struct Emulator {
    listener: TcpListener,
    router: Router,
    app: Arc<App>,
    pub addr: SocketAddr,
    /// The demo account (also `accounts[0]`).
    pub demo: Account,
    /// Every account that may call the authenticated routes.
    pub accounts: Vec<Account>,
}

impl Emulator {
    pub async fn bind(config: Config) -> std::io::Result<Self> {
        let catalog = Catalog::shared(config.seed);
        let demo = catalog.demo().clone();
        let accounts = catalog.accounts.clone();
        let registry = Arc::new(accounts::Accounts::new(catalog.clone()));
        let clock = Arc::new(clock::Clock::default());
        let rate = config.stream_rate.max(0.0);
        let app = Arc::new(App {
            stream: stream::Hub::new(catalog.clone(), registry.clone(), clock.clone(), config.seed, rate),
            clock,
            accounts: registry,
            trading: trading::Trading::new(config.chain_id, &catalog),
            catalog,
            cursors: Cursors { end_lte: config.cursor_end_lte },
            auth: auth::AuthSettings { freshness_secs: config.freshness_secs, unit: config.timestamp_unit },
            limits: config.limits,
            faults: Mutex::new(Faults::default()),
            engine: Mutex::new(engine::Engine::default()),
            log: Mutex::new(VecDeque::new()),
            limiter: Mutex::new(Limiter::new(config.limits_scale)),
        });
        let router = router(app.clone(), &config);
        let listener = TcpListener::bind(config.addr).await?;
        let addr = listener.local_addr()?;
        Ok(Self { listener, router, app, addr, demo, accounts })
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Serves until `shutdown` completes, then lets open requests finish (for at most 5 s) and closes the
    /// WebSockets.
    pub async fn serve(self, shutdown: impl std::future::Future<Output = ()> + Send + 'static) -> std::io::Result<()> {
        // Connections watch `stopping`; each holds a receiver until it ends, so `closed()` tells when all have.
        let (stopping, watching) = tokio::sync::watch::channel(false);
        let simulator = tokio::spawn(stream::simulate(self.app.clone()));
        // Keys whose heartbeats stopped lose their orders whether or not anything else is asked.
        let heartbeats = tokio::spawn(trading::heartbeats::watch(self.app.clone()));
        // Trades settle (MINED, CONFIRMED or FAILED) on their own time.
        let settling = tokio::spawn(trading::settlement::watch(self.app.clone()));
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder.timer(hyper_util::rt::TokioTimer::new());
        tokio::pin!(shutdown);
        loop {
            let (stream, peer) = tokio::select! {
                accepted = self.listener.accept() => match accepted {
                    Ok(accepted) => accepted,
                    Err(_) => {
                        // Out of file descriptors and the like: wait a little rather than spin.
                        tokio::time::sleep(Duration::from_millis(20)).await;
                        continue;
                    }
                },
                () = &mut shutdown => break,
            };
            let _ = stream.set_nodelay(true);
            let router = self.router.clone();
            let service = hyper::service::service_fn(move |mut request: hyper::Request<hyper::body::Incoming>| {
                request.extensions_mut().insert(ConnectInfo(peer));
                let router = router.clone();
                async move {
                    let response = match router.oneshot(request).await {
                        Ok(response) => response,
                        Err(never) => match never {},
                    };
                    if response.extensions().get::<ResetConnection>().is_some() {
                        // hyper closes the connection without writing a response when the service fails.
                        return Err(std::io::Error::new(std::io::ErrorKind::ConnectionReset, "injected reset"));
                    }
                    Ok::<_, std::io::Error>(response)
                }
            });
            // With upgrades: /ws/market and /ws/user take the connection over.
            let connection = builder.serve_connection(hyper_util::rt::TokioIo::new(stream), service).with_upgrades();
            let mut watching = watching.clone();
            tokio::spawn(async move {
                tokio::pin!(connection);
                tokio::select! {
                    _ = connection.as_mut() => {}
                    _ = watching.changed() => {
                        connection.as_mut().graceful_shutdown();
                        let _ = connection.await;
                    }
                }
            });
        }
        drop(self.listener);
        drop(watching);
        self.app.stream.shutdown();
        let _ = stopping.send(true);
        tokio::select! {
            () = stopping.closed() => {}
            () = tokio::time::sleep(Duration::from_secs(5)) => {}
        }
        simulator.abort();
        heartbeats.abort();
        settling.abort();
        Ok(())
    }

    /// Serves in a background task; the emulator stops when the returned handle is dropped.
    pub fn spawn(self) -> Running {
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let url = self.url();
        let (addr, demo, accounts) = (self.addr, self.demo.clone(), self.accounts.clone());
        let task = tokio::spawn(self.serve(async move {
            let _ = stopped.await;
        }));
        Running { url, addr, demo, accounts, stop: Some(stop), task: Some(task) }
    }
}

/// An emulator serving in the background (see [`Emulator::spawn`]).
pub struct Running {
    pub url: String,
    pub addr: SocketAddr,
    pub demo: Account,
    pub accounts: Vec<Account>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<std::io::Result<()>>>,
}

impl Running {
    /// Stops serving and waits for open requests to finish.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// Marks a response whose connection must be dropped instead.
#[derive(Clone, Copy)]
struct ResetConnection;

fn router(app: Arc<App>, config: &Config) -> Router {
    let cors = CorsLayer::new()
        .allow_origin(Any)
        .allow_methods([Method::GET, Method::POST, Method::DELETE, Method::OPTIONS])
        .allow_headers(AllowHeaders::mirror_request())
        .expose_headers([
            header::RETRY_AFTER,
            header::DATE,
            header::CONTENT_LENGTH,
            HeaderName::from_static("poly-ratelimit-remaining"),
            HeaderName::from_static("poly-ratelimit-reset"),
            HeaderName::from_static("poly-ratelimit-tier"),
            HeaderName::from_static("poly-ratelimit-warning"),
        ])
        .max_age(Duration::from_secs(600));
    let mut routes = Router::new()
        .merge(catalog_routes::routes())
        .merge(clob::routes())
        .merge(account::routes())
        .merge(balances::routes())
        .merge(activity::routes())
        .merge(admin::routes())
        .merge(trading::routes())
        .merge(stream::routes())
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed);
    if let Some(www) = &config.www {
        routes = routes.nest_service("/www", ServeDir::new(www));
    }
    if let Some(pkg) = &config.pkg {
        routes = routes.nest_service("/pkg", ServeDir::new(pkg));
    }
    routes.layer(axum::middleware::from_fn_with_state(app.clone(), pipeline)).with_state(app).layer(cors)
}

async fn not_found() -> Response {
    error(StatusCode::NOT_FOUND, "not found")
}

async fn method_not_allowed() -> Response {
    error(StatusCode::METHOD_NOT_ALLOWED, "method not allowed")
}

/// Request log, fault injection and rate limits, around every service route (not admin routes, static files or
/// CORS preflights).
async fn pipeline(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    let path = request.uri().path().to_owned();
    let exempt = path.starts_with("/__admin") || path.starts_with("/www/") || path.starts_with("/pkg/");
    if exempt || request.method() == Method::OPTIONS {
        return next.run(request).await;
    }
    let started = Instant::now();
    let at = app.clock.now_ms();
    let method = request.method().clone();
    let query = request.uri().query().unwrap_or("").to_owned();
    let peer = request.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip().to_string());
    let request_headers = request.headers().clone();
    let header = |name: &str| request_headers.get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let mut headers = serde_json::Map::new();
    // Never the secret-bearing headers' values: only whether they were sent.
    for name in ["SERVICE_ADDRESS", "SERVICE_API_KEY", "SERVICE_TIMESTAMP", "SERVICE_NONCE"] {
        if let Some(v) = header(name) {
            headers.insert(name.to_owned(), v.into());
        }
    }
    for name in ["SERVICE_PASSPHRASE", "SERVICE_SIGNATURE"] {
        if header(name).is_some() {
            headers.insert(name.to_owned(), "(sent)".into());
        }
    }
    let client = header("SERVICE_API_KEY").or(peer).unwrap_or_default();
    drop(request_headers);
    let (parts, body) = request.into_parts();
    let body = match axum::body::to_bytes(body, 16 << 20).await {
        Ok(bytes) => bytes,
        Err(_) => return error(StatusCode::PAYLOAD_TOO_LARGE, "body too large or unreadable"),
    };
    let request = Request::from_parts(parts, Body::from(body.clone()));

    let fault = lock(&app.faults).take(method.as_str(), &path);
    let mut entry = serde_json::json!({
        "method": method.as_str(),
        "path": path,
        "query": query,
        "at": at,
        "headers": headers,
    });
    if !body.is_empty() {
        entry["body"] = String::from_utf8_lossy(&body[..body.len().min(65_536)]).into();
    }
    if let Some(fault) = &fault {
        entry["fault"] = fault.name().into();
    }
    // A request its client gave up on before the answer (a delayed one, abandoned) is logged all the same, as
    // `abandoned`: the guard logs it when the handler is dropped unfinished.
    let mut logged = Logged { app: &app, entry: Some(entry), started };
    let refused = lock(&app.engine).gate(&method, &path, &body);
    let mut response = match refused {
        Some(response) => response,
        None => serve_with(&app, request, next, &method, &path, &client, fault.as_ref()).await,
    };
    lock(&app.engine).decorate(&method, &path, &mut response);
    let status = if response.extensions().get::<ResetConnection>().is_some() { 0 } else { response.status().as_u16() };
    logged.push(status, false);
    response
}

/// A request's log entry, pushed once: when its answer is made, or when its handler is dropped before that.
struct Logged<'a> {
    app: &'a App,
    entry: Option<serde_json::Value>,
    started: Instant,
}

impl Logged<'_> {
    fn push(&mut self, status: u16, abandoned: bool) {
        let Some(mut entry) = self.entry.take() else { return };
        entry["status"] = status.into();
        entry["ms"] = (self.started.elapsed().as_secs_f64() * 1000.0).into();
        if abandoned {
            entry["abandoned"] = true.into();
        }
        let mut log = lock(&self.app.log);
        if log.len() >= LOG_CAPACITY {
            log.pop_front();
        }
        log.push_back(entry);
    }
}

impl Drop for Logged<'_> {
    fn drop(&mut self) {
        self.push(0, true);
    }
}

async fn serve_with(
    app: &App,
    request: Request,
    next: Next,
    method: &Method,
    path: &str,
    client: &str,
    fault: Option<&Fault>,
) -> Response {
    match fault {
        Some(Fault::Delay { ms }) => tokio::time::sleep(Duration::from_millis(*ms)).await,
        Some(Fault::Status { status, retry_after }) => {
            let status = StatusCode::from_u16(*status).unwrap_or(StatusCode::SERVICE_UNAVAILABLE);
            let mut response = error(status, &format!("injected fault: status {}", status.as_u16()));
            if let Some(secs) = retry_after {
                response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(*secs));
            }
            return response;
        }
        Some(Fault::Reset) => {
            let mut response = error(StatusCode::INTERNAL_SERVER_ERROR, "reset");
            response.extensions_mut().insert(ResetConnection);
            return response;
        }
        Some(Fault::Malformed) => {
            return params::json_text(StatusCode::OK, "{\"data\": [{\"id\": \"1\",, oops".to_owned());
        }
        _ => {}
    }
    if app.limits {
        let scopes = limits::scopes(method, path);
        if !scopes.is_empty() {
            let checked = lock(&app.limiter).check(client, scopes, Instant::now());
            if let Err((wait, scope)) = checked {
                let secs = wait.as_millis().div_ceil(1000).max(1) as u64;
                let mut response = error(
                    StatusCode::TOO_MANY_REQUESTS,
                    &format!("rate limit exceeded ({scope}); retry after {secs} s"),
                );
                response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(secs));
                return response;
            }
        }
    }
    let response = next.run(request).await;
    match fault {
        Some(Fault::Truncated) => {
            let (mut parts, body) = response.into_parts();
            let bytes = axum::body::to_bytes(body, usize::MAX).await.unwrap_or_default();
            let cut = bytes.slice(..bytes.len() / 2);
            parts.headers.remove(header::CONTENT_LENGTH);
            Response::from_parts(parts, Body::from(cut))
        }
        Some(Fault::SlowBody { ms }) => {
            let (mut parts, body) = response.into_parts();
            let bytes = axum::body::to_bytes(body, usize::MAX).await.unwrap_or_default();
            parts.headers.remove(header::CONTENT_LENGTH);
            parts.headers.insert(HeaderName::from_static("x-emulator-fault"), HeaderValue::from_static("slow_body"));
            Response::from_parts(parts, slow_body(bytes, Duration::from_millis(*ms)))
        }
        _ => response,
    }
}

/// `bytes` sent in ten pieces, the first at once and the rest spread over `total`.
fn slow_body(bytes: Bytes, total: Duration) -> Body {
    const PIECES: usize = 10;
    let size = bytes.len().div_ceil(PIECES).max(1);
    let pause = total / PIECES as u32;
    let stream = futures_util::stream::unfold((bytes, 0usize), move |(bytes, sent)| async move {
        if sent >= bytes.len() {
            return None;
        }
        if sent > 0 {
            tokio::time::sleep(pause).await;
        }
        let end = (sent + size).min(bytes.len());
        Some((Ok::<_, Infallible>(bytes.slice(sent..end)), (bytes, end)))
    });
    Body::from_stream(stream)
}
