//! `time_budget` (plan validation): minutes planned vs minutes available from
//! `current_time` to the notes' earliest stop, minus meetings, in the user's time zone.

use std::sync::Arc;

use super::kind::{CompiledRule, RuleError};
use super::plan_rule::without_params;
use crate::engine::plan::validate::time_budget;

pub fn compile(value: serde_json::Value) -> Result<Arc<dyn CompiledRule>, RuleError> {
    without_params(
        value,
        "PLAN-TIME",
        "Sums the plan's timeboxes and the minutes available from the front matter's `current_time` (IANA `timezone`, DST-correct) to the notes' hard stop or end of the working day, minus meetings; fails when availability is known and exceeded. Unknown availability is `indeterminate`.",
        Box::new(time_budget),
        false,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::{Companions, RuleContext};
    use crate::model::Verdict;

    #[test]
    fn reads_the_notes_from_the_source_companion() {
        let rule = compile(serde_json::json!({})).unwrap();
        let t = "---\ncurrent_time: \"2026-06-01T14:00\"\ntimezone: Europe/Paris\n---\n- Write report (90 min)\n- Email (30 min)\n- Call (10 min)\n## Assumptions\n## Questions\n";
        let body = (t.find("- Write").unwrap(), t.len());
        let without = rule.apply(&RuleContext::new(t, body)).unwrap();
        assert_eq!(
            without.verdict,
            Verdict::Indeterminate,
            "no notes: not judged"
        );
        let notes = "hard stop at 3pm";
        let cx = RuleContext::new(t, body).with_companions(Companions {
            source: Some(notes),
            ..Companions::default()
        });
        let o = rule.apply(&cx).unwrap();
        assert_eq!(o.verdict, Verdict::Fail);
        assert!(
            o.notes.starts_with(
                "Planned 130 minutes of work but only 60 minutes available after 3 PM cutoff"
            ),
            "{}",
            o.notes
        );
        assert_eq!(&t[o.hits[0].start..o.hits[0].end], "Write report (90 min)");
    }
}
