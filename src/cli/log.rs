//! `byop log [FILE] [--format json] [--verify]`: the audit log, or a check of its chain.

use std::path::PathBuf;

use super::args::HistoryFormat;
use super::error::CliError;
use super::history::existing_doc_key;
use super::output::{self, open_store};
use crate::model::AuditRow;

pub fn run(
    file: Option<PathBuf>,
    format: HistoryFormat,
    verify: bool,
    db: Option<PathBuf>,
    limit: usize,
) -> Result<u8, CliError> {
    let store = open_store(db)?;
    if verify {
        return match store.verify_audit()? {
            Ok(n) => {
                println!("audit log intact: {n} row(s)");
                Ok(0)
            }
            Err(b) => {
                println!("audit log broken at row {}: {}", b.id, b.reason);
                Ok(1)
            }
        };
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

fn line(r: &AuditRow) -> String {
    let e = &r.event;
    let mut s = format!(
        "{:>6} {} {:<10} {} {}",
        r.id,
        e.at,
        e.state.as_str(),
        &e.request_id[..e.request_id.len().min(8)],
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
