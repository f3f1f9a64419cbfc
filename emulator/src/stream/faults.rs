//! The stream faults: the misbehaviours a test may inject into the streaming channels' messages
//! (`POST /__admin/stream/faults`), their rules, and the queuing of every message on a socket through them.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha1::{Digest, Sha1};

use super::registry::{Out, Socket};
use super::Hub;
use crate::faults::{FaultKind, Faults, RuleSpec};
use crate::sync::lock;

/// One injected misbehaviour of a streaming channel.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum StreamFault {
    /// Close the TCP connection without a close frame.
    Drop,
    /// Hold this and every later message (PING is still answered) for `ms`, or until the faults are cleared.
    Stall {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ms: Option<u64>,
    },
    /// The next price-change entry carries a wrong hash (the book changes correctly).
    WrongHash,
    /// Send the next message cut in half (not JSON).
    Malformed,
    /// Do not send the next change (it is applied to the book all the same).
    Lose,
}

impl FaultKind for StreamFault {
    fn name(&self) -> &'static str {
        match self {
            StreamFault::Drop => "drop",
            StreamFault::Stall { .. } => "stall",
            StreamFault::WrongHash => "wrong_hash",
            StreamFault::Malformed => "malformed",
            StreamFault::Lose => "lose",
        }
    }

    fn by_name(name: &str) -> Option<Self> {
        Some(match name {
            "drop" => StreamFault::Drop,
            "stall" => StreamFault::Stall { ms: None },
            "wrong_hash" => StreamFault::WrongHash,
            "malformed" => StreamFault::Malformed,
            "lose" => StreamFault::Lose,
            _ => return None,
        })
    }

    fn validate(&self) -> Result<(), String> {
        match self {
            StreamFault::Stall { ms: Some(ms) } if *ms > 600_000 => Err("ms must be at most 600000".into()),
            _ => Ok(()),
        }
    }
}

/// What a message about to be sent is, for the faults that apply to some messages only.
#[derive(Clone, Copy)]
pub(super) struct Message {
    /// A subscription's `book` dump (not a change: `lose` leaves it alone).
    pub dump: bool,
    /// Holds a price-change entry (`wrong_hash` waits for one).
    pub entries: bool,
}

impl StreamFault {
    fn applies(&self, message: Message) -> bool {
        match self {
            StreamFault::WrongHash => message.entries,
            StreamFault::Lose => !message.dump,
            _ => true,
        }
    }
}

pub(super) fn wrong(hash: &str) -> String {
    hex::encode(Sha1::digest(format!("wrong:{hash}").as_bytes()))
}

/// Queues one message on a socket through the stream faults. `render(wrong_hash)` builds the text.
pub(super) fn deliver(
    faults: &mut Faults<StreamFault>,
    socket: &mut Socket,
    message: Message,
    render: impl FnOnce(bool) -> String,
) {
    let fault = faults.take_if("GET", socket.channel.path(), |f| f.applies(message));
    if fault.is_some() {
        socket.faults += 1;
    }
    let out = match fault {
        None => Out::Text(render(false)),
        Some(StreamFault::WrongHash) => Out::Text(render(true)),
        Some(StreamFault::Lose) => return,
        Some(StreamFault::Malformed) => {
            let text = render(false);
            let mut cut = text.len() / 2;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            Out::Text(text[..cut].to_owned())
        }
        Some(StreamFault::Drop) => Out::Drop,
        Some(StreamFault::Stall { ms }) => {
            let _ = socket.tx.send(Out::Stall(ms));
            Out::Text(render(false))
        }
    };
    let _ = socket.tx.send(out);
}

impl Hub {
    pub fn add_fault(&self, spec: RuleSpec<StreamFault>) -> Result<u64, String> {
        lock(&self.state).faults.add(spec)
    }

    pub fn list_faults(&self) -> Value {
        lock(&self.state).faults.list()
    }

    pub fn clear_faults(&self) {
        lock(&self.state).faults.clear();
        self.cleared.send_modify(|g| *g += 1);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn stream_fault_rules_wait_for_a_message_they_apply_to() {
        let mut f: Faults<StreamFault> = Faults::default();
        let spec =
            serde_json::from_value(json!({"path": "/ws/market", "faults": ["wrong_hash", {"kind": "stall", "ms": 5}]}))
                .unwrap();
        f.add(spec).unwrap();
        let plain = Message { dump: false, entries: false };
        let entry = Message { dump: false, entries: true };
        assert_eq!(f.take_if("GET", "/ws/user", |x| x.applies(entry)), None);
        assert_eq!(f.take_if("GET", "/ws/market", |x| x.applies(plain)), None);
        assert_eq!(f.take_if("GET", "/ws/market", |x| x.applies(entry)), Some(StreamFault::WrongHash));
        assert_eq!(f.take_if("GET", "/ws/market", |x| x.applies(plain)), Some(StreamFault::Stall { ms: Some(5) }));
        assert_eq!(f.take_if("GET", "/ws/market", |x| x.applies(plain)), None);
        let bad = serde_json::from_value::<RuleSpec<StreamFault>>(json!({"path": "/ws", "faults": ["status"]}));
        assert!(bad.is_err() || f.add(bad.unwrap()).is_err());
        assert!(!StreamFault::Lose.applies(Message { dump: true, entries: false }));
    }
}
