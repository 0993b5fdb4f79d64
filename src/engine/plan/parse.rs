//! The plan document: the plan JSON (docs/contracts.md, Plan validation) (possibly in a ```json fence) or a markdown
//! list with timeboxes ("- Draft the brief (90 min) — why…"), with `## Assumptions`,
//! `## Questions` and `Confidence: high`. Byte offsets are into the whole document.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use super::clock::{Found, find_times};

#[derive(Debug, Clone, PartialEq)]
pub struct PlanItem {
    pub task: String,
    /// `None` when no timebox was given; `Some(n)` may still be invalid (< 5).
    pub minutes: Option<i64>,
    /// The raw timebox value when it is not an integer (e.g. `"1.5"`, `"soon"`).
    pub bad_timebox: Option<String>,
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
    pub assumptions: Option<Vec<String>>,
    pub questions: Option<Vec<String>>,
    pub confidence: Option<String>,
    /// Problems reading the document (not JSON and no list; a field of the wrong type).
    pub problems: Vec<String>,
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

/// Read the plan in `text[body.0..body.1]`.
pub fn parse(text: &str, body: (usize, usize)) -> Plan {
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
    from_markdown(text, body)
}

fn empty(format: Format) -> Plan {
    Plan {
        format,
        items: vec![],
        assumptions: None,
        questions: None,
        confidence: None,
        problems: vec![],
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

static TIMEBOX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)[(\[]?\s*(?:(\d+(?:\.\d+)?)\s*(?:hours?|hrs?|h)(?:\s*(\d+)\s*(?:minutes?|mins?|m))?\b|(\d+)\s*(?:minutes?|mins?|m)\b)\s*[)\]]?",
    )
    .expect("timebox regex")
});
static LIST_ITEM: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*(?:[-*+•]|\d+[.)])\s+(?:\[[ xX]\]\s+)?(.*)$").expect("li"));
static HEADING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:#{1,6}\s+|\*\*)?([A-Za-z][A-Za-z /'-]*?)\s*:?\s*(?:\*\*)?\s*:?\s*$")
        .expect("heading")
});
static CONFIDENCE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\s*(?:[-*]\s*)?\**confidence\**\s*:\s*\**\s*([^*\n]+?)\s*\**\.?\s*$")
        .expect("conf")
});

#[derive(Clone, Copy, PartialEq)]
enum Section {
    Plan,
    Assumptions,
    Questions,
    Other,
}

fn section_of(name: &str) -> Section {
    let n = name.to_ascii_lowercase();
    if n.contains("assumption") {
        Section::Assumptions
    } else if n.contains("question") {
        Section::Questions
    } else if n.contains("plan")
        || n.contains("schedule")
        || n.contains("task")
        || n.contains("today")
    {
        Section::Plan
    } else {
        Section::Other
    }
}

/// Timebox of a markdown item: "(90 min)", "1h30m", "2 hours", "1.5h".
fn timebox(s: &str) -> Option<(Result<i64, String>, (usize, usize))> {
    let c = TIMEBOX.captures_iter(s).last()?;
    let m = c.get(0)?;
    let value = if let Some(h) = c.get(1) {
        let hours: f64 = h.as_str().parse().ok()?;
        let extra: f64 = c
            .get(2)
            .map(|x| x.as_str().parse().unwrap_or(0.0))
            .unwrap_or(0.0);
        let total = hours * 60.0 + extra;
        if total.fract() == 0.0 {
            Ok(total as i64)
        } else {
            Err(m.as_str().trim().to_string())
        }
    } else {
        Ok(c.get(3)?.as_str().parse().ok()?)
    };
    Some((value, (m.start(), m.end())))
}

fn from_markdown(text: &str, body: (usize, usize)) -> Plan {
    let mut p = empty(Format::Markdown);
    let mut section = Section::Plan;
    let mut offset = body.0;
    for raw_line in text[body.0..body.1].split_inclusive('\n') {
        let line_at = offset;
        offset += raw_line.len();
        let line = raw_line.trim_end();
        if let Some(c) = CONFIDENCE.captures(line) {
            p.confidence = Some(c[1].trim().to_ascii_lowercase());
            continue;
        }
        if LIST_ITEM.captures(line).is_none() {
            if let Some(h) = HEADING.captures(line) {
                section = section_of(&h[1]);
                match section {
                    Section::Assumptions => {
                        p.assumptions = Some(p.assumptions.take().unwrap_or_default())
                    }
                    Section::Questions => {
                        p.questions = Some(p.questions.take().unwrap_or_default())
                    }
                    _ => {}
                }
            }
            continue;
        }
        let c = LIST_ITEM.captures(line).expect("checked");
        let content = c.get(1).expect("group").as_str().trim();
        let content_at = line_at + c.get(1).expect("group").start();
        match section {
            Section::Assumptions => push(&mut p.assumptions, content),
            Section::Questions => push(&mut p.questions, content),
            Section::Plan | Section::Other if p.items.len() < MAX_ITEMS => {
                let tb = timebox(content);
                if section == Section::Other && tb.is_none() {
                    continue;
                }
                p.items.push(markdown_item(content, content_at, tb));
            }
            Section::Plan | Section::Other => {}
        }
    }
    if p.items.is_empty() {
        p.problems.push(
            "no plan items found (expected JSON with `plan`, or a list with timeboxes)".into(),
        );
    }
    p
}

fn push(list: &mut Option<Vec<String>>, s: &str) {
    if !s.is_empty() && !s.eq_ignore_ascii_case("none") {
        list.get_or_insert_with(Vec::new).push(s.to_string());
    }
}

fn markdown_item(
    content: &str,
    at: usize,
    tb: Option<(Result<i64, String>, (usize, usize))>,
) -> PlanItem {
    let (minutes, bad, task_end) = match &tb {
        Some((Ok(m), (s, _))) => (Some(*m), None, *s),
        Some((Err(raw), (s, _))) => (None, Some(raw.clone()), *s),
        None => (None, None, content.len()),
    };
    let after = tb.map(|(_, (_, e))| e).unwrap_or(content.len());
    let mut task = content[..task_end].trim();
    let mut why = content[after..].trim();
    // "Task — why" when the timebox comes last.
    for sep in [" — ", " – ", " - ", ": "] {
        if why.is_empty()
            && let Some(i) = task.find(sep)
        {
            why = task[i + sep.len()..].trim();
            task = task[..i].trim();
        }
    }
    let why = why.trim_start_matches(['—', '–', '-', ':', ' ']).trim();
    let task = task
        .trim_matches(|c: char| c == '*' || c == '_')
        .trim()
        .trim_end_matches([':', '—', '–', '-', ','])
        .trim();
    PlanItem {
        task: task.to_string(),
        minutes,
        bad_timebox: bad,
        why: why.to_string(),
        time: explicit_time(content),
        at: (at, at + content.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(t: &str) -> Plan {
        parse(t, (0, t.len()))
    }

    #[test]
    fn seed_json_is_read_with_offsets() {
        let t = r#"{"plan":[{"task":"Draft the brief","timebox_minutes":90,"why":"due"},
            {"task":"Email Dana","timebox_minutes":15,"why":"invoice"}],
            "assumptions":["a"],"questions":[],"confidence":"High"}"#;
        let plan = p(t);
        assert_eq!(plan.format, Format::Json);
        assert_eq!(plan.items.len(), 2);
        assert_eq!(plan.items[1].minutes, Some(15));
        assert_eq!(&t[plan.items[1].at.0..plan.items[1].at.1], "Email Dana");
        assert_eq!(plan.assumptions, Some(vec!["a".to_string()]));
        assert_eq!(plan.questions, Some(vec![]));
        assert_eq!(plan.confidence.as_deref(), Some("high"));
        assert_eq!(plan.planned_minutes(), 105);
        assert!(plan.problems.is_empty());
    }

    #[test]
    fn json_type_errors_are_kept() {
        let plan = p(
            r#"{"plan":[{"task":"A","timebox_minutes":"1 hour"},{"task":"B","timebox_minutes":12.5}]}"#,
        );
        assert_eq!(plan.items[0].bad_timebox.as_deref(), Some("\"1 hour\""));
        assert_eq!(plan.items[1].bad_timebox.as_deref(), Some("12.5"));
        assert_eq!(plan.assumptions, None);
        assert!(p("{not json").problems[0].contains("does not parse"));
    }

    #[test]
    fn fenced_json_is_found() {
        let plan = p(
            "Here is your plan:\n```json\n{\"plan\":[{\"task\":\"X\",\"timebox_minutes\":30}]}\n```\n",
        );
        assert_eq!(plan.items.len(), 1);
    }

    #[test]
    fn markdown_list_with_timeboxes_and_sections() {
        let t = "# Plan\n- Draft the brief (90 min) — due at noon\n- 14:00-14:30 Call Dana (30 min)\n2. Review contract: 1h30m — before Friday\n\n## Assumptions\n- Printer works\n\n## Questions\n- None\n\nConfidence: medium\n";
        let plan = p(t);
        assert_eq!(plan.format, Format::Markdown);
        let tasks: Vec<(&str, Option<i64>)> = plan
            .items
            .iter()
            .map(|i| (i.task.as_str(), i.minutes))
            .collect();
        assert_eq!(
            tasks,
            [
                ("Draft the brief", Some(90)),
                ("14:00-14:30 Call Dana", Some(30)),
                ("Review contract", Some(90))
            ]
        );
        assert_eq!(plan.items[0].why, "due at noon");
        assert_eq!(
            plan.items[1].time.map(|f| (f.start, f.end)),
            Some((840, Some(870)))
        );
        assert_eq!(plan.assumptions, Some(vec!["Printer works".to_string()]));
        assert_eq!(plan.questions, Some(vec![]));
        assert_eq!(plan.confidence.as_deref(), Some("medium"));
    }

    #[test]
    fn markdown_without_items_is_a_problem() {
        assert!(!p("Just do your best today.").problems.is_empty());
        let plan = p("- Inbox zero (1.33h)");
        assert_eq!(plan.items[0].minutes, None);
        assert_eq!(plan.items[0].bad_timebox.as_deref(), Some("(1.33h)"));
    }
}
