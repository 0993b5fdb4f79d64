//! After an edit, find each cited passage again in the new text: the exact words,
//! nearest to where the edit moved them. A passage whose words are gone is dropped.

use super::Locator;
use crate::engine::document::Document;
use crate::model::{Citation, Located, Report};

pub fn is_located(c: &Citation) -> bool {
    c.located != Located::Unlocated && c.byte_range.is_some()
}

/// How the text changed: a shared prefix and suffix around the edited region.
#[derive(Debug, Clone, Copy)]
pub struct Shift {
    prefix: usize,
    suffix: usize,
    old_len: usize,
    new_len: usize,
}

impl Shift {
    pub fn between(old: &str, new: &str) -> Shift {
        let prefix = old
            .bytes()
            .zip(new.bytes())
            .take_while(|(a, b)| a == b)
            .count();
        let suffix = old
            .bytes()
            .rev()
            .zip(new.bytes().rev())
            .take_while(|(a, b)| a == b)
            .count()
            .min(old.len() - prefix)
            .min(new.len() - prefix);
        Shift {
            prefix,
            suffix,
            old_len: old.len(),
            new_len: new.len(),
        }
    }

    /// Where an old offset most likely is now: offsets after the edit move with it.
    fn expected(&self, offset: usize) -> usize {
        if offset <= self.prefix {
            offset
        } else if offset >= self.old_len - self.suffix {
            offset + self.new_len - self.old_len
        } else {
            offset.min(self.new_len)
        }
    }
}

/// Find the exact text a citation pointed at in the new text, nearest where it should be;
/// a quote in pieces moves piece by piece and is dropped when any piece is gone.
pub fn relocate(c: &Citation, old_text: &str, doc: &Document, shift: &Shift) -> Option<Citation> {
    if !is_located(c) {
        return Some(c.clone());
    }
    let first = c.byte_range?;
    let mut moved = c.clone();
    if c.byte_ranges.len() > 1 {
        moved.byte_ranges = c
            .byte_ranges
            .iter()
            .map(|&r| find_again(r, old_text, doc, shift))
            .collect::<Option<Vec<_>>>()?;
        moved.ranges = moved
            .byte_ranges
            .iter()
            .map(|&(s, e)| doc.range(s, e))
            .collect();
    }
    let (best, end) = moved
        .byte_ranges
        .first()
        .copied()
        .map_or_else(|| find_again(first, old_text, doc, shift), Some)?;
    moved.byte_range = Some((best, end));
    moved.range = Some(doc.range(best, end));
    moved.location = format!("line {}", doc.line_index.line_of(best) + 1);
    Some(moved)
}

/// The old passage `(s, e)` in the new body: the occurrence nearest its expected place.
fn find_again(
    (s, e): (usize, usize),
    old_text: &str,
    doc: &Document,
    shift: &Shift,
) -> Option<(usize, usize)> {
    let needle = old_text.get(s..e)?;
    if needle.is_empty() {
        return None;
    }
    let expected = shift.expected(s);
    let (b0, b1) = doc.body;
    let best = doc.text[b0..b1]
        .match_indices(needle)
        .map(|(i, _)| b0 + i)
        .min_by_key(|&i| i.abs_diff(expected))?;
    Some((best, best + needle.len()))
}

/// A stored report whose text may differ from `doc` in its raw form (front matter, line
/// endings) though its normalized inputs are the same: every citation found again by its
/// words, never trusted by its offsets. What cannot be found is unlocated.
pub fn relocate_by_text(report: &Report, doc: &Document) -> Report {
    let locator = Locator::new(&doc.text, doc.body);
    let mut out = report.clone();
    let find = |c: &mut Citation| {
        let loc = locator.locate(&c.span);
        if loc.located == Located::Unlocated {
            c.located = Located::Unlocated;
            c.range = None;
            c.byte_range = None;
            c.ranges.clear();
            c.byte_ranges.clear();
            c.location = "unlocated".into();
        } else {
            c.located = loc.located;
            c.byte_range = Some((loc.start, loc.end));
            if loc.pieces.len() > 1 {
                c.ranges = loc.pieces.iter().map(|&(s, e)| doc.range(s, e)).collect();
                c.byte_ranges = loc.pieces;
            } else {
                c.ranges.clear();
                c.byte_ranges.clear();
            }
            c.range = Some(doc.range(loc.start, loc.end));
            c.location = format!("line {}", doc.line_index.line_of(loc.start) + 1);
        }
    };
    for r in &mut out.check_results {
        r.evidence_citations.iter_mut().for_each(find);
        for run in &mut r.raw_runs {
            run.evidence_citations.iter_mut().for_each(find);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn citation(doc: &Document, start: usize, end: usize) -> Citation {
        Citation {
            span: doc.text[start..end].to_string(),
            location: String::new(),
            located: Located::Exact,
            range: Some(doc.range(start, end)),
            byte_range: Some((start, end)),
            ranges: Vec::new(),
            byte_ranges: Vec::new(),
            context: String::new(),
        }
    }

    #[test]
    fn relocate_follows_the_nearest_copy_and_drops_vanished_text() {
        let old = Document::parse("A is compliant. B.\n\nC is compliant.".into(), None).unwrap();
        let second = old.text.rfind("is compliant").unwrap();
        let c = citation(&old, second, second + "is compliant".len());
        let new = Document::parse(
            "New line.\nA is compliant. B.\n\nC is compliant.".into(),
            None,
        )
        .unwrap();
        let moved = relocate(&c, &old.text, &new, &Shift::between(&old.text, &new.text)).unwrap();
        let (s, e) = moved.byte_range.unwrap();
        assert_eq!(
            s,
            new.text.rfind("is compliant").unwrap(),
            "nearest copy, not the first"
        );
        assert_eq!(&new.text[s..e], "is compliant");
        assert_eq!(moved.range.unwrap().start.line, 3);
        let gone = Document::parse("A appears compliant.".into(), None).unwrap();
        assert!(relocate(&c, &old.text, &gone, &Shift::between(&old.text, &gone.text)).is_none());
    }

    #[test]
    fn a_stored_report_is_found_again_by_its_words_not_its_offsets() {
        let pb = crate::engine::playbook::builtin();
        let old = Document::parse("The clause is compliant.\r\n".into(), None).unwrap();
        let report = crate::engine::runner::run_deterministic(&pb, &old);
        let new = Document::parse(
            "---\ntitle: moved\n---\nThe clause is compliant.\n".into(),
            None,
        )
        .unwrap();
        assert_eq!(new.inputs.fingerprint(), old.inputs.fingerprint());
        let moved = relocate_by_text(&report, &new);
        let c = &moved
            .check("certainty_language")
            .unwrap()
            .evidence_citations[0];
        let (s, e) = c.byte_range.unwrap();
        assert_eq!(&new.text[s..e], "is compliant");
        assert_eq!(c.range.unwrap().start.line, 3);
    }
}
