//! The front matter's `current_time` and `timezone` (the plan request's fields, as
//! top-level keys beside `byop:`). Untrusted: a bad value is an error in the check,
//! never a panic.

use super::clock::Now;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Settings {
    pub current_time: Option<String>,
    pub timezone: Option<String>,
    /// The front matter's `variant` (which prompt or model wrote the plan), for datasets.
    pub variant: Option<String>,
}

impl Settings {
    /// Read the YAML before `body`; anything unreadable leaves the field unset.
    pub fn read(text: &str, body: (usize, usize)) -> Settings {
        use crate::engine::document::front_matter;
        let head = &text[..body.0.min(text.len())];
        let Some(yaml) = front_matter::yaml(head) else {
            return Settings::default();
        };
        if front_matter::yaml_bounds(yaml).is_err() {
            return Settings::default();
        }
        let Ok(serde_norway::Value::Mapping(map)) = serde_norway::from_str(yaml) else {
            return Settings::default();
        };
        let get = |k: &str| {
            map.get(k).and_then(|v| match v {
                serde_norway::Value::String(s) => Some(s.clone()),
                serde_norway::Value::Number(n) => Some(n.to_string()),
                _ => None,
            })
        };
        Settings {
            current_time: get("current_time"),
            timezone: get("timezone"),
            variant: get("variant"),
        }
    }

    /// The user's now. `Ok(None)` when `current_time` is not given; without `timezone`
    /// the wall-clock time as written is used in UTC (no DST changes), with a note.
    pub fn now(&self) -> Result<Option<(Now, Option<String>)>, String> {
        let Some(ct) = &self.current_time else {
            return Ok(None);
        };
        match &self.timezone {
            Some(tz) => Now::parse(ct, tz).map(|n| Some((n, None))),
            None => {
                let civil = ct.get(..19).unwrap_or(ct);
                Now::parse(civil, "UTC").map(|n| {
                    Some((
                        n,
                        Some("no `timezone` in the front matter: the time as written, without daylight-saving changes".into()),
                    ))
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_top_level_keys() {
        let t = "---\ncurrent_time: \"2026-03-10T09:00:00-04:00\"\ntimezone: America/Toronto\nvariant: v1_naive\nbyop:\n  source: notes.txt\n---\nbody";
        let s = Settings::read(t, (t.len() - 4, t.len()));
        assert_eq!(s.current_time.as_deref(), Some("2026-03-10T09:00:00-04:00"));
        assert_eq!(s.timezone.as_deref(), Some("America/Toronto"));
        assert_eq!(s.variant.as_deref(), Some("v1_naive"));
        let (now, note) = s.now().unwrap().unwrap();
        assert_eq!(now.minute(), 540);
        assert!(note.is_none());
    }

    #[test]
    fn missing_or_broken_front_matter() {
        assert_eq!(Settings::read("body", (0, 4)), Settings::default());
        let t = "---\n: [\n---\nb";
        assert_eq!(
            Settings::read(t, (t.len() - 1, t.len())),
            Settings::default()
        );
        let s = Settings {
            current_time: Some("2026-03-10T09:30:00Z".into()),
            ..Default::default()
        };
        let (now, note) = s.now().unwrap().unwrap();
        assert_eq!(now.minute(), 570);
        assert!(note.is_some());
        let s = Settings {
            current_time: Some("soon".into()),
            timezone: Some("UTC".into()),
            ..Default::default()
        };
        assert!(s.now().is_err());
    }

    #[test]
    fn the_front_matter_is_where_the_document_says_it_is() {
        // A line that starts with `---` inside does not close it: all of it is read.
        let t = "---\n---a: 1\nvariant: v2\n---\nbody";
        let s = Settings::read(t, (t.len() - 4, t.len()));
        assert_eq!(s.variant.as_deref(), Some("v2"));
    }
}
