//! What the last publish showed for one document version: the engine's live view
//! and the conversions to LSP positions. Hover and code actions read it.

use std::ops::Deref;

use tower_lsp_server::ls_types::{Position, Range};

use crate::engine::live::LiveView;
use crate::model::{Encoding, text};

#[derive(Debug, Clone)]
pub struct View {
    pub version: i32,
    pub live: LiveView,
}

impl Deref for View {
    type Target = LiveView;
    fn deref(&self) -> &LiveView {
        &self.live
    }
}

impl View {
    pub fn range(&self, start: usize, end: usize, enc: Encoding) -> Range {
        lsp_range(self.line_index.range(&self.text, start, end, enc))
    }

    /// The first body line, where findings without a span sit.
    pub fn first_body_line_range(&self, enc: Encoding) -> Range {
        let (start, end) = self.first_body_line();
        self.range(start, end, enc)
    }

    pub fn offset(&self, p: Position, enc: Encoding) -> usize {
        self.line_index.offset(&self.text, text_position(p), enc)
    }
}

pub fn lsp_range(r: text::Range) -> Range {
    Range::new(
        Position::new(r.start.line, r.start.character),
        Position::new(r.end.line, r.end.character),
    )
}

pub fn text_position(p: Position) -> text::Position {
    text::Position {
        line: p.line,
        character: p.character,
    }
}
