//! Rule kinds: the machine-readable part of a check.
//!
//! A playbook check may carry `rules: {"kind": …, …parameters}`. Each kind is one
//! file here that reads its parameters and turns a document into hits; `KINDS`
//! registers it. How hits count depends on the check's detection type (see
//! `runner`): deterministic checks take the rule's verdict, hybrid and semantic
//! checks hand the hits to the evaluator as candidate spans.

mod claim_voice;
mod constraints;
mod coverage;
mod evidence;
mod feasibility;
mod grounded_entities;
mod grounding;
mod hidden_chars;
mod hidden_forms;
mod hidden_markup;
mod hidden_refs;
mod kind;
mod lawmadi;
mod markdown;
mod pattern;
mod plan_rule;
mod plan_schema;
mod qualifier;
mod regexes;
mod report_level;
mod section;
mod section_frames;
mod skip;
mod time_budget;

use std::sync::Arc;

use crate::model::Rule;

pub use kind::{
    Companions, CompiledRule, GroundingTrace, Hit, ReportLevel, RuleContext, RuleError,
    RuleOutcome, Seg, SetAsideSpan, SourceRef, params, yes,
};
pub use lawmadi::versions as contract_versions;
pub use markdown::{ProseMap, is_heading_line};

/// A rule kind's name and how to compile its parameters.
type Compile = fn(serde_json::Value) -> Result<Arc<dyn CompiledRule>, RuleError>;

/// Every rule kind. A new kind is a new file and one line here.
const KINDS: &[(&str, Compile)] = &[
    ("pattern", pattern::compile),
    ("quotes_grounded", grounding::compile_quotes),
    ("references_grounded", grounding::compile_references),
    ("entities_grounded", grounding::compile_entities),
    ("evidence_set", evidence::compile),
    ("lawmadi_output", lawmadi::compile),
    ("qualifier_window", qualifier::compile),
    ("required_section", section::compile),
    ("run_variance", report_level::compile_variance),
    ("baseline_drift", report_level::compile_drift),
    ("plan_schema", plan_schema::compile),
    ("time_budget", time_budget::compile),
    ("constraints", constraints::compile),
    ("coverage", coverage::compile),
    ("grounded_entities", grounded_entities::compile),
    ("feasibility", feasibility::compile),
    ("hidden_characters", hidden_chars::compile),
];

/// The rule kinds that judge the output against its `source` companion (the contract, the
/// user's notes): without one they can only say `indeterminate`.
pub const READS_SOURCE: &[&str] = &[
    "quotes_grounded",
    "references_grounded",
    "entities_grounded",
    "time_budget",
    "constraints",
    "grounded_entities",
    "coverage",
];

pub fn kind_names() -> impl Iterator<Item = &'static str> {
    KINDS.iter().map(|(name, _)| *name)
}

/// Compile a check's `rules` object with its kind's compiler.
pub fn compile(rule: &Rule) -> Result<Arc<dyn CompiledRule>, RuleError> {
    let Some((_, compile)) = KINDS.iter().find(|(name, _)| *name == rule.kind) else {
        let known: Vec<&str> = kind_names().collect();
        return Err(RuleError::at(
            vec![Seg::key("kind")],
            format!(
                "unknown rule kind `{}` (expected one of: {})",
                rule.kind,
                known.join(", ")
            ),
        ));
    };
    compile(serde_json::Value::Object(rule.params.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> Rule {
        serde_json::from_str(json).expect("rule parses")
    }

    #[test]
    fn skip_fields_default_to_empty_and_are_not_serialized_when_empty() {
        let r = parse(r#"{"kind":"pattern","patterns":["x"]}"#);
        let back = serde_json::to_string(&r).unwrap();
        assert!(!back.contains("skip_sentences") && !back.contains("skip_sections"));
    }

    #[test]
    fn skip_fields_apply_to_qualifier_window() {
        let r = parse(
            r#"{"kind":"qualifier_window","terms":["\\bis void\\b"],"qualifiers":["\\blikely\\b"],
                "skip_sentences":["\\bshall\\b"],"skip_sections":["^proposed clause"]}"#,
        );
        let q = compile(&r).unwrap();
        let t = "The cap is void.\nThe waiver shall be void.\n**Proposed Clause:**\nThe term is void.\n## Notes\nIt is void.";
        let found: Vec<usize> = q
            .apply(&RuleContext::new(t, (0, t.len())))
            .unwrap()
            .hits
            .iter()
            .map(|h| h.start)
            .collect();
        let first = t.find("is void").unwrap();
        let last = t.rfind("is void").unwrap();
        assert_eq!(found, [first, last]);
    }

    #[test]
    fn bad_skip_regex_is_reported_at_its_path() {
        let r = parse(r#"{"kind":"pattern","patterns":["x"],"skip_sections":["ok","(unclosed"]}"#);
        let RuleError { path, message: msg } = compile(&r).unwrap_err();
        assert_eq!(path, [Seg::key("skip_sections"), Seg::Index(1)], "{path:?}");
        assert!(msg.contains("skip_sections"), "{msg}");
    }

    #[test]
    fn unknown_kind_and_unknown_parameter_are_named() {
        let e = compile(&parse(r#"{"kind":"magic"}"#)).unwrap_err();
        assert!(
            e.message.contains("unknown rule kind `magic`"),
            "{}",
            e.message
        );
        assert!(e.message.contains("qualifier_window"), "{}", e.message);
        let e = compile(&parse(r#"{"kind":"pattern","patterns":[],"colour":1}"#)).unwrap_err();
        assert_eq!(e.path, [Seg::key("colour")]);
        assert!(
            e.message.contains("unknown field `colour`"),
            "{}",
            e.message
        );
    }

    #[test]
    fn a_value_outside_a_parameter_enum_is_named_with_its_place() {
        let e = compile(&parse(r#"{"kind":"quotes_grounded","flag":"sometimes"}"#)).unwrap_err();
        assert_eq!(e.path, [Seg::key("flag")], "{}", e.message);
        assert!(
            e.message.contains("unknown variant `sometimes`"),
            "{}",
            e.message
        );
        assert!(e.message.contains("`misquoted`"), "{}", e.message);
        let e = compile(&parse(
            r#"{"kind":"entities_grounded","kinds":["amount","date","weather"]}"#,
        ))
        .unwrap_err();
        assert_eq!(e.path, [Seg::key("kinds"), Seg::Index(2)], "{}", e.message);
        let e = compile(&parse(
            r#"{"kind":"quotes_grounded","tiers":{"misquote_min_similarity":0.5,"paraphrase_min_shared":0.7,"x":1}}"#,
        ))
        .unwrap_err();
        assert_eq!(e.path, [Seg::key("tiers"), Seg::key("x")], "{}", e.message);
    }

    #[test]
    fn every_registered_kind_documents_itself() {
        let minimal = |kind: &str| match kind {
            "pattern" => r#"{"patterns":["x"]}"#,
            "qualifier_window" => r#"{"terms":["x"],"qualifiers":["y"]}"#,
            "required_section" => r#"{"headings":["x"]}"#,
            _ => "{}",
        };
        for kind in kind_names() {
            let mut params: serde_json::Map<String, serde_json::Value> =
                serde_json::from_str(minimal(kind)).unwrap();
            params.remove("kind");
            let rule = Rule {
                kind: kind.to_string(),
                params,
            };
            let compiled = compile(&rule).unwrap_or_else(|e| panic!("{kind}: {e:?}"));
            assert!(!compiled.describe().is_empty(), "{kind}");
        }
    }
}
