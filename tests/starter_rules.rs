//! The built-in playbook's rules on real AI output (corpus: `../shared/corpus/contract-reviews`).

use std::path::PathBuf;

use byop::engine::document::Document;
use byop::engine::playbook::{LoadedPlaybook, builtin};
use byop::engine::rules::{RuleContext, RuleOutcome};
use byop::model::Verdict;
use byop::workspace::files::read_text;
use byop::workspace::{Request, Resolver};

fn check_index(pb: &LoadedPlaybook, id: &str) -> usize {
    pb.playbook
        .checks
        .iter()
        .position(|c| c.id == id)
        .unwrap_or_else(|| panic!("built-in playbook has no check `{id}`"))
}

fn apply(pb: &LoadedPlaybook, i: usize, text: &str, body: (usize, usize)) -> RuleOutcome {
    pb.compiled[i]
        .as_ref()
        .expect("check has a rule")
        .apply(&RuleContext::new(text, body))
        .expect("document-level rule")
}

fn corpus_dir() -> Option<PathBuf> {
    let dir =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/contract-reviews/outputs");
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "corpus folder {} is missing (CI must check out `shared` beside the repo)",
        dir.display()
    );
    eprintln!("note: skipping corpus test, {} not found", dir.display());
    None
}

/// Hits of `check` on `text` (the whole text is the body), as matched strings.
fn hits(pb: &LoadedPlaybook, check: &str, text: &str) -> Vec<String> {
    apply(pb, check_index(pb, check), text, (0, text.len()))
        .hits
        .iter()
        .map(|h| text[h.start..h.end].to_string())
        .collect()
}

/// `(corpus file, excerpt, expect a hit)`; every excerpt is copied verbatim from the file.
const CERTAINTY: &[(&str, &str, bool)] = &[
    // Unqualified legal claims by the AI.
    (
        "contract_004_add_clause_1__claude-sonnet-4.5",
        "- *Dowell v. Biosense Webster, Inc.* (2009) - Even narrow restrictions are unenforceable",
        true,
    ),
    (
        "contract_004_add_clause_1__claude-sonnet-4.5",
        "- **Legally enforceable** across all jurisdictions, including California",
        true,
    ),
    (
        "contract_005_add_clause_1__claude-sonnet-4.5",
        "   - These ARE enforceable in California",
        true,
    ),
    (
        "contract_005_add_clause_1__claude-sonnet-4.5",
        "**Recommendation:** Implement the enhanced Article 3 provisions above and modify the governing law clause to acknowledge California's public policy. This approach will be enforceable and provide substantial protection without violating § 16600.",
        true,
    ),
    (
        "contract_005_add_clause_1__gemini-2.5-flash",
        "1.  **Strengthen Confidentiality and Trade Secret Protections:** California courts will enforce agreements that protect legitimate trade secrets and confidential information.",
        true,
    ),
    (
        "contract_005_add_clause_1__glm-4.6",
        "1.  **Do Not Add a Traditional Non-Compete:** A clause restricting the consultant from working for competitors is void and unenforceable in California. Including it would create a false sense of security and could be struck down, potentially casting doubt on other restrictive covenants in the agreement.",
        true,
    ),
    (
        "contract_001_modify_payment_2__mistral-large",
        "3. **Alignment with SEC Rules** – Quarterly reporting remains compliant with Rule 12b-1 under the 1940 Act.",
        true,
    ),
    (
        "contract_005_add_clause_2__mistral-large",
        "     - **Moral rights waivers** are valid under **Israeli Copyright Act, 2007** (which permits waivers for **software and commercial works**).",
        true,
    ),
    (
        "contract_001_add_clause_1__mistral-large",
        "   - **Willful Misconduct**: Ensures no party can limit liability for **intentional wrongdoing**, which is unenforceable under **public policy** (see *Restatement (Second) of Contracts § 195*).",
        true,
    ),
    // Qualified: a hedge, a condition or a scope limit in the same sentence.
    (
        "contract_005_add_clause_1__gemini-2.5-flash",
        "3.  **Focus on the \"Sale of Business\" Exception (if applicable):** If the consultant is selling a business to the Company, a non-compete can be enforceable.",
        false,
    ),
    (
        "contract_004_review_3__gpt-5",
        "  (b) Inconsistent and vague scope exposes Consultant to scope creep and potential implied fiduciary/managerial duties; the garbled clause is unenforceable as written.",
        false,
    ),
    (
        "contract_002_modify_payment_2__mistral-large",
        "The annualized rate (19.56%) remains compliant with most state usury laws but should be verified against the governing law clause (if any) in the agreement.",
        false,
    ),
    (
        "contract_013_modify_2__claude-sonnet-4.5",
        "- Should be enforceable in both Delaware and New York jurisdictions",
        false,
    ),
    (
        "contract_013_modify_2__claude-sonnet-4.5",
        "This clause is drafted to be enforceable because it:",
        false,
    ),
    (
        "contract_003_add_clause_1__grok-4",
        "  - **Legal Soundness**: This clause is enforceable under Texas law, provided it is not unconscionable or against public policy (e.g., it cannot limit liability for gross negligence in certain contexts, but your exclusions mitigate this).",
        false,
    ),
    (
        "contract_004_add_clause_1__glm-4.6",
        "Given that the contract is governed by Florida law (Section 10(i)), a traditional non-compete clause would likely be enforceable under Florida law, but would be unenforceable if applied to activities in California or if the consultant were to work in California.",
        false,
    ),
    (
        "contract_005_review_3__claude-sonnet-4.5",
        "- \"Receipt whether the Company receives such notice or not\" is legally problematic and likely unenforceable",
        false,
    ),
    // Contract language reproduced or drafted, not asserted by the AI.
    (
        "contract_004_add_clause_2__claude-sonnet-4.5",
        "**(f) Moral Rights Waiver.** To the fullest extent permitted by applicable law, Consultant hereby irrevocably waives and agrees never to assert any moral rights, droit moral, or similar rights",
        false,
    ),
    (
        "contract_004_add_clause_1__gemini-2.5-flash",
        "(c) Contracts in Full Force and Effect. All contracts, agreements, plans, policies and licenses to which the Company is a party are valid and in full force and effect.",
        false,
    ),
    (
        "contract_001_modify_payment_2__qwen-2.5-72b",
        "Certainly! Below is the modified contract with the payment terms changed from monthly invoicing to quarterly invoicing.",
        false,
    ),
    (
        "contract_014_review_2__gemini-2.5-flash",
        "Article 21.10 confirms \"Parent hereby guarantees the performance by T&L of all of its obligations hereunder.\"",
        false,
    ),
    (
        "contract_004_review_3__claude-sonnet-4.5",
        "**Suggested Revision:**\n\"Either Party shall have the right to terminate this Agreement upon thirty (30) days' written notice to the other Party. In the event of termination by Company, Consultant shall be entitled to compensation for all services performed through the effective date of termination, plus any reasonable wind-down costs. Consultant shall have fifteen (15) days following termination to complete work in progress and submit final invoices.\"",
        false,
    ),
    // Sentences restating the request assert nothing.
    (
        "contract_005_add_clause_1__glm-4.6",
        "The request is to draft a non-compete clause that is enforceable under California law.",
        false,
    ),
    (
        "contract_005_add_clause_1__qwen-2.5-72b",
        "Below is the addition of a reasonable non-compete clause that restricts the consultant from working with direct competitors for 6 months post-termination within a 50-mile radius, ensuring it is enforceable under California law.",
        false,
    ),
    // Nouns and ordinary adverbs that are not legal certainty.
    (
        "contract_001_redline_3__deepseek-chat-v3",
        "3. **SLAs:** Enforces uptime guarantees with monetary credits for failures.",
        false,
    ),
    (
        "contract_017_review_2__grok-4",
        "- **Inconsistent Terminology (Low Risk):** Terms like \"Cooperation Channel\" and \"Baidu Leju\" are used interchangeably but not always consistently.",
        false,
    ),
    (
        "contract_015_summarize_1__gemini-2.5-flash",
        "The Board of Directors will have 5 to 12 members, with IMPCO nominating 3 and MIL/MINDA nominating 2, ensuring IMPCO always has a majority.",
        false,
    ),
    (
        "contract_011_review_2__deepseek-chat-v3",
        "  - Immediate termination is allowed for insolvency/bankruptcy events.",
        false,
    ),
];

const ESCALATION: &[(&str, &str, bool)] = &[
    (
        "contract_001_add_clause_1__mistral-large",
        "1. **Review with Counsel**:",
        true,
    ),
    (
        "contract_001_redline_3__gpt-5",
        "Fund counsel should confirm that fee offsets or credits do not conflict with the Plan or applicable 1940 Act guidance.",
        true,
    ),
    (
        "contract_001_redline_3__grok-4",
        "  - Compliance: Additions are drafted to align with 1940 Act requirements but should be reviewed by securities counsel.",
        true,
    ),
    (
        "contract_002_add_clause_1__mistral-large",
        "The carve-out for willful misconduct mitigates this risk, but local counsel should review if the agreement is governed by a jurisdiction with restrictive rules.",
        true,
    ),
    (
        "contract_002_redline_3__grok-4",
        "- If this contract is executed, recommend a clean version and legal review for jurisdiction-specific issues (e.g., Delaware law on enforceability).",
        true,
    ),
    (
        "contract_004_add_clause_2__claude-sonnet-4.5",
        "2. **Legal Review**: Have this clause reviewed by counsel in the relevant jurisdictions, particularly regarding moral rights waivers and work-for-hire doctrine applicability.",
        true,
    ),
    (
        "contract_004_add_clause_2__gpt-oss-120b",
        "This waiver should be reviewed for compliance with local laws, as some jurisdictions may not allow such waivers.",
        true,
    ),
    (
        "contract_004_add_clause_2__gpt-oss-120b",
        "This addition should be reviewed by legal counsel to ensure it aligns with the specific needs and legal requirements of the Company and the jurisdiction in which the Agreement is executed.",
        true,
    ),
    (
        "contract_005_add_clause_1__mistral-large",
        "4. **Consult California Counsel**:",
        true,
    ),
    (
        "contract_005_add_clause_1__o3-mini",
        "Before finalizing, it is recommended that the Company’s counsel review the clause in the context of the full Consulting Agreement and consider whether additional tailoring is needed for the specific industries and markets involved.",
        true,
    ),
    (
        "contract_009_modify_2__grok-4",
        "- **Potential Risks**: Exclusivity could raise antitrust concerns if the parties have significant market power—consult antitrust counsel.",
        true,
    ),
    (
        "contract_012_redline_1__o3-mini",
        "Before finalizing, please verify against the complete document and consult counsel to adapt any further details appropriately.",
        true,
    ),
    (
        "contract_013_modify_2__gemini-2.5-flash",
        "The effectiveness of this clause often depends on the specific facts and the interpretation of a court.",
        true,
    ),
    (
        "contract_014_summarize_1__gpt-5",
        "- Non-Compete Scope: Worldwide, up to 10 years post-exit; enforceability may vary by jurisdiction (Art. 7.2).",
        true,
    ),
    (
        "contract_015_review_2__gpt-oss-120b",
        "It is advisable to consult with legal counsel to incorporate these recommendations effectively.",
        true,
    ),
    (
        "contract_001_redline_3__mistral-large",
        "1. **Review redlines** with legal counsel to ensure alignment with Customer’s risk tolerance.",
        true,
    ),
    (
        "contract_014_review_2__deepseek-chat-v3",
        "4. The tax provisions in Article 6 are complex - recommend review by tax counsel to ensure compliance with all relevant jurisdictions.",
        true,
    ),
    (
        "contract_014_review_2__mistral-large",
        "1. **Engage a Delaware corporate attorney** to review **governing law compliance** (e.g., LLC statutes, fiduciary duties).",
        true,
    ),
    // A heading that merely mentions "Suggested Revisions" does not hide the analysis under it.
    (
        "contract_005_review_3__gemini-2.5-flash",
        "**Problematic Clauses and Suggested Revisions (from Consultant's Perspective):**\n        *   **Release Requirement:** The requirement for a \"general release and waiver of liability\" is standard but should be carefully reviewed by the Consultant's counsel.",
        true,
    ),
    // Counsel, attorneys and escalation as contract subject matter.
    (
        "contract_001_redline_3__gpt-5",
        "Integrity shall indemnify, defend, and hold harmless the Fund and its officers and trustees from and against any third‑party claims, losses, fines, penalties, costs, and expenses (including reasonable attorneys’ fees and the Fund’s reasonable costs of notice and remediation)",
        false,
    ),
    (
        "contract_014_summarize_1__gpt-oss-120b",
        "- **Dispute Resolution:** Disputes will be resolved through negotiation, with escalation to party heads if necessary.",
        false,
    ),
    (
        "contract_004_add_clause_1__mistral-large",
        "### **Final Notes for Counsel**",
        false,
    ),
    (
        "contract_002_add_clause_1__deepseek-chat-v3",
        "   (d) Any amounts finally awarded by a court of competent jurisdiction for infringement or misappropriation of intellectual property rights.",
        false,
    ),
    (
        "contract_003_add_clause_1__glm-4.6",
        "   - The acknowledgment that the limitation is \"an essential element of the bargain\" strengthens enforceability in many jurisdictions",
        false,
    ),
    (
        "contract_005_add_clause_2__mistral-large",
        "(a) **Disclosure Obligation.** The Consultant shall **promptly disclose in writing** to the Company (via the **Chief Executive Officer or General Counsel**) **all Inventions and Work Product** created during the Term",
        false,
    ),
    (
        "contract_004_add_clause_2__claude-sonnet-4.5",
        "**(h) Power of Attorney.** In the event the Company is unable to secure Consultant's signature on any document necessary to apply for, prosecute, or enforce any intellectual property right in Work Product (whether due to Consultant's unavailability, unwillingness, incapacity, or any other reason), Consultant hereby irrevocably designates and appoints the Company and its duly authorized officers an",
        false,
    ),
];

/// A real review passage (contract_004_review_3__claude-sonnet-4.5) that discloses nothing it
/// did not check; long enough that the section rule judges it.
const NEUTRAL: &str = "**Why It's Concerning:**
- Allows immediate termination upon receipt of notice with no cure period
- Consultant could be terminated mid-project without opportunity to complete work or receive compensation for work in progress
- No minimum notice period (e.g., 30 days) to allow consultant to wind down or find alternative work
- Creates significant financial instability and planning uncertainty for the consultant
";

/// `(corpus file or "brief", excerpt, expect pass)`; the excerpt is appended to `NEUTRAL`.
/// "brief" rows are the disclosure forms the task names that this corpus happens not to use.
const UNCHECKED: &[(&str, &str, bool)] = &[
    (
        "contract_001_modify_payment_2__gemini-2.5-flash",
        "Without access to the \"Plan,\" I cannot make specific redlines for this, but it is a critical point to address.",
        true,
    ),
    (
        "contract_003_modify_payment_2__gpt-oss-120b",
        "Since the specific section on payment terms is not provided in the excerpt, I will draft a general modification that can be inserted into the appropriate section of the contract.",
        true,
    ),
    (
        "contract_003_modify_payment_2__grok-4",
        "These are not addressed here, as they are outside the scope, but I flag them as potential enforceability risks requiring clarification.",
        true,
    ),
    (
        "contract_007_modify_1__grok-4",
        "  - **Ambiguity**: The contract references Schedules 1 and 2, which are not provided; ensure any sublicensing aligns with those limitations (e.g., Licensed Products, Existing Agreements, Transition Period).",
        true,
    ),
    (
        "contract_014_summarize_1__deepseek-chat-v3",
        "*Note: This summary excludes intentionally omitted sections (e.g., Article 5) and focuses on material terms.*",
        true,
    ),
    (
        "contract_015_review_2__deepseek-chat-v3",
        "   - \"Technical Know-How\" definition is circular (references Appendix A not provided)",
        true,
    ),
    (
        "contract_015_review_2__gpt-5",
        "- Missing/incorrect attachments: The Technical Assistance/Technology License Agreement (TAA) and any schedules referenced (e.g., Appendix A to TAA) are not attached.",
        true,
    ),
    (
        "contract_012_redline_1__o3-mini",
        "This sample redline is provided for guidance and illustrative purposes only. Before finalizing, please verify against the complete document and consult counsel to adapt any further details appropriately.",
        true,
    ),
    (
        "contract_016_review_2__deepseek-chat-v3",
        "   - Redacted portions make some obligations impossible to evaluate",
        true,
    ),
    (
        "contract_016_review_2__gpt-oss-120b",
        "1. **Term of Contract (Section 1)**: The term is redacted, making it unclear.",
        true,
    ),
    (
        "contract_002_modify_payment_2__grok-4",
        "  - **Incomplete Text**: Some sentences appear truncated (e.g., in Section 1 and 2(e)). Modifications do not address these unless directly related.",
        true,
    ),
    (
        "contract_014_summarize_1__gpt-5",
        "- Support Services Pricing/Scope: Material terms are in separate Support Services Agreements not included here; potential cost/scope uncertainty (Art. 11).",
        true,
    ),
    (
        "contract_010_review_2__gemini-2.5-flash",
        "Upon termination, MediaNet Group Technologies retains the customers and all future revenue from them, while the Reseller's income stream from those customers is cut off almost immediately.",
        false,
    ),
    (
        "brief",
        "## Limitations\n- Exhibits A and B were not provided.",
        true,
    ),
    // A title counts over content; one closing the output states nothing.
    (
        "brief",
        "### Assumptions and Limitations\n- The pricing schedule.",
        true,
    ),
    ("brief", "## Information needed\n- The executed copy.", true),
    (
        "brief",
        "**Items requiring further review:**\n\n1. Section 4.",
        true,
    ),
    ("brief", "Open questions:\n\n- Section 4.", true),
    ("brief", "## Information needed", false),
    (
        "brief",
        "- **Open questions**: none; the clause is final.",
        false,
    ),
    (
        "brief",
        "This review does not address tax or securities matters.",
        true,
    ),
    ("brief", "I have not reviewed the exhibits.", true),
    // Disclosures written as prose, one per pattern added for them (tune labels,
    // tests/data/labels/unchecked_areas_disclosure.json): confirm/verify a named fact, an
    // assumption, redacted or blank text, a term the text lacks, a named section to reconcile.
    (
        "contract_006_add_clause_2__gpt-5",
        "Please confirm which entities are the licensor and licensee so we can align the defined terms and signature blocks consistently throughout.",
        true,
    ),
    (
        "contract_003_modify_payment_2__claude-sonnet-4.5",
        "2. Confirm 30-day payment terms are acceptable to Principal",
        true,
    ),
    (
        "contract_001_modify_payment_2__o3-mini",
        "• Verify that the Plan referenced is amendable to such changes or, if necessary, update the Plan or any related exhibits in tandem with these revisions.",
        true,
    ),
    (
        "contract_009_modify_2__grok-4",
        "For this revision, I assume the body governs and focus on substantive changes.",
        true,
    ),
    (
        "contract_009_add_clause_1__gemini-2.5-flash",
        "It's assumed this means *ordered and paid for* by Power2Ship, not necessarily *sold to end-users*.",
        true,
    ),
    (
        "contract_001_redline_3__grok-4",
        "Added defined term for clarity, assuming NexGen is the service provider/underwriter.",
        true,
    ),
    (
        "contract_006_add_clause_2__grok-4",
        "I've adapted the language to fit, interpreting \"use\" as distribution, monetization, and compliance under Section 1.",
        true,
    ),
    (
        "contract_003_modify_payment_2__gpt-5",
        "Notes and assumptions\n- No existing monthly invoicing provisions were found; the above additions establish and standardize quarterly invoicing and a 30-day payment deadline across the agreement.",
        true,
    ),
    (
        "contract_012_redline_1__mistral-large",
        "- The original Agreement redacts the confidentiality term ([***…]).",
        true,
    ),
    // A redaction marker copied from the source is the source's blank, not a statement of
    // what the output did not check.
    (
        "contract_016_summarize_1__qwen-2.5-72b",
        "- The maximum total annual bonuses are capped at [*****] dollars for each year of the agreement.",
        false,
    ),
    (
        "contract_003_modify_payment_2__gpt-5",
        "I did not find any existing “monthly” invoicing language;",
        true,
    ),
    (
        "contract_003_modify_payment_2__glm-4.6",
        "Based on my analysis, I must inform you that the contract does not contain any explicit payment terms, such as invoicing schedules or payment deadlines.",
        true,
    ),
    (
        "contract_001_add_clause_1__grok-4",
        "Note that the Agreement does not currently contain explicit confidentiality obligations (e.g., no dedicated section on confidentiality).",
        true,
    ),
    (
        "contract_004_review_3__o3-mini",
        "The description of services, particularly Section 3(a)(iv), appears incomplete and ambiguous",
        true,
    ),
    (
        "contract_004_review_3__o3-mini",
        "• Additionally, check and remove any stray placeholders (e.g., “1 ____ ____”) to ensure that the scope is fully defined.",
        true,
    ),
    (
        "contract_004_add_clause_2__glm-4.6",
        "3. **Review Confidentiality Section**: Ensure the IP clause works in harmony with the existing confidentiality provisions in Section 6",
        true,
    ),
    (
        "contract_006_modify_1__claude-sonnet-4.5",
        "4. **Review Exhibits**: Ensure Exhibits A, B, and C do not contain conflicting provisions regarding sublicensing.",
        true,
    ),
    (
        "contract_008_add_clause_1__grok-4",
        "- Currency is USD (consistent with clause 5.3), but the insurance in clause 10.3 is in AUD—ensure consistency if adding financial obligations.",
        true,
    ),
    (
        "contract_016_review_2__claude-sonnet-4.5",
        "It's unclear which parties are actually bound.",
        true,
    ),
    (
        "contract_005_review_3__claude-sonnet-4.5",
        "- Unclear whether NexGen Analytics Inc. has any obligations or rights",
        true,
    ),
    (
        "contract_017_summarize_1__grok-4",
        "ambiguities (e.g., header discrepancies with 2024 date vs. 2010 execution) may warrant clarification for enforceability.",
        true,
    ),
    // Near misses that must not pass: contract text, a request to clarify the contract, drafted
    // "redact", a contract gap reported as a finding, a generic "please review".
    (
        "contract_001_add_clause_1__qwen-2.5-72b",
        "This is to confirm that, in consideration of the agreements hereinafter contained,",
        false,
    ),
    (
        "contract_010_review_2__deepseek-chat-v3",
        "Clarify whether **pre-paid fees (e.g., quarterly hosting) are refundable** upon termination.",
        false,
    ),
    (
        "contract_007_add_clause_2__gpt-5",
        "Licensee may withhold or redact information that is subject to attorney-client privilege",
        false,
    ),
    (
        "contract_005_review_3__grok-4",
        "I did not identify issues with every section",
        false,
    ),
    (
        "contract_010_review_2__o3-mini",
        "The Agreement does not include any specific provisions addressing inventory buyback obligations",
        false,
    ),
    (
        "contract_002_modify_payment_2__o3-mini",
        "Please review the changes carefully to ensure they align with your intended business practices.",
        false,
    ),
    (
        "contract_004_review_3__mistral-large",
        "   - Unclear who owns **work product** (e.g., business plans, reports) created by Consultant.",
        false,
    ),
    // Gaps in the CONTRACT, contract headings and drafted text: not a disclosure by the AI.
    (
        "contract_004_review_3__claude-sonnet-4.5",
        "### Missing Provisions That Should Be Added:\n\n1. **Intellectual Property Ownership** - No clear provision addressing who owns work product",
        false,
    ),
    (
        "contract_015_review_2__glm-4.6",
        "### V. Industry Best Practices Not Addressed",
        false,
    ),
    (
        "contract_005_add_clause_1__gemini-2.5-flash",
        "**Proposed Clause (with significant caveats for California enforceability):**",
        false,
    ),
    (
        "contract_007_add_clause_2__mistral-large",
        "      (i) Use of the Licensed Mark **beyond the scope of the license** granted under Section 1.1;",
        false,
    ),
    (
        "contract_014_review_2__qwen-2.5-72b",
        "- **Article 1.33 (SITE):** The definition of \"Site\" is not provided. It should be clearly defined to avoid ambiguity.",
        false,
    ),
    (
        "contract_002_modify_payment_2__claude-sonnet-4.5",
        "**Issue:** The contract does not address how to handle the initial partial quarter if the Effective Date falls mid-quarter.",
        false,
    ),
    (
        "contract_014_summarize_1__claude-sonnet-4.5",
        "**Limitation on Recourse** (Article 3.7):",
        false,
    ),
    (
        "contract_001_add_clause_1__grok-4",
        "  - **No Other Changes**: I have not modified any existing text, only added the new subsection to preserve the original tone and structure.",
        false,
    ),
    (
        "contract_004_add_clause_2__deepseek-chat-v3",
        "(a) Consultant retains ownership of all intellectual property that Consultant owned or controlled prior to entering into this Agreement or that Consultant develops independently outside the scope of this Agreement (\"Pre-Existing IP\").",
        false,
    ),
    (
        "contract_002_add_clause_1__deepseek-chat-v3",
        "**8. LIMITATION OF LIABILITY**",
        false,
    ),
];

fn table_failures(
    check: &str,
    rows: &[(&str, &str, bool)],
    got: impl Fn(&str) -> (bool, String),
) -> Vec<String> {
    rows.iter()
        .filter_map(|&(file, text, want)| {
            let (is, detail) = got(text);
            (is != want)
                .then(|| format!("{check} [{file}] expected {want}, got {is} ({detail}): {text}"))
        })
        .collect()
}

#[test]
fn certainty_language_table() {
    let pb = builtin();
    assert!(CERTAINTY.len() >= 20);
    let bad = table_failures("certainty_language", CERTAINTY, |t| {
        let h = hits(&pb, "certainty_language", t);
        (!h.is_empty(), format!("{h:?}"))
    });
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn escalation_signal_table() {
    let pb = builtin();
    assert!(ESCALATION.len() >= 20);
    let bad = table_failures("escalation_signal", ESCALATION, |t| {
        let h = hits(&pb, "escalation_signal", t);
        (!h.is_empty(), format!("{h:?}"))
    });
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn unchecked_areas_disclosure_table() {
    let pb = builtin();
    let i = check_index(&pb, "unchecked_areas_disclosure");
    assert!(UNCHECKED.len() >= 20);
    // Control: the neutral passage alone is long enough to judge and fails.
    assert_eq!(
        apply(&pb, i, NEUTRAL, (0, NEUTRAL.len())).verdict,
        Verdict::Fail
    );
    let bad = table_failures("unchecked_areas_disclosure", UNCHECKED, |t| {
        let text = format!("{NEUTRAL}\n{t}\n");
        let out = apply(&pb, i, &text, (0, text.len()));
        (out.verdict == Verdict::Pass, out.notes)
    });
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Every `required_section` check of the built-in playbooks carries its own examples (data):
/// each `disclosure` example passes and each `not_disclosure` example fails, appended to a
/// neutral passage that fails alone.
#[test]
fn required_section_examples_in_the_playbooks_hold_both_ways() {
    let mut ran = 0;
    for id in byop::engine::playbook::builtin_ids() {
        let pb = byop::engine::playbook::builtin_by_id(id).expect("built in");
        for (i, check) in pb.playbook.checks.iter().enumerate() {
            let Some(rule) = check
                .rules
                .as_ref()
                .filter(|r| r.kind == "required_section")
            else {
                continue;
            };
            let Some(examples) = rule.params.get("examples") else {
                continue;
            };
            assert_eq!(
                apply(&pb, i, NEUTRAL, (0, NEUTRAL.len())).verdict,
                Verdict::Fail
            );
            for (key, want) in [
                ("disclosure", Verdict::Pass),
                ("not_disclosure", Verdict::Fail),
            ] {
                let list = examples[key].as_array().expect("a list of examples");
                assert!(!list.is_empty(), "{}: no `{key}` examples", check.id);
                for e in list {
                    let e = e.as_str().expect("an example is a string");
                    let text = format!("{NEUTRAL}\n{e}\n");
                    let out = apply(&pb, i, &text, (0, text.len()));
                    assert_eq!(
                        out.verdict, want,
                        "{}: {key} example {e:?}: {}",
                        check.id, out.notes
                    );
                    ran += 1;
                }
            }
        }
    }
    assert!(ran >= 10, "only {ran} examples ran");
}

#[test]
fn drafted_clause_sections_are_skipped_but_the_analysis_around_them_is_not() {
    // Layout of contract_004_review_3__claude-sonnet-4.5 with an unquoted suggested clause.
    let pb = builtin();
    let t = "**Why It's Concerning:**\n- The cap is void.\n\n**Suggested Revision:**\nConsultant's liability is never enforceable beyond fees paid.\n\n**Why It Helps:**\n- This is fully enforceable.\n- **Proposed Clause:** The waiver is always valid.\n";
    assert_eq!(
        hits(&pb, "certainty_language", t),
        ["is void", "is fully enforceable"]
    );
}

#[test]
fn corpus_wide_rules_do_not_panic_and_hits_are_in_the_body() {
    let Some(dir) = corpus_dir() else { return };
    let pb = builtin();
    let dump = std::env::var("BYOP_RULES_DUMP").ok();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("read corpus dir")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.to_string_lossy().ends_with(".ai.md"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .ai.md files in {}", dir.display());
    let ids: Vec<String> = pb.playbook.checks.iter().map(|c| c.id.clone()).collect();
    // per check: [pass, fail, indeterminate], total hits, files with ≥1 hit
    let mut stats = vec![([0usize; 3], 0usize, 0usize); ids.len()];
    for path in &files {
        let text = std::fs::read_to_string(path).expect("corpus file is UTF-8");
        let doc = Document::parse(text, Some(path)).expect("corpus file parses");
        let (lo, hi) = doc.body;
        for (i, id) in ids.iter().enumerate() {
            let Some(rule) = pb.compiled[i].as_ref() else {
                continue;
            };
            let Some(out) = rule.apply(&RuleContext::new(&doc.text, doc.body)) else {
                continue;
            };
            for h in &out.hits {
                assert!(
                    lo <= h.start && h.start <= h.end && h.end <= hi,
                    "{}: {id} hit {}..{} outside body {lo}..{hi}",
                    path.display(),
                    h.start,
                    h.end
                );
                assert!(
                    doc.text.is_char_boundary(h.start) && doc.text.is_char_boundary(h.end),
                    "{}: {id} hit {}..{} not on char boundaries",
                    path.display(),
                    h.start,
                    h.end
                );
            }
            let s = &mut stats[i];
            s.0[match out.verdict {
                Verdict::Pass => 0,
                Verdict::Fail => 1,
                _ => 2,
            }] += 1;
            s.1 += out.hits.len();
            s.2 += usize::from(!out.hits.is_empty());
            if dump.as_deref() == Some(id.as_str()) {
                let name = path.file_name().unwrap().to_string_lossy();
                println!("== {name} {:?}", out.verdict);
                for h in &out.hits {
                    let ls = doc.text[..h.start].rfind('\n').map_or(0, |i| i + 1);
                    let le = doc.text[h.end..]
                        .find('\n')
                        .map_or(doc.text.len(), |i| h.end + i);
                    println!(
                        "  [{}] {}",
                        &doc.text[h.start..h.end],
                        doc.text[ls..le].trim()
                    );
                }
            }
        }
    }
    println!("corpus: {} files", files.len());
    for (i, id) in ids.iter().enumerate() {
        let (v, hits, with) = stats[i];
        if v.iter().sum::<usize>() == 0 {
            continue;
        }
        println!(
            "{id:28} pass {:3}  fail {:3}  indeterminate {:3}  hits {:5} (mean {:.2}/file, {} files with hits)",
            v[0],
            v[1],
            v[2],
            hits,
            hits as f64 / files.len() as f64,
            with
        );
    }
}

fn example(name: &str) -> Document {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(name);
    let resolved = Resolver::new()
        .resolve(Request {
            text: read_text(&path).unwrap_or_else(|e| panic!("{e}")),
            path: Some(&path),
            ..Default::default()
        })
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(resolved.problems.is_empty(), "{:?}", resolved.problems);
    resolved.doc
}

fn outcome(pb: &LoadedPlaybook, doc: &Document, check: &str) -> RuleOutcome {
    apply(pb, check_index(pb, check), &doc.text, doc.body)
}

#[test]
fn example_nda_review_trips_every_rule() {
    let pb = builtin();
    let doc = example("nda_review.ai.md");
    assert!(!doc.inputs.source_document.is_empty() && !doc.inputs.prompt.is_empty());
    let certainty = outcome(&pb, &doc, "certainty_language");
    let flagged: Vec<String> = certainty
        .hits
        .iter()
        .map(|h| {
            doc.text[h.start..h.end]
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    for claim in [
        "is fully enforceable",
        "is illegal",
        "guarantees you",
        "is void",
    ] {
        assert!(
            flagged.iter().any(|f| f == claim),
            "{claim} not flagged in {flagged:?}"
        );
    }
    assert_eq!(
        outcome(&pb, &doc, "escalation_signal").verdict,
        Verdict::Fail
    );
    assert_eq!(
        outcome(&pb, &doc, "unchecked_areas_disclosure").verdict,
        Verdict::Fail
    );
}

#[test]
fn example_msa_review_satisfies_every_rule() {
    let pb = builtin();
    let doc = example("msa_review.ai.md");
    assert!(!doc.inputs.source_document.is_empty() && !doc.inputs.prompt.is_empty());
    let certainty = outcome(&pb, &doc, "certainty_language");
    assert!(certainty.hits.is_empty(), "{:?}", certainty.hits);
    assert_eq!(
        outcome(&pb, &doc, "escalation_signal").verdict,
        Verdict::Pass
    );
    let unchecked = outcome(&pb, &doc, "unchecked_areas_disclosure");
    assert_eq!(unchecked.verdict, Verdict::Pass);
    assert!(
        unchecked
            .hits
            .iter()
            .any(|h| doc.text[h.start..h.end].contains("Not Checked / Missing Information"))
    );
}

#[test]
fn example_injection_document_loads_and_carries_the_injected_line() {
    let doc = example("injection.ai.md");
    assert!(doc.body_text().contains("Ignore previous instructions"));
    assert!(!doc.inputs.source_document.is_empty());
}
