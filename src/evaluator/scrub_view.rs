//! The views of an evaluator's text the key is looked for in: escapes decoded, then folded
//! (lower case, separators between characters dropped), each byte mapped back to the range
//! of the original text it came from, so a match is redacted where it was written. Both are
//! built in one pass over the text: the search stays linear in the text's length.

use unicode_security::GeneralSecurityProfile;
use unicode_security::general_security_profile::IdentifierType;

/// A view of a text: its characters, and for each byte the original byte range it came from.
pub struct View {
    pub text: String,
    pub spans: Vec<(usize, usize)>,
}

impl View {
    fn with_capacity(n: usize) -> Self {
        View {
            text: String::with_capacity(n),
            spans: Vec::with_capacity(n),
        }
    }

    fn push(&mut self, c: char, from: (usize, usize)) {
        self.text.push(c);
        self.spans.extend(std::iter::repeat_n(from, c.len_utf8()));
    }

    /// The original byte range of the view's bytes `s..e`.
    pub fn original(&self, s: usize, e: usize) -> (usize, usize) {
        (self.spans[s].0, self.spans[e - 1].1)
    }
}

/// The text with escapes decoded (JSON `\uXXXX`, `\u{…}`, `\UXXXXXXXX`, `\xXX`, `\n`,
/// `\r`, `\t`; percent `%XX`, also twice, `%252D`; HTML `&#NN;` and `&#xHH;` with any
/// number of leading zeros, and the named references of spaces and invisible characters).
pub fn decoded(text: &str) -> View {
    let mut view = View::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        let (c, len) = match escaped(&text[i..]) {
            Some(decoded) => decoded,
            None => {
                let c = text[i..].chars().next().expect("in bounds");
                (c, c.len_utf8())
            }
        };
        view.push(c, (i, i + len));
        i += len;
    }
    view
}

/// `view` as it is compared with the key (`key_chars`, in lower case): in lower case, with
/// fullwidth forms read as ASCII, and without the characters that may separate the key's
/// characters (see [`separator`]), each byte still mapped to the original text.
pub fn folded(view: &View, key_chars: &[char]) -> View {
    let mut out = View::with_capacity(view.text.len());
    for (i, shown) in view.text.char_indices() {
        let c = match shown {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(shown as u32 - 0xFEE0).unwrap_or(shown),
            c => c,
        };
        if separator(c, key_chars) {
            continue;
        }
        let from = view.original(i, i + shown.len_utf8());
        for lower in c.to_lowercase() {
            out.push(lower, from);
        }
    }
    out
}

/// A character that may stand between two of the key's characters without hiding it from a
/// reader: whitespace (a line wrapped), an invisible character (Unicode's
/// Default_Ignorable_Code_Point: zero-width spaces and joiners, soft hyphens, fillers) or
/// any other character that is neither a letter nor a digit nor one of the key's own
/// (letter-spacing with dots or commas, a JSON array of characters).
fn separator(c: char, key_chars: &[char]) -> bool {
    if c.is_ascii_alphanumeric() || key_chars.contains(&c) {
        return false;
    }
    !c.is_alphanumeric() || c.identifier_type() == Some(IdentifierType::Default_Ignorable)
}

/// An escape at the start of `rest`, decoded, with its length. Percent escapes are read
/// only for ASCII characters (a byte of a longer UTF-8 sequence is not a character).
fn escaped(rest: &str) -> Option<(char, usize)> {
    let b = rest.as_bytes();
    if b.len() < 2 {
        return None;
    }
    let (code, len) = match (b[0], b[1]) {
        (b'%', _) => {
            // Percent-encoded twice (`%252D`: a gateway encoding what was already encoded).
            let (hex, len) = match rest.strip_prefix("%25").and_then(|r| fixed_hex(r, 2)) {
                Some(code) => (code, 5),
                None => (fixed_hex(&rest[1..], 2)?, 3),
            };
            if hex >= 0x80 {
                return None;
            }
            (hex, len)
        }
        (b'\\', b'u') if b.get(2) == Some(&b'{') => {
            let (code, digits) = radix_run(&rest[3..], 16)?;
            (rest.as_bytes().get(3 + digits) == Some(&b'}')).then_some(())?;
            (code, 4 + digits)
        }
        (b'\\', b'u') => (fixed_hex(&rest[2..], 4)?, 6),
        (b'\\', b'U') => (fixed_hex(&rest[2..], 8)?, 10),
        (b'\\', b'x') => (fixed_hex(&rest[2..], 2)?, 4),
        (b'\\', b'n' | b'r' | b't') => (u32::from(b' '), 2),
        (b'&', b'#') => {
            let (radix, at) = match b.get(2) {
                Some(b'x' | b'X') => (16, 3),
                _ => (10, 2),
            };
            let (code, digits) = radix_run(&rest[at..], radix)?;
            (b.get(at + digits) == Some(&b';')).then_some(())?;
            (code, at + digits + 1)
        }
        (b'&', _) => named_reference(rest)?,
        _ => return None,
    };
    Some((char::from_u32(code)?, len))
}

/// Exactly `n` hexadecimal digits at the start of `s`, as a number.
fn fixed_hex(s: &str, n: usize) -> Option<u32> {
    let h = s.get(..n)?;
    h.bytes()
        .all(|b| b.is_ascii_hexdigit())
        .then(|| u32::from_str_radix(h, 16).ok())?
}

/// The run of digits in `radix` at the start of `s` (any number of leading zeros), as a
/// number, with its length; `None` when there is none or it is past the last character.
fn radix_run(s: &str, radix: u32) -> Option<(u32, usize)> {
    let mut code: u32 = 0;
    let mut len = 0;
    for b in s.bytes() {
        let Some(d) = (b as char).to_digit(radix) else {
            break;
        };
        code = code.checked_mul(radix)?.checked_add(d)?;
        if code > 0x10FFFF {
            return None;
        }
        len += 1;
    }
    (len > 0).then_some((code, len))
}

/// The named HTML references of spaces and invisible characters at the start of `rest`.
fn named_reference(rest: &str) -> Option<(u32, usize)> {
    const NAMED: &[(&str, u32)] = &[
        ("&nbsp;", 0xA0),
        ("&NonBreakingSpace;", 0xA0),
        ("&ensp;", 0x2002),
        ("&emsp;", 0x2003),
        ("&thinsp;", 0x2009),
        ("&ZeroWidthSpace;", 0x200B),
        ("&zwnj;", 0x200C),
        ("&zwj;", 0x200D),
        ("&NoBreak;", 0x2060),
        ("&shy;", 0xAD),
        ("&NewLine;", 0x0A),
        ("&Tab;", 0x09),
    ];
    NAMED
        .iter()
        .find(|(name, _)| rest.starts_with(name))
        .map(|&(name, code)| (code, name.len()))
}
