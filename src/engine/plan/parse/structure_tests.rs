//! What a plan's structure makes an item or not, both ways: a timed title heading over
//! deeper timed headings, a timebox set apart after a dash, a one-word topic before a colon.

use super::tests::{H, Row, same};

#[test]
fn titles_timeboxes_and_topics() {
    let layouts: &[(&str, &[Row])] = &[
        // A timed title over the plan's deeper timed headings is not an item; timed
        // headings of one level stay items, each its own block.
        (
            "## Night plan (10 PM – 6 AM, 7 real hours)\n\n### 10:20 PM – 12:00 AM · Verify the backup\nGate.\n\n### 12:00 AM – 1:00 AM · Migrate billing\n",
            &[
                (
                    "Verify the backup",
                    Some(100),
                    Some(22 * H + 20),
                    Some(24 * H),
                ),
                ("Migrate billing", Some(60), Some(0), Some(H)),
            ],
        ),
        (
            "## 9:00–10:00 · Draft brief\nWhy.\n\n## 10:00–10:30 · Email Dana\n",
            &[
                ("Draft brief", Some(60), Some(9 * H), Some(10 * H)),
                ("Email Dana", Some(30), Some(10 * H), Some(10 * H + 30)),
            ],
        ),
        // Under an untimed group heading, a duration set apart after a dash is a timebox
        // as one in parentheses is; a number inside the task is not.
        (
            "## Morning\n- Quarterly numbers (~2h)\n- Onboarding deck — 1 hr 15\n- Call 3 vendors about the quote\n",
            &[
                ("Quarterly numbers", Some(120), None, None),
                ("Onboarding deck", Some(75), None, None),
            ],
        ),
        // A one-word topic before a colon opens the task; after more words the colon
        // opens the why.
        (
            "- 9:00–10:00 Portfolio: Torres case study\n- 10:00–10:30 Draft the brief: due at noon\n",
            &[
                (
                    "Portfolio: Torres case study",
                    Some(60),
                    Some(9 * H),
                    Some(10 * H),
                ),
                ("Draft the brief", Some(30), Some(10 * H), Some(10 * H + 30)),
            ],
        ),
    ];
    for (text, want) in layouts {
        same(text, want);
    }
}
