//! Rule kinds: the machine-readable part of a check (SPEC §3).
//!
//! Each kind is a small unit that turns the document body into hits. How a
//! hit counts depends on the check's detection type (see `runner`):
//! deterministic checks take the rule's verdict, hybrid and semantic checks
//! hand the hits to the evaluator as candidate spans.

mod markdown;
mod pattern;
mod qualifier;
mod section;
mod skip;

use regex::Regex;
use serde::{Deserialize, Serialize};

use crate::playbook::Seg;
use crate::report::Verdict;

pub use markdown::ProseMap;

/// Whether a match is evidence of a problem or evidence that the check passes.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum MatchMeans {
    #[default]
    Fail,
    Pass,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Rule {
    /// Regexes; each match is a hit.
    Pattern {
        patterns: Vec<String>,
        #[serde(default)]
        match_means: MatchMeans,
        /// Skip matches inside quotations, block quotes and code (the AI quoting a contract).
        #[serde(default = "yes")]
        skip_quoted: bool,
        /// Skip hits whose sentence matches one of these (drafted clause language: "shall").
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        skip_sentences: Vec<String>,
        /// Skip sections whose heading, and lines whose leading `Label:` or `[TAG]`, matches one
        /// of these (e.g. "Suggested Revision", "[ADD]").
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        skip_sections: Vec<String>,
    },
    /// Certainty terms with no qualifier within `window_words` words in the same sentence.
    QualifierWindow {
        terms: Vec<String>,
        qualifiers: Vec<String>,
        #[serde(default = "default_window")]
        window_words: usize,
        #[serde(default = "yes")]
        skip_quoted: bool,
        /// Skip hits whose sentence matches one of these (drafted clause language: "shall").
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        skip_sentences: Vec<String>,
        /// Skip sections whose heading, and lines whose leading `Label:` or `[TAG]`, matches one
        /// of these (e.g. "Suggested Revision", "[ADD]").
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        skip_sections: Vec<String>,
    },
    /// A section heading or statement that must be present somewhere.
    RequiredSection {
        headings: Vec<String>,
        #[serde(default)]
        statements: Vec<String>,
        /// Shorter bodies are `indeterminate` ("extremely short or clearly partial").
        #[serde(default = "default_min_chars")]
        min_body_chars: usize,
    },
    /// Report-level: stability of the other checks across runs (seed 000 note 4).
    RunVariance {
        #[serde(default = "default_threshold")]
        threshold: f64,
    },
    /// Report-level: degradation against the baseline or previous report (seed 000 note 5).
    BaselineDrift {
        #[serde(default = "default_drop")]
        max_consistency_drop: f64,
    },
}

fn yes() -> bool {
    true
}
fn default_window() -> usize {
    12
}
fn default_min_chars() -> usize {
    300
}
fn default_threshold() -> f64 {
    crate::report::STABILITY_THRESHOLD
}
fn default_drop() -> f64 {
    0.15
}

/// One place a rule matched, in whole-document byte offsets.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub start: usize,
    pub end: usize,
    pub note: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RuleOutcome {
    pub verdict: Verdict,
    /// Evidence for `verdict` (for a fail: the problem spans; for a pass: what satisfied it).
    pub hits: Vec<Hit>,
    /// Do the hits point at problems (candidates for the evaluator) or at satisfying text?
    pub hits_are_problems: bool,
    pub notes: String,
}

/// A rule with its regexes compiled once per playbook load.
#[derive(Debug, Clone)]
pub enum CompiledRule {
    Pattern(pattern::PatternRule),
    Qualifier(qualifier::QualifierRule),
    Section(section::SectionRule),
    ReportLevel,
}

impl Rule {
    pub fn kind_name(&self) -> &'static str {
        match self {
            Rule::Pattern { .. } => "pattern",
            Rule::QualifierWindow { .. } => "qualifier_window",
            Rule::RequiredSection { .. } => "required_section",
            Rule::RunVariance { .. } => "run_variance",
            Rule::BaselineDrift { .. } => "baseline_drift",
        }
    }

    /// Computed from the other checks' results, not from the document.
    pub fn is_report_level(&self) -> bool {
        matches!(self, Rule::RunVariance { .. } | Rule::BaselineDrift { .. })
    }

    /// Validate regexes and numbers; errors carry the JSON path below `rules`.
    pub fn validate(&self) -> Result<(), (Vec<Seg>, String)> {
        self.compile().map(|_| ())
    }

    pub fn compile(&self) -> Result<CompiledRule, (Vec<Seg>, String)> {
        match self {
            Rule::Pattern {
                patterns,
                match_means,
                skip_quoted,
                skip_sentences,
                skip_sections,
            } => {
                let set = compile_all("patterns", patterns)?;
                let skips = compile_skips(skip_sentences, skip_sections)?;
                Ok(CompiledRule::Pattern(
                    pattern::PatternRule::new(set, *match_means, *skip_quoted).with_skips(skips),
                ))
            }
            Rule::QualifierWindow {
                terms,
                qualifiers,
                window_words,
                skip_quoted,
                skip_sentences,
                skip_sections,
            } => {
                let terms = compile_all("terms", terms)?;
                let quals = compile_all("qualifiers", qualifiers)?;
                if *window_words == 0 {
                    return Err((
                        vec![Seg::Key("window_words")],
                        "`window_words` must be at least 1".into(),
                    ));
                }
                let skips = compile_skips(skip_sentences, skip_sections)?;
                Ok(CompiledRule::Qualifier(
                    qualifier::QualifierRule::new(terms, quals, *window_words, *skip_quoted)
                        .with_skips(skips),
                ))
            }
            Rule::RequiredSection {
                headings,
                statements,
                min_body_chars,
            } => {
                let h = compile_all("headings", headings)?;
                let s = compile_all("statements", statements)?;
                if headings.is_empty() && statements.is_empty() {
                    return Err((
                        vec![Seg::Key("headings")],
                        "give at least one heading or statement pattern".into(),
                    ));
                }
                Ok(CompiledRule::Section(section::SectionRule::new(
                    h,
                    s,
                    *min_body_chars,
                )))
            }
            Rule::RunVariance { threshold } => unit_interval("threshold", *threshold),
            Rule::BaselineDrift {
                max_consistency_drop,
            } => unit_interval("max_consistency_drop", *max_consistency_drop),
        }
    }
}

fn unit_interval(key: &'static str, v: f64) -> Result<CompiledRule, (Vec<Seg>, String)> {
    if (0.0..=1.0).contains(&v) {
        Ok(CompiledRule::ReportLevel)
    } else {
        Err((
            vec![Seg::Key(key)],
            format!("`{key}` must be between 0 and 1, got {v}"),
        ))
    }
}

fn compile_skips(
    sentences: &[String],
    sections: &[String],
) -> Result<skip::SkipRules, (Vec<Seg>, String)> {
    Ok(skip::SkipRules {
        sentences: compile_all("skip_sentences", sentences)?,
        sections: compile_all("skip_sections", sections)?,
    })
}

/// Compile a list of regexes (case-insensitive unless they say otherwise) into one alternation.
/// `\b`/`\B` → their ASCII forms. A Unicode word boundary keeps the regex engine off its
/// fast DFA on any non-ASCII text (curly quotes are everywhere in AI output): 50–100× slower
/// on the starter rules, for no difference on English words.
fn ascii_word_boundaries(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some(b @ ('b' | 'B')) => {
                out.push_str("(?-u:\\");
                out.push(b);
                out.push(')');
            }
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

fn compile_all(
    key: &'static str,
    patterns: &[String],
) -> Result<Option<Regex>, (Vec<Seg>, String)> {
    for (i, p) in patterns.iter().enumerate() {
        if let Err(e) = Regex::new(p) {
            return Err((
                vec![Seg::Key(key), Seg::Index(i)],
                format!("invalid regex in `{key}`: {e}"),
            ));
        }
    }
    if patterns.is_empty() {
        return Ok(None);
    }
    let joined = patterns
        .iter()
        .map(|p| format!("(?:{})", ascii_word_boundaries(p)))
        .collect::<Vec<_>>()
        .join("|");
    Regex::new(&format!("(?i){joined}")).map(Some).map_err(|e| {
        (
            vec![Seg::Key(key)],
            format!("`{key}` patterns do not combine: {e}"),
        )
    })
}

impl CompiledRule {
    /// Apply to the document body `text[body.0..body.1]`; hits are whole-document offsets.
    /// Report-level rules return `None`: the runner computes them from other results.
    pub fn apply(&self, text: &str, body: (usize, usize), prose: &ProseMap) -> Option<RuleOutcome> {
        match self {
            CompiledRule::Pattern(r) => Some(r.apply(text, body, prose)),
            CompiledRule::Qualifier(r) => Some(r.apply(text, body, prose)),
            CompiledRule::Section(r) => Some(r.apply(text, body, prose)),
            CompiledRule::ReportLevel => None,
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn word_boundaries_become_ascii_and_escapes_survive() {
        use super::ascii_word_boundaries as a;
        assert_eq!(a(r"\bis\b"), r"(?-u:\b)is(?-u:\b)");
        assert_eq!(a(r"\\b\Bx\d"), r"\\b(?-u:\B)x\d");
        let re = regex::Regex::new(&format!("(?i){}", a(r"\bguarantee\b"))).unwrap();
        assert!(re.is_match("“guarantee”"));
        assert!(!re.is_match("guarantees"));
    }

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
        let CompiledRule::Qualifier(q) = r.compile().unwrap() else {
            panic!("wrong kind")
        };
        let t = "The cap is void.\nThe waiver shall be void.\n**Proposed Clause:**\nThe term is void.\n## Notes\nIt is void.";
        let found: Vec<usize> = q
            .apply(t, (0, t.len()), &ProseMap::new(t, (0, t.len())))
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
        let (path, msg) = r.validate().unwrap_err();
        assert!(
            matches!(path.as_slice(), [Seg::Key("skip_sections"), Seg::Index(1)]),
            "{path:?}"
        );
        assert!(msg.contains("skip_sections"), "{msg}");
    }
}
