//! Invariants checked on generated inputs (proptest). Each property compares
//! the code under test with an independent, plain reference — never with itself.

use proptest::prelude::*;

use byop::engine::citations::locate;
use byop::engine::document::layout::split_sentences;
use byop::engine::rules::ProseMap;
use byop::model::Located;
use byop::model::integrity::canonical_json;
use byop::model::text::{Encoding, LineIndex, Position};

/// Text made of the characters the code treats specially: white space of every kind,
/// CRLF, sentence stops, list and heading marks, typographic quotes and dashes,
/// multi-byte and astral characters.
fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![
            "a", "b", "Clause", "is", "legal", " ", " ", "  ", "\t", "\n", "\r\n", "\n\n", ".",
            ". ", ";", "?", "e.g.", "- ", "# ", "1. ", "(c) ", "“", "”", "‘", "’", "\"", "—", "–",
            "é", "😀", "«", "»", ",",
        ]),
        0..80,
    )
    .prop_map(|parts| parts.concat())
}

/// Prose without markdown marks (the locator drops list and heading marks from a
/// quote, which a plain reference cannot model).
fn prose() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![
            "a", "b", "Clause", "is", "legal", " ", "  ", "\t", "\n", "\r\n", ".", ". ", ";", "?",
            "e.g.", "“", "”", "‘", "’", "\"", "—", "–", "é", "😀", "«", "»", ",", "...",
        ]),
        0..80,
    )
    .prop_map(|parts| parts.concat())
}

/// A plain normalization for comparing quotes: typographic quotes and dashes folded,
/// case folded, white space collapsed, quote marks and spaces trimmed at the ends.
fn reference_norm(s: &str) -> String {
    let folded: String = s
        .chars()
        .map(|c| match c {
            '“' | '”' | '‘' | '’' | '"' | '«' | '»' => '\'',
            '—' | '–' => '-',
            c => c,
        })
        .flat_map(char::to_lowercase)
        .collect();
    folded
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .trim_matches(|c: char| c == '\'' || c.is_whitespace())
        .to_string()
}

fn boundaries(t: &str) -> Vec<usize> {
    (0..=t.len()).filter(|&i| t.is_char_boundary(i)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Every located range (exact or normalized) slices back to text equal to the quote
    /// after normalization; each ellipsis piece to a part of the quote.
    #[test]
    fn located_ranges_slice_back_to_the_quote(
        t in prose(), a in 0usize..400, len in 1usize..60, reflow in any::<bool>()
    ) {
        let cuts = boundaries(&t);
        let s = cuts[a % cuts.len()];
        let e = cuts.iter().copied().find(|&e| e >= s + len).unwrap_or(t.len());
        let mut quote = t[s..e].to_string();
        if reflow {
            quote = quote.split_whitespace().collect::<Vec<_>>().join(" ").to_uppercase();
        }
        let loc = locate(&t, (0, t.len()), &quote);
        for &(ps, pe) in &loc.pieces {
            prop_assert!(ps <= pe && pe <= t.len() && t.is_char_boundary(ps) && t.is_char_boundary(pe));
        }
        match loc.located {
            Located::Exact | Located::Normalized => {
                prop_assert_eq!(
                    reference_norm(&t[loc.start..loc.end]),
                    reference_norm(&quote),
                    "{:?} located at {}..{} in {:?}", quote, loc.start, loc.end, t
                );
            }
            Located::Ellipsis => {
                for &(ps, pe) in &loc.pieces {
                    prop_assert!(reference_norm(&quote).contains(&reference_norm(&t[ps..pe])));
                }
            }
            _ => {}
        }
    }

    /// Canonical JSON does not depend on the order keys were inserted in.
    #[test]
    fn jcs_is_stable_under_key_order(
        entries in prop::collection::btree_map("[a-zA-Z0-9_é😀]{0,6}", (any::<i32>(), "[ -~é]{0,8}", any::<bool>()), 0..12)
    ) {
        let build = |rev: bool| {
            let mut pairs: Vec<_> = entries.iter().collect();
            if rev {
                pairs.reverse();
            }
            let mut m = serde_json::Map::new();
            for (k, (n, s, b)) in pairs {
                let mut inner = serde_json::Map::new();
                if *b {
                    inner.insert("s".into(), s.clone().into());
                    inner.insert("n".into(), (*n).into());
                } else {
                    inner.insert("n".into(), (*n).into());
                    inner.insert("s".into(), s.clone().into());
                }
                m.insert(k.clone(), serde_json::Value::Object(inner));
            }
            serde_json::Value::Object(m)
        };
        prop_assert_eq!(canonical_json(&build(false)), canonical_json(&build(true)));
    }

    /// Positions round-trip (offset → position → offset) in UTF-16 and UTF-8, and the
    /// indexed conversions equal a plain scan of the line.
    #[test]
    fn positions_round_trip(t in text(), line in 0u32..12, character in 0u32..40) {
        let idx = LineIndex::new(&t);
        for enc in [Encoding::Utf16, Encoding::Utf8] {
            for (i, ch) in t.char_indices() {
                let p = idx.position(&t, i, enc);
                prop_assert_eq!(p, idx.position_by_scan(&t, i, enc));
                // `\r` and `\n` sit past the end of their line, where positions clamp.
                if ch != '\r' && ch != '\n' {
                    prop_assert_eq!(idx.offset(&t, p, enc), i);
                }
            }
            let p = Position { line, character };
            prop_assert_eq!(idx.offset(&t, p, enc), idx.offset_by_scan(&t, p, enc));
        }
    }

    /// The rules' sentence of a position is the sentence splitter's sentence holding it
    /// (or none, between two): the sentences cover the body in order, disjoint.
    #[test]
    fn indexed_sentences_are_the_splitters(t in text(), lo in 0usize..200) {
        let cuts = boundaries(&t);
        let lo = cuts[lo % cuts.len()];
        let m = ProseMap::new(&t, (lo, t.len()));
        let all = split_sentences(&t, (lo, t.len()));
        prop_assert!(all.windows(2).all(|w| w[0].1 <= w[1].0));
        for &pos in cuts.iter().filter(|&&p| p >= lo) {
            let want = all.iter().copied().find(|&(s, e)| s <= pos && pos <= e).unwrap_or((pos, pos));
            prop_assert_eq!(m.sentence(&t, pos), want);
        }
    }
}
