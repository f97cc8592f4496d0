//! `cici counterfactual`

use std::process::ExitCode;
use std::sync::Arc;

use super::output::{fail, status, CliError, Outcome};
use super::{CounterfactualArgs, CriticArg, GeneratorArg, KindArg, Shard};
use crate::counterfactual::{output, Config, Kind};
use crate::driver::config::{ConfigError, ProjectConfig};
use crate::driver::Run;
use crate::llm::{self, Llm, Mode};
use crate::render::Templates;

/// The `llm` settings: the project file, then the flags.
fn llm_config(args: &CounterfactualArgs) -> Result<llm::LlmConfig, ConfigError> {
    let mut c = ProjectConfig::load(&args.config)?.llm;
    if let Some(v) = &args.base_url {
        c.base_url = v.clone();
    }
    if let Some(v) = &args.model {
        c.model = v.clone();
    }
    if let Some(v) = &args.api_key_env {
        c.api_key_env = v.clone();
    }
    if let Some(v) = args.temperature {
        c.temperature = v;
    }
    if let Some(v) = args.max_tokens {
        c.max_tokens = v;
    }
    if let Some(v) = args.timeout {
        c.timeout_s = v;
    }
    if let Some(v) = args.retries {
        c.max_retries = v;
    }
    if let Some(v) = args.retry_budget {
        c.retry_budget = v;
    }
    if let Some(v) = args.max_retry_after_s {
        c.max_retry_after_s = v;
    }
    if let Some(v) = args.max_failures {
        c.max_failures = v;
    }
    if let Some(v) = args.concurrency {
        c.concurrency = v as usize;
    }
    if let Some(v) = &args.cache_dir {
        c.cache_dir = v.display().to_string();
    }
    c.validate().map_err(|error| ConfigError::Setting {
        path: args.config.clone(),
        section: "",
        error,
    })?;
    Ok(c)
}

pub(super) fn run(args: CounterfactualArgs) -> Outcome {
    let options = args.solver.options();
    let uses_model = args.generator == GeneratorArg::Llm || args.critic == CriticArg::Llm;
    if !uses_model && (args.offline || args.emit_batch.is_some()) {
        return Err(super::output::usage(
            "--offline and --emit-batch concern a model, and this run calls none",
            "add --generator llm or --critic llm, or drop them",
        ));
    }
    let settings = llm_config(&args).map_err(fail)?;
    let sends = !args.offline && args.emit_batch.is_none();
    if let Some(key) = settings.missing(sends).filter(|_| uses_model) {
        return Err(super::args::missing_setting(key, &args.config));
    }
    if let Some(batch) = &args.ingest_batch {
        ingest(batch, &settings)?;
    }
    let mut run = Run::new();
    run.check_paths(&args.paths, &options).map_err(fail)?;
    run.apply_levels(&args.lints.levels().map_err(fail)?);
    report_checks(&run);
    let seeds = seeds_to_grow(&run, args.shard);
    if seeds.is_empty() {
        return Err(fail("no seed without errors to grow triplets from"));
    }
    let mut config = config_of(&args, options);
    config.provenance = crate::counterfactual::Provenance {
        command: command_line(),
        seeds: seeds
            .iter()
            .map(|c| crate::counterfactual::SeedSource::of(&c.scenario.id, run.file_of(c)))
            .collect(),
    };
    let model = uses_model.then(|| {
        let mode = if args.offline {
            Mode::Offline
        } else if args.emit_batch.is_some() {
            Mode::Emit
        } else {
            Mode::Live
        };
        Arc::new(Llm::new(settings.clone(), mode))
    });
    if let Some(m) = &model {
        config.workers = settings.concurrency;
        if args.generator == GeneratorArg::Llm {
            config.generator_llm = Some(m.clone());
        }
        if args.critic == CriticArg::Llm {
            config.critic_llm = Some(m.clone());
        }
    }
    let result = crate::counterfactual::run(&seeds, &config, &Templates::builtin(), &args.out);
    if let Some(m) = &model {
        report_model(m, args.emit_batch.as_deref())?;
    }
    if let Some(e) = config.fatal() {
        // What was accepted before the model failed is on disk already.
        return Err(fail(e));
    }
    let s = result.map_err(|e| fail(format!("writing {}: {e}", args.out.display())))?;
    finish(&s, &config, &run, &args)
}

/// Stores the responses of a finished batch in the cache.
fn ingest(batch: &std::path::Path, settings: &llm::LlmConfig) -> Result<(), CliError> {
    let (stored, errors) = llm::ingest_batch(
        batch,
        &llm::Cache::new(&settings.cache_dir),
        settings.api_key().as_deref(),
    )
    .map_err(fail)?;
    super::output::note!(
        "ingested {stored} response{} from {} into {}",
        if stored == 1 { "" } else { "s" },
        batch.display(),
        settings.cache_dir
    );
    for e in &errors {
        eprintln!("warning: {e}");
    }
    Ok(())
}

/// The seeds without errors, or this run's shard of them.
fn seeds_to_grow(run: &Run, shard: Option<Shard>) -> Vec<&crate::driver::Checked> {
    let seeds: Vec<&crate::driver::Checked> = run
        .checked
        .iter()
        .filter(|c| c.report.errors() == 0)
        .collect();
    let Some(shard) = shard else {
        return seeds;
    };
    let seeds: Vec<_> = seeds
        .into_iter()
        .enumerate()
        .filter(|(i, _)| i % shard.count == shard.index - 1)
        .map(|(_, c)| c)
        .collect();
    super::output::note!(
        "shard {}/{}: {} seed{}",
        shard.index,
        shard.count,
        seeds.len(),
        if seeds.len() == 1 { "" } else { "s" }
    );
    seeds
}

/// The loop's configuration from the arguments, before models and
/// provenance are added.
fn config_of(args: &CounterfactualArgs, options: crate::analysis::Options) -> Config {
    let kinds = match args.kind {
        KindArg::Decision => vec![Kind::Decision],
        KindArg::Flow => vec![Kind::Flow],
        KindArg::Both => vec![Kind::Decision, Kind::Flow],
    };
    let mut config = Config::symbolic(kinds, args.per_seed, args.seed, args.rounds.max(1), options);
    config.cues = Vec::new();
    for &cue in &args.cues {
        if !config.cues.contains(&cue) {
            config.cues.push(cue);
        }
    }
    config.split = args.split;
    config
}

/// What the model was asked, and the batch file when one is emitted.
fn report_model(m: &Llm, emit_batch: Option<&std::path::Path>) -> Result<(), CliError> {
    let u = m.usage();
    super::output::note!(
        "model {}: {} request{} ({} retr{}), {} cache hit{}, {} tokens in, {} out",
        m.model(),
        u.requests,
        if u.requests == 1 { "" } else { "s" },
        u.retries,
        if u.retries == 1 { "y" } else { "ies" },
        u.cache_hits,
        if u.cache_hits == 1 { "" } else { "s" },
        u.prompt_tokens,
        u.completion_tokens
    );
    if let Some(path) = emit_batch {
        match m.write_batch(path) {
            Ok(n) => eprintln!(
                "{n} request{} written to {}; run the batch, then rerun with --ingest-batch <output file>",
                if n == 1 { "" } else { "s" },
                path.display()
            ),
            Err(e) => return Err(fail(format!("writing {}: {e}", path.display()))),
        }
    }
    Ok(())
}

/// The summary of a written run, the seeds left short and why, and the
/// exit code.
fn finish(s: &output::Summary, config: &Config, run: &Run, args: &CounterfactualArgs) -> Outcome {
    super::output::say!(
        "{} triplet{} written to {} ({} kept from an earlier run)",
        s.written,
        if s.written == 1 { "" } else { "s" },
        args.out.display(),
        s.kept
    );
    if s.left_out > 0 {
        super::output::say!(
            "{} rejected in {} and left out",
            s.left_out,
            args.out
                .join(crate::verdicts::ledger::REVIEW_FILE)
                .display()
        );
    }
    if !s.short.is_empty() && args.emit_batch.is_none() {
        eprintln!("fewer triplets than asked for: {}", s.short.join(", "));
        for seed in &s.short {
            let reasons = config.rejections.of(seed);
            if !reasons.is_empty() {
                eprintln!("  {seed}: {}", top_reasons(&reasons));
            }
        }
    }
    // A run that produced nothing at all has failed, with its reasons.
    if s.written + s.kept == 0 && !run.checked.is_empty() && args.emit_batch.is_none() {
        let reasons = config.rejections.all();
        eprintln!(
            "error: no triplet was accepted; {}",
            if reasons.is_empty() {
                "no candidate was proposed".to_string()
            } else {
                format!("the candidates were rejected: {}", top_reasons(&reasons))
            }
        );
        return Ok(ExitCode::from(1));
    }
    status(run.errors() > 0)
}

/// The three most frequent rejection reasons, with their counts.
fn top_reasons(reasons: &[(String, usize)]) -> String {
    reasons
        .iter()
        .take(3)
        .map(|(r, n)| format!("{r} ({n}x)"))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The command line as typed, each argument quoted for a POSIX shell where
/// it needs to be, with the program named `cici`.
/// An absolute path as its last component, so that the card names no
/// local folder (`/home/me/seeds` is `seeds`); a flag's value likewise.
fn local_path_hidden(arg: &str) -> String {
    let (flag, value) = match arg.split_once('=') {
        Some((f, v)) if f.starts_with("--") => (format!("{f}="), v),
        _ => (String::new(), arg),
    };
    let path = std::path::Path::new(value);
    if !path.is_absolute() {
        return arg.to_string();
    }
    let last = path
        .file_name()
        .map_or_else(|| ".".to_string(), |n| n.to_string_lossy().into_owned());
    format!("{flag}{last}")
}

fn command_line() -> String {
    let quote = |a: String| {
        if !a.is_empty()
            && a.chars()
                .all(|c| c.is_ascii_alphanumeric() || "_./=:,+-@".contains(c))
        {
            a
        } else {
            format!("'{}'", a.replace('\'', "'\\''"))
        }
    };
    std::iter::once("cici".to_string())
        .chain(
            std::env::args()
                .skip(1)
                .map(|a| crate::llm::without_userinfo(&a))
                .map(|a| local_path_hidden(&a))
                .map(quote),
        )
        .collect::<Vec<_>>()
        .join(" ")
}

/// The check's findings before the run: a file with errors in full (its
/// seeds are left out); warnings in full with `--verbose`, otherwise one
/// line per file with their count by code.
fn report_checks(run: &Run) {
    use super::output::{verbosity, Verbosity};
    let handler = super::check::handler();
    if verbosity() == Verbosity::Verbose {
        eprint!("{}", super::check::render(run, &handler));
        return;
    }
    for s in &run.skipped {
        super::output::note!("warning: {s}");
    }
    let mut summarised = false;
    for file in run.by_file() {
        if file.errors > 0 {
            eprint!("{}", super::check::render_file(&file, &handler));
            continue;
        }
        let mut codes: Vec<(String, usize)> = Vec::new();
        for d in &file.diagnostics {
            let code = miette::Diagnostic::code(d).map_or_else(String::new, |c| c.to_string());
            let code = code.rsplit("::").next().unwrap_or_default().to_string();
            match codes.iter_mut().find(|(c, _)| *c == code) {
                Some((_, n)) => *n += 1,
                None => codes.push((code, 1)),
            }
        }
        let list: Vec<String> = codes.iter().map(|(c, n)| format!("{c} ×{n}")).collect();
        super::output::note!(
            "{}: {} warning{}: {}",
            file.name,
            file.warnings,
            if file.warnings == 1 { "" } else { "s" },
            list.join(", ")
        );
        summarised = true;
    }
    if summarised {
        super::output::note!("(warnings summarised by code; `cici check` or --verbose shows them)");
    }
}
