//! A local emulator of the prediction-market data and order service: what PredictKit's tests, its demo
//! and its users' own test suites run against.

mod data;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::{header, HeaderName, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use tokio::net::TcpListener;
use tower_http::cors::{Any, CorsLayer};
use tower_http::services::ServeDir;

pub use data::{Account, Catalog};

/// How to run the emulator.
#[derive(Clone, Debug)]
pub struct Config {
    pub addr: SocketAddr,
    pub seed: u64,
    /// Served under /www/ when set (the demo page).
    pub www: Option<PathBuf>,
    /// Served under /pkg/ when set (the built package).
    pub pkg: Option<PathBuf>,
}

impl Default for Config {
    fn default() -> Self {
        Self { addr: SocketAddr::from(([127, 0, 0, 1], 8787)), seed: 1, www: None, pkg: None }
    }
}

struct AppState {
    catalog: Catalog,
}

/// A bound emulator, ready to serve.
pub struct Emulator {
    listener: TcpListener,
    router: Router,
    pub addr: SocketAddr,
    pub demo: Account,
}

impl Emulator {
    pub async fn bind(config: Config) -> std::io::Result<Self> {
        let catalog = Catalog::new(config.seed);
        let demo = catalog.demo.clone();
        let router = router(Arc::new(AppState { catalog }), &config);
        let listener = TcpListener::bind(config.addr).await?;
        let addr = listener.local_addr()?;
        Ok(Self { listener, router, addr, demo })
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Serves until `shutdown` completes.
    pub async fn serve(self, shutdown: impl std::future::Future<Output = ()> + Send + 'static) -> std::io::Result<()> {
        axum::serve(self.listener, self.router).with_graceful_shutdown(shutdown).await
    }
}

fn router(state: Arc<AppState>, config: &Config) -> Router {
    let cors = CorsLayer::new()
        .allow_origin(Any)
        .allow_methods([Method::GET, Method::POST, Method::DELETE, Method::OPTIONS])
        .allow_headers(Any)
        .expose_headers([header::RETRY_AFTER, header::DATE, HeaderName::from_static("content-length")]);
    let mut app = Router::new()
        .route("/", get(root))
        .route("/book", get(book))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .with_state(state);
    if let Some(www) = &config.www {
        app = app.nest_service("/www", ServeDir::new(www));
    }
    if let Some(pkg) = &config.pkg {
        app = app.nest_service("/pkg", ServeDir::new(pkg));
    }
    app.layer(cors)
}

/// A JSON error body `{"error": message}` with its status.
fn error(status: StatusCode, message: impl Into<String>) -> Response {
    (status, Json(serde_json::json!({ "error": message.into() }))).into_response()
}

fn json_text(text: String) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], text).into_response()
}

async fn root() -> Response {
    Json("OK").into_response()
}

#[derive(Deserialize)]
struct BookQuery {
    token_id: Option<String>,
}

async fn book(State(state): State<Arc<AppState>>, query: Result<Query<BookQuery>, axum::extract::rejection::QueryRejection>) -> Response {
    let Ok(Query(query)) = query else {
        return error(StatusCode::BAD_REQUEST, "invalid query string");
    };
    let Some(token_id) = query.token_id.filter(|t| !t.is_empty()) else {
        return error(StatusCode::BAD_REQUEST, "token_id is required");
    };
    match state.catalog.book(&token_id) {
        Some(book) => json_text(book.json.clone()),
        None => error(StatusCode::NOT_FOUND, "No orderbook exists for the requested token id"),
    }
}

async fn not_found() -> Response {
    error(StatusCode::NOT_FOUND, "not found")
}

async fn method_not_allowed() -> Response {
    error(StatusCode::METHOD_NOT_ALLOWED, "method not allowed")
}
