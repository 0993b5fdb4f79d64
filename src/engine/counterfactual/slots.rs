//! Cue slots: `{{cue:<slot>}}` in the document body or its prompt companion, phrases
//! named in front matter (`byop.cues: {slot: "phrase"}`), or the catalog's default
//! framing line put into the prompt when nothing is marked. A document becomes a
//! template; each variant fills every slot; the facts hash blanks them.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::catalog::{self, Catalog};
use super::template::{Template, valid_name};
use crate::engine::document::{Companion, CompanionRole, Document};
use crate::model::inputs::normalize;
use crate::model::integrity::{canonical_json, sha256_hex};

/// Most slots front matter may name (each phrase is searched for in the whole text).
const MAX_NAMED: usize = 32;

/// `text` with the byte ranges `spans` (sorted, disjoint) removed.
fn cut(text: &str, spans: &[(usize, usize)]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for &(s, e) in spans {
        out.push_str(&text[at..s]);
        at = e;
    }
    out.push_str(&text[at..]);
    out
}

/// sha256 of the three normalized inputs (as the inputs fingerprint hashes them).
fn facts(ai_output: &str, source: &str, prompt: &str) -> String {
    let canonical = canonical_json(&serde_json::json!({
        "ai_output": normalize(ai_output),
        "source_document": source,
        "prompt": normalize(prompt),
    }));
    format!("sha256:{}", sha256_hex(canonical.as_bytes()))
}

/// The audited document as a template.
#[derive(Debug, Clone)]
pub struct Frame {
    body: Template,
    prompt: Template,
    prompt_path: PathBuf,
    /// The document's own text of the slots named in front matter.
    originals: BTreeMap<String, String>,
    /// Where the slots came from ("document", "prompt", "front_matter", "default_framing").
    pub sources: Vec<String>,
    /// The facts hash: the inputs with every slot blanked.
    pub facts_hash: String,
}

/// One variant: the document with every slot filled, and its facts hash.
pub struct Variant {
    pub doc: Document,
    pub facts_hash: String,
}

impl Frame {
    /// Find the slots of `doc` (body, prompt, front matter), else frame the prompt with
    /// the catalog's default line. A slot without a cue in the catalog is an error.
    pub fn new(doc: &Document, catalog: &Catalog) -> Result<Frame, String> {
        let label = doc.label();
        let mut body = Template::parse(doc.body_text()).map_err(|e| format!("{label}: {e}"))?;
        let prompt_text = doc.prompt.as_ref().map(Companion::text).unwrap_or("");
        let mut prompt = Template::parse(prompt_text).map_err(|e| format!("prompt: {e}"))?;
        let mut sources = Vec::new();
        if body.has_slots() {
            sources.push("document".to_string());
        }
        if prompt.has_slots() {
            sources.push("prompt".to_string());
        }
        let named: BTreeMap<String, String> = doc.front_matter.cues.clone().unwrap_or_default();
        if named.len() > MAX_NAMED
            || named
                .values()
                .any(|p| p.is_empty() || p.len() > catalog::MAX_VALUE)
        {
            return Err(format!(
                "{label}: front matter byop.cues names at most {MAX_NAMED} slots, each by a phrase of 1–{} bytes",
                catalog::MAX_VALUE
            ));
        }
        for (slot, phrase) in &named {
            if !valid_name(slot) {
                return Err(format!(
                    "{label}: front matter byop.cues: slot `{slot}` must be 1–64 of a-z, 0-9, _ and -"
                ));
            }
            let before = body.slots().count() + prompt.slots().count();
            body.mark_phrase(slot, phrase);
            prompt.mark_phrase(slot, phrase);
            if body.slots().count() + prompt.slots().count() == before {
                return Err(format!(
                    "{label}: front matter byop.cues: the phrase {phrase:?} of slot `{slot}` is not in the document or its prompt"
                ));
            }
        }
        if !named.is_empty() {
            sources.push("front_matter".to_string());
        }
        if !body.has_slots() && !prompt.has_slots() {
            let Some(framing) = &catalog.default_framing else {
                return Err(format!(
                    "{label}: no cue slot (`{{{{cue:author}}}}`) in the document or its prompt, and the cue catalog has no default_framing"
                ));
            };
            let mut line = Template::parse(&format!("{framing}\n\n"))?;
            if prompt_text.is_empty() {
                line = Template::parse(framing)?;
            }
            prompt.prepend(line);
            sources.push("default_framing".to_string());
        }
        if let Some(s) = body
            .slots()
            .chain(prompt.slots())
            .find(|s| catalog.neutral(s).is_none() && !named.contains_key(*s))
        {
            return Err(format!(
                "{label}: the cue slot `{s}` has no cue in the catalog"
            ));
        }
        let prompt_path = doc
            .prompt_path()
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("<default framing>"));
        let facts_hash = facts(
            &body.blanked(),
            &doc.inputs.source_document,
            &prompt.blanked(),
        );
        Ok(Frame {
            body,
            prompt,
            prompt_path,
            originals: named,
            sources,
            facts_hash,
        })
    }

    /// The document's own text of a slot named in front matter.
    pub fn original(&self, slot: &str) -> Option<&str> {
        self.originals.get(slot).map(String::as_str)
    }

    /// The slots present, each once, in order of appearance.
    pub fn slots(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for s in self.body.slots().chain(self.prompt.slots()) {
            if !out.iter().any(|o| o == s) {
                out.push(s.to_string());
            }
        }
        out
    }

    /// The document with each slot filled by `fill`; refuses when the variant's facts
    /// (its text with the filled values cut out) differ from the template's.
    pub fn variant(
        &self,
        doc: &Document,
        fill: &dyn Fn(&str) -> String,
    ) -> Result<Variant, String> {
        let (body, body_spans) = self.body.render(fill);
        let (prompt, prompt_spans) = self.prompt.render(fill);
        let text = format!(
            "{}{body}{}",
            &doc.text[..doc.body.0],
            &doc.text[doc.body.1..]
        );
        let mut v = Document::parse(text, doc.path.as_deref()).map_err(|e| e.to_string())?;
        if v.front_matter != doc.front_matter {
            return Err("a cue value changed the document's front matter".into());
        }
        if let Some(source) = &doc.source {
            v.attach(CompanionRole::Source, source.clone());
        }
        if !prompt.is_empty() {
            v.attach(
                CompanionRole::Prompt,
                Companion::new(self.prompt_path.clone(), prompt.clone()),
            );
        }
        let facts_hash = facts(
            &cut(&body, &body_spans),
            &v.inputs.source_document,
            &cut(&prompt, &prompt_spans),
        );
        if facts_hash != self.facts_hash {
            return Err(format!(
                "the facts differ between variants (facts hash {facts_hash} ≠ {}): a cue may only change its slot",
                self.facts_hash
            ));
        }
        Ok(Variant { doc: v, facts_hash })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str, prompt: Option<&str>) -> Document {
        let mut d = Document::parse(text.to_string(), None).unwrap();
        if let Some(p) = prompt {
            d.attach(
                CompanionRole::Prompt,
                Companion::new("p.txt".into(), p.into()),
            );
        }
        d
    }

    fn fill_with(v: &'static str) -> impl Fn(&str) -> String {
        move |_| v.to_string()
    }

    #[test]
    fn markers_split_and_render() {
        let t = Template::parse("A {{cue:author}} and {{ cue:x }}{{cue:firm}}.").unwrap();
        assert_eq!(t.slots().collect::<Vec<_>>(), ["author", "firm"]);
        let (text, spans) = t.render(&|s| s.to_uppercase());
        assert_eq!(text, "A AUTHOR and {{ cue:x }}FIRM.");
        assert_eq!(spans, [(2, 8), (24, 28)]);
        assert_eq!(cut(&text, &spans), "A  and {{ cue:x }}.");
        assert!(
            Template::parse("x {{cue:a")
                .unwrap_err()
                .contains("never closed")
        );
        assert!(
            Template::parse("{{cue:A B}}")
                .unwrap_err()
                .contains("slot name")
        );
    }

    #[test]
    fn slots_in_body_and_prompt_fill_and_hash_the_same_facts() {
        let d = doc(
            "---\nbyop:\n  prompt: p.txt\n---\nReview by {{cue:author}}.\n",
            Some("Asked by {{cue:client}}."),
        );
        let c = Catalog::builtin();
        let f = Frame::new(&d, &c).unwrap();
        assert_eq!(f.sources, ["document", "prompt"]);
        assert_eq!(f.slots(), ["author", "client"]);
        let a = f.variant(&d, &fill_with("a senior partner")).unwrap();
        let b = f.variant(&d, &fill_with("x")).unwrap();
        assert_eq!(a.doc.inputs.ai_output, "Review by a senior partner.");
        assert_eq!(&*a.doc.inputs.prompt, "Asked by a senior partner.");
        assert!(a.doc.text.starts_with("---\nbyop:\n  prompt: p.txt\n---\n"));
        assert_eq!(a.facts_hash, b.facts_hash);
        assert_eq!(a.facts_hash, f.facts_hash);
        assert_ne!(a.doc.inputs.fingerprint(), b.doc.inputs.fingerprint());
    }

    #[test]
    fn front_matter_names_phrases_as_slots() {
        let d = doc(
            "---\nbyop:\n  cues:\n    author: a junior associate\n---\nWritten by a junior associate; a junior associate signed.\n",
            None,
        );
        let f = Frame::new(&d, &Catalog::builtin()).unwrap();
        assert_eq!(f.sources, ["front_matter"]);
        let v = f.variant(&d, &fill_with("a senior partner")).unwrap();
        assert_eq!(
            v.doc.inputs.ai_output,
            "Written by a senior partner; a senior partner signed."
        );
        // The front matter itself is not touched.
        assert!(v.doc.text.contains("author: a junior associate"));
        let d = doc("---\nbyop:\n  cues:\n    author: ''\n---\nText.\n", None);
        let e = Frame::new(&d, &Catalog::builtin()).unwrap_err();
        assert!(e.contains("a phrase of 1–"), "{e}");
        let d = doc(
            "---\nbyop:\n  cues:\n    author: nobody\n---\nText.\n",
            None,
        );
        let e = Frame::new(&d, &Catalog::builtin()).unwrap_err();
        assert!(e.contains("is not in the document"), "{e}");
    }

    #[test]
    fn a_document_without_slots_gets_the_default_framing_in_its_prompt() {
        let d = doc("Plain review.\n", Some("Review this NDA."));
        let c = Catalog::builtin();
        let f = Frame::new(&d, &c).unwrap();
        assert_eq!(f.sources, ["default_framing"]);
        let neutral = |s: &str| c.neutral(s).unwrap().to_string();
        let v = f.variant(&d, &neutral).unwrap();
        assert!(
            v.doc
                .inputs
                .prompt
                .starts_with("This review was requested by a junior associate")
        );
        assert!(v.doc.inputs.prompt.ends_with("\n\nReview this NDA."));
        assert_eq!(v.doc.inputs.ai_output, "Plain review.");
        // No prompt at all: the framing line is the prompt.
        let d = doc("Plain review.\n", None);
        let v = Frame::new(&d, &c).unwrap().variant(&d, &neutral).unwrap();
        assert!(v.doc.inputs.prompt.starts_with("This review was requested"));
    }

    #[test]
    fn unknown_slots_are_input_errors() {
        let d = doc("By {{cue:nobody_knows}}.", None);
        let e = Frame::new(&d, &Catalog::builtin()).unwrap_err();
        assert!(e.contains("`nobody_knows` has no cue"), "{e}");
    }
}
