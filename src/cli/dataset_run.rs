//! `byop dataset run DIR`: generate every missing output (scenario × generation variant)
//! with the evaluator's provider, all at once under its one concurrency bound and pause,
//! each request's answer cached by the exact request; write each output under
//! `DIR/runs/<run id>/<variant>/<scenario>.md` as soon as it is done (a killed run keeps
//! what it finished, and its cache); then compare every variant as `byop dataset` does.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use futures::future::join_all;
use tokio_util::sync::CancellationToken;

use super::args::DatasetRunArgs;
use super::dataset::{LATEST, layout, plain_id, run_dir};
use super::error::CliError;
use crate::engine::dataset::Prices;
use crate::engine::document::decode;
use crate::engine::generate::{self, GenContext, Scenario, Variant};
use crate::evaluator::{Evaluator, ResponseCache};
use crate::model::integrity::{canonical_json, sha256_hex};
use crate::store::Store;
use crate::workspace::boundary::{Boundary, read_bounded};
use crate::workspace::gen_audit::{self, GenAudit};
use crate::workspace::gen_trace::Generation;
use crate::workspace::trust;
use crate::workspace::{Request, Resolver};

pub async fn run(args: DatasetRunArgs) -> Result<u8, CliError> {
    let opts = &args.opts;
    let dir = &args.dir;
    let workspace = super::workspace_policy(&opts.trust)?;
    super::start_telemetry(&args.otlp, &workspace)?;
    let mut roots = super::single::roots(&workspace);
    roots.push(dir.clone());
    let boundary = Boundary::new(roots);
    let lay = layout(dir, &boundary, None)?;
    if lay.generation.is_empty() {
        return Err(CliError(format!(
            "{}: no generation variant (a variants/<name>/variant.toml)",
            dir.display()
        )));
    }
    let evaluator = match super::single::evaluator(&opts.evaluator, &workspace)? {
        Ok(e) => e,
        Err(why) => {
            return Err(CliError(format!(
                "byop dataset run needs an evaluator to generate with: {}",
                why.unwrap_or_else(|| "none configured".into())
            )));
        }
    };
    let read = |p: &Path| -> Result<String, CliError> {
        let real = boundary
            .confined(p)
            .map_err(|e| CliError(format!("{}: refused: {e}", p.display())))?;
        let bytes = read_bounded(&real).map_err(|e| CliError(format!("{}: {e}", p.display())))?;
        Ok(decode(&p.display().to_string(), bytes)?)
    };
    let provider = evaluator.info().provider;
    let mut variants = Vec::new();
    for (name, spec) in &lay.generation {
        let label = spec.display().to_string();
        let v = Variant::parse(name, &label, &read(spec)?).map_err(CliError)?;
        for n in trust::variant_endpoint(&v.keys, &provider)
            .map_err(|e| CliError(format!("{label}: {e}")))?
        {
            crate::render::terminal::notice(&format!("{label}: {n}"));
        }
        variants.push(v);
    }
    let scenarios = lay
        .scenarios
        .iter()
        .map(|(name, p)| Ok(Scenario::new(name, p.clone(), read(p)?)))
        .collect::<Result<Vec<_>, CliError>>()?;
    if scenarios.is_empty() {
        return Err(CliError(format!("{}: no scenarios", dir.display())));
    }
    let playbook = playbook_for(&args, &workspace, &boundary, &scenarios[0], &lay)?;
    let run_id = match &args.run_id {
        Some(id) if plain_id(id) => id.clone(),
        Some(id) => {
            return Err(CliError(format!(
                "--run-id {id:?}: use letters, digits, '-', '_' or '.' (at most 64)"
            )));
        }
        None => run_id_of(&evaluator, &variants),
    };
    let out = run_dir(dir, &run_id);
    // Every folder written to, checked (and made) before anything is written or called.
    for folder in std::iter::once(out.clone()).chain(variants.iter().map(|v| out.join(&v.name))) {
        crate::workspace::boundary::make_dirs_below(dir, &folder)
            .map_err(|e| CliError(format!("byop dataset run refused: {e}")))?;
    }
    let db = super::output::db_location(opts.db.clone(), &workspace)?;
    let store = Arc::new(Store::open(&db)?);
    let tally = generate_missing(
        (&scenarios, &variants),
        &out,
        Shared {
            evaluator: &evaluator,
            playbook: &playbook,
            store: store.as_ref(),
            fresh: opts.fresh,
        },
    )
    .await?;
    super::fix::write_atomically(&dir.join("runs").join(LATEST), &format!("{run_id}\n"))?;
    crate::render::terminal::eprint_line(&format!(
        "byop: run {run_id}: {} output(s) generated, {} already there, {} failed; outputs in {}",
        tally.made,
        tally.present,
        tally.failed,
        out.display()
    ));
    let prices = Prices {
        input: args.input_price,
        output: args.output_price,
    };
    let code = super::dataset::compare(dir, opts, Some(&run_id), prices).await?;
    crate::workspace::telemetry::shutdown();
    Ok(if tally.failed > 0 {
        code.max(super::check::NOT_EVALUATED)
    } else {
        code
    })
}

/// The playbook outputs are validated by while generating: the one the comparison uses
/// (command line, then dataset.toml, then the scenario's front matter).
fn playbook_for(
    args: &DatasetRunArgs,
    workspace: &trust::Policy,
    boundary: &Boundary,
    scenario: &Scenario,
    lay: &super::dataset::Layout,
) -> Result<crate::engine::playbook::LoadedPlaybook, CliError> {
    let cwd = std::env::current_dir()?;
    let opts = &args.opts;
    let resolved = Resolver::for_batch().resolve(Request {
        text: scenario.text.clone(),
        path: Some(&scenario.path),
        roots: boundary.roots().to_vec(),
        cli_playbook: opts.playbook.clone().map(|p| (p, cwd)),
        setting_playbook: None,
        source: None,
        prompt: None,
        locked: workspace.locked,
        user_playbooks: opts.trust.allow_playbook.clone(),
        dataset_playbook: lay.playbook.clone().map(|p| (p, args.dir.clone())),
    })?;
    if let Some(p) = resolved.problems.first() {
        return Err(CliError(format!(
            "{}: {}",
            scenario.path.display(),
            p.message
        )));
    }
    Ok(resolved.playbook)
}

/// The default run id: a hash of what determines the outputs (provider, models,
/// parameters, strategies, templates), so the same experiment lands in the same folder.
fn run_id_of(evaluator: &Evaluator, variants: &[Variant]) -> String {
    let info = evaluator.info();
    let vs: Vec<serde_json::Value> = variants
        .iter()
        .map(|v| {
            let p = v.params(&info.model);
            serde_json::json!({
                "name": v.name, "strategy": v.strategy.as_str(), "template": v.template,
                "system": v.system, "model": p.model, "temperature": p.temperature,
                "max_tokens": p.max_tokens,
            })
        })
        .collect();
    let identity = serde_json::json!({"provider": info.provider, "variants": vs});
    sha256_hex(canonical_json(&identity).as_bytes())[..12].to_string()
}

struct Shared<'a> {
    evaluator: &'a Evaluator,
    playbook: &'a crate::engine::playbook::LoadedPlaybook,
    /// The response cache and the audit log.
    store: &'a Store,
    fresh: bool,
}

#[derive(Default)]
struct Tally {
    made: usize,
    present: usize,
    failed: usize,
}

/// Every output not yet in `out`, at once (the evaluator's permits bound the calls in
/// flight); each written as soon as it is done.
async fn generate_missing(
    (scenarios, variants): (&[Scenario], &[Variant]),
    out: &Path,
    shared: Shared<'_>,
) -> Result<Tally, CliError> {
    let cancel = CancellationToken::new();
    let mut tally = Tally::default();
    let mut jobs: Vec<(&Scenario, &Variant, PathBuf)> = Vec::new();
    for v in variants {
        for s in scenarios {
            let path = out.join(&v.name).join(format!("{}.md", s.name));
            if path.is_file() {
                tally.present += 1;
            } else {
                jobs.push((s, v, path));
            }
        }
    }
    let shared = &shared;
    let cancel = &cancel;
    let results = join_all(jobs.iter().map(|(s, v, path)| async move {
        let key = output_key(path)?;
        let audit = GenAudit::start(&key, s, v, &shared.playbook.logic_hash);
        let started = std::time::SystemTime::now();
        let recorder = crate::workspace::evaluate::Recorder::default();
        let cx = GenContext {
            evaluator: shared.evaluator,
            playbook: shared.playbook,
            cache: Some(shared.store as &dyn ResponseCache),
            observer: Some(&recorder),
            cancel,
            fresh: shared.fresh,
        };
        let produced = generate::produce(s, v, cx).await;
        let calls = recorder.take();
        let g = Generation {
            scenario: s,
            variant: v,
            request_id: audit.request_id(),
            served: None,
        };
        crate::workspace::gen_trace::export(&g, produced.as_ref().ok(), &calls, started);
        let written = match &produced {
            Ok(p) => super::fix::write_atomically(path, &p.text).map_err(|e| e.0),
            Err(e) => Err(format!("{}/{}: generation failed: {e}", v.name, s.name)),
        };
        // Logged once the output is on disk: a `generated` row names a file that exists.
        let ended = match (&produced, &written) {
            (Ok(p), Ok(())) => Ok(p),
            (Ok(_), Err(_)) => Err("write_error".to_string()),
            (Err(e), _) => Err(gen_audit::not_generated(e)),
        };
        audit.finish(shared.store, s, ended, calls);
        written
    }))
    .await;
    for r in results {
        match r {
            Ok(()) => tally.made += 1,
            Err(e) => {
                tally.failed += 1;
                crate::render::terminal::eprint_line(&format!("byop: {e}"));
            }
        }
    }
    Ok(tally)
}

/// An output's identity in the store and the audit log: its canonical path, known before
/// the file exists (its folder is made first).
fn output_key(path: &Path) -> Result<String, String> {
    let parent = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    let real = std::fs::canonicalize(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    Ok(real
        .join(path.file_name().unwrap_or_default())
        .display()
        .to_string())
}
