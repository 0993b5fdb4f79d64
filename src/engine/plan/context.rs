//! What the user's notes (the plan's `source` companion) say: the working window and
//! hard stops, blocked windows (meetings, appointments), and the tasks, with the ones
//! that must be done today. A rule-based extractor, not a model: the same notes give
//! the same extraction on every machine.

use std::sync::LazyLock;

use regex::Regex;

use super::clock::{Found, Minute, find_bare_range, find_times};

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
    pub tasks: Vec<Task>,
    /// "deep work", "one long block": a long block was asked for.
    pub long_block_requested: bool,
}

fn re(s: &str) -> Regex {
    Regex::new(s).expect("context regex")
}

static STOP: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(hard stop|cut-?off|leave (?:at|by)|leaving (?:at|by)|have to leave|need to leave|must leave|stop (?:at|by)|stop working|log(?:ging)? off|offline (?:at|from|after)|done by|out (?:at|by)|wrap up by|finish(?:ing)? (?:work|the day) (?:at|by)|end (?:my|the) day|until|(?:back|home) (?:by|at))\b",
    )
});
static START: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)\b(start(?:ing)? (?:at|around)|in at|begin(?:ning)? at|online (?:at|from)|from)\b")
});
static WORK: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(work(?:ing)?(?: hours| day)?|available|availability|at my desk|in the office|office hours|free)\b",
    )
});
static MEETING: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(meeting|meet|call|sync|standup|stand-up|1:1|1-on-1|one-on-one|interview|demo|lunch|appointment|appt|dentist|doctor|pickup|pick up|drop-?off|class|gym|workshop|presentation|webinar|review session|check-in|huddle|training|session)\b",
    )
});
static DURATION: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\b(an|a|\d+(?:\.\d+)?)\s*(hours?|hrs?|h|minutes?|mins?)\b"));
static MUST: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(\bmust\b|\btoday\b|\burgent|\basap\b|\beod\b|end of (?:the )?day|\bcritical\b|\bdue (?:at|by) (?:\d|noon)|non-negotiable|top priority|!!|\bno matter what\b|\bcannot slip\b|\bcan't slip\b)",
    )
});
static OPTIONAL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(maybe|if (?:there'?s |i have )?time|nice to have|optional|someday|if possible|low priority)\b",
    )
});
static DEFERRED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(tomorrow|next week|later this week|not today|can wait|on hold|next month|(?:due|on|until) (?:next )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b",
    )
});
static BULLET: LazyLock<Regex> =
    LazyLock::new(|| re(r"^\s*(?:[-*+•]|\d+[.)]|\[[ xX]?\])\s+(?:\[[ xX]\]\s+)?"));
static TASK_CUE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(?:\b(?:need to|needs to|have to|has to|got to|gotta|must|should|todo:?|to-do:?|want to|remember to|don'?t forget to|also)\s+)+",
    )
});
static LONG_BLOCK: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)\b(deep work|long block|uninterrupted|one big block|in one go|marathon)\b")
});

/// At most this many blocks and tasks are kept (a day's notes have far fewer), so that
/// matching them against the plan stays linear in the input.
pub const MAX_EXTRACTED: usize = 1000;

/// Read the notes.
pub fn extract(notes: &str) -> Context {
    let mut cx = Context {
        long_block_requested: LONG_BLOCK.is_match(notes),
        ..Context::default()
    };
    for line in notes.lines() {
        let is_bullet = BULLET.is_match(line);
        let content = BULLET.replace(line, "");
        let content = content.trim();
        if content.is_empty() || content.ends_with(':') && !content.contains(' ') {
            continue;
        }
        if constraint_line(&mut cx, content) {
            continue;
        }
        if is_bullet {
            task(&mut cx, content, true);
        } else {
            for sentence in content.split_inclusive(['.', ';', '?']) {
                task(&mut cx, sentence, false);
            }
        }
    }
    cx.blocks.truncate(MAX_EXTRACTED);
    cx.tasks.truncate(MAX_EXTRACTED);
    cx.blocks.sort_by_key(|b| (b.start, b.end));
    cx
}

/// A line about time: working hours, a hard stop, a meeting. Returns whether it was one.
fn constraint_line(cx: &mut Context, s: &str) -> bool {
    let mut times = find_times(s);
    let work = WORK.is_match(s) && !MEETING.is_match(s);
    if times.is_empty()
        && work
        && let Some(b) = find_bare_range(s)
    {
        times.push(b);
    }
    if times.is_empty() {
        return false;
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
        } else if START.is_match(&s[..stop.start()])
            && let Some(first) = times.iter().find(|t| t.at.1 <= stop.start())
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
    if !MEETING.is_match(s) && first.end.is_none() {
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

fn cap_end(cx: &mut Context, end: Minute, hard: bool) {
    match cx.window_end {
        Some(e) if e < end => {}
        Some(e) if e == end => cx.hard_stop |= hard,
        _ => {
            cx.window_end = Some(end);
            cx.hard_stop = hard;
        }
    }
}

/// "(45 min)", "for an hour", "for 1.5 hours" → minutes.
fn duration(s: &str) -> Option<Minute> {
    let c = DURATION.captures(s)?;
    let n: f64 = match &c[1] {
        a if a.eq_ignore_ascii_case("a") || a.eq_ignore_ascii_case("an") => 1.0,
        d => d.parse().ok()?,
    };
    let minutes = if c[2].to_ascii_lowercase().starts_with('h') {
        n * 60.0
    } else {
        n
    };
    Some(minutes.round() as Minute)
}

/// The block's name: the words before its time in the same clause ("Lunch with Priya
/// 12-1pm", "lunch 1-2pm, dinner with family 7pm"), else the words after it.
fn label_of(s: &str, t: Found) -> String {
    let clean = |x: &str| -> String {
        let words: Vec<&str> = x
            .split_whitespace()
            .filter(|w| {
                !matches!(
                    w.to_ascii_lowercase().as_str(),
                    "at" | "from" | "-" | "–" | "—" | "@"
                )
            })
            .collect();
        words
            .join(" ")
            .trim_matches([',', ';', '.', ':', ' ', '-', '–', '—', '(', ')'])
            .to_string()
    };
    let before = &s[..t.at.0];
    let clause = before
        .rfind(['.', ';', ',', ')'])
        .map(|i| &before[i + 1..])
        .unwrap_or(before);
    let label = clean(clause);
    if !label.is_empty() {
        return label;
    }
    let after = &s[t.at.1..];
    let after = after.split(['.', ';', ',', '(']).next().unwrap_or("");
    clean(after)
}

/// A task from a bullet, or from a prose sentence with a cue ("need to …").
fn task(cx: &mut Context, s: &str, bullet: bool) {
    let s = s.trim().trim_end_matches(['.', ';']);
    if s.is_empty() || OPTIONAL.is_match(s) {
        return;
    }
    // "due Friday" is not today's; "today" beats a day name ("due today, not Friday").
    let today = s.to_ascii_lowercase().contains("today");
    if DEFERRED.is_match(s) && !today {
        return;
    }
    let text = if bullet {
        s.to_string()
    } else {
        match TASK_CUE.find(s) {
            Some(m) => s[m.end()..].to_string(),
            None => return,
        }
    };
    if super::intent::tokens(&text).is_empty() {
        return;
    }
    cx.tasks.push(Task {
        must: MUST.is_match(s),
        text,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOTES: &str = "Monday brain dump\n\
- Standup 9:30-9:45\n\
- Lunch with Priya 12-1pm\n\
- Hard stop at 3 PM today (school pickup)\n\
- MUST finish the Q3 budget summary for Acme\n\
- Email Dana about the invoice\n\
- Review the vendor contract\n\
- Maybe clean up the shared drive (if time)\n\
- Next week: plan the offsite\n\
Also need to book flights for Berlin. Ugh, so tired.\n";

    #[test]
    fn blocks_stops_and_tasks() {
        let cx = extract(NOTES);
        assert_eq!(cx.window_end, Some(900));
        assert!(cx.hard_stop);
        let blocks: Vec<(&str, Minute, Minute)> = cx
            .blocks
            .iter()
            .map(|b| (b.label.as_str(), b.start, b.end))
            .collect();
        assert_eq!(
            blocks,
            [("Standup", 570, 585), ("Lunch with Priya", 720, 780)]
        );
        let tasks: Vec<(&str, bool)> = cx.tasks.iter().map(|t| (t.text.as_str(), t.must)).collect();
        assert_eq!(
            tasks,
            [
                ("MUST finish the Q3 budget summary for Acme", true),
                ("Email Dana about the invoice", false),
                ("Review the vendor contract", false),
                ("book flights for Berlin", false),
            ]
        );
    }

    #[test]
    fn working_hours_and_meetings_with_durations() {
        let cx = extract(
            "Working 9-5.\nCall with the bank at 11am (45 min)\nDentist at 2:30 for an hour\nStart at 8:30 today",
        );
        // The later, explicit start wins over the working hours' start.
        assert_eq!(cx.window_start, Some(510));
        assert_eq!(cx.window_end, Some(1020));
        assert!(!cx.hard_stop);
        let spans: Vec<(Minute, Minute)> = cx.blocks.iter().map(|b| (b.start, b.end)).collect();
        assert_eq!(spans, [(660, 705), (870, 930)]);
        let labels: Vec<&str> = cx.blocks.iter().map(|b| b.label.as_str()).collect();
        assert_eq!(labels, ["Call with the bank", "Dentist"]);
        let cx = extract("lunch 1-2pm, dinner with family 7pm (1 hour)\n9:30 standup, daily");
        let labels: Vec<(&str, Minute, Minute)> = cx
            .blocks
            .iter()
            .map(|b| (b.label.as_str(), b.start, b.end))
            .collect();
        assert_eq!(
            labels,
            [
                ("standup", 570, 600),
                ("lunch", 780, 840),
                ("dinner with family", 1140, 1200)
            ]
        );
    }

    #[test]
    fn start_and_stop_on_one_line() {
        let cx = extract("study from 8am until 8pm\n- Back home by 4pm for the plumber");
        assert_eq!(cx.window_start, Some(480));
        assert_eq!(cx.window_end, Some(960));
        assert!(cx.tasks.is_empty());
    }

    #[test]
    fn earliest_end_wins() {
        let cx = extract("Work hours 9:00-17:00\nneed to leave by 4:30pm for the vet");
        assert_eq!(cx.window_end, Some(990));
        assert!(cx.hard_stop);
    }

    #[test]
    fn deadlines_are_must_do_tasks_not_blocks() {
        let cx = extract(
            "- Send the report to Omar, due at 2 PM\n- Board deck due Thursday\n- Call mum\n- Fix the login bug today!!",
        );
        assert!(cx.blocks.is_empty());
        let tasks: Vec<(&str, bool)> = cx.tasks.iter().map(|t| (t.text.as_str(), t.must)).collect();
        assert_eq!(
            tasks,
            [
                ("Send the report to Omar, due at 2 PM", true),
                ("Call mum", false),
                ("Fix the login bug today!!", true)
            ]
        );
    }
}
