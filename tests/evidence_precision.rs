//! Precision of the high-severity "not in the source" tier: the classes of false finding a
//! reading of every whole-corpus finding against its source turned up, one general rule each.
//! Every row is a REAL corpus sentence (../shared/corpus/contract-reviews, with a real excerpt
//! of its source contract) and its expected outcome — set aside with the expected reason,
//! demoted to a lower tier, or grounded — beside a near-identical sentence with an invention
//! planted, which must still be flagged "not in the source".

mod support;

use byop::model::SetAside;
use support::evidence::{Inputs, apply, flagged};

/// What a check must do with the row's span.
#[derive(Debug, Clone, Copy)]
enum Expect {
    /// A high-severity finding ("not in the source").
    Flagged,
    /// Examined and found in the source (no finding).
    Grounded,
    /// Not judged, with this reason recorded.
    SetAside(SetAside),
    /// A quote found only as a paraphrase: `quotes_paraphrased` flags it, `quotes_grounded`
    /// does not.
    Paraphrase,
}

struct Row {
    cause: &'static str,
    check: &'static str,
    source: &'static str,
    output: &'static str,
    span: &'static str,
    expect: Expect,
}

const SRC_004: &str = "3. Consulting Services. Consultant shall assist the Company with developing business plans.\n11. Non-Circumvention. The Company shall not circumvent Consultant.\n";
const SRC_006: &str = "18. Audit. Each Party may, at its own expense, audit the other Party's compliance with this Agreement, including but not limited to, auditing the other Party's representations and warranties.   19. Counterparts. This Agreement may be executed in any number of counterparts.\n";
const SRC_010: &str = "placement.\n\n5.   PROPRIETARY RIGHTS\n\n5.1 OWNERSHIP. RESELLER understands and agrees that MediaNet Group Technologies is the exclusive owner.\n\n9.1 Either party may terminate this Agreement on thirty days notice.\n\n10.2 Payments under Section 8 survive termination.\n";
const SRC_015: &str = "15.3   The price per share in the sale described in Article 15.2 above shall be i) the price determined in accordance with the regulations of the Securities and Exchange Board of India or the Reserve Bank of India, if applicable or, ii) in case no Government Regulations apply to price determination, then fair market price as determined by an international auditing firm or other expert designated by the party who would purchase shares from the defaulting party, whichever is lower; and   ARTICLE - 16 TERM AND TERMINATION\n";
const SRC_017: &str = "ARTICLE III TERM OF THIS AGREEMENT   3.1 Term   (a) This Agreement will be effective as of the date of its execution, and term of the Cooperation will be four years from the date on which the channel is uploaded.   3.2 Extension   Upon expiration of this Agreement, with all conditions being equal, Party B has the preferential right to continue Cooperation with Party A in respect of the real estate channel.   5.6 Party B will be responsible for advertising operation of the real estate channel. Party B has sole discretion to conduct advertising operation, and any gains, liabilities, duties, taxes and expenses arising therefrom will be owned or paid by Party B.   5.7 Party B will pay the channel cooperation fee provided under this Agreement.\n";

/// contract_006_add_clause_2 mistral-large: its drafted clause, then its rationale, then `$tail`.
macro_rules! own_clause {
    ($tail:literal) => {
        concat!(
            "### **Proposed Addition: Audit Rights Clause**\n**[ADD]**\n**(c) Costs of Audit.**\n   - If the audit reveals **no material breach** (defined as a deviation of **less than 5%** from Licensee’s obligations under this Agreement), **Licensee shall bear no cost**, and Licensor shall be responsible for all audit expenses, including the auditor’s fees.\n\n**[END ADD]**\n\n---\n\n### **Key Legal Considerations & Rationale**\n3. **Cost Allocation**\n",
            $tail
        )
    };
}

const ROWS: &[Row] = &[
    // A statute the output discusses: the statute speaking is the law's text, not the contract's.
    Row {
        cause: "statute as the subject of its own words (004_add_clause_1 claude-sonnet-4.5)",
        check: "entities_grounded",
        source: SRC_004,
        output: "### Legal Impediment\n\n**California Business and Professions Code § 16600** states:\n> \"Except as provided in this chapter, every contract by which anyone is restrained from engaging in a lawful profession, trade, or business of any kind is to that extent void.\"\n",
        span: "Professions Code § 16600",
        expect: Expect::SetAside(SetAside::LawDiscussion),
    },
    Row {
        cause: "statute planted: the Agreement said to incorporate it",
        check: "entities_grounded",
        source: SRC_004,
        output: "The Agreement incorporates California Business and Professions Code § 16600 as its non-compete standard.\n",
        span: "Professions Code § 16600",
        expect: Expect::Flagged,
    },
    // The output's own slogan for its drafted clause, in bold quotation marks.
    Row {
        cause: "a quote summing up the output's own drafted clause (006_add_clause_2 mistral-large)",
        check: "quotes_grounded",
        source: SRC_006,
        output: own_clause!(
            "   - **\"No material breach, no cost\"** incentivizes Licensee compliance while protecting it from frivolous audits.\n"
        ),
        span: "No material breach, no cost",
        expect: Expect::SetAside(SetAside::QuotesOwnText),
    },
    Row {
        cause: "quote planted beside the drafted clause: words the clause does not have",
        check: "quotes_grounded",
        source: SRC_006,
        output: own_clause!(
            "   - **\"No audit within any five-year renewal period\"** protects Licensee from frivolous audits.\n"
        ),
        span: "No audit within any five-year renewal period",
        expect: Expect::Flagged,
    },
    // A short paraphrase of a long clause, with an abbreviation.
    Row {
        cause: "paraphrase with an abbreviation of a 60-word clause (015_review_2 glm-4.6)",
        check: "quotes_grounded",
        source: SRC_015,
        output: "| **15.2** | Default buyout price uses \"lower of FMV or regulatory price\" | [MODIFY] to \"fair market value\" only |\n",
        span: "lower of FMV or regulatory price",
        expect: Expect::Paraphrase,
    },
    Row {
        cause: "quote planted: a price basis the clause does not have",
        check: "quotes_grounded",
        source: SRC_015,
        output: "| **15.2** | Default buyout price uses \"lower of FMV or audited book value\" | [MODIFY] to \"fair market value\" only |\n",
        span: "lower of FMV or audited book value",
        expect: Expect::Flagged,
    },
    // A term the output says is absent.
    Row {
        cause: "term inside an absent clause (010_review_2 gpt-5)",
        check: "entities_grounded",
        source: SRC_010,
        output: "- No order‑of‑precedence clause between the Agreement and Schedules/Addenda. This exacerbates the direct conflict between Section 9.1 and the Schedule “TERMINATION” clause.\n",
        span: "Agreement and Schedules",
        expect: Expect::SetAside(SetAside::SaidAbsent),
    },
    Row {
        cause: "term planted: said to be defined by the Agreement",
        check: "entities_grounded",
        source: SRC_010,
        output: "- The Agreement defines \"Revenue Holdback Amount\" in Section 9.1. This exacerbates the direct conflict between Section 9.1 and the Schedule clause.\n",
        span: "Revenue Holdback Amount",
        expect: Expect::Flagged,
    },
    // "100%" for the source's "sole" / "all".
    Row {
        cause: "100% for the source's sole discretion and any gains (017_summarize_1 claude-sonnet-4.5)",
        check: "entities_grounded",
        source: SRC_017,
        output: "**Revenue Rights:** Party B retains 100% of advertising revenue generated from the cooperation channel and has sole discretion over pricing, specifications, and content.\n",
        span: "100%",
        expect: Expect::Grounded,
    },
    Row {
        cause: "percentage planted: a share the source does not give",
        check: "entities_grounded",
        source: SRC_017,
        output: "**Revenue Rights:** Party B retains 60% of advertising revenue generated from the cooperation channel and has sole discretion over pricing, specifications, and content.\n",
        span: "60%",
        expect: Expect::Flagged,
    },
    Row {
        cause: "100% planted: of a revenue the source never gives whole",
        check: "entities_grounded",
        source: SRC_017,
        output: "**Revenue Rights:** Party B retains 100% of membership revenue generated from the cooperation channel under the Agreement.\n",
        span: "100%",
        expect: Expect::Flagged,
    },
    // A reworded term in the output's own label.
    Row {
        cause: "reworded term in a bold label (017_summarize_1 mistral-large)",
        check: "entities_grounded",
        source: SRC_017,
        output: "**Key Flags for Legal Review:**\n1. **Ambiguity in \"Equal Terms\" for Renewal (Article 3.2):** No definition of \"equal conditions\" for **Party B’s** preferential right.\n",
        span: "Equal Terms",
        expect: Expect::SetAside(SetAside::Label),
    },
    Row {
        cause: "term planted in the text after the label",
        check: "entities_grounded",
        source: SRC_017,
        output: "**Key Flags for Legal Review:**\n1. **Renewal (Article 3.2):** The Agreement renews Party B's right on \"Equal Terms\" only.\n",
        span: "Equal Terms",
        expect: Expect::Flagged,
    },
    // A list led in by the output's proposal describes the proposal.
    Row {
        cause: "a value in an item under a proposal's lead-in (004_add_clause_1 gemini-2.5-flash)",
        check: "entities_grounded",
        source: SRC_004,
        output: "The proposed clause attempts to navigate these restrictions by:\n\n1.  **Focusing on Confidential Information and Trade Secrets:** It explicitly links the restriction to the Consultant's access to and use of the Company's confidential information and trade secrets.\n2.  **Limited Duration (6 months):** While California disfavors even short durations, a shorter period is less likely to be seen as an undue burden than a longer one.\n",
        span: "6 months",
        expect: Expect::SetAside(SetAside::RecommendationList),
    },
    Row {
        cause: "duration planted: the same item under a lead-in stating the Agreement's terms",
        check: "entities_grounded",
        source: SRC_004,
        output: "The Agreement restricts the Consultant as follows:\n\n1.  **Focusing on Confidential Information and Trade Secrets:** It explicitly links the restriction to the Consultant's access to and use of the Company's confidential information and trade secrets.\n2.  **Limited Duration (6 months):** While California disfavors even short durations, a shorter period is less likely to be seen as an undue burden than a longer one.\n",
        span: "6 months",
        expect: Expect::Flagged,
    },
    // The one real fabrication among the findings stays one.
    Row {
        cause: "a termination right after 3 years the source does not give (017_summarize_1 glm-4.6)",
        check: "entities_grounded",
        source: SRC_017,
        output: "- **Termination Rights**:\n  - Party B may terminate after 3 years with 30-day notice\n  - Either party may terminate for material breach\n",
        span: "3 years",
        expect: Expect::Flagged,
    },
];

fn has_hit(check: &str, row: &Row) -> bool {
    let inputs = Inputs {
        source: Some(row.source),
        ..Default::default()
    };
    let o = apply(check, row.output, &inputs);
    flagged(&o, row.output)
        .iter()
        .any(|s| s.trim_matches(['*', '"', '“', '”', ' ']) == row.span)
}

/// What the check did with the row's span: `Some(reason)` when set aside, with the counts.
fn outcome(row: &Row) -> (Option<SetAside>, usize) {
    let inputs = Inputs {
        source: Some(row.source),
        ..Default::default()
    };
    let o = apply(row.check, row.output, &inputs);
    let g = o
        .grounding
        .expect("a grounding check accounts for its claims");
    let at = row.output.find(row.span).expect("span in output");
    let reason = g
        .set_aside
        .iter()
        .find(|s| s.start <= at && at < s.end.max(s.start + 1))
        .map(|s| s.reason);
    (reason, g.counts.grounded)
}

#[test]
fn each_false_finding_class_is_set_aside_demoted_or_grounded_and_inventions_still_flagged() {
    let mut failures = Vec::new();
    for row in ROWS {
        let flagged_high = has_hit(row.check, row);
        let (reason, grounded) = outcome(row);
        let ok = match row.expect {
            Expect::Flagged => flagged_high && reason.is_none(),
            Expect::Grounded => !flagged_high && reason.is_none() && grounded > 0,
            Expect::SetAside(r) => !flagged_high && reason == Some(r),
            Expect::Paraphrase => {
                !flagged_high && reason.is_none() && has_hit("quotes_paraphrased", row)
            }
        };
        if !ok {
            failures.push(format!(
                "{}: expected {:?}; high finding {flagged_high}, set aside {reason:?}",
                row.cause, row.expect
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
