//! A store failure: what was being done, on which database, and SQLite's reason.

#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct StoreError(pub String);
