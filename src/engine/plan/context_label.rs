//! The name of an appointment of the notes: the words around its time on its line.

use std::sync::LazyLock;

use regex::Regex;

use super::super::clock::Found;
use super::words::words;

/// "re the lab feed", "about the Q3 numbers": what an appointment is about.
static SUBJECT: LazyLock<Regex> = LazyLock::new(|| words("subject"));

/// The block's name: the words before its time in the same clause ("Lunch with Priya
/// 12-1pm", "lunch 1-2pm, dinner with family 7pm") with what it is about when the line
/// says so after the time ("…, re the lab feed"), else the words after it. A remark in
/// brackets that gives no number is part of the name ("call with Rohan (Sharma & Co)");
/// one with a number is its length or another time ("(45 min)", "(3am our time)").
pub(super) fn label_of(s: &str, t: Found) -> String {
    let clean = |x: &str| -> String {
        let words: Vec<&str> = x
            .split_whitespace()
            .filter(|w| {
                !matches!(
                    w.to_ascii_lowercase().as_str(),
                    "at" | "from" | "-" | "–" | "—" | "@"
                )
            })
            .collect();
        let joined = words.join(" ");
        let mut x = joined.as_str();
        loop {
            let t = x.trim_matches([',', ';', '.', ':', ' ', '-', '–', '—']);
            let t = t
                .strip_prefix('(')
                .filter(|r| !r.contains(')'))
                .unwrap_or(t);
            let t = match t.strip_suffix(')') {
                Some(r) if !r.rsplit_once('(').is_some_and(|(_, inner)| remark(inner)) => r,
                _ => t,
            };
            if t == x {
                break;
            }
            x = t;
        }
        x.to_string()
    };
    let before = &s[..t.at.0];
    let clause = &before[clause_start(before)..];
    let label = clean(clause);
    if !label.is_empty() {
        // "call w/ Ifeoma at 3, 45 min, re the lab feed": what it is about is its name too.
        return match SUBJECT.captures(&s[t.at.1..]) {
            Some(c) => format!("{label} re {}", c[1].trim()),
            None => label,
        };
    }
    let after = &s[t.at.1..];
    let name = after.split(['.', ';', ',', '(']).next().unwrap_or("");
    let rest = &after[name.len()..];
    // "call with Rohan (Sharma & Co)": the remark right after the name is the name's.
    let remark_len = rest
        .strip_prefix('(')
        .and_then(|r| r.split_once(')'))
        .filter(|(inner, _)| remark(inner))
        .map_or(0, |(inner, _)| inner.len() + 2);
    clean(&after[..name.len() + remark_len])
}

/// Where the clause before a time starts: after the last '.', ';', ',' or ')' — but a
/// ')' that closes a remark of the name ("call with Rohan (Sharma & Co) 10:00") is inside
/// the clause.
fn clause_start(before: &str) -> usize {
    match before.rfind(['.', ';', ',', ')']) {
        Some(i) if before[i..].starts_with(')') => match before[..i].rfind('(') {
            Some(open)
                if remark(&before[open + 1..i])
                    && !before[open + 1..i].contains(['(', '.', ';', ',']) =>
            {
                clause_start(&before[..open])
            }
            _ => i + 1,
        },
        Some(i) => i + 1,
        None => 0,
    }
}

/// A bracketed remark that is part of a name: words, no number (a number is a length or a
/// time: "(45 min)", "(3am our time)").
fn remark(inner: &str) -> bool {
    !inner.trim().is_empty() && !inner.contains(|c: char| c.is_ascii_digit())
}
