//! An evaluator that echoes the key encoded (JSON-escaped inside a prose-wrapped answer,
//! percent-encoded, base64) never gets it into notes, the JSON / text / SARIF report or the
//! store: end to end on the built binary, both wire formats (Anthropic and OpenAI).

mod support;

use support::fake_llm::{FakeLlm, Script, Step};
use support::workspace::{KEY, Ws, stderr};

const BAD: &str = "# Review\n\nThis contract is fully compliant and enforceable. There are no risks.\n\nYou should sign it.\n";

fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let mut n = 0u32;
        for (i, b) in chunk.iter().enumerate() {
            n |= u32::from(*b) << (16 - 8 * i);
        }
        for i in 0..=chunk.len() {
            out.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
        out.extend(std::iter::repeat_n('=', 3 - chunk.len()));
    }
    out
}

/// The key as an evaluator or a gateway may echo it.
fn echoes() -> Vec<String> {
    let escaped = format!("\\u0073{}", &KEY[1..]);
    let percent = KEY.replace('-', "%2D");
    vec![
        escaped,
        percent,
        base64(KEY.as_bytes()),
        base64(format!("x{KEY}").as_bytes())
            .replace('+', "-")
            .replace('/', "_"),
        base64(format!("xy{KEY}").as_bytes()),
    ]
}

fn answer(echo: &str) -> String {
    format!(
        "Here is my verdict: {{\"result\": \"fail\", \"confidence\": 0.9, \"evidence_citations\": [{{\"span\": \"is fully compliant\", \"context\": \"c\"}}], \"notes\": \"echo {echo} end\", \"assumptions\": [\"{echo}\"]}} done"
    )
}

#[test]
fn encoded_echoes_of_the_key_are_scrubbed_for_both_providers() {
    let secret = &KEY[7..]; // "test-SECRET-0123456789": the key's own bytes
    for openai in [false, true] {
        for echo in echoes() {
            let llm = FakeLlm::start_blocking(Script::always(vec![Step::Text {
                text: answer(&echo),
            }]));
            let ws = Ws::new();
            ws.write("bad.ai.md", BAD);
            let mut seen = String::new();
            for format in ["json", "text", "sarif"] {
                let o = check_with(&ws, &llm, openai)
                    .args(["--mode", "screening", "--format", format, "bad.ai.md"])
                    .output()
                    .unwrap();
                assert!(o.status.code().is_some(), "{}", stderr(&o));
                seen.push_str(&String::from_utf8_lossy(&o.stdout));
                seen.push_str(&String::from_utf8_lossy(&o.stderr));
            }
            assert!(
                seen.contains("fail") && seen.contains("[redacted]"),
                "the answer was read (openai: {openai}, {echo}): {seen}"
            );
            let store = std::fs::read(ws.path("state.db")).unwrap();
            let store = String::from_utf8_lossy(&store);
            for (what, text) in [("output", seen.as_str()), ("store", &store)] {
                assert!(
                    !text.contains(secret) && !text.contains(&echo),
                    "key in the {what} (openai: {openai}, echo {echo})"
                );
            }
        }
    }
}

/// The provider's 400 error body (its wire's shape), its message holding `echoes` as
/// written: a JSON escape stays an escape in the body, decoded by the client.
fn bad_request_body(openai: bool, echoes: &str) -> String {
    let message = format!("invalid x-api-key {echoes}");
    if openai {
        format!(
            r#"{{"error":{{"message":"{message}","type":"invalid_request_error","param":null,"code":"bad_request"}}}}"#
        )
    } else {
        format!(
            r#"{{"type":"error","error":{{"type":"invalid_request_error","message":"{message}"}}}}"#
        )
    }
}

#[test]
fn a_bad_request_echoing_the_key_encoded_leaves_no_form_of_it_anywhere() {
    let secret = &KEY[7..];
    // Every form at once, as a gateway might write them: JSON-escaped (one character, and
    // every character), percent-encoded, base64 at three alignments (standard, URL-safe).
    let every_char: String = KEY
        .chars()
        .map(|c| format!("\\u{:04x}", c as u32))
        .collect();
    let mut forms = echoes();
    forms.push(every_char);
    // Percent-encoded twice, and hexadecimal.
    forms.push(KEY.replace('-', "%252D"));
    forms.push(KEY.bytes().map(|b| format!("{b:02x}")).collect());
    let written = forms.join(" (") + ")";
    for openai in [false, true] {
        let llm = FakeLlm::start_blocking(Script::always(vec![Step::RawError {
            status: 400,
            body: bad_request_body(openai, &written),
        }]));
        let ws = Ws::new();
        ws.write("bad.ai.md", BAD);
        let mut seen = String::new();
        for format in ["json", "text", "sarif"] {
            let o = check_with(&ws, &llm, openai)
                .args([
                    "--mode",
                    "screening",
                    "--fresh",
                    "--format",
                    format,
                    "bad.ai.md",
                ])
                .output()
                .unwrap();
            // A request the provider refuses is "not evaluated".
            assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
            seen.push_str(&String::from_utf8_lossy(&o.stdout));
            seen.push_str(&String::from_utf8_lossy(&o.stderr));
        }
        assert!(llm.calls() > 0, "the provider was asked");
        assert!(
            seen.contains("invalid x-api-key") && seen.contains("[redacted]"),
            "the provider's message is shown, scrubbed (openai: {openai}): {seen}"
        );
        let mut store = String::new();
        for f in std::fs::read_dir(ws.dir.path()).unwrap().flatten() {
            if f.file_name().to_string_lossy().starts_with("state.db") {
                store += &String::from_utf8_lossy(&std::fs::read(f.path()).unwrap());
            }
        }
        assert!(!store.is_empty(), "the store was written");
        for (what, text) in [("output", seen.as_str()), ("store", &store)] {
            assert!(
                !text.contains(secret),
                "the key in the {what} (openai: {openai})"
            );
            for form in &forms {
                assert!(
                    !text.contains(form.as_str()),
                    "{form} in the {what} (openai: {openai})"
                );
            }
        }
    }
}

/// `byop check` against the fake provider, speaking Anthropic's wire format or OpenAI's.
fn check_with(ws: &Ws, llm: &FakeLlm, openai: bool) -> std::process::Command {
    let mut cmd = ws.with_llm(llm);
    if openai {
        cmd.env_remove("ANTHROPIC_API_KEY")
            .env("OPENAI_API_KEY", KEY)
            .env("OPENAI_BASE_URL", format!("{}/v1", llm.base_url))
            .args(["check", "--provider", "openai", "--model", "m"]);
    } else {
        cmd.arg("check");
    }
    cmd
}
