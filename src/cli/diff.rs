//! `byop diff A B`: two reports (ids, id prefixes or JSON files) side by side.

use std::path::PathBuf;

use super::args::DiffFormat;
use super::error::CliError;
use super::output::{self, load_report, open_store};
use crate::engine::compare::compare;
use crate::render;

pub fn run(a: &str, b: &str, format: DiffFormat, db: Option<PathBuf>) -> Result<u8, CliError> {
    let store = open_store(db)?;
    let (ra, rb) = (load_report(a, &store)?, load_report(b, &store)?);
    let c = compare(&ra, &rb);
    let body = match format {
        DiffFormat::Text => render::diff::render_text(&c),
        DiffFormat::Json => render::diff::render_json(&c),
        DiffFormat::Html => render::diff::render_html(&c),
    };
    output::write(None, &body)?;
    Ok(0)
}
