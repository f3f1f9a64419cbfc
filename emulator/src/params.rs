//! Query-string validation, JSON errors and cursor paging.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use base64::engine::general_purpose::STANDARD;
use base64::Engine;

/// An error answered as `{"error": message}` with its status.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Self { status, message: message.into() }
    }
    pub fn bad(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, message)
    }
    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        error(self.status, &self.message)
    }
}

pub type ApiResult = Result<Response, ApiError>;

/// A JSON error body `{"error": message}` with its status.
pub fn error(status: StatusCode, message: &str) -> Response {
    json_text(status, serde_json::json!({ "error": message }).to_string())
}

pub fn json_text(status: StatusCode, text: String) -> Response {
    let mut response = (status, text).into_response();
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

pub fn ok_json(value: &serde_json::Value) -> ApiResult {
    Ok(json_text(StatusCode::OK, value.to_string()))
}

/// The decoded query parameters of a request.
pub struct Params {
    pairs: Vec<(String, String)>,
}

impl Params {
    pub fn parse(query: Option<&str>) -> Self {
        let pairs = form_urlencoded::parse(query.unwrap_or("").as_bytes()).into_owned().collect();
        Self { pairs }
    }

    /// The first non-empty value of `name` (an empty value counts as absent).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs.iter().find(|(k, v)| k == name && !v.is_empty()).map(|(_, v)| v.as_str())
    }

    pub fn required(&self, name: &str) -> Result<&str, ApiError> {
        self.get(name).ok_or_else(|| ApiError::bad(format!("{name} is required")))
    }

    pub fn max_len(&self, name: &str, max: usize) -> Result<Option<&str>, ApiError> {
        match self.get(name) {
            Some(v) if v.chars().count() > max => {
                Err(ApiError::bad(format!("{name} must be at most {max} characters")))
            }
            v => Ok(v),
        }
    }

    /// An integer in `min..=max` (no upper bound when `max` is None), or `default` when absent.
    pub fn int(&self, name: &str, min: i64, max: Option<i64>, default: i64) -> Result<i64, ApiError> {
        Ok(self.opt_int(name, min, max)?.unwrap_or(default))
    }

    pub fn opt_int(&self, name: &str, min: i64, max: Option<i64>) -> Result<Option<i64>, ApiError> {
        let Some(text) = self.get(name) else { return Ok(None) };
        let bounds = match max {
            Some(max) => format!("between {min} and {max}"),
            None => format!("at least {min}"),
        };
        let message = || ApiError::bad(format!("{name} must be an integer {bounds}"));
        let value: i64 = text.parse().map_err(|_| message())?;
        if value < min || max.is_some_and(|max| value > max) {
            return Err(message());
        }
        Ok(Some(value))
    }

    pub fn number(&self, name: &str, min: f64) -> Result<Option<f64>, ApiError> {
        let Some(text) = self.get(name) else { return Ok(None) };
        match text.parse::<f64>() {
            Ok(v) if v.is_finite() && v >= min => Ok(Some(v)),
            _ => Err(ApiError::bad(format!("{name} must be a number >= {min}"))),
        }
    }

    pub fn bool(&self, name: &str) -> Result<Option<bool>, ApiError> {
        match self.get(name) {
            None => Ok(None),
            Some("true") => Ok(Some(true)),
            Some("false") => Ok(Some(false)),
            Some(_) => Err(ApiError::bad(format!("{name} must be true or false"))),
        }
    }

    pub fn one_of<'a>(&'a self, name: &str, allowed: &[&str]) -> Result<Option<&'a str>, ApiError> {
        match self.get(name) {
            None => Ok(None),
            Some(v) if allowed.contains(&v) => Ok(Some(v)),
            Some(_) => Err(ApiError::bad(format!("{name} must be one of {}", allowed.join(", ")))),
        }
    }
}

pub fn is_hex_id(text: &str, digits: usize) -> bool {
    text.len() == digits + 2 && text.starts_with("0x") && text[2..].bytes().all(|b| b.is_ascii_hexdigit())
}

pub fn is_address(text: &str) -> bool {
    is_hex_id(text, 40)
}

pub fn is_condition_id(text: &str) -> bool {
    is_hex_id(text, 64)
}

/// Page sizes of the cursor-paged lists.
pub const MARKETS_PAGE: usize = 100;
pub const SAMPLING_PAGE: usize = 100;
pub const ORDERS_PAGE: usize = 100;
pub const TRADES_PAGE: usize = 100;

/// Cursor paging: `next_cursor` is the Base64 text of a decimal offset (`MA==` = 0).
#[derive(Clone, Copy)]
pub struct Cursors {
    /// Answer `LTE=` (Base64 of "-1") instead of "" on the last page, as the upstream service does.
    pub end_lte: bool,
}

impl Cursors {
    pub const END_LTE: &'static str = "LTE=";

    /// The offset a request's `next_cursor` asks for; None when it asks past the end (`LTE=`).
    pub fn offset(&self, params: &Params) -> Result<Option<usize>, ApiError> {
        let Some(cursor) = params.get("next_cursor") else { return Ok(Some(0)) };
        if cursor == Self::END_LTE {
            return Ok(None);
        }
        let invalid = || ApiError::bad("next_cursor must be a Base64-encoded offset such as MA==");
        let bytes = STANDARD.decode(cursor).map_err(|_| invalid())?;
        let text = String::from_utf8(bytes).map_err(|_| invalid())?;
        text.parse::<usize>().map(Some).map_err(|_| invalid())
    }

    pub fn next(&self, offset: usize, count: usize, total: usize) -> String {
        if offset + count >= total || count == 0 {
            self.end()
        } else {
            STANDARD.encode((offset + count).to_string())
        }
    }

    pub fn end(&self) -> String {
        if self.end_lte {
            Self::END_LTE.to_owned()
        } else {
            String::new()
        }
    }

    /// One page of `items`: {data, next_cursor, limit, count}.
    pub fn page<T>(
        &self,
        params: &Params,
        items: &[T],
        limit: usize,
        render: impl Fn(&T) -> serde_json::Value,
    ) -> Result<serde_json::Value, ApiError> {
        let offset = self.offset(params)?;
        let (data, next) = match offset {
            Some(offset) if offset < items.len() => {
                let page = &items[offset..(offset + limit).min(items.len())];
                (page.iter().map(render).collect::<Vec<_>>(), self.next(offset, page.len(), items.len()))
            }
            _ => (Vec::new(), self.end()),
        };
        Ok(serde_json::json!({ "data": data, "next_cursor": next, "limit": limit, "count": data.len() }))
    }
}

impl Cursors {
    /// One page of `items` as JSON text, from each item's JSON text.
    pub fn page_text<'a, T>(
        &self,
        params: &Params,
        items: &'a [T],
        limit: usize,
        render: impl Fn(&'a T) -> &'a str,
    ) -> Result<String, ApiError> {
        let offset = self.offset(params)?;
        let (page, next) = match offset {
            Some(offset) if offset < items.len() => {
                let page = &items[offset..(offset + limit).min(items.len())];
                (page, self.next(offset, page.len(), items.len()))
            }
            _ => (&items[..0], self.end()),
        };
        Ok(format!(
            r#"{{"data":{},"next_cursor":{},"limit":{limit},"count":{}}}"#,
            join(page.iter().map(render)),
            serde_json::Value::from(next),
            page.len()
        ))
    }
}

/// A JSON array of JSON texts.
pub fn join<'a>(items: impl Iterator<Item = &'a str>) -> String {
    let mut out = String::from("[");
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(item);
    }
    out.push(']');
    out
}

/// One offset page of `items`.
pub fn offset_page<T: Clone>(items: &[T], offset: i64, limit: i64) -> &[T] {
    let start = (offset.max(0) as usize).min(items.len());
    let end = start.saturating_add(limit.max(0) as usize).min(items.len());
    &items[start..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_round_trip() {
        let c = Cursors { end_lte: false };
        assert_eq!(c.next(0, 100, 1000), "MTAw");
        assert_eq!(c.next(900, 100, 1000), "");
        assert_eq!(Cursors { end_lte: true }.next(900, 100, 1000), "LTE=");
        assert_eq!(c.offset(&Params::parse(Some("next_cursor=MTAw"))).unwrap(), Some(100));
        assert_eq!(c.offset(&Params::parse(Some("next_cursor=MA%3D%3D"))).unwrap(), Some(0));
        assert_eq!(c.offset(&Params::parse(Some("next_cursor=LTE%3D"))).unwrap(), None);
        assert!(c.offset(&Params::parse(Some("next_cursor=%%%"))).is_err());
    }

    #[test]
    fn bounds() {
        let p = Params::parse(Some("limit=101&offset=-1&flag=yes&n=0"));
        assert!(p.int("limit", 1, Some(100), 20).is_err());
        assert!(p.int("offset", 0, None, 0).is_err());
        assert!(p.bool("flag").is_err());
        assert_eq!(p.int("n", 0, Some(5), 3).unwrap(), 0);
        assert_eq!(p.int("absent", 0, Some(5), 3).unwrap(), 3);
    }
}
