//! Turning an HTTP status and body into success or a typed [`Error`].

use super::request::HttpRequest;
use crate::error::{Error, ErrorCode, Finding};
use crate::json::error_fields;

/// The longest excerpt of an unexpected body kept in an error.
const EXCERPT_CHARS: usize = 200;

/// `Ok` for a 2xx status; otherwise the error for it, carrying the status, the request's method and path,
/// how long the service asked to wait (`Retry-After` in milliseconds, else the body's
/// `retry_after_seconds`) and the service's error text. A 503 whose text says trading is cancel-only or
/// post-only is `TRADING_PAUSED` with that `mode`.
pub fn check_response(
    request: &HttpRequest,
    status: u16,
    body: &[u8],
    retry_after_ms: Option<f64>,
) -> Result<(), Error> {
    if (200..300).contains(&status) {
        return Ok(());
    }
    let (message_text, body_wait_ms) = error_fields(body);
    let text = message_text.unwrap_or_else(|| excerpt(body));
    let mode = if status == 503 { paused_mode(&text) } else { None };
    let finding = if (400..500).contains(&status) { account_finding(&text) } else { None };
    let code = if mode.is_some() { ErrorCode::TradingPaused } else { ErrorCode::from_status(status) };
    let mut message = String::with_capacity(text.len() + 48);
    message.push_str(request.method.as_str());
    message.push(' ');
    message.push_str(&request.path);
    message.push_str(" failed with status ");
    message.push_str(&crate::text::decimal(u64::from(status)));
    if !text.is_empty() {
        message.push_str(": ");
        message.push_str(&text);
    }
    let wait = retry_after_ms.or(body_wait_ms);
    Err(Error {
        status: Some(status),
        method: Some(request.method.as_str()),
        path: Some(request.path.clone()),
        retry_after_ms: wait.filter(|ms| ms.is_finite() && *ms >= 0.0).map(|ms| ms as u64),
        mode,
        finding,
        body: Some(text),
        ..Error::new(code, message)
    })
}

/// The service's refusals of an order that mean the account is set up wrong (the texts its clients' users
/// report), each with the one fix to make.
pub const FINDINGS: [(&str, Finding); 5] = [
    (
        "maker address not allowed, please use the deposit wallet flow",
        Finding {
            code: "DEPOSIT_WALLET_REQUIRED",
            fix: "this account trades through a deposit wallet: set signatureType \"POLY_1271\" and funder to the deposit wallet's address",
        },
    ),
    (
        "the order signer address has to be the address of the API KEY",
        Finding {
            code: "KEY_NOT_FOR_SIGNER",
            fix: "the API key is another address's: create or derive it with the wallet that signs the orders (the owner, for proxy, Safe and deposit wallets), and set funder to that owner's wallet",
        },
    ),
    (
        "invalid poly_proxy signature",
        Finding {
            code: "WRONG_SIGNATURE_TYPE",
            fix: "the funder is not a wallet of this signature type owned by the signer: check signatureType (POLY_PROXY, POLY_GNOSIS_SAFE or POLY_1271) and funder",
        },
    ),
    (
        "no deposit wallet found for owner",
        Finding {
            code: "NO_DEPOSIT_WALLET",
            fix: "the service knows no deposit wallet of this signer: use the signature type and funder of the account's wallet (see diagnoseAccount)",
        },
    ),
    (
        "the order owner has to be the owner of the API KEY",
        Finding {
            code: "OWNER_NOT_KEY",
            fix: "the order names another API key as its owner: post it with the client that holds the key it was built for",
        },
    ),
];

/// The finding a refusal's text tells, if it is one of [`FINDINGS`] (any case).
pub fn account_finding(text: &str) -> Option<&'static Finding> {
    FINDINGS.iter().find(|(said, _)| contains_ignore_case(text, said)).map(|(_, finding)| finding)
}

/// Whether `text` holds `word`, ASCII case aside.
fn contains_ignore_case(text: &str, word: &str) -> bool {
    text.as_bytes().windows(word.len()).any(|w| w.eq_ignore_ascii_case(word.as_bytes()))
}

/// The trading mode a 503's text tells, in the service's words ("Trading is currently cancel-only. ...").
fn paused_mode(text: &str) -> Option<&'static str> {
    let has = |word: &str| contains_ignore_case(text, word);
    if has("cancel-only") || has("cancel only") {
        Some("cancel-only")
    } else if has("post-only") || has("post only") {
        Some("post-only")
    } else {
        None
    }
}

/// What the service's `Poly-RateLimit-*` headers told of the bucket an order or cancellation counted against
/// (the upstream unified SDKs read them: `-Remaining` tokens left, possibly negative; `-Reset` Unix seconds
/// when the wait ends; `-Tier`; `-Warning` true when the request would have been refused under enforcement).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RateLimitNotice {
    pub remaining: Option<i64>,
    pub reset_s: Option<u64>,
    pub tier: Option<String>,
    pub warning: bool,
}

impl RateLimitNotice {
    /// The headers' values (absent or empty: not sent); None when none of them was sent.
    pub fn parse(remaining: &str, reset: &str, tier: &str, warning: &str) -> Option<Self> {
        let (remaining, reset, tier, warning) = (remaining.trim(), reset.trim(), tier.trim(), warning.trim());
        if remaining.is_empty() && reset.is_empty() && tier.is_empty() && warning.is_empty() {
            return None;
        }
        Some(Self {
            remaining: whole(remaining.strip_prefix('-').unwrap_or(remaining)).map(|n| {
                if remaining.starts_with('-') {
                    -(n as i64)
                } else {
                    n as i64
                }
            }),
            reset_s: whole(reset),
            tier: (!tier.is_empty()).then(|| tier.chars().take(64).collect()),
            warning: warning.eq_ignore_ascii_case("true"),
        })
    }

    /// Until when the bucket is spent: the reset, once nothing remains.
    pub fn spent_until_ms(&self) -> Option<f64> {
        match (self.remaining, self.reset_s) {
            (Some(left), Some(reset)) if left <= 0 => Some(reset as f64 * 1000.0),
            _ => None,
        }
    }

    /// The `onEvent` event: `{type: "rateLimit", method, path, remaining?, resetMs?, tier?, warning}`.
    pub fn event_json(&self, request: &HttpRequest) -> String {
        let mut w = crate::api::JsonWriter::object();
        w.field_str("type", "rateLimit");
        w.field_str("method", request.method.as_str());
        w.field_str("path", &request.path);
        if let Some(n) = self.remaining {
            let text = crate::text::decimal(n.unsigned_abs());
            w.field_raw("remaining", &if n < 0 { crate::text::concat(&["-", &text]) } else { text });
        }
        if let Some(s) = self.reset_s {
            w.field_raw("resetMs", &crate::text::decimal(s.saturating_mul(1000)));
        }
        if let Some(tier) = &self.tier {
            w.field_str("tier", tier);
        }
        w.field_raw("warning", if self.warning { "true" } else { "false" });
        w.finish()
    }
}

/// A whole number of at most 15 digits; a fraction is cut (`1.5` → 1).
fn whole(text: &str) -> Option<u64> {
    let digits = text.split('.').next().unwrap_or_default();
    (!digits.is_empty() && digits.len() <= 15 && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.bytes().fold(0u64, |n, b| n * 10 + u64::from(b - b'0')))
}

/// The prefix of every header that carries credentials or a signed challenge (the L2 `SERVICE_*` headers,
/// and the L1 ones of the key routes, whose answer becomes credentials).
const CREDENTIAL_PREFIX: &str = "SERVICE_";

/// Whether a request carrying headers of these names must not follow a redirect: any `SERVICE_*` header
/// (in any case). Decided from the headers a request is sent with, so that no route can forget it: the
/// signed routes (L2) and the key routes (L1) alike.
pub fn refuses_redirects<'a>(header_names: impl IntoIterator<Item = &'a str>) -> bool {
    header_names
        .into_iter()
        .any(|name| name.get(..CREDENTIAL_PREFIX.len()).is_some_and(|p| p.eq_ignore_ascii_case(CREDENTIAL_PREFIX)))
}

/// `API`: the service answered a request that carries credentials with a redirect. Such requests are sent
/// with redirects off, so that the SERVICE_* headers never reach another origin, a key is never taken
/// from one, and a cancellation is never sent twice; `status` is the 3xx where the runtime shows it
/// (browsers hide it: 0).
pub fn redirect_error(request: &HttpRequest, status: u16) -> Error {
    Error {
        status: (status != 0).then_some(status),
        method: Some(request.method.as_str()),
        path: Some(request.path.clone()),
        ..Error::new(
            ErrorCode::Api,
            "the service answered with a redirect, which a request carrying credentials never follows (check baseUrl)",
        )
    }
}

/// The error for an answer that is a redirect left unfollowed: an opaque one (browsers, status 0); or, for
/// a request sent with redirects off (`manual`, see [`refuses_redirects`]), any 3xx, and any answer that
/// says it came through a redirect (a caller's `fetch` that followed one all the same). `None` for every
/// other answer.
pub fn unfollowed_redirect(
    request: &HttpRequest,
    manual: bool,
    status: u16,
    opaque: bool,
    redirected: bool,
) -> Option<Error> {
    let three = (300..400).contains(&status);
    // A redirect that was followed anyway shows the final answer's status, not the redirect's: none is told.
    (opaque || (manual && (three || redirected))).then(|| redirect_error(request, if three { status } else { 0 }))
}

/// The start of a body as text, cut at a character boundary.
pub fn excerpt(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let trimmed = text.trim();
    match trimmed.char_indices().nth(EXCERPT_CHARS) {
        Some((cut, _)) => trimmed.get(..cut).unwrap_or_default().to_owned(),
        None => trimmed.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::order_book;

    fn book_request() -> HttpRequest {
        order_book("123").unwrap()
    }

    #[test]
    fn requests_carrying_credentials_refuse_redirects() {
        let table: [(&[&str], bool); 10] = [
            (&[], false),
            (&["Content-Type"], false),
            (&["SERVICE_ADDRESS", "SERVICE_SIGNATURE", "SERVICE_TIMESTAMP", "SERVICE_NONCE"], true),
            (&["Content-Type", "SERVICE_API_KEY"], true),
            (&["SERVICE_PASSPHRASE"], true),
            (&["service_signature"], true),
            (&["Service_Nonce"], true),
            (&["SERVICE"], false),
            (&["X-SERVICE_API_KEY"], false),
            (&["SERVIC\u{e9}_X"], false),
        ];
        for (names, refused) in table {
            assert_eq!(refuses_redirects(names.iter().copied()), refused, "{names:?}");
        }
        // (The key routes, whose L1 challenge rides in SERVICE_* headers: trade::keys's tests.)
        // A signed (L2) request is sent with the SERVICE_* set; a public read with none.
        assert!(refuses_redirects(crate::api::cancel_order("0xabc").unwrap().header_names()), "the L2 headers");
        assert!(!refuses_redirects(crate::api::order_book("1").unwrap().header_names()), "a public read");
    }

    #[test]
    fn redirects_of_requests_sent_manual_are_errors() {
        let request = crate::api::cancel_order("0xabc").unwrap();
        let e = redirect_error(&request, 307);
        assert_eq!(
            (e.code, e.status, e.method, e.path.as_deref()),
            (ErrorCode::Api, Some(307), Some("DELETE"), Some("/order"))
        );
        assert!(e.message.contains("redirect"));
        assert_eq!(redirect_error(&request, 0).status, None);

        let public = book_request();
        // (request, sent manual, status, opaque, redirected, refused)
        let table = [
            (&request, true, 307, false, false, true),
            (&request, true, 302, false, false, true),
            (&request, true, 301, false, false, true),
            (&request, true, 0, true, false, true),
            (&request, true, 200, false, true, true),
            (&request, true, 200, false, false, false),
            (&request, true, 404, false, false, false),
            // A public read follows redirects itself; only an opaque one can reach here.
            (&public, false, 0, true, false, true),
            (&public, false, 301, false, false, false),
            (&public, false, 200, false, true, false),
        ];
        for (req, manual, status, opaque, redirected, refused) in table {
            assert_eq!(
                unfollowed_redirect(req, manual, status, opaque, redirected).is_some(),
                refused,
                "{} manual={manual} {status} opaque={opaque} redirected={redirected}",
                req.path
            );
        }
        // A redirect followed anyway: its error tells no status (200 is the final answer's, not the redirect's).
        assert_eq!(unfollowed_redirect(&request, true, 200, false, true).map(|e| e.status), Some(None));
        assert_eq!(unfollowed_redirect(&request, true, 307, false, false).map(|e| e.status), Some(Some(307)));
    }

    #[test]
    fn rate_limit_headers_are_read_as_the_service_writes_them() {
        let n = |r, s, t, w| RateLimitNotice::parse(r, s, t, w);
        assert_eq!(n("", "", "", ""), None);
        let spent = n("0", "1750000000", "standard", "false").unwrap();
        assert_eq!(
            spent,
            RateLimitNotice {
                remaining: Some(0),
                reset_s: Some(1_750_000_000),
                tier: Some("standard".into()),
                warning: false
            }
        );
        assert_eq!(spent.spent_until_ms(), Some(1_750_000_000_000.0));
        let negative = n("-3", "1750000000.5", "", "TRUE").unwrap();
        assert_eq!((negative.remaining, negative.reset_s, negative.warning), (Some(-3), Some(1_750_000_000), true));
        assert_eq!(negative.spent_until_ms(), Some(1_750_000_000_000.0));
        assert_eq!(n("12", "1750000000", "", "").unwrap().spent_until_ms(), None, "tokens left");
        assert_eq!(n("0", "", "", "").unwrap().spent_until_ms(), None, "no reset told");
        assert_eq!(n("x", "1e9", "", "yes").unwrap(), RateLimitNotice::default(), "unreadable values are not told");
        let event: serde_json::Value = serde_json::from_str(&negative.event_json(&book_request())).unwrap();
        assert_eq!(
            event,
            serde_json::json!({"type": "rateLimit", "method": "GET", "path": "/book", "remaining": -3, "resetMs": 1_750_000_000_000u64, "warning": true})
        );
    }

    #[test]
    fn account_refusals_name_their_finding() {
        let post = crate::api::cancel_all();
        let table = [
            (
                400,
                r#"{"error":"maker address not allowed, please use the deposit wallet flow"}"#,
                Some("DEPOSIT_WALLET_REQUIRED"),
            ),
            (
                400,
                r#"{"error":"the order signer address has to be the address of the API KEY"}"#,
                Some("KEY_NOT_FOR_SIGNER"),
            ),
            (400, r#"{"error":"invalid POLY_PROXY signature"}"#, Some("WRONG_SIGNATURE_TYPE")),
            (400, r#"{"error":"the order owner has to be the owner of the API KEY"}"#, Some("OWNER_NOT_KEY")),
            (400, r#"{"error":"no deposit wallet found for owner"}"#, Some("NO_DEPOSIT_WALLET")),
            (400, r#"{"error":"invalid post-only order: order crosses book"}"#, None),
            // Only a refusal (4xx) names one.
            (500, r#"{"error":"the order signer address has to be the address of the API KEY"}"#, None),
        ];
        for (status, body, code) in table {
            let e = check_response(&post, status, body.as_bytes(), None).unwrap_err();
            assert_eq!(e.finding.map(|f| f.code), code, "{body}");
        }
    }

    #[test]
    fn success_passes() {
        assert_eq!(check_response(&book_request(), 200, b"{}", None), Ok(()));
        assert_eq!(check_response(&book_request(), 204, b"", None), Ok(()));
    }

    #[test]
    fn a_restart_and_a_paused_exchange_are_typed_with_their_mode_and_wait() {
        let post = crate::api::cancel_all();
        type Case<'a> = (u16, &'a [u8], Option<f64>, ErrorCode, Option<&'a str>, Option<u64>);
        let cases: [Case; 8] = [
            (425, br#"{"error":"the matching engine is restarting"}"#, Some(2000.0), ErrorCode::EngineRestarting, None, Some(2000)),
            (425, br#"{"error":"restarting","retry_after_seconds":30}"#, None, ErrorCode::EngineRestarting, None, Some(30_000)),
            // A Retry-After header wins over the body's.
            (425, br#"{"retry_after_seconds":30}"#, Some(5000.0), ErrorCode::EngineRestarting, None, Some(5000)),
            (
                503,
                br#"{"error":"Trading is currently cancel-only. New orders are not accepted, but cancels are allowed."}"#,
                None,
                ErrorCode::TradingPaused,
                Some("cancel-only"),
                None,
            ),
            (503, br#"{"error":"Trading is post-only for now","retry_after_seconds":120}"#, None, ErrorCode::TradingPaused, Some("post-only"), Some(120_000)),
            (503, b"Service Unavailable", None, ErrorCode::Server, None, None),
            // Only a 503 tells a mode: a post-only order that would cross is a plain refusal.
            (400, br#"{"error":"invalid post-only order: order crosses book"}"#, None, ErrorCode::Api, None, None),
            (500, br#"{"error":"cancel-only"}"#, None, ErrorCode::Server, None, None),
        ];
        for (status, body, header, code, mode, wait) in cases {
            let e = check_response(&post, status, body, header).unwrap_err();
            assert_eq!(
                (e.code, e.mode, e.retry_after_ms),
                (code, mode, wait),
                "{status} {}",
                String::from_utf8_lossy(body)
            );
        }
    }

    #[test]
    fn errors_carry_the_facts() {
        let err = check_response(&book_request(), 404, br#"{"error":"No orderbook exists"}"#, None).unwrap_err();
        assert_eq!(err.code, ErrorCode::NotFound);
        assert_eq!(err.status, Some(404));
        assert_eq!(err.method, Some("GET"));
        assert_eq!(err.path.as_deref(), Some("/book"));
        assert_eq!(err.body.as_deref(), Some("No orderbook exists"));
        assert_eq!(err.message, "GET /book failed with status 404: No orderbook exists");

        let err = check_response(&book_request(), 429, br#"{"error":"slow down"}"#, Some(3000.0)).unwrap_err();
        assert_eq!((err.code, err.retry_after_ms), (ErrorCode::RateLimited, Some(3000)));

        let err = check_response(&book_request(), 502, b"<html>Bad gateway</html>", None).unwrap_err();
        assert_eq!((err.code, err.body.as_deref()), (ErrorCode::Server, Some("<html>Bad gateway</html>")));
    }

    #[test]
    fn excerpts_are_short_and_whole_characters() {
        let long = "é".repeat(500);
        let cut = excerpt(long.as_bytes());
        assert_eq!(cut.chars().count(), EXCERPT_CHARS);
        assert_eq!(excerpt(&[0xff, b'a']), "\u{fffd}a");
    }
}
