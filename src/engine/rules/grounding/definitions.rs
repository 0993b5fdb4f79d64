//! Defined terms by the shape around them: a definition the output drafts (`(the "Audit
//! Notice")`, `"Cure Period" means …`), a definition it reports from the source (a name in
//! parentheses after lower-case words, or a sentence naming the source as where the term is
//! defined), and a quoted term used as the name of something ("paid into the \"Deferred
//! Consideration Pool\"").

use crate::engine::grounding::{EntityKind, entities, lexicon};
use crate::engine::rules::kind::RuleContext;
use crate::model::text::{ceil_char_boundary, floor_char_boundary};

/// Does "the" come right before the quotation mark opening a term ("paid into the
/// \"Deferred Consideration Pool\"", "limited to the **\"Exclusivity Corridor\"**")? The
/// output names a particular thing by the source's name for it: a use of the source's term,
/// not a word it is discussing.
pub(super) fn the_before_quote(text: &str, at: usize) -> bool {
    let before = text[..at].trim_end_matches(['"', '“', '\'', '‘', '*', '_']);
    let b = ceil_char_boundary(before, before.len().saturating_sub(8));
    let w = before[b..].trim_end().to_ascii_lowercase();
    before.ends_with(' ') && (w == "the" || w.ends_with(" the"))
}

/// A definition the output drafts itself: the shape of one (`is_definition`) in a sentence
/// that does not name the source as where the term is defined ("the Agreement defines
/// \"X\" as …", "(the \"X\") as the contract calls it" are claims about the source).
pub(super) fn own_definition(cx: &RuleContext, e: &entities::Entity) -> bool {
    is_definition(cx.text, e) && !names_the_source(cx, e)
}

/// `"X" means …` (or "the Agreement uses X to mean …") in a sentence that names the source
/// as where X is defined and has no other drafting or proposal word: the word "means" alone
/// made it read as drafting.
pub(super) fn source_definition(cx: &RuleContext, e: &entities::Entity) -> bool {
    let after = cx.text[e.end..].trim_start_matches(['"', '”', '*', '_', ' ']);
    let (s, end) = cx.prose().sentence(cx.text, e.start);
    let sentence = cx.text.get(s.min(e.start)..end.max(e.end)).unwrap_or("");
    e.kind == EntityKind::DefinedTerm
        && (after.starts_with("means") || after.starts_with("to mean "))
        && lexicon::NAMES_THE_SOURCE.is_match(sentence)
        && !lexicon::DRAFTING_WORDS.is_match(sentence)
}

fn names_the_source(cx: &RuleContext, e: &entities::Entity) -> bool {
    let (s, end) = cx.prose().sentence(cx.text, e.start);
    let sentence = cx.text.get(s.min(e.start)..end.max(e.end)).unwrap_or("");
    lexicon::NAMES_THE_SOURCE.is_match(sentence)
}

/// A defined term being defined (`(the "Audit Notice")`, `"Cure Period" means`): the output
/// drafting a definition, not quoting one.
fn is_definition(text: &str, e: &entities::Entity) -> bool {
    if e.kind != EntityKind::DefinedTerm {
        return false;
    }
    // An unquoted term ("the Holdback Amount") follows "the" by how it was read: only the
    // words after it can make it a definition.
    let quoted = text[..e.start]
        .trim_end_matches(['*', '_'])
        .ends_with(['"', '“']);
    let before = text[..e.start].trim_end_matches(['"', '“', '*', '_', ' ']);
    let b = ceil_char_boundary(before, before.len().saturating_sub(24));
    let before = before[b..].to_ascii_lowercase();
    let after = text[e.end..].trim_start_matches(['"', '”', '*', '_', ' ']);
    let a = floor_char_boundary(after, after.len().min(24));
    let after = after[..a].to_ascii_lowercase();
    // A definition names the term in parentheses, after "referred to as" / "hereinafter"
    // ("(the \"Company\")", "referred to as the \"Licensee\"") or after "a" ("each, a
    // \"Party\""); a quoted term after a bare "the" is a use of a term ("tied to the
    // \"Protected Customer List\"", "treat them as the \"Golden Source Records\"").
    let named = before.strip_suffix(" the").unwrap_or(&before);
    let in_parens = before.ends_with('(') || before.ends_with("(the");
    if quoted && in_parens && describes_before_parens(text, e.start) {
        return false;
    }
    (quoted
        && (before.ends_with('(')
            || before.ends_with("(the")
            || before.ends_with(" a")
            || before.ends_with(" an")
            || named.ends_with("referred to as")
            || named.ends_with("known as")
            || named.ends_with("hereinafter")
            || named.ends_with("each,")
            || named.ends_with("collectively,")))
        || after.starts_with("means")
        || after.starts_with("shall mean")
        || after.starts_with("shall have")
        || after.starts_with("has the meaning")
        || after.starts_with(')')
}

/// Do lower-case words come right before the parenthesis holding a quoted term ("the agreed
/// launch period (the \"Launch Window\")", "its software and documentation (\"Licensed
/// Materials\")")? The output describes a thing and gives the source's name for it, as a
/// review reports a definition: a use of the source's term. After a name ("Acme Corp. (the
/// \"Company\")", "the Joint Steering Board (the \"JSB\")") it is a short name the output
/// may give itself.
fn describes_before_parens(text: &str, at: usize) -> bool {
    let before = text[..at].trim_end_matches(['"', '“', '\'', '‘', '*', '_', ' ']);
    let before = before
        .strip_suffix("the")
        .or_else(|| before.strip_suffix("The"))
        .unwrap_or(before)
        .trim_end_matches(['*', '_', ' ']);
    let Some(before) = before.strip_suffix('(') else {
        return false;
    };
    let before = before.trim_end_matches(['*', '_', ' ']);
    let word = before
        .rsplit(|c: char| !(c.is_alphanumeric() || c == '-'))
        .next()
        .unwrap_or("");
    word.starts_with(|c: char| c.is_lowercase())
}
