//! Fixes as engine data: a check declares its fix kind in the playbook
//! (`remediation.fix`), and the engine turns it into edits for a finding, for
//! every front end (quick fixes, `byop check --fix`, SARIF `fixes`). A user's
//! playbook gets fixes without Rust.

mod place;
mod qualify;
mod target;

use crate::engine::suppress;
use crate::model::{Check, CheckResult, Edit, Fix, FixSpec, SectionPlacement, Verdict};

pub use qualify::qualify;
pub use target::FixTarget;

/// Fixes for one finding (`span`: the cited text, if any): the check's own fix first,
/// then suppressing it on this line and in this file.
pub fn for_finding(
    t: &FixTarget,
    check: Option<&Check>,
    result: &CheckResult,
    span: Option<(usize, usize)>,
) -> Vec<Fix> {
    let mut out: Vec<Fix> = check
        .and_then(|c| own_fix(t, c, result, span))
        .into_iter()
        .collect();
    if let Some((s, _)) = span {
        let at = t.line_index.line_start(t.line_index.line_of(s));
        out.push(unsafe_fix(
            format!("Suppress {} on this line", result.check_id),
            false,
            vec![Edit::insert(
                at,
                format!("{}\n", suppress::next_line_comment(&result.check_id)),
            )],
        ));
    }
    let end = t.text.len();
    let sep = if t.text.ends_with('\n') || t.text.is_empty() {
        ""
    } else {
        "\n"
    };
    out.push(unsafe_fix(
        format!("Suppress {} in this file", result.check_id),
        false,
        vec![Edit::insert(
            end,
            format!("{sep}{}\n", suppress::file_comment(&result.check_id)),
        )],
    ));
    out
}

/// The safe fixes (section insertions) of every check with a finding, once each: what
/// `source.fixAll` and `byop check --fix` apply. A check that was not evaluated at all
/// (indeterminate with no run) has no finding to fix.
pub fn fix_all<'c>(
    t: &FixTarget,
    findings: impl IntoIterator<Item = (&'c Check, &'c CheckResult)>,
) -> Vec<Edit> {
    findings
        .into_iter()
        .filter(|(_, r)| is_finding(r))
        .filter_map(|(c, r)| own_fix(t, c, r, None))
        .filter(|f| f.safe)
        .flat_map(|f| f.edits)
        .collect()
}

/// A fail, or an indeterminate result that something produced: a run, or cited spans
/// (a local rule's candidates).
pub fn is_finding(r: &CheckResult) -> bool {
    match r.result {
        Verdict::Pass => false,
        Verdict::Fail => true,
        Verdict::Indeterminate => !r.raw_runs.is_empty() || !r.evidence_citations.is_empty(),
    }
}

/// The check's declared fix for this finding, if it has one that applies here.
fn own_fix(
    t: &FixTarget,
    check: &Check,
    result: &CheckResult,
    span: Option<(usize, usize)>,
) -> Option<Fix> {
    let spec = check.remediation.as_ref()?.fix.as_ref()?;
    match spec {
        FixSpec::InsertSection {
            heading,
            template,
            placement,
            list_assumptions,
            title,
        } => {
            if place::has_heading(t, heading) {
                return None; // already there: fixing twice must not add it twice
            }
            let items: Vec<String> = if *list_assumptions && !result.assumptions.is_empty() {
                result
                    .assumptions
                    .iter()
                    .map(|a| format!("- {a}"))
                    .collect()
            } else {
                vec![format!("- {template}")]
            };
            let edit = match placement {
                SectionPlacement::AfterTitle => {
                    let at = place::after_title(t);
                    Edit::insert(at, format!("## {heading}\n\n{}\n\n", items.join("\n")))
                }
                SectionPlacement::End => {
                    let sep = place::separator_at_end(t.text);
                    let at = t.text.len();
                    Edit::insert(at, format!("{sep}## {heading}\n\n{}\n", items.join("\n")))
                }
            };
            let title = title
                .clone()
                .unwrap_or_else(|| format!("Insert a \"{heading}\" section"));
            Some(Fix {
                title,
                preferred: true,
                safe: true,
                edits: vec![edit],
            })
        }
        FixSpec::InsertStatement { text, title } => {
            let at = place::paragraph_end(t, span.map(|s| s.0).unwrap_or(t.body.0));
            let title = title
                .clone()
                .unwrap_or_else(|| "Insert a statement after this paragraph".into());
            Some(unsafe_fix(
                title,
                true,
                vec![Edit::insert(at, format!("\n\n{text}"))],
            ))
        }
        FixSpec::RestoreSourceWords { title } => source_words(t, result, span, title.clone()),
        FixSpec::QualifyTerm { condition } => {
            let (s, e) = span?;
            let q = qualify(t.text.get(s..e)?)?;
            let mut edits = vec![Edit {
                start: s,
                end: e,
                new_text: q.clone(),
            }];
            if q.to_lowercase().starts_with("appear") {
                let at = place::sentence_end(t, e);
                edits.push(Edit::insert(at, condition.clone()));
            }
            Some(unsafe_fix(format!("Qualify: \"{q}\""), true, edits))
        }
    }
}

/// A misquote's fix, computed by the grounding check: the source's exact words in place of
/// the quoted ones. Not applied by `--fix` (the author should see what changed).
fn source_words(
    t: &FixTarget,
    result: &CheckResult,
    span: Option<(usize, usize)>,
    title: Option<String>,
) -> Option<Fix> {
    let (s, e) = span?;
    let c = result
        .evidence_citations
        .iter()
        .find(|c| c.byte_range == Some((s, e)))?;
    let words = c.source.as_ref()?.replacement.clone()?;
    (e <= t.text.len() && t.text.get(s..e)? != words).then(|| {
        unsafe_fix(
            title.unwrap_or_else(|| "Replace the misquote with the source's exact words".into()),
            true,
            vec![Edit {
                start: s,
                end: e,
                new_text: words,
            }],
        )
    })
}

fn unsafe_fix(title: String, preferred: bool, edits: Vec<Edit>) -> Fix {
    Fix {
        title,
        preferred,
        safe: false,
        edits,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::document::Document;
    use crate::engine::{playbook, runner};
    use crate::model::fix::apply;

    const ESCALATION: &str = "This analysis is not legal advice; consult a qualified lawyer licensed in the relevant jurisdiction before relying on it.";

    fn fixes_for(
        text: &str,
        check_id: &str,
        span: Option<(usize, usize)>,
        assumptions: &[&str],
    ) -> Vec<Fix> {
        let pb = playbook::builtin();
        let doc = Document::parse(text.into(), None).unwrap();
        let report = runner::run_deterministic(&pb, &doc);
        let mut r = report.check(check_id).unwrap().clone();
        r.assumptions = assumptions.iter().map(|a| a.to_string()).collect();
        let check = pb.playbook.checks.iter().find(|c| c.id == check_id);
        for_finding(&FixTarget::of(&doc), check, &r, span)
    }

    #[test]
    fn escalation_goes_after_the_paragraph_and_assumptions_after_front_matter() {
        let text =
            "---\nbyop: {}\n---\n# Memo\n\nFirst para line one.\nLine two.\n\nSecond para.\n";
        let at = text.find("line one").unwrap();
        let fixes = fixes_for(text, "escalation_signal", Some((at, at + 4)), &[]);
        let fixed = apply(text, &fixes[0].edits);
        assert!(
            fixed.contains(&format!("Line two.\n\n{ESCALATION}\n\nSecond para.")),
            "{fixed}"
        );
        assert_eq!(fixes[1].title, "Suppress escalation_signal on this line");
        assert!(
            apply(text, &fixes[1].edits).contains(
                "\n<!-- byop-disable-next-line escalation_signal -->\nFirst para line one."
            )
        );
        let a = fixes_for(
            text,
            "assumption_disclosure",
            None,
            &["Delaware law applies."],
        );
        let fixed = apply(text, &a[0].edits);
        assert!(
            fixed.starts_with(
                "---\nbyop: {}\n---\n# Memo\n\n## Assumptions\n\n- Delaware law applies.\n\n"
            ),
            "{fixed}"
        );
    }

    #[test]
    fn a_user_playbook_declares_its_own_fix_kinds() {
        let json = r#"{"id":"mine","version":"1","checks":[{"id":"risks","severity":"medium",
            "question":"Does it list risks?","detection_method":{"type":"deterministic","instructions":"I"},
            "rules":{"kind":"required_section","headings":["^#+\\s*risks"],"min_body_chars":1},
            "remediation":{"text":"Add a risk section.","fix":{"kind":"insert_section","heading":"Risks","template":"[Name the main risks.]"}}}]}"#;
        let pb = playbook::parse(json, "mine.json").unwrap();
        let loaded = playbook::LoadedPlaybook::from_playbook(pb);
        let text = "# Memo\n\nAll fine.\n";
        let doc = Document::parse(text.into(), None).unwrap();
        let report = runner::run_deterministic(&loaded, &doc);
        let edits = fix_all(
            &FixTarget::of(&doc),
            loaded.playbook.checks.iter().zip(&report.check_results),
        );
        assert_eq!(
            apply(text, &edits),
            "# Memo\n\nAll fine.\n\n## Risks\n\n- [Name the main risks.]\n"
        );
        let fixes = for_finding(
            &FixTarget::of(&doc),
            loaded.playbook.checks.first(),
            &report.check_results[0],
            None,
        );
        assert_eq!(fixes[0].title, "Insert a \"Risks\" section");
        assert!(fixes[0].safe && fixes[0].preferred);
    }

    #[test]
    fn qualifying_a_term_adds_the_condition_at_the_sentence_end() {
        let text = "The clause is compliant with the rules. Next.";
        let s = text.find("is compliant").unwrap();
        let fixes = fixes_for(text, "certainty_language", Some((s, s + 12)), &[]);
        assert_eq!(fixes[0].title, "Qualify: \"appears to be compliant\"");
        assert_eq!(
            apply(text, &fixes[0].edits),
            "The clause appears to be compliant with the rules, subject to [conditions]. Next."
        );
    }

    #[test]
    fn placement_follows_the_layout_not_the_first_stop_or_line() {
        // The sentence goes on past an abbreviation; the condition lands before its stop.
        let text = "The clause is compliant, e.g. with Sec. 4 of the rules. Next.";
        let s = text.find("is compliant").unwrap();
        let fixes = fixes_for(text, "certainty_language", Some((s, s + 12)), &[]);
        assert_eq!(
            apply(text, &fixes[0].edits),
            "The clause appears to be compliant, e.g. with Sec. 4 of the rules, subject to [conditions]. Next."
        );
        // A statement goes after the whole list holding the finding, not after its line.
        let text = "# Memo\n\n- first point\n- second point\n\nClosing.\n";
        let at = text.find("first").unwrap();
        let fixes = fixes_for(text, "escalation_signal", Some((at, at + 5)), &[]);
        let fixed = apply(text, &fixes[0].edits);
        assert!(
            fixed.contains(&format!("- second point\n\n{ESCALATION}\n\nClosing.")),
            "{fixed}"
        );
    }
}
