//! YAML front matter: `---` on the first line up to a line `---` or `...`; only the
//! `byop:` keys are read, every other key is the author's.

use serde::Deserialize;

use super::error::{DocumentError, err};
use crate::model::text::{Encoding, LineIndex};

/// `byop:` keys of the front matter.
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct FrontMatter {
    pub source: Option<String>,
    pub prompt: Option<String>,
    pub playbook: Option<String>,
    /// Counterfactual audit slots named by their text: slot name → the phrase in the
    /// body or the prompt that fills it (e.g. `author: "a junior associate"`).
    #[serde(default)]
    pub cues: Option<std::collections::BTreeMap<String, String>>,
    /// An evidence set (JSON, docs/contracts.md "Evidence set"), relative to the document.
    #[serde(default)]
    pub evidence: Option<String>,
    /// The date evidence must be in force at, `YYYY-MM-DD` (default: today).
    #[serde(default)]
    pub as_of: Option<String>,
}

#[derive(Deserialize)]
struct FrontMatterRoot {
    #[serde(default)]
    byop: Option<FrontMatter>,
}

/// The largest front matter read, in bytes: a document's settings fit in far less.
pub const MAX_FRONT_MATTER_BYTES: usize = 64 * 1024;
/// The deepest nesting read (block indentation, `- ` items and `[`/`{` brackets together).
pub const MAX_FRONT_MATTER_DEPTH: usize = 32;

/// Refuse YAML too large or too deeply nested before the parser sees it (a parser's time
/// can grow faster than its input with nesting): the byte offset of the excess and why.
/// One pass over the text.
pub fn yaml_bounds(yaml: &str) -> Result<(), (usize, String)> {
    if yaml.len() > MAX_FRONT_MATTER_BYTES {
        return Err((
            0,
            format!(
                "front matter is {} bytes; at most {MAX_FRONT_MATTER_BYTES} are read",
                yaml.len()
            ),
        ));
    }
    let mut offset = 0;
    let mut indents: Vec<usize> = Vec::new();
    let mut brackets = 0usize;
    for line in yaml.split_inclusive('\n') {
        let content = line.trim_start_matches(' ');
        let indent = line.len() - content.len();
        if brackets == 0 && !content.trim().is_empty() && !content.starts_with('#') {
            while indents.last().is_some_and(|&i| i >= indent) {
                indents.pop();
            }
            indents.push(indent);
        }
        // `- - - x` nests on one line.
        let mut items = 0;
        let mut rest = content;
        while let Some(r) = rest.strip_prefix("- ").or_else(|| rest.strip_prefix("? ")) {
            items += 1;
            rest = r.trim_start_matches(' ');
        }
        let (mut quote, mut deepest) = (None, brackets);
        for c in rest.chars() {
            match (quote, c) {
                (None, '#') => break,
                (None, '\'' | '"') => quote = Some(c),
                (Some(q), c) if c == q => quote = None,
                (None, '[' | '{') => {
                    brackets += 1;
                    deepest = deepest.max(brackets);
                }
                (None, ']' | '}') => brackets = brackets.saturating_sub(1),
                _ => {}
            }
        }
        let depth = indents.len() + items + deepest;
        if depth > MAX_FRONT_MATTER_DEPTH {
            return Err((
                offset + indent,
                format!("front matter is nested more than {MAX_FRONT_MATTER_DEPTH} levels deep"),
            ));
        }
        offset += line.len();
    }
    Ok(())
}

/// Where a front matter block lies: `---` alone on the first line up to the next line that
/// is `---` (only `---`: renderers that know front matter close it there, and show what
/// follows a YAML `...` as prose, so `...` never closes it here either). `Some((yaml, body_start))` — the YAML's byte range and where the body
/// starts (after the closing line); `None` when the first line is not `---` or the block is
/// never closed. The one definition every reader of front matter uses.
pub fn bounds(text: &str) -> Option<(std::ops::Range<usize>, usize)> {
    let first_end = text.find('\n').map(|i| i + 1).unwrap_or(text.len());
    if text[..first_end].trim_end() != "---" {
        return None;
    }
    let mut offset = first_end;
    for line in text[first_end..].split_inclusive('\n') {
        if line.trim_end() == "---" {
            return Some((first_end..offset, offset + line.len()));
        }
        offset += line.len();
    }
    None
}

/// The YAML of a leading front matter block, if there is one.
pub fn yaml(text: &str) -> Option<&str> {
    bounds(text).map(|(yaml, _)| &text[yaml])
}

/// The text without a leading front matter block (all of it when there is none).
pub fn body(text: &str) -> &str {
    bounds(text).map_or(text, |(_, body)| &text[body..])
}

/// Front matter is `---` on the first line up to a line `---`; a `...` line inside it is
/// refused at its line (a renderer would end the front matter there and show the rest as
/// prose, which would then go unchecked). Returns the parsed `byop:` keys and where the
/// body starts.
pub(super) fn split_front_matter(
    text: &str,
    label: &str,
) -> Result<(FrontMatter, usize), DocumentError> {
    let first_end = text.find('\n').map(|i| i + 1).unwrap_or(text.len());
    if text[..first_end].trim_end() != "---" {
        return Ok((FrontMatter::default(), 0));
    }
    let end = bounds(text).map_or(text.len(), |(yaml, _)| yaml.end);
    if let Some(at) = dots_line(text, first_end, end) {
        let idx = LineIndex::new(text);
        return Err(err(
            label,
            idx.position(text, at, Encoding::Utf16),
            "front matter must be closed by a `---` line, not `...`: a renderer ends it at `---` only and would show what follows as prose, which would go unchecked".into(),
        ));
    }
    match bounds(text) {
        Some((yaml, body_start)) => {
            let fm = parse_yaml(&text[yaml.clone()], text, yaml.start, label)?;
            Ok((fm, body_start))
        }
        None => {
            let idx = LineIndex::new(text);
            Err(err(
                label,
                idx.position(text, 0, Encoding::Utf16),
                "front matter starts with `---` but is never closed by a `---` line".into(),
            ))
        }
    }
}

/// The offset of the first line between `from` and `to` that is `...` (a YAML document end).
fn dots_line(text: &str, from: usize, to: usize) -> Option<usize> {
    let mut offset = from;
    for line in text[from..to].split_inclusive('\n') {
        if line.trim_end() == "..." {
            return Some(offset);
        }
        offset += line.len();
    }
    None
}

fn parse_yaml(
    yaml: &str,
    text: &str,
    yaml_start: usize,
    label: &str,
) -> Result<FrontMatter, DocumentError> {
    if yaml.trim().is_empty() {
        return Ok(FrontMatter::default());
    }
    if let Err((at, why)) = yaml_bounds(yaml) {
        let idx = LineIndex::new(text);
        let offset = (yaml_start + at).min(text.len());
        return Err(err(label, idx.position(text, offset, Encoding::Utf16), why));
    }
    match serde_norway::from_str::<Option<FrontMatterRoot>>(yaml) {
        Ok(root) => Ok(root.and_then(|r| r.byop).unwrap_or_default()),
        Err(e) => {
            let idx = LineIndex::new(text);
            let offset = e
                .location()
                .map(|l| yaml_start + l.index())
                .unwrap_or(yaml_start)
                .min(text.len());
            let msg = e.to_string();
            let msg = msg.split(" at line ").next().unwrap_or(&msg).to_string();
            Err(err(
                label,
                idx.position(text, offset, Encoding::Utf16),
                format!("invalid front matter: {msg}"),
            ))
        }
    }
}

/// Byte offset of the line holding `key:` under `byop:` (for errors about its value),
/// else of the front matter's first line.
pub fn key_offset(text: &str, key: &str) -> usize {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        if offset > 0 && (t == "---\n" || t == "---" || t.starts_with("...")) {
            break;
        }
        if t.starts_with(key) && t[key.len()..].trim_start().starts_with(':') {
            return offset + (line.len() - t.len());
        }
        offset += line.len();
    }
    0
}

#[cfg(test)]
mod bounds_tests {
    use super::*;

    #[test]
    fn oversized_or_deeply_nested_front_matter_is_refused_before_parsing() {
        assert!(yaml_bounds("byop:\n  source: a.md\n  cues:\n    x: \"[{\"\n").is_ok());
        let deep_flow = format!("a: {}{}\n", "[".repeat(40), "]".repeat(40));
        assert!(yaml_bounds(&deep_flow).unwrap_err().1.contains("nested"));
        let deep_items = format!("a:\n{}x\n", "- ".repeat(40));
        assert!(yaml_bounds(&deep_items).is_err());
        let deep_blocks: String = (0..40)
            .map(|i| format!("{}k{i}:\n", " ".repeat(i)))
            .collect();
        assert_eq!(
            yaml_bounds(&deep_blocks).unwrap_err().0,
            deep_blocks.find("k32").unwrap()
        );
        let big = format!("a: \"{}\"\n", "x".repeat(MAX_FRONT_MATTER_BYTES));
        assert!(yaml_bounds(&big).unwrap_err().1.contains("bytes"));
        // The document reports it at a position.
        let doc = format!("---\n{deep_flow}---\n# Body\n");
        let e = crate::engine::document::Document::parse(doc, None).unwrap_err();
        assert!(e.message.contains("nested"), "{}", e.message);
    }

    #[test]
    fn one_definition_of_where_front_matter_lies() {
        // (text, its YAML, its body): closed by `---` or `...`, CRLF lines, trailing
        // spaces on the fences; not front matter when the first line is not `---` or the
        // block never closes.
        let rows: &[(&str, Option<&str>, &str)] = &[
            ("---\na: 1\n---\nbody\n", Some("a: 1\n"), "body\n"),
            // `...` never closes it (renderers end front matter at `---` only).
            (
                "---\r\na: 1\r\n...\r\nbody",
                None,
                "---\r\na: 1\r\n...\r\nbody",
            ),
            ("--- \n---\nbody", Some(""), "body"),
            ("---\na: 1\n---", Some("a: 1\n"), ""),
            ("body\n---\na: 1\n---\n", None, "body\n---\na: 1\n---\n"),
            ("----\na: 1\n---\nbody", None, "----\na: 1\n---\nbody"),
            (
                "---\na: 1\nnever closed\n",
                None,
                "---\na: 1\nnever closed\n",
            ),
        ];
        for &(text, want_yaml, want_body) in rows {
            assert_eq!(yaml(text), want_yaml, "{text:?}");
            assert_eq!(body(text), want_body, "{text:?}");
        }
    }
}
