//! Whether a run before a corporate suffix is a company's name: upper-case boilerplate and a
//! place before the suffix are no names.

use super::words::tokens;

/// Upper-case legal boilerplate ("AND ITS AFFILIATES, … AG") and a place before the suffix
/// ("a Delaware LLC") are not names.
pub(super) fn plausible_org_name(name: &str) -> bool {
    const STOP: &[&str] = &[
        "and", "or", "of", "to", "the", "for", "by", "in", "with", "any", "its", "all", "a", "an",
        "each", "such", "other",
    ];
    const PLACES: &[&str] = &[
        "delaware",
        "texas",
        "california",
        "new",
        "york",
        "florida",
        "nevada",
        "missouri",
        "bermuda",
        "uk",
        "us",
        "u",
        "s",
        "english",
        "british",
        "cayman",
        "irish",
        "indian",
        "chinese",
        "german",
        "a",
        "an",
        "based",
        "limited",
        "liability",
    ];
    let words: Vec<String> = tokens(name).map(|(w, _, _)| w).collect();
    let Some(first) = words.first() else {
        return false;
    };
    if STOP.contains(&first.as_str()) {
        return false;
    }
    let upper_stop = name.split_whitespace().any(|w| {
        let w = w.trim_matches(|c: char| !c.is_alphanumeric());
        w.len() > 1
            && w.chars().all(|c| c.is_ascii_uppercase())
            && STOP.contains(&w.to_ascii_lowercase().as_str())
    });
    !upper_stop && !words.iter().all(|w| PLACES.contains(&w.as_str()))
}
