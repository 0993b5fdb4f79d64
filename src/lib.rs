//! `byop`: lints AI-generated legal output against a playbook.
//!
//! Layers, each importing only those below it (see `docs/architecture.md`):
//!
//! - `cli`, `lsp`, `web` — front ends: translate arguments, LSP messages and HTTP
//!   requests, nothing more.
//! - `workspace` — the edge both front ends share: `byop.toml`, resolving a document
//!   (companions, playbook, evaluator), evaluating and saving.
//! - `render` — reports as text, JSON, SARIF, JUnit, HTML, comparisons.
//! - `store` — SQLite: reports, baselines, the response cache.
//! - `engine` — document → rules → runner → aggregation → report; fixes; comparisons.
//! - `evaluator` — the LLM providers, prompts, verdict parsing, retries.
//! - `model` — plain data shared by everything.

pub mod model;

pub mod evaluator;

pub mod engine;
pub mod store;

pub mod render;
pub mod workspace;

pub mod cli;
pub mod lsp;
pub mod web;

pub mod fuzzing;
