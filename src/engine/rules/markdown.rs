//! Just enough markdown structure for the rules: which bytes are quoted
//! material (the AI quoting a contract, not asserting), where sentences end,
//! and which lines are headings.

/// Regions of the body that are quotation, block quote or code.
#[derive(Debug, Clone, Default)]
pub struct ProseMap {
    quoted: Vec<(usize, usize)>,
}

/// Quotations longer than this are treated as unbalanced quote marks, not quotes.
const MAX_QUOTE_LEN: usize = 1500;

impl ProseMap {
    /// Map `text[body.0..body.1]`; offsets are whole-document.
    pub fn new(text: &str, body: (usize, usize)) -> Self {
        let mut quoted = Vec::new();
        let mut offset = body.0;
        let mut in_fence = false;
        for line in text[body.0..body.1].split_inclusive('\n') {
            let trimmed = line.trim_start();
            let start = offset;
            offset += line.len();
            if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
                in_fence = !in_fence;
                quoted.push((start, offset));
                continue;
            }
            if in_fence || trimmed.starts_with('>') {
                quoted.push((start, offset));
                continue;
            }
            quoted_spans(line, start, &mut quoted);
        }
        quoted.sort_unstable();
        ProseMap { quoted }
    }

    pub fn is_quoted(&self, start: usize, end: usize) -> bool {
        let i = self.quoted.partition_point(|&(s, _)| s <= start);
        i > 0 && self.quoted[i - 1].1 >= end
    }
}

/// Quoted spans within one line: "…", “…”, `…`. Straight quotes pair in order.
fn quoted_spans(line: &str, base: usize, out: &mut Vec<(usize, usize)>) {
    let mut open: Option<(usize, char)> = None;
    for (i, ch) in line.char_indices() {
        match (open, ch) {
            (None, '"' | '“' | '`') => open = Some((i, ch)),
            (Some((s, '"')), '"') | (Some((s, '“')), '”' | '"') | (Some((s, '`')), '`') => {
                if i - s <= MAX_QUOTE_LEN {
                    out.push((base + s, base + i + ch.len_utf8()));
                }
                open = None;
            }
            _ => {}
        }
    }
}

/// Bounds of the sentence around `pos` within `text[lo..hi]`: stops at `.!?;:` followed by
/// white space, at blank lines and at line starts that begin a list item or heading.
pub fn sentence_bounds(text: &str, lo: usize, hi: usize, pos: usize) -> (usize, usize) {
    let bytes = text.as_bytes();
    let is_end = |i: usize| {
        matches!(bytes[i], b'.' | b'!' | b'?' | b';')
            && (i + 1 >= hi || bytes[i + 1].is_ascii_whitespace())
            && !abbreviation_before(text, i)
    };
    let mut start = pos;
    while start > lo {
        let prev = start - 1;
        if bytes[prev] == b'\n'
            && (line_breaks_sentence(text, start, hi) || (prev > lo && bytes[prev - 1] == b'\n'))
        {
            break;
        }
        if is_end(prev) {
            break;
        }
        start = prev;
    }
    let mut end = pos;
    while end < hi {
        if is_end(end) {
            end += 1;
            break;
        }
        if bytes[end] == b'\n'
            && (end + 1 >= hi || bytes[end + 1] == b'\n' || line_breaks_sentence(text, end + 1, hi))
        {
            break;
        }
        end += 1;
    }
    (start, end)
}

/// Does the line starting at `at` open a new block (heading, list item, table row)?
fn line_breaks_sentence(text: &str, at: usize, hi: usize) -> bool {
    let rest = text[at..hi].trim_start_matches([' ', '\t']);
    rest.starts_with(['#', '-', '*', '+', '|', '>'])
        || rest.split_once(['.', ')']).is_some_and(|(n, _)| {
            !n.is_empty() && n.len() <= 3 && n.chars().all(|c| c.is_ascii_alphanumeric())
        })
}

/// "e.g." / "i.e." / "Sec." must not end a sentence.
fn abbreviation_before(text: &str, dot: usize) -> bool {
    let before = &text[..dot];
    let word = before
        .rsplit(|c: char| c.is_whitespace() || c == '(')
        .next()
        .unwrap_or("");
    matches!(
        word.to_ascii_lowercase().as_str(),
        "e.g"
            | "i.e"
            | "etc"
            | "vs"
            | "sec"
            | "no"
            | "art"
            | "para"
            | "inc"
            | "ltd"
            | "co"
            | "u.s"
            | "cf"
    ) || (word.len() == 1 && word.chars().all(|c| c.is_ascii_alphabetic()))
}

/// Is the line containing byte `pos` a markdown heading or a line that is all bold?
pub fn is_heading_line(text: &str, line_start: usize, line_end: usize) -> bool {
    let line = text[line_start..line_end].trim();
    line.starts_with('#')
        || (line.len() > 4 && line.starts_with("**") && line.trim_end_matches(':').ends_with("**"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_block_quotes_and_code_are_quoted() {
        let text = "He said \"it is always legal\" here.\n> never ever\n```\nguarantee\n```\nplain `code` text";
        let m = ProseMap::new(text, (0, text.len()));
        let q = |w: &str| {
            let s = text.find(w).unwrap();
            m.is_quoted(s, s + w.len())
        };
        assert!(q("always"));
        assert!(q("never"));
        assert!(q("guarantee"));
        assert!(q("code"));
        assert!(!q("He said"));
        assert!(!q("here"));
        assert!(!q("plain"));
    }

    #[test]
    fn curly_quotes_pair() {
        let text = "The clause “is always enforceable” says so.";
        let m = ProseMap::new(text, (0, text.len()));
        let s = text.find("always").unwrap();
        assert!(m.is_quoted(s, s + 6));
        let s = text.find("says").unwrap();
        assert!(!m.is_quoted(s, s + 4));
    }

    #[test]
    fn sentences_split_at_stops_and_list_items_not_abbreviations() {
        let text =
            "First one. Second, e.g. with Sec. 4 inside, ends here. Third\n- item one\n- item two";
        let pos = text.find("inside").unwrap();
        let (s, e) = sentence_bounds(text, 0, text.len(), pos);
        assert_eq!(&text[s..e], " Second, e.g. with Sec. 4 inside, ends here.");
        let pos = text.find("two").unwrap();
        let (s, e) = sentence_bounds(text, 0, text.len(), pos);
        assert_eq!(&text[s..e], "- item two");
        let pos = text.find("Third").unwrap();
        let (s, e) = sentence_bounds(text, 0, text.len(), pos);
        assert_eq!(&text[s..e], " Third");
    }

    #[test]
    fn headings_and_bold_lines() {
        let t = "## Title\n**Bold Heading:**\nnot **a** heading";
        assert!(is_heading_line(t, 0, 8));
        assert!(is_heading_line(t, 9, 26));
        assert!(!is_heading_line(t, 27, t.len()));
    }
}
