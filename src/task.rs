//! The one protocol of every machine the JS driver runs (`run` in src/js/driver.js). A task answers what it
//! needs next, a [`Need`] (an HTTP attempt, a signature, a wallet provider's answer, a wait, something to tell,
//! done, failed), and is told what became of it, an [`Outcome`] (go on, the attempt's reply, what the wallet
//! said, aborted). The machine inside ([`Machine`]) speaks in REST
//! calls, not attempts: the task runs each call through the client's call machine (`api::call::Calls`: its
//! budgets, queues, signing, retries and deadline) and hands the machine the answer's typed product, all in
//! Rust. A plain REST call is a task too ([`OneCall`]); so is the dead-man switch (`trade::heartbeat`).

use crate::api::call::{CallLimits, Calls, Event, Expect, Need as CallNeed, Reply, Send};
use crate::api::HttpRequest;
#[cfg(feature = "trade")]
use crate::api::{with_extra_query, Params};
use crate::auth::Credentials;
use crate::error::{Error, ErrorCode};
use crate::json::{JsonWriter, Value};

/// What the driver does next.
#[derive(Debug, PartialEq)]
pub enum Need {
    /// Send one HTTP attempt, then tell its [`Outcome::Reply`].
    Http(Send),
    /// Ask the task's signer to sign this typed data (JSON, `eth_signTypedData_v4`), waiting at most `ms` (none:
    /// for ever); then tell [`Outcome::Said`].
    Sign { typed: String, ms: Option<f64> },
    /// Ask the task's wallet provider (EIP-1193 `request({ method, params })`, `params` JSON), waiting at most
    /// `ms`; then tell [`Outcome::Said`].
    Rpc { method: &'static str, params: String, ms: Option<f64> },
    /// Wait this long (none: until woken or aborted), then go on. `call` is the call whose wake ends it early.
    Wait { ms: Option<f64>, call: Option<u32> },
    /// Tell this event (JSON) to the client's `onEvent` (`client`), else to the task's own listener; then go on.
    Tell { client: bool, event: String },
    /// Over: the result, as JSON (`null` when it is the body the driver holds, or the task's product).
    Done(String),
    /// Over: failed with this error.
    Fail(Error),
}

/// What became of the last need.
#[derive(Debug)]
pub enum Outcome<'a> {
    /// Go on: the first step, or after a wait or a tell.
    Go,
    /// How the HTTP attempt ended.
    Reply(Reply<'a>),
    /// What the signer or the wallet provider said.
    Said(Said),
    /// Go on, with something a source the task follows said (a user channel's event): told where [`Outcome::Go`]
    /// would be (after a wait or a tell), and given to the machine once no call of it is on its way.
    Heard(Value),
    /// The task's signal aborted, or its client is gone.
    Abort(Why),
}

/// What a signer or a wallet provider said to a [`Need::Sign`] or [`Need::Rpc`].
#[derive(Clone, Debug, PartialEq)]
pub enum Said {
    /// It answered this (read within the binding's bounds).
    Answer(Value),
    /// It did not answer within the need's `ms`.
    Late,
    /// It threw or refused (the driver keeps its error as the cause).
    Threw,
}

/// Why a task is aborted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// The caller's signal.
    Signal,
    /// Its owner stopped it (a switch's `stop()`).
    Stop,
    /// Its client was freed.
    Freed,
}

/// What a machine is told.
#[derive(Debug)]
pub enum Got<P> {
    /// Go on (the first step, after a wait or a tell).
    Go,
    /// The call it asked for succeeded: its result (JSON) and what its answer was read into.
    Answer { result: String, product: Option<P> },
    /// The call it asked for failed.
    Failed(Error),
    /// What the signer or the wallet provider said.
    Said(Said),
    /// Something a source the task follows said ([`Outcome::Heard`]).
    Heard(Value),
    /// Aborted; `error` is the error of the call it stopped, if one was on its way.
    Abort { why: Why, error: Option<Error> },
}

/// What a machine wants next.
pub enum Step<P> {
    /// A REST call through the client's call machine; its end is told as [`Got::Answer`] or [`Got::Failed`].
    Call { request: HttpRequest, expect: Expect<P>, limits: CallLimits },
    /// Anything else (never [`Need::Http`], which only calls send).
    Do(Need),
}

/// A machine run as a task.
pub trait Machine<P> {
    fn step(&mut self, got: Got<P>, now: f64) -> Step<P>;
}

/// How many steps of its machine a task takes for one outcome: a machine whose calls keep ending at once
/// cannot hold the page.
const MAX_STEPS: u32 = 64;

/// How much of what its sources said a task holds for its machine.
#[cfg(feature = "trade")]
const MAX_HEARD: usize = 1_000;

/// A machine and the call it is in.
pub struct Task<M> {
    pub machine: M,
    run: Run,
}

/// What a task keeps besides its machine: one copy of the loop serves every machine (`&mut dyn Machine`).
struct Run {
    /// The call on its way (an id in the client's call machine).
    call: Option<u32>,
    /// Needs told before the one the driver has: a call's event, the service's rate-limit notice.
    queued: Vec<Need>,
    /// What its sources said, for the machine once no call is on its way (at most [`MAX_HEARD`]: the oldest go).
    /// (Only trading tasks follow a source, and only the binding's trading entries tell one: a build without them
    /// carries none of the wallet's or a source's paths.)
    #[cfg(feature = "trade")]
    heard: Vec<Value>,
    /// Query parameters the interface does not list, added to every request of the task (`extraQuery`).
    #[cfg(feature = "trade")]
    extra: Params,
}

impl<M> Task<M> {
    pub fn new(machine: M) -> Self {
        Task { machine, run: Run::new(None) }
    }

    /// The task, `extra` added to every request it makes (refused, as that call's failure, if it names a
    /// parameter the request takes).
    #[cfg(feature = "trade")]
    pub fn with_extra_query(mut self, extra: Params) -> Self {
        self.run.extra = extra;
        self
    }

    /// The call on its way, if any.
    pub fn call(&self) -> Option<u32> {
        self.run.call
    }

    /// What the task needs after `outcome`, at `now`. `calls` is the client's call machine (none once the client
    /// is freed: the machine is told it is aborted); `credentials` sign its calls.
    pub fn next<P>(
        &mut self,
        calls: Option<&mut Calls<P>>,
        outcome: Outcome<'_>,
        now: f64,
        credentials: Option<&Credentials>,
    ) -> Need
    where
        M: Machine<P>,
    {
        self.run.next(&mut self.machine, calls, outcome, now, credentials)
    }

    /// The task is over for its driver, however it ended: the call on its way gives back what it holds.
    pub fn end<P>(&mut self, calls: &mut Calls<P>, now: f64) {
        if let Some(id) = self.run.call.take() {
            calls.finish(id, now);
        }
        self.run.queued.clear();
    }
}

impl Run {
    fn new(call: Option<u32>) -> Self {
        Run {
            call,
            queued: Vec::new(),
            #[cfg(feature = "trade")]
            heard: Vec::new(),
            #[cfg(feature = "trade")]
            extra: Params::default(),
        }
    }

    fn next<P>(
        &mut self,
        machine: &mut dyn Machine<P>,
        calls: Option<&mut Calls<P>>,
        outcome: Outcome<'_>,
        now: f64,
        credentials: Option<&Credentials>,
    ) -> Need {
        let Some(calls) = calls else {
            self.call = None;
            self.queued.clear();
            return match machine.step(Got::Abort { why: Why::Freed, error: None }, now) {
                Step::Do(need) => need,
                Step::Call { .. } => Need::Fail(Error::decode("the client was freed")),
            };
        };
        #[cfg(feature = "trade")]
        let outcome = match outcome {
            Outcome::Heard(value) => {
                if self.heard.len() >= MAX_HEARD {
                    self.heard.remove(0);
                }
                self.heard.push(value);
                Outcome::Go
            }
            outcome => outcome,
        };
        if matches!(outcome, Outcome::Go) && !self.queued.is_empty() {
            return self.queued.remove(0);
        }
        self.queued.clear();
        let mut outcome = outcome;
        // What the machine is told without asking the call machine: a call it could not start.
        let mut told = None;
        // One site for each of the call machine's steps: a call the machine starts is asked at once (`Go`).
        for _ in 0..MAX_STEPS {
            let got = match (told.take(), self.call, outcome) {
                (Some(got), _, _) => got,
                (None, Some(id), Outcome::Abort(why)) => {
                    let error = match calls.stop(id, false, now) {
                        CallNeed::Fail(e) => Some(e),
                        _ => None,
                    };
                    calls.finish(id, now);
                    self.call = None;
                    Got::Abort { why, error }
                }
                (None, Some(id), outcome) => {
                    let need = match outcome {
                        Outcome::Reply(reply) => calls.supply(id, now, reply),
                        // The wallet's answer while a call is on its way: the driver is out of step.
                        Outcome::Said(_) => CallNeed::Fail(out_of_step()),
                        Outcome::Go | Outcome::Heard(_) | Outcome::Abort(_) => calls.next(id, now, credentials),
                    };
                    if let Some(event) = calls.take_notice() {
                        self.queued.push(Need::Tell { client: true, event });
                    }
                    match self.of_call(calls, id, need, now) {
                        Ok(need) => return self.first(need),
                        Err(got) => got,
                    }
                }
                #[cfg(feature = "trade")]
                (None, None, Outcome::Go) if !self.heard.is_empty() => Got::Heard(self.heard.remove(0)),
                (None, None, Outcome::Go) => Got::Go,
                (None, None, Outcome::Abort(why)) => Got::Abort { why, error: None },
                #[cfg(feature = "trade")]
                (None, None, Outcome::Said(said)) => Got::Said(said),
                // (Told as a Go above.)
                #[cfg(feature = "trade")]
                (None, None, Outcome::Heard(_)) => Got::Go,
                // An answer with no call on its way, or (a build without trading) what no source of it says: the
                // driver is out of step.
                #[cfg(not(feature = "trade"))]
                (None, None, Outcome::Said(_) | Outcome::Heard(_)) => Got::Failed(out_of_step()),
                (None, None, Outcome::Reply(_)) => Got::Failed(out_of_step()),
            };
            outcome = Outcome::Go;
            match machine.step(got, now) {
                Step::Do(need) => return self.first(need),
                #[cfg(feature = "trade")]
                Step::Call { request, expect, limits } => match with_extra_query(request, &self.extra) {
                    Ok(request) => self.call = Some(calls.start(request, expect, limits)),
                    Err(e) => told = Some(Got::Failed(e)),
                },
                #[cfg(not(feature = "trade"))]
                Step::Call { request, expect, limits } => self.call = Some(calls.start(request, expect, limits)),
            }
        }
        Need::Fail(Error::new(ErrorCode::Decode, "the task's calls kept ending at once"))
    }

    /// `need`, after the needs queued before it.
    fn first(&mut self, need: Need) -> Need {
        if self.queued.is_empty() {
            return need;
        }
        self.queued.push(need);
        self.queued.remove(0)
    }

    /// What the call's need is for the driver (an attempt, a wait with its event queued first), or, when the
    /// call ended, what the machine is told.
    fn of_call<P>(&mut self, calls: &mut Calls<P>, id: u32, need: CallNeed, now: f64) -> Result<Need, Got<P>> {
        match need {
            CallNeed::Send(send) => Ok(Need::Http(send)),
            CallNeed::Wait { ms, event } => {
                if let Some(event) = event {
                    self.queued.push(Need::Tell { client: true, event: event_json(&event, calls.request(id)) });
                }
                Ok(Need::Wait { ms, call: Some(id) })
            }
            CallNeed::Done(result) => {
                let product = calls.take_product(id);
                calls.finish(id, now);
                self.call = None;
                Err(Got::Answer { result, product })
            }
            CallNeed::Fail(e) => {
                calls.finish(id, now);
                self.call = None;
                Err(Got::Failed(e))
            }
        }
    }
}

/// The error of a task aborted while its machine waited: the call's on its way, else the signal's while the
/// wallet was asked.
pub fn abort_error(error: Option<Error>) -> Error {
    error.unwrap_or_else(|| {
        Error::new(ErrorCode::Aborted, "the call was aborted by its AbortSignal while the wallet was asked")
    })
}

/// A machine told of a source it does not follow: the driver is out of step.
pub fn not_followed() -> Error {
    Error::new(ErrorCode::Decode, "the task was told of a source it does not follow")
}

fn out_of_step() -> Error {
    Error::new(ErrorCode::Decode, "the task was told of an answer it did not ask for")
}

/// One REST call as a task: done with its result (and its product kept for the binding), or failed. The call
/// is started with the task ([`Task::call_of`]).
#[derive(Default)]
pub struct OneCall<P> {
    /// What the answer was read into, once done.
    pub product: Option<P>,
}

impl<P> Task<OneCall<P>> {
    /// The task of one call, started in `calls`.
    pub fn call_of(calls: &mut Calls<P>, request: HttpRequest, expect: Expect<P>, limits: CallLimits) -> Self {
        Task { machine: OneCall { product: None }, run: Run::new(Some(calls.start(request, expect, limits))) }
    }
}

impl<P> Machine<P> for OneCall<P> {
    fn step(&mut self, got: Got<P>, _now: f64) -> Step<P> {
        Step::Do(match got {
            Got::Answer { result, product } => {
                self.product = product;
                Need::Done(result)
            }
            Got::Failed(e) => Need::Fail(e),
            Got::Abort { error: Some(e), .. } => Need::Fail(e),
            // (Its call is started with it: nothing else comes.)
            Got::Go | Got::Said(_) | Got::Heard(_) | Got::Abort { error: None, .. } => Need::Fail(out_of_step()),
        })
    }
}

/// Whole milliseconds of a wait, rounded up (a timer never fires early for it).
pub fn wait_ms(ms: f64) -> String {
    crate::text::decimal(if ms.is_finite() && ms > 0.0 { ms.ceil() as u64 } else { 0 })
}

impl Need {
    /// The need as the JSON object the driver reads (`TaskNeed` in src/js/driver.js), with the calls to wake:
    /// `{"kind":"http","wake",url,method,headers,body,manual,bytes,parse,attemptMs}`, `{"kind":"sign","wake",
    /// typedData,ms}`, `{"kind":"rpc","wake",method,params,ms}`, `{"kind":"wait","wake",ms,call}`, `{"kind":"tell",
    /// "wake",client,event}`, `{"kind":"done","wake",value}`, `{"kind":"fail","wake",error}`.
    pub fn to_json(&self, wake: &[u32]) -> String {
        let mut w = JsonWriter::object();
        let kind = match self {
            Need::Http(_) => "http",
            #[cfg(feature = "trade")]
            Need::Sign { .. } => "sign",
            #[cfg(feature = "trade")]
            Need::Rpc { .. } => "rpc",
            // (A build without trading runs no machine that asks the wallet.)
            #[cfg(not(feature = "trade"))]
            Need::Sign { .. } | Need::Rpc { .. } => "fail",
            Need::Wait { .. } => "wait",
            Need::Tell { .. } => "tell",
            Need::Done(_) => "done",
            Need::Fail(_) => "fail",
        };
        w.field_str("kind", kind);
        w.key("wake");
        w.array_start();
        for id in wake {
            w.raw(&crate::text::decimal(u64::from(*id)));
        }
        w.array_end();
        let number = |ms: Option<f64>| ms.map_or_else(|| "null".into(), wait_ms);
        match self {
            Need::Http(s) => {
                w.field_str("url", &s.url);
                w.field_str("method", s.method);
                w.key("headers");
                w.object_start();
                for (name, value) in &s.headers {
                    w.field_str(name, value);
                }
                w.object_end();
                match &s.body {
                    Some(body) => w.field_str("body", body),
                    None => w.field_raw("body", "null"),
                }
                w.field_raw("manual", bool_json(s.manual));
                w.field_raw("bytes", bool_json(s.bytes));
                w.field_raw("parse", bool_json(s.parse));
                w.field_raw("attemptMs", &number(s.attempt_ms));
            }
            #[cfg(not(feature = "trade"))]
            Need::Sign { .. } | Need::Rpc { .. } => {}
            #[cfg(feature = "trade")]
            Need::Sign { typed, ms } => {
                w.field_raw("typedData", typed);
                w.field_raw("ms", &number(*ms));
            }
            #[cfg(feature = "trade")]
            Need::Rpc { method, params, ms } => {
                w.field_str("method", method);
                w.field_raw("params", params);
                w.field_raw("ms", &number(*ms));
            }
            Need::Wait { ms, call } => {
                w.field_raw("ms", &number(*ms));
                w.field_raw("call", &call.map_or_else(|| "null".into(), |id| crate::text::decimal(u64::from(id))));
            }
            Need::Tell { client, event } => {
                w.field_raw("client", bool_json(*client));
                w.field_raw("event", event);
            }
            Need::Done(value) => w.field_raw("value", value),
            Need::Fail(e) => w.field_raw("error", &crate::api::call::error_json(e)),
        }
        w.finish()
    }
}

fn bool_json(b: bool) -> &'static str {
    if b {
        "true"
    } else {
        "false"
    }
}

/// A call's event as the client's `onEvent` is told it: `{"type", "method", "path", "delayMs", "attempt"?,
/// "error"?}`.
pub fn event_json(event: &Event, request: Option<&HttpRequest>) -> String {
    let mut w = JsonWriter::object();
    let (kind, delay, retry) = match event {
        Event::Wait { delay_ms } => ("wait", delay_ms, None),
        Event::Retry { delay_ms, attempt, error } => ("retry", delay_ms, Some((attempt, error))),
    };
    w.field_str("type", kind);
    if let Some(request) = request {
        w.field_str("method", request.method.as_str());
        w.field_str("path", &request.path);
    }
    w.field_raw("delayMs", &wait_ms(delay.round()));
    if let Some((attempt, error)) = retry {
        w.field_raw("attempt", &crate::text::decimal(u64::from(*attempt)));
        w.field_raw("error", &crate::api::call::error_json(error));
    }
    w.finish()
}

#[cfg(test)]
#[path = "task_tests.rs"]
pub(crate) mod tests;
