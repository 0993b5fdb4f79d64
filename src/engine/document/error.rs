//! A document that cannot be read or parsed, with file:line:column.

use crate::model::text::Position;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{file}:{}:{}: {message}", .position.line + 1, .position.character + 1)]
pub struct DocumentError {
    pub file: String,
    pub position: Position,
    pub message: String,
}

pub(crate) fn err(file: &str, position: Position, message: String) -> DocumentError {
    DocumentError {
        file: file.to_string(),
        position,
        message,
    }
}
