//! What surrounds a disclosure statement can take back what it says: an unfilled template
//! slot as its object ("I did not review [SECTION]", "We did not check {{schedule}}") states
//! nothing, and a denial framing it ("It is not true that I did not review …", "There is
//! nothing I did not check") states the opposite. Slots, the words that may stand between
//! a statement and its slot, and the denial frames are playbook data
//! (`template_slots`, `slot_fillers`, `denials`). A limit whose object is "any problems" or
//! "anything missing" ("I could not find any issues") claims completeness: its objects are
//! data too (`complete_objects`).

use std::borrow::Cow;

use regex::Regex;

use super::kind::{RuleError, Seg};
use super::markdown::ProseMap;
use super::regexes::compile_all;

/// How far (bytes) before and after a statement, within its sentence, its frame is read.
const WINDOW: usize = 240;

#[derive(Debug, Clone, Default)]
pub struct Frames {
    /// Any template slot.
    slots: Option<Regex>,
    /// The text after a statement starts with a slot (fillers and punctuation first).
    slot_after: Option<Regex>,
    /// The text after a statement holds nothing but fillers and punctuation.
    nothing_after: Option<Regex>,
    /// The text before a statement ends with a slot (fillers and punctuation after it).
    slot_before: Option<Regex>,
    /// The text before a statement ends with a denial frame.
    denied: Option<Regex>,
    /// Copied placeholders (`[REDACTED]`): the source's blanks, never a slot.
    placeholders: Option<Regex>,
    /// The text after a statement starts with an object that makes its limit a claim of
    /// completeness ("I could not find | any issues", "I could not verify | any problems").
    complete_after: Option<Regex>,
}

impl Frames {
    pub fn compile(
        slots: &[String],
        fillers: &[String],
        denials: &[String],
        complete_objects: &[String],
        placeholders: Option<Regex>,
    ) -> Result<Frames, RuleError> {
        let mut f = Frames {
            placeholders,
            complete_after: compile_all("complete_objects", complete_objects)?
                .map(|re| anchored("complete_objects", &format!(r"^[\s*_]*(?:{})", re.as_str())))
                .transpose()?,
            slots: compile_all("template_slots", slots)?,
            denied: compile_all("denials", denials)?
                .map(|re| anchored("denials", &format!(r"(?:{})[\s*_]*$", re.as_str())))
                .transpose()?,
            ..Frames::default()
        };
        if let Some(slot) = &f.slots {
            let words: Vec<String> = fillers
                .iter()
                .map(|w| w.trim())
                .filter(|w| !w.is_empty())
                .map(regex::escape)
                .collect();
            // Anything but a letter or digit, or a filler word (ASCII word boundaries, like
            // every playbook pattern: see `regexes`).
            let filler = if words.is_empty() {
                r"[^\p{L}\p{N}]".to_string()
            } else {
                format!(
                    r"(?:[^\p{{L}}\p{{N}}]|(?-u:\b)(?i:{})(?-u:\b))",
                    words.join("|")
                )
            };
            let slot = slot.as_str();
            let key = "slot_fillers";
            f.slot_after = Some(anchored(key, &format!(r"^{filler}*(?:{slot})"))?);
            f.nothing_after = Some(anchored(key, &format!(r"^{filler}*$"))?);
            f.slot_before = Some(anchored(key, &format!(r"(?:{slot}){filler}*$"))?);
        }
        Ok(f)
    }

    /// Does the statement at `s..e` state nothing: its object an unfilled slot (or, with no
    /// object after it, its subject one), or a denial frame right before it?
    pub fn takes_back(&self, text: &str, prose: &ProseMap, s: usize, e: usize) -> bool {
        if self.slots.is_none() && self.denied.is_none() && self.complete_after.is_none() {
            return false;
        }
        let (a, _) = prose.sentence(text, s);
        let (_, b) = prose.sentence(text, e);
        let before = &text[boundary_after(text, a.max(s.saturating_sub(WINDOW)).min(s))..s];
        let after = &text[e..boundary_before(text, b.max(e).min(e + WINDOW))];
        let is = |re: &Option<Regex>, t: &str| re.as_ref().is_some_and(|re| re.is_match(t));
        if is(&self.denied, before) || is(&self.complete_after, after) {
            return true;
        }
        // "[REDACTED] amounts" names the source's blank: a word, not a slot.
        let (before, after) = (self.blank(before), self.blank(after));
        is(&self.slot_after, &after)
            || (is(&self.nothing_after, &after) && is(&self.slot_before, &before))
    }
}

impl Frames {
    /// `t` with its copied placeholders and template slots left out.
    pub fn left_out<'t>(&self, t: &'t str) -> Cow<'t, str> {
        let mut own = Cow::Borrowed(t);
        for re in [&self.placeholders, &self.slots].into_iter().flatten() {
            if let Cow::Owned(changed) = re.replace_all(&own, " ") {
                own = Cow::Owned(changed);
            }
        }
        own
    }

    /// `t` with each copied placeholder written as the word "blank", but for one that ends a
    /// slot starting before it ("Section [X]", "Clause [__]"): a reference with a blank for
    /// its number is a template's slot, not the source's redaction.
    fn blank<'t>(&self, t: &'t str) -> Cow<'t, str> {
        let Some(p) = &self.placeholders else {
            return t.into();
        };
        let slots: Vec<(usize, usize)> = match &self.slots {
            Some(s) if p.is_match(t) => s.find_iter(t).map(|m| (m.start(), m.end())).collect(),
            _ => Vec::new(),
        };
        let mut out = String::new();
        let mut at = 0;
        for m in p.find_iter(t) {
            if slots.iter().any(|&(s, e)| s < m.start() && m.end() <= e) {
                continue;
            }
            out.push_str(&t[at..m.start()]);
            out.push_str("blank");
            at = m.end();
        }
        if at == 0 && out.is_empty() {
            return t.into();
        }
        out.push_str(&t[at..]);
        out.into()
    }
}

fn anchored(key: &str, pattern: &str) -> Result<Regex, RuleError> {
    Regex::new(pattern).map_err(|e| RuleError::at(vec![Seg::key(key)], format!("`{key}`: {e}")))
}

/// The first character boundary at or after `i`.
fn boundary_after(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// The last character boundary at or before `i` (and the text's end).
fn boundary_before(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}
