//! Section names and one-line labels of a markdown plan: `## Assumptions`,
//! `Assumptions: X`, `**Assumptions:** X`, `❓ Questions: none`, `Confidence: high`, and the
//! plan's restatement of the notes' constraints (`## Constraints`, `**Constraints:** …`,
//! `Hard constraints: X, Y and Z`), which holds no items however many times it names.

use super::line::lead;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Section {
    Plan,
    Assumptions,
    Questions,
    /// The notes' constraints restated (`Constraints`, `Fixed`, `Hard constraints`):
    /// its lines, lists and tables are not items.
    Constraints,
    Other,
}

/// The section a heading or a label alone on its line names.
pub(super) fn section_of(name: &str) -> Section {
    let n = name.to_ascii_lowercase();
    if n.contains("assumption") {
        Section::Assumptions
    } else if n.contains("question") {
        Section::Questions
    } else if constraints_name(&n) {
        Section::Constraints
    } else if [
        "plan", "schedule", "task", "today", "agenda", "timeline", "day",
    ]
    .iter()
    .any(|w| n.contains(w))
    {
        Section::Plan
    } else {
        Section::Other
    }
}

/// Words a constraints section's name ends with.
const CONSTRAINT_NAMES: [&str; 6] = [
    "constraint",
    "constraints",
    "fixed",
    "blocked",
    "commitments",
    "non-negotiables",
];

/// Words that may come before it (`Hard constraints`, `Today's fixed commitments`); any
/// other word makes the name a task (`Review constraints: budget (30 min)` is an item).
const CONSTRAINT_MODIFIERS: [&str; 12] = [
    "hard",
    "known",
    "fixed",
    "key",
    "main",
    "time",
    "scheduling",
    "my",
    "your",
    "the",
    "today's",
    "day's",
];

/// A constraints section's name: one of the names, after at most two modifiers.
fn constraints_name(lower: &str) -> bool {
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’' || c == '-'))
        .filter(|w| !w.is_empty())
        .collect();
    match words.split_last() {
        Some((last, before)) => {
            CONSTRAINT_NAMES.contains(last)
                && before.len() <= 2
                && before
                    .iter()
                    .all(|w| CONSTRAINT_MODIFIERS.contains(&w.replace('’', "'").as_str()))
        }
        None => false,
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Label {
    /// `Assumptions:` / `Questions:` with what follows on the line (maybe empty).
    List(Section, String),
    /// `Confidence: high`, the level as written (lower case).
    Confidence(String),
    /// A name alone on its line (`**Schedule**`, `Notes:`): a section of its own.
    Alone(Section),
}

const CONFIDENCE_WORDS: [&str; 3] = ["low", "medium", "high"];

/// The name words a label may have before its colon.
fn label_name(s: &str) -> Option<(&str, &str)> {
    let s = &s[lead(s)..];
    let n = s
        .char_indices()
        .find(|&(_, c)| !(c.is_alphabetic() || c == ' ' || c == '\'' || c == '/'))
        .map_or(s.len(), |(i, _)| i);
    let name = s[..n].trim();
    if name.is_empty() || name.split_whitespace().count() > 4 {
        return None;
    }
    Some((name, &s[n..]))
}

/// Read a line (a paragraph's line, a list item, a heading) as a label.
pub(super) fn label(line: &str) -> Option<Label> {
    let (name, rest) = label_name(line)?;
    let lower = name.to_ascii_lowercase();
    let rest = rest.trim_start_matches(['*', '_', ' ']);
    let (colon, value) = match rest.strip_prefix(':') {
        Some(v) => (true, v.trim_start_matches(['*', '_', ' ']).trim()),
        None => (false, rest.trim()),
    };
    let value = value.trim_end_matches(['*', '_', ' ']);
    if lower.starts_with("confidence") && colon {
        let words: Vec<String> = value
            .split([' ', '(', ',', ';', '—', '–', '/'])
            .take_while(|w| !w.is_empty() && *w != "-")
            .map(|w| {
                w.trim_end_matches(['.', '*', '_', ':'])
                    .to_ascii_lowercase()
            })
            .collect();
        // "Medium because …" is medium; "very high" stays as written (and is refused).
        let level = match words.first() {
            Some(w) if CONFIDENCE_WORDS.contains(&w.as_str()) => w.clone(),
            _ => words.join(" "),
        };
        return Some(Label::Confidence(level));
    }
    if !value.is_empty() && !colon {
        return None;
    }
    let section = section_of(&lower);
    match section {
        Section::Assumptions | Section::Questions | Section::Constraints
            if lower.split_whitespace().count() <= 3 =>
        {
            Some(if value.is_empty() {
                Label::Alone(section)
            } else {
                Label::List(section, value.to_string())
            })
        }
        _ if value.is_empty() && (colon || section != Section::Other) => {
            Some(Label::Alone(section))
        }
        _ => None,
    }
}

/// An entry of `assumptions` or `questions`: "none" and "n/a" mean an empty list.
pub(super) fn push(list: &mut Option<Vec<String>>, s: &str) {
    let s = s.trim();
    let bare = s
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_ascii_lowercase();
    let list = list.get_or_insert_with(Vec::new);
    if !bare.is_empty() && !matches!(bare.as_str(), "none" | "n/a" | "na" | "no" | "nothing") {
        list.push(s.to_string());
    }
}
