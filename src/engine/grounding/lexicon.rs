//! The words grounding reads as signals of voice, as data (`lexicon.toml`): each entry a list
//! of patterns with examples that the tests below run both ways.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use regex::{Regex, RegexSet};
use serde::Deserialize;

/// The entries, in two files of one format: the voice signals, then the sentences that assert
/// nothing about the source (`not_asserted.toml`).
const LEXICON: &str = concat!(
    include_str!("lexicon.toml"),
    "\n",
    include_str!("not_asserted.toml")
);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    #[allow(dead_code)]
    meaning: String,
    patterns: Vec<String>,
    /// Examples the entry must match and must not (run by the tests).
    #[serde(default)]
    #[cfg_attr(not(test), allow(dead_code))]
    matches: Vec<String>,
    #[serde(default)]
    #[cfg_attr(not(test), allow(dead_code))]
    not_matches: Vec<String>,
}

/// One compiled entry.
pub struct Words(RegexSet);

impl Words {
    pub fn is_match(&self, text: &str) -> bool {
        self.0.is_match(text)
    }
}

/// One compiled entry that also says where it matches (its patterns joined into one).
pub struct Finder(Regex);

impl Finder {
    pub fn find<'t>(&self, text: &'t str) -> Option<regex::Match<'t>> {
        self.0.find(text)
    }
    pub fn find_iter<'r, 't>(&'r self, text: &'t str) -> regex::Matches<'r, 't> {
        self.0.find_iter(text)
    }
    pub fn is_match(&self, text: &str) -> bool {
        self.0.is_match(text)
    }
}

fn entries() -> BTreeMap<String, Entry> {
    toml::from_str(LEXICON).expect("grounding/lexicon.toml is valid (tested)")
}

fn compile(name: &str) -> Words {
    let all = entries();
    let e = all
        .get(name)
        .unwrap_or_else(|| panic!("grounding/lexicon.toml has `{name}` (tested)"));
    Words(RegexSet::new(&e.patterns).expect("lexicon patterns compile (tested)"))
}

fn finder(name: &str) -> Finder {
    let all = entries();
    let e = all
        .get(name)
        .unwrap_or_else(|| panic!("grounding/lexicon.toml has `{name}` (tested)"));
    let joined = e
        .patterns
        .iter()
        .map(|p| format!("(?:{p})"))
        .collect::<Vec<_>>()
        .join("|");
    Finder(Regex::new(&joined).expect("lexicon patterns compile (tested)"))
}

/// The subject and verb of a clause stating what the source says, anywhere in a sentence
/// ("… Section 14.7 caps …", "… clause 57, which sets …").
pub static STATING_CLAUSE: LazyLock<Finder> = LazyLock::new(|| finder("stating_clause"));
/// Where a stating clause ends after its verb ("…, which should be raised", "; this …").
pub static CLAUSE_END: LazyLock<Finder> = LazyLock::new(|| finder("clause_end"));
/// Words before a stating clause's subject that make it proposed ("a new", "whether").
pub static PROPOSED_SUBJECT_BEFORE: LazyLock<Words> =
    LazyLock::new(|| compile("proposed_subject_before"));
/// Words before a stating clause's subject that make it a condition or question ("whether").
pub static OPEN_QUESTION_BEFORE: LazyLock<Words> =
    LazyLock::new(|| compile("open_question_before"));
/// The output's own label for a comment ("Risk", "Note", "Why it matters").
pub static ANALYSIS_LABEL: LazyLock<Words> = LazyLock::new(|| compile("analysis_label"));
/// A colon lead-in of drafted text before a claim ("Consider adding: …").
pub static PROPOSED_TEXT_LEAD: LazyLock<Words> = LazyLock::new(|| compile("proposed_text_lead"));

/// A lead-in giving the quoted words to the request ("You asked:", "the prompt says", "As
/// requested,"): only such a quote, found in the prompt, is the prompt's.
pub static REQUEST_ATTRIBUTION: LazyLock<Words> = LazyLock::new(|| compile("request_attribution"));

/// A block quote's last line naming where the words are from ("— Section 5"): the block
/// quotes the source.
pub static QUOTE_ATTRIBUTION_AFTER: LazyLock<Finder> =
    LazyLock::new(|| finder("quote_attribution_after"));

/// A sentence stating, in the output's own words, what the source says ("Section 9
/// provides …", "The Agreement expires on …").
pub static SOURCE_STATEMENT: LazyLock<Words> = LazyLock::new(|| compile("source_statement"));
/// Drafting or proposal words ("shall", "should", "we recommend").
pub static DRAFTING_WORDS: LazyLock<Words> = LazyLock::new(|| compile("drafting_words"));

/// Words of a discussion of the law ("generally void under", "courts", "see").
pub static LAW_DISCUSSION: LazyLock<Words> = LazyLock::new(|| compile("law_discussion"));

/// The words before a term that say the source lacks it ("does not define", "No … clause
/// between the"), matched against the text ending where the term begins.
pub static ABSENT_BEFORE: LazyLock<Words> = LazyLock::new(|| compile("absent_before"));
/// The words after a term that say the source lacks it ("is not defined").
pub static ABSENT_AFTER: LazyLock<Words> = LazyLock::new(|| compile("absent_after"));

/// Words giving the whole of something to one side ("sole", "all", "entire"): "100%" in words.
pub static WHOLE_SHARE: LazyLock<Words> = LazyLock::new(|| compile("whole_share"));

/// Words naming the source as the place a term is defined ("the Agreement defines", "as
/// defined in the contract"): a definition shape in such a sentence is a claim about it.
pub static NAMES_THE_SOURCE: LazyLock<Words> = LazyLock::new(|| compile("names_the_source"));

/// Words by which a sentence discusses a quoted term as a word ("Ensure \"Affiliate\" is
/// defined", "\"Prompt\" is vague"): without them, a quoted term is the source's term in use.
pub static TERM_DISCUSSION: LazyLock<Words> = LazyLock::new(|| compile("term_discussion"));

/// A sentence that asks rather than states: a question, the request's question retold ("You
/// asked whether …"), an item to confirm ("[ ] Confirm … whether").
pub static OPEN_QUESTION: LazyLock<Words> = LazyLock::new(|| compile("open_question"));
/// A sentence whose subject is the courts or the law in general ("Courts … generally refuse").
pub static LAW_REMARK: LazyLock<Words> = LazyLock::new(|| compile("law_remark"));
/// Words naming another document as where a part is ("the client's own standard template").
pub static OTHER_DOCUMENT: LazyLock<Words> = LazyLock::new(|| compile("other_document"));

/// The output's title for a list summing up the source's terms ("Key dates", "Timeline
/// summary"): its items state the source's terms.
pub static SUMMARY_TITLE: LazyLock<Words> = LazyLock::new(|| compile("summary_title"));
/// A drafting word that proposes nothing: a noun of the source's subject matter or of how it
/// is written ("any proposed sale", "a negotiation period", "is drafted one-sidedly"), a
/// hedge ("would seem to").
pub static DRAFTING_WORD_NOT_PROPOSING: LazyLock<Finder> =
    LazyLock::new(|| finder("drafting_word_not_proposing"));

/// `sentence` with the drafting words that propose nothing in it
/// (`DRAFTING_WORD_NOT_PROPOSING`) blanked out, same length; `None` when it has none.
pub fn without_non_proposing(sentence: &str) -> Option<String> {
    let mut out: Option<String> = None;
    for m in DRAFTING_WORD_NOT_PROPOSING.find_iter(sentence) {
        let s = out.get_or_insert_with(|| sentence.to_string());
        s.replace_range(m.start()..m.end(), &" ".repeat(m.len()));
    }
    out
}

/// Is `sentence` the output's own statement of what the source says, not drafted or proposed
/// text? A source statement without drafting or proposal words.
pub fn states_the_source(sentence: &str) -> bool {
    SOURCE_STATEMENT.is_match(sentence) && !DRAFTING_WORDS.is_match(sentence)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_compiles_and_its_examples_hold_both_ways() {
        let all = entries();
        assert!(all.len() >= 2);
        for (name, e) in &all {
            let w = compile(name);
            assert!(!e.matches.is_empty(), "{name}: no examples");
            for m in &e.matches {
                assert!(w.is_match(m), "{name} should match: {m}");
            }
            for m in &e.not_matches {
                assert!(!w.is_match(m), "{name} should not match: {m}");
            }
        }
    }

    #[test]
    fn source_statements_are_analysis_drafted_sentences_are_not() {
        assert!(states_the_source("The Agreement expires on July 21, 2033."));
        assert!(states_the_source(
            "Section 99.4 provides that the Agreement may be terminated at will."
        ));
        assert!(!states_the_source(
            "This Agreement shall expire on July 21, 2033."
        ));
        assert!(!states_the_source(
            "The Agreement should provide for a July 21, 2033 expiry."
        ));
    }
}
