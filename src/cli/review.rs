//! `cici review`

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use super::output::{fail, usage, CliError, Outcome};
use crate::review::{data, page, serve};
use crate::verdicts::ledger;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Keys on the page: j/k next and previous triplet, a accept, r reject, \
n write a note (sent with the next verdict), Esc leave the note. Verdicts are appended to \
DIR/review.jsonl with the row's id and content hash; `cici counterfactual` into DIR leaves \
rejected rows out and the dataset card counts the verdicts."
)]
pub struct ReviewArgs {
    /// The dataset folder `cici counterfactual --out DIR` wrote (decision/,
    /// flow/); verdicts go to DIR/review.jsonl.
    dir: PathBuf,
    /// The port to serve on, on 127.0.0.1 only; 0 (the default) takes a
    /// free one. The address is printed on stdout.
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// Write a static, read-only copy of the page to this file instead of
    /// serving it.
    #[arg(long)]
    out: Option<PathBuf>,
    /// The name the verdicts are recorded under; $USER by default.
    #[arg(long)]
    reviewer: Option<String>,
}

pub(super) fn run(args: ReviewArgs) -> Outcome {
    let reviewer = args
        .reviewer
        .clone()
        .or_else(|| std::env::var("USER").ok())
        .unwrap_or_else(|| "anonymous".to_string());
    let reviewer = ledger::valid_reviewer(&reviewer)
        .map_err(|e| usage(e, "name the reviewer with --reviewer NAME"))?;
    let rows = data::rows(&args.dir).map_err(|e| unreadable_folder(&e))?;
    let hashes = data::hashes(&rows);
    let reviews = ledger::read(&args.dir).map_err(fail)?;
    let ledger = ledger::Ledger::resolve(&reviews, &hashes);
    let quiet = super::output::verbosity() == super::output::Verbosity::Quiet;
    if !quiet {
        report_stale(&ledger);
    }
    let folder = args.dir.display().to_string();
    let rows_json = page::rows_json(&rows);
    if let Some(out) = &args.out {
        let cx = page::Context {
            folder: &folder,
            reviewer: &reviewer,
            live: false,
        };
        crate::io::write_atomic(out, &page::page(&rows_json, &ledger, &cx))
            .map_err(|e| fail(format!("{}: {e}", out.display())))?;
        if !quiet {
            eprintln!("wrote {} ({} triplets)", out.display(), rows.len());
        }
        return Ok(ExitCode::SUCCESS);
    }
    let listener = serve::bind(args.port)
        .map_err(|e| fail(format!("listening on 127.0.0.1:{}: {e}", args.port)))?;
    let port = listener.local_addr().map_err(fail)?.port();
    {
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), "http://127.0.0.1:{port}/");
    }
    eprintln!(
        "serving {} triplets of {folder} as {reviewer}; Ctrl-C to stop",
        rows.len()
    );
    let state = Arc::new(serve::State {
        dir: args.dir.clone(),
        folder,
        reviewer,
        rows_json,
        hashes,
        write: std::sync::Mutex::new(()),
        port,
    });
    serve::serve(listener, state).map_err(fail)?;
    Ok(ExitCode::SUCCESS)
}

/// Says which verdicts are stale: on rows that changed since.
fn report_stale(ledger: &ledger::Ledger) {
    if ledger.stale.is_empty() {
        return;
    }
    eprintln!(
        "{} stale verdict(s), on rows that changed since; they apply to nothing:",
        ledger.stale.len()
    );
    for r in &ledger.stale {
        eprintln!("  {} {:?} by {} at {}", r.id, r.verdict, r.reviewer, r.time);
    }
}

/// Exit status 2 for a folder whose rows cannot be read, with what to do.
fn unreadable_folder(e: &std::io::Error) -> CliError {
    let help = match e.kind() {
        std::io::ErrorKind::NotFound => {
            "give a folder that `cici counterfactual seeds/ --out DIR` wrote"
        }
        std::io::ErrorKind::InvalidInput => crate::io::LIMITS_HELP,
        _ => "check that the folder and its data files can be read",
    };
    CliError::Coded {
        code: "cici::io".into(),
        message: e.to_string(),
        help: help.into(),
        status: 2,
    }
}
