//! PlanProof over HTTP: a plan the user wrote validated against their notes
//! (`POST /api/validate-plan`, the page's form), and a plan generated from the notes with
//! a built-in variant, validated and repaired by its strategy (`POST /api/plan`, what
//! `byop plan` does).

use std::path::PathBuf;
use std::sync::Arc;

use axum::Json;
use axum::extract::{Extension, State};
use axum::http::{HeaderMap, StatusCode};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::api::key_for;
use super::auth::Caller;
use super::error::{ApiError, JsonBody};
use super::run::{self, EvaluateRequest};
use super::state::AppState;
use crate::engine::generate::{self, GenContext, Scenario, daily};
use crate::engine::playbook::PLANPROOF_ID;
use crate::model::Mode;
use crate::workspace::evaluate::Recorder;
use crate::workspace::gen_audit::{self, GenAudit};
use crate::workspace::gen_trace::{self, Generation};

type Shared = State<Arc<AppState>>;

/// The document a generated plan's audit-log rows name (the notes came with the request).
const NOTES_KEY: &str = "web:notes";

/// A time or zone field: one line of at most 100 characters (it goes into front matter).
fn one_line(field: &str, value: &Option<String>) -> Result<Option<String>, ApiError> {
    match value.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(None),
        Some(v) if v.chars().any(char::is_control) || v.len() > 100 => {
            Err(ApiError::field(field, "one line of at most 100 characters"))
        }
        Some(v) => Ok(Some(v.to_string())),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanRequest {
    /// The plan: its JSON, or a markdown list with timeboxes.
    plan: String,
    /// The user's notes the plan is checked against.
    #[serde(default)]
    notes: Option<String>,
    /// ISO-8601, with an offset or as a wall-clock time.
    #[serde(default)]
    current_time: Option<String>,
    /// IANA time zone.
    #[serde(default)]
    timezone: Option<String>,
    #[serde(default)]
    document: Option<String>,
}

/// `POST /api/validate-plan`: the plan judged by `planproof_v1` (deterministic), its
/// notes as the source: `{"validation": …, "byop_report": …}`.
pub async fn validate_plan(
    State(state): Shared,
    JsonBody(req): JsonBody<PlanRequest>,
) -> Result<Json<Value>, ApiError> {
    if req.plan.trim().is_empty() {
        return Err(ApiError::field("plan", "the plan is required"));
    }
    // The time and zone go into the plan's front matter, as JSON strings (valid YAML).
    let mut front = String::new();
    for (field, value) in [
        ("current_time", &req.current_time),
        ("timezone", &req.timezone),
    ] {
        if let Some(v) = one_line(field, value)? {
            front += &format!("{field}: {}\n", json!(v));
        }
    }
    let output = match front.is_empty() {
        true => req.plan,
        false => format!("---\n{front}---\n{}", req.plan),
    };
    let evaluate = EvaluateRequest {
        output,
        source: req.notes,
        prompt: None,
        playbook: Some(PLANPROOF_ID.into()),
        mode: Some("deterministic".into()),
        document: Some(req.document.unwrap_or_else(|| "plan".into())),
        save_baseline: false,
    };
    let prepared = run::prepare(&state, evaluate, None)?;
    let outcome = run::execute(&state, prepared, None, CancellationToken::new()).await?;
    Ok(Json(json!({
        "validation": outcome.report.validation,
        "byop_report": outcome.report,
    })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenerateRequest {
    /// The user's notes the plan is made from (front matter may carry the time and zone).
    notes: String,
    /// A built-in variant (default `v4_repair`: validated, repaired once).
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    current_time: Option<String>,
    #[serde(default)]
    timezone: Option<String>,
}

/// `POST /api/plan`: a plan generated from the notes with a built-in variant, validated
/// (and repaired once, by the variant's strategy): the JSON `byop plan` prints, with
/// `passed`. The evaluator generates it, with the session's or the header's key.
pub async fn generate_plan(
    State(state): Shared,
    Extension(caller): Extension<Caller>,
    headers: HeaderMap,
    JsonBody(req): JsonBody<GenerateRequest>,
) -> Result<Json<Value>, ApiError> {
    if req.notes.trim().is_empty() {
        return Err(ApiError::field("notes", "the notes are required"));
    }
    let name = req.variant.as_deref().unwrap_or("v4_repair");
    // Built-in variants only: a request names no file on the server's disk.
    let variant = daily::built_in(name)
        .ok_or_else(|| {
            ApiError::field(
                "variant",
                format!(
                    "unknown variant `{name}` (built in: {})",
                    daily::built_in_names().join(", ")
                ),
            )
        })?
        .map_err(ApiError::internal)?;
    let mut scenario = Scenario::new("notes", PathBuf::from("web:notes"), req.notes);
    scenario.current_time = one_line("current_time", &req.current_time)?.or(scenario.current_time);
    scenario.timezone = one_line("timezone", &req.timezone)?.or(scenario.timezone);
    let playbook = &state
        .playbook(PLANPROOF_ID)
        .ok_or_else(|| ApiError::internal("the PlanProof playbook is not offered"))?
        .loaded;
    let (evaluator, missing) = run::evaluator(&state, Mode::Screening, key_for(&caller, &headers))?;
    let Some(evaluator) = evaluator else {
        return Err(unavailable(missing.unwrap_or_default()));
    };
    // The same audit trail as `byop plan`: received → attempts → validations → generated
    // (or halted), in the server's store.
    let store = state.settings.store.as_ref();
    let audit = GenAudit::start(NOTES_KEY, &scenario, &variant, &playbook.logic_hash);
    let audit_request_id = audit.request_id().to_string();
    let recorder = Recorder::default();
    let cancel = CancellationToken::new();
    let started = std::time::SystemTime::now();
    let cx = GenContext {
        evaluator: &evaluator,
        playbook,
        cache: Some(store),
        observer: Some(&recorder),
        cancel: &cancel,
        fresh: false,
    };
    let produced = generate::produce(&scenario, &variant, cx).await;
    let calls = recorder.take();
    let g = Generation {
        scenario: &scenario,
        variant: &variant,
        request_id: &audit_request_id,
    };
    gen_trace::export(&g, produced.as_ref().ok(), &calls, started);
    audit.finish(
        store,
        &scenario,
        produced.as_ref().map_err(gen_audit::not_generated),
        calls,
    );
    let produced = produced.map_err(|e| unavailable(format!("no plan generated: {e}")))?;
    let mut answer = daily::answer(&produced, &scenario, playbook).map_err(ApiError::internal)?;
    answer.body["debug"]["audit_request_id"] = json!(audit_request_id);
    answer.body["passed"] = json!(answer.passed);
    Ok(Json(answer.body))
}

fn unavailable(why: String) -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "evaluator_unavailable",
        why,
    )
}
