//! The datasets the user named at start-up (`byop serve --dataset DIR`): their comparison
//! (what `byop dataset DIR` prints) as JSON or as its HTML view. A request names a dataset
//! by its folder's name among those offered, never by a path: the server reads no folder
//! the user did not name when starting it.

use std::sync::Arc;

use askama::Template;
use axum::Json;
use axum::extract::{Extension, Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use super::api::key_for;
use super::auth::Caller;
use super::error::ApiError;
use super::run;
use super::state::{AppState, OfferedDataset};
use super::view;
use crate::model::Mode;

type Shared = State<Arc<AppState>>;

fn offered<'a>(state: &'a AppState, name: &str) -> Result<&'a OfferedDataset, ApiError> {
    state.dataset(name).ok_or_else(|| {
        ApiError::not_found(format!(
            "no dataset `{name}` (this server offers the folders named by --dataset at start-up)"
        ))
    })
}

fn names(state: &AppState) -> Vec<String> {
    state
        .settings
        .datasets
        .iter()
        .map(|d| d.name.clone())
        .collect()
}

/// `GET /api/datasets`: the datasets offered.
pub async fn list(State(state): Shared) -> Json<Value> {
    Json(json!({ "datasets": names(&state) }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SummaryQuery {
    /// `json` (default) or `html`.
    #[serde(default)]
    format: Option<String>,
}

/// `GET /api/datasets/{name}`: the dataset's comparison, evaluated now with the caller's
/// key (the store's response cache answers what was evaluated before).
pub async fn summary(
    State(state): Shared,
    Extension(caller): Extension<Caller>,
    headers: HeaderMap,
    Path(name): Path<String>,
    Query(q): Query<SummaryQuery>,
) -> Result<Response, ApiError> {
    let html = match q.format.as_deref().unwrap_or("json") {
        "json" => false,
        "html" => true,
        other => {
            return Err(ApiError::field(
                "format",
                format!("unknown format `{other}` (json or html)"),
            ));
        }
    };
    let dataset = offered(&state, &name)?;
    let (evaluator, _) = run::evaluator(&state, Mode::Screening, key_for(&caller, &headers))?;
    let summary = (dataset.summarize)(evaluator)
        .await
        .map_err(|e| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "dataset_unreadable", e))?;
    Ok(match html {
        true => view::framed(crate::render::dataset::html(&summary)),
        false => Json(summary).into_response(),
    })
}

#[derive(Template)]
#[template(path = "web/datasets.html")]
struct DatasetsView {
    csrf: String,
    names: Vec<String>,
    shown: Option<String>,
}

fn csrf(caller: &Caller) -> String {
    caller.session().map(|s| s.csrf.clone()).unwrap_or_default()
}

fn render(v: DatasetsView) -> Result<Response, ApiError> {
    v.render()
        .map(|html| axum::response::Html(html).into_response())
        .map_err(|e| ApiError::internal(format!("page: {e}")))
}

/// `GET /datasets`: the datasets offered, each a link to its view.
pub async fn page_list(
    State(state): Shared,
    Extension(caller): Extension<Caller>,
) -> Result<Response, ApiError> {
    render(DatasetsView {
        csrf: csrf(&caller),
        names: names(&state),
        shown: None,
    })
}

/// `GET /datasets/{name}`: the dataset's HTML view, in a sandboxed frame.
pub async fn page(
    State(state): Shared,
    Extension(caller): Extension<Caller>,
    Path(name): Path<String>,
) -> Result<Response, ApiError> {
    let name = offered(&state, &name)?.name.clone();
    render(DatasetsView {
        csrf: csrf(&caller),
        names: names(&state),
        shown: Some(name),
    })
}
