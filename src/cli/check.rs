//! `cici check`

use super::output::Failure;

use super::output::{fail, print_all, status, Outcome};
use super::{CheckArgs, Format};
use crate::analysis::{Class, Options};
use crate::authoring::fixit::Fixes as _;
use crate::driver::{CheckOutput, Run};

pub(crate) use super::output::handler;

/// Renders every diagnostic of a run as text.
pub fn render(run: &Run, handler: &miette::GraphicalReportHandler) -> String {
    let mut out = String::new();
    for s in &run.skipped {
        out.push_str(&format!("warning: {s}\n"));
    }
    for file in run.by_file() {
        out.push_str(&render_file(&file, handler));
    }
    out
}

/// Renders one file's diagnostics, with the plain text after them if the
/// handler fails.
pub(crate) fn render_file(
    file: &crate::driver::FileReport<'_>,
    handler: &miette::GraphicalReportHandler,
) -> String {
    let mut out = String::new();
    if handler.render_report(&mut out, file).is_err() {
        out.push_str(&format!("{file}\n"));
    }
    out
}

/// Checks the named paths, `seeds/` when none is named, or a seed on
/// stdin (`-`).
fn check_input(
    run: &mut Run,
    paths: &[std::path::PathBuf],
    options: &Options,
) -> Result<(), Failure> {
    if paths.iter().any(|p| p.as_os_str() == "-") {
        if paths.len() > 1 {
            return Err(Failure::StdinNotAlone);
        }
        run.check_text("<stdin>", super::output::read_stdin()?, options);
        return Ok(());
    }
    let default = [std::path::PathBuf::from("seeds")];
    let paths = if paths.is_empty() {
        &default[..]
    } else {
        paths
    };
    Ok(run.check_paths(paths, options)?)
}

pub(super) fn run(args: CheckArgs) -> Outcome {
    let options = args.solver.options();
    if args.fix && args.paths.iter().any(|p| p.as_os_str() == "-") {
        return Err(fail("--fix writes files: it cannot fix stdin"));
    }
    let mut run = Run::new();
    check_input(&mut run, &args.paths, &options)?;
    run.compute_fixes(&options);
    if args.fix && apply_fixes(&run)? > 0 {
        run = Run::new();
        check_input(&mut run, &args.paths, &options)?;
        run.compute_fixes(&options);
    }
    if args.judge.judge {
        let settings = args.judge.settings().map_err(fail)?;
        if let Some(e) = args.judge.missing(&settings) {
            return Err(e);
        }
        judge(&mut run, &args.judge)?;
    }
    let levels = args.lints.levels().map_err(fail)?;
    run.apply_levels(&levels);
    if run.sources.is_empty() {
        return Err(fail(format!(
            "no `*.cici` files found under {}",
            args.paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    match args.format {
        Format::Json => {
            let out = CheckOutput::new(&run, args.timings);
            let text = serde_json::to_string_pretty(&out).expect("the report serializes");
            print_all(format!("{text}\n").as_bytes())?;
        }
        Format::Human => {
            eprint!("{}", render(&run, &handler()));
            let mut lines = String::new();
            for c in &run.checked {
                lines.push_str(&summary_line(c));
                lines.push('\n');
                if args.timings {
                    lines.push_str(&format!("     {}\n", crate::driver::Timings::of(c)));
                }
            }
            print_all(lines.as_bytes())?;
            let files = run.sources_len();
            super::output::say!(
                "checked {} scenario{} in {} file{}: {} error{}, {} warning{}",
                run.checked.len(),
                plural(run.checked.len()),
                files,
                plural(files),
                run.errors(),
                plural(run.errors()),
                run.warnings(),
                plural(run.warnings()),
            );
        }
    }
    status(run.errors() > 0)
}

/// Writes the unambiguous fixes into their files; how many files changed.
fn apply_fixes(run: &Run) -> Result<usize, Failure> {
    let mut changed = 0;
    for (source, edits) in run.unambiguous_edits() {
        let Some(file) = run.sources.get(source) else {
            continue;
        };
        let path = std::path::Path::new(&file.name);
        // The file as it is now, strictly: a file that is not UTF-8 (the
        // check read it with replacement characters) or that changed since
        // is left alone rather than rewritten.
        let now = crate::io::read_text(path)?;
        if now != file.text {
            return Err(Failure::Changed(file.name.clone()));
        }
        let Some(text) = crate::authoring::fixit::apply(&file.text, &edits) else {
            continue;
        };
        crate::io::write_in_place(path, &text).map_err(|error| Failure::Write {
            name: file.name.clone(),
            error,
        })?;
        changed += 1;
        super::output::note!(
            "fixed {}: {} edit{}",
            file.name,
            edits.len(),
            plural(edits.len())
        );
    }
    Ok(changed)
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// `ok   ops_scheduling  unique; 3 critical, 2 benign, 4 irrelevant`
fn summary_line(c: &crate::driver::Checked) -> String {
    let status = if c.report.errors() > 0 {
        "FAIL"
    } else {
        "ok  "
    };
    let mut counts: Vec<(Class, usize)> = Vec::new();
    for a in &c.report.attributes {
        match counts.iter_mut().find(|(k, _)| *k == a.class) {
            Some((_, n)) => *n += 1,
            None => counts.push((a.class, 1)),
        }
    }
    counts.sort();
    let classes = counts
        .iter()
        .map(|(k, n)| format!("{n} {}", k.name()))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "{status} {}  {}; {classes}",
        c.scenario.id,
        verdict(&c.report)
    )
}

/// What the proof says of the oracle, in the summary line's words: a
/// scenario that allows no decision at all is not "not unique".
fn verdict(r: &crate::analysis::Report) -> &'static str {
    if r.unique {
        "unique"
    } else if r.timed_out {
        "undecided (solver bound)"
    } else if !r.public_feasible {
        "NO decision allowed (the public constraints alone allow none)"
    } else if !r.oracle_allowed && r.alternative.is_none() {
        "NO decision allowed"
    } else if !r.oracle_allowed {
        "oracle ruled out"
    } else {
        "NOT unique"
    }
}

/// Runs the model judge over the run and says what it did on stderr.
fn judge(run: &mut Run, args: &super::args::JudgeArgs) -> Result<(), Failure> {
    let settings = args.settings()?;
    if let Some(batch) = &args.ingest_batch {
        let cache = crate::llm::Cache::new(&settings.cache_dir);
        let (stored, errors) =
            crate::llm::ingest_batch(batch, &cache, settings.api_key().as_deref())?;
        super::output::note!(
            "judge: ingested {stored} response(s) from {}",
            batch.display()
        );
        for e in &errors {
            eprintln!("warning: {e}");
        }
    }
    let mode = if args.offline {
        crate::llm::Mode::Offline
    } else if args.emit_batch.is_some() {
        crate::llm::Mode::Emit
    } else {
        crate::llm::Mode::Live
    };
    let llm = crate::llm::Llm::new(settings, mode);
    let judged = crate::judge::judge(run, &llm)?;
    if let Some(path) = &args.emit_batch {
        let n = llm.write_batch(path).map_err(|error| Failure::Write {
            name: format!("writing {}", path.display()),
            error,
        })?;
        super::output::note!(
            "judge: {n} question(s) written to {} for a batch; run again with --ingest-batch",
            path.display()
        );
    }
    let u = llm.usage();
    super::output::note!(
        "judge: {} form{} asked of {}, {} finding{}, {} unreadable repl{} ({} request{}, {} from the cache)",
        judged.asked,
        plural(judged.asked),
        llm.model(),
        judged.findings,
        plural(judged.findings),
        judged.unreadable,
        if judged.unreadable == 1 { "y" } else { "ies" },
        u.requests,
        plural(u.requests as usize),
        u.cache_hits,
    );
    Ok(())
}

/// Renders each of `diagnostics` against the file they are about (`name`,
/// `text`) on stderr, as `check` renders a seed's: the one way an import
/// shows what it found in a release file.
pub(super) fn show_file_diagnostics<D: miette::Diagnostic>(
    name: &str,
    text: &str,
    diagnostics: &[D],
) {
    if diagnostics.is_empty() {
        return;
    }
    let handler = handler();
    let source = std::sync::Arc::<str>::from(text);
    let starts = crate::driver::excerpt::line_starts(text);
    for d in diagnostics {
        let mut out = String::new();
        let shown = crate::driver::excerpt::Shown::new(d, name, &source, &starts);
        if handler.render_report(&mut out, &shown).is_err() {
            out = format!("{d}\n");
        }
        eprint!("{out}");
    }
}
