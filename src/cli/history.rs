//! `byop history [FILE]`: past reports, newest first.

use std::path::PathBuf;

use super::args::HistoryFormat;
use super::error::CliError;
use super::output::{self, open_store};
use crate::render;

pub fn run(
    file: Option<PathBuf>,
    format: HistoryFormat,
    db: Option<PathBuf>,
    limit: usize,
) -> Result<u8, CliError> {
    let store = open_store(db)?;
    let key = file.as_deref().map(existing_doc_key).transpose()?;
    let rows = store.history(key.as_deref(), limit)?;
    let body = match format {
        HistoryFormat::Text => render::text::history(&rows, key.is_none()),
        HistoryFormat::Json => serde_json::to_string_pretty(&rows)? + "\n",
    };
    output::write(None, &body)?;
    Ok(0)
}

/// The store key of a file that must exist.
pub fn existing_doc_key(file: &std::path::Path) -> Result<String, CliError> {
    std::fs::canonicalize(file).map_err(|e| CliError(format!("{}: {e}", file.display())))?;
    Ok(crate::workspace::doc_key(file))
}
