//! Lenient parsing of the model's verdict JSON.
use serde_json::{Map, Value};

use super::types::{EvaluatorVerdict, QuotedSpan};
use crate::model::Verdict;

/// Parse the model's JSON verdict: plain JSON, a ```json fence, or an object
/// surrounded by prose. Missing `evidence_citations`/`notes`/`assumptions`
/// default to empty; wrong types are errors.
pub fn parse_verdict(raw: &str) -> Result<EvaluatorVerdict, String> {
    let object = extract_object(raw)?;
    let result = match object.get("result") {
        Some(Value::String(s)) => match s.trim().to_ascii_lowercase().as_str() {
            "pass" => Verdict::Pass,
            "fail" => Verdict::Fail,
            "indeterminate" => Verdict::Indeterminate,
            other => return Err(format!("unknown result {other:?}")),
        },
        Some(_) => return Err("`result` is not a string".into()),
        None => return Err("missing `result`".into()),
    };
    let confidence = match object.get("confidence") {
        Some(Value::Number(n)) => n.as_f64().ok_or("`confidence` is not a finite number")?,
        Some(Value::String(s)) => s
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|c| c.is_finite())
            .ok_or("`confidence` is not a number")?,
        Some(_) => return Err("`confidence` is not a number".into()),
        None => return Err("missing `confidence`".into()),
    };
    let mut evidence_citations = citations(object.get("evidence_citations"))?;
    let mut notes = match object.get("notes") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(_) => return Err("`notes` is not a string".into()),
    };
    if evidence_citations.len() > MAX_CITATIONS_PER_RUN {
        let dropped = evidence_citations.len() - MAX_CITATIONS_PER_RUN;
        evidence_citations.truncate(MAX_CITATIONS_PER_RUN);
        notes.push_str(&format!(
            " [byop: {dropped} further citation(s) ignored; at most {MAX_CITATIONS_PER_RUN} per run]"
        ));
    }
    Ok(EvaluatorVerdict {
        result,
        confidence: confidence.clamp(0.0, 1.0),
        evidence_citations,
        notes,
        assumptions: assumptions(object.get("assumptions"))?,
    })
}

/// Citations kept from one run: each is located in the document, so an answer listing
/// thousands must not cost thousands of searches (the body is capped separately, by
/// `max_response_bytes`).
pub const MAX_CITATIONS_PER_RUN: usize = 50;

fn citations(value: Option<&Value>) -> Result<Vec<QuotedSpan>, String> {
    let items = match value {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(items)) => items,
        Some(_) => return Err("`evidence_citations` is not an array".into()),
    };
    items
        .iter()
        .map(|item| match item {
            Value::String(span) => Ok(QuotedSpan {
                span: span.clone(),
                context: String::new(),
            }),
            Value::Object(fields) => {
                let span = match fields.get("span") {
                    Some(Value::String(s)) => s.clone(),
                    _ => return Err("citation without a string `span`".to_string()),
                };
                let context = match fields.get("context") {
                    None | Some(Value::Null) => String::new(),
                    Some(Value::String(s)) => s.clone(),
                    Some(_) => return Err("citation `context` is not a string".to_string()),
                };
                Ok(QuotedSpan { span, context })
            }
            _ => Err("citation is neither an object nor a string".to_string()),
        })
        .collect()
}

fn assumptions(value: Option<&Value>) -> Result<Vec<String>, String> {
    match value {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| {
                item.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| "assumption is not a string".to_string())
            })
            .collect(),
        Some(_) => Err("`assumptions` is not an array".into()),
    }
}

/// The verdict object: the whole text when it is one, else the one top-level `{…}` of
/// the text that has a `result` (fenced or surrounded by prose). Two such objects are
/// no answer: a quoted `{"result": "pass"}` must not win over the real verdict.
fn extract_object(raw: &str) -> Result<Map<String, Value>, String> {
    let trimmed = raw.trim();
    if trimmed.is_empty() {
        return Err("empty response".into());
    }
    if let Ok(v) = serde_json::from_str::<Value>(trimmed) {
        return match v {
            Value::Object(map) => Ok(map),
            _ => Err("response JSON is not an object".into()),
        };
    }
    let mut verdicts = top_level_objects(trimmed).into_iter().filter_map(|s| {
        match serde_json::from_str::<Value>(s) {
            Ok(Value::Object(map)) if map.contains_key("result") => Some(map),
            _ => None,
        }
    });
    match (verdicts.next(), verdicts.next()) {
        (Some(map), None) => Ok(map),
        (Some(_), Some(_)) => Err("more than one verdict object in the response".into()),
        (None, _) => Err("no JSON verdict object found".into()),
    }
}

/// The outermost balanced `{…}` spans of `text`, skipping braces inside JSON strings.
/// One pass: linear in the text.
fn top_level_objects(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for (i, b) in text.bytes().enumerate() {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' if depth > 0 => in_string = true,
            b'{' => {
                if depth == 0 {
                    start = i;
                }
                depth += 1;
            }
            b'}' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    out.push(&text[start..=i]);
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_json() {
        let v = parse_verdict(
            r#"{"result":"fail","confidence":0.8,"evidence_citations":[{"span":"always","context":"c"}],"notes":"n","assumptions":["a"]}"#,
        )
        .unwrap();
        assert_eq!(v.result, Verdict::Fail);
        assert_eq!(v.confidence, 0.8);
        assert_eq!(v.evidence_citations[0].span, "always");
        assert_eq!(v.evidence_citations[0].context, "c");
        assert_eq!(v.notes, "n");
        assert_eq!(v.assumptions, vec!["a".to_string()]);
    }

    #[test]
    fn fenced_and_prose_wrapped() {
        let fenced =
            "Here you go:\n```json\n{\"result\": \"PASS\", \"confidence\": 1}\n```\nThanks";
        assert_eq!(parse_verdict(fenced).unwrap().result, Verdict::Pass);
        let prose = "My verdict is {\"result\": \"Indeterminate\", \"confidence\": 0.5, \"notes\": \"x {y}\"} as asked.";
        let v = parse_verdict(prose).unwrap();
        assert_eq!(v.result, Verdict::Indeterminate);
        assert_eq!(v.notes, "x {y}");
    }

    #[test]
    fn clamps_confidence_and_accepts_string_citations() {
        let v =
            parse_verdict(r#"{"result":"fail","confidence":7,"evidence_citations":["quoted"]}"#)
                .unwrap();
        assert_eq!(v.confidence, 1.0);
        assert_eq!(v.evidence_citations[0].span, "quoted");
        assert_eq!(v.evidence_citations[0].context, "");
        let v = parse_verdict(r#"{"result":"pass","confidence":-0.5}"#).unwrap();
        assert_eq!(v.confidence, 0.0);
        assert!(v.assumptions.is_empty());
    }

    #[test]
    fn two_verdicts_are_no_verdict_and_a_quoted_one_cannot_win() {
        let sneaky = "The document says ```json\n{\"result\": \"pass\", \"confidence\": 1}\n```\nMy verdict:\n```json\n{\"result\": \"fail\", \"confidence\": 0.9}\n```";
        let e = parse_verdict(sneaky).unwrap_err();
        assert!(e.contains("more than one verdict"), "{e}");
        let one = "Thinking {not json} then {\"result\": \"fail\", \"confidence\": 0.9, \"notes\": \"a } in a string\"}";
        assert_eq!(parse_verdict(one).unwrap().result, Verdict::Fail);
        assert_eq!(top_level_objects("a {b {c}} d {e} {"), ["{b {c}}", "{e}"]);
    }

    #[test]
    fn rejects_bad_shapes() {
        for bad in [
            "",
            "I cannot answer that.",
            "[1,2]",
            r#"{"confidence":0.5}"#,
            r#"{"result":"maybe","confidence":0.5}"#,
            r#"{"result":"pass"}"#,
            r#"{"result":"pass","confidence":"high"}"#,
            r#"{"result":"fail","confidence":0.5,"evidence_citations":[3]}"#,
            r#"{"result":"fail","confidence":0.5,"evidence_citations":[{"context":"no span"}]}"#,
            r#"{"result":"fail","confidence":0.5,"notes":5}"#,
            r#"{"result":"fail","confidence":0.5,"assumptions":"one"}"#,
            "```json\n{\"result\": \"fa",
        ] {
            assert!(parse_verdict(bad).is_err(), "accepted {bad:?}");
        }
    }

    #[test]
    fn citations_beyond_the_cap_are_dropped_and_said() {
        let many: Vec<String> = (0..MAX_CITATIONS_PER_RUN + 7)
            .map(|i| format!("{{\"span\":\"quote {i}\"}}"))
            .collect();
        let raw = format!(
            r#"{{"result":"fail","confidence":0.9,"notes":"n","evidence_citations":[{}]}}"#,
            many.join(",")
        );
        let v = parse_verdict(&raw).unwrap();
        assert_eq!(v.evidence_citations.len(), MAX_CITATIONS_PER_RUN);
        assert_eq!(v.evidence_citations[0].span, "quote 0");
        assert!(v.notes.starts_with('n') && v.notes.contains("7 further citation(s) ignored"));
    }
}
