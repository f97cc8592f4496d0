//! The arguments of `cici export`: what both exports read, and what each
//! adds.

use std::path::PathBuf;

use clap::Subcommand;

use super::args::SolverArgs;
use super::output::{fail, CliError};
use crate::render::Templates;

#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    #[command(subcommand)]
    pub(super) command: ExportCommand,
}

#[derive(Subcommand, Debug)]
pub(super) enum ExportCommand {
    /// One PiSAs scenario bundle per scenario (`<out>/<id>/`), for the
    /// release's harness (`run_benchmark.py --scenarios-folder <out>`).
    Pisas {
        #[command(flatten)]
        input: ExportInput,
        /// How a holder's note gives a raw detail that has a sanitized
        /// twin: as one sentence with the operational fact and the private
        /// reason (entangled, as the release's bundles do), or as two lines.
        #[arg(long, value_enum, default_value_t = NotesArg::Entangled)]
        notes: NotesArg,
        /// Also write scenarios whose check found errors (a released
        /// scenario known to be flawed, say), each defect recorded under
        /// `utility.json`'s `cici.defects` and on stderr. Files that do not
        /// parse or resolve are never written.
        #[arg(long)]
        allow_defects: bool,
        /// Enumerate at most this many decisions to count those the public
        /// constraints allow (independent parts multiply, so an exact count
        /// may be far larger); a count this bound or --max-solve-ms stops is
        /// written as `{"at_least": n}`.
        #[arg(long, default_value_t = crate::pisas::export::COUNT_LIMIT,
              value_parser = clap::value_parser!(u64).range(1..))]
        count_bound: u64,
        /// Write nothing; fail with a diff if the folder is stale (a bundle
        /// differs, is missing, or is of a scenario no longer exported).
        #[arg(long, conflicts_with = "force")]
        check: bool,
    },
    /// Executable agent tasks for inspect_ai: per scenario an environment
    /// (`<out>/<id>/environment.json`), the instruction variants
    /// (`tasks.json`) and, apart, its contextual-integrity contract
    /// (`<out>/answers/<id>/contract.json`), with
    /// `<out>/task.py` and the JSON Schemas under `<out>/schema/`. Run them
    /// with `inspect eval <out>/task.py --model M` once the package in
    /// `python/` is installed.
    Inspect(InspectArgs),
    /// The lowered constraint model of each proven scenario with cici's
    /// findings over it (`<out>/<id>.json`), for running the same analyses
    /// with another solver (`tools/cpsat_compare.py`).
    Model {
        #[command(flatten)]
        input: ExportInput,
    },
    /// Prompt rows for reinforcement learning with verifiable rewards from
    /// a counterfactual folder (`<out>/<split>.jsonl`), in the shape verl,
    /// TRL or OpenRLHF reads, each with its proven ground truth; the reward
    /// is `cici_inspect.reward` in the package in `python/`.
    Rl(super::rl::RlArgs),
    /// The proven scenarios as PrivacyLens cases (`<out>/main_data.json`),
    /// the file the release's evaluation scripts read with
    /// `--input-path`.
    Privacylens {
        /// Seed files, or folders searched recursively for `*.cici`.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// The folder to write `main_data.json` into.
        #[arg(long)]
        out: PathBuf,
        #[command(flatten)]
        solver: SolverArgs,
    },
    /// One AgentCIBench scenario per proven scenario (`<out>/<id>.json`),
    /// in the release's own format, for its harness
    /// (`eval/run_benchmark.py --generated-dir <out>`).
    Agentcibench {
        #[command(flatten)]
        input: ExportInput,
    },
}

/// What every export reads: the seeds, the templates, the solver bound,
/// and where it writes.
#[derive(clap::Args, Debug)]
pub(super) struct ExportInput {
    /// Seed files, or folders searched recursively for `*.cici`.
    #[arg(required = true)]
    pub(super) paths: Vec<PathBuf>,
    /// The folder to write into, one folder per scenario. It keeps a
    /// manifest (`.cici-manifest`): a rerun removes what an earlier
    /// export of the same seeds wrote and no longer does, and a folder
    /// holding the output of other inputs is refused (see --force).
    #[arg(long)]
    pub(super) out: PathBuf,
    /// Write into a folder that holds the output of other inputs (or of
    /// another command), replacing it: the files its manifest lists are
    /// removed.
    #[arg(long)]
    pub(super) force: bool,
    /// Templates for the brief and the task (built in when not given).
    #[arg(long)]
    pub(super) templates: Option<PathBuf>,
    #[command(flatten)]
    pub(super) solver: SolverArgs,
}

impl ExportInput {
    /// The seeds checked and their diagnostics printed, with the
    /// templates to render them with; a templates folder that does not
    /// exist is an error.
    pub(super) fn checked(&self) -> Result<(Templates, crate::driver::Run), CliError> {
        let templates = match &self.templates {
            Some(dir) if !dir.is_dir() => {
                return Err(fail(format!(
                    "templates folder {} does not exist",
                    dir.display()
                )))
            }
            Some(dir) => Templates::load(dir),
            None => Ok(Templates::builtin()),
        };
        let templates = templates.map_err(fail)?;
        let options = self.solver.options();
        let mut run = crate::driver::Run::new();
        run.check_paths(&self.paths, &options).map_err(fail)?;
        if run.sources.is_empty() {
            return Err(CliError::diagnostic(
                ExportError::NoSeeds {
                    paths: self.paths_in_words(),
                },
                2,
            ));
        }
        eprint!("{}", super::check::render(&run, &super::check::handler()));
        Ok((templates, run))
    }

    /// Where `writer` writes, and from what.
    pub(super) fn target(&self, writer: crate::build::Writer) -> crate::build::Target<'_> {
        crate::build::Target {
            out: &self.out,
            writer,
            inputs: &self.paths,
            force: self.force,
        }
    }

    fn paths_in_words(&self) -> String {
        self.paths
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The proven scenarios of a run: one whose check found an error has
    /// no single oracle to score against, so it is never exported.
    pub(super) fn proven<'r>(
        &self,
        run: &'r crate::driver::Run,
    ) -> Result<Vec<&'r crate::driver::Checked>, CliError> {
        let proven: Vec<&crate::driver::Checked> = run
            .checked
            .iter()
            .filter(|c| c.report.errors() == 0)
            .collect();
        if proven.is_empty() {
            return Err(self.all_errors(
                "a scenario with errors has no single oracle to score against; fix the errors above",
            ));
        }
        Ok(proven)
    }

    /// The error of an export with nothing to write: every scenario has
    /// errors (exit 1).
    pub(super) fn all_errors(&self, help: &'static str) -> CliError {
        let e = ExportError::AllErrors {
            paths: self.paths_in_words(),
            help,
        };
        CliError::diagnostic(e, 1)
    }
}

/// Why an export has nothing to write.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub(super) enum ExportError {
    /// The paths hold no seed file: an empty folder once exported nothing
    /// and said "wrote 0 bundles".
    ///
    /// ```text
    /// cici export pisas empty/ --out bundles/
    /// ```
    #[error("nothing to export: no `*.cici` file under {paths}")]
    #[diagnostic(
        code(cici::export::no_seeds),
        help("give seed files, or folders that hold `*.cici` files")
    )]
    NoSeeds { paths: String },

    /// Every scenario has errors, so none is exported, and nothing is
    /// written.
    #[error("nothing to export: no scenario without errors under {paths}")]
    #[diagnostic(code(cici::export::all_errors), help("{help}"))]
    AllErrors { paths: String, help: &'static str },
}

#[derive(clap::Args, Debug)]
pub struct InspectArgs {
    #[command(flatten)]
    pub(super) input: ExportInput,
    /// Write nothing; fail with a diff if the folder is stale (a file
    /// differs, is missing, or is of a scenario no longer exported).
    #[arg(long, conflicts_with = "force")]
    pub(super) check: bool,
}

/// How bundle notes render a raw detail with a sanitized twin.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub(super) enum NotesArg {
    Entangled,
    Separate,
}

impl From<NotesArg> for crate::pisas::export::NoteStyle {
    fn from(n: NotesArg) -> Self {
        match n {
            NotesArg::Entangled => crate::pisas::export::NoteStyle::Entangled,
            NotesArg::Separate => crate::pisas::export::NoteStyle::Separate,
        }
    }
}
