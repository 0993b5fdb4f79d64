//! The command-line arguments.

use std::net::IpAddr;
use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

pub use super::flags::{DocInputs, EvaluatorFlags, OtlpFlags, TrustFlags};
use crate::model::Mode;

#[derive(Parser, Debug)]
#[command(
    name = "byop",
    version,
    about = "Lint AI-generated legal output against a playbook. Observability, not legal advice."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run the playbook against AI-output documents.
    Check(CheckArgs),
    /// Run the language server over stdio.
    Lsp,
    /// Past reports (of FILE, or of every document).
    History {
        file: Option<PathBuf>,
        #[arg(long, default_value = "text")]
        format: HistoryFormat,
        #[arg(long, env = "BYOP_DB")]
        db: Option<PathBuf>,
        /// The newest N rows (a note says how many more there are).
        #[arg(long, default_value_t = 50)]
        limit: usize,
        /// Every row, however many.
        #[arg(long, conflicts_with = "limit")]
        all: bool,
    },
    /// Compare two reports (ids, id prefixes or JSON files).
    Diff {
        a: String,
        b: String,
        #[arg(long, default_value = "text")]
        format: DiffFormat,
        #[arg(long, env = "BYOP_DB")]
        db: Option<PathBuf>,
    },
    /// Save or show the drift baseline of a document.
    Baseline {
        #[command(subcommand)]
        action: BaselineAction,
    },
    /// Show a stored report (or a report JSON file) in another format.
    Report {
        /// Report id, id prefix, or JSON file.
        id: String,
        #[arg(long, default_value = "text")]
        format: Format,
        /// Shorthand for `--format html`.
        #[arg(long)]
        html: bool,
        #[arg(long, short)]
        output: Option<PathBuf>,
        #[arg(long, env = "BYOP_DB")]
        db: Option<PathBuf>,
    },
    /// The audit log: every evaluation request's states and evaluator calls.
    Log {
        /// Only this document's rows.
        file: Option<PathBuf>,
        #[arg(long, default_value = "text")]
        format: HistoryFormat,
        /// Check the hash chain: exit 0 when intact, 1 naming the first broken row.
        #[arg(long)]
        verify: bool,
        /// Sum the log up: evaluations, fail-closed requests by code and stage, evaluator
        /// calls by outcome, cache hit rate, latency per state and per provider.
        #[arg(long, conflicts_with_all = ["verify", "file"])]
        stats: bool,
        /// With --stats: only rows at or after DATE (YYYY-MM-DD or an RFC 3339 time, UTC).
        #[arg(long, value_name = "DATE", requires = "stats")]
        since: Option<String>,
        #[arg(long, env = "BYOP_DB")]
        db: Option<PathBuf>,
        #[arg(long, default_value_t = 200)]
        limit: usize,
    },
    /// Compare variants' outputs over a dataset of scenarios (`dataset run`: generate them first).
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Dataset(DatasetArgs),
    /// Generate one daily plan from NOTES with a variant, validate it, repair it once if it
    /// fails, and print it as JSON with its validation.
    Plan(PlanArgs),
    /// Keep the store small: prune old reports, give space back.
    Store {
        #[command(subcommand)]
        action: StoreAction,
    },
    /// Repair once with the evaluator, then re-validate: the repaired text only if every
    /// deterministic check passes on it.
    Repair(RepairArgs),
    /// Counterfactual audit: does the evaluator's verdict move when only an irrelevant
    /// cue (who wrote it, for whom, how it is phrased) changes?
    Counterfactual(CounterfactualArgs),
    /// The runner as a web page and an HTTP API, on 127.0.0.1 with a per-launch token.
    Serve(ServeArgs),
    /// Inspect playbooks.
    Playbook {
        #[command(subcommand)]
        action: PlaybookAction,
    },
}

#[derive(Subcommand, Debug)]
pub enum BaselineAction {
    /// Make the latest report of FILE its baseline.
    Save {
        file: PathBuf,
        #[arg(long, env = "BYOP_DB")]
        db: Option<PathBuf>,
        #[arg(long)]
        playbook: Option<String>,
    },
    /// Show the baseline report of FILE.
    Show {
        file: PathBuf,
        #[arg(long, default_value = "text")]
        format: Format,
        #[arg(long, env = "BYOP_DB")]
        db: Option<PathBuf>,
        #[arg(long)]
        playbook: Option<String>,
    },
}

#[derive(Subcommand, Debug)]
pub enum StoreAction {
    /// Drop old reports, and the reports and cached answers of documents that no longer
    /// exist. Baselines and the reports they point at stay (unless --baselines).
    Prune {
        /// Per document, keep only the newest N reports.
        #[arg(long, value_name = "N")]
        keep_last: Option<usize>,
        /// Drop reports and cached answers older than DAYS days.
        #[arg(long, value_name = "DAYS")]
        older_than: Option<u64>,
        /// Also drop the baselines of documents that no longer exist.
        #[arg(long)]
        baselines: bool,
        /// Say what would go; change nothing.
        #[arg(long)]
        dry_run: bool,
        #[arg(long, env = "BYOP_DB")]
        db: Option<PathBuf>,
    },
    /// Give the space of deleted rows back to the file system.
    Vacuum {
        #[arg(long, env = "BYOP_DB")]
        db: Option<PathBuf>,
    },
    /// Write the store's reports, reruns, baselines and counterfactual audits to stdout
    /// as JSON lines, each authenticated with the team key (BYOP_STORE_KEY), else your
    /// own key, for `byop store import` into another store (file or server).
    Export {
        /// Only rows from this day (YYYY-MM-DD, UTC) or time (RFC 3339) on, with the
        /// reports their reruns and baselines point at.
        #[arg(long, value_name = "DATE")]
        since: Option<String>,
        #[arg(long, env = "BYOP_DB")]
        db: Option<PathBuf>,
    },
    /// Read a `byop store export` file into the store: every line's MAC is checked
    /// before anything is written, then all rows are written at once.
    Import {
        file: PathBuf,
        #[arg(long, env = "BYOP_DB")]
        db: Option<PathBuf>,
    },
}

#[derive(Subcommand, Debug)]
pub enum PlaybookAction {
    /// Built-in playbooks and `playbooks/*.json` of this workspace.
    List,
    /// Validate a playbook file (errors with file:line:column).
    Validate { path: PathBuf },
    /// Print the playbook logic hash of a built-in id or file.
    Hash { playbook: String },
}

#[derive(clap::Args, Debug, Clone)]
pub struct CheckArgs {
    /// AI-output files (`*.ai.md`, …) or folders to search with the include globs.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[arg(long)]
    pub mode: Option<Mode>,
    #[arg(long, default_value = "text")]
    pub format: Format,
    /// Write the report here instead of stdout (atomically).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub inputs: DocInputs,
    #[arg(long, env = "BYOP_DB")]
    pub db: Option<PathBuf>,
    /// New evaluator samples instead of cached responses.
    #[arg(long)]
    pub fresh: bool,
    /// Runs per evaluator-backed check in full mode (2–10; default 3, or `evaluator.runs`).
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=10))]
    pub runs: Option<u32>,
    /// Full mode: a result stands only with a strict majority (more than half) of the runs
    /// drawn. While a check's runs disagree and a strict majority is still reachable but
    /// not yet certain, more runs are drawn, up to this many (default 7, or
    /// `evaluator.max_runs`; equal to --runs for none). Without a strict majority the check
    /// is indeterminate and its notes give the split.
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=10))]
    pub max_runs: Option<u32>,
    /// Save the new report as the document's drift baseline.
    #[arg(long)]
    pub save_baseline: bool,
    /// Folders: leave out the documents a `.gitignore` matches (by default they are checked
    /// too, and named on stderr: a repository's `.gitignore` never hides a document on its own).
    #[arg(long)]
    pub respect_gitignore: bool,
    #[arg(long, default_value = "alert")]
    pub fail_on: FailOn,
    #[command(flatten)]
    pub evaluator: EvaluatorFlags,
    #[command(flatten)]
    pub trust: TrustFlags,
    /// Apply the safe fixes (missing sections) of the findings to the files.
    #[arg(long)]
    pub fix: bool,
    /// Also apply the checks' other fixes (qualifying terms, inserting statements).
    #[arg(long, requires = "fix")]
    pub unsafe_fixes: bool,
    /// With `--fix`: print the changes as a unified diff instead of writing them.
    #[arg(long, requires = "fix")]
    pub dry_run: bool,
    /// Text format: also list every claim the grounding checks set aside or could not judge,
    /// with its line:column and reason.
    #[arg(long)]
    pub verbose: bool,
    #[command(flatten)]
    pub otlp: OtlpFlags,
}

#[derive(clap::Args, Debug, Clone)]
pub struct RepairArgs {
    /// The AI-output document to repair.
    pub file: PathBuf,
    /// Write the repaired document here (may be FILE itself); without it, print a unified diff.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// `text`: the diff (or nothing); `json`: the report with both validations in `repair`.
    #[arg(long, default_value = "text")]
    pub format: HistoryFormat,
    #[command(flatten)]
    pub inputs: DocInputs,
    #[arg(long, env = "BYOP_DB")]
    pub db: Option<PathBuf>,
    #[command(flatten)]
    pub evaluator: EvaluatorFlags,
    #[command(flatten)]
    pub trust: TrustFlags,
    #[command(flatten)]
    pub otlp: OtlpFlags,
}

#[derive(clap::Args, Debug, Clone)]
pub struct CounterfactualArgs {
    /// The AI-output document to audit.
    pub file: PathBuf,
    /// Cue catalog: `built-in`, or a JSON file (added to the built-in cues).
    #[arg(long, default_value = "built-in")]
    pub cues: String,
    /// Only these checks (comma-separated ids; default: every evaluator-backed check).
    #[arg(long, value_delimiter = ',')]
    pub checks: Option<Vec<String>>,
    /// Pairs (control, treatment) per check × cue.
    #[arg(long, default_value_t = crate::engine::counterfactual::DEFAULT_PAIRS,
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub pairs: u32,
    /// Seed of the pair order and of the randomization inference.
    #[arg(long, default_value_t = 13)]
    pub seed: u64,
    /// TOST equivalence margin on the log odds (default ln 1.5 ≈ 0.405).
    #[arg(long)]
    pub margin: Option<f64>,
    /// Refuse to start when the audit needs more evaluator calls than this (cache hits free).
    #[arg(long, default_value_t = crate::engine::counterfactual::DEFAULT_MAX_CALLS)]
    pub max_calls: usize,
    #[arg(long, default_value = "text")]
    pub format: CounterfactualFormat,
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub inputs: DocInputs,
    #[arg(long, env = "BYOP_DB")]
    pub db: Option<PathBuf>,
    /// New evaluator samples instead of cached responses.
    #[arg(long)]
    pub fresh: bool,
    #[command(flatten)]
    pub evaluator: EvaluatorFlags,
    #[command(flatten)]
    pub trust: TrustFlags,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CounterfactualFormat {
    Text,
    Json,
    Html,
    /// One trial (pair side) per line.
    Jsonl,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    Sarif,
    Junit,
    Html,
}

#[derive(clap::Args, Debug, Clone)]
pub struct DatasetArgs {
    #[command(subcommand)]
    pub action: Option<DatasetAction>,
    /// `DIR/scenarios/<name>.*` and `DIR/variants/<variant>/<name>.*`, or a `DIR/dataset.toml`.
    #[arg(required = true)]
    pub dir: Option<PathBuf>,
    #[command(flatten)]
    pub opts: DatasetOpts,
}

#[derive(clap::Subcommand, Debug, Clone)]
pub enum DatasetAction {
    /// Generate every missing output (scenario × generation variant) with the evaluator's
    /// provider, write them under DIR/runs/<run id>/, then compare every variant.
    Run(DatasetRunArgs),
}

#[derive(clap::Args, Debug, Clone)]
pub struct DatasetRunArgs {
    /// A dataset whose variants include `variants/<name>/variant.toml`.
    pub dir: PathBuf,
    /// The run folder under DIR/runs/ (default: a hash of the variants, the provider and the
    /// models, so running the same experiment again fills in what is missing).
    #[arg(long, value_name = "ID")]
    pub run_id: Option<String>,
    /// US dollars per million input tokens, for the estimated cost per variant.
    #[arg(long, value_name = "USD")]
    pub input_price: Option<f64>,
    /// US dollars per million output tokens, for the estimated cost per variant.
    #[arg(long, value_name = "USD")]
    pub output_price: Option<f64>,
    #[command(flatten)]
    pub otlp: OtlpFlags,
    #[command(flatten)]
    pub opts: DatasetOpts,
}

#[derive(clap::Args, Debug, Clone)]
pub struct DatasetOpts {
    #[arg(long, default_value = "text")]
    pub format: DatasetFormat,
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Built-in playbook id or path (over `dataset.toml` and the outputs' front matter).
    #[arg(long)]
    pub playbook: Option<String>,
    #[arg(long)]
    pub mode: Option<Mode>,
    /// The two variants of the paired comparison (default: the first two).
    #[arg(long, num_args = 2, value_names = ["A", "B"])]
    pub compare: Option<Vec<String>>,
    #[arg(long, env = "BYOP_DB")]
    pub db: Option<PathBuf>,
    #[arg(long)]
    pub fresh: bool,
    #[command(flatten)]
    pub evaluator: EvaluatorFlags,
    #[command(flatten)]
    pub trust: TrustFlags,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DatasetFormat {
    Text,
    Json,
    Html,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum HistoryFormat {
    Text,
    Json,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiffFormat {
    Text,
    Json,
    Html,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailOn {
    Alert,
    Review,
    Observe,
    Never,
}

#[derive(clap::Args, Debug)]
pub struct PlanArgs {
    /// The user's notes (front matter may give `current_time` and `timezone`).
    pub notes: PathBuf,
    /// A built-in variant (v1_naive, v2_constraints, v3_validator, v4_repair) or the path of
    /// a variant.toml (or of the folder holding one).
    #[arg(long, default_value = "v4_repair")]
    pub variant: String,
    /// The user's now, ISO 8601 (over the notes' front matter).
    #[arg(long)]
    pub current_time: Option<String>,
    /// IANA time zone, e.g. America/Toronto (over the notes' front matter).
    #[arg(long)]
    pub timezone: Option<String>,
    /// Built-in playbook id or path (default: planproof_v1).
    #[arg(long)]
    pub playbook: Option<String>,
    #[arg(long, env = "BYOP_DB")]
    pub db: Option<PathBuf>,
    #[arg(long)]
    pub fresh: bool,
    #[command(flatten)]
    pub evaluator: EvaluatorFlags,
    #[command(flatten)]
    pub trust: TrustFlags,
    #[command(flatten)]
    pub otlp: OtlpFlags,
}

#[derive(clap::Args, Debug, Clone)]
pub struct ServeArgs {
    /// The address to listen on. Only loopback addresses unless --allow-remote.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: IpAddr,
    /// The port (0: any free port; the address printed says which).
    #[arg(long, default_value_t = 8787)]
    pub port: u16,
    /// Listen on a non-loopback --host (every request still needs the token).
    #[arg(long)]
    pub allow_remote: bool,
    /// Another name clients reach this server by (`Host` header, e.g. `byop.lan:8787`);
    /// requests naming any other host are refused (DNS rebinding). Repeatable.
    #[arg(long, value_name = "HOST:PORT")]
    pub allow_host: Vec<String>,
    /// Forget a browser session's evaluator key after this many seconds without a request
    /// from that session (a command-line choice only: no setting or environment sets it).
    #[arg(long, value_name = "SECONDS", default_value_t = 1800, value_parser = clap::value_parser!(u64).range(1..))]
    pub key_idle: u64,
    /// A dataset folder (as `byop dataset DIR` reads it) whose comparison the page shows,
    /// named by the folder's name; the page reads no other folder. Repeatable.
    #[arg(long, value_name = "DIR")]
    pub dataset: Vec<PathBuf>,
    #[arg(long, env = "BYOP_DB")]
    pub db: Option<PathBuf>,
    #[command(flatten)]
    pub evaluator: EvaluatorFlags,
    #[command(flatten)]
    pub trust: TrustFlags,
}
