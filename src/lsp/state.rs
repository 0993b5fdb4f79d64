//! What the server holds between messages: open documents, settings, keys, the
//! negotiated encoding, the workspace resolver and one store per database path.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, RwLock};

use dashmap::DashMap;
use tower_lsp_server::ls_types::Uri;

use super::documents::DocEntry;
use super::settings::{self, Effective, Keys, Settings};
use crate::engine::document::DocumentError;
use crate::model::Encoding;
use crate::model::Report;
use crate::store::team_copy::TeamCopy;
use crate::store::{Location, Store};
use crate::workspace::docs_pages::DocPagesCache;
use crate::workspace::evaluator::{Env, ProcessEnv};
use crate::workspace::trust;
use crate::workspace::{Request, Resolved, Resolver};

pub struct State {
    pub docs: DashMap<Uri, Arc<DocEntry>>,
    pub settings: RwLock<Settings>,
    pub keys: RwLock<Keys>,
    pub encoding: RwLock<Encoding>,
    pub progress_supported: AtomicBool,
    pub progress_tokens: super::progress::Tokens,
    pub resolver: Resolver,
    pub pages: DocPagesCache,
    stores: DashMap<PathBuf, Arc<Store>>,
    /// Team stores on a server, each with its local copy for when it cannot be reached.
    teams: DashMap<String, Arc<TeamCopy>>,
    /// Notices about the team store (gone, back) for the client: (whether it is
    /// reachable, the message), shown once each.
    pub store_notices: std::sync::Mutex<Vec<(bool, String)>>,
    pub shutdown_requested: AtomicBool,
    /// The client answers `workspace/configuration`.
    pub pull_configuration: AtomicBool,
    /// The workspace folders the client opened: what documents may name files in.
    pub roots: RwLock<Vec<PathBuf>>,
    /// One evaluator per distinct settings, shared by every evaluation of the server: the
    /// documents evaluated at once share ONE concurrency limit and `retry-after` pause.
    pub evaluators: DashMap<String, crate::evaluator::Evaluator>,
}

impl State {
    pub fn new() -> Self {
        State {
            docs: DashMap::new(),
            settings: RwLock::new(Settings::default()),
            keys: RwLock::new(Keys::default()),
            encoding: RwLock::new(Encoding::Utf16),
            progress_supported: AtomicBool::new(false),
            progress_tokens: Arc::new(DashMap::new()),
            resolver: Resolver::new(),
            pages: DocPagesCache::default(),
            stores: DashMap::new(),
            teams: DashMap::new(),
            store_notices: Default::default(),
            shutdown_requested: AtomicBool::new(false),
            pull_configuration: AtomicBool::new(false),
            evaluators: DashMap::new(),
            roots: RwLock::new(Vec::new()),
        }
    }

    pub fn encoding(&self) -> Encoding {
        *self.encoding.read().unwrap_or_else(|e| e.into_inner())
    }

    pub fn settings(&self) -> Settings {
        self.settings
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Client settings merged over the `byop.toml` governing `path`.
    pub fn effective(&self, path: Option<&Path>) -> Effective {
        let keys = self.keys.read().unwrap_or_else(|e| e.into_inner()).clone();
        let config = self.resolver.config_for(path);
        settings::effective(&self.settings(), &keys, config, &ProcessEnv)
    }

    /// Resolve a document's text: companions and playbook (the setting, `byop.toml`,
    /// front matter, else built-in), through the cached resolver.
    pub fn resolve(&self, text: String, path: Option<&Path>) -> Result<Resolved, DocumentError> {
        let mut roots = self.roots.read().unwrap_or_else(|e| e.into_inner()).clone();
        // The home folder or `/` opened as a workspace folder is no workspace: a document
        // there names files only in its own repository (or beside itself).
        roots.retain(|r| trust::may_be_root(r, trust::marked_folder(r)));
        let settings = self.settings();
        let env = |n: &str| ProcessEnv.var(n);
        let base = roots.first().cloned().unwrap_or_default();
        self.resolver.resolve(Request {
            text,
            path,
            roots,
            setting_playbook: settings.playbook,
            locked: trust::lock(settings.locked, &env).on,
            user_playbooks: settings
                .allowed_playbooks
                .iter()
                .map(|p| base.join(p))
                .collect(),
            ..Default::default()
        })
    }

    pub fn store(&self, path: &Path) -> Option<Arc<Store>> {
        self.open_store(path)
            .map_err(|e| tracing::warn!("{e}"))
            .ok()
    }

    /// The store at `path`, opened once; the error says which store could not be opened
    /// and why (a store key others may read, a file that is not a store).
    pub fn open_store(&self, path: &Path) -> Result<Arc<Store>, String> {
        if let Some(team) = self.team(path)? {
            let current = team.current();
            if let Some(n) = current.notice {
                self.store_notices
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((current.online, n));
            }
            return Ok(current.store);
        }
        if let Some(s) = self.stores.get(path) {
            return Ok(s.clone());
        }
        let s = Arc::new(
            Store::open(path)
                .map_err(|e| format!("cannot open the store {}: {e}", path.display()))?,
        );
        self.stores.insert(path.to_path_buf(), s.clone());
        Ok(s)
    }
}

impl State {
    /// The team store `path` names (a server URL), opened once; `None` for a file.
    fn team(&self, path: &Path) -> Result<Option<Arc<TeamCopy>>, String> {
        let Ok(Location::Postgres(url)) = Location::parse(path) else {
            return Ok(None);
        };
        if let Some(t) = self.teams.get(&url) {
            return Ok(Some(t.clone()));
        }
        let team = TeamCopy::open(&url).map_err(|e| format!("cannot open the team store: {e}"))?;
        let team = Arc::new(team);
        self.teams.insert(url, team.clone());
        Ok(Some(team))
    }

    /// Keep what was loaded from a team store (reports of `doc_key`, and its baseline
    /// under `playbook_hash`) in its local copy, for when the server cannot be reached.
    pub fn keep_locally(
        &self,
        path: &Path,
        doc_key: &str,
        playbook_hash: &str,
        reports: &[&Report],
    ) {
        if let Ok(Some(team)) = self.team(path) {
            team.keep(doc_key, playbook_hash, reports);
        }
    }

    /// The team store notices not shown yet.
    pub fn take_store_notices(&self) -> Vec<(bool, String)> {
        std::mem::take(&mut *self.store_notices.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

impl Default for State {
    fn default() -> Self {
        Self::new()
    }
}

/// The file a `file:` URI names; other schemes (`http:`, `untitled:`) name no file and
/// get no file-system access.
pub fn uri_path(uri: &Uri) -> Option<PathBuf> {
    let file = uri
        .as_str()
        .get(..5)
        .is_some_and(|s| s.eq_ignore_ascii_case("file:"));
    file.then(|| uri.to_file_path().map(|p| p.into_owned()))
        .flatten()
}

/// The document's identity in the store: its canonical path (as the CLI uses), else the URI.
pub fn doc_key(uri: &Uri) -> String {
    uri_path(uri)
        .map(|p| crate::workspace::doc_key(&p))
        .unwrap_or_else(|| uri.as_str().to_string())
}
