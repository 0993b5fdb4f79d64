//! Which claims of a sentence it states as the source's, clause by clause. A sentence may
//! propose something and still assert what the contract says: in "Consider that Section 14.7
//! caps liability at $2,500,000, which should be raised" the proposal is the raising; "Section
//! 14.7 caps liability at $2,500,000" is the output's own statement of the source, to be
//! checked like any other. Only the text being proposed is drafting: a part the output would
//! create ("a new Section 14.7 that caps …"), what it wants a part to say ("we propose that
//! Section 14.7 should …"), text after a drafting lead-in ("Consider adding: …").
//!
//! The words are the lexicon's (`stating_clause`, `clause_end`, `proposed_subject_before`,
//! `open_question_before`, `proposed_text_lead`, `drafting_words`), each with examples run both ways.

use std::sync::LazyLock;

use regex::Regex;

use super::lexicon::{
    self, CLAUSE_END, DRAFTING_WORDS, OPEN_QUESTION_BEFORE, PROPOSED_SUBJECT_BEFORE,
    PROPOSED_TEXT_LEAD, STATING_CLAUSE,
};

/// A relative pronoun joining the subject to its verb ("Section 79, which requires").
static RELATIVE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i),\s+(?:which|that)\s").expect("relative regex"));

/// Is the claim starting at `start` of `sentence` (an offset into it) stated as the source's: the
/// whole sentence states the source (`lexicon::states_the_source`), or a clause of it does,
/// from its subject to where the clause ends, with no drafting word in that clause and nothing
/// before the subject making it proposed? Text after a drafting lead-in never is.
pub fn states_the_source_at(sentence: &str, start: usize) -> bool {
    let start = floor(sentence, start.min(sentence.len()));
    if PROPOSED_TEXT_LEAD.is_match(&sentence[..start]) {
        return false;
    }
    if lexicon::states_the_source(sentence) {
        return true;
    }
    STATING_CLAUSE.find_iter(sentence).any(|m| {
        if m.start() > start {
            return false;
        }
        let close = CLAUSE_END
            .find(&sentence[m.end()..])
            .map_or(sentence.len(), |c| m.end() + c.start());
        let before = &sentence[..m.start()];
        // "…, which requires …" asserts whatever question the subject stands in.
        let relative = RELATIVE.is_match(m.as_str());
        // The claim starts inside the clause (an amount's span may take the comma after it).
        start < close
            && !DRAFTING_WORDS.is_match(&sentence[m.start()..close])
            && !PROPOSED_SUBJECT_BEFORE.is_match(before)
            && (relative || !OPEN_QUESTION_BEFORE.is_match(before))
    })
}

fn floor(s: &str, i: usize) -> usize {
    crate::model::text::floor_char_boundary(s, i)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Is `claim` (its first occurrence) stated as the source's in `sentence`?
    fn stated(sentence: &str, claim: &str) -> bool {
        let s = sentence.find(claim).expect("claim in sentence");
        states_the_source_at(sentence, s)
    }

    #[test]
    fn an_assertion_about_the_contract_is_analysis_after_a_proposal_word() {
        for (sentence, claims) in [
            (
                "Consider that Section 14.7 caps liability at $2,500,000, which should be raised.",
                &["Section 14.7", "$2,500,000"][..],
            ),
            (
                "We propose revisiting clause 57, which sets the fee at $1,922,000.",
                &["clause 57", "$1,922,000"],
            ),
            (
                "The cap in Section 36.3(c) is $2,855,000, which should be raised.",
                &["Section 36.3(c)", "$2,855,000"],
            ),
            (
                "Consider whether Section 79, which requires a deposit of $1,002,000, is workable.",
                &["Section 79", "$1,002,000"],
            ),
            (
                "Consider that the Agreement, in Section 66, sets a minimum purchase of $7,150,000, which should be lowered.",
                &["Section 66", "$7,150,000"],
            ),
            (
                "We propose raising the threshold because Section 94.6 sets it at only $6,290,000.",
                &["Section 94.6", "$6,290,000"],
            ),
            (
                "Consider that Section 69.6 gives the licensor a fee of $7,506,000; this should be capped.",
                &["Section 69.6", "$7,506,000"],
            ),
            (
                "We propose that the parties revisit the deposit: Section 48.5 currently requires $8,948,000.",
                &["Section 48.5", "$8,948,000"],
            ),
        ] {
            for claim in claims {
                assert!(stated(sentence, claim), "{claim} in: {sentence}");
            }
        }
    }

    #[test]
    fn the_text_being_proposed_is_drafting() {
        for (sentence, claims) in [
            (
                "Consider adding: Section 14.7 sets the cap at $2,500,000.",
                &["Section 14.7", "$2,500,000"][..],
            ),
            (
                "Consider adding a new Section 14.7 that caps the supplier's liability at $2,500,000.",
                &["Section 14.7", "$2,500,000"],
            ),
            (
                "We propose inserting Section 14.7 (Liability Cap) to limit liability to $2,500,000.",
                &["Section 14.7", "$2,500,000"],
            ),
            (
                "We propose that Section 14.7 should cap liability at $2,500,000.",
                &["Section 14.7", "$2,500,000"],
            ),
            (
                "Consider raising the cap to $2,500,000 in a new Section 14.7.",
                &["Section 14.7", "$2,500,000"],
            ),
            (
                "We propose the following clause: Section 14.7 Limitation of Liability.",
                &["Section 14.7"],
            ),
            (
                "Consider whether the Agreement is renewable for 45 days.",
                &["45 days"],
            ),
            (
                "If Section 9 caps liability at $500,000, the customer bears the rest.",
                &["$500,000"],
            ),
            // The proposal after the stating clause is not stated by it.
            (
                "Section 9 sets a cap of $1,000,000, which should be raised to $3,000,000.",
                &["$3,000,000"],
            ),
            (
                "Section 9 provides a cap; we propose $1,000,000 instead.",
                &["$1,000,000"],
            ),
        ] {
            for claim in claims {
                assert!(!stated(sentence, claim), "{claim} in: {sentence}");
            }
        }
        assert!(stated(
            "Section 9 sets a cap of $1,000,000, which should be raised to $3,000,000.",
            "$1,000,000"
        ));
    }
}
