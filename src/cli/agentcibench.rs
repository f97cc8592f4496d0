//! `cici import agentcibench` and `cici export agentcibench`.

use std::path::Path;
use std::process::ExitCode;

use super::output::fail;
use crate::agentcibench::{self, CaseFile};

/// Renders the diagnostics of every file read, with its text as source.
fn report(files: &[CaseFile]) {
    for f in files {
        super::check::show_file_diagnostics(&f.name, &f.text, &f.diagnostics);
    }
}

/// Reads the release, reports its defects, then writes: nothing when a
/// case has an error, unless `keep_going`, which writes the seeds of the
/// cases without one and the map of every case.
pub(super) fn import(release: &Path, out: &Path, keep_going: bool) -> ExitCode {
    let paths = match agentcibench::scenario_files(release) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let imported = agentcibench::import(&paths);
    report(&imported.files);
    let errors = imported.errors();
    let flawed = imported.cases.len() - imported.seeds.len();
    if errors > 0 && !keep_going {
        eprintln!(
            "nothing written: {} of {} have {}; fix them, or pass --keep-going to write the cases without one",
            super::output::count(flawed, "case"),
            imported.cases.len(),
            super::output::count(errors, "error")
        );
        return ExitCode::from(1);
    }
    match agentcibench::write(out, &imported) {
        Ok(written) => super::output::say!(
            "imported {} of {} into {} ({} with a defect; {} written); check them with `cici check {}`",
            imported.seeds.len(),
            super::output::count(imported.cases.len(), "case"),
            out.display(),
            flawed,
            super::output::count(written, "file"),
            out.display()
        ),
        Err(e) => return fail(format!("writing {}: {e}", out.display())),
    }
    if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Writes one AgentCIBench scenario per proven scenario.
pub(super) fn export(input: &super::export_args::ExportInput) -> ExitCode {
    let (_, run) = match input.checked() {
        Ok(checked) => checked,
        Err(code) => return code,
    };
    let proven = match input.proven(&run) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let files = match agentcibench::export::files(&proven) {
        Ok(f) => f,
        Err(e) => return fail(format!("serializing a scenario: {e}")),
    };
    let target = input.target(crate::build::Writer::ExportAgentcibench);
    match super::build::put(&target, &files, run.errors() == 0, false) {
        Ok(Some(s)) => super::output::say!(
            "wrote {} into {}: {} written, {} unchanged, {} removed",
            super::output::count(files.len(), "scenario"),
            input.out.display(),
            s.written,
            s.unchanged,
            s.removed
        ),
        Ok(None) => {}
        Err(code) => return code,
    }
    if run.errors() > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
