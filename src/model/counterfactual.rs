//! The counterfactual audit result: `{"byop_counterfactual": …}` (docs/contracts.md, Counterfactual audit).
//!
//! Field names and order are part of the published result (`schemas/counterfactual.schema.json`); extras are additive and marked.

use serde::{Deserialize, Serialize};

use super::Verdict;
use super::report::{EvaluatorInfo, PresentationRules};

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CounterfactualEnvelope {
    pub byop_counterfactual: Counterfactual,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Counterfactual {
    pub spec_version: String,
    pub playbook_id: String,
    pub playbook_version: String,
    /// RFC 3339, UTC.
    pub timestamp: String,
    /// Path of the audited document.
    pub document: String,
    pub evaluator: EvaluatorInfo,
    pub seed: u64,
    /// Pairs per check × cue.
    pub pairs: u32,
    /// sha256 of the document, its source and its prompt with every cue slot blanked:
    /// identical for every variant (the facts held fixed).
    pub facts_hash: String,
    pub cues: Vec<CueInfo>,
    pub results: Vec<CueResult>,
    pub warnings: Vec<String>,
    pub integrity: CounterfactualIntegrity,
    pub presentation_rules: PresentationRules,
    // ---- extras ----
    /// Stable id in the store (sha256 prefix of the content without it).
    #[serde(default)]
    pub audit_id: String,
    /// True when a placebo cue moved a verdict significantly: nothing else can be trusted.
    #[serde(default)]
    pub evaluator_unstable: bool,
    /// The TOST margin on the log odds (± M).
    #[serde(default)]
    pub margin: f64,
    /// Evaluator calls made (not served from the cache) and served from the cache.
    #[serde(default)]
    pub calls: CallCounts,
    /// How the order within pairs was drawn.
    #[serde(default)]
    pub design: Design,
    /// Every trial: one record per pair and side, so the pairs can be analysed again
    /// (`byop counterfactual --format jsonl` writes them one per line). Empty in audits
    /// saved before trials were kept.
    #[serde(default)]
    pub trials: Vec<Trial>,
}

/// Which side of a pair a trial is.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum CueCondition {
    Control,
    Treatment,
}

/// One side of one pair: what the evaluator saw (cue, condition, value, run index) and
/// what it answered. Field names follow the paired-trial log of the B.A.I.L.I.F.F.
/// design where one applies (`trial_id`, `case_identifier`, `model_identifier`,
/// `cue_name`, `cue_condition`, `cue_value`, `seed`, `verdict`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Trial {
    /// `<check>/<cue>/<pair>/<condition>`: unique within the audit (the JSONL export
    /// puts the audit's id beside it).
    pub trial_id: String,
    /// The audited document.
    pub case_identifier: String,
    /// `provider/model` of the evaluator.
    pub model_identifier: String,
    pub check_id: String,
    pub cue_name: String,
    pub cue_condition: CueCondition,
    pub cue_value: String,
    pub placebo: bool,
    /// 1-based pair number within the check × cue.
    pub pair: u32,
    /// The run index both sides of the pair were evaluated with.
    pub run: u32,
    /// The audit's seed (pair order, treatment values and resampling are drawn from it).
    pub seed: u64,
    /// `pass`, `fail` or `indeterminate` (an indeterminate answer or a failed call).
    pub verdict: Verdict,
    /// The error kind when the call failed (no answer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// `sha256:` of the evaluator's notes, when it answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes_sha256: Option<String>,
    /// Served from the response cache instead of a new call.
    pub cached: bool,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct CallCounts {
    pub planned: usize,
    pub made: usize,
    pub cached: usize,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Design {
    /// "blocked_permutations": within each block of two pairs one is evaluated
    /// control-first and the other treatment-first, which one drawn from the seed.
    pub randomization: String,
    pub block_size: u32,
    /// Where the cue slots came from: "document", "prompt", "front_matter", "default_framing".
    pub slot_sources: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CueInfo {
    pub name: String,
    pub placebo: bool,
    pub control: String,
    pub treatment: Vec<String>,
    // ---- extras ----
    pub slot: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CueResult {
    pub check_id: String,
    pub cue: String,
    /// Pairs with a determinate outcome on both sides.
    pub n_pairs: u32,
    /// Pairs left out because a side was indeterminate (or the call failed).
    pub n_excluded: u32,
    /// Discordant pairs where only the treatment failed.
    pub b: u32,
    /// Discordant pairs where only the control failed.
    pub c: u32,
    pub flip_rate: f64,
    pub mcnemar_exact_p: f64,
    /// Without continuity correction.
    pub mcnemar_chi2_p: f64,
    /// ln(b / c) (0.5 added to both when either is zero): > 0, the treatment fails more.
    pub log_odds: f64,
    pub log_odds_se: f64,
    pub ci95: [f64; 2],
    /// Benjamini–Hochberg adjusted exact p across every check × cue of the run.
    pub bh_p: f64,
    pub tost: Tost,
    pub ri_p: f64,
    // ---- extras ----
    /// With continuity correction.
    pub mcnemar_chi2_cc_p: f64,
    pub placebo: bool,
    /// bh_p < 0.05.
    pub significant: bool,
    /// Treatment fail rate minus control fail rate over the counted pairs, with a
    /// seeded wild bootstrap interval (beside McNemar's test of the same pairs).
    #[serde(default)]
    pub paired_difference: PairedDifference,
    /// Each side's fail rate corrected for the check's known detector error rates, when
    /// the catalog gives them (`detector_rates`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measurement: Option<Measurement>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct PairedDifference {
    pub estimate: f64,
    pub ci95: [f64; 2],
    /// "wild_bootstrap_rademacher".
    pub method: String,
    pub draws: u32,
    /// The seed the signs were drawn from (the audit's, plus the row's index).
    pub seed: u64,
}

/// Fail rates read by a detector with known error rates, raw and corrected.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Measurement {
    /// P(reads fail | truly not fail).
    pub alpha: f64,
    /// P(reads not fail | truly fail).
    pub beta: f64,
    /// Where the rates were measured.
    pub source: String,
    pub control: CorrectedRate,
    pub treatment: CorrectedRate,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CorrectedRate {
    pub fails: u32,
    pub n: u32,
    pub raw: f64,
    /// Wilson score interval.
    pub raw_ci95: [f64; 2],
    /// `(raw − alpha) / (1 − alpha − beta)`, within [0, 1].
    pub corrected: f64,
    /// The raw interval's ends, corrected the same way.
    pub corrected_ci95: [f64; 2],
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Tost {
    pub margin: f64,
    pub p: f64,
    pub verdict: Equivalence,
}

/// The verdict of an equivalence test (TOST on the log odds): `equivalent` when it
/// rejects non-equivalence; else `different` when the adjusted difference test is
/// significant; else `inconclusive`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Equivalence {
    Equivalent,
    Different,
    Inconclusive,
}

impl Equivalence {
    pub fn as_str(self) -> &'static str {
        match self {
            Equivalence::Equivalent => "equivalent",
            Equivalence::Different => "different",
            Equivalence::Inconclusive => "inconclusive",
        }
    }
}

impl std::fmt::Display for Equivalence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CounterfactualIntegrity {
    pub playbook_logic_hash: String,
    pub inputs_fingerprint: String,
}

/// One stored audit, as `byop history` lists it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CounterfactualRow {
    /// Always "counterfactual" (history rows of reports have no `kind`).
    pub kind: String,
    pub audit_id: String,
    pub timestamp: String,
    pub document: String,
    pub playbook_id: String,
    pub playbook_version: String,
    pub pairs: u32,
    pub cues: usize,
    /// Rows significant after BH.
    pub significant: usize,
    pub evaluator_unstable: bool,
}
