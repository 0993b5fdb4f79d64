//! Building a [`Layout`]: one pass of pulldown-cmark's offset iterator (markdown) or of
//! the lines (plain text), then the heading tree and the sentences.

use pulldown_cmark::{CodeBlockKind, Event, LinkType, Options, Parser, Tag, TagEnd};

use super::numbering::read_numbering;
use super::sentences::split_sentences;
use super::{Block, BlockId, BlockKind, Inline, InlineKind, Layout, Sentence, Span};

/// CommonMark with tables, strike-through and footnotes.
pub(super) const OPTIONS: Options = Options::ENABLE_TABLES
    .union(Options::ENABLE_STRIKETHROUGH)
    .union(Options::ENABLE_FOOTNOTES);

pub(super) fn markdown(text: &str, range: Span) -> Layout {
    let base = range.0;
    let mut b = Builder::new(range);
    // Where the last text event ended: a text event starting one backslash later follows
    // an escape ("14\.7" is read as "14" and ".7").
    let mut text_end = None;
    for (event, r) in Parser::new_ext(&text[range.0..range.1], OPTIONS).into_offset_iter() {
        let span = (base + r.start, base + r.end);
        if let Event::Text(t) = &event {
            b.rewrite(text, span, t, text_end);
            text_end = Some(span.1);
        } else {
            text_end = None;
        }
        match event {
            Event::Start(tag) => b.start(text, tag, span),
            Event::End(end) => b.end(text, end),
            Event::Code(_) => {
                b.inline(InlineKind::Code, span);
            }
            Event::InlineHtml(_) => {
                b.raw_html.push(span);
                b.extend_text(span);
            }
            Event::Text(_)
            | Event::InlineMath(_)
            | Event::DisplayMath(_)
            | Event::FootnoteReference(_)
            | Event::SoftBreak
            | Event::HardBreak
            | Event::TaskListMarker(_) => b.extend_text(span),
            Event::Rule => {
                b.push(BlockKind::ThematicBreak, span);
            }
            Event::Html(_) => {
                b.raw_html.push(span);
                let refs = super::html_refs::references(text, span, &mut b.html_comment);
                b.layout.rewritten.extend(refs);
            }
        }
    }
    let raw = std::mem::take(&mut b.raw_html);
    let mut layout = b.finish(text);
    let end = layout.range.1;
    layout
        .unrendered
        .extend(super::html::unrendered(text, &raw, end));
    layout
}

pub(super) fn plain(text: &str, range: Span) -> Layout {
    let mut b = Builder::new(range);
    let mut para: Option<Span> = None;
    let mut offset = range.0;
    for line in text[range.0..range.1].split_inclusive('\n') {
        let (start, end) = (offset, offset + line.trim_end().len());
        offset += line.len();
        if line.trim().is_empty() {
            b.plain_paragraph(para.take());
        } else {
            para = Some((para.map_or(start, |p| p.0), end));
        }
    }
    b.plain_paragraph(para);
    b.finish(text)
}

struct Builder {
    layout: Layout,
    /// Open block tags: the block they made, or `None` for a tag that makes none.
    open: Vec<Option<BlockId>>,
    /// Open links and images: the whole span, where its shown text ends so far, and
    /// whether the rest (destination, title) is hidden (not for an autolink's own URL, nor
    /// for an image, which is hidden whole).
    links: Vec<(Span, usize, bool)>,
    /// Raw HTML events (an HTML block's text, an inline tag), in text order.
    raw_html: Vec<Span>,
    /// Inside an HTML comment left open by the last raw HTML event.
    html_comment: bool,
}

impl Builder {
    fn new(range: Span) -> Builder {
        Builder {
            layout: Layout {
                range,
                ..Layout::default()
            },
            open: Vec::new(),
            links: Vec::new(),
            raw_html: Vec::new(),
            html_comment: false,
        }
    }

    fn current(&self) -> Option<BlockId> {
        self.open.iter().rev().find_map(|b| *b)
    }

    fn push(&mut self, kind: BlockKind, span: Span) -> BlockId {
        let id = BlockId(self.layout.blocks.len());
        let parent = self.current();
        if let Some(p) = parent {
            self.layout.blocks[p.0].children.push(id);
        }
        self.layout.blocks.push(Block {
            kind,
            span,
            text: None,
            parent,
            children: Vec::new(),
            sentences: 0..0,
        });
        id
    }

    fn plain_paragraph(&mut self, para: Option<Span>) {
        if let Some(p) = para {
            let id = self.push(BlockKind::Paragraph, p);
            self.layout.blocks[id.0].text = Some(p);
        }
    }

    /// Record a text event shown otherwise than written (outside code blocks, whose text is
    /// shown as written): a character reference is an event whose text differs in length
    /// from its span; an escape, a one-byte backslash gap before an event.
    fn rewrite(&mut self, text: &str, span: Span, shown: &str, last_end: Option<usize>) {
        let in_code = self.current().is_some_and(|id| {
            matches!(
                self.layout.blocks[id.0].kind,
                BlockKind::CodeBlock { .. } | BlockKind::Html
            )
        });
        if in_code {
            return;
        }
        let written = &text[span.0..span.1];
        if shown.len() != written.len() && written.starts_with('&') && written.ends_with(';') {
            self.layout.rewritten.push(super::Rewrite {
                span,
                shown: shown.into(),
                escape: false,
            });
        } else if last_end == Some(span.0.wrapping_sub(1)) && text.as_bytes()[span.0 - 1] == b'\\' {
            let c = shown.chars().next().map_or(0, char::len_utf8);
            self.layout.rewritten.push(super::Rewrite {
                span: (span.0 - 1, span.0 + c),
                shown: shown[..c].into(),
                escape: true,
            });
        }
    }

    /// The innermost block's own text grows to cover `span` (code and HTML have none).
    fn extend_text(&mut self, span: Span) {
        if let Some(link) = self.links.last_mut() {
            link.1 = link.1.max(span.1);
        }
        let Some(id) = self.current() else { return };
        let block = &mut self.layout.blocks[id.0];
        if matches!(block.kind, BlockKind::CodeBlock { .. } | BlockKind::Html) {
            return;
        }
        block.text = Some(match block.text {
            Some((s, e)) => (s.min(span.0), e.max(span.1)),
            None => span,
        });
    }

    fn inline(&mut self, kind: InlineKind, span: Span) {
        self.extend_text(span);
        if let Some(block) = self.current() {
            self.layout.inlines.push(Inline { kind, span, block });
        }
    }

    fn start(&mut self, text: &str, tag: Tag, span: Span) {
        let kind = match tag {
            Tag::Emphasis => return self.inline(InlineKind::Emphasis, span),
            Tag::Strong => return self.inline(InlineKind::Strong, span),
            Tag::Strikethrough => return self.inline(InlineKind::Strikethrough, span),
            Tag::Link {
                dest_url,
                link_type,
                ..
            } => {
                let dest = dest_url.to_string();
                self.inline(InlineKind::Link { dest }, span);
                let hides = !matches!(link_type, LinkType::Autolink | LinkType::Email);
                return self.links.push((span, span.0 + 1, hides));
            }
            Tag::Image { dest_url, .. } => {
                let dest = dest_url.to_string();
                self.inline(InlineKind::Image { dest }, span);
                // An image shows a picture: its alt text, read only when the picture
                // fails, is no more a statement than its destination and title.
                self.layout.unrendered.push(span);
                return self.links.push((span, span.0 + 2, false));
            }
            Tag::Superscript | Tag::Subscript => return self.extend_text(span),
            Tag::Paragraph => BlockKind::Paragraph,
            Tag::Heading { level, .. } => BlockKind::Heading {
                level: level as u8,
                number: None,
            },
            Tag::BlockQuote(_) => BlockKind::BlockQuote,
            Tag::CodeBlock(kind) => match kind {
                CodeBlockKind::Fenced(info) => BlockKind::CodeBlock {
                    fenced: true,
                    info: info.to_string(),
                },
                CodeBlockKind::Indented => BlockKind::CodeBlock {
                    fenced: false,
                    info: String::new(),
                },
            },
            Tag::HtmlBlock => BlockKind::Html,
            Tag::List(start) => BlockKind::List {
                ordered: start.is_some(),
            },
            Tag::Item => {
                let depth = self.list_depth();
                let enumerator = text[span.0..span.1]
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .to_string();
                BlockKind::ListItem { enumerator, depth }
            }
            Tag::Table(_) => BlockKind::Table,
            Tag::TableHead => BlockKind::TableRow { header: true },
            Tag::TableRow => BlockKind::TableRow { header: false },
            Tag::TableCell => BlockKind::TableCell {
                column: self
                    .current()
                    .map_or(0, |r| self.layout.blocks[r.0].children.len()),
            },
            _ => {
                // Footnote definitions, definition lists, metadata: their contents belong
                // to the enclosing block.
                self.open.push(None);
                return;
            }
        };
        let id = self.push(kind, span);
        self.open.push(Some(id));
    }

    fn list_depth(&self) -> usize {
        self.open
            .iter()
            .flatten()
            .filter(|b| matches!(self.layout.blocks[b.0].kind, BlockKind::List { .. }))
            .count()
    }

    fn end(&mut self, text: &str, end: TagEnd) {
        if matches!(end, TagEnd::Link | TagEnd::Image) {
            // After a link's shown text: its destination and title, which no reader sees.
            if let Some(((_, e), shown, hides)) = self.links.pop() {
                if hides && shown < e {
                    self.layout.unrendered.push((shown, e));
                }
                self.extend_text((e, e));
            }
        }
        if matches!(
            end,
            TagEnd::Emphasis
                | TagEnd::Strong
                | TagEnd::Strikethrough
                | TagEnd::Link
                | TagEnd::Image
                | TagEnd::Superscript
                | TagEnd::Subscript
        ) {
            return;
        }
        if let Some(Some(id)) = self.open.pop() {
            let block = &mut self.layout.blocks[id.0];
            if let (BlockKind::Heading { number, .. }, Some((s, e))) = (&mut block.kind, block.text)
            {
                *number = read_numbering(&text[s..e], s);
            }
        }
    }

    fn finish(mut self, text: &str) -> Layout {
        let l = &mut self.layout;
        // The heading tree: each heading's parent is the nearest earlier lower-level one.
        let mut stack: Vec<(u8, BlockId)> = Vec::new();
        for (i, block) in l.blocks.iter().enumerate() {
            if let BlockKind::Heading { level, .. } = block.kind {
                while stack.last().is_some_and(|&(lv, _)| lv >= level) {
                    stack.pop();
                }
                l.headings.push((BlockId(i), stack.last().map(|&(_, h)| h)));
                stack.push((level, BlockId(i)));
            }
        }
        for i in 0..l.blocks.len() {
            let Some(span) = l.blocks[i].text else {
                continue;
            };
            let from = l.sentences.len();
            l.sentences.extend(
                split_sentences(text, span)
                    .into_iter()
                    .map(|span| Sentence {
                        span,
                        block: BlockId(i),
                    }),
            );
            l.blocks[i].sentences = from..l.sentences.len();
        }
        // Blocks' own texts do not interleave, so pre-order is document order; should a
        // parser quirk ever interleave them, sort (and let each block find its own again).
        if !l.sentences.is_sorted_by_key(|s| s.span.0) {
            l.sentences.sort_by_key(|s| s.span.0);
            for b in &mut l.blocks {
                b.sentences = 0..0;
            }
            for (i, s) in l.sentences.iter().enumerate() {
                let r = &mut l.blocks[s.block.0].sentences;
                *r = if r.start == r.end {
                    i..i + 1
                } else {
                    r.start..i + 1
                };
            }
        }
        self.layout
    }
}
