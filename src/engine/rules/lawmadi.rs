//! `lawmadi_output`: an output that is a JSON object (bare or in one ```json fence) must follow
//! the evidence contract's strict output schema (docs/contracts.md): a success with
//! `decision_token` and an evidence hash, or a fail-closed response with a stable `LC-` code.
//! Field formats are part of the schema: `request_id` a UUID, `created_at` an ISO-8601
//! timestamp, the token's hashes sha256 hex, `constitution_version` and any `schema_version`
//! non-empty. Violations are LC-003; a success whose evidence hash differs from the evidence
//! set's is LC-002. Other outputs have nothing to check.

use std::sync::Arc;

use serde::Deserialize;

use super::kind::{CompiledRule, Hit, RuleContext, RuleError, RuleOutcome};
use crate::model::{ContractVersions, Verdict};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {}

pub fn compile(value: serde_json::Value) -> Result<Arc<dyn CompiledRule>, RuleError> {
    let _: Params = super::kind::params(value)?;
    Ok(Arc::new(LawmadiRule))
}

#[derive(Debug)]
struct LawmadiRule;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Success {
    fail_closed: bool,
    request_id: String,
    decision_token: DecisionToken,
    summary: String,
    known_facts: Vec<String>,
    unknown_facts: Vec<String>,
    evidence_citations: Vec<OutCitation>,
    next_actions: Vec<String>,
    disclaimer: String,
    /// An evidence hash at top level, accepted beside the token's own
    /// `decision_token.drf_evidence_hash`.
    #[serde(default)]
    evidence_hash: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DecisionToken {
    decision_id: String,
    created_at: String,
    input_hash: String,
    drf_evidence_hash: String,
    decision_graph_hash: String,
    constitution_version: String,
    digital_signature: String,
    /// The token schema's version (optional; non-empty when given).
    #[serde(default)]
    schema_version: Option<String>,
}

/// Read only to validate the shape.
#[allow(dead_code)]
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutCitation {
    #[serde(rename = "ref")]
    pub reference: String,
    #[serde(rename = "type")]
    pub kind: CitationType,
    pub note: String,
}

#[derive(Deserialize, PartialEq, Debug)]
#[serde(rename_all = "UPPERCASE")]
pub enum CitationType {
    Statute,
    Case,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FailClosed {
    fail_closed: bool,
    request_id: String,
    code: String,
    message: String,
    required_user_inputs: Vec<String>,
    disclaimer: String,
}

/// The body's JSON object, when the output is one: bare, or alone in a ```json fence.
pub fn json_body(text: &str, body: (usize, usize)) -> Option<(usize, usize, &str)> {
    let b = text.get(body.0..body.1)?;
    let t = b.trim();
    if t.starts_with('{') {
        let s = body.0 + (b.len() - b.trim_start().len());
        return Some((s, s + t.len(), t));
    }
    let inner = t
        .strip_prefix("```json")
        .or_else(|| t.strip_prefix("```JSON"))?;
    let inner = inner.strip_suffix("```")?.trim();
    inner.starts_with('{').then(|| {
        let s = body.0 + b.find(inner).unwrap_or(0);
        (s, s + inner.len(), inner)
    })
}

fn is_hex_hash(s: &str) -> bool {
    let h = s.trim_start_matches("sha256:");
    h.len() == 64 && h.chars().all(|c| c.is_ascii_hexdigit())
}

fn is_uuid(s: &str) -> bool {
    uuid::Uuid::try_parse(s).is_ok()
}

/// An ISO-8601 / RFC 3339 timestamp with a UTC offset (`2026-01-01T10:00:00Z`).
pub fn parse_timestamp(s: &str) -> Option<jiff::Timestamp> {
    s.trim().parse().ok()
}

/// The first field of a fail-closed response whose format is wrong.
fn fail_closed_format(f: &FailClosed) -> Option<String> {
    (!is_uuid(&f.request_id)).then(|| format!("request_id `{}` is not a UUID", f.request_id))
}

/// The first field of a success response whose format is wrong.
fn success_format(ok: &Success) -> Option<String> {
    let t = &ok.decision_token;
    if !is_uuid(&ok.request_id) {
        return Some(format!("request_id `{}` is not a UUID", ok.request_id));
    }
    if parse_timestamp(&t.created_at).is_none() {
        return Some(format!(
            "decision_token.created_at `{}` is not an ISO-8601 timestamp with an offset (e.g. 2026-01-01T10:00:00Z)",
            t.created_at
        ));
    }
    for (name, value) in [
        ("input_hash", &t.input_hash),
        ("drf_evidence_hash", &t.drf_evidence_hash),
        ("decision_graph_hash", &t.decision_graph_hash),
    ] {
        if !is_hex_hash(value) {
            let what = if name == "drf_evidence_hash" {
                " (the evidence hash)"
            } else {
                ""
            };
            return Some(format!(
                "decision_token.{name}{what} `{value}` is not a sha256 (64 hex digits)"
            ));
        }
    }
    if t.constitution_version.trim().is_empty() {
        return Some("decision_token.constitution_version is empty".into());
    }
    if t.schema_version
        .as_deref()
        .is_some_and(|v| v.trim().is_empty())
    {
        return Some("decision_token.schema_version is empty".into());
    }
    None
}

/// The versions a document declares: its evidence set's `schema_version`, and its
/// structured output's decision token's `schema_version` and `constitution_version`.
/// `None` when it declares none (absent, empty, or not JSON).
pub fn versions(
    text: &str,
    body: (usize, usize),
    evidence: Option<&str>,
) -> Option<ContractVersions> {
    let parse = |json: &str| serde_json::from_str::<serde_json::Value>(json).ok();
    let token = json_body(text, body)
        .and_then(|(_, _, json)| parse(json))
        .and_then(|v| v.get("decision_token").cloned());
    let set = evidence.and_then(parse);
    let field = |v: Option<&serde_json::Value>, name: &str| {
        v.and_then(|v| v.get(name)?.as_str().map(str::trim).map(str::to_string))
            .filter(|s| !s.is_empty())
    };
    let found = ContractVersions {
        evidence_set_schema_version: field(set.as_ref(), "schema_version"),
        decision_token_schema_version: field(token.as_ref(), "schema_version"),
        constitution_version: field(token.as_ref(), "constitution_version"),
    };
    (found != ContractVersions::default()).then_some(found)
}

impl CompiledRule for LawmadiRule {
    fn apply(&self, cx: &RuleContext) -> Option<RuleOutcome> {
        let Some((s, e, json)) = json_body(cx.text, cx.body) else {
            return Some(RuleOutcome {
                verdict: Verdict::Pass,
                hits: vec![],
                hits_are_problems: false,
                notes: "The output is not a JSON object: no structured output to validate.".into(),
                code: None,
                grounding: None,
            });
        };
        let fail = |code: &str, msg: String| RuleOutcome {
            verdict: Verdict::Fail,
            hits: vec![Hit {
                start: s,
                end: e.min(s + 1).max(s),
                note: msg.clone(),
                source: None,
            }],
            hits_are_problems: true,
            notes: format!("{code}: {msg}"),
            code: Some(code.into()),
            grounding: None,
        };
        let value: serde_json::Value = match serde_json::from_str(json) {
            Ok(v) => v,
            Err(err) => {
                return Some(fail(
                    "LC-003",
                    format!("the output is not valid JSON: {err}"),
                ));
            }
        };
        let closed = value
            .get("fail_closed")
            .and_then(serde_json::Value::as_bool);
        match closed {
            Some(true) => match serde_json::from_value::<FailClosed>(value) {
                Err(err) => Some(fail(
                    "LC-003",
                    format!("fail-closed response violates the fail-closed response schema: {err}"),
                )),
                Ok(f) if !valid_code(&f.code) => Some(fail(
                    "LC-003",
                    format!("fail-closed code `{}` is not one of LC-001…LC-006", f.code),
                )),
                Ok(f) if fail_closed_format(&f).is_some() => {
                    Some(fail("LC-003", fail_closed_format(&f).expect("checked")))
                }
                Ok(f) => {
                    let _ = (
                        &f.request_id,
                        &f.message,
                        &f.required_user_inputs,
                        &f.disclaimer,
                        f.fail_closed,
                    );
                    Some(RuleOutcome {
                        verdict: Verdict::Pass,
                        hits: vec![],
                        hits_are_problems: false,
                        notes: format!("A well-formed fail-closed response ({}).", f.code),
                        code: None,
                        grounding: None,
                    })
                }
            },
            Some(false) => {
                if value.get("decision_token").is_none() {
                    return Some(fail(
                        "LC-003",
                        "success response without `decision_token`".into(),
                    ));
                }
                let ok: Success = match serde_json::from_value(value) {
                    Ok(v) => v,
                    Err(err) => {
                        return Some(fail(
                            "LC-003",
                            format!("success response violates the success response schema: {err}"),
                        ));
                    }
                };
                if let Some(problem) = success_format(&ok) {
                    return Some(fail("LC-003", problem));
                }
                let hash = ok
                    .evidence_hash
                    .as_deref()
                    .unwrap_or(&ok.decision_token.drf_evidence_hash);
                if !is_hex_hash(hash) {
                    return Some(fail("LC-003", "success response without an evidence hash (`decision_token.drf_evidence_hash` must be a sha256)".into()));
                }
                if let Some(set_hash) = cx.companions.evidence.and_then(evidence_hash_of) {
                    let norm = |h: &str| h.trim_start_matches("sha256:").to_ascii_lowercase();
                    if norm(hash) != norm(&set_hash) {
                        return Some(fail(
                            "LC-002",
                            "the response's evidence hash is not the evidence set's".into(),
                        ));
                    }
                }
                let _ = (
                    &ok.request_id,
                    &ok.summary,
                    &ok.known_facts,
                    &ok.unknown_facts,
                    &ok.next_actions,
                    &ok.disclaimer,
                    ok.fail_closed,
                );
                let t = &ok.decision_token;
                let _ = (&t.decision_id, &t.digital_signature);
                Some(RuleOutcome {
                    verdict: Verdict::Pass,
                    hits: vec![],
                    hits_are_problems: false,
                    notes: format!(
                        "A well-formed success response with {} evidence citation(s).",
                        ok.evidence_citations.len()
                    ),
                    code: None,
                    grounding: None,
                })
            }
            None => Some(fail(
                "LC-003",
                "`fail_closed` (true or false) is required".into(),
            )),
        }
    }

    fn proves(&self) -> bool {
        true
    }

    fn describe(&self) -> String {
        "When the output is a JSON object, validates it against the evidence contract's strict output schema and field formats (LC-003); a success needs decision_token and an evidence hash matching the evidence set's (LC-002). Proves a violation.".into()
    }
}

fn valid_code(c: &str) -> bool {
    matches!(
        c,
        "LC-001" | "LC-002" | "LC-003" | "LC-004" | "LC-005" | "LC-006"
    )
}

fn evidence_hash_of(raw: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(raw).ok()?;
    v.get("evidence_hash")?.as_str().map(str::to_string)
}

/// `evidence_citations[].ref` of a JSON output, for the evidence-set check.
pub fn json_citation_refs(text: &str, body: (usize, usize)) -> Vec<String> {
    let Some((_, _, json)) = json_body(text, body) else {
        return Vec::new();
    };
    let Ok(v) = serde_json::from_str::<serde_json::Value>(json) else {
        return Vec::new();
    };
    v.get("evidence_citations")
        .and_then(serde_json::Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|c| c.get("ref")?.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}
