//! The layout of a document: its structure read once by a real markdown parser, every
//! node with its byte range in the whole document.
//!
//! Built once per document version ([`crate::engine::document::Document::layout`],
//! [`crate::engine::document::Companion::layout`]) and shared by every rule, the plan
//! reader and the citation locator, so that nothing rebuilds structure by scanning lines.
//!
//! API:
//! - [`Layout::markdown`] / [`Layout::plain`] (blank-line paragraphs) / [`Layout::for_path`]
//!   (by file extension) build it over `text[range]`; offsets stay whole-document.
//! - [`Layout::blocks`] iterates the blocks in document order (pre-order: a container
//!   before what it holds); [`Layout::block`], [`Layout::children`], [`Layout::parent`],
//!   [`Layout::ancestors`] walk the tree; [`BlockKind`] says what each is (heading with
//!   level and [`Numbering`], paragraph, list and list item with enumerator and depth, block
//!   quote, code block, table, row, cell, HTML, rule).
//! - [`Layout::block_at`] is the innermost block holding an offset; [`Layout::within`]
//!   asks whether an offset sits inside a kind of block (a block quote, a code block, a table).
//! - [`Layout::headings`] and [`Layout::heading_path`] give the heading tree: the headings
//!   an offset sits under, outermost first; [`Layout::heading_parent`] climbs it.
//! - [`Layout::sentences`], [`Layout::sentences_of`] and [`Layout::sentence_at`]: sentences
//!   split inside each block's own text (never across blocks).
//! - [`Layout::inlines`], [`Layout::inlines_of`] (one block's) and [`Layout::inline_at`]:
//!   emphasis, strong, strike-through, code spans, links (with destination) and images.
//! - [`Layout::rows`] and [`Layout::cells`] read a table.
//! - [`Layout::titles`]: headings, all-strong paragraphs, strong labels opening a block and
//!   lead-in lines before a list, each saying whether content follows.
//! - [`Layout::labels`]: one-line labels ("Missing information: none.") with the rest of
//!   their line as content.
//! - [`Layout::reading`]: a block's text as read, emphasis and strong delimiters left out,
//!   each byte mapped back to the document ([`Reading::span`]).
//! - [`Layout::unrendered`]: text the parser reads but a reader never sees (link reference
//!   definitions, the `[//]: # (note)` comment idiom among them, links' destinations and
//!   titles, images whole, raw HTML's markup and what hidden or non-formatting elements
//!   hold: see `html`); [`unrendered`] builds only that, for a reader that has no layout.

mod build;
mod html;
mod html_refs;
mod lead;
mod numbering;
mod reading;
mod sentences;
#[cfg(test)]
mod tests;
mod titles;
mod unrendered;

pub use lead::{LineLead, clause_number, line_lead, only_decoration};
pub use numbering::{Numbering, read_numbering, roman_value};
pub use reading::Reading;
pub use sentences::{is_abbreviation, line_opens_block, split_sentences};
pub use titles::Title;

/// A byte range `start..end` in the whole document.
pub type Span = (usize, usize);

/// Index of a block in [`Layout::blocks`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub usize);

/// What a block is.
#[derive(Debug, Clone, PartialEq)]
pub enum BlockKind {
    /// `level` 1–6; `number` when its title starts with one ("2.1 Term", "Article IV").
    Heading {
        level: u8,
        number: Option<Numbering>,
    },
    Paragraph,
    List {
        ordered: bool,
    },
    /// `enumerator` as written ("1.", "-", "b)"); `depth` 1 for a top-level list's items.
    ListItem {
        enumerator: String,
        depth: usize,
    },
    BlockQuote,
    /// Fenced (with its info string) or indented.
    CodeBlock {
        fenced: bool,
        info: String,
    },
    Table,
    /// A table's row; the head row has `header`.
    TableRow {
        header: bool,
    },
    /// A cell, `column` counted from 0.
    TableCell {
        column: usize,
    },
    Html,
    ThematicBreak,
}

/// One node of the block tree.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub kind: BlockKind,
    /// The whole node, markers included.
    pub span: Span,
    /// Its own inline text (what its sentences are cut from), nested blocks excluded;
    /// `None` for containers and code.
    pub text: Option<Span>,
    pub parent: Option<BlockId>,
    pub children: Vec<BlockId>,
    /// Its sentences: indices into [`Layout::sentences`].
    pub sentences: std::ops::Range<usize>,
}

/// An inline node.
#[derive(Debug, Clone, PartialEq)]
pub enum InlineKind {
    Emphasis,
    Strong,
    Strikethrough,
    /// A code span.
    Code,
    Link {
        dest: String,
    },
    Image {
        dest: String,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Inline {
    pub kind: InlineKind,
    pub span: Span,
    /// The block whose text holds it.
    pub block: BlockId,
}

/// A sentence of one block's text (trimmed of surrounding white space).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sentence {
    pub span: Span,
    pub block: BlockId,
}

/// The structure of a document (see the module documentation for the API).
#[derive(Debug, Clone, Default)]
pub struct Layout {
    range: Span,
    blocks: Vec<Block>,
    inlines: Vec<Inline>,
    sentences: Vec<Sentence>,
    /// Heading blocks in document order, and each one's parent heading.
    headings: Vec<(BlockId, Option<BlockId>)>,
    /// Link reference definitions, link destinations and titles, images, raw HTML's markup
    /// and hidden contents: read by the parser, never rendered as text. In text order.
    unrendered: Vec<Span>,
    /// Text shown otherwise than it is written: HTML character references and backslash
    /// escapes outside code, as the parser decoded them, and character references in raw
    /// HTML text outside tags and comments, as a browser decodes them. In text order.
    rewritten: Vec<Rewrite>,
}

/// One HTML character reference (`&dollar;`, `&#36;`) or backslash escape (`\.`) in
/// running text: `span` is what is written, `shown` what a reader of the rendered text sees.
#[derive(Debug, Clone, PartialEq)]
pub struct Rewrite {
    pub span: Span,
    pub shown: Box<str>,
    /// A backslash escape (`\.` shown as `.`) rather than a character reference.
    pub escape: bool,
}

/// The unrendered spans of `text[range]` read as markdown (see [`Layout::unrendered`]);
/// the layout is built only when the text [`may_hold_unrendered`] text.
pub fn unrendered(text: &str, range: Span) -> Vec<Span> {
    if may_hold_unrendered(&text[range.0..range.1]) {
        Layout::markdown(text, range).unrendered
    } else {
        Vec::new()
    }
}

/// Can `t` read as markdown hold unrendered text: a definition's `]:`, a link's or an
/// image's `](`, or a `<` that may open raw HTML? Without any, it holds none.
pub fn may_hold_unrendered(t: &str) -> bool {
    t.contains("]:") || t.contains("](") || t.contains('<')
}

impl Layout {
    /// Parse `text[range]` as CommonMark with tables, strike-through and footnotes.
    pub fn markdown(text: &str, range: Span) -> Layout {
        let mut layout = build::markdown(text, range);
        let mut hidden = unrendered::unrendered(text, &layout);
        hidden.append(&mut layout.unrendered);
        hidden.sort_unstable();
        // Disjoint: a link inside a hidden element is hidden with it.
        let mut merged: Vec<Span> = Vec::with_capacity(hidden.len());
        for (s, e) in hidden {
            match merged.last_mut() {
                Some(last) if s < last.1 => last.1 = last.1.max(e),
                _ => merged.push((s, e)),
            }
        }
        layout.unrendered = merged;
        layout
    }

    /// Plain text: paragraphs are separated by blank lines; no other markup is read.
    pub fn plain(text: &str, range: Span) -> Layout {
        build::plain(text, range)
    }

    /// `.txt` (and `.text`) files are plain text; everything else is read as markdown.
    pub fn for_path(text: &str, range: Span, path: Option<&std::path::Path>) -> Layout {
        let plain = path
            .and_then(|p| p.extension())
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("txt") || e.eq_ignore_ascii_case("text"));
        if plain {
            Layout::plain(text, range)
        } else {
            Layout::markdown(text, range)
        }
    }

    /// The range it was built on.
    pub fn range(&self) -> Span {
        self.range
    }

    /// Text read but never rendered: link reference definitions, among them the
    /// "markdown comment" idiom `[//]: # (note)`, what follows a link's shown text (its
    /// destination and title: `](# 'note')`), an image whole (its alt text is no statement),
    /// and raw HTML's markup and hidden or non-formatting contents (`html`). In text order
    /// and disjoint; none in plain text.
    pub fn unrendered(&self) -> &[Span] {
        &self.unrendered
    }

    /// Character references and backslash escapes in running text (not in code), with what
    /// each shows, in text order; none in plain text.
    pub fn rewritten(&self) -> &[Rewrite] {
        &self.rewritten
    }

    /// Every block in document order, containers before their contents.
    pub fn blocks(&self) -> impl Iterator<Item = (BlockId, &Block)> {
        self.blocks.iter().enumerate().map(|(i, b)| (BlockId(i), b))
    }

    pub fn block(&self, id: BlockId) -> &Block {
        &self.blocks[id.0]
    }

    pub fn children(&self, id: BlockId) -> impl Iterator<Item = (BlockId, &Block)> {
        self.blocks[id.0]
            .children
            .iter()
            .map(|&c| (c, self.block(c)))
    }

    pub fn parent(&self, id: BlockId) -> Option<BlockId> {
        self.blocks[id.0].parent
    }

    /// `id` and the blocks holding it, innermost first.
    pub fn ancestors(&self, id: BlockId) -> impl Iterator<Item = (BlockId, &Block)> {
        std::iter::successors(Some(id), |&b| self.parent(b)).map(|b| (b, self.block(b)))
    }

    /// The innermost block holding `offset` (O(log n + depth)).
    pub fn block_at(&self, offset: usize) -> Option<BlockId> {
        let i = self.blocks.partition_point(|b| b.span.0 <= offset);
        let last = i.checked_sub(1)?;
        self.ancestors(BlockId(last))
            .find(|(_, b)| offset < b.span.1 || (offset == b.span.1 && b.span.0 == b.span.1))
            .map(|(id, _)| id)
    }

    /// Is `offset` inside a block for which `pred` holds (itself or a container)?
    pub fn within(&self, offset: usize, pred: impl Fn(&BlockKind) -> bool) -> bool {
        self.block_at(offset)
            .is_some_and(|id| self.ancestors(id).any(|(_, b)| pred(&b.kind)))
    }

    /// Heading blocks in document order.
    pub fn headings(&self) -> impl Iterator<Item = (BlockId, &Block)> {
        self.headings.iter().map(|&(h, _)| (h, self.block(h)))
    }

    /// The heading a heading sits under (the nearest earlier one of a lower level).
    pub fn heading_parent(&self, heading: BlockId) -> Option<BlockId> {
        let i = self.headings.partition_point(|&(h, _)| h < heading);
        self.headings
            .get(i)
            .filter(|(h, _)| *h == heading)
            .and_then(|&(_, p)| p)
    }

    /// The headings `offset` sits under, outermost first (a heading's own text is under it).
    pub fn heading_path(&self, offset: usize) -> Vec<BlockId> {
        let i = self
            .headings
            .partition_point(|&(h, _)| self.block(h).span.0 <= offset);
        let Some(&(last, _)) = i.checked_sub(1).and_then(|i| self.headings.get(i)) else {
            return Vec::new();
        };
        let mut path: Vec<BlockId> =
            std::iter::successors(Some(last), |&h| self.heading_parent(h)).collect();
        path.reverse();
        path
    }

    /// Every sentence in document order.
    pub fn sentences(&self) -> &[Sentence] {
        &self.sentences
    }

    /// The sentences of one block's own text.
    pub fn sentences_of(&self, id: BlockId) -> &[Sentence] {
        &self.sentences[self.blocks[id.0].sentences.clone()]
    }

    /// The sentence holding `offset` (its end included), if `offset` is in a block's text.
    pub fn sentence_at(&self, offset: usize) -> Option<&Sentence> {
        let i = self.sentences.partition_point(|s| s.span.0 <= offset);
        let s = self.sentences.get(i.checked_sub(1)?)?;
        (offset <= s.span.1).then_some(s)
    }

    /// Every inline node in document order (outer before inner).
    pub fn inlines(&self) -> &[Inline] {
        &self.inlines
    }

    /// The inline nodes of `id`'s own text, in document order. Inlines are sorted by start
    /// and each lies inside its block's text, so this is a binary search and a walk over that
    /// text's inlines alone (not a pass over the whole document's).
    pub fn inlines_of(&self, id: BlockId) -> impl Iterator<Item = &Inline> {
        let (s, e) = self.blocks[id.0].text.unwrap_or((0, 0));
        let from = self.inlines.partition_point(|n| n.span.0 < s);
        self.inlines[from..]
            .iter()
            .take_while(move |n| n.span.0 < e)
            .filter(move |n| n.block == id)
    }

    /// The innermost inline node holding `offset`.
    pub fn inline_at(&self, offset: usize) -> Option<&Inline> {
        let i = self.inlines.partition_point(|n| n.span.0 <= offset);
        self.inlines[..i]
            .iter()
            .rev()
            .take(64)
            .find(|n| offset < n.span.1)
    }

    /// A table's rows, head row first (empty for a block that is not a table).
    pub fn rows(&self, table: BlockId) -> impl Iterator<Item = (BlockId, &Block)> {
        self.children(table)
            .filter(|(_, b)| matches!(b.kind, BlockKind::TableRow { .. }))
    }

    /// A row's cells, left to right.
    pub fn cells(&self, row: BlockId) -> impl Iterator<Item = (BlockId, &Block)> {
        self.children(row)
            .filter(|(_, b)| matches!(b.kind, BlockKind::TableCell { .. }))
    }
}
