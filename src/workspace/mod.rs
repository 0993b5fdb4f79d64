//! The edge both front ends share: the workspace's `byop.toml`, reading a document
//! and its companions, choosing its playbook and evaluator, evaluating it with the
//! history from the store and saving the report.

pub mod boundary;
pub mod config;
pub mod counterfactual;
pub mod docs_pages;
pub mod evaluate;
pub mod evaluator;
pub mod files;
pub mod gen_audit;
pub mod gen_trace;
mod plan_trace;
pub mod repair;
pub mod resolver;
pub mod telemetry;
mod telemetry_choice;
pub mod trust;

pub use config::Config;
pub use resolver::{PlaybookSource, Problem, ProblemKind, Request, Resolved, Resolver};

use std::path::Path;

/// A document's identity in the store: its canonical path (else the path as given).
pub fn doc_key(path: &Path) -> String {
    std::fs::canonicalize(path)
        .unwrap_or_else(|_| path.to_path_buf())
        .display()
        .to_string()
}
