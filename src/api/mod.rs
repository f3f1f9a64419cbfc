//! Requests described as data: one function per endpoint validates its params and returns an
//! [`HttpRequest`]; the response side turns a status and body into a result or an [`Error`].

pub mod budget;
pub mod call;
pub mod clock;
mod config;
mod endpoints;
mod extra;
pub mod fills;
pub mod methods;
pub mod options;
mod paging;
pub(crate) mod params;
mod request;
pub(crate) mod response;
pub mod retry;

pub use crate::json::JsonWriter;
pub use config::{base_url, TimestampUnit};
pub use endpoints::*;
pub use extra::{with_extra_query, MAX_EXTRA_QUERY};
pub use paging::{first_page, following, max_items, Paging, END_CURSOR, FIRST_CURSOR};
pub use params::{is_condition_id, Kind, Param, Params, Value, MAX_SAFE_INT};
pub use request::{segment, HttpRequest, Method, Scope, Surface};
pub use response::{check_response, excerpt, redirect_error, refuses_redirects, unfollowed_redirect, RateLimitNotice};
