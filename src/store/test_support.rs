//! Reports shaped like the runner's output, for the store's tests.

use crate::model::*;

pub const PLAYBOOK_ID: &str = "ai_plugin_observability_v1";
const CHECKS: [(&str, Severity, DetectionType); 6] = [
    (
        "assumption_disclosure",
        Severity::High,
        DetectionType::Semantic,
    ),
    ("certainty_language", Severity::High, DetectionType::Hybrid),
    (
        "escalation_signal",
        Severity::Medium,
        DetectionType::Semantic,
    ),
    (
        "unchecked_areas_disclosure",
        Severity::Medium,
        DetectionType::Deterministic,
    ),
    ("run_variance", Severity::Medium, DetectionType::Semantic),
    (
        "drift_over_time_support",
        Severity::Medium,
        DetectionType::Hybrid,
    ),
];

/// A report shaped like the runner's output: one result per starter check.
pub fn report(id: &str, timestamp: &str, inputs: &str, mode: Mode) -> Report {
    let checks = CHECKS
        .iter()
        .map(|(check_id, severity, detection_type)| CheckResult {
            code: None,
            check_id: check_id.to_string(),
            result: Verdict::Fail,
            per_check_confidence: 0.8,
            per_check_consistency: 1.0,
            evidence_citations: vec![Citation {
                source: None,
                span: "The Receiving Party shall indemnify…".into(),
                location: "line 3".into(),
                located: Located::Normalized,
                range: None,
                byte_range: Some((10, 42)),
                ranges: Vec::new(),
                byte_ranges: Vec::new(),
                context: String::new(),
            }],
            // Each id its own result (the store keeps one copy of a repeated result).
            notes: format!("No escalation statement ({id})"),
            raw_runs: vec![RawRun {
                run: 1,
                result: Verdict::Fail,
                confidence: 0.8,
                notes: String::new(),
                evidence_citations: vec![],
                error: None,
                raw_response: None,
                cached: false,
            }],
            severity: *severity,
            detection_type: *detection_type,
            assumptions: vec!["Delaware law governs".into()],
            grounding: None,
            skipped_claims: vec![],
        })
        .collect();
    Report {
        spec_version: SPEC_VERSION.into(),
        playbook_id: PLAYBOOK_ID.into(),
        playbook_version: "1.1.0".into(),
        execution_mode: mode,
        timestamp: timestamp.into(),
        summary: Summary {
            overall_status: Status::Review,
            key_risks: vec!["missing escalation".into()],
            recommended_next_steps: vec![],
        },
        check_results: checks,
        variance_summary: VarianceSummary {
            num_runs: 1,
            consistency_score: 0.75,
            divergent_findings: vec![],
            injection_susceptible_runs: 0,
            runs_per_check: Default::default(),
        },
        integrity: Integrity {
            playbook_logic_hash: hash(),
            inputs_fingerprint: inputs.into(),
            runner_fingerprint: RUNNER_FINGERPRINT.into(),
        },
        presentation_rules: PresentationRules::default(),
        report_id: id.into(),
        document: DocumentInfo {
            path: "nda.ai.md".into(),
            ..Default::default()
        },
        evaluator: Some(EvaluatorInfo {
            provider: "anthropic".into(),
            model: "claude-sonnet-4-20250514".into(),
        }),
        suppressed: vec![],
        untrusted_input_warnings: vec![],
        notices: vec![],
        playbook_source: None,
        request_id: None,
        validation: None,
        debug: None,
        repair: None,
        locked: false,
        evidence_contract: None,
    }
}

pub fn hash() -> String {
    "sha256:starter-playbook".into()
}
