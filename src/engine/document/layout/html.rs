//! Raw HTML a reader never sees as a statement. The markdown parser hands over raw HTML as
//! events (an HTML block's lines, each inline tag, comment or CDATA section); their text is
//! markup, never a sentence the output states. Each event's tags are read with quick-xml (a
//! tag's name and attributes, unquoted and bare ones too) to follow which elements are open:
//!
//! - the markup itself is unrendered: tags with their attributes, comments, CDATA sections,
//!   and the whole text of an HTML block (`<div>I did not review …</div>` on its lines);
//! - an element's contents, to its closing tag and across markdown blocks, are unrendered
//!   unless it is ordinary inline formatting (`FORMATTING`) not hidden by `hidden`, a
//!   `style` with `display:none` or `visibility:hidden`, or a hiding class; a hidden or
//!   never-shown element (`<template>`, `<script>`, `<style>` …) never closed hides the rest.
//!
//! The policy errs towards hiding: a `<details>` section or a `<div>` wrapping markdown is
//! read as unseen, so a disclosure written inside one does not count.

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

use super::Span;

/// Ordinary inline formatting: its text is seen (unless the element is hidden).
const FORMATTING: &[&str] = &[
    "b", "i", "em", "strong", "br", "sup", "sub", "u", "span", "ins", "mark", "small", "wbr",
];

/// Elements without contents.
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr",
];

/// Elements whose contents are never shown: left open, they hide the rest of the text.
const NEVER_SHOWN: &[&str] = &[
    "template",
    "script",
    "style",
    "noscript",
    "title",
    "head",
    "textarea",
    "iframe",
    "object",
    "xmp",
    "noembed",
    "noframes",
    "plaintext",
];

/// Classes that hide an element in the usual style sheets.
const HIDING_CLASSES: &[&str] = &[
    "hidden",
    "d-none",
    "sr-only",
    "visually-hidden",
    "invisible",
];

/// The unrendered spans of the raw HTML events `raw` (in text order) of a text ending at
/// `end`; neither sorted nor disjoint.
pub(super) fn unrendered(text: &str, raw: &[Span], end: usize) -> Vec<Span> {
    let mut out = Vec::with_capacity(raw.len());
    // Open elements: name, where the open tag starts, whether left open it hides the rest.
    let mut open: Vec<(String, usize, bool)> = Vec::new();
    for &(s, e) in raw {
        out.push((s, e));
        let mut reader = Reader::from_str(&text[s..e]);
        let config = reader.config_mut();
        config.check_end_names = false;
        config.allow_unmatched_ends = true;
        loop {
            let at = s + reader.buffer_position() as usize;
            match reader.read_event() {
                // `<div hidden/>` opens a div in HTML: only void elements close themselves.
                Ok(Event::Start(tag) | Event::Empty(tag)) => {
                    let name = name_of(tag.name().as_ref());
                    let hidden = hidden(&tag);
                    let shown = FORMATTING.contains(&name.as_str()) && !hidden;
                    if !shown && !VOID.contains(&name.as_str()) {
                        let never = hidden || NEVER_SHOWN.contains(&name.as_str());
                        open.push((name, at, never));
                    }
                }
                Ok(Event::End(tag)) => {
                    let name = name_of(tag.name().as_ref());
                    if let Some(i) = open.iter().rposition(|o| o.0 == name) {
                        out.push((open[i].1, s + reader.buffer_position() as usize));
                        open.truncate(i);
                    }
                }
                Ok(Event::Eof) | Err(_) => break,
                Ok(_) => {}
            }
        }
    }
    out.extend(
        open.into_iter()
            .filter(|o| o.2)
            .map(|(_, start, _)| (start, end)),
    );
    out
}

fn name_of(raw: &str) -> String {
    raw.to_ascii_lowercase()
}

/// Does the tag hide its element: `hidden`, `style="display:none"` (or `visibility:
/// hidden`), or a hiding class? An attribute quick-xml cannot read hides it too.
fn hidden(tag: &BytesStart) -> bool {
    tag.html_attributes().any(|a| {
        let Ok(a) = a else { return true };
        let key = name_of(a.key.as_ref());
        let value = a.value.to_ascii_lowercase();
        let squeezed: String = value.chars().filter(|c| !c.is_whitespace()).collect();
        match key.as_str() {
            "hidden" => true,
            "style" => {
                squeezed.contains("display:none")
                    || squeezed.contains("visibility:hidden")
                    || squeezed.contains("visibility:collapse")
            }
            "class" => value
                .split_whitespace()
                .any(|c| HIDING_CLASSES.contains(&c)),
            _ => false,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::super::Layout;

    /// The unrendered text of `t`, span by span.
    fn unseen(t: &str) -> Vec<&str> {
        let l = Layout::markdown(t, (0, t.len()));
        l.unrendered().iter().map(|&(s, e)| &t[s..e]).collect()
    }

    #[test]
    fn hidden_and_never_shown_elements_are_unrendered_with_their_contents() {
        for t in [
            "Intro.\n\n<div hidden>I did not review Section 9.</div>\n\nEnd.",
            "Intro <template>I did not review Section 9.</template> end.",
            "Intro <span style=\"display: none\">I did not review Section 9.</span> end.",
            "Intro <span class='note sr-only'>I did not review Section 9.</span> end.",
            "Intro <script>I did not review Section 9.</script> end.",
            "Intro <![CDATA[I did not review Section 9.]]> end.",
            "Intro <!-- I did not review Section 9. --> end.",
            "Intro ![I did not review Section 9.](x.png) end.",
        ] {
            let got = unseen(t);
            assert!(
                got.iter()
                    .any(|u| u.contains("I did not review Section 9.")),
                "{t}: {got:?}"
            );
            assert!(
                got.iter()
                    .all(|u| !u.contains("Intro") && !u.contains("end"))
            );
        }
    }

    #[test]
    fn a_hidden_element_hides_the_markdown_it_wraps_and_to_the_end_when_left_open() {
        let t = "Seen.\n\n<div hidden>\n\nI did not review Section 9.\n\n</div>\n\nSeen again.";
        let got = unseen(t);
        assert_eq!(
            got,
            ["<div hidden>\n\nI did not review Section 9.\n\n</div>\n"]
        );
        let t = "Seen.\n\n<section style=display:none>\n\nI did not review Section 9.";
        assert_eq!(
            unseen(t),
            ["<section style=display:none>\n\nI did not review Section 9."]
        );
    }

    #[test]
    fn inline_formatting_is_seen_and_only_its_tags_are_not() {
        let t = "I <b>did not</b> review <span>Section 9</span>, <ins>nor</ins> 10.<br>";
        assert_eq!(
            unseen(t),
            [
                "<b>", "</b>", "<span>", "</span>", "<ins>", "</ins>", "<br>"
            ]
        );
        // A tag left open that shows its contents hides only itself.
        let t = "Replace <Party Name> here. I did not review Section 9.";
        assert_eq!(unseen(t), ["<Party Name>"]);
        assert!(unseen("Plain markdown, **bold**, no markup at all.").is_empty());
    }
}
