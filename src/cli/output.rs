//! What every command says on stderr, and whether in colour: the global
//! `--quiet`, `--verbose` and `--color` flags, set once before a command
//! runs and read wherever a command reports.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::OnceLock;

/// How much a command says beside its errors and diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Verbosity {
    /// Errors and diagnostics only: no summaries, no progress.
    Quiet,
    Normal,
    /// Everything: every warning of every seed, not a summary of them.
    Verbose,
}

/// When diagnostics are coloured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorArg {
    /// On a terminal, unless `NO_COLOR` is set.
    #[default]
    Auto,
    Always,
    Never,
}

/// The flags every command takes.
#[derive(clap::Args, Debug, Default)]
pub struct GlobalArgs {
    /// Print errors and diagnostics only: no summaries and no progress.
    #[arg(long, short, global = true, conflicts_with = "verbose")]
    quiet: bool,
    /// Print more: every check warning of every seed instead of a summary
    /// by code.
    #[arg(long, short, global = true)]
    verbose: bool,
    /// Colour diagnostics: auto (on a terminal, unless NO_COLOR is set),
    /// always or never.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t, global = true)]
    color: ColorArg,
}

struct Settings {
    verbosity: Verbosity,
    color: bool,
}

static SETTINGS: OnceLock<Settings> = OnceLock::new();

impl GlobalArgs {
    /// Makes these flags the process's settings; the first call wins.
    pub(crate) fn install(&self) {
        let verbosity = if self.quiet {
            Verbosity::Quiet
        } else if self.verbose {
            Verbosity::Verbose
        } else {
            Verbosity::Normal
        };
        let color = match self.color {
            ColorArg::Always => true,
            ColorArg::Never => false,
            ColorArg::Auto => auto_color(),
        };
        crate::io::hide_progress(verbosity == Verbosity::Quiet);
        let _ = SETTINGS.set(Settings { verbosity, color });
    }
}

/// The run's verbosity (normal when nothing set it, as in tests).
pub(crate) fn verbosity() -> Verbosity {
    SETTINGS.get().map_or(Verbosity::Normal, |s| s.verbosity)
}

/// Whether diagnostics are coloured (`auto` when nothing set it).
pub(crate) fn color() -> bool {
    SETTINGS.get().map_or_else(auto_color, |s| s.color)
}

/// `--color auto`: on a terminal, unless `NO_COLOR` is set.
fn auto_color() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

/// A summary or status line on stderr, which `--quiet` silences.
macro_rules! note {
    ($($arg:tt)*) => {
        if $crate::cli::output::verbosity() > $crate::cli::output::Verbosity::Quiet {
            eprintln!($($arg)*);
        }
    };
}
pub(crate) use note;

/// A command's closing summary on stdout, which `--quiet` silences; a
/// reader that went away (`| head`) is no error.
macro_rules! say {
    ($($arg:tt)*) => {
        if $crate::cli::output::verbosity() > $crate::cli::output::Verbosity::Quiet {
            use std::io::Write as _;
            let _ = writeln!(std::io::stdout(), $($arg)*);
        }
    };
}
pub(crate) use say;

static JSON: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether the command line asks for JSON (`--format json` or
/// `--format=json`): read before parsing, so that a usage error is JSON
/// too.
pub(crate) fn wants_json(args: &[std::ffi::OsString]) -> bool {
    args.iter()
        .zip(args.iter().skip(1))
        .any(|(a, b)| a == "--format" && b == "json")
        || args.iter().any(|a| a == "--format=json")
}

/// Reports errors as JSON on stdout from now on.
pub(crate) fn set_json(on: bool) {
    JSON.store(on, std::sync::atomic::Ordering::Relaxed);
}

/// An error that stops the command, with its code: on stderr, or with
/// `--format json` as the one JSON object `check` prints, holding one
/// diagnostic.
pub(crate) fn error(code: &str, message: &str, help: Option<&str>) {
    if JSON.load(std::sync::atomic::Ordering::Relaxed) {
        let mut diagnostic = serde_json::json!({
            "severity": "error",
            "code": code,
            "message": message,
        });
        if let Some(h) = help {
            diagnostic["help"] = h.into();
        }
        let out = serde_json::json!({
            "scenarios": [],
            "diagnostics": [diagnostic],
            "errors": 1,
            "warnings": 0,
        });
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), "{out:#}");
    } else {
        eprintln!("error: {message}");
        if let Some(h) = help {
            eprintln!("help: {h}");
        }
    }
}

/// Writes to stdout; a reader that stops early (`| head`) is no error.
pub(crate) fn print_all(bytes: &[u8]) -> Outcome {
    use std::io::Write;
    match std::io::stdout().lock().write_all(bytes) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(fail(format!("writing stdout: {e}")))
        }
        _ => Ok(ExitCode::SUCCESS),
    }
}

/// A seed on standard input, within the size any input may have.
pub(crate) fn read_stdin() -> Result<String, Failure> {
    use std::io::Read;
    let max = crate::io::MAX_INPUT_BYTES;
    let mut text = String::new();
    std::io::stdin()
        .take(max + 1)
        .read_to_string(&mut text)
        .map_err(Failure::Stdin)?;
    if text.len() as u64 > max {
        return Err(Failure::StdinTooLarge);
    }
    Ok(text)
}

/// Why a command could not do its work: reported as `cici::io`, exit 2.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Failure {
    #[error("reading stdin: {0}")]
    Stdin(std::io::Error),
    #[error("stdin: larger than the {} MiB an input may have", crate::io::MAX_INPUT_BYTES >> 20)]
    StdinTooLarge,
    #[error("`-` reads one seed from stdin: give it alone")]
    StdinNotAlone,
    #[error("{0}")]
    Read(#[from] std::io::Error),
    #[error("{0}")]
    Input(#[from] crate::io::InputError),
    /// A file that changed on disk between its check and its fix.
    #[error("{0}: changed while it was checked; not fixed")]
    Changed(String),
    #[error("{name}: {error}")]
    Write { name: String, error: std::io::Error },
    #[error(transparent)]
    Config(#[from] crate::driver::config::ConfigError),
    #[error(transparent)]
    Ingest(#[from] crate::llm::IngestError),
    /// The model cannot be used at all (unreachable, refused, offline miss).
    #[error(transparent)]
    Model(#[from] crate::judge::Stopped),
}

/// What a command handler gives `main`: the exit status of a command that
/// did its work (1 when it found errors in its input), or why it stopped.
pub(crate) type Outcome = Result<ExitCode, CliError>;

/// Why a command stopped before doing its work. `main` reports it, once,
/// and exits with its status.
#[derive(Debug)]
pub(crate) enum CliError {
    /// An error reading or writing: code `cici::io`, exit 2.
    Io(String),
    /// Arguments or settings that cannot work together: code
    /// `cici::usage`, exit 2.
    Usage { message: String, help: String },
    /// A diagnostic of its own code and help, rendered as `check` renders
    /// one on stderr, with the exit status it calls for.
    Diagnostic {
        diagnostic: Box<dyn miette::Diagnostic>,
        status: u8,
    },
    /// An error with its own code, message and help line, reported as
    /// `error` reports one (so as JSON under `--format json`).
    Coded {
        code: String,
        message: String,
        help: String,
        status: u8,
    },
    /// Already reported where it happened (the diagnostics of the input,
    /// a diff): exit with this status.
    Reported(u8),
}

impl CliError {
    /// A diagnostic that stops the command with `status`.
    pub(crate) fn diagnostic(
        diagnostic: impl miette::Diagnostic + 'static,
        status: u8,
    ) -> CliError {
        CliError::Diagnostic {
            diagnostic: Box::new(diagnostic),
            status,
        }
    }

    /// Says why the command stopped; its exit status.
    pub(crate) fn report(self) -> ExitCode {
        let status = match self {
            CliError::Io(message) => {
                error("cici::io", &message, None);
                2
            }
            CliError::Usage { message, help } => {
                error("cici::usage", &message, Some(&help));
                2
            }
            CliError::Diagnostic { diagnostic, status } => {
                eprintln!("{}", render_one(diagnostic.as_ref()));
                status
            }
            CliError::Coded {
                code,
                message,
                help,
                status,
            } => {
                error(&code, &message, Some(&help));
                status
            }
            CliError::Reported(status) => status,
        };
        ExitCode::from(status)
    }
}

impl From<Failure> for CliError {
    fn from(e: Failure) -> CliError {
        fail(e)
    }
}

/// An error reading or writing (code `cici::io`, exit status 2).
pub(crate) fn fail(message: impl std::fmt::Display) -> CliError {
    CliError::Io(message.to_string())
}

/// Arguments or settings that cannot work together (code `cici::usage`,
/// exit status 2).
pub(crate) fn usage(message: impl std::fmt::Display, help: &str) -> CliError {
    CliError::Usage {
        message: message.to_string(),
        help: help.to_string(),
    }
}

/// Exit status 1 when `errors` were found in the input, else 0.
pub(crate) fn status(errors: bool) -> Outcome {
    Ok(if errors {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// A graphical miette handler, coloured as `--color` says.
pub(crate) fn handler() -> miette::GraphicalReportHandler {
    let theme = if color() {
        miette::GraphicalTheme::unicode()
    } else {
        miette::GraphicalTheme::unicode_nocolor()
    };
    miette::GraphicalReportHandler::new_themed(theme).with_context_lines(1)
}

/// One diagnostic as `check` renders it; its plain text if that fails.
pub(crate) fn render_one(e: &dyn miette::Diagnostic) -> String {
    let mut s = String::new();
    if handler().render_report(&mut s, e).is_err() {
        s = e.to_string();
    }
    s
}

/// `n` and `word`, with an `s` unless `n` is one.
pub(super) fn count(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}
