//! The "Repair with the evaluator" code action: offered when a
//! deterministic check fails on this version of the text and an evaluator is configured.
//! It runs the command `byop.repair`, which offers the repaired text as a previewed edit
//! only if every deterministic check passes on it.

use serde_json::json;
use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, Command,
};

use crate::engine::repair::validation_of;
use crate::lsp::diagnostics::SOURCE;
use crate::lsp::view::View;

pub const TITLE: &str = "Repair with the evaluator";
pub const COMMAND: &str = "byop.repair";

pub fn action(
    params: &CodeActionParams,
    view: Option<&View>,
    has_evaluator: bool,
) -> Option<CodeActionOrCommand> {
    let view = view?;
    let kind = CodeActionKind::QUICKFIX;
    let only = params.context.only.as_ref();
    if !has_evaluator
        || only.is_some_and(|o| !o.iter().any(|k| kind.as_str().starts_with(k.as_str())))
    {
        return None;
    }
    let validation = validation_of(&view.playbook, &view.deterministic);
    if validation.passed() {
        return None;
    }
    let failing: Vec<_> = params
        .context
        .diagnostics
        .iter()
        .filter(|d| d.source.as_deref() == Some(SOURCE))
        .filter(|d| {
            validation.errors.iter().any(|e| {
                d.code.as_ref().is_some_and(|c| {
                    matches!(c, tower_lsp_server::ls_types::NumberOrString::String(s) if *s == e.check_id)
                })
            })
        })
        .cloned()
        .collect();
    if failing.is_empty() {
        return None;
    }
    let uri = &params.text_document.uri;
    Some(CodeActionOrCommand::CodeAction(CodeAction {
        title: TITLE.into(),
        kind: Some(kind),
        diagnostics: Some(failing),
        command: Some(Command {
            title: TITLE.into(),
            command: COMMAND.into(),
            arguments: Some(vec![json!({"uri": uri})]),
        }),
        ..Default::default()
    }))
}
