//! `byop serve`: the runner as a web page and an HTTP API. A thin front end: each route
//! is one small handler translating to the engine (`workspace::evaluate`, the store,
//! `render`); `auth` guards every request (host, token or session, CSRF, headers).

mod api;
mod auth;
mod chart;
mod datasets;
mod error;
mod events;
mod pages;
mod plans;
mod run;
mod state;
mod view;

use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};

pub use auth::{COOKIE, CSRF_HEADER, PAGE_CSP};
pub use state::{AppState, Offered, OfferedDataset, Settings, SummarizeFn, random_token};

/// The largest request body: the AI output, source and prompt together.
pub const MAX_BODY_BYTES: usize = 8 * 1024 * 1024;

/// Every route; `auth::guard` runs before each.
pub fn router(state: Arc<AppState>) -> Router {
    let api = Router::new()
        .route("/evaluate", post(api::evaluate))
        .route("/runs", post(api::start_run))
        .route("/runs/{id}/events", get(api::run_events))
        .route("/runs/{id}/cancel", post(api::cancel_run))
        .route("/history", get(api::history))
        .route("/reports/{id}", get(api::report))
        .route("/compare", post(api::compare))
        .route("/baseline", post(api::baseline))
        .route("/playbooks", get(api::playbooks))
        .route("/session/forget-key", post(api::forget_key))
        .route("/validate-plan", post(plans::validate_plan))
        .route("/plan", post(plans::generate_plan))
        .route("/audit/{request_id}", get(api::audit))
        .route("/datasets", get(datasets::list))
        .route("/datasets/{name}", get(datasets::summary))
        .route("/openapi.json", get(api::openapi))
        .fallback(api::not_found);
    Router::new()
        .route("/", get(pages::index))
        .route("/reports/{id}", get(pages::report))
        .route("/history", get(pages::history))
        .route("/compare", get(pages::compare))
        .route("/compare/view", get(pages::compare_view))
        .route("/plan", get(pages::plan))
        .route("/audit/{request_id}", get(pages::audit))
        .route("/datasets", get(datasets::page_list))
        .route("/datasets/{name}", get(datasets::page))
        .route("/static/app.js", get(pages::script))
        .route("/static/app.css", get(pages::style))
        .nest("/api", api)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            auth::guard,
        ))
        .with_state(state)
}

/// Serve on `listener` until `shutdown` completes.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: Arc<AppState>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    // Idle sessions' keys leave memory even when their browser never comes back.
    let every = (state.settings.key_idle / 4).clamp(
        std::time::Duration::from_millis(100),
        std::time::Duration::from_secs(30),
    );
    let sweeper = state.clone();
    let sweeping = tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        loop {
            tick.tick().await;
            sweeper.expire_idle_keys();
        }
    });
    let served = axum::serve(listener, router(state))
        .with_graceful_shutdown(shutdown)
        .await;
    sweeping.abort();
    served
}
