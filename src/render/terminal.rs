//! Text bound for a terminal. Documents, evaluator notes, file names and stored rows
//! are untrusted: a raw control character in them could write the clipboard (OSC 52),
//! erase lines to show a fake status, or retitle the window, and an invisible format
//! character could make a CI log show other text than it holds (a bidi override turning
//! `exe.md` into `dm.exe`, a zero-width space making two file names look alike). Every
//! text output passes its untrusted parts through [`escape`]: C0 and C1 controls (and
//! DEL) and the invisible characters become visible `\uNNNN` sequences (valid inside JSON
//! strings too, where they decode to the exact text); newline and tab stay.

use std::borrow::Cow;
use std::fmt::Write;

use serde::Serialize;
use serde::de::DeserializeOwned;
use unicode_security::GeneralSecurityProfile;
use unicode_security::general_security_profile::IdentifierType;

/// Whether `c` is a control character a terminal could act on.
fn is_control(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}')
}

/// Whether `c` changes what a reader sees without being seen: Unicode's default-ignorable
/// code points (bidi embeddings, overrides and isolates U+202A–U+202E and U+2066–U+2069,
/// the marks U+200E, U+200F and U+061C, zero-width spaces and joiners, invisible
/// operators, the byte-order mark, tags, fillers, the soft hyphen), the line and
/// paragraph separators and the interlinear annotation marks — but not variation selectors, which [`escape`] judges by the
/// character before them.
fn is_invisible(c: char) -> bool {
    !c.is_ascii()
        && (matches!(c, '\u{2028}' | '\u{2029}' | '\u{fff9}'..='\u{fffb}')
            || (c.identifier_type() == Some(IdentifierType::Default_Ignorable)
                && !is_variation_selector(c)))
}

fn is_variation_selector(c: char) -> bool {
    matches!(c, '\u{fe00}'..='\u{fe0f}' | '\u{e0100}'..='\u{e01ef}')
}

/// Whether [`escape`] writes `c`, after `prev`, as a visible sequence: a variation selector
/// only chooses the look of the character before it (the emoji form of ❤, a CJK
/// ideograph's variant) and stays there; after ASCII or at the start it shows nothing and
/// is escaped.
fn is_escaped(prev: Option<char>, c: char) -> bool {
    is_control(c)
        || is_invisible(c)
        || (is_variation_selector(c) && prev.is_none_or(|p| p.is_ascii()))
}

/// `s` with every C0/C1 control except newline and tab, and every invisible format
/// character, made visible as `\uNNNN` (a character past U+FFFF as its two UTF-16 halves,
/// as JSON writes it).
pub fn escape(s: &str) -> Cow<'_, str> {
    let prevs = || std::iter::once(None).chain(s.chars().map(Some));
    if !prevs().zip(s.chars()).any(|(p, c)| is_escaped(p, c)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for (prev, c) in prevs().zip(s.chars()) {
        if is_escaped(prev, c) {
            for unit in c.encode_utf16(&mut [0; 2]) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A name on a line of its own (a document's path heading its report): [`escape`], and
/// newline, carriage return and tab made visible too — a file name holding a newline could
/// otherwise print a line of its own ("x.ai.md  STABLE") above the real one.
pub fn escape_name(s: &str) -> Cow<'_, str> {
    let e = escape(s);
    if !e.contains(['\n', '\r', '\t']) {
        return e;
    }
    Cow::Owned(
        e.replace('\n', "\\u000a")
            .replace('\r', "\\u000d")
            .replace('\t', "\\u0009"),
    )
}

/// A writer that escapes what goes through it (the language server's log on stderr): each
/// write is one whole formatted line, escaped as [`escape`] does.
pub struct Escaping<W>(pub W);

impl<W: std::io::Write> std::io::Write for Escaping<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match std::str::from_utf8(buf) {
            Ok(s) => self.0.write_all(escape(s).as_bytes())?,
            Err(_) => self
                .0
                .write_all(escape(&String::from_utf8_lossy(buf)).as_bytes())?,
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// A copy of `value` with every string in it escaped, for renderers that add their own
/// terminal styling around the data (the colored report). Values that do not round-trip
/// through JSON are returned as they were rendered before (escaped whole by the caller).
pub fn escaped<T: Serialize + DeserializeOwned + Clone>(value: &T) -> T {
    let Ok(mut json) = serde_json::to_value(value) else {
        return value.clone();
    };
    escape_strings(&mut json);
    serde_json::from_value(json).unwrap_or_else(|_| value.clone())
}

fn escape_strings(v: &mut serde_json::Value) {
    use serde_json::Value;
    match v {
        Value::String(s) => {
            if let Cow::Owned(e) = escape(s) {
                *s = e;
            }
        }
        Value::Array(a) => a.iter_mut().for_each(escape_strings),
        Value::Object(o) => {
            // Keys are field names (ours) or ids; escape the values.
            o.values_mut().for_each(escape_strings);
        }
        _ => {}
    }
}

/// A line on stdout, escaped.
pub fn print_line(line: &str) {
    println!("{}", escape(line));
}

/// A line on stderr, escaped.
pub fn eprint_line(line: &str) {
    eprintln!("{}", escape(line));
}

/// `byop: MESSAGE` on stderr, escaped.
pub fn notice(message: &str) {
    eprintln!("byop: {}", escape(message));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaped_json_stays_json() {
        let raw = serde_json::to_string(&serde_json::json!({"a": "\u{85}\u{7f}x"})).unwrap();
        let v: serde_json::Value = serde_json::from_str(&escape(&raw)).unwrap();
        assert_eq!(
            v["a"], "\u{85}\u{7f}x",
            "the same value, written without raw controls"
        );
    }

    #[test]
    fn invisible_format_characters_are_made_visible_and_json_keeps_the_exact_text() {
        // Text shown reversed (U+202E) or two names that look alike (U+200B): each escaped.
        let cases = [
            ("a\u{202e}b", "a\\u202eb"),
            (
                "\u{202a}\u{202b}\u{202c}\u{202d}",
                "\\u202a\\u202b\\u202c\\u202d",
            ),
            (
                "\u{2066}\u{2067}\u{2068}\u{2069}",
                "\\u2066\\u2067\\u2068\\u2069",
            ),
            ("\u{200e}\u{200f}\u{61c}", "\\u200e\\u200f\\u061c"),
            (
                "x\u{200b}y\u{2060}z\u{2062}\u{feff}",
                "x\\u200by\\u2060z\\u2062\\ufeff",
            ),
            ("soft\u{ad}hyphen\u{2028}", "soft\\u00adhyphen\\u2028"),
            ("tag\u{e0041}", "tag\\udb40\\udc41"),
        ];
        for (raw, shown) in cases {
            assert_eq!(escape(raw), shown, "{raw:?}");
            let json = serde_json::to_string(&serde_json::json!({ "a": raw })).unwrap();
            let back: serde_json::Value = serde_json::from_str(&escape(&json)).unwrap();
            assert_eq!(back["a"], raw, "JSON decodes to the exact text");
        }
        // Visible text, and the variation selector of an emoji, stay as they are.
        for kept in ["résumé — “x” 你好 ❤\u{fe0f}", "שלום עולם", "مرحبا"] {
            assert!(matches!(escape(kept), Cow::Borrowed(_)), "{kept}");
        }
        // After plain text a variation selector shows nothing: "a\u{fe0f}b" looks like "ab".
        assert_eq!(escape("a\u{fe0f}b.md"), "a\\ufe0fb.md");
        assert_eq!(escape("\u{fe0e}x"), "\\ufe0ex");
        assert_eq!(
            escape_name("x.ai.md  STABLE\nreal\t.md"),
            "x.ai.md  STABLE\\u000areal\\u0009.md"
        );
        assert_eq!(escape("\u{fffb}"), "\\ufffb");
        let mut w = Escaping(Vec::new());
        std::io::Write::write_all(&mut w, "log \u{202e}gpj.exe\n".as_bytes()).unwrap();
        assert_eq!(String::from_utf8(w.0).unwrap(), "log \\u202egpj.exe\n");
    }

    #[test]
    fn controls_are_made_visible_newline_and_tab_stay() {
        assert_eq!(escape("plain — ü\ttab\n"), "plain — ü\ttab\n");
        assert!(matches!(escape("plain"), Cow::Borrowed(_)));
        assert_eq!(
            escape("\u{1b}]52;c;SGVsbG8=\u{7}x\r\u{7f}\u{9b}2K"),
            "\\u001b]52;c;SGVsbG8=\\u0007x\\u000d\\u007f\\u009b2K"
        );
        let v = serde_json::json!({"a": ["\u{1b}[2K", 1], "b": {"c": "\u{85}"}});
        let e: serde_json::Value = escaped(&v);
        assert_eq!(
            e,
            serde_json::json!({"a": ["\\u001b[2K", 1], "b": {"c": "\\u0085"}})
        );
    }
}
