//! One WebSocket of either channel: reads the client's messages (subscriptions, operations, `PING`) and
//! writes what the hub queues for it, applying the stream faults' `drop` and `stall` on the way.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{Map, Value};
use tokio::time::Instant;

use super::{Channel, Out};
use crate::app::App;
use crate::params::error;

/// The close code of a user subscription whose credentials are wrong.
pub const UNAUTHORIZED: u16 = 4001;

pub async fn market(State(app): State<Arc<App>>, ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>) -> Response {
    upgrade(app, ws, Channel::Market)
}

pub async fn user(State(app): State<Arc<App>>, ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>) -> Response {
    upgrade(app, ws, Channel::User)
}

fn upgrade(app: Arc<App>, ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>, channel: Channel) -> Response {
    match ws {
        Ok(ws) => ws.on_upgrade(move |socket| run(app, socket, channel)),
        Err(rejection) => {
            let status = if rejection.status() == StatusCode::METHOD_NOT_ALLOWED {
                StatusCode::METHOD_NOT_ALLOWED
            } else {
                StatusCode::BAD_REQUEST
            };
            error(status, &format!("{} is a WebSocket: {}", channel.path(), rejection.body_text()))
        }
    }
}

/// What a client message asks the task to do.
enum Reply {
    Nothing,
    Pong,
    Close(u16, &'static str),
}

async fn run(app: Arc<App>, mut socket: WebSocket, channel: Channel) {
    let hub = &app.stream;
    let (id, mut queue, stats) = hub.register(channel);
    let mut shutdown = hub.shutdown_signal();
    let mut cleared = hub.cleared_signal();
    let mut authenticated = false;
    // While stalled: until when (None: until the stream faults are cleared).
    let mut stall: Option<Option<Instant>> = None;
    let far = || Instant::now() + Duration::from_secs(86_400 * 365);
    loop {
        let deadline = stall.flatten().unwrap_or_else(far);
        tokio::select! {
            biased;
            _ = shutdown.changed() => {
                let _ = socket.send(Message::Close(Some(CloseFrame { code: 1001, reason: "emulator stopping".into() }))).await;
                break;
            }
            _ = cleared.changed(), if stall.is_some() => stall = None,
            () = tokio::time::sleep_until(deadline), if matches!(stall, Some(Some(_))) => stall = None,
            // Queued messages go before the next client message is read, so a subscription's dump precedes
            // the answer to a later PING.
            out = queue.recv(), if stall.is_none() => match out {
                None => break,
                Some(Out::Text(text)) => {
                    if socket.send(Message::Text(text.into())).await.is_err() {
                        break;
                    }
                    stats.sent.fetch_add(1, Ordering::Relaxed);
                }
                Some(Out::Stall(ms)) => {
                    cleared.borrow_and_update();
                    stall = Some(ms.map(|ms| Instant::now() + Duration::from_millis(ms)));
                }
                Some(Out::Drop) => {
                    // Dropping the socket closes the TCP connection without a close frame.
                    hub.unregister(id);
                    return;
                }
            },
            message = socket.recv() => {
                let text = match message {
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                    Some(Ok(Message::Text(text))) => text.as_str().to_owned(),
                    Some(Ok(Message::Binary(bytes))) => String::from_utf8_lossy(&bytes).into_owned(),
                    Some(Ok(_)) => continue,
                };
                stats.received.fetch_add(1, Ordering::Relaxed);
                let reply = match channel {
                    Channel::Market => market_message(&app, id, &text),
                    Channel::User => user_message(&app, id, &text, &mut authenticated),
                };
                match reply {
                    Reply::Nothing => {}
                    Reply::Pong => {
                        if socket.send(Message::Text("PONG".into())).await.is_err() {
                            break;
                        }
                        stats.sent.fetch_add(1, Ordering::Relaxed);
                    }
                    Reply::Close(code, reason) => {
                        hub.unregister(id);
                        let _ = socket.send(Message::Close(Some(CloseFrame { code, reason: reason.into() }))).await;
                        // Wait a little for the client's close frame, then drop the connection.
                        let _ = tokio::time::timeout(Duration::from_secs(1), async {
                            while let Some(Ok(message)) = socket.recv().await {
                                if matches!(message, Message::Close(_)) {
                                    break;
                                }
                            }
                        })
                        .await;
                        return;
                    }
                }
            }
        }
    }
    hub.unregister(id);
}

/// The strings of `key` (non-strings are skipped).
fn strings(m: &Map<String, Value>, key: &str) -> Vec<String> {
    m.get(key).and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).map(str::to_owned).collect()
}

fn object(text: &str) -> Option<Map<String, Value>> {
    match serde_json::from_str(text) {
        Ok(Value::Object(m)) => Some(m),
        _ => None,
    }
}

fn operation(m: &Map<String, Value>) -> Option<bool> {
    let op = m.get("operation")?.as_str()?;
    if op.eq_ignore_ascii_case("subscribe") {
        Some(true)
    } else if op.eq_ignore_ascii_case("unsubscribe") {
        Some(false)
    } else {
        None
    }
}

/// `{"type":"market","assets_ids":[…],"initial_dump"?,"custom_feature_enabled"?}` subscribes;
/// `{"operation":"subscribe"|"unsubscribe","assets_ids":[…]}` changes the subscription; anything else is ignored.
fn market_message(app: &App, id: u64, text: &str) -> Reply {
    if text == "PING" {
        return Reply::Pong;
    }
    let Some(m) = object(text) else { return Reply::Nothing };
    let assets = strings(&m, "assets_ids");
    let dump = m.get("initial_dump").and_then(Value::as_bool).unwrap_or(true);
    let custom = m.get("custom_feature_enabled").and_then(Value::as_bool);
    match operation(&m) {
        Some(true) => app.stream.subscribe(id, &assets, dump, custom),
        Some(false) => app.stream.unsubscribe(id, &assets),
        None if m.contains_key("operation") => {}
        None => {
            let typed = m.get("type").and_then(Value::as_str).map(|t| t.eq_ignore_ascii_case("market"));
            if typed.unwrap_or(m.contains_key("assets_ids")) {
                app.stream.subscribe(id, &assets, dump, custom);
            }
        }
    }
    Reply::Nothing
}

/// The first JSON message must be `{"type":"user","markets":[…],"auth":{"apiKey","secret","passphrase"}}` with
/// an account's credentials (else the socket is closed with 4001); then `{"operation", "markets"}` changes the
/// markets.
fn user_message(app: &App, id: u64, text: &str, authenticated: &mut bool) -> Reply {
    if text == "PING" {
        return Reply::Pong;
    }
    let Some(m) = object(text) else { return Reply::Nothing };
    if *authenticated {
        if let Some(subscribe) = operation(&m) {
            app.stream.user_markets(id, subscribe, &strings(&m, "markets"));
        }
        return Reply::Nothing;
    }
    let auth = m.get("auth").and_then(Value::as_object);
    let field = |k: &str| auth.and_then(|a| a.get(k)).and_then(Value::as_str).unwrap_or("");
    let (key, secret, passphrase) = (field("apiKey"), field("secret"), field("passphrase"));
    if key.is_empty() || !app.stream.authenticate(id, key, secret, passphrase, &strings(&m, "markets")) {
        return Reply::Close(UNAUTHORIZED, "unauthorized: wrong or missing auth");
    }
    *authenticated = true;
    Reply::Nothing
}
