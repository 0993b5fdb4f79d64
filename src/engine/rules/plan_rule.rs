//! What the plan rule kinds share: reading the plan and its notes, and
//! turning a validator's `Part` into the check's outcome. Each kind's own file reads
//! its parameters and picks its validator.

use std::sync::Arc;

use super::hidden_chars::Finding;
use super::kind::{CompiledRule, Hit, RuleContext, RuleOutcome};
use crate::engine::plan::{Analysis, Part};
use crate::model::Verdict;

/// A validator over the analysed plan.
pub(super) type Validator = Box<dyn Fn(&Analysis) -> Part + Send + Sync>;

pub(super) struct PlanRule {
    validator: Validator,
    description: String,
    /// Stable code of a failing or indeterminate outcome (`PLAN-TIME`, …).
    code: &'static str,
    /// Fails closed on a plan whose times may be written so that the plan reader does not
    /// read them (see `unread_times`): `constraints`, whose one failure gates such a plan.
    reads_times: bool,
}

impl std::fmt::Debug for PlanRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlanRule")
            .field("description", &self.description)
            .finish()
    }
}

pub(super) fn rule(
    code: &'static str,
    description: String,
    validator: Validator,
) -> Arc<dyn CompiledRule> {
    Arc::new(PlanRule {
        validator,
        description,
        code,
        reads_times: false,
    })
}

/// A plan kind that takes no parameters (`{}`, or an unknown key is an error);
/// `reads_times` as [`PlanRule::reads_times`].
pub(super) fn without_params(
    value: serde_json::Value,
    code: &'static str,
    description: &str,
    validator: Validator,
    reads_times: bool,
) -> Result<Arc<dyn CompiledRule>, super::kind::RuleError> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct NoParams {}
    let _: NoParams = super::kind::params(value)?;
    Ok(Arc::new(PlanRule {
        validator,
        description: description.into(),
        code,
        reads_times,
    }))
}

impl PlanRule {
    /// The validator's part; a kind that `reads_times` also fails closed on a plan whose
    /// times may be written so that the plan reader does not read them (see `unread_times`).
    fn part(&self, cx: &RuleContext) -> Part {
        let mut part = (self.validator)(cx.plan());
        if self.reads_times {
            let unread = unread_times(cx);
            if let Some((s, e, note)) = unread.first() {
                let first = format!(
                    "the plan is written so that its times may not be read as shown: “{}” — {note}",
                    &cx.text[*s..*e]
                );
                part.verdict = Verdict::Fail;
                part.errors.push(first.clone());
                part.notes = if part.notes.is_empty() {
                    first
                } else {
                    format!("{first}; {}", part.notes)
                };
                part.spots.extend(
                    unread
                        .into_iter()
                        .map(|(start, end, note)| crate::engine::plan::Spot { start, end, note }),
                );
            }
        }
        part
    }
}

/// Places where the text read differs from the text shown (hidden_text's character
/// references such as `11&colon;30` and markup inside a number such as `11<!-- -->:30`;
/// invisible characters the plan reader reads through), and digits of other scripts in a
/// time (`١١:٣٠`), which the plan reader reads only in ASCII. A plan written so is failed
/// rather than validated on the times it could read.
fn unread_times(cx: &RuleContext) -> Vec<(usize, usize, String)> {
    let mut out: Vec<(usize, usize, String)> =
        super::hidden_chars::find_in_layout(cx.text, cx.body, cx.layout())
            .into_iter()
            // Invisible characters inside a time the plan reader reads through.
            .filter(|f| matches!(f.2, Finding::Written | Finding::Markup))
            .map(|(s, e, _)| {
                (
                    s,
                    e,
                    "the checks read what is written, a reader sees otherwise".to_string(),
                )
            })
            .collect();
    let body = &cx.text[cx.body.0..cx.body.1];
    let foreign = |c: char| c.is_numeric() && !c.is_ascii();
    let mut chars = body.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if !foreign(c) {
            continue;
        }
        let mut end = i + c.len_utf8();
        while let Some(&(j, d)) = chars.peek() {
            if foreign(d) || d == ':' || d.is_ascii_digit() {
                end = j + d.len_utf8();
                chars.next();
            } else {
                break;
            }
        }
        let run = &body[i..end];
        if run.chars().filter(|&d| foreign(d)).count() >= 2 || run.contains(':') {
            let at = cx.body.0 + i;
            out.push((
                at,
                cx.body.0 + end,
                "digits of another script: the plan reader reads times in ASCII digits".to_string(),
            ));
        }
    }
    out.sort_by_key(|f| (f.0, f.1));
    out
}

impl CompiledRule for PlanRule {
    fn apply(&self, cx: &RuleContext) -> Option<RuleOutcome> {
        self.validation(cx).map(|p| outcome(p, self.code))
    }

    fn describe(&self) -> String {
        self.description.clone()
    }

    /// Plan validators are deterministic and authoritative, no evaluator overrides them.
    fn proves(&self) -> bool {
        true
    }

    fn validation(&self, cx: &RuleContext) -> Option<Part> {
        Some(self.part(cx))
    }

    fn apply_and_validation(&self, cx: &RuleContext) -> (Option<RuleOutcome>, Option<Part>) {
        let part = self.part(cx);
        (Some(outcome(part.clone(), self.code)), Some(part))
    }
}

fn outcome(p: Part, code: &str) -> RuleOutcome {
    let problems = p.verdict != Verdict::Pass;
    RuleOutcome {
        verdict: p.verdict,
        hits: p
            .spots
            .into_iter()
            .map(|s| Hit {
                start: s.start,
                end: s.end,
                note: s.note,
                source: None,
            })
            .collect(),
        hits_are_problems: problems,
        notes: p.notes,
        code: problems.then(|| code.to_string()),
        grounding: None,
    }
}
