//! Normalized task intents (for plan coverage): a task is the set of its content words,
//! lower-cased, stemmed a little and mapped to one word per synonym group, so "Email
//! Dana re: invoice" and "Send Dana the invoice email" are the same intent.

use std::collections::BTreeSet;

const STOP: &[&str] = &[
    "a",
    "an",
    "the",
    "and",
    "or",
    "to",
    "for",
    "of",
    "on",
    "in",
    "at",
    "by",
    "with",
    "about",
    "re",
    "my",
    "our",
    "your",
    "me",
    "i",
    "we",
    "it",
    "this",
    "that",
    "these",
    "those",
    "is",
    "are",
    "be",
    "do",
    "get",
    "got",
    "make",
    "need",
    "needs",
    "must",
    "should",
    "have",
    "has",
    "finish",
    "finally",
    "start",
    "work",
    "today",
    "tonight",
    "asap",
    "urgent",
    "urgently",
    "eod",
    "end",
    "day",
    "critical",
    "really",
    "also",
    "just",
    "some",
    "any",
    "up",
    "out",
    "off",
    "from",
    "into",
    "before",
    "after",
    "then",
    "so",
    "all",
    "more",
    "quick",
    "quickly",
    "due",
    "deadline",
    "priority",
    "top",
    "non",
    "negotiable",
    "no",
    "matter",
    "what",
    "can",
    "cannot",
    "slip",
    "t",
    "s",
    "pm",
    "am",
    "min",
    "mins",
    "minutes",
    "hour",
    "hours",
    "h",
    "task",
    "block",
    "time",
    "focus",
    "session",
    "again",
    "first",
    "next",
    "new",
    "please",
    "want",
    "remember",
    "forget",
    "don",
    "gotta",
    "todo",
    "happen",
    "happens",
    "go",
    "over",
    "through",
    "via",
    "vs",
    "etc",
    "still",
    "actually",
    "definitely",
    "absolutely",
    "sure",
];

/// Words that mean the same action or thing in a plan.
fn canonical(w: &str) -> &str {
    match w {
        "mail" | "message" | "reply" | "respond" | "write back" | "ping" | "email" => "email",
        "phone" | "ring" | "call" => "call",
        "read" | "check" | "proofread" | "revise" | "review" => "review",
        "write" | "draft" | "compose" | "prepare" | "prep" => "draft",
        "meet" | "meeting" | "sync" | "catch" => "meet",
        "book" | "reserve" | "schedule" => "book",
        "fix" | "debug" | "patch" | "bug" => "fix",
        "pay" | "payment" | "invoice" | "bill" => "invoice",
        "deck" | "slides" | "presentation" => "deck",
        "report" | "summary" | "writeup" => "report",
        "flight" | "flights" | "plane" => "flight",
        other => other,
    }
}

/// Strip common endings so "reviewing", "reviewed" and "reviews" meet.
fn stem(w: &str) -> String {
    for suffix in ["ing", "ed", "es", "s"] {
        if let Some(stripped) = w.strip_suffix(suffix)
            && stripped.len() >= 3
        {
            return stripped.to_string();
        }
    }
    w.to_string()
}

/// Prefixes written with a hyphen that are no word of their own: "pre-migration" is one
/// word, not "pre" and "migration".
const PREFIXES: &[&str] = &[
    "pre", "post", "non", "re", "co", "sub", "mid", "multi", "anti", "semi", "inter", "un",
];

/// `s` with each hyphen after a prefix ("pre-migration") dropped, so the word is one token.
fn join_prefixes(s: &str) -> std::borrow::Cow<'_, str> {
    let mut out = String::new();
    let mut last = 0;
    for (i, _) in s.match_indices('-') {
        let word_start = s[..i]
            .rfind(|c: char| !c.is_alphanumeric())
            .map_or(0, |j| j + 1);
        let prefix = &s[word_start..i];
        let next_is_letter = s[i + 1..].starts_with(|c: char| c.is_alphabetic());
        if next_is_letter && PREFIXES.iter().any(|p| p.eq_ignore_ascii_case(prefix)) {
            out.push_str(&s[last..i]);
            last = i + 1;
        }
    }
    if last == 0 {
        return std::borrow::Cow::Borrowed(s);
    }
    out.push_str(&s[last..]);
    std::borrow::Cow::Owned(out)
}

/// The task's intent tokens.
pub fn tokens(s: &str) -> BTreeSet<String> {
    join_prefixes(s)
        .split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .filter(|w| !w.is_empty() && !STOP.contains(&w.as_str()))
        .filter(|w| !w.chars().all(|c| c.is_ascii_digit()))
        .map(|w| {
            let c = canonical(&w);
            if c != w {
                c.to_string()
            } else {
                let st = stem(&w);
                canonical(&st).to_string()
            }
        })
        .collect()
}

/// The plan item (index) that covers a task: one sharing at least half of the task's
/// intent tokens (rounded up), the most shared first.
pub fn covering(task: &BTreeSet<String>, items: &[BTreeSet<String>]) -> Option<usize> {
    if task.is_empty() {
        return None;
    }
    let need = task.len().div_ceil(2);
    items
        .iter()
        .enumerate()
        .map(|(i, it)| (i, task.intersection(it).count()))
        .filter(|&(_, n)| n >= need)
        .max_by_key(|&(i, n)| (n, usize::MAX - i))
        .map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> BTreeSet<String> {
        tokens(s)
    }

    #[test]
    fn a_hyphenated_prefix_is_part_of_its_word() {
        let task = t("run the pre-migration backup verification");
        assert_eq!(task.len(), 4, "{task:?}");
        assert!(covering(&task, &[t("Backup verification")]).is_some());
        assert!(!t("Billing schema migration").contains("pre"));
        // A hyphen between two words of their own still splits them.
        assert_eq!(t("go/no-go check-in"), t("go no go check in"));
        assert!(t("post-mortem doc").contains("postmortem"));
    }

    #[test]
    fn synonyms_and_stems_meet() {
        assert_eq!(
            t("Email Dana re: invoice"),
            t("Send the invoice mail to Dana")
                .intersection(&t("Email Dana re: invoice"))
                .cloned()
                .collect()
        );
        assert_eq!(t("Reviewing the contracts"), t("review contract"));
        assert!(t("MUST finish it today!!").is_empty());
    }

    #[test]
    fn coverage_needs_half_the_intent() {
        let items = vec![t("Draft Q3 budget report for Acme"), t("Lunch break")];
        assert_eq!(
            covering(&t("finish the Q3 budget summary for Acme"), &items),
            Some(0)
        );
        assert_eq!(covering(&t("Book flights for Berlin"), &items), None);
        assert_eq!(covering(&t("Acme onboarding call"), &items), None);
        assert_eq!(covering(&t("Acme onboarding"), &items), Some(0));
    }
}
