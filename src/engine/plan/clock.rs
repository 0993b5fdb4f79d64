//! Clock times in notes ("3 PM", "14:30", "9-5", "2–3:30pm", "noon") and the day they
//! fall on, in the user's IANA time zone (jiff's bundled tz database: DST-correct).

use jiff::civil::{Date, Time};
use jiff::tz::TimeZone;
use jiff::{Timestamp, ZonedDateTime};

use super::timex::{self, Expr, Form};

pub use super::timex::Minute;

/// A time span or point found in text, with its byte range in that text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found {
    pub start: Minute,
    /// `None` for a single time ("at 3 PM"); past 1440 when the span runs overnight.
    pub end: Option<Minute>,
    pub at: (usize, usize),
}

/// Every time range and single time in `s` written as a time, left to right: a bare
/// range ("3-5") or bare hour ("at 4") is left to `find_bare_range` / `find_bare_hour`.
pub fn find_times(s: &str) -> Vec<Found> {
    timex::scan(s)
        .into_iter()
        .filter_map(|t| match t.expr {
            Expr::Range(a, b) => {
                let sp = timex::span(a, b);
                (!sp.bare).then_some(Found {
                    start: sp.start,
                    end: Some(sp.end),
                    at: t.at,
                })
            }
            Expr::Clock(c) if c.explicit() => Some(Found {
                start: c.minute(),
                end: None,
                at: t.at,
            }),
            _ => None,
        })
        .collect()
}

/// "9-5", "office 8-4": bare hour ranges, only meaningful next to working-hours words.
pub fn find_bare_range(s: &str) -> Option<Found> {
    bare_range(s, 5..=12)
}

/// "meeting 2-3", "no calls 12-1": a bare range beside a meeting word, whose hours may be
/// afternoon ones (1–6 is afternoon, as for a bare hour).
pub fn find_meeting_range(s: &str) -> Option<Found> {
    bare_range(s, 1..=12)
}

/// The first bare range (no am/pm, no minutes) in `s` whose first hour is in `first`.
fn bare_range(s: &str, first: std::ops::RangeInclusive<u8>) -> Option<Found> {
    timex::scan(s).into_iter().find_map(|t| match t.expr {
        Expr::Range(a, b) if first.contains(&a.hour) && (1..=23).contains(&b.hour) => {
            let sp = timex::span(a, b);
            sp.bare.then_some(Found {
                start: sp.start,
                end: Some(sp.end),
                at: t.at,
            })
        }
        _ => None,
    })
}

/// Every range in `s`, written or bare (a bare one with hours as `find_bare_range` reads
/// them), left to right: for a line with two working windows.
pub fn find_ranges(s: &str) -> Vec<Found> {
    timex::scan(s)
        .into_iter()
        .filter_map(|t| match t.expr {
            Expr::Range(a, b) => {
                let sp = timex::span(a, b);
                let hours = (5..=12).contains(&a.hour) && (1..=23).contains(&b.hour);
                (!sp.bare || hours).then_some(Found {
                    start: sp.start,
                    end: Some(sp.end),
                    at: t.at,
                })
            }
            _ => None,
        })
        .collect()
}

/// "hard stop at 4": the first bare hour at or after byte `from`, by the 1–6 afternoon rule.
pub fn find_bare_hour(s: &str, from: usize) -> Option<Found> {
    timex::scan(s).into_iter().find_map(|t| match t.expr {
        Expr::Clock(c) if c.form == Form::Bare && t.at.0 >= from => Some(Found {
            start: c.minute(),
            end: None,
            at: t.at,
        }),
        _ => None,
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
    /// The day minutes count from: today, or yesterday when now is past midnight inside
    /// a window that started the evening before.
    base: Date,
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
        let base = zoned.date();
        Ok(Now { zoned, base })
    }

    pub fn date(&self) -> Date {
        self.zoned.date()
    }

    /// The same now, its minutes counted from yesterday's midnight (00:30 is 1470): for
    /// a window that began the evening before ("online from 11:30pm … log off by 6am").
    pub fn from_day_before(&self) -> Now {
        Now {
            zoned: self.zoned.clone(),
            base: self.date().yesterday().unwrap_or(self.base),
        }
    }

    /// Minutes after local midnight of the base day (wall clock).
    pub fn minute(&self) -> Minute {
        let t = self.zoned.time();
        let days = if self.base < self.date() { 24 * 60 } else { 0 };
        t.hour() as u32 * 60 + t.minute() as u32 + days
    }

    /// The instant of a wall-clock minute counted from the base day's midnight (a gap at
    /// a DST change moves forward, as jiff's compatible disambiguation does).
    pub fn instant(&self, m: Minute) -> Timestamp {
        let date = if m >= 24 * 60 {
            self.base.tomorrow().unwrap_or(self.base)
        } else {
            self.base
        };
        let m = m % (24 * 60);
        let time = Time::new((m / 60) as i8, (m % 60) as i8, 0, 0).unwrap_or(Time::midnight());
        date.to_datetime(time)
            .to_zoned_datetime(self.zoned.time_zone().clone())
            .map(|z| z.timestamp())
            .unwrap_or(self.zoned.timestamp())
    }

    /// The wall-clock minute of `z` counted from the base day's midnight (`None` before it
    /// or past the next day).
    pub fn wall_minute(&self, z: ZonedDateTime) -> Option<Minute> {
        let day = if z.date() == self.base {
            0
        } else if self.base.tomorrow().ok() == Some(z.date()) {
            24 * 60
        } else {
            return None;
        };
        Some(day + z.time().hour() as u32 * 60 + z.time().minute() as u32)
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
