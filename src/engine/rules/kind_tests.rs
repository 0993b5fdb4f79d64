use super::*;
use crate::engine::document::Document;

/// A document with front matter, whose body holds a link title and a `[//]: #` comment.
const TEXT: &str = "---\nbyop:\n  as_of: 2026-01-01\n---\n\
Intro text. See [Exhibit B](https://example.com \"Not checked: the indemnity\") for the rest.\n\
\n\
[//]: # (Not reviewed: the schedules)\n\
\n\
Closing words.\n";

fn at(needle: &str) -> (usize, usize) {
    let s = TEXT.find(needle).unwrap();
    (s, s + needle.len())
}

#[test]
fn prose_takes_the_unrendered_text_from_the_documents_layout_after_its_front_matter() {
    let doc = Document::parse(TEXT.to_string(), None).unwrap();
    assert!(doc.body.0 > 0, "the front matter is not body");
    assert_eq!(doc.layout().range(), doc.body);
    let cx = RuleContext::new(&doc.text, doc.body).with_document(&doc);
    let prose = cx.prose();
    let (title, comment) = (at("Not checked"), at("Not reviewed: the schedules"));
    assert!(
        prose.is_hidden(title.0, title.1),
        "a link title is unrendered"
    );
    assert!(
        prose.is_hidden(comment.0, comment.1),
        "a comment is unrendered"
    );
    for seen in ["Intro text", "for the rest", "Closing words"] {
        let (s, e) = at(seen);
        assert!(!prose.is_hidden(s, e), "{seen:?} is seen");
    }
    // The same answer, byte by byte, as the map that parses the body itself, and as a
    // context without the document.
    let parsed = super::ProseMap::new(&doc.text, doc.body);
    let alone = RuleContext::new(&doc.text, doc.body);
    for i in doc.body.0..doc.body.1 {
        let want = parsed.is_hidden(i, i + 1);
        assert_eq!(prose.is_hidden(i, i + 1), want, "at {i}");
        assert_eq!(alone.prose().is_hidden(i, i + 1), want, "alone, at {i}");
    }
}

#[test]
fn prose_for_another_range_than_the_documents_reads_that_range() {
    let doc = Document::parse(TEXT.to_string(), None).unwrap();
    let (s, _) = at("[//]");
    let range = (s, doc.body.1);
    let cx = RuleContext::new(&doc.text, range).with_document(&doc);
    let (c0, c1) = at("Not reviewed: the schedules");
    assert!(cx.prose().is_hidden(c0, c1));
    assert_eq!(cx.prose().body(), range);
}
