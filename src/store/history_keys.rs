//! Where a history page starts: a row's place in the newest-first order (its key), and
//! the SQL that walks the history indexes from such a key in either direction. Paging by
//! key, not by offset: a page deep in a long history reads its own rows down the index
//! from where the previous page ended, never the rows before it.

use std::fmt;
use std::str::FromStr;

use super::db::Val;

/// A history row's place in the newest-first order: its time (none: unparseable, placed
/// after every timed row), whether it is a rerun (at the same time a rerun comes before
/// the report it repeated, having been recorded after it), and its insertion order. As
/// text, `NS.KIND.SEQ`: `1767225600000000000.r.42` (`r` a report, `x` a rerun; `-` for
/// no time).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    pub ns: Option<i64>,
    pub rerun: bool,
    pub seq: i64,
}

impl fmt::Display for Cursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ns {
            Some(ns) => write!(f, "{ns}")?,
            None => f.write_str("-")?,
        }
        let kind = if self.rerun { "x" } else { "r" };
        write!(f, ".{kind}.{}", self.seq)
    }
}

impl FromStr for Cursor {
    type Err = String;
    fn from_str(s: &str) -> Result<Cursor, String> {
        let bad = || format!("`{s}` is not a history position (expected NS.r.SEQ or NS.x.SEQ)");
        let mut parts = s.split('.');
        let (Some(ns), Some(kind), Some(seq), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(bad());
        };
        let ns = match ns {
            "-" => None,
            n => Some(n.parse::<i64>().map_err(|_| bad())?),
        };
        let rerun = match kind {
            "r" => false,
            "x" => true,
            _ => return Err(bad()),
        };
        // An untimed row is always a report (a rerun's time is required).
        if rerun && ns.is_none() {
            return Err(bad());
        }
        let seq = seq.parse::<i64>().map_err(|_| bad())?;
        Ok(Cursor { ns, rerun, seq })
    }
}

/// Which page: the newest rows, the rows older than a key (the next page), or the rows
/// just newer than a key (the previous page).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum PageAt {
    #[default]
    Newest,
    After(Cursor),
    Before(Cursor),
}

impl PageAt {
    /// Walking towards older rows (newest first)?
    pub(super) fn older(&self) -> bool {
        !matches!(self, PageAt::Before(_))
    }
}

/// The three walks a page merges: timed reports, untimed reports, reruns (each down its
/// own history index, in the direction of the page), each a `WHERE` clause to add to the
/// filters' (`None`: the walk has no row on this side of the key).
pub(super) struct Walks {
    pub(super) timed: Option<String>,
    pub(super) untimed: Option<String>,
    pub(super) reruns: Option<String>,
}

/// The walks' conditions for `at`, their parameters pushed onto `params` (numbered on).
pub(super) fn walks(at: &PageAt, params: &mut Vec<Val>) -> Walks {
    let mut p = |v: i64| {
        params.push(Val::Int(v));
        format!("?{}", params.len())
    };
    match *at {
        PageAt::Newest => Walks {
            timed: Some("r.timestamp_ns IS NOT NULL".into()),
            untimed: Some("r.timestamp_ns IS NULL".into()),
            reruns: Some("1 = 1".into()),
        },
        PageAt::After(Cursor { ns: None, seq, .. }) => Walks {
            timed: None,
            untimed: Some(format!("r.timestamp_ns IS NULL AND r.rowid < {}", p(seq))),
            reruns: None,
        },
        PageAt::Before(Cursor { ns: None, seq, .. }) => Walks {
            timed: Some("r.timestamp_ns IS NOT NULL".into()),
            untimed: Some(format!("r.timestamp_ns IS NULL AND r.rowid > {}", p(seq))),
            reruns: Some("1 = 1".into()),
        },
        PageAt::After(Cursor {
            ns: Some(ns),
            rerun,
            seq,
        })
        | PageAt::Before(Cursor {
            ns: Some(ns),
            rerun,
            seq,
        }) => {
            // At the key's own time, walking older: a report after a report of lower
            // insertion order, or any report after a rerun; a rerun after a rerun of lower
            // order only. Walking newer is the mirror image (every rerun before a report),
            // and untimed reports, which sort after every timed one, are only older.
            let older = at.older();
            let (cmp, strict) = if older { ("<=", "<") } else { (">=", ">") };
            let c = p(ns);
            let rs = p(if rerun { i64::MAX } else { seq });
            let x = p(if rerun { seq } else { i64::MIN });
            Walks {
                timed: Some(format!(
                    "r.timestamp_ns {cmp} {c} AND (r.timestamp_ns {strict} {c} OR r.rowid {strict} {rs})"
                )),
                untimed: older.then(|| "r.timestamp_ns IS NULL".into()),
                reruns: Some(format!(
                    "x.timestamp_ns {cmp} {c} AND (x.timestamp_ns {strict} {c} OR x.rowid {strict} {x})"
                )),
            }
        }
    }
}

/// The order a page's walks and merge read in: newest first towards older rows, oldest
/// first towards newer ones (the page is then turned round). Each matches its index's
/// order exactly, nulls included, so both databases walk it without sorting.
pub(super) struct Order {
    pub(super) reports: &'static str,
    pub(super) reruns: &'static str,
    pub(super) merged: &'static str,
}

pub(super) fn order(older: bool) -> Order {
    match older {
        true => Order {
            reports: "r.timestamp_ns DESC NULLS LAST, r.rowid DESC",
            reruns: "x.timestamp_ns DESC, x.rowid DESC",
            merged: "ns DESC NULLS LAST, kind DESC, seq DESC",
        },
        false => Order {
            reports: "r.timestamp_ns ASC NULLS FIRST, r.rowid ASC",
            reruns: "x.timestamp_ns ASC, x.rowid ASC",
            merged: "ns ASC NULLS FIRST, kind ASC, seq ASC",
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_reads_back_what_it_writes_and_refuses_anything_else() {
        for c in [
            Cursor {
                ns: Some(1_767_225_600_000_000_000),
                rerun: false,
                seq: 42,
            },
            Cursor {
                ns: Some(-5),
                rerun: true,
                seq: 1,
            },
            Cursor {
                ns: None,
                rerun: false,
                seq: 7,
            },
        ] {
            assert_eq!(c.to_string().parse::<Cursor>(), Ok(c));
        }
        assert_eq!(
            "-.r.7".parse::<Cursor>().unwrap().to_string(),
            "-.r.7".to_string()
        );
        for bad in ["", "1.r", "1.q.2", "a.r.2", "1.r.2.3", "-.x.2", "1.r.b"] {
            assert!(bad.parse::<Cursor>().is_err(), "{bad}");
        }
    }
}
