//! Tests of the name and term readers without a marker.

use super::*;

fn people(text: &str, vocabulary: &str) -> Vec<String> {
    let lower = lower_words(vocabulary);
    people_in(text, (0, text.len()), &|w| starts_a_word(&lower, w))
        .into_iter()
        .map(|e| e.text)
        .collect()
}

#[test]
fn people_without_honorific_both_ways() {
    let vocab = "the key risks are financial and the chief officer signs the new summary";
    assert_eq!(
        people(
            "The Agreement was signed by Tobias Wrenfield, its CFO.",
            vocab
        ),
        ["Tobias Wrenfield"]
    );
    assert_eq!(
        people("Notices go to the attention of Amara Lindqvist.", vocab),
        ["Amara Lindqvist"]
    );
    // Ordinary words in capitals, calendar words, sentence openers: not names.
    for t in [
        "Key Risks are listed below.",
        "Chief Financial Officer approval is needed.",
        "Under Delaware law the cap holds.",
        "The deadline is March Fifteenth.",
        "It is governed by New York law.",
        "Apex Consulting Group LLC signs.",
    ] {
        assert!(people(t, vocab).is_empty(), "{t}: {:?}", people(t, vocab));
    }
}

#[test]
fn terms_used_once_after_the_both_ways() {
    let t = "The Agreement ties release to the Escrow Release Event, which neither party controls.";
    let got: Vec<_> = terms_in(t, (0, t.len()))
        .into_iter()
        .map(|e| e.text)
        .collect();
    assert_eq!(got, ["Escrow Release Event"]);
    let twice = "Add the Liability Cap clause. The Liability Cap then applies to the Services.";
    let got: Vec<_> = terms_in(twice, (0, twice.len()))
        .into_iter()
        .map(|e| e.text)
        .collect();
    assert!(got.is_empty(), "{got:?}");
    let org = "It is signed by the Acme Widget Corp. team.";
    assert!(terms_in(org, (0, org.len())).is_empty());
    let got = |t: &str| -> Vec<String> {
        terms_in(t, (0, t.len()))
            .into_iter()
            .map(|e| e.text)
            .collect()
    };
    assert_eq!(
        got("Key defined terms include Effective Date, Services and the Transition Fee."),
        ["Effective Date", "Transition Fee"]
    );
    assert!(got("The defined terms are clear, and Services is broad.").is_empty());
    assert_eq!(
        got("If a Key Personnel Event occurs, the supplier may suspend delivery."),
        ["Key Personnel Event"]
    );
    assert_eq!(
        got("The Agreement relies on the term Look-Back Period to decide."),
        ["Look-Back Period"]
    );
    assert!(got("The term is two years and a term sheet applies.").is_empty());
    assert_eq!(
        got("Each Milestone Credit expires after a year."),
        ["Milestone Credit"]
    );
    assert_eq!(
        got("Rebates are defined as Milestone Credits."),
        ["Milestone Credits"]
    );
    assert_eq!(
        got("Fine. All Milestone Credits lapse."),
        ["Milestone Credits"]
    );
    assert!(got("It tracks the Price Index for All Urban Consumers as published.").is_empty());
    assert_eq!(
        got("Milestone Credit is a defined term there."),
        ["Milestone Credit"]
    );
    assert_eq!(
        got("It uses Milestone Credit to mean the rebate."),
        ["Milestone Credit"]
    );
    // A capitalised description after "an" is not a condition on a defined event.
    assert!(got("It sets up an Internet Channel Cooperation Arrangement for both.").is_empty());
}
