//! A plan written as prose paragraphs ("Start at 9:40 with the talking points (40 min).
//! Then, from 10:20 to 12:00, put your head down on the Q3 report."): its items are read
//! from its sentences. A sentence that opens with a time (after at most six words and
//! `at`, `from` or `between`: "After lunch with the team, at 1:45, reply to Meera") is an
//! item, read from that time on as a plan line is; the sentences after it are its why. A
//! sentence that opens with a time and gives no task is not understood: the plan is not
//! read (never a number from a plan half read).

use std::sync::LazyLock;

use regex::Regex;

use super::line::{self, Reading};
use crate::engine::ascii_regex;
use crate::engine::document::layout::split_sentences;
use crate::engine::plan::timex::{self, Expr};

/// What comes before a sentence's time when the sentence opens with it: markup alone, one
/// word and a comma ("Then, from 10:20 to 12:00", the range holding its `from`), or at
/// most six words and `at` / `from` / `between` ("Start at", "After lunch with the team,
/// at"); "…, and that lunch stays at" is longer: a remark, not a schedule.
static OPENS: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex::compile(
        r"(?i)^[\s*_>]*(?:(?:[a-z'’&]+,?\s+){0,6}(?:at|from|between)\s+|[a-z]+,\s+)?$",
    )
    .expect("prose opening regex")
});

/// The items of the plan's prose lines (each with its offset in the document), each as
/// read with where it is, and what could not be read.
pub(super) type Read = (Vec<(Reading, (usize, usize))>, Vec<String>);

pub(super) fn items(text: &str, lines: &[(usize, usize)]) -> Read {
    let mut out: Vec<(Reading, (usize, usize))> = Vec::new();
    let mut unread = Vec::new();
    for &(lo, hi) in lines {
        for (a, b) in split_sentences(text, (lo, hi)) {
            let s = &text[a..b];
            let Some(at) = opening_time(s) else {
                if let Some((it, _)) = out.last_mut() {
                    if !it.why.is_empty() {
                        it.why.push(' ');
                    }
                    it.why.push_str(s.trim());
                }
                continue;
            };
            let mut r = line::read(&s[at..]);
            let task = r.task.trim_matches(['.', '!', ',', ';', ' ']);
            let task = task.strip_prefix("with ").unwrap_or(task).trim();
            if !task.chars().any(char::is_alphabetic) {
                unread.push(format!(
                    "a sentence of prose gives a time but no task: “{}”",
                    s.trim()
                ));
                continue;
            }
            r.task = task.to_string();
            r.why = r.why.trim_matches(['.', ' ']).to_string();
            out.push((r, (a + at, b)));
        }
    }
    (out, unread)
}

/// Where the sentence's opening time starts, when it opens with one.
fn opening_time(s: &str) -> Option<usize> {
    timex::scan(s)
        .into_iter()
        .find(|t| match t.expr {
            Expr::Range(..) => true,
            Expr::Clock(c) => c.explicit(),
            _ => false,
        })
        .filter(|t| OPENS.is_match(&s[..t.at.0]))
        .map(|t| t.at.0)
}

#[cfg(test)]
#[path = "prose_tests.rs"]
mod tests;
