//! Quick fixes (SPEC §8), precomputed into each diagnostic's `data` (like ruff)
//! so `textDocument/codeAction` only has to read them back.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, Diagnostic, TextEdit, Uri,
    WorkspaceEdit,
};

use super::diagnostics::{SOURCE, View};
use crate::report::CheckResult;
use crate::suppress;
use crate::text::Encoding;

pub const FIX_ALL_KIND: &str = "source.fixAll.byop";
/// Appended to the sentence whose certainty word was qualified.
pub const CONDITION: &str = ", subject to [conditions]";
pub const ESCALATION: &str = "This analysis is not legal advice; consult a qualified lawyer licensed in the relevant jurisdiction before relying on it.";
pub const ASSUMPTION_TEMPLATE: &str =
    "[State each fact this analysis assumes: governing law, parties, dates, documents reviewed.]";
pub const UNCHECKED_TEMPLATE: &str =
    "[List what was not reviewed and the information that would change the analysis.]";

/// One fix, as carried in a diagnostic's `data.fixes`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Fix {
    pub title: String,
    pub preferred: bool,
    /// Safe for `source.fixAll.byop` (section insertions only).
    #[serde(default)]
    pub safe: bool,
    pub edits: Vec<TextEdit>,
}

/// Byte-offset edit, converted to LSP positions at the end.
struct Edit(usize, usize, String);

/// Fixes for one finding: the check's own fix first, then the suppressions.
pub fn fixes(
    view: &View,
    r: &CheckResult,
    span: Option<(usize, usize)>,
    enc: Encoding,
) -> Vec<Fix> {
    let mut out = Vec::new();
    let mk = |title: String, preferred: bool, safe: bool, edits: Vec<Edit>| Fix {
        title,
        preferred,
        safe,
        edits: edits
            .into_iter()
            .map(|Edit(s, e, t)| TextEdit::new(view.range(s, e, enc), t))
            .collect(),
    };
    match r.check_id.as_str() {
        "escalation_signal" => {
            let at = paragraph_end(view, span.map(|s| s.0).unwrap_or(view.body.0));
            out.push(mk(
                "Insert an escalation statement after this paragraph".into(),
                true,
                false,
                vec![Edit(at, at, format!("\n\n{ESCALATION}"))],
            ));
        }
        "assumption_disclosure" => {
            out.push(mk(
                "Insert an Assumptions section".into(),
                true,
                true,
                vec![assumptions_edit(view, r)],
            ));
        }
        "unchecked_areas_disclosure" => {
            out.push(mk(
                "Insert a \"Not checked / missing information\" section".into(),
                true,
                true,
                vec![unchecked_edit(view)],
            ));
        }
        "certainty_language" => {
            if let Some((s, e)) = span
                && let Some(q) = qualify(&view.text[s..e])
            {
                let mut edits = vec![Edit(s, e, q.clone())];
                if q.to_lowercase().starts_with("appear") {
                    let at = sentence_end(view, e);
                    edits.push(Edit(at, at, CONDITION.into()));
                }
                out.push(mk(format!("Qualify: \"{q}\""), true, false, edits));
            }
        }
        _ => {}
    }
    if let Some((s, _)) = span {
        let line = view.line_index.line_of(s);
        let at = view.line_index.line_start(line);
        out.push(mk(
            format!("Suppress {} on this line", r.check_id),
            false,
            false,
            vec![Edit(
                at,
                at,
                format!("{}\n", suppress::next_line_comment(&r.check_id)),
            )],
        ));
    }
    let end = view.text.len();
    let sep = if view.text.ends_with('\n') || view.text.is_empty() {
        ""
    } else {
        "\n"
    };
    out.push(mk(
        format!("Suppress {} in this file", r.check_id),
        false,
        false,
        vec![Edit(
            end,
            end,
            format!("{sep}{}\n", suppress::file_comment(&r.check_id)),
        )],
    ));
    out
}

/// Where a sentence ends after `offset`: before its final punctuation, else at the line end.
fn sentence_end(view: &View, offset: usize) -> usize {
    let line = view.line_index.line_of(offset);
    let line_end = view.line_index.line_end(&view.text, line);
    let rest = &view.text[offset..line_end];
    let mut chars = rest.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let next_is_space = chars.peek().is_none_or(|(_, n)| n.is_whitespace());
        if matches!(c, '.' | '!' | '?' | ';') && next_is_space {
            return offset + i;
        }
    }
    offset + rest.trim_end().len()
}

/// End of the paragraph containing `offset` (before the blank line), within the body.
fn paragraph_end(view: &View, offset: usize) -> usize {
    let (_, body_end) = view.body;
    let from = offset.clamp(view.body.0, body_end);
    let rest = &view.text[from..body_end];
    let mut pos = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim().is_empty() && pos > 0 {
            // Back off the newline that ends the paragraph's last line.
            let end = from + pos;
            let t = &view.text[..end];
            return t.trim_end_matches(['\n', '\r']).len();
        }
        pos += line.len();
    }
    body_end
}

fn assumptions_edit(view: &View, r: &CheckResult) -> Edit {
    let items: Vec<String> = if r.assumptions.is_empty() {
        vec![format!("- {ASSUMPTION_TEMPLATE}")]
    } else {
        r.assumptions.iter().map(|a| format!("- {a}")).collect()
    };
    // After a leading `# Title` line (and the blank lines that follow it), else at the body start.
    let body = &view.text[view.body.0..view.body.1];
    let at = match body.split_inclusive('\n').next() {
        Some(first) if first.starts_with("# ") && first.ends_with('\n') => {
            let rest = &body[first.len()..];
            view.body.0 + first.len() + (rest.len() - rest.trim_start_matches(['\n', '\r']).len())
        }
        _ => view.body.0,
    };
    Edit(
        at,
        at,
        format!("## Assumptions\n\n{}\n\n", items.join("\n")),
    )
}

fn unchecked_edit(view: &View) -> Edit {
    let end = view.text.len();
    let sep = match () {
        _ if view.text.is_empty() => "",
        _ if view.text.ends_with("\n\n") => "",
        _ if view.text.ends_with('\n') => "\n",
        _ => "\n\n",
    };
    Edit(
        end,
        end,
        format!("{sep}## Not checked / missing information\n\n- {UNCHECKED_TEMPLATE}\n"),
    )
}

/// "is compliant" → "appears to be compliant, subject to [conditions]"; other certainty
/// words get a hedge. `None` when no sensible rewrite exists.
pub fn qualify(span: &str) -> Option<String> {
    let lower = span.to_lowercase();
    let words: Vec<&str> = span.split_whitespace().collect();
    let first = words.first()?.to_lowercase();
    let rest = words[1..].join(" ");
    let rewritten = match first.as_str() {
        "is" | "remains" | "becomes" => format!("appears to be {rest}"),
        "are" | "remain" | "become" => format!("appear to be {rest}"),
        "was" => format!("appears to have been {rest}"),
        "were" => format!("appear to have been {rest}"),
        "be" | "being" => format!("{first} likely {rest}"),
        "will" => format!("will likely {rest}"),
        "always" => "generally".to_string(),
        "never" => "generally not".to_string(),
        "certainly" | "definitely" | "undoubtedly" | "unquestionably" => "likely".to_string(),
        _ if lower.starts_with("without") => "likely".to_string(),
        _ => format!("is intended to {}", lower_first(span))
            .replace("is intended to guarantees", "is intended to ensure"),
    };
    let rewritten = rewritten.trim().to_string();
    Some(match span.chars().next() {
        Some(c) if c.is_uppercase() => upper_first(&rewritten),
        _ => rewritten,
    })
}

fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_lowercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// `textDocument/codeAction`: the fixes of the byop diagnostics in the request, in order,
/// plus `source.fixAll.byop` when asked for.
pub fn actions(
    params: &CodeActionParams,
    view: Option<&View>,
    enc: Encoding,
) -> Vec<CodeActionOrCommand> {
    let uri = &params.text_document.uri;
    let only = params.context.only.as_ref();
    let wants = |kind: &CodeActionKind| {
        only.is_none_or(|o| o.iter().any(|k| kind.as_str().starts_with(k.as_str())))
    };
    let mut out = Vec::new();
    if wants(&CodeActionKind::QUICKFIX) {
        for d in &params.context.diagnostics {
            if d.source.as_deref() != Some(SOURCE) {
                continue;
            }
            for fix in fixes_of(d) {
                out.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title: fix.title,
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![d.clone()]),
                    edit: Some(workspace_edit(uri, fix.edits)),
                    is_preferred: fix.preferred.then_some(true),
                    ..Default::default()
                }));
            }
        }
    }
    let fix_all = CodeActionKind::new(FIX_ALL_KIND);
    if let Some(view) = view
        && only.is_some_and(|o| o.iter().any(|k| FIX_ALL_KIND.starts_with(k.as_str())))
        && wants(&fix_all)
    {
        let edits = fix_all_edits(view, enc);
        if !edits.is_empty() {
            out.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: "byop: insert missing disclosure sections".into(),
                kind: Some(fix_all),
                edit: Some(workspace_edit(uri, edits)),
                ..Default::default()
            }));
        }
    }
    out
}

fn fixes_of(d: &Diagnostic) -> Vec<Fix> {
    d.data
        .as_ref()
        .and_then(|v| v.get("fixes"))
        .and_then(|f| serde_json::from_value(f.clone()).ok())
        .unwrap_or_default()
}

/// Section insertions for the failing disclosure checks: safe to apply unattended.
pub fn fix_all_edits(view: &View, enc: Encoding) -> Vec<TextEdit> {
    let mut edits = Vec::new();
    for r in &view.results {
        if r.result == crate::report::Verdict::Pass || view.suppressed_checks.contains(&r.check_id)
        {
            continue;
        }
        let edit = match r.check_id.as_str() {
            "assumption_disclosure" => assumptions_edit(view, r),
            "unchecked_areas_disclosure" => unchecked_edit(view),
            _ => continue,
        };
        edits.push(edit);
    }
    edits
        .into_iter()
        .map(|Edit(s, e, t)| TextEdit::new(view.range(s, e, enc), t))
        .collect()
}

fn workspace_edit(uri: &Uri, edits: Vec<TextEdit>) -> WorkspaceEdit {
    WorkspaceEdit {
        changes: Some(HashMap::from([(uri.clone(), edits)])),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Document;

    fn view_of(text: &str) -> View {
        let pb = crate::playbook::builtin();
        let doc = Document::parse(text.into(), None).unwrap();
        let det = crate::runner::run_deterministic(&pb, &doc);
        super::super::diagnostics::merge(&pb, &doc, 1, det, None)
    }

    fn apply(text: &str, fix: &Fix) -> String {
        let idx = crate::text::LineIndex::new(text);
        let mut out = text.to_string();
        let mut edits: Vec<(usize, usize, &str)> = fix
            .edits
            .iter()
            .map(|e| {
                let p = |p: tower_lsp_server::ls_types::Position| {
                    idx.offset(
                        text,
                        super::super::diagnostics::text_position(p),
                        Encoding::Utf16,
                    )
                };
                (p(e.range.start), p(e.range.end), e.new_text.as_str())
            })
            .collect();
        edits.sort_by_key(|e| std::cmp::Reverse(e.0));
        for (s, e, t) in edits {
            out.replace_range(s..e, t);
        }
        out
    }

    #[test]
    fn escalation_goes_after_the_paragraph_and_assumptions_after_front_matter() {
        let text =
            "---\nbyop: {}\n---\n# Memo\n\nFirst para line one.\nLine two.\n\nSecond para.\n";
        let view = view_of(text);
        let r = view.result("escalation_signal").unwrap().clone();
        let at = text.find("line one").unwrap();
        let fixes = fixes(&view, &r, Some((at, at + 4)), Encoding::Utf16);
        let fixed = apply(text, &fixes[0]);
        assert!(
            fixed.contains(&format!("Line two.\n\n{ESCALATION}\n\nSecond para.")),
            "{fixed}"
        );
        assert_eq!(fixes[1].title, "Suppress escalation_signal on this line");
        assert!(
            apply(text, &fixes[1]).contains(
                "\n<!-- byop-disable-next-line escalation_signal -->\nFirst para line one."
            )
        );
        let mut a = view.result("assumption_disclosure").unwrap().clone();
        a.assumptions = vec!["Delaware law applies.".into()];
        let fixed = apply(text, &fixes_for_assumptions(&view, &a));
        assert!(
            fixed.starts_with(
                "---\nbyop: {}\n---\n# Memo\n\n## Assumptions\n\n- Delaware law applies.\n\n"
            ),
            "{fixed}"
        );
    }

    fn fixes_for_assumptions(view: &View, r: &CheckResult) -> Fix {
        fixes(view, r, None, Encoding::Utf16).remove(0)
    }

    #[test]
    fn certainty_rewrites_keep_case_and_add_a_hedge() {
        assert_eq!(qualify("is compliant").unwrap(), "appears to be compliant");
        assert_eq!(
            qualify("Are fully enforceable").unwrap(),
            "Appear to be fully enforceable"
        );
        assert_eq!(
            qualify("will be enforced").unwrap(),
            "will likely be enforced"
        );
        assert_eq!(qualify("Always").unwrap(), "Generally");
        assert_eq!(qualify("guarantees").unwrap(), "is intended to ensure");
    }
}
