//! Text a rule should not read as the AI's own assertion even though it is not in quotation
//! marks: clause language being drafted (redlines, "Suggested Revision:" blocks, `[ADD]` lines).
//!
//! Two generic knobs, both optional on `pattern` and `qualifier_window`:
//! - `skip_sentences`: a hit is ignored when its sentence matches (e.g. `\bshall\b`, `\bhereby\b`);
//! - `skip_sections`: a heading (markdown heading or all-bold line) matching one of these hides
//!   everything up to the next heading; a line whose leading label (the text before its first
//!   `:`, or a `[TAG]`) matches hides the rest of that line (`**Suggested Revision:** …`, `[ADD] …`).

use regex::Regex;

use super::kind::RuleError;
use std::cell::Cell;

use super::markdown::{ProseMap, is_heading_line};
use super::regexes::compile_all;
use crate::engine::grounding::lexicon;
use crate::model::SetAside;

/// Compile the two optional parameters `skip_sentences` and `skip_sections`.
pub fn compile_skips(sentences: &[String], sections: &[String]) -> Result<SkipRules, RuleError> {
    Ok(SkipRules {
        sentences: compile_all("skip_sentences", sentences)?,
        sections: compile_all("skip_sections", sections)?,
        nouns_blanked: false,
    })
}

#[derive(Debug, Clone, Default)]
pub struct SkipRules {
    pub sentences: Option<Regex>,
    pub sections: Option<Regex>,
    /// Read a sentence's drafting words without those it uses as nouns of the source's
    /// subject matter (`lexicon::DRAFTING_WORD_NOT_PROPOSING`): the grounding checks' reading.
    pub nouns_blanked: bool,
}

/// The skipped byte ranges of one document, computed once per rule application.
pub struct Skipped<'a> {
    rules: &'a SkipRules,
    text: &'a str,
    prose: &'a ProseMap,
    /// Sorted by start (shared by every rule that skips the same sections).
    regions: std::rc::Rc<Vec<(usize, usize)>>,
    /// `regions_max_end[i]`: the largest end among `regions[..=i]`.
    regions_max_end: Vec<usize>,
    /// The last sentence tested against `skip_sentences` and the answer: hits come in
    /// order, so a long sentence with many hits is matched once, not once per hit.
    last_sentence: Cell<Option<(usize, usize, bool)>>,
}

impl SkipRules {
    pub fn is_empty(&self) -> bool {
        self.sentences.is_none() && self.sections.is_none()
    }

    /// `prose` must have been built on `text` and the body.
    pub fn prepare<'a>(&'a self, text: &'a str, prose: &'a ProseMap) -> Skipped<'a> {
        let regions = match &self.sections {
            Some(re) => prose.shared(re.as_str(), || {
                let mut r = section_regions(re, text, prose.body());
                r.sort_unstable();
                r
            }),
            None => std::rc::Rc::new(Vec::new()),
        };
        let regions_max_end = regions
            .iter()
            .scan(0, |max, &(_, e)| {
                *max = e.max(*max);
                Some(*max)
            })
            .collect();
        Skipped {
            rules: self,
            text,
            prose,
            regions,
            regions_max_end,
            last_sentence: Cell::new(None),
        }
    }
}

impl Skipped<'_> {
    /// The regions under drafting headings and after drafting labels, sorted by start.
    pub fn regions(&self) -> &[(usize, usize)] {
        &self.regions
    }

    /// Is `start..end` drafted language rather than the AI's own prose?
    pub fn covers(&self, start: usize, end: usize) -> bool {
        self.why(start, end).is_some()
    }

    /// Why `start..end` is drafted language: under a drafting heading or label, or in a
    /// drafting sentence; `None` when it is the AI's own prose.
    pub fn why(&self, start: usize, end: usize) -> Option<SetAside> {
        let i = self.regions.partition_point(|&(s, _)| s <= start);
        if i > 0 && self.regions_max_end[i - 1] >= end {
            return Some(SetAside::DraftingSection);
        }
        self.in_drafting_sentence(start, end)
            .then_some(SetAside::DraftingSentence)
    }

    /// Do these pieces of text (a table cell's voice: its row so far, its column's head)
    /// hold drafting words of `skip_sentences`?
    pub fn drafting_words_in(&self, pieces: &[(usize, usize)]) -> bool {
        self.rules.sentences.as_ref().is_some_and(|re| {
            pieces
                .iter()
                .any(|&(s, e)| self.text.get(s..e).is_some_and(|t| re.is_match(t)))
        })
    }

    /// Does the sentence holding `start..end` match `skip_sentences`?
    pub fn in_drafting_sentence(&self, start: usize, end: usize) -> bool {
        let Some(re) = &self.rules.sentences else {
            return false;
        };
        let (s, e) = self.prose.sentence(self.text, start);
        let e = e.max(end);
        if let Some((ls, le, answer)) = self.last_sentence.get()
            && (ls, le) == (s, e)
        {
            return answer;
        }
        // A drafting word used as a noun of the source's subject matter ("any proposed sale",
        // "a negotiation period") or as a hedge does not make the sentence a proposal.
        let sentence = &self.text[s..e];
        let answer = re.is_match(sentence)
            && (!self.rules.nouns_blanked
                || lexicon::without_non_proposing(sentence).is_none_or(|t| re.is_match(&t)));
        self.last_sentence.set(Some((s, e, answer)));
        answer
    }
}

/// Leading decoration of a line: list markers, emphasis, heading marks, numbering ("3.3", "(c)").
fn strip_lead(line: &str) -> (usize, &str) {
    let words = crate::engine::document::layout::line_lead(line).words;
    (words, &line[words..])
}

fn section_regions(re: &Regex, text: &str, body: (usize, usize)) -> Vec<(usize, usize)> {
    let mut regions = Vec::new();
    let mut open: Option<usize> = None;
    let mut line_start = body.0;
    for line in text[body.0..body.1].split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        let line_end = line_start + content.len();
        let next = line_start + line.len();
        if is_heading_line(text, line_start, line_end) {
            if let Some(s) = open.take() {
                regions.push((s, line_start));
            }
            let heading = strip_lead(content).1.trim_end_matches(['*', '_', ':', ' ']);
            if re.is_match(heading) {
                open = Some(next.min(body.1));
            }
        } else if open.is_none()
            && let Some(after) = label_end(re, content)
        {
            regions.push((line_start + after, line_end));
        }
        line_start = next;
    }
    if let Some(s) = open {
        regions.push((s, body.1));
    }
    regions
}

/// If the line opens with a matching label (`**Suggested Revision:** …`, `[ADD] …`), where the
/// labelled text begins (relative to the line). The label alone is matched, so patterns may be
/// anchored at both ends like headings are.
pub(super) fn label_end(re: &Regex, line: &str) -> Option<usize> {
    let (lead, rest) = strip_lead(line);
    if rest.starts_with('[') {
        let m = re.find(rest).filter(|m| m.start() == 0)?;
        return Some(lead + m.end());
    }
    let colon = rest.find(':')?;
    let label = rest[..colon].trim_end_matches(['*', '_', ' ']);
    (!label.is_empty() && label.len() <= MAX_LABEL && re.is_match(label))
        .then_some(lead + colon + 1)
}

/// Is the whole line a drafting label (`Illustrative drafting suggestions (examples)`), matched
/// like a heading: short, not a sentence.
pub(super) fn label_line(re: &Regex, line: &str) -> bool {
    let l = strip_lead(line).1.trim_end_matches(['*', '_', ':', ' ']);
    !l.is_empty() && l.len() <= MAX_LABEL && !l.ends_with(['.', ';', ',']) && re.is_match(l)
}

/// Longer text before a colon is a sentence, not a label.
const MAX_LABEL: usize = 80;

#[cfg(test)]
mod tests {
    use super::*;

    fn skips(sent: Option<&str>, sect: Option<&str>) -> SkipRules {
        SkipRules {
            sentences: sent.map(|s| Regex::new(&format!("(?i){s}")).unwrap()),
            sections: sect.map(|s| Regex::new(&format!("(?i){s}")).unwrap()),
            nouns_blanked: false,
        }
    }

    fn covered(r: &SkipRules, t: &str, word: &str) -> bool {
        let s = t.find(word).unwrap();
        let prose = ProseMap::new(t, (0, t.len()));
        r.prepare(t, &prose).covers(s, s + word.len())
    }

    #[test]
    fn heading_section_is_skipped_until_the_next_heading() {
        let r = skips(None, Some(r"^suggested revision"));
        let t = "## Issue\nThis is void.\n**Suggested Revision:**\nConsultant is never liable.\nMore clause.\n### Why\nThis is always bad.";
        assert!(!covered(&r, t, "void"));
        assert!(covered(&r, t, "never"));
        assert!(covered(&r, t, "More clause"));
        assert!(!covered(&r, t, "always"));
    }

    #[test]
    fn leading_label_hides_only_the_rest_of_its_line() {
        let r = skips(None, Some(r"^proposed clause|^\[add\]|^suggested revision"));
        let t = "- **Proposed clause:** the waiver is valid.\nThe waiver is valid.\n[ADD] never assert\nnot a [ADD] label never";
        let first = t.find("valid").unwrap();
        let prose = ProseMap::new(t, (0, t.len()));
        let p = r.prepare(t, &prose);
        assert!(p.covers(first, first + 5));
        let second = t[first + 5..].find("valid").unwrap() + first + 5;
        assert!(!p.covers(second, second + 5));
        assert!(covered(&r, t, "never assert"));
        assert!(!covered(&r, t, "label never"));
        let t = "*   **c) Suggested Revision:** It is always void.\n(iv) Suggested revision: never";
        assert!(covered(&r, t, "always"));
        assert!(covered(&r, t, "never"));
    }

    #[test]
    fn anchored_patterns_match_the_label_alone() {
        let r = skips(None, Some(r"^suggested revision\W*$"));
        let t = "**Suggested Revision:** It is always void.\nSuggested revisions are always void.";
        assert!(covered(&r, t, "always void."));
        assert!(!covered(&r, t, "are always"));
    }

    #[test]
    fn label_without_colon_is_not_a_label() {
        let r = skips(None, Some(r"^proposed clause"));
        let t = "Proposed clause structure is enforceable.";
        assert!(!covered(&r, t, "enforceable"));
    }

    #[test]
    fn sentence_with_drafting_words_is_skipped_others_are_not() {
        let r = skips(Some(r"\bshall\b|\bhereby\b"), None);
        let t = "This Agreement shall be binding upon successors. The clause is binding.";
        let first = t.find("binding").unwrap();
        let prose = ProseMap::new(t, (0, t.len()));
        let p = r.prepare(t, &prose);
        assert!(p.covers(first, first + 7));
        let second = t.rfind("binding").unwrap();
        assert!(!p.covers(second, second + 7));
    }

    #[test]
    fn section_running_to_the_end_of_the_body_is_closed() {
        let r = skips(None, Some(r"^revised text"));
        let t = "Intro line.\n### Revised Text\nIt is always void.";
        assert!(covered(&r, t, "always"));
        assert!(!covered(&r, t, "Intro"));
    }
}
