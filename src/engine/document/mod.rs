//! AI-output documents: front matter, companions, normalization.
//!
//! Offsets everywhere are into the text as it is on disk (the editor's text),
//! so ranges stay in whole-document coordinates; only hashing and prompts
//! see the normalized copy. Reading files is the caller's business
//! (`workspace`): a document is parsed from text and given its companions' text.

mod decode;
mod error;
pub mod front_matter;
pub mod layout;

use std::any::Any;
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use crate::engine::injection;
use crate::model::inputs::normalize;
use crate::model::integrity::{inputs_fingerprint_of_json, json_string};
use crate::model::text::{Encoding, LineIndex, Position};
use crate::model::{InjectionWarning, Inputs, Range};

pub use decode::decode;
pub use error::DocumentError;
use error::err;
pub use front_matter::FrontMatter;
pub use layout::Layout;

/// What a companion file is to the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompanionRole {
    /// The document the AI analysed.
    Source,
    /// The prompt that produced the output.
    Prompt,
    /// The evidence set the output must cite from (docs/contracts.md, Evidence set).
    Evidence,
}

/// A companion's path and its text as read (not normalized), for locating things in it.
/// The text is shared: a batch reads a contract that many reviews name once, and what
/// depends on the text alone (its normalized copy, its injection scan) is computed once.
#[derive(Debug, Clone)]
pub struct Companion {
    pub path: PathBuf,
    content: Arc<CompanionText>,
}

/// A companion file's text and what is derived from it alone, each on first use.
#[derive(Debug, Default)]
pub struct CompanionText {
    text: String,
    normalized: OnceLock<Arc<str>>,
    /// `normalized` as a JSON string, as the inputs fingerprint hashes it.
    normalized_json: OnceLock<String>,
    injection: OnceLock<Vec<InjectionWarning>>,
    /// The whole text's layout (plain or markdown by the first path that asks).
    layout: OnceLock<Layout>,
    /// Indexes of the text that later stages build (the grounding index of a source), one
    /// per type, each built once for every document naming the file.
    derived: Mutex<Vec<Arc<dyn Any + Send + Sync>>>,
}

impl CompanionText {
    pub fn new(text: String) -> Self {
        CompanionText {
            text,
            ..Default::default()
        }
    }
}

impl Companion {
    pub fn new(path: PathBuf, text: String) -> Self {
        Self::shared(path, Arc::new(CompanionText::new(text)))
    }

    /// The same text under this document's path for it.
    pub fn shared(path: PathBuf, content: Arc<CompanionText>) -> Self {
        Companion { path, content }
    }

    pub fn text(&self) -> &str {
        &self.content.text
    }

    /// No text a reader sees: 0 bytes, or only whitespace, byte-order marks and other
    /// characters that render as nothing (zero-width spaces: Unicode's default-ignorable
    /// code points). For the checks that read it, such a companion is no companion (an
    /// empty source grounds nothing).
    pub fn is_blank(&self) -> bool {
        use unicode_security::GeneralSecurityProfile;
        use unicode_security::general_security_profile::IdentifierType;
        (self.content.text.chars()).all(|c| {
            c.is_whitespace() || c.identifier_type() == Some(IdentifierType::Default_Ignorable)
        })
    }

    /// The copy that is hashed and sent to the evaluator.
    pub fn normalized(&self) -> &str {
        self.normalized_shared()
    }

    /// [`Companion::normalized`], shared rather than copied.
    fn normalized_shared(&self) -> &Arc<str> {
        self.content
            .normalized
            .get_or_init(|| normalize(&self.content.text).into())
    }

    /// [`Companion::normalized`] as a JSON string literal.
    pub fn normalized_json(&self) -> &str {
        self.content
            .normalized_json
            .get_or_init(|| json_string(self.normalized()))
    }

    /// The companion's [`Layout`], built on first use and shared by every document that
    /// names the same file: `.txt` files are plain text, others markdown.
    pub fn layout(&self) -> &Layout {
        self.content.layout.get_or_init(|| {
            let text = self.text();
            Layout::for_path(text, (0, text.len()), Some(&self.path))
        })
    }

    /// An index of the companion's text of type `T`, built by `build` on first use and
    /// shared by every document naming the same file (on any thread: the first caller
    /// builds, others wait for it).
    pub fn derived<T: Any + Send + Sync>(&self, build: impl FnOnce(&str) -> T) -> Arc<T> {
        let mut slots = self
            .content
            .derived
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(found) = slots.iter().find_map(|s| s.clone().downcast::<T>().ok()) {
            return found;
        }
        let made = Arc::new(build(&self.content.text));
        slots.push(made.clone());
        made
    }

    /// Text in the companion that addresses an evaluator (`file` left for the caller).
    pub fn injection_warnings(&self) -> &[InjectionWarning] {
        self.content.injection.get_or_init(|| {
            let text = self.text();
            let hits = injection::scan(text, (0, text.len()));
            if hits.is_empty() {
                return Vec::new();
            }
            let index = LineIndex::new(text);
            hits.into_iter()
                .map(|h| InjectionWarning {
                    span: text[h.start..h.end].to_string(),
                    range: Some(index.range(text, h.start, h.end, Encoding::Utf16)),
                    byte_range: Some((h.start, h.end)),
                    reason: h.reason,
                    file: None,
                })
                .collect()
        })
    }
}

impl PartialEq for Companion {
    fn eq(&self, other: &Self) -> bool {
        self.path == other.path && self.text() == other.text()
    }
}

#[derive(Debug, Clone)]
pub struct Document {
    pub path: Option<PathBuf>,
    /// The whole file as given (front matter included).
    pub text: String,
    /// Byte range of the evaluated body: after the front matter, whitespace-trimmed.
    pub body: (usize, usize),
    pub front_matter: FrontMatter,
    pub source: Option<Companion>,
    pub prompt: Option<Companion>,
    pub evidence: Option<Companion>,
    /// Front matter names an evidence file that could not be read.
    pub evidence_unreadable: bool,
    /// `byop.toml` `evidence.allowed_origins` (set by the workspace).
    pub allowed_origins: Vec<String>,
    pub inputs: Inputs,
    pub line_index: LineIndex,
    /// `inputs.fingerprint()`, computed on first use (hashing the texts is the costliest
    /// step of a small run, and a run, its store write and its publish each need it).
    fingerprint: std::sync::OnceLock<String>,
    /// The body's layout, built on first use (see [`Document::layout`]).
    layout: OnceLock<Layout>,
    /// A reading of the document by a layer above it (the plan reader's), built on first
    /// use (see [`Document::derived`]); reset when a companion is attached.
    derived: OnceLock<Arc<dyn Any + Send + Sync>>,
}

impl Document {
    /// Parse text (from disk or an editor buffer). Companions are attached separately.
    pub fn parse(text: String, path: Option<&Path>) -> Result<Document, DocumentError> {
        let label = path
            .map(|p| p.display().to_string())
            .unwrap_or_else(|| "<document>".into());
        if let Some(at) = text.find('\0') {
            let idx = LineIndex::new(&text);
            return Err(err(
                &label,
                idx.position(&text, at, Encoding::Utf16),
                "document contains NUL bytes; is it a binary file?".into(),
            ));
        }
        let (front_matter, body_start) = front_matter::split_front_matter(&text, &label)?;
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
            source: None,
            prompt: None,
            evidence: None,
            evidence_unreadable: false,
            allowed_origins: Vec::new(),
            inputs: Inputs {
                ai_output,
                ..Default::default()
            },
            line_index,
            fingerprint: std::sync::OnceLock::new(),
            layout: OnceLock::new(),
            derived: OnceLock::new(),
        })
    }

    /// The fingerprint of the normalized inputs (see [`Inputs::fingerprint`]).
    pub fn fingerprint(&self) -> &str {
        self.fingerprint.get_or_init(|| {
            // Equal to `self.inputs.fingerprint()`: attaching a companion puts its
            // normalized text in the inputs; its escaped form is shared by the batch.
            fn escaped<'a>(c: &'a Option<Companion>, text: &str) -> Cow<'a, str> {
                match c {
                    Some(c) => Cow::Borrowed(c.normalized_json()),
                    None => Cow::Owned(json_string(text)),
                }
            }
            inputs_fingerprint_of_json(
                &json_string(&self.inputs.ai_output),
                &escaped(&self.source, &self.inputs.source_document),
                &escaped(&self.prompt, &self.inputs.prompt),
            )
        })
    }

    /// The body's [`Layout`] (headings, lists, tables, sentences, … with whole-document
    /// offsets), built once per parsed version on first use: `.txt` documents are plain
    /// text, everything else markdown.
    pub fn layout(&self) -> &Layout {
        self.layout
            .get_or_init(|| Layout::for_path(&self.text, self.body, self.path.as_deref()))
    }

    /// A reading of this document of type `T` by a layer above it (the plan reader's),
    /// built by `build` on first use and shared by every reader of this version; the
    /// document keeps one such reading, so it depends on no reader's types.
    pub fn derived<T: Any + Send + Sync>(&self, build: impl FnOnce(&Document) -> T) -> &T {
        self.derived
            .get_or_init(|| Arc::new(build(self)))
            .downcast_ref::<T>()
            .expect("a document keeps one kind of derived reading")
    }

    /// Attach a companion's text; the normalized copy goes into the hashed inputs.
    pub fn attach(&mut self, role: CompanionRole, companion: Companion) {
        let normalized = companion.normalized_shared().clone();
        self.fingerprint = std::sync::OnceLock::new();
        self.derived = OnceLock::new();
        match role {
            CompanionRole::Source => {
                self.inputs.source_document = normalized;
                self.source = Some(companion);
            }
            CompanionRole::Prompt => {
                self.inputs.prompt = normalized;
                self.prompt = Some(companion);
            }
            CompanionRole::Evidence => self.evidence = Some(companion),
        }
    }

    pub fn source_path(&self) -> Option<&Path> {
        self.source.as_ref().map(|c| c.path.as_path())
    }

    pub fn prompt_path(&self) -> Option<&Path> {
        self.prompt.as_ref().map(|c| c.path.as_path())
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

    pub fn range(&self, start: usize, end: usize) -> Range {
        self.line_index
            .range(&self.text, start, end, Encoding::Utf16)
    }

    /// Position of a byte offset of the text (UTF-16 columns).
    pub fn position(&self, offset: usize) -> Position {
        self.line_index
            .position(&self.text, offset, Encoding::Utf16)
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
    fn the_fingerprint_from_shared_companions_is_the_fingerprint_of_the_inputs() {
        let text = || "Review \"quoted\"\r\nline\t2 é".to_string();
        let source = Arc::new(CompanionText::new(" Contract\r\n§ 1 \u{1}\\ “x” ".into()));
        let plain = Document::parse(text(), None).unwrap();
        assert_eq!(plain.fingerprint(), plain.inputs.fingerprint());
        let mut one = Document::parse(text(), None).unwrap();
        one.attach(
            CompanionRole::Source,
            Companion::shared("a/src.txt".into(), source.clone()),
        );
        let mut two = Document::parse(text(), None).unwrap();
        two.attach(
            CompanionRole::Source,
            Companion::shared("b/../src.txt".into(), source),
        );
        two.attach(
            CompanionRole::Prompt,
            Companion::new("p.txt".into(), "Review it\r\n".into()),
        );
        assert_eq!(&*one.inputs.source_document, "Contract\n§ 1 \u{1}\\ “x”");
        assert_eq!(one.fingerprint(), one.inputs.fingerprint());
        assert_eq!(two.fingerprint(), two.inputs.fingerprint());
        assert_ne!(one.fingerprint(), two.fingerprint());
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
    fn empty_document_parses_to_empty_body() {
        let d = Document::parse(String::new(), None).unwrap();
        assert_eq!(d.body, (0, 0));
        assert_eq!(d.inputs.ai_output, "");
    }
}
