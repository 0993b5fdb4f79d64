//! `byop store prune|vacuum`: keep the store small; `byop store export|import`: move
//! rows between stores (see `store::transfer`).

use std::path::Path;

use super::args::StoreAction;
use super::error::CliError;
use super::output::{self, open_store};
use crate::store::{Moved, PruneRules, Pruned};

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
        StoreAction::Export { since, db } => {
            let since = since.as_deref().map(since_time).transpose()?;
            let store = open_store(db)?;
            let key = crate::store::transfer_key()?;
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            let moved = store.export(since.as_deref(), &key, &mut out)?;
            std::io::Write::flush(&mut out)?;
            eprintln!("Exported {}.", counts(&moved));
            Ok(0)
        }
        StoreAction::Import { file, db } => {
            let store = open_store(db)?;
            let key = crate::store::transfer_key()?;
            let shown = file.display().to_string();
            let f = std::fs::File::open(&file)
                .map_err(|e| CliError(format!("cannot read {shown}: {e}")))?;
            let moved = store.import(&mut std::io::BufReader::new(f), &shown, &key)?;
            output::write(
                None,
                &format!(
                    "Imported {} into {}.\n",
                    counts(&moved),
                    store.path().display()
                ),
            )?;
            Ok(0)
        }
    }
}

/// `--since`: a day (midnight UTC) or an RFC 3339 time.
fn since_time(text: &str) -> Result<String, CliError> {
    let full = if text.len() == 10 {
        format!("{text}T00:00:00Z")
    } else {
        text.to_string()
    };
    crate::store::timestamp_ns(&full)
        .map(|_| full)
        .ok_or_else(|| {
            CliError(format!(
                "--since {text}: not a date (YYYY-MM-DD) or an RFC 3339 time"
            ))
        })
}

fn counts(m: &Moved) -> String {
    format!(
        "{} report(s), {} rerun(s), {} baseline(s), {} counterfactual audit(s)",
        m.reports, m.reruns, m.baselines, m.counterfactual_audits
    )
}

/// A document key names a file by its absolute path; anything else (an editor's URI for
/// an unsaved buffer) cannot be checked and is kept.
fn still_there(key: &str) -> bool {
    let path = Path::new(key);
    !path.is_absolute() || path.exists()
}

fn summary(p: &Pruned, dry_run: bool) -> String {
    let verb = if dry_run { "Would remove" } else { "Removed" };
    let audits = if p.counterfactual_audits > 0 {
        format!(", {} counterfactual audit(s)", p.counterfactual_audits)
    } else {
        String::new()
    };
    format!(
        "{verb} {} report(s), {} cached answer(s), {} baseline(s){audits}; {} document(s) no longer exist.\n",
        p.reports, p.responses, p.baselines, p.gone_documents
    )
}

fn kb(bytes: u64) -> String {
    format!("{:.1} KB", bytes as f64 / 1024.0)
}
