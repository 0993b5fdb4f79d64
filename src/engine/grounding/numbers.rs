//! Numbers written in words or digits: "one million", "ninety (90)", "1,000,000", "1.5".

/// Value of a number written with digits: "1,000,000", "1.5", "2 000". `None` if not one.
pub fn parse_digits(s: &str) -> Option<f64> {
    let cleaned: String = s
        .chars()
        .filter(|c| !matches!(c, ',' | ' ' | '\u{a0}'))
        .collect();
    if cleaned.is_empty() || !cleaned.chars().next()?.is_ascii_digit() {
        return None;
    }
    cleaned.parse::<f64>().ok()
}

fn unit_word(w: &str) -> Option<u64> {
    Some(match w {
        "zero" => 0,
        "one" | "a" | "an" => 1,
        "two" => 2,
        "three" => 3,
        "four" => 4,
        "five" => 5,
        "six" => 6,
        "seven" => 7,
        "eight" => 8,
        "nine" => 9,
        "ten" => 10,
        "eleven" => 11,
        "twelve" => 12,
        "thirteen" => 13,
        "fourteen" => 14,
        "fifteen" => 15,
        "sixteen" => 16,
        "seventeen" => 17,
        "eighteen" => 18,
        "nineteen" => 19,
        "twenty" => 20,
        "thirty" => 30,
        "forty" | "fourty" => 40,
        "fifty" => 50,
        "sixty" => 60,
        "seventy" => 70,
        "eighty" => 80,
        "ninety" => 90,
        _ => return None,
    })
}

/// A multiplier word: "hundred", "thousand", "million", "billion" (and "m", "bn", "k").
pub fn multiplier(w: &str) -> Option<f64> {
    Some(match w.to_ascii_lowercase().trim_end_matches('.') {
        "hundred" => 100.0,
        "thousand" | "k" => 1e3,
        "million" | "m" | "mm" | "mn" => 1e6,
        "billion" | "bn" | "b" => 1e9,
        _ => return None,
    })
}

/// Value of a number written in words: "one million", "twenty-five thousand",
/// "one hundred and twenty". `None` when a word is not a number word.
pub fn parse_words(s: &str) -> Option<f64> {
    let mut total: u64 = 0;
    let mut current: u64 = 0;
    let mut any = false;
    for w in s
        .split(|c: char| c.is_whitespace() || c == '-')
        .filter(|w| !w.is_empty())
    {
        let w = w.to_ascii_lowercase();
        if w == "and" && any {
            continue;
        }
        if let Some(v) = unit_word(&w) {
            if (w == "a" || w == "an") && any {
                return None;
            }
            current = current.checked_add(v)?;
            any = true;
        } else if w == "hundred" {
            current = current.max(1).checked_mul(100)?;
            any = true;
        } else if let Some(m) = multiplier(&w) {
            total = total.checked_add(current.max(1).checked_mul(m as u64)?)?;
            current = 0;
            any = true;
        } else {
            return None;
        }
    }
    any.then_some((total + current) as f64)
}

/// Digits or words.
pub fn parse_number(s: &str) -> Option<f64> {
    let s = s.trim();
    parse_digits(s).or_else(|| parse_words(s))
}

/// A value as a stable string: integers without decimals, others with up to 4.
pub fn fmt_value(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        let s = format!("{v:.4}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// The number-word alternation for regexes (longest first not needed: words are bounded).
pub const NUMBER_WORDS: &str = r"(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion)";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_digits() {
        assert_eq!(parse_words("one million"), Some(1e6));
        assert_eq!(parse_words("Twenty-Five Thousand"), Some(25_000.0));
        assert_eq!(parse_words("one hundred and twenty"), Some(120.0));
        assert_eq!(parse_words("ninety"), Some(90.0));
        assert_eq!(
            parse_words("two million five hundred thousand"),
            Some(2_500_000.0)
        );
        assert_eq!(parse_words("ninety days"), None);
        assert_eq!(parse_digits("1,000,000"), Some(1e6));
        assert_eq!(parse_digits("1.5"), Some(1.5));
        assert_eq!(parse_digits("x1"), None);
        assert_eq!(fmt_value(1.5), "1.5");
        assert_eq!(fmt_value(1e6), "1000000");
    }
}
