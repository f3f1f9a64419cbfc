//! Client settings that are checked before anything is sent.

use crate::error::Error;

/// The unit of the SERVICE_TIMESTAMP header: milliseconds (the interface) or seconds (the upstream service).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TimestampUnit {
    #[default]
    Millis,
    Seconds,
}

impl TimestampUnit {
    pub fn parse(value: &str) -> Result<Self, Error> {
        match value {
            "ms" => Ok(Self::Millis),
            "s" => Ok(Self::Seconds),
            _ => Err(Error::invalid("timestampUnit", "must be \"ms\" or \"s\"")),
        }
    }

    /// The header value for a clock reading in milliseconds since the epoch.
    pub fn format(self, now_ms: f64) -> String {
        let ms = if now_ms.is_finite() && now_ms > 0.0 { now_ms as u64 } else { 0 };
        match self {
            Self::Millis => crate::text::decimal(ms),
            Self::Seconds => crate::text::decimal(ms / 1000),
        }
    }
}

/// A base URL: `http://` or `https://`, a host, an optional path; no query or fragment. Returned without
/// its trailing slash so that route paths can be appended.
pub fn base_url(param: &'static str, value: &str) -> Result<String, Error> {
    let rest = value.strip_prefix("https://").or_else(|| value.strip_prefix("http://"));
    let Some(rest) = rest else {
        return Err(Error::invalid(param, "must start with http:// or https://"));
    };
    if rest.is_empty() || rest.starts_with('/') {
        return Err(Error::invalid(param, "must name a host"));
    }
    if value.contains(['?', '#']) || value.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(Error::invalid(param, "must not contain a query, a fragment or white space"));
    }
    // Bytes, not a `char` pattern: its searcher would add to the wasm.
    let end = value.bytes().rposition(|b| b != b'/').map_or(0, |i| i + 1);
    Ok(value.get(..end).unwrap_or(value).to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_urls() {
        assert_eq!(base_url("baseUrl", "http://127.0.0.1:8787/").unwrap(), "http://127.0.0.1:8787");
        assert_eq!(base_url("baseUrl", "https://api.example.com/v1").unwrap(), "https://api.example.com/v1");
        for bad in
            ["", "127.0.0.1:8787", "ftp://x", "http://", "http:///x", "http://x/?a=1", "http://x#y", "http://a b"]
        {
            let err = base_url("baseUrl", bad).unwrap_err();
            assert_eq!(err.param.as_deref(), Some("baseUrl"), "{bad:?}");
        }
    }

    #[test]
    fn timestamp_units() {
        assert_eq!(TimestampUnit::parse("ms").unwrap().format(1_700_000_000_123.9), "1700000000123");
        assert_eq!(TimestampUnit::parse("s").unwrap().format(1_700_000_000_999.0), "1700000000");
        assert!(TimestampUnit::parse("us").is_err());
        assert_eq!(TimestampUnit::Millis.format(f64::NAN), "0");
    }
}
