//! What the server holds: its configuration, the browser sessions (each with the API key
//! its user entered, in memory only), the runs in flight, and the texts of recent runs
//! (for highlighting their reports; memory only, never stored).

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use dashmap::DashMap;

use super::events::RunHandle;
use futures::future::BoxFuture;

use crate::engine::dataset::DatasetSummary;
use crate::engine::playbook::LoadedPlaybook;
use crate::evaluator::{ApiKey, Evaluator, ProviderKind};
use crate::store::Store;
use crate::workspace::trust::Policy;

/// Sessions kept at most; the oldest is dropped (with its key) beyond this.
const MAX_SESSIONS: usize = 64;
/// Recent document texts kept for highlighting.
const MAX_TEXTS: usize = 64;

/// A playbook the picker offers: a built-in one or one the user allowed at start-up.
#[derive(Clone)]
pub struct Offered {
    /// What a request names it by (the built-in id, or the file's playbook id).
    pub id: String,
    pub label: String,
    /// The spec and folder the resolver loads it from.
    pub spec: (String, PathBuf),
    pub loaded: LoadedPlaybook,
}

/// The comparison of a dataset, made with the viewer's evaluator (none: the checks that
/// need one are indeterminate).
pub type SummarizeFn = Arc<
    dyn Fn(Option<Evaluator>) -> BoxFuture<'static, Result<DatasetSummary, String>> + Send + Sync,
>;

/// A dataset folder the user named at start-up (`--dataset DIR`): a request names it by
/// its folder's name, never by a path.
#[derive(Clone)]
pub struct OfferedDataset {
    pub name: String,
    pub summarize: SummarizeFn,
}

/// Everything chosen at start-up, by the user (flags, environment), never by a request.
pub struct Settings {
    pub store: Arc<Store>,
    pub policy: Policy,
    pub provider: Option<ProviderKind>,
    pub model: Option<String>,
    pub trust_workspace_evaluator: bool,
    pub canary: Option<bool>,
    pub playbooks: Vec<Offered>,
    /// The datasets whose comparison the page shows.
    pub datasets: Vec<OfferedDataset>,
    /// `Host` header values the server answers to (DNS rebinding defence).
    pub hosts: Vec<String>,
    /// The per-launch token (printed once at start-up).
    pub token: String,
    /// A session's evaluator key is forgotten after this long without a request from it.
    pub key_idle: Duration,
}

/// A browser session: made when the start-up URL with the token is opened.
pub struct Session {
    pub id: String,
    /// Required in `X-Byop-Csrf` on every state change made with the session cookie.
    pub csrf: String,
    /// The evaluator key entered on the page (this session's memory only), and when the
    /// session last made a request.
    held: Mutex<Held>,
}

struct Held {
    key: Option<ApiKey>,
    seen: Instant,
}

impl Session {
    fn held(&self) -> std::sync::MutexGuard<'_, Held> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }
    pub fn key(&self) -> Option<ApiKey> {
        self.held().key.clone()
    }
    pub fn set_key(&self, key: Option<ApiKey>) {
        self.held().key = key;
    }
    pub fn has_key(&self) -> bool {
        self.key().is_some_and(|k| !k.is_empty())
    }
    /// Forget the key; whether there was one.
    pub fn forget_key(&self) -> bool {
        self.held().key.take().is_some()
    }
    /// A request from this session: the key is first forgotten if the session was idle
    /// longer than `idle`.
    pub fn touch(&self, idle: Duration) {
        let mut held = self.held();
        if held.seen.elapsed() > idle {
            held.key = None;
        }
        held.seen = Instant::now();
    }
    /// Forget the key if the session has been idle longer than `idle`.
    fn expire(&self, idle: Duration) {
        let mut held = self.held();
        if held.seen.elapsed() > idle {
            held.key = None;
        }
    }
}

pub struct AppState {
    pub settings: Settings,
    sessions: Mutex<VecDeque<Arc<Session>>>,
    pub runs: DashMap<String, Arc<RunHandle>>,
    texts: Mutex<VecDeque<(String, Arc<String>)>>,
}

impl AppState {
    pub fn new(settings: Settings) -> Arc<AppState> {
        Arc::new(AppState {
            settings,
            sessions: Mutex::default(),
            runs: DashMap::new(),
            texts: Mutex::default(),
        })
    }

    pub fn new_session(&self) -> Arc<Session> {
        let session = Arc::new(Session {
            id: random_token(),
            csrf: random_token(),
            held: Mutex::new(Held {
                key: None,
                seen: Instant::now(),
            }),
        });
        let mut all = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        if all.len() >= MAX_SESSIONS {
            all.pop_front();
        }
        all.push_back(session.clone());
        session
    }

    pub fn session(&self, id: &str) -> Option<Arc<Session>> {
        let all = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        all.iter().find(|s| same_secret(&s.id, id)).cloned()
    }

    /// Forget the keys of the sessions idle longer than the setting (run periodically, so
    /// a key leaves memory even if its session never comes back).
    pub fn expire_idle_keys(&self) {
        let all = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        for s in all.iter() {
            s.expire(self.settings.key_idle);
        }
    }

    /// Keep a run's document text for its report's highlighting.
    pub fn remember_text(&self, report_id: &str, text: Arc<String>) {
        let mut all = self.texts.lock().unwrap_or_else(|e| e.into_inner());
        all.retain(|(id, _)| id != report_id);
        if all.len() >= MAX_TEXTS {
            all.pop_front();
        }
        all.push_back((report_id.to_string(), text));
    }

    pub fn text_of(&self, report_id: &str) -> Option<Arc<String>> {
        let all = self.texts.lock().unwrap_or_else(|e| e.into_inner());
        all.iter()
            .find(|(id, _)| id == report_id)
            .map(|(_, t)| t.clone())
    }

    /// The offered playbook `id` names.
    pub fn playbook(&self, id: &str) -> Option<&Offered> {
        self.settings.playbooks.iter().find(|p| p.id == id)
    }

    /// The offered dataset `name` names.
    pub fn dataset(&self, name: &str) -> Option<&OfferedDataset> {
        self.settings.datasets.iter().find(|d| d.name == name)
    }

    /// The offered playbook with this logic hash (a stored report's).
    pub fn playbook_by_hash(&self, hash: &str) -> Option<&Offered> {
        self.settings
            .playbooks
            .iter()
            .find(|p| p.loaded.logic_hash == hash)
    }
}

/// 32 random bytes, hex.
pub fn random_token() -> String {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).expect("the system's random source");
    hex::encode(bytes)
}

/// Equal secrets, compared in time independent of where they differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    use sha2::{Digest, Sha256};
    let (x, y) = (Sha256::digest(a.as_bytes()), Sha256::digest(b.as_bytes()));
    x.iter()
        .zip(y.iter())
        .fold(0u8, |acc, (p, q)| acc | (p ^ q))
        == 0
}
