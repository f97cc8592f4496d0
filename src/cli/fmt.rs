//! `cici fmt`

use super::output::{fail, print_all, status, Outcome};
use super::{check::handler, FmtArgs};
use crate::diff::unified;
use crate::driver::{seed_files, WithSource};
use crate::io::{read_text, write_in_place};
use std::path::PathBuf;

pub(super) fn run(args: FmtArgs) -> Outcome {
    let handler = handler();
    let mut failed = false;
    let (stdin, paths): (Vec<&PathBuf>, Vec<PathBuf>) = {
        let (dash, files): (Vec<&PathBuf>, Vec<&PathBuf>) =
            args.paths.iter().partition(|p| p.as_os_str() == "-");
        (dash, files.into_iter().cloned().collect())
    };
    if !stdin.is_empty() {
        let text = super::output::read_stdin()?;
        match format_one("<stdin>", &text, &handler) {
            Some(out) if args.check => {
                if out != text {
                    print_all(unified("<stdin>", &text, &out, true).as_bytes())?;
                    failed = true;
                }
            }
            Some(out) => {
                print_all(out.as_bytes())?;
            }
            None => failed = true,
        }
    }
    let files = if paths.is_empty() {
        Vec::new()
    } else {
        let found = seed_files(&paths).map_err(fail)?;
        for s in &found.skipped {
            eprintln!("warning: {s}");
        }
        found.files
    };
    let (mut changed, mut unchanged) = (0usize, 0usize);
    for file in &files {
        let text = read_text(file).map_err(fail)?;
        let name = file.display().to_string();
        let Some(out) = format_one(&name, &text, &handler) else {
            failed = true;
            continue;
        };
        if out == text {
            unchanged += 1;
            continue;
        }
        changed += 1;
        if args.check {
            print_all(unified(&name, &text, &out, true).as_bytes())?;
        } else {
            write_in_place(file, &out).map_err(|e| fail(format!("{}: {e}", file.display())))?;
        }
    }
    if !files.is_empty() {
        let verb = if args.check {
            "would reformat"
        } else {
            "reformatted"
        };
        super::output::note!(
            "{verb} {changed} file{}, {unchanged} already formatted",
            if changed == 1 { "" } else { "s" }
        );
    }
    status(failed || (args.check && changed > 0))
}

/// The formatted text, or `None` after reporting why the text cannot be
/// formatted (it does not parse).
fn format_one(name: &str, text: &str, handler: &miette::GraphicalReportHandler) -> Option<String> {
    match crate::syntax::format(text) {
        Ok(out) => Some(out),
        Err(errors) => {
            let mut report = String::new();
            let (shared, starts) = (
                std::sync::Arc::<str>::from(text),
                crate::driver::excerpt::line_starts(text),
            );
            for e in &errors {
                let problem = crate::driver::Problem::Syntax(e.clone());
                let d = WithSource::new(&problem, &[], name, &shared, &starts);
                if handler.render_report(&mut report, &d).is_err() {
                    report.push_str(&format!("{e}\n"));
                }
            }
            eprint!("{report}");
            eprintln!("{name}: not formatted, it does not parse");
            None
        }
    }
}
