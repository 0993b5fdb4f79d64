//! `byop counterfactual FILE`: resolve the document, choose the evaluator, say what the
//! audit will cost, run it, save it, render it. Exit 0 when no check × cue moved
//! significantly, 1 when one did (or a placebo did: the evaluator is unstable), 2 on
//! a usage or input error (including a budget the audit would exceed).

use std::io::IsTerminal;
use std::sync::Arc;

use super::args::{CounterfactualArgs, CounterfactualFormat};
use super::error::CliError;
use super::output;
use crate::engine::counterfactual::{CfError, stats};
use crate::engine::runner;
use crate::render::counterfactual as render;
use crate::store::Store;
use crate::workspace::counterfactual::{AuditError, AuditOptions, audit_and_save, load_catalog};
use crate::workspace::doc_key;

pub async fn run(args: CounterfactualArgs) -> Result<u8, CliError> {
    let cwd = std::env::current_dir()?;
    let workspace = super::workspace_policy(&args.trust)?;
    let catalog = load_catalog(Some(&args.cues), &cwd).map_err(CliError)?;
    let path = args.file.as_path();
    let resolved = super::single::resolve(
        super::single::DocFlags {
            file: path,
            inputs: &args.inputs,
            trust: &args.trust,
        },
        &cwd,
        &workspace,
    )?;
    let evaluator = super::single::evaluator(&args.evaluator, &workspace)?.map_err(|why| {
        CliError(match why {
            Some(why) => format!("a counterfactual audit needs an evaluator: {why}"),
            None => "a counterfactual audit needs an evaluator".into(),
        })
    })?;
    let db = super::output::db_location(args.db.clone(), &workspace)?;
    let store = Arc::new(Store::open(&db)?);
    let progress_on_tty = std::io::stderr().is_terminal();
    let progress: Option<runner::ProgressFn> = progress_on_tty.then(|| {
        Arc::new(move |p: runner::Progress| {
            eprint!("\r\x1b[2Kcounterfactual: {}/{} calls", p.done, p.total_runs);
        }) as runner::ProgressFn
    });
    let opts = AuditOptions {
        catalog,
        checks: args.checks.clone(),
        pairs: args.pairs,
        seed: args.seed,
        margin: args.margin.unwrap_or_else(stats::default_margin),
        max_calls: args.max_calls,
        fresh: args.fresh,
        evaluator,
        progress,
        cancel: Default::default(),
    };
    let result = audit_and_save(&resolved, Some(store.clone()), &doc_key(path), opts, |e| {
        crate::render::terminal::eprint_line(&format!("byop: {}", e.message()))
    })
    .await;
    if progress_on_tty {
        eprint!("\r\x1b[2K");
    }
    let audit = result.map_err(|e| match e {
        AuditError::Audit(CfError::Budget { .. }) | AuditError::Audit(CfError::Input(_)) => {
            CliError(e.to_string())
        }
        other => CliError(other.to_string()),
    })?;
    if let Some(n) = store.integrity_notice() {
        crate::render::terminal::notice(&n);
    }
    let body = match args.format {
        CounterfactualFormat::Text => render::text(&audit),
        CounterfactualFormat::Json => render::json(&audit),
        CounterfactualFormat::Html => render::html(&audit),
        CounterfactualFormat::Jsonl => render::jsonl(&audit),
    };
    output::write(args.output.as_deref(), &body)?;
    Ok(u8::from(audit.results.iter().any(|r| r.significant)))
}
