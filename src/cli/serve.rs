//! `byop serve`: the web page and HTTP API on 127.0.0.1 (another address only with
//! `--allow-remote`), every request needing the token printed once at start-up.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;

use super::args::{DatasetFormat, DatasetOpts, ServeArgs};
use super::error::CliError;
use crate::engine::playbook;
use crate::store::Store;
use crate::web::{self, Offered, Settings};

pub async fn run(args: ServeArgs) -> Result<u8, CliError> {
    if !args.host.is_loopback() && !args.allow_remote {
        return Err(CliError(format!(
            "refusing to listen on {}: not a loopback address; add --allow-remote to serve other machines (every request still needs the token)",
            args.host
        )));
    }
    let workspace = super::workspace_policy(&args.trust)?;
    let said = workspace.notices.len();
    let workspace = workspace.for_server();
    for n in &workspace.notices[said..] {
        crate::render::terminal::notice(n);
    }
    let db = super::output::db_location(args.db.clone(), &workspace)?;
    let store = Arc::new(Store::open(&db)?);
    let playbooks = offered(&args.trust.allow_playbook)?;
    let datasets = datasets(&args, &store)?;
    let listener = tokio::net::TcpListener::bind(SocketAddr::new(args.host, args.port))
        .await
        .map_err(|e| CliError(format!("cannot listen on {}:{}: {e}", args.host, args.port)))?;
    let port = listener.local_addr()?.port();
    let token = web::random_token();
    let settings = Settings {
        store,
        canary: crate::workspace::trust::canary(args.trust.no_canary.then_some(false), &workspace),
        policy: workspace,
        provider: args.evaluator.provider,
        model: args.evaluator.model.clone(),
        trust_workspace_evaluator: args.evaluator.trust_workspace_evaluator,
        playbooks,
        datasets,
        hosts: hosts(args.host, port, &args.allow_host),
        token: token.clone(),
        key_idle: std::time::Duration::from_secs(args.key_idle),
    };
    let shown = match args.host {
        IpAddr::V6(h) => format!("[{h}]"),
        IpAddr::V4(h) => h.to_string(),
    };
    // The one place the token is shown: like a notebook server's start-up line.
    println!("byop serve: http://{shown}:{port}/?token={token}");
    crate::render::terminal::notice(&format!(
        "store {}; open the address above (it carries this launch's token); Ctrl-C stops",
        db.display()
    ));
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    web::serve(listener, web::AppState::new(settings), shutdown).await?;
    Ok(0)
}

/// The datasets named by `--dataset`, each checked now; two with one folder name refused.
fn datasets(args: &ServeArgs, store: &Arc<Store>) -> Result<Vec<web::OfferedDataset>, CliError> {
    let opts = DatasetOpts {
        format: DatasetFormat::Html,
        output: None,
        playbook: None,
        mode: None,
        compare: None,
        db: args.db.clone(),
        fresh: false,
        evaluator: args.evaluator.clone(),
        trust: args.trust.clone(),
    };
    let mut out: Vec<web::OfferedDataset> = Vec::new();
    for dir in &args.dataset {
        let d = super::dataset::offered(dir, &opts, store.clone())?;
        if out.iter().any(|o| o.name == d.name) {
            return Err(CliError(format!(
                "--dataset {}: another dataset folder is also named `{}`",
                dir.display(),
                d.name
            )));
        }
        out.push(d);
    }
    Ok(out)
}

/// The `Host` values answered: the bound address, and `localhost` for a loopback one.
fn hosts(host: IpAddr, port: u16, extra: &[String]) -> Vec<String> {
    let mut out = vec![match host {
        IpAddr::V6(h) => format!("[{h}]:{port}"),
        IpAddr::V4(h) => format!("{h}:{port}"),
    }];
    if host.is_loopback() {
        out.push(format!("localhost:{port}"));
    }
    out.extend(extra.iter().map(|h| h.to_ascii_lowercase()));
    out
}

/// The picker: the built-in playbooks, then the files the user allowed.
fn offered(allowed: &[PathBuf]) -> Result<Vec<Offered>, CliError> {
    let cwd = std::env::current_dir()?;
    let mut out: Vec<Offered> = playbook::builtin_ids()
        .iter()
        .filter_map(|id| {
            let loaded = playbook::builtin_by_id(id)?;
            Some(Offered {
                id: id.to_string(),
                label: format!("{id} {} (built-in)", loaded.playbook.version),
                spec: (id.to_string(), cwd.clone()),
                loaded,
            })
        })
        .collect();
    for path in allowed {
        let abs = std::path::absolute(path)?;
        let loaded = playbook::load_file(&abs)
            .map_err(|e| CliError(format!("--allow-playbook {}: {e}", path.display())))?;
        let id = loaded.playbook.id.clone();
        if out.iter().any(|o| o.id == id) {
            return Err(CliError(format!(
                "--allow-playbook {}: a playbook with id `{id}` is already offered",
                path.display()
            )));
        }
        out.push(Offered {
            label: format!("{id} {} ({})", loaded.playbook.version, path.display()),
            id,
            spec: (abs.display().to_string(), cwd.clone()),
            loaded,
        });
    }
    Ok(out)
}
