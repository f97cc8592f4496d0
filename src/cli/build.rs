//! `cici build` and `cici stats`

use super::output::{fail, print_all, render_one, status, CliError, Outcome};
use super::{BuildArgs, StatsArgs, StatsFormat};
use crate::build;
use crate::driver::Run;
use crate::render::Templates;
use std::collections::BTreeMap;
use std::path::PathBuf;

fn checked_run(
    paths: &[PathBuf],
    solver: super::args::SolverArgs,
    lints: &super::args::LintArgs,
) -> Result<Run, CliError> {
    let options = solver.options();
    let mut run = Run::new();
    run.check_paths(paths, &options).map_err(fail)?;
    let levels = lints.levels().map_err(fail)?;
    run.apply_levels(&levels);
    if run.sources.is_empty() {
        return Err(fail(format!(
            "no `*.cici` files found under {}",
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    eprint!("{}", super::check::render(&run, &super::check::handler()));
    Ok(run)
}

/// The schemas of the datasets made from built scenarios, which the build
/// ships beside the scenario's: the counterfactual triplet's row.
fn dataset_schemas() -> BTreeMap<String, serde_json::Value> {
    let triplet = crate::counterfactual::output::schema();
    BTreeMap::from([("triplet.schema.json".to_string(), triplet)])
}

pub(super) fn run(args: BuildArgs) -> Outcome {
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from("seeds")]
    } else {
        args.paths
    };
    let templates = match &args.templates {
        Some(dir) if !dir.is_dir() => {
            return Err(fail(format!(
                "templates folder {} does not exist",
                dir.display()
            )))
        }
        Some(dir) => Templates::load(dir),
        None if PathBuf::from("templates").is_dir() => Templates::load(&PathBuf::from("templates")),
        None => Ok(Templates::builtin()),
    };
    let templates = templates.map_err(|e| fail(render_one(&e)))?;
    let run = checked_run(&paths, args.solver, &args.lints)?;
    let options = build::Options {
        max_output_ratio: args.max_output_ratio,
        conditions: args.conditions,
        layout: match args.layout {
            super::LayoutArg::Files => build::Layout::Files,
            super::LayoutArg::Packed => build::Layout::Packed,
        },
        schemas: dataset_schemas(),
    };
    let plan = build::plan_with(&run, &templates, &options);
    for e in &plan.errors {
        eprintln!("{}", render_one(e));
    }
    let failed = run.errors() > 0 || !plan.errors.is_empty();
    let target = build::Target {
        out: &args.out,
        writer: build::Writer::Build,
        inputs: &paths,
        force: args.force,
    };
    // Prune only after a clean run: a seed with errors keeps what an
    // earlier build wrote for it.
    if let Some(s) = put(&target, &plan.files, !failed, args.check)? {
        super::output::say!(
            "built {} scenario{} into {}: {} written, {} unchanged, {} removed",
            plan.built.len(),
            if plan.built.len() == 1 { "" } else { "s" },
            args.out.display(),
            s.written,
            s.unchanged,
            s.removed
        );
    }
    if !plan.skipped.is_empty() {
        eprintln!("not built (errors): {}", plan.skipped.join(", "));
    }
    status(failed)
}

/// Checks or writes an output folder. With `check`, prints how it differs
/// from `files` and fails (exit 1) when it does; otherwise writes `files`
/// with their manifest and says what it did. A folder that holds another
/// origin's output is a diagnostic (exit 2), an I/O error exit 2.
pub(super) fn put(
    target: &build::Target,
    files: &BTreeMap<String, String>,
    prune: bool,
    check: bool,
) -> Result<Option<build::WriteSummary>, CliError> {
    let out = target.out.display();
    if !check {
        return match build::write(target, files, prune) {
            Ok(s) => Ok(Some(s)),
            Err(build::OutputError::Io(e)) => Err(fail(format!("writing {out}: {e}"))),
            Err(e) => Err(CliError::diagnostic(e, 2)),
        };
    }
    let diffs = build::check(target, files);
    for d in &diffs {
        print_all(d.diff.as_bytes())?;
    }
    if !diffs.is_empty() {
        let n = diffs.len();
        eprintln!(
            "{out} is stale: {n} file{} differ{}; run `cici {}` to regenerate",
            if n == 1 { "" } else { "s" },
            if n == 1 { "s" } else { "" },
            target.writer.command()
        );
        return Err(CliError::Reported(1));
    }
    super::output::say!("{out} is up to date ({} files)", files.len() + 1);
    Ok(None)
}

pub(super) fn stats(args: StatsArgs) -> Outcome {
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from("seeds")]
    } else {
        args.paths
    };
    let run = checked_run(&paths, args.solver, &super::args::LintArgs::default())?;
    let ok: Vec<&crate::driver::Checked> = run
        .checked
        .iter()
        .filter(|c| c.report.errors() == 0)
        .collect();
    let stats = crate::stats::stats(&ok);
    let text = match args.format {
        StatsFormat::Markdown => crate::stats::markdown(&stats),
        StatsFormat::Json => serde_json::to_string_pretty(&stats).expect("stats serialize") + "\n",
    };
    print_all(text.as_bytes())?;
    status(run.errors() > 0)
}
