//! `byop log [FILE] [--format json] [--verify]`: the audit log, or a check of its chain.

use std::path::PathBuf;

use super::args::HistoryFormat;
use super::error::CliError;
use super::history::existing_doc_key;
use super::output::{self, open_store};
use crate::model::AuditRow;
use crate::store::{ChainBreak, Verified};

pub fn run(
    file: Option<PathBuf>,
    format: HistoryFormat,
    verify: bool,
    db: Option<PathBuf>,
    limit: usize,
) -> Result<u8, CliError> {
    let store = open_store(db)?;
    if verify {
        return Ok(print_verdict(&store.verify_audit()?));
    }
    let key = file.as_deref().map(existing_doc_key).transpose()?;
    let rows = store.audit_log(key.as_deref(), limit)?;
    let body = match format {
        HistoryFormat::Json => serde_json::to_string_pretty(&rows)? + "\n",
        HistoryFormat::Text => rows.iter().map(line).collect(),
    };
    output::write(None, &body)?;
    Ok(0)
}

/// Exit 0 only for a log that chains under this user's key (and matches its head).
fn print_verdict(verdict: &Result<Verified, ChainBreak>) -> u8 {
    match verdict {
        Ok(v) => {
            let note = if v.anchored {
                ""
            } else {
                " (no head recorded for this database here: it was moved or copied, so removed trailing rows cannot be seen)"
            };
            crate::render::terminal::print_line(&format!(
                "audit log intact: {} row(s){note}",
                v.rows
            ));
            0
        }
        Err(b) if b.foreign => {
            crate::render::terminal::print_line(&format!(
                "audit log is not this user's: {}",
                b.reason
            ));
            1
        }
        Err(b) => {
            crate::render::terminal::print_line(&format!(
                "audit log broken at row {}: {}",
                b.id, b.reason
            ));
            1
        }
    }
}

fn line(r: &AuditRow) -> String {
    let e = &r.event;
    let mut s = format!(
        "{:>6} {} {:<10} {} {}",
        r.id,
        e.at,
        e.state.as_str(),
        e.request_id.chars().take(8).collect::<String>(),
        e.document
    );
    if let Some(code) = &e.code {
        s += &format!(" [{code}]");
    }
    if let Some(c) = &e.call {
        s += &format!(
            " {}/{} {} run {} attempt {} → {}{} {} ms",
            c.provider,
            c.model,
            c.check_id,
            c.run,
            c.attempt,
            c.outcome,
            c.status.map(|s| format!(" (HTTP {s})")).unwrap_or_default(),
            c.latency_ms
        );
        if c.cached {
            s += " cached";
        }
    }
    s + "\n"
}
