//! What the user's notes (the plan's `source` companion) say: the working window and
//! hard stops, blocked windows (meetings, appointments), and the tasks, with the ones
//! that must be done today. A rule-based extractor, not a model: the same notes give
//! the same extraction on every machine.

use std::sync::LazyLock;

use regex::Regex;

use jiff::civil::Weekday;

use super::clock::{
    Found, Minute, find_bare_hour, find_bare_range, find_meeting_range, find_times,
};

#[path = "context_clauses.rs"]
mod clauses;
#[path = "context_jotted.rs"]
mod jotted;
#[path = "context_label.rs"]
mod label;
#[path = "context_rules.rs"]
pub(super) mod rules;
#[path = "context_tasks.rs"]
mod tasks;
#[path = "context_words.rs"]
pub(super) mod words;
#[path = "context_zones.rs"]
pub(super) mod zones;
use super::timex;
use crate::engine::ascii_regex;
use crate::engine::document::layout::split_sentences;
use label::label_of;
use tasks::{Section, heading, is_heading, task};
use words::words;

#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub label: String,
    pub start: Minute,
    pub end: Minute,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Task {
    pub text: String,
    pub must: bool,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Context {
    pub window_start: Option<Minute>,
    /// The earliest end of the day: a hard stop or the end of the working window.
    pub window_end: Option<Minute>,
    /// Whether `window_end` came from a hard stop ("hard stop at 3 PM") rather than
    /// working hours.
    pub hard_stop: bool,
    pub blocks: Vec<Block>,
    /// Windows with no calls or meetings ("no meetings after 3"): they take no working
    /// time; a call or meeting item inside one breaks it.
    pub meeting_rules: Vec<Block>,
    pub tasks: Vec<Task>,
    /// Short prose lines with a time no rule reads ("dinner 7pm": an appointment or not?),
    /// at that time: the time math fails closed when one falls inside the working day.
    pub unread: Vec<Block>,
    /// "deep work", "one long block": a long block was asked for.
    pub long_block_requested: bool,
    /// Appointments the notes give only in another zone ("sync 4pm London time"), until
    /// the day is known and they are placed as blocks; one left here has a zone that
    /// cannot be told ("10am her time") and the time math fails closed on it.
    pub foreign: Vec<zones::Foreign>,
}

fn re(s: &str) -> Regex {
    ascii_regex::compile(s).expect("context regex")
}

static STOP: LazyLock<Regex> = LazyLock::new(|| words("stop"));
static START: LazyLock<Regex> = LazyLock::new(|| words("start"));
static WORK: LazyLock<Regex> = LazyLock::new(|| words("work"));
/// "Deploy window 02:30–03:00, no other work then": a window the work words rule out is
/// blocked, not the working window.
static NO_WORK: LazyLock<Regex> = LazyLock::new(|| words("no_work"));
static MEETING: LazyLock<Regex> = LazyLock::new(|| words("meeting"));
static MUST: LazyLock<Regex> = LazyLock::new(|| words("must"));
static OPTIONAL: LazyLock<Regex> = LazyLock::new(|| words("optional"));
static DEFERRED: LazyLock<Regex> = LazyLock::new(|| words("deferred"));
static BULLET: LazyLock<Regex> =
    LazyLock::new(|| re(r"^\s*(?:[-*+•]|\d+[.)]|\[[ xX]?\])\s+(?:\[[ xX]\]\s+)?"));
static TASK_CUE: LazyLock<Regex> = LazyLock::new(|| words("task_cue"));
static LONG_BLOCK: LazyLock<Regex> = LazyLock::new(|| words("long_block"));
static EVENT_TIME: LazyLock<Regex> = LazyLock::new(|| words("event_time"));
static NOT_MINE: LazyLock<Regex> = LazyLock::new(|| words("not_mine"));
/// "an hour earlier", "30 min later": a duration that moves a time.
static OFFSET: LazyLock<Regex> = LazyLock::new(|| words("offset"));
/// "(clocks go back at 03:00 → 02:00 tonight)": a remark about the clocks.
static CLOCK_REMARK: LazyLock<Regex> = LazyLock::new(|| words("clock_remark"));

/// At most this many blocks and tasks are kept (a day's notes have far fewer), so that
/// matching them against the plan stays linear in the input.
pub const MAX_EXTRACTED: usize = 1000;

/// Read the notes. `today` (the weekday of `current_time`) decides whether "due Fri" is
/// today's work.
pub fn extract(notes: &str, today: Option<Weekday>) -> Context {
    let mut cx = Context {
        long_block_requested: LONG_BLOCK.is_match(notes),
        ..Context::default()
    };
    let mut section = Section::default();
    for line in notes.lines() {
        let is_bullet = BULLET.is_match(line);
        let content = BULLET.replace(line, "");
        let content = content.trim();
        if content.is_empty() {
            continue;
        }
        if is_heading(line, is_bullet) {
            section = heading(content.trim_start_matches('#').trim(), today);
            continue;
        }
        // A paragraph of prose puts constraints and tasks side by side ("… the dentist from
        // 10:30-11:30. I need to finish the grant budget today."): each sentence is read
        // as a line of its own. A list item is one line.
        let sentences = if is_bullet {
            Vec::new()
        } else {
            split_sentences(content, (0, content.len()))
        };
        if sentences.len() > 1 {
            for (a, b) in sentences {
                read_line(&mut cx, &content[a..b], false, section, today);
            }
        } else {
            read_line(&mut cx, content, is_bullet, section, today);
        }
    }
    cx.blocks.truncate(MAX_EXTRACTED);
    cx.meeting_rules.truncate(MAX_EXTRACTED);
    cx.unread.truncate(MAX_EXTRACTED);
    cx.tasks.truncate(MAX_EXTRACTED);
    cx.foreign.truncate(MAX_EXTRACTED);
    overnight(&mut cx);
    cx.blocks.sort_by_key(|b| (b.start, b.end));
    cx
}

/// One line of the notes (or one sentence of a prose paragraph): its constraints, clause by
/// clause, else a task.
fn read_line(
    cx: &mut Context,
    content: &str,
    is_bullet: bool,
    section: Section,
    today: Option<Weekday>,
) {
    // "bulletins on the hour are automated now, not my problem": not the writer's.
    if NOT_MINE.is_match(content) {
        return;
    }
    // "off at 04:30 (clocks go back at 03:00 → 02:00 tonight)": a remark about the clocks
    // in parentheses places nothing; the rest of the line is read without it.
    let unclocked = CLOCK_REMARK.replace_all(content, |c: &regex::Captures| " ".repeat(c[0].len()));
    let content = unclocked.as_ref();
    // "call w/ Ifeoma at 3 (3am our time, her 10am in Lagos)": the writer's own time wins
    // and the other zone's is a remark; an appointment given only in another zone is
    // placed once the day is known.
    let blanked;
    let content = match zones::zoned(content) {
        Some(zones::Zoned::Other(f)) if MEETING.is_match(content) => {
            cx.foreign.extend(f);
            return;
        }
        Some(zones::Zoned::Own(line)) => {
            blanked = line;
            blanked.as_str()
        }
        _ => content,
    };
    let mut constraint = false;
    let mut unplaced = Vec::new();
    for (a, b) in clauses::clauses(content) {
        let clause = content[a..b].trim();
        if tasks::later_day_times(clause, today) {
            continue;
        }
        if constraint_line(cx, clause, content, today) {
            constraint = true;
        } else {
            unplaced.push(clause);
        }
    }
    if constraint {
        // Fail closed: a clause beside the read ones with a time no rule placed.
        cx.unread
            .extend(unplaced.into_iter().filter_map(rules::unplaced_clause));
    }
    if constraint || rules::preference(content) {
        return;
    }
    if is_bullet {
        task(cx, content, true, section, today);
    } else {
        let before = cx.tasks.len();
        // The layout's sentences: a full stop after "Mr." or "e.g." ends none.
        for (a, b) in split_sentences(content, (0, content.len())) {
            task(cx, &content[a..b], false, section, today);
        }
        if cx.tasks.len() == before
            && let Some(at) = rules::unread_time(content)
        {
            cx.unread.push(Block {
                label: content.to_string(),
                start: at,
                end: at,
            });
        }
    }
}

impl Context {
    /// A plan's clock time on the working night: in a window that runs past midnight
    /// ("online from 11:30pm … log off by 6am"), a time in its small hours ("02:00") is
    /// the next day's, as the window's blocks are.
    pub fn on_the_night(&self, m: Minute) -> Minute {
        match (self.window_start, self.window_end) {
            (Some(ws), Some(we)) if we > 24 * 60 && m < ws && m < we - 24 * 60 => m + 24 * 60,
            _ => m,
        }
    }
}

/// A window that starts in the evening and stops in the small hours ("online from
/// 11:30pm … log off by 6am") ends on the next day; blocks in its small hours too.
fn overnight(cx: &mut Context) {
    let (Some(start), Some(mut end)) = (cx.window_start, cx.window_end) else {
        return;
    };
    if end <= start && end < 24 * 60 {
        end += 24 * 60;
        cx.window_end = Some(end);
    }
    if end <= 24 * 60 {
        return;
    }
    // "working 22:00–02:00" as well as "online from 11:30pm … log off by 6am".
    for b in cx
        .blocks
        .iter_mut()
        .chain(&mut cx.meeting_rules)
        .chain(&mut cx.unread)
    {
        if b.start < start && b.start + 24 * 60 < end {
            b.start += 24 * 60;
            b.end += 24 * 60;
        }
    }
}

/// A clause about time (of `line`, or the whole line): working hours, a hard stop, a
/// meeting. Returns whether it was one. A single time is a meeting's when the line names
/// one ("lunch 1-2pm, dinner with family 7pm").
fn constraint_line(cx: &mut Context, s: &str, line: &str, today: Option<Weekday>) -> bool {
    if rules::focus_window(s)
        || jotted::cancelled(s)
        || jotted::departure(cx, s)
        || rules::meeting_rule(cx, s)
        || rules::keep_free(cx, s, today)
        || rules::work_until(cx, s)
        || clauses::prose_rule(cx, s)
        || jotted::presence_start(cx, s)
    {
        return true;
    }
    let mut times = find_times(s);
    // "desk 09:30 → 18:00 today, then dinner": what comes after the window, with no time
    // of its own, is not the window's (the dinner is the reason it ends).
    let head = jotted::before_after_event(s);
    let work = WORK.is_match(head) && !MEETING.is_match(head) && !NO_WORK.is_match(s);
    // "office 8-4", "meetings 11-12": a bare range beside a work or meeting word; beside a
    // meeting word also next to written times ("meetings: 10-11, 2-2:30").
    let meetings_only = MEETING.is_match(s) && !WORK.is_match(s);
    // "busy 1-2", "OOO 12-1": an absence's bare range is blocked like a meeting's.
    let away = NO_WORK.is_match(s) && !STOP.is_match(s);
    // Beside a meeting word a bare range may be afternoon hours ("meeting 2-3").
    let bare = if meetings_only || away {
        find_meeting_range(s)
    } else {
        find_bare_range(s)
    };
    if (times.is_empty() && (work || MEETING.is_match(s) || away) || meetings_only)
        && let Some(b) = bare
        && !times.iter().any(|t| t.at.0 < b.at.1 && b.at.0 < t.at.1)
    {
        times.push(b);
        times.sort_by_key(|t| t.at.0);
    }
    if times.is_empty()
        && let Some(h) = clauses::meeting_hour(s)
    {
        times.push(h);
    }
    // "free from 1": a bare hour after a start word in a work line (1–6 is afternoon).
    if times.is_empty()
        && work
        && let Some(m) = START.find(s)
        && let Some(h) = find_bare_hour(s, m.end())
    {
        times.push(h);
    }
    // "hard stop at 4": a bare hour after the stop words is a time (1–6 is afternoon).
    if let Some(stop) = STOP.find(s)
        && !times.iter().any(|t| t.at.0 >= stop.end())
        && let Some(h) = find_bare_hour(s, stop.end())
    {
        times.push(h);
        times.sort_by_key(|t| t.at.0);
    }
    // "send the budget before the 10am call", "wrap for the breakfast team, due 05:30": a
    // deadline or another event's time, not an appointment.
    if !STOP.is_match(s) {
        times.retain(|t| !EVENT_TIME.is_match(&s[..t.at.0]));
    }
    if times.is_empty() {
        return false;
    }
    // "6am bulletin: I'm reading it live 6:00-6:10, nothing else then": in a window ruled
    // out of work, the range is the window and a single time names it.
    if NO_WORK.is_match(s) && !STOP.is_match(s) && times.iter().any(|t| t.end.is_some()) {
        times.retain(|t| t.end.is_some());
    }
    // "family dinner at 7": the event's half of the day.
    let times: Vec<Found> = times
        .into_iter()
        .map(|t| jotted::part_of_day(s, t))
        .collect();
    if rules::optional_appointment(s) {
        return true;
    }
    if let Some(stop) = STOP.find(s) {
        // "hard stop at 3 PM": the first time after the words (else the last one).
        let t = times
            .iter()
            .find(|t| t.at.0 >= stop.end())
            .or(times.last())
            .copied()
            .expect("non-empty");
        cap_end(cx, t.end.unwrap_or(t.start), true);
        // "study from 8am until 8pm": the start before the stop words.
        if t.end.is_some() {
            cx.window_start = Some(t.start);
        } else if let Some(st) = START.find(&s[..stop.start()])
            && let Some(first) = times
                .iter()
                .find(|t| t.at.1 <= stop.start())
                .copied()
                // "starting at 9 and logging off at half 5": a bare hour after the start word.
                .or_else(|| find_bare_hour(&s[..stop.start()], st.end()))
        {
            cx.window_start = Some(first.start);
        }
        return true;
    }
    let first = times[0];
    if work {
        if let Some(end) = first.end {
            cx.window_start = Some(cx.window_start.map_or(first.start, |s| s.max(first.start)));
            cap_end(cx, end, false);
            return true;
        }
        if START.is_match(s) {
            cx.window_start = Some(first.start);
            return true;
        }
    }
    // "at the bench from 09:00, out the door by 18:30 (farewell dinner)": a start word and
    // a single time in a clause with no meeting word of its own start the day.
    if first.end.is_none() && START.is_match(s) && !TASK_CUE.is_match(s) && !MEETING.is_match(s) {
        cx.window_start = Some(first.start);
        return true;
    }
    if !MEETING.is_match(line) && first.end.is_none() && !timed_length(s, first) {
        if START.is_match(s) && !TASK_CUE.is_match(s) {
            cx.window_start = Some(first.start);
            return true;
        }
        // "report due at 2 PM": a task with a deadline, not a block.
        return false;
    }
    for t in times {
        let end = t.end.unwrap_or_else(|| t.start + duration(s).unwrap_or(30));
        cx.blocks.push(Block {
            label: label_of(s, t),
            start: t.start,
            end,
        });
    }
    true
}

/// "parents' evening at 6pm (1 hr)", "ops review 14:00 for 45 min": a single written time
/// with its length right after it, on a line with no task cue or must-do, is an
/// appointment of that length whatever it is called ("draft the memo at 2pm (45 min)"
/// with a cue stays a task).
fn timed_length(s: &str, t: Found) -> bool {
    static LENGTH_NEXT: LazyLock<Regex> = LazyLock::new(|| re(r"^\s*(?:\(\s*|for\s+|,\s*)?~?$"));
    !TASK_CUE.is_match(s)
        && !MUST.is_match(s)
        && timex::durations(s)
            .any(|(_, at)| at.0 >= t.at.1 && LENGTH_NEXT.is_match(&s[t.at.1..at.0]))
}

fn cap_end(cx: &mut Context, end: Minute, hard: bool) {
    // "stop by midnight": the end of the day, not its start.
    let end = if end == 0 { 24 * 60 } else { end };
    match cx.window_end {
        Some(e) if e < end => {}
        Some(e) if e == end => cx.hard_stop |= hard,
        _ => {
            cx.window_end = Some(end);
            cx.hard_stop = hard;
        }
    }
}

/// "(45 min)", "for an hour", "for 1.5 hours" → minutes; "an hour earlier" is how far a
/// time moved, not how long anything lasts.
fn duration(s: &str) -> Option<Minute> {
    timex::durations(s)
        .find(|(_, at)| !OFFSET.is_match(&s[at.1..]))
        .map(|(m, _)| m.round().max(0.0) as Minute)
}

#[cfg(test)]
#[path = "context_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "context_remarks_tests.rs"]
mod remarks_tests;
