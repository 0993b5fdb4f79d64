//! The matching space: typographic quotes, dashes, whitespace runs, case and markdown
//! markers normalized, with a map from every normalized byte back to the source.

/// Normalized text and, per normalized byte, the source byte range of its character.
pub(super) struct Normalized {
    pub text: String,
    pub src: Vec<(usize, usize)>,
}

/// Map `src` (which starts at whole-document byte `base`) into matching space:
/// typographic quotes/dashes/ellipsis to ASCII, whitespace runs to one space,
/// lowercase, markdown emphasis and line-start markers (`>`, `#`, list bullets) dropped.
pub(super) fn normalize(src: &str, base: usize) -> Normalized {
    let mut out = Normalized {
        text: String::with_capacity(src.len()),
        src: Vec::with_capacity(src.len()),
    };
    let mut pending_space: Option<(usize, usize)> = None;
    let mut line_start = true;
    let mut i = 0;
    while i < src.len() {
        let rest = &src[i..];
        let Some(c) = rest.chars().next() else { break };
        let len = c.len_utf8();
        if c.is_whitespace() || (line_start && line_marker_len(rest) > 0) {
            // a line marker counts as whitespace: "following:\n- item" ≈ "following: item"
            let skip = if c.is_whitespace() {
                len
            } else {
                line_marker_len(rest)
            };
            let range = (base + i, base + i + skip);
            pending_space = Some(pending_space.map_or(range, |(s, _)| (s, range.1)));
            // `>` may nest (`> > text`), so a line start survives it
            line_start = c == '\n' || (line_start && (c.is_whitespace() || c == '>'));
            i += skip;
            continue;
        }
        line_start = false;
        let range = (base + i, base + i + len);
        i += len;
        if is_dropped(c) {
            continue;
        }
        if let Some(space) = pending_space.take()
            && !out.text.is_empty()
        {
            out.push(' ', space);
        }
        match c {
            '‘' | '’' | '‚' | '‛' => out.push('\'', range),
            '“' | '”' | '„' | '‟' | '«' | '»' => out.push('"', range),
            '‐' | '‑' | '‒' | '–' | '—' | '―' | '−' => out.push('-', range),
            '…' => "...".chars().for_each(|d| out.push(d, range)),
            _ => c.to_lowercase().for_each(|l| out.push(l, range)),
        }
    }
    out
}

impl Normalized {
    fn push(&mut self, c: char, range: (usize, usize)) {
        self.text.push(c);
        self.src.extend(std::iter::repeat_n(range, c.len_utf8()));
    }
}

/// Markdown emphasis/code markers and invisible characters: not part of the words.
fn is_dropped(c: char) -> bool {
    matches!(c, '*' | '_' | '`') || is_default_ignorable(c)
}

/// Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt, Unicode 15.1): the
/// characters a renderer shows as nothing (bidi controls, joiners, invisible operators,
/// variation selectors, tags, fillers), so a document cannot keep a verbatim quote of its
/// visible words from matching by putting one inside them.
const DEFAULT_IGNORABLE: &[(char, char)] = &[
    ('\u{00AD}', '\u{00AD}'),
    ('\u{034F}', '\u{034F}'),
    ('\u{061C}', '\u{061C}'),
    ('\u{115F}', '\u{1160}'),
    ('\u{17B4}', '\u{17B5}'),
    ('\u{180B}', '\u{180F}'),
    ('\u{200B}', '\u{200F}'),
    ('\u{202A}', '\u{202E}'),
    ('\u{2060}', '\u{206F}'),
    ('\u{3164}', '\u{3164}'),
    ('\u{FE00}', '\u{FE0F}'),
    ('\u{FEFF}', '\u{FEFF}'),
    ('\u{FFA0}', '\u{FFA0}'),
    ('\u{FFF0}', '\u{FFF8}'),
    ('\u{1BCA0}', '\u{1BCA3}'),
    ('\u{1D173}', '\u{1D17A}'),
    ('\u{E0000}', '\u{E0FFF}'),
];

fn is_default_ignorable(c: char) -> bool {
    DEFAULT_IGNORABLE
        .iter()
        .any(|&(lo, hi)| (lo..=hi).contains(&c))
}

/// Byte length of a markdown line-start marker at the start of `s`: `>` (blockquote),
/// `#`..`######` heading, `-`/`*`/`+` bullet or `12.`/`12)` number, each followed by
/// a space or tab (or, for `>`, anything). 0 when there is none.
fn line_marker_len(s: &str) -> usize {
    let b = s.as_bytes();
    let followed_by_blank = |n: usize| matches!(b.get(n), Some(b' ' | b'\t'));
    match b.first() {
        Some(b'>') => 1,
        Some(b'-' | b'*' | b'+') if followed_by_blank(1) => 1,
        Some(b'#') => {
            let n = b.iter().take_while(|&&c| c == b'#').count();
            if n <= 6 && followed_by_blank(n) { n } else { 0 }
        }
        Some(b'0'..=b'9') => {
            let n = b.iter().take_while(|c| c.is_ascii_digit()).count();
            if n <= 9 && matches!(b.get(n), Some(b'.' | b')')) && followed_by_blank(n + 1) {
                n + 1
            } else {
                0
            }
        }
        _ => 0,
    }
}

const QUOTE_MARKS: [char; 13] = [
    '"', '\'', '`', '‘', '’', '‚', '‛', '“', '”', '„', '‟', '«', '»',
];

/// Whitespace and quotation marks the evaluator wrapped the quote in.
pub(super) fn trim_quote_marks(q: &str) -> &str {
    q.trim_matches(|c: char| c.is_whitespace() || QUOTE_MARKS.contains(&c))
}

pub(super) fn trim_normalized(q: &str) -> &str {
    q.trim_matches(|c: char| c == ' ' || c == '"' || c == '\'')
}

/// Pieces of a normalized quote split at ellipses, trivial pieces dropped. `None`
/// when the quote has no ellipsis or nothing substantial is left to look for.
pub(super) fn ellipsis_pieces(q: &str) -> Option<Vec<&str>> {
    if !q.contains("...") {
        return None;
    }
    let alnum = |s: &str| s.chars().filter(|c| c.is_alphanumeric()).count();
    let pieces: Vec<&str> = q
        .split("...")
        .map(|p| {
            p.trim_start_matches([']', ')', '.'])
                .trim_end_matches(['[', '('])
                .trim_matches(|c: char| {
                    c == ' ' || c == '"' || c == '\'' || c == ',' || c == ';' || c == ':'
                })
        })
        .filter(|p| alnum(p) >= 4)
        .collect();
    let substantial = pieces.iter().map(|p| alnum(p)).sum::<usize>() >= 8;
    (!pieces.is_empty() && substantial).then_some(pieces)
}

pub(super) fn floor_boundary(text: &str, i: usize) -> usize {
    crate::model::text::floor_char_boundary(text, i)
}

#[cfg(test)]
mod ignorable_tests {
    use super::*;

    #[test]
    fn every_default_ignorable_range_is_dropped_at_both_ends() {
        for &(lo, hi) in DEFAULT_IGNORABLE {
            assert!(is_dropped(lo) && is_dropped(hi), "{lo:?}..{hi:?}");
            let below = char::from_u32(lo as u32 - 1).unwrap();
            let above = char::from_u32(hi as u32 + 1);
            assert!(
                !is_default_ignorable(below)
                    || DEFAULT_IGNORABLE
                        .iter()
                        .any(|r| r.1 as u32 + 1 == lo as u32),
                "{below:?}"
            );
            if let Some(a) = above {
                assert!(
                    !is_default_ignorable(a)
                        || DEFAULT_IGNORABLE.iter().any(|r| r.0 as u32 == a as u32),
                    "{a:?}"
                );
            }
        }
        assert!(!is_dropped('a') && !is_dropped(' ') && !is_dropped('\u{00A0}'));
    }

    #[test]
    fn invisible_characters_inside_words_vanish_and_offsets_map_back() {
        for c in [
            '\u{2062}',
            '\u{180E}',
            '\u{034F}',
            '\u{FE0F}',
            '\u{200E}',
            '\u{202C}',
            '\u{2066}',
            '\u{E0020}',
            '\u{3164}',
        ] {
            let src = format!("fully com{c}pliant.");
            let n = normalize(&src, 10);
            assert_eq!(n.text, "fully compliant.", "{c:?}");
            assert_eq!(n.src.len(), n.text.len());
            // "pliant" starts after the invisible character, in the source's bytes.
            let p = n.text.find("pliant").unwrap();
            assert_eq!(n.src[p].0, 10 + "fully com".len() + c.len_utf8(), "{c:?}");
        }
    }
}
