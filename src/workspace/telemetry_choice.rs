//! Where traces go and what they may hold: only the user chooses (the flag or editor
//! setting over `OTEL_EXPORTER_OTLP_ENDPOINT`, text only with `--otlp-include-text` or
//! `BYOP_OTLP_INCLUDE_TEXT=1`); a workspace's `[telemetry]` table is at most a notice.
//! The exporter (`telemetry`) only follows these settings.

pub const ENDPOINT_ENV: &str = "OTEL_EXPORTER_OTLP_ENDPOINT";
pub const HEADERS_ENV: &str = "OTEL_EXPORTER_OTLP_HEADERS";

/// Where traces go and what they may hold.
#[derive(Debug, Clone, PartialEq)]
pub struct TelemetrySettings {
    /// The full traces URL (`…/v1/traces`).
    pub traces_url: String,
    pub include_text: bool,
}

/// `BYOP_OTLP_INCLUDE_TEXT=1`: the user puts a document preview in traces.
pub const INCLUDE_TEXT_ENV: &str = "BYOP_OTLP_INCLUDE_TEXT";

/// What the user chose for traces: the flag (or editor setting) over
/// `OTEL_EXPORTER_OTLP_ENDPOINT`; text only when the user asks for it.
#[derive(Debug, Clone, Default)]
pub struct UserTelemetry<'a> {
    pub endpoint: Option<&'a str>,
    pub include_text: bool,
}

/// Only the user chooses where traces go and whether they hold text (see `trust`): the
/// workspace's `[telemetry] endpoint` is used only when it is the user's own endpoint, and
/// its `include_text` never counts (the policy's notices say so). A workspace endpoint
/// alone is a notice, never a destination.
pub fn settings(
    user: UserTelemetry,
    env: &dyn Fn(&str) -> Option<String>,
    policy: &super::trust::Policy,
) -> (Option<TelemetrySettings>, Option<String>) {
    let nonempty = |s: Option<String>| s.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
    let include_text = user_allows_text(user.include_text, env);
    let chosen =
        nonempty(user.endpoint.map(str::to_string)).or_else(|| nonempty(env(ENDPOINT_ENV)));
    let workspace = nonempty(policy.telemetry_endpoint());
    let notice = match (&workspace, &chosen) {
        (Some(ws), Some(u)) if traces_url(ws) == traces_url(u) => None,
        (Some(ws), _) => Some(format!(
            "telemetry: ignored [telemetry] endpoint = \"{ws}\" from {}: only you choose where traces go (--otlp-endpoint or {ENDPOINT_ENV})",
            policy.file_label()
        )),
        (None, _) => None,
    };
    let settings = chosen.map(|base| TelemetrySettings {
        traces_url: traces_url(&base),
        include_text,
    });
    (settings, notice)
}

/// Whether the user allows text (a preview of the document or of the notes) in traces and
/// in the plan response's `debug`: `--otlp-include-text` or `BYOP_OTLP_INCLUDE_TEXT=1`.
/// A user-level choice only: a workspace's `include_text` never counts.
pub fn user_allows_text(flag: bool, env: &dyn Fn(&str) -> Option<String>) -> bool {
    flag || super::trust::truthy(env(INCLUDE_TEXT_ENV))
}

/// `…/v1/traces` appended to a base URL, as the OTLP spec says for the generic variable.
pub fn traces_url(base: &str) -> String {
    let base = base.trim().trim_end_matches('/');
    if base.ends_with("/v1/traces") {
        base.to_string()
    } else {
        format!("{base}/v1/traces")
    }
}
