//! `cici import agentcibench` and `cici export agentcibench`.

use std::path::Path;
use std::process::ExitCode;

use super::output::fail;
use crate::agentcibench::{self, CaseFile};

/// Renders the diagnostics of every file read, with its text as source.
fn report(files: &[CaseFile]) {
    let handler = super::check::handler();
    for f in files.iter().filter(|f| !f.diagnostics.is_empty()) {
        let text = std::sync::Arc::<str>::from(f.text.as_str());
        let starts = crate::driver::excerpt::line_starts(&f.text);
        for d in &f.diagnostics {
            let mut out = String::new();
            let shown = crate::driver::excerpt::Shown::new(d, &f.name, &text, &starts);
            if handler.render_report(&mut out, &shown).is_err() {
                out = format!("{d}\n");
            }
            eprint!("{out}");
        }
    }
}

fn plural(n: usize, w: &str) -> String {
    format!("{n} {w}{}", if n == 1 { "" } else { "s" })
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
            plural(flawed, "case"),
            imported.cases.len(),
            plural(errors, "error")
        );
        return ExitCode::from(1);
    }
    match agentcibench::write(out, &imported) {
        Ok(written) => super::output::say!(
            "imported {} of {} into {} ({} with a defect; {} written); check them with `cici check {}`",
            imported.seeds.len(),
            plural(imported.cases.len(), "case"),
            out.display(),
            flawed,
            plural(written, "file"),
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
            plural(files.len(), "scenario"),
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
