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

/// `text` as a reader would compare it with the key whatever its case or spacing: lower
/// case, without whitespace, zero-width spaces, backslashes or a JSON `\n` escape (a JSON
/// report writes a newline and a backslash escaped).
fn flat(text: &str) -> String {
    text.replace("\\n", "")
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '\u{200B}' && *c != '\\')
        .flat_map(char::to_lowercase)
        .collect()
}

/// A provider's error message echoing the key transformed as a gateway or a template may
/// write it: upper-cased, wrapped every 10 characters, letter-spaced, zero-width-separated,
/// as HTML references padded with zeros (`&#0000115;`), as 8-digit `\U` escapes (the JSON
/// body escapes its backslash and its control characters, as `json.dumps` does).
fn transformed_echoes() -> Vec<(&'static str, String)> {
    let chars: Vec<char> = KEY.chars().collect();
    let joined = |sep: &str| {
        chars
            .iter()
            .map(char::to_string)
            .collect::<Vec<_>>()
            .join(sep)
    };
    let wrapped = chars
        .chunks(10)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("\\n");
    vec![
        ("upper", KEY.to_uppercase()),
        ("wrapped", wrapped),
        ("spaced", joined(" ")),
        ("zero-width", joined("\\u200b")),
        (
            "entities",
            chars
                .iter()
                .map(|c| format!("&#{:07};", *c as u32))
                .collect(),
        ),
        (
            "U escapes",
            chars
                .iter()
                .map(|c| format!("\\\\U{:08x}", *c as u32))
                .collect(),
        ),
        // Upper case, letter-spaced and cut short: 20 of the key's characters.
        ("cut", joined(" ")[14..54].to_uppercase()),
    ]
}

#[test]
fn a_bad_request_echoing_the_key_transformed_leaves_no_form_of_it_in_the_report_or_store() {
    for (what, written) in transformed_echoes() {
        // The message as the client reads it (the JSON body decoded), then flattened.
        let message: String =
            serde_json::from_str(&format!("\"{written}\"")).expect("a JSON string");
        let shown: Vec<char> = flat(&message).chars().collect();
        assert!(shown.len() >= 20, "{what}: {message}");
        let llm = FakeLlm::start_blocking(Script::always(vec![Step::RawError {
            status: 400,
            body: bad_request_body(false, &written),
        }]));
        let ws = Ws::new();
        ws.write("bad.ai.md", BAD);
        let o = check_with(&ws, &llm, false)
            .args(["--mode", "screening", "--fresh", "--format", "json"])
            .args(["-o", "report.json", "bad.ai.md"])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(3), "{what}: {}", stderr(&o));
        assert!(llm.calls() > 0, "the provider was asked");
        let report = std::fs::read_to_string(ws.path("report.json")).unwrap();
        assert!(
            report.contains("invalid x-api-key") && report.contains("[redacted]"),
            "{what}: the provider's message is in the report, scrubbed: {report}"
        );
        let mut store = String::new();
        for f in std::fs::read_dir(ws.dir.path()).unwrap().flatten() {
            if f.file_name().to_string_lossy().starts_with("state.db") {
                store += &String::from_utf8_lossy(&std::fs::read(f.path()).unwrap());
            }
        }
        assert!(
            store.contains("invalid x-api-key"),
            "{what}: the store holds the message"
        );
        for (place, text) in [("report", report), ("store", store)] {
            let text = flat(&text);
            // No 10 characters in a row of the echo, flattened, are left.
            for probe in shown.windows(10) {
                let probe: String = probe.iter().collect();
                assert!(
                    !text.contains(&probe),
                    "{what}: the key in the {place}: {probe} in {text}"
                );
            }
        }
    }
}
