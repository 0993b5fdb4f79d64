use super::*;
use crate::engine::plan::analyze;

const NOTES: &str = "- Standup 9:30-9:45\n- Lunch with Priya 12-1pm\n- Call with Jonas from Brightline at 2pm\n- Send the deck to Acme Corp by 3 PM\n- Email Dana about the invoice\n";

fn flags(plan: &str) -> (u32, Vec<String>) {
    flags_of(plan, NOTES)
}

/// The hallucination flags of `plan` against `notes`, and their messages.
fn flags_of(plan: &str, notes: &str) -> (u32, Vec<String>) {
    let a = analyze(plan, (0, plan.len()), Some(notes));
    let p = grounded_entities(&a);
    let n = match p.metrics[0] {
        Metric::HallucinationFlags(n) => n,
        _ => unreachable!(),
    };
    (n, p.errors)
}

#[test]
fn names_in_an_invented_meeting_are_one_flag() {
    let plan = r#"{"plan":[{"task":"Prep for the board meeting with Dr. Chen","timebox_minutes":20,"why":"x"}],"assumptions":[],"questions":[]}"#;
    let (n, errors) = flags(plan);
    assert_eq!(n, 1, "{errors:?}");
    let plan = r#"{"plan":[{"task":"Prep notes for Dr. Chen","timebox_minutes":20,"why":"x"}],"assumptions":[],"questions":[]}"#;
    assert_eq!(
        flags(plan).1,
        ["Mentions a person not in the notes: “Chen”"]
    );
}

/// A day that is the made-up meeting's ("before Friday's offsite") is part of it; a day
/// deadline of its own beside a made-up meeting is not.
#[test]
fn a_day_of_an_invented_meeting_is_one_flag() {
    let plan = r#"{"plan":[{"task":"Fix the export","timebox_minutes":20,"why":"before Friday's offsite"}],"assumptions":[],"questions":[]}"#;
    assert_eq!(flags(plan).0, 1, "{:?}", flags(plan).1);
    let plan = r#"{"plan":[{"task":"Fix the export","timebox_minutes":20,"why":"before Friday, then the offsite"}],"assumptions":[],"questions":[]}"#;
    assert_eq!(flags(plan).0, 2, "{:?}", flags(plan).1);
}

#[test]
fn grounded_plan_has_no_flags() {
    let plan = r#"{"plan":[{"task":"Prep for the call with Jonas","timebox_minutes":20,"why":"Brightline at 2pm"},{"task":"Send deck to Acme Corp.","timebox_minutes":60,"why":"due by 3 PM"},{"task":"Email Dana","timebox_minutes":10,"why":"invoice"}],"assumptions":[],"questions":[]}"#;
    assert_eq!(flags(plan), (0, vec![]));
}

#[test]
fn invented_meeting_person_deadline_and_org() {
    let plan = r#"{"plan":[{"task":"Sync with Marcus on pricing","timebox_minutes":30,"why":"before the demo"},{"task":"Email Dana","timebox_minutes":10,"why":"invoice is due at noon"},{"task":"Send deck to Globex Inc.","timebox_minutes":30,"why":"Ask Sofia"}],"assumptions":[],"questions":[]}"#;
    let (n, errors) = flags(plan);
    assert_eq!(
        errors,
        [
            "Mentions a meeting not in the notes: “Sync with Marcus on pricing”",
            "Mentions a meeting not in the notes: “before the demo”",
            "Mentions a deadline not in the notes: “due at noon”",
            "Mentions a person or organisation not in the notes: “Globex Inc”",
            "Mentions a person or organisation not in the notes: “Sofia”",
        ]
    );
    assert_eq!(n, 5);
}

#[test]
fn shorthand_meetings_are_grounded_and_day_deadlines_are_checked() {
    let notes = "- call w/ Nani 7pm\n- Draft the essay\n";
    let run = |plan: &str| {
        let a = analyze(plan, (0, plan.len()), Some(notes));
        grounded_entities(&a).errors
    };
    let plan = r#"{"plan":[{"task":"Draft the essay","timebox_minutes":60,"why":"after the call with Nani"}],"assumptions":[],"questions":[]}"#;
    assert_eq!(run(plan), Vec::<String>::new());
    let plan = r#"{"plan":[{"task":"Draft the essay","timebox_minutes":60,"why":"before the Monday deadline"}],"assumptions":[],"questions":[]}"#;
    assert_eq!(
        run(plan),
        ["Mentions a deadline not in the notes: “the Monday deadline”"]
    );
}

/// Grounding table, both ways: notes → plan reason → flags.
#[test]
fn grounding_rules_both_ways() {
    let table: &[(&str, &str, &[&str])] = &[
        ("- call w/ Nani 7pm", "after the call with Nani", &[]),
        ("- call w/Nani 7pm", "after the call with Nani", &[]),
        (
            "- call w/ Nani 7pm",
            "after the call with Nanette",
            &["Mentions a person or organisation not in the notes: “Nanette”"],
        ),
        ("- essay due Mon", "before the Monday deadline", &[]),
        (
            "- essay due Fri",
            "before the Monday deadline",
            &["Mentions a deadline not in the notes: “the Monday deadline”"],
        ),
        (
            "- draft the proposal",
            "in time — Globex wants it",
            &["Mentions a person or organisation not in the notes: “Globex”"],
        ),
        (
            "- draft the proposal",
            "Globex's deadline",
            &["Mentions a person or organisation not in the notes: “Globex”"],
        ),
        (
            "- draft the Globex proposal",
            "in time — Globex wants it",
            &[],
        ),
        // A short form of a name in the notes is that name; a longer spelling is not.
        ("- reply to Samantha", "so that Sam can sign", &[]),
        ("- call w/ Samantha 3pm", "after the call with Sam", &[]),
        (
            "- reply to Samantha",
            "after the call with Sam",
            &["Mentions a meeting not in the notes: “after the call with Sam”"],
        ),
        (
            "- reply to Sam",
            "so that Samantha can sign",
            &["Mentions a person or organisation not in the notes: “Samantha”"],
        ),
        // The first word of a reason is read as an ordinary word.
        ("- draft the proposal", "Prices go up", &[]),
        ("- draft the proposal", "Needed before signing", &[]),
        // A meeting word in any spelling is the same meeting.
        ("- board mtg 3pm", "slides for the board meeting", &[]),
        ("- stand-up 9:30", "right after the standup", &[]),
        ("- standup 9:30", "right after the stand-up", &[]),
        ("- 1:1 w/ Mara 2pm", "before the one-on-one with Mara", &[]),
        // A meeting with the person the notes meet, in another word.
        ("- zoom w/ Ken 2pm", "agenda for the call with Ken", &[]),
        (
            "- zoom w/ Ken 2pm",
            "agenda for the call with Kenji",
            &["Mentions a meeting not in the notes: “agenda for the call with Kenji”"],
        ),
        // "the client call" is a meeting as "the client meeting" is.
        (
            "- draft the proposal",
            "ahead of the client call",
            &["Mentions a meeting not in the notes: “ahead of the client call”"],
        ),
        ("- client call 2pm", "ahead of the client call", &[]),
        // A deadline at a time, either way round.
        (
            "- draft the proposal",
            "the 3pm deadline",
            &["Mentions a deadline not in the notes: “the 3pm deadline”"],
        ),
        ("- draft the proposal — due 3pm", "the 3pm deadline", &[]),
        (
            "- draft the proposal",
            "before the EOD deadline",
            &["Mentions a deadline not in the notes: “the EOD deadline”"],
        ),
        (
            "- draft the proposal - due EOD",
            "before the EOD deadline",
            &[],
        ),
    ];
    for (notes, why, want) in table {
        let plan = format!(
            r#"{{"plan":[{{"task":"Draft the proposal","timebox_minutes":60,"why":"{why}"}}],"assumptions":[],"questions":[]}}"#
        );
        let a = analyze(&plan, (0, plan.len()), Some(notes));
        assert_eq!(grounded_entities(&a).errors, *want, "{notes} / {why}");
    }
}

/// Grounding rules for plans as chat models write them, both ways: verbs opening a task
/// are not names, a name written longer is the notes' name, a meeting at a time is the
/// notes' only at that time, a day or time of an event is a deadline.
#[test]
fn chat_plan_grounding_both_ways() {
    let notes = "desk 8-5\nstandup 9:15-9:30\ncall w/ Jo Park @ 11\n- finish the Q3 budget for Acme by noon\n- review Mara's PR\n- email the landlord\n";
    let n = |task: &str, why: &str| {
        let plan = format!(
            r#"{{"plan":[{{"task":"{task}","timebox_minutes":20,"why":"{why}"}}],"assumptions":[],"questions":[]}}"#
        );
        let a = analyze(&plan, (0, plan.len()), Some(notes));
        let p = grounded_entities(&a);
        match p.metrics[0] {
            Metric::HallucinationFlags(n) => (n, p.errors),
            _ => unreachable!(),
        }
    };
    for (task, why, want) in [
        // A verb before a determiner or particle opens the task: not a name.
        ("Touch base with Jo", "x", 0),
        ("Loop in Jo on the budget", "x", 0),
        ("Nudge the landlord", "x", 0),
        ("Kick off the Q3 budget", "x", 0),
        ("Globex draft review", "x", 1),
        // A name the notes have, written longer.
        ("Finish the Q3 budget", "Acme Corp wants it", 0),
        ("Finish the Q3 budget", "Initech Corp wants it", 1),
        // A meeting at a time: grounded only at the notes' time.
        ("Finish the Q3 budget", "Needed before the 11:00 call", 0),
        ("Finish the Q3 budget", "Jo needs it for the 11am call", 0),
        ("Finish the Q3 budget", "Before the 4pm client call", 1),
        ("Review Mara's PR", "Before the standup at 9:15", 0),
        ("Review Mara's PR", "The team standup at 4", 1),
        // An event on a day or at a time the notes do not give is a deadline.
        ("Review Mara's PR", "Before the release on Friday", 1),
        ("Review Mara's PR", "Before the 2pm release", 1),
        ("Review Mara's PR", "Before the release", 0),
    ] {
        let (got, errors) = n(task, why);
        assert_eq!(got, want, "{task} / {why}: {errors:?}");
    }
}

fn flags_against(notes: &str, task: &str, why: &str) -> (u32, Vec<String>) {
    let plan = format!(
        r#"{{"plan":[{{"task":"{task}","timebox_minutes":20,"why":"{why}"}}],"assumptions":[],"questions":[]}}"#
    );
    flags_of(&plan, notes)
}

/// An event on a day or by its deadline, and a deadline on a day, are grounded only by
/// the notes naming that event (on that day) or a deadline on that day — not by any
/// mention of the day.
#[test]
fn events_on_a_day_both_ways() {
    let without = "- Draft the Q3 report\n- coffee w/ Maya 10\n- Review the board pack\n- call mom Monday\n- Book the train for Friday\n- board review 10am\n";
    let with = "- Draft the Q3 report\n- board review Fri 10am\n- prep for Q3 audit (due Mon)\n- investor call tmrw 2pm\n- release goes out Friday\n- standup 9:30\n";
    let rows = [
        ("Prep slides for Friday's board review", "x"),
        ("Prep for tomorrow's investor call", "x"),
        ("Finish the Q3 report", "for the Q3 audit deadline"),
        ("Send the deck", "before the Monday deadline"),
        ("Fix the export", "before the release on Friday"),
    ];
    for (task, why) in rows {
        let (n, errors) = flags_against(without, task, why);
        assert_eq!(n, 1, "{task} | {why}: {errors:?}");
        let (n, errors) = flags_against(with, task, why);
        assert_eq!(n, 0, "{task} | {why}: {errors:?}");
    }
    assert_eq!(
        flags_against(without, "Prep slides for Friday's board review", "x").1,
        ["Mentions an event not in the notes: “Friday's board review”"]
    );
    // Today's event needs no day in the notes; a task naming no event is not one.
    assert_eq!(
        flags_against(with, "Prep notes for today's standup", "x").0,
        0
    );
    assert_eq!(flags_against(without, "Prep the board review", "x").0, 0);
    assert_eq!(flags_against(without, "Clear tomorrow's inbox", "x").0, 0);
}

/// A name written longer than the notes write it is another entity, unless what is
/// added is a company suffix to a notes name that is not a person's there.
#[test]
fn longer_names_both_ways() {
    let notes = "- coffee w/ Maya 10\n- Send the deck to Acme by 3 PM\n- call with Dr. Lim at 11\n- email Samantha Lee\n";
    for (task, why, want) in [
        ("Call Maya Holdings LLC", "x", 1),
        ("Email Maya Chen", "x", 1),
        ("Send Lim Partners the memo", "x", 1),
        ("Prep for Acme Health review", "x", 1),
        ("Send the deck to Acme Corp", "x", 0),
        ("Send the deck", "Acme Corp wants it", 0),
        ("Send the deck to Acme Inc", "x", 0),
        ("Email Sam Lee", "x", 0),
        ("Coffee with Maya", "x", 0),
    ] {
        let (n, errors) = flags_against(notes, task, why);
        assert_eq!(n, want, "{task} | {why}: {errors:?}");
    }
    // The notes write the longer name: it is theirs.
    let notes = "- coffee w/ Maya 10\n- renew the Maya Holdings lease\n";
    assert_eq!(flags_against(notes, "Call Maya Holdings LLC", "x").0, 0);
}

/// A task that is a notes meeting itself takes the item's time as the meeting's: at another
/// time than the notes give, it is a meeting the notes do not have; a task about the
/// meeting ("Prep for …", "Draft the … agenda") keeps its own time.
#[test]
fn a_meeting_planned_as_an_item_is_grounded_only_at_its_notes_time() {
    let notes =
        "monday\noffice 9:30-18:00\nweekly sync w/ Kenji 14:00-14:45\n- draft the outline\n";
    let run = |at: &str, task: &str| {
        let plan = format!(
            "### {at} · {task}\nWhy it matters.\n\n### 10:00–11:00 · Draft the outline\nQuiet.\n\nAssumptions: none\nQuestions: none\n"
        );
        let a = analyze(&plan, (0, plan.len()), Some(notes));
        grounded_entities(&a).errors
    };
    assert_eq!(
        run("15:00–15:45", "Weekly sync with Kenji"),
        ["Mentions a meeting not in the notes: “Weekly sync with Kenji”"]
    );
    assert!(run("14:00–14:45", "Weekly sync with Kenji").is_empty());
    assert!(run("13:00–13:30", "Prep for the sync with Kenji").is_empty());
    assert!(run("13:00–13:30", "Draft the sync agenda for Kenji").is_empty());
}

/// A meal with someone ("Lunch with Carmen") is a meeting as a call is, and `w/` reads as
/// "with" in the plan too: planned as an item at another time than the notes give, with or
/// without a word in front ("Quick call w/ Deshawn"), it is flagged; at its notes time,
/// or as work about it, it is not.
#[test]
fn a_meal_or_a_modified_meeting_planned_at_another_time_is_flagged() {
    let notes = "start 8:30, hard stop 4:30\n1:1 w/ Deshawn 11am\nlunch w/ Carmen 12:30-1:15\n- review Carmen's onboarding checklist\n- email the SOW\n";
    let run = |at: &str, task: &str| {
        let plan = format!(
            "### {at} · {task}\nWhy it matters.\n\n### 9:00–10:00 · Email the SOW\nQuiet.\n\nAssumptions: none\nQuestions: none\n"
        );
        let a = analyze(&plan, (0, plan.len()), Some(notes));
        grounded_entities(&a).errors
    };
    for (at, task, flags) in [
        ("3:30–4:15 PM", "Lunch with Carmen", 1),
        ("3:30–4:15 PM", "Lunch w/ Carmen", 1),
        ("12:30–1:15 PM", "Lunch with Carmen", 0),
        ("12:30–1:15 PM", "Lunch w/ Carmen", 0),
        ("2:00–2:30 PM", "Quick call w/ Deshawn", 1),
        ("2:00–2:30 PM", "Quick call with Deshawn", 1),
        ("2:00–2:30 PM", "Call w/ Deshawn", 1),
        ("11:00–11:30 AM", "Quick call w/ Deshawn", 0),
        ("11:00–11:30 AM", "1:1 w/ Deshawn", 0),
        ("10:00–10:30 AM", "Prep for lunch with Carmen", 0),
        ("10:00–10:30 AM", "Prep for the call w/ Deshawn", 0),
        ("3:30–4:15 PM", "Review Carmen's onboarding checklist", 0),
        // The notes' lunch, whoever it is with; a name the notes lack is still a name.
        ("12:30–1:15 PM", "Lunch with the team", 0),
        ("12:30–1:15 PM", "Lunch with Priya", 1),
        ("3:30–4:15 PM", "Coffee with Priya", 1),
    ] {
        let errors = run(at, task);
        assert_eq!(errors.len(), flags, "{at} {task}: {errors:?}");
    }
}

/// An item naming many made-up companies is one spot (the item), naming the kinds flagged
/// in it once each, so the report grows with the items, not with flags times item length.
#[test]
fn one_spot_per_item_however_many_flags() {
    let task = (1..=40)
        .map(|i| format!("Acme{i} Holdings LLC"))
        .collect::<Vec<_>>()
        .join(" and ");
    let plan = format!(
        r#"{{"plan":[{{"task":"Email {task}","timebox_minutes":20,"why":"x"}},{{"task":"Call Zeta Corp","timebox_minutes":20,"why":"x"}}],"assumptions":[],"questions":[]}}"#
    );
    let a = analyze(&plan, (0, plan.len()), Some(NOTES));
    let p = grounded_entities(&a);
    assert!(p.errors.len() >= 40, "{:?}", p.errors);
    assert_eq!(
        p.spots.len(),
        2,
        "{:?}",
        p.spots.iter().map(|s| &s.note).collect::<Vec<_>>()
    );
    assert!(
        p.spots
            .iter()
            .all(|s| !s.note.is_empty() && s.note.split("; ").count() <= 2)
    );
}

/// The plan's own schedule said again in a why is not an invention, both ways: "by 3:30"
/// in the why of the item that ends at 3:30 is that item's end (not a deadline); a meeting
/// named by its word alone in the why of a block that is the notes' meeting is that
/// meeting.
#[test]
fn an_items_own_schedule_in_its_why_both_ways() {
    let notes = "- Weekly sync 10-10:45\n- finish the Henderson estimate\n- leave at 4 sharp\n";
    let table: &[(&str, &str, &[&str])] = &[
        (
            "2:45 – 3:30 PM: Send the Henderson estimate",
            "Sending it by 3:30 leaves a buffer.",
            &[],
        ),
        (
            "2:45 – 3:15 PM: Send the Henderson estimate",
            "Sending it by 3:30 leaves a buffer.",
            &["Mentions a deadline not in the notes: “by 3:30”"],
        ),
        (
            "03:00–04:15: Send the Henderson estimate",
            "Done by 04:15.",
            &[],
        ),
        (
            "03:00–04:15: Send the Henderson estimate",
            "Done by 04:00.",
            &["Mentions a deadline not in the notes: “by 04:00”"],
        ),
        (
            "10:00 – 10:45 AM: Weekly sync (fixed)",
            "Recurring meeting; nothing to plan here.",
            &[],
        ),
        (
            "10:00 – 10:45 AM: Weekly sync (fixed)",
            "Then the meeting with Dana.",
            &["Mentions a meeting not in the notes: “Then the meeting with Dana.”"],
        ),
        (
            "10:45 – 11:30 AM: Finish the Henderson estimate",
            "Recurring meeting; nothing to plan here.",
            &["Mentions a meeting not in the notes: “Recurring meeting; nothing to plan here.”"],
        ),
    ];
    for (heading, why, want) in table {
        let plan = format!(
            "## 8:30 – 9:30 AM: Finish the Henderson estimate\n\nFirst.\n\n## {heading}\n\n{why}\n"
        );
        let a = analyze(&plan, (0, plan.len()), Some(notes));
        assert_eq!(grounded_entities(&a).errors, *want, "{heading} / {why}");
    }
}
