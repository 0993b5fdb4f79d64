//! The notes reader on remarks that change what a time or a task means: an evening word
//! is its own time's, a time beside a later day or named as a deadline or another event's
//! places nothing, a denied "today", a line that is not the writer's, and the full stop
//! of an abbreviation in a prose task.

use super::*;

fn extract_(s: &str) -> Context {
    extract(s, None)
}

fn spans(cx: &Context) -> Vec<(Minute, Minute)> {
    cx.blocks.iter().map(|b| (b.start, b.end)).collect()
}

fn musts(cx: &Context) -> Vec<(&str, bool)> {
    cx.tasks.iter().map(|t| (t.text.as_str(), t.must)).collect()
}

#[test]
fn an_evening_word_is_the_half_day_of_its_own_time_only() {
    let cx = extract_(
        "I'm in the office from 9:30 today and I have to be out the door by 5:15 because of the recital tonight.",
    );
    assert_eq!((cx.window_start, cx.window_end), (Some(570), Some(1035)));
    // The words before a time, up to the time before it, are still its own.
    let cx = extract_("- family dinner at 7, then the budget call at 9:30 tonight");
    assert_eq!(spans(&cx), [(1140, 1170), (1290, 1320)]);
}

#[test]
fn a_time_beside_a_later_day_places_nothing_today() {
    let thu = Some(Weekday::Thursday);
    let cx = extract(
        "- finish the grant narrative — must, due tomorrow 9am, and I'm chaperoning the field trip from 7:30 tomorrow so it's really today",
        thu,
    );
    assert_eq!(cx.window_start, None);
    assert!(cx.unread.is_empty() && cx.blocks.is_empty(), "{cx:?}");
    assert_eq!(musts(&cx).len(), 1);
    assert!(musts(&cx)[0].1);
    assert_eq!(spans(&extract("- dentist Fri 3pm", thu)), []);
    // Today's times still place, and a night's stop on the next day is still the stop.
    assert_eq!(spans(&extract("- dentist 3pm", thu)), [(900, 930)]);
    let cx = extract("online 10pm, off at 6am fri", thu);
    assert_eq!(cx.window_end, Some(30 * 60));
}

#[test]
fn a_deadline_or_another_events_time_in_a_task_is_not_a_block() {
    for line in [
        "- send the revised budget to Hollis & Reed before the 10am call!!",
        "- compile the overnight wrap for the breakfast team, due 05:30",
        "- cut down the treasurer interview for the 6am bulletin — must",
    ] {
        let cx = extract_(line);
        assert_eq!(spans(&cx), [], "{line}");
        assert!(
            musts(&cx).iter().all(|t| t.1) && cx.tasks.len() == 1,
            "{line}"
        );
    }
    assert_eq!(
        spans(&extract_("- client call w/ Hollis & Reed 10-10:45")),
        [(600, 645)]
    );
    assert_eq!(spans(&extract_("- breakfast w/ Bec 05:30")), [(330, 360)]);
}

#[test]
fn a_denied_today_and_a_line_that_is_not_the_writers() {
    let cx = extract(
        "- email Dr. Sato the revised protocol — must, but it's due tomorrow EOD, so not today\n\
         - update the contacts sheet — due Monday, not tonight\n\
         - bulletins on the hour are automated now, not my problem\n\
         (server maintenance 02:00–04:00 tonight, irrelevant for me)",
        Some(Weekday::Thursday),
    );
    assert!(cx.tasks.is_empty() && cx.blocks.is_empty(), "{cx:?}");
    let cx = extract(
        "- email Dr. Sato the revised protocol — must, today\n- server maintenance 02:00–04:00",
        Some(Weekday::Thursday),
    );
    assert_eq!(musts(&cx), [("email Dr. Sato the revised protocol", true)]);
    assert_eq!(spans(&cx), [(120, 240)]);
}

#[test]
fn a_start_word_in_a_clause_of_its_own_and_a_meeting_moved_to_a_later_day() {
    let cx = extract_("at the bench from 09:00, out the door by 18:30 (Jiwoo's farewell dinner)");
    assert_eq!((cx.window_start, cx.window_end), (Some(540), Some(1110)));
    assert_eq!(spans(&cx), []);
    assert_eq!(
        spans(&extract_("lunch w/ the lab from 12:00")),
        [(720, 750)]
    );
    let cx = extract_("(the all-hands got moved to next Tuesday, so nothing at 2 today)");
    assert_eq!(spans(&cx), []);
    assert_eq!(spans(&extract_("all-hands moved to 14:00")), [(840, 870)]);
    let cx =
        extract_("- cryo-EM slot 14:00–16:00 → in the basement at the scope, no desk work then");
    assert_eq!((cx.window_start, spans(&cx)), (None, vec![(840, 960)]));
}

/// A remark in brackets that gives no number is part of the appointment's name, before or
/// after its time; one with a number is its length or another time, not its name.
#[test]
fn a_bracketed_remark_without_a_number_is_part_of_the_name() {
    let rows: &[(&str, &str)] = &[
        (
            "10:00-10:45 call with Rohan (Sharma & Co)",
            "call with Rohan (Sharma & Co)",
        ),
        (
            "call with Rohan (Sharma & Co) 10:00-10:45",
            "call with Rohan (Sharma & Co)",
        ),
        (
            "1:00-1:30pm sync w/ Priyanka (Manila handoff), then lunch",
            "sync w/ Priyanka (Manila handoff)",
        ),
        // Not the name's: a length, another zone's time.
        ("Call with the bank at 11am (45 min)", "Call with the bank"),
        ("10:00 call with Rohan (45 min)", "call with Rohan"),
        (
            "10:00-10:45 call with Rohan (3pm his time)",
            "call with Rohan",
        ),
    ];
    for (notes, label) in rows {
        let cx = extract_(notes);
        let labels: Vec<&str> = cx.blocks.iter().map(|b| b.label.as_str()).collect();
        assert_eq!(labels, [*label], "{notes}");
    }
}

#[test]
fn a_prose_lines_sentences_are_the_layouts() {
    // The full stop of "Mr." ends no sentence: the task keeps its person and its deadline.
    let cx = extract_("I need to send the revised fee estimate to Mr. Pillay by EOD");
    assert_eq!(
        musts(&cx),
        [("send the revised fee estimate to Mr. Pillay by EOD", true)]
    );
    // A full stop before a new sentence still ends one.
    let cx = extract_("I need to send the fee estimate to Pillay. I should book the dentist.");
    assert_eq!(
        musts(&cx),
        [
            ("send the fee estimate to Pillay", false),
            ("book the dentist", false)
        ]
    );
}

#[test]
fn an_hour_said_as_a_word_places_a_meeting() {
    // "at ten" beside a meeting word is the meeting's time, as "at 10" is.
    assert_eq!(spans(&extract_("meeting with Jo at ten")), [(600, 630)]);
    assert_eq!(extract_("hard stop at five").window_end, Some(1020));
    // Without a meeting word or a stop it places nothing; a count is no time.
    assert!(spans(&extract_("coffee at ten")).is_empty());
    assert!(spans(&extract_("finish ten tasks before the call")).is_empty());
}

#[test]
fn a_single_time_with_its_length_is_an_appointment() {
    // Whatever it is called, a time with its length right after it is blocked.
    assert_eq!(
        spans(&extract_("parents' evening at 6pm (1 hr)")),
        [(1080, 1140)]
    );
    assert_eq!(
        spans(&extract_("Ollie's assembly 09:00 for 30 min")),
        [(540, 570)]
    );
    // A task cue or a must-do keeps it a task; a length away from the time is not its.
    assert!(spans(&extract_("- need to draft the memo at 2pm (45 min)")).is_empty());
    assert!(spans(&extract_("- file the VAT return by 2pm (45 min) today")).is_empty());
}
