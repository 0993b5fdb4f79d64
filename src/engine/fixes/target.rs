//! The text fixes apply to.

use std::cell::OnceCell;

use crate::engine::document::{Document, Layout};
use crate::model::text::LineIndex;

/// The text the edits apply to, and its layout (where a sentence, paragraph or heading is).
pub struct FixTarget<'a> {
    pub text: &'a str,
    /// The evaluated body (after the front matter).
    pub body: (usize, usize),
    pub line_index: &'a LineIndex,
    /// The document, whose layout (built once per version) is used when there is one.
    doc: Option<&'a Document>,
    /// Otherwise built here from the body as markdown, on first use.
    own: OnceCell<Layout>,
}

impl<'a> FixTarget<'a> {
    pub fn of(doc: &'a Document) -> Self {
        FixTarget {
            text: &doc.text,
            body: doc.body,
            line_index: &doc.line_index,
            doc: Some(doc),
            own: OnceCell::new(),
        }
    }

    /// A text without a parsed document (an editor's buffer): its layout is built when a
    /// fix needs it.
    pub fn new(text: &'a str, body: (usize, usize), line_index: &'a LineIndex) -> Self {
        FixTarget {
            text,
            body,
            line_index,
            doc: None,
            own: OnceCell::new(),
        }
    }

    pub fn layout(&self) -> &Layout {
        match self.doc {
            Some(d) => d.layout(),
            None => self
                .own
                .get_or_init(|| Layout::markdown(self.text, self.body)),
        }
    }
}
