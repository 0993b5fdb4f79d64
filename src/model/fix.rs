//! Fixes as data: edits a front end can offer for a finding (quick fix, `--fix`, SARIF).

use serde::{Deserialize, Serialize};

/// Replace `text[start..end]` (whole-document byte offsets) with `new_text`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edit {
    pub start: usize,
    pub end: usize,
    pub new_text: String,
}

impl Edit {
    pub fn insert(at: usize, new_text: impl Into<String>) -> Edit {
        Edit {
            start: at,
            end: at,
            new_text: new_text.into(),
        }
    }
}

/// One way to address a finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fix {
    pub title: String,
    /// The check's own fix (as opposed to a suppression).
    pub preferred: bool,
    /// Safe to apply unattended (`--fix`, `source.fixAll`): it only adds a section.
    pub safe: bool,
    pub edits: Vec<Edit>,
}

/// Apply non-overlapping edits to `text`; overlapping or out-of-range edits are skipped.
pub fn apply(text: &str, edits: &[Edit]) -> String {
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    sorted.sort_by_key(|e| (e.start, e.end));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for e in sorted {
        let valid = e.start >= at
            && e.start <= e.end
            && e.end <= text.len()
            && text.is_char_boundary(e.start)
            && text.is_char_boundary(e.end);
        if !valid {
            continue;
        }
        out.push_str(&text[at..e.start]);
        out.push_str(&e.new_text);
        at = e.end;
    }
    out.push_str(&text[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_apply_in_order_and_overlaps_are_skipped() {
        let edits = [
            Edit::insert(5, "!"),
            Edit {
                start: 0,
                end: 1,
                new_text: "J".into(),
            },
            Edit {
                start: 0,
                end: 3,
                new_text: "overlap".into(),
            },
        ];
        assert_eq!(apply("hello world", &edits), "Jello! world");
        assert_eq!(
            apply("é", &[Edit::insert(1, "x")]),
            "é",
            "not a char boundary"
        );
    }
}
