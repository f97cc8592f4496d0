//! `cici import` (its arguments and the PiSAs readers) and `cici export`
//! pisas and model.

use std::path::PathBuf;

use clap::Subcommand;

use super::export_args::ExportArgs;
use super::export_args::ExportCommand;
use super::output::{fail, status, CliError, Outcome};
use crate::pisas::import::{self, build::Select, JsonFile, SeedOptions};

#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    #[command(subcommand)]
    command: ImportCommand,
}

#[derive(Subcommand, Debug)]
enum ImportCommand {
    /// A task-family seed (schema 2.1): one `.cici` per configuration.
    PisasSeed {
        /// The seed file (`seed.json`).
        seed: PathBuf,
        /// The personal-context library; `personal_context_library.json`
        /// beside the seed when not given.
        #[arg(long)]
        personal_context: Option<PathBuf>,
        /// Where to write the seeds and `import.json`.
        #[arg(long)]
        out: PathBuf,
        /// Every valid configuration (the default).
        #[arg(long, conflicts_with = "count")]
        all: bool,
        /// This many configurations: the seed's coverage cases, then its
        /// outcome quotas.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=100_000))]
        count: Option<u64>,
        /// Seeds the choice of names, wordings, decoys and configurations.
        #[arg(long = "seed", default_value_t = 0)]
        seed_value: u64,
        /// Scenario ids are `<PREFIX>_cfg_NNN` (default: the seed's folder).
        #[arg(long)]
        prefix: Option<String>,
        /// With errors in the seed, still write the configurations whose
        /// outcome no part with an error can change, recording what was
        /// dropped in each seed and in `import.json` (exit status 1 all the
        /// same). Without it, an error writes nothing.
        #[arg(long)]
        keep_going: bool,
    },
    /// Scenario bundles (folders with scenario.json, utility.json,
    /// appropriateness.json, visibility.json): one `.cici` per bundle.
    ///
    /// Reads bundles cici exported (their seed comes back, with the bundle's
    /// labels), the release's JIRA and meeting bundles (`oracle_assignment`,
    /// `oracle_schedule`), and bundles generated from a task-family seed
    /// (with `--seed`). Writes `import.json`, the map from bundle attributes
    /// to the seeds' attributes.
    PisasBundle {
        /// Bundle folders, or folders of bundle folders.
        #[arg(required = true)]
        bundles: Vec<PathBuf>,
        /// The folder the seeds and import.json are written to.
        #[arg(long)]
        out: PathBuf,
        /// The task-family seed the bundles were generated from (for policy
        /// bundles cici did not export; JIRA and meeting bundles need none).
        #[arg(long)]
        seed: Option<PathBuf>,
        /// With errors in some bundles, still write the bundles that have
        /// none (exit status 1 all the same). Without it, an error writes
        /// nothing.
        #[arg(long)]
        keep_going: bool,
    },
    /// AgentCIBench scenarios (UKPLab's release folder, a folder of its
    /// scenario files, or one file): one `.cici` per case without a
    /// defect, and `import.json`, which maps every case id to its seed or
    /// to the defects that kept it out.
    Agentcibench {
        /// The release folder (its `data/seeds` and
        /// `data/generated_merged`), a folder of scenario files, or one.
        release: PathBuf,
        /// The folder the seeds and import.json are written to.
        #[arg(long)]
        out: PathBuf,
        /// With defects in some cases, still write the seeds of the cases
        /// that have none, and the map (exit status 1 all the same).
        /// Without it, an error writes nothing.
        #[arg(long)]
        keep_going: bool,
    },
    /// The PrivacyLens release (`main_data.json`, or a folder holding it
    /// or `data/main_data.json`): one `.cici` per case, and `import.json`,
    /// what became of every case, with the release's defects.
    Privacylens {
        /// The release file or folder.
        release: PathBuf,
        /// The folder the seeds and import.json are written to.
        #[arg(long)]
        out: PathBuf,
        /// With errors in some cases, still write the cases that have
        /// none (exit status 1 all the same). Without it, an error writes
        /// nothing.
        #[arg(long)]
        keep_going: bool,
    },
    /// The CI-RL synthetic dataset (`dataset.json`): one `.cici` per
    /// example, and `import.json`, with the release's defects.
    CiRl {
        /// The release file.
        release: PathBuf,
        /// The folder the seeds and import.json are written to.
        #[arg(long)]
        out: PathBuf,
        /// With errors in some examples, still write the examples that
        /// have none (exit status 1 all the same). Without it, an error
        /// writes nothing.
        #[arg(long)]
        keep_going: bool,
    },
}

/// Renders the diagnostics of every file read, with its text as source.
fn report(files: &[JsonFile]) {
    for f in files {
        super::check::show_file_diagnostics(&f.name, &f.text, &f.diagnostics);
    }
}

pub(super) fn run(args: ImportArgs) -> Outcome {
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
                        return Err(fail(format!("{}: no scenario bundle here", b.display())));
                    }
                    dirs.extend(inner);
                } else {
                    return Err(fail(format!("{}: not a folder", b.display())));
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
) -> Outcome {
    let (files, scenarios) = (&imported.files, &imported.scenarios);
    report(files);
    let errors: usize = files.iter().map(JsonFile::errors).sum();
    let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
    if errors > 0 && !keep_going {
        eprintln!(
            "nothing written: the input has {}; fix it, or pass --keep-going to write what does not depend on the parts with errors",
            plural(errors, "error")
        );
        return Err(CliError::Reported(1));
    }
    if imported.left_out > 0 {
        eprintln!(
            "left out {} that a part with an error could change; what was dropped is recorded in each seed and in import.json",
            plural(imported.left_out, unit)
        );
    }
    if scenarios.is_empty() {
        eprintln!("nothing imported");
        return Err(CliError::Reported(1));
    }
    let written = import::write(out, scenarios)
        .map_err(|e| fail(format!("writing {}: {e}", out.display())))?;
    super::output::say!(
        "imported {} scenario{} into {} ({} file{} written); check them with `cici check {}`",
        scenarios.len(),
        if scenarios.len() == 1 { "" } else { "s" },
        out.display(),
        written,
        if written == 1 { "" } else { "s" },
        out.display()
    );
    status(errors > 0)
}

fn export_model(input: &super::export_args::ExportInput) -> Outcome {
    let (_, run) = input.checked()?;
    let proven = input.proven(&run)?;
    let files = crate::export::model::files(&proven)
        .map_err(|e| fail(format!("serializing a model: {e}")))?;
    let target = input.target(crate::build::Writer::ExportModel);
    if let Some(s) = super::build::put(&target, &files, run.errors() == 0, false)? {
        super::output::say!(
            "wrote {} model{} into {}: {} written, {} unchanged, {} removed",
            files.len(),
            if files.len() == 1 { "" } else { "s" },
            input.out.display(),
            s.written,
            s.unchanged,
            s.removed
        );
    }
    status(run.errors() > 0)
}

pub(super) fn export(args: ExportArgs) -> Outcome {
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
    let (templates, run) = input.checked()?;
    let (files, ids) =
        crate::pisas::export::bundle_files(&run, &templates, &bundle_options).map_err(fail)?;
    let checked_errors: usize = run.checked.iter().map(|c| c.report.errors()).sum();
    // Errors outside the scenarios written (a file that does not parse,
    // or a scenario left out): those keep what an earlier export wrote.
    let failed = run.errors() > checked_errors || (!allow_defects && run.errors() > 0);
    if ids.is_empty() {
        return Err(input.all_errors(if allow_defects {
            "a file that does not parse or resolve is never exported; fix the errors above"
        } else {
            "fix them, or pass --allow-defects to write those that checked, with their defects recorded"
        }));
    }
    let target = input.target(crate::build::Writer::ExportPisas);
    if let Some(s) = super::build::put(&target, &files, !failed, check)? {
        super::output::say!(
            "wrote {} bundle{} into {}: {} written, {} unchanged, {} removed",
            ids.len(),
            if ids.len() == 1 { "" } else { "s" },
            input.out.display(),
            s.written,
            s.unchanged,
            s.removed
        );
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
    }
    status(failed)
}
