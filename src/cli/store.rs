//! `byop store prune|vacuum`: keep the store small.

use std::path::Path;

use super::args::StoreAction;
use super::error::CliError;
use super::output::{self, open_store};
use crate::store::{PruneRules, Pruned};

pub fn run(action: StoreAction) -> Result<u8, CliError> {
    match action {
        StoreAction::Prune {
            keep_last,
            older_than,
            baselines,
            dry_run,
            db,
        } => {
            let store = open_store(db)?;
            let rules = PruneRules {
                keep_last,
                older_than_days: older_than,
                baselines,
                dry_run,
            };
            let pruned = store.prune(&rules, &still_there)?;
            output::write(None, &summary(&pruned, dry_run))?;
            Ok(0)
        }
        StoreAction::Vacuum { db } => {
            let store = open_store(db)?;
            let (before, after) = store.vacuum()?;
            output::write(
                None,
                &format!(
                    "Vacuumed {}: {} → {}\n",
                    store.path().display(),
                    kb(before),
                    kb(after)
                ),
            )?;
            Ok(0)
        }
    }
}

/// A document key names a file by its absolute path; anything else (an editor's URI for
/// an unsaved buffer) cannot be checked and is kept.
fn still_there(key: &str) -> bool {
    let path = Path::new(key);
    !path.is_absolute() || path.exists()
}

fn summary(p: &Pruned, dry_run: bool) -> String {
    let verb = if dry_run { "Would remove" } else { "Removed" };
    format!(
        "{verb} {} report(s), {} cached answer(s), {} baseline(s); {} document(s) no longer exist.\n",
        p.reports, p.responses, p.baselines, p.gone_documents
    )
}

fn kb(bytes: u64) -> String {
    format!("{:.1} KB", bytes as f64 / 1024.0)
}
