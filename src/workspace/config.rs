//! `byop.toml`, found by walking up from a file; flags over file over defaults.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::evaluator::ProviderKind;
use crate::model::text::{Encoding, LineIndex};

pub const FILE_NAME: &str = "byop.toml";
pub const DEFAULT_INCLUDE: [&str; 3] = ["**/*.ai.md", "**/*.byop.md", "**/*.aiout"];
pub const DEFAULT_DB: &str = ".byop/byop.db";

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    /// Built-in id or path (relative to the config file).
    pub playbook: Option<String>,
    pub include: Option<Vec<String>>,
    /// Database path (relative to the config file).
    pub db: Option<String>,
    #[serde(default)]
    pub evaluator: EvaluatorSection,
    #[serde(default)]
    pub evidence: EvidenceSection,
    #[serde(default)]
    pub telemetry: TelemetrySection,
}

/// `[evidence]`: which evidence sources a workspace accepts.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct EvidenceSection {
    /// `source_origin` values an evidence set may come from; empty accepts none.
    pub allowed_origins: Option<Vec<String>>,
}

/// `[telemetry]`: OTLP traces (see `workspace::telemetry`).
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TelemetrySection {
    /// OTLP/HTTP base URL (`/v1/traces` is appended), as `OTEL_EXPORTER_OTLP_ENDPOINT`.
    pub endpoint: Option<String>,
    /// Put a preview of the document text in the root span (default off).
    pub include_text: Option<bool>,
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct EvaluatorSection {
    pub provider: Option<ProviderKind>,
    pub model: Option<String>,
    pub base_url: Option<String>,
    pub concurrency: Option<usize>,
    pub timeout_secs: Option<u64>,
    pub max_retries: Option<u32>,
    pub max_tokens: Option<u32>,
    /// Runs per evaluator-backed check in full mode (default 3).
    pub runs: Option<u32>,
    /// Full mode: the most runs a check whose runs disagree gets (default 7).
    pub max_runs: Option<u32>,
    /// Plant canary instructions in the evaluated text (default: on in full mode).
    pub canary: Option<bool>,
    /// Larger evaluator answers are refused (default 2 MB).
    pub max_response_bytes: Option<usize>,
}

/// A config file and the folder it governs (the workspace root).
#[derive(Debug, Clone, Default)]
pub struct Config {
    pub file: ConfigFile,
    pub path: Option<PathBuf>,
    pub root: PathBuf,
}

#[derive(Debug, Clone, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(pub String);

impl Config {
    /// Walk up from `start` (a file or folder) to the nearest `byop.toml`. Without one, the
    /// workspace root is the nearest folder with `.git`, else `start`'s folder.
    pub fn discover(start: &Path) -> Result<Config, ConfigError> {
        let abs = std::path::absolute(start).unwrap_or_else(|_| start.to_path_buf());
        let dir = if abs.is_dir() {
            abs.clone()
        } else {
            abs.parent().map(Path::to_path_buf).unwrap_or_default()
        };
        for d in dir.ancestors() {
            let candidate = d.join(FILE_NAME);
            if candidate.is_file() {
                return Config::load(&candidate);
            }
        }
        let root = dir
            .ancestors()
            .find(|d| d.join(".git").exists())
            .unwrap_or(&dir)
            .to_path_buf();
        Ok(Config {
            file: ConfigFile::default(),
            path: None,
            root,
        })
    }

    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ConfigError(format!("{}: cannot read: {e}", path.display())))?;
        Config::parse(&text, path)
    }

    /// The text of `path` (a `byop.toml`), already read.
    pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
        let file: ConfigFile = toml::from_str(text).map_err(|e| {
            let pos = e
                .span()
                .map(|s| LineIndex::new(text).position(text, s.start, Encoding::Utf8))
                .unwrap_or_default();
            ConfigError(format!(
                "{}:{}:{}: {}",
                path.display(),
                pos.line + 1,
                pos.character + 1,
                e.message()
            ))
        })?;
        refuse_server_db(&file, text, path)?;
        let root = path.parent().map(Path::to_path_buf).unwrap_or_default();
        Ok(Config {
            file,
            path: Some(path.to_path_buf()),
            root,
        })
    }

    pub fn include_globs(&self) -> Vec<String> {
        self.file
            .include
            .clone()
            .unwrap_or_else(|| DEFAULT_INCLUDE.iter().map(|s| s.to_string()).collect())
    }

    pub fn playbook_spec(&self) -> Option<(String, PathBuf)> {
        self.file.playbook.clone().map(|p| (p, self.root.clone()))
    }

    pub fn db_path(&self) -> PathBuf {
        self.root
            .join(self.file.db.as_deref().unwrap_or(DEFAULT_DB))
    }
}

/// A workspace is untrusted: its `db` may name a file, never a database server (that
/// would let a repository choose where every reviewer's reports and audit rows go).
fn refuse_server_db(file: &ConfigFile, text: &str, path: &Path) -> Result<(), ConfigError> {
    let Some(db) = file
        .db
        .as_deref()
        .filter(|db| crate::store::location::is_url(db))
    else {
        return Ok(());
    };
    let at = text.find(db).unwrap_or(0);
    let pos = LineIndex::new(text).position(text, at, Encoding::Utf8);
    Err(ConfigError(format!(
        "{}:{}:{}: `db` names a URL ({}); a workspace may only name a database file. A team store is chosen by the user: --db, BYOP_DB or DATABASE_URL",
        path.display(),
        pos.line + 1,
        pos.character + 1,
        crate::store::location::redact(db)
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discover_walks_up_and_resolves_paths_relative_to_the_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(FILE_NAME),
            "playbook = \"pb/x.json\"\ndb = \"state/b.db\"\n",
        )
        .unwrap();
        let deep = dir.path().join("a/b");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(deep.join("doc.ai.md"), "x").unwrap();
        let c = Config::discover(&deep.join("doc.ai.md")).unwrap();
        assert_eq!(c.root, std::path::absolute(dir.path()).unwrap());
        assert_eq!(c.db_path(), c.root.join("state/b.db"));
        assert_eq!(c.playbook_spec().unwrap().0, "pb/x.json");
    }

    #[test]
    fn bad_toml_names_file_line_and_column() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join(FILE_NAME);
        std::fs::write(&p, "playbook = \"x\"\n[evaluator]\nprovder = \"openai\"\n").unwrap();
        let e = Config::load(&p).unwrap_err().0;
        assert!(e.contains("byop.toml:3:1"), "{e}");
        assert!(e.contains("provder"), "{e}");
    }

    #[test]
    fn a_workspace_cannot_point_the_store_at_a_server() {
        let path = Path::new("/w/byop.toml");
        let text = "playbook = \"nda\"\ndb = \"postgres://ci:pw@db.example/byop\"\n";
        let err = Config::parse(text, path).unwrap_err().0;
        assert!(err.starts_with("/w/byop.toml:2:7:"), "{err}");
        assert!(err.contains("postgres://ci:***@db.example/byop"), "{err}");
        assert!(!err.contains("pw@"), "{err}");
        assert!(Config::parse("db = \"state/b.db\"\n", path).is_ok());
    }
}
