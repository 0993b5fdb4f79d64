//! The report: `{"byop_report": …}`, the audit contract, plus additive extras.
//!
//! Field names and order are the contract verbatim (README "The report"); every
//! extra is additive and documented there.

use serde::{Deserialize, Serialize};

use super::text::Range;
use super::verdict::{DetectionType, Mode, Severity, Status, Verdict};

pub const SPEC_VERSION: &str = "0.1";
pub const RUNNER_FINGERPRINT: &str = concat!("byop-runner-rust-v", env!("CARGO_PKG_VERSION"));
pub const DISCLAIMERS: [&str; 3] = [
    "This is an observability report, not legal advice.",
    "Pass ≠ safe. Fail ≠ wrong. Indeterminate is expected.",
    "Report describes behavior under this playbook and inputs.",
];
/// Shown wherever variance is shown.
pub const VARIANCE_NOTE: &str = "Variance in results may reflect evaluator model behavior, not only the AI output being tested. BYOP reports describe observable signals, not ground truth.";

/// `{"byop_report": …}`; `R = &Report` writes one without copying the report.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ReportEnvelope<R = Report> {
    pub byop_report: R,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Report {
    pub spec_version: String,
    pub playbook_id: String,
    pub playbook_version: String,
    pub execution_mode: Mode,
    /// RFC 3339 / ISO 8601, UTC.
    pub timestamp: String,
    pub summary: Summary,
    pub check_results: Vec<CheckResult>,
    pub variance_summary: VarianceSummary,
    pub integrity: Integrity,
    pub presentation_rules: PresentationRules,
    // ---- extras (additive; see README "The report") ----
    /// Stable id of this report in the store (sha256 prefix of its content).
    #[serde(default)]
    pub report_id: String,
    #[serde(default)]
    pub document: DocumentInfo,
    /// Provider and model used; `None` when no evaluator call was made.
    #[serde(default)]
    pub evaluator: Option<EvaluatorInfo>,
    /// Findings hidden by suppression comments.
    #[serde(default)]
    pub suppressed: Vec<SuppressedFinding>,
    /// Text in the document that addresses the evaluator (prompt injection).
    #[serde(default)]
    pub untrusted_input_warnings: Vec<InjectionWarning>,
    /// One-line notices for the user (e.g. fell back to deterministic mode).
    #[serde(default)]
    pub notices: Vec<String>,
    /// Who chose the playbook: the command line, the editor setting, `byop.toml`, the
    /// document's front matter, or nobody (the built-in one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub playbook_source: Option<PlaybookSource>,
    /// The evaluation request in the audit log (`byop log`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
    /// The plan `validation` object (docs/contracts.md, Plan validation), for playbooks with plan validators.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validation: Option<super::validation::Validation>,
    /// Beside a plan `validation`: the plan response's `debug` (the front matter's `variant`;
    /// `context_preview` only in what a front end prints when the user allows text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub debug: Option<super::validation::PlanDebug>,
    /// `byop repair`: both deterministic validations and the repair's outcome.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repair: Option<crate::model::RepairRecord>,
    /// Locked mode: the workspace and the document chose no rules (see docs/security.md).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub locked: bool,
    /// The versions an evidence-contract document declares (its evidence set's and its
    /// decision token's), when it declares any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence_contract: Option<ContractVersions>,
}

/// Versions declared by the evidence set and the structured output's decision token.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct ContractVersions {
    /// The evidence set's `schema_version`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence_set_schema_version: Option<String>,
    /// The decision token's `schema_version`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision_token_schema_version: Option<String>,
    /// The decision token's `constitution_version`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub constitution_version: Option<String>,
}

/// Who chose the playbook a document is checked against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlaybookSource {
    /// `--playbook` on the command line.
    Cli,
    /// The editor's `byop.playbook` setting.
    Settings,
    /// The workspace's `byop.toml`.
    Config,
    /// The document's own front matter.
    FrontMatter,
    /// Nobody: the built-in playbook.
    Default,
}

impl PlaybookSource {
    pub fn as_str(self) -> &'static str {
        match self {
            PlaybookSource::Cli => "cli",
            PlaybookSource::Settings => "settings",
            PlaybookSource::Config => "config",
            PlaybookSource::FrontMatter => "front_matter",
            PlaybookSource::Default => "default",
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Summary {
    pub overall_status: Status,
    pub key_risks: Vec<String>,
    pub recommended_next_steps: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CheckResult {
    pub check_id: String,
    pub result: Verdict,
    pub per_check_confidence: f64,
    pub per_check_consistency: f64,
    pub evidence_citations: Vec<Citation>,
    pub notes: String,
    pub raw_runs: Vec<RawRun>,
    // ---- extras ----
    pub severity: Severity,
    #[serde(default)]
    pub detection_type: DetectionType,
    /// Assumptions the evaluator extracted (assumption checks), for the code action.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assumptions: Vec<String>,
    /// Stable code of a failing or indeterminate result (`LC-001`…`LC-006`,
    /// `GROUNDING-QUOTE`, `GROUNDING-REF`, `GROUNDING-ENTITY`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// Grounding checks: how many claims were examined, grounded, not found, misquoted and
    /// set aside (per reason).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grounding: Option<super::GroundingCounts>,
    /// Grounding checks: every claim set aside or left unresolved, with its place and reason.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped_claims: Vec<super::SkippedClaim>,
}

/// How a quote was found in the text it claims to quote.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Located {
    /// Verbatim.
    Exact,
    /// Verbatim up to typography, whitespace, case and markdown markers.
    Normalized,
    /// Pieces joined by `...`, each verbatim (or normalized) somewhere in the text.
    Ellipsis,
    /// Only approximately: a misquote. Shown where it points, but no evidence.
    Fuzzy,
    Unlocated,
}

impl Located {
    /// Only a verbatim quote (exact, normalized, each ellipsis piece) proves anything.
    pub fn is_evidence(self) -> bool {
        matches!(
            self,
            Located::Exact | Located::Normalized | Located::Ellipsis
        )
    }

    /// Found somewhere (a misquote included), so it can be shown.
    pub fn is_placed(self) -> bool {
        self != Located::Unlocated
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Located::Exact => "exact",
            Located::Normalized => "normalized",
            Located::Ellipsis => "ellipsis",
            Located::Fuzzy => "fuzzy",
            Located::Unlocated => "unlocated",
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Citation {
    pub span: String,
    /// Human-readable location, e.g. "line 12" or "unlocated".
    pub location: String,
    // ---- extras ----
    pub located: Located,
    /// Whole-document range, 0-based, UTF-16 code units (LSP default).
    #[serde(default)]
    pub range: Option<Range>,
    /// Whole-document byte offsets `[start, end)`; lets front ends map to any encoding.
    #[serde(default)]
    pub byte_range: Option<(usize, usize)>,
    /// One range per ellipsis piece (the first is `range`); empty for a single passage.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ranges: Vec<Range>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub byte_ranges: Vec<(usize, usize)>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub context: String,
    /// Where the cited claim is in the source companion (grounding checks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<SourceLocation>,
}

/// A place in the source companion: its path, range (UTF-16, 0-based), byte range, the
/// source's words there, and the replacement a fix would put at the citation.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SourceLocation {
    pub path: String,
    pub range: Range,
    pub byte_range: (usize, usize),
    pub excerpt: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replacement: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct RawRun {
    pub run: u32,
    pub result: Verdict,
    pub confidence: f64,
    // ---- extras ----
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub notes: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence_citations: Vec<Citation>,
    /// Why this run could not be evaluated (kept apart from fails).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<RunErrorKind>,
    /// The evaluator's raw text when it could not be parsed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw_response: Option<String>,
    /// Served from the response cache instead of a new evaluator call.
    #[serde(default)]
    pub cached: bool,
}

/// Why an evaluator run produced no verdict.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum RunErrorKind {
    RateLimited,
    Overloaded,
    QuotaExhausted,
    Auth,
    InvalidRequest,
    ServerError,
    Timeout,
    Network,
    Malformed,
    Truncated,
    Cancelled,
    /// The provider answered with a redirect; not followed.
    Redirected,
    /// The answer exceeded the size limit.
    TooLarge,
    /// The evaluator followed an instruction planted in the document (canary).
    InjectionSusceptible,
    /// The evaluator refused on policy grounds (refusal stop reason, content filter).
    Refused,
}

impl RunErrorKind {
    pub fn as_str(self) -> &'static str {
        match self {
            RunErrorKind::RateLimited => "rate_limited",
            RunErrorKind::Overloaded => "overloaded",
            RunErrorKind::QuotaExhausted => "quota_exhausted",
            RunErrorKind::Auth => "auth",
            RunErrorKind::InvalidRequest => "invalid_request",
            RunErrorKind::ServerError => "server_error",
            RunErrorKind::Timeout => "timeout",
            RunErrorKind::Network => "network",
            RunErrorKind::Malformed => "malformed",
            RunErrorKind::Truncated => "truncated",
            RunErrorKind::Cancelled => "cancelled",
            RunErrorKind::Redirected => "redirected",
            RunErrorKind::TooLarge => "too_large",
            RunErrorKind::InjectionSusceptible => "injection_susceptible",
            RunErrorKind::Refused => "refused",
        }
    }
}

impl std::fmt::Display for RunErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How far a suppression comment reaches.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "kebab-case")]
pub enum SuppressionScope {
    NextLine,
    Block,
    File,
}

impl SuppressionScope {
    pub fn as_str(self) -> &'static str {
        match self {
            SuppressionScope::NextLine => "next-line",
            SuppressionScope::Block => "block",
            SuppressionScope::File => "file",
        }
    }
}

impl std::fmt::Display for SuppressionScope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct VarianceSummary {
    pub num_runs: u32,
    pub consistency_score: f64,
    pub divergent_findings: Vec<String>,
    // ---- extras ----
    /// Runs whose answer followed a canary instruction planted in the document.
    #[serde(default)]
    pub injection_susceptible_runs: u32,
    /// Evaluator runs per evaluated check: in full mode a check whose runs disagreed got
    /// more than the others.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub runs_per_check: std::collections::BTreeMap<String, u32>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Integrity {
    pub playbook_logic_hash: String,
    pub inputs_fingerprint: String,
    pub runner_fingerprint: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PresentationRules {
    pub disclaimers: Vec<String>,
}

impl Default for PresentationRules {
    fn default() -> Self {
        PresentationRules {
            disclaimers: DISCLAIMERS.iter().map(|s| s.to_string()).collect(),
        }
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct DocumentInfo {
    /// Path as given (CLI) or URI path (LSP).
    #[serde(default)]
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_path: Option<String>,
    /// Line (0-based) where the evaluated body starts, after front matter.
    #[serde(default)]
    pub body_start_line: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct EvaluatorInfo {
    pub provider: String,
    pub model: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SuppressedFinding {
    pub check_id: String,
    pub span: String,
    #[serde(default)]
    pub range: Option<Range>,
    pub scope: SuppressionScope,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct InjectionWarning {
    pub span: String,
    /// In `file` when set, else in the document.
    pub range: Option<Range>,
    #[serde(default)]
    pub byte_range: Option<(usize, usize)>,
    pub reason: String,
    /// The companion the text is in (`None`: the document itself).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
}

impl Report {
    pub fn check(&self, id: &str) -> Option<&CheckResult> {
        self.check_results.iter().find(|c| c.check_id == id)
    }

    /// What a CI gate must not pass over, each check with why: checks the evaluator was
    /// asked about and could not answer at all (every run an error); checks left
    /// indeterminate with any run lost (the lost runs are why no result stands); checks with
    /// any run that followed a canary planted in the document (the evaluator obeyed the
    /// document, so none of its answers on it are trusted); checks left indeterminate by a
    /// refusal (LC-005) or by rate limiting past the retries (LC-006); a high-severity check
    /// left indeterminate because its runs had no majority while some run failed
    /// (`no_majority`: a document that makes the evaluator waver must not turn a fail into a
    /// pass); and a grounding check that ran out of its matching budget before deciding a
    /// claim (`matching_budget_spent`: text written to spend it must not let a claim pass
    /// unexamined).
    pub fn unevaluated(&self) -> Vec<(&str, String)> {
        self.check_results
            .iter()
            .filter_map(|c| why_unevaluated(c).map(|why| (c.check_id.as_str(), why)))
            .collect()
    }
}

/// Why a CI gate must not pass over `c` (see [`Report::unevaluated`]), if it must not.
fn why_unevaluated(c: &CheckResult) -> Option<String> {
    let refused_or_throttled = matches!(c.code.as_deref(), Some("LC-005" | "LC-006"));
    let undecided = c.result == Verdict::Indeterminate;
    let lost = undecided && c.raw_runs.iter().any(|r| r.error.is_some());
    if lost || followed_canary(c) || refused_or_throttled {
        let canary = followed_canary(c).then_some(RunErrorKind::InjectionSusceptible);
        let first = canary.or_else(|| c.raw_runs.iter().find_map(|r| r.error))?;
        return Some(first.as_str().to_string());
    }
    let wavered = undecided
        && c.severity == Severity::High
        && c.raw_runs.len() > 1
        && c.raw_runs.iter().any(|r| r.result == Verdict::Fail);
    let budget = undecided
        && c.grounding.as_ref().is_some_and(|g| {
            g.set_aside_by_reason
                .contains_key(&super::SetAside::MatchingBudgetSpent)
        });
    if wavered {
        Some("no_majority".into())
    } else if budget {
        Some("matching_budget_spent".into())
    } else {
        None
    }
}

/// Whether any run of the check followed an instruction planted in the document.
pub fn followed_canary(c: &CheckResult) -> bool {
    c.raw_runs
        .iter()
        .any(|r| r.error == Some(RunErrorKind::InjectionSusceptible))
}

#[cfg(test)]
#[path = "report_tests.rs"]
mod tests;
