//! `cici import pisas-seed` and `cici import pisas-bundle`

use std::process::ExitCode;

use super::export_args::ExportCommand;
use super::{export_args::ExportArgs, output::fail, ImportArgs, ImportCommand};
use crate::pisas::import::{self, build::Select, JsonFile, SeedOptions};

/// Renders the diagnostics of every file read, with its text as source.
fn report(files: &[JsonFile]) {
    for f in files {
        super::check::show_file_diagnostics(&f.name, &f.text, &f.diagnostics);
    }
}

pub(super) fn run(args: ImportArgs) -> ExitCode {
    match args.command {
        ImportCommand::PisasSeed {
            seed,
            personal_context,
            out,
            all,
            count,
            seed_value,
            prefix,
            keep_going,
        } => {
            let library = personal_context.or_else(|| {
                let beside = seed.with_file_name("personal_context_library.json");
                beside.is_file().then_some(beside)
            });
            let select = match (all, count) {
                (true, _) => Select::All,
                (false, Some(n)) => Select::Count(n as usize),
                (false, None) => Select::All,
            };
            let options = SeedOptions {
                select,
                seed: seed_value,
                prefix,
            };
            let imported = import::pisas_seed(&seed, library.as_deref(), &options);
            finish(&out, &imported, keep_going, "configuration")
        }
        ImportCommand::PisasBundle {
            bundles,
            out,
            seed,
            keep_going,
        } => {
            // A folder of bundle folders stands for its bundles.
            let mut dirs = Vec::new();
            for b in bundles {
                if b.join("scenario.json").is_file() {
                    dirs.push(b);
                } else if let Ok(entries) = std::fs::read_dir(&b) {
                    let mut inner: Vec<_> = entries
                        .filter_map(|e| e.ok().map(|e| e.path()))
                        .filter(|p| p.join("scenario.json").is_file())
                        .collect();
                    inner.sort();
                    if inner.is_empty() {
                        return fail(format!("{}: no scenario bundle here", b.display()));
                    }
                    dirs.extend(inner);
                } else {
                    return fail(format!("{}: not a folder", b.display()));
                }
            }
            let imported = import::pisas_bundles(&dirs, seed.as_deref());
            finish(&out, &imported, keep_going, "bundle")
        }
        ImportCommand::Privacylens {
            release,
            out,
            keep_going,
        } => super::peers::finish(&out, &crate::privacylens::import(&release), keep_going),
        ImportCommand::CiRl {
            release,
            out,
            keep_going,
        } => super::peers::finish(&out, &crate::cirl::import(&release), keep_going),
        ImportCommand::Agentcibench {
            release,
            out,
            keep_going,
        } => super::agentcibench::import(&release, &out, keep_going),
    }
}

/// Reports, then writes: nothing when the input has an error, unless
/// `keep_going`, which writes what depends on no part with an error.
fn finish(
    out: &std::path::Path,
    imported: &import::SeedImport,
    keep_going: bool,
    unit: &str,
) -> ExitCode {
    let (files, scenarios) = (&imported.files, &imported.scenarios);
    report(files);
    let errors: usize = files.iter().map(JsonFile::errors).sum();
    let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
    if errors > 0 && !keep_going {
        eprintln!(
            "nothing written: the input has {}; fix it, or pass --keep-going to write what does not depend on the parts with errors",
            plural(errors, "error")
        );
        return ExitCode::from(1);
    }
    if imported.left_out > 0 {
        eprintln!(
            "left out {} that a part with an error could change; what was dropped is recorded in each seed and in import.json",
            plural(imported.left_out, unit)
        );
    }
    if scenarios.is_empty() {
        eprintln!("nothing imported");
        return ExitCode::from(1);
    }
    match import::write(out, scenarios) {
        Ok(written) => {
            super::output::say!(
                "imported {} scenario{} into {} ({} file{} written); check them with `cici check {}`",
                scenarios.len(),
                if scenarios.len() == 1 { "" } else { "s" },
                out.display(),
                written,
                if written == 1 { "" } else { "s" },
                out.display()
            );
        }
        Err(e) => return fail(format!("writing {}: {e}", out.display())),
    }
    if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn export_model(input: &super::export_args::ExportInput) -> ExitCode {
    let (_, run) = match input.checked() {
        Ok(checked) => checked,
        Err(code) => return code,
    };
    let proven = match input.proven(&run) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let files = match crate::export::model::files(&proven) {
        Ok(f) => f,
        Err(e) => return fail(format!("serializing a model: {e}")),
    };
    let target = input.target(crate::build::Writer::ExportModel);
    match super::build::put(&target, &files, run.errors() == 0, false) {
        Ok(Some(s)) => super::output::say!(
            "wrote {} model{} into {}: {} written, {} unchanged, {} removed",
            files.len(),
            if files.len() == 1 { "" } else { "s" },
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

pub(super) fn export(args: ExportArgs) -> ExitCode {
    let (input, notes, allow_defects, count_bound, check) = match args.command {
        ExportCommand::Inspect(a) => return super::inspect::run(a),
        ExportCommand::Model { input } => return export_model(&input),
        ExportCommand::Rl(a) => return super::rl::run(a),
        ExportCommand::Privacylens { paths, out, solver } => {
            return super::peers::export_privacylens(&paths, &out, &solver)
        }
        ExportCommand::Agentcibench { input } => return super::agentcibench::export(&input),
        ExportCommand::Pisas {
            input,
            notes,
            allow_defects,
            count_bound,
            check,
        } => (input, notes, allow_defects, count_bound, check),
    };
    let bundle_options = crate::pisas::export::Options {
        notes: notes.into(),
        allow_defects,
        count_bound,
        max_solve: Some(input.solver.max_solve()),
    };
    let (templates, run) = match input.checked() {
        Ok(checked) => checked,
        Err(code) => return code,
    };
    let (files, ids) = match crate::pisas::export::bundle_files(&run, &templates, &bundle_options) {
        Ok(bundles) => bundles,
        Err(e) => return fail(e),
    };
    let checked_errors: usize = run.checked.iter().map(|c| c.report.errors()).sum();
    // Errors outside the scenarios written (a file that does not parse,
    // or a scenario left out): those keep what an earlier export wrote.
    let failed = run.errors() > checked_errors || (!allow_defects && run.errors() > 0);
    if ids.is_empty() {
        return input.all_errors(if allow_defects {
            "a file that does not parse or resolve is never exported; fix the errors above"
        } else {
            "fix them, or pass --allow-defects to write those that checked, with their defects recorded"
        });
    }
    let target = input.target(crate::build::Writer::ExportPisas);
    match super::build::put(&target, &files, !failed, check) {
        Ok(Some(s)) => super::output::say!(
            "wrote {} bundle{} into {}: {} written, {} unchanged, {} removed",
            ids.len(),
            if ids.len() == 1 { "" } else { "s" },
            input.out.display(),
            s.written,
            s.unchanged,
            s.removed
        ),
        Ok(None) => {}
        Err(code) => return code,
    }
    let flawed = run.checked.iter().filter(|c| c.report.errors() > 0).count();
    if allow_defects && flawed > 0 {
        eprintln!(
            "exported {flawed} scenario{} with defects, each recorded under utility.json's cici.defects",
            if flawed == 1 { "" } else { "s" }
        );
    }
    if failed {
        eprintln!(
            "scenarios with errors are not exported{}",
            if allow_defects {
                " unless they checked (a file that does not parse or resolve never is)"
            } else {
                "; --allow-defects writes those that checked, with their defects recorded"
            }
        );
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
