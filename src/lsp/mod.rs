//! `byop lsp`: the language server. `server` routes each LSP method to one small
//! handler under `handlers/` (commands under `commands/`); the handlers share the
//! `Backend` (client + `state`), publish through `publish`, evaluate through
//! `evaluate`, and translate the engine's live view (`view`) into diagnostics.

pub mod backend;
pub mod commands;
pub mod diagnostics;
pub mod documents;
pub mod evaluate;
pub mod handlers;
pub mod playbook_diagnostics;
pub mod progress;
pub mod publish;
pub mod server;
pub mod settings;
pub mod state;
pub mod status;
pub mod view;

pub use server::{serve, serve_stdio};
