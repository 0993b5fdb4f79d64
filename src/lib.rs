//! `byop`: lints AI-generated legal output against a playbook.
//!
//! Engine: document → inputs → runner (playbook × evaluator) → aggregation →
//! report → store. The `cli` and `lsp` front ends only translate; nothing in
//! the engine imports them.

pub mod aggregate;
pub mod citations;
pub mod config;
pub mod diff;
pub mod docs;
pub mod document;
pub mod evaluator;
pub mod injection;
pub mod integrity;
pub mod playbook;
pub mod render;
pub mod report;
pub mod rules;
pub mod runner;
pub mod store;
pub mod suppress;
pub mod text;

pub mod cli;
pub mod lsp;
