//! The flag groups several commands share (`#[command(flatten)]`), and how clap reads the
//! engine's enums.

use std::path::PathBuf;

use crate::evaluator::ProviderKind;
use crate::model::Mode;

/// The document's playbook and companions: the same three flags on every command that
/// resolves one document like `check` does.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct DocInputs {
    /// Built-in playbook id or path.
    #[arg(long)]
    pub playbook: Option<String>,
    #[arg(long)]
    pub source: Option<PathBuf>,
    #[arg(long)]
    pub prompt: Option<PathBuf>,
}

impl clap::ValueEnum for Mode {
    fn value_variants<'a>() -> &'a [Self] {
        &[Mode::Deterministic, Mode::Screening, Mode::Full]
    }
    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.as_str()))
    }
}

impl clap::ValueEnum for ProviderKind {
    fn value_variants<'a>() -> &'a [Self] {
        &[ProviderKind::Anthropic, ProviderKind::OpenAi]
    }
    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(match self {
            ProviderKind::Anthropic => "anthropic",
            ProviderKind::OpenAi => "openai",
        }))
    }
}

/// Which evaluator to use: the same three flags on every command that calls one.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct EvaluatorFlags {
    #[arg(long)]
    pub provider: Option<ProviderKind>,
    #[arg(long)]
    pub model: Option<String>,
    /// Send the key to the `evaluator.base_url` of a workspace byop.toml.
    #[arg(long, env = "BYOP_TRUST_WORKSPACE_EVALUATOR")]
    pub trust_workspace_evaluator: bool,
}

/// Where traces go and whether they hold text: the user's choice only (a workspace
/// `byop.toml` may name the same endpoint, never another).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct OtlpFlags {
    /// Export a trace of every evaluation to this OTLP/HTTP endpoint (`/v1/traces`
    /// appended; also OTEL_EXPORTER_OTLP_ENDPOINT).
    #[arg(long = "otlp-endpoint", value_name = "URL")]
    pub endpoint: Option<String>,
    /// Put a 200-character preview of each document (and of a plan's notes) in its trace
    /// and the notes' preview in a plan's printed `debug` (also BYOP_OTLP_INCLUDE_TEXT=1).
    #[arg(long = "otlp-include-text")]
    pub include_text: bool,
}

/// Who may choose the rules: the same flags on every command that judges a document.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct TrustFlags {
    /// Locked mode (CI): byop.toml, dataset.toml and front matter may not choose the
    /// playbook or weaken checks; the playbook comes from --playbook or is a built-in.
    /// Also on with BYOP_LOCKED=1, and automatically when CI=true.
    #[arg(long, overrides_with = "no_locked")]
    pub locked: bool,
    /// Switch locked mode off, even when CI=true.
    #[arg(long, overrides_with = "locked")]
    pub no_locked: bool,
    /// Plant no canary instructions in full mode (only you may switch them off).
    #[arg(long)]
    pub no_canary: bool,
    /// A playbook file the documents' front matter may request (repeatable; built-ins
    /// always may).
    #[arg(long, value_name = "PATH")]
    pub allow_playbook: Vec<std::path::PathBuf>,
}

impl TrustFlags {
    /// `Some(true)`: `--locked`; `Some(false)`: `--no-locked`; `None`: the environment decides.
    pub fn locked_flag(&self) -> Option<bool> {
        match (self.locked, self.no_locked) {
            (_, true) => Some(false),
            (true, false) => Some(true),
            _ => None,
        }
    }
}
