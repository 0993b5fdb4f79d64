//! What a grounding check did with every claim it read: counts per outcome, and each claim
//! it set aside (or could not resolve) with a typed reason, so that a `pass` can be read as
//! "every claim was examined" or "these claims were not, and here is why".

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The kind of claim about the source a grounding check reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimKind {
    /// A passage presented as quoted from the source.
    Quote,
    /// "Section 7.2(b)", "Exhibit C", "§ 4".
    Reference,
    Amount,
    Percentage,
    Duration,
    Date,
    DefinedTerm,
    Organisation,
    Person,
    /// A statute or case citation ("15 U.S.C. § 78j", "Smith v. Jones").
    LegalCitation,
}

impl ClaimKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ClaimKind::Quote => "quote",
            ClaimKind::Reference => "reference",
            ClaimKind::Amount => "amount",
            ClaimKind::Percentage => "percentage",
            ClaimKind::Duration => "duration",
            ClaimKind::Date => "date",
            ClaimKind::DefinedTerm => "defined_term",
            ClaimKind::Organisation => "organisation",
            ClaimKind::Person => "person",
            ClaimKind::LegalCitation => "legal_citation",
        }
    }
}

/// Why a claim was not judged against the source. Every variant but
/// [`SetAside::SourceNumberingUnreadable`] says the span is not a claim about the source
/// (whose text it is, or what it does instead); that one says the claim could not be
/// resolved, which makes the check `indeterminate` rather than `pass`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SetAside {
    /// Under a heading, or after a line label, that introduces drafted or proposed text
    /// ("Proposed Language", "[ADD]", "Redline:").
    DraftingSection,
    /// In a sentence written in drafting or recommendation language ("shall", "we
    /// recommend", "should be increased to").
    DraftingSentence,
    /// Inside a clause the output drafts itself (a numbered clause in drafting language that
    /// the source does not have, `[ADD: …]`).
    DraftedClause,
    /// A quote introduced as new language ("replace with:", "add:", "e.g.").
    NewLanguageLeadIn,
    /// A quote of the output's own redline marker ("[ADD] …") or of its own drafted text.
    QuotesOwnText,
    /// A formula the output writes ("Price = Cost × 1.05").
    Equation,
    /// A quote of the prompt, not of the source.
    QuotesPrompt,
    /// A section of a statute ("Companies Act, 2013: … Section 188").
    Statute,
    /// The output says the part or term is not there ("Section 12 does not exist").
    SaidAbsent,
    /// "this Section": the output's own text.
    SelfReference,
    /// A part the output numbers or introduces itself ("added as Section 8.7").
    OwnNumbering,
    /// Inside a quotation: the quote checks speak for it.
    InsideQuote,
    /// A party to a court case ("Edwards v. Arthur Andersen LLP").
    CaseName,
    /// A defined term the output is defining (`(the "Audit Notice")`).
    Definition,
    /// A fact in a sentence that does not point at the source (no claim marker).
    NoClaimMarker,
    /// An item of a list whose lead-in recommends something.
    RecommendationList,
    /// A value or term the output's own drafted text states.
    DraftedValue,
    /// A quote shorter than the check's `min_words`: a term, not a passage.
    ShortQuote,
    /// The source's numbering could not be read, so no reference can be resolved.
    SourceNumberingUnreadable,
    /// A quote not found while the document's fuzzy-matching budget was spent: it was not
    /// searched everywhere, so it is not called absent (the check is `indeterminate`).
    MatchingBudgetSpent,
    /// A citation in a discussion of the law ("generally void under … § 16600"), or a value in
    /// a remark on the law in general ("Courts … generally refuse to enforce non-competes,
    /// whether they last 6 months or 2 years"), not a statement of what the source says.
    LawDiscussion,
    /// A term in the output's own heading or opening bold label ("**Ambiguity in “Equal
    /// Terms” for Renewal:**"): its title for the point, in its own words.
    Label,
    /// A figure in parentheses restating the figure before it in another unit or period
    /// ("$8,500/month ($102,000/year)"): the output's own arithmetic.
    Conversion,
    /// A sentence that asks rather than states: a question, the request's question retold
    /// ("You asked whether …"), an item to confirm ("[ ] Confirm … whether …").
    OpenQuestion,
    /// A part of another document than the source ("the client's own standard template …
    /// Article 16").
    OtherDocument,
}

impl SetAside {
    /// The claim could not be resolved (the check cannot pass on it).
    pub fn unresolved(self) -> bool {
        matches!(
            self,
            SetAside::SourceNumberingUnreadable | SetAside::MatchingBudgetSpent
        )
    }

    pub fn as_str(self) -> &'static str {
        match self {
            SetAside::DraftingSection => "drafting_section",
            SetAside::DraftingSentence => "drafting_sentence",
            SetAside::DraftedClause => "drafted_clause",
            SetAside::NewLanguageLeadIn => "new_language_lead_in",
            SetAside::QuotesOwnText => "quotes_own_text",
            SetAside::Equation => "equation",
            SetAside::QuotesPrompt => "quotes_prompt",
            SetAside::Statute => "statute",
            SetAside::SaidAbsent => "said_absent",
            SetAside::SelfReference => "self_reference",
            SetAside::OwnNumbering => "own_numbering",
            SetAside::InsideQuote => "inside_quote",
            SetAside::CaseName => "case_name",
            SetAside::Definition => "definition",
            SetAside::NoClaimMarker => "no_claim_marker",
            SetAside::RecommendationList => "recommendation_list",
            SetAside::DraftedValue => "drafted_value",
            SetAside::ShortQuote => "short_quote",
            SetAside::SourceNumberingUnreadable => "source_numbering_unreadable",
            SetAside::MatchingBudgetSpent => "matching_budget_spent",
            SetAside::LawDiscussion => "law_discussion",
            SetAside::Label => "label",
            SetAside::Conversion => "conversion",
            SetAside::OpenQuestion => "open_question",
            SetAside::OtherDocument => "other_document",
        }
    }

    /// What the reason means, for a reader of the text report.
    pub fn describe(self) -> &'static str {
        match self {
            SetAside::DraftingSection => "under a heading or label for drafted or proposed text",
            SetAside::DraftingSentence => "a sentence in drafting or recommendation language",
            SetAside::DraftedClause => "inside a clause the output drafts",
            SetAside::NewLanguageLeadIn => "a quote introduced as new language",
            SetAside::QuotesOwnText => "the output quoting its own drafted text",
            SetAside::Equation => "a formula the output writes",
            SetAside::QuotesPrompt => "a quote of the prompt",
            SetAside::Statute => "a statute's section",
            SetAside::SaidAbsent => "the output says it is not there",
            SetAside::SelfReference => "the output's own section (\"this Section\")",
            SetAside::OwnNumbering => "a part the output numbers itself",
            SetAside::InsideQuote => "inside a quotation (the quote checks read it)",
            SetAside::CaseName => "a party to a court case",
            SetAside::Definition => "a term the output defines",
            SetAside::NoClaimMarker => "its sentence does not point at the source",
            SetAside::RecommendationList => "an item of a recommendation's list",
            SetAside::DraftedValue => "a value the output's drafted text states",
            SetAside::ShortQuote => "a quote too short to be a passage",
            SetAside::SourceNumberingUnreadable => "the source's numbering could not be read",
            SetAside::MatchingBudgetSpent => {
                "not searched everywhere: the document's quotes used up its matching budget"
            }
            SetAside::LawDiscussion => "a discussion of the law, not of the source",
            SetAside::Label => "a term in the output's own heading or label",
            SetAside::Conversion => "a figure restating the one before it in other units",
            SetAside::OpenQuestion => "a question, not a statement",
            SetAside::OtherDocument => "a part of another document than the source",
        }
    }
}

/// How many claims a grounding check read and what each came to.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroundingCounts {
    /// Claims judged against the source (grounded + not found + misquoted + paraphrased).
    pub examined: usize,
    pub grounded: usize,
    /// Judged and not in the source (the check's findings).
    pub not_found: usize,
    /// Judged and found only approximately (a misquote).
    pub misquoted: usize,
    /// Judged: the source's content in other words inside quotation marks.
    #[serde(default)]
    pub paraphrased: usize,
    /// Read but not judged: not claims about the source (`set_aside_by_reason`) or not
    /// resolvable (`source_numbering_unreadable`).
    pub set_aside: usize,
    /// `set_aside` per reason; every reason with a count of at least one.
    pub set_aside_by_reason: BTreeMap<SetAside, usize>,
}

impl GroundingCounts {
    /// Claims that could not be resolved: the check cannot pass while there are any.
    pub fn unresolved(&self) -> usize {
        self.set_aside_by_reason
            .iter()
            .filter(|(r, _)| r.unresolved())
            .map(|(_, n)| n)
            .sum()
    }

    /// "quotes_prompt 2, drafting_section 5" (empty when nothing was set aside).
    pub fn reasons_line(&self) -> String {
        self.set_aside_by_reason
            .iter()
            .map(|(r, n)| format!("{} {n}", r.as_str()))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// One claim a grounding check set aside, where it is and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkippedClaim {
    pub kind: ClaimKind,
    /// The claim's text (at most about 120 characters).
    pub text: String,
    /// Byte offsets into the checked document.
    pub byte_range: (usize, usize),
    /// 1-based line and column (in characters) of its start.
    pub line: usize,
    pub column: usize,
    pub reason: SetAside,
}
