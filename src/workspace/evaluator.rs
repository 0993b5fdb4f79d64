//! Which evaluator to use: the user's choices (flags, editor settings, environment)
//! over `byop.toml` over defaults. A workspace file is not trusted with the user's
//! key: its `evaluator.base_url` is used only when the user chose the same URL or
//! opted in with `trust_workspace_evaluator`.

use std::time::Duration;

use super::trust::Policy;
use crate::evaluator::{ApiKey, DEFAULT_MAX_RESPONSE_BYTES, EvaluatorSettings, ProviderKind};

pub const DEFAULT_ANTHROPIC_MODEL: &str = "claude-sonnet-4-20250514";
pub const DEFAULT_OPENAI_MODEL: &str = "gpt-4o-mini";

/// What the user chose outside the workspace: flags, user-level editor settings, environment.
#[derive(Debug, Clone, Default)]
pub struct UserChoices {
    pub provider: Option<ProviderKind>,
    pub model: Option<String>,
    pub base_url: Option<String>,
    /// A key given explicitly (editor `byop.setApiKey`); else the provider's env var.
    pub api_key: Option<ApiKey>,
    pub trust_workspace_evaluator: bool,
}

/// Environment lookup, injectable for tests.
pub trait Env {
    fn var(&self, name: &str) -> Option<String>;
}

pub struct ProcessEnv;
impl Env for ProcessEnv {
    fn var(&self, name: &str) -> Option<String> {
        std::env::var(name).ok().filter(|v| !v.trim().is_empty())
    }
}

/// The evaluator to use, or `None` (with the reason) when no key is available.
pub struct Resolved {
    pub settings: Option<EvaluatorSettings>,
    /// Why a workspace setting was ignored.
    pub notices: Vec<String>,
    /// Why there is no evaluator: no key for the provider.
    pub missing_key: Option<String>,
}

pub fn resolve_evaluator(policy: &Policy, user: &UserChoices, env: &dyn Env) -> Resolved {
    let ev = &policy.evaluator;
    let provider = user.provider.or(ev.provider).unwrap_or_default();
    let (key_var, url_var, default_model) = match provider {
        ProviderKind::Anthropic => (
            "ANTHROPIC_API_KEY",
            "ANTHROPIC_BASE_URL",
            DEFAULT_ANTHROPIC_MODEL,
        ),
        ProviderKind::OpenAi => ("OPENAI_API_KEY", "OPENAI_BASE_URL", DEFAULT_OPENAI_MODEL),
    };
    let mut notices = Vec::new();
    let user_url = user.base_url.clone().or_else(|| env.var(url_var));
    let base_url = match (&ev.base_url, &user_url) {
        (Some(ws), Some(u)) if same_url(ws, u) => Some(u.clone()),
        (Some(ws), _) if user.trust_workspace_evaluator => Some(ws.clone()),
        (Some(ws), u) => {
            notices.push(format!(
                "Ignored evaluator.base_url = \"{ws}\" from {}: a workspace file may not choose where your API key is sent. Set {url_var} or trust the workspace evaluator explicitly.",
                policy.file_label()
            ));
            u.clone()
        }
        (None, u) => u.clone(),
    };
    let key = user
        .api_key
        .clone()
        .filter(|k| !k.is_empty())
        .or_else(|| env.var(key_var).map(ApiKey::new));
    // OpenAI-compatible local servers (Ollama, llama.cpp, vLLM) need no key.
    let keyless_local = provider == ProviderKind::OpenAi && base_url.is_some();
    let api_key = match key {
        Some(k) => k,
        None if keyless_local => ApiKey::default(),
        None => {
            return Resolved {
                settings: None,
                notices,
                missing_key: Some(format!("No evaluator configured (set {key_var}).")),
            };
        }
    };
    let settings = EvaluatorSettings {
        provider,
        model: user
            .model
            .clone()
            .or_else(|| ev.model.clone())
            .unwrap_or_else(|| default_model.to_string()),
        base_url,
        api_key,
        timeout: Duration::from_secs(ev.timeout_secs.unwrap_or(120)),
        max_retries: ev.max_retries.unwrap_or(4),
        concurrency: ev.concurrency.unwrap_or(16).max(1),
        max_tokens: ev.max_tokens.unwrap_or(2048),
        max_response_bytes: ev.max_response_bytes.unwrap_or(DEFAULT_MAX_RESPONSE_BYTES),
        backoff_base: Duration::from_millis(
            env.var("BYOP_BACKOFF_MS")
                .and_then(|v| v.parse().ok())
                .unwrap_or(500),
        ),
    };
    Resolved {
        settings: Some(settings),
        notices,
        missing_key: None,
    }
}

fn same_url(a: &str, b: &str) -> bool {
    a.trim_end_matches('/') == b.trim_end_matches('/')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::config::{Config, FILE_NAME};
    use std::collections::HashMap;
    use std::sync::Arc;

    struct MapEnv(HashMap<&'static str, &'static str>);
    impl Env for MapEnv {
        fn var(&self, name: &str) -> Option<String> {
            self.0.get(name).map(|s| s.to_string())
        }
    }

    fn cfg(toml: &str) -> Policy {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join(FILE_NAME);
        std::fs::write(&p, toml).unwrap();
        Policy::new(Arc::new(Config::load(&p).unwrap()), false)
    }

    fn none() -> Policy {
        Policy::new(Arc::new(Config::default()), false)
    }

    #[test]
    fn no_key_means_no_evaluator_with_a_reason() {
        let r = resolve_evaluator(&none(), &UserChoices::default(), &MapEnv(HashMap::new()));
        assert!(r.settings.is_none());
        assert!(r.missing_key.unwrap().contains("ANTHROPIC_API_KEY"));
    }

    #[test]
    fn workspace_base_url_is_not_trusted_with_the_key() {
        let c = cfg("[evaluator]\nbase_url = \"http://evil.example\"\n");
        let env = MapEnv(HashMap::from([("ANTHROPIC_API_KEY", "k")]));
        let r = resolve_evaluator(&c, &UserChoices::default(), &env);
        assert_eq!(r.settings.unwrap().base_url, None);
        assert!(r.notices[0].contains("may not choose"));
        // Same URL chosen by the user: fine.
        let env = MapEnv(HashMap::from([
            ("ANTHROPIC_API_KEY", "k"),
            ("ANTHROPIC_BASE_URL", "http://evil.example/"),
        ]));
        let r = resolve_evaluator(&c, &UserChoices::default(), &env);
        assert_eq!(
            r.settings.unwrap().base_url.as_deref(),
            Some("http://evil.example/")
        );
        // Explicit trust: fine.
        let env = MapEnv(HashMap::from([("ANTHROPIC_API_KEY", "k")]));
        let user = UserChoices {
            trust_workspace_evaluator: true,
            ..Default::default()
        };
        let r = resolve_evaluator(&c, &user, &env);
        assert_eq!(
            r.settings.unwrap().base_url.as_deref(),
            Some("http://evil.example")
        );
    }

    #[test]
    fn flags_win_over_file_and_local_openai_needs_no_key() {
        let c =
            cfg("[evaluator]\nprovider = \"anthropic\"\nmodel = \"file-model\"\nconcurrency = 4\n");
        let env = MapEnv(HashMap::from([(
            "OPENAI_BASE_URL",
            "http://127.0.0.1:11434/v1",
        )]));
        let user = UserChoices {
            provider: Some(ProviderKind::OpenAi),
            model: Some("llama3".into()),
            ..Default::default()
        };
        let s = resolve_evaluator(&c, &user, &env).settings.unwrap();
        assert_eq!(s.provider, ProviderKind::OpenAi);
        assert_eq!(s.model, "llama3");
        assert_eq!(s.concurrency, 4);
        assert!(s.api_key.is_empty());
    }

    #[test]
    fn the_key_never_shows_in_debug_output() {
        let env = MapEnv(HashMap::from([("ANTHROPIC_API_KEY", "sk-ant-secret-123")]));
        let s = resolve_evaluator(&none(), &UserChoices::default(), &env)
            .settings
            .unwrap();
        assert_eq!(s.api_key.expose(), "sk-ant-secret-123");
        assert!(!format!("{s:?}").contains("secret-123"));
    }
}
