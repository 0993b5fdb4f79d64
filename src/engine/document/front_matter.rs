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

/// Front matter is `---` on the first line up to a line `---` or `...`.
/// Returns the parsed `byop:` keys and where the body starts.
pub(super) fn split_front_matter(
    text: &str,
    label: &str,
) -> Result<(FrontMatter, usize), DocumentError> {
    let first_end = text.find('\n').map(|i| i + 1).unwrap_or(text.len());
    if text[..first_end].trim_end() != "---" {
        return Ok((FrontMatter::default(), 0));
    }
    let mut offset = first_end;
    for line in text[first_end..].split_inclusive('\n') {
        let t = line.trim_end();
        if t == "---" || t == "..." {
            let yaml = &text[first_end..offset];
            let fm = parse_yaml(yaml, text, first_end, label)?;
            return Ok((fm, offset + line.len()));
        }
        offset += line.len();
    }
    let idx = LineIndex::new(text);
    Err(err(
        label,
        idx.position(text, 0, Encoding::Utf16),
        "front matter starts with `---` but is never closed by a `---` line".into(),
    ))
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
