//! Table tests of the plan reader, one per layout.

use super::*;

fn p(t: &str) -> Plan {
    parse(t, (0, t.len()))
}

#[test]
fn seed_json_is_read_with_offsets() {
    let t = r#"{"plan":[{"task":"Draft the brief","timebox_minutes":90,"why":"due"},
        {"task":"Email Dana","timebox_minutes":15,"why":"invoice"}],
        "assumptions":["a"],"questions":[],"confidence":"High"}"#;
    let plan = p(t);
    assert_eq!(plan.format, Format::Json);
    assert_eq!(plan.items.len(), 2);
    assert_eq!(plan.items[1].minutes, Some(15));
    assert_eq!(&t[plan.items[1].at.0..plan.items[1].at.1], "Email Dana");
    assert_eq!(plan.assumptions, Some(vec!["a".to_string()]));
    assert_eq!(plan.questions, Some(vec![]));
    assert_eq!(plan.confidence.as_deref(), Some("high"));
    assert_eq!(plan.planned_minutes(), 105);
    assert!(plan.problems.is_empty());
}

#[test]
fn json_type_errors_are_kept() {
    let plan = p(
        r#"{"plan":[{"task":"A","timebox_minutes":"1 hour"},{"task":"B","timebox_minutes":12.5}]}"#,
    );
    assert_eq!(plan.items[0].bad_timebox.as_deref(), Some("\"1 hour\""));
    assert_eq!(plan.items[1].bad_timebox.as_deref(), Some("12.5"));
    assert_eq!(plan.assumptions, None);
    assert!(p("{not json").problems[0].contains("does not parse"));
}

#[test]
fn fenced_json_is_found() {
    let plan = p(
        "Here is your plan:\n```json\n{\"plan\":[{\"task\":\"X\",\"timebox_minutes\":30}]}\n```\n",
    );
    assert_eq!(plan.items.len(), 1);
}

#[test]
fn markdown_list_with_timeboxes_and_sections() {
    let t = "# Plan\n- Draft the brief (90 min) — due at noon\n- 14:00-14:30 Call Dana (30 min)\n2. Review contract: 1h30m — before Friday\n\n## Assumptions\n- Printer works\n\n## Questions\n- None\n\nConfidence: medium\n";
    let plan = p(t);
    assert_eq!(plan.format, Format::Markdown);
    let tasks: Vec<(&str, Option<i64>)> = plan
        .items
        .iter()
        .map(|i| (i.task.as_str(), i.minutes))
        .collect();
    assert_eq!(
        tasks,
        [
            ("Draft the brief", Some(90)),
            ("Call Dana", Some(30)),
            ("Review contract", Some(90))
        ]
    );
    assert_eq!(plan.items[0].why, "due at noon");
    assert_eq!(
        plan.items[1].time.map(|f| (f.start, f.end)),
        Some((840, Some(870)))
    );
    assert_eq!(plan.assumptions, Some(vec!["Printer works".to_string()]));
    assert_eq!(plan.questions, Some(vec![]));
    assert_eq!(plan.confidence.as_deref(), Some("medium"));
}

#[test]
fn markdown_without_items_is_unread() {
    let plan = p("Just do your best today.");
    assert!(plan.problems.is_empty());
    assert!(
        plan.unread[0].contains("no plan items were found"),
        "{:?}",
        plan.unread
    );
    let plan = p("- Inbox zero (1.33h)");
    assert_eq!(plan.items[0].minutes, None);
    assert_eq!(plan.items[0].bad_timebox.as_deref(), Some("(1.33h)"));
}

/// (task, minutes, start, end) of every item.
pub(super) type Row = (&'static str, Option<i64>, Option<u32>, Option<u32>);

/// What was read of an item: (task, minutes, start, end).
type Read = (String, Option<i64>, Option<u32>, Option<u32>);

fn items(plan: &Plan) -> Vec<Read> {
    plan.items
        .iter()
        .map(|i| {
            (
                i.task.clone(),
                i.minutes,
                i.time.map(|t| t.start),
                i.time.and_then(|t| t.end),
            )
        })
        .collect()
}

pub(super) fn same(text: &str, want: &[Row]) -> Plan {
    let plan = p(text);
    let want: Vec<_> = want
        .iter()
        .map(|(t, m, s, e)| (t.to_string(), *m, *s, *e))
        .collect();
    assert_eq!(items(&plan), want, "{text}");
    assert!(plan.unread.is_empty(), "{:?}", plan.unread);
    plan
}

pub(super) const H: u32 = 60;

#[test]
fn every_layout_is_read() {
    let layouts: &[(&str, &[Row])] = &[
        // A table with a time range, the task and the why.
        (
            "| Time | Task | Why |\n|---|---|---|\n| 9:00–10:30 | Draft brief | due at noon |\n| 10:30–10:45 | Break | rest |\n| 1:00–1:45 PM | Call Dana | invoice |\n| **Total** | | 2h 30m |\n",
            &[
                ("Draft brief", Some(90), Some(9 * H), Some(10 * H + 30)),
                ("Break", Some(15), Some(10 * H + 30), Some(10 * H + 45)),
                ("Call Dana", Some(45), Some(13 * H), Some(13 * H + 45)),
            ],
        ),
        // Start and End columns.
        (
            "| Start | End | Task |\n|---|---|---|\n| 8:45 AM | 10:00 AM | Draft brief |\n| 00:30 | 01:00 | Deploy |\n",
            &[
                ("Draft brief", Some(75), Some(8 * H + 45), Some(10 * H)),
                ("Deploy", Some(30), Some(30), Some(H)),
            ],
        ),
        // Decimal hours, and a duration column with units.
        (
            "| Task | Hours | Why |\n|---|---|---|\n| Draft brief | 1.5 | due |\n| Email Dana | 0.25 | invoice |\n",
            &[
                ("Draft brief", Some(90), None, None),
                ("Email Dana", Some(15), None, None),
            ],
        ),
        (
            "| # | Task | Duration |\n|---|---|---|\n| 1 | Draft brief | 1h 15m |\n| 2 | Email Dana | (15m) |\n",
            &[
                ("Draft brief", Some(75), None, None),
                ("Email Dana", Some(15), None, None),
            ],
        ),
        // A heading per time block; what follows is its why.
        (
            "## Plan\n\n### 9:00–10:30 · Draft brief\nDue at noon.\n\n- outline first\n- then the body\n\n### 10:30–11:00 — Email Dana\n\n### 13:00–14:30 Review contract\n",
            &[
                ("Draft brief", Some(90), Some(9 * H), Some(10 * H + 30)),
                ("Email Dana", Some(30), Some(10 * H + 30), Some(11 * H)),
                ("Review contract", Some(90), Some(13 * H), Some(14 * H + 30)),
            ],
        ),
        // Bold time-block paragraphs, the why below, `*` sub-bullets as details.
        (
            "Here is your day.\n\n**9:00–10:30 AM — Draft brief**\nWhy: due at noon\n\n**1:00–1:45 PM — Call Dana**\n* Bring the invoice\n* Confirm the date\n\n**2:00–2:30 PM — Email Dana** (30 min)\n",
            &[
                ("Draft brief", Some(90), Some(9 * H), Some(10 * H + 30)),
                ("Call Dana", Some(45), Some(13 * H), Some(13 * H + 45)),
                ("Email Dana", Some(30), Some(14 * H), Some(14 * H + 30)),
            ],
        ),
        // Emoji lines with no list marker.
        (
            "🕘 9:00 Draft brief (60 min)\n📞 10:00 Call Dana (~45 min)\n☕ 10:45 Break (15m)\n",
            &[
                ("Draft brief", Some(60), Some(9 * H), None),
                ("Call Dana", Some(45), Some(10 * H), None),
                ("Break", Some(15), Some(10 * H + 45), None),
            ],
        ),
        // A list whose "why" sub-bullets are not items.
        (
            "1. **Draft brief** — 1.5 hours\n   - Why: due at noon\n2. **Call Dana** (30 min)\n   - Why: invoice\n3. Review contract: 1h 15m\n   - Why: before Friday\n",
            &[
                ("Draft brief", Some(90), None, None),
                ("Call Dana", Some(30), None, None),
                ("Review contract", Some(75), None, None),
            ],
        ),
        // A time range alone is a timebox; the task after a leading range and `—` is kept.
        (
            "- 8:45 AM - 10:00 AM — Draft brief\n- 10:00 AM - 10:30 AM — Email Dana\n- 01:00–03:00 — Deploy window\n",
            &[
                ("Draft brief", Some(75), Some(8 * H + 45), Some(10 * H)),
                ("Email Dana", Some(30), Some(10 * H), Some(10 * H + 30)),
                ("Deploy window", Some(120), Some(H), Some(3 * H)),
            ],
        ),
        // Group headings and group bullets over timed items are not items.
        (
            "## Morning (9:00–12:00)\n- Draft brief (90 min)\n- Email Dana (15 min)\n\n## Afternoon\n- **Focus**\n  - Review contract (60 min)\n",
            &[
                ("Draft brief", Some(90), None, None),
                ("Email Dana", Some(15), None, None),
                ("Review contract", Some(60), None, None),
            ],
        ),
        // A colon after a leading range, 12-hour ranges across midnight, sub-bullet whys.
        (
            "- 11:15pm–1:15am: Patch the gateway\n  - must land first\n- 4:30–5:00am: Write the timeline\n",
            &[
                (
                    "Patch the gateway",
                    Some(120),
                    Some(23 * H + 15),
                    Some(25 * H + 15),
                ),
                (
                    "Write the timeline",
                    Some(30),
                    Some(4 * H + 30),
                    Some(5 * H),
                ),
            ],
        ),
        // Start times only: each item runs until the next one starts.
        (
            "- 9:00 AM – Draft brief\n- 10:30 AM – Call Dana\n- 11:00 AM – Review contract (60 min)\n",
            &[
                ("Draft brief", Some(90), Some(9 * H), Some(10 * H + 30)),
                ("Call Dana", Some(30), Some(10 * H + 30), Some(11 * H)),
                ("Review contract", Some(60), Some(11 * H), None),
            ],
        ),
    ];
    for (text, want) in layouts {
        same(text, want);
    }
}

#[test]
fn what_is_not_an_item_is_not_read_as_one() {
    // Prose, totals and the sections are not items; a 3-item plan stays 3 items.
    let plan = same(
        "You have about 6 hours today.\n\n- Draft brief (90 min)\n  - because it is due\n  - and long\n- Email Dana (15 min)\n- Review contract (60 min)\n\n**Total: 2h 45m**\n\n## Assumptions\n- The dentist runs 30 min\n\n## Questions\n- Is 9:00 too early?\n",
        &[
            ("Draft brief", Some(90), None, None),
            ("Email Dana", Some(15), None, None),
            ("Review contract", Some(60), None, None),
        ],
    );
    assert_eq!(plan.items[0].why, "because it is due. and long");
    assert_eq!(
        plan.assumptions,
        Some(vec!["The dentist runs 30 min".to_string()])
    );
    assert_eq!(plan.questions, Some(vec!["Is 9:00 too early?".to_string()]));
}

#[test]
fn labels_on_one_line_are_read() {
    type Labels<'a> = (
        &'a str,
        Option<Vec<&'a str>>,
        Option<Vec<&'a str>>,
        Option<&'a str>,
    );
    let table: &[Labels] = &[
        (
            "Assumptions: the printer works\nQuestions: none\nConfidence: high",
            Some(vec!["the printer works"]),
            Some(vec![]),
            Some("high"),
        ),
        (
            "**Assumptions:** the printer works\n**Questions:** None.\n**Confidence:** Medium — the dentist may run late",
            Some(vec!["the printer works"]),
            Some(vec![]),
            Some("medium"),
        ),
        (
            "❓ Questions: none\n🤔 Assumptions: none\nConfidence: very high",
            Some(vec![]),
            Some(vec![]),
            Some("very high"),
        ),
        (
            "**Assumptions**: none\n\n### Questions\n- Should lunch move?",
            Some(vec![]),
            Some(vec!["Should lunch move?"]),
            None,
        ),
        (
            "Assumptions:\n- A\n- B\n\nOpen questions:\n- C",
            Some(vec!["A", "B"]),
            Some(vec!["C"]),
            None,
        ),
        ("", None, None, None),
    ];
    for (tail, a, q, c) in table {
        let text = format!("- Draft brief (60 min)\n- Email Dana (15 min)\n\n{tail}\n");
        let plan = p(&text);
        assert_eq!(plan.items.len(), 2, "{text}");
        let own = |v: &Option<Vec<&str>>| {
            v.as_ref()
                .map(|v| v.iter().map(|s| s.to_string()).collect::<Vec<_>>())
        };
        assert_eq!(plan.assumptions, own(a), "{text}");
        assert_eq!(plan.questions, own(q), "{text}");
        assert_eq!(plan.confidence.as_deref(), *c, "{text}");
    }
}

#[test]
fn timebox_spellings_read_through_the_time_grammar() {
    let table: &[(&str, Option<i64>, Option<&str>)] = &[
        ("- Draft brief (~45 min)", Some(45), None),
        ("- Draft brief 1.5 hours", Some(90), None),
        ("- Draft brief — 1h 15m", Some(75), None),
        ("- Draft brief (15m)", Some(15), None),
        ("- Draft brief [2h]", Some(120), None),
        ("- Draft brief: 1 hour and 30 minutes", Some(90), None),
        ("- Draft brief (half an hour)", Some(30), None),
        ("- 9:00–10:30 Draft brief", Some(90), None),
        ("- Draft brief (9:00–10:30)", Some(90), None),
        ("- 22:00–02:00 Night deploy", Some(240), None),
        ("- 11:30pm-1am Night deploy", Some(90), None),
        ("- Draft brief (1.33h)", None, Some("(1.33h)")),
    ];
    for (text, minutes, bad) in table {
        let plan = p(text);
        assert_eq!(plan.items.len(), 1, "{text}");
        assert_eq!(plan.items[0].minutes, *minutes, "{text}");
        assert_eq!(plan.items[0].bad_timebox.as_deref(), *bad, "{text}");
        assert!(
            plan.items[0].task.ends_with("brief") || plan.items[0].task.ends_with("deploy"),
            "{text}: {:?}",
            plan.items[0].task
        );
    }
}

#[test]
fn twenty_four_hour_times_are_not_afternoon() {
    let plan = same(
        "- 00:30–01:00 Check the rollout\n- 01:00–03:00 Sleep\n- 13:00–13:30 Lunch\n",
        &[
            ("Check the rollout", Some(30), Some(30), Some(H)),
            ("Sleep", Some(120), Some(H), Some(3 * H)),
            ("Lunch", Some(30), Some(13 * H), Some(13 * H + 30)),
        ],
    );
    assert_eq!(plan.format, Format::Markdown);
}

#[test]
fn a_table_it_cannot_read_is_unread_not_wrong() {
    let plan = p(
        "| Time | Task |\n|---|---|\n| 9:00–10:30 | Draft brief |\n| after lunch | Call Dana |\n",
    );
    assert_eq!(
        plan.unread,
        ["table row 2: the time “after lunch” could not be read"]
    );
    // A table with no time or duration column is not a plan; with nothing else, nothing is read.
    let plan = p("| Name | Role |\n|---|---|\n| Dana | client |\n");
    assert!(
        plan.unread[0].contains("no plan items"),
        "{:?}",
        plan.unread
    );
    // An untimed list in a plan with no timeboxes at all is read (the schema fails it).
    let plan = p("## Plan\n- Draft brief\n- Call Dana\n- Review contract\n");
    assert_eq!(plan.items.len(), 3);
    assert!(plan.items.iter().all(|i| i.minutes.is_none()));
}

#[test]
fn the_notes_constraints_restated_are_not_items() {
    // Each plan has the same three work items around a restatement of the constraints.
    let work =
        "1. 09:00–10:00 Draft the brief\n2. 10:00–10:30 Email Dana\n3. 13:00–14:00 Read the case\n";
    for restated in [
        "## Constraints\n- Gym 12–1pm (fixed)\n- Call with Nani at 7pm\n\n## Plan\n",
        "Constraints:\n1. Gym 12–1pm\n2. Call w/ Nani at 7pm\n\nPlan:\n",
        "**Constraints:** gym 12:00–13:00; call 19:00\n\n",
        "Hard constraints: the gym 12–1pm, the call at 7pm and the stop at 9pm.\n\n",
        "### Constraints\n| Constraint | Time |\n|---|---|\n| Gym | 12:00–13:00 |\n\n### Plan\n",
        "### Today's fixed commitments\n- 12:00–13:00 Gym\n\n### Schedule\n",
    ] {
        let plan = p(&format!(
            "{restated}{work}\nAssumptions: none\nQuestions: none\n"
        ));
        let tasks: Vec<&str> = plan.items.iter().map(|i| i.task.as_str()).collect();
        assert_eq!(
            tasks,
            ["Draft the brief", "Email Dana", "Read the case"],
            "{restated}"
        );
        assert_eq!(plan.planned_minutes(), 150, "{restated}");
    }
    // Blocks that are the notes' meeting marked fixed, or the stop, are not work either;
    // they are kept apart (their text is still checked against the notes).
    let plan = p(
        "### 9:00–9:30 · Book the venue\n\n### 9:30–9:45 · Standup (fixed)\n\n\
         ### 9:45–12:30 · Finish the deck\n\n**4:00 PM — Office closes (hard stop)**\n\n\
         ### 4:00 PM · Hard stop (school run)\n",
    );
    let tasks: Vec<&str> = plan.items.iter().map(|i| i.task.as_str()).collect();
    assert_eq!(tasks, ["Book the venue", "Finish the deck"]);
    assert_eq!(plan.restated.len(), 3);
    assert_eq!(plan.planned_minutes(), 195);
}

#[test]
fn a_task_about_constraints_is_still_an_item() {
    let plan = p("- Review constraints: budget and scope (30 min)\n\
         - 10:00–10:45 Fix the fixed-width export\n\
         ### Review the constraints doc\n- Stop the build flakes (20 min)\n");
    let tasks: Vec<&str> = plan.items.iter().map(|i| i.task.as_str()).collect();
    assert_eq!(tasks.len(), 3, "{tasks:?}");
    assert_eq!(plan.planned_minutes(), 95);
    assert!(plan.restated.is_empty());
}
