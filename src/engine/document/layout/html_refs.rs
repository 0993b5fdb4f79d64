//! Character references in raw HTML text. The markdown parser hands an HTML block
//! (`<p>The cap is &#36;2,500,000.</p>`) over as raw text, undecoded, while a browser shows
//! its references decoded, and in raw HTML even the legacy ones written without the
//! semicolon (`&nbsp`, `&sect`, `&#36`). Each one outside tags and comments is recorded as a
//! [`Rewrite`] like a reference in running text, so `hidden_text` judges both alike.

use pulldown_cmark::{Event, Parser};

use super::{Rewrite, Span};

/// Named references a browser decodes in raw HTML without their semicolon (the HTML
/// standard's legacy set, those that can stand in a claim: spaces, quotation marks,
/// currency, section and paragraph signs, numbers).
const LEGACY: &[&str] = &[
    "nbsp", "quot", "sect", "para", "pound", "cent", "yen", "curren", "copy", "reg", "deg",
    "plusmn", "times", "divide", "micro", "middot", "laquo", "raquo", "shy", "not", "frac12",
    "frac14", "frac34", "sup1", "sup2", "sup3", "ordf", "ordm", "iexcl", "iquest", "brvbar",
];

/// The character references of the raw HTML `text[span]` outside tags and comments, in text
/// order. `in_comment` carries an unclosed comment from one event to the next.
pub(super) fn references(text: &str, span: Span, in_comment: &mut bool) -> Vec<Rewrite> {
    let raw = &text[span.0..span.1];
    let bytes = raw.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if *in_comment {
            match raw[i..].find("-->") {
                Some(k) => {
                    i += k + 3;
                    *in_comment = false;
                }
                None => break,
            }
            continue;
        }
        match bytes[i] {
            b'<' if raw[i..].starts_with("<!--") => {
                *in_comment = true;
                i += 4;
            }
            b'<' if bytes
                .get(i + 1)
                .is_some_and(|b| b.is_ascii_alphabetic() || matches!(b, b'/' | b'!' | b'?')) =>
            {
                // A tag with its attributes: to its '>' (or the end of the event).
                i = raw[i..].find('>').map_or(bytes.len(), |k| i + k + 1);
            }
            b'&' => match reference(&raw[i..]) {
                Some((len, shown)) => {
                    out.push(Rewrite {
                        span: (span.0 + i, span.0 + i + len),
                        shown: shown.into(),
                        escape: false,
                    });
                    i += len;
                }
                None => i += 1,
            },
            _ => i += 1,
        }
    }
    out
}

/// The reference at the start of `s` (which starts with '&'): its length and what it shows.
fn reference(s: &str) -> Option<(usize, String)> {
    let rest = &s[1..];
    if let Some(num) = rest.strip_prefix('#') {
        let (hex, digits) = match num.strip_prefix(['x', 'X']) {
            Some(h) => (true, h),
            None => (false, num),
        };
        let n = digits
            .bytes()
            .take_while(|b| {
                if hex {
                    b.is_ascii_hexdigit()
                } else {
                    b.is_ascii_digit()
                }
            })
            .count();
        if n == 0 || n > 8 {
            return None;
        }
        let value = u32::from_str_radix(&digits[..n], if hex { 16 } else { 10 }).ok()?;
        let c = char::from_u32(value)
            .filter(|&c| c != '\0')
            .unwrap_or('\u{FFFD}');
        let len = 1 + 1 + usize::from(hex) + n;
        let len = len + usize::from(s[len..].starts_with(';'));
        return Some((len, c.to_string()));
    }
    let n = rest.bytes().take_while(u8::is_ascii_alphanumeric).count();
    if n == 0 {
        return None;
    }
    let name = &rest[..n];
    let (len, written) = if rest[n..].starts_with(';') {
        (n + 2, format!("&{name};"))
    } else {
        // Without the semicolon a browser takes the longest legacy name the text starts
        // with ("&nbsp41.3" is a space and "41.3").
        let legacy = LEGACY
            .iter()
            .filter(|l| name.starts_with(*l))
            .max_by_key(|l| l.len())?;
        (legacy.len() + 1, format!("&{legacy};"))
    };
    // The markdown parser knows every named reference: what it shows is the decoding.
    let shown: String = Parser::new(&written)
        .filter_map(|e| match e {
            Event::Text(t) => Some(t.into_string()),
            _ => None,
        })
        .collect();
    (shown != written && !shown.is_empty()).then_some((len, shown))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refs(s: &str) -> Vec<(&str, String)> {
        let mut c = false;
        references(s, (0, s.len()), &mut c)
            .into_iter()
            .map(|r| (&s[r.span.0..r.span.1], r.shown.to_string()))
            .collect()
    }

    #[test]
    fn references_outside_tags_and_comments_are_decoded_legacy_ones_too() {
        let got = refs(
            "<p title=\"&quot;\">&#36;2 &#x24;3 &dollar;4 &nbsp5 &sect41 &amp; R&D &foo; &#0;</p><!-- &sect; -->",
        );
        let want = [
            ("&#36;", "$"),
            ("&#x24;", "$"),
            ("&dollar;", "$"),
            ("&nbsp", "\u{a0}"),
            ("&sect", "§"),
            ("&amp;", "&"),
            ("&#0;", "\u{FFFD}"),
        ];
        let want: Vec<(&str, String)> = want.iter().map(|(a, b)| (*a, b.to_string())).collect();
        assert_eq!(got, want);
    }
}
