//! Voice decisions of the grounding checks that read the document's layout, and one resolver
//! that reads a value in the source's words: a term in the output's own heading or label is
//! its title for the point, not a claim; a table cell's voice is its row so far and its
//! column's head; "100% of X" is the source's "sole"/"all" X.

use crate::engine::document::layout::{BlockKind, InlineKind, Layout};
use crate::engine::grounding::{
    Entity, EntityKind, Source, Span, lexicon, term_runs, words::tokens,
};

/// Is `start..end` in a heading, or inside the bold label that opens a paragraph, list item
/// or cell and ends with a colon (`1. **Ambiguity in "Equal Terms" for Renewal (Article
/// 3.2):** No definition of …`)? Such a label is the output naming its point in its own
/// words; the text after it makes the claims.
pub fn in_label(layout: &Layout, text: &str, (start, end): (usize, usize)) -> bool {
    let Some(id) = layout.block_at(start) else {
        return false;
    };
    let block = layout.block(id);
    if matches!(block.kind, BlockKind::Heading { .. }) {
        return true;
    }
    let Some((opens, _)) = block.text else {
        return false;
    };
    let inlines = layout.inlines();
    let i = inlines.partition_point(|n| n.span.0 <= start);
    let Some(strong) = inlines[..i]
        .iter()
        .rev()
        .take(64)
        .find(|n| n.kind == InlineKind::Strong && n.span.1 >= end && n.span.0 <= start)
    else {
        return false;
    };
    let (s, e) = strong.span;
    let lead = text.get(opens..s).unwrap_or("x");
    let label = text
        .get(s..e)
        .unwrap_or("")
        .trim_end_matches(['*', '_', ' ']);
    lead.trim().is_empty() && (label.ends_with(':') || text[e..].starts_with(':'))
}

/// Is `at` in an item of a list whose lead-in — the text just before the list, ending with a
/// colon — `lead_skipped` accepts (a proposal or recommendation: "The proposed clause
/// attempts to navigate these restrictions by:")? The items then describe what the output
/// proposes ("3. **Limited Duration (6 months):** …"), not what the source says.
pub fn under_skipped_lead(
    layout: &Layout,
    text: &str,
    at: usize,
    lead_skipped: impl Fn(usize) -> bool,
) -> bool {
    let Some(id) = layout.block_at(at) else {
        return false;
    };
    let Some(list) = layout
        .ancestors(id)
        .find(|(_, b)| matches!(b.kind, BlockKind::ListItem { .. }))
        .and_then(|(item, _)| layout.parent(item))
    else {
        return false;
    };
    let before = text[..layout.block(list).span.0].trim_end();
    before.ends_with(':') && lead_skipped(before.len() - 1)
}

/// Does the paragraph or item holding `at` open with the output's label for a comment, bold
/// or plain and ending in a colon ("**Risk:** …", "Note: …"; the lexicon's `analysis_label`)?
/// Such a paragraph is the output's analysis even between the clauses it drafts.
pub fn under_analysis_label(layout: &Layout, text: &str, at: usize) -> bool {
    let Some((opens, end)) = layout.block_at(at).and_then(|id| layout.block(id).text) else {
        return false;
    };
    let block = text.get(opens..end).unwrap_or("");
    let own = block.trim_start_matches(['*', '_', ' ']);
    let Some((label, _)) = own.split_once(':') else {
        return false;
    };
    let label = label.trim_end_matches(['*', '_', ' ']);
    opens + (block.len() - own.len()) + label.len() < at
        && label.len() <= 40
        && lexicon::ANALYSIS_LABEL.is_match(label)
}

/// For a claim in a table's body cell, what its voice is read from instead of the whole row:
/// the row up to the end of the claim's cell, and the head cell of its column. A later cell
/// ("| Section 93.5 | Caps the indemnity at $5,000,000 | Seek a higher cap |") is the output's
/// comment on the row, not the claim's voice; a column headed "Proposed change" or a row
/// opening "New Section 14.7" still makes the cell proposed text, and so does a cell opening
/// with a request of its own ("| Request 6 months of transition support |": the cell alone,
/// read as a sentence). `None` outside a table body.
pub fn table_cell_voice(layout: &Layout, at: usize) -> Option<[(usize, usize); 3]> {
    let id = layout.block_at(at)?;
    let (cell, column) = layout.ancestors(id).find_map(|(c, b)| match b.kind {
        BlockKind::TableCell { column } => Some((c, column)),
        _ => None,
    })?;
    let row = layout.parent(cell)?;
    if matches!(layout.block(row).kind, BlockKind::TableRow { header: true }) {
        return None;
    }
    let table = layout.parent(row)?;
    let head = layout
        .rows(table)
        .next()
        .filter(|(_, b)| matches!(b.kind, BlockKind::TableRow { header: true }))
        .and_then(|(h, _)| layout.cells(h).nth(column))
        .map_or((0, 0), |(_, b)| b.span);
    let own = layout.block(cell).span;
    Some([(layout.block(row).span.0, own.1), head, own])
}

/// Is `at` in an item of a list whose title sums up the source's terms ("Key dates:",
/// "**Timeline summary**", "Notice periods:"; the lexicon's `summary_title`), the line right
/// before the list? Such an item ("- Acceptance testing: 12 business days from delivery")
/// states a term of the source though it has no claim word.
pub fn under_summary_title(layout: &Layout, text: &str, at: usize) -> bool {
    list_title(layout, text, at).is_some_and(|t| lexicon::SUMMARY_TITLE.is_match(t))
}

/// The title of the list holding `at`: the line right before the list, markup and a colon
/// dropped ("Open questions:" → "Open questions"), if `at` is in a list item and that line
/// is short and not blank.
pub fn list_title<'t>(layout: &Layout, text: &'t str, at: usize) -> Option<&'t str> {
    let id = layout.block_at(at)?;
    let list = layout
        .ancestors(id)
        .find(|(_, b)| matches!(b.kind, BlockKind::ListItem { .. }))
        .and_then(|(item, _)| layout.parent(item))?;
    let before = text[..layout.block(list).span.0].trim_end();
    let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
    let decoration = |c: char| matches!(c, '#' | '*' | '_' | ':' | ' ' | '>');
    let title = line.trim_matches(decoration);
    (!title.is_empty() && title.len() <= 60).then_some(title)
}

/// The terms written alone in a table's body cells, after its first column ("| Rebates |
/// Tiered Rebate Threshold | … |"): a cell of two to four capitalised words
/// (`term_runs::cell_term`) names the source's term for the row's topic. The first column
/// holds the output's own topics ("Payment Terms", "Limitation of Liability").
pub fn cell_terms(layout: &Layout, text: &str) -> Vec<Entity> {
    let mut out = Vec::new();
    for (_, b) in layout.blocks() {
        let (BlockKind::TableCell { column }, Some((s, e))) = (&b.kind, b.text) else {
            continue;
        };
        let header = b.parent.is_some_and(|row| {
            matches!(layout.block(row).kind, BlockKind::TableRow { header: true })
        });
        if *column == 0 || header {
            continue;
        }
        if let Some(t) = term_runs::cell_term(text, (s, e)) {
            out.push(t);
        }
    }
    out
}

/// The source's place for "100%" when the output's "100% of X" is the source's whole of X
/// in words: a word of the lexicon's `whole_share` ("sole", "all", "entire") within eight
/// words of the first or second word naming X.
pub fn whole_share(text: &str, e: &Entity, source: &Source) -> Option<Span> {
    if e.kind != EntityKind::Percent || e.normalized != "100%" {
        return None;
    }
    let after = text.get(e.end..).unwrap_or("");
    let after = &after[..crate::model::text::floor_char_boundary(after, after.len().min(80))];
    let mut words = tokens(after).map(|(w, _, _)| w);
    if words.next().as_deref() != Some("of") {
        return None;
    }
    words
        .filter(|w| w.len() >= 4 && w.chars().all(char::is_alphabetic))
        .take(2)
        .find_map(|w| source.word_near(&w, 8, |near| lexicon::WHOLE_SHARE.is_match(near)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::grounding::entities;

    fn label(doc: &str, term: &str) -> bool {
        let l = Layout::markdown(doc, (0, doc.len()));
        let s = doc.find(term).expect("term in doc");
        in_label(&l, doc, (s, s + term.len()))
    }

    #[test]
    fn a_term_in_an_opening_bold_label_or_heading_is_the_outputs_title() {
        let item = "1. **Ambiguity in \"Equal Terms\" for Renewal (Article 3.2):** No definition of \"equal conditions\".\n";
        assert!(label(item, "Equal Terms"));
        assert!(!label(item, "equal conditions"));
        assert!(label("### The \"Equal Terms\" clause\n", "Equal Terms"));
        // Bold inside the sentence, or a bold opening without a colon, is not a label.
        assert!(!label(
            "The Agreement's **\"Equal Terms\" clause** renews it.\n",
            "Equal Terms"
        ));
        assert!(!label(
            "- **\"Equal Terms\"** apply to renewal under Article 3.2.\n",
            "Equal Terms"
        ));
    }

    #[test]
    fn a_comment_label_opens_the_outputs_analysis() {
        let at = |doc: &str, w: &str| {
            let l = Layout::markdown(doc, (0, doc.len()));
            under_analysis_label(&l, doc, doc.find(w).expect("word"))
        };
        assert!(at(
            "**Risk:** Under clause 49, either party may terminate.\n",
            "clause 49"
        ));
        assert!(at("- Note: the fee is due in 45 days.\n", "45 days"));
        assert!(!at(
            "**Proposed clause:** Under clause 49, either party may terminate.\n",
            "clause 49"
        ));
        assert!(!at(
            "(b) Either party may terminate under clause 49.\n",
            "clause 49"
        ));
        assert!(!at("**Risk**\n", "Risk"));
        // Later in a long document: the label is read from the paragraph, not the text's end.
        let doc = "(a) The Supplier may terminate.\n\n**Risk:** Under clause 49, either party may terminate.\n\n(b) Fees are due monthly.\n";
        assert!(at(doc, "clause 49"));
        assert!(!at(doc, "Fees"));
    }

    #[test]
    fn a_cells_voice_is_its_row_so_far_and_its_columns_head() {
        let doc = "| # | Provision | Current position | Recommendation |\n|---|---|---|---|\n| 3 | Section 93.5 | Caps the indemnity at $5,000 | Seek a higher cap |\n";
        let l = Layout::markdown(doc, (0, doc.len()));
        let at = doc.find("$5,000").expect("amount");
        let [lead, head, own] = table_cell_voice(&l, at).expect("a body cell");
        assert!(doc[own.0..own.1].trim().starts_with("Caps the indemnity"));
        assert!(doc[lead.0..lead.1].starts_with("| 3 | Section 93.5"));
        assert!(doc[lead.0..lead.1].contains("Caps the indemnity at $5,000"));
        assert!(!doc[lead.0..lead.1].contains("Seek"));
        assert!(doc[head.0..head.1].contains("Current position"));
        assert!(table_cell_voice(&l, doc.find("Provision").expect("head")).is_none());
        let prose = "Section 93.5 caps the indemnity at $5,000.\n";
        let l = Layout::markdown(prose, (0, prose.len()));
        assert!(table_cell_voice(&l, 14).is_none());
    }

    #[test]
    fn a_summary_titles_items_state_the_sources_terms() {
        let at = |doc: &str, w: &str| {
            let l = Layout::markdown(doc, (0, doc.len()));
            under_summary_title(&l, doc, doc.find(w).expect("word"))
        };
        let doc = "Key dates:\n- Acceptance testing: 12 business days from delivery\n";
        assert!(at(doc, "12 business days"));
        let doc = "**Timeline summary**\n\n- Defence: within 12 days of notice\n";
        assert!(at(doc, "12 days"));
        let doc = "Proposed changes:\n- Acceptance testing: 12 business days\n";
        assert!(!at(doc, "12 business days"));
        assert!(!at("Key dates: 12 business days.\n", "12 business days"));
    }

    #[test]
    fn a_body_cell_of_capitalised_words_after_the_first_column_is_a_term() {
        let doc = "| Topic | Provision | Risk |\n|---|---|---|\n| Rebates | Tiered Rebate Threshold | Medium |\n| Payment Terms | Net 30 | Low |\n";
        let l = Layout::markdown(doc, (0, doc.len()));
        let got: Vec<String> = cell_terms(&l, doc).into_iter().map(|e| e.text).collect();
        assert_eq!(got, vec!["Tiered Rebate Threshold".to_string()]);
    }

    #[test]
    fn one_hundred_percent_is_the_sources_sole_or_all_near_the_thing_named() {
        let src = "5.6 Party B has sole discretion to conduct advertising operation, and any gains arising therefrom will be owned by Party B. 7.1 Party A receives 40% of service fees.";
        let source = Source::new(src);
        let at = |out: &str| {
            let e = entities::extract(out)
                .into_iter()
                .find(|e| e.kind == EntityKind::Percent)
                .expect("a percentage");
            whole_share(out, &e, &source)
        };
        assert!(at("Party B retains 100% of advertising revenue.").is_some());
        assert!(at("Party A keeps 100% of service fees.").is_none());
        assert!(at("Party B retains 60% of advertising revenue.").is_none());
    }
}
