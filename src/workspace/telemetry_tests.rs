use super::*;
use crate::workspace::config::{Config, FILE_NAME};
use crate::workspace::trust::Policy;

fn config(endpoint: Option<&str>, include_text: Option<bool>) -> Policy {
    let mut toml = String::from("[telemetry]\n");
    if let Some(e) = endpoint {
        toml += &format!("endpoint = \"{e}\"\n");
    }
    if let Some(t) = include_text {
        toml += &format!("include_text = {t}\n");
    }
    let c = Config::parse(&toml, std::path::Path::new(FILE_NAME)).unwrap();
    Policy::new(std::sync::Arc::new(c), false)
}

fn user(endpoint: Option<&str>) -> UserTelemetry<'_> {
    UserTelemetry {
        endpoint,
        include_text: false,
    }
}

fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
    move |name| {
        pairs
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.to_string())
    }
}

#[test]
fn the_traces_path_is_appended_once() {
    assert_eq!(traces_url("http://h:4318"), "http://h:4318/v1/traces");
    assert_eq!(traces_url("http://h:4318/"), "http://h:4318/v1/traces");
    assert_eq!(
        traces_url("https://www.comet.com/opik/api/v1/private/otel"),
        "https://www.comet.com/opik/api/v1/private/otel/v1/traces"
    );
    assert_eq!(traces_url("http://h/v1/traces"), "http://h/v1/traces");
}

#[test]
fn only_the_user_chooses_where_traces_go_and_whether_they_hold_text() {
    let cfg = config(Some("http://toml"), Some(true));
    let e = env(&[(ENDPOINT_ENV, "http://env")]);
    let (s, n) = settings(user(Some("http://flag")), &e, &cfg);
    assert_eq!(s.unwrap().traces_url, "http://flag/v1/traces");
    assert!(
        n.unwrap().contains("http://toml"),
        "the workspace's is ignored"
    );
    let (s, _) = settings(user(None), &e, &cfg);
    let s = s.unwrap();
    assert_eq!(s.traces_url, "http://env/v1/traces");
    assert!(!s.include_text, "the workspace's include_text never counts");
    let (s, n) = settings(user(None), &env(&[]), &cfg);
    assert!(s.is_none(), "a workspace endpoint alone is no destination");
    assert!(n.unwrap().contains("only you choose"));
    // The same endpoint as the user's: used, no notice.
    let (s, n) = settings(user(None), &env(&[(ENDPOINT_ENV, "http://toml/")]), &cfg);
    assert!(s.is_some() && n.is_none());
    let (s, _) = settings(
        user(None),
        &env(&[(ENDPOINT_ENV, "http://env"), (INCLUDE_TEXT_ENV, "1")]),
        &config(None, None),
    );
    assert!(s.unwrap().include_text, "the user's include_text counts");
    let (s, n) = settings(user(None), &env(&[]), &config(None, None));
    assert!(s.is_none() && n.is_none());
    let (s, _) = settings(user(Some("  ")), &env(&[]), &config(None, None));
    assert!(s.is_none(), "an empty flag is no endpoint");
}
