//! The bodies of the `cargo fuzz` targets (`fuzz/fuzz_targets/*.rs`), here so that the
//! regression test (`tests/fuzz_regressions.rs`) runs the very same code over every saved
//! input without the fuzzer. Each takes arbitrary bytes, must not panic or hang, and
//! checks an invariant where one is simple. Not part of the product API.
#![doc(hidden)]

use ropey::Rope;
use tower_lsp_server::ls_types::{Position as LspPosition, Range, TextDocumentContentChangeEvent};

use crate::engine::citations::Locator;
use crate::engine::document::Document;
use crate::engine::runner;
use crate::engine::suppress::Suppressions;
use crate::lsp::documents::{DocEntry, Kind};
use crate::model::text::{Encoding, LineIndex, Position};

/// The targets by name (the `fuzz/fuzz_targets/<name>.rs` files and the
/// `fuzz/regressions/<name>/` folders).
pub type Target = fn(&[u8]);

pub const TARGETS: &[(&str, Target)] = &[
    ("front_matter", front_matter),
    ("playbook_json", playbook_json),
    ("locator", locator),
    ("suppressions", suppressions),
    ("positions", positions),
    ("incremental_edits", incremental_edits),
    ("verdict", verdict),
    ("byop_toml", byop_toml),
    ("hostile_config", hostile_config),
    ("grounding", grounding),
];

fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// A document with front matter, then the deterministic checks on it.
pub fn front_matter(data: &[u8]) {
    if let Ok(doc) = Document::parse(text(data), None) {
        assert!(doc.body.0 <= doc.body.1 && doc.body.1 <= doc.text.len());
        let report = runner::run_deterministic(&crate::engine::playbook::builtin(), &doc);
        for c in report
            .check_results
            .iter()
            .flat_map(|r| &r.evidence_citations)
        {
            if let Some((s, e)) = c.byte_range {
                assert!(doc.text.get(s..e).is_some(), "citation on char boundaries");
            }
        }
    }
}

/// A playbook file: loads or gives a positioned error.
pub fn playbook_json(data: &[u8]) {
    let t = text(data);
    if let Ok(pb) = crate::engine::playbook::parse(&t, "fuzz.json") {
        let loaded = crate::engine::playbook::LoadedPlaybook::from_playbook(pb);
        let doc = Document::parse("# Review\nThe clause is enforceable.\n".into(), None)
            .expect("a plain document parses");
        runner::run_deterministic(&loaded, &doc);
    }
}

/// Document and quote split at the first 0xFF byte; located ranges are in the body.
pub fn locator(data: &[u8]) {
    let at = data.iter().position(|&b| b == 0xFF).unwrap_or(data.len());
    let doc = text(&data[..at]);
    let quote = text(data.get(at + 1..).unwrap_or_default());
    let loc = Locator::new(&doc, (0, doc.len())).locate(&quote);
    for &(s, e) in &loc.pieces {
        assert!(s <= e && doc.get(s..e).is_some(), "piece {s}..{e}");
    }
}

/// Suppression comments parse, and every query answers.
pub fn suppressions(data: &[u8]) {
    let t = text(data);
    let idx = LineIndex::new(&t);
    let s = Suppressions::parse(&t, &idx);
    for line in 0..idx.line_count() as u32 + 2 {
        s.suppressed("certainty_language", line);
    }
    s.file_wide("all");
}

/// Offsets ⇄ positions: round trip, and the indexed conversion equals a line scan.
pub fn positions(data: &[u8]) {
    let t = text(data);
    let idx = LineIndex::new(&t);
    for enc in [Encoding::Utf16, Encoding::Utf8] {
        for (i, ch) in t.char_indices() {
            let p = idx.position(&t, i, enc);
            assert_eq!(p, idx.position_by_scan(&t, i, enc));
            if ch != '\r' && ch != '\n' {
                assert_eq!(idx.offset(&t, p, enc), i, "round trip at {i}");
            }
        }
        for (k, w) in data.chunks(2).enumerate().take(64) {
            let p = Position {
                line: u32::from(w[0] % 16),
                character: u32::from(*w.get(1).unwrap_or(&0)) + k as u32 % 3,
            };
            assert_eq!(idx.offset(&t, p, enc), idx.offset_by_scan(&t, p, enc));
        }
    }
}

/// Incremental `didChange` edits (positions in UTF-16) against a reference: the same
/// edits applied to a plain string through byte offsets.
pub fn incremental_edits(data: &[u8]) {
    let at = data.iter().position(|&b| b == 0xFF).unwrap_or(data.len());
    let initial = text(&data[..at]);
    let entry = DocEntry::new(&initial, 1, Kind::Output);
    let mut reference = initial.clone();
    let mut version = 1;
    for op in data.get(at + 1..).unwrap_or_default().chunks(6) {
        let [l1, c1, l2, c2, n, pick] = match op {
            [a, b, c, d, e, f] => [*a, *b, *c, *d, *e, *f],
            _ => break,
        };
        let inserted = ["", "x", "é", "😀", "\n", "\r\n", "ab\ncd", "“q”"][usize::from(pick % 8)]
            .repeat(usize::from(n % 3));
        let pos = |l: u8, c: u8| LspPosition::new(u32::from(l % 8), u32::from(c % 24));
        let (mut start, mut end) = (pos(l1, c1), pos(l2, c2));
        if (end.line, end.character) < (start.line, start.character) {
            std::mem::swap(&mut start, &mut end);
        }
        // The reference: byte offsets of the two positions in the current text.
        let idx = LineIndex::new(&reference);
        let to_offset = |p: LspPosition| {
            idx.offset_by_scan(
                &reference,
                Position {
                    line: p.line,
                    character: p.character,
                },
                Encoding::Utf16,
            )
        };
        let (s, e) = (to_offset(start), to_offset(end));
        let (s, e) = (s.min(e), s.max(e));
        reference.replace_range(s..e, &inserted);
        version += 1;
        let change = TextDocumentContentChangeEvent {
            range: Some(Range::new(start, end)),
            range_length: None,
            text: inserted,
        };
        entry.lock().change(version, vec![change], Encoding::Utf16);
    }
    let rope: Rope = entry.lock().rope.clone();
    assert_eq!(
        rope.to_string(),
        reference,
        "edits diverged from the reference"
    );
}

/// The evaluator's verdict JSON (or prose around it).
pub fn verdict(data: &[u8]) {
    if let Ok(v) = crate::evaluator::parse_verdict(&text(data)) {
        assert!((0.0..=1.0).contains(&v.confidence));
        assert!(v.evidence_citations.len() <= crate::evaluator::MAX_CITATIONS_PER_RUN);
    }
}

/// A `byop.toml`.
pub fn byop_toml(data: &[u8]) {
    if let Ok(c) = crate::workspace::config::Config::parse(&text(data), "byop.toml".as_ref()) {
        for locked in [false, true] {
            let p = crate::workspace::trust::Policy::new(std::sync::Arc::new(c.clone()), locked);
            let _ = p.db_path();
        }
    }
}

/// Hostile settings grown from the bytes: the first byte picks a shape and a nesting depth
/// (up to 252 levels of `[`, `{`, `- ` or indented keys), the rest is the innermost value
/// (any type, any size). The front-matter reader must refuse what is over its caps before
/// parsing, and neither reader may panic or hang.
pub fn hostile_config(data: &[u8]) {
    use crate::engine::document::front_matter::yaml_bounds;
    let (&shape, rest) = data.split_first().unwrap_or((&0, &[]));
    let depth = (shape as usize >> 2) * 4;
    let value = text(rest);
    let nested = match shape % 4 {
        0 => format!("{}{value}{}", "[".repeat(depth), "]".repeat(depth)),
        1 => format!("{}{value}{}", "{a: ".repeat(depth), "}".repeat(depth)),
        2 => format!("\n{}{value}", "- ".repeat(depth)),
        _ => {
            let keys: String = (0..depth)
                .map(|i| format!("\n{}k{i}:", " ".repeat(i + 4)))
                .collect();
            format!("{keys} {value}")
        }
    };
    let yaml = format!("byop:\n  source: {nested}\n");
    let parsed = Document::parse(format!("---\n{yaml}---\n# Body\n"), None);
    if yaml_bounds(&yaml).is_err() {
        assert!(parsed.is_err(), "front matter over the caps is refused");
    }
    let toml = format!(
        "[evaluator]\nbase_url = {}{:?}{}\n[telemetry]\n{value}\n",
        "[".repeat(depth),
        value,
        "]".repeat(depth)
    );
    byop_toml(toml.as_bytes());
}

/// Output and source split at the first 0xFF byte: the output's layout (markdown and plain
/// text), then every check of the evidence contract on the output against the source. Every
/// node, sentence, inline, hit and set-aside claim lies inside the output on character
/// boundaries, and the counts add up: examined = grounded + not found + misquoted +
/// paraphrased, set aside = the claims listed with a reason.
pub fn grounding(data: &[u8]) {
    use crate::engine::document::Layout;
    use crate::engine::rules::{Companions, RuleContext};
    let at = data.iter().position(|&b| b == 0xFF).unwrap_or(data.len());
    let out = text(&data[..at]);
    let src = text(data.get(at + 1..).unwrap_or_default());
    let span_ok = |(s, e): (usize, usize)| s <= e && out.get(s..e).is_some();
    let whole = (0, out.len());
    for layout in [Layout::markdown(&out, whole), Layout::plain(&out, whole)] {
        for (_, b) in layout.blocks() {
            assert!(span_ok(b.span), "block {:?}", b.span);
            if let Some(t) = b.text {
                assert!(
                    span_ok(t) && b.span.0 <= t.0 && t.1 <= b.span.1,
                    "text {t:?}"
                );
            }
            if let crate::engine::document::layout::BlockKind::Heading {
                number: Some(n), ..
            } = &b.kind
            {
                assert!(span_ok(n.span), "numbering {:?}", n.span);
            }
        }
        for s in layout.sentences() {
            assert!(
                span_ok(s.span) && s.span.0 < s.span.1,
                "sentence {:?}",
                s.span
            );
        }
        for i in layout.inlines() {
            assert!(span_ok(i.span), "inline {:?}", i.span);
        }
    }
    let pb = crate::engine::playbook::evidence_contract();
    let cx = RuleContext::new(&out, whole).with_companions(Companions {
        source: Some(&src),
        today: Some("2026-01-01"),
        ..Default::default()
    });
    for rule in pb.compiled.iter().flatten() {
        let Some(o) = rule.apply(&cx) else { continue };
        for h in &o.hits {
            assert!(span_ok((h.start, h.end)), "hit {}..{}", h.start, h.end);
            if let Some(r) = &h.source {
                assert!(
                    r.start <= r.end && src.get(r.start..r.end).is_some(),
                    "source place"
                );
            }
        }
        let Some(g) = &o.grounding else { continue };
        let c = &g.counts;
        assert_eq!(
            c.examined,
            c.grounded + c.not_found + c.misquoted + c.paraphrased,
            "examined"
        );
        assert_eq!(c.set_aside, g.set_aside.len(), "set aside");
        assert_eq!(
            c.set_aside,
            c.set_aside_by_reason.values().sum::<usize>(),
            "reasons"
        );
        for s in &g.set_aside {
            assert!(
                span_ok((s.start, s.end)),
                "set aside {}..{}",
                s.start,
                s.end
            );
        }
    }
}
