//! `byop plan NOTES.md --variant v4_repair`: one daily plan generated from the notes with a
//! variant, validated, repaired once when it fails, and printed as the plan JSON with its
//! `validation` and `debug`. Exit 0: the plan passes (recommended); 1: it is rejected;
//! 2: usage or input error (also: no evaluator); 3: no plan came back.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::args::PlanArgs;
use super::check::NOT_EVALUATED;
use super::error::CliError;
use crate::engine::generate::{self, GenContext, Scenario, Variant, daily};
use crate::store::Store;
use crate::workspace::files::read_text;
use crate::workspace::gen_audit::{self, GenAudit};
use crate::workspace::gen_trace::Generation;
use crate::workspace::trust;
use crate::workspace::{Request, Resolver, doc_key};

fn variant(spec: &str) -> Result<Variant, CliError> {
    if let Some(v) = daily::built_in(spec) {
        return v.map_err(CliError);
    }
    let mut path = PathBuf::from(spec);
    if path.is_dir() {
        path = path.join(generate::variant::FILE_NAME);
    }
    if !path.is_file() {
        return Err(CliError(format!(
            "--variant {spec}: neither a built-in variant ({}) nor a variant.toml",
            daily::built_in_names().join(", ")
        )));
    }
    let name = path
        .parent()
        .and_then(Path::file_name)
        .map_or_else(|| "variant".into(), |n| n.to_string_lossy().into_owned());
    Variant::parse(&name, &path.display().to_string(), &read_text(&path)?).map_err(CliError)
}

pub async fn run(args: PlanArgs) -> Result<u8, CliError> {
    let cwd = std::env::current_dir()?;
    let workspace = super::workspace_policy(&args.trust)?;
    super::start_telemetry(&args.otlp, &workspace)?;
    let variant = variant(&args.variant)?;
    let mut scenario = Scenario::new(
        &args
            .notes
            .file_stem()
            .map_or_else(|| "notes".into(), |s| s.to_string_lossy().into_owned()),
        args.notes.clone(),
        read_text(&args.notes)?,
    );
    scenario.current_time = args.current_time.clone().or(scenario.current_time);
    scenario.timezone = args.timezone.clone().or(scenario.timezone);
    let evaluator = match super::single::evaluator(&args.evaluator, &workspace)? {
        Ok(e) => e,
        Err(why) => {
            return Err(CliError(format!(
                "byop plan needs an evaluator to generate with: {}",
                why.unwrap_or_else(|| "none configured".into())
            )));
        }
    };
    let label = format!("--variant {}", args.variant);
    for n in trust::variant_endpoint(&variant.keys, &evaluator.info().provider)
        .map_err(|e| CliError(format!("{label}: {e}")))?
    {
        crate::render::terminal::notice(&format!("{label}: {n}"));
    }
    let playbook = Resolver::new()
        .resolve(Request {
            text: String::new(),
            path: None,
            roots: super::single::roots(&workspace),
            cli_playbook: Some((args.playbook.clone().unwrap_or("planproof_v1".into()), cwd)),
            setting_playbook: None,
            source: None,
            prompt: None,
            locked: workspace.locked,
            user_playbooks: args.trust.allow_playbook.clone(),
            dataset_playbook: None,
        })?
        .playbook;
    let db = super::output::db_location(args.db.clone(), &workspace)?;
    let store = Arc::new(Store::open(&db)?);
    let audit = GenAudit::start(
        &doc_key(&args.notes),
        &scenario,
        &variant,
        &playbook.logic_hash,
    );
    let audit_request_id = audit.request_id().to_string();
    let recorder = crate::workspace::evaluate::Recorder::default();
    let cancel = CancellationToken::new();
    let started = std::time::SystemTime::now();
    let produced = generate::produce(
        &scenario,
        &variant,
        GenContext {
            evaluator: &evaluator,
            playbook: &playbook,
            cache: Some(store.as_ref()),
            observer: Some(&recorder),
            cancel: &cancel,
            fresh: args.fresh,
        },
    )
    .await;
    let calls = recorder.take();
    // The plan as served, validated (also when the strategy itself did not validate).
    let allow_text = super::text_allowed(&args.otlp);
    let answer = match &produced {
        Ok(p) => Some(daily::answer(p, &scenario, &playbook, allow_text).map_err(CliError)?),
        Err(_) => None,
    };
    let g = Generation {
        scenario: &scenario,
        variant: &variant,
        request_id: &audit_request_id,
        served: answer.as_ref().and_then(|a| a.validation.as_ref()),
    };
    crate::workspace::gen_trace::export(&g, produced.as_ref().ok(), &calls, started);
    crate::workspace::telemetry::shutdown();
    let ended = produced.as_ref().map_err(gen_audit::not_generated);
    audit.finish(&store, &scenario, ended, calls);
    let mut answer = match (produced, answer) {
        (Ok(_), Some(a)) => a,
        (Err(e), _) => {
            crate::render::terminal::eprint_line(&format!("byop: no plan generated: {e}"));
            return Ok(NOT_EVALUATED);
        }
        (Ok(_), None) => return Ok(NOT_EVALUATED),
    };
    answer.body["debug"]["audit_request_id"] = audit_request_id.into();
    super::output::write(None, &(serde_json::to_string_pretty(&answer.body)? + "\n"))?;
    Ok(if answer.passed { 0 } else { 1 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::generate::Strategy;

    #[test]
    fn the_shipped_variants_parse_with_their_strategies() {
        let want = [
            Strategy::Naive,
            Strategy::Constraints,
            Strategy::Validate,
            Strategy::Repair,
        ];
        for (name, strategy) in daily::built_in_names().into_iter().zip(want) {
            let v = variant(name).unwrap();
            assert_eq!((v.name.as_str(), v.strategy), (name, strategy));
            assert!(v.template.contains("{{notes}}"), "{name}");
            assert_eq!(v.keys, Default::default());
        }
        let legal = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/legal-generate/variants");
        for (name, strategy) in [("terse", Strategy::Naive), ("cited", Strategy::Repair)] {
            let v = variant(&legal.join(name).display().to_string()).unwrap();
            assert_eq!((v.name.as_str(), v.strategy), (name, strategy));
        }
        assert!(
            variant("v9_magic")
                .unwrap_err()
                .0
                .contains("neither a built-in")
        );
    }
}
