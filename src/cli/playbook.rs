//! `byop playbook list|validate|hash`.

use std::path::PathBuf;

use super::args::PlaybookAction;
use super::error::CliError;
use crate::engine::playbook;
use crate::workspace::Config;

pub fn run(action: PlaybookAction) -> Result<u8, CliError> {
    match action {
        PlaybookAction::List => {
            for id in playbook::builtin_ids() {
                let Some(b) = playbook::builtin_by_id(id) else {
                    continue;
                };
                crate::render::terminal::print_line(&format!(
                    "{id}\t{}\tbuilt-in\t{}",
                    b.playbook.version, b.logic_hash
                ));
            }
            let root = Config::discover(&std::env::current_dir()?)?.root;
            let dir = root.join("playbooks");
            let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
                .map(|rd| {
                    rd.filter_map(Result::ok)
                        .map(|e| e.path())
                        .filter(|p| p.extension().is_some_and(|x| x == "json"))
                        .collect()
                })
                .unwrap_or_default();
            files.sort();
            for f in files {
                match playbook::load_file(&f) {
                    Ok(pb) => crate::render::terminal::print_line(&format!(
                        "{}\t{}\t{}\t{}",
                        pb.playbook.id,
                        pb.playbook.version,
                        f.display(),
                        pb.logic_hash
                    )),
                    Err(e) => crate::render::terminal::print_line(&format!(
                        "(invalid)\t-\t{}\t{}",
                        f.display(),
                        e.message
                    )),
                }
            }
            Ok(0)
        }
        PlaybookAction::Validate { path } => {
            // The published schema first: its messages are the ones editors show.
            if let Ok(text) = std::fs::read_to_string(&path) {
                let errors = playbook::schema_errors(&text, &path.display().to_string());
                if !errors.is_empty() {
                    let lines: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
                    return Err(CliError(lines.join("\n")));
                }
            }
            let pb = playbook::load_file(&path)?;
            crate::render::terminal::print_line(&format!(
                "{}: ok — playbook {} {} with {} checks, {}",
                path.display(),
                pb.playbook.id,
                pb.playbook.version,
                pb.playbook.checks.len(),
                pb.logic_hash
            ));
            Ok(0)
        }
        PlaybookAction::Hash { playbook: spec } => {
            let pb = playbook::resolve(&spec, &std::env::current_dir()?)?;
            crate::render::terminal::print_line(&pb.logic_hash);
            Ok(0)
        }
    }
}
