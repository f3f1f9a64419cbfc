//! Following pages: by cursor (`MA==` first; stop on `""` or `LTE=`) or by offset (stop on a short page).
//! Pure rules: the first page's params ([`first_page`]) and each next one's ([`following`]); the package's
//! `for await` (src/js/package/pages.mjs) walks a list with them, as a page's `getNextPage()` does.

use super::params::{Params, Value};
use crate::error::Error;

/// The first cursor of every cursor-paged list.
pub const FIRST_CURSOR: &str = "MA==";
/// The end cursor the upstream service sends (Base64 of "-1").
pub const END_CURSOR: &str = "LTE=";

/// `maxItems`: a whole number >= 0, or absent.
pub fn max_items(value: &Value) -> Result<Option<u64>, Error> {
    match value {
        Value::Undefined | Value::Null => Ok(None),
        Value::Number(n) if n.is_finite() && *n >= 0.0 && n.fract() == 0.0 => Ok(Some(*n as u64)),
        _ => Err(Error::invalid("maxItems", "must be a whole number >= 0")),
    }
}

/// The params of an iteration's first page, from the caller's. Cursor lists start at the caller's
/// `next_cursor`, else [`FIRST_CURSOR`]. Offset lists ask for pages of the caller's `limit`, else of
/// `page_size` (the route's largest, so that iteration takes as few requests as it can), from the caller's
/// `offset`, else 0; a `limit` of 0 cannot iterate. Each following page is [`following`].
pub fn first_page(mut params: Params, paging: Paging, page_size: u64) -> Result<Params, Error> {
    match paging {
        Paging::Cursor => {
            if !matches!(params.get("next_cursor"), Value::Str(c) if !c.is_empty()) {
                params.set("next_cursor", Value::Str(FIRST_CURSOR.to_owned()));
            }
        }
        Paging::Offset { .. } => {
            match params.get("limit") {
                Value::Number(n) if *n == 0.0 => return Err(Error::invalid("limit", "must be at least 1 to iterate")),
                // Anything else but a number is refused by the route's own rules when the page is built.
                Value::Undefined | Value::Null => params.set("limit", Value::Number(page_size as f64)),
                _ => {}
            }
            if matches!(params.get("offset"), Value::Undefined | Value::Null) {
                params.set("offset", Value::Number(0.0));
            }
        }
    }
    Ok(params)
}

/// How a list is paged, for [`following`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paging {
    /// `limit` and `offset`, with the route's offset bound.
    Offset { max_offset: u64 },
    /// `next_cursor`, from the page's own `next_cursor`.
    Cursor,
}

/// The params of the page after one page that `params` asked for, which held `len` items (and, for
/// cursor lists, `next_cursor`), or `None` when no page follows: an empty page; for offset lists a page
/// shorter than the `limit` asked for (without a `limit`, the service's page size is unknown, so only an
/// empty page ends the list) or an offset past the route's bound; for cursor lists the end markers or a
/// cursor that does not move. A page's `hasNextPage()` and `getNextPage()` are this.
pub fn following(params: &Params, paging: Paging, len: usize, next_cursor: Option<&str>) -> Option<Params> {
    if len == 0 {
        return None;
    }
    let mut next = params.clone();
    match paging {
        Paging::Offset { max_offset } => {
            let whole = |v: &Value| match v {
                Value::Number(n) if n.is_finite() && *n >= 0.0 && n.fract() == 0.0 => Some(*n as u64),
                _ => None,
            };
            if whole(params.get("limit")).is_some_and(|limit| (len as u64) < limit) {
                return None;
            }
            let offset = whole(params.get("offset")).unwrap_or(0).saturating_add(len as u64);
            if offset > max_offset {
                return None;
            }
            next.set("offset", Value::Number(offset as f64));
        }
        Paging::Cursor => {
            let cursor = next_cursor.unwrap_or("");
            let current = match params.get("next_cursor") {
                Value::Str(c) if !c.is_empty() => c.as_str(),
                _ => FIRST_CURSOR,
            };
            if cursor.is_empty() || cursor == END_CURSOR || cursor == current {
                return None;
            }
            next.set("next_cursor", Value::Str(cursor.to_owned()));
        }
    }
    Some(next)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::type_complexity)]
    fn the_page_after_a_page() {
        let n = |v: f64| Value::Number(v);
        let s = |v: &str| Value::Str(v.to_owned());
        let offset = Paging::Offset { max_offset: 1_000 };
        // (params asked, paging, items got, next_cursor, the next page's params or None)
        let table: Vec<(Params, Paging, usize, Option<&str>, Option<Params>)> = vec![
            // Offset lists: a full page moves the offset by its length, keeping every other param.
            (params(&[("limit", n(10.0))]), offset, 10, None, Some(params(&[("limit", n(10.0)), ("offset", n(10.0))]))),
            (
                params(&[("active", Value::Bool(true)), ("limit", n(10.0)), ("offset", n(30.0))]),
                offset,
                10,
                None,
                Some(params(&[("active", Value::Bool(true)), ("limit", n(10.0)), ("offset", n(40.0))])),
            ),
            // A short page ends the list; without a limit only an empty one does.
            (params(&[("limit", n(10.0))]), offset, 9, None, None),
            (params(&[]), offset, 20, None, Some(params(&[("offset", n(20.0))]))),
            (params(&[]), offset, 0, None, None),
            // The route's offset bound: 1,000 may be asked for, 1,001 may not.
            (
                params(&[("limit", n(500.0)), ("offset", n(500.0))]),
                offset,
                500,
                None,
                Some(params(&[("limit", n(500.0)), ("offset", n(1_000.0))])),
            ),
            (params(&[("limit", n(500.0)), ("offset", n(501.0))]), offset, 500, None, None),
            // Cursor lists follow the page's cursor and stop at the end markers or a cursor that stays.
            (params(&[]), Paging::Cursor, 100, Some("MTAw"), Some(params(&[("next_cursor", s("MTAw"))]))),
            (
                params(&[("market", s("0xab"))]),
                Paging::Cursor,
                100,
                Some("MTAw"),
                Some(params(&[("market", s("0xab")), ("next_cursor", s("MTAw"))])),
            ),
            (
                params(&[("next_cursor", s("MTAw"))]),
                Paging::Cursor,
                100,
                Some("MjAw"),
                Some(params(&[("next_cursor", s("MjAw"))])),
            ),
            (params(&[]), Paging::Cursor, 100, Some(END_CURSOR), None),
            (params(&[]), Paging::Cursor, 100, Some(""), None),
            (params(&[]), Paging::Cursor, 100, None, None),
            (params(&[]), Paging::Cursor, 100, Some(FIRST_CURSOR), None),
            (params(&[("next_cursor", s("MTAw"))]), Paging::Cursor, 100, Some("MTAw"), None),
            (params(&[]), Paging::Cursor, 0, Some("MTAw"), None),
        ];
        for (asked, paging, len, cursor, want) in table {
            assert_eq!(following(&asked, paging, len, cursor), want, "{asked:?} {paging:?} {len} {cursor:?}");
        }
    }

    fn params(pairs: &[(&str, Value)]) -> Params {
        Params(pairs.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect())
    }

    /// Walks a list the way the package's `for await` does: the first page, then `following` each page.
    fn walk(first: Params, paging: Paging, pages: &[(usize, Option<&str>)]) -> (usize, Vec<Params>) {
        let mut asked = vec![first];
        for (len, cursor) in pages {
            match following(asked.last().unwrap(), paging, *len, *cursor) {
                Some(next) => asked.push(next),
                None => break,
            }
        }
        (asked.len(), asked)
    }

    #[test]
    fn cursors_start_at_ma_and_stop_at_the_end_markers() {
        for end in ["", END_CURSOR] {
            let first = first_page(Params::default(), Paging::Cursor, 0).unwrap();
            assert_eq!(first.get("next_cursor"), &Value::Str("MA==".into()));
            let (n, asked) = walk(first, Paging::Cursor, &[(100, Some("MTAw")), (100, Some(end)), (100, Some("x"))]);
            assert_eq!(n, 2);
            assert_eq!(asked[1].get("next_cursor"), &Value::Str("MTAw".into()));
        }
        let given = params(&[("next_cursor", Value::Str("MTAw".into()))]);
        assert_eq!(first_page(given.clone(), Paging::Cursor, 0).unwrap(), given);
        let empty = params(&[("next_cursor", Value::Str(String::new()))]);
        assert_eq!(first_page(empty, Paging::Cursor, 0).unwrap().get("next_cursor"), &Value::Str("MA==".into()));
    }

    #[test]
    fn cursors_that_do_not_move_or_empty_pages_end_the_list() {
        let first = first_page(params(&[("next_cursor", Value::Str("MTAw".into()))]), Paging::Cursor, 0).unwrap();
        assert_eq!(walk(first, Paging::Cursor, &[(5, Some("MTAw"))]).0, 1);
        let first = first_page(Params::default(), Paging::Cursor, 0).unwrap();
        assert_eq!(walk(first.clone(), Paging::Cursor, &[(0, Some("MTAw"))]).0, 1);
        assert_eq!(walk(first, Paging::Cursor, &[(3, None)]).0, 1);
    }

    #[test]
    fn offsets_start_at_the_routes_page_size_and_stop_on_a_short_page() {
        let first = first_page(params(&[("active", Value::Bool(true))]), Paging::Offset { max_offset: u64::MAX }, 100);
        let first = first.unwrap();
        assert_eq!(first.get("limit"), &Value::Number(100.0));
        assert_eq!(first.get("offset"), &Value::Number(0.0));
        assert_eq!(first.get("active"), &Value::Bool(true));
        let (n, asked) = walk(first, Paging::Offset { max_offset: u64::MAX }, &[(100, None), (99, None), (100, None)]);
        assert_eq!(n, 2);
        assert_eq!(asked[1].get("offset"), &Value::Number(100.0));
    }

    #[test]
    fn offsets_keep_the_callers_limit_and_offset_and_the_route_bound() {
        let given = params(&[("limit", Value::Number(10.0)), ("offset", Value::Number(30.0))]);
        let first = first_page(given.clone(), Paging::Offset { max_offset: 50 }, 100).unwrap();
        assert_eq!(first, given);
        // Offsets 40 and 50 are within the bound; 60 is past it.
        assert_eq!(walk(first, Paging::Offset { max_offset: 50 }, &[(10, None); 5]).0, 3);
        let zero = first_page(params(&[("limit", Value::Number(0.0))]), Paging::Offset { max_offset: 50 }, 100);
        assert_eq!(zero.unwrap_err().param.as_deref(), Some("limit"));
        // A limit that is not a number is left for the route's own rules to refuse.
        let odd = params(&[("limit", Value::Str("ten".into()))]);
        assert_eq!(
            first_page(odd, Paging::Offset { max_offset: 50 }, 100).unwrap().get("limit"),
            &Value::Str("ten".into())
        );
    }

    #[test]
    fn max_items_values() {
        assert_eq!(max_items(&Value::Undefined), Ok(None));
        assert_eq!(max_items(&Value::Number(5.0)), Ok(Some(5)));
        for bad in [Value::Number(-1.0), Value::Number(1.5), Value::Str("5".into()), Value::Number(f64::NAN)] {
            assert_eq!(max_items(&bad).unwrap_err().param.as_deref(), Some("maxItems"));
        }
    }
}
