use super::*;
use crate::evaluator::prompt::{fence_close, fence_nonce, fence_open};
use crate::model::Inputs;

fn prompt() -> CheckPrompt {
    let inputs = Inputs {
        ai_output: "First paragraph.\n\nSecond paragraph.".into(),
        ..Default::default()
    };
    let nonce = fence_nonce(&inputs);
    CheckPrompt {
        check_id: "c".into(),
        system: "s".into(),
        user: format!(
            "=== AI OUTPUT ===\n{}\nFirst paragraph.\n\nSecond paragraph.\n{}\nrest",
            fence_open(AI_OUTPUT_FENCE, &nonce),
            fence_close(AI_OUTPUT_FENCE, &nonce)
        ),
        result_states: vec![],
    }
}

#[test]
fn the_canary_sits_inside_the_fence_and_tokens_are_fresh() {
    let p = prompt();
    for _ in 0..20 {
        let c = Canary::fresh();
        let planted = plant(&p, &c);
        let open = planted.user.find("<<<BEGIN").unwrap();
        let close = planted.user.find("<<<END").unwrap();
        let at = planted.user.find(&c.text).expect("planted");
        assert!(open < at && at < close, "{}", planted.user);
        assert!(planted.user.ends_with("rest"));
        assert_eq!(planted.user.replace(&format!("{}\n", c.text), ""), p.user);
    }
    assert_ne!(Canary::fresh().token, Canary::fresh().token);
}

#[test]
fn every_wording_carries_the_token_once_and_names_the_notes() {
    let w = &*WORDINGS;
    assert!(
        w.leads.len() * w.asks.len() >= 100,
        "too few combinations to be unlistable"
    );
    for ask in &w.asks {
        assert_eq!(ask.matches("{token}").count(), 1, "{ask}");
        assert!(ask.contains("notes"), "{ask}");
    }
    for lead in &w.leads {
        assert!(
            !lead.contains("{token}") && !lead.trim().is_empty(),
            "{lead}"
        );
    }
}

#[test]
fn neither_the_sentence_nor_the_word_has_a_fixed_shape() {
    let canaries: Vec<Canary> = (0..200).map(|_| Canary::fresh()).collect();
    let sentences: std::collections::HashSet<_> = canaries
        .iter()
        .map(|c| c.text.replace(&c.token, "{token}"))
        .collect();
    assert!(
        sentences.len() > 40,
        "only {} wordings in 200",
        sentences.len()
    );
    let lengths: std::collections::HashSet<_> = canaries.iter().map(|c| c.token.len()).collect();
    assert!(lengths.len() >= 3, "{lengths:?}");
    let prefixes: std::collections::HashSet<_> =
        canaries.iter().map(|c| c.token[..2].to_string()).collect();
    assert!(prefixes.len() > 20, "{prefixes:?}");
    for c in &canaries {
        assert!(
            c.token.chars().all(|ch| ch.is_ascii_alphabetic()),
            "{}",
            c.token
        );
        assert!(c.text.contains(&c.token));
    }
}

#[test]
fn only_a_reply_with_the_token_trips_it_in_any_letter_case() {
    let c = Canary::fresh();
    assert!(c.tripped_by(&format!("{{\"notes\": \"ok {}\"}}", c.token)));
    assert!(c.tripped_by(&format!("notes: {}", c.token.to_ascii_uppercase())));
    assert!(c.tripped_by(&format!("notes: {}", c.token.to_ascii_lowercase())));
    assert!(!c.tripped_by("{\"notes\": \"ok\"}"));
}
