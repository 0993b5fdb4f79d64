//! What a document may do to its own inputs: be named on the command line (never a link
//! in locked mode), name companions (never itself), name files in a workspace (never the
//! home folder or `/`), choose its `as_of` date (not in locked mode), and be judged at all
//! (a body, and the source its playbook reads). Part of the one trust module.

use std::path::Path;

use super::inside;
use crate::workspace::config::FILE_NAME;

/// A document named on the command line in locked mode (a CI job's shell glob hands over
/// whatever the repository committed): never a symbolic link, and inside the working
/// folder's workspace `root` once every link on the way is followed — a committed link
/// would send any file of the runner (`.git/config` holds the checkout credential) to the
/// evaluator and into the uploaded report. Unlocked, the paths you type are your choice.
pub fn document_path(path: &Path, root: &Path, locked: bool) -> Result<(), String> {
    if !locked {
        return Ok(());
    }
    let why = if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        "it is a symbolic link".to_string()
    } else {
        match inside(root, path) {
            Ok(()) => return Ok(()),
            Err(why) => why,
        }
    };
    Err(format!(
        "{}: refused in locked mode: {why}; a document checked by a gate must be a regular file of the workspace (check the folder, `byop check .`, which skips links, or name the file itself)",
        path.display()
    ))
}

/// May `root` (a folder the user works in: the CLI's working folder, an editor's workspace
/// folder) be a workspace whose files front matter may name? Not the home folder or `/`,
/// which hold private files (`~/.ssh`, `~/.aws`), never a workspace — unless it is marked
/// as one itself (`byop.toml` or `.git` there). The one rule the CLI and the language
/// server share.
pub fn may_be_root(root: &Path, marked: bool) -> bool {
    let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let dir = real(root);
    let private = dir == Path::new("/") || std::env::home_dir().is_some_and(|h| real(&h) == dir);
    marked || !private
}

/// An editor's workspace folder is marked when it holds a `byop.toml` or a `.git`.
pub fn marked_folder(root: &Path) -> bool {
    root.join(FILE_NAME).is_file() || root.join(".git").exists()
}

/// Front matter `as_of` (the date an evidence set must be in force at) moves the clock the
/// document is judged by: in locked mode it is ignored (today applies), with the notice.
pub fn front_matter_as_of(as_of: &mut Option<String>, locked: bool) -> Option<String> {
    let taken = as_of.take_if(|_| locked)?;
    Some(format!(
        "ignored as_of = \"{taken}\" from the front matter: locked mode (a document may not choose the date its evidence is judged at; today applies)"
    ))
}

/// Does the document's body show any text when rendered? Markup no reader sees (an HTML
/// comment, a hidden element, a link reference definition: its layout's unrendered spans,
/// built once per version and shared with the rules) is not text: a memo in front matter
/// under a body of only `<!-- -->` has nothing to check either.
fn shows_text(doc: &crate::engine::document::Document) -> bool {
    let mut at = doc.body.0;
    let end = doc.body.1;
    for (s, e) in doc
        .layout()
        .unrendered()
        .iter()
        .copied()
        .chain([(end, end)])
    {
        if s > at && !doc.text[at..s.min(end)].trim().is_empty() {
            return true;
        }
        at = at.max(e);
    }
    false
}

/// A gate judges a document only when it has something to judge: a body (front matter is
/// never evaluated, so a memo written in front matter, or nothing at all, would be checked
/// as an empty output) and, when the playbook's high checks read the `source` companion, a
/// source that is not empty. The document decides whether its own evidence exists, so leaving it out must
/// not turn those checks into an `indeterminate` the gate passes over: an input error —
/// unless the document names an evidence set (a structured answer resting on its evidence,
/// which the evidence checks judge); then [`unjudged`] makes the gate exit 3.
pub fn gate_inputs(
    doc: &crate::engine::document::Document,
    playbook: &crate::model::Playbook,
) -> Result<(), String> {
    let (has_source, has_evidence) = (doc.source.is_some(), doc.evidence.is_some());
    if !shows_text(doc) {
        return Err(
            "nothing to check: the document has no text after its front matter (front matter is never evaluated; write the output below the closing `---`)"
                .into(),
        );
    }
    let needs = source_checks(playbook);
    if has_evidence || needs.is_empty() {
        return Ok(());
    }
    if let Some(empty) = doc.source.as_ref().filter(|s| s.is_blank()) {
        return Err(format!(
            "the `source` companion {} is empty: playbook `{}` checks {} (high) against the document's source, and an empty source grounds nothing (name the real file)",
            empty.path.display(),
            playbook.id,
            needs.join(", ")
        ));
    }
    if !has_source {
        return Err(format!(
            "no `source` companion: playbook `{}` checks {} (high) against the document's source; name it under `byop:` in the front matter (`source: FILE`) or pass --source FILE",
            playbook.id,
            needs.join(", ")
        ));
    }
    Ok(())
}

/// Why a gate may not pass a document whose playbook's high checks read a `source` it does
/// not have, or that is empty (it names an evidence set instead): those checks could only say
/// `indeterminate`, so the gate says "not evaluated" (exit 3), whatever `--fail-on` says
/// except `never`.
pub fn unjudged(
    playbook: &crate::model::Playbook,
    source: Option<&crate::engine::document::Companion>,
) -> Option<String> {
    let needs = source_checks(playbook);
    if needs.is_empty() {
        return None;
    }
    match source {
        None => Some(format!(
            "no `source` companion for {} (high)",
            needs.join(", ")
        )),
        Some(s) if s.is_blank() => Some(format!(
            "the `source` companion {} is empty, for {} (high)",
            s.path.display(),
            needs.join(", ")
        )),
        Some(_) => None,
    }
}

/// The playbook's high checks whose rule kind reads the `source` companion.
fn source_checks(playbook: &crate::model::Playbook) -> Vec<&str> {
    playbook
        .checks
        .iter()
        .filter(|c| c.severity == crate::model::Severity::High)
        .filter(|c| {
            (c.rules.as_ref())
                .is_some_and(|r| crate::engine::rules::READS_SOURCE.contains(&r.kind.as_str()))
        })
        .map(|c| c.id.as_str())
        .collect()
}

/// A companion (`source`, `prompt`, `evidence`) must not be the document itself (the same
/// file after symlinks and `./`/`..`, or a hard link to it): a document that is its own
/// source grounds every quote and figure it invents, and its own prompt sets them all aside.
pub fn not_the_document(doc: Option<&Path>, companion: &Path) -> Result<(), String> {
    let Some(doc) = doc else {
        return Ok(());
    };
    let same_path = std::fs::canonicalize(doc).is_ok_and(|d| d == companion);
    #[cfg(unix)]
    let same_file = {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::metadata(doc), std::fs::metadata(companion)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    };
    #[cfg(not(unix))]
    let same_file = false;
    if same_path || same_file {
        return Err(
            "it is this document itself: a document cannot be its own evidence (name the real file)"
                .into(),
        );
    }
    Ok(())
}
