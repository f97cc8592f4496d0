//! `cici export inspect`

use std::io::Write;
use std::process::ExitCode;

use super::{export_args::InspectArgs, output::fail};

pub(super) fn run(args: InspectArgs) -> ExitCode {
    let (templates, run) = match args.input.checked() {
        Ok(checked) => checked,
        Err(code) => return code,
    };
    let proven = match super::export_args::proven(&run) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let files = match crate::export::inspect::files(&proven, &templates) {
        Ok(f) => f,
        Err(e) => return fail(e),
    };
    let out = &args.input.out;
    let mut stdout = std::io::stdout().lock();
    let failed = run.errors() > 0;
    if args.check {
        let diffs = crate::build::check(out, &files);
        for d in &diffs {
            let _ = write!(stdout, "{}", d.diff);
        }
        if !diffs.is_empty() {
            eprintln!(
                "{} is stale: {} file{} differ; run `cici export inspect` to regenerate",
                out.display(),
                diffs.len(),
                if diffs.len() == 1 { "" } else { "s" }
            );
            return ExitCode::from(1);
        }
        super::output::say!("{} is up to date ({} files)", out.display(), files.len());
    } else {
        match crate::build::write(out, &files, !failed) {
            Ok(s) => {
                super::output::say!(
                    "exported {} scenario{} into {}: {} written, {} unchanged, {} removed",
                    proven.len(),
                    if proven.len() == 1 { "" } else { "s" },
                    out.display(),
                    s.written,
                    s.unchanged,
                    s.removed
                );
            }
            Err(e) => return fail(format!("writing {}: {e}", out.display())),
        }
    }
    if failed {
        eprintln!("scenarios with errors are not exported");
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
