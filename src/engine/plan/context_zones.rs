//! Times a notes line gives in another time zone: "call w/ Ifeoma at 3 (3am our time, her
//! 10am in Lagos), 45 min", "sync 4pm London time", "standup 9am PT". The writer's own
//! time wins when the line gives one (marked "our time", "my time", "local", or written
//! with no zone): the other zone's time is a remark, not a second appointment. A time
//! given only in another zone is converted from the zone it names (a place in the time
//! zone database or `zone_names.toml`) to the notes' zone once the day is known; one
//! whose zone cannot be told ("10am her time") is left unplaced, and the time math fails
//! closed on it with a readable reason.

use std::collections::HashMap;
use std::sync::LazyLock;

use jiff::civil::Time;
use jiff::tz::TimeZone;
use regex::Regex;
use serde::Deserialize;

use super::words::words;
use super::{Block, Context, duration, label_of};
use crate::engine::plan::clock::{Found, Minute, Now};
use crate::engine::plan::timex::{self, Expr};

/// "3am our time": the writer's own clock, right after a time.
static OWN_ZONE: LazyLock<Regex> = LazyLock::new(|| words("own_zone"));
/// "10am her time", "10am in Lagos", "4pm London time", "9am PT", right after a time.
static OTHER_ZONE: LazyLock<Regex> = LazyLock::new(|| words("other_zone"));
/// "her 10am": someone else's time, read as another zone's only beside an own-zone time.
static THEIRS_BEFORE: LazyLock<Regex> = LazyLock::new(|| words("theirs_before"));

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Names {
    aliases: HashMap<String, String>,
    abbreviations: HashMap<String, String>,
}

static NAMES: LazyLock<Names> = LazyLock::new(|| {
    toml::from_str(include_str!("zone_names.toml")).expect("zone_names.toml parses")
});

/// Every city of the time zone database by its last name part ("new york" →
/// America/New_York), with the aliases of `zone_names.toml`.
static PLACES: LazyLock<HashMap<String, String>> = LazyLock::new(|| {
    let mut out = HashMap::new();
    for name in jiff::tz::db().available() {
        let name = name.as_str().to_string();
        let city = name.rsplit('/').next().unwrap_or(&name).replace('_', " ");
        out.entry(city.to_lowercase()).or_insert(name);
    }
    for (place, zone) in &NAMES.aliases {
        out.insert(place.to_lowercase(), zone.clone());
    }
    out
});

/// The IANA zone a place or abbreviation names ("Lagos", "New York", "PT"), if any.
pub fn zone_named(name: &str) -> Option<String> {
    let name = name.trim();
    if let Some(z) = NAMES.abbreviations.get(name) {
        return Some(z.clone());
    }
    if name.chars().all(|c| c.is_ascii_uppercase()) {
        return None;
    }
    PLACES.get(&name.to_lowercase()).cloned()
}

/// Whether `text` (what follows a time) is only a zone remark: "in London.", "London
/// time", "her time": a plan line "8:30 in London." says a time again in another zone.
pub fn zone_remark_only(text: &str) -> bool {
    let t = text.trim().trim_end_matches(['.', ')', ' ']);
    let t = format!(" {}", t.trim_start_matches('('));
    OTHER_ZONE.captures(&t).is_some_and(|c| {
        c.get(0).is_some_and(|m| m.end() == t.len())
            && (1..=5)
                .find_map(|i| c.get(i))
                .is_none_or(|n| zone_named(n.as_str()).is_some())
    })
}

/// A time the notes give only in another zone, as written there.
#[derive(Debug, Clone, PartialEq)]
pub struct Foreign {
    pub label: String,
    /// The IANA zone it is in; `None` when the line does not say which ("her time").
    pub zone: Option<String>,
    /// How it was written ("10am her time"), for the error.
    pub written: String,
    /// Wall-clock minutes in that zone; `end` after `start`.
    pub start: Minute,
    pub end: Minute,
}

/// What the zone remarks of a notes line leave for the line rules.
#[derive(Debug, PartialEq)]
pub enum Zoned {
    /// Another zone's times are remarks beside the writer's own time: the line with them
    /// blanked out (same length, so byte offsets stand).
    Own(String),
    /// Every time of the line is another zone's: the appointments to place.
    Other(Vec<Foreign>),
}

/// How a time of the line is marked.
enum Mark {
    Own,
    /// Another zone's, up to byte `.0`; `.1` is the zone when one is named.
    Other(usize, Option<String>),
    /// Someone else's ("her 10am"), another zone's only beside an own-zone time.
    Theirs,
    None,
}

fn mark(line: &str, at: (usize, usize)) -> Mark {
    let after = &line[at.1..];
    if OWN_ZONE.is_match(after) {
        return Mark::Own;
    }
    if let Some(c) = OTHER_ZONE.captures(after) {
        let end = at.1 + c.get(0).map_or(0, |m| m.end());
        let Some(name) = (1..=5).find_map(|i| c.get(i)) else {
            // "her time": another zone, not named.
            return Mark::Other(end, None);
        };
        // "3pm in Brooklyn": a place that is not a time zone leaves the time the writer's.
        if let Some(zone) = zone_named(name.as_str()) {
            return Mark::Other(end, Some(zone));
        }
    }
    if THEIRS_BEFORE.is_match(&line[..at.0]) {
        return Mark::Theirs;
    }
    Mark::None
}

/// Read the zone remarks of `line`: `None` when it gives no time in another zone.
pub fn zoned(line: &str) -> Option<Zoned> {
    // Its written times, and a meeting's bare hour ("call w/ Ana @ 3 her time").
    let bare = super::clauses::at_bare_hour(line).map(|h| h.at);
    let times: Vec<(timex::Token, Mark)> = timex::scan(line)
        .into_iter()
        .filter(|t| match t.expr {
            Expr::Clock(c) => c.explicit() || bare == Some(t.at),
            Expr::Range(a, b) => !timex::span(a, b).bare,
            _ => false,
        })
        .map(|t| (t, mark(line, t.at)))
        .collect();
    let own = times.iter().any(|(_, m)| matches!(m, Mark::Own));
    let other = |m: &Mark| matches!(m, Mark::Other(..)) || own && matches!(m, Mark::Theirs);
    if !times.iter().any(|(_, m)| other(m)) {
        return None;
    }
    // The writer's time: marked as theirs, written with no zone, or a meeting's bare hour.
    let unmarked = times
        .iter()
        .any(|(_, m)| matches!(m, Mark::None | Mark::Theirs) && !other(m));
    let mut blanked = line.to_string();
    let mut foreign = Vec::new();
    for (t, m) in &times {
        if !other(m) {
            continue;
        }
        let (end, zone) = match m {
            Mark::Other(end, zone) => (*end, zone.clone()),
            _ => (t.at.1, None),
        };
        let (start, stop) = match t.expr {
            Expr::Range(a, b) => {
                let sp = timex::span(a, b);
                (sp.start, sp.end)
            }
            Expr::Clock(c) => (c.minute(), c.minute() + duration(line).unwrap_or(30)),
            _ => continue,
        };
        let found = Found {
            start,
            end: Some(stop),
            at: t.at,
        };
        foreign.push(Foreign {
            label: label_of(line, found),
            zone,
            written: line[t.at.0..end].trim().to_string(),
            start,
            end: stop,
        });
        blanked.replace_range(t.at.0..end, &" ".repeat(end - t.at.0));
    }
    Some(if own || unmarked {
        Zoned::Own(blanked)
    } else {
        Zoned::Other(foreign)
    })
}

/// Place the notes' times given only in another zone on the day `clock` counts from: each
/// becomes a blocked window at its time in the notes' zone (on the day the window holds it,
/// else today). One whose zone is not known stays in `cx.foreign` for the time math to
/// fail closed on.
pub fn place(cx: &mut Context, clock: &Now) {
    let here = clock.zoned.time_zone().clone();
    let mut left = Vec::new();
    for f in std::mem::take(&mut cx.foreign) {
        let Some(tz) = f.zone.as_deref().and_then(|z| TimeZone::get(z).ok()) else {
            left.push(f);
            continue;
        };
        let at = |day: i64| -> Option<Minute> {
            let date = clock.date().checked_add(jiff::Span::new().days(day)).ok()?;
            let m = f.start % (24 * 60);
            let t = Time::new((m / 60) as i8, (m % 60) as i8, 0, 0).ok()?;
            let ts = date.to_datetime(t).to_zoned_datetime(tz.clone()).ok()?;
            clock.wall_minute(ts.timestamp().to_zoned_datetime(here.clone()))
        };
        let inside = |m: &Minute| match (cx.window_start, cx.window_end) {
            (Some(s), Some(e)) => s <= *m && *m < e,
            _ => false,
        };
        let candidates: Vec<Minute> = (-1..=1).filter_map(at).collect();
        let Some(start) = candidates.iter().copied().find(inside).or_else(|| at(0)) else {
            left.push(f);
            continue;
        };
        cx.blocks.push(Block {
            label: f.label.clone(),
            start,
            end: start + (f.end - f.start),
        });
    }
    cx.foreign = left;
    cx.blocks.sort_by_key(|b| (b.start, b.end));
}

#[cfg(test)]
#[path = "context_zones_tests.rs"]
mod tests;
