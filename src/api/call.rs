//! Every REST call of one client, as a synchronous machine a task (`crate::task`) runs: it asks what a call
//! needs next ([`Calls::next`]: send this request, wait this long, done, failed) and tells what happened
//! ([`Calls::supply`], [`Calls::stop`]). The machine decides everything: which budgets a request takes
//! and in what order queued requests go, what is signed, which redirects are refused, what an answer
//! means, and whether, when and how often a call is tried again. The driver only does the I/O, and its
//! waits end early when the machine says so (a queued call's turn, a place freed by an answer).

use std::collections::VecDeque;

use super::budget::{admission, buckets, Admission, Bucket, Budgets, Ticket};
use super::clock;
use super::config::TimestampUnit;
use super::request::{HttpRequest, Surface};
use super::response::{check_response, excerpt, refuses_redirects, unfollowed_redirect};
use super::retry::{retry_after_ms, retry_delay, Outcome, RetryPolicy};
use crate::auth::{missing_credentials, Credentials, HEADER_NAMES};
use crate::error::{Error, ErrorCode};
use crate::json::{write_str, JsonWriter};

/// The base URL of each surface, without a trailing slash.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaseUrls {
    pub catalog: String,
    pub clob: String,
    pub activity: String,
}

impl BaseUrls {
    /// One base URL for every surface.
    pub fn one(url: String) -> Self {
        BaseUrls { catalog: url.clone(), clob: url.clone(), activity: url }
    }

    pub fn for_surface(&self, surface: Surface) -> &str {
        match surface {
            Surface::Catalog => &self.catalog,
            Surface::Clob => &self.clob,
            Surface::Activity => &self.activity,
        }
    }
}

/// What a 2xx answer is read as. `P` is what the call's owner (a layer above this one) takes of an answer:
/// the machine reads it where it can retry an answer that does not read, and keeps it for the owner.
pub enum Expect<P> {
    /// JSON, parsed by the JS engine: the driver tells whether it parsed, and keeps the value.
    Json,
    /// The bytes, checked and summed up by the function as a small JSON result (the driver keeps the bytes).
    Bytes(fn(&[u8]) -> Result<String, Error>),
    /// The bytes, read by the function (told the `u8`: which read it is) into the product the call's owner
    /// takes ([`Calls::take_product`]).
    Read(fn(u8, Vec<u8>) -> Result<P, Error>, u8),
    /// Any answer's text, whatever its status, read by the function into the product (a heartbeat's 400 names
    /// the id the service expects). An answer it does not take (`None`) is an error as usual, and a 2xx one
    /// fails with the text given.
    Any(fn(u16, Option<&str>) -> Option<P>, &'static str),
    /// Any answer, whatever its status, read for the service's clock (GET /time): the result is the offset
    /// to add to the local clock, which the machine signs with from then on.
    Clock,
}

impl<P> Clone for Expect<P> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<P> Copy for Expect<P> {}

impl<P> Expect<P> {
    /// Whether the answer is read as text (the JS engine parses JSON; the clock and `Any` read the text).
    fn reads_text(&self) -> bool {
        matches!(self, Expect::Json | Expect::Clock | Expect::Any(..))
    }
}

/// The settings of one call.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CallLimits {
    pub max_retries: u32,
    /// The call's deadline from its first step (`timeoutMs`; infinite for none). The machine keeps it: its
    /// waits and attempts end by it, and it does not wait for a retry that could not be sent before it, ending
    /// the call with the attempt's error instead (a 429's RATE_LIMITED with its `retryAfterMs`, not a later
    /// TIMEOUT).
    pub timeout_ms: f64,
    /// `attemptTimeoutMs`, when given ([`super::retry::attempt_timeout`] decides each attempt's).
    pub attempt_timeout_ms: Option<f64>,
}

/// What the driver does next for a call.
#[derive(Debug, PartialEq)]
pub enum Need {
    /// Send this request (one attempt).
    Send(Send),
    /// Wait this long (none: until woken), then ask again; `event` is told to `onEvent`.
    Wait { ms: Option<f64>, event: Option<Event> },
    /// The call succeeded: its result as JSON (`null` when the driver holds the value).
    Done(String),
    /// The call failed with this error.
    Fail(Error),
}

/// One attempt's request, as `fetch` takes it.
#[derive(Debug, PartialEq)]
pub struct Send {
    pub url: String,
    pub method: &'static str,
    pub headers: Vec<(&'static str, String)>,
    pub body: Option<String>,
    /// Redirects refused (`redirect: "manual"`): the request carries credentials.
    pub manual: bool,
    /// The 2xx body is wanted as bytes (else as text).
    pub bytes: bool,
    /// The 2xx text is JSON for the driver to parse (and tell whether it parsed).
    pub parse: bool,
    /// Abandon the attempt after this long (and tell it as [`Ended::Stalled`]); none: it has the call's time.
    pub attempt_ms: Option<f64>,
}

/// What `onEvent` is told.
#[derive(Debug, PartialEq)]
pub enum Event {
    /// The call waits this long for rate budget.
    Wait { delay_ms: f64 },
    /// The attempt failed with `error`; retry number `attempt` follows after `delay_ms`.
    Retry { delay_ms: f64, attempt: u32, error: Error },
}

/// How an attempt ended, as the driver saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// An HTTP answer came, with its whole body (as the request asked: text or bytes).
    Answer,
    /// No answer at all (refused, reset, DNS, CORS, a fetch that threw).
    Network,
    /// The answer's body could not be read to its end.
    Cut,
    /// The 2xx body is larger than the largest read.
    Large,
    /// The attempt took longer than its `attempt_ms` and was abandoned.
    Stalled,
}

/// What the driver tells of an attempt.
#[derive(Debug, Default)]
pub struct Reply<'a> {
    pub ended: Option<Ended>,
    pub status: u16,
    /// A redirect the browser left unfollowed (`redirect: "manual"` shows it as opaque, status 0).
    pub opaque_redirect: bool,
    /// The answer says it came through a redirect.
    pub redirected: bool,
    /// A 2xx JSON body parsed.
    pub parsed: bool,
    pub retry_after: Option<&'a str>,
    pub date: Option<&'a str>,
    /// The body as text: its start for a non-2xx status, a JSON body that did not parse, or GET /time's.
    pub text: Option<&'a str>,
    /// A 2xx body read as bytes.
    pub bytes: Option<Vec<u8>>,
    /// When the attempt was sent (for the clock's round trip).
    pub sent: f64,
    /// What the answer's `Poly-RateLimit-*` headers told.
    pub rate_limit: Option<super::response::RateLimitNotice>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum State {
    /// About to take its places (first attempt, or after a backoff).
    Ready,
    /// In its scope's queue behind others.
    Queued,
    /// First in its scope's queue since `since`; `awaiting_answer` when only an answer can free a place.
    Head {
        since: f64,
        awaiting_answer: bool,
    },
    /// An attempt is on its way, holding `Ticket`.
    Sent(Ticket),
    /// Waiting before its next attempt.
    Backoff,
    Finished,
}

struct Call<P> {
    request: HttpRequest,
    expect: Expect<P>,
    limits: CallLimits,
    retries: u32,
    state: State,
    /// When the call's deadline passes (set at its first step).
    deadline: Option<f64>,
    manual: bool,
    product: Option<P>,
}

/// The calls of one client and what they share: the rate budgets, the in-flight limit, a queue per scope.
pub struct Calls<P = ()> {
    bases: BaseUrls,
    budgets: Budgets,
    policy: RetryPolicy,
    in_flight: u32,
    max_in_flight: u32,
    max_queue_ms: f64,
    /// Added to the local clock when signing (`clockOffsetMs`, `syncClock()`).
    pub clock_offset_ms: f64,
    pub timestamp_unit: TimestampUnit,
    /// The calls waiting for their places, per scope, in arrival order.
    queues: Vec<(usize, VecDeque<u32>)>,
    calls: Vec<Option<Call<P>>>,
    free: Vec<u32>,
    woken: Vec<u32>,
    seed: u64,
    /// The last answer's rate-limit notice, until the task takes it.
    notice: Option<String>,
}

/// The settings a client's calls share.
pub struct CallsSettings {
    pub bases: BaseUrls,
    pub budgets: Budgets,
    pub policy: RetryPolicy,
    pub max_in_flight: u32,
    pub max_queue_ms: f64,
    pub clock_offset_ms: f64,
    pub timestamp_unit: TimestampUnit,
    /// Seeds the backoff's jitter.
    pub seed: u64,
}

impl<P> Calls<P> {
    pub fn new(s: CallsSettings) -> Self {
        Calls {
            bases: s.bases,
            budgets: s.budgets,
            policy: s.policy,
            in_flight: 0,
            max_in_flight: s.max_in_flight.max(1),
            max_queue_ms: s.max_queue_ms,
            clock_offset_ms: s.clock_offset_ms,
            timestamp_unit: s.timestamp_unit,
            queues: Vec::new(),
            calls: Vec::new(),
            free: Vec::new(),
            woken: Vec::new(),
            seed: s.seed | 1,
            notice: None,
        }
    }

    pub fn bases(&self) -> &BaseUrls {
        &self.bases
    }

    /// The client's retries when a call sets none.
    pub fn max_retries(&self) -> u32 {
        self.policy.max_retries
    }

    /// Starts a call of `request`; its id is for `next`, `supply`, `stop` and `finish`.
    pub fn start(&mut self, request: HttpRequest, expect: Expect<P>, limits: CallLimits) -> u32 {
        let manual = refuses_redirects(request.header_names());
        let call =
            Call { request, expect, limits, retries: 0, state: State::Ready, deadline: None, manual, product: None };
        match self.free.pop() {
            Some(id) => {
                if let Some(slot) = self.calls.get_mut(id as usize) {
                    *slot = Some(call);
                }
                id
            }
            None => {
                self.calls.push(Some(call));
                (self.calls.len() - 1) as u32
            }
        }
    }

    /// Forgets a call (whatever its state: a call dropped midway gives back what it holds).
    pub fn finish(&mut self, id: u32, now: f64) {
        if self.call(id).is_none() {
            return;
        }
        self.leave(id, now);
        if let Some(slot) = self.calls.get_mut(id as usize) {
            *slot = None;
            self.free.push(id);
        }
    }

    /// The calls whose wait should end now (their turn came, or a place was freed), for the driver to
    /// ask again; each may be told more than once.
    pub fn take_woken(&mut self) -> Vec<u32> {
        std::mem::take(&mut self.woken)
    }

    /// The service's rate-limit notice of the last answer (`onEvent`'s `rateLimit` event, as JSON), once.
    pub fn take_notice(&mut self) -> Option<String> {
        self.notice.take()
    }

    /// The request of call `id` (for its events).
    pub fn request(&self, id: u32) -> Option<&HttpRequest> {
        self.call(id).map(|c| &c.request)
    }

    /// What a finished [`Expect::Read`] or [`Expect::Any`] call's answer was read into.
    pub fn take_product(&mut self, id: u32) -> Option<P> {
        self.calls.get_mut(id as usize)?.as_mut()?.product.take()
    }

    fn call(&self, id: u32) -> Option<&Call<P>> {
        self.calls.get(id as usize)?.as_ref()
    }

    fn call_mut(&mut self, id: u32) -> Option<&mut Call<P>> {
        self.calls.get_mut(id as usize)?.as_mut()
    }

    /// The first call in the queue of the scope `key`.
    fn first(&self, key: usize) -> Option<u32> {
        self.queues.iter().find(|(k, _)| *k == key).and_then(|(_, q)| q.front().copied())
    }

    fn enqueue(&mut self, key: usize, id: u32) {
        match self.queues.iter_mut().find(|(k, _)| *k == key) {
            Some((_, queue)) => queue.push_back(id),
            None => self.queues.push((key, VecDeque::from([id]))),
        }
    }

    /// What call `id` needs now, at `now` (milliseconds since the epoch); `credentials` sign it.
    ///
    /// The machine keeps the call's deadline (`timeoutMs` from its first step): no wait or attempt it asks for
    /// lasts past it, and a call still waiting or sending then ends with `TIMEOUT`.
    pub fn next(&mut self, id: u32, now: f64, credentials: Option<&Credentials>) -> Need {
        let Some(call) = self.call_mut(id) else { return Need::Fail(gone()) };
        let deadline = *call.deadline.get_or_insert(now + call.limits.timeout_ms);
        if !matches!(call.state, State::Finished | State::Sent(_)) && at(now, deadline) {
            return self.stop(id, true, now);
        }
        match self.step(id, now, credentials) {
            Need::Wait { ms, event } => Need::Wait { ms: by_deadline(ms, now, deadline), event },
            need => need,
        }
    }

    fn step(&mut self, id: u32, now: f64, credentials: Option<&Credentials>) -> Need {
        let Some(call) = self.call(id) else { return Need::Fail(gone()) };
        let key = call.request.scope as usize;
        match call.state {
            State::Finished => Need::Fail(gone()),
            // The attempt's answer is to be supplied, not waited for: a driver that asks is out of step.
            State::Sent(_) => Need::Fail(gone()),
            State::Ready | State::Backoff => {
                if self.first(key).is_none() {
                    if let Ok(ticket) = self.try_take(id, now) {
                        return self.send(id, ticket, now, credentials);
                    }
                }
                self.enqueue(key, id);
                self.set_state(id, State::Queued);
                self.step(id, now, credentials)
            }
            State::Queued => {
                if self.first(key) != Some(id) {
                    return Need::Wait { ms: None, event: None };
                }
                self.set_state(id, State::Head { since: now, awaiting_answer: false });
                self.step(id, now, credentials)
            }
            State::Head { since, .. } => match self.try_take(id, now) {
                Ok(ticket) => {
                    self.dequeue(id, key);
                    self.send(id, ticket, now, credentials)
                }
                Err(wait) => match admission(wait, now, since, self.max_queue_ms) {
                    Admission::TooLong(wait_ms) => {
                        self.dequeue(id, key);
                        let mut e = Error::new(
                            ErrorCode::RateLimited,
                            "the local rate budget would not free within maxQueueMs",
                        );
                        e.retry_after_ms = wait_ms.map(|ms| ms as u64);
                        self.fail(id, e)
                    }
                    Admission::AwaitAnswer(ms) => {
                        self.set_state(id, State::Head { since, awaiting_answer: true });
                        Need::Wait { ms: Some(ms), event: None }
                    }
                    Admission::Sleep(ms) => {
                        self.set_state(id, State::Head { since, awaiting_answer: false });
                        Need::Wait { ms: Some(ms), event: Some(Event::Wait { delay_ms: ms }) }
                    }
                },
            },
        }
    }

    /// Tells how call `id`'s attempt ended, at `now`; answers what it needs next.
    pub fn supply(&mut self, id: u32, now: f64, mut reply: Reply<'_>) -> Need {
        let Some(call) = self.call(id) else { return Need::Fail(gone()) };
        let State::Sent(ticket) = call.state else { return Need::Fail(gone()) };
        // An attempt abandoned at the deadline ends the call.
        if reply.ended == Some(Ended::Stalled) && at(now, call.deadline.unwrap_or(f64::INFINITY)) {
            return self.stop(id, true, now);
        }
        // The service's own count of the bucket: told to `onEvent`, and a spent bucket is waited for here too
        // (the request's own buckets, not the surface's, which the headers do not speak of).
        if let Some(told) = reply.rate_limit.take() {
            let own: Vec<Bucket> = buckets(&call.request)
                .iter()
                .copied()
                .filter(|b| !matches!(b, Bucket::Clob | Bucket::Catalog | Bucket::Activity))
                .collect();
            self.notice = Some(told.event_json(&call.request));
            if let Some(until) = told.spent_until_ms() {
                self.budgets.hold(&own, until);
            }
        }
        self.release(ticket, now);
        let failure = match self.read(id, now, reply) {
            Ok(result) => {
                self.set_state(id, State::Finished);
                return Need::Done(result);
            }
            Err(failure) => failure,
        };
        let Some(call) = self.call(id) else { return Need::Fail(gone()) };
        let policy = RetryPolicy { max_retries: call.limits.max_retries, ..self.policy };
        let (retries, idempotent) = (call.retries, call.request.idempotent());
        let deadline = call.deadline.unwrap_or(f64::INFINITY);
        let random = self.random();
        let Failure { outcome, retry_after_ms, error, final_ } = failure;
        if final_ {
            return self.fail(id, error);
        }
        match retry_delay(&policy, retries, outcome, idempotent, retry_after_ms, random) {
            // A retry that could not be sent before the deadline is not waited for.
            Some(delay_ms) if now + delay_ms >= deadline => self.fail(id, error),
            Some(delay_ms) => {
                if let Some(call) = self.call_mut(id) {
                    call.retries += 1;
                    call.state = State::Backoff;
                }
                Need::Wait { ms: Some(delay_ms), event: Some(Event::Retry { delay_ms, attempt: retries + 1, error }) }
            }
            None => self.fail(id, error),
        }
    }

    /// Ends call `id` because its signal aborted (`timed_out`: its deadline passed); gives back what it holds.
    pub fn stop(&mut self, id: u32, timed_out: bool, now: f64) -> Need {
        if self.call(id).is_none() {
            return Need::Fail(gone());
        }
        self.leave(id, now);
        let e = if timed_out {
            Error::new(ErrorCode::Timeout, "the request did not finish within timeoutMs")
        } else {
            Error::new(ErrorCode::Aborted, "the request was aborted by its AbortSignal")
        };
        self.fail(id, e)
    }

    /// Leaves the queue and gives back the places of an attempt on its way.
    fn leave(&mut self, id: u32, now: f64) {
        let Some(call) = self.call(id) else { return };
        let key = call.request.scope as usize;
        match call.state {
            State::Queued | State::Head { .. } => self.dequeue(id, key),
            State::Sent(ticket) => self.release(ticket, now),
            _ => {}
        }
        self.set_state(id, State::Finished);
    }

    fn fail(&mut self, id: u32, mut e: Error) -> Need {
        if let Some(call) = self.call_mut(id) {
            call.state = State::Finished;
            with_request(&mut e, &call.request);
        }
        Need::Fail(e)
    }

    fn set_state(&mut self, id: u32, state: State) {
        if let Some(call) = self.call_mut(id) {
            call.state = state;
        }
    }

    /// Takes the request's places in every budget and in the in-flight limit, or says why not.
    fn try_take(&mut self, id: u32, now: f64) -> Result<Ticket, super::budget::Wait> {
        if self.in_flight >= self.max_in_flight {
            return Err(super::budget::Wait::InFlight);
        }
        let Some(call) = self.calls.get(id as usize).and_then(Option::as_ref) else {
            return Err(super::budget::Wait::InFlight);
        };
        let ticket = self.budgets.try_acquire_entries(buckets(&call.request), call.request.entries, now)?;
        self.in_flight += 1;
        Ok(ticket)
    }

    /// An attempt is over: its budget places start to free, its in-flight place is free now, and the
    /// queues' first calls that wait for an answer look again.
    fn release(&mut self, ticket: Ticket, now: f64) {
        self.budgets.release(ticket, now);
        self.in_flight = self.in_flight.saturating_sub(1);
        for (_, queue) in &self.queues {
            let Some(&head) = queue.front() else { continue };
            let awaiting = self
                .calls
                .get(head as usize)
                .and_then(Option::as_ref)
                .is_some_and(|c| matches!(c.state, State::Head { awaiting_answer: true, .. }));
            if awaiting {
                self.woken.push(head);
            }
        }
    }

    /// Takes `id` out of its queue; the next call in line is woken for its turn.
    fn dequeue(&mut self, id: u32, key: usize) {
        let Some((_, queue)) = self.queues.iter_mut().find(|(k, _)| *k == key) else { return };
        let was_first = queue.front() == Some(&id);
        queue.retain(|&q| q != id);
        if was_first {
            if let Some(&head) = queue.front() {
                self.woken.push(head);
            }
        }
    }

    /// The attempt's request, signed afresh over exactly the path and body sent.
    fn send(&mut self, id: u32, ticket: Ticket, now: f64, credentials: Option<&Credentials>) -> Need {
        let timestamp = self.timestamp_unit.format(now + self.clock_offset_ms);
        let Some(call) = self.calls.get_mut(id as usize).and_then(Option::as_mut) else { return Need::Fail(gone()) };
        let request = &call.request;
        let mut headers = request.headers.clone();
        if request.headers.is_empty() && request.auth {
            let Some(creds) = credentials else {
                self.release(ticket, now);
                return self.fail(id, missing_credentials());
            };
            let values = creds.headers(&timestamp, request.method.as_str(), &request.path, request.body.as_deref());
            headers.extend(HEADER_NAMES.iter().copied().zip(values));
        }
        if request.body.is_some() {
            headers.push(("Content-Type", "application/json".into()));
        }
        call.state = State::Sent(ticket);
        let remaining = call.deadline.map_or(f64::INFINITY, |d| d - now);
        let retries_left = call.limits.max_retries.saturating_sub(call.retries);
        // An attempt that may be abandoned and tried again has its own time; every attempt ends by the deadline.
        let attempt_ms = super::retry::attempt_timeout(
            request.idempotent(),
            retries_left,
            remaining,
            call.limits.attempt_timeout_ms,
        );
        let attempt_ms = if remaining.is_finite() { attempt_ms.or(Some(remaining.max(0.0))) } else { attempt_ms };
        Need::Send(Send {
            url: request.url(self.bases.for_surface(request.surface)),
            method: request.method.as_str(),
            headers,
            body: request.body.clone(),
            manual: call.manual,
            bytes: !call.expect.reads_text(),
            parse: matches!(call.expect, Expect::Json),
            attempt_ms,
        })
    }

    /// What an attempt's reply means: the call's result, or a failure to weigh for a retry.
    fn read(&mut self, id: u32, now: f64, reply: Reply<'_>) -> Result<String, Failure> {
        let offset_from = |reply: &Reply<'_>| {
            let body = reply.text.map(|t| t.get(..64).unwrap_or(t));
            clock::reading_ms(reply.status, body, reply.date).map(|server| clock::offset_ms(server, reply.sent, now))
        };
        let Some(call) = self.calls.get_mut(id as usize).and_then(Option::as_mut) else {
            return Err(Failure::of(Outcome::Network, gone()));
        };
        let request = &call.request;
        let status = reply.status;
        let with_status = |mut e: Error| {
            e.status = Some(status);
            with_request(&mut e, request);
            e
        };
        match reply.ended {
            Some(Ended::Answer) => {}
            Some(Ended::Cut) => {
                return Err(Failure::of(Outcome::BodyCut, with_status(Error::decode("the response body was cut off"))))
            }
            Some(Ended::Stalled) => {
                let mut e = Error::new(ErrorCode::Timeout, "the attempt passed attemptTimeoutMs");
                with_request(&mut e, request);
                return Err(Failure::of(Outcome::Stalled, e));
            }
            Some(Ended::Large) => {
                let e = Error::decode("the response body is larger than the largest book read (64 MiB)");
                return Err(Failure::of(Outcome::Status(status), with_status(e)));
            }
            Some(Ended::Network) | None => {
                let mut e = Error::new(
                    ErrorCode::Network,
                    "the request got no answer (network error, CORS or connection reset)",
                );
                with_request(&mut e, request);
                return Err(Failure::of(Outcome::Network, e));
            }
        }
        if let Some(e) = unfollowed_redirect(request, call.manual, status, reply.opaque_redirect, reply.redirected) {
            return Err(Failure::of(Outcome::Status(status), e));
        }
        if let Expect::Clock = call.expect {
            return match offset_from(&reply) {
                Some(offset) => {
                    self.clock_offset_ms = offset;
                    Ok(crate::text::signed(offset as i64))
                }
                None => {
                    let mut e = Error::decode("the service told no time: no GET /time and no readable Date header");
                    e.path = Some(request.path.clone());
                    Err(Failure { outcome: Outcome::Status(status), retry_after_ms: None, error: e, final_: true })
                }
            };
        }
        if let Expect::Any(read, _) = call.expect {
            if let Some(product) = read(status, reply.text) {
                call.product = Some(product);
                return Ok("null".into());
            }
        }
        if !(200..300).contains(&status) {
            let retry_after = reply.retry_after.and_then(|v| retry_after_ms(v, now));
            let body = reply.text.unwrap_or_default();
            let error = check_response(request, status, body.as_bytes(), retry_after).err().unwrap_or_else(gone);
            // The wait the service asked for: its Retry-After, else its body's retry_after_seconds.
            let retry_after = retry_after.or(error.retry_after_ms.map(|ms| ms as f64));
            return Err(Failure {
                outcome: Outcome::Status(status),
                retry_after_ms: retry_after,
                error,
                final_: false,
            });
        }
        // A body that arrived whole but does not read was most likely garbled on the way: it is retried
        // like a cut one.
        let garbled = |e: Error| Failure::of(Outcome::BodyCut, with_status(e));
        match call.expect {
            Expect::Json if reply.parsed => Ok("null".into()),
            Expect::Json => {
                let mut e = Error::decode("the response is not valid JSON");
                e.body = Some(excerpt(reply.text.unwrap_or_default().as_bytes()));
                Err(garbled(e))
            }
            Expect::Bytes(check) => {
                let mut bytes = reply.bytes.ok_or_else(|| garbled(Error::decode("expected a byte body")))?;
                let result = check(&bytes);
                // A key route's answer holds the key's secret and passphrase.
                zeroize::Zeroize::zeroize(&mut bytes);
                result.map_err(garbled)
            }
            Expect::Read(read, kind) => {
                let bytes = reply.bytes.ok_or_else(|| garbled(Error::decode("expected a byte body")))?;
                call.product = Some(read(kind, bytes).map_err(garbled)?);
                Ok("null".into())
            }
            Expect::Any(_, unread) => Err(garbled(Error::decode(unread))),
            Expect::Clock => Err(garbled(gone())),
        }
    }

    /// A uniform draw in [0, 1) for the backoff's jitter (xorshift64*).
    fn random(&mut self) -> f64 {
        let mut x = self.seed;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.seed = x;
        (x.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A failed attempt: what happened (for the retry decision), `Retry-After` if given, and the error.
struct Failure {
    outcome: Outcome,
    retry_after_ms: Option<f64>,
    error: Error,
    /// Not to be retried whatever happened (a clock that told no time).
    final_: bool,
}

impl Failure {
    fn of(outcome: Outcome, error: Error) -> Self {
        Failure { outcome, retry_after_ms: None, error, final_: false }
    }
}

/// Whether the deadline has come at `now` (within the clock's millisecond: a timer set for what was left of it
/// may fire by a page clock that reads one short).
fn at(now: f64, deadline: f64) -> bool {
    now + 1.0 >= deadline
}

/// A wait of `ms` (none: until woken) that ends by the deadline at the latest.
fn by_deadline(ms: Option<f64>, now: f64, deadline: f64) -> Option<f64> {
    let left = deadline - now;
    if !left.is_finite() {
        return ms;
    }
    Some(ms.map_or(left, |ms| ms.min(left)).max(0.0))
}

/// The error of a call the machine no longer knows (finished, or never started).
fn gone() -> Error {
    Error::new(ErrorCode::Decode, "the call is over")
}

pub fn with_request(e: &mut Error, request: &HttpRequest) {
    e.method = Some(request.method.as_str());
    e.path = Some(request.path.clone());
}

/// An error as the JSON object the driver makes a `PredictKitError` of.
pub fn error_json(e: &Error) -> String {
    let mut w = JsonWriter::object();
    write_error(&mut w, e);
    w.finish()
}

fn write_error(w: &mut JsonWriter, e: &Error) {
    w.field_str("code", e.code.as_str());
    w.field_str("message", &e.message);
    if let Some(param) = &e.param {
        w.field_str("param", param);
    }
    if let Some(status) = e.status {
        w.field_raw("status", &crate::text::decimal(u64::from(status)));
    }
    if let Some(method) = e.method {
        w.field_str("method", method);
    }
    if let Some(path) = &e.path {
        w.field_str("path", path);
    }
    if let Some(ms) = e.retry_after_ms {
        w.field_raw("retryAfterMs", &crate::text::decimal(ms));
    }
    if let Some(mode) = e.mode {
        w.field_str("mode", mode);
    }
    if let Some(finding) = e.finding {
        w.key("finding");
        w.object_start();
        w.field_str("code", finding.code);
        w.field_str("fix", finding.fix);
        w.object_end();
    }
    if let Some(body) = &e.body {
        w.field_str("body", body);
    }
}

/// A JSON string literal (for results that are text).
pub fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    write_str(&mut out, text);
    out
}

#[cfg(test)]
#[path = "call_tests.rs"]
mod tests;
