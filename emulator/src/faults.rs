//! Fault injection: rules programmed through POST /__admin/faults, consumed one fault per matching request.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// A kind of fault that rules hand out: the REST faults ([`Fault`]) and the streaming channels' faults
/// (`stream::StreamFault`) share the rule machinery below.
pub trait FaultKind: Clone + Serialize + DeserializeOwned {
    /// The kind's name, as written in rules and in the request log.
    fn name(&self) -> &'static str;
    /// The fault of kind `name` with its default parameters.
    fn by_name(name: &str) -> Option<Self>;
    /// Checks the parameters.
    fn validate(&self) -> Result<(), String>;
}

/// One injected misbehaviour.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Fault {
    /// Answer normally after `ms` milliseconds.
    Delay { ms: u64 },
    /// Answer `status` with a JSON error (and `Retry-After` when `retry_after` is set) without serving the request.
    Status {
        status: u16,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        retry_after: Option<u64>,
    },
    /// Close the connection without an answer.
    Reset,
    /// Answer 200 with a body that is not JSON.
    Malformed,
    /// Serve the request, then send only the first half of its body.
    Truncated,
    /// Serve the request, then send its body in pieces spread over `ms` milliseconds.
    SlowBody { ms: u64 },
}

impl FaultKind for Fault {
    fn name(&self) -> &'static str {
        match self {
            Fault::Delay { .. } => "delay",
            Fault::Status { .. } => "status",
            Fault::Reset => "reset",
            Fault::Malformed => "malformed",
            Fault::Truncated => "truncated",
            Fault::SlowBody { .. } => "slow_body",
        }
    }

    fn by_name(name: &str) -> Option<Fault> {
        Some(match name {
            "delay" => Fault::Delay { ms: 500 },
            "status" => Fault::Status { status: 503, retry_after: None },
            "reset" => Fault::Reset,
            "malformed" => Fault::Malformed,
            "truncated" => Fault::Truncated,
            "slow_body" => Fault::SlowBody { ms: 2000 },
            _ => return None,
        })
    }

    fn validate(&self) -> Result<(), String> {
        match self {
            Fault::Status { status, .. } if !(100..=599).contains(status) => Err("status must be 100..599".into()),
            Fault::Delay { ms } | Fault::SlowBody { ms } if *ms > 600_000 => Err("ms must be at most 600000".into()),
            _ => Ok(()),
        }
    }
}

/// A fault given in full or by its kind's name (with default parameters).
#[derive(Deserialize)]
#[serde(untagged, bound = "F: FaultKind")]
enum FaultSpec<F> {
    Full(F),
    Name(String),
}

impl<F: FaultKind> FaultSpec<F> {
    fn into_fault(self) -> Result<F, String> {
        let fault = match self {
            FaultSpec::Full(f) => f,
            FaultSpec::Name(n) => F::by_name(&n).ok_or_else(|| format!("unknown fault kind {n}"))?,
        };
        fault.validate()?;
        Ok(fault)
    }
}

/// The body of POST /__admin/faults (and of POST /__admin/stream/faults).
#[derive(Deserialize)]
#[serde(deny_unknown_fields, bound = "F: FaultKind")]
pub struct RuleSpec<F = Fault> {
    path: String,
    #[serde(default)]
    method: Option<String>,
    #[serde(default)]
    faults: Option<Vec<FaultSpec<F>>>,
    #[serde(default)]
    repeat: bool,
    #[serde(default)]
    rate: Option<f64>,
    #[serde(default)]
    kinds: Option<Vec<FaultSpec<F>>>,
    #[serde(default)]
    seed: Option<u64>,
}

enum Mode<F> {
    Sequence { faults: Vec<F>, next: usize, repeat: bool },
    Random { rate: f64, kinds: Vec<F>, rng: Box<ChaCha8Rng>, seed: u64 },
}

pub struct Rule<F> {
    id: u64,
    path: String,
    method: Option<String>,
    mode: Mode<F>,
    hits: u64,
}

pub struct Faults<F = Fault> {
    rules: Vec<Rule<F>>,
    next_id: u64,
}

impl<F> Default for Faults<F> {
    fn default() -> Self {
        Self { rules: Vec::new(), next_id: 0 }
    }
}

impl<F: FaultKind> Faults<F> {
    pub fn add(&mut self, spec: RuleSpec<F>) -> Result<u64, String> {
        if !spec.path.starts_with('/') {
            return Err("path must start with /".into());
        }
        let convert =
            |list: Vec<FaultSpec<F>>| list.into_iter().map(FaultSpec::into_fault).collect::<Result<Vec<_>, _>>();
        let mode = match (spec.faults, spec.rate) {
            (Some(faults), None) => {
                let faults = convert(faults)?;
                if faults.is_empty() {
                    return Err("faults must not be empty".into());
                }
                Mode::Sequence { faults, next: 0, repeat: spec.repeat }
            }
            (None, Some(rate)) => {
                if !(0.0..=1.0).contains(&rate) {
                    return Err("rate must be between 0 and 1".into());
                }
                let kinds = convert(spec.kinds.ok_or("kinds is required with rate")?)?;
                if kinds.is_empty() {
                    return Err("kinds must not be empty".into());
                }
                let seed = spec.seed.unwrap_or(0);
                Mode::Random { rate, kinds, rng: Box::new(ChaCha8Rng::seed_from_u64(seed)), seed }
            }
            _ => return Err("give either faults (a sequence) or rate and kinds (random faults)".into()),
        };
        self.next_id += 1;
        let method = spec.method.map(|m| m.to_ascii_uppercase());
        self.rules.push(Rule { id: self.next_id, path: spec.path, method, mode, hits: 0 });
        Ok(self.next_id)
    }

    pub fn clear(&mut self) {
        self.rules.clear();
    }

    /// The fault to inject into a request, if any rule has one.
    pub fn take(&mut self, method: &str, path: &str) -> Option<F> {
        self.take_if(method, path, |_| true)
    }

    /// Like [`Faults::take`], for a fault that `applies` to what is about to be sent: a sequence whose next
    /// fault does not apply keeps it for a later message (a random rule's draw that does not apply gives none).
    pub fn take_if(&mut self, method: &str, path: &str, applies: impl Fn(&F) -> bool) -> Option<F> {
        for rule in &mut self.rules {
            if !path.starts_with(&rule.path) || rule.method.as_deref().is_some_and(|m| m != method) {
                continue;
            }
            let fault = match &mut rule.mode {
                Mode::Sequence { faults, next, repeat } => {
                    if *next >= faults.len() {
                        if !*repeat {
                            continue;
                        }
                        *next = 0;
                    }
                    if !applies(&faults[*next]) {
                        continue;
                    }
                    *next += 1;
                    Some(faults[*next - 1].clone())
                }
                Mode::Random { rate, kinds, rng, .. } => {
                    let hit = rng.random_bool(*rate);
                    let k = rng.random_range(0..kinds.len());
                    hit.then(|| kinds[k].clone()).filter(|f| applies(f))
                }
            };
            if let Some(fault) = fault {
                rule.hits += 1;
                return Some(fault);
            }
        }
        None
    }

    pub fn list(&self) -> serde_json::Value {
        let rules: Vec<_> = self
            .rules
            .iter()
            .map(|r| {
                let mut v = serde_json::json!({ "id": r.id, "path": r.path, "method": r.method, "injected": r.hits });
                match &r.mode {
                    Mode::Sequence { faults, next, repeat } => {
                        v["faults"] = serde_json::json!(faults);
                        v["repeat"] = serde_json::json!(repeat);
                        v["remaining"] = serde_json::json!(if *repeat { faults.len() } else { faults.len() - next });
                    }
                    Mode::Random { rate, kinds, seed, .. } => {
                        v["rate"] = serde_json::json!(rate);
                        v["kinds"] = serde_json::json!(kinds);
                        v["seed"] = serde_json::json!(seed);
                    }
                }
                v
            })
            .collect();
        serde_json::json!({ "rules": rules })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(json: serde_json::Value) -> RuleSpec {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn sequences_are_consumed_then_cycle_when_repeating() {
        let mut f = Faults::default();
        f.add(spec(serde_json::json!({"path": "/book", "faults": [{"kind": "reset"}, "malformed"]}))).unwrap();
        assert_eq!(f.take("GET", "/events"), None);
        assert_eq!(f.take("GET", "/book"), Some(Fault::Reset));
        assert_eq!(f.take("GET", "/book"), Some(Fault::Malformed));
        assert_eq!(f.take("GET", "/book"), None);
        f.add(spec(serde_json::json!({"path": "/", "method": "post", "faults": ["truncated"], "repeat": true})))
            .unwrap();
        assert_eq!(f.take("GET", "/books"), None);
        assert_eq!(f.take("POST", "/books"), Some(Fault::Truncated));
        assert_eq!(f.take("POST", "/books"), Some(Fault::Truncated));
        assert!(f.add(spec(serde_json::json!({"path": "/", "faults": [{"kind": "status", "status": 700}]}))).is_err());
        assert!(f.add(spec(serde_json::json!({"path": "/", "faults": []}))).is_err());
        assert!(f.add(spec(serde_json::json!({"path": "/", "rate": 2.0, "kinds": ["reset"]}))).is_err());
    }

    #[test]
    fn random_faults_follow_their_seed() {
        let run = |seed| {
            let mut f = Faults::default();
            f.add(spec(serde_json::json!({"path": "/", "rate": 0.3, "kinds": ["reset", "malformed"], "seed": seed})))
                .unwrap();
            (0..200).map(|_| f.take("GET", "/book").map(|x| x.name())).collect::<Vec<_>>()
        };
        let a = run(7);
        assert_eq!(a, run(7));
        assert_ne!(a, run(8));
        let hits = a.iter().filter(|x| x.is_some()).count();
        assert!((30..90).contains(&hits), "{hits}");
    }
}
