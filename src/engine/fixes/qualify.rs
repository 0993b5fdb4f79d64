//! Hedging a certainty term: "is compliant" → "appears to be compliant".

/// "is compliant" → "appears to be compliant, subject to [conditions]"; other certainty
/// words get a hedge. `None` when no sensible rewrite exists.
pub fn qualify(span: &str) -> Option<String> {
    let lower = span.to_lowercase();
    let words: Vec<&str> = span.split_whitespace().collect();
    let first = words.first()?.to_lowercase();
    let rest = words[1..].join(" ");
    let rewritten = match first.as_str() {
        "is" | "remains" | "becomes" => format!("appears to be {rest}"),
        "are" | "remain" | "become" => format!("appear to be {rest}"),
        "was" => format!("appears to have been {rest}"),
        "were" => format!("appear to have been {rest}"),
        "be" | "being" => format!("{first} likely {rest}"),
        "will" => format!("will likely {rest}"),
        "always" => "generally".to_string(),
        "never" => "generally not".to_string(),
        "certainly" | "definitely" | "undoubtedly" | "unquestionably" => "likely".to_string(),
        _ if lower.starts_with("without") => "likely".to_string(),
        _ => format!("is intended to {}", lower_first(span))
            .replace("is intended to guarantees", "is intended to ensure"),
    };
    let rewritten = rewritten.trim().to_string();
    Some(match span.chars().next() {
        Some(c) if c.is_uppercase() => upper_first(&rewritten),
        _ => rewritten,
    })
}

fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_lowercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn certainty_rewrites_keep_case_and_add_a_hedge() {
        assert_eq!(qualify("is compliant").unwrap(), "appears to be compliant");
        assert_eq!(
            qualify("Are fully enforceable").unwrap(),
            "Appear to be fully enforceable"
        );
        assert_eq!(
            qualify("will be enforced").unwrap(),
            "will likely be enforced"
        );
        assert_eq!(qualify("Always").unwrap(), "Generally");
        assert_eq!(qualify("guarantees").unwrap(), "is intended to ensure");
    }
}
