//! Suppression comments, markdownlint/eslint style:
//! `<!-- byop-disable-next-line ID -->`, `<!-- byop-disable ID -->` … `<!-- byop-enable ID -->`,
//! `<!-- byop-disable-file ID -->`. No id (or `all`) means every check.

use std::sync::LazyLock;

use regex::Regex;

use crate::model::text::LineIndex;

static COMMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"<!--\s*byop-(disable-next-line|disable-file|disable|enable)\b([^>]*?)-->")
        .expect("valid regex")
});

pub use crate::model::SuppressionScope as Scope;

#[derive(Debug, Clone)]
struct Directive {
    scope: Scope,
    /// `None` = all checks.
    checks: Option<Vec<String>>,
    /// Lines covered, inclusive.
    lines: (u32, u32),
}

#[derive(Debug, Clone, Default)]
pub struct Suppressions {
    directives: Vec<Directive>,
}

impl Suppressions {
    pub fn parse(text: &str, index: &LineIndex) -> Self {
        let mut directives = Vec::new();
        // Open block directives: (checks, start line)
        let mut open: Vec<(Option<Vec<String>>, u32)> = Vec::new();
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
                    let end_line = index.line_of(whole.end());
                    directives.push(Directive {
                        scope: Scope::NextLine,
                        checks,
                        lines: (end_line + 1, end_line + 1),
                    })
                }
                "disable-file" => directives.push(Directive {
                    scope: Scope::File,
                    checks,
                    lines: (0, u32::MAX),
                }),
                "disable" => open.push((checks, line)),
                _ => {
                    // enable: closes the matching open blocks (all of them for a bare enable).
                    let mut i = 0;
                    while i < open.len() {
                        let matches = match (&checks, &open[i].0) {
                            (None, _) => true,
                            (Some(a), Some(b)) => a == b,
                            (Some(_), None) => false,
                        };
                        if matches {
                            let (c, start) = open.remove(i);
                            directives.push(Directive {
                                scope: Scope::Block,
                                checks: c,
                                lines: (start, line),
                            });
                        } else {
                            i += 1;
                        }
                    }
                }
            }
        }
        for (checks, start) in open {
            directives.push(Directive {
                scope: Scope::Block,
                checks,
                lines: (start, u32::MAX),
            });
        }
        Suppressions { directives }
    }

    /// The scope that suppresses `check_id` on `line`, if any.
    pub fn suppressed(&self, check_id: &str, line: u32) -> Option<Scope> {
        self.directives
            .iter()
            .find(|d| {
                d.lines.0 <= line
                    && line <= d.lines.1
                    && d.checks
                        .as_ref()
                        .is_none_or(|c| c.iter().any(|id| id == check_id))
            })
            .map(|d| d.scope)
    }

    /// Suppressed for the whole file (findings without a span honour only this).
    pub fn file_wide(&self, check_id: &str) -> bool {
        self.directives.iter().any(|d| {
            d.scope == Scope::File
                && d.checks
                    .as_ref()
                    .is_none_or(|c| c.iter().any(|id| id == check_id))
        })
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
}
