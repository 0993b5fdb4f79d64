//! The plan document: the plan JSON (docs/contracts.md, Plan validation) (possibly in a
//! ```json fence) or markdown read on the document's layout (`markdown`: lists, tables,
//! time-block headings and lines, labels). Byte offsets are into the whole document.

mod labels;
mod line;
mod markdown;
mod prose;
mod restated;
#[cfg(test)]
mod structure_tests;
mod table;
#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::engine::document::layout::Layout;

use super::clock::{Found, find_times};

#[derive(Debug, Clone, PartialEq)]
pub struct PlanItem {
    pub task: String,
    /// `None` when no timebox was given; `Some(n)` may still be invalid (< 5).
    pub minutes: Option<i64>,
    /// The raw timebox value when it is not an integer (e.g. `"1.5"`, `"soon"`).
    pub bad_timebox: Option<String>,
    /// The timebox was written as a duration of its own ("(90 minutes)", a Duration
    /// column, `timebox_minutes`), not read off the item's range.
    pub stated: bool,
    pub why: String,
    /// An explicit start/end time when the plan gives one ("09:00–10:30 Draft …").
    pub time: Option<Found>,
    /// Where the item is, in the document.
    pub at: (usize, usize),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Json,
    Markdown,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub format: Format,
    pub items: Vec<PlanItem>,
    /// Blocks that restate the notes' constraints (`Standup (fixed)`, `4:00 PM · Hard
    /// stop`): not work, but their text is still checked against the notes.
    pub restated: Vec<PlanItem>,
    pub assumptions: Option<Vec<String>>,
    pub questions: Option<Vec<String>>,
    pub confidence: Option<String>,
    /// What the plan gets wrong as written (a field of the wrong type, JSON that does
    /// not parse): the schema fails it.
    pub problems: Vec<String>,
    /// What could not be read (no items found, a table cell that is not a time): every
    /// validator that needs the plan is then indeterminate, naming it.
    pub unread: Vec<String>,
}

/// Items past this many are not read (a plan has 3–7; `plan_schema` reports the count):
/// matching items against the notes stays linear in the input.
pub const MAX_ITEMS: usize = 200;

impl Plan {
    pub fn planned_minutes(&self) -> i64 {
        self.items
            .iter()
            .filter_map(|i| i.minutes)
            .filter(|m| *m > 0)
            .sum()
    }
}

/// Read the plan in `text[body.0..body.1]` (building its markdown layout when needed).
pub fn parse(text: &str, body: (usize, usize)) -> Plan {
    parse_with(text, body, None)
}

/// Read the plan, with the body's layout when the caller has it built.
pub fn parse_with(text: &str, body: (usize, usize), layout: Option<&Layout>) -> Plan {
    let b = &text[body.0..body.1];
    let (json_at, json) = json_part(b);
    if let Some(json) = json {
        if let Ok(v) = serde_json::from_str::<Value>(json) {
            return from_json(&v, text, body.0 + json_at, json.len());
        }
        if b.trim_start().starts_with('{') {
            let mut p = empty(Format::Json);
            p.problems
                .push("the plan looks like JSON but does not parse".into());
            return p;
        }
    }
    let built;
    let layout = match layout {
        Some(l) => l,
        None => {
            built = Layout::markdown(text, body);
            &built
        }
    };
    let mut plan = markdown::read(text, layout, empty(Format::Markdown));
    if plan.items.is_empty() && plan.unread.is_empty() {
        plan.unread.push(
            "no plan items were found: expected the plan JSON, or items with a time or a timebox \
             (a list, a table, a heading or a line per time block)"
                .into(),
        );
    }
    plan
}

fn empty(format: Format) -> Plan {
    Plan {
        format,
        items: vec![],
        restated: vec![],
        assumptions: None,
        questions: None,
        confidence: None,
        problems: vec![],
        unread: vec![],
    }
}

/// The JSON object: the whole body or the first ```json fence.
fn json_part(b: &str) -> (usize, Option<&str>) {
    let t = b.trim_start();
    if t.starts_with('{') {
        return (b.len() - t.len(), Some(t.trim_end()));
    }
    if let Some(open) = b.find("```json") {
        let start = open + b[open..].find('\n').map(|i| i + 1).unwrap_or(7);
        if let Some(len) = b[start..].find("```") {
            return (start, Some(&b[start..start + len]));
        }
    }
    (0, None)
}

fn strings(v: Option<&Value>, key: &str, problems: &mut Vec<String>) -> Option<Vec<String>> {
    match v? {
        Value::Array(a) => Some(
            a.iter()
                .map(|x| {
                    x.as_str()
                        .map(str::to_string)
                        .unwrap_or_else(|| x.to_string())
                })
                .collect(),
        ),
        Value::Null => None,
        other => {
            problems.push(format!("`{key}` must be a list of strings, got {other}"));
            Some(vec![])
        }
    }
}

fn from_json(v: &Value, text: &str, at: usize, len: usize) -> Plan {
    let mut p = empty(Format::Json);
    let Some(obj) = v.as_object() else {
        p.problems.push("the plan JSON is not an object".into());
        return p;
    };
    p.assumptions = strings(obj.get("assumptions"), "assumptions", &mut p.problems);
    p.questions = strings(obj.get("questions"), "questions", &mut p.problems);
    p.confidence = obj.get("confidence").and_then(|c| match c {
        Value::Null => None,
        Value::String(s) => Some(s.trim().to_ascii_lowercase()),
        other => Some(other.to_string()),
    });
    match obj.get("plan") {
        Some(Value::Array(items)) => {
            let mut cursor = at;
            for (i, it) in items.iter().take(MAX_ITEMS).enumerate() {
                let task = it.get("task").and_then(Value::as_str).unwrap_or("").trim();
                let why = it
                    .get("why")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                let (minutes, bad) = match it.get("timebox_minutes") {
                    Some(Value::Number(n)) => match n.as_i64() {
                        Some(m) => (Some(m), None),
                        None => (None, Some(n.to_string())),
                    },
                    Some(Value::Null) | None => (None, None),
                    Some(other) => (None, Some(other.to_string())),
                };
                if task.is_empty() {
                    p.problems
                        .push(format!("plan item {} has no `task`", i + 1));
                }
                let found = locate(text, cursor, at + len, task);
                cursor = found.1;
                let time = ["start", "time"]
                    .iter()
                    .filter_map(|k| it.get(*k).and_then(Value::as_str))
                    .flat_map(find_times)
                    .next()
                    .or_else(|| explicit_time(task));
                p.items.push(PlanItem {
                    task: task.to_string(),
                    minutes,
                    bad_timebox: bad,
                    stated: true,
                    why,
                    time,
                    at: found,
                });
            }
        }
        Some(_) => p.problems.push("`plan` must be a list of items".into()),
        None => p.problems.push("the plan JSON has no `plan` list".into()),
    }
    p
}

/// The first occurrence of `needle` (as written in the JSON) at or after `from`.
fn locate(text: &str, from: usize, to: usize, needle: &str) -> (usize, usize) {
    let hay = &text[from.min(to)..to];
    let quoted = serde_json::to_string(needle).unwrap_or_default();
    let inner = quoted.trim_matches('"');
    match (!inner.is_empty()).then(|| hay.find(inner)).flatten() {
        Some(i) => (from + i, from + i + inner.len()),
        None => (from, from),
    }
}

/// A leading clock time or range on a task ("09:00–10:30 Draft"), so a plan that schedules
/// work can be checked against blocked windows.
fn explicit_time(task: &str) -> Option<Found> {
    find_times(task).into_iter().find(|f| f.at.0 <= 2)
}
