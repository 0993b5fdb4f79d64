//! `pattern`: every regex match is a hit; the check says whether a match means fail or pass.

use std::sync::Arc;

use regex::Regex;
use serde::{Deserialize, Serialize};

use super::kind::{CompiledRule, Hit, RuleContext, RuleError, RuleOutcome};
use super::markdown::ProseMap;
use super::regexes::compile_all;
use super::skip::{SkipRules, compile_skips};
use crate::model::Verdict;

/// Whether a match is evidence of a problem or evidence that the check passes.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum MatchMeans {
    #[default]
    Fail,
    Pass,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {
    patterns: Vec<String>,
    #[serde(default)]
    match_means: MatchMeans,
    /// Skip matches inside quotations, block quotes and code (the AI quoting a contract).
    #[serde(default = "super::kind::yes")]
    skip_quoted: bool,
    /// Skip hits whose sentence matches one of these (drafted clause language: "shall").
    #[serde(default)]
    skip_sentences: Vec<String>,
    /// Skip sections whose heading, and lines whose leading `Label:` or `[TAG]`, matches one
    /// of these (e.g. "Suggested Revision", "[ADD]").
    #[serde(default)]
    skip_sections: Vec<String>,
}

pub fn compile(value: serde_json::Value) -> Result<Arc<dyn CompiledRule>, RuleError> {
    let p: Params = super::kind::params(value)?;
    let re = compile_all("patterns", &p.patterns)?;
    let skips = compile_skips(&p.skip_sentences, &p.skip_sections)?;
    let mut rule = PatternRule::new(re, p.match_means, p.skip_quoted).with_skips(skips);
    rule.count = p.patterns.len();
    Ok(Arc::new(rule))
}

#[derive(Debug, Clone)]
pub struct PatternRule {
    re: Option<Regex>,
    /// How many patterns were joined into `re` (for the documentation page).
    count: usize,
    means: MatchMeans,
    skip_quoted: bool,
    skips: SkipRules,
}

impl PatternRule {
    pub fn new(re: Option<Regex>, means: MatchMeans, skip_quoted: bool) -> Self {
        PatternRule {
            count: 0,
            re,
            means,
            skip_quoted,
            skips: SkipRules::default(),
        }
    }

    /// Also skip drafted clause language (see `skip`).
    pub fn with_skips(mut self, skips: SkipRules) -> Self {
        self.skips = skips;
        self
    }

    pub fn apply(&self, text: &str, body: (usize, usize), prose: &ProseMap) -> RuleOutcome {
        let skipped = self.skips.prepare(text, prose);
        let hits: Vec<Hit> = self
            .re
            .iter()
            .flat_map(|re| re.find_iter(&text[body.0..body.1]))
            .map(|m| (body.0 + m.start(), body.0 + m.end()))
            .filter(|&(s, e)| !(self.skip_quoted && prose.is_quoted(s, e)))
            .filter(|&(s, e)| self.skips.is_empty() || !skipped.covers(s, e))
            // Hidden text (an HTML comment) is never evidence that a check passes.
            .filter(|&(s, e)| self.means == MatchMeans::Fail || !prose.is_hidden(s, e))
            .map(|(start, end)| Hit {
                source: None,
                start,
                end,
                note: format!("matched “{}”", &text[start..end]),
            })
            .collect();
        let n = hits.len();
        match (self.means, n) {
            (MatchMeans::Fail, 0) => outcome(
                Verdict::Pass,
                vec![],
                true,
                "No matching text found.".into(),
            ),
            (MatchMeans::Fail, _) => outcome(
                Verdict::Fail,
                hits,
                true,
                format!("{n} matching span(s) found."),
            ),
            (MatchMeans::Pass, 0) => outcome(
                Verdict::Fail,
                vec![],
                false,
                "No required text found.".into(),
            ),
            (MatchMeans::Pass, _) => outcome(
                Verdict::Pass,
                hits,
                false,
                format!("{n} satisfying span(s) found."),
            ),
        }
    }
}

impl CompiledRule for PatternRule {
    fn apply(&self, cx: &RuleContext) -> Option<RuleOutcome> {
        Some(PatternRule::apply(self, cx.text, cx.body, cx.prose()))
    }

    fn describe(&self) -> String {
        format!(
            "{} pattern(s); a match counts as evidence that the check {}. Quoted text, block quotes and code are skipped.",
            self.count,
            match self.means {
                MatchMeans::Fail => "fails",
                MatchMeans::Pass => "passes",
            }
        )
    }
}

fn outcome(
    verdict: Verdict,
    hits: Vec<Hit>,
    hits_are_problems: bool,
    notes: String,
) -> RuleOutcome {
    RuleOutcome {
        code: None,
        verdict,
        hits,
        hits_are_problems,
        notes,
        grounding: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(means: MatchMeans) -> PatternRule {
        PatternRule::new(
            Some(Regex::new(r"(?i)\bconsult (?:an? )?attorney\b").unwrap()),
            means,
            true,
        )
    }

    #[test]
    fn fail_meaning_flags_each_unquoted_match() {
        let t = "Consult an attorney. Then \"consult attorney\" quoted. consult attorney";
        let p = ProseMap::new(t, (0, t.len()));
        let o = rule(MatchMeans::Fail).apply(t, (0, t.len()), &p);
        assert_eq!(o.verdict, Verdict::Fail);
        assert_eq!(o.hits.len(), 2);
        assert_eq!(&t[o.hits[1].start..o.hits[1].end], "consult attorney");
        assert!(o.hits[1].start > t.find("quoted").unwrap());
    }

    #[test]
    fn pass_meaning_fails_when_absent() {
        let t = "Nothing to see.";
        let p = ProseMap::new(t, (0, t.len()));
        let o = rule(MatchMeans::Pass).apply(t, (0, t.len()), &p);
        assert_eq!(o.verdict, Verdict::Fail);
        assert!(o.hits.is_empty());
        let t = "Please consult an attorney.";
        let o = rule(MatchMeans::Pass).apply(t, (0, t.len()), &ProseMap::new(t, (0, t.len())));
        assert_eq!(o.verdict, Verdict::Pass);
        assert!(!o.hits_are_problems);
    }

    #[test]
    fn offsets_are_whole_document_when_body_is_offset() {
        let t = "---\nfm: consult attorney\n---\nconsult attorney";
        let body = (t.rfind("consult").unwrap(), t.len());
        let o = rule(MatchMeans::Fail).apply(t, body, &ProseMap::new(t, body));
        assert_eq!(o.hits.len(), 1);
        assert_eq!(o.hits[0].start, body.0);
    }
}
