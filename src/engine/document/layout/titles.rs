//! The titles a reader sees, read from the block tree: headings, a paragraph that is all
//! strong text (`**Limitations**`), a strong label opening a paragraph
//! (`**Not reviewed:** Exhibit C`) and a one-line lead-in ending in a colon before a list
//! (`Open points:`). Each says whether anything follows it, so that a title over nothing
//! can be told from a title over content. A list item's label (`2. **Scope Limitations**:`)
//! is a point of a list, not a title: in reviews it names the topic of a finding.

use super::{BlockId, BlockKind, InlineKind, Layout, Span};

/// One title.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Title {
    /// The title's own text: the heading (markers included) or the label.
    pub span: Span,
    pub block: BlockId,
    /// Something follows it: text after the label in its block, or a block with text
    /// before the next heading of the same or a higher level.
    pub followed: bool,
    /// What it is the title of: from its end to the next heading of the same or a higher
    /// level (a heading), or to the next title or heading (a label or lead-in).
    pub content: Span,
}

impl Layout {
    /// Every title, in document order.
    pub fn titles(&self, text: &str) -> Vec<Title> {
        let mut out = Vec::new();
        for (id, b) in self.blocks() {
            let Some((s, e)) = b.text else { continue };
            match b.kind {
                BlockKind::Heading { level, .. } => out.push(Title {
                    span: trim_end(text, b.span),
                    block: id,
                    followed: self.followed(id, Some(level)),
                    content: (0, 0),
                }),
                BlockKind::Paragraph if !self.in_list_item(id) => {
                    if let Some(label) = self.opening_strong(id, s) {
                        // A colon right after the label belongs to it.
                        let end = label.1 + text[label.1..e].len()
                            - text[label.1..e].trim_start_matches(':').len();
                        let followed = if text[end..e].trim().is_empty() {
                            self.followed(id, None)
                        } else {
                            true
                        };
                        out.push(Title {
                            span: (s, end),
                            block: id,
                            followed,
                            content: (0, 0),
                        });
                    } else if is_lead_in(&text[s..e]) && self.list_follows(id) {
                        out.push(Title {
                            span: (s, e),
                            block: id,
                            followed: true,
                            content: (0, 0),
                        });
                    }
                }
                _ => {}
            }
        }
        self.close_contents(&mut out);
        out
    }

    /// One-line labels: a line of a block's own text opening with a few words and a colon
    /// or a dash ("Missing information: none.", "- **Not reviewed:** N/A", "Assumptions —
    /// none made."), with the rest of that line as content. A reader takes the line for one
    /// sentence, not a title over what follows, but its label is read like a title over
    /// that content: over content that states nothing, it states nothing. Headings are left
    /// out (they are titles); a strong label opening a paragraph is returned here too.
    pub fn labels(&self, text: &str) -> Vec<Title> {
        let mut out = Vec::new();
        for (id, b) in self.blocks() {
            let Some((s, e)) = b.text else { continue };
            if matches!(b.kind, BlockKind::Heading { .. }) {
                continue;
            }
            let mut at = s;
            for line in text[s..e].split_inclusive('\n') {
                if let Some((label, content)) = one_line_label(line) {
                    out.push(Title {
                        span: (at + label.0, at + label.1),
                        block: id,
                        followed: true,
                        content: (at + content.0, at + content.1),
                    });
                }
                at += line.len();
            }
        }
        out
    }

    /// Each title's content ends where the next heading of its level or higher starts (a
    /// heading), or at the next title or heading (a label or lead-in); the document's end
    /// otherwise. One pass from the end, keeping the nearest heading start per level.
    fn close_contents(&self, titles: &mut [Title]) {
        let end = self.range.1;
        // next_at_or_above[l]: start of the nearest later heading of level <= l (1..=6).
        let mut next_at_or_above = [end; 7];
        let mut next_title = end;
        for t in titles.iter_mut().rev() {
            let block = self.block(t.block);
            let stop = match block.kind {
                BlockKind::Heading { level, .. } => {
                    let l = usize::from(level.clamp(1, 6));
                    let stop = next_at_or_above[l];
                    for x in &mut next_at_or_above[l..] {
                        *x = block.span.0;
                    }
                    stop
                }
                _ => next_title.min(next_at_or_above[6]),
            };
            t.content = (t.span.1, stop.max(t.span.1));
            next_title = t.span.0;
        }
    }

    fn in_list_item(&self, id: BlockId) -> bool {
        self.ancestors(id)
            .any(|(_, b)| matches!(b.kind, BlockKind::ListItem { .. }))
    }

    /// The strong span that opens `id`'s text at `start`, if any.
    fn opening_strong(&self, id: BlockId, start: usize) -> Option<Span> {
        let i = self.inlines.partition_point(|n| n.span.0 < start);
        self.inlines[i..]
            .iter()
            .take_while(|n| n.span.0 == start)
            .find(|n| n.block == id && n.kind == InlineKind::Strong)
            .map(|n| n.span)
    }

    /// Does a block with text follow `id` (and its contents) before the next heading of
    /// `level` or higher (any heading when `level` is `None`)?
    /// The blocks after `id` are read from the slice itself: stepping an iterator past the
    /// first `id` blocks made every title cost its position (quadratic in titles).
    fn followed(&self, id: BlockId, level: Option<u8>) -> bool {
        self.blocks
            .get(id.0 + 1..)
            .unwrap_or_default()
            .iter()
            .take_while(|b| match b.kind {
                BlockKind::Heading { level: l, .. } => level.is_some_and(|lv| l > lv),
                _ => true,
            })
            .any(|b| b.text.is_some())
    }

    /// Is the block after `id` (its next sibling, or its own first child) a list?
    fn list_follows(&self, id: BlockId) -> bool {
        self.blocks
            .get(id.0 + 1)
            .is_some_and(|b| matches!(b.kind, BlockKind::List { .. }))
    }
}

/// One short line ending in a colon ("Open points:", "Information needed:"), or a few words
/// with no closing punctuation ("Notes and assumptions"): a sentence ends in a stop.
fn is_lead_in(t: &str) -> bool {
    let t = t.trim();
    if t.contains('\n') || t.chars().count() > 80 {
        return false;
    }
    t.ends_with(':')
        || (t.split_whitespace().count() <= 6
            && t.starts_with(|c: char| c.is_uppercase())
            && t.ends_with(|c: char| c.is_alphanumeric() || c == ')'))
}

/// Most words a one-line label has ("Missing information", "Items not reviewed in detail").
const LABEL_WORDS: usize = 6;

/// `line`'s label (to its colon or dash, strong markers included)
/// and content (the rest of the line, trimmed), offsets in `line`; `None` when the line
/// does not open with a label of a few words before `:`, ` — `, ` – ` or ` - ` and some
/// content after it.
fn one_line_label(line: &str) -> Option<(Span, Span)> {
    let lead = line.len() - line.trim_start_matches([' ', '\t', '*', '_']).len();
    let seps = [":", "—", "–", " - "];
    let (i, sep) = seps
        .iter()
        .filter_map(|sep| line[lead..].find(sep).map(|i| (lead + i, sep.len())))
        .min()?;
    let label = line[lead..i].trim_end_matches([' ', '\t', '*', '_']);
    let words = label.split_whitespace().count();
    if !label.starts_with(char::is_alphabetic)
        || words == 0
        || words > LABEL_WORDS
        || label.contains(['.', '?', '!', ';', '(', '[', '`'])
    {
        return None;
    }
    let after = i + sep;
    let cs = after
        + (line[after..].len()
            - line[after..]
                .trim_start_matches([' ', '\t', '*', '_'])
                .len());
    let ce = cs + line[cs..].trim_end().len();
    // The markers closing a strong label ("**Not reviewed:**") belong to the label.
    let start = line.len() - line.trim_start().len();
    (cs < ce).then_some(((start, cs), (cs, ce)))
}

fn trim_end(text: &str, (s, e): Span) -> Span {
    (s, s + text[s..e].trim_end().len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_title_heads_its_section_or_what_runs_to_the_next_title() {
        let t = "## Limitations\n\n- Exhibit B was not provided.\n\n### Detail\n\nMore.\n\n## Next\n\nText.\n\n**Notes:** one.\n\n**Other:** two.\n";
        let l = Layout::markdown(t, (0, t.len()));
        let got: Vec<(&str, &str)> = l
            .titles(t)
            .iter()
            .map(|x| (&t[x.span.0..x.span.1], t[x.content.0..x.content.1].trim()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "## Limitations",
                    "- Exhibit B was not provided.\n\n### Detail\n\nMore."
                ),
                ("### Detail", "More."),
                ("## Next", "Text.\n\n**Notes:** one.\n\n**Other:** two."),
                ("**Notes:**", "one."),
                ("**Other:**", "two."),
            ]
        );
    }

    fn titles(t: &str) -> Vec<(String, bool)> {
        let l = Layout::markdown(t, (0, t.len()));
        l.titles(t)
            .into_iter()
            .map(|x| (t[x.span.0..x.span.1].to_string(), x.followed))
            .collect()
    }

    fn owned(v: &[(&str, bool)]) -> Vec<(String, bool)> {
        v.iter().map(|(s, b)| (s.to_string(), *b)).collect()
    }

    #[test]
    fn headings_say_whether_content_follows() {
        let t = "# Review\n\n## Limitations\n- Schedule 3 was not reviewed.\n\n## Not checked\n";
        assert_eq!(
            titles(t),
            owned(&[
                ("# Review", true),
                ("## Limitations", true),
                ("## Not checked", false)
            ])
        );
        let t = "## Scope\n### Details\nText.";
        assert_eq!(
            titles(t),
            owned(&[("## Scope", true), ("### Details", true)])
        );
    }

    #[test]
    fn a_strong_label_opening_a_paragraph_is_a_title_and_a_list_items_is_not() {
        let t = "**Not reviewed:** Exhibit C (pricing).\n\n**Scope**: payment terms only.";
        assert_eq!(
            titles(t),
            owned(&[("**Not reviewed:**", true), ("**Scope**:", true)])
        );
        assert!(titles("2. **Scope Limitations**:\n   - Define IP narrowly").is_empty());
        assert!(titles("- **Limitations**: It excludes source code.\n\n- b").is_empty());
        let t = "**Limitations**\n\nThe exhibits were not provided.";
        assert_eq!(titles(t), owned(&[("**Limitations**", true)]));
        assert_eq!(
            titles("Text.\n\n**Caveats**\n"),
            owned(&[("**Caveats**", false)])
        );
    }

    #[test]
    fn a_one_line_label_is_read_with_the_rest_of_its_line() {
        let labels = |t: &str| -> Vec<(String, String)> {
            let l = Layout::markdown(t, (0, t.len()));
            l.labels(t)
                .into_iter()
                .map(|x| {
                    (
                        t[x.span.0..x.span.1].to_string(),
                        t[x.content.0..x.content.1].to_string(),
                    )
                })
                .collect()
        };
        let t = "Missing information: none.\n\n- **Not reviewed:** N/A\n\nIntro.\nAssumptions — none made.\n";
        assert_eq!(
            labels(t),
            [
                ("Missing information: ".to_string(), "none.".to_string()),
                ("**Not reviewed:** ".to_string(), "N/A".to_string()),
                ("Assumptions — ".to_string(), "none made.".to_string()),
            ]
        );
        assert!(
            labels("Open questions:\n\n- Whether it renews.")
                .iter()
                .all(|l| l.0 != "Open questions:")
        );
        assert!(labels("The fee is due monthly. Note: it rises.").is_empty());
        assert!(labels("## Missing information: none").is_empty());
        assert!(labels("Under Section 4.2 of the agreement as amended in 2019: none").is_empty());
    }

    #[test]
    fn a_lead_in_line_before_a_list_is_a_title_and_other_text_is_not() {
        let t = "Open points:\n\n- Whether the 2019 amendment was executed.";
        assert_eq!(titles(t), owned(&[("Open points:", true)]));
        let t = "Notes and assumptions\n- The body's date governs.";
        assert_eq!(titles(t), owned(&[("Notes and assumptions", true)]));
        assert!(titles("The fee is due monthly.\n- First item").is_empty());
        assert!(titles("the parties agree\n- First item").is_empty());
        assert!(titles("The fee is due: on the first day of each month.").is_empty());
        assert!(titles("Some **bold** words in the middle.").is_empty());
    }
}
