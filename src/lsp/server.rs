//! The `LanguageServer` implementation: lifecycle, document sync, publishing.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};
use std::time::Duration;

use dashmap::DashMap;
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite};
use tower_lsp_server::jsonrpc::Result as RpcResult;
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer, LspService, Server};

use super::documents::{DocEntry, Evaluation, Kind};
use super::settings::{self, Effective, Keys, Settings};
use super::status::{ByopStatus, StatusParams};
use super::{code_actions, commands, diagnostics, hover, playbook_diagnostics};
use crate::config::ProcessEnv;
use crate::document::Document;
use crate::playbook::{self, LoadedPlaybook};
use crate::runner;
use crate::store::Store;
use crate::text::Encoding;

pub const DEBOUNCE: Duration = Duration::from_millis(200);

/// Shared server state.
pub struct State {
    pub docs: DashMap<Uri, Arc<DocEntry>>,
    pub settings: RwLock<Settings>,
    pub keys: RwLock<Keys>,
    pub encoding: RwLock<Encoding>,
    pub progress_supported: AtomicBool,
    pub progress_tokens: super::progress::Tokens,
    stores: DashMap<PathBuf, Arc<Store>>,
    playbooks: DashMap<(String, PathBuf), LoadedPlaybook>,
    pub shutdown_requested: AtomicBool,
    /// The client answers `workspace/configuration`.
    pub pull_configuration: AtomicBool,
}

impl State {
    fn new() -> Self {
        State {
            docs: DashMap::new(),
            settings: RwLock::new(Settings::default()),
            keys: RwLock::new(Keys::default()),
            encoding: RwLock::new(Encoding::Utf16),
            progress_supported: AtomicBool::new(false),
            progress_tokens: Arc::new(DashMap::new()),
            stores: DashMap::new(),
            playbooks: DashMap::new(),
            shutdown_requested: AtomicBool::new(false),
            pull_configuration: AtomicBool::new(false),
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

    pub fn effective(&self, path: Option<&Path>) -> Effective {
        let keys = self.keys.read().unwrap_or_else(|e| e.into_inner()).clone();
        settings::effective(&self.settings(), &keys, path, &ProcessEnv)
    }

    /// The playbook for a document: front matter, else settings/byop.toml, else built-in.
    /// A playbook that cannot load falls back to the built-in one, with the error.
    pub fn playbook(&self, eff: &Effective, doc: &Document) -> (LoadedPlaybook, Option<String>) {
        let spec = match (&doc.front_matter.playbook, &doc.path) {
            (Some(p), Some(path)) => Some((
                p.clone(),
                path.parent().map(Path::to_path_buf).unwrap_or_default(),
            )),
            (Some(p), None) => Some((p.clone(), eff.config.root.clone())),
            _ => eff.playbook.clone(),
        };
        let Some(key) = spec else {
            return (playbook::builtin(), None);
        };
        if let Some(pb) = self.playbooks.get(&key) {
            return (pb.clone(), None);
        }
        match playbook::resolve(&key.0, &key.1) {
            Ok(pb) => {
                self.playbooks.insert(key, pb.clone());
                (pb, None)
            }
            Err(e) => (
                playbook::builtin(),
                Some(format!(
                    "playbook `{}` not loaded, using the built-in one: {e}",
                    key.0
                )),
            ),
        }
    }

    pub fn store(&self, path: &Path) -> Option<Arc<Store>> {
        if let Some(s) = self.stores.get(path) {
            return Some(s.clone());
        }
        match Store::open(path) {
            Ok(s) => {
                let s = Arc::new(s);
                self.stores.insert(path.to_path_buf(), s.clone());
                Some(s)
            }
            Err(e) => {
                tracing::warn!("cannot open the store {}: {e}", path.display());
                None
            }
        }
    }

    pub fn forget_playbooks(&self) {
        self.playbooks.clear();
    }
}

pub fn uri_path(uri: &Uri) -> Option<PathBuf> {
    uri.to_file_path().map(|p| p.into_owned())
}

/// The document's identity in the store: its canonical path (as the CLI uses), else the URI.
pub fn doc_key(uri: &Uri) -> String {
    uri_path(uri)
        .map(|p| std::fs::canonicalize(&p).unwrap_or(p).display().to_string())
        .unwrap_or_else(|| uri.as_str().to_string())
}

#[derive(Clone)]
pub struct Backend {
    pub client: Client,
    pub state: Arc<State>,
}

/// Serve over stdin/stdout until `exit`. Exits the process (code 0 after `shutdown`, else 1):
/// a blocked stdin read would otherwise keep the runtime alive.
pub async fn serve_stdio() {
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(log_filter())
        .try_init();
    let state = serve_with_state(tokio::io::stdin(), tokio::io::stdout()).await;
    let code = if state.shutdown_requested.load(Ordering::SeqCst) {
        0
    } else {
        1
    };
    std::process::exit(code);
}

/// `BYOP_LOG` (default `info`), except the framework's message tracing: it would print
/// whole documents and `byop.setApiKey` arguments.
fn log_filter() -> tracing_subscriber::EnvFilter {
    let filter = tracing_subscriber::EnvFilter::try_from_env("BYOP_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    match "tower_lsp_server=info".parse() {
        Ok(d) => filter.add_directive(d),
        Err(_) => filter,
    }
}

/// Serve over any byte streams (tests use `tokio::io::duplex`).
pub async fn serve<I, O>(input: I, output: O)
where
    I: AsyncRead + Unpin,
    O: AsyncWrite,
{
    serve_with_state(input, output).await;
}

async fn serve_with_state<I, O>(input: I, output: O) -> Arc<State>
where
    I: AsyncRead + Unpin,
    O: AsyncWrite,
{
    let state = Arc::new(State::new());
    let shared = state.clone();
    let (service, socket) = LspService::build(move |client| Backend {
        client,
        state: shared.clone(),
    })
    .custom_method("window/workDoneProgress/cancel", Backend::progress_cancel)
    .finish();
    Server::new(input, output, socket).serve(service).await;
    state
}

impl Backend {
    async fn progress_cancel(&self, params: WorkDoneProgressCancelParams) {
        let key = match &params.token {
            NumberOrString::String(s) => s.clone(),
            NumberOrString::Number(n) => n.to_string(),
        };
        if let Some(tok) = self.state.progress_tokens.get(&key) {
            tracing::info!("evaluation cancelled by the client");
            tok.cancel();
        }
    }

    pub fn entry(&self, uri: &Uri) -> Option<Arc<DocEntry>> {
        self.state.docs.get(uri).map(|e| e.clone())
    }

    /// Log to stderr (tracing) and to the client when the level allows.
    pub async fn log(&self, level: tracing::Level, message: String) {
        match level {
            tracing::Level::ERROR => tracing::error!("{message}"),
            tracing::Level::WARN => tracing::warn!("{message}"),
            tracing::Level::INFO => tracing::info!("{message}"),
            _ => tracing::debug!("{message}"),
        }
        if level <= self.state.settings().log_level() {
            let typ = match level {
                tracing::Level::ERROR => MessageType::ERROR,
                tracing::Level::WARN => MessageType::WARNING,
                tracing::Level::INFO => MessageType::INFO,
                _ => MessageType::LOG,
            };
            self.client.log_message(typ, message).await;
        }
    }

    pub async fn send_status(&self, params: StatusParams) {
        self.client.send_notification::<ByopStatus>(params).await;
    }

    /// Compute and publish diagnostics for the document's current text. Publishes are
    /// serialized per document and skipped when the text moved on meanwhile.
    pub async fn publish(&self, uri: &Uri) {
        let Some(entry) = self.entry(uri) else { return };
        let _guard = entry.publish_lock.lock().await;
        let (text, version, kind, evaluation, running) = {
            let d = entry.lock();
            (
                d.rope.to_string(),
                d.version,
                d.kind,
                d.evaluation.clone(),
                d.eval.is_some(),
            )
        };
        let enc = self.state.encoding();
        let state = self.state.clone();
        let u = uri.clone();
        let started = std::time::Instant::now();
        let computed = tokio::task::spawn_blocking(move || {
            compute(&state, &u, text, version, kind, evaluation, enc)
        })
        .await;
        tracing::debug!(
            version,
            elapsed_ms = started.elapsed().as_secs_f64() * 1e3,
            "checked"
        );
        let (diags, view, mut status) = match computed {
            Ok(c) => c,
            Err(e) => {
                self.log(
                    tracing::Level::ERROR,
                    format!("checking {} failed: {e}", uri.as_str()),
                )
                .await;
                return;
            }
        };
        if entry.version() != version {
            return; // newer text; its own publish follows
        }
        if let Some(v) = view {
            entry.lock().view = Some(Arc::new(v));
        }
        self.client
            .publish_diagnostics(uri.clone(), diags, Some(version))
            .await;
        if running {
            status.status = "RUNNING".into();
        }
        self.send_status(status).await;
    }

    /// Publish once the document has been quiet for the debounce delay.
    fn schedule_publish(&self, uri: Uri, generation: u64) {
        let this = self.clone();
        tokio::spawn(async move {
            tokio::time::sleep(DEBOUNCE).await;
            let Some(entry) = this.entry(&uri) else {
                return;
            };
            {
                let mut d = entry.lock();
                if d.generation != generation {
                    return;
                }
                // A client that skipped a version: apply what we hold, in order.
                if d.has_pending() && d.drain(this.state.encoding(), true) {
                    let g = d.generation;
                    drop(d);
                    this.schedule_publish(uri, g);
                    return;
                }
            }
            this.publish(&uri).await;
        });
    }

    /// On open: the stored report for identical content, if any.
    fn load_stored(&self, uri: &Uri, entry: &DocEntry) {
        let (text, _) = entry.snapshot();
        let path = uri_path(uri);
        let Ok(mut doc) = Document::parse(text.to_string(), path.as_deref()) else {
            return;
        };
        if doc.load_companions(None, None).is_err() {
            return;
        }
        let eff = self.state.effective(path.as_deref());
        let (pb, _) = self.state.playbook(&eff, &doc);
        let Some(store) = self.state.store(&eff.db_path) else {
            return;
        };
        let fp = doc.inputs.fingerprint();
        let found = ["full", "screening"]
            .iter()
            .find_map(|m| store.find_by_inputs(&fp, &pb.logic_hash, m).ok().flatten());
        if let Some(report) = found {
            tracing::info!(report_id = %report.report_id, "showing the stored report for identical content");
            let mut d = entry.lock();
            d.last_report_id = Some(report.report_id.clone());
            d.evaluation = Some(Arc::new(Evaluation { report, text }));
        }
    }
}

type Computed = (Vec<Diagnostic>, Option<diagnostics::View>, StatusParams);

fn compute(
    state: &State,
    uri: &Uri,
    text: String,
    version: i32,
    kind: Kind,
    evaluation: Option<Arc<Evaluation>>,
    enc: Encoding,
) -> Computed {
    if kind == Kind::Playbook {
        let diags = playbook_diagnostics::diagnostics(&text, enc);
        let msg = diags.first().map(|d| d.message.clone());
        return (diags, None, StatusParams::none(uri, msg));
    }
    let path = uri_path(uri);
    let eff = state.effective(path.as_deref());
    let mut doc = match Document::parse(text, path.as_deref()) {
        Ok(d) => d,
        Err(e) => {
            let d = diagnostics::error_at(e.position, "document_error", e.message.clone());
            return (vec![d], None, StatusParams::none(uri, Some(e.message)));
        }
    };
    let mut extra = Vec::new();
    let mut notices = eff.notices.clone();
    if let Err(e) = doc.load_companions(None, None) {
        extra.push(diagnostics::error_at(
            e.position,
            "document_error",
            e.message.clone(),
        ));
        notices.push(e.message);
    }
    let (pb, pb_error) = state.playbook(&eff, &doc);
    if let Some(e) = pb_error {
        extra.push(diagnostics::error_at(
            Default::default(),
            "playbook_error",
            e.clone(),
        ));
        notices.push(e);
    }
    let det = runner::run_deterministic(&pb, &doc);
    let view = diagnostics::merge(&pb, &doc, version, det, evaluation);
    let mut diags = diagnostics::to_lsp(&view, uri, enc);
    diags.extend(extra);
    if view.edited_since_evaluation {
        notices.push("edited since the evaluation".into());
    }
    let status = StatusParams {
        uri: uri.clone(),
        status: view.status.as_str().into(),
        consistency_score: Some(view.consistency_score),
        mode: Some(view.mode.as_str().into()),
        message: (!notices.is_empty()).then(|| notices.join(" · ")),
    };
    (diags, Some(view), status)
}

fn negotiate_encoding(params: &InitializeParams) -> Encoding {
    let offered = params
        .capabilities
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_ref());
    match offered {
        Some(list) if list.contains(&PositionEncodingKind::UTF8) => Encoding::Utf8,
        _ => Encoding::Utf16,
    }
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> RpcResult<InitializeResult> {
        if let Some(opts) = &params.initialization_options {
            match Settings::from_json(opts) {
                Ok(s) => {
                    *self
                        .state
                        .settings
                        .write()
                        .unwrap_or_else(|e| e.into_inner()) = s
                }
                Err(e) => tracing::warn!("{e}"),
            }
        }
        let enc = negotiate_encoding(&params);
        *self
            .state
            .encoding
            .write()
            .unwrap_or_else(|e| e.into_inner()) = enc;
        let progress = params
            .capabilities
            .window
            .as_ref()
            .and_then(|w| w.work_done_progress)
            .unwrap_or(false);
        self.state
            .progress_supported
            .store(progress, Ordering::SeqCst);
        Ok(InitializeResult {
            capabilities: ServerCapabilities {
                position_encoding: Some(match enc {
                    Encoding::Utf8 => PositionEncodingKind::UTF8,
                    Encoding::Utf16 => PositionEncodingKind::UTF16,
                }),
                text_document_sync: Some(TextDocumentSyncCapability::Options(
                    TextDocumentSyncOptions {
                        open_close: Some(true),
                        change: Some(TextDocumentSyncKind::INCREMENTAL),
                        save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                            include_text: Some(false),
                        })),
                        ..Default::default()
                    },
                )),
                hover_provider: Some(HoverProviderCapability::Simple(true)),
                code_action_provider: Some(CodeActionProviderCapability::Options(
                    CodeActionOptions {
                        code_action_kinds: Some(vec![
                            CodeActionKind::QUICKFIX,
                            CodeActionKind::new(code_actions::FIX_ALL_KIND),
                        ]),
                        ..Default::default()
                    },
                )),
                execute_command_provider: Some(ExecuteCommandOptions {
                    commands: commands::NAMES.iter().map(|s| s.to_string()).collect(),
                    ..Default::default()
                }),
                ..Default::default()
            },
            server_info: Some(ServerInfo {
                name: "byop".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            }),
            offset_encoding: None,
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        self.log(
            tracing::Level::INFO,
            format!("byop {} language server ready", env!("CARGO_PKG_VERSION")),
        )
        .await;
    }

    async fn shutdown(&self) -> RpcResult<()> {
        self.state.shutdown_requested.store(true, Ordering::SeqCst);
        for doc in self.state.docs.iter() {
            if let Some((_, tok)) = &doc.lock().eval {
                tok.cancel();
            }
        }
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let td = params.text_document;
        let path = uri_path(&td.uri);
        let kind = if playbook_diagnostics::looks_like_playbook(
            path.as_deref(),
            td.uri.as_str(),
            &td.text,
        ) {
            Kind::Playbook
        } else {
            Kind::Output
        };
        tracing::debug!(uri = td.uri.as_str(), bytes = td.text.len(), "open");
        let entry = Arc::new(DocEntry::new(&td.text, td.version, kind));
        self.state.docs.insert(td.uri.clone(), entry.clone());
        if kind == Kind::Output {
            let this = self.clone();
            let uri = td.uri.clone();
            let e = entry.clone();
            let _ = tokio::task::spawn_blocking(move || this.load_stored(&uri, &e)).await;
        }
        self.publish(&td.uri).await;
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let uri = params.text_document.uri;
        let Some(entry) = self.entry(&uri) else {
            return;
        };
        let generation = {
            let mut d = entry.lock();
            d.change(
                params.text_document.version,
                params.content_changes,
                self.state.encoding(),
            );
            // An edit makes a running evaluation's text stale: cancel it.
            if let Some((_, tok)) = &d.eval {
                tok.cancel();
            }
            d.generation
        };
        self.schedule_publish(uri, generation);
    }

    async fn did_save(&self, params: DidSaveTextDocumentParams) {
        let uri = params.text_document.uri;
        // A saved playbook or config may change what other documents are checked against.
        self.state.forget_playbooks();
        let Some(entry) = self.entry(&uri) else {
            return;
        };
        let is_playbook = entry.lock().kind == Kind::Playbook;
        if is_playbook {
            // Documents checked against this playbook see the saved version.
            let others: Vec<Uri> = self
                .state
                .docs
                .iter()
                .filter(|e| e.key() != &uri)
                .map(|e| e.key().clone())
                .collect();
            for other in others {
                self.publish(&other).await;
            }
            return;
        }
        let eff = self.state.effective(uri_path(&uri).as_deref());
        match eff.on_save.mode() {
            None => {}
            Some(crate::report::Mode::Deterministic) => self.publish(&uri).await,
            Some(mode) => {
                let this = self.clone();
                tokio::spawn(async move {
                    if let Err(e) = this.evaluate(&uri, mode, false).await {
                        this.log(tracing::Level::INFO, format!("evaluation on save: {e}"))
                            .await;
                    }
                });
            }
        }
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        if let Some((_, entry)) = self.state.docs.remove(&uri)
            && let Some((_, tok)) = &entry.lock().eval
        {
            tok.cancel();
        }
        self.client
            .publish_diagnostics(uri.clone(), vec![], None)
            .await;
        self.send_status(StatusParams::none(&uri, None)).await;
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        let mut value = params.settings;
        // Pull-style clients send `null` and expect the server to ask.
        if value.is_null() && self.state.pull_configuration.load(Ordering::SeqCst) {
            let item = ConfigurationItem {
                scope_uri: None,
                section: Some("byop".into()),
            };
            match self.client.configuration(vec![item]).await {
                Ok(mut v) if !v.is_empty() => value = v.remove(0),
                _ => return,
            }
        }
        if value.is_null() {
            return;
        }
        match Settings::from_json(&value) {
            Ok(s) => {
                *self
                    .state
                    .settings
                    .write()
                    .unwrap_or_else(|e| e.into_inner()) = s
            }
            Err(e) => {
                self.log(tracing::Level::WARN, e).await;
                return;
            }
        }
        self.state.forget_playbooks();
        let uris: Vec<Uri> = self.state.docs.iter().map(|e| e.key().clone()).collect();
        for uri in uris {
            self.publish(&uri).await;
        }
    }

    async fn hover(&self, params: HoverParams) -> RpcResult<Option<Hover>> {
        let p = params.text_document_position_params;
        let Some(entry) = self.entry(&p.text_document.uri) else {
            return Ok(None);
        };
        let (view, version) = {
            let d = entry.lock();
            (d.view.clone(), d.version)
        };
        Ok(view.filter(|v| v.version == version).and_then(|v| {
            hover::hover(
                &v,
                diagnostics::text_position(p.position),
                self.state.encoding(),
            )
        }))
    }

    async fn code_action(&self, params: CodeActionParams) -> RpcResult<Option<CodeActionResponse>> {
        let view = self.entry(&params.text_document.uri).and_then(|e| {
            let d = e.lock();
            d.view.clone().filter(|v| v.version == d.version)
        });
        let actions = code_actions::actions(&params, view.as_deref(), self.state.encoding());
        Ok((!actions.is_empty()).then_some(actions))
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> RpcResult<Option<Value>> {
        commands::execute(self, params).await
    }
}

/// Cancel a running evaluation of `uri`, if any.
pub fn set_running(entry: &DocEntry, id: u64, tok: tokio_util::sync::CancellationToken) {
    let mut d = entry.lock();
    if let Some((_, old)) = d.eval.replace((id, tok)) {
        old.cancel();
    }
}

pub fn clear_running(entry: &DocEntry, id: u64) {
    let mut d = entry.lock();
    if d.eval.as_ref().is_some_and(|(i, _)| *i == id) {
        d.eval = None;
    }
}
