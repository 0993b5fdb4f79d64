//! Reading text files: UTF-8 (a BOM dropped) or an error with file:line:column.

use std::path::Path;

use crate::engine::document::{DocumentError, decode};
use crate::model::Position;

pub fn read_text(path: &Path) -> Result<String, DocumentError> {
    let label = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| DocumentError {
        file: label.clone(),
        position: Position::default(),
        message: format!("cannot read: {e}"),
    })?;
    decode(&label, bytes)
}
