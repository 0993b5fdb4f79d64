//! Semantic validation of a parsed playbook, and locating the offending JSON value.

use std::sync::Arc;

use crate::engine::rules::{CompiledRule, Seg};
use crate::model::{Playbook, Verdict};

/// The compiled rule of each check (`None` for a check without rules), kept so that a
/// playbook's regexes are compiled once, not once to validate and again to run.
pub(super) type Compiled = Vec<Option<Arc<dyn CompiledRule>>>;

pub(super) fn validate(pb: &Playbook) -> Result<Compiled, (Vec<Seg>, String)> {
    if pb.id.trim().is_empty() {
        return Err((vec![Seg::key("id")], "field `id` must not be empty".into()));
    }
    // Ids name files and URIs (check pages): plain names only, never a path.
    if !is_plain_id(&pb.id) {
        return Err((
            vec![Seg::key("id")],
            format!(
                "playbook id `{}` may only use letters, digits, `_`, `-` and `.`, and is not `.` or `..`",
                pb.id
            ),
        ));
    }
    if pb.version.trim().is_empty() {
        return Err((
            vec![Seg::key("version")],
            "field `version` must not be empty".into(),
        ));
    }
    if pb.checks.is_empty() {
        return Err((
            vec![Seg::key("checks")],
            "a playbook needs at least one check".into(),
        ));
    }
    let mut seen = std::collections::HashMap::new();
    let mut fields = |i: usize, check: &crate::model::Check| -> Result<(), (Vec<Seg>, String)> {
        let at = |k: &str| vec![Seg::key("checks"), Seg::Index(i), Seg::key(k)];
        if check.id.trim().is_empty() {
            return Err((at("id"), format!("check #{} has an empty `id`", i + 1)));
        }
        if !is_plain_id(&check.id) {
            return Err((
                at("id"),
                format!(
                    "check id `{}` may only use letters, digits, `_`, `-` and `.`, and is not `.` or `..`",
                    check.id
                ),
            ));
        }
        if let Some(uri) = &check.help_uri
            && !help_uri_allowed(uri)
        {
            return Err((
                at("help_uri"),
                format!(
                    "check `{}`: `help_uri` must be an http, https or file URI",
                    check.id
                ),
            ));
        }
        if let Some(first) = seen.insert(check.id.clone(), i) {
            return Err((
                at("id"),
                format!(
                    "duplicate check id `{}` (first used by check #{})",
                    check.id,
                    first + 1
                ),
            ));
        }
        if check.question.trim().is_empty() {
            return Err((
                at("question"),
                format!("check `{}`: field `question` must not be empty", check.id),
            ));
        }
        if check.result_states.is_empty() {
            return Err((
                at("result_states"),
                format!("check `{}`: `result_states` must not be empty", check.id),
            ));
        }
        if !check.result_states.contains(&Verdict::Indeterminate) {
            return Err((
                at("result_states"),
                format!(
                    "check `{}`: `result_states` must include \"indeterminate\" (fail closed)",
                    check.id
                ),
            ));
        }
        Ok(())
    };
    // Fields first; the rules of the checks before the first bad one are then compiled
    // side by side, and an error in an earlier check's rule still comes first.
    let first_bad = (pb.checks.iter().enumerate())
        .find_map(|(i, check)| fields(i, check).err().map(|e| (i, e)));
    let upto = first_bad.as_ref().map_or(pb.checks.len(), |(i, _)| *i);
    let compiled = compile_rules(pb, upto)?;
    match first_bad {
        Some((_, e)) => Err(e),
        None => Ok(compiled),
    }
}

/// Letters, digits, `_`, `-`, `.`; not only dots (`.`, `..` would be paths).
pub(crate) fn is_plain_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 128
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.')
        && !id.chars().all(|c| c == '.')
}

/// A link an editor may open from a diagnostic: http, https or file only (never
/// `javascript:`, `command:` or another scheme an editor would act on).
fn help_uri_allowed(uri: &str) -> bool {
    let lower = uri.trim_start().to_ascii_lowercase();
    ["http://", "https://", "file://"]
        .iter()
        .any(|s| lower.starts_with(s))
        && !uri.chars().any(|c| c.is_control())
}

/// Every check's rule, compiled side by side (the regexes are most of a playbook's load
/// time, and the CLI waits for it before the first document); the first error in check
/// order is the one reported.
fn compile_rules(pb: &Playbook, upto: usize) -> Result<Compiled, (Vec<Seg>, String)> {
    let compile = |i: usize| {
        let check = &pb.checks[i];
        check
            .rules
            .as_ref()
            .map(|rule| {
                super::vocabulary::resolve(rule, &pb.vocabularies)
                    .and_then(|rule| crate::engine::rules::compile(&rule))
                    .map_err(|e| {
                        let mut path = vec![Seg::key("checks"), Seg::Index(i), Seg::key("rules")];
                        path.extend(e.path);
                        (path, format!("check `{}`: {}", check.id, e.message))
                    })
            })
            .transpose()
    };
    let with_rules = pb.checks[..upto]
        .iter()
        .filter(|c| c.rules.is_some())
        .count();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    if with_rules < 2 || threads < 2 {
        return (0..upto).map(compile).collect();
    }
    // A few workers take the next check in turn (no thread per check).
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut done: Vec<(usize, Result<_, _>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.min(with_rules))
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if i >= upto {
                            return mine;
                        }
                        mine.push((i, compile(i)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// Byte range of the value at `path` (or of the deepest part of it that exists).
pub(super) fn locate_json_path(text: &str, path: &[Seg]) -> Option<(usize, usize)> {
    use jsonc_parser::ast::Value;
    use jsonc_parser::common::Ranged;
    let parsed = jsonc_parser::parse_to_ast(text, &Default::default(), &Default::default()).ok()?;
    let mut value = parsed.value?;
    let mut best = (value.range().start, value.range().end);
    for seg in path {
        let next = match (seg, value) {
            (Seg::Key(k), Value::Object(obj)) => obj
                .properties
                .into_iter()
                .find(|p| p.name.as_str() == k.as_str())
                .map(|p| p.value),
            (Seg::Index(i), Value::Array(arr)) => arr.elements.into_iter().nth(*i),
            _ => None,
        };
        match next {
            Some(v) => {
                best = (v.range().start, v.range().end);
                value = v;
            }
            None => break,
        }
    }
    Some(best)
}
