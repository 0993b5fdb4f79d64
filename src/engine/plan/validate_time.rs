//! `time_budget`: the available working minutes (now or the window's start to the
//! earliest stop, minus blocked windows, in the IANA zone) against the planned ones, and
//! the notes' times no rule reads, on which the time math fails closed.

use super::super::clock::{Minute, Now, label};
use super::super::context::{Block, Context};
use super::super::{Analysis, Metric, Part};
use super::{NO_CONTEXT, item_spot, part, unread};
use crate::model::Verdict;

/// Available working minutes from now (or the window's start) to the earliest stop,
/// minus blocked windows; `None` when the notes give no end of the day or there is no
/// start to count from.
pub struct Availability {
    pub minutes: i64,
    pub start: Minute,
    pub end: Minute,
    pub blocked: i64,
    pub blocks: Vec<Block>,
}

/// The clock the day is counted on: at 00:30 inside "online from 11:30pm … log off by 6am"
/// the minutes count from the evening before.
fn night_clock(cx: &Context, now: &Now) -> Now {
    let m = now.minute();
    match (cx.window_start, cx.window_end) {
        (Some(ws), Some(end)) if end > 24 * 60 && m < ws && m + 24 * 60 <= end => {
            now.from_day_before()
        }
        _ => now.clone(),
    }
}

/// The notes' appointments given only in another zone, placed on the day the time math
/// counts from.
pub fn place_foreign(a: &mut Analysis, now: Option<&Now>) {
    let (Some(cx), Some(now)) = (&mut a.context, now) else {
        return;
    };
    if !cx.foreign.is_empty() {
        let clock = night_clock(cx, now);
        super::super::context::zones::place(cx, &clock);
    }
}

/// An item timed by its range alone ("01:45–03:00", no other duration given) lasts the real
/// minutes between its ends, as the working window does: on the night the clocks go back
/// that range holds the repeated hour (135 minutes), on the night they go forward "1:45–3:30
/// AM" is 45. A duration the plan states apart from its range is kept as written.
pub fn real_range_minutes(a: &mut Analysis, now: Option<&Now>) {
    let (Some(cx), Some(now)) = (&a.context, now) else {
        return;
    };
    let clock = night_clock(cx, now);
    for it in &mut a.plan.items {
        let Some(super::super::clock::Found {
            start,
            end: Some(end),
            ..
        }) = it.time
        else {
            continue;
        };
        let wall = i64::from(end) - i64::from(start);
        if wall <= 0 || it.stated || it.minutes != Some(wall) {
            continue;
        }
        let s = cx.on_the_night(start);
        it.minutes = Some(clock.elapsed(s, s + (end - start)));
    }
}

pub fn availability(cx: &Context, now: Option<&Now>) -> Option<Availability> {
    let mut end = cx.window_end?;
    let now = now.map(|n| night_clock(cx, n));
    if let Some(n) = &now {
        let m = n.minute();
        // Now 11 PM, "log off by 1am": the stop is after midnight.
        if cx.window_start.is_none() && end < m && m - end > 12 * 60 {
            end += 24 * 60;
        }
    }
    let start = match (now.as_ref().map(Now::minute), cx.window_start) {
        (Some(n), Some(w)) => n.max(w),
        (Some(n), None) => n,
        (None, Some(w)) => w,
        (None, None) => return None,
    };
    let clock = match now {
        Some(n) => n,
        None => Now::parse("2000-01-01T00:00", "UTC").ok()?,
    };
    let total = clock.elapsed(start, end);
    let mut blocked = 0;
    let mut covered_to = start;
    let mut inside = Vec::new();
    for b in &cx.blocks {
        let (s, e) = (b.start.max(covered_to), b.end.min(end));
        if e > s {
            blocked += clock.elapsed(s, e);
            covered_to = e;
            inside.push(b.clone());
        }
    }
    Some(Availability {
        minutes: (total - blocked).max(0),
        start,
        end,
        blocked,
        blocks: inside,
    })
}

pub(super) fn cutoff_words(cx: &Context, end: Minute) -> String {
    if cx.hard_stop {
        format!("after {} cutoff", label(end))
    } else {
        format!("before the working day ends at {}", label(end))
    }
}

/// The seed's time error, shared by `time_budget` and `constraints` so it is said once.
pub(super) fn overflow_error(planned: i64, av: &Availability, cx: &Context) -> String {
    if av.minutes == 0 {
        format!(
            "Planned {planned} minutes of work but no time is available {}",
            cutoff_words(cx, av.end)
        )
    } else {
        format!(
            "Planned {planned} minutes of work but only {} minutes available {}",
            av.minutes,
            cutoff_words(cx, av.end)
        )
    }
}

/// The item where the running total first goes past `available`.
pub(super) fn first_over(a: &Analysis, available: i64) -> Option<usize> {
    let mut sum = 0;
    a.plan.items.iter().position(|it| {
        sum += it.minutes.unwrap_or(0).max(0);
        sum > available
    })
}

type NowResult = Result<Option<(Now, Option<String>)>, String>;

/// Time budget: planned vs available minutes; fails when availability is known and exceeded.
pub fn time_budget(a: &Analysis) -> Part {
    if let Some(p) = unread(a) {
        return p;
    }
    let planned = a.plan.planned_minutes();
    let mut metrics = vec![Metric::TimePlanned(planned)];
    let Some(cx) = &a.context else {
        return part(
            Verdict::Indeterminate,
            metrics,
            vec![NO_CONTEXT.into()],
            vec![],
            String::new(),
        );
    };
    let missing: Vec<&str> = [
        ("`current_time`", a.settings.current_time.is_none()),
        ("`timezone`", a.settings.timezone.is_none()),
    ]
    .into_iter()
    .filter_map(|(k, m)| m.then_some(k))
    .collect();
    // The overflow max(0, planned − available) is reported even when availability is unknown.
    let unknown = |mut metrics: Vec<Metric>, errors: Vec<String>, notes: String| {
        metrics.push(Metric::TimeAvailable(0));
        metrics.push(Metric::TimeOverflow(planned.max(0)));
        part(Verdict::Indeterminate, metrics, errors, vec![], notes)
    };
    if !missing.is_empty() {
        let err = format!(
            "Cannot do the time math: the front matter has no {} (both are required)",
            missing.join(" and ")
        );
        return unknown(metrics, vec![err], String::new());
    }
    let now: NowResult = a.settings.now();
    let (now, tz_note) = match now {
        Ok(Some((n, note))) => (Some(n), note),
        Ok(None) => (None, None),
        Err(e) => {
            return unknown(
                metrics,
                vec![format!("Cannot do the time math: {e}")],
                String::new(),
            );
        }
    };
    if let Some(f) = cx.foreign.first() {
        let err = format!(
            "Notes could not be read: “{}” gives its time only in another zone (“{}”) and does not say which; write it in the notes' own time (“3am our time”) or name the zone (“10am in Lagos”, “9am PT”)",
            f.label.trim(),
            f.written
        );
        return unknown(metrics, vec![err], String::new());
    }
    let Some(av) = availability(cx, now.as_ref()) else {
        // A time no rule placed, with no end of the day: it may be when the day ends
        // ("boarding 1pm"), so the budget is not passed unjudged.
        if let Some(u) = unread_open(cx, now.as_ref()) {
            return unknown(metrics, vec![unread_open_error(u)], String::new());
        }
        let why = if cx.window_end.is_none() {
            "the notes give no working window or hard stop"
        } else {
            "there is no start of the working day"
        };
        return unknown(
            metrics,
            vec![],
            format!(
                "Available time unknown ({why}): planned {planned} minutes; overflow not judged."
            ),
        );
    };
    if let Some(u) = unread_inside(cx, &av) {
        return unknown(metrics, vec![unread_error(u)], String::new());
    }
    let overflow = (planned - av.minutes).max(0);
    metrics.push(Metric::TimeAvailable(av.minutes));
    metrics.push(Metric::TimeOverflow(overflow));
    let blocks: Vec<String> = av
        .blocks
        .iter()
        .map(|b| format!("{} {}–{}", b.label, label(b.start), label(b.end)))
        .collect();
    let mut detail = format!(
        "Available {}–{}: {} minutes, minus {} minutes blocked{} = {} minutes; planned {planned}.",
        label(av.start),
        label(av.end),
        av.minutes + av.blocked,
        av.blocked,
        if blocks.is_empty() {
            String::new()
        } else {
            format!(" ({})", blocks.join(", "))
        },
        av.minutes
    );
    if let Some(n) = tz_note {
        detail = format!("{detail} Note: {n}.");
    }
    if av.minutes > 0 && overflow > 0 {
        let err = overflow_error(planned, &av, cx);
        let spots = first_over(a, av.minutes)
            .map(|i| {
                vec![item_spot(
                    a,
                    i,
                    &format!("{err}; the plan runs out of time here"),
                )]
            })
            .unwrap_or_default();
        let mut p = part(Verdict::Fail, metrics, vec![err], spots, String::new());
        p.notes = format!("{}. {detail}", p.notes);
        return p;
    }
    part(Verdict::Pass, metrics, vec![], vec![], detail)
}

/// A notes line with a time no rule reads, inside the working day: the available time is
/// not known (it may be an appointment), so the time math fails closed on it.
pub(super) fn unread_inside<'a>(cx: &'a Context, av: &Availability) -> Option<&'a Block> {
    cx.unread
        .iter()
        .find(|u| av.start < u.start && u.start < av.end)
}

/// A notes line with a time no rule reads when the notes give no end of the day: the
/// first one not before the start of the day (now, or the stated start), if any.
pub(super) fn unread_open<'a>(cx: &'a Context, now: Option<&Now>) -> Option<&'a Block> {
    let start = now.map(Now::minute).max(cx.window_start);
    cx.unread.iter().find(|u| start.is_none_or(|s| u.start > s))
}

pub(super) fn unread_open_error(u: &Block) -> String {
    format!(
        "Notes could not be read: “{}” gives a time ({}) that no rule reads, and the notes give no end of the day: it may be when the day ends (a flight, leaving); write the stop (“leave at 1pm”) or an appointment with a meeting word so the available time can be worked out",
        u.label.trim(),
        label(u.start)
    )
}

pub(super) fn unread_error(u: &Block) -> String {
    format!(
        "Notes could not be read: “{}” gives a time ({}) inside the working day that no rule reads; write an appointment with a meeting word or a range (“dinner 7–8pm”) so the available time can be worked out",
        u.label.trim(),
        label(u.start)
    )
}
