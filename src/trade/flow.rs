//! The decisions of the trading tasks: what a placing does after the service refused its order
//! (`placing::Ordering`), and when a missing key is created (`keys::Keying`).

/// What `placeOrder` does after the service refused the order it posted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterRefusal {
    /// The order's version is not the exchange's: read `/version` again, rebuild and sign once more.
    Rebuild,
    /// A 400: forget the market's rules learnt for the token (its tick size may have changed), and fail.
    ForgetMarket,
    Fail,
}

/// The service's text for an order whose version is not the exchange's.
const VERSION_MISMATCH: &[u8] = b"order_version_mismatch";

/// What follows a refused placing, from the error's status and the service's text; `rebuilt` when the
/// order was already rebuilt once (it is never rebuilt twice).
pub fn after_refusal(status: Option<u16>, body: Option<&str>, rebuilt: bool) -> AfterRefusal {
    // Bytes, not `str::contains`: its searcher and panic paths would add kilobytes to the wasm.
    let mismatch = body.is_some_and(|b| b.as_bytes().windows(VERSION_MISMATCH.len()).any(|w| w == VERSION_MISMATCH));
    if !rebuilt && mismatch {
        AfterRefusal::Rebuild
    } else if status == Some(400) {
        AfterRefusal::ForgetMarket
    } else {
        AfterRefusal::Fail
    }
}

/// Whether a failed derivation means the wallet has no key yet, so that `createOrDeriveApiKey` creates
/// one: a 4xx that is not about the request's credentials (401) or rate (429). The service answers 404.
pub fn create_after_derive(status: Option<u16>) -> bool {
    matches!(status, Some(s) if (400..500).contains(&s) && s != 401 && s != 429)
}

/// What the trading reads' answers are taken as, each a check of the answer's bytes and its result as JSON
/// (the call machine's `Expect::Bytes`; the driver keeps the bytes where the flow needs them).
pub mod answers {
    use crate::error::Error;
    use crate::trade::order::Version;

    /// GET /version: 1, 2 or 3.
    pub fn version(body: &[u8]) -> Result<String, Error> {
        Ok(Version::from_answer(body)?.number().into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_order_is_rebuilt_once_for_a_version_change_and_a_400_forgets_the_market() {
        use AfterRefusal::*;
        let mismatch = Some("{\"error\":\"order_version_mismatch\"}");
        let cases: [(Option<u16>, Option<&str>, bool, AfterRefusal); 9] = [
            (Some(400), mismatch, false, Rebuild),
            (Some(400), mismatch, true, ForgetMarket),
            (Some(409), mismatch, false, Rebuild),
            (Some(409), mismatch, true, Fail),
            (Some(400), Some("invalid tick size"), false, ForgetMarket),
            (Some(400), None, true, ForgetMarket),
            (Some(500), Some("order_version"), false, Fail),
            (None, None, false, Fail),
            (Some(401), Some("Unauthorized"), false, Fail),
        ];
        for (status, body, rebuilt, want) in cases {
            assert_eq!(after_refusal(status, body, rebuilt), want, "{status:?} {body:?} rebuilt {rebuilt}");
        }
    }

    #[test]
    fn a_derivation_refused_for_a_missing_key_creates_one() {
        let cases = [
            (Some(404), true),
            (Some(400), true),
            (Some(499), true),
            (Some(401), false),
            (Some(429), false),
            (Some(500), false),
            (Some(399), false),
            (None, false),
        ];
        for (status, want) in cases {
            assert_eq!(create_after_derive(status), want, "{status:?}");
        }
    }

    #[test]
    fn trading_answers_read_as_the_flow_takes_them() {
        assert_eq!(answers::version(br#"{"version":2}"#).unwrap(), "2");
        assert_eq!(answers::version(br#"{"version":"1"}"#).unwrap(), "1");
        assert!(answers::version(br#"{"version":7}"#).is_err());
    }
}
