//! SQLite store (SPEC §6). OWNER: helper "store+citations".
use std::path::Path;

use crate::report::Report;

#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct StoreError(pub String);

/// One row of `byop history`.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryRow {
    pub report_id: String,
    pub timestamp: String,
    pub document: String,
    pub playbook_id: String,
    pub playbook_version: String,
    pub mode: String,
    pub status: String,
    pub consistency_score: f64,
    pub is_baseline: bool,
}

pub struct Store {}

impl Store {
    /// Open (creating folders and schema), WAL, busy_timeout, migrations.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let _ = path;
        unimplemented!()
    }
    pub fn open_in_memory() -> Result<Store, StoreError> {
        unimplemented!()
    }
    /// Insert a report (`report.report_id` must be set). `doc_key` identifies the document.
    pub fn save_report(&self, doc_key: &str, report: &Report) -> Result<(), StoreError> {
        let _ = (doc_key, report);
        unimplemented!()
    }
    /// By full id or unique prefix.
    pub fn get_report(&self, id: &str) -> Result<Option<Report>, StoreError> {
        let _ = id;
        unimplemented!()
    }
    /// Newest first; all documents when `doc_key` is `None`.
    pub fn history(
        &self,
        doc_key: Option<&str>,
        limit: usize,
    ) -> Result<Vec<HistoryRow>, StoreError> {
        let _ = (doc_key, limit);
        unimplemented!()
    }
    /// Most recent report of this document and playbook hash, other than `exclude_id`.
    pub fn latest_report(
        &self,
        doc_key: &str,
        playbook_hash: &str,
        exclude_id: Option<&str>,
    ) -> Result<Option<Report>, StoreError> {
        let _ = (doc_key, playbook_hash, exclude_id);
        unimplemented!()
    }
    /// Most recent report for identical inputs, playbook and mode (any document path).
    pub fn find_by_inputs(
        &self,
        inputs_fingerprint: &str,
        playbook_hash: &str,
        mode: &str,
    ) -> Result<Option<Report>, StoreError> {
        let _ = (inputs_fingerprint, playbook_hash, mode);
        unimplemented!()
    }
    pub fn save_baseline(&self, doc_key: &str, report_id: &str) -> Result<(), StoreError> {
        let _ = (doc_key, report_id);
        unimplemented!()
    }
    pub fn baseline(
        &self,
        doc_key: &str,
        playbook_hash: &str,
    ) -> Result<Option<Report>, StoreError> {
        let _ = (doc_key, playbook_hash);
        unimplemented!()
    }
    pub fn cached_response(&self, key: &str) -> Result<Option<String>, StoreError> {
        let _ = key;
        unimplemented!()
    }
    pub fn put_cached_response(
        &self,
        key: &str,
        provider: &str,
        model: &str,
        raw: &str,
    ) -> Result<(), StoreError> {
        let _ = (key, provider, model, raw);
        unimplemented!()
    }
}
