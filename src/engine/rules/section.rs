//! `required_section`: the body must contain a matching heading or statement
//! (e.g. "## Not checked / missing information", "we did not review …").
//!
//! A statement inside a placeholder copied from the source (`[*****]`, `[REDACTED]`) is the
//! source's blank, not the output saying what it did not check: `placeholders` (data) mark
//! those spans, and a statement that overlaps one does not count. `examples` (data, not read
//! by the rule) are texts that must pass and fail; a test runs them.

use std::sync::Arc;

use regex::Regex;
use serde::Deserialize;

use super::kind::{CompiledRule, Hit, RuleContext, RuleError, RuleOutcome, Seg};
use super::markdown::ProseMap;
use super::markdown::is_heading_line;
use super::regexes::compile_all;
use crate::model::Verdict;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {
    headings: Vec<String>,
    #[serde(default)]
    statements: Vec<String>,
    /// Shorter bodies are `indeterminate` ("extremely short or clearly partial").
    #[serde(default = "default_min_chars")]
    min_body_chars: usize,
    /// Copied blanks and redaction markers: a statement overlapping one does not count.
    #[serde(default)]
    placeholders: Vec<String>,
    /// Texts that must pass (`disclosure`) and fail (`not_disclosure`); run by a test.
    #[serde(default)]
    #[allow(dead_code)]
    examples: Option<Examples>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Examples {
    #[serde(default)]
    #[allow(dead_code)]
    disclosure: Vec<String>,
    #[serde(default)]
    #[allow(dead_code)]
    not_disclosure: Vec<String>,
}

fn default_min_chars() -> usize {
    300
}

pub fn compile(value: serde_json::Value) -> Result<Arc<dyn CompiledRule>, RuleError> {
    let p: Params = super::kind::params(value)?;
    let h = compile_all("headings", &p.headings)?;
    let s = compile_all("statements", &p.statements)?;
    if p.headings.is_empty() && p.statements.is_empty() {
        return Err(RuleError::at(
            vec![Seg::key("headings")],
            "give at least one heading or statement pattern",
        ));
    }
    let mut rule = SectionRule::new(h, s, p.min_body_chars);
    rule.placeholders = compile_all("placeholders", &p.placeholders)?;
    rule.counts = (p.headings.len(), p.statements.len());
    Ok(Arc::new(rule))
}

impl CompiledRule for SectionRule {
    fn apply(&self, cx: &RuleContext) -> Option<RuleOutcome> {
        Some(SectionRule::apply(self, cx.text, cx.body, &cx.prose))
    }

    fn proves(&self) -> bool {
        true
    }

    fn describe(&self) -> String {
        format!(
            "Passes when one of {} heading pattern(s) or {} statement pattern(s) is present; outputs under {} non-blank characters are `indeterminate`.",
            self.counts.0, self.counts.1, self.min_body_chars
        )
    }
}

#[derive(Debug, Clone)]
pub struct SectionRule {
    headings: Option<Regex>,
    statements: Option<Regex>,
    min_body_chars: usize,
    /// Copied placeholders (`[*****]`, `[REDACTED]`): statements inside them do not count.
    placeholders: Option<Regex>,
    /// Heading and statement pattern counts, for the documentation page.
    counts: (usize, usize),
}

impl SectionRule {
    pub fn new(headings: Option<Regex>, statements: Option<Regex>, min_body_chars: usize) -> Self {
        SectionRule {
            headings,
            statements,
            min_body_chars,
            placeholders: None,
            counts: (0, 0),
        }
    }

    pub fn apply(&self, text: &str, body: (usize, usize), prose: &ProseMap) -> RuleOutcome {
        let body_text = &text[body.0..body.1];
        let chars = body_text.chars().filter(|c| !c.is_whitespace()).count();
        if chars < self.min_body_chars {
            return RuleOutcome {
                code: None,
                verdict: Verdict::Indeterminate,
                hits: vec![],
                hits_are_problems: false,
                notes: format!(
                    "Output is too short to judge ({chars} non-blank characters, fewer than {}).",
                    self.min_body_chars
                ),
                grounding: None,
            };
        }
        let mut found = Vec::new();
        if let Some(re) = &self.headings {
            let mut line_start = body.0;
            for line in body_text.split_inclusive('\n') {
                let line_end = line_start + line.trim_end_matches(['\n', '\r']).len();
                if is_heading_line(text, line_start, line_end)
                    && !prose.is_hidden(line_start, line_end)
                    && let Some(m) = re.find(&text[line_start..line_end])
                {
                    let _ = m;
                    let s = line_start + (line.len() - line.trim_start().len());
                    found.push(Hit {
                        source: None,
                        start: s,
                        end: line_end,
                        note: "disclosure section".into(),
                    });
                }
                line_start += line.len();
            }
        }
        if let Some(re) = &self.statements {
            let blanks: Vec<(usize, usize)> = self.placeholders.as_ref().map_or(Vec::new(), |p| {
                p.find_iter(body_text)
                    .map(|m| (m.start(), m.end()))
                    .collect()
            });
            // Placeholders come in text order, so one pass over both lists is linear.
            let mut next_blank = 0;
            for m in re.find_iter(body_text) {
                while blanks.get(next_blank).is_some_and(|b| b.1 <= m.start()) {
                    next_blank += 1;
                }
                if blanks.get(next_blank).is_some_and(|b| b.0 < m.end()) {
                    continue;
                }
                let (s, e) = (body.0 + m.start(), body.0 + m.end());
                if !prose.is_quoted(s, e)
                    && !prose.is_hidden(s, e)
                    && !found.iter().any(|h| h.start <= s && e <= h.end)
                {
                    found.push(Hit {
                        source: None,
                        start: s,
                        end: e,
                        note: "disclosure statement".into(),
                    });
                }
            }
        }
        found.sort_by_key(|h| h.start);
        if found.is_empty() {
            let (s, e) = last_line(text, body);
            RuleOutcome {
code: None,
                verdict: Verdict::Fail,
                hits: vec![Hit { source: None,  start: s, end: e, note: "ends without stating what was not checked".into() }],
                hits_are_problems: true,
                notes: "The output presents itself as complete: no section or statement says what was not checked or what information was missing.".into(),
                grounding: None,
            }
        } else {
            let n = found.len();
            RuleOutcome {
                code: None,
                verdict: Verdict::Pass,
                hits: found,
                hits_are_problems: false,
                notes: format!("Found {n} statement(s) of what was not checked or missing."),
                grounding: None,
            }
        }
    }
}

/// The last non-blank line of the body: where a missing closing section belongs.
fn last_line(text: &str, body: (usize, usize)) -> (usize, usize) {
    let b = &text[body.0..body.1];
    let trimmed = b.trim_end();
    let start = trimmed.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let lead = trimmed[start..].len() - trimmed[start..].trim_start().len();
    (body.0 + start + lead, body.0 + trimmed.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule() -> SectionRule {
        SectionRule::new(
            Some(Regex::new(r"(?i)not checked|missing information|limitations").unwrap()),
            Some(Regex::new(r"(?i)\b(?:I|we) did not review\b").unwrap()),
            20,
        )
    }

    fn run(t: &str) -> RuleOutcome {
        rule().apply(t, (0, t.len()), &ProseMap::new(t, (0, t.len())))
    }

    #[test]
    fn heading_passes_and_is_cited() {
        let t = "Analysis of the agreement in full detail.\n\n## Not checked / missing information\n- exhibits";
        let o = run(t);
        assert_eq!(o.verdict, Verdict::Pass);
        assert_eq!(
            &t[o.hits[0].start..o.hits[0].end],
            "## Not checked / missing information"
        );
    }

    #[test]
    fn phrase_in_running_text_is_not_a_heading() {
        let t = "This clause has limitations on liability that are broad and one-sided.";
        assert_eq!(run(t).verdict, Verdict::Fail);
    }

    #[test]
    fn statement_anywhere_passes() {
        let t = "Review of the agreement. We did not review the exhibits or schedules.";
        assert_eq!(run(t).verdict, Verdict::Pass);
    }

    #[test]
    fn absence_fails_citing_the_last_line() {
        let t = "Thorough analysis of everything here.\nFinal conclusion line.\n\n";
        let o = run(t);
        assert_eq!(o.verdict, Verdict::Fail);
        assert_eq!(&t[o.hits[0].start..o.hits[0].end], "Final conclusion line.");
    }

    #[test]
    fn very_short_output_is_indeterminate() {
        assert_eq!(run("Too short.").verdict, Verdict::Indeterminate);
    }
}
