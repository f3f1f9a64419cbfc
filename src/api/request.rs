//! The description of one HTTP request, built by the endpoint functions and sent by a transport.

use super::params::Param;

/// Appends `text` percent-encoded to `out`: every byte but the unreserved characters of RFC 3986 (letters,
/// digits, `-`, `.`, `_`, `~`) as `%XX` of its UTF-8 bytes, in query names and values and in path segments.
/// (Written here rather than taken from `percent-encoding`, whose 768-byte escape table and iterators cost the
/// wasm more than this loop; the tests check it against that crate byte for byte.)
pub(crate) fn push_encoded(out: &mut String, text: &str) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for &b in text.as_bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            let hex = |nibble: u8| char::from(HEX.get(usize::from(nibble)).copied().unwrap_or(b'0'));
            out.push('%');
            out.push(hex(b >> 4));
            out.push(hex(b & 15));
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Get,
    Post,
    Delete,
}

impl Method {
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Get => "GET",
            Self::Post => "POST",
            Self::Delete => "DELETE",
        }
    }
}

/// The three surfaces of the service; each may have its own base URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Surface {
    Catalog,
    Clob,
    Activity,
}

/// The rate-limit scope of a route (interface §8), beside its surface's "all routes" scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Only the surface's "all routes" budget applies.
    Surface,
    /// Catalog GET /events.
    Events,
    /// CLOB GET /markets (the interface lists GET /markets under the catalog's limits).
    ClobMarkets,
    Tags,
    PublicSearch,
    ClobRoot,
    Book,
    Books,
    Price,
    Prices,
    Midpoint,
    PricesHistory,
    BatchPricesHistory,
    DataTrades,
    /// DELETE /order: burst and sustained trading budgets.
    CancelOrder,
    /// POST /order (and the batch POST /orders): burst and sustained trading budgets.
    PostOrder,
}

#[derive(Clone, Debug, PartialEq)]
pub struct HttpRequest {
    pub method: Method,
    pub surface: Surface,
    /// The path with each segment percent-encoded; this is also what gets signed.
    pub path: String,
    /// Query parameters, not yet encoded, in the order they were added.
    pub query: Vec<(&'static str, String)>,
    /// The JSON body, built once: the same string is signed and sent.
    pub body: Option<String>,
    /// Whether the request needs the SERVICE_* headers.
    pub auth: bool,
    pub scope: Scope,
    /// The parameters the interface lists for this call (checked; refused as extra query parameters).
    pub takes: &'static [Param],
    /// Query parameters the interface does not list, sent after the checked ones (`extraQuery`).
    pub extra: Vec<(String, String)>,
    /// Headers of this request alone (the L1 key routes' signed challenge).
    pub headers: Vec<(&'static str, String)>,
    /// The request changes something on the service (places an order): it is not sent again after it
    /// may have arrived.
    pub writes: bool,
    /// The entries the service charges it for in the buckets that count entries (a batch of orders: one
    /// each); 1 otherwise.
    pub entries: u32,
}

impl HttpRequest {
    /// The names of the headers the request is sent with: its own (the key routes' signed challenge) and, when
    /// it is signed, the L2 `SERVICE_*` set. What [`crate::api::refuses_redirects`] decides from.
    pub fn header_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        let signed = if self.auth { &crate::auth::HEADER_NAMES[..] } else { &[] };
        self.headers.iter().map(|(name, _)| *name).chain(signed.iter().copied())
    }

    pub fn new(method: Method, surface: Surface, path: impl Into<String>) -> Self {
        Self {
            method,
            surface,
            path: path.into(),
            query: Vec::new(),
            body: None,
            auth: false,
            scope: Scope::Surface,
            takes: &[],
            extra: Vec::new(),
            headers: Vec::new(),
            writes: false,
            entries: 1,
        }
    }

    pub fn get(surface: Surface, path: impl Into<String>) -> Self {
        Self::new(Method::Get, surface, path)
    }

    pub fn query(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.query.push((name, value.into()));
        self
    }

    pub fn queries(mut self, pairs: Vec<(&'static str, String)>) -> Self {
        self.query.extend(pairs);
        self
    }

    pub fn body(mut self, body: String) -> Self {
        self.body = Some(body);
        self
    }

    pub fn headers(mut self, headers: Vec<(&'static str, String)>) -> Self {
        self.headers = headers;
        self
    }

    /// Marks a request that changes state on the service.
    pub fn writes(mut self) -> Self {
        self.writes = true;
        self
    }

    pub fn scope(mut self, scope: Scope) -> Self {
        self.scope = scope;
        self
    }

    /// Records the table of parameters this call takes.
    pub fn takes(mut self, table: &'static [Param]) -> Self {
        self.takes = table;
        self
    }

    /// The full URL under `base` (no trailing slash), with the query string encoded.
    pub fn url(&self, base: &str) -> String {
        let mut url = String::with_capacity(base.len() + self.path.len() + 16 * self.query.len());
        url.push_str(base);
        url.push_str(&self.path);
        let checked = self.query.iter().map(|(name, value)| (*name, value.as_str()));
        let extra = self.extra.iter().map(|(name, value)| (name.as_str(), value.as_str()));
        for (i, (name, value)) in checked.chain(extra).enumerate() {
            url.push(if i == 0 { '?' } else { '&' });
            push_encoded(&mut url, name);
            url.push('=');
            push_encoded(&mut url, value);
        }
        url
    }

    /// Requests that can be sent again without changing anything on the service.
    pub fn idempotent(&self) -> bool {
        // The POST routes are batch reads except those marked `writes` (placing orders, creating keys).
        self.method != Method::Delete && !self.writes
    }
}

/// One path segment, percent-encoded so that `/`, `?` and `#` in an id cannot change the route.
pub fn segment(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    push_encoded(&mut out, value);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_urls_with_encoded_queries() {
        let req = HttpRequest::get(Surface::Clob, "/book").query("token_id", "12 3&x=y").query("b", "é/");
        assert_eq!(req.url("http://h:1"), "http://h:1/book?token_id=12%203%26x%3Dy&b=%C3%A9%2F");
        assert_eq!(HttpRequest::get(Surface::Clob, "/").url("http://h"), "http://h/");
    }

    #[test]
    fn encodes_as_the_percent_encoding_crate_does() {
        use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
        const COMPONENT: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_').remove(b'~');
        let every_byte: String = (0u8..=127).map(char::from).collect();
        let texts = [every_byte.as_str(), "", "é/ü€😀", "a b+c&d=e#f?g%h", "\u{7f}\u{80}\u{ff}\u{10ffff}"];
        for text in texts {
            let mut ours = String::new();
            push_encoded(&mut ours, text);
            assert_eq!(ours, std::borrow::Cow::from(utf8_percent_encode(text, COMPONENT)), "{text:?}");
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        #[test]
        fn any_text_encodes_as_the_crate_does(text in "\\PC*") {
            use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
            const COMPONENT: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_').remove(b'~');
            let mut ours = String::new();
            push_encoded(&mut ours, &text);
            proptest::prop_assert_eq!(ours, std::borrow::Cow::from(utf8_percent_encode(&text, COMPONENT)).into_owned());
        }
    }

    #[test]
    fn segments_cannot_escape_their_place() {
        assert_eq!(segment("a/b?c#d"), "a%2Fb%3Fc%23d");
        assert_eq!(segment("0xAbC-1_2.3~"), "0xAbC-1_2.3~");
    }

    #[test]
    fn deletes_and_writes_are_not_idempotent() {
        assert!(HttpRequest::get(Surface::Clob, "/").idempotent());
        assert!(HttpRequest::new(Method::Post, Surface::Clob, "/books").idempotent());
        assert!(!HttpRequest::new(Method::Delete, Surface::Clob, "/order").idempotent());
        assert!(!HttpRequest::new(Method::Post, Surface::Clob, "/order").writes().idempotent());
    }
}
