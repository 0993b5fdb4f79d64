//! `byop` client settings (initializationOptions, didChangeConfiguration) merged
//! over `byop.toml`. Client settings are user-level: only they (or the
//! environment) may choose where the API key is sent.

use std::path::PathBuf;

use serde::Deserialize;

use std::sync::Arc;

use crate::evaluator::{ApiKey, EvaluatorSettings, ProviderKind};
use crate::model::Mode;
use crate::workspace::config::{Config, ConfigError};
use crate::workspace::evaluator::{self as choose, Env, UserChoices};
use crate::workspace::trust::{self, Policy};

/// What happens on save.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum OnSave {
    Off,
    Deterministic,
    Screening,
    Full,
}

impl OnSave {
    pub fn mode(self) -> Option<Mode> {
        match self {
            OnSave::Off => None,
            OnSave::Deterministic => Some(Mode::Deterministic),
            OnSave::Screening => Some(Mode::Screening),
            OnSave::Full => Some(Mode::Full),
        }
    }
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct Settings {
    pub on_save: Option<OnSave>,
    pub provider: Option<ProviderKind>,
    pub model: Option<String>,
    pub base_url: Option<String>,
    /// Runs per evaluator-backed check in full mode (default 3, or `byop.toml` `evaluator.runs`).
    pub runs: Option<u32>,
    /// Full mode: the most runs for a check whose runs disagree (default 7, or `evaluator.max_runs`).
    pub max_runs: Option<u32>,
    pub trust_workspace_evaluator: bool,
    pub log_level: Option<String>,
    /// Playbook id or path (relative to the workspace root).
    pub playbook: Option<String>,
    /// Database path (relative to the workspace root).
    pub db: Option<String>,
    /// `false`: plant no canary instructions in full mode (only the user may switch them off).
    pub canary: Option<bool>,
    /// Locked mode (`true`/`false`; unset: `BYOP_LOCKED` or `CI` decide).
    pub locked: Option<bool>,
    /// Playbook files (relative to the workspace root) documents may request in front matter.
    pub allowed_playbooks: Vec<String>,
}

impl Settings {
    /// Accepts `{"byop": {...}}` or the inner object itself. Errors name the bad key.
    pub fn from_json(value: &serde_json::Value) -> Result<Settings, String> {
        let inner = value.get("byop").unwrap_or(value);
        if inner.is_null() {
            return Ok(Settings::default());
        }
        serde_json::from_value(inner.clone()).map_err(|e| format!("invalid byop settings: {e}"))
    }

    pub fn log_level(&self) -> tracing::Level {
        match self
            .log_level
            .as_deref()
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("error") => tracing::Level::ERROR,
            Some("warn" | "warning") => tracing::Level::WARN,
            Some("debug") => tracing::Level::DEBUG,
            Some("trace") => tracing::Level::TRACE,
            _ => tracing::Level::INFO,
        }
    }
}

/// API keys set with `byop.setApiKey`: memory only.
#[derive(Debug, Clone, Default)]
pub struct Keys {
    pub anthropic: Option<ApiKey>,
    pub openai: Option<ApiKey>,
}

impl Keys {
    pub fn get(&self, p: ProviderKind) -> Option<ApiKey> {
        match p {
            ProviderKind::Anthropic => self.anthropic.clone(),
            ProviderKind::OpenAi => self.openai.clone(),
        }
    }
    pub fn set(&mut self, p: ProviderKind, key: ApiKey) {
        match p {
            ProviderKind::Anthropic => self.anthropic = Some(key),
            ProviderKind::OpenAi => self.openai = Some(key),
        }
    }
}

/// Everything a document's evaluation needs from configuration.
#[derive(Debug, Clone)]
pub struct Effective {
    /// The governing `byop.toml` under the trust model.
    pub policy: Policy,
    pub db_path: PathBuf,
    pub evaluator: Option<EvaluatorSettings>,
    pub on_save: OnSave,
    /// Runs per evaluator-backed check in full mode.
    pub full_runs: Option<u32>,
    pub max_runs: Option<u32>,
    /// Canaries: the user's setting, else the workspace's `true`, else the default.
    pub canary: Option<bool>,
    pub notices: Vec<String>,
}

/// Merge client settings over the `byop.toml` governing the document (`config`).
pub fn effective(
    settings: &Settings,
    keys: &Keys,
    config: Result<Arc<Config>, ConfigError>,
    env: &dyn Env,
) -> Effective {
    let mut notices = Vec::new();
    let config = config.unwrap_or_else(|e| {
        notices.push(e.0);
        Arc::new(Config::default())
    });
    let lock = trust::lock(settings.locked, &|n: &str| env.var(n));
    notices.extend(lock.notice);
    let policy = Policy::new(config, lock.on);
    notices.extend(policy.notices.iter().cloned());
    let workspace_db = || {
        // A refused place falls back to the default store; when that is refused too (a
        // committed link), the empty path opens no store and the editor works without one.
        policy
            .db_path()
            .or_else(|why| {
                notices.push(why);
                policy.default_db()
            })
            .unwrap_or_else(|why| {
                notices.push(why);
                PathBuf::new()
            })
    };
    let db_path = match &settings.db {
        // A URL is kept whole (joining would turn it into a folder path).
        Some(db) if crate::store::location::is_url(db) => PathBuf::from(db),
        Some(db) => policy.root().join(db),
        None => env
            .var("BYOP_DB")
            .or_else(|| env.var("DATABASE_URL"))
            .map(PathBuf::from)
            .unwrap_or_else(workspace_db),
    };
    let provider = settings
        .provider
        .or(policy.evaluator.provider)
        .unwrap_or_default();
    let user = UserChoices {
        provider: settings.provider,
        model: settings.model.clone(),
        base_url: settings.base_url.clone(),
        api_key: keys.get(provider),
        trust_workspace_evaluator: settings.trust_workspace_evaluator,
    };
    let resolved = choose::resolve_evaluator(&policy, &user, env);
    notices.extend(resolved.notices);
    notices.extend(resolved.missing_key);
    let on_save = settings.on_save.unwrap_or(if resolved.settings.is_some() {
        OnSave::Screening
    } else {
        OnSave::Deterministic
    });
    Effective {
        db_path,
        evaluator: resolved.settings,
        on_save,
        full_runs: settings.runs.or(policy.runs),
        max_runs: settings.max_runs.or(policy.max_runs),
        canary: trust::canary(settings.canary, &policy),
        policy,
        notices,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    struct MapEnv(HashMap<&'static str, String>);
    impl Env for MapEnv {
        fn var(&self, name: &str) -> Option<String> {
            self.0.get(name).cloned()
        }
    }

    fn discover(doc: &std::path::Path) -> Result<Arc<Config>, ConfigError> {
        Config::discover(doc).map(Arc::new)
    }

    fn workspace(toml: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("byop.toml"), toml).unwrap();
        let doc = dir.path().join("memo.ai.md");
        std::fs::write(&doc, "Hello").unwrap();
        (dir, doc)
    }

    #[test]
    fn settings_parse_both_shapes_and_reject_bad_values() {
        let s = Settings::from_json(
            &serde_json::json!({"byop": {"onSave": "full", "trustWorkspaceEvaluator": true}}),
        )
        .unwrap();
        assert_eq!(s.on_save, Some(OnSave::Full));
        assert!(s.trust_workspace_evaluator);
        let s =
            Settings::from_json(&serde_json::json!({"provider": "openai", "baseUrl": "http://x"}))
                .unwrap();
        assert_eq!(s.provider, Some(ProviderKind::OpenAi));
        assert_eq!(s.base_url.as_deref(), Some("http://x"));
        let e = Settings::from_json(&serde_json::json!({"onSave": "sometimes"})).unwrap_err();
        assert!(e.contains("sometimes"), "{e}");
    }

    #[test]
    fn workspace_base_url_is_not_trusted_with_the_users_key() {
        let (_dir, doc) = workspace("[evaluator]\nbase_url = \"http://attacker.example\"\n");
        let env = MapEnv(HashMap::from([(
            "ANTHROPIC_API_KEY",
            "sk-test".to_string(),
        )]));
        let eff = effective(&Settings::default(), &Keys::default(), discover(&doc), &env);
        let ev = eff.evaluator.expect("key in env");
        assert_eq!(ev.base_url, None, "workspace URL must be ignored");
        assert!(eff.notices.iter().any(|n| n.contains("attacker.example")));

        // A key from byop.setApiKey is protected the same way.
        let mut keys = Keys::default();
        keys.set(ProviderKind::Anthropic, ApiKey::new("sk-memory"));
        let no_env = MapEnv(HashMap::new());
        let eff = effective(&Settings::default(), &keys, discover(&doc), &no_env);
        assert_eq!(eff.evaluator.unwrap().base_url, None);

        // The user's own choice (setting or env) wins; opting in trusts the workspace.
        let user = Settings {
            base_url: Some("http://127.0.0.1:9".into()),
            ..Default::default()
        };
        let eff = effective(&user, &Keys::default(), discover(&doc), &env);
        assert_eq!(
            eff.evaluator.unwrap().base_url.as_deref(),
            Some("http://127.0.0.1:9")
        );
        let trusting = Settings {
            trust_workspace_evaluator: true,
            ..Default::default()
        };
        let eff = effective(&trusting, &Keys::default(), discover(&doc), &env);
        assert_eq!(
            eff.evaluator.unwrap().base_url.as_deref(),
            Some("http://attacker.example")
        );
    }

    #[test]
    fn on_save_defaults_follow_key_availability_and_db_precedence() {
        let (dir, doc) = workspace("db = \"custom.db\"\n");
        let none = MapEnv(HashMap::new());
        let eff = effective(
            &Settings::default(),
            &Keys::default(),
            discover(&doc),
            &none,
        );
        assert_eq!(eff.on_save, OnSave::Deterministic);
        assert!(eff.evaluator.is_none());
        assert_eq!(eff.db_path, dir.path().join("custom.db"));
        let env = MapEnv(HashMap::from([
            ("ANTHROPIC_API_KEY", "k".to_string()),
            ("BYOP_DB", "/tmp/x.db".to_string()),
        ]));
        let eff = effective(&Settings::default(), &Keys::default(), discover(&doc), &env);
        assert_eq!(eff.on_save, OnSave::Screening);
        assert_eq!(eff.db_path, PathBuf::from("/tmp/x.db"));
    }
}
