//! What the subcommands share: the store, rendering in the requested format, and
//! writing without partial files.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::engine::document::Document;
use crate::model::{Playbook, Report, ReportEnvelope};
use crate::render;
use crate::render::sarif::SarifItem;
use crate::store::Store;

use super::args::Format;
use super::error::CliError;

pub struct Rendered<'a> {
    pub report: &'a Report,
    /// The document the report was made from, when it is still that text (HTML
    /// highlighting, SARIF fixes).
    pub document: Option<&'a Document>,
    pub playbook: &'a Playbook,
    pub baseline: Option<&'a Report>,
    /// Text: also list the claims grounding checks set aside.
    pub verbose: bool,
}

pub fn render(format: Format, items: &[Rendered]) -> Result<String, CliError> {
    Ok(match format {
        Format::Text => {
            let color =
                anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never;
            items
                .iter()
                .map(|i| render::text::report_with(i.report, color, i.verbose))
                .collect::<Vec<_>>()
                .join("\n")
        }
        Format::Json => {
            let envelopes: Vec<ReportEnvelope<&Report>> = items
                .iter()
                .map(|i| ReportEnvelope {
                    byop_report: i.report,
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
        Format::Sarif => render::sarif::render_items(
            &items
                .iter()
                .map(|i| SarifItem {
                    report: i.report,
                    playbook: i.playbook,
                    document: i.document,
                })
                .collect::<Vec<_>>(),
        ),
        Format::Junit => render::junit::render(&items.iter().map(|i| i.report).collect::<Vec<_>>()),
        Format::Html => {
            if items.len() != 1 {
                return Err(CliError(
                    "--format html renders one document; give one file".into(),
                ));
            }
            let text = items[0].document.map_or("", |d| d.text.as_str());
            render::html::report(items[0].report, text, items[0].baseline)
        }
    })
}

/// Stdout, or a file written via a temporary file in the same folder and renamed into
/// place (a device or a pipe is written to directly); control characters escaped (every output carries untrusted text).
pub fn write(path: Option<&Path>, body: &str) -> Result<(), CliError> {
    write_styled(path, &render::terminal::escape(body))
}

/// [`write`] for a body whose untrusted parts are already escaped and which carries
/// its own terminal styling (the text report).
pub fn write_rendered(format: Format, path: Option<&Path>, body: &str) -> Result<(), CliError> {
    match format {
        Format::Text => write_styled(path, body),
        _ => write(path, body),
    }
}

fn write_styled(path: Option<&Path>, body: &str) -> Result<(), CliError> {
    match path {
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(body.as_bytes())?;
            out.flush()?;
            Ok(())
        }
        // A device or a pipe (`-o /dev/null`, `-o /dev/stdout`, a FIFO) is written to as it
        // is: renaming a temporary file over it would replace the device with a file.
        Some(path) if special_file(path) => {
            let mut out = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(|e| CliError(format!("{}: cannot write: {e}", path.display())))?;
            out.write_all(body.as_bytes())
                .and_then(|()| out.flush())
                .map_err(|e| CliError(format!("{}: cannot write: {e}", path.display())))?;
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

/// Whether `path` names something other than a regular file or a folder (a character or
/// block device, a pipe, a socket), following links.
fn special_file(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// `--db`/`BYOP_DB`, else the database of the current folder's workspace.
pub fn open_store(db: Option<PathBuf>) -> Result<Store, CliError> {
    let path = match db.or_else(database_url) {
        Some(p) => p,
        None => crate::workspace::trust::Policy::discover(&std::env::current_dir()?)?
            .db_path()
            .map_err(CliError)?,
    };
    Ok(Store::open(&path)?)
}

/// `--db`/`BYOP_DB`, else `DATABASE_URL`, else the workspace's database file (which the
/// trust model keeps inside the workspace).
pub fn db_location(
    db: Option<PathBuf>,
    workspace: &crate::workspace::trust::Policy,
) -> Result<PathBuf, CliError> {
    match db.or_else(database_url) {
        Some(p) => Ok(p),
        None => workspace.db_path().map_err(CliError),
    }
}

/// `DATABASE_URL` when set (the conventional name for an application's database).
fn database_url() -> Option<PathBuf> {
    std::env::var_os("DATABASE_URL")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// A report by id / id prefix from the store, or from a JSON file.
pub fn load_report(spec: &str, store: &Store) -> Result<Report, CliError> {
    let path = Path::new(spec);
    if path.is_file() {
        let text = std::fs::read_to_string(path)?;
        let env: ReportEnvelope = serde_json::from_str(&text)
            .map_err(|e| CliError(format!("{spec}: not a byop report JSON: {e}")))?;
        return Ok(env.byop_report);
    }
    store.get_report(spec)?.ok_or_else(|| {
        CliError(format!(
            "no report `{spec}` in the store (nor a file of that name)"
        ))
    })
}
