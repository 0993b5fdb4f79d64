//! The drift chart of one document, as inline SVG (nothing fetched): consistency up the
//! side, status as a point's colour, the baseline ringed. Up to [`MAX_POINTS`] runs, each
//! run is a point. A longer history is thinned by time: the span from the first run to
//! the last is cut into equal buckets, and each bucket's runs become one point showing
//! their worst status and their lowest consistency, linked to the run that is both; the
//! baseline report and the latest run are always points of their own. The chart says how
//! many runs a point stands for (each point's tooltip, and a caption).

use crate::model::{HistoryRow, Status};
use crate::store::Run;

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 220.0;
const PAD: f64 = 36.0;
/// The most points drawn (and so the most a browser is sent) however long the history.
pub const MAX_POINTS: usize = 240;

pub struct Chart {
    pub width: f64,
    pub height: f64,
    pub points: Vec<Point>,
    /// `points` joined, as a polyline's `points` attribute.
    pub line: String,
    /// Consistency gridlines: (y, label).
    pub ticks: Vec<(String, &'static str)>,
    pub left: f64,
    pub right: f64,
    /// What a point stands for, when points stand for more than one run.
    pub caption: Option<String>,
}

pub struct Point {
    pub x: String,
    pub y: String,
    /// `s-alert`, `s-review`, … (the report's status colours).
    pub class: &'static str,
    pub baseline: bool,
    /// The run shown: the point's only run, or its worst.
    pub report_id: String,
    /// How many runs the point stands for.
    pub runs: usize,
    /// The tooltip: time, status, consistency (and, for several runs, their span).
    pub title: String,
}

fn y_of(consistency: f64) -> f64 {
    let c = if consistency.is_finite() {
        consistency.clamp(0.0, 1.0)
    } else {
        0.0
    };
    PAD / 2.0 + (1.0 - c) * (HEIGHT - PAD * 1.5)
}

/// The runs one point stands for (consecutive, oldest first).
struct Group<'a> {
    runs: Vec<&'a Run>,
}

impl Group<'_> {
    /// The run shown: the worst status, then the lowest consistency, then the latest.
    fn worst(&self) -> &HistoryRow {
        let mut worst = &self.runs[0].row;
        for r in &self.runs[1..] {
            let (s, c) = (r.row.status, r.row.consistency_score);
            if s > worst.status || (s == worst.status && c <= worst.consistency_score) {
                worst = &r.row;
            }
        }
        worst
    }

    fn lowest(&self) -> f64 {
        self.runs
            .iter()
            .map(|r| r.row.consistency_score)
            .fold(f64::INFINITY, f64::min)
    }
}

/// Whether a run is a point of its own however long the history: the baseline report
/// (not its reruns) and the latest run.
fn kept(runs: &[Run], i: usize) -> bool {
    i + 1 == runs.len() || (runs[i].row.is_baseline && runs[i].row.rerun_id.is_none())
}

/// The runs grouped into points, and the width of a bucket in nanoseconds (none: a point
/// a run).
fn groups(runs: &[Run]) -> (Vec<Group<'_>>, Option<i128>) {
    if runs.len() <= MAX_POINTS {
        let each = runs.iter().map(|r| Group { runs: vec![r] }).collect();
        return (each, None);
    }
    let singles = (0..runs.len()).filter(|&i| kept(runs, i)).count();
    // A kept run may split a bucket in two: room for both halves and itself.
    let buckets = MAX_POINTS.saturating_sub(2 * singles + 1).max(1) as i128;
    let times = runs.iter().filter_map(|r| r.ns).map(i128::from);
    let (first, last) = times.fold((i128::MAX, i128::MIN), |(lo, hi), t| (lo.min(t), hi.max(t)));
    let width = match first <= last {
        true => (last - first) / buckets + 1,
        false => 1,
    };
    // Untimed runs (first, oldest) share one bucket; each timed run its time's bucket.
    let bucket = |r: &Run| r.ns.map(|t| (i128::from(t) - first) / width);
    let mut out: Vec<Group> = Vec::new();
    let mut open: Option<Option<i128>> = None;
    for (i, r) in runs.iter().enumerate() {
        if kept(runs, i) {
            out.push(Group { runs: vec![r] });
            open = None;
            continue;
        }
        let b = bucket(r);
        match (open, out.last_mut()) {
            (Some(o), Some(g)) if o == b => g.runs.push(r),
            _ => {
                out.push(Group { runs: vec![r] });
                open = Some(b);
            }
        }
    }
    (out, Some(width))
}

/// A time span in words: "40 s", "25 min", "6 h", "3 days".
fn span_words(ns: i128) -> String {
    let s = ns / 1_000_000_000;
    match s {
        s if s < 120 => format!("{} s", s.max(1)),
        s if s < 120 * 60 => format!("{} min", (s + 30) / 60),
        s if s < 48 * 3600 => format!("{} h", (s + 1800) / 3600),
        s => format!("{} days", (s + 43_200) / 86_400),
    }
}

fn point(g: &Group, x: f64) -> Point {
    let worst = g.worst();
    let lowest = g.lowest();
    let one = g.runs.len() == 1;
    let title = if one {
        format!(
            "{} · {} · {} · consistency {:.2}{}",
            worst.timestamp,
            worst.status,
            worst.mode,
            worst.consistency_score,
            if worst.is_baseline {
                " · baseline"
            } else {
                ""
            }
        )
    } else {
        let statuses = |s: Status| g.runs.iter().filter(|r| r.row.status == s).count();
        format!(
            "{} runs, {} to {} · worst {} ({} of them) · lowest consistency {:.2}",
            g.runs.len(),
            g.runs[0].row.timestamp,
            g.runs[g.runs.len() - 1].row.timestamp,
            worst.status,
            statuses(worst.status),
            lowest
        )
    };
    Point {
        x: format!("{x:.1}"),
        y: format!("{:.1}", y_of(lowest)),
        class: crate::render::diff::status_class(worst.status),
        baseline: one && worst.is_baseline,
        report_id: worst.report_id.clone(),
        runs: g.runs.len(),
        title,
    }
}

/// `runs` oldest first.
pub fn drift(runs: &[Run]) -> Chart {
    let (groups, width) = groups(runs);
    let span = (WIDTH - 2.0 * PAD) / (groups.len().max(2) - 1) as f64;
    let points: Vec<Point> = groups
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let x = match groups.len() {
                1 => WIDTH / 2.0,
                _ => PAD + i as f64 * span,
            };
            point(g, x)
        })
        .collect();
    let caption = width.map(|w| {
        format!(
            "{} runs drawn as {} points: each point stands for the runs of one {} span (its tooltip says how many) and shows their worst status and lowest consistency; the baseline and the latest run are points of their own.",
            runs.len(),
            points.len(),
            span_words(w)
        )
    });
    let line = points
        .iter()
        .map(|p| format!("{},{}", p.x, p.y))
        .collect::<Vec<_>>()
        .join(" ");
    let ticks = [(1.0, "1.0"), (0.85, "0.85"), (0.5, "0.5"), (0.0, "0")]
        .into_iter()
        .map(|(c, label)| (format!("{:.1}", y_of(c)), label))
        .collect();
    Chart {
        width: WIDTH,
        height: HEIGHT,
        points,
        line,
        ticks,
        left: PAD,
        right: WIDTH - PAD / 2.0,
        caption,
    }
}

#[cfg(test)]
#[path = "chart_tests.rs"]
mod tests;
