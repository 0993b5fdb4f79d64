//! A grounding check's parameters as a playbook writes them, compiled.

use serde::Deserialize;

use super::GroundingRule;
use crate::engine::citations::{Tier, Tiers};
use crate::engine::grounding::EntityKind;
use crate::engine::rules::kind::{self, RuleError};
use crate::engine::rules::regexes::compile_all;
use crate::engine::rules::skip::{SkipRules, compile_skips};
use crate::model::ClaimKind;

/// Parameters every grounding kind shares.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Params {
    #[serde(default)]
    skip_sentences: Vec<String>,
    #[serde(default)]
    skip_sections: Vec<String>,
    /// Text just before a quote that makes it new language, not the source's.
    #[serde(default)]
    not_source_lead_in: Vec<String>,
    /// quotes: shorter quotes are terms, not passages (default 4 words).
    #[serde(default)]
    min_words: Option<usize>,
    /// quotes: which tier this check reports: `unlocated` (not in the source), `misquoted`
    /// or `paraphrased`.
    #[serde(default)]
    flag: Option<FlagName>,
    /// quotes: where the tiers part (the same for every quote check of a playbook).
    #[serde(default)]
    tiers: Option<TierParams>,
    /// entities: a stated fact is a claim about the source only when its sentence (or line)
    /// also points at the source ("Section 4 provides", "the Agreement", "currently").
    #[serde(default)]
    claim_markers: Vec<String>,
    /// entities: which kinds to check (default all): amount, percentage, duration, date,
    /// defined_term, organisation, person.
    #[serde(default)]
    kinds: Vec<KindName>,
    /// Words that attribute what follows to the source ("Section 5 provides", "Current:").
    /// Attribution wins over drafted-ness: such a quote or value is always a claim, unless a
    /// proposal (`proposal_after`) comes between the attribution and it.
    #[serde(default)]
    source_attribution: Vec<String>,
    #[serde(default)]
    proposal_after: Vec<String>,
}

/// The quote tier a quote check reports, as a playbook names it.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "snake_case")]
enum FlagName {
    Unlocated,
    Misquoted,
    Paraphrased,
}

impl FlagName {
    fn tier(self) -> Tier {
        match self {
            FlagName::Unlocated => Tier::NotInSource,
            FlagName::Misquoted => Tier::Misquote,
            FlagName::Paraphrased => Tier::Paraphrase,
        }
    }
}

/// An entity kind as a playbook names it.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "snake_case")]
enum KindName {
    Amount,
    Percentage,
    Duration,
    Date,
    DefinedTerm,
    #[serde(alias = "organization")]
    Organisation,
    Person,
    LegalCitation,
}

impl KindName {
    fn entity(self) -> EntityKind {
        match self {
            KindName::Amount => EntityKind::Money,
            KindName::Percentage => EntityKind::Percent,
            KindName::Duration => EntityKind::Duration,
            KindName::Date => EntityKind::Date,
            KindName::DefinedTerm => EntityKind::DefinedTerm,
            KindName::Organisation => EntityKind::Organization,
            KindName::Person => EntityKind::Person,
            KindName::LegalCitation => EntityKind::LegalCitation,
        }
    }
}

/// The claim kind of an entity.
pub(super) fn claim_kind(k: EntityKind) -> ClaimKind {
    match k {
        EntityKind::Money => ClaimKind::Amount,
        EntityKind::Percent => ClaimKind::Percentage,
        EntityKind::Duration => ClaimKind::Duration,
        EntityKind::Date => ClaimKind::Date,
        EntityKind::DefinedTerm => ClaimKind::DefinedTerm,
        EntityKind::Organization => ClaimKind::Organisation,
        EntityKind::Person => ClaimKind::Person,
        EntityKind::LegalCitation => ClaimKind::LegalCitation,
    }
}

/// The thresholds between a quote's tiers (see `citations::Tiers`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TierParams {
    misquote_min_similarity: f64,
    paraphrase_min_shared: f64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum What {
    Quotes {
        min_words: usize,
        flag: Tier,
        tiers: Tiers,
    },
    References,
    Entities,
}

pub(super) fn compile_with(
    value: serde_json::Value,
    what: What,
) -> Result<GroundingRule, RuleError> {
    let p: Params = kind::params(value)?;
    let what = match what {
        What::Quotes { .. } => {
            let flag = p.flag.map_or(Tier::NotInSource, FlagName::tier);
            let tiers = match &p.tiers {
                None => Tiers::DEFAULT,
                Some(t) => {
                    let unit = |v: f64| (0.0..=1.0).contains(&v);
                    if !unit(t.misquote_min_similarity) || !unit(t.paraphrase_min_shared) {
                        return Err(RuleError::at(
                            vec![kind::Seg::key("tiers")],
                            "tier thresholds are shares between 0 and 1",
                        ));
                    }
                    Tiers {
                        misquote_min: t.misquote_min_similarity,
                        paraphrase_min: t.paraphrase_min_shared,
                    }
                }
            };
            What::Quotes {
                min_words: p.min_words.unwrap_or(4).max(1),
                flag,
                tiers,
            }
        }
        w => w,
    };
    let kinds = p.kinds.iter().map(|k| k.entity()).collect();
    Ok(GroundingRule {
        what,
        skips: SkipRules {
            nouns_blanked: true,
            ..compile_skips(&p.skip_sentences, &p.skip_sections)?
        },
        lead_in: compile_all("not_source_lead_in", &p.not_source_lead_in)?,
        markers: compile_all("claim_markers", &p.claim_markers)?,
        kinds,
        attribution: compile_all("source_attribution", &p.source_attribution)?,
        proposal: compile_all("proposal_after", &p.proposal_after)?,
    })
}
