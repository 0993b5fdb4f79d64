//! `byop log [FILE] [--format json] [--verify]`: the audit log, or a check of its chain;
//! `byop log --stats [--since DATE]`: its summary.

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

/// `--stats`: the whole log (or its rows since DATE) summed up.
pub fn stats(
    format: HistoryFormat,
    since: Option<&str>,
    db: Option<PathBuf>,
) -> Result<u8, CliError> {
    let since = since.map(normalize_since).transpose()?;
    let store = open_store(db)?;
    let rows = store.audit_log(None, usize::MAX)?;
    let st = crate::engine::audit_stats::summarise(&rows, since.as_deref());
    let body = match format {
        HistoryFormat::Json => serde_json::to_string_pretty(&st)? + "\n",
        HistoryFormat::Text => crate::engine::audit_stats::text(&st),
    };
    output::write(None, &body)?;
    Ok(0)
}

/// `--since`: a date (its start, UTC) or an RFC 3339 time, as the log's UTC text.
fn normalize_since(s: &str) -> Result<String, CliError> {
    use time::format_description::well_known::Rfc3339;
    let s = s.trim();
    if let Ok(t) = time::OffsetDateTime::parse(s, &Rfc3339) {
        let utc = t.to_offset(time::UtcOffset::UTC);
        return Ok(utc.format(&Rfc3339).unwrap_or_else(|_| s.to_string()));
    }
    let date = time::macros::format_description!("[year]-[month]-[day]");
    time::Date::parse(s, &date)
        .map(|d| format!("{d}T00:00:00Z"))
        .map_err(|_| {
            CliError(format!(
                "--since {s:?}: expected a date (YYYY-MM-DD) or an RFC 3339 time"
            ))
        })
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
