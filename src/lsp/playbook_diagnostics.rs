//! A playbook JSON open in the editor gets diagnostics for its own errors.

use std::path::Path;

use tower_lsp_server::ls_types::{Diagnostic, DiagnosticSeverity, NumberOrString};

use super::diagnostics::SOURCE;
use super::view::lsp_range;
use crate::engine::playbook;
use crate::model::text::{Encoding, LineIndex, Range};

/// A `*.json` whose text has a `"checks"` key.
pub fn looks_like_playbook(path: Option<&Path>, uri: &str, text: &str) -> bool {
    let json = path
        .and_then(|p| p.extension())
        .map(|e| e.eq_ignore_ascii_case("json"))
        .unwrap_or_else(|| uri.ends_with(".json"));
    json && text.contains("\"checks\"")
}

pub fn diagnostics(text: &str, enc: Encoding) -> Vec<Diagnostic> {
    let Err(e) = playbook::parse(text, "playbook") else {
        return Vec::new();
    };
    // Playbook errors come in UTF-16; convert when UTF-8 was negotiated.
    let idx = LineIndex::new(text);
    let convert = |p| {
        let off = idx.offset(text, p, Encoding::Utf16);
        idx.position(text, off, enc)
    };
    let range = Range {
        start: convert(e.position),
        end: convert(e.end),
    };
    vec![Diagnostic {
        range: lsp_range(range),
        severity: Some(DiagnosticSeverity::ERROR),
        code: Some(NumberOrString::String("playbook_error".into())),
        source: Some(SOURCE.into()),
        message: e.message,
        ..Default::default()
    }]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_at_the_offending_field() {
        let text = "{\n  \"id\": \"p\",\n  \"version\": \"1\",\n  \"checks\": [\n    {\"id\": \"c\", \"severity\": \"urgent\"}\n  ]\n}";
        let d = diagnostics(text, Encoding::Utf16);
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].range.start.line, 4, "{d:?}");
        assert!(
            d[0].message.contains("urgent") || d[0].message.contains("severity"),
            "{}",
            d[0].message
        );
        assert!(looks_like_playbook(None, "file:///x/p.json", text));
        assert!(!looks_like_playbook(None, "file:///x/memo.md", text));
        let good = crate::engine::playbook::builtin();
        let json = serde_json::to_string_pretty(&*good.playbook).unwrap();
        assert!(diagnostics(&json, Encoding::Utf8).is_empty());
    }
}
