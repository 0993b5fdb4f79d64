//! `required_section`: the body must contain a matching title or statement
//! (e.g. "## Not checked / missing information", "we did not review …").
//!
//! Titles are the layout's ([`Layout::titles`]): headings, an all-strong paragraph, a
//! strong label opening a paragraph ("**Not reviewed:** Exhibit C") and a
//! lead-in line before a list ("Open points:"); one counts only with content after it. A
//! one-line label ([`Layout::labels`]: "Missing information: none.", "- **Not reviewed:**
//! N/A") over the rest of its line that states nothing is silenced like such a title.
//! A title that can head anything (`judged_headings`: "Limitations", "Disclaimers",
//! "Assumptions", a contract's own headings among them) counts only when what it heads says
//! something about the output's limits (`title_content`, data), read like a statement.
//!
//! A statement inside a placeholder copied from the source (`[*****]`, `[REDACTED]`) is the
//! source's blank, not the output saying what it did not check: `placeholders` (data) mark
//! those spans, and a statement that overlaps one does not count. `examples` (data, not read
//! by the rule) are texts that must pass and fail; a test runs them. A statement that an
//! unfilled template slot or a denial frame takes back does not count, nor one whose object
//! claims completeness ("I could not find any issues") (`section_frames`).

use std::cell::OnceCell;
use std::sync::Arc;

use regex::Regex;
use serde::Deserialize;

use super::kind::{CompiledRule, Hit, RuleContext, RuleError, RuleOutcome, Seg};
use super::markdown::ProseMap;
use super::regexes::{Alternation, compile_all, compile_groups};
use super::section_frames::Frames;
use crate::engine::document::Layout;
use crate::engine::document::layout::Title;
use crate::engine::grounding::entities::words_key;
use crate::model::Verdict;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {
    headings: Vec<String>,
    #[serde(default)]
    statements: Vec<String>,
    /// Shorter bodies are `indeterminate` ("extremely short or clearly partial").
    #[serde(default = "default_min_chars")]
    min_body_chars: usize,
    /// Copied blanks and redaction markers: a statement overlapping one does not count.
    #[serde(default)]
    placeholders: Vec<String>,
    /// Titles that count only over content matching `title_content`.
    #[serde(default)]
    judged_headings: Vec<String>,
    #[serde(default)]
    title_content: Vec<String>,
    /// Content under a title that states nothing ("None.", "N/A", "[TBD]"), matched against
    /// its words (lower case, one space between): such a title does not count.
    #[serde(default)]
    empty_content: Vec<String>,
    /// Template slots, the words between a statement and its slot, denial frames (`Frames`).
    #[serde(default)]
    template_slots: Vec<String>,
    #[serde(default)]
    slot_fillers: Vec<String>,
    #[serde(default)]
    denials: Vec<String>,
    /// Objects that make a statement of a limit a claim of completeness (`Frames`).
    #[serde(default)]
    complete_objects: Vec<String>,
    /// Texts that must pass (`disclosure`) and fail (`not_disclosure`); run by a test.
    #[serde(default)]
    #[allow(dead_code)]
    examples: Option<Examples>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Examples {
    #[serde(default)]
    #[allow(dead_code)]
    disclosure: Vec<String>,
    #[serde(default)]
    #[allow(dead_code)]
    not_disclosure: Vec<String>,
}

fn default_min_chars() -> usize {
    300
}

pub fn compile(value: serde_json::Value) -> Result<Arc<dyn CompiledRule>, RuleError> {
    let p: Params = super::kind::params(value)?;
    let h = compile_all("headings", &p.headings)?;
    let s = compile_groups("statements", &p.statements)?;
    if p.headings.is_empty() && p.statements.is_empty() && p.judged_headings.is_empty() {
        return Err(RuleError::at(
            vec![Seg::key("headings")],
            "give at least one heading or statement pattern",
        ));
    }
    let mut rule = SectionRule::new(h, s, p.min_body_chars);
    rule.placeholders = compile_all("placeholders", &p.placeholders)?;
    rule.empty = compile_all("empty_content", &p.empty_content)?;
    rule.frames = Frames::compile(
        &p.template_slots,
        &p.slot_fillers,
        &p.denials,
        &p.complete_objects,
        rule.placeholders.clone(),
    )?;
    rule.judged = match (
        compile_all("judged_headings", &p.judged_headings)?,
        compile_all("title_content", &p.title_content)?,
    ) {
        (Some(t), Some(c)) => Some((t, c)),
        (None, None) => None,
        _ => {
            return Err(RuleError::at(
                vec![Seg::key("title_content")],
                "give `judged_headings` and `title_content` together",
            ));
        }
    };
    rule.counts = (
        p.headings.len() + p.judged_headings.len(),
        p.statements.len(),
    );
    Ok(Arc::new(rule))
}

impl CompiledRule for SectionRule {
    fn apply(&self, cx: &RuleContext) -> Option<RuleOutcome> {
        // Answered once per sentence: statements found in one long sentence ask about it
        // again and again, and each answer reads the whole sentence.
        let asked = std::cell::RefCell::new(std::collections::HashMap::new());
        let copied = |s: usize, e: usize| {
            let sentence = sentence_around(cx, s, e);
            *asked
                .borrow_mut()
                .entry(sentence)
                .or_insert_with(|| copied_from_source(cx, sentence))
        };
        Some(SectionRule::apply(
            self,
            cx.text,
            cx.body,
            cx.prose(),
            cx.layout(),
            &copied,
        ))
    }

    fn proves(&self) -> bool {
        true
    }

    fn describe(&self) -> String {
        format!(
            "Passes when one of {} heading pattern(s) or {} statement pattern(s) is present; outputs under {} non-blank characters are `indeterminate`.",
            self.counts.0, self.counts.1, self.min_body_chars
        )
    }
}

#[derive(Debug, Clone)]
pub struct SectionRule {
    headings: Option<Regex>,
    statements: Option<Alternation>,
    min_body_chars: usize,
    /// Copied placeholders (`[*****]`, `[REDACTED]`): statements inside them do not count.
    placeholders: Option<Regex>,
    /// Titles judged by their content, and the content that makes them count.
    judged: Option<(Regex, Regex)>,
    /// Content that states nothing: a title over it does not count.
    empty: Option<Regex>,
    /// Slots and denials that take a statement back.
    frames: Frames,
    /// Heading and statement pattern counts, for the documentation page.
    counts: (usize, usize),
}

impl SectionRule {
    pub fn new(
        headings: Option<Regex>,
        statements: Option<Alternation>,
        min_body_chars: usize,
    ) -> Self {
        SectionRule {
            headings,
            statements,
            min_body_chars,
            placeholders: None,
            judged: None,
            empty: None,
            frames: Frames::default(),
            counts: (0, 0),
        }
    }

    pub fn apply(
        &self,
        text: &str,
        body: (usize, usize),
        prose: &ProseMap,
        layout: &Layout,
        copied: &dyn Fn(usize, usize) -> bool,
    ) -> RuleOutcome {
        let body_text = &text[body.0..body.1];
        let chars = body_text.chars().filter(|c| !c.is_whitespace()).count();
        if chars < self.min_body_chars {
            return RuleOutcome {
                code: None,
                verdict: Verdict::Indeterminate,
                hits: vec![],
                hits_are_problems: false,
                notes: format!(
                    "Output is too short to judge ({chars} non-blank characters, fewer than {}).",
                    self.min_body_chars
                ),
                grounding: None,
            };
        }
        // Copied placeholders, in text order and disjoint (so their ends are sorted too).
        let blanks: Vec<(usize, usize)> = self.placeholders.as_ref().map_or(Vec::new(), |p| {
            p.find_iter(body_text)
                .map(|m| (body.0 + m.start(), body.0 + m.end()))
                .collect()
        });
        let counts = |s: usize, e: usize| {
            let i = blanks.partition_point(|b| b.1 <= s);
            blanks.get(i).is_none_or(|b| b.0 >= e)
                && !prose.is_quoted(s, e)
                && !prose.is_hidden(s, e)
                && !copied(s, e)
                && !self.frames.takes_back(text, prose, s, e)
        };
        let mut found = Vec::new();
        // Titles over content that states nothing ("## Missing information" over "[TBD]"):
        // their words do not count as a statement either.
        // A one-line label over the rest of its line is silenced like a title when that
        // content states nothing ("Missing information: none."); it never counts as a
        // title: in a list it names a finding's topic ("- **Open questions**: none; the
        // clause is final"). A strong label opening a paragraph is a title already.
        // Labels and titles never overlap; each list is in text order and disjoint.
        let all_titles = layout.titles(text);
        let starts: std::collections::HashSet<usize> =
            all_titles.iter().map(|t| t.span.0).collect();
        let mut silenced: Vec<(usize, usize)> = Vec::new();
        for l in layout.labels(text) {
            let (s, e) = l.span;
            if !starts.contains(&s) && self.states_nothing(text, l.content) {
                silenced.push((s, e));
            }
        }
        silenced.sort_unstable();
        // Whether a title's content states nothing is asked only when it matters, for a
        // title that would count or one a statement overlaps: reading the words under every
        // title (a top heading's are the whole output) cost a tenth of the default run.
        let titles: Vec<_> = all_titles
            .into_iter()
            // A title over nothing (a heading closing the output) states nothing.
            .filter(|t| t.followed && !prose.is_hidden(t.span.0, t.span.1))
            .map(|t| (t, OnceCell::new()))
            .collect();
        let silent = |x: &(Title, OnceCell<bool>)| {
            *x.1.get_or_init(|| self.states_nothing(text, x.0.content))
        };
        for x in &titles {
            let (s, e) = x.0.span;
            let title = &text[s..e];
            let heading = self.headings.as_ref().is_some_and(|re| re.is_match(title));
            let judged = || {
                self.judged.as_ref().is_some_and(|(re, content)| {
                    re.is_match(title) && !silent(x) && {
                        let (cs, ce) = x.0.content;
                        content
                            .find_iter(&text[cs..ce])
                            .any(|m| counts(cs + m.start(), cs + m.end()))
                    }
                })
            };
            if (heading && !silent(x)) || (!heading && judged()) {
                found.push(Hit {
                    source: None,
                    start: s,
                    end: e,
                    note: "disclosure section".into(),
                });
            }
        }
        let heard = |s: usize, e: usize| {
            let l = silenced.partition_point(|t| t.1 <= s);
            let i = titles.partition_point(|x| x.0.span.1 <= s);
            silenced.get(l).is_none_or(|t| t.0 >= e)
                && titles[i..]
                    .iter()
                    .take_while(|x| x.0.span.0 < e)
                    .all(|x| !silent(x))
                && counts(s, e)
        };
        if let Some(re) = &self.statements {
            for (s, e) in re.find_iter(body_text) {
                let (s, e) = (body.0 + s, body.0 + e);
                if heard(s, e) && !found.iter().any(|h| h.start <= s && e <= h.end) {
                    found.push(statement(s, e));
                }
            }
            // The same statements as read; one already found as written is not found twice.
            for (id, _) in layout.blocks() {
                let Some(r) = layout.reading(text, id) else {
                    continue;
                };
                for (s, e) in re.find_iter(&r.text) {
                    let (s, e) = r.span(s, e);
                    if heard(s, e) && !found.iter().any(|h| h.start < e && s < h.end) {
                        found.push(statement(s, e));
                    }
                }
            }
        }
        found.sort_by_key(|h| h.start);
        if found.is_empty() {
            let (s, e) = last_line(text, body);
            RuleOutcome {
code: None,
                verdict: Verdict::Fail,
                hits: vec![Hit { source: None,  start: s, end: e, note: "ends without stating what was not checked".into() }],
                hits_are_problems: true,
                notes: "The output presents itself as complete: no section or statement says what was not checked or what information was missing.".into(),
                grounding: None,
            }
        } else {
            let n = found.len();
            RuleOutcome {
                code: None,
                verdict: Verdict::Pass,
                hits: found,
                hits_are_problems: false,
                notes: format!("Found {n} statement(s) of what was not checked or missing."),
                grounding: None,
            }
        }
    }
}

impl SectionRule {
    /// Does the content under a title state nothing: no words once copied placeholders and
    /// template slots are left out ("[*****]", "...", "[SECTION]"), or words `empty_content`
    /// matches ("None.", "N/A")?
    fn states_nothing(&self, text: &str, (cs, ce): (usize, usize)) -> bool {
        let content = &text[cs..ce];
        let words = words_key(&self.frames.left_out(content));
        words.is_empty() || self.empty.as_ref().is_some_and(|re| re.is_match(&words))
    }
}

/// Fewest words a sentence needs before finding it in the source counts as a copy (shorter
/// ones, "Exhibit B was not provided.", can be the output's words and the source's alike).
pub const COPIED_WORDS: usize = 6;

/// The sentence holding `s..e` (at least `s..e`).
fn sentence_around(cx: &RuleContext, s: usize, e: usize) -> (usize, usize) {
    cx.layout()
        .sentence_at(s)
        .map_or((s, e), |x| (x.span.0.min(s), x.span.1.max(e)))
}

/// Is the sentence `a..b` the source's own text, word for word?
fn copied_from_source(cx: &RuleContext, (a, b): (usize, usize)) -> bool {
    let Some(source) = cx.companions.source else {
        return false;
    };
    count_work(b - a);
    let key = words_key(&cx.text[a..b]);
    if key.split(' ').count() < COPIED_WORDS {
        return false;
    }
    let needle = format!(" {key} ");
    // The source's words are read once per source file, whoever names it.
    match cx.companions.source_companion {
        Some(c) if std::ptr::eq(c.text(), source) => {
            c.derived(SourceWords::new).0.contains(&needle)
        }
        _ => SourceWords::new(source).0.contains(&needle),
    }
}

#[cfg(test)]
thread_local! {
    static WORK: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Count the `bytes` of output the copied-sentence check reads (tests only): a test
/// doubles a one-line output and checks that the work doubles, not quadruples.
fn count_work(bytes: usize) {
    #[cfg(test)]
    WORK.with(|w| w.set(w.get() + bytes as u64));
    #[cfg(not(test))]
    let _ = bytes;
}

/// The bytes of output the copied-sentence check has read on this thread (tests only).
#[cfg(test)]
fn work() -> u64 {
    WORK.with(std::cell::Cell::get)
}

/// A source's words as `words_key` writes them, between spaces (" w1 w2 … ").
struct SourceWords(String);

impl SourceWords {
    fn new(text: &str) -> Self {
        SourceWords(format!(" {} ", words_key(text)))
    }
}

fn statement(start: usize, end: usize) -> Hit {
    Hit {
        source: None,
        start,
        end,
        note: "disclosure statement".into(),
    }
}

/// The last non-blank line of the body: where a missing closing section belongs.
fn last_line(text: &str, body: (usize, usize)) -> (usize, usize) {
    let b = &text[body.0..body.1];
    let trimmed = b.trim_end();
    let start = trimmed.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let lead = trimmed[start..].len() - trimmed[start..].trim_start().len();
    (body.0 + start + lead, body.0 + trimmed.len())
}

#[cfg(test)]
#[path = "section_tests.rs"]
mod tests;
