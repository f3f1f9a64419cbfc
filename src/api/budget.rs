//! Local rate budgets (interface §8): each request waits until every bucket it falls in has room.
//!
//! A bucket allows `requests` per sliding `window_ms`. The service counts a request when it arrives,
//! somewhere between when it was sent and when its answer came back, so a request here occupies its
//! buckets from the moment it is sent until `window_ms` after its answer: never fewer than the service
//! counts, and only a round trip more.

use std::collections::VecDeque;

use super::request::{HttpRequest, Scope, Surface};
use crate::error::Error;

/// The budgets a request can fall in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bucket {
    Catalog,
    Events,
    Markets,
    Listings,
    Tags,
    PublicSearch,
    Clob,
    ClobRoot,
    Book,
    Books,
    Price,
    Prices,
    Midpoint,
    PricesHistory,
    BatchPricesHistory,
    DataTrades,
    CancelBurst,
    CancelSustained,
    OrderBurst,
    OrderSustained,
    Activity,
}

const COUNT: usize = 21;

impl Bucket {
    pub const ALL: [Bucket; COUNT] = [
        Bucket::Catalog,
        Bucket::Events,
        Bucket::Markets,
        Bucket::Listings,
        Bucket::Tags,
        Bucket::PublicSearch,
        Bucket::Clob,
        Bucket::ClobRoot,
        Bucket::Book,
        Bucket::Books,
        Bucket::Price,
        Bucket::Prices,
        Bucket::Midpoint,
        Bucket::PricesHistory,
        Bucket::BatchPricesHistory,
        Bucket::DataTrades,
        Bucket::CancelBurst,
        Bucket::CancelSustained,
        Bucket::OrderBurst,
        Bucket::OrderSustained,
        Bucket::Activity,
    ];

    /// The name used in the `rateLimits` option.
    pub const fn name(self) -> &'static str {
        match self {
            Bucket::Catalog => "catalog",
            Bucket::Events => "events",
            Bucket::Markets => "markets",
            Bucket::Listings => "listings",
            Bucket::Tags => "tags",
            Bucket::PublicSearch => "public-search",
            Bucket::Clob => "clob",
            Bucket::ClobRoot => "clob-root",
            Bucket::Book => "book",
            Bucket::Books => "books",
            Bucket::Price => "price",
            Bucket::Prices => "prices",
            Bucket::Midpoint => "midpoint",
            Bucket::PricesHistory => "prices-history",
            Bucket::BatchPricesHistory => "batch-prices-history",
            Bucket::DataTrades => "data-trades",
            Bucket::CancelBurst => "cancel-burst",
            Bucket::CancelSustained => "cancel-sustained",
            Bucket::OrderBurst => "order-burst",
            Bucket::OrderSustained => "order-sustained",
            Bucket::Activity => "activity",
        }
    }

    pub fn from_name(name: &str) -> Option<Bucket> {
        Bucket::ALL.into_iter().find(|b| b.name() == name)
    }

    /// The interface's §8 table. The activity surface has no published limit.
    pub const fn default_limit(self) -> Option<Limit> {
        const fn per_10s(requests: u32) -> Option<Limit> {
            Some(Limit { requests, window_ms: 10_000.0 })
        }
        match self {
            Bucket::Catalog => per_10s(4_000),
            Bucket::Events => per_10s(500),
            Bucket::Markets => per_10s(300),
            Bucket::Listings => per_10s(900),
            Bucket::Tags => per_10s(200),
            Bucket::PublicSearch => per_10s(350),
            Bucket::Clob => per_10s(5_000),
            Bucket::ClobRoot => per_10s(50),
            Bucket::Book => per_10s(200),
            Bucket::Books => per_10s(80),
            Bucket::Price => per_10s(200),
            Bucket::Prices => per_10s(80),
            Bucket::Midpoint => per_10s(200),
            Bucket::PricesHistory => per_10s(100),
            Bucket::BatchPricesHistory => per_10s(80),
            Bucket::DataTrades => per_10s(150),
            Bucket::CancelBurst => per_10s(2_400),
            Bucket::CancelSustained => Some(Limit { requests: 24_000, window_ms: 600_000.0 }),
            Bucket::OrderBurst => per_10s(2_400),
            Bucket::OrderSustained => Some(Limit { requests: 24_000, window_ms: 600_000.0 }),
            Bucket::Activity => None,
        }
    }

    fn index(self) -> usize {
        self as usize
    }

    /// Whether the service charges a request here for each of its entries (a batch of orders pays one place
    /// per order in the order buckets) rather than once.
    const fn counts_entries(self) -> bool {
        matches!(self, Bucket::OrderBurst | Bucket::OrderSustained)
    }
}

/// The buckets of a request: its surface's "all routes" bucket and its route's own.
pub fn buckets(request: &HttpRequest) -> &'static [Bucket] {
    use Bucket as B;
    match request.scope {
        Scope::Events => &[B::Catalog, B::Events, B::Listings],
        // The CLOB list is counted on the CLOB surface and in the listing budgets (§8.1).
        Scope::ClobMarkets => &[B::Clob, B::Markets, B::Listings],
        Scope::Tags => &[B::Catalog, B::Tags],
        Scope::PublicSearch => &[B::Catalog, B::PublicSearch],
        Scope::ClobRoot => &[B::Clob, B::ClobRoot],
        Scope::Book => &[B::Clob, B::Book],
        Scope::Books => &[B::Clob, B::Books],
        Scope::Price => &[B::Clob, B::Price],
        Scope::Prices => &[B::Clob, B::Prices],
        Scope::Midpoint => &[B::Clob, B::Midpoint],
        Scope::PricesHistory => &[B::Clob, B::PricesHistory],
        Scope::BatchPricesHistory => &[B::Clob, B::BatchPricesHistory],
        Scope::DataTrades => &[B::Clob, B::DataTrades],
        Scope::CancelOrder => &[B::Clob, B::CancelBurst, B::CancelSustained],
        Scope::PostOrder => &[B::Clob, B::OrderBurst, B::OrderSustained],
        Scope::Surface => match request.surface {
            Surface::Catalog => &[B::Catalog],
            Surface::Clob => &[B::Clob],
            Surface::Activity => &[B::Activity],
        },
    }
}

/// `requests` per sliding `window_ms`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limit {
    pub requests: u32,
    pub window_ms: f64,
}

impl Limit {
    pub fn new(requests: f64, window_ms: f64, param: &'static str) -> Result<Limit, Error> {
        let whole = requests.fract() == 0.0 && (1.0..=1e9).contains(&requests);
        if !whole || !window_ms.is_finite() || !(1.0..=86_400_000.0).contains(&window_ms) {
            return Err(Error::invalid(
                param,
                "must be { requests: whole number >= 1, windowMs: 1..86400000 } or false",
            ));
        }
        Ok(Limit { requests: requests as u32, window_ms })
    }
}

/// Identifies one request's place in its buckets until it is released.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ticket(u64);

#[derive(Clone, Copy, Debug)]
struct Entry {
    ticket: u64,
    /// When its answer came back; infinite while in flight.
    done_at: f64,
}

/// Every bucket of one client.
#[derive(Clone, Debug)]
pub struct Budgets {
    limits: [Option<Limit>; COUNT],
    logs: Vec<VecDeque<Entry>>,
    next: u64,
    /// Until when the service said a bucket is spent (its rate-limit headers).
    held: [f64; COUNT],
}

/// Why a request must wait.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Wait {
    /// A place frees at this time.
    Until(f64),
    /// Every place is held by a request still in flight: wait for an answer.
    InFlight,
    /// The request needs more places than the bucket has: it never fits.
    Never,
}

/// The shortest sleep for budget. Browsers clamp chained timers to 4 ms or more, so waking for each place
/// as it frees would pace a queue at 250 requests a second; waking a little later admits every place freed
/// meanwhile at once.
pub const MIN_BUDGET_SLEEP_MS: f64 = 10.0;
/// A request waiting for an answer to free an in-flight place also looks again after this long, in case
/// an answer came without a notice.
pub const ANSWER_WAIT_MS: f64 = 1000.0;

/// What a request that could not take its places does next.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Admission {
    /// Sleep this long, then try again (a place frees then); the wait is told to `onEvent`.
    Sleep(f64),
    /// Wait up to this long for an answer to free an in-flight place, then try again.
    AwaitAnswer(f64),
    /// `RATE_LIMITED`: it would wait longer than `maxQueueMs`; the wait it would have had, when known.
    TooLong(Option<f64>),
}

/// The next step of a request refused by `wait` at `now`, queued since `started`, that may wait at most
/// `max_queue_ms` in all.
pub fn admission(wait: Wait, now: f64, started: f64, max_queue_ms: f64) -> Admission {
    match wait {
        Wait::Until(at) => {
            let sleep = (at - now).max(MIN_BUDGET_SLEEP_MS);
            if now + sleep - started > max_queue_ms {
                Admission::TooLong(Some(sleep))
            } else {
                Admission::Sleep(sleep)
            }
        }
        // Only an answer can free a place: no time is known to report.
        Wait::InFlight if now - started > max_queue_ms => Admission::TooLong(None),
        Wait::Never => Admission::TooLong(None),
        Wait::InFlight => Admission::AwaitAnswer(ANSWER_WAIT_MS),
    }
}

impl Default for Budgets {
    fn default() -> Self {
        Self::with_limits(Bucket::ALL.map(Bucket::default_limit))
    }
}

impl Budgets {
    pub fn with_limits(limits: [Option<Limit>; COUNT]) -> Self {
        Self { limits, logs: vec![VecDeque::new(); COUNT], next: 0, held: [0.0; COUNT] }
    }

    /// The service said these buckets are spent until `until`: no place is taken in them before then (in the
    /// buckets that have a local limit: `rateLimits: false` waits for nothing).
    pub fn hold(&mut self, buckets: &[Bucket], until: f64) {
        for &bucket in buckets {
            if let (Some(_), Some(held)) = (self.limit(bucket), self.held.get_mut(bucket.index())) {
                *held = held.max(until);
            }
        }
    }

    /// No budget at all (`rateLimits: false`).
    pub fn unlimited() -> Self {
        Self::with_limits([None; COUNT])
    }

    pub fn set(&mut self, bucket: Bucket, limit: Option<Limit>) {
        if let Some(slot) = self.limits.get_mut(bucket.index()) {
            *slot = limit;
        }
    }

    pub fn limit(&self, bucket: Bucket) -> Option<Limit> {
        self.limits.get(bucket.index()).copied().flatten()
    }

    /// Takes a place in every bucket now, or says how long to wait. Nothing is taken unless all have room.
    pub fn try_acquire(&mut self, buckets: &[Bucket], now: f64) -> Result<Ticket, Wait> {
        self.try_acquire_entries(buckets, 1, now)
    }

    /// [`Budgets::try_acquire`] for a request of `entries` entries, which the buckets that count entries charge
    /// one place each: all of them now, or none (a batch is admitted whole, as the service admits it).
    pub fn try_acquire_entries(&mut self, buckets: &[Bucket], entries: u32, now: f64) -> Result<Ticket, Wait> {
        let places = |bucket: Bucket| if bucket.counts_entries() { entries.max(1) as usize } else { 1 };
        let mut wait: Option<Wait> = None;
        for &bucket in buckets {
            let (Some(limit), Some(log)) = (self.limit(bucket), self.logs.get_mut(bucket.index())) else {
                continue;
            };
            let needed = places(bucket);
            if needed > limit.requests as usize {
                return Err(Wait::Never);
            }
            log.retain(|e| e.done_at + limit.window_ms > now);
            let held = self.held.get(bucket.index()).copied().unwrap_or(0.0);
            if log.len() + needed <= limit.requests as usize && held <= now {
                continue;
            }
            // The place that frees last of the `needed` first to free (the log's times, earliest first).
            let frees = if held > now {
                held
            } else if needed == 1 {
                log.iter().map(|e| e.done_at + limit.window_ms).fold(f64::INFINITY, f64::min)
            } else {
                // The `over` earliest times, kept in order (a batch has at most 15 entries: no sort is needed).
                let over = (log.len() + needed).saturating_sub(limit.requests as usize);
                let mut earliest: Vec<f64> = Vec::with_capacity(over + 1);
                for t in log.iter().map(|e| e.done_at + limit.window_ms) {
                    let at = earliest.iter().position(|&e| t < e).unwrap_or(earliest.len());
                    if at < over {
                        earliest.insert(at, t);
                        earliest.truncate(over);
                    }
                }
                earliest.last().copied().unwrap_or(f64::INFINITY)
            };
            let this = if frees.is_finite() { Wait::Until(frees) } else { Wait::InFlight };
            wait = Some(match (wait, this) {
                (Some(Wait::InFlight), _) | (_, Wait::InFlight) => Wait::InFlight,
                (Some(Wait::Until(a)), Wait::Until(b)) => Wait::Until(a.max(b)),
                (_, w) => w,
            });
        }
        if let Some(wait) = wait {
            return Err(wait);
        }
        let ticket = self.next;
        self.next += 1;
        for &bucket in buckets {
            if self.limit(bucket).is_some() {
                if let Some(log) = self.logs.get_mut(bucket.index()) {
                    for _ in 0..places(bucket) {
                        log.push_back(Entry { ticket, done_at: f64::INFINITY });
                    }
                }
            }
        }
        Ok(Ticket(ticket))
    }

    /// The request's answer came back (or it failed) at `now`: its places free `window_ms` later.
    pub fn release(&mut self, Ticket(ticket): Ticket, now: f64) {
        for log in &mut self.logs {
            // (A batch's places are side by side in each log.)
            for entry in log.iter_mut().rev().skip_while(|e| e.ticket != ticket).take_while(|e| e.ticket == ticket) {
                entry.done_at = now;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{cancel_order, events, order_book, Params};

    fn small(requests: u32) -> Budgets {
        let mut b = Budgets::unlimited();
        b.set(Bucket::Book, Some(Limit { requests, window_ms: 1000.0 }));
        b
    }

    #[test]
    fn routes_fall_in_their_buckets() {
        assert_eq!(buckets(&order_book("1").unwrap()), [Bucket::Clob, Bucket::Book]);
        assert_eq!(buckets(&events(&Params::default()).unwrap()), [Bucket::Catalog, Bucket::Events, Bucket::Listings]);
        assert_eq!(buckets(&cancel_order("x").unwrap()), [Bucket::Clob, Bucket::CancelBurst, Bucket::CancelSustained]);
        assert_eq!(buckets(&crate::api::trades(&Params::default()).unwrap()), [Bucket::Activity]);
        assert_eq!(
            buckets(&crate::api::clob_markets(None).unwrap()),
            [Bucket::Clob, Bucket::Markets, Bucket::Listings]
        );
    }

    #[test]
    fn defaults_are_the_interface_table() {
        let b = Budgets::default();
        assert_eq!(b.limit(Bucket::Book), Some(Limit { requests: 200, window_ms: 10_000.0 }));
        assert_eq!(b.limit(Bucket::CancelSustained), Some(Limit { requests: 24_000, window_ms: 600_000.0 }));
        assert_eq!(b.limit(Bucket::Activity), None);
        for bucket in Bucket::ALL {
            assert_eq!(Bucket::from_name(bucket.name()), Some(bucket));
        }
    }

    #[test]
    fn a_full_window_frees_a_window_after_the_answers() {
        let mut b = small(2);
        let t1 = b.try_acquire(&[Bucket::Book], 0.0).unwrap();
        let t2 = b.try_acquire(&[Bucket::Book], 10.0).unwrap();
        assert_eq!(b.try_acquire(&[Bucket::Book], 20.0), Err(Wait::InFlight));
        b.release(t1, 50.0);
        assert_eq!(b.try_acquire(&[Bucket::Book], 60.0), Err(Wait::Until(1050.0)));
        b.release(t2, 70.0);
        assert_eq!(b.try_acquire(&[Bucket::Book], 1049.0), Err(Wait::Until(1050.0)));
        assert!(b.try_acquire(&[Bucket::Book], 1050.0).is_ok());
        assert_eq!(b.try_acquire(&[Bucket::Book], 1060.0), Err(Wait::Until(1070.0)));
    }

    #[test]
    fn nothing_is_taken_unless_every_bucket_has_room() {
        let mut b = small(1);
        b.set(Bucket::Clob, Some(Limit { requests: 5, window_ms: 1000.0 }));
        let t = b.try_acquire(&[Bucket::Clob, Bucket::Book], 0.0).unwrap();
        b.release(t, 0.0);
        assert!(b.try_acquire(&[Bucket::Clob, Bucket::Book], 1.0).is_err());
        // The refused request took no place in the CLOB bucket: four more fit there.
        for i in 0..4 {
            b.try_acquire(&[Bucket::Clob], 2.0 + f64::from(i)).unwrap();
        }
        assert!(b.try_acquire(&[Bucket::Clob], 10.0).is_err());
    }

    #[test]
    fn a_window_never_holds_more_than_its_limit() {
        // Whatever the pattern of sends and answers, no window of the bucket's length sees more sends than
        // the limit: the property the service enforces.
        let mut b = small(3);
        let mut sent = Vec::new();
        let mut in_flight: Vec<(Ticket, f64)> = Vec::new();
        let mut now = 0.0;
        for step in 0..2000u32 {
            now += f64::from(step % 7) * 13.0;
            in_flight.retain(|&(t, done)| {
                if done <= now {
                    b.release(t, done);
                    false
                } else {
                    true
                }
            });
            if let Ok(t) = b.try_acquire(&[Bucket::Book], now) {
                sent.push(now);
                in_flight.push((t, now + f64::from(step % 5) * 40.0));
            }
        }
        assert!(sent.len() > 100);
        for (i, &start) in sent.iter().enumerate() {
            let within = sent[i..].iter().take_while(|&&t| t < start + 1000.0).count();
            assert!(within <= 3, "{within} sends within a window from {start}");
        }
    }

    #[test]
    fn a_batch_is_admitted_whole_or_not_at_all() {
        // Issue 33: the service admits a batch of orders only if its bucket can pay for every entry.
        let mut b = Budgets::unlimited();
        b.set(Bucket::Clob, Some(Limit { requests: 100, window_ms: 1000.0 }));
        b.set(Bucket::OrderBurst, Some(Limit { requests: 20, window_ms: 1000.0 }));
        let orders = [Bucket::Clob, Bucket::OrderBurst];
        let single: Vec<Ticket> = (0..8).map(|i| b.try_acquire(&orders, f64::from(i)).unwrap()).collect();
        // 8 taken, 12 left: a batch of 15 waits, taking nothing, while 12 single orders still fit.
        assert_eq!(b.try_acquire_entries(&orders, 15, 10.0), Err(Wait::InFlight));
        for (i, t) in single.iter().enumerate() {
            b.release(*t, 100.0 + i as f64);
        }
        // It needs 3 of the 8 places back: the third to free frees at 102 + 1000.
        assert_eq!(b.try_acquire_entries(&orders, 15, 200.0), Err(Wait::Until(1102.0)));
        let batch = b.try_acquire_entries(&orders, 12, 200.0).unwrap();
        assert_eq!(b.try_acquire(&orders, 201.0), Err(Wait::Until(1100.0)), "the batch took 12 places");
        // The CLOB bucket counts the batch once: 8 singles and the batch.
        assert_eq!(b.logs[Bucket::Clob.index()].len(), 9);
        // Its release frees every one of its places.
        b.release(batch, 300.0);
        assert!(b.try_acquire_entries(&orders, 15, 1300.0).is_ok());
        // More entries than the bucket ever holds never fit, and say so at once.
        assert_eq!(b.try_acquire_entries(&orders, 21, 5000.0), Err(Wait::Never));
        assert_eq!(admission(Wait::Never, 0.0, 0.0, f64::INFINITY), Admission::TooLong(None));
    }

    #[test]
    fn limits_are_checked() {
        assert!(Limit::new(10.0, 1000.0, "rateLimits.book").is_ok());
        for (r, w) in [(0.0, 1000.0), (1.5, 1000.0), (10.0, 0.0), (10.0, f64::NAN), (f64::INFINITY, 1.0)] {
            assert_eq!(Limit::new(r, w, "rateLimits.book").unwrap_err().param.as_deref(), Some("rateLimits.book"));
        }
    }

    #[test]
    fn admission_sleeps_until_a_place_frees_or_says_too_long() {
        let inf = f64::INFINITY;
        // (wait, now, started, maxQueueMs, step)
        let table = [
            (Wait::Until(1_500.0), 1_000.0, 1_000.0, inf, Admission::Sleep(500.0)),
            // Never less than the timer floor, even for a place freeing now or in the past.
            (Wait::Until(1_002.0), 1_000.0, 1_000.0, inf, Admission::Sleep(MIN_BUDGET_SLEEP_MS)),
            (Wait::Until(900.0), 1_000.0, 1_000.0, inf, Admission::Sleep(MIN_BUDGET_SLEEP_MS)),
            // The whole wait counts against maxQueueMs, from when the request was queued.
            (Wait::Until(1_500.0), 1_000.0, 800.0, 700.0, Admission::Sleep(500.0)),
            (Wait::Until(1_500.0), 1_000.0, 800.0, 699.0, Admission::TooLong(Some(500.0))),
            (Wait::InFlight, 1_000.0, 1_000.0, inf, Admission::AwaitAnswer(ANSWER_WAIT_MS)),
            (Wait::InFlight, 1_000.0, 500.0, 500.0, Admission::AwaitAnswer(ANSWER_WAIT_MS)),
            (Wait::InFlight, 1_000.0, 499.0, 500.0, Admission::TooLong(None)),
        ];
        for (wait, now, started, max, want) in table {
            assert_eq!(admission(wait, now, started, max), want, "{wait:?} at {now}, since {started}, max {max}");
        }
    }
}
