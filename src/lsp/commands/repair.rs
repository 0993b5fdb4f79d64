//! `byop.repair {uri}`: validate the open text, repair it once with the evaluator,
//! re-validate. Only when every deterministic check passes on the answer is it offered:
//! as `workspace/applyEdit` with a change annotation that needs the user's confirmation
//! (a preview), and as `edit` in the reply. Reply: `{status, before, after, reason,
//! report_id, edit}`; `status` is `repaired`, `rejected`, `failed` or `not_needed`.

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use tower_lsp_server::jsonrpc::Result as RpcResult;
use tower_lsp_server::ls_types::{
    AnnotatedTextEdit, ChangeAnnotation, DocumentChanges, ExecuteCommandParams, OneOf,
    OptionalVersionedTextDocumentIdentifier, TextDocumentEdit, TextEdit, Uri, WorkspaceEdit,
};

use super::reply::{args, failed, invalid};
use crate::lsp::backend::Backend;
use crate::lsp::documents::Kind;
use crate::lsp::state::{doc_key, uri_path};
use crate::lsp::view::lsp_range;
use crate::model::{Encoding, LineIndex, RepairStatus};
use crate::workspace::ProblemKind;
use crate::workspace::repair::repair_and_save;

pub const ANNOTATION: &str = "byop.repair";

#[derive(Deserialize)]
struct RepairArgs {
    uri: Uri,
}

pub async fn run(b: &Backend, p: &ExecuteCommandParams) -> RpcResult<Option<Value>> {
    let a: RepairArgs = args(p)?;
    let entry = b
        .entry(&a.uri)
        .ok_or_else(|| invalid(format!("document not open: {}", a.uri.as_str())))?;
    if entry.lock().kind != Kind::Output {
        return Err(invalid("a playbook file is not repaired"));
    }
    let (text, version) = entry.snapshot();
    let path = uri_path(&a.uri);
    let eff = b.state.effective(path.as_deref());
    let resolved = b
        .state
        .resolve(text.to_string(), path.as_deref())
        .map_err(|e| failed(e.to_string()))?;
    if let Some(p) = resolved
        .problems
        .iter()
        .find(|p| p.kind == ProblemKind::Companion)
    {
        return Err(failed(p.message.clone()));
    }
    let store = b.state.store(&eff.db_path);
    let evaluator = b.evaluator(&eff).await;
    let outcome = repair_and_save(
        &resolved,
        store,
        &doc_key(&a.uri),
        evaluator.as_ref(),
        &CancellationToken::new(),
    )
    .await
    .map_err(|e| failed(e.to_string()))?;
    let record = &outcome.record;
    let changed = entry.version() != version;
    let edit = outcome.repaired_text().filter(|_| !changed).map(|new| {
        repair_edit(
            &a.uri,
            version,
            &text,
            new,
            resolved.doc.body.0,
            b.state.encoding(),
        )
    });
    if let Some(edit) = &edit
        && let Err(e) = b.client.apply_edit(edit.clone()).await
    {
        tracing::debug!("workspace/applyEdit: {e}");
    }
    let reason = match (
        &record.reason,
        changed && record.status == RepairStatus::Repaired,
    ) {
        (_, true) => Some("the document changed during the repair; run it again".to_string()),
        (r, false) => r.clone(),
    };
    Ok(Some(json!({
        "status": record.status.as_str(),
        "before": record.before,
        "after": record.after,
        "reason": reason,
        "report_id": outcome.before.report_id,
        "edit": edit,
    })))
}

/// The body replaced (the front matter stays), for this version only, to be confirmed.
fn repair_edit(
    uri: &Uri,
    version: i32,
    old: &str,
    new: &str,
    body_start: usize,
    enc: Encoding,
) -> WorkspaceEdit {
    let index = LineIndex::new(old);
    let range = lsp_range(index.range(old, body_start, old.len(), enc));
    let new_text = new.get(body_start..).unwrap_or(new).to_string();
    let edit = AnnotatedTextEdit {
        text_edit: TextEdit::new(range, new_text),
        annotation_id: ANNOTATION.into(),
    };
    WorkspaceEdit {
        document_changes: Some(DocumentChanges::Edits(vec![TextDocumentEdit {
            text_document: OptionalVersionedTextDocumentIdentifier {
                uri: uri.clone(),
                version: Some(version),
            },
            edits: vec![OneOf::Right(edit)],
        }])),
        change_annotations: Some(HashMap::from([(
            ANNOTATION.to_string(),
            ChangeAnnotation {
                label: "Repair with the evaluator".into(),
                needs_confirmation: Some(true),
                description: Some(
                    "The evaluator's corrected output; every deterministic check passes on it."
                        .into(),
                ),
            },
        )])),
        ..Default::default()
    }
}
