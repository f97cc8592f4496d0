//! `cici export inspect`

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use super::{fail, InspectArgs};
use crate::analysis::Options;
use crate::driver::Run;
use crate::render::Templates;

pub(super) fn run(args: InspectArgs) -> ExitCode {
    let templates = match &args.templates {
        Some(dir) if !dir.is_dir() => {
            return fail(format!("templates folder {} does not exist", dir.display()))
        }
        Some(dir) => Templates::load(dir),
        None => Ok(Templates::builtin()),
    };
    let templates = match templates {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    let options = Options {
        max_solve: Some(Duration::from_millis(args.max_solve_ms)),
    };
    let mut run = Run::new();
    if let Err(e) = run.check_paths(&args.paths, &options) {
        return fail(e);
    }
    eprint!("{}", super::check::render(&run, &super::check::handler()));
    // Only proven scenarios become tasks: one whose check found an error
    // has no single oracle to score against.
    let proven: Vec<&crate::driver::Checked> = run
        .checked
        .iter()
        .filter(|c| c.report.errors() == 0)
        .collect();
    if proven.is_empty() {
        return fail("no scenario without errors to export");
    }
    let files = match crate::export::inspect::files(&proven, &templates) {
        Ok(f) => f,
        Err(e) => return fail(e),
    };
    let out = &args.out;
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
