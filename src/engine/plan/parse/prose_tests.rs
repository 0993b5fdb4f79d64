//! A plan written as prose paragraphs, both ways.

use super::super::{Plan, parse};

fn p(t: &str) -> Plan {
    parse(t, (0, t.len()))
}

fn read(plan: &Plan) -> Vec<(&str, Option<i64>)> {
    plan.items
        .iter()
        .map(|i| (i.task.as_str(), i.minutes))
        .collect()
}

const PROSE: &str = "Sure! Here's how I'd lay out your Tuesday.\n\n\
Start at 9:40 with the talking points for the Kapoor call (40 min). Getting these down first helps.\n\n\
Then, from 10:20 to 12:00, put your head down on the Q3 variance report. It is due EOD.\n\n\
After lunch with the team, at 1:45, reply to Meera about the vendor invoices (30 min). It's quick.\n\n\
From 2:15 to 3:45, update the forecast sheet once Ravi's numbers are in. You said around 2pm.\n\n\
I've assumed the shared drive cleanup can wait, and that lunch stays at 1:00–1:45.\n\n\
Confidence: medium\n";

/// Each sentence that opens with a time is an item (after at most six words and `at` /
/// `from`, or one word and a comma); the sentences after it are its why; a remark that
/// names a time late in a longer sentence is not an item.
#[test]
fn a_prose_plan_is_read_from_its_sentences() {
    let plan = p(PROSE);
    assert!(plan.unread.is_empty(), "{:?}", plan.unread);
    assert_eq!(
        read(&plan),
        [
            ("the talking points for the Kapoor call", Some(40)),
            ("put your head down on the Q3 variance report", Some(100)),
            ("reply to Meera about the vendor invoices", Some(30)),
            (
                "update the forecast sheet once Ravi's numbers are in",
                Some(90)
            ),
        ]
    );
    assert_eq!(plan.items[1].why, "It is due EOD.");
    assert_eq!(plan.planned_minutes(), 260);
}

/// The other way: a plan whose lines are items (three or more) is read by its lines, a
/// prose sentence with a time in it ("the clocks jump from 02:00 straight to 03:00") is
/// no item of it; and a prose plan with a sentence that opens with a time and gives no
/// task is not read.
#[test]
fn a_plan_of_lines_is_not_read_as_prose_and_a_taskless_time_is_unread() {
    let lines = "Remember the clocks jump from 02:00 straight to 03:00 tonight.\n\n\
22:30–23:00 Migration dry-run\n23:00–00:00 Smoke tests on staging\n03:00–04:15 Deploy v2.4\n";
    assert_eq!(
        read(&p(lines)),
        [
            ("Migration dry-run", Some(30)),
            ("Smoke tests on staging", Some(60)),
            ("Deploy v2.4", Some(75)),
        ]
    );
    let taskless = PROSE.replace("It's quick.", "Then, from 3:00 to 3:15.");
    let plan = p(&taskless);
    assert_eq!(
        plan.unread,
        ["a sentence of prose gives a time but no task: “Then, from 3:00 to 3:15.”"]
    );
}
