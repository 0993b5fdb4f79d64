//! Clock times in notes ("3 PM", "14:30", "9-5", "2–3:30pm", "noon") and the day they
//! fall on, in the user's IANA time zone (jiff's bundled tz database: DST-correct).

use std::sync::LazyLock;

use jiff::civil::{Date, Time};
use jiff::tz::TimeZone;
use jiff::{Timestamp, ZonedDateTime};
use regex::Regex;

/// Minutes after local midnight.
pub type Minute = u32;

/// `h(:mm)? (am|pm)?` or `noon`/`midnight`; one side of a range may be a bare hour.
const T: &str = r"(?:(\d{1,2})(?:[:.](\d{2}))?\s*([ap]\.?m\.?)?|(noon|midday|midnight))";

static RANGE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)\b(?:from\s+)?{T}\s*(?:-|–|—|to|until|till)\s*{T}(?:\b|$)"
    ))
    .expect("range regex")
});

static SINGLE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!(r"(?i)\b{T}(?:\b|$)")).expect("time regex"));

/// One side of a time expression as written.
#[derive(Debug, Clone, Copy)]
struct Raw {
    hour: u32,
    minute: u32,
    meridiem: Option<bool>, // Some(true) = pm
    explicit: bool,         // had a colon, am/pm or a word
}

fn raw(c: &regex::Captures, base: usize) -> Option<Raw> {
    if let Some(w) = c.get(base + 3) {
        let hour = if w.as_str().eq_ignore_ascii_case("midnight") {
            0
        } else {
            12
        };
        return Some(Raw {
            hour,
            minute: 0,
            meridiem: None,
            explicit: true,
        });
    }
    let hour: u32 = c.get(base)?.as_str().parse().ok()?;
    let minute: u32 = c
        .get(base + 1)
        .map(|m| m.as_str().parse().unwrap_or(99))
        .unwrap_or(0);
    let meridiem = c
        .get(base + 2)
        .map(|m| m.as_str().to_ascii_lowercase().starts_with('p'));
    if hour > 23 || minute > 59 {
        return None;
    }
    Some(Raw {
        hour,
        minute,
        meridiem,
        explicit: c.get(base + 1).is_some() || meridiem.is_some(),
    })
}

/// Resolve to minutes after midnight. A bare hour from 1 to 6 without am/pm is taken as
/// afternoon (nobody's working day starts at 3 AM); 7–11 as morning; 12 as noon.
fn resolve(r: Raw) -> Minute {
    let h = match r.meridiem {
        Some(true) if r.hour < 12 => r.hour + 12,
        Some(false) if r.hour == 12 => 0,
        Some(_) => r.hour,
        None if (1..=6).contains(&r.hour) => r.hour + 12,
        None => r.hour,
    };
    h * 60 + r.minute
}

/// A time span or point found in text, with its byte range in that text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found {
    pub start: Minute,
    /// `None` for a single time ("at 3 PM").
    pub end: Option<Minute>,
    pub at: (usize, usize),
}

/// Every time range and single time in `s`, left to right (ranges win over their parts).
pub fn find_times(s: &str) -> Vec<Found> {
    let mut out = Vec::new();
    let mut taken: Vec<(usize, usize)> = Vec::new();
    for c in RANGE.captures_iter(s) {
        let (Some(mut a), Some(b)) = (raw(&c, 1), raw(&c, 5)) else {
            continue;
        };
        if !a.explicit && !b.explicit {
            // "3-5" alone could be anything (a count, a date); "9-5" next to work words is
            // handled by the caller through `find_bare_range`.
            continue;
        }
        if a.meridiem.is_none() && b.meridiem.is_some() && a.hour < 12 {
            // "2-3pm", "11-1pm": the start shares the end's half of the day unless it
            // would then come after the end.
            let pm = b.meridiem == Some(true);
            a.meridiem = Some(pm);
            if resolve(a) > resolve(b) {
                a.meridiem = Some(!pm);
            }
        }
        let (start, end) = (resolve(a), resolve(b));
        let m = c.get(0).expect("match");
        out.push(Found {
            start,
            end: Some(if end <= start { end + 12 * 60 } else { end }.min(24 * 60)),
            at: (m.start(), m.end()),
        });
        taken.push((m.start(), m.end()));
    }
    for c in SINGLE.captures_iter(s) {
        let m = c.get(0).expect("match");
        if taken.iter().any(|&(a, b)| m.start() < b && a < m.end()) {
            continue;
        }
        let Some(r) = raw(&c, 1) else { continue };
        if !r.explicit || is_not_a_time(s, m.end()) {
            continue;
        }
        out.push(Found {
            start: resolve(r),
            end: None,
            at: (m.start(), m.end()),
        });
    }
    out.sort_by_key(|f| f.at.0);
    out
}

/// "1.5 hours", "2.5h" are durations, not times.
fn is_not_a_time(s: &str, end: usize) -> bool {
    let rest = s[end..].trim_start().to_ascii_lowercase();
    ["h", "hour", "hr", "min", "%"]
        .iter()
        .any(|u| rest.starts_with(u))
}

/// "9-5", "8 to 4": bare hour ranges, only meaningful next to working-hours words.
pub fn find_bare_range(s: &str) -> Option<Found> {
    static BARE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\b(\d{1,2})\s*(?:-|–|—|to|until)\s*(\d{1,2})\b").expect("bare")
    });
    let c = BARE.captures(s)?;
    let a: u32 = c[1].parse().ok()?;
    let b: u32 = c[2].parse().ok()?;
    if !(5..=12).contains(&a) || !(1..=23).contains(&b) {
        return None;
    }
    let end = if b <= a { b + 12 } else { b };
    let m = c.get(0)?;
    Some(Found {
        start: a * 60,
        end: Some(end * 60),
        at: (m.start(), m.end()),
    })
}

/// "3 PM", "4:30 PM", "14:05" → how the errors name a time.
pub fn label(m: Minute) -> String {
    let (h, min) = (m / 60 % 24, m % 60);
    let (h12, ampm) = match h {
        0 => (12, "AM"),
        1..=11 => (h, "AM"),
        12 => (12, "PM"),
        _ => (h - 12, "PM"),
    };
    if min == 0 {
        format!("{h12} {ampm}")
    } else {
        format!("{h12}:{min:02} {ampm}")
    }
}

/// The user's "now": `current_time` (RFC 3339 with offset, or a civil time read in
/// `timezone`) in the IANA zone `timezone`.
#[derive(Debug, Clone)]
pub struct Now {
    pub zoned: ZonedDateTime,
}

impl Now {
    pub fn parse(current_time: &str, timezone: &str) -> Result<Now, String> {
        let tz = TimeZone::get(timezone.trim())
            .map_err(|_| format!("unknown IANA time zone `{timezone}`"))?;
        let t = current_time.trim();
        let zoned = match t.parse::<Timestamp>() {
            Ok(ts) => ts.to_zoned_datetime(tz),
            Err(_) => {
                let dt: jiff::civil::DateTime = t.parse().map_err(|_| {
                    format!("`current_time` is not an ISO-8601 timestamp: `{current_time}`")
                })?;
                dt.to_zoned_datetime(tz)
                    .map_err(|e| format!("`current_time` {current_time}: {e}"))?
            }
        };
        Ok(Now { zoned })
    }

    pub fn date(&self) -> Date {
        self.zoned.date()
    }

    /// Minutes after local midnight of now (wall clock).
    pub fn minute(&self) -> Minute {
        let t = self.zoned.time();
        t.hour() as u32 * 60 + t.minute() as u32
    }

    /// The instant of a wall-clock minute on today's date (a gap at a DST change moves
    /// forward, as jiff's compatible disambiguation does).
    pub fn instant(&self, m: Minute) -> Timestamp {
        let date = if m >= 24 * 60 {
            self.date().tomorrow().unwrap_or(self.date())
        } else {
            self.date()
        };
        let m = m % (24 * 60);
        let time = Time::new((m / 60) as i8, (m % 60) as i8, 0, 0).unwrap_or(Time::midnight());
        date.to_datetime(time)
            .to_zoned_datetime(self.zoned.time_zone().clone())
            .map(|z| z.timestamp())
            .unwrap_or(self.zoned.timestamp())
    }

    /// Real elapsed minutes between two wall-clock minutes today (DST-correct).
    pub fn elapsed(&self, from: Minute, to: Minute) -> i64 {
        if to <= from {
            return 0;
        }
        let secs = self.instant(to).as_second() - self.instant(from).as_second();
        (secs / 60).max(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(s: &str) -> Vec<(Minute, Option<Minute>)> {
        find_times(s).iter().map(|f| (f.start, f.end)).collect()
    }

    #[test]
    fn ranges_and_single_times() {
        assert_eq!(spans("standup 9:30-9:45"), [(570, Some(585))]);
        assert_eq!(spans("call 2-3pm"), [(840, Some(900))]);
        assert_eq!(spans("lunch 11:30am–1pm"), [(690, Some(780))]);
        assert_eq!(spans("block 11-1pm"), [(660, Some(780))]);
        assert_eq!(spans("hard stop at 3 PM"), [(900, None)]);
        assert_eq!(spans("leave by 4:30pm sharp"), [(990, None)]);
        assert_eq!(spans("sync at noon"), [(720, None)]);
        assert_eq!(spans("review 14:00 to 15:30"), [(840, Some(930))]);
        assert_eq!(spans("dentist at 2:30"), [(870, None)]);
    }

    #[test]
    fn counts_and_durations_are_not_times() {
        assert!(spans("3 tasks, maybe 2-3 of them").is_empty());
        assert!(spans("takes 1.5 hours").is_empty());
        assert!(spans("a 90 min block").is_empty());
    }

    #[test]
    fn bare_working_hours() {
        let f = find_bare_range("working 9-5 today").unwrap();
        assert_eq!((f.start, f.end), (540, Some(1020)));
        assert!(find_bare_range("items 1-3").is_none());
    }

    #[test]
    fn labels() {
        assert_eq!(label(900), "3 PM");
        assert_eq!(label(990), "4:30 PM");
        assert_eq!(label(720), "12 PM");
        assert_eq!(label(545), "9:05 AM");
    }

    #[test]
    fn now_from_offset_or_civil_time_in_the_zone() {
        let n = Now::parse("2026-03-10T13:00:00Z", "America/Toronto").unwrap();
        assert_eq!(n.minute(), 9 * 60); // EDT, UTC-4, after the March 8 change
        let n = Now::parse("2026-01-10T09:15", "Europe/Berlin").unwrap();
        assert_eq!(n.minute(), 9 * 60 + 15);
        assert!(Now::parse("2026-01-10T09:15", "Mars/Olympus").is_err());
        assert!(Now::parse("tomorrow-ish", "UTC").is_err());
    }

    #[test]
    fn elapsed_is_real_time_across_a_dst_change() {
        // 2026-03-08: Toronto springs forward at 2 AM; midnight to 6 AM is 5 real hours.
        let n = Now::parse("2026-03-08T00:00", "America/Toronto").unwrap();
        assert_eq!(n.elapsed(0, 6 * 60), 5 * 60);
        // 2026-11-01: falls back; midnight to 6 AM is 7 real hours.
        let n = Now::parse("2026-11-01T00:00", "America/Toronto").unwrap();
        assert_eq!(n.elapsed(0, 6 * 60), 7 * 60);
        let n = Now::parse("2026-06-01T00:00", "America/Toronto").unwrap();
        assert_eq!(n.elapsed(9 * 60, 15 * 60), 360);
    }
}
