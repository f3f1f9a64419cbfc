//! The one error type of the library. It stays plain data until the binding turns it into a JS `Error`.

use std::borrow::Cow;
use std::fmt;

/// A stable code that callers branch on. `as_str` is what JavaScript sees as `error.code`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    /// A parameter broke the interface's rules; nothing was sent.
    InvalidParams,
    /// 401 from the service, or credentials are missing for an authenticated call.
    Unauthorized,
    /// 403 from the service.
    Forbidden,
    /// 404 from the service.
    NotFound,
    /// 429 from the service, or the local budget could not be had in time.
    RateLimited,
    /// 5xx from the service.
    Server,
    /// Any other non-2xx status.
    Api,
    /// The request never got an HTTP answer.
    Network,
    /// The deadline passed.
    Timeout,
    /// The caller's `AbortSignal` fired.
    Aborted,
    /// The answer could not be read (not JSON, truncated, wrong shape).
    Decode,
    /// The order book cannot fill the requested amount.
    NoMatch,
    /// A method of a `Client` or `OrderBook` was called after `free()`.
    Freed,
    /// The caller's signer (wallet) refused or failed to sign, or answered no signature.
    Signer,
    /// 425 from the service: its matching engine is restarting (typically for about 90 seconds). Nothing was
    /// applied; the client retries it within `maxRetries`, waiting at least a second.
    EngineRestarting,
    /// 503 from the service because trading is paused: `mode` says `"cancel-only"` (new orders are refused,
    /// cancellations accepted) or `"post-only"` (only post-only orders and cancellations are accepted).
    TradingPaused,
}

impl ErrorCode {
    /// Every code, in declaration order (the `PredictKitErrorCode` union in `src/wasm/client.d.ts` lists the
    /// same, checked by `tests/declarations.rs`).
    pub const ALL: [ErrorCode; 16] = [
        Self::InvalidParams,
        Self::Unauthorized,
        Self::Forbidden,
        Self::NotFound,
        Self::RateLimited,
        Self::Server,
        Self::Api,
        Self::Network,
        Self::Timeout,
        Self::Aborted,
        Self::Decode,
        Self::NoMatch,
        Self::Freed,
        Self::Signer,
        Self::EngineRestarting,
        Self::TradingPaused,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            Self::InvalidParams => "INVALID_PARAMS",
            Self::Unauthorized => "UNAUTHORIZED",
            Self::Forbidden => "FORBIDDEN",
            Self::NotFound => "NOT_FOUND",
            Self::RateLimited => "RATE_LIMITED",
            Self::Server => "SERVER",
            Self::Api => "API",
            Self::Network => "NETWORK",
            Self::Timeout => "TIMEOUT",
            Self::Aborted => "ABORTED",
            Self::Decode => "DECODE",
            Self::NoMatch => "NO_MATCH",
            Self::Freed => "FREED",
            Self::Signer => "SIGNER",
            Self::EngineRestarting => "ENGINE_RESTARTING",
            Self::TradingPaused => "TRADING_PAUSED",
        }
    }

    /// The code for a non-2xx HTTP status.
    pub const fn from_status(status: u16) -> Self {
        match status {
            401 => Self::Unauthorized,
            403 => Self::Forbidden,
            404 => Self::NotFound,
            425 => Self::EngineRestarting,
            429 => Self::RateLimited,
            500..=599 => Self::Server,
            _ => Self::Api,
        }
    }
}

/// A problem with how an account is set up, and the one fix to make.
#[derive(Debug, PartialEq, Eq)]
pub struct Finding {
    /// A stable code to branch on.
    pub code: &'static str,
    pub fix: &'static str,
}

/// An error with its code and whatever facts apply. It never holds a secret: messages are built from
/// parameter names and rules, and `body` is the service's own error text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub code: ErrorCode,
    pub message: Cow<'static, str>,
    /// The parameter at fault, for `INVALID_PARAMS`.
    pub param: Option<Cow<'static, str>>,
    /// The HTTP status, when the service answered.
    pub status: Option<u16>,
    /// The request's method and path (no query string), when a request was made.
    pub method: Option<&'static str>,
    pub path: Option<String>,
    /// How long the service asked us to wait, from `Retry-After` or the body's `retry_after_seconds`.
    pub retry_after_ms: Option<u64>,
    /// For `TRADING_PAUSED`: `"cancel-only"` or `"post-only"`.
    pub mode: Option<&'static str>,
    /// What is wrong with the account's setup, when the service's refusal says (`error.finding`).
    pub finding: Option<&'static Finding>,
    /// The service's error text (its `{"error": "..."}` message, or a short excerpt of the body).
    pub body: Option<String>,
}

impl Error {
    #[inline(never)]
    pub fn new(code: ErrorCode, message: impl Into<Cow<'static, str>>) -> Self {
        Self {
            code,
            message: message.into(),
            param: None,
            status: None,
            method: None,
            path: None,
            retry_after_ms: None,
            mode: None,
            finding: None,
            body: None,
        }
    }

    /// `INVALID_PARAMS` naming the parameter and the rule it broke: `"token_id: must not be empty"`.
    #[inline(never)]
    pub fn invalid(param: &'static str, rule: &'static str) -> Self {
        let mut message = String::with_capacity(param.len() + rule.len() + 2);
        message.push_str(param);
        message.push_str(": ");
        message.push_str(rule);
        Self { param: Some(Cow::Borrowed(param)), ..Self::new(ErrorCode::InvalidParams, message) }
    }

    #[inline(never)]
    pub fn decode(message: &'static str) -> Self {
        Self::new(ErrorCode::Decode, message)
    }

    pub fn code(&self) -> ErrorCode {
        self.code
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_map_to_codes() {
        let table = [
            (400, "API"),
            (401, "UNAUTHORIZED"),
            (403, "FORBIDDEN"),
            (404, "NOT_FOUND"),
            (409, "API"),
            (429, "RATE_LIMITED"),
            (500, "SERVER"),
            (503, "SERVER"),
            (599, "SERVER"),
        ];
        for (status, code) in table {
            assert_eq!(ErrorCode::from_status(status).as_str(), code, "status {status}");
        }
    }

    #[test]
    fn invalid_names_param_and_rule() {
        let e = Error::invalid("token_id", "must not be empty");
        assert_eq!(e.code, ErrorCode::InvalidParams);
        assert_eq!(e.param.as_deref(), Some("token_id"));
        assert_eq!(e.to_string(), "token_id: must not be empty");
    }
}
