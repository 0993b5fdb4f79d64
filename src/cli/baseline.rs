//! `byop baseline save|show FILE`: the report a document's drift is measured against.

use std::path::Path;

use super::args::BaselineAction;
use super::error::CliError;
use super::history::existing_doc_key;
use super::output::open_store;
use crate::engine::playbook;

pub fn run(action: BaselineAction) -> Result<u8, CliError> {
    match action {
        BaselineAction::Save { file, db, playbook } => {
            let store = open_store(db)?;
            let key = existing_doc_key(&file)?;
            let hash = playbook_hash_for(&file, playbook.as_deref())?;
            let latest = store.latest_report(&key, &hash, None)?.ok_or_else(|| {
                CliError(format!(
                    "{}: no report yet under this playbook; run `byop check {}` first",
                    file.display(),
                    file.display()
                ))
            })?;
            store.save_baseline(&key, &latest.report_id)?;
            crate::render::terminal::print_line(&format!(
                "Saved report {} ({}, {}) as the baseline of {}",
                latest.report_id,
                latest.summary.overall_status.as_str(),
                latest.timestamp,
                file.display()
            ));
            Ok(0)
        }
        BaselineAction::Show {
            file,
            format,
            db,
            playbook,
        } => {
            let store = open_store(db)?;
            let key = existing_doc_key(&file)?;
            let hash = playbook_hash_for(&file, playbook.as_deref())?;
            let base = store.baseline(&key, &hash)?.ok_or_else(|| {
                CliError(format!(
                    "{}: no baseline saved (use `byop baseline save`)",
                    file.display()
                ))
            })?;
            super::report::show(&base, format, None, None)
        }
    }
}

fn playbook_hash_for(file: &Path, spec: Option<&str>) -> Result<String, CliError> {
    let pb = match spec {
        Some(s) => playbook::resolve(s, &std::env::current_dir()?)?,
        None => match crate::workspace::trust::Policy::discover(file)?.playbook {
            Some((s, dir)) => playbook::resolve(&s, &dir)?,
            None => playbook::builtin(),
        },
    };
    Ok(pb.logic_hash)
}
