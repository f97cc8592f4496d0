//! The command line: a thin layer over the library.

mod agentcibench;
mod args;
mod author;
mod build;
mod check;
mod counterfactual;
pub(crate) mod explain;
mod export_args;
mod fmt;
mod import;
mod inspect;
pub(crate) mod output;
mod peers;
mod report;
mod review;
mod rl;
mod values;

pub use export_args::{ExportArgs, InspectArgs};
pub use import::ImportArgs;
use output::{fail, print_all, usage, CliError, Outcome};

pub use args::{JudgeArgs, LintArgs, SolverArgs};

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

/// cici: a compiler for contextual-integrity privacy benchmark scenarios.
#[derive(Parser, Debug)]
#[command(name = "cici", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    global: output::GlobalArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Prove every scenario: unique oracle, attribute classes, lints.
    Check(CheckArgs),
    /// Say in words why an attribute has its class.
    Explain(ExplainArgs),
    /// Check every seed and write everything a benchmark run needs.
    Build(BuildArgs),
    /// Corpus statistics (PiSAs Appendix A.5).
    Stats(StatsArgs),
    /// Grow seeds into counterfactual triplets (anchor, flipped, held).
    Counterfactual(Box<CounterfactualArgs>),
    /// Lay seed files out canonically, comments kept.
    Fmt(FmtArgs),
    /// Serve the Language Server Protocol on stdin and stdout.
    Lsp,
    /// Write a commented starter seed for a family that already checks.
    New(NewArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish,
    /// powershell) on stdout.
    Completions {
        /// The shell to complete for.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff) on stdout: `cici man` for the program,
    /// `cici man check` or `cici man export pisas` for one command's page.
    Man {
        /// The command whose page to print (the pages `cici man` names as
        /// `cici-check(1)` and so on).
        command: Vec<String>,
    },
    /// Turn PiSAs task-family seeds or scenario bundles into cici seeds.
    Import(ImportArgs),
    /// Write checked seeds in another tool's format.
    Export(ExportArgs),
    /// Write a complete planted-oracle seed, built backwards from an oracle.
    Synth(SynthArgs),
    /// Draw a counterfactual or build output folder as one self-contained
    /// HTML page of plots (and the same figures as JSON).
    Report(ReportArgs),
    /// Review a counterfactual dataset folder in the browser: accept or
    /// reject each triplet, recorded in DIR/review.jsonl.
    Review(review::ReviewArgs),
}

#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// The folder: one `cici counterfactual --out` wrote (decision/, flow/),
    /// one `cici build` wrote (*/scenario.json), or one holding either one
    /// level down (generated/ with generated/counterfactuals/).
    dir: PathBuf,
    /// The HTML page to write (replaced atomically).
    #[arg(long)]
    out: PathBuf,
    /// Also write the figures as JSON to this file.
    #[arg(long)]
    json: Option<PathBuf>,
    /// inspect_ai logs in JSON (files, or folders of `*.json`): leakage and
    /// utility per model, with Wilson intervals.
    #[arg(long)]
    logs: Vec<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
#[value(rename_all = "snake_case")]
pub enum FamilyArg {
    MeetingAllocation,
    JiraAllocation,
    SeverityClassification,
    PolicyDecision,
}

#[derive(clap::Args, Debug)]
pub struct NewArgs {
    /// The family of the starter seed.
    #[arg(value_enum)]
    family: FamilyArg,
    /// The scenario id; the file is `<NAME>.cici` unless --out says otherwise.
    name: String,
    /// Where to write (`-` for stdout); an existing file is never overwritten.
    #[arg(long)]
    out: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub struct SynthArgs {
    /// The family of the scenario to build.
    #[arg(value_enum)]
    family: FamilyArg,
    /// People, the executor included.
    #[arg(long, value_parser = clap::value_parser!(u64).range(3..=200))]
    people: Option<u64>,
    /// Tickets, meetings or evidence variables (`--variables` reads better
    /// for the rule-based families).
    #[arg(long, visible_alias = "variables", value_parser = clap::value_parser!(u64).range(1..=200))]
    size: Option<u64>,
    /// Soft distractors.
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=200))]
    soft: Option<u64>,
    /// Irrelevant personal details.
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=200))]
    irrelevant: Option<u64>,
    /// The random seed: the same seed gives the same scenario.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The scenario id.
    #[arg(long)]
    id: Option<String>,
    /// State norms: groups, reporting lines and share rules drawn from the
    /// seed, with every form's visibility derived from them.
    #[arg(long)]
    norms: bool,
    /// Where to write (`-` for stdout); an existing file is never overwritten.
    #[arg(long, default_value = "-")]
    out: PathBuf,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum KindArg {
    Decision,
    Flow,
    Both,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GeneratorArg {
    /// Built-in mutation operators; needs no model.
    Symbolic,
    /// A language model behind an OpenAI-compatible endpoint proposes the edits.
    Llm,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CriticArg {
    /// The rule-based critic alone.
    Rules,
    /// The rule-based critic, then a language model's verdicts.
    Llm,
}

/// `I/N`: the I-th of N shards, counting from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

#[derive(clap::Args, Debug)]
pub struct CounterfactualArgs {
    /// Seed files or folders.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    #[command(flatten)]
    lints: LintArgs,
    /// The dataset folder: decision/ and flow/ (a JSON Lines file per
    /// split), variants/, README.md (the card), croissant.json, cici_task.py
    /// (the inspect_ai tasks) and run.json.
    #[arg(long)]
    out: PathBuf,
    /// Which labels to flip: decision, flow or both.
    #[arg(long, value_enum, default_value = "both")]
    kind: KindArg,
    /// The cue conditions decision items are written for, comma-separated:
    /// none, privacy, sanitized, combined. Each decision triplet is grown
    /// once per condition.
    #[arg(long, value_delimiter = ',', default_value = "none,combined", value_parser = values::cue)]
    cues: Vec<crate::render::Cue>,
    /// The percentages of seed files in train, validation and test,
    /// comma-separated; every row of a seed goes to one split.
    #[arg(long, default_value = "80,10,10", value_parser = values::split)]
    split: crate::counterfactual::Split,
    /// Triplets per seed and kind, at most.
    #[arg(long, default_value_t = 2)]
    per_seed: usize,
    /// The run's random seed: same seed and input, same dataset.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Who proposes the edits: the built-in operators (symbolic) or a model (llm).
    #[arg(long, value_enum, default_value = "symbolic")]
    generator: GeneratorArg,
    /// Add a language model's verdicts to the rule-based critic.
    #[arg(long, value_enum, default_value = "rules")]
    critic: CriticArg,
    /// The project file with the `llm` settings.
    #[arg(long, default_value = "cici.yaml")]
    config: PathBuf,
    /// The API root of an OpenAI-compatible server, e.g. http://localhost:8000/v1.
    #[arg(long)]
    base_url: Option<String>,
    /// The model to ask; no default: name it here or under `llm:` in cici.yaml.
    #[arg(long)]
    model: Option<String>,
    /// The environment variable holding the API key.
    #[arg(long)]
    api_key_env: Option<String>,
    /// Sampling temperature, 0 to 2 (default 0.7).
    #[arg(long)]
    temperature: Option<f32>,
    /// The longest reply, in tokens.
    #[arg(long)]
    max_tokens: Option<u32>,
    /// Seconds before a request is given up and retried.
    #[arg(long)]
    timeout: Option<f64>,
    /// Retries on 429, 5xx and timeouts.
    #[arg(long)]
    retries: Option<u32>,
    /// Retries the whole run may spend before it stops with the last reason.
    #[arg(long)]
    retry_budget: Option<u64>,
    /// The longest wait a server's `Retry-After` may ask for, in seconds
    /// (default 60).
    #[arg(long)]
    max_retry_after_s: Option<f64>,
    /// Model calls in a row that may fail or give nothing usable before the
    /// run stops.
    #[arg(long)]
    max_failures: Option<u32>,
    /// Requests in flight at once.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    concurrency: Option<u64>,
    /// Where model responses are cached.
    #[arg(long)]
    cache_dir: Option<PathBuf>,
    /// Use cached responses only; fail at the first miss.
    #[arg(long)]
    offline: bool,
    /// Send nothing: write every request the run needs as OpenAI Batch JSONL.
    #[arg(long, conflicts_with = "offline")]
    emit_batch: Option<PathBuf>,
    /// Read a batch's responses into the cache before the run.
    #[arg(long)]
    ingest_batch: Option<PathBuf>,
    /// Take only the I-th of N shards of the seeds (by position, from 1).
    #[arg(long, value_parser = values::shard)]
    shard: Option<Shard>,
    /// Candidates tried per side of a triplet before giving up on it.
    #[arg(long, default_value_t = 32)]
    rounds: usize,
    #[command(flatten)]
    solver: SolverArgs,
}

#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    /// Seed files or folders; `seeds/` by default.
    paths: Vec<PathBuf>,
    /// The output folder. One that holds the build of other inputs is
    /// refused (see --force).
    #[arg(long, default_value = "generated")]
    out: PathBuf,
    /// Templates overriding the built-in ones, file by file; `templates/` when it exists.
    #[arg(long)]
    templates: Option<PathBuf>,
    /// Write nothing; fail with a diff if the output folder is stale.
    #[arg(long)]
    check: bool,
    /// Build into a folder that holds the output of other inputs (or of
    /// another command), replacing it: the files its manifest lists are
    /// removed.
    #[arg(long, conflicts_with = "check")]
    force: bool,
    #[command(flatten)]
    solver: SolverArgs,
    /// A scenario may write this many times its seed's size per person,
    /// plus 1 MiB; one that would write more is refused.
    #[arg(long, default_value_t = crate::build::MAX_OUTPUT_RATIO,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_output_ratio: u64,
    /// The cue × rule conditions to render, as `<cue>-<rule>` (cues:
    /// none, privacy, sanitized, combined; rules: strict, policy, none),
    /// comma-separated or repeated; all 12 by default.
    #[arg(long, value_delimiter = ',', value_parser = values::condition)]
    conditions: Vec<crate::render::Condition>,
    /// How to lay the artifacts out: a Markdown file each (`files`), or
    /// one `artifacts.json` per scenario holding the same texts
    /// (`packed`), for large corpora.
    #[arg(long, value_enum, default_value = "files")]
    layout: LayoutArg,
    #[command(flatten)]
    lints: LintArgs,
}

/// `--layout` of `cici build`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LayoutArg {
    Files,
    Packed,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StatsFormat {
    Markdown,
    Json,
}

#[derive(clap::Args, Debug)]
pub struct StatsArgs {
    /// Seed files or folders; `seeds/` by default.
    paths: Vec<PathBuf>,
    /// How to print: a Markdown table or one JSON object.
    #[arg(long, value_enum, default_value = "markdown")]
    format: StatsFormat,
    #[command(flatten)]
    solver: SolverArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Human,
    Json,
}

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Seed files, or folders searched recursively for `*.cici`; `seeds/`
    /// by default; `-` reads one seed from stdin.
    paths: Vec<PathBuf>,
    /// `human` diagnostics on stderr, or one JSON object on stdout.
    #[arg(long, value_enum, default_value = "human")]
    format: Format,
    #[command(flatten)]
    lints: LintArgs,
    #[command(flatten)]
    judge: JudgeArgs,
    /// Apply the unambiguous fixes to the files, then report what is left.
    #[arg(long)]
    fix: bool,
    /// Say where each scenario's time went: lowering, the proofs (with
    /// their solver calls) and all analyses.
    #[arg(long)]
    timings: bool,
    #[command(flatten)]
    solver: SolverArgs,
}

#[derive(clap::Args, Debug)]
pub struct FmtArgs {
    /// Seed files or folders; `-` reads stdin and writes stdout.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Write nothing; print a diff and fail if a file is not formatted.
    #[arg(long)]
    check: bool,
}

#[derive(clap::Args, Debug)]
pub struct ExplainArgs {
    /// The seed file holding the attribute.
    file: PathBuf,
    /// The attribute's id.
    attribute: String,
    /// The scenario, when several in the file have the attribute.
    #[arg(long)]
    scenario: Option<String>,
    #[command(flatten)]
    solver: SolverArgs,
}

/// The parsed command line; a usage error is JSON when JSON was asked for.
fn parse() -> Result<Cli, CliError> {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let json = output::wants_json(&args);
    output::set_json(json);
    match Cli::try_parse_from(&args) {
        Ok(cli) => Ok(cli),
        Err(e) if json && e.use_stderr() => {
            let text = e.render().to_string();
            let message = text.lines().next().unwrap_or_default();
            let message = message.strip_prefix("error: ").unwrap_or(message);
            let help = text
                .lines()
                .skip(1)
                .map(str::trim)
                .filter(|l| !l.is_empty());
            Err(usage(message, &help.collect::<Vec<_>>().join(" ")))
        }
        Err(e) => {
            let _ = e.print();
            Err(CliError::Reported(if e.use_stderr() { 2 } else { 0 }))
        }
    }
}

/// Parses the arguments and runs the command; what stopped it is reported
/// here, once, and gives the exit status.
pub fn main() -> ExitCode {
    parse()
        .and_then(|cli| {
            cli.global.install();
            run(cli.command)
        })
        .unwrap_or_else(CliError::report)
}

fn run(command: Command) -> Outcome {
    match command {
        Command::Check(args) => check::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Build(args) => build::run(args),
        Command::Stats(args) => build::stats(args),
        Command::Counterfactual(args) => counterfactual::run(*args),
        Command::Fmt(args) => fmt::run(args),
        Command::Lsp => match crate::authoring::lsp::run_stdio() {
            Ok(crate::authoring::lsp::Ended::Clean) => Ok(ExitCode::SUCCESS),
            Ok(crate::authoring::lsp::Ended::WithoutShutdown) => Ok(ExitCode::from(1)),
            Err(e) => Err(fail(format!("language server: {e}"))),
        },
        Command::New(args) => author::new(args),
        Command::Import(args) => import::run(args),
        Command::Export(args) => import::export(args),
        Command::Synth(args) => author::synth(args),
        Command::Report(args) => report::run(args),
        Command::Review(args) => review::run(args),
        Command::Completions { shell } => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut cmd, "cici", &mut out);
            print_all(&out)
        }
        Command::Man { command } => man(&command),
    }
}

/// The manual page of the program, or of the command `path` names.
fn man(path: &[String]) -> Outcome {
    let mut cmd = <Cli as clap::CommandFactory>::command();
    cmd.build();
    for (depth, name) in path.iter().enumerate() {
        let names: Vec<String> = cmd
            .get_subcommands()
            .filter(|c| c.get_name() != "help")
            .map(|c| c.get_name().to_string())
            .collect();
        let Some(sub) = cmd.find_subcommand(name).cloned() else {
            let within = std::iter::once("cici")
                .chain(path[..depth].iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join(" ");
            let help = match crate::suggest::closest(name, names.iter().map(String::as_str)) {
                Some(n) => format!("did you mean `{n}`? pages: {}", names.join(", ")),
                None => format!("pages: {}", names.join(", ")),
            };
            return Err(usage(format!("`{within}` has no command `{name}`"), &help));
        };
        cmd = sub;
    }
    let mut out = Vec::new();
    match clap_mangen::Man::new(cmd).render(&mut out) {
        Ok(()) => print_all(&out),
        Err(e) => Err(fail(format!("writing the manual page: {e}"))),
    }
}
