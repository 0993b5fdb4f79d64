//! What observers of a plan read besides its `validation`: the constraints extracted from
//! the notes (for traces) and the failure modes a dataset tallies per output.

use serde::Serialize;

use super::Analysis;
use super::clock::Minute;
use super::context::Context;
use crate::model::ValidationMetrics;

/// One constraint of the notes, as counted in `constraints_declared`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constraint {
    /// `hard_stop` or `working_window` (the day's availability), `blocked` (a meeting or
    /// appointment), `must_do` (a task that must be done today).
    pub kind: &'static str,
    /// `HH:MM–HH:MM` on the 24-hour clock (`+1` past midnight; an open start is empty),
    /// or `today` for a must-do task.
    pub window: String,
}

fn hhmm(m: Minute) -> String {
    let next_day = if m >= 24 * 60 { "+1" } else { "" };
    format!("{:02}:{:02}{next_day}", m / 60 % 24, m % 60)
}

/// The notes' constraints in the order `constraints_declared` counts them: the availability,
/// the blocked windows, the meeting rules, the must-do tasks. Never their text (it is the user's).
pub fn constraints(cx: &Context) -> Vec<Constraint> {
    let mut out = Vec::new();
    if let Some(end) = cx.window_end {
        out.push(Constraint {
            kind: if cx.hard_stop {
                "hard_stop"
            } else {
                "working_window"
            },
            window: format!(
                "{}–{}",
                cx.window_start.map(hhmm).unwrap_or_default(),
                hhmm(end)
            ),
        });
    }
    for b in &cx.blocks {
        out.push(Constraint {
            kind: "blocked",
            window: format!("{}–{}", hhmm(b.start), hhmm(b.end)),
        });
    }
    // "no meetings after 3": open-ended to the end of the day.
    for r in &cx.meeting_rules {
        let end = if r.end >= 24 * 60 && r.start < 24 * 60 {
            String::new()
        } else {
            hhmm(r.end)
        };
        out.push(Constraint {
            kind: "no_meetings",
            window: format!("{}–{end}", hhmm(r.start)),
        });
    }
    for _ in cx.tasks.iter().filter(|t| t.must) {
        out.push(Constraint {
            kind: "must_do",
            window: "today".into(),
        });
    }
    out
}

/// Notes of at least this many words are long: a plan that covers less than the coverage
/// gate of them is a context collapse.
pub const LONG_NOTES_WORDS: usize = 300;

/// The coverage gate of the decision rule.
const MIN_COVERAGE: f64 = 0.7;

/// What a dataset needs of one plan output beyond its report.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlanFacts {
    /// Words in the notes (front matter aside).
    pub notes_words: usize,
    /// A timed item ends after the notes' end of the day (the hard stop or the end of the
    /// working window): time the plan schedules that the day does not have.
    pub past_the_stop: bool,
}

impl PlanFacts {
    pub fn of(a: &Analysis) -> PlanFacts {
        let stop = a.context.as_ref().and_then(|c| c.window_end);
        let past_the_stop = stop.is_some_and(|stop| {
            a.plan.items.iter().any(|it| {
                it.time.is_some_and(|t| {
                    let minutes = it.minutes.unwrap_or(0).max(0) as Minute;
                    t.end.unwrap_or(t.start + minutes) > stop
                })
            })
        });
        PlanFacts {
            notes_words: a
                .notes
                .as_deref()
                .map_or(0, |n| n.split_whitespace().count()),
            past_the_stop,
        }
    }

    pub fn long_notes(&self) -> bool {
        self.notes_words >= LONG_NOTES_WORDS
    }
}

/// The known failure modes of one plan output (README "Datasets", failure modes).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FailureModes {
    /// Planned more minutes than the day has (availability known), or timed an item past
    /// the day's stop.
    pub time_hallucination: bool,
    /// Said `confidence: high` and failed validation.
    pub overconfidence: bool,
    /// A human-feasibility flag: a continuous block over 180 minutes not asked for, or
    /// 240 minutes or more of work without a break.
    pub impossible_schedule: bool,
    /// Long notes (at least [`LONG_NOTES_WORDS`] words) covered below the 0.7 gate.
    pub context_collapse: bool,
}

impl FailureModes {
    pub fn of(
        m: &ValidationMetrics,
        facts: &PlanFacts,
        confidence: Option<&str>,
        passed: bool,
    ) -> FailureModes {
        FailureModes {
            time_hallucination: (m.time_available_minutes > 0 && m.time_overflow_minutes > 0)
                || facts.past_the_stop,
            overconfidence: confidence == Some("high") && !passed,
            impossible_schedule: m.human_feasibility_flags > 0,
            context_collapse: facts.long_notes() && m.context_coverage_ratio < MIN_COVERAGE,
        }
    }

    /// The names of the modes present, for a dataset cell.
    pub fn names(&self) -> Vec<&'static str> {
        [
            (self.time_hallucination, "time_hallucination"),
            (self.overconfidence, "overconfidence"),
            (self.impossible_schedule, "impossible_schedule"),
            (self.context_collapse, "context_collapse"),
        ]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
        .collect()
    }
}

/// The failure modes of a variant's plan outputs, counted (README "Datasets").
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct FailureTally {
    /// Plan outputs counted (those with a `validation`).
    pub plans: usize,
    pub time_hallucination: usize,
    pub overconfidence: usize,
    pub impossible_schedule: usize,
    pub context_collapse: usize,
    /// Plans written for long notes (at least [`LONG_NOTES_WORDS`] words).
    pub long_notes: usize,
    /// Mean coverage on short and on long notes (`None`: no such plan): coverage against
    /// the notes' length.
    pub coverage_short_notes: Option<f64>,
    pub coverage_long_notes: Option<f64>,
}

impl FailureTally {
    /// Count over each plan output's modes, metrics and facts.
    pub fn of<'a>(
        outputs: impl IntoIterator<Item = (FailureModes, &'a ValidationMetrics, PlanFacts)>,
    ) -> FailureTally {
        let mut t = FailureTally::default();
        let (mut short, mut long) = (Vec::new(), Vec::new());
        for (f, m, facts) in outputs {
            t.plans += 1;
            t.time_hallucination += usize::from(f.time_hallucination);
            t.overconfidence += usize::from(f.overconfidence);
            t.impossible_schedule += usize::from(f.impossible_schedule);
            t.context_collapse += usize::from(f.context_collapse);
            match facts.long_notes() {
                true => long.push(m.context_coverage_ratio),
                false => short.push(m.context_coverage_ratio),
            }
        }
        let mean = |v: &[f64]| (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64);
        t.long_notes = long.len();
        t.coverage_short_notes = mean(&short);
        t.coverage_long_notes = mean(&long);
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analysis(plan: &str, notes: &str) -> Analysis {
        let text = format!(
            "---\ncurrent_time: \"2026-03-10T09:00:00-04:00\"\ntimezone: America/New_York\n---\n{plan}"
        );
        let body = (text.len() - plan.len(), text.len());
        super::super::analyze(&text, body, Some(notes))
    }

    #[test]
    fn constraints_in_the_declared_order_with_24_hour_windows() {
        let notes =
            "Working 9am-5pm.\nDentist 2-3pm.\n- Must send the invoice today\n- tidy desk\n";
        let a = analysis("- 9:00–10:00 Send the invoice (60 min)\n", notes);
        let got = constraints(a.context.as_ref().unwrap());
        let kinds: Vec<(&str, &str)> = got.iter().map(|c| (c.kind, c.window.as_str())).collect();
        assert_eq!(
            kinds,
            [
                ("working_window", "09:00–17:00"),
                ("blocked", "14:00–15:00"),
                ("must_do", "today")
            ]
        );
        assert_eq!(hhmm(24 * 60 + 30), "00:30+1");
    }

    #[test]
    fn an_item_past_the_stop_is_time_that_does_not_exist() {
        let notes = "Hard stop at 3pm.\n- write the report\n";
        let late = analysis("- 2:00 PM–4:00 PM Write the report\n", notes);
        assert!(PlanFacts::of(&late).past_the_stop);
        let fits = analysis("- 1:00 PM–2:30 PM Write the report\n", notes);
        assert!(!PlanFacts::of(&fits).past_the_stop);
        assert_eq!(PlanFacts::of(&fits).notes_words, 8);
    }

    #[test]
    fn failure_modes_from_the_metrics_and_the_facts() {
        let long = PlanFacts {
            notes_words: LONG_NOTES_WORDS,
            past_the_stop: false,
        };
        let m = ValidationMetrics {
            time_available_minutes: 0,
            time_overflow_minutes: 30,
            human_feasibility_flags: 1,
            context_coverage_ratio: 0.5,
            ..Default::default()
        };
        let f = FailureModes::of(&m, &long, Some("high"), false);
        assert_eq!(
            f.names(),
            ["overconfidence", "impossible_schedule", "context_collapse"],
            "overflow with availability unknown is not a time hallucination"
        );
        let short = PlanFacts::default();
        let m = ValidationMetrics {
            time_available_minutes: 60,
            time_overflow_minutes: 30,
            context_coverage_ratio: 0.5,
            ..Default::default()
        };
        let f = FailureModes::of(&m, &short, Some("medium"), false);
        assert_eq!(f.names(), ["time_hallucination"]);
    }
}
