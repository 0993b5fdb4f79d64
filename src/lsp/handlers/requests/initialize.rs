//! `initialize`: settings from `initializationOptions`, the position encoding, and
//! what the server can do.

use std::sync::atomic::Ordering;

use tower_lsp_server::jsonrpc::Result as RpcResult;
use tower_lsp_server::ls_types::*;

use super::code_action::FIX_ALL_KIND;
use crate::lsp::backend::Backend;
use crate::lsp::commands;
use crate::lsp::settings::Settings;
use crate::model::Encoding;

pub async fn run(b: &Backend, params: InitializeParams) -> RpcResult<InitializeResult> {
    if let Some(opts) = &params.initialization_options {
        match Settings::from_json(opts) {
            Ok(s) => *b.state.settings.write().unwrap_or_else(|e| e.into_inner()) = s,
            Err(e) => tracing::warn!("{e}"),
        }
    }
    *b.state.roots.write().unwrap_or_else(|e| e.into_inner()) = workspace_roots(&params);
    let enc = negotiate_encoding(&params);
    *b.state.encoding.write().unwrap_or_else(|e| e.into_inner()) = enc;
    let progress = params
        .capabilities
        .window
        .as_ref()
        .and_then(|w| w.work_done_progress)
        .unwrap_or(false);
    b.state.progress_supported.store(progress, Ordering::SeqCst);
    let pull = params
        .capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.configuration)
        .unwrap_or(false);
    b.state.pull_configuration.store(pull, Ordering::SeqCst);
    Ok(InitializeResult {
        capabilities: capabilities(enc),
        server_info: Some(ServerInfo {
            name: "byop".into(),
            version: Some(env!("CARGO_PKG_VERSION").into()),
        }),
        offset_encoding: None,
    })
}

fn capabilities(enc: Encoding) -> ServerCapabilities {
    ServerCapabilities {
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
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![
                CodeActionKind::QUICKFIX,
                CodeActionKind::new(FIX_ALL_KIND),
            ]),
            ..Default::default()
        })),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: commands::names(),
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// The folders the client opened (`workspaceFolders`, else the deprecated `rootUri`).
#[allow(deprecated)]
fn workspace_roots(params: &InitializeParams) -> Vec<std::path::PathBuf> {
    let folders = params.workspace_folders.iter().flatten().map(|f| &f.uri);
    folders
        .chain(params.root_uri.iter())
        .filter_map(|u| u.to_file_path().map(|p| p.into_owned()))
        .collect()
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
