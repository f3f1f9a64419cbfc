//! The dead-man switch (`client.heartbeats()`): the service cancels an API key's orders when no heartbeat
//! (`POST /v1/heartbeats`) comes within 10 s of the last, so a handle sends one every few seconds, chaining the
//! id each answer returns, and says when the orders may be gone. A pure state machine: the driver asks it what
//! to do at each moment (send, wait, tell a status), and hands it each answer.
//!
//! The upstream shapes (Polymarket/clob-client-v2 `postHeartbeat`, rs-clob-client-v2's `heartbeats` feature, the
//! unified SDKs' `order-heartbeats`): the body `{"heartbeat_id": id}`, `""` to start a chain; the answer
//! `{"heartbeat_id": next}`; a 400 `{"error_msg": "Invalid Heartbeat ID", "heartbeat_id": expected}` when the id is
//! not the one the service expects, which is then sent ("retry explicitly with its heartbeatId"); sent every 5 s,
//! with no retry of its own (the next beat is the retry); 10 s without one cancels the key's orders.

use crate::api::call::{CallLimits, Expect};
use crate::error::Error;
use crate::json::JsonWriter;
use crate::json::Value;
use crate::task::{self, Got, Machine, Need, Why};

/// How often a heartbeat is sent unless the options say otherwise (the upstream clients' interval).
pub const DEFAULT_INTERVAL_MS: f64 = 5_000.0;
/// The service's deadline: no heartbeat for this long and the key's orders are cancelled.
pub const DEADLINE_MS: f64 = 10_000.0;
/// The shortest interval the options may ask for (a test's), and the longest that still leaves a failed beat one
/// more try before the deadline.
pub const MIN_INTERVAL_MS: f64 = 50.0;
pub const MAX_INTERVAL_MS: f64 = 8_000.0;
/// How soon a failed beat is tried again (sooner than the interval: the deadline runs).
const RETRY_MS: f64 = 1_000.0;
/// The shortest time a beat is given to be answered.
const MIN_BEAT_MS: f64 = 500.0;
/// How many id mismatches in a row are followed at once; more wait for the next beat.
const MISMATCH_RUN: u32 = 2;

/// What the handle says of the key's orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// No heartbeat accepted yet.
    Starting,
    /// The last heartbeat was accepted and the next is on time.
    Ok,
    /// A heartbeat failed or is overdue, and the deadline has not passed.
    Late,
    /// The deadline may have passed since the last accepted heartbeat: the orders may have been cancelled.
    Lost,
    /// The handle stopped (`reason` says why) and sends nothing more.
    Stopped,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Self::Starting => "starting",
            Self::Ok => "ok",
            Self::Late => "late",
            Self::Lost => "lost",
            Self::Stopped => "stopped",
        }
    }
}

/// How a heartbeat request ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// Accepted: the id to send next.
    Accepted(String),
    /// The service expects another id: this one.
    Mismatch(String),
    /// Refused for good (the key is not taken: 401 or 403; no such route: 404): the handle stops.
    Refused,
    /// Failed this time (network, 5xx, 429...): tried again soon, after `retry_after_ms` when the service said.
    Failed(Option<f64>),
}

/// What the driver does next.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// Tell the status (changed since last told), then ask again.
    Tell(Status),
    /// Send a heartbeat with this id (its request: `api::heartbeat`), then hand the answer to `answered`.
    Send(String),
    /// Wait this long, then ask again.
    Wait(f64),
    /// Stopped: nothing more.
    Stop,
}

/// Why a handle stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// `stop()` (or dispose).
    Stopped,
    /// The options' signal aborted.
    Aborted,
    /// The client was freed.
    Freed,
    /// The service refused the key.
    Refused,
}

impl Reason {
    pub fn name(self) -> &'static str {
        match self {
            Self::Stopped => "stopped",
            Self::Aborted => "aborted",
            Self::Freed => "freed",
            Self::Refused => "refused",
        }
    }
}

/// One dead-man switch.
#[derive(Clone, Debug)]
pub struct Heartbeats {
    interval_ms: f64,
    /// The id to send next (`""` starts a chain).
    id: String,
    /// When the last heartbeat was accepted.
    last_ok_ms: Option<f64>,
    /// When the next is due.
    due_ms: f64,
    status: Status,
    told: Option<Status>,
    mismatches: u32,
    sending: bool,
    stopped: Option<Reason>,
    /// Accepted heartbeats, for the status events.
    beats: u64,
    /// A loss seen only when an answer came after the deadline: told before the next status, with the time of
    /// the heartbeat accepted before it.
    unheard_loss: Option<f64>,
    /// The `lastOkAt` of the loss told last that way.
    lost_told_ok: Option<f64>,
}

impl Heartbeats {
    pub fn new(interval_ms: f64, now_ms: f64) -> Self {
        Self {
            interval_ms,
            id: String::new(),
            last_ok_ms: None,
            due_ms: now_ms,
            status: Status::Starting,
            told: None,
            mismatches: 0,
            sending: false,
            stopped: None,
            beats: 0,
            unheard_loss: None,
            lost_told_ok: None,
        }
    }

    /// What to do at `now_ms`.
    pub fn step(&mut self, now_ms: f64) -> Step {
        if let Some(ok) = self.unheard_loss {
            self.told = Some(Status::Lost);
            self.lost_told_ok = Some(ok);
            self.unheard_loss = None;
            return Step::Tell(Status::Lost);
        }
        if self.stopped.is_none() {
            self.status = self.status_at(now_ms);
        }
        if self.told != Some(self.status) {
            self.told = Some(self.status);
            return Step::Tell(self.status);
        }
        if self.stopped.is_some() {
            return Step::Stop;
        }
        if self.sending {
            // An answer is awaited: look again when the deadline could pass meanwhile.
            return Step::Wait(self.deadline_in(now_ms).unwrap_or(self.interval_ms).max(1.0));
        }
        if now_ms >= self.due_ms {
            self.sending = true;
            return Step::Send(self.id.clone());
        }
        let wait = self.due_ms - now_ms;
        Step::Wait(self.deadline_in(now_ms).map_or(wait, |d| wait.min(d.max(1.0))))
    }

    /// How long the beat sent at `now_ms` may take to be answered: the interval, but never so long that a
    /// stalled beat leaves no time for another before the deadline (a second before it, half a second at least).
    pub fn beat_timeout_ms(&self, now_ms: f64) -> f64 {
        let cap = self.deadline_in(now_ms).map_or(self.interval_ms, |left| (left - RETRY_MS).max(MIN_BEAT_MS));
        self.interval_ms.min(cap).max(MIN_BEAT_MS)
    }

    /// How long until the deadline of the last accepted heartbeat passes (None before one, or once past).
    fn deadline_in(&self, now_ms: f64) -> Option<f64> {
        let left = self.last_ok_ms? + DEADLINE_MS - now_ms;
        (left > 0.0).then_some(left)
    }

    /// The status the clock makes of the last answers: an accepted heartbeat older than the deadline is a loss;
    /// an overdue one (a page whose timers were held back) is late.
    fn status_at(&self, now_ms: f64) -> Status {
        match (self.status, self.last_ok_ms) {
            (_, Some(ok)) if now_ms - ok >= DEADLINE_MS => Status::Lost,
            (Status::Ok, Some(ok)) if now_ms - ok > self.interval_ms + RETRY_MS => Status::Late,
            (status, _) => status,
        }
    }

    /// The answer to the heartbeat sent, at `now_ms`.
    pub fn answered(&mut self, answer: Answer, now_ms: f64) {
        self.sending = false;
        if self.stopped.is_some() {
            return;
        }
        match answer {
            Answer::Accepted(id) => {
                // An answer after the deadline of the last one: the orders may be gone, and that is told first.
                if let Some(ok) = self.last_ok_ms.filter(|ok| now_ms - ok >= DEADLINE_MS) {
                    if self.told != Some(Status::Lost) {
                        self.unheard_loss = Some(ok);
                    }
                }
                self.status = Status::Ok;
                self.id = id;
                self.last_ok_ms = Some(now_ms);
                self.mismatches = 0;
                self.beats += 1;
                self.due_ms = now_ms + self.interval_ms;
            }
            Answer::Mismatch(expected) => {
                self.id = expected;
                self.mismatches += 1;
                self.due_ms = if self.mismatches <= MISMATCH_RUN { now_ms } else { now_ms + RETRY_MS };
                self.fail(now_ms);
            }
            Answer::Failed(after) => {
                let mut wait = after.filter(|ms| ms.is_finite() && *ms >= 0.0).unwrap_or(RETRY_MS).max(RETRY_MS);
                wait = wait.min(self.interval_ms);
                // Before the deadline, whatever the service asked: a late beat is worth more than its wait.
                if let Some(left) = self.deadline_in(now_ms) {
                    wait = wait.min((left - RETRY_MS / 2.0).max(RETRY_MS / 2.0));
                }
                self.due_ms = now_ms + wait;
                self.fail(now_ms);
            }
            Answer::Refused => self.stop(Reason::Refused),
        }
    }

    /// A beat that was not accepted: late, or lost once the deadline passed; a mismatch followed at once is
    /// neither.
    fn fail(&mut self, now_ms: f64) {
        let followed = self.mismatches > 0 && self.mismatches <= MISMATCH_RUN;
        let lost = self.status == Status::Lost || self.last_ok_ms.is_some_and(|ok| now_ms - ok >= DEADLINE_MS);
        self.status = if lost {
            Status::Lost
        } else if followed {
            self.status
        } else {
            Status::Late
        };
    }

    /// Stops for `reason` (the first reason stays): the next step tells `stopped`.
    pub fn stop(&mut self, reason: Reason) {
        if self.stopped.is_none() {
            self.stopped = Some(reason);
            self.status = Status::Stopped;
        }
    }

    pub fn status(&self) -> Status {
        self.status
    }

    pub fn reason(&self) -> Option<Reason> {
        self.stopped
    }

    /// The event that tells `status`: `{"status", "beats", "lastOkAt"?, "reason"?}`.
    pub fn event_json(&mut self, status: Status) -> String {
        let mut w = JsonWriter::object();
        w.field_str("status", status.name());
        w.field_raw("beats", &crate::trade::decimal(self.beats));
        // A loss told after the next beat was accepted names the beat before it.
        let last_ok =
            if status == Status::Lost { self.lost_told_ok.take().or(self.last_ok_ms) } else { self.last_ok_ms };
        if let Some(ok) = last_ok {
            w.field_raw("lastOkAt", &crate::trade::decimal(ok.max(0.0) as u64));
        }
        if let Some(reason) = self.stopped.filter(|_| status == Status::Stopped) {
            w.field_str("reason", reason.name());
        }
        w.finish()
    }
}

/// What a heartbeat request's failure says: a key the service does not take (401, 403) or a service without the
/// route (404) refuses the switch for good; anything else fails this beat, tried again after the service's
/// `retryAfterMs` when it gave one.
pub fn failure(e: &Error) -> Answer {
    match e.status {
        Some(401 | 403 | 404) => Answer::Refused,
        _ => Answer::Failed(e.retry_after_ms.map(|ms| ms as f64)),
    }
}

/// A switch as a task (`crate::task`): its beats are calls of `api::heartbeat`, read by `read` into the owner's
/// product, from which `answer` takes the heartbeat's.
pub struct Switch<P> {
    pub beats: Heartbeats,
    read: Expect<P>,
    answer: fn(P) -> Option<Answer>,
}

impl<P> Switch<P> {
    pub fn new(beats: Heartbeats, read: Expect<P>, answer: fn(P) -> Option<Answer>) -> Self {
        Switch { beats, read, answer }
    }
}

impl<P> Machine<P> for Switch<P> {
    fn step(&mut self, got: Got<P>, now: f64) -> task::Step<P> {
        match got {
            // (A switch asks no wallet.)
            Got::Go | Got::Said(_) => {}
            Got::Heard(_) => return task::Step::Do(Need::Fail(task::not_followed())),
            Got::Answer { product, .. } => {
                let answer = product.and_then(self.answer).unwrap_or(Answer::Failed(None));
                self.beats.answered(answer, now);
            }
            Got::Failed(e) => self.beats.answered(failure(&e), now),
            Got::Abort { why, .. } => self.beats.stop(match why {
                Why::Signal => Reason::Aborted,
                Why::Stop => Reason::Stopped,
                Why::Freed => Reason::Freed,
            }),
        }
        match self.beats.step(now) {
            Step::Tell(status) => task::Step::Do(Need::Tell { client: false, event: self.beats.event_json(status) }),
            // No retry of its own (the next beat is the retry), and no longer than the core gives it.
            Step::Send(id) => task::Step::Call {
                request: crate::api::heartbeat(&id),
                expect: self.read,
                limits: CallLimits {
                    max_retries: 0,
                    timeout_ms: self.beats.beat_timeout_ms(now),
                    attempt_timeout_ms: None,
                },
            },
            Step::Wait(ms) => task::Step::Do(Need::Wait { ms: Some(ms), call: None }),
            Step::Stop => task::Step::Do(Need::Done("null".into())),
        }
    }
}

/// The `intervalMs` option: absent for the default, else milliseconds from 50 to 8,000 (a failed beat then still
/// has a retry before the 10 s deadline).
pub fn interval(value: &Value) -> Result<f64, Error> {
    match value {
        Value::Undefined | Value::Null => Ok(DEFAULT_INTERVAL_MS),
        Value::Number(ms) if (MIN_INTERVAL_MS..=MAX_INTERVAL_MS).contains(ms) => Ok(*ms),
        _ => Err(Error::invalid("intervalMs", "must be a number of milliseconds from 50 to 8000")),
    }
}

/// A heartbeat answer's `heartbeat_id`, read from its JSON text (at most 128 characters; `""` when the service
/// expects a new chain).
fn heartbeat_id(text: &str) -> Option<String> {
    match Value::parse(text.as_bytes()).ok()?.field("heartbeat_id") {
        Some(Value::Str(id)) if id.len() <= 128 => Some(id.clone()),
        _ => None,
    }
}

/// What a heartbeat's answer says, whatever its status: accepted (the id to send next), a mismatch (a 400
/// naming the id the service expects), or None for every other answer (an error, read as usual).
pub fn read_answer(status: u16, text: Option<&str>) -> Option<Answer> {
    let id = heartbeat_id(text?)?;
    match status {
        200..=299 if !id.is_empty() => Some(Answer::Accepted(id)),
        // `""`: the chain lapsed (or never began), a new one starts.
        400 => Some(Answer::Mismatch(id)),
        _ => None,
    }
}

#[cfg(test)]
#[path = "heartbeat_tests.rs"]
mod tests;
