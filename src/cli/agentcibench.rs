//! `cici import agentcibench` and `cici export agentcibench`.

use super::output::{fail, status, CliError, Outcome};
use crate::agentcibench::{self, CaseFile};
use std::path::Path;

/// Renders the diagnostics of every file read, with its text as source.
fn report(files: &[CaseFile]) {
    for f in files {
        super::check::show_file_diagnostics(&f.name, &f.text, &f.diagnostics);
    }
}

/// Reads the release, reports its defects, then writes: nothing when a
/// case has an error, unless `keep_going`, which writes the seeds of the
/// cases without one and the map of every case.
pub(super) fn import(release: &Path, out: &Path, keep_going: bool) -> Outcome {
    let paths = agentcibench::scenario_files(release).map_err(fail)?;
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
        return Err(CliError::Reported(1));
    }
    let written = agentcibench::write(out, &imported)
        .map_err(|e| fail(format!("writing {}: {e}", out.display())))?;
    super::output::say!(
        "imported {} of {} into {} ({} with a defect; {} written); check them with `cici check {}`",
        imported.seeds.len(),
        super::output::count(imported.cases.len(), "case"),
        out.display(),
        flawed,
        super::output::count(written, "file"),
        out.display()
    );
    status(errors > 0)
}

/// Writes one AgentCIBench scenario per proven scenario.
pub(super) fn export(input: &super::export_args::ExportInput) -> Outcome {
    let (_, run) = input.checked()?;
    let proven = input.proven(&run)?;
    let files = agentcibench::export::files(&proven)
        .map_err(|e| fail(format!("serializing a scenario: {e}")))?;
    let target = input.target(crate::build::Writer::ExportAgentcibench);
    if let Some(s) = super::build::put(&target, &files, run.errors() == 0, false)? {
        super::output::say!(
            "wrote {} into {}: {} written, {} unchanged, {} removed",
            super::output::count(files.len(), "scenario"),
            input.out.display(),
            s.written,
            s.unchanged,
            s.removed
        );
    }
    status(run.errors() > 0)
}
