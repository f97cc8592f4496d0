//! Arguments several commands share: the solver bound, lint levels and
//! the model judge.

use std::path::PathBuf;

/// The bound on solver work every command that checks seeds takes.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct SolverArgs {
    /// Bound on solver time per scenario, in milliseconds.
    #[arg(long, default_value_t = 10_000)]
    pub max_solve_ms: u64,
}

impl SolverArgs {
    /// The bound as a duration.
    pub fn max_solve(self) -> std::time::Duration {
        std::time::Duration::from_millis(self.max_solve_ms)
    }

    /// The analyses' options under this bound.
    pub fn options(self) -> crate::analysis::Options {
        crate::analysis::Options {
            max_solve: Some(self.max_solve()),
        }
    }
}

impl Default for SolverArgs {
    fn default() -> SolverArgs {
        SolverArgs {
            max_solve_ms: 10_000,
        }
    }
}

/// Lint levels for the run: each flag repeatable, a code with or without
/// its `cici::check::` prefix, or `warnings` for every lint. They override
/// `lints:` in `cici.yaml`; a `# cici: allow <code>` comment in a seed
/// overrides both.
#[derive(clap::Args, Debug, Default)]
pub struct LintArgs {
    /// Do not report this lint.
    #[arg(long, value_name = "CODE", value_parser = LintCode)]
    allow: Vec<String>,
    /// Report this lint as a warning.
    #[arg(long, value_name = "CODE", value_parser = LintCode)]
    warn: Vec<String>,
    /// Report this lint as an error, failing the run (`--deny warnings`:
    /// every lint).
    #[arg(long, value_name = "CODE", value_parser = LintCode)]
    deny: Vec<String>,
}

/// The model judge of `check`: the `llm` settings of `cici.yaml`, then
/// these flags.
#[derive(clap::Args, Debug, Default)]
pub struct JudgeArgs {
    /// Ask a model, once per form that carries a fact, whether its text
    /// states the fact and whether a sanitized text reveals its reason
    /// (warnings `judge_entailment`, `judge_reveals`).
    #[arg(long)]
    pub(super) judge: bool,
    /// The project file with the `llm` settings.
    #[arg(long, default_value = "cici.yaml", requires = "judge")]
    pub(super) config: PathBuf,
    /// The API root of an OpenAI-compatible server, e.g. http://localhost:8000/v1.
    #[arg(long, requires = "judge")]
    pub(super) base_url: Option<String>,
    /// The model to ask.
    #[arg(long, requires = "judge")]
    pub(super) model: Option<String>,
    /// The environment variable holding the API key.
    #[arg(long, requires = "judge")]
    pub(super) api_key_env: Option<String>,
    /// The folder of cached replies.
    #[arg(long, requires = "judge")]
    pub(super) cache_dir: Option<PathBuf>,
    /// Send nothing: every answer must come from the cache.
    #[arg(long, requires = "judge")]
    pub(super) offline: bool,
    /// Send nothing: write every question the check needs as OpenAI Batch
    /// JSONL; a later `--ingest-batch` of the responses answers them.
    #[arg(long, requires = "judge", conflicts_with = "offline")]
    pub(super) emit_batch: Option<PathBuf>,
    /// Read a batch's responses into the cache before judging.
    #[arg(long, requires = "judge")]
    pub(super) ingest_batch: Option<PathBuf>,
}

impl JudgeArgs {
    /// The `llm` settings for the judge.
    pub(crate) fn settings(
        &self,
    ) -> Result<crate::llm::LlmConfig, crate::driver::config::ConfigError> {
        let mut c = crate::driver::config::ProjectConfig::load(&self.config)?.llm;
        if let Some(v) = &self.base_url {
            c.base_url = v.clone();
        }
        if let Some(v) = &self.model {
            c.model = v.clone();
        }
        if let Some(v) = &self.api_key_env {
            c.api_key_env = v.clone();
        }
        if let Some(v) = &self.cache_dir {
            c.cache_dir = v.display().to_string();
        }
        c.validate()
            .map_err(|error| crate::driver::config::ConfigError::Setting {
                path: self.config.clone(),
                section: "",
                error,
            })?;
        Ok(c)
    }

    /// The usage error of settings that name no model, or no server to
    /// send to, if they do not.
    pub(crate) fn missing(&self, c: &crate::llm::LlmConfig) -> Option<super::output::CliError> {
        let sends = !self.offline && self.emit_batch.is_none();
        c.missing(sends)
            .map(|key| missing_setting(key, &self.config))
    }
}

/// The usage error of a model setting a run needs and does not have.
pub(crate) fn missing_setting(key: &str, config: &std::path::Path) -> super::output::CliError {
    super::output::usage(
        format!("the model setting `{key}` is not set; cici names no model by default"),
        &format!(
            "set `{key}:` under `llm:` in {}, or pass --{}",
            config.display(),
            key.replace('_', "-")
        ),
    )
}

/// A lint code, read by `driver::levels::lint_name` (so a typo names the
/// nearest code), and offered to shell completion as the list of codes.
#[derive(Clone)]
struct LintCode;

impl clap::builder::TypedValueParser for LintCode {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        let text = clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)?;
        crate::driver::levels::lint_name(&text)
            .map(str::to_string)
            .map_err(|e| {
                let arg = arg.map_or_else(|| "CODE".to_string(), ToString::to_string);
                let message = format!("invalid value '{text}' for '{arg}': {e}\n");
                clap::Error::raw(clap::error::ErrorKind::ValueValidation, message).with_cmd(cmd)
            })
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        let codes = crate::driver::levels::LINTS
            .iter()
            .chain(std::iter::once(&crate::driver::levels::WARNINGS));
        Some(Box::new(
            codes.map(|c| clap::builder::PossibleValue::new(*c)),
        ))
    }
}

impl LintArgs {
    /// The levels of these flags over those of `cici.yaml` (in the
    /// current folder, when there is one).
    pub(crate) fn levels(
        &self,
    ) -> Result<crate::driver::Levels, crate::driver::config::ConfigError> {
        let project =
            crate::driver::config::ProjectConfig::load(std::path::Path::new("cici.yaml"))?;
        crate::driver::Levels::from_flags(
            &self.allow,
            &self.warn,
            &self.deny,
            project.lint_levels()?,
        )
        .map_err(crate::driver::config::ConfigError::Flag)
    }
}
