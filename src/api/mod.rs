//! Requests described as data: one function per endpoint validates its params and returns an
//! [`HttpRequest`]; the response side turns a status and body into a result or an [`Error`].

mod config;
mod endpoints;
mod request;
mod response;

pub use config::{base_url, TimestampUnit};
pub use endpoints::*;
pub use request::{segment, HttpRequest, Method, Scope, Surface};
pub use response::{check_response, excerpt, retry_after_ms};
