//! A text with cue slots: `{{cue:<slot>}}` markers split out of the text, and what a
//! slot may be called. Shared by the catalog (its framing line) and the slots.

const OPEN: &str = "{{cue:";
const CLOSE: &str = "}}";

#[derive(Debug, Clone, PartialEq)]
enum Seg {
    Text(String),
    Slot(String),
}

/// A text with cue slots.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Template {
    segs: Vec<Seg>,
}

impl Template {
    /// Split `text` at its `{{cue:<slot>}}` markers (a marker left open is an error).
    pub fn parse(text: &str) -> Result<Template, String> {
        let mut segs = Vec::new();
        let mut rest = text;
        while let Some(at) = rest.find(OPEN) {
            let after = &rest[at + OPEN.len()..];
            let Some(end) = after.find(CLOSE) else {
                return Err(format!(
                    "a cue slot `{OPEN}` at byte {} is never closed by `{CLOSE}`",
                    text.len() - rest.len() + at
                ));
            };
            let name = after[..end].trim();
            if !valid_name(name) {
                return Err(format!(
                    "cue slot `{OPEN}{name}{CLOSE}`: a slot name is 1–64 of a-z, 0-9, _ and -"
                ));
            }
            if at > 0 {
                segs.push(Seg::Text(rest[..at].to_string()));
            }
            segs.push(Seg::Slot(name.to_string()));
            rest = &after[end + CLOSE.len()..];
        }
        if !rest.is_empty() {
            segs.push(Seg::Text(rest.to_string()));
        }
        Ok(Template { segs })
    }

    /// Turn every occurrence of `phrase` in the plain text into the slot `slot`.
    pub(super) fn mark_phrase(&mut self, slot: &str, phrase: &str) {
        if phrase.is_empty() {
            return;
        }
        let mut out = Vec::with_capacity(self.segs.len());
        for seg in self.segs.drain(..) {
            let Seg::Text(text) = seg else {
                out.push(seg);
                continue;
            };
            let mut rest = text.as_str();
            while let Some(at) = rest.find(phrase) {
                if at > 0 {
                    out.push(Seg::Text(rest[..at].to_string()));
                }
                out.push(Seg::Slot(slot.to_string()));
                rest = &rest[at + phrase.len()..];
            }
            if !rest.is_empty() {
                out.push(Seg::Text(rest.to_string()));
            }
        }
        self.segs = out;
    }

    pub fn slots(&self) -> impl Iterator<Item = &str> {
        self.segs.iter().filter_map(|s| match s {
            Seg::Slot(n) => Some(n.as_str()),
            Seg::Text(_) => None,
        })
    }

    pub fn has_slots(&self) -> bool {
        self.slots().next().is_some()
    }

    /// The text with each slot filled, and the byte ranges of the filled values.
    pub(super) fn render(&self, fill: &dyn Fn(&str) -> String) -> (String, Vec<(usize, usize)>) {
        let mut out = String::new();
        let mut spans = Vec::new();
        for seg in &self.segs {
            match seg {
                Seg::Text(t) => out.push_str(t),
                Seg::Slot(name) => {
                    let start = out.len();
                    out.push_str(&fill(name));
                    spans.push((start, out.len()));
                }
            }
        }
        (out, spans)
    }

    /// The text with every slot blanked.
    pub(super) fn blanked(&self) -> String {
        self.render(&|_| String::new()).0
    }

    pub(super) fn prepend(&mut self, other: Template) {
        let mut segs = other.segs;
        segs.append(&mut self.segs);
        self.segs = segs;
    }
}

/// The slot names of a text, in order (repeats kept).
pub fn slot_names(text: &str) -> Result<Vec<String>, String> {
    Ok(Template::parse(text)?.slots().map(str::to_string).collect())
}

pub fn valid_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}
