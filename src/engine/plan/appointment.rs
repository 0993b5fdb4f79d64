//! Whether a plan's task is an appointment of the notes itself ("Call with Nani", "Weekly
//! sync with Kenji") or work about one ("Prep for the call with Nani"): the grounding rule
//! takes such an item's time as the meeting's, and the constraints rule lets it keep the
//! appointment's window.

/// Words before a meeting that make a task about it, not the meeting itself.
static ABOUT_A_MEETING: std::sync::LazyLock<regex::Regex> =
    std::sync::LazyLock::new(|| super::context::words::words("about_a_meeting"));

/// Words after a meeting that make a task a thing about it ("1:1 notes", "sync agenda").
static ABOUT_A_MEETING_AFTER: std::sync::LazyLock<regex::Regex> =
    std::sync::LazyLock::new(|| super::context::words::words("about_a_meeting_after"));

/// Do the words after a task's meeting (`after`) leave it the meeting itself ("1:1 with
/// Dana") rather than a thing about it ("1:1 notes for Haruto")?
pub(super) fn not_about_it_after(after: &str) -> bool {
    !ABOUT_A_MEETING_AFTER.is_match(after)
}

/// Words of work or availability ("working", "desk", "study").
static WORK: std::sync::LazyLock<regex::Regex> =
    std::sync::LazyLock::new(|| super::context::words::words("work"));

/// Do the words of a task before its meeting (`before`) leave the task the meeting itself
/// ("Weekly ", "Quick ") rather than work about it ("Prep for the ", "Draft the ")?
pub(super) fn names_the_meeting_itself(before: &str) -> bool {
    before.split_whitespace().count() <= 2 && !ABOUT_A_MEETING.is_match(before)
}

/// Is the plan's task `task` the notes' appointment `label` itself ("Call with Nani" of
/// "call w/ Nani 2pm-2:30"): a word of the label that is not a stop word (a meeting word or
/// a name, as the coverage rule reads words) opens the task, after at most two words that
/// do not make it work about the appointment ("Prep for the call with Nani" is work), and
/// the task says nothing else: one word of its own at most ("Quick lunch with Priya"), so
/// "Lunch w/ Carmen + finish the audit" or "Working lunch — review the checklist" is work
/// in the appointment's window.
pub(super) fn is_the_appointment(task: &str, label: &str) -> bool {
    let label = super::intent::tokens(label);
    let own: Vec<String> = super::intent::tokens(task)
        .into_iter()
        .filter(|w| !label.contains(w))
        .collect();
    // A word of work ("Working lunch") makes it work in the window.
    own.len() <= 1
        && !own.iter().any(|w| WORK.is_match(w))
        && task
            .split(|c: char| !c.is_alphanumeric())
            .find(|word| {
                super::intent::tokens(word)
                    .iter()
                    .any(|w| label.contains(w))
            })
            // The word's offset in the task (it is a subslice of it).
            .is_some_and(|word| {
                names_the_meeting_itself(&task[..word.as_ptr() as usize - task.as_ptr() as usize])
            })
}
