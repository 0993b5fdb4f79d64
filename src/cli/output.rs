//! Rendering reports in the requested format and writing them without partial files.

use std::io::Write;
use std::path::Path;

use crate::playbook::Playbook;
use crate::render;
use crate::report::{Report, ReportEnvelope};

use super::{CliError, Format};

pub struct Rendered<'a> {
    pub report: &'a Report,
    /// The whole document text (for HTML highlighting).
    pub text: &'a str,
    pub playbook: &'a Playbook,
    pub baseline: Option<&'a Report>,
}

pub fn render(format: Format, items: &[Rendered]) -> Result<String, CliError> {
    Ok(match format {
        Format::Text => {
            let color =
                anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never;
            items
                .iter()
                .map(|i| render::text::report(i.report, color))
                .collect::<Vec<_>>()
                .join("\n")
        }
        Format::Json => {
            let envelopes: Vec<ReportEnvelope> = items
                .iter()
                .map(|i| ReportEnvelope {
                    byop_report: i.report.clone(),
                })
                .collect();
            let mut s = if envelopes.len() == 1 {
                serde_json::to_string_pretty(&envelopes[0])?
            } else {
                serde_json::to_string_pretty(&envelopes)?
            };
            s.push('\n');
            s
        }
        Format::Sarif => render::sarif::render(
            &items
                .iter()
                .map(|i| (i.report, i.playbook))
                .collect::<Vec<_>>(),
        ),
        Format::Junit => render::junit::render(&items.iter().map(|i| i.report).collect::<Vec<_>>()),
        Format::Html => {
            if items.len() != 1 {
                return Err(CliError(
                    "--format html renders one document; give one file".into(),
                ));
            }
            render::html::report(items[0].report, items[0].text, items[0].baseline)
        }
    })
}

/// Stdout, or a file written via a temporary file in the same folder and renamed into place.
pub fn write(path: Option<&Path>, body: &str) -> Result<(), CliError> {
    match path {
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(body.as_bytes())?;
            out.flush()?;
            Ok(())
        }
        Some(path) => {
            let dir = path
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            let mut tmp = tempfile::NamedTempFile::new_in(dir)
                .map_err(|e| CliError(format!("{}: cannot write: {e}", path.display())))?;
            tmp.write_all(body.as_bytes())?;
            tmp.persist(path)
                .map_err(|e| CliError(format!("{}: cannot write: {}", path.display(), e.error)))?;
            Ok(())
        }
    }
}
