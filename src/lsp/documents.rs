//! Open documents: a rope per document, edits applied strictly in version order.
//!
//! The framework may run notifications concurrently, so a change whose version
//! is not the next one is held back until the gap fills (or the debounce timer
//! flushes it, for clients that skip versions).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use ropey::Rope;
use tokio_util::sync::CancellationToken;
use tower_lsp_server::ls_types::{Position, TextDocumentContentChangeEvent};

use super::view::View;
use crate::engine::live::Evaluation;
use crate::model::text::Encoding;

/// What kind of file the editor opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An AI-output document: checked against the playbook.
    Output,
    /// A playbook JSON file: checked for its own errors.
    Playbook,
}

/// What the last publish showed; hover and code actions read it.
pub type ViewRef = Arc<View>;

pub struct DocInner {
    pub rope: Rope,
    pub version: i32,
    pub kind: Kind,
    pending: BTreeMap<i32, Vec<TextDocumentContentChangeEvent>>,
    pub evaluation: Option<Arc<Evaluation>>,
    /// The running evaluation: its id and cancellation token.
    pub eval: Option<(u64, CancellationToken)>,
    /// Id of the last report saved to the store for this document.
    pub last_report_id: Option<String>,
    pub view: Option<ViewRef>,
    /// Bumped on every change; a debounced publish runs only if it is still current.
    pub generation: u64,
}

pub struct DocEntry {
    inner: Mutex<DocInner>,
    /// Held while computing and sending diagnostics, so publishes never overtake each other.
    pub publish_lock: tokio::sync::Mutex<()>,
}

impl DocEntry {
    pub fn new(text: &str, version: i32, kind: Kind) -> Self {
        DocEntry {
            inner: Mutex::new(DocInner {
                rope: Rope::from_str(text),
                version,
                kind,
                pending: BTreeMap::new(),
                evaluation: None,
                eval: None,
                last_report_id: None,
                view: None,
                generation: 0,
            }),
            publish_lock: tokio::sync::Mutex::new(()),
        }
    }

    pub fn lock(&self) -> MutexGuard<'_, DocInner> {
        // A poisoned lock only means a panic elsewhere; the rope is still consistent.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn snapshot(&self) -> (Arc<String>, i32) {
        let d = self.lock();
        (Arc::new(d.rope.to_string()), d.version)
    }

    pub fn version(&self) -> i32 {
        self.lock().version
    }

    /// Mark an evaluation as running, cancelling an earlier one.
    pub fn set_running(&self, id: u64, tok: CancellationToken) {
        if let Some((_, old)) = self.lock().eval.replace((id, tok)) {
            old.cancel();
        }
    }

    /// Clear the running mark if it is still this evaluation's.
    pub fn clear_running(&self, id: u64) {
        let mut d = self.lock();
        if d.eval.as_ref().is_some_and(|(i, _)| *i == id) {
            d.eval = None;
        }
    }

    /// Cancel the running evaluation, if any (an edit made its text stale).
    pub fn cancel_running(&self) {
        if let Some((_, tok)) = &self.lock().eval {
            tok.cancel();
        }
    }
}

impl DocInner {
    /// Queue a change; apply every change that is now in order. Returns whether text changed.
    pub fn change(
        &mut self,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
        enc: Encoding,
    ) -> bool {
        if version <= self.version {
            tracing::debug!(version, current = self.version, "ignoring stale change");
            return false;
        }
        self.pending.insert(version, changes);
        self.drain(enc, false)
    }

    /// Apply held changes: contiguous ones, or all of them in order when `force`.
    pub fn drain(&mut self, enc: Encoding, force: bool) -> bool {
        let mut changed = false;
        while let Some((&v, _)) = self.pending.first_key_value() {
            if v != self.version + 1 && !force {
                break;
            }
            let (v, changes) = self.pending.pop_first().expect("non-empty");
            for c in &changes {
                apply(&mut self.rope, c, enc);
            }
            self.version = v;
            changed = true;
        }
        if changed {
            self.generation += 1;
        }
        changed
    }

    pub fn has_pending(&self) -> bool {
        !self.pending.is_empty()
    }
}

fn apply(rope: &mut Rope, change: &TextDocumentContentChangeEvent, enc: Encoding) {
    match change.range {
        None => *rope = Rope::from_str(&change.text),
        Some(r) => {
            let start = char_index(rope, r.start, enc);
            let end = char_index(rope, r.end, enc).max(start);
            rope.remove(start..end);
            rope.insert(start, &change.text);
        }
    }
}

/// Char index of an LSP position; positions past a line's end clamp to it (LSP rule).
pub fn char_index(rope: &Rope, pos: Position, enc: Encoding) -> usize {
    let line = pos.line as usize;
    if line >= rope.len_lines() {
        return rope.len_chars();
    }
    let start = rope.line_to_char(line);
    let mut units = 0u32;
    let mut chars = 0usize;
    let mut chars_of_line = rope.line(line).chars().peekable();
    while let Some(ch) = chars_of_line.next() {
        // The line ends at `\n` or `\r\n` (as `LineIndex` has it); a lone `\r` is text.
        let crlf = ch == '\r' && chars_of_line.peek() == Some(&'\n');
        if ch == '\n' || crlf || units >= pos.character {
            break;
        }
        units += match enc {
            Encoding::Utf8 => ch.len_utf8() as u32,
            Encoding::Utf16 => ch.len_utf16() as u32,
        };
        chars += 1;
    }
    start + chars
}

#[cfg(test)]
mod tests {
    use super::*;
    use tower_lsp_server::ls_types::Range;

    fn edit(l1: u32, c1: u32, l2: u32, c2: u32, text: &str) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: Some(Range::new(Position::new(l1, c1), Position::new(l2, c2))),
            range_length: None,
            text: text.into(),
        }
    }

    #[test]
    fn incremental_edits_in_utf16_and_utf8() {
        let e = DocEntry::new("a😀b\nsecond line\n", 1, Kind::Output);
        {
            let mut d = e.lock();
            // UTF-16: the emoji is two units, so `b` is at character 3.
            assert!(d.change(2, vec![edit(0, 3, 0, 4, "B")], Encoding::Utf16));
            assert!(d.change(3, vec![edit(1, 0, 1, 6, "2nd")], Encoding::Utf16));
        }
        assert_eq!(e.snapshot().0.as_str(), "a😀B\n2nd line\n");
        let e = DocEntry::new("a😀b\n", 1, Kind::Output);
        e.lock()
            .change(2, vec![edit(0, 5, 0, 6, "c")], Encoding::Utf8);
        assert_eq!(e.snapshot().0.as_str(), "a😀c\n");
    }

    #[test]
    fn out_of_order_changes_wait_for_the_gap_and_stale_ones_are_dropped() {
        let e = DocEntry::new("abc", 1, Kind::Output);
        let mut d = e.lock();
        assert!(!d.change(3, vec![edit(0, 2, 0, 2, "Y")], Encoding::Utf16));
        assert_eq!(d.rope.to_string(), "abc");
        assert!(d.change(2, vec![edit(0, 1, 0, 1, "X")], Encoding::Utf16));
        assert_eq!(d.rope.to_string(), "aXYbc");
        assert_eq!(d.version, 3);
        assert!(!d.change(2, vec![edit(0, 0, 0, 0, "stale")], Encoding::Utf16));
        // A client that skips versions is flushed by force.
        assert!(!d.change(7, vec![edit(0, 0, 0, 0, ">")], Encoding::Utf16));
        assert!(d.has_pending());
        assert!(d.drain(Encoding::Utf16, true));
        assert_eq!(d.rope.to_string(), ">aXYbc");
        assert_eq!(d.version, 7);
    }

    #[test]
    fn positions_past_the_end_clamp() {
        let e = DocEntry::new("ab\r\ncd", 1, Kind::Output);
        let mut d = e.lock();
        d.change(2, vec![edit(0, 99, 0, 99, "!")], Encoding::Utf16);
        d.change(3, vec![edit(9, 0, 9, 0, "?")], Encoding::Utf16);
        let whole = TextDocumentContentChangeEvent {
            range: None,
            range_length: None,
            text: format!("{}+", d.rope),
        };
        d.change(4, vec![whole], Encoding::Utf16);
        assert_eq!(d.rope.to_string(), "ab!\r\ncd?+");
    }
}
