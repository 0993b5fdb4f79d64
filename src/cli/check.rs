//! `byop check`: load every document first (so an input error prints no partial
//! report), run the playbook, render, exit by `--fail-on`.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::config::{self, Config, UserChoices};
use crate::document::Document;
use crate::evaluator::Evaluator;
use crate::playbook::{self, LoadedPlaybook};
use crate::report::{Report, Status};
use crate::runner::{self, RunOptions};
use crate::store::Store;

use super::output::{self, Rendered};
use super::{CheckArgs, CliError, FailOn};

struct Job {
    doc: Document,
    playbook: LoadedPlaybook,
    doc_key: String,
}

pub async fn run(args: CheckArgs) -> Result<u8, CliError> {
    let cwd = std::env::current_dir()?;
    let workspace = Config::discover(&cwd)?;
    let files = expand(&args.files)?;
    if files.is_empty() {
        return Err(CliError(
            "no AI-output documents found (include globs: *.ai.md, *.byop.md, *.aiout)".into(),
        ));
    }
    if (args.source.is_some() || args.prompt.is_some()) && files.len() > 1 {
        return Err(CliError(
            "--source/--prompt apply to a single document; give one file".into(),
        ));
    }
    let mut jobs = Vec::new();
    for path in &files {
        let mut doc = Document::parse(crate::document::read_text(path)?, Some(path))?;
        doc.load_companions(args.source.as_deref(), args.prompt.as_deref())?;
        let playbook = choose_playbook(&args, &doc, path)?;
        let doc_key = std::fs::canonicalize(path)?.display().to_string();
        jobs.push(Job {
            doc,
            playbook,
            doc_key,
        });
    }

    let user = UserChoices {
        provider: args.provider,
        model: args.model.clone(),
        trust_workspace_evaluator: args.trust_workspace_evaluator,
        ..Default::default()
    };
    let resolved = config::resolve_evaluator(&workspace, &user, &config::ProcessEnv);
    let wants_evaluator = args.mode != Some(crate::report::Mode::Deterministic);
    let evaluator = match (wants_evaluator, resolved.settings) {
        (true, Some(s)) => {
            Some(Evaluator::new(s).map_err(|e| CliError(format!("evaluator: {e}")))?)
        }
        _ => None,
    };
    for n in resolved.notices.iter().filter(|_| wants_evaluator) {
        if evaluator.is_some() || !n.starts_with("No evaluator") {
            eprintln!("byop: {n}");
        }
    }
    let db = args.db.clone().unwrap_or_else(|| workspace.db_path());
    let store = Arc::new(Store::open(&db)?);

    let progress_on_tty = std::io::stderr().is_terminal();
    let mut reports: Vec<(Report, Job)> = Vec::new();
    let mut notified = false;
    for job in jobs {
        let label = job.doc.label();
        let progress: Option<runner::ProgressFn> = progress_on_tty.then(|| {
            let label = label.clone();
            Arc::new(move |p: runner::Progress| {
                eprint!("\r\x1b[2K{label}: {}", p.message());
            }) as runner::ProgressFn
        });
        let opts = RunOptions {
            mode: args.mode,
            full_runs: args.runs.or(workspace.file.evaluator.runs),
            fresh: args.fresh,
            evaluator: evaluator.clone(),
            store: Some(store.clone()),
            doc_key: job.doc_key.clone(),
            save: true,
            progress,
            cancel: Default::default(),
        };
        let report = runner::run(&job.playbook, &job.doc, opts).await?;
        if progress_on_tty {
            eprint!("\r\x1b[2K");
        }
        if !notified && let Some(n) = report.notices.first() {
            eprintln!("byop: {n}");
            notified = true;
        }
        if args.save_baseline {
            store.save_baseline(&job.doc_key, &report.report_id)?;
        }
        reports.push((report, job));
    }

    // The HTML report shows drift against the saved baseline, when there is one.
    let baselines: Vec<Option<Report>> = reports
        .iter()
        .map(|(r, j)| {
            store
                .baseline(&j.doc_key, &j.playbook.logic_hash)
                .ok()
                .flatten()
                .filter(|b| b.report_id != r.report_id)
        })
        .collect();
    let items: Vec<Rendered> = reports
        .iter()
        .zip(&baselines)
        .map(|((r, j), b)| Rendered {
            report: r,
            text: &j.doc.text,
            playbook: &j.playbook.playbook,
            baseline: b.as_ref(),
        })
        .collect();
    let body = output::render(args.format, &items)?;
    output::write(args.output.as_deref(), &body)?;
    Ok(exit_code(
        args.fail_on,
        reports.iter().map(|(r, _)| r.summary.overall_status),
    ))
}

fn exit_code(fail_on: FailOn, statuses: impl Iterator<Item = Status>) -> u8 {
    let threshold = match fail_on {
        FailOn::Alert => Status::Alert,
        FailOn::Review => Status::Review,
        FailOn::Observe => Status::Observe,
        FailOn::Never => return 0,
    };
    u8::from(statuses.into_iter().any(|s| s >= threshold))
}

/// `--playbook` > front matter > nearest byop.toml > built-in.
fn choose_playbook(
    args: &CheckArgs,
    doc: &Document,
    path: &Path,
) -> Result<LoadedPlaybook, CliError> {
    let doc_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    if let Some(spec) = &args.playbook {
        return Ok(playbook::resolve(spec, &std::env::current_dir()?)?);
    }
    if let Some(spec) = &doc.front_matter.playbook {
        return playbook::resolve(spec, &doc_dir)
            .map_err(|e| CliError(format!("{}: front matter playbook: {e}", path.display())));
    }
    let cfg = Config::discover(path)?;
    match cfg.playbook_spec() {
        Some((spec, dir)) => Ok(playbook::resolve(&spec, &dir)?),
        None => Ok(playbook::builtin()),
    }
}

/// Files as given; folders searched with the include globs (respecting .gitignore).
fn expand(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    let mut out = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let cfg = Config::discover(input)?;
            let mut builder = globset::GlobSetBuilder::new();
            for g in cfg.include_globs() {
                builder.add(
                    globset::Glob::new(&g)
                        .map_err(|e| CliError(format!("include glob `{g}`: {e}")))?,
                );
            }
            let set = builder.build()?;
            let mut found: Vec<PathBuf> = ignore::WalkBuilder::new(input)
                .build()
                .filter_map(Result::ok)
                .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
                .map(|e| e.into_path())
                .filter(|p| set.is_match(p.strip_prefix(input).unwrap_or(p)) || set.is_match(p))
                .collect();
            found.sort();
            out.extend(found);
        } else if input.exists() {
            out.push(input.clone());
        } else {
            return Err(CliError(format!(
                "{}: no such file or folder",
                input.display()
            )));
        }
    }
    Ok(out)
}
