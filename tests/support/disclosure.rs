//! The built-in disclosure check run on one row appended to a neutral passage that fails
//! alone: the shared harness of the disclosure table tests.

use byop::engine::playbook::{LoadedPlaybook, builtin};
use byop::engine::rules::RuleContext;
use byop::model::Verdict;

pub const NEUTRAL: &str = "**Why It's Concerning:**
- Allows immediate termination upon receipt of notice with no cure period
- Consultant could be terminated mid-project without opportunity to complete work or receive compensation for work in progress
- No minimum notice period (e.g., 30 days) to allow consultant to wind down or find alternative work
- Creates significant financial instability and planning uncertainty for the consultant
";

pub fn verdict(pb: &LoadedPlaybook, row: &str) -> (Verdict, String) {
    let i = pb
        .playbook
        .checks
        .iter()
        .position(|c| c.id == "unchecked_areas_disclosure")
        .expect("the built-in playbook has the disclosure check");
    let text = format!("{NEUTRAL}\n{row}\n");
    let out = pb.compiled[i]
        .as_ref()
        .expect("a rule")
        .apply(&RuleContext::new(&text, (0, text.len())))
        .expect("a document-level rule");
    (out.verdict, out.notes)
}

/// The rows whose verdict is not the expected one, `(where from, text, expect pass)`.
pub fn failures(rows: &[(&str, &str, bool)]) -> Vec<String> {
    let pb = builtin();
    assert_eq!(
        verdict(&pb, "").0,
        Verdict::Fail,
        "the neutral passage fails alone"
    );
    rows.iter()
        .filter_map(|&(from, row, want)| {
            let (got, notes) = verdict(&pb, row);
            ((got == Verdict::Pass) != want)
                .then(|| format!("[{from}] expected pass={want}, got {got:?} ({notes}): {row:?}"))
        })
        .collect()
}
