//! The chat-phrasing rules of the notes reader, as tables both ways: each row is a notes
//! text and what the reader must (and must not) make of it.

use jiff::civil::Weekday;

use crate::engine::plan::context::{Context, extract};
use crate::engine::plan::timex::Minute;

fn spans(bs: &[super::Block]) -> Vec<(Minute, Minute)> {
    bs.iter().map(|b| (b.start, b.end)).collect()
}

fn read(notes: &str) -> Context {
    extract(notes, Some(Weekday::Thursday))
}

/// Meeting rules: a window with no calls or meetings, not the day's start or stop.
#[test]
fn meeting_rules_both_ways() {
    // (notes, meeting-rule windows, end of the day)
    type Row<'a> = (&'a str, &'a [(Minute, Minute)], Option<Minute>);
    let table: &[Row] = &[
        ("no meetings after 3", &[(900, 2880)], None),
        ("can't take calls before 9", &[(0, 540)], None),
        ("can’t take calls before 9:30am", &[(0, 570)], None),
        ("no calls or meetings after 4pm", &[(960, 2880)], None),
        ("don't book meetings before 10", &[(0, 600)], None),
        ("no calls 12-1", &[(720, 780)], None),
        ("can't do calls 12-1", &[(720, 780)], None),
        // On a prose line a directed rule with its time is a clause of its own: the stop
        // after it is the day's end, not the rule's; without a time it is no clause.
        (
            "I can't take calls before 10, and I have to be out the door by 17:45 for the final.",
            &[(0, 600)],
            Some(1065),
        ),
        (
            "I can't take calls, and I have to be out the door by 17:45 for the final.",
            &[],
            Some(1065),
        ),
        // Not meeting rules: the stop, a call, a day with no meetings.
        ("no work after 9pm", &[], Some(1260)),
        ("call w/ Jo @ 11", &[], None),
        ("no meetings today", &[], None),
    ];
    for (notes, rules, end) in table {
        let cx = read(notes);
        assert_eq!(spans(&cx.meeting_rules), *rules, "{notes}");
        assert_eq!(cx.window_end, *end, "{notes}");
    }
    // With a working window it changes neither end nor the blocks.
    let cx = read("desk till 5\nno meetings after 3\nstandup 9:15-9:30");
    assert_eq!(cx.window_end, Some(1020));
    assert_eq!(spans(&cx.blocks), [(555, 570)]);
    assert!(cx.tasks.is_empty());
}

/// Which plan items the meeting rules apply to.
#[test]
fn meeting_items_both_ways() {
    for t in [
        "Quick call with Mara",
        "Sync with Mara on the deck",
        "1:1 with Dana",
        "Call the bank",
    ] {
        assert!(super::is_meeting_item(t), "{t}");
    }
    for t in [
        "Recall the memo",
        "Draft the brief",
        "Review Mara's deck",
        "Prep questions for Thursday's vendor demo",
        "Draft the sync agenda",
    ] {
        assert!(!super::is_meeting_item(t), "{t}");
    }
}

/// The desk day, optional appointments, a part of the day kept free, preferences.
#[test]
fn chat_phrasings_both_ways() {
    // (notes, window start, window end, blocks, tasks)
    type Row<'a> = (
        &'a str,
        Option<Minute>,
        Option<Minute>,
        &'a [(Minute, Minute)],
        &'a [&'a str],
    );
    let table: &[Row] = &[
        ("desk till 5", None, Some(1020), &[], &[]),
        ("at my desk until 6pm", None, Some(1080), &[], &[]),
        ("in court until 11", None, None, &[(0, 660)], &[]),
        ("gym at 6 if time", None, None, &[], &[]),
        ("maybe lunch w/ Sam 12:30", None, None, &[], &[]),
        ("gym at 6", None, None, &[(1080, 1110)], &[]),
        ("keep the afternoon free", None, Some(720), &[], &[]),
        ("keep this morning open", Some(720), None, &[], &[]),
        // Today is Thursday: Friday's afternoon says nothing about today.
        ("keep Friday afternoon free", None, None, &[], &[]),
        ("keep Thursday afternoon free", None, Some(720), &[], &[]),
        ("- only mornings for deep work", None, None, &[], &[]),
        ("- avoid back-to-back calls", None, None, &[], &[]),
        (
            "- email Dana to avoid the late fee",
            None,
            None,
            &[],
            &["email Dana to avoid the late fee"],
        ),
        ("school pickup 3:15", None, None, &[(915, 945)], &[]),
        ("out 12-1 for lunch", None, None, &[(720, 780)], &[]),
        ("hard stop 17:30", None, Some(1050), &[], &[]),
        ("not before 10", Some(600), None, &[], &[]),
        ("- nothing before 9", Some(540), None, &[], &[]),
        ("free from 1", Some(780), None, &[], &[]),
        ("out of office after 4", None, Some(960), &[], &[]),
        ("done for the day at 5", None, Some(1020), &[], &[]),
        ("leave for the airport at 3", None, Some(900), &[], &[]),
        ("- finishing at 4 today", None, Some(960), &[], &[]),
        (
            "- finish the deck at 3",
            None,
            None,
            &[],
            &["finish the deck at 3"],
        ),
        ("meeting 2-3", None, None, &[(840, 900)], &[]),
        ("team standup 9", None, None, &[(540, 570)], &[]),
        ("- call 3 vendors", None, None, &[], &["call 3 vendors"]),
        ("- deep work 9-11", None, None, &[], &[]),
        (
            "- deep work on the Acme brief",
            None,
            None,
            &[],
            &["deep work on the Acme brief"],
        ),
        (
            "meetings 11-12 then heads down",
            None,
            None,
            &[(660, 720)],
            &[],
        ),
        ("- gym 6pm if I can", None, None, &[], &[]),
        ("stop by midnight", None, Some(1440), &[], &[]),
        ("must be offline by 02:00", None, Some(120), &[], &[]),
        ("shift ends 7am", None, Some(420), &[], &[]),
        ("busy 1-2", None, None, &[(780, 840)], &[]),
        ("OOO 12-1", None, None, &[(720, 780)], &[]),
        (
            "- send out the invoices by 3pm",
            None,
            None,
            &[],
            &["send out the invoices by 3pm"],
        ),
        ("all-hands 4pm", None, None, &[(960, 990)], &[]),
        ("kickoff 10am", None, None, &[(600, 630)], &[]),
    ];
    for (notes, start, end, blocks, tasks) in table {
        let cx = read(notes);
        assert_eq!(cx.window_start, *start, "{notes}: start");
        assert_eq!(cx.window_end, *end, "{notes}: end");
        assert_eq!(spans(&cx.blocks), *blocks, "{notes}: blocks");
        let got: Vec<&str> = cx.tasks.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(got, *tasks, "{notes}: tasks");
    }
}

/// A deadline at a time today makes a task a must-do; one on a day does not.
#[test]
fn deadlines_today_are_must_dos() {
    for (line, must) in [
        ("- must finish the Hartley brief by noon", true),
        ("- send the deck to Acme by 3 PM", true),
        ("- finish the slides before noon", true),
        ("- send the deck this week", false),
        ("- send the deck before the offsite", false),
        ("- file the motion (due 5pm)", true),
        ("- deadline 5pm: file the motion", true),
        ("- file the motion before lunch", true),
        ("- file the motion - high priority", true),
        ("- file the motion - important", false),
    ] {
        let cx = read(line);
        assert_eq!(cx.tasks.len(), 1, "{line}");
        assert_eq!(cx.tasks[0].must, must, "{line}");
    }
}

/// Which lines are left unread: short prose with one written time no rule reads.
#[test]
fn unread_times_both_ways() {
    for (notes, unread) in [
        ("plumber 7pm", vec![1140]),
        ("dinner 7pm", vec![]),
        ("kids' party 6:30pm", vec![]),
        ("dinner 7-8pm", vec![]),
        ("call at 2:30", vec![]),
        ("- dinner 7pm", vec![]),
        ("so tired, slept badly, woke at 6am again", vec![]),
        ("need to send the memo by 3pm", vec![]),
    ] {
        let cx = read(notes);
        let got: Vec<Minute> = cx.unread.iter().map(|b| b.start).collect();
        assert_eq!(got, unread, "{notes}");
    }
}
