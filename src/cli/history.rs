//! `byop history [FILE]`: past reports, newest first: the newest `--limit` rows (50
//! unless asked, `--all` for every one), read down the history index with the columns
//! shown and no report's JSON, so the answer takes as long for a document with ten
//! thousand runs as for one with fifty.

use std::path::PathBuf;

use super::args::HistoryFormat;
use super::error::CliError;
use super::output::{self, open_store};
use crate::render;
use crate::store::HistoryQuery;

pub fn run(
    file: Option<PathBuf>,
    format: HistoryFormat,
    db: Option<PathBuf>,
    limit: usize,
) -> Result<u8, CliError> {
    let store = open_store(db)?;
    let key = file.as_deref().map(existing_doc_key).transpose()?;
    let (page, audits) = store.history_with_audits(
        &HistoryQuery {
            document: key.as_deref(),
            limit,
            ..Default::default()
        },
        limit,
    )?;
    let rows = page.rows;
    let body = match format {
        HistoryFormat::Text => {
            let more = match page.older {
                Some(_) => format!(
                    "The newest {} of {} runs; --limit N or --all for more.\n",
                    rows.len(),
                    page.total
                ),
                None => String::new(),
            };
            render::text::history(&rows, key.is_none())
                + &more
                + &counterfactual_table(&audits, key.is_none())
        }
        HistoryFormat::Json => {
            // Report rows as before; counterfactual audits after them, marked by `kind`.
            let mut all = serde_json::to_value(&rows)?;
            if let (Some(list), serde_json::Value::Array(more)) =
                (all.as_array_mut(), serde_json::to_value(&audits)?)
            {
                list.extend(more);
            }
            serde_json::to_string_pretty(&all)? + "\n"
        }
    };
    output::write(None, &body)?;
    Ok(0)
}

/// The store key of a file that must exist.
pub fn existing_doc_key(file: &std::path::Path) -> Result<String, CliError> {
    std::fs::canonicalize(file).map_err(|e| CliError(format!("{}: {e}", file.display())))?;
    Ok(crate::workspace::doc_key(file))
}

/// The stored counterfactual audits, newest first.
fn counterfactual_table(
    rows: &[crate::model::counterfactual::CounterfactualRow],
    with_document: bool,
) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "\nCounterfactual audits:\n{:<20}  {:<16}  {:>5}  {:>4}  {:>11}  {:<8}{}\n",
        "timestamp",
        "audit id",
        "pairs",
        "cues",
        "significant",
        "stable",
        if with_document { "  document" } else { "" }
    );
    for r in rows {
        out += &format!(
            "{:<20}  {:<16}  {:>5}  {:>4}  {:>11}  {:<8}{}\n",
            r.timestamp,
            r.audit_id,
            r.pairs,
            r.cues,
            r.significant,
            if r.evaluator_unstable {
                "UNSTABLE"
            } else {
                "yes"
            },
            if with_document {
                format!("  {}", r.document)
            } else {
                String::new()
            }
        );
    }
    out
}
