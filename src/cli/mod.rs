//! The command line: translates arguments into engine calls and reports into
//! bytes. One module per subcommand. Exit codes: 0 below `--fail-on`, 1 at or above it, 2 usage,
//! config or input error (one line on stderr, nothing on stdout).

mod args;
mod baseline;
mod check;
mod counterfactual;
mod dataset;
mod dataset_run;
mod diff;
mod error;
mod fix;
mod flags;
mod history;
mod log;
mod output;
mod plan;
mod playbook;
mod repair;
mod report;
mod serve;
mod single;
mod store;

use std::process::ExitCode;

use clap::Parser;

pub use args::*;
pub use error::CliError;

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(CliError(msg)) => {
            eprintln!("byop: error: {}", crate::render::terminal::escape(&msg));
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<u8, CliError> {
    // Built for the commands that need it (a command that only reads the store starts
    // no worker threads); kept until the traces below are sent.
    let built = std::cell::OnceCell::new();
    let runtime = || -> Result<&tokio::runtime::Runtime, CliError> {
        if built.get().is_none() {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()?;
            let _ = built.set(rt);
        }
        Ok(built.get().expect("built above"))
    };
    let code = match cli.command {
        Command::Check(args) => runtime()?.block_on(check::run(args)),
        Command::Repair(args) => runtime()?.block_on(repair::run(args)),
        Command::Lsp => {
            runtime()?.block_on(crate::lsp::serve_stdio());
            Ok(0)
        }
        Command::History {
            file,
            format,
            db,
            limit,
            all,
        } => history::run(file, format, db, if all { usize::MAX } else { limit }),
        Command::Diff { a, b, format, db } => diff::run(&a, &b, format, db),
        Command::Baseline { action } => baseline::run(action),
        Command::Report {
            id,
            format,
            html,
            output,
            db,
        } => report::run(&id, if html { Format::Html } else { format }, output, db),
        Command::Log {
            file,
            format,
            verify,
            stats,
            since,
            db,
            limit,
        } => match stats {
            true => log::stats(format, since.as_deref(), db),
            false => log::run(file, format, verify, db, limit),
        },
        Command::Dataset(args) => match args.action {
            Some(DatasetAction::Run(run)) => runtime()?.block_on(dataset_run::run(run)),
            None => runtime()?.block_on(dataset::run(args.dir, &args.opts)),
        },
        Command::Plan(args) => runtime()?.block_on(plan::run(args)),
        Command::Store { action } => store::run(action),
        Command::Playbook { action } => playbook::run(action),
        Command::Counterfactual(args) => runtime()?.block_on(counterfactual::run(args)),
        Command::Serve(args) => runtime()?.block_on(serve::run(args)),
    };
    // Traces are exported in the background: send what is left before exiting.
    crate::workspace::telemetry::shutdown();
    code
}

/// Traces to the flag's or the environment's OTLP endpoint, if any (`byop.toml` may only
/// name the same one). An endpoint that is not an http(s) URL is an error; an unreachable
/// one only a notice at exit.
fn start_telemetry(
    flags: &args::OtlpFlags,
    policy: &crate::workspace::trust::Policy,
) -> Result<(), CliError> {
    use crate::workspace::telemetry;
    let env = |name: &str| std::env::var(name).ok();
    let user = telemetry::UserTelemetry {
        endpoint: flags.endpoint.as_deref(),
        include_text: flags.include_text,
    };
    let (settings, notice) = telemetry::settings(user, &env, policy);
    if let Some(n) = notice {
        crate::render::terminal::notice(&n);
    }
    match settings {
        Some(s) => telemetry::install(&s).map_err(CliError),
        None => Ok(()),
    }
}

/// Whether the user allows text (previews) in traces and in printed `debug` objects.
fn text_allowed(flags: &args::OtlpFlags) -> bool {
    let env = |name: &str| std::env::var(name).ok();
    crate::workspace::telemetry::user_allows_text(flags.include_text, &env)
}

/// The workspace governing the working folder, under the trust model: locked mode from
/// the flags, `BYOP_LOCKED` or `CI`, and every ignored key said once on stderr.
fn workspace_policy(flags: &TrustFlags) -> Result<crate::workspace::trust::Policy, CliError> {
    use crate::workspace::trust;
    let env = |n: &str| std::env::var(n).ok();
    let lock = trust::lock(flags.locked_flag(), &env);
    if let Some(n) = &lock.notice {
        crate::render::terminal::notice(n);
    }
    let config = crate::workspace::Config::discover(&std::env::current_dir()?)?;
    let policy = trust::Policy::new(std::sync::Arc::new(config), lock.on);
    for n in &policy.notices {
        crate::render::terminal::notice(n);
    }
    Ok(policy)
}
