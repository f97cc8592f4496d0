//! `cici report`: a dataset folder drawn as one self-contained HTML page
//! (and, with `--json`, the same figures as JSON).

use std::process::ExitCode;

use super::output::{fail, say, CliError, Outcome};
use super::ReportArgs;
use crate::report::ReportError;

pub(super) fn run(args: ReportArgs) -> Outcome {
    let started = std::time::Instant::now();
    let report = crate::report::report(&args.dir, &args.logs).map_err(|e| refuse(&e))?;
    let page = crate::report::html::page(&report).map_err(fail)?;
    if let Some(json) = &args.json {
        let text = serde_json::to_string_pretty(&report)
            .map_err(|e| fail(format!("{}: {e}", json.display())))?
            + "\n";
        crate::io::write_atomic(json, &text)
            .map_err(|e| fail(format!("writing {}: {e}", json.display())))?;
    }
    crate::io::write_atomic(&args.out, &page)
        .map_err(|e| fail(format!("writing {}: {e}", args.out.display())))?;
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
    Ok(ExitCode::SUCCESS)
}

/// The folder or a log cannot be drawn: its code, message and help line;
/// exit 1 (2 for a file that cannot be read at all).
fn refuse(e: &ReportError) -> CliError {
    let code = e.code_name();
    CliError::Coded {
        message: format!("[{code}] {e}"),
        code,
        help: e.help_line(),
        status: match e {
            ReportError::Unreadable { .. } => 2,
            _ => 1,
        },
    }
}
