//! `extraQuery`: query parameters the interface does not list for a call, sent as the caller gives them.
//!
//! Unknown names in a call's params are refused (a misspelt filter would otherwise be ignored without a
//! word); this is the explicit way around that refusal for filters the real service supports and the
//! interface does not name. It never weakens the checked parameters: a name the call takes is refused here
//! and must go in params, where its rules apply.

use super::params::{decimal_text, Params, Value, MAX_SAFE_INT};
use super::request::HttpRequest;
use crate::error::Error;

/// The most extra parameters one call sends.
pub const MAX_EXTRA_QUERY: usize = 20;
/// The longest name of an extra parameter.
pub const MAX_EXTRA_NAME: usize = 64;
/// The longest value of an extra parameter, in characters.
pub const MAX_EXTRA_VALUE: usize = 1000;

const PARAM: &str = "extraQuery";

/// Adds `extra` (the `extraQuery` option's entries) to `request`'s query, after its checked parameters.
pub fn with_extra_query(mut request: HttpRequest, extra: &Params) -> Result<HttpRequest, Error> {
    let entries: Vec<_> = extra.0.iter().filter(|(_, v)| !v.is_absent()).collect();
    if entries.len() > MAX_EXTRA_QUERY {
        return Err(Error::invalid(PARAM, "must have at most 20 entries"));
    }
    for (name, value) in entries {
        if !is_extra_name(name) {
            return Err(Error::invalid_owned(
                &qualified(name),
                "is not a query parameter name (letters, digits and _.-[], at most 64 characters)",
            ));
        }
        let taken = request.takes.iter().any(|p| p.name == name) || request.query.iter().any(|(n, _)| n == name);
        if taken {
            return Err(Error::invalid_owned(
                &qualified(name),
                "is a parameter of this call: pass it in params, where it is checked",
            ));
        }
        let text = extra_value(value).ok_or_else(|| {
            Error::invalid_owned(
                &qualified(name),
                "must be a string of at most 1000 characters, true or false, a safe whole number or a non-negative number",
            )
        })?;
        request.extra.push((name.clone(), text));
    }
    Ok(request)
}

fn qualified(name: &str) -> String {
    let mut text = String::with_capacity(PARAM.len() + 1 + name.len().min(MAX_EXTRA_NAME));
    text.push_str(PARAM);
    text.push('.');
    // A refused name may be anything: only its start goes into the message.
    text.extend(name.chars().take(MAX_EXTRA_NAME));
    text
}

fn is_extra_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_EXTRA_NAME
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"_.-[]".contains(&b))
}

/// A value's query text: strings as given, booleans as `true`/`false`, whole numbers exactly, other
/// non-negative numbers with at most six decimals (pass a string for anything else).
fn extra_value(value: &Value) -> Option<String> {
    match value {
        Value::Str(s) if s.chars().count() <= MAX_EXTRA_VALUE => Some(s.clone()),
        Value::Bool(b) => Some(if *b { "true" } else { "false" }.to_owned()),
        Value::Number(n) if n.fract() == 0.0 && n.abs() <= MAX_SAFE_INT as f64 => Some(crate::text::signed(*n as i64)),
        Value::Number(n) if n.is_finite() && *n >= 0.0 => decimal_text(*n),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{events, order_book, Params};
    use crate::error::ErrorCode;

    const TOKEN: &str = "72610532355343625199299853218161700546393390326785971247545541945337255643692";

    fn params(pairs: &[(&str, Value)]) -> Params {
        Params(pairs.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect())
    }

    fn s(x: &str) -> Value {
        Value::Str(x.to_owned())
    }

    #[test]
    fn extra_parameters_follow_the_checked_ones() {
        let request = events(&params(&[("limit", Value::Number(2.0))])).unwrap();
        let extra = params(&[
            ("liquidity_min", Value::Number(10.0)),
            ("featured", Value::Bool(true)),
            ("tag_ids[]", s("a b")),
            ("volume_min", Value::Number(0.25)),
            ("skipped", Value::Undefined),
        ]);
        let request = with_extra_query(request, &extra).unwrap();
        assert_eq!(
            request.url(""),
            "/events?limit=2&liquidity_min=10&featured=true&tag_ids%5B%5D=a%20b&volume_min=0.25"
        );
    }

    #[test]
    fn refusals() {
        let table: &[(&str, Value, &str)] = &[
            // A name the call takes must go in params, set or not.
            ("limit", Value::Number(5.0), "extraQuery.limit"),
            ("tag_slug", s("x"), "extraQuery.tag_slug"),
            ("has space", s("x"), "extraQuery.has space"),
            ("", s("x"), "extraQuery."),
            ("a=b", s("x"), "extraQuery.a=b"),
            ("x", Value::Object(vec![]), "extraQuery.x"),
            ("x", Value::Array(vec![]), "extraQuery.x"),
            ("x", Value::Other, "extraQuery.x"),
            ("x", Value::Number(f64::NAN), "extraQuery.x"),
            ("x", Value::Number(-0.5), "extraQuery.x"),
            ("x", Value::Number(1e300), "extraQuery.x"),
            ("x", s(&"v".repeat(1001)), "extraQuery.x"),
        ];
        for (name, value, param) in table {
            let request = events(&Params::default()).unwrap();
            let e = with_extra_query(request, &params(&[(name, value.clone())])).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidParams, "{name}");
            assert_eq!(e.param.as_deref(), Some(*param), "{name}");
        }
        let long_name = "n".repeat(65);
        assert!(with_extra_query(events(&Params::default()).unwrap(), &params(&[(&long_name, s("x"))])).is_err());
        let many: Vec<(String, Value)> = (0..21).map(|i| (format!("k{i}"), Value::Bool(true))).collect();
        let e = with_extra_query(events(&Params::default()).unwrap(), &Params(many)).unwrap_err();
        assert_eq!(e.param.as_deref(), Some("extraQuery"));
        let twenty: Vec<(String, Value)> = (0..20).map(|i| (format!("k{i}"), Value::Bool(true))).collect();
        assert!(with_extra_query(events(&Params::default()).unwrap(), &Params(twenty)).is_ok());
    }

    #[test]
    fn fixed_query_names_are_refused_too() {
        let e = with_extra_query(order_book(TOKEN).unwrap(), &params(&[("token_id", s("1"))])).unwrap_err();
        assert_eq!(e.param.as_deref(), Some("extraQuery.token_id"));
        let ok = with_extra_query(order_book(TOKEN).unwrap(), &params(&[("depth", Value::Number(5.0))])).unwrap();
        assert_eq!(ok.url(""), format!("/book?token_id={TOKEN}&depth=5"));
    }
}
