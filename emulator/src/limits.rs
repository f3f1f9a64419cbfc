//! The interface's §8 rate limits: sliding windows per client and scope.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use axum::http::Method;

/// One limit: at most `capacity` requests in any `window`.
#[derive(Clone, Copy, Debug)]
pub struct Scope {
    pub name: &'static str,
    pub capacity: u32,
    pub window: Duration,
}

const fn scope(name: &'static str, capacity: u32, secs: u64) -> Scope {
    Scope { name, capacity, window: Duration::from_secs(secs) }
}

pub const CATALOG_ALL: Scope = scope("catalog: all routes", 4_000, 10);
pub const EVENTS: Scope = scope("GET /events", 500, 10);
pub const MARKETS: Scope = scope("GET /markets", 300, 10);
pub const LISTINGS: Scope = scope("catalog: event and market listings", 900, 10);
pub const TAGS: Scope = scope("GET /tags", 200, 10);
pub const SEARCH: Scope = scope("GET /public-search", 350, 10);
pub const CLOB_ALL: Scope = scope("clob: all routes", 5_000, 10);
pub const OK: Scope = scope("GET /", 50, 10);
pub const BOOK: Scope = scope("GET /book", 200, 10);
pub const BOOKS: Scope = scope("POST /books", 80, 10);
pub const PRICE: Scope = scope("GET /price", 200, 10);
pub const PRICES: Scope = scope("POST /prices", 80, 10);
pub const MIDPOINT: Scope = scope("GET /midpoint", 200, 10);
pub const HISTORY: Scope = scope("GET /prices-history", 100, 10);
pub const BATCH_HISTORY: Scope = scope("POST /batch-prices-history", 80, 10);
pub const DATA_TRADES: Scope = scope("GET /data/trades", 150, 10);
pub const CANCEL_BURST: Scope = scope("DELETE /order (burst)", 2_400, 10);
pub const CANCEL_SUSTAINED: Scope = scope("DELETE /order (sustained)", 24_000, 600);
pub const PLACE_BURST: Scope = scope("POST /order (burst)", 2_400, 10);
pub const PLACE_SUSTAINED: Scope = scope("POST /order (sustained)", 24_000, 600);

/// The scopes a request counts against (see the table in the README).
pub fn scopes(method: &Method, path: &str) -> &'static [Scope] {
    let get = method == Method::GET || method == Method::HEAD;
    match (get, method, path) {
        (true, _, "/") => &[CLOB_ALL, OK],
        (true, _, "/events") => &[CATALOG_ALL, EVENTS, LISTINGS],
        (true, _, "/markets") => &[CLOB_ALL, MARKETS, LISTINGS],
        (true, _, "/tags") => &[CATALOG_ALL, TAGS],
        (true, _, "/public-search") => &[CATALOG_ALL, SEARCH],
        (true, _, "/book") => &[CLOB_ALL, BOOK],
        (true, _, "/price") => &[CLOB_ALL, PRICE],
        (true, _, "/midpoint") => &[CLOB_ALL, MIDPOINT],
        (true, _, "/prices-history") => &[CLOB_ALL, HISTORY],
        (true, _, "/data/trades") => &[CLOB_ALL, DATA_TRADES],
        (_, &Method::POST, "/books") => &[CLOB_ALL, BOOKS],
        (_, &Method::POST, "/prices") => &[CLOB_ALL, PRICES],
        (_, &Method::POST, "/batch-prices-history") => &[CLOB_ALL, BATCH_HISTORY],
        (_, &Method::DELETE, "/order" | "/orders" | "/cancel-market-orders" | "/cancel-all") => {
            &[CLOB_ALL, CANCEL_BURST, CANCEL_SUSTAINED]
        }
        // A batch is one request of the placement windows, as the upstream service counts it.
        (_, &Method::POST, "/order" | "/orders") => &[CLOB_ALL, PLACE_BURST, PLACE_SUSTAINED],
        (true, _, "/version" | "/auth/derive-api-key") => &[CLOB_ALL],
        (_, &Method::POST, "/auth/api-key") => &[CLOB_ALL],
        (true, _, "/sampling-markets" | "/data/orders" | "/order-scoring") => &[CLOB_ALL],
        (true, _, "/balance-allowance" | "/balance-allowance/update") => &[CLOB_ALL],
        (_, &Method::POST, "/orders-scoring") => &[CLOB_ALL],
        (true, _, p)
            if p.starts_with("/clob-markets/") || p.starts_with("/fee-rate/") || p.starts_with("/data/order/") =>
        {
            &[CLOB_ALL]
        }
        (true, _, "/events/creators" | "/series" | "/comments") => &[CATALOG_ALL],
        (true, _, p) if p.starts_with("/markets/") || p.starts_with("/comments/") => &[CATALOG_ALL],
        _ => &[],
    }
}

pub struct Limiter {
    pub scale: f64,
    windows: HashMap<(String, &'static str), VecDeque<Instant>>,
}

impl Limiter {
    pub fn new(scale: f64) -> Self {
        Self { scale, windows: HashMap::new() }
    }

    pub fn capacity(&self, scope: &Scope) -> usize {
        ((f64::from(scope.capacity) * self.scale).round() as usize).max(1)
    }

    /// Counts one request of `client` against `scopes`; when a window is full, the time until it frees instead
    /// (and the request is not counted anywhere).
    pub fn check(&mut self, client: &str, scopes: &[Scope], now: Instant) -> Result<(), (Duration, &'static str)> {
        let mut wait: Option<(Duration, &'static str)> = None;
        for s in scopes {
            let capacity = self.capacity(s);
            let q = self.windows.entry((client.to_owned(), s.name)).or_default();
            while q.front().is_some_and(|t| now.duration_since(*t) >= s.window) {
                q.pop_front();
            }
            if q.len() >= capacity {
                let free_at = q[q.len() - capacity] + s.window;
                let w = free_at.saturating_duration_since(now);
                if wait.is_none_or(|(d, _)| w > d) {
                    wait = Some((w, s.name));
                }
            }
        }
        if let Some(wait) = wait {
            return Err(wait);
        }
        for s in scopes {
            if let Some(q) = self.windows.get_mut(&(client.to_owned(), s.name)) {
                q.push_back(now);
            }
        }
        Ok(())
    }

    pub fn clear(&mut self) {
        self.windows.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_fills_and_frees() {
        let mut l = Limiter::new(0.01);
        let t0 = Instant::now();
        assert_eq!(l.capacity(&BOOK), 2);
        assert!(l.check("a", &[CLOB_ALL, BOOK], t0).is_ok());
        assert!(l.check("a", &[CLOB_ALL, BOOK], t0 + Duration::from_secs(1)).is_ok());
        let (wait, scope) = l.check("a", &[CLOB_ALL, BOOK], t0 + Duration::from_secs(2)).unwrap_err();
        assert_eq!(scope, BOOK.name);
        assert_eq!(wait, Duration::from_secs(8));
        assert!(l.check("b", &[CLOB_ALL, BOOK], t0 + Duration::from_secs(2)).is_ok(), "clients are separate");
        assert!(l.check("a", &[CLOB_ALL, BOOK], t0 + Duration::from_secs(10)).is_ok());
    }
}
