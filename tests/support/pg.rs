//! A real PostgreSQL server for the tests: one per test binary, started on first use
//! from the installed binaries (`initdb`, `pg_ctl`) in a temporary folder, listening on
//! a loopback port and a socket in that folder, and stopped (its folder removed) when the
//! test binary exits, however it exits. Each test gets its own database.
//!
//! Without the binaries the tests that need it skip with a message, unless
//! `BYOP_REQUIRE_POSTGRES` is set (as `scripts/test.sh` does), when that is a failure.
//! As root (CI), the server runs as the `postgres` user: `initdb` refuses root.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};

/// The superuser's password (the server is reachable only from this machine, for the
/// life of one test binary).
pub const ADMIN_PASSWORD: &str = "byop-test-admin-pw";

pub struct PgServer {
    pub port: u16,
    pub socket_dir: PathBuf,
    bin: PathBuf,
    data: PathBuf,
    /// The guardian shell: when its stdin closes (this process ended), it stops the
    /// server and removes the folder. Held, never used.
    _guardian: Mutex<Child>,
}

static SERVER: OnceLock<Option<PgServer>> = OnceLock::new();
static NEXT_DB: AtomicU32 = AtomicU32::new(0);

/// The server, or `None` (after a message) when PostgreSQL is not installed and not required.
pub fn server() -> Option<&'static PgServer> {
    SERVER
        .get_or_init(|| {
            let required = std::env::var_os("BYOP_REQUIRE_POSTGRES").is_some();
            let Some(bin) = bin_dir() else {
                assert!(
                    !required,
                    "BYOP_REQUIRE_POSTGRES is set but no PostgreSQL binaries (initdb) were found; run scripts/install-test-deps.sh"
                );
                eprintln!(
                    "skipping the PostgreSQL half of this test: initdb not found (install postgresql; BYOP_REQUIRE_POSTGRES=1 makes this a failure)"
                );
                return None;
            };
            Some(start(bin))
        })
        .as_ref()
}

/// A server of the caller's own (not shared with the binary's other tests), which it may
/// stop and start again; `None` as for [`server`].
pub fn own_server() -> Option<PgServer> {
    let required = std::env::var_os("BYOP_REQUIRE_POSTGRES").is_some();
    match bin_dir() {
        Some(bin) => Some(start(bin)),
        None => {
            assert!(
                !required,
                "BYOP_REQUIRE_POSTGRES is set but no PostgreSQL binaries were found"
            );
            eprintln!("skipping: initdb not found (install postgresql)");
            None
        }
    }
}

/// A fresh database on the server, and the URL (as the superuser, password in it) to
/// reach it over TCP without TLS.
pub fn fresh_database(server: &PgServer) -> String {
    let n = NEXT_DB.fetch_add(1, Ordering::Relaxed);
    let name = format!("t{}_{n}", std::process::id());
    server.psql("postgres", &format!("CREATE DATABASE {name}"));
    server.url_for("postgres", ADMIN_PASSWORD, &name)
}

impl PgServer {
    /// A URL for `user` with `password` on database `db`, over TCP on loopback, no TLS.
    pub fn url_for(&self, user: &str, password: &str, db: &str) -> String {
        format!(
            "postgres://{user}:{password}@127.0.0.1:{}/{db}?sslmode=disable",
            self.port
        )
    }

    /// Stop the server (fast shutdown: connections are cut), waiting until it is down.
    pub fn stop(&self) {
        self.pg_ctl(&["-m", "fast", "-w", "stop"]);
    }

    /// Start the stopped server again on the same port, waiting until it accepts.
    pub fn start_again(&self) {
        let opts = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200",
            self.port,
            self.socket_dir.display()
        );
        let log = self.socket_dir.join("log");
        self.pg_ctl(&[
            "-l",
            log.to_str().unwrap(),
            "-w",
            "-t",
            "60",
            "-o",
            &opts,
            "start",
        ]);
    }

    fn pg_ctl(&self, args: &[&str]) {
        let o = as_server_user(self.bin.join("pg_ctl").to_str().unwrap())
            .arg("-D")
            .arg(&self.data)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("running pg_ctl");
        assert!(
            o.status.success(),
            "pg_ctl {args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }

    /// Run SQL as the superuser on `db` through the socket; panics with psql's stderr.
    pub fn psql(&self, db: &str, sql: &str) -> String {
        let psql = if self.bin.join("psql").exists() {
            self.bin.join("psql")
        } else {
            PathBuf::from("psql")
        };
        let o = Command::new(psql)
            .args([
                "-X",
                "-q",
                "-t",
                "-A",
                "-v",
                "ON_ERROR_STOP=1",
                "-U",
                "postgres",
            ])
            .arg("-h")
            .arg(&self.socket_dir)
            .args(["-p", &self.port.to_string(), "-d", db, "-c", sql])
            .output()
            .expect("running psql");
        assert!(
            o.status.success(),
            "psql {sql}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8_lossy(&o.stdout).trim().to_string()
    }
}

/// Where `initdb` and `pg_ctl` are: Debian keeps them in /usr/lib/postgresql/N/bin.
fn bin_dir() -> Option<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("bin"))
        .filter(|b| b.join("initdb").is_file() && b.join("pg_ctl").is_file())
        .collect();
    found.sort();
    if let Some(newest) = found.pop() {
        return Some(newest);
    }
    let on_path = std::env::var_os("PATH")?;
    std::env::split_paths(&on_path)
        .find(|d| d.join("initdb").is_file() && d.join("pg_ctl").is_file())
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

/// A command run as the `postgres` user when we are root, else as ourselves.
fn as_server_user(program: &str) -> Command {
    if is_root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--", program]);
        c
    } else {
        Command::new(program)
    }
}

fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("binding a loopback port");
    l.local_addr().unwrap().port()
}

fn start(bin: PathBuf) -> PgServer {
    let dir = tempfile::Builder::new()
        .prefix("byop-pg-")
        .tempdir()
        .expect("temp dir")
        .keep();
    if is_root() {
        let st = Command::new("chown")
            .arg("postgres:")
            .arg(&dir)
            .status()
            .expect("chown");
        assert!(st.success(), "chown postgres {}", dir.display());
    }
    let data = dir.join("data");
    let pwfile = dir.join("pw");
    std::fs::write(&pwfile, ADMIN_PASSWORD).unwrap();
    if is_root() {
        let _ = Command::new("chown").arg("postgres:").arg(&pwfile).status();
    }
    let o = as_server_user(bin.join("initdb").to_str().unwrap())
        .args([
            "-U",
            "postgres",
            "--auth-local=trust",
            "--auth-host=scram-sha-256",
        ])
        .arg(format!("--pwfile={}", pwfile.display()))
        .args(["-E", "UTF8", "--locale=C", "-D"])
        .arg(&data)
        .output()
        .expect("running initdb");
    assert!(
        o.status.success(),
        "initdb: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    for _ in 0..5 {
        let port = free_port();
        if let Some(guardian) = launch(&bin, &dir, &data, port) {
            return PgServer {
                port,
                socket_dir: dir.clone(),
                bin,
                data: data.clone(),
                _guardian: Mutex::new(guardian),
            };
        }
    }
    panic!(
        "PostgreSQL did not start; see {}",
        dir.join("log").display()
    );
}

/// Start the server under a guardian shell that stops it when our end of its stdin closes.
fn launch(bin: &Path, dir: &Path, data: &Path, port: u16) -> Option<Child> {
    let script = r#"
        "$1/pg_ctl" -D "$2" -l "$3/log" -w -t 60 -o "-p $4 -k $3 -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null 2>&1 || exit 1
        echo ready
        read _ignored
        "$1/pg_ctl" -D "$2" -m fast -w stop >/dev/null 2>&1
        rm -rf "$3"
    "#;
    let mut child = as_server_user("sh")
        .arg("-c")
        .arg(script)
        .arg("sh")
        .arg(bin)
        .arg(data)
        .arg(dir)
        .arg(port.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("starting the PostgreSQL guardian");
    let mut line = String::new();
    let out = child.stdout.take().unwrap();
    let read = BufReader::new(out).read_line(&mut line);
    if read.is_ok() && line.trim() == "ready" {
        Some(child)
    } else {
        let _ = child.wait();
        None
    }
}
