use super::*;

fn found(t: &str) -> Vec<(PlanEntityKind, String)> {
    extract(t).into_iter().map(|e| (e.kind, e.key)).collect()
}

#[test]
fn names_skip_sentence_starts_and_common_words() {
    use PlanEntityKind::*;
    assert_eq!(
        found("Email Dana about the invoice"),
        [(Name, "dana".to_string())]
    );
    assert_eq!(
        found("Prep for Acme Health review. Then Friday notes"),
        [(Name, "acme health".to_string())]
    );
    assert_eq!(found("Review Priya's draft"), [(Name, "priya".to_string())]);
    assert!(found("- Draft the brief").is_empty());
}

/// A capitalised word opening a sentence is a name unless it is an ordinary word.
#[test]
fn sentence_openers_are_ordinary_unless_they_name_someone() {
    use PlanEntityKind::*;
    for ordinary in [
        "Draft the brief",
        "Finalizing the deck",
        "Reviews of the memo",
        "Needed before signing",
        "Reconciliation of accounts",
        "Buffer — Gives room for overruns",
        "Triage the queue; triage is daily",
    ] {
        assert_eq!(found(ordinary), [], "{ordinary}");
    }
    assert_eq!(found("Globex's proposal"), [(Name, "globex".to_string())]);
    assert_eq!(found("Prices go up"), []);
    assert_eq!(
        found("Draft the deck — Globex wants it"),
        [(Name, "globex".to_string())]
    );
}

#[test]
fn meetings_and_deadlines() {
    use PlanEntityKind::*;
    assert_eq!(
        found("Sync with Marcus, due at noon"),
        [
            (Meeting, "sync".to_string()),
            (Name, "marcus".to_string()),
            (Deadline, "noon".to_string())
        ]
    );
    assert_eq!(found("send it by 3 PM"), [(Deadline, "3 pm".to_string())]);
    assert_eq!(
        found("before the Monday deadline"),
        [(Deadline, "monday".to_string())]
    );
    assert!(found("done by the team").is_empty());
    assert_eq!(
        found("Prep for the 4pm investor call"),
        [(Meeting, "call".to_string())]
    );
    assert_eq!(found("Review with tutor Mr. Das"), []);
    assert_eq!(
        found("ahead of the client call"),
        [(Meeting, "call".to_string())]
    );
    assert_eq!(found("the 3pm deadline"), [(Deadline, "3pm".to_string())]);
    assert_eq!(found("Call the client"), []);
    // A meal with someone is a meeting; `w/` is "with".
    for (text, key) in [
        ("lunch with Carmen", "lunch"),
        ("lunch w/ Carmen", "lunch"),
        ("quick call w/ Deshawn", "call with"),
        ("coffee w/Li", "coffee"),
    ] {
        let got = found(text);
        assert_eq!(got.first(), Some(&(Meeting, key.to_string())), "{text}");
    }
    assert_eq!(found("lunch break"), []);
    assert_eq!(found("order coffee beans"), []);
}

/// A reason's first word is a name when a request verb follows it (who asks), unless
/// it is an ordinary word; without one it is read as an ordinary word.
#[test]
fn a_reason_opening_with_who_asks() {
    use PlanEntityKind::*;
    for (why, want) in [
        (
            "Kowalski in accounts asked for it",
            vec![(Name, "kowalski")],
        ),
        ("Contoso wants it early", vec![(Name, "contoso")]),
        ("Globex's team needs it", vec![(Name, "globex")]),
        ("Client asked for it", vec![]),
        ("She wants it early", vec![]),
        ("Everyone needs the numbers", vec![]),
        ("Timeline and root cause", vec![]),
        ("Kenji said so", vec![(Name, "kenji")]),
    ] {
        let want: Vec<(PlanEntityKind, String)> =
            want.into_iter().map(|(k, s)| (k, s.to_string())).collect();
        assert_eq!(found(why), want, "{why}");
    }
}

/// A task's first word is a name unless it is an ordinary word of the list or a form
/// of one; a reason's first word never is.
#[test]
fn a_task_opening_with_an_invented_name() {
    use PlanEntityKind::*;
    let task = |t: &str| -> Vec<(PlanEntityKind, String)> {
        extract_task(t)
            .into_iter()
            .map(|e| (e.kind, e.key))
            .collect()
    };
    assert_eq!(task("Globex draft review"), [(Name, "globex".to_string())]);
    assert_eq!(
        task("**Globex** contract redlines"),
        [(Name, "globex".to_string())]
    );
    for ordinary in [
        "Tighten the story",
        "Vendor proposal",
        "Brainstorming session topics",
        "Chase the invoices",
        "Flashcards for chapter 4",
        "Draft the brief",
        "Reconciled accounts",
        "Compulsory fire training module",
        "Mandatory safeguarding course",
        "Overdue invoices",
    ] {
        assert_eq!(task(ordinary), [], "{ordinary}");
    }
    assert_eq!(found("Globex draft review"), []);
    // An adjective opening the task is ordinary; a name after it is still a name.
    assert_eq!(task("Overdue Acme invoices"), [(Name, "acme".to_string())]);
}

/// A meeting word that does not name a meeting, and deadlines and meetings written with a
/// day and a time, both ways.
#[test]
fn meeting_free_work_catch_ups_and_deadlines_with_a_day_and_a_time() {
    use PlanEntityKind::*;
    assert_eq!(found("Meeting-free from 16:00, good for writing."), []);
    assert_eq!(found("Inbox catch-up"), []);
    assert_eq!(found("Team catch-up"), [(Meeting, "catch up".to_string())]);
    assert_eq!(
        found("the meeting from 16:00"),
        [(Meeting, "meeting".to_string())]
    );
    assert_eq!(
        found("Must-do, due 9am tomorrow."),
        [(Deadline, "9am".to_string())]
    );
    assert_eq!(found("due tomorrow 9am"), [(Deadline, "9am".to_string())]);
    assert_eq!(found("due tomorrow"), [(Deadline, "tomorrow".to_string())]);
    assert_eq!(
        found("ahead of tomorrow's EOD deadline"),
        [(Deadline, "tomorrow".to_string())]
    );
    let got = found("ahead of the 7am press conference with the Premier");
    assert!(
        got.contains(&(Meeting, "conference".to_string())),
        "{got:?}"
    );
    assert_eq!(
        found("ahead of the 7am press run"),
        [(Deadline, "7am".to_string())]
    );
}
