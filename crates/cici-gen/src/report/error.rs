//! Why a folder or a log cannot be drawn. Each is reported with its code,
//! where it stands (`file:line:column` where a line is at fault) and a help
//! line; nothing is written.

use miette::Diagnostic;
use thiserror::Error;

#[derive(Debug, Error, Diagnostic)]
pub enum ReportError {
    #[error("{folder}: not a counterfactual or build output folder (no decision/ or flow/ rows, no */scenario.json)")]
    #[diagnostic(
        code(cici::report::not_an_output),
        help("give a folder that `cici counterfactual --out DIR` or `cici build --out DIR` wrote")
    )]
    NotAnOutput { folder: String },

    #[error("{file}:{line}:{column}: not a counterfactual row: {reason}")]
    #[diagnostic(
        code(cici::report::bad_row),
        help("each line of decision/*.jsonl and flow/*.jsonl is one row as `cici counterfactual` writes it; run it again to rewrite the folder")
    )]
    BadRow {
        file: String,
        line: usize,
        column: usize,
        reason: String,
    },

    #[error("{file}:{line}:{column}: not a scenario record: {reason}")]
    #[diagnostic(
        code(cici::report::bad_scenario),
        help("a build folder's */scenario.json is the record `cici build` writes; run it again to rewrite the folder")
    )]
    BadScenario {
        file: String,
        line: usize,
        column: usize,
        reason: String,
    },

    #[error("{file}: the anchor seed of scenario `{scenario}` does not check ({errors} error(s))")]
    #[diagnostic(
        code(cici::report::bad_seed),
        help("the classes are proven from each row's anchor seed; `cici check` the seed the folder was grown from and grow the folder again")
    )]
    BadSeed {
        file: String,
        scenario: String,
        errors: usize,
    },

    #[error("{file}:{line}:{column}: not an inspect_ai log: {reason}")]
    #[diagnostic(
        code(cici::report::bad_log),
        help("give the logs `inspect eval` writes: .eval archives, or JSON (`--log-format json`)")
    )]
    BadLog {
        file: String,
        line: usize,
        column: usize,
        reason: String,
    },

    #[error("{file}: not a readable .eval log: {reason}")]
    #[diagnostic(
        code(cici::report::bad_eval),
        help("a .eval log is the zip archive `inspect eval` writes (header.json and samples/*.json); run the eval again, or give a JSON log (`--log-format json`)")
    )]
    BadEval { file: String, reason: String },

    #[error("{file}: too large to read: {what}")]
    #[diagnostic(
        code(cici::report::eval_too_large),
        help("a .eval log is read entry by entry: at most 64 MiB an entry, 200000 entries and 1 GiB in all; split the run into smaller logs (fewer samples or epochs to an `inspect eval`)")
    )]
    EvalTooLarge { file: String, what: String },

    #[error("{file}: cannot be read: {reason}")]
    #[diagnostic(
        code(cici::report::unreadable),
        help("the folder's files and the logs are read as UTF-8 text: a log or a record of at most 64 MiB, a data file (decision/*.jsonl, flow/*.jsonl) of at most 512 MiB, and at most 1 GiB of data files in one folder")
    )]
    Unreadable { file: String, reason: String },
}

impl ReportError {
    /// The code, as `--format json` reports it.
    pub fn code_name(&self) -> String {
        self.code().map(|c| c.to_string()).unwrap_or_default()
    }

    /// The help line.
    pub fn help_line(&self) -> String {
        self.help().map(|h| h.to_string()).unwrap_or_default()
    }
}
