//! The notes are read in time linear in their length: doubling a long notes file
//! doubles the text the time grammar reads (a count, not a clock). A copy of the rest
//! of the notes at every number the grammar met made a 1 MB jotted notes file take
//! minutes.

use super::*;
use crate::engine::plan::validate::{
    FeasibilityLimits, SchemaLimits, constraints, coverage, feasibility, plan_schema, time_budget,
};

const PLAN: &str = "---\ncurrent_time: \"2026-06-04T09:00:00-04:00\"\ntimezone: America/New_York\n---\n- Write the migration script (60 min) — P1\n- Coffee with Maya (30 min) — at 10\n- Review the PR (30 min) — before 4\n- Prep for Friday's board review (30 min) — before the Q3 audit deadline\n";

/// The work every plan check does on `lines` copies of `line` as the notes.
fn work(line: &str, lines: usize) -> u64 {
    let notes = line.repeat(lines);
    let before = timex::work();
    let a = analyze(PLAN, (0, PLAN.len()), Some(&notes));
    assert!(a.context.is_some());
    let _ = plan_schema(
        &a,
        &SchemaLimits {
            min_items: 3,
            max_items: 7,
            min_timebox: 5,
        },
    );
    let _ = time_budget(&a);
    let _ = constraints(&a);
    let _ = coverage(&a, 0.7);
    let _ = feasibility(
        &a,
        &FeasibilityLimits {
            max_block_minutes: 180,
            break_after_minutes: 240,
        },
    );
    let _ = grounded::grounded_entities(&a);
    timex::work() - before
}

#[test]
fn reading_notes_is_linear_in_their_length() {
    let lines = [
        "- Write the migration script at 3 (P1) due Thu — tomorrow morning, coffee w/ Maya 10, done at 4\n",
        "standup 9:30-9:45, lunch with Priya 12-1pm; hard stop at 5:30 PM\n",
        "- Email Dana about the 2 invoices (15 min) 10 11 12 1 2 3 4 5 6\n",
        "- board review Fri 10am, Q3 audit due Mon, coffee w/ Maya 10\n",
    ];
    for line in lines {
        let (one, two) = (work(line, 1000), work(line, 2000));
        assert!(one > 0, "{line:?}: the grammar read nothing");
        // Linear: twice the lines, about twice the work (the plan's own share is fixed).
        assert!(
            two <= one * 2 + one / 4,
            "{line:?}: 1000 lines {one} bytes read, 2000 lines {two}"
        );
    }
}
