//! Who may set what: the one place that decides which source a setting may come from.
//! Sources, most trusted first: the command line, the environment, the user's editor
//! settings (user config), then the repository — the workspace `byop.toml`, a
//! `dataset.toml`, a document's front matter, a committed store. The repository is
//! untrusted: it may make checks stricter, never weaker; it never chooses where data or
//! keys go; in locked mode it never chooses the rules a gate judges it by.
//!
//! Every front end (CLI, language server, dataset, repair, counterfactual, telemetry)
//! reads the workspace's keys through [`Policy`]; `docs/security.md` opens with the table
//! this module implements, row by row.

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use super::config::{Config, DEFAULT_DB, DEFAULT_INCLUDE, EvaluatorSection, FILE_NAME};
use crate::engine::playbook;
use crate::engine::runner::DEFAULT_MAX_RUNS;
use crate::model::Mode;

mod inputs;
pub use inputs::{
    document_path, front_matter_as_of, gate_inputs, marked_folder, may_be_root, not_the_document,
    unjudged,
};

/// `BYOP_LOCKED=1`: locked mode from the environment.
pub const LOCKED_ENV: &str = "BYOP_LOCKED";

/// An environment switch that is on: `1`, `true` or `yes` (any case).
pub fn truthy(v: Option<String>) -> bool {
    v.is_some_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "1" | "true" | "yes"))
}

/// Whether locked mode is on, and the notice when `CI=true` switched it on.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Lock {
    pub on: bool,
    pub notice: Option<String>,
}

/// `--locked` / `--no-locked` (`flag`) over `BYOP_LOCKED=1` over `CI=true`. Only the
/// command line switches it off: `BYOP_LOCKED=0` under `CI=true` stays locked.
pub fn lock(flag: Option<bool>, env: &dyn Fn(&str) -> Option<String>) -> Lock {
    match flag {
        Some(on) => Lock { on, notice: None },
        None if truthy(env(LOCKED_ENV)) => Lock {
            on: true,
            notice: None,
        },
        None if truthy(env("CI")) => Lock {
            on: true,
            notice: Some(
                "locked mode is on because CI=true: byop.toml, dataset.toml and front matter may not choose the playbook or weaken checks (pass --no-locked to switch it off)".into(),
            ),
        },
        None => Lock::default(),
    }
}

/// The workspace's settings as the trust model lets them count, with a notice for every
/// key it ignored.
#[derive(Debug, Clone)]
pub struct Policy {
    pub config: Arc<Config>,
    pub locked: bool,
    /// `byop.toml` `playbook` (relative to its folder); `None` in locked mode.
    pub playbook: Option<(String, PathBuf)>,
    /// Include globs of `byop check DIR` (the defaults in locked mode).
    pub include: Vec<String>,
    /// `evidence.allowed_origins` (empty: the defaults; ignored in locked mode).
    pub allowed_origins: Vec<String>,
    /// `evaluator.canary = true` only: a workspace may plant canaries, never stop them.
    pub canary: Option<bool>,
    /// `evaluator.runs` / `max_runs`, only at or above the defaults (more runs is stricter).
    pub runs: Option<u32>,
    pub max_runs: Option<u32>,
    /// `[evaluator]` as it counts: provider, model and the limits that could make runs fail
    /// (`timeout_secs`, `max_retries`, `max_tokens`, `max_response_bytes`) `None` in locked
    /// mode.
    pub evaluator: EvaluatorSection,
    /// Why keys were ignored.
    pub notices: Vec<String>,
}

impl Policy {
    pub fn new(config: Arc<Config>, locked: bool) -> Policy {
        let raw = config.raw();
        let ev = &raw.evaluator;
        let file = label(&config);
        let mut notices = Vec::new();
        let mut ignore = |key: &str, why: &str| {
            notices.push(format!("ignored {key} from {file}: {why}"));
        };
        // Locked mode: every key that chooses the rules a gate judges by is ignored.
        let chooses_rules = [
            ("playbook", raw.playbook.is_some()),
            ("allowed_playbooks", raw.allowed_playbooks.is_some()),
            ("include", raw.include.is_some()),
            (
                "evidence.allowed_origins",
                raw.evidence.allowed_origins.is_some(),
            ),
            ("evaluator.provider", ev.provider.is_some()),
            ("evaluator.model", ev.model.is_some()),
            ("evaluator.runs", ev.runs.is_some()),
            ("evaluator.max_runs", ev.max_runs.is_some()),
        ];
        for (key, _) in chooses_rules.iter().filter(|(_, set)| locked && *set) {
            ignore(
                key,
                "locked mode (the workspace may not choose the rules a gate judges it by)",
            );
        }
        // Locked mode: a limit that could make runs fail (an answer refused as too large, a
        // timeout, no retry) would let the repository decide which runs count.
        let limits = [
            ("evaluator.timeout_secs", ev.timeout_secs.is_some()),
            ("evaluator.max_retries", ev.max_retries.is_some()),
            ("evaluator.max_tokens", ev.max_tokens.is_some()),
            (
                "evaluator.max_response_bytes",
                ev.max_response_bytes.is_some(),
            ),
        ];
        for (key, _) in limits.iter().filter(|(_, set)| locked && *set) {
            ignore(
                key,
                "locked mode (a limit the workspace sets could make runs fail; the defaults apply)",
            );
        }
        let unlocked = |v: Option<u32>| v.filter(|_| !locked);
        let (runs, max_runs) = (unlocked(ev.runs), unlocked(ev.max_runs));
        // Stricter only: more runs, canaries on, no document text in traces.
        let fewer = "fewer runs than the default would weaken the checks; only you may choose that";
        if runs.is_some_and(|n| n < Mode::Full.runs()) {
            ignore("evaluator.runs", &format!("{fewer} (--runs)"));
        }
        if max_runs.is_some_and(|n| n < DEFAULT_MAX_RUNS) {
            ignore("evaluator.max_runs", &format!("{fewer} (--max-runs)"));
        }
        if ev.canary == Some(false) {
            ignore(
                "evaluator.canary = false",
                "only you may switch canaries off (--no-canary, or the editor setting byop.canary)",
            );
        }
        if raw.telemetry.include_text == Some(true) {
            ignore(
                "telemetry.include_text",
                "only you may put document text in traces (--otlp-include-text or BYOP_OTLP_INCLUDE_TEXT=1)",
            );
        }
        let evaluator = EvaluatorSection {
            provider: ev.provider.filter(|_| !locked),
            model: ev.model.clone().filter(|_| !locked),
            runs: None,
            max_runs: None,
            canary: None,
            timeout_secs: ev.timeout_secs.filter(|_| !locked),
            max_retries: ev.max_retries.filter(|_| !locked),
            max_tokens: ev.max_tokens.filter(|_| !locked),
            max_response_bytes: ev.max_response_bytes.filter(|_| !locked),
            ..ev.clone()
        };
        Policy {
            playbook: (raw.playbook.clone())
                .filter(|_| !locked)
                .map(|p| (p, config.root.clone())),
            include: (raw.include.clone())
                .filter(|_| !locked)
                .unwrap_or_else(|| DEFAULT_INCLUDE.iter().map(|s| s.to_string()).collect()),
            allowed_origins: (raw.evidence.allowed_origins.clone())
                .filter(|_| !locked)
                .unwrap_or_default(),
            canary: ev.canary.filter(|c| *c),
            runs: runs.filter(|n| *n >= Mode::Full.runs()),
            max_runs: max_runs.filter(|n| *n >= DEFAULT_MAX_RUNS),
            evaluator,
            notices,
            config,
            locked,
        }
    }

    /// `byop serve`: the key typed on the page goes to the provider the server's flags and
    /// environment choose, with their model, never to one the working folder's `byop.toml`
    /// names (a cloned repository would switch an Anthropic key to another provider).
    pub fn for_server(mut self) -> Policy {
        let file = self.file_label();
        for (key, set) in [
            (
                "evaluator.provider",
                self.evaluator.provider.take().is_some(),
            ),
            ("evaluator.model", self.evaluator.model.take().is_some()),
        ] {
            if set {
                self.notices.push(format!(
                    "ignored {key} from {file}: the server's evaluator comes from its flags and environment (--provider, --model)"
                ));
            }
        }
        self
    }

    /// The policy of the `byop.toml` governing `start`, with locked mode from the
    /// environment (`BYOP_LOCKED`, `CI`).
    pub fn discover(start: &Path) -> Result<Policy, super::config::ConfigError> {
        let env = |n: &str| std::env::var(n).ok();
        let locked = lock(None, &env).on;
        Ok(Policy::new(Arc::new(Config::discover(start)?), locked))
    }

    pub fn root(&self) -> &Path {
        &self.config.root
    }

    /// The `byop.toml` file, for messages.
    pub fn file_label(&self) -> String {
        label(&self.config)
    }

    /// The telemetry endpoint the workspace names (compared with the user's, never used
    /// on its own).
    pub fn telemetry_endpoint(&self) -> Option<String> {
        self.config.raw().telemetry.endpoint.clone()
    }

    /// The store: `byop.toml` `db` must stay inside the workspace (after following
    /// symlinks) and be a file path, never a server; an existing file there must be a
    /// SQLite database, never something it would overwrite. Locked mode: the default.
    pub fn db_path(&self) -> Result<PathBuf, String> {
        let root = &self.config.root;
        let Some(db) = self.config.raw().db.as_deref().filter(|_| !self.locked) else {
            return self.default_db();
        };
        let refuse = |why: String| {
            Err(format!(
                "{}: db = \"{db}\" refused: {why}; a workspace may only keep its store inside itself (pass --db or set BYOP_DB to choose another place)",
                self.file_label()
            ))
        };
        if db.contains("://") || db.starts_with("postgres") {
            return refuse("a workspace may not point the store at a server".into());
        }
        let path = root.join(db);
        match inside(root, &path) {
            Ok(()) => {}
            Err(why) => return refuse(why),
        }
        existing_is_store(&path).map_or_else(refuse, |()| Ok(path))
    }

    /// The default store, `.byop/byop.db`: no symbolic link on the way (a committed `.byop`
    /// link would carry the store, and the text it holds, out of the workspace), inside the
    /// workspace, and an existing file there must be a store.
    pub fn default_db(&self) -> Result<PathBuf, String> {
        let root = &self.config.root;
        let path = root.join(DEFAULT_DB);
        super::boundary::no_links_below(root, &path)
            .and_then(|()| inside(root, &path))
            .and_then(|()| existing_is_store(&path))
            .map_err(|why| {
                format!(
                    "the store {} refused: {why}; pass --db or set BYOP_DB to choose another place",
                    path.display()
                )
            })?;
        Ok(path)
    }

    /// May the document's front matter request `spec` (relative to `base`)? Never in
    /// locked mode: a gate is judged by `--playbook` or the built-in default, not by a
    /// playbook the document picks (another built-in can be weaker for this document).
    /// Otherwise a built-in (optionally pinned `ID@sha256:…`), or a file the user's list
    /// (`user_allowed`, paths) or `byop.toml` (`playbook`, `allowed_playbooks`) names.
    pub fn front_matter_playbook(
        &self,
        spec: &str,
        base: &Path,
        user_allowed: &[PathBuf],
    ) -> Result<(), String> {
        if self.locked {
            return Err(format!(
                "the front matter's playbook `{spec}` is ignored in locked mode: the gate uses --playbook or the built-in default"
            ));
        }
        if playbook::builtin_ids().contains(&split_pin(spec).0) {
            return Ok(());
        }
        let wanted = std::fs::canonicalize(base.join(spec)).ok();
        let raw = self.config.raw();
        let listed = raw
            .allowed_playbooks
            .iter()
            .flatten()
            .chain(raw.playbook.iter())
            .map(|p| self.config.root.join(p))
            .chain(user_allowed.iter().cloned())
            .filter_map(|p| std::fs::canonicalize(p).ok());
        let mut listed = listed;
        if wanted.is_some_and(|w| listed.any(|l| l == w)) {
            return Ok(());
        }
        Err(format!(
            "a document may only request a built-in playbook ({}) or one {} lists in allowed_playbooks",
            playbook::builtin_ids().join(", "),
            self.file_label()
        ))
    }
}

/// The `byop.toml` a config came from, for messages.
fn label(config: &Config) -> String {
    config
        .path
        .as_ref()
        .map_or_else(|| FILE_NAME.to_string(), |p| p.display().to_string())
}

/// `path` (which need not exist yet) stays inside `root` once the part of it that exists
/// is resolved (symlinks followed) and `..` is applied.
pub fn inside(root: &Path, path: &Path) -> Result<(), String> {
    let root = std::fs::canonicalize(root).map_err(|e| format!("{}: {e}", root.display()))?;
    let mut existing = path.to_path_buf();
    let mut rest = Vec::new();
    while std::fs::symlink_metadata(&existing).is_err() {
        let Some(name) = existing.file_name().map(|n| n.to_os_string()) else {
            break;
        };
        rest.push(name);
        existing.pop();
    }
    let mut real =
        std::fs::canonicalize(&existing).map_err(|e| format!("{}: {e}", existing.display()))?;
    for part in rest.iter().rev() {
        match Path::new(part).components().next() {
            Some(Component::ParentDir) => {
                real.pop();
            }
            Some(Component::Normal(_)) => real.push(part),
            _ => {}
        }
    }
    if real.starts_with(&root) {
        Ok(())
    } else {
        Err(format!(
            "it resolves to {}, outside the workspace ({})",
            real.display(),
            root.display()
        ))
    }
}

/// An existing file at `path` must be a SQLite database (never a link, never something a
/// new store would overwrite).
fn existing_is_store(path: &Path) -> Result<(), String> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if !(meta.is_file() && starts_with_sqlite_header(path)) => {
            Err(format!("{} exists and is not a byop store", path.display()))
        }
        _ => Ok(()),
    }
}

fn starts_with_sqlite_header(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 16];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| &head == b"SQLite format 3\0")
}

/// Canaries: the user's choice (`--no-canary`, the editor setting), else the workspace's
/// `true`, else the default (on in full mode).
pub fn canary(user: Option<bool>, policy: &Policy) -> Option<bool> {
    user.or(policy.canary)
}

/// `--playbook ID@sha256:HEX`: the spec and the logic hash it is pinned to.
pub fn split_pin(spec: &str) -> (&str, Option<&str>) {
    match spec.rsplit_once('@') {
        Some((id, hash)) if hash.starts_with("sha256:") => (id, Some(hash)),
        _ => (spec, None),
    }
}

/// The loaded playbook's logic hash must be the pinned one.
pub fn check_pin(spec: &str, pin: Option<&str>, logic_hash: &str) -> Result<(), String> {
    match pin {
        Some(p) if p != logic_hash => Err(format!(
            "playbook `{spec}` has logic hash {logic_hash}, not the pinned {p}"
        )),
        _ => Ok(()),
    }
}

/// A variant file may choose the prompt, the model and its parameters, never where the
/// request and the key go: a key (or the name of one) is refused; an endpoint is ignored
/// with a notice (requests go to the user's); a provider other than the user's `provider`
/// is refused, since the user's key belongs to the user's provider.
pub fn variant_endpoint(
    keys: &crate::engine::generate::VariantKeys,
    provider: &str,
) -> Result<Vec<String>, String> {
    if keys.key {
        return Err(
            "refused: a variant may not hold or name an API key (the key comes from your environment only)"
                .into(),
        );
    }
    if let Some(p) = (keys.provider.as_deref()).filter(|p| !p.trim().eq_ignore_ascii_case(provider))
    {
        return Err(format!(
            "refused: provider `{}` is not yours (`{provider}`); choose the provider with --provider, not in a variant",
            p.trim()
        ));
    }
    Ok((keys.endpoint)
        .then(|| {
            "ignored base_url: requests and the key go only where you point them (ANTHROPIC_BASE_URL / OPENAI_BASE_URL)".to_string()
        })
        .into_iter()
        .collect())
}

#[cfg(test)]
mod tests;
