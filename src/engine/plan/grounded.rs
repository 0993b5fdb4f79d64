//! `grounded_entities`: meetings, deadlines, people and organisations
//! in the plan that the notes do not mention, on the shared grounding engine
//! (`engine::grounding`: `Source`, the shared entity kinds, and the plan entity kinds).

use std::collections::BTreeSet;

use super::clock::find_times;
use super::context::Context;
use super::timex::{self, Day};
use super::{Analysis, Metric, Part, Spot};
use crate::engine::grounding::entities::words_key;
use crate::engine::grounding::plan_entities::{self, PlanEntityKind};
use crate::engine::grounding::plan_events;
use crate::engine::grounding::{Entity, EntityKind, Source, entities};

#[path = "grounded_names.rs"]
mod names;
use crate::model::Verdict;
use names::{MEETING_PERSON, SPELLINGS, W_SLASH, meeting_spelling, meeting_time};

/// The notes, read once for every deadline in the plan (linear in notes + plan).
struct Notes<'a> {
    source: Source<'a>,
    lower: String,
    /// Clock minutes of the notes' own deadlines and of their stop.
    stated: Vec<u32>,
    /// The notes' capitalised words, for short forms of their names ("Sam" of "Samantha").
    names: Vec<&'a str>,
    /// The notes' lines, for a meeting with a named person.
    lines: Vec<&'a str>,
    /// Clock minutes (within the day) the notes' blocked windows start at.
    block_starts: Vec<u32>,
    /// Capitalised words the notes write inside a line (not opening it): their names.
    inner_names: BTreeSet<&'a str>,
    /// Names the notes write as a person's ("coffee w/ Maya", "Dr. Lim").
    people: BTreeSet<&'a str>,
    /// The days the notes give a deadline on ("due Mon", "by Friday", "Monday deadline").
    deadline_days: Vec<Day>,
    /// The weekday of `current_time`: "tomorrow" on a Thursday is the notes' "Fri".
    today: Option<jiff::civil::Weekday>,
    /// The notes' lines by their words, for the plan's events (built when first needed).
    line_index: std::cell::OnceCell<names::LineIndex>,
}

/// The grounding index of the notes as [`grounded_entities`] reads them ("w/" read as
/// "with"), with that text: built from the notes alone.
#[derive(Clone)]
pub struct NotesIndex {
    text: std::sync::Arc<str>,
    index: std::sync::Arc<crate::engine::grounding::SourceIndex>,
}

impl NotesIndex {
    pub fn new(notes: &str) -> NotesIndex {
        let text: std::sync::Arc<str> =
            meeting_spelling(&W_SLASH.replace_all(notes, "with ")).into();
        let index = std::sync::Arc::new(crate::engine::grounding::SourceIndex::new(&text));
        NotesIndex { text, index }
    }
}

impl std::fmt::Debug for NotesIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NotesIndex").finish_non_exhaustive()
    }
}

impl<'a> Notes<'a> {
    fn new(
        text: &'a str,
        cx: &Context,
        index: &NotesIndex,
        today: Option<jiff::civil::Weekday>,
    ) -> Notes<'a> {
        let mut stated: Vec<u32> = plan_entities::extract(text)
            .into_iter()
            .filter(|e| e.kind == PlanEntityKind::Deadline)
            .filter_map(|e| find_times(&e.key).first().map(|f| f.start))
            .collect();
        stated.extend(cx.window_end);
        let days: Vec<(Day, (usize, usize))> = timex::days(text).collect();
        Notes {
            source: Source::indexed(text, index.index.clone()),
            lower: text.to_lowercase(),
            stated,
            deadline_days: days
                .iter()
                .filter(|(_, at)| names::deadline_on(text, *at))
                .map(|(d, _)| *d)
                .collect(),
            today,
            people: names::people(text),
            line_index: std::cell::OnceCell::new(),
            names: text
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| w.starts_with(|c: char| c.is_uppercase()))
                .collect(),
            lines: text.lines().collect(),
            block_starts: cx.blocks.iter().map(|b| b.start % (24 * 60)).collect(),
            inner_names: text
                .lines()
                .flat_map(|l| {
                    l.split(|c: char| !c.is_alphanumeric())
                        .filter(|w| !w.is_empty())
                        .skip(1)
                })
                .filter(|w| w.starts_with(|c: char| c.is_uppercase()))
                .collect(),
        }
    }

    /// Whether the notes have the plan's meeting at its clock time ("the 4pm client call",
    /// "the team standup at 4"): a blocked window starting then, or a notes line with the
    /// meeting's word and that time. A meeting with no time in the plan is not checked.
    fn meeting_at_its_time(
        &self,
        e: &plan_entities::PlanEntity,
        text: &str,
        slot: Option<u32>,
    ) -> bool {
        let Some(at) = meeting_time(e, text).or(slot) else {
            return true;
        };
        let key = plan_entities::meeting_key(&meeting_spelling(&e.text));
        let word = key.rsplit(' ').next().unwrap_or("");
        self.block_starts.contains(&at)
            || self.lines.iter().any(|l| {
                meeting_spelling(&l.to_lowercase()).contains(word)
                    && timex::scan(l).iter().any(|t| match t.expr {
                        timex::Expr::Clock(c) => c.minute() % (24 * 60) == at,
                        timex::Expr::Range(a, _) => a.minute() % (24 * 60) == at,
                        _ => false,
                    })
            })
    }

    /// Whether the notes hold this meeting, its names written in full or not.
    fn has_meeting(&self, key: &str) -> bool {
        self.source.find_words(key).is_some()
            || self.source.find_words(&self.in_full(key)).is_some()
    }

    /// Whether the notes hold the plan's meeting `e` (in `text`): its words in their one
    /// spelling, or a meeting with the person named right after it.
    /// `slot`: the clock time (within the day) the plan gives the item whose task is this
    /// meeting itself ("Weekly sync with Kenji" under "### 15:00–15:45"): a meeting the
    /// notes have at 14:00 and the plan holds at 15:00 is at a time the notes do not give.
    fn grounds_meeting(
        &self,
        e: &plan_entities::PlanEntity,
        text: &str,
        slot: Option<u32>,
    ) -> bool {
        (self.has_meeting(&plan_entities::meeting_key(&meeting_spelling(&e.text)))
            || self.meeting_with(&text[e.end..]))
            && self.meeting_at_its_time(e, text, slot)
    }

    /// Whether the name `key` at `at` is company suffixes right after a name the notes
    /// have as a company: "Acme Corp wants it" is the notes' Acme, written longer.
    fn after_a_notes_name(&self, text: &str, at: usize, key: &str) -> bool {
        let before = &text[..at];
        let trimmed = before.trim_end();
        trimmed.len() < before.len()
            && key.split(' ').all(names::company_suffix)
            && trimmed
                .rsplit(|c: char| !c.is_alphanumeric())
                .next()
                .is_some_and(|w| self.inner_names.contains(w) && !self.people.contains(w))
    }

    /// Whether the notes have a meeting, in any word, with the person named right after
    /// the plan's meeting ("the call with Ken" and "zoom w/ Ken 2pm"): the same meeting.
    fn meeting_with(&self, after: &str) -> bool {
        let Some(name) = MEETING_PERSON
            .captures(after)
            .and_then(|c| c.get(1))
            .map(|m| m.as_str())
        else {
            return false;
        };
        self.lines.iter().any(|l| {
            // The notes' lines have each meeting word in its one spelling ("1:1" is
            // "oneonone").
            (crate::engine::plan::context::rules::names_meeting(l)
                || l.split(|c: char| !c.is_alphanumeric())
                    .any(|w| SPELLINGS.iter().any(|(canon, _)| w == *canon)))
                && l.split(|c: char| !c.is_alphanumeric()).any(|w| {
                    w == name || w.len() > name.len() && name.len() >= 3 && w.starts_with(name)
                })
        })
    }

    /// Whether the notes state this deadline: a deadline or stop at the same clock time,
    /// or the same day word.
    fn has_deadline(&self, key: &str, text: &str) -> bool {
        if let Some(t) = find_times(key).first() {
            // "before the 11:00 call": a meeting's time the notes block.
            let meeting = crate::engine::plan::context::rules::names_meeting(text);
            return self.stated.contains(&t.start)
                || meeting && self.block_starts.contains(&(t.start % (24 * 60)));
        }
        // "the Monday deadline" is grounded by "due Mon" in the notes, not by any Monday;
        // "before the release on Friday" by a notes line with the release on Friday.
        if let Some((day, _)) = timex::days(key).next() {
            return match names::event_of(text) {
                Some(what) => self.has_event(&what, Some(day)),
                None => self
                    .deadline_days
                    .iter()
                    .any(|&d| timex::same_day(d, day, self.today)),
            };
        }
        self.source.find_words(key).is_some()
            || names::same_day_words(key)
                .iter()
                .any(|w| self.lower.contains(w))
    }
}

fn shared_grounded(e: &Entity, source: &Source) -> bool {
    source.contains(e).is_some()
}

/// One flagged entity: what it is, its words, where (in the document).
struct Flag {
    kind: &'static str,
    key: String,
    text: String,
    at: (usize, usize),
}

/// What a piece of plan text is of its item: the task or its why, and the item's own
/// schedule.
#[derive(Clone, Copy, Default)]
struct Own {
    /// The text is the item's task (else its why).
    task: bool,
    /// The item's start within the day (for a task with a time).
    slot: Option<u32>,
    /// The item's end within the day: "Done by 04:15" in the why of the item that ends at
    /// 04:15 is the plan's own schedule, not a deadline the plan invents.
    end: Option<u32>,
    /// The item's task is a meeting the notes hold: a meeting named by its word alone in
    /// its why ("Recurring meeting; nothing to plan here.") is that meeting.
    meeting: bool,
}

/// Flags in one piece of plan text (a task or its why), `at` locating its item.
fn flags_in(text: &str, own_: Own, notes: &Notes, at: (usize, usize), out: &mut Vec<Flag>) {
    let Own { task, slot, .. } = own_;
    let source = &notes.source;
    let mut found = if task {
        plan_entities::extract_task(text)
    } else {
        plan_entities::extract(text)
    };
    found.extend(plan_events::extract(text));
    found.sort_by_key(|e| (e.start, e.kind));
    // An event on a day ("Friday's board review") is read as one: what is inside it is
    // not read again.
    let events: Vec<(usize, usize)> = found
        .iter()
        .filter(|e| e.kind == PlanEntityKind::Event)
        .map(|e| (e.start, e.end))
        .collect();
    let in_event = |e: &plan_entities::PlanEntity| {
        e.kind != PlanEntityKind::Event && events.iter().any(|&(s, en)| e.start < en && s < e.end)
    };
    let found: Vec<_> = found.iter().filter(|e| !in_event(e)).collect();
    // The item's time is the meeting's only when the task is the meeting itself ("Weekly
    // sync with Kenji"), not about it ("Prep for the call with Nani").
    let own = |e: &plan_entities::PlanEntity| {
        let before = &text[..e.start];
        slot.filter(|_| {
            super::appointment::names_the_meeting_itself(before)
                && super::appointment::not_about_it_after(&text[e.end..])
        })
    };
    let grounds_meeting = |e: &plan_entities::PlanEntity| {
        own_.meeting && !task && names::bare_meeting(e, text)
            || notes.grounds_meeting(e, text, own(e))
    };
    // A made-up meeting or event is one invention, not one per name or day in it.
    let invented: Vec<(usize, usize)> = found
        .iter()
        .filter(|e| match e.kind {
            PlanEntityKind::Meeting => !grounds_meeting(e),
            PlanEntityKind::Event => !notes.grounds_event(e),
            _ => false,
        })
        .map(|e| (e.start, e.end))
        .collect();
    let invented_meeting = !invented.is_empty();
    // "before the 4pm client call", "before Friday's offsite": a deadline that is the
    // made-up meeting's time or day (overlapping it, or its possessive) is part of it.
    let of_invented = |e: &plan_entities::PlanEntity| {
        invented
            .iter()
            .any(|&(s, en)| e.start < en && s <= e.end + "'s ".len())
    };
    for &e in &found {
        let grounded = match e.kind {
            PlanEntityKind::Meeting => grounds_meeting(e),
            PlanEntityKind::Event => notes.grounds_event(e),
            PlanEntityKind::Deadline if names::own_end(&e.key, own_.end) => continue,
            PlanEntityKind::Name if invented_meeting => continue,
            PlanEntityKind::Deadline if of_invented(e) => continue,
            PlanEntityKind::Name => {
                notes.grounds_name(&e.key) || notes.after_a_notes_name(text, e.start, &e.key)
            }
            PlanEntityKind::Deadline => notes.has_deadline(&e.key, &e.text),
        };
        if !grounded {
            let shown = if e.kind == PlanEntityKind::Meeting {
                text.trim()
            } else {
                e.text.as_str()
            };
            out.push(Flag {
                kind: e.kind.as_str(),
                key: e.key.clone(),
                text: shown.to_string(),
                at,
            });
        }
    }
    let names: Vec<(usize, usize)> = found.iter().map(|e| (e.start, e.end)).collect();
    for e in entities::extract(text) {
        let kind = match e.kind {
            EntityKind::Organization | EntityKind::Person if invented_meeting => continue,
            EntityKind::Money
            | EntityKind::Date
            | EntityKind::Organization
            | EntityKind::Person => e.kind,
            _ => continue,
        };
        let short_form = e.kind == EntityKind::Person && notes.grounds_name(&words_key(&e.text));
        if names.iter().any(|&(s, en)| s < e.end && e.start < en)
            || shared_grounded(&e, source)
            || short_form
        {
            continue;
        }
        out.push(Flag {
            kind: kind.as_str(),
            key: e.normalized.clone(),
            text: e.text.clone(),
            at,
        });
    }
}

pub fn grounded_entities(a: &Analysis) -> Part {
    if let Some(p) = super::validate::unread(a) {
        return p;
    }
    let (Some(cx), Some(notes)) = (&a.context, a.notes.as_deref()) else {
        return super::validate::no_context();
    };
    // "call w/ Nani": notes shorthand for "with", so "the call with Nani" is grounded.
    let built;
    let index = match &a.notes_index {
        // Shared: built from these same notes.
        Some(i) => i,
        None => {
            built = NotesIndex::new(notes);
            &built
        }
    };
    let today = a
        .settings
        .now()
        .ok()
        .flatten()
        .map(|(n, _)| n.date().weekday());
    let notes = Notes::new(&index.text, cx, index, today);
    let mut flags = Vec::new();
    for it in a.plan.items.iter().chain(&a.plan.restated) {
        let slot = it.time.map(|t| t.start % (24 * 60));
        let task = Own {
            task: true,
            slot,
            ..Own::default()
        };
        flags_in(&it.task, task, &notes, it.at, &mut flags);
        let why = Own {
            end: it.time.and_then(|t| t.end).map(|e| e % (24 * 60)),
            meeting: names::meeting_of(&it.task, &notes, slot),
            ..Own::default()
        };
        flags_in(&it.why, why, &notes, it.at, &mut flags);
    }
    let mut seen = BTreeSet::new();
    flags.retain(|f| seen.insert((f.kind, f.key.clone())));
    let errors: Vec<String> = flags
        .iter()
        .map(|f| {
            let a = if f.kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
                "an"
            } else {
                "a"
            };
            format!("Mentions {a} {} not in the notes: “{}”", f.kind, f.text)
        })
        .collect();
    // One spot per item, naming each kind flagged in it: a spot is the whole item, so one
    // per flag made a report of an item naming many made-up companies grow with their number
    // times the item's length.
    let mut spots: Vec<Spot> = Vec::new();
    for f in &flags {
        let note = format!("{} not in the notes", f.kind);
        // Flags come item by item: the item's spot, if any, is the last one.
        match spots.last_mut().filter(|s| (s.start, s.end) == f.at) {
            Some(s) if s.note.split("; ").any(|n| n == note) => {}
            Some(s) => s.note = format!("{}; {note}", s.note),
            None => spots.push(Spot {
                start: f.at.0,
                end: f.at.1,
                note,
            }),
        }
    }
    let n = flags.len() as u32;
    let verdict = if n == 0 { Verdict::Pass } else { Verdict::Fail };
    let notes_ok =
        "Every meeting, deadline, person and organisation in the plan is in the notes.".to_string();
    let mut p = Part {
        verdict,
        metrics: vec![Metric::HallucinationFlags(n)],
        notes: if errors.is_empty() {
            notes_ok
        } else {
            errors.join(" ")
        },
        errors,
        advisory: false,
        spots,
    };
    if n == 0 {
        p.errors.clear();
    }
    p
}

#[cfg(test)]
#[path = "grounded_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "grounded_days_tests.rs"]
mod days_tests;
