//! `cargo bench --bench team_store`: the store on a PostgreSQL server beside the SQLite
//! file, with the built `byop` and a real server this benchmark starts (as the tests do):
//! - the 371-document corpus checked into each (median of 5 new stores);
//! - 20 `byop check` processes at once, 50 documents each (the same 50), into one store:
//!   every report present, every rerun counted once, the audit log intact, no error;
//! - `byop history FILE` on a document with 10 000 stored reports;
//! - the bytes a stored report, rerun and audit row take on the server, for
//!   docs/scaling.md.
//!
//! Figures are printed as Markdown table rows for the README, never asserted as times.
//! Arguments name the parts to run (`corpus`, `concurrent`, `history`); none: all.

#[path = "../tests/support/pg.rs"]
mod pg;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

use byop::model::Report;
use byop::store::Store;

const TEAM_KEY: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

struct Bench {
    root: PathBuf,
    files: Vec<PathBuf>,
    data: tempfile::TempDir,
    server: &'static pg::PgServer,
}

fn main() {
    let outputs =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/contract-reviews/outputs");
    let Ok(entries) = std::fs::read_dir(&outputs) else {
        println!("| team store | skipped: {} not found |", outputs.display());
        return;
    };
    let root = outputs.parent().unwrap().to_path_buf();
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".ai.md"))
        .map(|p| p.strip_prefix(&root).unwrap().to_path_buf())
        .collect();
    files.sort();
    let Some(server) = pg::server() else {
        println!("| team store | skipped: PostgreSQL is not installed |");
        return;
    };
    let b = Bench {
        root,
        files,
        data: tempfile::tempdir().unwrap(),
        server,
    };
    // `cargo bench --bench team_store -- history` runs only the parts named.
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wanted = |part: &str| only.is_empty() || only.iter().any(|o| part.contains(o.as_str()));
    if wanted("corpus") {
        b.corpus_into_each();
    }
    if wanted("concurrent") {
        b.concurrent_processes();
    }
    if wanted("history") {
        b.history_of_ten_thousand();
    }
}

impl Bench {
    fn byop(&self, db: &str, args: &[&str], files: &[PathBuf]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_byop"))
            .current_dir(&self.root)
            .env("BYOP_DATA_DIR", self.data.path())
            .env("BYOP_STORE_KEY", TEAM_KEY)
            .env_remove("BYOP_DB")
            .env_remove("DATABASE_URL")
            .env_remove("CI")
            .env("BYOP_LOG", "error")
            .args(args)
            .args(["--db", db])
            .args(files)
            .output()
            .unwrap()
    }

    fn check(&self, db: &str, files: &[PathBuf]) -> f64 {
        let start = Instant::now();
        let args = [
            "check",
            "--mode",
            "deterministic",
            "--format",
            "json",
            "--fail-on",
            "never",
        ];
        let o = self.byop(db, &args, files);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        start.elapsed().as_secs_f64()
    }

    fn sqlite(&self, name: &str) -> String {
        self.data.path().join(name).display().to_string()
    }

    fn db_name(url: &str) -> String {
        url.rsplit('/')
            .next()
            .unwrap()
            .split('?')
            .next()
            .unwrap()
            .to_string()
    }

    /// The corpus into a new store on each backend, median of 5; then row sizes.
    fn corpus_into_each(&self) {
        let mut lite = Vec::new();
        let mut server = Vec::new();
        let mut last_url = String::new();
        for i in 0..5 {
            lite.push(self.check(&self.sqlite(&format!("corpus{i}.db")), &self.files));
            last_url = pg::fresh_database(self.server);
            server.push(self.check(&last_url, &self.files));
        }
        let (lite, server) = (median(lite), median(server));
        let n = self.files.len();
        println!(
            "| `byop check --mode deterministic` over the {n} corpus files, new store | SQLite {lite:.3} s, PostgreSQL {server:.3} s: **{:.2}×** (goal ≤ 2×: {}) |",
            server / lite,
            if server <= 2.0 * lite {
                "met"
            } else {
                "NOT met"
            }
        );
        let db = Self::db_name(&last_url);
        for table in ["reports", "reruns", "audit_log", "responses", "baselines"] {
            let row = self.server.psql(
                &db,
                &format!(
                    "SELECT count(*), pg_total_relation_size('{table}'), pg_relation_size('{table}')
                     FROM {table}"
                ),
            );
            println!(
                "| PostgreSQL `{table}` after the corpus run: rows, total bytes (with indexes and TOAST), heap bytes | {row} |"
            );
        }
        let json = self.server.psql(
            &db,
            "SELECT avg(length(report_json))::bigint, avg(pg_column_size(report_json))::bigint FROM reports",
        );
        println!("| report_json: mean characters, mean stored bytes (compressed) | {json} |");
        let file = std::fs::metadata(self.sqlite("corpus4.db")).map_or(0, |m| m.len());
        println!("| SQLite file after the corpus run | {file} bytes |");
    }

    /// 20 processes at once, each checking the same 50 documents into one store.
    fn concurrent_processes(&self) {
        let docs: Vec<PathBuf> = self.files.iter().take(50).cloned().collect();
        let url = pg::fresh_database(self.server);
        let lite = self.sqlite("concurrent.db");
        for (name, db) in [("PostgreSQL", url.clone()), ("SQLite (WAL)", lite.clone())] {
            let start = Instant::now();
            let outputs: Vec<Output> = std::thread::scope(|s| {
                let handles: Vec<_> = (0..20)
                    .map(|_| {
                        s.spawn(|| {
                            self.byop(
                                &db,
                                &[
                                    "check",
                                    "--mode",
                                    "deterministic",
                                    "--format",
                                    "json",
                                    "--fail-on",
                                    "never",
                                ],
                                &docs,
                            )
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap()).collect()
            });
            let took = start.elapsed().as_secs_f64();
            let failed = outputs.iter().filter(|o| !o.status.success()).count();
            if let Some(o) = outputs.iter().find(|o| !o.status.success()) {
                println!(
                    "  first error ({name}): {}",
                    String::from_utf8_lossy(&o.stderr)
                );
            }
            let (reports, reruns) = if db == url {
                let d = Self::db_name(&url);
                let count = |t: &str| -> u64 {
                    self.server
                        .psql(&d, &format!("SELECT count(*) FROM {t}"))
                        .parse()
                        .unwrap()
                };
                (count("reports"), count("reruns"))
            } else {
                let c = rusqlite::Connection::open(&lite).unwrap();
                let count = |t: &str| -> u64 {
                    c.query_row(&format!("SELECT count(*) FROM {t}"), [], |r| {
                        r.get::<_, i64>(0)
                    })
                    .unwrap() as u64
                };
                (count("reports"), count("reruns"))
            };
            let verify = self.byop(&db, &["log", "--verify"], &[]);
            println!(
                "| 20 processes × 50 documents at once, {name} | {took:.2} s wall; {failed} failed; {reports} reports + {reruns} reruns = {} of 1000 (every run stored once: {}); `byop log --verify`: {} |",
                reports + reruns,
                if failed == 0 && reports + reruns == 1000 {
                    "yes"
                } else {
                    "NO"
                },
                if verify.status.success() {
                    "intact"
                } else {
                    "BROKEN"
                }
            );
        }
    }

    /// `byop history FILE` for a document with 10 000 stored reports, on each backend.
    fn history_of_ten_thousand(&self) {
        let file = self.files[0].clone();
        let lite = self.sqlite("history.db");
        let url = pg::fresh_database(self.server);
        // One real report of the document, as `byop check` makes it.
        let o = self.byop(
            &lite,
            &[
                "check",
                "--mode",
                "deterministic",
                "--format",
                "json",
                "--fail-on",
                "never",
            ],
            std::slice::from_ref(&file),
        );
        let value: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let report: Report = serde_json::from_value(value["byop_report"].clone()).unwrap();
        let doc_key = byop::workspace::doc_key(&self.root.join(&file));
        let user_key = std::fs::read(self.data.path().join("store-key")).ok();
        let team_key: [u8; 32] = hex::decode(TEAM_KEY).unwrap().try_into().unwrap();
        let stores: Vec<(&str, String, Store)> = vec![
            (
                "SQLite",
                lite.clone(),
                Store::open_with_key(Path::new(&lite), key_of(user_key.as_deref())).unwrap(),
            ),
            (
                "PostgreSQL",
                url.clone(),
                Store::open_postgres(&url, team_key).unwrap(),
            ),
        ];
        for (name, db, store) in stores {
            let many: Vec<Report> = (0..10_000).map(|i| variant(&report, i)).collect();
            for chunk in many.chunks(500) {
                let batch: Vec<(&str, &Report)> =
                    chunk.iter().map(|r| (doc_key.as_str(), r)).collect();
                store.save_batch(&batch, &[]).unwrap();
            }
            let query = median(
                (0..7)
                    .map(|_| {
                        let start = Instant::now();
                        let rows = store.history(Some(&doc_key), 50).unwrap();
                        assert_eq!(rows.len(), 50, "{name}");
                        start.elapsed().as_secs_f64()
                    })
                    .collect(),
            );
            let command = median(
                (0..7)
                    .map(|_| {
                        let start = Instant::now();
                        let o = self.byop(&db, &["history"], std::slice::from_ref(&file));
                        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
                        start.elapsed().as_secs_f64()
                    })
                    .collect(),
            );
            println!(
                "| `byop history FILE`, 10 000 stored reports of the document, {name} | **{:.1} ms** the command (process included; goal < 50 ms: {}), {:.1} ms the query |",
                command * 1e3,
                if command < 0.05 { "met" } else { "NOT met" },
                query * 1e3
            );
        }
    }
}

/// The per-user key the file store was written under (hex, in the bench's data folder).
fn key_of(file: Option<&[u8]>) -> [u8; 32] {
    let text = String::from_utf8_lossy(file.expect("the per-user store key"));
    hex::decode(text.trim()).unwrap().try_into().unwrap()
}

/// The `i`th of many reports of one document: its own inputs (so stored, not a rerun)
/// and its own time.
fn variant(report: &Report, i: u32) -> Report {
    let mut r = report.clone();
    r.report_id = format!("bench-{i:05}-{}", &report.report_id);
    r.integrity.inputs_fingerprint = format!("sha256:{i:064}");
    r.timestamp = format!(
        "2026-01-01T{:02}:{:02}:{:02}Z",
        i / 3600,
        (i / 60) % 60,
        i % 60
    );
    r
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}
