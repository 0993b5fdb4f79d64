//! The drift chart of one document: each stored run a point (consistency up the side,
//! status as its colour, the baseline ringed), as inline SVG: nothing fetched.

use crate::model::HistoryRow;

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 220.0;
const PAD: f64 = 36.0;

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
}

pub struct Point {
    pub x: String,
    pub y: String,
    /// `s-alert`, `s-review`, … (the report's status colours).
    pub class: &'static str,
    pub baseline: bool,
    pub report_id: String,
    /// The tooltip: time, status, consistency.
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

/// `rows` oldest first.
pub fn drift(rows: &[HistoryRow]) -> Chart {
    let span = (WIDTH - 2.0 * PAD) / (rows.len().max(2) - 1) as f64;
    let points: Vec<Point> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let x = if rows.len() == 1 {
                WIDTH / 2.0
            } else {
                PAD + i as f64 * span
            };
            let status = r.status;
            Point {
                x: format!("{x:.1}"),
                y: format!("{:.1}", y_of(r.consistency_score)),
                class: crate::render::diff::status_class(status),
                baseline: r.is_baseline,
                report_id: r.report_id.clone(),
                title: format!(
                    "{} · {} · {} · consistency {:.2}{}",
                    r.timestamp,
                    r.status,
                    r.mode,
                    r.consistency_score,
                    if r.is_baseline { " · baseline" } else { "" }
                ),
            }
        })
        .collect();
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
    }
}
