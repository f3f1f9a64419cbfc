//! Following pages: by cursor (`MA==` first; stop on `""` or `LTE=`) or by offset (stop on a short page).
//! Pure state: the binding asks for the next page's params, sends, and records what came back.

use super::params::{Params, Value};
use crate::error::Error;

/// The first cursor of every cursor-paged list.
pub const FIRST_CURSOR: &str = "MA==";
/// The end cursor the upstream service sends (Base64 of "-1").
pub const END_CURSOR: &str = "LTE=";

/// The state of one iteration. Whether a page follows, and with what params, is [`following`]: the same
/// rule as a page's `hasNextPage()` and `getNextPage()`.
#[derive(Clone, Debug)]
pub struct Pager {
    paging: Paging,
    /// The params of the next page; none once the list has ended or `maxItems` are had.
    next: Option<Params>,
    /// The `next_cursor` the last page carried (before any page, the first page's).
    last_cursor: String,
    /// Items still wanted, from `maxItems`.
    remaining: Option<u64>,
    pages: u64,
    items: u64,
}

/// What one page contributed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageStep {
    /// How many of the page's items to hand out (fewer than it had when `maxItems` is reached).
    pub take: usize,
    /// Whether this was the last page.
    pub done: bool,
    /// Pages and items so far.
    pub pages: u64,
    pub items: u64,
}

/// `maxItems`: a whole number >= 0, or absent.
pub fn max_items(value: &Value) -> Result<Option<u64>, Error> {
    match value {
        Value::Undefined | Value::Null => Ok(None),
        Value::Number(n) if n.is_finite() && *n >= 0.0 && n.fract() == 0.0 => Ok(Some(*n as u64)),
        _ => Err(Error::invalid("maxItems", "must be a whole number >= 0")),
    }
}

impl Pager {
    /// A cursor-paged list, from `params.next_cursor` or the first page.
    pub fn cursor(mut params: Params, max_items: Option<u64>) -> Self {
        let cursor = match params.get("next_cursor") {
            Value::Str(c) if !c.is_empty() => c.clone(),
            _ => FIRST_CURSOR.to_owned(),
        };
        params.set("next_cursor", Value::Str(cursor.clone()));
        Self { last_cursor: cursor, ..Self::new(Paging::Cursor, params, max_items) }
    }

    /// An offset-paged list. The page size is the caller's `limit`, else `page_size` (the route's
    /// largest, so that iteration takes as few requests as it can); `max_offset` is the route's bound.
    pub fn offset(mut params: Params, page_size: u64, max_offset: u64, max_items: Option<u64>) -> Result<Self, Error> {
        let limit = match params.get("limit") {
            Value::Number(n) if *n == 0.0 => return Err(Error::invalid("limit", "must be at least 1 to iterate")),
            Value::Number(n) if n.is_finite() && *n > 0.0 && n.fract() == 0.0 => *n as u64,
            Value::Undefined | Value::Null => page_size,
            // Anything else is refused by the route's own rules when the first page is built.
            _ => page_size,
        };
        let offset = match params.get("offset") {
            Value::Number(n) if n.is_finite() && *n >= 0.0 && n.fract() == 0.0 => *n as u64,
            _ => 0,
        };
        params.set("limit", Value::Number(limit as f64));
        params.set("offset", Value::Number(offset as f64));
        Ok(Self::new(Paging::Offset { max_offset }, params, max_items))
    }

    fn new(paging: Paging, params: Params, remaining: Option<u64>) -> Self {
        let next = (remaining != Some(0)).then_some(params);
        Self { paging, next, last_cursor: String::new(), remaining, pages: 0, items: 0 }
    }

    pub fn is_done(&self) -> bool {
        self.next.is_none()
    }

    /// The `next_cursor` the last page carried (empty when it carried none); before any page, the first's.
    pub fn next_cursor(&self) -> &str {
        &self.last_cursor
    }

    /// The params of the next page, or `None` when the iteration is over.
    pub fn next_params(&self) -> Option<Params> {
        self.next.clone()
    }

    /// Records a page of `len` items (and, for cursor lists, the `next_cursor` it carried).
    pub fn record(&mut self, len: usize, next_cursor: Option<&str>) -> PageStep {
        let len64 = len as u64;
        let take = match self.remaining {
            Some(rest) => rest.min(len64),
            None => len64,
        };
        if let Some(rest) = self.remaining.as_mut() {
            *rest -= take;
        }
        self.pages += 1;
        self.items += take;
        self.last_cursor = next_cursor.unwrap_or_default().to_owned();
        let current = self.next.take();
        if self.remaining != Some(0) {
            self.next = current.and_then(|params| following(&params, self.paging, len, next_cursor));
        }
        PageStep { take: take as usize, done: self.next.is_none(), pages: self.pages, items: self.items }
    }
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

    #[test]
    fn cursors_start_at_ma_and_stop_at_the_end_markers() {
        for end in ["", END_CURSOR] {
            let mut p = Pager::cursor(Params::default(), None);
            assert_eq!(p.next_params().unwrap().get("next_cursor"), &Value::Str("MA==".into()));
            assert!(!p.record(100, Some("MTAw")).done);
            assert_eq!(p.next_cursor(), "MTAw");
            let step = p.record(100, Some(end));
            assert!(step.done && p.is_done() && p.next_params().is_none());
            assert_eq!((step.pages, step.items), (2, 200));
        }
    }

    #[test]
    fn cursors_that_do_not_move_or_empty_pages_end_the_list() {
        let mut p = Pager::cursor(params(&[("next_cursor", Value::Str("MTAw".into()))]), None);
        assert_eq!(p.next_cursor(), "MTAw");
        assert!(p.record(5, Some("MTAw")).done);
        let mut p = Pager::cursor(Params::default(), None);
        assert!(p.record(0, Some("MTAw")).done);
        let mut p = Pager::cursor(Params::default(), None);
        assert!(p.record(3, None).done);
    }

    #[test]
    fn max_items_truncates_and_stops() {
        let mut p = Pager::cursor(Params::default(), Some(250));
        assert_eq!(p.record(100, Some("a")).take, 100);
        assert_eq!(p.record(100, Some("b")).take, 100);
        let last = p.record(100, Some("c"));
        assert_eq!((last.take, last.done, last.items), (50, true, 250));
        assert!(Pager::cursor(Params::default(), Some(0)).next_params().is_none());
    }

    #[test]
    fn offsets_advance_by_page_and_stop_on_a_short_page() {
        let mut p = Pager::offset(params(&[("active", Value::Bool(true))]), 100, u64::MAX, None).unwrap();
        let first = p.next_params().unwrap();
        assert_eq!(first.get("limit"), &Value::Number(100.0));
        assert_eq!(first.get("offset"), &Value::Number(0.0));
        assert_eq!(first.get("active"), &Value::Bool(true));
        assert!(!p.record(100, None).done);
        assert_eq!(p.next_params().unwrap().get("offset"), &Value::Number(100.0));
        assert!(p.record(99, None).done);
    }

    #[test]
    fn offsets_respect_the_callers_limit_and_offset_and_the_route_bound() {
        let given = params(&[("limit", Value::Number(10.0)), ("offset", Value::Number(30.0))]);
        let mut p = Pager::offset(given, 100, 50, None).unwrap();
        assert_eq!(p.next_params().unwrap().get("limit"), &Value::Number(10.0));
        assert!(!p.record(10, None).done); // offset 40
        assert!(!p.record(10, None).done); // offset 50, still within the bound
        assert!(p.record(10, None).done); // offset 60 is past it
        let zero = Pager::offset(params(&[("limit", Value::Number(0.0))]), 100, 50, None).unwrap_err();
        assert_eq!(zero.param.as_deref(), Some("limit"));
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
