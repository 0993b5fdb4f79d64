//! `byop report ID|FILE`: a stored report (or a report JSON file) in another format.

use std::path::{Path, PathBuf};

use super::args::Format;
use super::error::CliError;
use super::output::{self, Rendered, load_report, open_store};
use crate::engine::document::Document;
use crate::engine::playbook;
use crate::model::Report;
use crate::store::Store;
use crate::workspace::boundary::Boundary;
use crate::workspace::files::read_text;
use crate::workspace::{Config, Request, Resolver, doc_key};

pub fn run(
    spec: &str,
    format: Format,
    out: Option<PathBuf>,
    db: Option<PathBuf>,
) -> Result<u8, CliError> {
    let store = open_store(db)?;
    let r = match load_report(spec, &store) {
        Ok(r) => r,
        // Not a report: a stored counterfactual audit with that id, if any.
        Err(e) => match (!Path::new(spec).exists()).then(|| store.get_counterfactual(spec)) {
            Some(Ok(Some(audit))) => return show_audit(&audit, format, out),
            _ => return Err(e),
        },
    };
    show(&r, format, out, Some(&store))
}

fn show_audit(
    audit: &crate::model::counterfactual::Counterfactual,
    format: Format,
    out: Option<PathBuf>,
) -> Result<u8, CliError> {
    use crate::render::counterfactual as render;
    let body = match format {
        Format::Text => render::text(audit),
        Format::Json => render::json(audit),
        Format::Html => render::html(audit),
        Format::Sarif | Format::Junit => {
            return Err(CliError(
                "a counterfactual audit is shown as text, json or html".into(),
            ));
        }
    };
    output::write(out.as_deref(), &body)?;
    Ok(0)
}

pub fn show(
    r: &Report,
    format: Format,
    out: Option<PathBuf>,
    store: Option<&Store>,
) -> Result<u8, CliError> {
    let document = document_of(r);
    let pb = playbook_of(r).ok_or_else(|| {
        CliError(format!(
            "the playbook of report {} (`{}` {}, {}) is not the built-in one nor in this workspace's byop.toml or playbooks/",
            r.report_id, r.playbook_id, r.playbook_version, r.integrity.playbook_logic_hash
        ))
    });
    // Only SARIF needs the playbook's rules; the other formats render from the report alone.
    let pb = match (pb, format) {
        (Ok(pb), _) => pb,
        (Err(e), Format::Sarif) => return Err(e),
        (Err(_), _) => playbook::builtin(),
    };
    let baseline = match store {
        Some(s) => s
            .baseline(
                &doc_key(Path::new(&r.document.path)),
                &r.integrity.playbook_logic_hash,
            )
            .ok()
            .flatten()
            .filter(|b| b.report_id != r.report_id),
        None => None,
    };
    let item = Rendered {
        report: r,
        document: document.as_ref(),
        playbook: &pb.playbook,
        baseline: baseline.as_ref(),
        verbose: false,
    };
    let body = output::render(format, &[item])?;
    output::write_rendered(format, out.as_deref(), &body)?;
    Ok(0)
}

/// The document, for highlighting and fixes, only while it is still the text the report was
/// made from (same inputs fingerprint); otherwise the byte ranges would point at other words.
fn document_of(r: &Report) -> Option<Document> {
    // The path comes from the report, which may be a crafted file: read it only inside
    // this workspace, as a regular file within the size limit.
    let roots = Config::discover(&std::env::current_dir().ok()?)
        .map(|c| vec![c.root])
        .unwrap_or_default();
    let path = &Boundary::new(roots.clone())
        .confined(Path::new(&r.document.path))
        .ok()?;
    let text = read_text(path).ok()?;
    Resolver::new()
        .resolve(Request {
            text,
            path: Some(path),
            roots,
            ..Default::default()
        })
        .ok()
        .filter(|d| d.doc.fingerprint() == r.integrity.inputs_fingerprint)
        .map(|d| d.doc)
}

/// The playbook a report was made under, found by its logic hash among the built-in one,
/// the workspace byop.toml's and `playbooks/*.json`.
fn playbook_of(r: &Report) -> Option<playbook::LoadedPlaybook> {
    let wanted = &r.integrity.playbook_logic_hash;
    let builtin = playbook::builtin();
    if &builtin.logic_hash == wanted {
        return Some(builtin);
    }
    let policy = crate::workspace::trust::Policy::discover(&std::env::current_dir().ok()?).ok()?;
    let cfg = &policy.config;
    let from_config = policy
        .playbook
        .clone()
        .and_then(|(spec, dir)| playbook::resolve(&spec, &dir).ok());
    let from_folder = std::fs::read_dir(cfg.root.join("playbooks"))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| playbook::load_file(&e.path()).ok());
    from_config
        .into_iter()
        .chain(from_folder)
        .find(|pb| &pb.logic_hash == wanted)
}
