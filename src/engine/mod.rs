//! The engine: a document and a playbook in, a report out. Knows nothing of the
//! terminal, the language server or where files and reports are kept.

pub mod aggregate;
pub mod ascii_regex;
pub mod audit_stats;
pub mod citations;
pub mod compare;
pub mod counterfactual;
pub mod dataset;
pub mod docs;
pub mod document;
pub mod fixes;
pub mod generate;
pub mod grounding;
pub mod injection;
pub mod live;
pub mod plan;
pub mod playbook;
pub mod repair;
pub mod rules;
pub mod runner;
pub mod suppress;
