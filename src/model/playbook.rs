//! Playbooks as data: the checks a document is tested against and their local rules.
//! Loading, validation and compilation live in `engine::playbook` and `engine::rules`.

use serde::{Deserialize, Serialize};

use super::verdict::{DetectionType, Severity, Verdict};

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Playbook {
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    pub id: String,
    pub version: String,
    #[serde(default)]
    pub metadata: serde_json::Map<String, serde_json::Value>,
    /// Named pattern lists the checks' rules share: a rule parameter (or an element of a
    /// list parameter) `{"vocabulary": "name"}` stands for the list. Covered by the
    /// playbook hash like the rules.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub vocabularies: std::collections::BTreeMap<String, Vec<String>>,
    pub checks: Vec<Check>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Check {
    pub id: String,
    pub severity: Severity,
    pub question: String,
    pub detection_method: DetectionMethod,
    #[serde(default = "all_result_states")]
    pub result_states: Vec<Verdict>,
    #[serde(default)]
    pub evidence_requirements: EvidenceRequirements,
    /// Machine-readable local rule; covered by the playbook hash.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<Rule>,
    /// Where the check is documented (LSP `codeDescription`, SARIF `helpUri`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub help_uri: Option<String>,
    /// What a reader should do when the check does not pass, and the fix tools may offer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remediation: Option<Remediation>,
}

fn all_result_states() -> Vec<Verdict> {
    vec![Verdict::Pass, Verdict::Fail, Verdict::Indeterminate]
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DetectionMethod {
    #[serde(rename = "type")]
    pub kind: DetectionType,
    pub instructions: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pattern_hints: Vec<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct EvidenceRequirements {
    #[serde(default)]
    pub require_citations: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub citation_type: Option<String>,
    #[serde(default)]
    pub min_citations_per_fail: u32,
}

/// A next step for the report, and optionally a fix. In JSON either a string (the text alone)
/// or `{"text": …, "fix": {"kind": …}}`.
#[derive(Debug, Clone, PartialEq)]
pub struct Remediation {
    pub text: String,
    pub fix: Option<FixSpec>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RemediationObject {
    text: String,
    #[serde(default)]
    fix: Option<FixSpec>,
}

impl Serialize for Remediation {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        match &self.fix {
            None => s.serialize_str(&self.text),
            Some(fix) => {
                let mut st = s.serialize_struct("Remediation", 2)?;
                st.serialize_field("text", &self.text)?;
                st.serialize_field("fix", fix)?;
                st.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Remediation {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Remediation;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string or an object with `text` and an optional `fix`")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Remediation, E> {
                Ok(Remediation {
                    text: v.to_string(),
                    fix: None,
                })
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<Remediation, A::Error> {
                let o = RemediationObject::deserialize(
                    serde::de::value::MapAccessDeserializer::new(map),
                )?;
                Ok(Remediation {
                    text: o.text,
                    fix: o.fix,
                })
            }
        }
        d.deserialize_any(Visitor)
    }
}

/// An edit a check declares for its failing findings; the engine computes it (`engine::fixes`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum FixSpec {
    /// Add a section (heading and body) once per document. Safe to apply unattended.
    InsertSection {
        heading: String,
        /// Body lines when there is nothing better; `- ` is prefixed to each.
        template: String,
        #[serde(default)]
        placement: SectionPlacement,
        /// List the assumptions the evaluator extracted instead of the template, when there are any.
        #[serde(default)]
        list_assumptions: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
    },
    /// Add a sentence as its own paragraph after the paragraph of the finding.
    InsertStatement {
        text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
    },
    /// Rewrite the flagged certainty term with a hedge ("is compliant" → "appears to be compliant").
    QualifyTerm {
        /// Appended at the end of the sentence when the hedge needs a condition.
        #[serde(default = "default_condition")]
        condition: String,
    },
    /// Put the source's exact words in place of a misquote (the grounding check finds them:
    /// the passage its word alignment chose, ellipses kept). Not applied by `--fix`.
    RestoreSourceWords {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
    },
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SectionPlacement {
    /// After a leading `# Title` line, else at the start of the body.
    AfterTitle,
    /// At the end of the document.
    #[default]
    End,
}

fn default_condition() -> String {
    ", subject to [conditions]".into()
}

/// Rule kinds computed from the other checks' results rather than from the document.
pub const REPORT_LEVEL_KINDS: [&str; 2] = ["run_variance", "baseline_drift"];

impl Check {
    /// Does this check need evaluator calls (as opposed to local rules or report-level analysis)?
    pub fn needs_evaluator(&self) -> bool {
        !self.is_report_level() && self.detection_method.kind != DetectionType::Deterministic
    }

    /// The evaluator is asked to list the assumptions it finds: the check's fix lists them.
    pub fn extracts_assumptions(&self) -> bool {
        matches!(
            self.remediation.as_ref().and_then(|r| r.fix.as_ref()),
            Some(FixSpec::InsertSection {
                list_assumptions: true,
                ..
            })
        )
    }

    /// Computed from the other results (variance, drift), never from the document.
    pub fn is_report_level(&self) -> bool {
        self.rules
            .as_ref()
            .is_some_and(|r| REPORT_LEVEL_KINDS.contains(&r.kind.as_str()))
    }
}

/// A check's local rule: its kind and that kind's parameters, kept as written (the
/// playbook hash covers them). `engine::rules` reads and compiles them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rule {
    pub kind: String,
    #[serde(flatten)]
    pub params: serde_json::Map<String, serde_json::Value>,
}
