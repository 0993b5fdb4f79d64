//! The small subcommands: history, diff, baseline, report, playbook.

use std::path::{Path, PathBuf};

use crate::config::Config;
use crate::diff;
use crate::playbook;
use crate::render;
use crate::report::{Report, ReportEnvelope};
use crate::store::Store;

use super::output::{self, Rendered};
use super::{BaselineAction, CliError, DiffFormat, Format, HistoryFormat, PlaybookAction};

fn open_store(db: Option<PathBuf>) -> Result<Store, CliError> {
    let path = match db {
        Some(p) => p,
        None => Config::discover(&std::env::current_dir()?)?.db_path(),
    };
    Ok(Store::open(&path)?)
}

fn doc_key(file: &Path) -> Result<String, CliError> {
    Ok(std::fs::canonicalize(file)
        .map_err(|e| CliError(format!("{}: {e}", file.display())))?
        .display()
        .to_string())
}

/// A report by id / id prefix from the store, or from a JSON file.
fn load_report(spec: &str, store: &Store) -> Result<Report, CliError> {
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

fn playbook_hash_for(file: &Path, spec: Option<&str>) -> Result<String, CliError> {
    let pb = match spec {
        Some(s) => playbook::resolve(s, &std::env::current_dir()?)?,
        None => match Config::discover(file)?.playbook_spec() {
            Some((s, dir)) => playbook::resolve(&s, &dir)?,
            None => playbook::builtin(),
        },
    };
    Ok(pb.logic_hash)
}

pub fn history(
    file: Option<PathBuf>,
    format: HistoryFormat,
    db: Option<PathBuf>,
    limit: usize,
) -> Result<u8, CliError> {
    let store = open_store(db)?;
    let key = file.as_deref().map(doc_key).transpose()?;
    let rows = store.history(key.as_deref(), limit)?;
    let body = match format {
        HistoryFormat::Text => render::text::history(&rows, key.is_none()),
        HistoryFormat::Json => {
            let v: Vec<_> = rows
                .iter()
                .map(|r| {
                    serde_json::json!({
                        "report_id": r.report_id, "timestamp": r.timestamp, "document": r.document,
                        "playbook_id": r.playbook_id, "playbook_version": r.playbook_version, "mode": r.mode,
                        "status": r.status, "consistency_score": r.consistency_score, "baseline": r.is_baseline,
                    })
                })
                .collect();
            serde_json::to_string_pretty(&v)? + "\n"
        }
    };
    output::write(None, &body)?;
    Ok(0)
}

pub fn diff(a: &str, b: &str, format: DiffFormat, db: Option<PathBuf>) -> Result<u8, CliError> {
    let store = open_store(db)?;
    let (ra, rb) = (load_report(a, &store)?, load_report(b, &store)?);
    let c = diff::compare(&ra, &rb);
    let body = match format {
        DiffFormat::Text => diff::render_text(&c),
        DiffFormat::Json => diff::render_json(&c),
        DiffFormat::Html => diff::render_html(&c),
    };
    output::write(None, &body)?;
    Ok(0)
}

pub fn baseline(action: BaselineAction) -> Result<u8, CliError> {
    match action {
        BaselineAction::Save { file, db, playbook } => {
            let store = open_store(db)?;
            let key = doc_key(&file)?;
            let hash = playbook_hash_for(&file, playbook.as_deref())?;
            let latest = store.latest_report(&key, &hash, None)?.ok_or_else(|| {
                CliError(format!(
                    "{}: no report yet under this playbook; run `byop check {}` first",
                    file.display(),
                    file.display()
                ))
            })?;
            store.save_baseline(&key, &latest.report_id)?;
            println!(
                "Saved report {} ({}, {}) as the baseline of {}",
                latest.report_id,
                latest.summary.overall_status.as_str(),
                latest.timestamp,
                file.display()
            );
            Ok(0)
        }
        BaselineAction::Show {
            file,
            format,
            db,
            playbook,
        } => {
            let store = open_store(db)?;
            let key = doc_key(&file)?;
            let hash = playbook_hash_for(&file, playbook.as_deref())?;
            let base = store.baseline(&key, &hash)?.ok_or_else(|| {
                CliError(format!(
                    "{}: no baseline saved (use `byop baseline save`)",
                    file.display()
                ))
            })?;
            show(&base, format, None, None)
        }
    }
}

pub fn report(
    spec: &str,
    format: Format,
    out: Option<PathBuf>,
    db: Option<PathBuf>,
) -> Result<u8, CliError> {
    let store = open_store(db)?;
    let r = load_report(spec, &store)?;
    show(&r, format, out, Some(&store))
}

fn show(
    r: &Report,
    format: Format,
    out: Option<PathBuf>,
    store: Option<&Store>,
) -> Result<u8, CliError> {
    let text = document_text_of(r);
    let pb = playbook_of(r).ok_or_else(|| {
        CliError(format!(
            "the playbook of report {} (`{}` {}, {}) is not the built-in one nor in this workspace's byop.toml or playbooks/",
            r.report_id, r.playbook_id, r.playbook_version, r.integrity.playbook_logic_hash
        ))
    });
    // Only SARIF needs the playbook's rules; the other formats render from the report alone.
    let pb = match (pb, format) {
        (Ok(pb), _) => pb,
        (Err(e), Format::Sarif) => return Err(e),
        (Err(_), _) => playbook::builtin(),
    };
    let baseline = match store {
        Some(s) => std::fs::canonicalize(&r.document.path)
            .ok()
            .and_then(|k| {
                s.baseline(&k.display().to_string(), &r.integrity.playbook_logic_hash)
                    .ok()
                    .flatten()
            })
            .filter(|b| b.report_id != r.report_id),
        None => None,
    };
    let item = Rendered {
        report: r,
        text: &text,
        playbook: &pb.playbook,
        baseline: baseline.as_ref(),
    };
    let body = output::render(format, &[item])?;
    output::write(out.as_deref(), &body)?;
    Ok(0)
}

/// The document's text, for highlighting, only while it is still the text the report was
/// made from (same inputs fingerprint); otherwise the byte ranges would point at other words.
fn document_text_of(r: &Report) -> String {
    crate::document::Document::load(Path::new(&r.document.path))
        .ok()
        .filter(|d| d.inputs.fingerprint() == r.integrity.inputs_fingerprint)
        .map(|d| d.text)
        .unwrap_or_default()
}

/// The playbook a report was made under, found by its logic hash among the built-in one,
/// the workspace byop.toml's and `playbooks/*.json`.
fn playbook_of(r: &Report) -> Option<playbook::LoadedPlaybook> {
    let wanted = &r.integrity.playbook_logic_hash;
    let builtin = playbook::builtin();
    if &builtin.logic_hash == wanted {
        return Some(builtin);
    }
    let cfg = Config::discover(&std::env::current_dir().ok()?).ok()?;
    let from_config = cfg
        .playbook_spec()
        .and_then(|(spec, dir)| playbook::resolve(&spec, &dir).ok());
    let from_folder = std::fs::read_dir(cfg.root.join("playbooks"))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| playbook::load_file(&e.path()).ok());
    from_config
        .into_iter()
        .chain(from_folder)
        .find(|pb| &pb.logic_hash == wanted)
}

pub fn playbook(action: PlaybookAction) -> Result<u8, CliError> {
    match action {
        PlaybookAction::List => {
            for id in playbook::builtin_ids() {
                let b = playbook::builtin();
                println!("{id}\t{}\tbuilt-in\t{}", b.playbook.version, b.logic_hash);
            }
            let root = Config::discover(&std::env::current_dir()?)?.root;
            let dir = root.join("playbooks");
            let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
                .map(|rd| {
                    rd.filter_map(Result::ok)
                        .map(|e| e.path())
                        .filter(|p| p.extension().is_some_and(|x| x == "json"))
                        .collect()
                })
                .unwrap_or_default();
            files.sort();
            for f in files {
                match playbook::load_file(&f) {
                    Ok(pb) => println!(
                        "{}\t{}\t{}\t{}",
                        pb.playbook.id,
                        pb.playbook.version,
                        f.display(),
                        pb.logic_hash
                    ),
                    Err(e) => println!("(invalid)\t-\t{}\t{}", f.display(), e.message),
                }
            }
            Ok(0)
        }
        PlaybookAction::Validate { path } => {
            let pb = playbook::load_file(&path)?;
            println!(
                "{}: ok — playbook {} {} with {} checks, {}",
                path.display(),
                pb.playbook.id,
                pb.playbook.version,
                pb.playbook.checks.len(),
                pb.logic_hash
            );
            Ok(0)
        }
        PlaybookAction::Hash { playbook: spec } => {
            let pb = playbook::resolve(&spec, &std::env::current_dir()?)?;
            println!("{}", pb.logic_hash);
            Ok(0)
        }
    }
}
