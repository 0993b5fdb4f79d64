//! Language server (SPEC §8): `byop lsp`.
//!
//! One module per concern, handlers thin: `server` (lifecycle, sync, publishing),
//! `documents` (ropes, ordered edits), `diagnostics` (report → diagnostics,
//! merge and re-location), `hover`, `code_actions`, `commands`, `progress`,
//! `status`, `settings`, `playbook_diagnostics`.

pub mod code_actions;
pub mod commands;
pub mod diagnostics;
pub mod documents;
pub mod hover;
pub mod playbook_diagnostics;
pub mod progress;
pub mod server;
pub mod settings;
pub mod status;

pub use server::{serve, serve_stdio};
