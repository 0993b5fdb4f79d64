//! `byop check`: resolve every document first (so an input error prints no partial
//! report), run the playbook, render, exit by `--fail-on`.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::args::{CheckArgs, FailOn, Format};
use super::error::CliError;
use super::output::{self, Rendered};
use crate::engine::runner::{self, RunOptions};
use crate::evaluator::Evaluator;
use crate::model::{Report, Status};
use crate::store::{Series, Store};
use crate::workspace::evaluate::{
    EvaluateError, Unsaved, evaluate_unsaved, record_input_error, save_all,
};
use crate::workspace::files::read_text;
use crate::workspace::trust::{self, Policy};
use crate::workspace::{Config, Request, Resolved, Resolver, doc_key};

struct Job {
    resolved: Resolved,
    doc_key: String,
}

pub async fn run(args: CheckArgs) -> Result<u8, CliError> {
    // The built-in playbook the batch most likely runs (the one `--playbook` names, else the
    // default) is compiled while the files are found and the store opened, instead of
    // holding up the first documents read; a playbook file is compiled when a document
    // names it, as before.
    let likely = args.inputs.playbook.clone();
    std::thread::spawn(move || match likely.as_deref() {
        None => drop(crate::engine::playbook::builtin()),
        Some(id) => drop(crate::engine::playbook::builtin_by_id(id)),
    });
    let cwd = std::env::current_dir()?;
    let workspace = super::workspace_policy(&args.trust)?;
    super::start_telemetry(&args.otlp, &workspace)?;
    let files = expand(&args.files, workspace.locked, args.respect_gitignore)?;
    for file in args.files.iter().filter(|f| !f.is_dir()) {
        trust::document_path(file, workspace.root(), workspace.locked).map_err(CliError)?;
    }
    if files.is_empty() {
        return Err(CliError(
            "no AI-output documents found (include globs: *.ai.md, *.byop.md, *.aiout)".into(),
        ));
    }
    if (args.inputs.source.is_some() || args.inputs.prompt.is_some()) && files.len() > 1 {
        return Err(CliError(
            "--source/--prompt apply to a single document; give one file".into(),
        ));
    }
    let evaluator = super::single::batch_evaluator(&args.evaluator, args.mode, &workspace)?;
    let db = super::output::db_location(args.db.clone(), &workspace)?;
    let store = match Store::open(&db) {
        Ok(store) => Arc::new(store),
        // A gate configured for a team store that cannot reach it is not evaluated:
        // better than passing with no drift reference and writing nowhere.
        Err(e) if e.0.starts_with(crate::store::pg::UNREACHABLE) => {
            eprintln!("byop: not evaluated (exit {NOT_EVALUATED}): {e}");
            return Ok(NOT_EVALUATED);
        }
        Err(e) => return Err(e.into()),
    };
    let resolver = Resolver::for_batch();
    let roots = (
        cwd.as_path(),
        super::single::roots(&workspace),
        workspace.locked,
    );
    let jobs = resolve_all(&resolver, &args, &roots, &files)
        .inspect_err(|(path, e)| record_input_error(&store, &doc_key(path), &e.0))
        .map_err(|(_, e)| e)?;
    let evaluated = evaluate_all(&args, &workspace, evaluator, &store, &jobs).await?;
    let (reports, rendered) = save_all_rendering(&args, &store, &jobs, evaluated)?;
    // The working folder's ignored keys were said at the start; the first other notice now.
    if let Some(n) = reports
        .iter()
        .find_map(|r| r.notices.iter().find(|n| !workspace.notices.contains(n)))
    {
        crate::render::terminal::notice(n);
    }
    if let Some(n) = store.integrity_notice() {
        crate::render::terminal::notice(&n);
    }
    if args.fix {
        let checked: Vec<_> = jobs.iter().map(|j| &j.resolved).zip(&reports).collect();
        return super::fix::apply(&args, &checked);
    }
    let body = match rendered {
        Some(body) => body,
        None => {
            // Only the HTML report shows drift against the baseline.
            let baselines = baselines(&store, &jobs, &reports);
            render(args.format, args.verbose, &reports, &jobs, &baselines)?
        }
    };
    output::write_rendered(args.format, args.output.as_deref(), &body)?;
    let code = exit_code(args.fail_on, &reports, &jobs);
    // The process ends with this command: freeing every document, companion and report
    // one by one would only delay the exit (~10 ms for the corpus).
    std::mem::forget((jobs, reports, body));
    Ok(code)
}

/// Every document resolved, on all cores (reading and decoding the files and their
/// companions is a tenth of a batch); the first input error in the given order wins.
fn resolve_all<'p>(
    resolver: &Resolver,
    args: &CheckArgs,
    roots: &Where,
    files: &'p [PathBuf],
) -> Result<Vec<Arc<Job>>, (&'p Path, CliError)> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = files.len().div_ceil(threads).max(16);
    let resolved: Vec<Vec<Result<Job, _>>> = std::thread::scope(|scope| {
        let workers: Vec<_> = files
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|path| resolve(resolver, args, roots, path))
                        .collect()
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    resolved
        .into_iter()
        .flatten()
        .map(|r| r.map(Arc::new))
        .collect()
}

/// The batch's output in `format` (`baselines`: per report, for HTML).
fn render(
    format: Format,
    verbose: bool,
    reports: &[Report],
    jobs: &[Arc<Job>],
    baselines: &[Option<Report>],
) -> Result<String, CliError> {
    let items: Vec<Rendered> = reports
        .iter()
        .zip(jobs)
        .enumerate()
        .map(|(i, (r, j))| Rendered {
            report: r,
            document: Some(&j.resolved.doc),
            playbook: &j.resolved.playbook.playbook,
            baseline: baselines.get(i).and_then(Option::as_ref),
            verbose,
        })
        .collect();
    output::render(format, &items)
}

/// The working folder, the workspace roots front matter may name files in, locked mode.
type Where<'a> = (&'a Path, Vec<PathBuf>, bool);

/// A document with its companions and playbook; anything that did not resolve is an
/// input error.
fn resolve<'p>(
    resolver: &Resolver,
    args: &CheckArgs,
    at: &Where,
    path: &'p Path,
) -> Result<Job, (&'p Path, CliError)> {
    resolve_one(resolver, args, at, path).map_err(|e| (path, e))
}

fn resolve_one(
    resolver: &Resolver,
    args: &CheckArgs,
    (cwd, roots, locked): &Where,
    path: &Path,
) -> Result<Job, CliError> {
    let resolved = resolver.resolve(Request {
        text: read_text(path)?,
        path: Some(path),
        roots: roots.clone(),
        cli_playbook: args.inputs.playbook.clone().map(|p| (p, cwd.to_path_buf())),
        setting_playbook: None,
        source: args.inputs.source.as_deref(),
        prompt: args.inputs.prompt.as_deref(),
        locked: *locked,
        user_playbooks: args.trust.allow_playbook.clone(),
        dataset_playbook: None,
    })?;
    if let Some(p) = resolved.problems.first() {
        let at = p
            .position
            .map(|pos| {
                format!(
                    "{}:{}:{}: ",
                    path.display(),
                    pos.line + 1,
                    pos.character + 1
                )
            })
            .unwrap_or_else(|| format!("{}: ", path.display()));
        return Err(CliError(format!("{at}{}", p.message)));
    }
    let doc = &resolved.doc;
    trust::gate_inputs(doc, &resolved.playbook.playbook)
        .map_err(|why| CliError(format!("{}: {why}", path.display())))?;
    Ok(Job {
        resolved,
        doc_key: doc_key(path),
    })
}

/// How many documents of a batch are in flight at once. Evaluator calls are bounded by
/// the evaluator's one shared concurrency limit (and `retry-after` pause), whatever this
/// is; this only bounds the memory of documents waiting for a permit.
const DOCUMENTS_IN_FLIGHT: usize = 64;
/// Documents whose stored reports (what their runs compare with) are read at once.
const PREFETCH: usize = 100;

/// One evaluation per document, concurrently (all their calls under the evaluator's one
/// limit); nothing saved yet.
async fn evaluate_all(
    args: &CheckArgs,
    workspace: &Policy,
    evaluator: Option<Evaluator>,
    store: &Arc<Store>,
    jobs: &[Arc<Job>],
) -> Result<Vec<Unsaved>, CliError> {
    use futures::StreamExt;
    let progress_on_tty = std::io::stderr().is_terminal();
    let options = |progress| RunOptions {
        mode: args.mode,
        full_runs: args.runs.or(workspace.runs),
        max_runs: args.max_runs.or(workspace.max_runs),
        fresh: args.fresh,
        evaluator: evaluator.clone(),
        progress,
        canary: trust::canary(args.trust.no_canary.then_some(false), workspace),
        ..Default::default()
    };
    // What the runs compare with, read a hundred documents at a time as the batch moves
    // on: one store read per hundred instead of one per document, and no more of the
    // stored reports in memory than the documents in flight need.
    let mode = runner::effective_mode(&options(None));
    // A source several documents share is indexed once: ahead of them, one source per task
    // on the runtime's threads, rather than in a document's task while the other threads'
    // documents wait for the same source.
    let mut sources = std::collections::HashSet::new();
    for job in jobs {
        if let Some(source) = &job.resolved.doc.source
            && sources.insert(source.text().as_ptr() as usize)
        {
            let job = Arc::clone(job);
            tokio::spawn(async move {
                runner::prepare_companions(&job.resolved.playbook, &job.resolved.doc);
            });
        }
    }
    let with_inputs = futures::stream::iter(jobs.chunks(PREFETCH))
        .map(|chunk| {
            let series: Vec<Series> = chunk
                .iter()
                .map(|j| {
                    (
                        j.doc_key.as_str(),
                        j.resolved.playbook.logic_hash.as_str(),
                        mode,
                    )
                })
                .collect();
            let items: Vec<Result<_, CliError>> = match store.drift_inputs_many(&series) {
                Ok(inputs) => chunk.iter().cloned().zip(inputs).map(Ok).collect(),
                Err(e) => vec![Err(EvaluateError::from(e).into())],
            };
            futures::stream::iter(items)
        })
        .flatten();
    let evaluated: Vec<_> = with_inputs
        .map(|item| {
            let (job, inputs) = match item {
                Ok(pair) => pair,
                Err(e) => return futures::future::Either::Left(std::future::ready(Err(e))),
            };
            let label = job.resolved.doc.label();
            let progress: Option<runner::ProgressFn> = progress_on_tty.then(|| {
                Arc::new(move |p: runner::Progress| {
                    let line = format!("{label}: {}", p.message());
                    eprint!("\r\x1b[2K{}", crate::render::terminal::escape(&line));
                }) as runner::ProgressFn
            });
            let opts = options(progress);
            // A task per document: the local checks are CPU work, and a batch's documents
            // then use every thread of the runtime instead of taking turns on one.
            let store = store.clone();
            let task = tokio::spawn(async move {
                evaluate_unsaved(
                    &job.resolved,
                    Some(&store),
                    &job.doc_key,
                    opts,
                    Some(inputs),
                )
                .await
            });
            futures::future::Either::Right(async move {
                task.await
                    .unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()))
                    .map_err(CliError::from)
            })
        })
        .buffered(DOCUMENTS_IN_FLIGHT)
        .collect()
        .await;
    if progress_on_tty {
        eprint!("\r\x1b[2K");
    }
    evaluated.into_iter().collect::<Result<Vec<_>, _>>()
}

/// Every report and audit trail saved in ONE store transaction (the first notice printed
/// once, baselines saved when asked), and the output rendered meanwhile when it can be:
/// the reports, and the output (`None`: render it after, from the reports).
fn save_all_rendering(
    args: &CheckArgs,
    store: &Store,
    jobs: &[Arc<Job>],
    evaluated: Vec<Unsaved>,
) -> Result<(Vec<Report>, Option<String>), CliError> {
    // The output is rendered while the batch is saved, and written only once it is: a
    // copy of the reports costs less than rendering after the one write transaction.
    // (HTML shows the baseline, `--fix` renders nothing.)
    let early: Option<Vec<Report>> = (args.format != Format::Html && !args.fix)
        .then(|| evaluated.iter().map(Unsaved::report).collect())
        .flatten();
    let (saved, rendered) = std::thread::scope(|scope| {
        let rendering = early
            .as_ref()
            .map(|reports| scope.spawn(|| render(args.format, args.verbose, reports, jobs, &[])));
        let saved = save_all(store, evaluated);
        let rendered = rendering.map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
        (saved, rendered)
    });
    let (reports, stored): (Vec<Report>, Vec<String>) = saved
        .into_iter()
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .unzip();
    if args.save_baseline {
        for (job, id) in jobs.iter().zip(&stored) {
            store.save_baseline(&job.doc_key, id)?;
        }
    }
    Ok((reports, rendered.transpose()?))
}

/// The HTML report shows drift against the saved baseline, when there is one.
fn baselines(store: &Store, jobs: &[Arc<Job>], reports: &[Report]) -> Vec<Option<Report>> {
    reports
        .iter()
        .zip(jobs)
        .map(|(r, j)| {
            store
                .baseline(&j.doc_key, &j.resolved.playbook.logic_hash)
                .ok()
                .flatten()
                .filter(|b| b.report_id != r.report_id)
        })
        .collect()
}

/// Exit code 3 ("not evaluated"): a check the mode needed got no answer at all.
pub const NOT_EVALUATED: u8 = 3;

/// 0 below `--fail-on`, 1 at or above it, 3 when something was not evaluated (whatever
/// the level, but `never`): a gate never passes because nothing was evaluated.
fn exit_code(fail_on: FailOn, reports: &[Report], jobs: &[Arc<Job>]) -> u8 {
    let threshold = match fail_on {
        FailOn::Alert => Status::Alert,
        FailOn::Review => Status::Review,
        FailOn::Observe => Status::Observe,
        FailOn::Never => return 0,
    };
    let unevaluated: Vec<String> = reports
        .iter()
        .flat_map(|r| {
            r.unevaluated().into_iter().map(move |(id, kind)| {
                let path = crate::render::terminal::escape_name(&r.document.path);
                format!("{path} {id} ({kind})")
            })
        })
        .chain(jobs.iter().filter_map(|j| {
            let r = &j.resolved;
            let why = trust::unjudged(&r.playbook.playbook, r.doc.source.as_ref())?;
            Some(format!("{} ({why})", j.doc_key))
        }))
        .collect();
    if !unevaluated.is_empty() {
        crate::render::terminal::eprint_line(&format!(
            "byop: not evaluated (exit {NOT_EVALUATED}): {}",
            unevaluated.join(", ")
        ));
        return NOT_EVALUATED;
    }
    let worst = reports.iter().map(|r| r.summary.overall_status).max();
    u8::from(worst.is_some_and(|s| s >= threshold))
}

/// Files as given; folders searched with the include globs (the default globs in locked
/// mode). A `.gitignore` leaves a document out only when the user asks (`respect`).
fn expand(inputs: &[PathBuf], locked: bool, respect: bool) -> Result<Vec<PathBuf>, CliError> {
    let mut out = Vec::new();
    for input in inputs {
        if input.is_dir() {
            out.extend(search(input, locked, respect)?);
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

fn search(dir: &Path, locked: bool, respect: bool) -> Result<Vec<PathBuf>, CliError> {
    let cfg = Policy::new(Arc::new(Config::discover(dir)?), locked);
    let mut builder = globset::GlobSetBuilder::new();
    for g in &cfg.include {
        builder
            .add(globset::Glob::new(g).map_err(|e| CliError(format!("include glob `{g}`: {e}")))?);
    }
    let set = builder.build()?;
    // Only `.gitignore` files are read (never `.ignore`, hidden names, global excludes or
    // any git configuration), and git itself is never run: a committed folder can look like
    // a repository whose configuration runs commands or lies about what is tracked.
    let documents = |git_ignore: bool| -> Vec<PathBuf> {
        ignore::WalkBuilder::new(dir)
            .standard_filters(false)
            .git_ignore(git_ignore)
            .require_git(false)
            .filter_entry(|e| e.file_name() != ".git")
            .build()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
            .map(|e| e.into_path())
            .filter(|p| set.is_match(p.strip_prefix(dir).unwrap_or(p)) || set.is_match(p))
            .collect()
    };
    let mut found = documents(false);
    let kept: std::collections::HashSet<PathBuf> = documents(true).into_iter().collect();
    let matched: Vec<String> = found
        .iter()
        .filter(|p| !kept.contains(*p))
        .map(|p| p.display().to_string())
        .collect();
    if !matched.is_empty() {
        let (what, how) = if respect {
            found.retain(|p| kept.contains(p));
            ("skipped", "as --respect-gitignore asks")
        } else {
            ("checked", "pass --respect-gitignore to leave them out")
        };
        crate::render::terminal::notice(&format!(
            "{what} {} document(s) a .gitignore matches ({how}): {}",
            matched.len(),
            matched.join(", ")
        ));
    }
    found.sort();
    Ok(found)
}
