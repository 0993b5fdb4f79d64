//! Text the markdown parser reads but a reader never sees: link reference definitions
//! (`[id]: https://…`), among them the common "markdown comment" idiom
//! `[//]: # (a note)`. A definition makes no block and no event, so it lies in a gap
//! between the blocks of its container (the document, a list item, a block quote). A gap
//! counts as unrendered when the parser, given the gap alone, reads definitions in it and
//! no text at all; a definition's own record in the parser cannot be used alone, because
//! it keeps only the first definition of each label (and the idiom repeats `[//]`).

use pulldown_cmark::{Event, Parser, Tag, TagEnd};

use super::{BlockKind, Layout, Span};

/// The unrendered spans of a markdown layout, in text order and disjoint.
pub(super) fn unrendered(text: &str, layout: &Layout) -> Vec<Span> {
    let mut out = Vec::new();
    if !text[layout.range.0..layout.range.1].contains("]:") {
        return out;
    }
    let top: Vec<Span> = layout
        .blocks
        .iter()
        .filter(|b| b.parent.is_none())
        .map(|b| b.span)
        .collect();
    gaps(text, layout.range, top, &mut out);
    for b in &layout.blocks {
        if matches!(b.kind, BlockKind::ListItem { .. } | BlockKind::BlockQuote) {
            // A tight list item's text is its own, not a child's: it is covered too.
            let covered = b
                .children
                .iter()
                .map(|c| layout.blocks[c.0].span)
                .chain(b.text)
                .collect();
            gaps(text, b.span, covered, &mut out);
        }
    }
    out.sort_unstable();
    out
}

/// The gaps of `within` between the `covered` spans that hold only definitions.
fn gaps(text: &str, within: Span, mut covered: Vec<Span>, out: &mut Vec<Span>) {
    covered.sort_unstable();
    let mut at = within.0;
    for (s, e) in covered.into_iter().chain([(within.1, within.1)]) {
        if s > at {
            let (gs, ge) = trim(text, (at, s.min(within.1)));
            if gs < ge && text[gs..ge].contains("]:") && only_definitions(&text[gs..ge]) {
                out.push((gs, ge));
            }
        }
        at = at.max(e);
    }
}

/// Does `gap`, read alone, hold link reference definitions and nothing rendered? Each
/// line's indentation is dropped first: in place, the container's indentation was its own.
fn only_definitions(gap: &str) -> bool {
    let dedented: String = gap
        .split_inclusive('\n')
        .map(|l| l.trim_start_matches([' ', '\t']))
        .collect();
    let parser = Parser::new_ext(&dedented, super::build::OPTIONS);
    if parser.reference_definitions().iter().next().is_none() {
        return false;
    }
    parser.into_iter().all(|e| {
        matches!(
            e,
            Event::Start(Tag::List(_) | Tag::Item | Tag::BlockQuote(_))
                | Event::End(TagEnd::List(_) | TagEnd::Item | TagEnd::BlockQuote(_))
        )
    })
}

fn trim(text: &str, (s, e): Span) -> Span {
    let t = &text[s..e];
    let lead = t.len() - t.trim_start().len();
    (s + lead, s + t.trim_end().len())
}
