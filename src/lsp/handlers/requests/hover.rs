//! `textDocument/hover` on a cited span: the finding explained. Elsewhere nothing,
//! except a one-line summary on the first body line.

use std::fmt::Write;

use tower_lsp_server::jsonrpc::Result as RpcResult;
use tower_lsp_server::ls_types::{Hover, HoverContents, HoverParams, MarkupContent, MarkupKind};

use crate::engine::citations::word_diff;
use crate::lsp::backend::Backend;
use crate::lsp::view::{View, text_position};
use crate::model::text::Encoding;
use crate::model::{CheckResult, Citation, DetectionType, Located, Verdict};

pub async fn run(b: &Backend, params: HoverParams) -> RpcResult<Option<Hover>> {
    let p = params.text_document_position_params;
    let Some(entry) = b.entry(&p.text_document.uri) else {
        return Ok(None);
    };
    let (view, version) = {
        let d = entry.lock();
        (d.view.clone(), d.version)
    };
    Ok(view
        .filter(|v| v.version == version)
        .and_then(|v| hover(&v, text_position(p.position), b.state.encoding())))
}

pub fn hover(view: &View, pos: crate::model::text::Position, enc: Encoding) -> Option<Hover> {
    let offset = view.line_index.offset(&view.text, pos, enc);
    let mut parts = Vec::new();
    for r in view.results.iter().filter(|r| r.result != Verdict::Pass) {
        // A quote in pieces is hovered on any of its pieces.
        let hit = r.evidence_citations.iter().find_map(|c| {
            let first = c.byte_range?;
            let pieces = if c.byte_ranges.is_empty() {
                std::slice::from_ref(&first)
            } else {
                &c.byte_ranges[..]
            };
            let on = pieces.iter().any(|&(s, e)| s <= offset && offset <= e);
            (on && c.located.is_placed()).then_some((first, c))
        });
        if let Some((span, c)) = hit {
            let mut m = finding_markdown(view, r);
            if c.located == Located::Fuzzy {
                m.push_str(&misquote_markdown(view, c));
            }
            if let Some(src) = &c.source {
                m.push_str(&source_markdown(view, c, src));
            }
            parts.push((span, m));
        }
    }
    if parts.is_empty() {
        if pos.line != view.body_start_line {
            return None;
        }
        return Some(markdown(
            summary_line(view),
            Some(view.first_body_line_range(enc)),
        ));
    }
    let range = parts.first().map(|((s, e), _)| view.range(*s, *e, enc));
    let text = parts
        .into_iter()
        .map(|(_, m)| m)
        .collect::<Vec<_>>()
        .join("\n\n---\n\n");
    Some(markdown(text, range))
}

fn markdown(value: String, range: Option<tower_lsp_server::ls_types::Range>) -> Hover {
    Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value,
        }),
        range,
    }
}

pub fn summary_line(view: &View) -> String {
    let failing = view
        .results
        .iter()
        .filter(|r| r.result == Verdict::Fail)
        .count();
    let open = view
        .results
        .iter()
        .filter(|r| r.result == Verdict::Indeterminate)
        .count();
    let mut s = format!(
        "**byop {}** · {} mode · {failing} fail, {open} indeterminate of {} checks · consistency {:.2}",
        view.status.as_str(),
        view.mode.as_str(),
        view.results.len(),
        view.consistency_score
    );
    if view.edited_since_evaluation {
        s.push_str(" · edited since the evaluation");
    }
    s
}

/// Untrusted text (evaluator notes, playbook questions, file names, source excerpts) as
/// literal Markdown: every character Markdown or HTML would act on is escaped, so the text
/// can neither link (`[x](command:…)`), nor embed images or HTML; controls are dropped.
pub fn md(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '!' | '|' | '~' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() && c != '\n' && c != '\t' => {}
            c => out.push(c),
        }
    }
    out
}

fn finding_markdown(view: &View, r: &CheckResult) -> String {
    let check = view.check(&r.check_id);
    let mut m = String::new();
    let _ = writeln!(
        m,
        "**{}** — {} ({})",
        r.check_id,
        r.result.as_str(),
        r.severity.as_str()
    );
    if let Some(c) = check {
        let _ = writeln!(m, "\n*{}*", md(&c.question));
    }
    let _ = writeln!(
        m,
        "\nconfidence {:.2} · consistency {:.2} · {}",
        r.per_check_confidence,
        r.per_check_consistency,
        r.detection_type.as_str()
    );
    if !r.notes.trim().is_empty() {
        let _ = writeln!(m, "\n{}", md(r.notes.trim()));
    }
    if !r.raw_runs.is_empty() {
        let _ = writeln!(m);
        for run in &r.raw_runs {
            let _ = write!(
                m,
                "- run {}: {} ({:.2})",
                run.run,
                run.result.as_str(),
                run.confidence
            );
            if let Some(err) = &run.error {
                let _ = write!(m, " — error: {}", err.as_str());
            }
            if run.cached {
                m.push_str(" — cached");
            }
            m.push('\n');
        }
    }
    // Came from the evaluator when the evaluation's result for this check carries the same runs.
    let from_eval = view.evaluation.as_ref().filter(|e| {
        e.report.check(&r.check_id).is_some_and(|er| {
            er.raw_runs == r.raw_runs
                && !er.raw_runs.is_empty()
                && er.detection_type != DetectionType::Deterministic
        })
    });
    match from_eval.and_then(|e| e.report.evaluator.as_ref().map(|i| (e, i))) {
        Some((e, info)) => {
            let _ = writeln!(
                m,
                "\nEvaluator: {} / {} · {} mode · evaluated {}",
                md(&info.provider),
                md(&info.model),
                e.report.execution_mode.as_str(),
                e.report.timestamp
            );
        }
        None => {
            let _ = writeln!(m, "\nLocal check (no evaluator call for this result).");
        }
    }
    m.trim_end().to_string()
}

/// A fuzzy citation: where it points is shown, but it is not evidence; say what differs.
fn misquote_markdown(view: &View, c: &Citation) -> String {
    let pieces: Vec<(usize, usize)> = if c.byte_ranges.is_empty() {
        c.byte_range.into_iter().collect()
    } else {
        c.byte_ranges.clone()
    };
    let actual: Vec<&str> = pieces
        .iter()
        .filter_map(|&(s, e)| view.text.get(s..e))
        .collect();
    let diff: String = word_diff(&c.span, &actual.join(" … "))
        .chars()
        .filter(|&ch| !ch.is_control() || ch == '\n' || ch == '\t')
        .collect();
    let fence = fence_for(&diff);
    format!(
        "\n\n**The quote differs from the text** (a misquote: shown, but not evidence).\n\n{fence}text\n{diff}\n{fence}"
    )
}

/// A code fence longer than any run of backticks in `text`, so the text (the evaluator's
/// quote, the document's words) cannot close it and continue as Markdown.
fn fence_for(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    "`".repeat(longest.max(2) + 1)
}

/// A grounding finding's passage in the source companion, and for a misquote what changed.
fn source_markdown(view: &View, c: &Citation, src: &crate::model::SourceLocation) -> String {
    let mut m = format!(
        "\n\n**The source** ({}, line {}):\n\n> {}",
        md(&src.path),
        src.range.start.line + 1,
        md(&src.excerpt.split_whitespace().collect::<Vec<_>>().join(" "))
    );
    if src.replacement.is_some() {
        let quoted = c
            .byte_range
            .and_then(|(s, e)| view.text.get(s..e))
            .unwrap_or(&c.span);
        let _ = write!(
            m,
            "\n\nMisquoted: `{}`",
            word_diff(quoted, &src.excerpt).replace('`', "'")
        );
    }
    m
}

#[cfg(test)]
mod md_tests {
    #[test]
    fn a_code_fence_outlasts_any_backtick_run_in_its_text() {
        assert_eq!(super::fence_for("no ticks"), "```");
        assert_eq!(super::fence_for("a\n```\n[x](command:evil)"), "````");
        assert_eq!(super::fence_for("`````"), "``````");
    }

    #[test]
    fn untrusted_text_cannot_link_embed_or_inject_html() {
        let out = super::md("see [docs](command:evil) ![x](http://t/p.png) <img src=x> `c`\u{1b}");
        assert_eq!(
            out,
            "see \\[docs\\](command:evil) \\!\\[x\\](http://t/p.png) &lt;img src=x&gt; \\`c\\`"
        );
    }
}
