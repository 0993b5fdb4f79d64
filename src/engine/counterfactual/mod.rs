//! The counterfactual audit (the B.A.I.L.I.F.F. paired design, docs/contracts.md): does the evaluator's
//! verdict move when only an irrelevant cue changes?
//!
//! A cue catalog (data) names slots and their control and treatment values. The
//! document becomes a template ([`slots::Frame`]); every variant fills the slots and
//! keeps the facts (the text with the slots blanked hashes the same, or the run
//! refuses). For every evaluator-backed check and cue, `pairs` pairs (control,
//! treatment) are evaluated with the same run index, in an order drawn in blocks from
//! the seed, all through the evaluator's concurrency limit and the response cache.
//! Paired statistics ([`stats`]) then say, per check × cue, whether the verdict moved.
//!
//! Knows nothing of the terminal, the language server or the store.

pub mod catalog;
pub mod design;
mod execute;
pub mod paired;
pub mod slots;
pub mod stats;
mod template;
mod trials;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::engine::document::Document;
use crate::engine::playbook::LoadedPlaybook;
use crate::engine::runner;
use crate::evaluator::{CheckPrompt, Evaluator, ResponseCache};

pub use catalog::{Catalog, CatalogError, Cue};
pub use execute::{Context, execute};

/// Most pairs per check × cue.
pub const MAX_PAIRS: u32 = 1_000;
/// Default pairs per check × cue.
pub const DEFAULT_PAIRS: u32 = 20;
/// Default budget of evaluator calls (cached answers do not count).
pub const DEFAULT_MAX_CALLS: usize = 200;

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum CfError {
    /// The document, the catalog or the options do not allow the audit.
    #[error("{0}")]
    Input(String),
    #[error(
        "this audit needs {needed} evaluator call(s) ({cached} more served from the cache), above the budget of {max}: raise --max-calls, or narrow it with --checks or --pairs"
    )]
    Budget {
        needed: usize,
        cached: usize,
        max: usize,
    },
    #[error("counterfactual audit cancelled")]
    Cancelled,
}

/// What to audit.
#[derive(Clone)]
pub struct Request<'a> {
    pub playbook: &'a LoadedPlaybook,
    pub doc: &'a Document,
    pub catalog: &'a Catalog,
    /// Check ids (default: every check that uses the evaluator).
    pub checks: Option<Vec<String>>,
    pub pairs: u32,
    pub seed: u64,
    /// TOST margin on the log odds (default ln 1.5).
    pub margin: f64,
}

/// One check × cue: its pairs' (control variant, treatment variant, run index).
#[derive(Debug, Clone)]
pub(crate) struct Arm {
    pub check: usize,
    pub cue: usize,
    pub pairs: Vec<(usize, usize, u32)>,
    /// Per pair: the index of its treatment value in the cue's treatment values.
    pub values: Vec<usize>,
}

/// One evaluator call: position of the check in `Plan::checks`, variant, run index.
pub(crate) type CallKey = (usize, usize, u32);

/// Everything decided before the first call: the variants, their prompts, the pairs
/// and the calls in the order they are made.
pub struct Plan {
    pub(crate) checks: Vec<usize>,
    pub(crate) cues: Vec<Cue>,
    pub(crate) frame: slots::Frame,
    /// Per variant, per check (as `checks`): the evaluator prompt.
    pub(crate) prompts: Vec<Vec<CheckPrompt>>,
    pub(crate) arms: Vec<Arm>,
    pub(crate) calls: Vec<CallKey>,
    pub(crate) skipped_cues: Vec<String>,
    pub pairs: u32,
    pub seed: u64,
    pub margin: f64,
}

impl Plan {
    /// Evaluator calls the audit makes, cache hits included.
    pub fn calls(&self) -> usize {
        self.calls.len()
    }

    /// Calls the cache would answer (none when `fresh`).
    pub fn cached(&self, ev: &Evaluator, cache: Option<&dyn ResponseCache>, fresh: bool) -> usize {
        let Some(cache) = cache.filter(|_| !fresh) else {
            return 0;
        };
        self.calls
            .iter()
            .filter(|(check, variant, run)| {
                cache
                    .get(&ev.cache_key(&self.prompts[*variant][*check], *run))
                    .is_some()
            })
            .count()
    }

    /// Refuse above the budget: `max` calls that the cache does not answer.
    pub fn check_budget(
        &self,
        ev: &Evaluator,
        cache: Option<&dyn ResponseCache>,
        fresh: bool,
        max: usize,
    ) -> Result<(usize, usize), CfError> {
        let cached = self.cached(ev, cache, fresh);
        let needed = self.calls() - cached;
        if needed > max {
            return Err(CfError::Budget {
                needed,
                cached,
                max,
            });
        }
        Ok((needed, cached))
    }

    /// How many checks are audited.
    pub fn arms_checks(&self) -> usize {
        self.checks.len()
    }

    pub fn cue_names(&self) -> Vec<&str> {
        self.cues.iter().map(|c| c.name.as_str()).collect()
    }
}

/// Decide the audit: which checks and cues, the variants and their facts, the pairs.
pub fn plan(req: &Request<'_>) -> Result<Plan, CfError> {
    let input = CfError::Input;
    if req.pairs == 0 || req.pairs > MAX_PAIRS {
        return Err(input(format!("--pairs must be 1–{MAX_PAIRS}")));
    }
    if !(req.margin.is_finite() && req.margin > 0.0) {
        return Err(input(
            "--margin must be a positive number (a log odds)".into(),
        ));
    }
    let checks = select_checks(req.playbook, req.checks.as_deref())?;
    let frame = slots::Frame::new(req.doc, req.catalog).map_err(input)?;
    let present = frame.slots();
    let (cues, skipped_cues): (Vec<&Cue>, Vec<&Cue>) = req
        .catalog
        .cues
        .iter()
        .partition(|c| c.slots().iter().all(|s| present.iter().any(|p| p == s)));
    let cues: Vec<Cue> = cues.into_iter().cloned().collect();
    let mut variants = Variants::default();
    let mut rng = fastrand::Rng::with_seed(req.seed);
    let mut arms = Vec::new();
    let mut order: Vec<Vec<(usize, usize)>> = vec![Vec::new(); req.pairs as usize];
    for (ci, cue) in cues.iter().enumerate() {
        let (control, treatments) = arms_of(req, &frame, cue, &mut variants)?;
        let plans = design::blocked_permutations(req.pairs, treatments.len(), &mut rng);
        let pairs: Vec<(usize, usize, u32)> = plans
            .iter()
            .map(|p| (control, treatments[p.treatment], p.run))
            .collect();
        for (p, &(c, t, _)) in plans.iter().zip(&pairs) {
            let sides = match p.first {
                design::First::Control => (c, t),
                design::First::Treatment => (t, c),
            };
            order[p.run as usize - 1].push(sides);
        }
        let values: Vec<usize> = plans.iter().map(|p| p.treatment).collect();
        arms.extend((0..checks.len()).map(|check| Arm {
            check,
            cue: ci,
            pairs: pairs.clone(),
            values: values.clone(),
        }));
    }
    let mut seen = HashSet::new();
    let mut calls = Vec::new();
    for (k, sides) in order.iter().enumerate() {
        let run = k as u32 + 1;
        for &(first, second) in sides {
            for check in 0..checks.len() {
                for v in [first, second] {
                    if seen.insert((check, v, run)) {
                        calls.push((check, v, run));
                    }
                }
            }
        }
    }
    let prompts = variants
        .docs
        .iter()
        .map(|d| runner::evaluator_prompts(req.playbook, d, &checks))
        .collect();
    Ok(Plan {
        checks,
        cues,
        frame,
        prompts,
        arms,
        calls,
        skipped_cues: skipped_cues.iter().map(|c| c.name.clone()).collect(),
        pairs: req.pairs,
        seed: req.seed,
        margin: req.margin,
    })
}

/// The checks to audit: those named (each must use the evaluator), else every check
/// that uses it.
fn select_checks(
    playbook: &LoadedPlaybook,
    named: Option<&[String]>,
) -> Result<Vec<usize>, CfError> {
    let all = &playbook.playbook.checks;
    let checks: Vec<usize> = match named {
        Some(ids) => ids
            .iter()
            .map(|id| {
                let i = all.iter().position(|c| &c.id == id).ok_or_else(|| {
                    CfError::Input(format!("--checks: no check `{id}` in playbook {}", playbook.playbook.id))
                })?;
                if !all[i].needs_evaluator() {
                    return Err(CfError::Input(format!(
                        "--checks: check `{id}` does not use the evaluator; a cue cannot move its verdict"
                    )));
                }
                Ok(i)
            })
            .collect::<Result<_, _>>()?,
        None => (0..all.len()).filter(|&i| all[i].needs_evaluator()).collect(),
    };
    let mut unique = Vec::new();
    for i in checks {
        if !unique.contains(&i) {
            unique.push(i);
        }
    }
    if unique.is_empty() {
        return Err(CfError::Input(format!(
            "playbook {} has no check that uses the evaluator: nothing for a cue to move",
            playbook.playbook.id
        )));
    }
    Ok(unique)
}

/// The control variant of a cue and its treatment variants.
fn arms_of(
    req: &Request<'_>,
    frame: &slots::Frame,
    cue: &Cue,
    variants: &mut Variants,
) -> Result<(usize, Vec<usize>), CfError> {
    if let Some([a, b]) = &cue.swap {
        let control = variants.get(req, frame, &[])?;
        let (ta, tb) = (neutral(req, frame, b), neutral(req, frame, a));
        let swapped = variants.get(req, frame, &[(a.as_str(), ta), (b.as_str(), tb)])?;
        if swapped == control {
            return Err(CfError::Input(format!(
                "cue `{}`: the slots `{a}` and `{b}` hold the same text; swapping them changes nothing",
                cue.name
            )));
        }
        return Ok((control, vec![swapped]));
    }
    let slot = cue.slot.as_str();
    let control = variants.get(req, frame, &[(slot, cue.control.clone())])?;
    let treatments = cue
        .treatment
        .iter()
        .map(|t| variants.get(req, frame, &[(slot, t.clone())]))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((control, treatments))
}

/// A slot's text when its cue is not the one toggled: the document's own text for a
/// slot named in front matter, else the catalog's.
fn neutral(req: &Request<'_>, frame: &slots::Frame, slot: &str) -> String {
    frame
        .original(slot)
        .or_else(|| req.catalog.neutral(slot))
        .unwrap_or_default()
        .to_string()
}

/// The distinct variant documents, keyed by what the evaluator sees.
#[derive(Default)]
struct Variants {
    docs: Vec<Document>,
    index: HashMap<(String, Arc<str>), usize>,
}

impl Variants {
    /// The variant with the `set` slots set and every other slot neutral.
    fn get(
        &mut self,
        req: &Request<'_>,
        frame: &slots::Frame,
        set: &[(&str, String)],
    ) -> Result<usize, CfError> {
        let fill = |slot: &str| match set.iter().find(|(s, _)| *s == slot) {
            Some((_, v)) => v.clone(),
            None => neutral(req, frame, slot),
        };
        let v = frame.variant(req.doc, &fill).map_err(CfError::Input)?;
        let key = (v.doc.inputs.ai_output.clone(), v.doc.inputs.prompt.clone());
        if let Some(&i) = self.index.get(&key) {
            return Ok(i);
        }
        self.docs.push(v.doc);
        self.index.insert(key, self.docs.len() - 1);
        Ok(self.docs.len() - 1)
    }
}

#[cfg(test)]
mod tests;
