//! `textDocument/codeAction`: the engine's fixes for the byop diagnostics in the
//! request (computed now, from the view of the same version), plus
//! `source.fixAll.byop` when asked for.

use std::collections::HashMap;

use tower_lsp_server::jsonrpc::Result as RpcResult;
use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeActionResponse,
    Diagnostic, TextEdit, Uri, WorkspaceEdit,
};

use crate::engine::fixes::{self, FixTarget};
use crate::lsp::backend::Backend;
use crate::lsp::diagnostics::SOURCE;
use crate::lsp::view::View;
use crate::model::{Edit, Encoding, Fix};

pub const FIX_ALL_KIND: &str = "source.fixAll.byop";

pub async fn run(b: &Backend, params: CodeActionParams) -> RpcResult<Option<CodeActionResponse>> {
    let view = b.entry(&params.text_document.uri).and_then(|e| {
        let d = e.lock();
        d.view.clone().filter(|v| v.version == d.version)
    });
    let mut actions = actions(&params, view.as_deref(), b.state.encoding());
    let path = crate::lsp::state::uri_path(&params.text_document.uri);
    let has_evaluator = b.state.effective(path.as_deref()).evaluator.is_some();
    actions.extend(super::code_action_repair::action(
        &params,
        view.as_deref(),
        has_evaluator,
    ));
    Ok((!actions.is_empty()).then_some(actions))
}

pub fn actions(
    params: &CodeActionParams,
    view: Option<&View>,
    enc: Encoding,
) -> Vec<CodeActionOrCommand> {
    let Some(view) = view else {
        return Vec::new();
    };
    let uri = &params.text_document.uri;
    let only = params.context.only.as_ref();
    let wants = |kind: &CodeActionKind| {
        only.is_none_or(|o| o.iter().any(|k| kind.as_str().starts_with(k.as_str())))
    };
    let mut out = Vec::new();
    if wants(&CodeActionKind::QUICKFIX) {
        for d in &params.context.diagnostics {
            for fix in fixes_of(view, d, enc) {
                out.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title: fix.title,
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![d.clone()]),
                    edit: Some(workspace_edit(uri, lsp_edits(view, &fix.edits, enc))),
                    is_preferred: fix.preferred.then_some(true),
                    ..Default::default()
                }));
            }
        }
    }
    let fix_all = CodeActionKind::new(FIX_ALL_KIND);
    if only.is_some_and(|o| o.iter().any(|k| FIX_ALL_KIND.starts_with(k.as_str())))
        && wants(&fix_all)
    {
        let edits = fix_all_edits(view);
        if !edits.is_empty() {
            out.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: "byop: insert missing disclosure sections".into(),
                kind: Some(fix_all),
                edit: Some(workspace_edit(uri, lsp_edits(view, &edits, enc))),
                ..Default::default()
            }));
        }
    }
    out
}

fn target(view: &View) -> FixTarget<'_> {
    FixTarget::new(&view.text, view.body, &view.line_index)
}

/// The fixes of one of our diagnostics, if it belongs to this version of the text.
fn fixes_of(view: &View, d: &Diagnostic, enc: Encoding) -> Vec<Fix> {
    if d.source.as_deref() != Some(SOURCE) {
        return Vec::new();
    }
    let Some(data) = d.data.as_ref() else {
        return Vec::new();
    };
    if data.get("version").and_then(|v| v.as_i64()) != Some(i64::from(view.version)) {
        return Vec::new();
    }
    let Some(check_id) = data.get("check_id").and_then(|v| v.as_str()) else {
        return Vec::new();
    };
    let Some(result) = view.result(check_id) else {
        return Vec::new();
    };
    // `true` (older servers: the span's text) when the diagnostic sits on a span.
    let at_span = data
        .get("span")
        .is_some_and(|s| !s.is_null() && s.as_bool() != Some(false));
    let span = at_span.then(|| {
        (
            view.offset(d.range.start, enc),
            view.offset(d.range.end, enc),
        )
    });
    fixes::for_finding(&target(view), view.check(check_id), result, span)
}

/// Section insertions for the failing disclosure checks: safe to apply unattended.
pub fn fix_all_edits(view: &View) -> Vec<Edit> {
    let findings = view
        .playbook
        .playbook
        .checks
        .iter()
        .zip(&view.results)
        .filter(|(c, _)| !view.suppressed_checks.contains(&c.id));
    fixes::fix_all(&target(view), findings)
}

fn lsp_edits(view: &View, edits: &[Edit], enc: Encoding) -> Vec<TextEdit> {
    edits
        .iter()
        .map(|e| TextEdit::new(view.range(e.start, e.end, enc), e.new_text.clone()))
        .collect()
}

fn workspace_edit(uri: &Uri, edits: Vec<TextEdit>) -> WorkspaceEdit {
    WorkspaceEdit {
        changes: Some(HashMap::from([(uri.clone(), edits)])),
        ..Default::default()
    }
}
