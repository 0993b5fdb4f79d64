//! A plan written as a markdown table: `| Time | Task | Why |`, `| Start | End | Task |`,
//! `| Task | Hours |` (decimal hours), `| Task | Duration |`. The columns are known by
//! their header; a table with no task and no time column is not a plan.

use super::super::clock::Found;
use super::super::timex::{self, Expr};
use super::PlanItem;
use super::line;
use crate::engine::document::layout::{BlockId, Layout};

#[derive(Debug, Clone, Copy, PartialEq)]
enum Role {
    Time,
    Start,
    End,
    /// A duration; a bare number in it counts this many minutes.
    Duration(f64),
    Task,
    Why,
    Other,
}

fn words(h: &str) -> Vec<String> {
    h.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

fn role(header: &str) -> Role {
    let w = words(header);
    let has = |list: &[&str]| w.iter().any(|x| list.contains(&x.as_str()));
    if has(&["hours", "hour", "hrs", "hr", "h"]) {
        return Role::Duration(60.0);
    }
    if has(&[
        "duration", "timebox", "length", "minutes", "mins", "min", "estimate", "est", "m",
    ]) {
        return Role::Duration(1.0);
    }
    if has(&["start", "starts", "begin", "from"]) {
        return Role::Start;
    }
    if has(&["end", "ends", "finish", "until"]) || w == ["to"] {
        return Role::End;
    }
    if has(&["time", "when", "slot", "window"]) {
        return Role::Time;
    }
    if has(&[
        "why",
        "reason",
        "notes",
        "note",
        "rationale",
        "purpose",
        "because",
    ]) {
        return Role::Why;
    }
    if has(&[
        "task", "tasks", "activity", "what", "item", "focus", "action", "todo", "block", "work",
    ]) {
        return Role::Task;
    }
    Role::Other
}

/// The table's rows as plan items, and what could not be read; `None` when the table is
/// not a plan (no column for the time or duration).
pub(super) fn read(
    text: &str,
    layout: &Layout,
    table: BlockId,
) -> Option<(Vec<PlanItem>, Vec<String>)> {
    let cell_text = |id: BlockId| {
        layout
            .block(id)
            .text
            .map_or("", |(s, e)| &text[s..e])
            .trim()
    };
    let mut rows = layout.rows(table);
    let (head, _) = rows.next()?;
    let mut roles: Vec<Role> = layout
        .cells(head)
        .map(|(c, _)| role(cell_text(c)))
        .collect();
    // A column its header names as the task ("Block") whose every cell is a time
    // ("09:30–09:45") is the time column, when no header names one.
    if !roles.iter().any(|r| matches!(r, Role::Time | Role::Start)) {
        let body: Vec<Vec<&str>> = layout
            .rows(table)
            .skip(1)
            .map(|(r, _)| layout.cells(r).map(|(c, _)| cell_text(c)).collect())
            .collect();
        let all_times = |i: usize| {
            !body.is_empty()
                && body
                    .iter()
                    .all(|row| row.get(i).is_some_and(|c| is_time_cell(c)))
        };
        let tasks = roles.iter().filter(|r| **r == Role::Task).count();
        if let Some(i) =
            (0..roles.len()).find(|&i| matches!(roles[i], Role::Task | Role::Other) && all_times(i))
            && (roles[i] != Role::Task || tasks > 1)
        {
            roles[i] = Role::Time;
        }
    }
    let timed = roles
        .iter()
        .any(|r| matches!(r, Role::Time | Role::Start | Role::Duration(_)));
    if !timed {
        return None;
    }
    if !roles.contains(&Role::Task) {
        let first_free = roles.iter().position(|r| *r == Role::Other)?;
        roles[first_free] = Role::Task;
    }
    let mut items = Vec::new();
    let mut unread = Vec::new();
    for (n, (row, block)) in rows.enumerate() {
        let cells: Vec<&str> = layout.cells(row).map(|(c, _)| cell_text(c)).collect();
        let of = |want: fn(&Role) -> bool| -> Option<(&Role, &str)> {
            roles
                .iter()
                .zip(&cells)
                .find(|(r, _)| want(r))
                .map(|(r, c)| (r, *c))
        };
        let task_cell = of(|r| *r == Role::Task).map_or("", |(_, c)| c);
        let task = line::read(task_cell);
        let name = if task.task.is_empty() {
            task_cell
        } else {
            task.task.as_str()
        };
        let name = name.trim_matches(['*', '_', ' ']);
        let total = cells.iter().any(|c| {
            c.trim_matches(['*', '_', ' '])
                .to_lowercase()
                .starts_with("total")
        });
        if total || cells.iter().all(|c| c.is_empty()) {
            continue;
        }
        let mut problems = Vec::new();
        let time = row_time(&of, &mut problems);
        let column = match of(|r| matches!(r, Role::Duration(_))) {
            Some((Role::Duration(unit), c)) if !c.is_empty() => duration(c, *unit, &mut problems),
            _ => None,
        };
        let ranged = time.and_then(|t| t.end.map(|e| Ok(i64::from(e - t.start))));
        let stated = column.is_some() || ranged.is_none() && task.stated;
        let minutes = column.or(ranged).or(task.minutes.clone());
        for p in problems {
            unread.push(format!("table row {}: {p}", n + 1));
        }
        let why = of(|r| *r == Role::Why).map_or(task.why.clone(), |(_, c)| c.to_string());
        let (minutes, bad_timebox) = match minutes {
            Some(Ok(m)) => (Some(m), None),
            Some(Err(raw)) => (None, Some(raw)),
            None => (None, None),
        };
        items.push(PlanItem {
            task: name.to_string(),
            minutes,
            bad_timebox,
            stated,
            why: why.trim_matches(['*', '_', ' ']).to_string(),
            time: time.or(task.time),
            at: block.span,
        });
    }
    Some((items, unread))
}

type Cell<'r, 'c> = dyn Fn(fn(&Role) -> bool) -> Option<(&'r Role, &'c str)> + 'r;

/// The row's time: a Time cell ("9:00–10:30", "9:00 AM") or Start and End cells.
fn row_time(of: &Cell, problems: &mut Vec<String>) -> Option<Found> {
    if let Some((_, c)) = of(|r| *r == Role::Time).filter(|(_, c)| !c.is_empty()) {
        let r = line::read(c);
        if r.time.is_none() && r.minutes.is_none() {
            problems.push(format!("the time “{c}” could not be read"));
        }
        return r.time;
    }
    let start = of(|r| *r == Role::Start)
        .map(|(_, c)| c)
        .filter(|c| !c.is_empty())?;
    let end = of(|r| *r == Role::End)
        .map(|(_, c)| c)
        .filter(|c| !c.is_empty());
    let Some(a) = clock_of(start) else {
        problems.push(format!("the start “{start}” could not be read"));
        return None;
    };
    let Some(end) = end else {
        return Some(Found {
            start: a.minute(),
            end: None,
            at: (0, 0),
        });
    };
    let Some(b) = clock_of(end) else {
        problems.push(format!("the end “{end}” could not be read"));
        return None;
    };
    let sp = timex::span(a, b);
    Some(Found {
        start: sp.start,
        end: Some(sp.end),
        at: (0, 0),
    })
}

/// A cell that is one written time or range and nothing else ("09:30–09:45", "2 PM").
fn is_time_cell(cell: &str) -> bool {
    let c = cell.trim_matches(['*', '_', ' ']);
    timex::scan(c).iter().any(|t| {
        t.at == (0, c.len())
            && match t.expr {
                Expr::Clock(k) => k.explicit(),
                Expr::Range(a, b) => !timex::span(a, b).bare,
                _ => false,
            }
    })
}

/// A cell holding one clock time (in a Start or End column even a bare hour is one).
fn clock_of(cell: &str) -> Option<timex::Clock> {
    timex::scan(cell).into_iter().find_map(|t| match t.expr {
        Expr::Clock(c) => Some(c),
        _ => None,
    })
}

/// A Duration cell: "45 min", "1h 15m", or a bare number in the column's unit ("1.5").
fn duration(cell: &str, unit: f64, problems: &mut Vec<String>) -> Option<Result<i64, String>> {
    let m = timex::durations(cell).next().map(|(m, _)| m).or_else(|| {
        let n = cell.trim_matches(|c: char| !(c.is_ascii_digit() || c == '.'));
        n.parse::<f64>().ok().map(|v| v * unit)
    });
    match m {
        Some(m) if m.fract().abs() < 1e-9 && m >= 0.0 => Some(Ok(m as i64)),
        Some(_) => Some(Err(cell.to_string())),
        None => {
            problems.push(format!("the duration “{cell}” could not be read"));
            None
        }
    }
}
