//! AI-output documents: front matter, companions, normalization (SPEC §2).
//!
//! Offsets everywhere are into the text as it is on disk (the editor's text),
//! so ranges stay in whole-document coordinates; only hashing and prompts
//! see the normalized copy.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::integrity;
use crate::text::{Encoding, LineIndex, Position};

/// The normalized inputs that are hashed and sent to the evaluator.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Inputs {
    pub ai_output: String,
    pub source_document: String,
    pub prompt: String,
}

impl Inputs {
    pub fn fingerprint(&self) -> String {
        integrity::inputs_fingerprint(&self.ai_output, &self.source_document, &self.prompt)
    }
}

/// Seed 000 note 6: trim, line endings to `\n`, everything else verbatim.
pub fn normalize(text: &str) -> String {
    text.replace("\r\n", "\n")
        .replace('\r', "\n")
        .trim()
        .to_string()
}

/// `byop:` keys of the front matter.
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct FrontMatter {
    pub source: Option<String>,
    pub prompt: Option<String>,
    pub playbook: Option<String>,
}

#[derive(Deserialize)]
struct FrontMatterRoot {
    #[serde(default)]
    byop: Option<FrontMatter>,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{file}:{}:{}: {message}", .position.line + 1, .position.character + 1)]
pub struct DocumentError {
    pub file: String,
    pub position: Position,
    pub message: String,
}

#[derive(Debug, Clone)]
pub struct Document {
    pub path: Option<PathBuf>,
    /// The whole file as given (front matter included).
    pub text: String,
    /// Byte range of the evaluated body: after the front matter, whitespace-trimmed.
    pub body: (usize, usize),
    pub front_matter: FrontMatter,
    pub source_path: Option<PathBuf>,
    pub prompt_path: Option<PathBuf>,
    pub inputs: Inputs,
    pub line_index: LineIndex,
}

impl Document {
    /// Read a file from disk, with its companions.
    pub fn load(path: &Path) -> Result<Document, DocumentError> {
        let mut doc = Document::parse(read_text(path)?, Some(path))?;
        doc.load_companions(None, None)?;
        Ok(doc)
    }

    /// Parse text (from disk or an editor buffer). Companions are not read yet.
    pub fn parse(text: String, path: Option<&Path>) -> Result<Document, DocumentError> {
        let label = path
            .map(|p| p.display().to_string())
            .unwrap_or_else(|| "<document>".into());
        if text.contains('\0') {
            let at = text.find('\0').unwrap_or(0);
            let idx = LineIndex::new(&text);
            return Err(err(
                &label,
                idx.position(&text, at, Encoding::Utf16),
                "document contains NUL bytes; is it a binary file?".into(),
            ));
        }
        let (front_matter, body_start) = split_front_matter(&text, &label)?;
        let rest = &text[body_start..];
        let lead = rest.len() - rest.trim_start().len();
        let start = body_start + lead;
        let end = start + text[start..].trim_end().len();
        let line_index = LineIndex::new(&text);
        let ai_output = normalize(&text[start..end]);
        Ok(Document {
            path: path.map(Path::to_path_buf),
            text,
            body: (start, end),
            front_matter,
            source_path: None,
            prompt_path: None,
            inputs: Inputs {
                ai_output,
                ..Default::default()
            },
            line_index,
        })
    }

    /// Resolve companions: explicit overrides (CLI `--source/--prompt`) win over front matter,
    /// whose paths are relative to the document.
    pub fn load_companions(
        &mut self,
        source: Option<&Path>,
        prompt: Option<&Path>,
    ) -> Result<(), DocumentError> {
        let dir = self
            .path
            .as_deref()
            .and_then(Path::parent)
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let resolve = |over: Option<&Path>, fm: &Option<String>| -> Option<PathBuf> {
            over.map(Path::to_path_buf)
                .or_else(|| fm.as_ref().map(|p| dir.join(p)))
        };
        let label = self.label();
        self.source_path = resolve(source, &self.front_matter.source);
        self.prompt_path = resolve(prompt, &self.front_matter.prompt);
        let read = |p: &Option<PathBuf>, what: &str| -> Result<String, DocumentError> {
            let Some(p) = p else { return Ok(String::new()) };
            let bytes = std::fs::read(p).map_err(|e| {
                err(
                    &label,
                    Position::default(),
                    format!("cannot read {what} `{}`: {e}", p.display()),
                )
            })?;
            Ok(normalize(&decode(&p.display().to_string(), bytes)?))
        };
        self.inputs.source_document = read(&self.source_path, "source document")?;
        self.inputs.prompt = read(&self.prompt_path, "prompt")?;
        Ok(())
    }

    pub fn label(&self) -> String {
        self.path
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|| "<document>".into())
    }

    pub fn body_text(&self) -> &str {
        &self.text[self.body.0..self.body.1]
    }

    /// 0-based line where the body starts: where findings with no span sit.
    pub fn body_start_line(&self) -> u32 {
        self.line_index.line_of(self.body.0)
    }

    pub fn range(&self, start: usize, end: usize) -> crate::text::Range {
        self.line_index
            .range(&self.text, start, end, Encoding::Utf16)
    }
}

/// Read a text file as UTF-8 (a BOM dropped), or a positioned error.
pub fn read_text(path: &Path) -> Result<String, DocumentError> {
    let label = path.display().to_string();
    let bytes = std::fs::read(path)
        .map_err(|e| err(&label, Position::default(), format!("cannot read: {e}")))?;
    decode(&label, bytes)
}

fn err(file: &str, position: Position, message: String) -> DocumentError {
    DocumentError {
        file: file.to_string(),
        position,
        message,
    }
}

/// UTF-8 or a clear error at the first bad byte. A UTF-8 BOM is dropped.
fn decode(label: &str, bytes: Vec<u8>) -> Result<String, DocumentError> {
    match String::from_utf8(bytes) {
        Ok(mut s) => {
            if s.starts_with('\u{feff}') {
                s.drain(..3);
            }
            Ok(s)
        }
        Err(e) => {
            let valid = e.utf8_error().valid_up_to();
            let good = String::from_utf8_lossy(&e.as_bytes()[..valid]).into_owned();
            let idx = LineIndex::new(&good);
            let pos = idx.position(&good, valid, Encoding::Utf16);
            Err(err(
                label,
                pos,
                format!("not valid UTF-8 (byte {valid}); byop reads UTF-8 text files"),
            ))
        }
    }
}

/// Front matter is `---` on the first line up to a line `---` or `...`.
/// Returns the parsed `byop:` keys and where the body starts.
fn split_front_matter(text: &str, label: &str) -> Result<(FrontMatter, usize), DocumentError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_matter_is_split_and_body_keeps_whole_document_offsets() {
        let text =
            "---\nbyop:\n  source: nda.txt\n  prompt: p.txt\n---\n\n# Review\nBody text.\n\n"
                .to_string();
        let d = Document::parse(text, None).unwrap();
        assert_eq!(d.front_matter.source.as_deref(), Some("nda.txt"));
        assert_eq!(d.front_matter.prompt.as_deref(), Some("p.txt"));
        assert_eq!(d.body_text(), "# Review\nBody text.");
        assert_eq!(d.body_start_line(), 6);
        assert_eq!(d.inputs.ai_output, "# Review\nBody text.");
    }

    #[test]
    fn no_front_matter_and_other_keys_are_fine() {
        let d = Document::parse("  Hello\r\nworld  ".into(), None).unwrap();
        assert_eq!(d.inputs.ai_output, "Hello\nworld");
        assert_eq!(d.body, (2, 14));
        let d = Document::parse("---\ntitle: x\n---\nBody".into(), None).unwrap();
        assert_eq!(d.front_matter, FrontMatter::default());
        assert_eq!(d.body_text(), "Body");
    }

    #[test]
    fn malformed_front_matter_points_at_the_line() {
        let e = Document::parse(
            "---\nbyop:\n  source: [unclosed\n---\nBody".into(),
            Some(Path::new("x.ai.md")),
        )
        .unwrap_err();
        assert!(e.message.starts_with("invalid front matter"), "{e}");
        assert!(e.to_string().starts_with("x.ai.md:"), "{e}");
        assert!(e.position.line >= 2, "{e}");
        let e = Document::parse("---\nbyop:\n  sorce: a.txt\n---\nBody".into(), None).unwrap_err();
        assert!(e.message.contains("unknown field `sorce`"), "{e}");
        let e = Document::parse("---\nbyop: {}\nBody".into(), None).unwrap_err();
        assert!(e.message.contains("never closed"), "{e}");
    }

    #[test]
    fn binary_and_invalid_utf8_are_clear_errors() {
        let e = Document::parse("abc\0def".into(), None).unwrap_err();
        assert!(e.message.contains("NUL"), "{e}");
        let e = decode("f", vec![b'o', b'k', b'\n', 0xff]).unwrap_err();
        assert!(e.message.contains("UTF-8"), "{e}");
        assert_eq!(
            e.position,
            Position {
                line: 1,
                character: 0
            }
        );
    }

    #[test]
    fn companions_resolve_relative_to_the_document() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/nda.txt"), "  NDA text\r\n").unwrap();
        let doc_path = dir.path().join("r.ai.md");
        std::fs::write(&doc_path, "---\nbyop:\n  source: src/nda.txt\n---\nReview").unwrap();
        let d = Document::load(&doc_path).unwrap();
        assert_eq!(d.inputs.source_document, "NDA text");
        assert_eq!(d.inputs.prompt, "");
        std::fs::write(&doc_path, "---\nbyop:\n  prompt: missing.txt\n---\nReview").unwrap();
        let e = Document::load(&doc_path).unwrap_err();
        assert!(e.message.contains("missing.txt"), "{e}");
    }

    #[test]
    fn empty_document_parses_to_empty_body() {
        let d = Document::parse(String::new(), None).unwrap();
        assert_eq!(d.body, (0, 0));
        assert_eq!(d.inputs.ai_output, "");
    }
}
