//! One function per endpoint: params in, a validated [`HttpRequest`] out. Nothing here does I/O.

use super::request::{HttpRequest, Scope, Surface};
use crate::error::Error;

/// GET / — the CLOB surface's health check.
pub fn ok() -> HttpRequest {
    HttpRequest::get(Surface::Clob, "/").scope(Scope::ClobRoot)
}

/// GET /book — the order book of one token.
pub fn order_book(token_id: &str) -> Result<HttpRequest, Error> {
    let token_id = token(token_id, "token_id")?;
    Ok(HttpRequest::get(Surface::Clob, "/book").query("token_id", token_id).scope(Scope::Book))
}

/// Token ids are long decimal strings; anything else cannot name a token.
fn token<'a>(value: &'a str, param: &'static str) -> Result<&'a str, Error> {
    if value.is_empty() {
        return Err(Error::invalid(param, "must not be empty"));
    }
    if value.len() > 100 || !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Error::invalid(param, "must be a decimal token id of at most 100 digits"));
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Method;
    use crate::error::ErrorCode;

    const TOKEN: &str = "72610532355343625199299853218161700546393390326785971247545541945337255643692";

    #[test]
    fn ok_is_get_root() {
        let req = ok();
        assert_eq!((req.method, req.path.as_str(), req.surface), (Method::Get, "/", Surface::Clob));
        assert!(req.query.is_empty() && req.body.is_none() && !req.auth);
    }

    #[test]
    fn order_book_takes_a_token_id() {
        let req = order_book(TOKEN).unwrap();
        assert_eq!(req.url("http://x"), format!("http://x/book?token_id={TOKEN}"));
        assert_eq!(req.scope, Scope::Book);
        let max = "9".repeat(100);
        assert!(order_book(&max).is_ok());
        for bad in ["", "12a", "0x12", " 1", &"9".repeat(101)] {
            let err = order_book(bad).unwrap_err();
            assert_eq!((err.code, err.param), (ErrorCode::InvalidParams, Some("token_id")), "{bad:?}");
        }
    }
}
