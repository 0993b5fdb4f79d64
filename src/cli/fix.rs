//! `byop check --fix`: apply the checks' declared fixes to the files — the safe ones
//! (inserting a missing section) by default, the others with `--unsafe-fixes`;
//! `--dry-run` prints a unified diff instead and exits 1 when there is one.

use std::io::Write;
use std::path::Path;

use super::args::CheckArgs;
use super::error::CliError;
use crate::engine::fixes::{self, FixTarget};
use crate::model::{Edit, Report, fix};
use crate::workspace::Resolved;

pub fn apply(args: &CheckArgs, checked: &[(&Resolved, &Report)]) -> Result<u8, CliError> {
    let mut changed = 0;
    let mut diff = String::new();
    for (resolved, report) in checked {
        let doc = &resolved.doc;
        let edits = edits_for(resolved, report, args.unsafe_fixes);
        if edits.is_empty() {
            continue;
        }
        let fixed = fix::apply(&doc.text, &edits);
        if fixed == doc.text {
            continue;
        }
        changed += 1;
        let label = doc.label();
        if args.dry_run {
            diff += &unified_diff(&doc.text, &fixed, &label);
        } else {
            let path = doc.path.as_deref().unwrap_or(Path::new(&label));
            write_atomically(path, &fixed)?;
            crate::render::terminal::eprint_line(&format!(
                "byop: fixed {label} ({} edit(s))",
                edits.len()
            ));
        }
    }
    if args.dry_run {
        super::output::write(None, &diff)?;
        return Ok(u8::from(changed > 0));
    }
    if changed == 0 {
        crate::render::terminal::eprint_line("byop: nothing to fix");
    }
    Ok(0)
}

/// The safe fixes of every finding; with `unsafe_fixes` also each located finding's own fix.
fn edits_for(resolved: &Resolved, report: &Report, unsafe_fixes: bool) -> Vec<Edit> {
    let doc = &resolved.doc;
    let target = FixTarget::of(doc);
    let checks = &resolved.playbook.playbook.checks;
    let findings = checks
        .iter()
        .filter_map(|c| Some((c, report.check(&c.id)?)));
    let mut edits = fixes::fix_all(&target, findings.clone());
    if unsafe_fixes {
        for (check, result) in findings.filter(|(_, r)| fixes::is_finding(r)) {
            for c in &result.evidence_citations {
                let own = fixes::for_finding(&target, Some(check), result, c.byte_range)
                    .into_iter()
                    .find(|f| f.preferred && !f.safe);
                edits.extend(own.into_iter().flat_map(|f| f.edits));
            }
        }
    }
    edits.sort_by_key(|e| (e.start, e.end));
    edits.dedup();
    edits
}

pub fn unified_diff(old: &str, new: &str, label: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{label}"), &format!("b/{label}"))
        .to_string()
}

/// Through a temporary file in the same folder renamed into place: never half a file.
pub(super) fn write_atomically(path: &Path, text: &str) -> Result<(), CliError> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .map_err(|e| CliError(format!("{}: cannot write: {e}", path.display())))?;
    tmp.write_all(text.as_bytes())?;
    tmp.persist(path)
        .map_err(|e| CliError(format!("{}: cannot write: {}", path.display(), e.error)))?;
    Ok(())
}
