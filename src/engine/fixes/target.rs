//! The text fixes apply to.

use crate::engine::document::Document;
use crate::model::text::LineIndex;

/// The text the edits apply to.
pub struct FixTarget<'a> {
    pub text: &'a str,
    /// The evaluated body (after the front matter).
    pub body: (usize, usize),
    pub line_index: &'a LineIndex,
}

impl<'a> FixTarget<'a> {
    pub fn of(doc: &'a Document) -> Self {
        FixTarget {
            text: &doc.text,
            body: doc.body,
            line_index: &doc.line_index,
        }
    }
}
