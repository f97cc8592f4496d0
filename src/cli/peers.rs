//! `cici import privacylens`, `cici import ci-rl` and `cici export
//! privacylens`: the peer benchmarks' releases in and out.

use super::args::SolverArgs;
use super::output::{fail, status, CliError, Outcome};
use crate::cirl::prove::{write, PeerImport};
use std::path::{Path, PathBuf};

/// Renders the import's diagnostics with the release file as source.
fn report(import: &PeerImport) {
    super::check::show_file_diagnostics(&import.name, &import.text, &import.diagnostics);
}

/// Reports, then writes: nothing when the release has an error, unless
/// `keep_going`; a summary line of cases, proven seeds and defects.
pub(super) fn finish(out: &Path, import: &PeerImport, keep_going: bool) -> Outcome {
    report(import);
    let errors = import.errors();
    if errors > 0 && !keep_going {
        eprintln!(
            "nothing written: the release has {}; fix it, or pass --keep-going to write the cases without one",
            super::output::count(errors, "error")
        );
        return Err(CliError::Reported(1));
    }
    if import.seeds.is_empty() {
        eprintln!("nothing imported");
        return Err(CliError::Reported(1));
    }
    let written =
        write(out, import).map_err(|e| fail(format!("writing {}: {e}", out.display())))?;
    let cases = import.map.cases.len();
    let proven = import.map.cases.iter().filter(|c| c.proven).count();
    let defects: Vec<String> = import
        .defect_counts()
        .into_iter()
        .map(|(code, n)| format!("{} {n}", code.trim_start_matches("cici::peer::")))
        .chain(
            import
                .map
                .release_defects
                .iter()
                .map(|c| format!("{} (release)", c.trim_start_matches("cici::peer::"))),
        )
        .collect();
    super::output::say!(
        "imported {} of {} into {} ({} proven, {} written); cases with a named defect: {}",
        super::output::count(import.seeds.len(), "seed"),
        super::output::count(cases, "case"),
        out.display(),
        proven,
        super::output::count(written, "file"),
        if defects.is_empty() {
            "none".to_string()
        } else {
            defects.join(", ")
        }
    );
    status(errors > 0 || proven < import.seeds.len())
}

/// `cici export privacylens`: the scenarios that check, as the release's
/// case list in `<out>/main_data.json`.
pub(super) fn export_privacylens(paths: &[PathBuf], out: &Path, solver: &SolverArgs) -> Outcome {
    let mut run = crate::driver::Run::new();
    run.check_paths(paths, &solver.options()).map_err(fail)?;
    eprint!("{}", super::check::render(&run, &super::check::handler()));
    let proven = run.checked.iter().filter(|c| c.report.errors() == 0);
    let (text, n, left) = crate::privacylens::export::cases(proven.map(|c| &c.scenario));
    for e in &left {
        eprintln!("left out {e}");
    }
    if n == 0 {
        eprintln!("nothing exported: no scenario checks with a sensitive item its executor sees");
        return Err(CliError::Reported(1));
    }
    std::fs::create_dir_all(out)
        .and_then(|()| crate::io::write_if_changed(&out.join("main_data.json"), &text))
        .map_err(|e| fail(format!("writing {}: {e}", out.display())))?;
    super::output::say!(
        "wrote {} into {}",
        super::output::count(n, "PrivacyLens case"),
        out.join("main_data.json").display()
    );
    status(run.errors() > 0)
}
