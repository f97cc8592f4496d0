//! `cici report`: a dataset folder drawn as one self-contained HTML page
//! (and, with `--json`, the same figures as JSON).

use std::process::ExitCode;

use super::output::{fail, say};
use super::ReportArgs;
use crate::report::ReportError;

pub(super) fn run(args: ReportArgs) -> ExitCode {
    let started = std::time::Instant::now();
    let report = match crate::report::report(&args.dir, &args.logs) {
        Ok(r) => r,
        Err(e) => return refuse(&e),
    };
    let page = match crate::report::html::page(&report) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    if let Some(json) = &args.json {
        let text = match serde_json::to_string_pretty(&report) {
            Ok(t) => t + "\n",
            Err(e) => return fail(format!("{}: {e}", json.display())),
        };
        if let Err(e) = crate::io::write_atomic(json, &text) {
            return fail(format!("writing {}: {e}", json.display()));
        }
    }
    if let Err(e) = crate::io::write_atomic(&args.out, &page) {
        return fail(format!("writing {}: {e}", args.out.display()));
    }
    let figures: usize = report
        .families
        .iter()
        .map(|f| f.figures.len())
        .sum::<usize>()
        + report.models.len();
    say!(
        "wrote {}: {} figure{} of {} famil{} in {:.2}s",
        args.out.display(),
        figures,
        if figures == 1 { "" } else { "s" },
        report.families.len(),
        if report.families.len() == 1 {
            "y"
        } else {
            "ies"
        },
        started.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}

/// The folder or a log cannot be drawn: its code, message and help line;
/// exit 1 (2 for a file that cannot be read at all).
fn refuse(e: &ReportError) -> ExitCode {
    let code = e.code_name();
    super::output::error(&code, &format!("[{code}] {e}"), Some(&e.help_line()));
    match e {
        ReportError::Unreadable { .. } => ExitCode::from(2),
        _ => ExitCode::from(1),
    }
}
