//! Where `-o` writes: a regular file is replaced whole (a temporary file renamed into place),
//! and a device or a pipe is written to as it is. Renaming over `/dev/null` as root once
//! replaced the device with a regular file, and every later `> /dev/null` on the machine
//! failed.

mod support;

use std::io::Read;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};

use serde_json::Value;

use support::workspace::{Ws, stderr};

/// A report written to a named pipe reaches the reader on the other end, and the pipe is
/// still a pipe afterwards (not a regular file renamed over it).
#[test]
fn a_report_written_to_a_pipe_leaves_the_pipe_in_place() {
    let ws = Ws::new();
    let fifo = ws.path("report.pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut body = String::new();
            std::fs::File::open(&fifo)
                .unwrap()
                .read_to_string(&mut body)
                .unwrap();
            body
        })
    };
    let o = report_to(&ws, &fifo);
    // Checked before waiting for the reader: had the pipe been replaced, no writer would
    // ever open it and the reader would wait for ever.
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "the pipe was replaced: {kind:?}");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // A reader still waiting (had byop not opened the pipe) is let go by one more writer;
    // with no reader left, opening the pipe without blocking fails, which is fine.
    let _ = std::fs::OpenOptions::new()
        .write(true)
        .custom_flags(O_NONBLOCK)
        .open(&fifo);
    let body = reader.join().unwrap();
    let v: Value = serde_json::from_str(&body).unwrap();
    assert!(v["byop_report"]["summary"]["overall_status"].is_string());
}

/// `byop check -o target` of the workspace's review, as JSON.
fn report_to(ws: &Ws, target: &std::path::Path) -> std::process::Output {
    ws.run(&[
        "check",
        "--mode",
        "deterministic",
        "--format",
        "json",
        "--fail-on",
        "never",
        "-o",
        target.to_str().unwrap(),
        "nda_review.ai.md",
    ])
}

/// Linux's `O_NONBLOCK`.
const O_NONBLOCK: i32 = 0o4000;

/// A regular file is still replaced whole: a longer earlier content leaves nothing behind.
#[test]
fn a_report_written_to_a_file_replaces_it_whole() {
    let ws = Ws::new();
    let out = ws.path("report.json");
    std::fs::write(&out, "x".repeat(1 << 20)).unwrap();
    let o = report_to(&ws, &out);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert!(v["byop_report"]["summary"]["overall_status"].is_string());
}
