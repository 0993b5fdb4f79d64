//! A playbook's named pattern lists (`vocabularies`), written once and used by several checks:
//! a rule parameter `{"vocabulary": "drafting_sections"}` stands for the whole list, and an
//! element `{"vocabulary": "…"}` of a list parameter for its entries in that place. The rule
//! kinds never see a reference: a rule is resolved before it is compiled.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde_json::Value;

use crate::engine::rules::{RuleError, Seg};
use crate::model::Rule;

/// `rule` with every vocabulary reference replaced by its list (borrowed when it has none).
pub fn resolve<'r>(
    rule: &'r Rule,
    vocabularies: &BTreeMap<String, Vec<String>>,
) -> Result<Cow<'r, Rule>, RuleError> {
    if !rule.params.values().any(mentions) {
        return Ok(Cow::Borrowed(rule));
    }
    let mut out = rule.clone();
    for (key, value) in out.params.iter_mut() {
        let at = |i: Option<usize>| {
            let mut path = vec![Seg::key(key)];
            path.extend(i.map(Seg::Index));
            path
        };
        if let Some(name) = reference(value) {
            *value = list(lookup(name, vocabularies).map_err(|m| RuleError::at(at(None), m))?);
        } else if let Value::Array(items) = value {
            let mut spliced = Vec::with_capacity(items.len());
            for (i, item) in items.drain(..).enumerate() {
                match reference(&item) {
                    Some(name) => {
                        let entries = lookup(name, vocabularies)
                            .map_err(|m| RuleError::at(at(Some(i)), m))?;
                        spliced.extend(entries.iter().cloned().map(Value::String));
                    }
                    None => spliced.push(item),
                }
            }
            *items = spliced;
        }
    }
    Ok(Cow::Owned(out))
}

/// Is `value` a reference, or a list holding one?
fn mentions(value: &Value) -> bool {
    reference(value).is_some()
        || value
            .as_array()
            .is_some_and(|items| items.iter().any(|i| reference(i).is_some()))
}

/// The name in `{"vocabulary": "name"}` (that key alone).
fn reference(value: &Value) -> Option<&str> {
    match value.as_object() {
        Some(o) if o.len() == 1 => o.get("vocabulary")?.as_str(),
        _ => None,
    }
}

fn lookup<'v>(
    name: &str,
    vocabularies: &'v BTreeMap<String, Vec<String>>,
) -> Result<&'v [String], String> {
    vocabularies.get(name).map(Vec::as_slice).ok_or_else(|| {
        if vocabularies.is_empty() {
            format!("unknown vocabulary `{name}`: the playbook defines no `vocabularies`")
        } else {
            let known: Vec<&str> = vocabularies.keys().map(String::as_str).collect();
            format!(
                "unknown vocabulary `{name}` (the playbook's `vocabularies`: {})",
                known.join(", ")
            )
        }
    })
}

fn list(entries: &[String]) -> Value {
    Value::Array(entries.iter().cloned().map(Value::String).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(json: &str) -> Rule {
        serde_json::from_str(json).expect("a rule")
    }

    fn vocab() -> BTreeMap<String, Vec<String>> {
        BTreeMap::from([("drafting".to_string(), vec!["a".into(), "b".into()])])
    }

    #[test]
    fn a_parameter_or_a_list_element_stands_for_the_list() {
        let r = rule(
            r#"{"kind":"pattern","patterns":["x",{"vocabulary":"drafting"},"y"],
                "skip_sections":{"vocabulary":"drafting"},"skip_sentences":["z"]}"#,
        );
        let out = resolve(&r, &vocab()).expect("resolves");
        assert_eq!(
            out.params["patterns"],
            serde_json::json!(["x", "a", "b", "y"])
        );
        assert_eq!(out.params["skip_sections"], serde_json::json!(["a", "b"]));
        assert_eq!(out.params["skip_sentences"], serde_json::json!(["z"]));
    }

    #[test]
    fn a_rule_without_references_is_borrowed_and_an_object_with_more_keys_is_no_reference() {
        let r =
            rule(r#"{"kind":"pattern","patterns":["x"],"tiers":{"vocabulary":"drafting","n":1}}"#);
        assert!(matches!(resolve(&r, &vocab()), Ok(Cow::Borrowed(_))));
    }

    #[test]
    fn an_unknown_name_is_an_error_at_its_place() {
        let r = rule(r#"{"kind":"pattern","patterns":["x",{"vocabulary":"nope"}]}"#);
        let e = resolve(&r, &vocab()).unwrap_err();
        assert_eq!(e.path, [Seg::key("patterns"), Seg::Index(1)]);
        assert!(
            e.message.contains("unknown vocabulary `nope`"),
            "{}",
            e.message
        );
        assert!(e.message.contains("drafting"), "{}", e.message);
        let e = resolve(&r, &BTreeMap::new()).unwrap_err();
        assert!(
            e.message.contains("defines no `vocabularies`"),
            "{}",
            e.message
        );
    }

    const OK_CHECK: &str = r#"{"id":"a","severity":"high","question":"Q?","detection_method":{"type":"semantic","instructions":"I"}}"#;

    #[test]
    fn a_vocabulary_stands_for_its_list_and_an_unknown_one_is_an_error_where_it_is_named() {
        let check = |skip: &str| {
            OK_CHECK.replace(
                "}}",
                &format!(r#"}},"rules":{{"kind":"pattern","patterns":["\\bx\\b"],"skip_sections":{skip}}}}}"#),
            )
        };
        let text = |skip: &str| {
            format!(
                "{{\"id\":\"t\",\"version\":\"1\",\"vocabularies\":{{\"drafting\":[\"^proposed\"]}},\"checks\":[\n{}\n]}}",
                check(skip)
            )
        };
        // Written out or named, the same rule.
        let named = super::super::LoadedPlaybook::from_playbook(
            super::super::parse(&text(r#"{"vocabulary":"drafting"}"#), "p.json").expect("valid"),
        );
        let written = super::super::LoadedPlaybook::from_playbook(
            super::super::parse(&text(r#"["^proposed"]"#), "p.json").expect("valid"),
        );
        let doc = "## Proposed clause\nx here\n\n## Analysis\nx there\n";
        let hits = |p: &super::super::LoadedPlaybook| {
            let cx = crate::engine::rules::RuleContext::new(doc, (0, doc.len()));
            p.compiled[0]
                .as_ref()
                .expect("compiled")
                .apply(&cx)
                .expect("applies")
                .hits
                .len()
        };
        assert_eq!(hits(&named), 1, "the proposed clause is skipped");
        assert_eq!(hits(&named), hits(&written));
        assert_ne!(
            named.logic_hash, written.logic_hash,
            "the hash covers how it is written"
        );
        let e = super::super::parse(&text(r#"{"vocabulary":"drafts"}"#), "p.json").unwrap_err();
        assert!(e.message.contains("unknown vocabulary `drafts`"), "{e}");
        assert_eq!(e.position.line, 1, "{e}");
        let col = e.position.character as usize;
        assert!(
            check(r#"{"vocabulary":"drafts"}"#)[col..].starts_with(r#"{"vocabulary""#),
            "{e}"
        );
    }
}
