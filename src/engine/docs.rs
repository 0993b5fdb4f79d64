//! Check documentation generated from playbook data, so every check — built-in or
//! from a user's playbook — has a page that diagnostics and SARIF can link to.

use crate::engine::playbook::LoadedPlaybook;
use crate::model::Check;

/// Markdown page for check number `i` of the playbook.
pub fn check_markdown(playbook: &LoadedPlaybook, i: usize) -> String {
    let pb = &playbook.playbook;
    let check: &Check = &pb.checks[i];
    let mut md = format!(
        "# `{}`\n\nPlaybook `{}` {} · severity **{}** · detection **{}**\n\n> {}\n\n## How it is evaluated\n\n{}\n",
        check.id,
        pb.id,
        pb.version,
        check.severity.as_str(),
        check.detection_method.kind.as_str(),
        check.question,
        check.detection_method.instructions
    );
    if let (Some(rule), Some(Some(compiled))) = (&check.rules, playbook.compiled.get(i)) {
        md += &format!(
            "\n## Local rule: `{}`\n\n{}\n",
            rule.kind,
            compiled.describe()
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
        md += &format!("\n## What to do\n\n{}\n", r.text);
    }
    md += &format!(
        "\n## Suppressing\n\n`<!-- byop-disable-next-line {0} -->` above a line, or `<!-- byop-disable-file {0} -->` anywhere. Suppressed findings stay listed in the report.\n\n---\nThis is an observability check, not legal advice.\n",
        check.id
    );
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_check_gets_a_page_with_its_question_and_rule() {
        let pb = crate::engine::playbook::builtin();
        let certainty = check_markdown(&pb, 1);
        assert!(certainty.contains(&pb.playbook.checks[1].question));
        assert!(certainty.contains("qualifier_window"));
        assert!(certainty.contains("byop-disable-next-line certainty_language"));
        for i in 0..pb.playbook.checks.len() {
            assert!(check_markdown(&pb, i).contains(&pb.playbook.checks[i].id));
        }
    }
}
