//! The audit trail of one generated output (`byop dataset run`, `byop plan`), in the same
//! hash-chained log as every evaluation: `received` (which variant, scenario and
//! strategy) → the generation's attempts → `validation` (before) → the repair's attempts →
//! `validation` (after) → `generated` (code: the outcome and the generation's request id;
//! decision id: the sha256 of the document generated), or `halted` with
//! `not_generated:<kind>` when no output came back.

use super::evaluate::{Trail, new_request_id};
use super::repair::summary;
use crate::engine::generate::{self, Produced, Scenario, Variant};
use crate::evaluator::EvalError;
use crate::evaluator::generate::GENERATE_CALL_ID;
use crate::model::integrity::sha256_hex;
use crate::model::{AuditState, CallRecord};
use crate::store::Store;

/// One generation request's rows, appended when it ends.
pub struct GenAudit {
    trail: Trail,
    request_id: String,
}

/// The halt code of a generation that brought no output.
pub fn not_generated(e: &EvalError) -> String {
    format!("not_generated:{}", e.kind_name())
}

impl GenAudit {
    /// A generation about `doc_key` (the output file, or the notes a plan is made from),
    /// received now.
    pub fn start(
        doc_key: &str,
        scenario: &Scenario,
        variant: &Variant,
        playbook_logic_hash: &str,
    ) -> GenAudit {
        let request_id = new_request_id();
        let mut trail = Trail::of(
            &request_id,
            doc_key,
            None,
            Some(playbook_logic_hash.to_string()),
        );
        trail.push(
            AuditState::Received,
            Some(format!(
                "generate: {}/{} ({})",
                variant.name,
                scenario.name,
                variant.strategy.as_str()
            )),
        );
        GenAudit { trail, request_id }
    }

    /// The request's id in the audit log (`byop log`).
    pub fn request_id(&self) -> &str {
        &self.request_id
    }

    /// Record how it ended — the output, or the code the request halted with — with every
    /// attempt made, and append the rows.
    pub fn finish(
        mut self,
        store: &Store,
        scenario: &Scenario,
        result: Result<&Produced, String>,
        calls: Vec<CallRecord>,
    ) {
        let (generation, repair): (Vec<CallRecord>, Vec<CallRecord>) = calls
            .into_iter()
            .partition(|c| c.check_id == GENERATE_CALL_ID);
        self.trail.calls(generation);
        match result {
            Ok(p) => self.produced(p, scenario, repair),
            Err(code) => {
                self.trail.calls(repair);
                self.trail.push(AuditState::Halted, Some(code));
            }
        }
        if let Err(e) = store.append_audit(&self.trail.events) {
            tracing::warn!("could not write the audit log: {e}");
        }
    }

    fn produced(&mut self, p: &Produced, scenario: &Scenario, repair: Vec<CallRecord>) {
        let trail = &mut self.trail;
        if let Some(before) = &p.validation_before {
            trail.push(
                AuditState::Validation,
                Some(format!("before: {}", summary(before))),
            );
        }
        trail.calls(repair);
        if let Some(after) = &p.validation_after {
            trail.push(
                AuditState::Validation,
                Some(format!("after: {}", summary(after))),
            );
        }
        if let (None, Some(reason)) = (&p.validation_after, &p.repair_reason) {
            trail.push(
                AuditState::Validation,
                Some(format!("after: none (repair failed: {reason})")),
            );
        }
        let meta = &p.meta;
        trail.push(
            AuditState::Generated,
            Some(format!("{}:{}", meta.outcome.as_str(), meta.request_id)),
        );
        if let Ok(doc) = generate::document(&p.text, scenario) {
            trail.fingerprint(doc.fingerprint());
        }
        trail.decide(&sha256_hex(p.text.as_bytes()));
    }
}
