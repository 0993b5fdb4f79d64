//! Periods written as an ordinal, as payment-term shorthand or as a word ("Net 55", "the 17th
//! day following termination", "the fifth anniversary of the Effective Date", "a fortnight"),
//! read as durations with the same normalized form as "55 days", "17 days", "5 years" and "14
//! days", so that the output's
//! and the source's ways of writing one period compare equal. The shapes are data
//! (`periods.toml`) with examples run both ways below.

use std::sync::LazyLock;

use regex::Regex;
use serde::Deserialize;

use super::numbers::{fmt_value, parse_digits, parse_words};
use crate::engine::ascii_regex;

const DATA: &str = include_str!("periods.toml");

/// An ordinal in digits or words ("17th", "fifth", "twenty-first").
const ORDINAL: &str = r"\d{1,3}(?:st|nd|rd|th)|(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)-)?(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth|fortieth|fiftieth|sixtieth|seventieth|eightieth|ninetieth|hundredth";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Data {
    shapes: Vec<ShapeData>,
    #[cfg_attr(not(test), allow(dead_code))]
    tests: Examples,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ShapeData {
    pattern: String,
    unit: String,
    #[serde(default)]
    not_followed_by: Option<String>,
    #[serde(default)]
    not_numbers: Vec<u32>,
    /// The length a word for a period stands for ("a fortnight" → 14), for shapes without a
    /// `num` group.
    #[serde(default)]
    value: Option<f64>,
    /// Added to the number before `times` ("two and a half years": 2 + 0.5).
    #[serde(default)]
    add: f64,
    /// The number of `unit`s in the period the pattern names ("years" read as 12 months).
    #[serde(default = "one")]
    times: f64,
}

fn one() -> f64 {
    1.0
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(not(test), allow(dead_code))]
struct Examples {
    matches: Vec<(String, String)>,
    not_matches: Vec<String>,
}

struct Shape {
    re: Regex,
    unit: String,
    not_followed_by: Option<Regex>,
    not_numbers: Vec<u32>,
    value: Option<f64>,
    add: f64,
    times: f64,
}

static DATA_PARSED: LazyLock<Data> =
    LazyLock::new(|| toml::from_str(DATA).expect("grounding/periods.toml is valid (tested)"));

static SHAPES: LazyLock<Vec<Shape>> = LazyLock::new(|| {
    let compile = |p: &str| {
        ascii_regex::compile(&p.replace("ORDINAL", ORDINAL)).expect("periods.toml pattern")
    };
    DATA_PARSED
        .shapes
        .iter()
        .map(|s| Shape {
            re: compile(&s.pattern),
            unit: s.unit.clone(),
            not_followed_by: s.not_followed_by.as_deref().map(compile),
            not_numbers: s.not_numbers.clone(),
            value: s.value,
            add: s.add,
            times: s.times,
        })
        .collect()
});

/// The value of an ordinal or a number: "17th" → 17, "fifth" → 5, "twenty-first" → 21, "55".
fn ordinal_value(s: &str) -> Option<f64> {
    let s = s.to_ascii_lowercase();
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        return parse_digits(s.trim_end_matches(|c: char| c.is_ascii_alphabetic()));
    }
    const UNITS: &[&str] = &[
        "first",
        "second",
        "third",
        "fourth",
        "fifth",
        "sixth",
        "seventh",
        "eighth",
        "ninth",
        "tenth",
        "eleventh",
        "twelfth",
        "thirteenth",
        "fourteenth",
        "fifteenth",
        "sixteenth",
        "seventeenth",
        "eighteenth",
        "nineteenth",
    ];
    let (tens, last) = s.rsplit_once('-').unwrap_or(("", &s));
    let tens = if tens.is_empty() {
        0.0
    } else {
        parse_words(tens)?
    };
    let v = match UNITS.iter().position(|u| *u == last) {
        Some(i) => i as f64 + 1.0,
        // "twentieth" → "twenty", "hundredth" → "hundred".
        None => parse_words(&last.strip_suffix("ieth").map_or_else(
            || last.trim_end_matches("th").to_string(),
            |t| format!("{t}y"),
        ))?,
    };
    Some(tens + v)
}

/// The periods of `hay`: (start, end, normalized) with offsets into `hay`.
pub fn periods(hay: &str) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    for shape in SHAPES.iter() {
        for c in shape.re.captures_iter(hay) {
            let m = c.get(0).expect("match");
            if shape
                .not_followed_by
                .as_ref()
                .is_some_and(|re| re.is_match(&hay[m.end()..]))
            {
                continue;
            }
            let num = c.name("num").and_then(|n| ordinal_value(n.as_str()));
            let Some(v) = num.or(shape.value) else {
                continue;
            };
            let v = (v + shape.add) * shape.times;
            if v < 1.0 || shape.not_numbers.iter().any(|&n| f64::from(n) == v) {
                continue;
            }
            let unit = match c.name("kind").map(|k| k.as_str().to_ascii_lowercase()) {
                Some(k) if k == "business" || k == "working" => "business day",
                _ => shape.unit.as_str(),
            };
            out.push((m.start(), m.end(), format!("{} {unit}", fmt_value(v))));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_examples_hold_both_ways() {
        for (s, want) in &DATA_PARSED.tests.matches {
            let got: Vec<String> = periods(s).into_iter().map(|p| p.2).collect();
            assert_eq!(got, vec![want.clone()], "{s}");
        }
        for s in &DATA_PARSED.tests.not_matches {
            assert!(periods(s).is_empty(), "should read no period: {s}");
        }
    }

    #[test]
    fn ordinals_in_digits_and_words() {
        for (s, v) in [
            ("17th", 17.0),
            ("fifth", 5.0),
            ("twenty-first", 21.0),
            ("twentieth", 20.0),
            ("ninetieth", 90.0),
            ("hundredth", 100.0),
            ("twelfth", 12.0),
        ] {
            assert_eq!(ordinal_value(s), Some(v), "{s}");
        }
    }
}
