//! Text bound for a terminal. Documents, evaluator notes, file names and stored rows
//! are untrusted: a raw control character in them could write the clipboard (OSC 52),
//! erase lines to show a fake status, or retitle the window. Every text output passes
//! its untrusted parts through [`escape`]: C0 and C1 controls (and DEL) become visible
//! `\u00NN` sequences (valid inside JSON strings too); newline and tab stay.

use std::borrow::Cow;
use std::fmt::Write;

use serde::Serialize;
use serde::de::DeserializeOwned;

/// Whether `c` is a control character a terminal could act on.
fn is_control(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}')
}

/// `s` with every C0/C1 control except newline and tab made visible.
pub fn escape(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_control) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_control(c) {
            let _ = write!(out, "\\u{:04x}", c as u32);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
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
