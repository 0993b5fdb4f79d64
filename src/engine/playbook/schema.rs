//! The playbook's published JSON Schema (`schemas/playbook.schema.json`, shipped in the
//! binary), applied to a playbook file: every place it departs from the schema, with the
//! schema validator's message, at file:line:column. Editors show the same messages from
//! the same schema while the author types.

use std::sync::OnceLock;

use super::{PlaybookError, validate};
use crate::engine::rules::Seg;

/// The schema text, as published in the repository.
pub const SCHEMA: &str = include_str!("../../../schemas/playbook.schema.json");

fn validator() -> &'static jsonschema::Validator {
    static V: OnceLock<jsonschema::Validator> = OnceLock::new();
    V.get_or_init(|| {
        let schema: serde_json::Value =
            serde_json::from_str(SCHEMA).expect("the playbook schema is JSON");
        jsonschema::draft7::new(&schema).expect("the playbook schema is a valid draft-07 schema")
    })
}

/// The schema's objections to `text`, in document order; empty when it conforms, or when
/// it is not JSON at all (the parser's error says where).
pub fn schema_errors(text: &str, file: &str) -> Vec<PlaybookError> {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else {
        return Vec::new();
    };
    let mut errors: Vec<(usize, PlaybookError)> = validator()
        .iter_errors(&value)
        .map(|e| {
            let pointer = e.instance_path().as_str().to_string();
            let path = segments(&value, &pointer);
            let (start, end) = validate::locate_json_path(text, &path).unwrap_or((0, 0));
            let at = if pointer.is_empty() { "/" } else { &pointer };
            let err = super::error_at(text, file, start, Some(end), format!("{e} (at {at})"));
            (start, err)
        })
        .collect();
    errors.sort_by_key(|(start, _)| *start);
    errors.into_iter().map(|(_, e)| e).collect()
}

/// A JSON pointer as path segments, reading numbers as indices only inside arrays.
fn segments(value: &serde_json::Value, pointer: &str) -> Vec<Seg> {
    let mut at = value;
    let mut out = Vec::new();
    for raw in pointer.split('/').skip(1) {
        let part = raw.replace("~1", "/").replace("~0", "~");
        let seg = match (at, part.parse::<usize>()) {
            (serde_json::Value::Array(items), Ok(i)) => {
                at = items.get(i).unwrap_or(at);
                Seg::Index(i)
            }
            _ => {
                at = at.get(&part).unwrap_or(at);
                Seg::key(&part)
            }
        };
        out.push(seg);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_playbook_conforms() {
        for id in super::super::builtin_ids() {
            let text = super::super::builtin_text(id).unwrap();
            assert!(schema_errors(text, id).is_empty(), "{id}");
        }
    }

    #[test]
    fn an_objection_names_the_place_and_says_what_the_schema_wants() {
        let text = "{\n  \"id\": \"x\",\n  \"version\": \"1\",\n  \"checks\": [\n    {\"id\": \"a\", \"severity\": \"urgent\", \"question\": \"q\",\n     \"detection_method\": {\"type\": \"semantic\", \"instructions\": \"i\"}}\n  ]\n}";
        let errors = schema_errors(text, "p.json");
        assert_eq!(errors.len(), 1, "{errors:?}");
        let e = errors[0].to_string();
        assert!(e.starts_with("p.json:5:29: "), "{e}");
        assert!(e.contains("\"urgent\" is not one of"), "{e}");
        assert!(e.ends_with("(at /checks/0/severity)"), "{e}");
    }
}
