//! `cici export rl`: a counterfactual folder as prompt rows for
//! reinforcement learning with verifiable rewards.

use std::path::PathBuf;
use std::process::ExitCode;

use super::output::{CliError, Outcome};
use crate::rl::{self, Format, RlError};

#[derive(clap::Args, Debug)]
pub struct RlArgs {
    /// A folder `cici counterfactual --out DIR` wrote.
    pub(super) dir: PathBuf,
    /// The trainer whose rows are written: verl, trl or openrlhf (JSON
    /// Lines, one file per split).
    #[arg(long, value_enum)]
    pub(super) format: FormatArg,
    /// The folder to write into: `<split>.jsonl`, `reward.py` and, with
    /// --dpo, `dpo/<split>.jsonl`. It keeps a manifest (`.cici-manifest`)
    /// as every export's.
    #[arg(long)]
    pub(super) out: PathBuf,
    /// Also write preference pairs (`prompt`, `chosen`, `rejected`): each
    /// flipped side's answer over the anchor's, the anchor's over the
    /// flipped one's, and each decision side's over what honouring a trap
    /// gives. trl and openrlhf only.
    #[arg(long)]
    pub(super) dpo: bool,
    /// Ask, after a decision item's answer, for the details it rests on
    /// (a line starting `Because:`), which the reward then scores.
    #[arg(long)]
    pub(super) explain: bool,
    /// Write into a folder that holds the output of other inputs (or of
    /// another command), replacing it.
    #[arg(long)]
    pub(super) force: bool,
    /// Write nothing; fail with a diff if the folder is stale.
    #[arg(long, conflicts_with = "force")]
    pub(super) check: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub(super) enum FormatArg {
    Verl,
    Trl,
    Openrlhf,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Verl => Format::Verl,
            FormatArg::Trl => Format::Trl,
            FormatArg::Openrlhf => Format::Openrlhf,
        }
    }
}

/// Prints a diagnostic that stops the export; exit 2 for a file that
/// cannot be read, else 1.
fn refuse(e: RlError) -> CliError {
    let status = match e {
        RlError::Unreadable { .. } | RlError::DpoFormat { .. } => 2,
        _ => 1,
    };
    CliError::diagnostic(e, status)
}

pub(super) fn run(args: RlArgs) -> Outcome {
    let options = rl::Options {
        format: args.format.into(),
        dpo: args.dpo,
        explain: args.explain,
    };
    if options.dpo && options.format == Format::Verl {
        return Err(refuse(RlError::DpoFormat {
            format: options.format.name().into(),
        }));
    }
    let data = rl::read(&args.dir).map_err(refuse)?;
    let truths = rl::ground_truths(&data, options.explain).map_err(refuse)?;
    let files = rl::files(&data, &truths, options).map_err(refuse)?;
    let inputs = [args.dir.clone()];
    let target = crate::build::Target {
        out: &args.out,
        writer: crate::build::Writer::ExportRl,
        inputs: &inputs,
        force: args.force,
    };
    let prompts: usize = files
        .iter()
        .filter(|(p, _)| !p.contains('/') && p.ends_with(".jsonl"))
        .map(|(_, t)| t.lines().count())
        .sum();
    if let Some(s) = super::build::put(&target, &files, true, args.check)? {
        super::output::say!(
            "exported {} row{} as {} prompts into {}: {} written, {} unchanged, {} removed",
            data.rows.len(),
            if data.rows.len() == 1 { "" } else { "s" },
            prompts,
            args.out.display(),
            s.written,
            s.unchanged,
            s.removed
        );
    }
    Ok(ExitCode::SUCCESS)
}
