//! Suppression comments, markdownlint/eslint style:
//! `<!-- byop-disable-next-line ID -->`, `<!-- byop-disable ID -->` … `<!-- byop-enable ID -->`,
//! `<!-- byop-disable-file ID -->`. No id (or `all`) means every check.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;

use crate::engine::ascii_regex;
use crate::model::text::LineIndex;

static COMMENT: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(
        r"<!--\s*byop-(disable-next-line|disable-file|disable|enable)\b([^>]*?)-->",
    )
    .expect("valid regex")
});

pub use crate::model::SuppressionScope as Scope;

/// The suppression comments of `text`, whitespace collapsed, in order.
pub fn comments(text: &str) -> Vec<String> {
    COMMENT
        .find_iter(text)
        .map(|m| m.as_str().split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

/// Line spans with O(log n) "is this line covered?" (spans may overlap).
#[derive(Debug, Clone, Default)]
struct Spans {
    /// Sorted by start once parsing is done.
    spans: Vec<(u32, u32)>,
    /// `max_end[i]`: the largest end among `spans[..=i]`.
    max_end: Vec<u32>,
}

impl Spans {
    fn finish(&mut self) {
        self.spans.sort_unstable();
        self.max_end = self
            .spans
            .iter()
            .scan(0, |max, &(_, e)| {
                *max = e.max(*max);
                Some(*max)
            })
            .collect();
    }

    fn covers(&self, line: u32) -> bool {
        let i = self.spans.partition_point(|&(s, _)| s <= line);
        i > 0 && self.max_end[i - 1] >= line
    }
}

/// The spans of one scope: for every check, and per check id.
#[derive(Debug, Clone, Default)]
struct Cover {
    all: Spans,
    by_id: HashMap<String, Spans>,
}

impl Cover {
    fn add(&mut self, checks: &Option<Vec<String>>, lines: (u32, u32)) {
        match checks {
            None => self.all.spans.push(lines),
            Some(ids) => {
                for id in ids {
                    self.by_id.entry(id.clone()).or_default().spans.push(lines);
                }
            }
        }
    }

    fn finish(&mut self) {
        self.all.finish();
        self.by_id.values_mut().for_each(Spans::finish);
    }

    fn covers(&self, check_id: &str, line: u32) -> bool {
        self.all.covers(line) || self.by_id.get(check_id).is_some_and(|s| s.covers(line))
    }

    fn any(&self, check_id: &str) -> bool {
        !self.all.spans.is_empty() || self.by_id.contains_key(check_id)
    }
}

/// The parsed suppression comments of a document, indexed so that each lookup is
/// O(log n) however many comments there are. When several cover a line, the narrowest
/// scope is reported (next line, then block, then file).
#[derive(Debug, Clone, Default)]
pub struct Suppressions {
    next_line: Cover,
    block: Cover,
    file: Cover,
}

impl Suppressions {
    pub fn parse(text: &str, index: &LineIndex) -> Self {
        let mut sup = Suppressions::default();
        // Open block directives: bare ones, and by their exact list of ids.
        let mut open_all: Vec<u32> = Vec::new();
        let mut open_ids: HashMap<Vec<String>, Vec<u32>> = HashMap::new();
        for cap in COMMENT.captures_iter(text) {
            let whole = cap.get(0).expect("match");
            let line = index.line_of(whole.start());
            let ids: Vec<String> = cap[2]
                .split([',', ' '])
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect();
            let checks = if ids.is_empty() || ids.iter().any(|i| i == "all") {
                None
            } else {
                Some(ids)
            };
            match &cap[1] {
                "disable-next-line" => {
                    let next = index.line_of(whole.end()) + 1;
                    sup.next_line.add(&checks, (next, next));
                }
                "disable-file" => sup.file.add(&checks, (0, u32::MAX)),
                "disable" => match checks {
                    None => open_all.push(line),
                    Some(ids) => open_ids.entry(ids).or_default().push(line),
                },
                _ => {
                    // enable: closes the open blocks with the same ids (all of them for a
                    // bare enable); a named enable does not close a bare disable.
                    let closed: Vec<(Option<Vec<String>>, u32)> = match checks {
                        None => open_all
                            .drain(..)
                            .map(|s| (None, s))
                            .chain(open_ids.drain().flat_map(|(ids, v)| {
                                v.into_iter().map(move |s| (Some(ids.clone()), s))
                            }))
                            .collect(),
                        Some(ids) => open_ids
                            .remove(&ids)
                            .unwrap_or_default()
                            .into_iter()
                            .map(|s| (Some(ids.clone()), s))
                            .collect(),
                    };
                    for (c, start) in closed {
                        sup.block.add(&c, (start, line));
                    }
                }
            }
        }
        for start in open_all {
            sup.block.add(&None, (start, u32::MAX));
        }
        for (ids, starts) in open_ids {
            for start in starts {
                sup.block.add(&Some(ids.clone()), (start, u32::MAX));
            }
        }
        sup.next_line.finish();
        sup.block.finish();
        sup.file.finish();
        sup
    }

    /// The scope that suppresses `check_id` on `line`, if any.
    pub fn suppressed(&self, check_id: &str, line: u32) -> Option<Scope> {
        [
            (&self.next_line, Scope::NextLine),
            (&self.block, Scope::Block),
            (&self.file, Scope::File),
        ]
        .into_iter()
        .find(|(cover, _)| cover.covers(check_id, line))
        .map(|(_, scope)| scope)
    }

    /// The scope that suppresses a finding of `check_id` at `line`; a finding without a
    /// span (`None`) honours only a file-wide comment.
    pub fn finding(&self, check_id: &str, line: Option<u32>) -> Option<Scope> {
        match line {
            Some(line) => self.suppressed(check_id, line),
            None => self.file_wide(check_id).then_some(Scope::File),
        }
    }

    /// Suppressed for the whole file (findings without a span honour only this).
    pub fn file_wide(&self, check_id: &str) -> bool {
        self.file.any(check_id)
    }
}

/// The comment text the "suppress" code actions insert.
pub fn next_line_comment(check_id: &str) -> String {
    format!("<!-- byop-disable-next-line {check_id} -->")
}
pub fn file_comment(check_id: &str) -> String {
    format!("<!-- byop-disable-file {check_id} -->")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sup(t: &str) -> Suppressions {
        Suppressions::parse(t, &LineIndex::new(t))
    }

    #[test]
    fn next_line_covers_only_the_next_line_and_named_check() {
        let s = sup("a\n<!-- byop-disable-next-line certainty_language -->\nb\nc");
        assert_eq!(s.suppressed("certainty_language", 2), Some(Scope::NextLine));
        assert_eq!(s.suppressed("certainty_language", 3), None);
        assert_eq!(s.suppressed("escalation_signal", 2), None);
    }

    #[test]
    fn block_runs_until_enable_or_end() {
        let s = sup(
            "<!-- byop-disable a, b -->\nx\n<!-- byop-enable a, b -->\ny\n<!-- byop-disable -->\nz",
        );
        assert_eq!(s.suppressed("a", 1), Some(Scope::Block));
        assert_eq!(s.suppressed("b", 1), Some(Scope::Block));
        assert_eq!(s.suppressed("a", 3), None);
        assert_eq!(s.suppressed("anything", 5), Some(Scope::Block));
    }

    #[test]
    fn file_wide_and_all() {
        let s = sup("text\n<!-- byop-disable-file unchecked_areas_disclosure -->");
        assert!(s.file_wide("unchecked_areas_disclosure"));
        assert_eq!(
            s.suppressed("unchecked_areas_disclosure", 0),
            Some(Scope::File)
        );
        assert!(!s.file_wide("other"));
        assert!(sup("<!-- byop-disable-file all -->").file_wide("x"));
    }

    #[test]
    fn ordinary_comments_are_ignored() {
        let s = sup("<!-- byop is great -->\n<!-- disable-next-line x -->\ny");
        assert_eq!(s.suppressed("x", 2), None);
    }

    #[test]
    fn overlapping_scopes_report_the_narrowest_and_named_enable_keeps_bare_disable() {
        let s = sup(
            "<!-- byop-disable-file a -->\n<!-- byop-disable -->\n<!-- byop-disable-next-line a -->\nx\n<!-- byop-enable a -->\ny\n<!-- byop-enable -->\nz",
        );
        assert_eq!(s.suppressed("a", 3), Some(Scope::NextLine));
        assert_eq!(s.suppressed("a", 5), Some(Scope::Block));
        assert_eq!(s.suppressed("b", 5), Some(Scope::Block));
        assert_eq!(s.suppressed("a", 7), Some(Scope::File));
        assert_eq!(s.suppressed("b", 7), None);
    }

    #[test]
    fn ten_thousand_unmatched_comments_are_each_honoured() {
        let mut t = String::new();
        for i in 0..10_000 {
            t.push_str(&format!(
                "<!-- byop-disable c{i} -->\nline\n<!-- byop-enable other{i} -->\n"
            ));
        }
        let s = sup(&t);
        // Block `c{i}` opens on line 3i and is never closed.
        assert_eq!(s.suppressed("c9999", 3 * 9999), Some(Scope::Block));
        assert_eq!(s.suppressed("c9999", 3 * 9999 - 1), None);
        assert_eq!(s.suppressed("c0", 29_000), Some(Scope::Block));
        assert_eq!(s.suppressed("other5", 20), None);
    }
}
