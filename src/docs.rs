//! Check documentation generated from playbook data, so every check — built-in or
//! from a user's playbook — has a page that diagnostics and SARIF can link to.

use std::path::{Path, PathBuf};

use crate::playbook::{Check, Playbook};
use crate::rules::Rule;

/// Markdown page for one check.
pub fn check_markdown(playbook: &Playbook, check: &Check) -> String {
    let mut md = format!(
        "# `{}`\n\nPlaybook `{}` {} · severity **{}** · detection **{}**\n\n> {}\n\n## How it is evaluated\n\n{}\n",
        check.id,
        playbook.id,
        playbook.version,
        check.severity.as_str(),
        check.detection_method.kind.as_str(),
        check.question,
        check.detection_method.instructions
    );
    if let Some(rule) = &check.rules {
        md += &format!(
            "\n## Local rule: `{}`\n\n{}\n",
            rule.kind_name(),
            rule_summary(rule)
        );
    }
    let ev = &check.evidence_requirements;
    if ev.require_citations {
        md += &format!(
            "\n## Evidence\n\nA `fail` needs at least {} quoted span(s) that can be found in the document; otherwise it is reported as `indeterminate`.\n",
            ev.min_citations_per_fail.max(1)
        );
    }
    if let Some(r) = &check.remediation {
        md += &format!("\n## What to do\n\n{r}\n");
    }
    md += &format!(
        "\n## Suppressing\n\n`<!-- byop-disable-next-line {0} -->` above a line, or `<!-- byop-disable-file {0} -->` anywhere. Suppressed findings stay listed in the report.\n\n---\nThis is an observability check, not legal advice.\n",
        check.id
    );
    md
}

fn rule_summary(rule: &Rule) -> String {
    match rule {
        Rule::Pattern {
            patterns,
            match_means,
            ..
        } => format!(
            "{} pattern(s); a match counts as evidence that the check {}. Quoted text, block quotes and code are skipped.",
            patterns.len(),
            match match_means {
                crate::rules::MatchMeans::Fail => "fails",
                crate::rules::MatchMeans::Pass => "passes",
            }
        ),
        Rule::QualifierWindow {
            terms,
            qualifiers,
            window_words,
            ..
        } => format!(
            "{} certainty pattern(s) are flagged unless one of {} qualifier pattern(s) stands within {window_words} words in the same sentence. Quoted text is skipped.",
            terms.len(),
            qualifiers.len()
        ),
        Rule::RequiredSection {
            headings,
            statements,
            min_body_chars,
        } => format!(
            "Passes when one of {} heading pattern(s) or {} statement pattern(s) is present; outputs under {min_body_chars} non-blank characters are `indeterminate`.",
            headings.len(),
            statements.len()
        ),
        Rule::RunVariance { threshold } => format!(
            "Computed from the other checks' repeated runs (full mode): passes when the severity-weighted consistency is above {threshold:.2}. Makes no evaluator call."
        ),
        Rule::BaselineDrift {
            max_consistency_drop,
        } => format!(
            "Compares with the saved baseline (else the previous report) of the same document and playbook: fails when a check went from pass to fail or consistency dropped by more than {max_consistency_drop:.2}. Makes no evaluator call."
        ),
    }
}

/// Write one page per check under `dir/<playbook id>/<check id>.md`; returns (check id, path).
pub fn write_pages(dir: &Path, playbook: &Playbook) -> std::io::Result<Vec<(String, PathBuf)>> {
    let folder = dir.join(sanitize(&playbook.id));
    std::fs::create_dir_all(&folder)?;
    let mut out = Vec::new();
    for check in &playbook.checks {
        let path = folder.join(format!("{}.md", sanitize(&check.id)));
        let body = check_markdown(playbook, check);
        // Rewrite only when changed: editors may have the page open.
        if std::fs::read_to_string(&path).ok().as_deref() != Some(body.as_str()) {
            std::fs::write(&path, body)?;
        }
        out.push((check.id.clone(), path));
    }
    Ok(out)
}

fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Path of the generated page of `check_id`, written once per playbook logic hash under the
/// temp folder, for links (LSP `codeDescription`) when a check has no `help_uri`.
pub fn page_path(playbook: &crate::playbook::LoadedPlaybook, check_id: &str) -> Option<PathBuf> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    type Pages = HashMap<String, Vec<(String, PathBuf)>>;
    static WRITTEN: OnceLock<Mutex<Pages>> = OnceLock::new();
    let mut written = WRITTEN
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let key = playbook
        .logic_hash
        .trim_start_matches("sha256:")
        .chars()
        .take(16)
        .collect::<String>();
    if !written.contains_key(&key) {
        let dir = std::env::temp_dir().join("byop-docs").join(&key);
        let pages = write_pages(&dir, &playbook.playbook).ok()?;
        written.insert(key.clone(), pages);
    }
    written[&key]
        .iter()
        .find(|(id, _)| id == check_id)
        .map(|(_, p)| p.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_check_gets_a_page_with_its_question_and_rule() {
        let pb = crate::playbook::builtin();
        let dir = tempfile::tempdir().unwrap();
        let pages = write_pages(dir.path(), &pb.playbook).unwrap();
        assert_eq!(pages.len(), pb.playbook.checks.len());
        let certainty = std::fs::read_to_string(&pages[1].1).unwrap();
        assert!(certainty.contains(&pb.playbook.checks[1].question));
        assert!(certainty.contains("qualifier_window"));
        assert!(certainty.contains("byop-disable-next-line certainty_language"));
    }
}
