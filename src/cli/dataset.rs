//! `byop dataset DIR`: every variant's output for every scenario through the playbook
//! (all documents at once: the evaluator bounds the calls in flight, the store's response
//! cache serves repeats), then per-variant rates, per-check fail rates, the per-scenario
//! table and a paired comparison of two variants.
//!
//! Layout: `DIR/scenarios/<name>.*` (the source: the user's notes, or the contract) and
//! `DIR/variants/<variant>/<name>.*` (one output per scenario), or a `DIR/dataset.toml`
//! naming them: `playbook = "…"`, `scenarios = "dir"`, `[variants] name = "dir"`.
//!
//! A dataset is as untrusted as a workspace: every folder and file it names, and every
//! entry of those folders, must stay inside the dataset folder or the workspace after
//! symlinks are followed, and be a regular file of bounded size. One that does not is an
//! input error naming it, before anything is sent.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use futures::future::join_all;
use serde::Deserialize;

use super::args::DatasetOpts;
use super::error::CliError;
use crate::engine::dataset::{self, Prices, Row};
use crate::engine::document::decode;
use crate::engine::generate;
use crate::engine::plan::observe::PlanFacts;
use crate::engine::runner::RunOptions;
use crate::store::Store;
use crate::workspace::boundary::{Boundary, read_bounded};
use crate::workspace::evaluate::{Unsaved, evaluate_unsaved, save_all};
use crate::workspace::trust::{self, Policy};
use crate::workspace::{Request, Resolved, Resolver, doc_key};

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct DatasetToml {
    playbook: Option<String>,
    scenarios: Option<PathBuf>,
    #[serde(default)]
    variants: std::collections::BTreeMap<String, PathBuf>,
}

pub(super) struct Layout {
    pub playbook: Option<String>,
    pub scenarios: Vec<(String, PathBuf)>,
    pub variants: Vec<(String, Vec<(String, PathBuf)>)>,
    /// Variants that are generated: (name, its `variant.toml`). Their outputs are those of
    /// the run the layout was read for.
    pub generation: Vec<(String, PathBuf)>,
}

/// Where a run's outputs go: `DIR/runs/<run id>/<variant>/`.
pub(super) fn run_dir(dir: &Path, run_id: &str) -> PathBuf {
    dir.join("runs").join(run_id)
}

/// The file naming the last run of `byop dataset run`, read by `byop dataset DIR`.
pub(super) const LATEST: &str = "LATEST";

/// A run id that is safe as one folder name.
pub(super) fn plain_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id != "."
        && id != ".."
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// The last run's id, when it is a plain name.
fn latest_run(dir: &Path) -> Option<String> {
    let id = std::fs::read_to_string(dir.join("runs").join(LATEST)).ok()?;
    let id = id.trim();
    plain_id(id).then(|| id.to_string())
}

/// "nda.txt" → "nda", "review.ai.md" → "review".
fn name_of(p: &Path) -> String {
    let f = p
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    f.split('.').next().unwrap_or(&f).to_string()
}

/// The regular files of `dir` (real subfolders skipped); every entry confined.
fn files_in(dir: &Path, boundary: &Boundary) -> Result<Vec<(String, PathBuf)>, CliError> {
    confined_dir(dir, boundary)?;
    let rd = std::fs::read_dir(dir).map_err(|e| CliError(format!("{}: {e}", dir.display())))?;
    let mut out = Vec::new();
    for p in rd.filter_map(Result::ok).map(|e| e.path()) {
        let real_dir = std::fs::symlink_metadata(&p).is_ok_and(|m| m.is_dir());
        let spec = p
            .file_name()
            .is_some_and(|f| f == generate::variant::FILE_NAME);
        if real_dir || spec || name_of(&p).is_empty() {
            continue;
        }
        boundary
            .confined(&p)
            .map_err(|e| CliError(format!("{}: refused: {e}", p.display())))?;
        out.push((name_of(&p), p));
    }
    out.sort();
    Ok(out)
}

/// A folder the dataset names must resolve inside the boundary.
fn confined_dir(dir: &Path, boundary: &Boundary) -> Result<(), CliError> {
    let real =
        std::fs::canonicalize(dir).map_err(|e| CliError(format!("{}: {e}", dir.display())))?;
    if boundary.roots().iter().any(|r| real.starts_with(r)) {
        return Ok(());
    }
    Err(CliError(format!(
        "{}: refused: it resolves to {}, outside the dataset folder and the workspace",
        dir.display(),
        real.display()
    )))
}

pub(super) fn layout(
    dir: &Path,
    boundary: &Boundary,
    run_id: Option<&str>,
) -> Result<Layout, CliError> {
    let toml_path = dir.join("dataset.toml");
    let conf: DatasetToml = match std::fs::read_to_string(&toml_path) {
        Ok(t) => toml::from_str(&t)
            .map_err(|e| CliError(format!("{}: {}", toml_path.display(), e.message())))?,
        Err(_) => DatasetToml::default(),
    };
    let scenarios_dir = dir.join(conf.scenarios.unwrap_or_else(|| "scenarios".into()));
    let scenarios = if scenarios_dir.is_dir() {
        files_in(&scenarios_dir, boundary)?
    } else {
        vec![]
    };
    let variant_dirs: Vec<(String, PathBuf)> = if conf.variants.is_empty() {
        let vd = dir.join("variants");
        let rd = std::fs::read_dir(&vd).map_err(|_| {
            CliError(format!(
                "{}: not a dataset (expected {}/variants/<variant>/ or a dataset.toml naming the variants)",
                dir.display(),
                dir.display()
            ))
        })?;
        let mut v: Vec<(String, PathBuf)> = rd
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .map(|p| {
                // (a symlinked variant folder is confined below, like a named one)
                (
                    p.file_name()
                        .unwrap_or_default()
                        .to_string_lossy()
                        .into_owned(),
                    p,
                )
            })
            .collect();
        v.sort();
        v
    } else {
        conf.variants
            .into_iter()
            .map(|(k, p)| (k, dir.join(p)))
            .collect()
    };
    if variant_dirs.is_empty() {
        return Err(CliError(format!("{}: no variants", dir.display())));
    }
    let mut variants = Vec::new();
    let mut generation = Vec::new();
    for (name, d) in variant_dirs {
        let spec = d.join(generate::variant::FILE_NAME);
        if !spec.is_file() {
            variants.push((name.clone(), files_in(&d, boundary)?));
            continue;
        }
        generation.push((name.clone(), spec));
        let outputs = run_id.map(|id| run_dir(dir, id).join(&name));
        match outputs.filter(|o| o.is_dir()) {
            Some(o) => variants.push((name, files_in(&o, boundary)?)),
            None => variants.push((name, vec![])),
        }
    }
    Ok(Layout {
        playbook: conf.playbook,
        scenarios,
        variants,
        generation,
    })
}

/// The output with the scenario's front matter when it has none of its own (a scenario
/// carries `current_time`, `timezone`).
fn compose(output: String, scenario_text: Option<&str>) -> String {
    use crate::engine::document::front_matter;
    let fm = scenario_text.and_then(|s| front_matter::bounds(s).map(|(_, body)| &s[..body]));
    match fm {
        Some(fm) if front_matter::bounds(&output).is_none() => {
            let newline = if fm.ends_with('\n') { "" } else { "\n" };
            format!("{fm}{newline}{output}")
        }
        _ => output,
    }
}

struct Job {
    scenario: String,
    variant: String,
    resolved: Resolved,
    key: String,
    generation: Option<generate::GenerationMeta>,
}

fn resolve_all(
    (dir, args): (&Path, &DatasetOpts),
    (workspace, boundary): (&Policy, &Boundary),
    lay: &Layout,
) -> Result<Vec<Job>, CliError> {
    let cwd = std::env::current_dir()?;
    let resolver = Resolver::for_batch();
    let read = |p: &Path| -> Result<String, CliError> {
        let real = boundary
            .confined(p)
            .map_err(|e| CliError(format!("{}: refused: {e}", p.display())))?;
        let bytes = read_bounded(&real).map_err(|e| CliError(format!("{}: {e}", p.display())))?;
        Ok(decode(&p.display().to_string(), bytes)?)
    };
    let mut jobs = Vec::new();
    for (variant, outputs) in &lay.variants {
        for (name, path) in outputs {
            let scenario = lay
                .scenarios
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, p)| p);
            let scenario_text = scenario.map(|p| read(p)).transpose()?;
            let resolved = resolver.resolve(Request {
                text: compose(read(path)?, scenario_text.as_deref()),
                path: Some(path),
                roots: boundary.roots().to_vec(),
                cli_playbook: args.playbook.clone().map(|p| (p, cwd.clone())),
                setting_playbook: None,
                source: scenario.map(PathBuf::as_path),
                prompt: None,
                locked: workspace.locked,
                user_playbooks: args.trust.allow_playbook.clone(),
                dataset_playbook: lay.playbook.clone().map(|p| (p, dir.to_path_buf())),
            })?;
            if let Some(p) = resolved.problems.first() {
                return Err(CliError(format!("{}: {}", path.display(), p.message)));
            }
            jobs.push(Job {
                scenario: name.clone(),
                variant: variant.clone(),
                generation: generate::meta_of(&resolved.doc.text),
                resolved,
                key: doc_key(path),
            });
        }
    }
    if jobs.is_empty() {
        return Err(CliError(format!(
            "{}: the variants hold no outputs (generation variants: run `byop dataset run`)",
            dir.display()
        )));
    }
    Ok(jobs)
}

/// `byop dataset DIR` (`byop dataset run` is dispatched to its own module).
pub async fn run(dir: Option<PathBuf>, opts: &DatasetOpts) -> Result<u8, CliError> {
    let Some(dir) = dir else {
        return Err(CliError("byop dataset: no DIR".into()));
    };
    let run_id = latest_run(&dir);
    compare(&dir, opts, run_id.as_deref(), Prices::default()).await
}

/// Every variant's outputs through the playbook (a generation variant's: those of `run_id`),
/// then the comparison, written where the options say.
pub(super) async fn compare(
    dir: &Path,
    args: &DatasetOpts,
    run_id: Option<&str>,
    prices: Prices,
) -> Result<u8, CliError> {
    let workspace = super::workspace_policy(&args.trust)?;
    let evaluator = super::single::batch_evaluator(&args.evaluator, args.mode, &workspace)?;
    let db = super::output::db_location(args.db.clone(), &workspace)?;
    let store = Arc::new(Store::open(&db)?);
    let summary = summarize(dir, args, (run_id, prices), evaluator, store).await?;
    let body = match args.format {
        super::args::DatasetFormat::Text => crate::render::dataset::text(&summary),
        super::args::DatasetFormat::Json => {
            serde_json::to_string_pretty(&summary).map_err(|e| CliError(e.to_string()))? + "\n"
        }
        super::args::DatasetFormat::Html => crate::render::dataset::html(&summary),
    };
    super::output::write(args.output.as_deref(), &body)?;
    Ok(0)
}

/// The folder `byop serve --dataset DIR` offers, checked now (a dataset whose folders stay
/// inside it or the workspace), summarized on each view with the viewer's evaluator: the
/// last run's outputs through the playbook, as `byop dataset DIR` does.
pub(super) fn offered(
    dir: &Path,
    args: &DatasetOpts,
    store: Arc<Store>,
) -> Result<crate::web::OfferedDataset, CliError> {
    let dir = std::path::absolute(dir)?;
    let workspace = super::workspace_policy(&args.trust)?;
    let mut roots = super::single::roots(&workspace);
    roots.push(dir.clone());
    layout(&dir, &Boundary::new(roots), latest_run(&dir).as_deref())
        .map_err(|e| CliError(format!("--dataset {}: {}", dir.display(), e.0)))?;
    let name = dir
        .file_name()
        .map_or_else(|| "dataset".into(), |n| n.to_string_lossy().into_owned());
    let args = args.clone();
    let summarize: crate::web::SummarizeFn = Arc::new(move |evaluator| {
        let (dir, args, store) = (dir.clone(), args.clone(), store.clone());
        Box::pin(async move {
            let run_id = latest_run(&dir);
            let run = (run_id.as_deref(), Prices::default());
            summarize(&dir, &args, run, evaluator, store.clone())
                .await
                .map_err(|e| e.0)
        })
    });
    Ok(crate::web::OfferedDataset { name, summarize })
}

/// What the comparison reads of an output's plan besides its report.
struct Reading {
    confidence: Option<String>,
    facts: PlanFacts,
}

/// Every output through the playbook, a task each (the local checks are CPU work: the
/// outputs then use every thread of the runtime; the evaluator's permits bound the calls
/// in flight, the store's response cache serves repeats); nothing saved yet.
async fn evaluate_all(
    jobs: Vec<Job>,
    store: &Arc<Store>,
    opts: &RunOptions,
) -> Result<(Vec<Unsaved>, Vec<(Arc<Job>, Reading)>), CliError> {
    let tasks = jobs.into_iter().map(Arc::new).map(|job| {
        let (store, opts) = (store.clone(), opts.clone());
        tokio::spawn(async move {
            let unsaved = evaluate_unsaved(&job.resolved, Some(&store), &job.key, opts, None).await;
            // The plan as the checks read it (read once, on the document).
            let analysis = crate::engine::plan::of_document(&job.resolved.doc);
            let reading = Reading {
                confidence: analysis.plan.confidence.clone(),
                facts: PlanFacts::of(analysis),
            };
            (unsaved, (job, reading))
        })
    });
    let mut evaluated = Vec::new();
    let mut readings = Vec::new();
    for task in join_all(tasks).await {
        let (unsaved, reading) = task.unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()));
        evaluated.push(unsaved?);
        readings.push(reading);
    }
    Ok((evaluated, readings))
}

/// The comparison of every variant's outputs, evaluated with `evaluator` (none: the
/// checks that need one are indeterminate).
async fn summarize(
    dir: &Path,
    args: &DatasetOpts,
    (run_id, prices): (Option<&str>, Prices),
    evaluator: Option<crate::evaluator::Evaluator>,
    store: Arc<Store>,
) -> Result<dataset::DatasetSummary, CliError> {
    let workspace = super::workspace_policy(&args.trust)?;
    let mut roots = super::single::roots(&workspace);
    roots.push(dir.to_path_buf());
    let boundary = Boundary::new(roots);
    let lay = layout(dir, &boundary, run_id)?;
    let jobs = resolve_all((dir, args), (&workspace, &boundary), &lay)?;
    let opts = RunOptions {
        mode: args.mode,
        fresh: args.fresh,
        evaluator,
        canary: trust::canary(args.trust.no_canary.then_some(false), &workspace),
        ..Default::default()
    };
    let (evaluated, readings) = evaluate_all(jobs, &store, &opts).await?;
    // Every report and audit trail in one store transaction, however many outputs.
    let saved = save_all(&store, evaluated);
    let mut rows = Vec::new();
    let mut notice = None;
    for ((j, reading), r) in readings.into_iter().zip(saved) {
        let (report, _) = r?;
        notice = notice.or_else(|| report.notices.first().cloned());
        let facts = report.validation.as_ref().map(|_| reading.facts);
        rows.push(Row {
            scenario: j.scenario.clone(),
            variant: j.variant.clone(),
            report,
            confidence: reading.confidence,
            generation: j.generation.clone(),
            facts,
        });
    }
    if let Some(n) = notice {
        crate::render::terminal::notice(&n);
    }
    let compare = args
        .compare
        .as_ref()
        .map(|v| (v[0].as_str(), v[1].as_str()));
    if let Some((a, b)) = compare {
        for v in [a, b] {
            if !rows.iter().any(|r| r.variant == v) {
                return Err(CliError(format!(
                    "--compare: no variant `{v}` in the dataset"
                )));
            }
        }
    }
    let mut summary = dataset::summarize(&rows, compare);
    dataset::price(&mut summary, prices);
    Ok(summary)
}

#[cfg(test)]
mod compose_tests {
    use super::compose;

    #[test]
    fn an_output_without_front_matter_takes_the_scenarios_and_nothing_more() {
        let scenario = "---\ntimezone: UTC\n---\nnotes\n\n---\n\nmore notes\n";
        assert_eq!(
            compose("- plan\n".into(), Some(scenario)),
            "---\ntimezone: UTC\n---\n- plan\n"
        );
        let own = "---\nvariant: a\n---\n- plan\n";
        assert_eq!(compose(own.into(), Some(scenario)), own);
        assert_eq!(
            compose("- plan\n".into(), Some("---\ntimezone: UTC\n---")),
            "---\ntimezone: UTC\n---\n- plan\n"
        );
        assert_eq!(compose("- plan\n".into(), Some("notes only")), "- plan\n");
    }
}
