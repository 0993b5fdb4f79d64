//! The language server's entry points and its router: each LSP method goes to its
//! handler in `handlers/`.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite};
use tower_lsp_server::jsonrpc::Result as RpcResult;
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{LanguageServer, LspService, Server};

use super::backend::Backend;
use super::handlers::{notifications, requests};
use super::state::State;

/// Serve over stdin/stdout until `exit`. Exits the process (code 0 after `shutdown`, else 1):
/// a blocked stdin read would otherwise keep the runtime alive.
pub async fn serve_stdio() {
    let _ = tracing_subscriber::fmt()
        // Log lines carry file names and notes: controls and invisible characters escaped.
        .with_writer(|| crate::render::terminal::Escaping(std::io::stderr()))
        .with_ansi(false)
        .with_env_filter(log_filter())
        .try_init();
    start_telemetry();
    let state = serve_with_state(tokio::io::stdin(), tokio::io::stdout()).await;
    // Send the traces still pending before exiting (blocks up to the export timeout).
    let _ = tokio::task::spawn_blocking(crate::workspace::telemetry::shutdown).await;
    let code = if state.shutdown_requested.load(Ordering::SeqCst) {
        0
    } else {
        1
    };
    std::process::exit(code);
}

/// Traces to `OTEL_EXPORTER_OTLP_ENDPOINT` (the user's; a `byop.toml` endpoint of the
/// folder the server was started in only when it is the same).
fn start_telemetry() {
    use crate::workspace::telemetry;
    let cwd = std::env::current_dir().unwrap_or_default();
    let config = crate::workspace::Config::discover(&cwd).unwrap_or_default();
    let policy = crate::workspace::trust::Policy::new(std::sync::Arc::new(config), false);
    let env = |name: &str| std::env::var(name).ok();
    let user = telemetry::UserTelemetry::default();
    let (settings, notice) = telemetry::settings(user, &env, &policy);
    if let Some(n) = notice {
        tracing::warn!("{n}");
    }
    if let Some(s) = settings
        && let Err(e) = telemetry::install(&s)
    {
        tracing::warn!("{e}");
    }
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
        notifications::progress_cancel::run(self, params).await
    }
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> RpcResult<InitializeResult> {
        requests::initialize::run(self, params).await
    }

    async fn initialized(&self, _: InitializedParams) {
        notifications::initialized::run(self).await
    }

    async fn shutdown(&self) -> RpcResult<()> {
        requests::shutdown::run(self).await
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        notifications::did_open::run(self, params).await
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        notifications::did_change::run(self, params).await
    }

    async fn did_save(&self, params: DidSaveTextDocumentParams) {
        notifications::did_save::run(self, params).await
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        notifications::did_close::run(self, params).await
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        notifications::did_change_configuration::run(self, params).await
    }

    async fn hover(&self, params: HoverParams) -> RpcResult<Option<Hover>> {
        requests::hover::run(self, params).await
    }

    async fn code_action(&self, params: CodeActionParams) -> RpcResult<Option<CodeActionResponse>> {
        requests::code_action::run(self, params).await
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> RpcResult<Option<Value>> {
        requests::execute_command::run(self, params).await
    }
}
