use super::*;

fn extract_(s: &str) -> Context {
    extract(s, None)
}

const NOTES: &str = "Monday brain dump\n\
- Standup 9:30-9:45\n\
- Lunch with Priya 12-1pm\n\
- Hard stop at 3 PM today (school pickup)\n\
- MUST finish the Q3 budget summary for Acme\n\
- Email Dana about the invoice\n\
- Review the vendor contract\n\
- Maybe clean up the shared drive (if time)\n\
- Next week: plan the offsite\n\
Also need to book flights for Berlin. Ugh, so tired.\n";

#[test]
fn blocks_stops_and_tasks() {
    let cx = extract(NOTES, None);
    assert_eq!(cx.window_end, Some(900));
    assert!(cx.hard_stop);
    let blocks: Vec<(&str, Minute, Minute)> = cx
        .blocks
        .iter()
        .map(|b| (b.label.as_str(), b.start, b.end))
        .collect();
    assert_eq!(
        blocks,
        [("Standup", 570, 585), ("Lunch with Priya", 720, 780)]
    );
    let tasks: Vec<(&str, bool)> = cx.tasks.iter().map(|t| (t.text.as_str(), t.must)).collect();
    assert_eq!(
        tasks,
        [
            ("MUST finish the Q3 budget summary for Acme", true),
            ("Email Dana about the invoice", false),
            ("Review the vendor contract", false),
            ("book flights for Berlin", false),
        ]
    );
}

#[test]
fn working_hours_and_meetings_with_durations() {
    let cx = extract_(
        "Working 9-5.\nCall with the bank at 11am (45 min)\nDentist at 2:30 for an hour\nStart at 8:30 today",
    );
    // The later, explicit start wins over the working hours' start.
    assert_eq!(cx.window_start, Some(510));
    assert_eq!(cx.window_end, Some(1020));
    assert!(!cx.hard_stop);
    let spans: Vec<(Minute, Minute)> = cx.blocks.iter().map(|b| (b.start, b.end)).collect();
    assert_eq!(spans, [(660, 705), (870, 930)]);
    let labels: Vec<&str> = cx.blocks.iter().map(|b| b.label.as_str()).collect();
    assert_eq!(labels, ["Call with the bank", "Dentist"]);
    let cx = extract_("lunch 1-2pm, dinner with family 7pm (1 hour)\n9:30 standup, daily");
    let labels: Vec<(&str, Minute, Minute)> = cx
        .blocks
        .iter()
        .map(|b| (b.label.as_str(), b.start, b.end))
        .collect();
    assert_eq!(
        labels,
        [
            ("standup", 570, 600),
            ("lunch", 780, 840),
            ("dinner with family", 1140, 1200)
        ]
    );
}

#[test]
fn start_and_stop_on_one_line() {
    let cx = extract_("study from 8am until 8pm\n- Back home by 4pm for the plumber");
    assert_eq!(cx.window_start, Some(480));
    assert_eq!(cx.window_end, Some(960));
    assert!(cx.tasks.is_empty());
}

#[test]
fn earliest_end_wins() {
    let cx = extract_("Work hours 9:00-17:00\nneed to leave by 4:30pm for the vet");
    assert_eq!(cx.window_end, Some(990));
    assert!(cx.hard_stop);
}

#[test]
fn deadlines_are_must_do_tasks_not_blocks() {
    let cx = extract_(
        "- Send the report to Omar, due at 2 PM\n- Board deck due Thursday\n- Call mum\n- Fix the login bug today!!",
    );
    assert!(cx.blocks.is_empty());
    let tasks: Vec<(&str, bool)> = cx.tasks.iter().map(|t| (t.text.as_str(), t.must)).collect();
    assert_eq!(
        tasks,
        [
            ("Send the report to Omar, due at 2 PM", true),
            ("Call mum", false),
            ("Fix the login bug today!!", true)
        ]
    );
}

/// The notes reader's rules (README, PlanProof, "Reading the notes"), one row each:
/// notes → (window start, window end, blocked windows).
#[test]
fn rules_for_windows_stops_and_blocks() {
    type Row = (
        &'static str,
        Option<Minute>,
        Option<Minute>,
        &'static [(Minute, Minute)],
    );
    let table: &[Row] = &[
        // An overnight window ends on the next day.
        (
            "online from 11:30pm, log off by 6am",
            Some(1410),
            Some(1800),
            &[],
        ),
        (
            "online from 11:30pm\n- ship the fix\nlog off by 6am",
            Some(1410),
            Some(1800),
            &[],
        ),
        ("working 22:00–02:00", Some(1320), Some(1560), &[]),
        // A bare hour after stop words is a time; 1–6 is afternoon.
        ("hard stop at 4", None, Some(960), &[]),
        ("need to leave by 6", None, Some(1080), &[]),
        // Bare ranges next to working words are the working window.
        ("office 8-4", Some(480), Some(960), &[]),
        ("working 9-5", Some(540), Some(1020), &[]),
        // The user's own activity over the day is the window, not a blocked window.
        ("studying 9am-9pm", Some(540), Some(1260), &[]),
        // Meetings with a time are blocked windows; w/ is "with".
        ("call w/ Nani 7pm", None, None, &[(1140, 1170)]),
        ("dentist 2:30 (45 min)", None, None, &[(870, 915)]),
        ("standup 09:30–09:45", None, None, &[(570, 585)]),
        // 24-hour times are read as written.
        ("sync 00:30-01:00", None, None, &[(30, 60)]),
        // A bare hour after `at`, `@` or `~` beside a meeting word is the meeting's time
        // (1–6 is afternoon); without a meeting word, or without `at`, it is not.
        ("quick call with Dr. Lim at 11", None, None, &[(660, 690)]),
        ("lunch @ 1", None, None, &[(780, 810)]),
        (
            "dentist 3:15-4; call with Dr. Lim at 11",
            None,
            None,
            &[(660, 690), (915, 960)],
        ),
        ("coffee at 11", None, None, &[]),
        // A bare range beside a meeting word counts next to written times too; beside a
        // work word it stays the working window.
        (
            "meetings: 10-11, 2-2:30",
            None,
            None,
            &[(600, 660), (840, 870)],
        ),
        (
            "working 9-5, standup 9:30-9:45",
            Some(540),
            Some(1020),
            &[(570, 585)],
        ),
        // More ways to write the stop.
        ("wrap by 5:15pm", None, Some(1035), &[]),
        ("need to be out the door by 5", None, Some(1020), &[]),
        ("call the bank about invoice 11", None, None, &[]),
    ];
    for (notes, start, end, blocks) in table {
        let cx = extract_(notes);
        let got: Vec<(Minute, Minute)> = cx.blocks.iter().map(|b| (b.start, b.end)).collect();
        assert_eq!(
            (cx.window_start, cx.window_end, got.as_slice()),
            (*start, *end, *blocks),
            "{notes}"
        );
    }
}

/// Notes written as prose: several clauses on one line are read one by one; each rule
/// with a row where it applies and one where it does not.
#[test]
fn rules_for_prose_lines() {
    type Row = (
        &'static str,
        Option<Minute>,
        Option<Minute>,
        &'static [(Minute, Minute)],
    );
    let table: &[Row] = &[
        // An activity until a time blocks the day up to it; the stop is the stop clause's.
        (
            "In court until 11, then calls; must leave by 5:30 for pickup, can't do anything after 9pm",
            None,
            Some(1050),
            &[(0, 660)],
        ),
        ("busy until 10", None, None, &[(0, 600)]),
        // ... but work until a time is the stop.
        ("work until 6", None, Some(1080), &[]),
        // Nothing after a time is a stop; free after a time is the start.
        ("can't do anything after 9pm", None, Some(1260), &[]),
        ("free after 1pm", Some(780), None, &[]),
        // Free after a meeting: the meeting is blocked, the day starts when it ends.
        ("free after the 2pm standup", Some(870), None, &[(840, 870)]),
        ("not before 10", Some(600), None, &[]),
        // Two working windows: one day, the time between them blocked.
        (
            "available 8-12 and again 14:00-18:00",
            Some(480),
            Some(1080),
            &[(720, 840)],
        ),
        ("available 14:00-18:00", Some(840), Some(1080), &[]),
        // A return ends the absence before it, or the morning; "home by" is a stop, and
        // "call back at 3pm" a call.
        ("dentist at 9am, back at 10:15", None, None, &[(540, 615)]),
        ("back at 3", None, None, &[(0, 900)]),
        ("back home by 4pm", None, Some(960), &[]),
        ("call back at 3pm", None, None, &[(900, 930)]),
        // A bare range beside a meeting word is a blocked window; elsewhere it is not a time.
        ("meetings 11-12 then heads down", None, None, &[(660, 720)]),
        ("items 1-3 first", None, None, &[]),
        // A single time in a clause of a line that names a meeting is blocked.
        (
            "lunch 1-2pm, dinner with family 7pm",
            None,
            None,
            &[(780, 840), (1140, 1170)],
        ),
        (
            "Dr. Chen at 3pm, then gym 6-7pm",
            None,
            None,
            &[(900, 930), (1080, 1140)],
        ),
        // A written overnight window keeps its small-hours blocks on the night.
        (
            "on shift from 23:00 till 7am; handover call at 01:30 (20 min)",
            Some(1380),
            Some(1860),
            &[(1530, 1550)],
        ),
        // The clocks changing is not an appointment.
        (
            "on call tonight (clocks go back an hour at 3am!)",
            None,
            None,
            &[],
        ),
    ];
    for (notes, start, end, blocks) in table {
        let cx = extract_(notes);
        let got: Vec<(Minute, Minute)> = cx.blocks.iter().map(|b| (b.start, b.end)).collect();
        assert_eq!(
            (cx.window_start, cx.window_end, got.as_slice()),
            (*start, *end, *blocks),
            "{notes}"
        );
    }
}

/// Which lines are today's tasks, and which are must-dos; `today` is the weekday of
/// `current_time`.
#[test]
fn rules_for_tasks() {
    use jiff::civil::Weekday::{Friday, Monday};
    type Row = (
        &'static str,
        Option<Weekday>,
        &'static [(&'static str, bool)],
    );
    let table: &[Row] = &[
        // A later event named in a reason does not move today's work; the task is what
        // comes before the reason's dash or parenthesis.
        (
            "- MUST finish the landing page copy (goes live tomorrow)",
            None,
            &[("MUST finish the landing page copy", true)],
        ),
        (
            "- Must ship the launch checklist — launch is Friday",
            Some(Monday),
            &[("Must ship the launch checklist", true)],
        ),
        (
            "- Prepare slides for Thursday's review",
            Some(Monday),
            &[("Prepare slides for Thursday's review", false)],
        ),
        // A later day as the task's own day or due date is not today's.
        ("- Call the bank tomorrow", None, &[]),
        ("- Send the invoice, due Fri", Some(Monday), &[]),
        ("- Board deck due Thursday", None, &[]),
        // ... unless that day is today: then it is due today, a must-do.
        (
            "- Send the invoice, due Fri",
            Some(Friday),
            &[("Send the invoice, due Fri", true)],
        ),
        // Headings carry over to the items under them and are not tasks themselves.
        ("Tomorrow:\n- Call the bank", None, &[]),
        (
            "Must do today:\n- Pay the rent\n\nOther:\n- Tidy desk",
            None,
            &[("Pay the rent", true), ("Tidy desk", false)],
        ),
        ("## Maybe, if time\n- Clean the shared drive", None, &[]),
        // "today" beats a later day.
        (
            "- Fix the login bug today, not Friday",
            Some(Monday),
            &[("Fix the login bug today, not Friday", true)],
        ),
    ];
    for (notes, today, want) in table {
        let cx = extract(notes, *today);
        let got: Vec<(&str, bool)> = cx.tasks.iter().map(|t| (t.text.as_str(), t.must)).collect();
        assert_eq!(got.as_slice(), *want, "{notes}");
    }
}

/// Available minutes from `current_time` in its zone: overnight windows and a
/// spring-forward night (London, 2026-03-29, 1 AM → 2 AM).
#[test]
fn rules_for_available_time() {
    use crate::engine::plan::clock::Now;
    use crate::engine::plan::validate::availability;
    let table: &[(&str, &str, &str, i64)] = &[
        // Before the window opens: the whole window, an hour short for the DST change.
        (
            "online from 11:30pm, log off by 6am",
            "2026-03-28T22:00",
            "Europe/London",
            330,
        ),
        // After midnight inside the window: from now to the stop, still an hour short.
        (
            "online from 11:30pm, log off by 6am",
            "2026-03-29T00:30",
            "Europe/London",
            270,
        ),
        (
            "online from 11:30pm, log off by 6am",
            "2026-06-13T00:30",
            "Europe/London",
            330,
        ),
        // Late evening with a stop after midnight.
        ("log off by 2am", "2026-06-12T23:00", "Europe/London", 180),
        ("hard stop at 4", "2026-06-12T13:00", "Asia/Kolkata", 180),
        (
            "office 8-4\n- lunch 12-1pm",
            "2026-06-12T07:00",
            "Australia/Sydney",
            420,
        ),
    ];
    for (notes, now, tz, want) in table {
        let cx = extract_(notes);
        let now = Now::parse(now, tz).unwrap();
        let got = availability(&cx, Some(&now)).map(|a| a.minutes);
        assert_eq!(got, Some(*want), "{notes} at {now:?}");
    }
}

/// A paragraph of prose: each sentence is read on its own, so its tasks are read beside its
/// constraints; "can't before 2" limits when a task may start and is not a deadline.
#[test]
fn a_prose_paragraph_gives_constraints_and_tasks() {
    let cx = extract_(
        "ok so today is a lot. I'm not starting before 9 because I'm dropping Milo at school, and I've got the dentist from 10:30-11:30, then a quick call with Dr. Lim at 1pm. I need to finish the grant budget today, it's due at 4pm. I should also go through the intern applications. Tomorrow I have to prep the board packet.",
    );
    assert_eq!(cx.window_start, Some(540));
    let blocks: Vec<(Minute, Minute)> = cx.blocks.iter().map(|b| (b.start, b.end)).collect();
    assert_eq!(blocks, [(630, 690), (780, 810)]);
    let tasks: Vec<(&str, bool)> = cx.tasks.iter().map(|t| (t.text.as_str(), t.must)).collect();
    assert_eq!(
        tasks,
        [
            ("finish the grant budget today", true),
            ("go through the intern applications", false),
        ]
    );
    // One line of several sentences and no constraint reads as before.
    let cx = extract_("Need to email Dana. Should review the contract.");
    assert_eq!(cx.tasks.len(), 2);
    let cx = extract_(
        "- run the payroll export (can't before 2, finance locks it)\n- email the SOW by 3pm\n",
    );
    let tasks: Vec<(&str, bool)> = cx.tasks.iter().map(|t| (t.text.as_str(), t.must)).collect();
    assert_eq!(
        tasks,
        [
            ("run the payroll export", false),
            ("email the SOW by 3pm", true)
        ]
    );
}

/// Prose tasks are cut at their clauses, both ways: a clause that opens with a cue after a
/// semicolon, or a comma and joining words, is a task of its own; a cue right after a
/// comma goes on the same task; a remark after a comma is not the task's words, a list
/// after it is.
#[test]
fn prose_tasks_at_clause_boundaries_both_ways() {
    let table: &[(&str, &[(&str, bool)])] = &[
        (
            "I should review the Q3 budget numbers for finance, and I need to call the accountant about the invoice.",
            &[
                ("review the Q3 budget numbers for finance", false),
                ("call the accountant about the invoice", false),
            ],
        ),
        (
            "I need to file the brief; also have to call Ortega today.",
            &[("file the brief", false), ("call Ortega today", true)],
        ),
        (
            "Need to draft the motion to compel, must file it today.",
            &[("draft the motion to compel", true)],
        ),
        (
            "I should review the numbers and call the accountant.",
            &[("review the numbers and call the accountant", false)],
        ),
        (
            "After that I need to send the Ferraz proposal today, no matter what, Beatriz is waiting on it.",
            &[("send the Ferraz proposal today", true)],
        ),
        (
            "I need to email Dana, Sam and Lee.",
            &[("email Dana, Sam and Lee", false)],
        ),
    ];
    for (notes, want) in table {
        let cx = extract_(notes);
        let got: Vec<(&str, bool)> = cx.tasks.iter().map(|t| (t.text.as_str(), t.must)).collect();
        assert_eq!(got, *want, "{notes}");
    }
}
