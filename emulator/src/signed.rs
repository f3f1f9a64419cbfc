//! The signed routes' extractor: the account a request's SERVICE_* headers authenticate, and the body they were
//! checked over, for the account routes and the order routes alike.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};

use crate::app::App;
use crate::auth::authenticate;
use crate::params::ApiError;

/// The account a request's SERVICE_* headers authenticate (a catalog account or a created key; else 401),
/// and the body they were checked over: extracted by every signed route, in place of the body.
pub(crate) struct Signed {
    pub account: usize,
    pub body: Bytes,
}

/// The largest body a signed route reads (axum's default limit for `Bytes`).
const MAX_BODY: usize = 2 * 1024 * 1024;

impl FromRequest<Arc<App>> for Signed {
    type Rejection = ApiError;

    async fn from_request(request: Request, app: &Arc<App>) -> Result<Self, ApiError> {
        let (parts, body) = request.into_parts();
        let body = axum::body::to_bytes(body, MAX_BODY)
            .await
            .map_err(|_| ApiError::bad("the body is unreadable or too long"))?;
        let account = authenticate(
            |key| app.accounts.by_key(key),
            &app.auth,
            &parts.headers,
            parts.method.as_str(),
            parts.uri.path(),
            &body,
            app.clock.caller_ms(),
        )?;
        Ok(Signed { account, body })
    }
}
